"""Helpers shared by the corpus kernels to describe their export signatures."""

from collections.abc import Sequence

import cuda.tile as ct
from cuda.tile.compilation import (
    ArrayConstraint,
    CallingConvention,
    KernelSignature,
    ParameterConstraint,
    ScalarConstraint,
)

V1 = CallingConvention.cutile_python_v1()
V2 = CallingConvention.cutile_python_v2()


def array(
    dtype: ct.DType,
    ndim: int,
    *,
    contiguous: bool = True,
    index_dtype: ct.DType = ct.int32,
    shape_divisible_by: int = 1,
    alias_groups: Sequence[str] = (),
) -> ArrayConstraint:
    """A non-aliasing, 16-byte aligned array (row-major unless contiguous=False)."""
    strides = (None,) * (ndim - 1) + (1,) if contiguous and ndim else None
    return ArrayConstraint(
        dtype,
        ndim,
        index_dtype=index_dtype,
        stride_lower_bound_incl=0,
        alias_groups=alias_groups,
        may_alias_internally=False,
        stride_constant=strides,
        shape_divisible_by=shape_divisible_by,
        base_addr_divisible_by=16,
    )


def scalar(dtype: ct.DType) -> ScalarConstraint:
    return ScalarConstraint(dtype)


def signature(
    *params: ParameterConstraint | bool | int | float,
    cconv: CallingConvention = V1,
) -> KernelSignature:
    return KernelSignature(params, cconv)
