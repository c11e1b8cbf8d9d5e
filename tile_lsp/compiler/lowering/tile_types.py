"""The stage-2 type and attribute conversion (seed 003): cuda_tile types and attributes to the
nv_tileaa / builtin / llvm ones the rest of the pipeline reads.

tile<shape x T> -> tensor<shape x T'> (rank 0: T'), ptr<T> -> !llvm.ptr, token ->
!nv_tileaa.mem_token, views -> !nv_tileaa.tensor_view / !nv_tileaa.tile_view.
"""

from __future__ import annotations

from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    TensorType,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import DenseAttr, EnumAttr
from tile_lsp.compiler.dialects.cuda_tile.control_assume import BoundedAttr, DivByAttr, SameElementsAttr, predicate_body
from tile_lsp.compiler.dialects.cuda_tile.hints import OptimizationHintsAttr
from tile_lsp.compiler.mlir.dialects.nv_tileaa import MemTokenType, TensorViewType, TileViewType

# convert_type's answers: types are immutable values, and a kernel converts the same few
# hundreds of times (every operand and result of every op). Bounded: a server sees many shapes.
_CONVERTED: dict[Attribute, Attribute] = {}


def convert_type(t: Attribute) -> Attribute:
    """The nv_tileaa-level type of `t` (types that are not cuda_tile's come back unchanged)."""
    try:
        found = _CONVERTED.get(t)
    except TypeError:  # an unhashable type: no memo
        return _convert_type(t)
    if found is None:
        if len(_CONVERTED) > 4096:
            _CONVERTED.clear()
        found = _CONVERTED[t] = _convert_type(t)
    return found


def _convert_type(t: Attribute) -> Attribute:
    if isinstance(t, ct.TileType):
        elem = convert_type(t.element_type)
        return TensorType(elem, list(t.shape)) if t.rank else elem
    if isinstance(t, ct.PointerType):
        return LLVMPointerType()
    if isinstance(t, ct.TokenType):
        return MemTokenType()
    if isinstance(t, ct.TensorViewType):
        return _tensor_view(t)
    if isinstance(t, ct.PartitionViewType):
        return TileViewType.get("partition", t.tile_shape, _tensor_view(t.tensor_view),
                                t.dim_map if t.has_explicit_dim_map else (), t.padding_value.data)
    if isinstance(t, ct.StridedViewType):
        return TileViewType.get("strided", t.tile_shape, _tensor_view(t.tensor_view),
                                t.dim_map if t.has_explicit_dim_map else (), t.padding_value.data,
                                t.traversal_strides)
    if isinstance(t, ct.GatherScatterViewType):
        return TileViewType.get("gather_scatter", t.tile_shape, _tensor_view(t.tensor_view), (),
                                t.padding_value.data, (), t.sparse_dim)
    if isinstance(t, FunctionType):
        return FunctionType.from_lists([convert_type(x) for x in t.inputs.data],
                                       [convert_type(x) for x in t.outputs.data])
    return t


def _tensor_view(t: ct.TensorViewType) -> TensorViewType:
    return TensorViewType.get(t.shape, convert_type(t.element_type), t.strides)


def scalar_attr(value: int | float, elem: Attribute) -> Attribute:
    """One element of a dense constant as a builtin typed attribute."""
    if isinstance(elem, builtin.IntegerType):
        return IntegerAttr(int(value), elem)
    assert isinstance(elem, builtin.AnyFloat)
    return FloatAttr(float(value), elem)


def dense_elements(a: DenseAttr, shape: tuple[int, ...]) -> Attribute:
    """A cuda_tile dense literal as `dense<...> : tensor<shape x T>` (splats expanded)."""
    values = list(a.values.data)
    n = 1
    for d in shape:
        n *= d
    if len(values) == 1 and n != 1:
        values = values * n
    elem = a.element_type
    if isinstance(elem, builtin.IntegerType):
        return DenseIntOrFPElementsAttr.from_list(TensorType(elem, list(shape)), [int(v) for v in values])
    assert isinstance(elem, builtin.AnyFloat)
    return DenseIntOrFPElementsAttr.from_list(TensorType(elem, list(shape)), [float(v) for v in values])


def convert_attr(a: Attribute) -> Attribute:
    """A cuda_tile attribute value in builtin terms (enums as their case string, assume
    predicates as their spelling); builtin attributes are kept as they are (fastmath included)."""
    if isinstance(a, EnumAttr):
        return StringAttr(a.case)
    if isinstance(a, (DivByAttr, BoundedAttr, SameElementsAttr)):
        return StringAttr(predicate_body(a))
    if isinstance(a, OptimizationHintsAttr):
        return convert_attr(a.value)
    if isinstance(a, DenseAttr):
        shape = a.literal_shape.data or (len(a.values.data),)
        return dense_elements(a, shape) if len(a.values.data) != 1 else scalar_attr(a.values.data[0], a.element_type)
    if isinstance(a, ArrayAttr):
        return ArrayAttr([convert_attr(x) for x in a.data])
    if isinstance(a, DictionaryAttr):
        return DictionaryAttr({k: convert_attr(v) for k, v in a.data.items()})
    if a.name.startswith("tile_lsp.opaque"):
        return _reparse(str(getattr(a, "data", a)))
    if a.name.startswith("cuda_tile."):
        if isinstance(a, builtin.TypeAttribute):
            return convert_type(a)
        from tile_lsp.compiler.syntax.attributes import attr_str

        return StringAttr(attr_str(a))
    return a


def _reparse(spelling: str) -> Attribute:
    """An attribute the cuda_tile front end kept verbatim (e.g. `#arith.fastmath<contract>`),
    read with the upstream dialects so it becomes the typed attribute; a string otherwise."""
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from tile_lsp.compiler.mlir.context import upstream_context

    try:
        parser = Parser(upstream_context(), spelling)
        attr = parser.parse_attribute()
        if parser.pos is not None and parser.pos < len(spelling.rstrip()):
            return StringAttr(spelling)
        return attr
    except (ParseError, Exception):
        return StringAttr(spelling)
