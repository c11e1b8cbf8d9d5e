"""cuda_tile types: tile, ptr, token, tensor_view, partition_view and friends.

Shapes are stored as plain int tuples (-1 is a dynamic `?`) inside a Data attribute,
which keeps type construction cheap; the parser also caches types by spelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Data, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition

DYNAMIC = -1


@irdl_attr_definition
class IntTuple(Data[tuple[int, ...]]):
    """A tuple of ints (shape, strides, dim map); -1 stands for `?`."""

    name = "cuda_tile.int_tuple"

    @classmethod
    def parse_parameter(cls, parser):  # type: ignore[no-untyped-def]  # pragma: no cover
        raise NotImplementedError("IntTuple is parsed by tile_lsp.compiler.syntax")

    def print_parameter(self, printer) -> None:  # type: ignore[no-untyped-def]  # pragma: no cover
        printer.print_string("x".join("?" if d < 0 else str(d) for d in self.data))


def ints(values: Sequence[int]) -> IntTuple:
    return _ints(tuple(values))


@cache
def _ints(values: tuple[int, ...]) -> IntTuple:
    # Attributes are immutable, and building one through xDSL is slow: share them.
    return IntTuple(values)


class _Shaped:
    """The shape and rank of a type with a `shape_attr` (tile, tensor_view)."""

    shape_attr: IntTuple

    @property
    def shape(self) -> tuple[int, ...]:
        return self.shape_attr.data

    @property
    def rank(self) -> int:
        return len(self.shape_attr.data)


@irdl_attr_definition
class TileType(_Shaped, ParametrizedAttribute, TypeAttribute):
    """`tile<4x8xf32>`: an immutable, statically shaped tile of scalars or pointers."""

    name = "cuda_tile.tile"
    shape_attr: IntTuple
    element_type: Attribute

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape_attr.data:
            n *= d
        return n


def tile(shape: Sequence[int], element_type: Attribute) -> TileType:
    return _tile(tuple(shape), element_type)


@cache
def _tile(shape: tuple[int, ...], element_type: Attribute) -> TileType:
    return TileType(_ints(shape), element_type)


def tensor_view_error(shape: Sequence[int], strides: Sequence[int]) -> str | None:
    """NVIDIA's tensor_view type rule: static sizes and strides are strictly positive."""
    for what, values in (("sizes", shape), ("strides", strides)):
        if any(v != DYNAMIC and v <= 0 for v in values):
            listed = ", ".join("?" if v == DYNAMIC else str(v) for v in values)
            return f"dimensions must have strictly positive constant {what} but got [{listed}]"
    return None


def _string_attr(s: str | builtin.StringAttr) -> builtin.StringAttr:
    return s if isinstance(s, builtin.StringAttr) else builtin.StringAttr(s)


# Pointer attribute cases (bytecode value = index) and the version that brought each.
PTR_ATTRS = ("none", "unicast", "multicast")


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """`ptr<f32>`: a pointer to global memory holding the pointee element type; 13.4 added an
    optional pointer attribute (`ptr<f32, <none>>`; 13.5: `<unicast>`, `<multicast>`), kept
    in `ptr_attr` ("" when absent)."""

    name = "cuda_tile.ptr"
    pointee: Attribute
    ptr_attr: builtin.StringAttr

    def __init__(self, pointee: Attribute, ptr_attr: str | builtin.StringAttr = "") -> None:
        super().__init__(pointee, _string_attr(ptr_attr))


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`token`: an abstract value that orders memory operations."""

    name = "cuda_tile.token"


@irdl_attr_definition
class TensorViewType(_Shaped, ParametrizedAttribute, TypeAttribute):
    """`tensor_view<?x32xf32, strides=[?,1]>`: a strided view of global memory."""

    name = "cuda_tile.tensor_view"
    shape_attr: IntTuple
    element_type: Attribute
    strides_attr: IntTuple
    ptr_attr: builtin.StringAttr  # 13.4: `#cuda_tile.ptr_attr<none|unicast|multicast>`; "" when absent

    def __init__(
        self, shape: IntTuple, element_type: Attribute, strides: IntTuple, ptr_attr: str | builtin.StringAttr = ""
    ) -> None:
        super().__init__(shape, element_type, strides, _string_attr(ptr_attr))

    @property
    def strides(self) -> tuple[int, ...]:
        return self.strides_attr.data


class _TiledView:
    """Accessors of the views that cut a tensor_view into tiles (no IRDL parameters here)."""

    if TYPE_CHECKING:
        tile_shape_attr: IntTuple

    @property
    def tile_shape(self) -> tuple[int, ...]:
        return self.tile_shape_attr.data


class _DimMappedView(_TiledView):
    if TYPE_CHECKING:
        dim_map_attr: IntTuple  # empty means the identity map

    @property
    def dim_map(self) -> tuple[int, ...]:
        dm = self.dim_map_attr.data
        return dm if dm else tuple(range(len(self.tile_shape_attr.data)))

    @property
    def has_explicit_dim_map(self) -> bool:
        """True if the dim map is not the identity (printed only then)."""
        dm = self.dim_map_attr.data
        return bool(dm) and dm != tuple(range(len(dm)))


@irdl_attr_definition
class PartitionViewType(ParametrizedAttribute, TypeAttribute, _DimMappedView):
    """`partition_view<tile=(4x4), tensor_view<...>>`: a tensor view cut into tiles."""

    name = "cuda_tile.partition_view"
    tile_shape_attr: IntTuple
    tensor_view: TensorViewType
    dim_map_attr: IntTuple  # empty means the identity map
    padding_value: builtin.StringAttr  # "" means no padding value

    PADDING_VALUES: ClassVar[tuple[str, ...]] = ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")


@irdl_attr_definition
class StridedViewType(ParametrizedAttribute, TypeAttribute, _DimMappedView):
    """`strided_view<tile=(4x4), traversal_strides=[2,2], tensor_view<...>>`: tiles whose
    origins step by the traversal strides instead of the tile size (13.3)."""

    name = "cuda_tile.strided_view"
    tile_shape_attr: IntTuple
    traversal_strides_attr: IntTuple
    tensor_view: TensorViewType
    dim_map_attr: IntTuple  # empty means the identity map
    padding_value: builtin.StringAttr  # "" means no padding value

    @property
    def traversal_strides(self) -> tuple[int, ...]:
        return self.traversal_strides_attr.data


@irdl_attr_definition
class GatherScatterViewType(ParametrizedAttribute, TypeAttribute, _TiledView):
    """`gather_scatter_view<tile=(8x16), tensor_view<...>, sparse_dim=0>`: tiles gathered
    along one dimension by a 1-D tile of indices (13.3)."""

    name = "cuda_tile.gather_scatter_view"
    tile_shape_attr: IntTuple
    tensor_view: TensorViewType
    sparse_dim_attr: IntTuple  # one element
    padding_value: builtin.StringAttr  # "" means no padding value

    @property
    def sparse_dim(self) -> int:
        return self.sparse_dim_attr.data[0]


TILE_VIEW_TYPES = (PartitionViewType, StridedViewType, GatherScatterViewType)


def is_tile_view(t: Attribute) -> bool:
    """The TileView interface: views that cut a tensor_view into tiles."""
    return isinstance(t, TILE_VIEW_TYPES)


def view_index_rank(t: Attribute) -> int:
    """Number of indices a load/store through the view takes (one per tile dimension)."""
    assert isinstance(t, TILE_VIEW_TYPES)
    return len(t.tile_shape)


def view_tile_type(t: Attribute) -> TileType:
    """The tile one load/store through the view moves."""
    assert isinstance(t, TILE_VIEW_TYPES)
    return tile(t.tile_shape, t.tensor_view.element_type)


@irdl_attr_definition
class FloatNV8E5M3FNUType(ParametrizedAttribute, builtin.ReducedPrecisionFloatType):
    """`fnv8E5M3FNU` (Tile IR 13.4): NVIDIA's unsigned 8-bit float (UE5M3, a block-scale format):
    5 exponent bits (bias 15), 3 mantissa bits, no sign, zero and subnormals, no infinities,
    NaN only as all ones (0xFF). Largest value 1.75 * 2^16 = 114688. Not an MLIR builtin type."""

    name = "fnv8E5M3FNU"
    SEMANTICS = builtin.FloatSemantics(
        exponent_bits=5,
        mantissa_bits=3,
        exponent_bias=15,
        nonfinite=builtin.FloatNonfiniteBehavior.NAN_ONLY,
        nan_encoding=builtin.FloatNanEncoding.ALL_ONES,
        has_sign=False,
    )


F8E5M3FNU = FloatNV8E5M3FNUType()

INT_TYPES: tuple[Attribute, ...] = (
    builtin.i1,
    builtin.i8,
    builtin.i16,
    builtin.i32,
    builtin.i64,
)
FLOAT_TYPES: tuple[Attribute, ...] = (
    builtin.Float16Type(),
    builtin.BFloat16Type(),
    builtin.Float32Type(),
    builtin.FloatTF32Type(),
    builtin.Float64Type(),
    builtin.Float8E4M3FNType(),
    builtin.Float8E5M2Type(),
    builtin.Float8E8M0FNUType(),
    builtin.Float4E2M1FNType(),
    F8E5M3FNU,
)

ELEMENT_TYPE_NAMES: dict[str, Attribute] = {
    "i1": builtin.i1,
    "i8": builtin.i8,
    "i16": builtin.i16,
    "i32": builtin.i32,
    "i64": builtin.i64,
    "f16": builtin.Float16Type(),
    "bf16": builtin.BFloat16Type(),
    "f32": builtin.Float32Type(),
    "tf32": builtin.FloatTF32Type(),
    "f64": builtin.Float64Type(),
    "f8E4M3FN": builtin.Float8E4M3FNType(),
    "f8E5M2": builtin.Float8E5M2Type(),
    "f8E8M0FNU": builtin.Float8E8M0FNUType(),
    "f4E2M1FN": builtin.Float4E2M1FNType(),
    "fnv8E5M3FNU": F8E5M3FNU,
}
ELEMENT_TYPE_SPELLING: dict[Attribute, str] = {v: k for k, v in ELEMENT_TYPE_NAMES.items()}


def is_int(t: Attribute) -> bool:
    return isinstance(t, builtin.IntegerType)


def is_float(t: Attribute) -> bool:
    return isinstance(t, (builtin.AnyFloat, FloatNV8E5M3FNUType))


def bitwidth(t: Attribute) -> int:
    """Bit width of a scalar element type (pointers are 64-bit)."""
    if isinstance(t, builtin.IntegerType):
        return t.width.data
    if isinstance(t, PointerType):
        return 64
    if isinstance(t, builtin.FloatTF32Type):
        return 32
    if isinstance(t, (builtin.AnyFloat, FloatNV8E5M3FNUType)):
        return t.bitwidth
    return 0


def element_type(t: Attribute) -> Attribute:
    """Element type of a tile, or the type itself for scalars."""
    return t.element_type if isinstance(t, TileType) else t


def shape_of(t: Attribute) -> tuple[int, ...]:
    return t.shape if isinstance(t, TileType) else ()
