"""nvgpu ops (MLIR 22): ldmatrix, mma.sync, mma.sp.sync and MLIR's `verifyMmaSyncOp`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.declarative import FormattedOp, Implied
from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    I16,
    IDX,
    WARP_SIZE,
    bitwidth,
    check_index,
    check_memref,
    is_shared_space,
    op_error,
    operand_type_error,
    result_type_error,
)

# ----------------------------------------------------------------------------------------------
# ops: ldmatrix, mma.sync, mma.sp.sync
# ----------------------------------------------------------------------------------------------


@irdl_op_definition
class LdMatrixOp(FormattedOp):
    """`nvgpu.ldmatrix %src[%i, %j] {numTiles = 4 : i32, transpose = false} : memref<..> -> vector<..>`."""

    name = "nvgpu.ldmatrix"
    srcMemref = operand_def()
    indices = var_operand_def(Implied(IDX))
    transpose = prop_def(BoolAttr)
    numTiles = prop_def(IntegerAttr)
    res = result_def()
    FORMAT: ClassVar[str] = "$srcMemref `[` $indices `]` attr-dict `:` type($srcMemref) `->` type($res)"

    def verify_(self) -> None:
        st, rt = self.srcMemref.type, self.res.type
        check_memref(self, 0, self.srcMemref)
        for i, v in enumerate(self.indices):
            check_index(self, 1 + i, v)
        if not isinstance(rt, VectorType) or not rt.get_shape():
            raise result_type_error(self, 0, "vector of any type values", rt)
        assert isinstance(st, MemRefType)
        if st.element_type != rt.element_type:
            raise op_error(self, "failed to verify that srcMemref and res have same element type")
        if not is_shared_space(st.memory_space):
            raise VerifyException(
                "expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or "
                "gpu::AddressSpaceAttr(Workgroup)"
            )
        width = bitwidth(rt.element_type)
        if width > 32 or width == 0:
            raise VerifyException("nvgpu.ldmatrix works for 32b or lower")
        if self.transpose.value.data and width != 16:
            raise VerifyException("nvgpu.ldmatrix transpose works only at 16b granularity")
        shape = rt.get_shape()
        if len(shape) != 2:
            raise VerifyException("results must be 2 dimensional vector")
        if shape[1] != 32 // width:
            raise VerifyException(f"expected vector register shape[1] = {32 // width}")
        if shape[0] != self.numTiles.value.data:
            raise VerifyException("expected vector register shape[0] and numTiles to match")


def mma_shape(op: Operation) -> tuple[int, int, int] | None:
    shape = op.properties.get("mmaShape")
    if not isinstance(shape, ArrayAttr) or len(shape.data) != 3:
        return None
    vals = [a.value.data for a in shape.data if isinstance(a, IntegerAttr)]
    return (vals[0], vals[1], vals[2]) if len(vals) == 3 else None


def verify_mma_sync(op: Operation, a: SSAValue, b: SSAValue, c: SSAValue, tf32: bool, sparse: bool) -> None:
    """MLIR's `verifyMmaSyncOp`, same checks in the same order, same wording."""
    for i, v in enumerate((a, b, c)):
        if not isinstance(v.type, VectorType) or not v.type.get_shape():
            raise operand_type_error(op, i, "vector of any type values", v.type)
    at, bt, ct = a.type, b.type, c.type
    assert isinstance(at, VectorType) and isinstance(bt, VectorType) and isinstance(ct, VectorType)
    if at.element_type != bt.element_type:
        raise op_error(op, "failed to verify that matrixA and matrixB have same element type")
    shape = mma_shape(op)
    if shape is None:
        raise op_error(op, "attribute 'mmaShape' failed to satisfy constraint: 64-bit integer array attribute")
    elem = at.element_type
    if sparse and isinstance(elem, Float64Type):
        raise VerifyException("f64 is not supported for sparse mode")
    if isinstance(elem, Float64Type):
        shape_k, num_a, num_b = 4, 1, 1
    elif isinstance(elem, (Float32Type, BFloat16Type, Float16Type)) or (
        isinstance(elem, IntegerType) and elem.width.data in (4, 8)
    ):
        w = bitwidth(elem)
        shape_k, num_a, num_b = 128 // w, 32 // w, 32 // w
    else:
        raise VerifyException(f"expected input data type (i4,i8,f16,bf16,tf32,f64) supported by {op.name}")
    num_c = 2
    m, n, k = shape
    ash, bsh, csh = at.get_shape(), bt.get_shape(), ct.get_shape()

    def prod(s: Sequence[int]) -> int:
        return (s[0] if s else 1) * (s[1] if len(s) > 1 else 1)

    factor = 2 if sparse else 1
    if prod(ash) * WARP_SIZE != m * k // factor:
        raise op_error(op, f"expected {m * k} warp-wide matrix A elements")
    if prod(bsh) * WARP_SIZE != k * n:
        raise op_error(op, f"expected {k * n} warp-wide matrix B elements")
    if prod(csh) * WARP_SIZE != m * n:
        raise op_error(op, f"expected {m * n} warp-wide matrix C elements")
    if tf32 and not isinstance(elem, Float32Type):
        raise op_error(op, "expected tf32 tensor cores only for F32 operands")
    m_tile, n_tile, k_tile = m // 8, n // 8, k // shape_k
    if len(ash) < 2 or ash[0] != m_tile * k_tile // factor or ash[1] != num_a:
        raise op_error(op, f"expected matrix A to be shaped ({m_tile * k_tile} x {num_a})")
    if len(bsh) < 2 or bsh[0] != k_tile * n_tile or bsh[1] != num_b:
        raise op_error(op, f"expected matrix B to be shaped ({k_tile * n_tile} x {num_b})")
    if len(csh) < 2 or csh[0] != m_tile * n_tile or csh[1] != num_c:
        raise op_error(op, f"expected matrix C to be shaped ({m_tile * n_tile} x {num_c})")


_ABC = "`(` $matrixA `,` $matrixB `,` $matrixC `)`"
_ABC_TYPES = "`(` type($matrixA) `,` type($matrixB) `,` type($matrixC) `)` `->` type($res)"


@irdl_op_definition
class MmaSyncOp(FormattedOp):
    """`nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector, vector, vector) -> vector`."""

    name = "nvgpu.mma.sync"
    matrixA = operand_def()
    matrixB = operand_def()
    matrixC = operand_def()
    mmaShape = prop_def(ArrayAttr)
    tf32Enabled = opt_prop_def(UnitAttr)
    res = result_def()
    FORMAT: ClassVar[str] = f"{_ABC} attr-dict `:` {_ABC_TYPES}"

    def verify_(self) -> None:
        verify_mma_sync(self, self.matrixA, self.matrixB, self.matrixC, self.tf32Enabled is not None, False)


@irdl_op_definition
class MmaSparseSyncOp(FormattedOp):
    """`nvgpu.mma.sp.sync(%a, %b, %c) metadata(%m) {mmaShape = [..], sparsitySelector = 0 : i32} : (..) -> ..`."""

    name = "nvgpu.mma.sp.sync"
    matrixA = operand_def()
    matrixB = operand_def()
    matrixC = operand_def()
    sparseMetadata = operand_def(Implied(VectorType(I16, [2])))
    mmaShape = prop_def(ArrayAttr)
    sparsitySelector = opt_prop_def(IntegerAttr)
    tf32Enabled = opt_prop_def(UnitAttr)
    res = result_def()
    FORMAT: ClassVar[str] = f"{_ABC} `metadata` `(` $sparseMetadata `)` attr-dict `:` {_ABC_TYPES}"

    @property
    def selector(self) -> int:
        sel = self.sparsitySelector
        return sel.value.data if sel is not None else 0

    def verify_(self) -> None:
        if self.selector > 1 or self.selector < 0:
            raise op_error(self, "sparsity selector should be 0 or 1")
        meta = self.sparseMetadata.type
        if meta != VectorType(I16, [2]):
            raise operand_type_error(self, 3, "vector of 16-bit signless integer values of length 2", meta)
        verify_mma_sync(self, self.matrixA, self.matrixB, self.matrixC, self.tf32Enabled is not None, True)
