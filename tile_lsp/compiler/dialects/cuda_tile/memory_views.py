"""cuda_tile view ops: make_tensor_view, the tiled views built on it, and view loads/stores.

A tensor_view describes global memory (shape and strides); partition, strided and
gather/scatter views cut it into tiles that load_view_tko/store_view_tko move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, opt_operand_def, opt_prop_def, prop_def, result_def, var_operand_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import memory_syntax as M
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import EnumAttr, EnumSyntax, enum
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, module_ops, tile_op
from tile_lsp.compiler.dialects.cuda_tile.hints import verify_op_hints
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import dict_str, parse_attr_dict_body
from tile_lsp.compiler.syntax.types import parse_type

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.format import AttrSyntax
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter, UseRef
    from tile_lsp.compiler.verify_context import VerifyContext

VARIADIC_SCALAR_INT = C.variadic(C.SCALAR_INT)
VARIADIC_INT_TILE = C.variadic(C.INT_TILE)


def _attr_suffix(op: Operation) -> str:
    return f" {dict_str(op.attributes)}" if op.attributes else ""


# -- make_tensor_view ------------------------------------------------------------------


def _parse_mixed_list(p: SyntaxParser, uses: list[UseRef]) -> tuple[list[tuple[int | None, Span]], Span]:
    """`[32, %n, ...]`: static sizes and SSA values (None marks a dynamic entry)."""
    decl = p.span()
    p.expect_punct("[")
    items: list[tuple[int | None, Span]] = []
    if p.accept_punct("]"):
        return items, decl
    while True:
        span = p.span()
        if p.kind == lexer.INT or (p.at_punct("-") and p.kinds[p.i + 1] == lexer.INT):
            items.append((p.parse_int_literal(), Span(span.start, p.prev_end())))
        elif p.kind == lexer.VALUE:
            uses.append(p.parse_value_use())
            items.append((None, span))
        else:
            p.fail("expected either integer or SSA value", span)
        if p.accept_punct("]"):
            return items, decl
        p.expect_punct(",")


def _check_declared(
    p: SyntaxParser, items: list[tuple[int | None, Span]], expected: tuple[int, ...], decl: Span, name: str
) -> None:
    if len(items) != len(expected):
        p.fail(
            f"expected {name} declaration to contain {len(expected)} elements due to tensor_view type, "
            f"but {len(items)} were provided",
            decl,
        )
    for i, ((value, span), want) in enumerate(zip(items, expected)):
        if (value is None) == (want == ct.DYNAMIC) and (value is None or value == want):
            continue
        want_s = "dynamic" if want == ct.DYNAMIC else str(want)
        got_s = "dynamic" if value is None else str(value)
        p.fail(f"input {name} dimension {i} does not match tensor_view type (expected {want_s}, got {got_s})", span)


@tile_op
class MakeTensorViewOp(CudaTileOp):
    """Describes a tensor in global memory from a base pointer plus static or dynamic
    sizes and strides.

    ```mlir
    %tv = make_tensor_view %p, shape = [%n, 32], strides = [32, 1] : tile<i64> -> tensor_view<?x32xf32, strides=[32,1]>
    ```
    """

    name = "cuda_tile.make_tensor_view"
    RESULT_NAMES = ("tview",)
    base = operand_def()
    dynamicShape = var_operand_def()
    dynamicStrides = var_operand_def()
    result = result_def()
    irdl_options = M.SEGMENTED_OPERANDS
    TYPE_CONSTRAINTS = {
        "base": M.SCALAR_PTR,
        "dynamicShape": VARIADIC_SCALAR_INT,
        "dynamicStrides": VARIADIC_SCALAR_INT,
        "result": M.TENSOR_VIEW,
    }

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        state.operands["base"] = [p.parse_value_use()]
        p.expect_punct(",")
        p.expect_keyword("shape")
        p.expect_punct("=")
        shape_uses: list[UseRef] = []
        shape, shape_decl = _parse_mixed_list(p, shape_uses)
        p.expect_punct(",")
        p.expect_keyword("strides")
        p.expect_punct("=")
        stride_uses: list[UseRef] = []
        strides, stride_decl = _parse_mixed_list(p, stride_uses)
        if p.at_punct("{"):
            state.attributes.update(parse_attr_dict_body(p))
        p.expect_punct(":")
        index_type: Attribute | None = None
        base_type: Attribute | None = None
        start = p.starts[p.i]
        t = parse_type(p)
        if shape_uses or stride_uses or p.at_punct("->") or p.at_punct(","):
            # `: tile<i32> -> tensor_view<...>`, or 13.4's explicit source type (NVIDIA prints it
            # when the pointer has an attribute): `: tile<ptr<f32, <none>>>[, tile<i32>] -> ...`.
            if isinstance(t, ct.TileType) and isinstance(t.element_type, ct.PointerType):
                base_type = t
                if p.accept_punct(","):
                    index_type = parse_type(p)
            else:
                index_type = t
            p.expect_punct("->")
            start = p.starts[p.i]
            t = parse_type(p)
        if not isinstance(t, ct.TensorViewType):
            p.fail(f"expected 'tensor_view' type, but got {M.q(t)}", Span(start, p.prev_end()))
        assert isinstance(t, ct.TensorViewType)
        _check_declared(p, shape, t.shape, shape_decl, "shape")
        _check_declared(p, strides, t.strides, stride_decl, "stride")
        state.operands["dynamicShape"] = shape_uses
        state.operands["dynamicStrides"] = stride_uses
        state.operand_types["base"] = [base_type or ct.tile((), ct.PointerType(t.element_type))]
        state.operand_types["dynamicShape"] = [index_type] * len(shape_uses) if index_type else []
        state.operand_types["dynamicStrides"] = [index_type] * len(stride_uses) if index_type else []
        state.result_types["result"] = [t]

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, MakeTensorViewOp)
        t = op.result.type
        assert isinstance(t, ct.TensorViewType)

        def mixed(static: tuple[int, ...], dynamic: list[str]) -> str:
            it = iter(dynamic)
            return ", ".join(next(it, "?") if d == ct.DYNAMIC else str(d) for d in static)

        shape = mixed(t.shape, [pr.value_name(v) for v in op.dynamicShape])
        strides = mixed(t.strides, [pr.value_name(v) for v in op.dynamicStrides])
        dyn = [*op.dynamicShape, *op.dynamicStrides]
        index = f"{pr.type(dyn[0].type)} -> " if dyn else ""
        base = op.base.type
        if isinstance(base, ct.TileType) and isinstance(base.element_type, ct.PointerType) and base.element_type.ptr_attr.data:
            index = f"{pr.type(base)}, {index}" if dyn else f"{pr.type(base)} -> "
        return (
            f" {pr.value_name(op.base)}, shape = [{shape}], strides = [{strides}]{_attr_suffix(op)} : "
            f"{index}{pr.type(t)}"
        )

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        t = self.result.type
        base = self.base.type
        assert isinstance(t, ct.TensorViewType) and isinstance(base, ct.TileType)
        assert isinstance(base.element_type, ct.PointerType)
        pointee = base.element_type.pointee
        if t.element_type != pointee:
            yield OpError(
                f"expected pointer to {M.q(t.element_type)} to build tensor_view of this type, got {M.q(pointee)}"
            )
            return
        for err in _check_ptr_attrs(base.element_type.ptr_attr.data, t.ptr_attr.data):
            yield err
            return
        for what, values, static in (
            ("shape", list(self.dynamicShape), t.shape),
            ("stride", list(self.dynamicStrides), t.strides),
        ):
            want = sum(1 for d in static if d == ct.DYNAMIC)
            if want != len(values):
                yield OpError(f"expected {want} dynamic {what} operands, got {len(values)}")
                return
        dyn = [*self.dynamicShape, *self.dynamicStrides]
        if dyn:
            first = dyn[0].type
            for what, values in (("shape", list(self.dynamicShape)), ("stride", list(self.dynamicStrides))):
                for i, v in enumerate(values):
                    if v.type != first:
                        yield OpError(
                            f"expected dynamic {what} index {i} to be of the same type as the other dynamic "
                            f"values ({M.q(first)}), got {M.q(v.type)}"
                        )
                        return


def _check_ptr_attrs(base: str, view: str) -> VerifyResult:
    """The pointer attribute a tensor_view carries must be its base pointer's."""
    if view and not base:
        yield OpError("pointer base without ptr_attr cannot produce tensor_view with ptr_attr")
    elif base and not view:
        yield OpError(f"tensor_view must preserve ptr_attr from base pointer (#cuda_tile.ptr_attr<{base}>)")
    elif base != view:
        yield OpError(
            f"ptr_attr mismatch between base pointer (#cuda_tile.ptr_attr<{base}>) and result tensor_view "
            f"(#cuda_tile.ptr_attr<{view}>)"
        )


# -- tiled views -----------------------------------------------------------------------


class _MakeTiledViewOp(CudaTileOp):
    """`make_<kind>_view %tv : <kind>_view<...>`; the operand type comes from the view type."""

    tensor_view = operand_def()
    result = result_def()
    VIEW_TYPE: ClassVar[type[Attribute]] = ct.PartitionViewType

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        state.operands["tensor_view"] = [p.parse_value_use()]
        if p.at_punct("{"):
            state.attributes.update(parse_attr_dict_body(p))
        p.expect_punct(":")
        start = p.starts[p.i]
        t = parse_type(p)
        if not isinstance(t, cls.VIEW_TYPE):
            p.fail(
                f"expected '{cls.VIEW_TYPE.name.removeprefix('cuda_tile.')}' type, but got {M.q(t)}",
                Span(start, p.prev_end()),
            )
        state.operand_types["tensor_view"] = [t.tensor_view]  # type: ignore[attr-defined]
        state.result_types["result"] = [t]

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        return f" {pr.value_name(op.operands[0])}{_attr_suffix(op)} : {pr.type(op.results[0].type)}"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        view = self.results[0].type
        given = self.operands[0].type
        inner = getattr(view, "tensor_view", None)
        if given != inner:
            yield OpError(
                f"expected the type of the provided tensor_view value ({M.q(given)}) to be the same as the "
                f"view's tensor_view type ({M.q(inner) if inner is not None else ''})"
            )


@tile_op
class MakePartitionViewOp(_MakeTiledViewOp):
    """Cuts a tensor_view into a grid of equally sized, non-overlapping tiles.

    ```mlir
    %pv = make_partition_view %tv : partition_view<tile=(64x64), tensor_view<128x128xf32, strides=[128,1]>>
    ```
    """

    name = "cuda_tile.make_partition_view"
    RESULT_NAMES = ("pview",)
    TYPE_CONSTRAINTS = {"tensor_view": M.TENSOR_VIEW, "result": M.PARTITION_VIEW}


@tile_op
class MakeStridedViewOp(_MakeTiledViewOp):
    """Cuts a tensor_view into tiles whose origins advance by the traversal strides, so
    tiles may overlap or leave gaps.

    ```mlir
    %sv = make_strided_view %tv : strided_view<tile=(8), traversal_strides=[4], tensor_view<128xf32, strides=[1]>>
    ```
    """

    name = "cuda_tile.make_strided_view"
    TYPE_CONSTRAINTS = {"tensor_view": M.TENSOR_VIEW, "result": M.STRIDED_VIEW}
    VIEW_TYPE: ClassVar[type[Attribute]] = ct.StridedViewType
    SINCE = "13.3"


@tile_op
class MakeGatherScatterViewOp(_MakeTiledViewOp):
    """Views a tensor_view as tiles whose rows along `sparse_dim` are picked by a tile of
    indices at each load or store.

    ```mlir
    %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>, sparse_dim=0>
    ```
    """

    name = "cuda_tile.make_gather_scatter_view"
    TYPE_CONSTRAINTS = {"tensor_view": M.TENSOR_VIEW, "result": M.GATHER_SCATTER_VIEW}
    VIEW_TYPE: ClassVar[type[Attribute]] = ct.GatherScatterViewType
    SINCE = "13.3"


# -- view loads and stores --------------------------------------------------------------


def check_view_access(view: Attribute, tile: Attribute, indices: list[Attribute], first_index: int) -> VerifyResult:
    """NVIDIA's shared view load/store checks: index count and types, and the tile type."""
    if not ct.is_tile_view(view):
        return
    rank = ct.view_index_rank(view)
    if len(indices) != rank:
        yield OpError(f"expected {rank} index operands (based on view type), got {len(indices)}")
        return
    want = ct.view_tile_type(view)
    if tile != want:
        yield OpError(f"expected tile type to be {M.q(want)} (based on view type), got {M.q(tile)}")
        return
    if isinstance(view, ct.GatherScatterViewType):
        yield from _check_gather_indices(view, indices)
        return
    for i, t in enumerate(indices):
        if not M.SCALAR_INT(t):
            yield OpError(f"operand #{first_index + i} must be {VARIADIC_SCALAR_INT.description}, but got {M.q(t)}")
            return
    for i, t in enumerate(indices):
        if t != indices[0]:
            yield OpError(
                f"expected index type {i} to be the same as other index types ({M.q(indices[0])}), got {M.q(t)}"
            )
            return


def _check_gather_indices(view: ct.GatherScatterViewType, indices: list[Attribute]) -> VerifyResult:
    """The index at sparse_dim is a 1-D tile of row indices; the others are scalars."""
    sparse = view.sparse_dim
    scalar: Attribute | None = None
    for i, t in enumerate(indices):
        if i == sparse:
            if not isinstance(t, ct.TileType):
                yield OpError(f"expected index at sparse_dim position {i} to be a tile type for GatherScatterView")
                return
            if t.rank != 1:
                yield OpError(
                    f"expected index at sparse_dim position {i} to be a 1D tensor for GatherScatterView, "
                    f"got rank {t.rank}"
                )
                return
            want = view.tile_shape[sparse]
            if t.shape[0] != want:
                yield OpError(
                    f"expected gather/scatter index size ({t.shape[0]}) to match tile shape at "
                    f"gather/scatter dimension {sparse} ({want})"
                )
                return
            continue
        if not (isinstance(t, ct.TileType) and t.rank == 0):
            yield OpError(f"expected scalar index {i} to be a scalar tile for GatherScatterView")
            return
        if scalar is None:
            scalar = t
        elif t != scalar:
            yield OpError(
                f"expected scalar index {i} to have the same type as other scalar indices ({M.q(scalar)}), got {M.q(t)}"
            )
            return


class _ViewMemoryOp(CudaTileOp):
    """load_view_tko/store_view_tko: memory attributes, token and hints. Subclasses declare
    the operands before the token, the results before the result token and the properties
    before `inbounds` (xDSL takes a subclass's own fields first)."""

    token = opt_operand_def()
    result_token = result_def()
    inbounds = opt_prop_def(Attribute)
    irdl_options = M.SEGMENTED_OPERANDS
    TYPE_RULES: ClassVar[tuple[C.TypeRule, ...]] = (M.TOKEN_OPERAND,)
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {
        "memory_ordering_semantics": M.ORDERING,
        "memory_scope": M.SCOPE,
        "optimization_hints": M.HINTS,
        "inbounds": M.BOOL_LIST,
    }
    KIND: ClassVar[str] = "load"
    ORDERINGS: ClassVar[tuple[str, str, str]] = M.LOAD_ORDERINGS
    FIRST_INDEX: ClassVar[int] = 1
    TILE_FIELD: ClassVar[str] = "tile"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from M.check_enum_props(self)
        view = M.types_of(self, "view")[0]
        tile = M.types_of(self, self.TILE_FIELD)[0]
        indices = M.types_of(self, "index")
        for err in check_view_access(view, tile, indices, self.FIRST_INDEX):
            yield err
            return
        yield from M.check_inbounds(self, len(indices))
        for item in verify_op_hints(self, ctx):
            yield item
            if isinstance(item, OpError):
                return
        yield from M.check_memory_model(self, self.KIND, self.ORDERINGS)


@tile_op
class LoadViewTkoOp(M.OrderedAccess, M.Hinted, _ViewMemoryOp):
    """Loads the tile at the given tile-grid coordinates of a view.

    ```mlir
    %t, %tok = load_view_tko weak %pv[%i, %j] : partition_view<tile=(64x64), tensor_view<128x128xf32, strides=[128,1]>>, tile<i32> -> tile<64x64xf32>, token
    ```
    """

    name = "cuda_tile.load_view_tko"
    RESULT_NAMES = ("tile", "result_token")
    view = operand_def()
    index = var_operand_def()
    tile = result_def()
    TILE_FORMAT = (
        "custom<MemoryAttributes>($memory_ordering_semantics, $memory_scope) $view `[` $index `]` "
        "(`token` `=` $token^)? (`optimization_hints` `=` $optimization_hints^)? (`inbounds` `=` $inbounds^)? "
        "attr-dict-with-keyword `:` "
        "custom<CudaTileType>(type($view)) `,` custom<CudaTileTypeSplat>(type($index), ref($index)) `->` "
        "custom<CudaTileType>(type($tile)) `,` custom<CudaTileType>(type($result_token))"
    )
    TYPE_CONSTRAINTS = {
        "view": M.TILE_VIEW,
        "index": VARIADIC_INT_TILE,
        "token": M.TOKEN,
        "tile": M.TILE,
        "result_token": M.TOKEN,
    }


class _ViewWriteOp(_ViewMemoryOp):
    """The view ops that write a tile (store_view_tko, multimem_reduce/store_view_tko): their
    types, and the store memory model; the tile is operand #0 or #1, the indices from #2."""

    TYPE_CONSTRAINTS: ClassVar[dict[str, C.TypeConstraint]] = {
        "tile": M.TILE,
        "view": M.TILE_VIEW,
        "index": VARIADIC_INT_TILE,
        "token": M.TOKEN,
        "result_token": M.TOKEN,
    }
    KIND: ClassVar[str] = "store"
    ORDERINGS: ClassVar[tuple[str, str, str]] = M.STORE_ORDERINGS
    FIRST_INDEX: ClassVar[int] = 2


@tile_op
class StoreViewTkoOp(M.OrderedAccess, M.Hinted, _ViewWriteOp):
    """Stores a tile at the given tile-grid coordinates of a view.

    ```mlir
    %tok = store_view_tko weak %t, %pv[%i, %j] : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<128x128xf32, strides=[128,1]>>, tile<i32> -> token
    ```
    """

    name = "cuda_tile.store_view_tko"
    tile = operand_def()
    view = operand_def()
    index = var_operand_def()
    TILE_FORMAT = (
        "custom<MemoryAttributes>($memory_ordering_semantics, $memory_scope) $tile `,` $view `[` $index `]` "
        "(`token` `=` $token^)? (`optimization_hints` `=` $optimization_hints^)? (`inbounds` `=` $inbounds^)? "
        "attr-dict-with-keyword `:` "
        "custom<CudaTileType>(type($tile)) `,` custom<CudaTileType>(type($view)) `,` "
        "custom<CudaTileTypeSplat>(type($index), ref($index)) `->` custom<CudaTileType>(type($result_token))"
    )


MULTIMEM_ADD = enum("multimem_reduction_kind", "add")
MULTIMEM_REDUCTION = EnumSyntax("multimem_reduction_kind", M.MULTIMEM_REDUCTIONS, bracketed=True, what="multimem reduction kind")


class _MultimemOp(_ViewMemoryOp):
    """The multimem view ops (13.5): a view of multicast memory (one virtual range mapped on
    several GPUs); each access reaches every GPU's copy."""

    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {
        "memory_ordering_semantics": M.ORDERING,
        "memory_scope": M.SCOPE,
        "inbounds": M.BOOL_LIST,
    }
    SINCE: ClassVar[str] = "13.5"
    # `reduction` is spelled in the attribute dictionary, `add` (the default) left out.
    DICT_PROPS: ClassVar[tuple[str, ...]] = ("reduction",)
    PROP_DEFAULTS: ClassVar[dict[str, Attribute]] = {"reduction": MULTIMEM_ADD}
    REDUCES: ClassVar[bool] = False

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for item in super().verify_tile(ctx):
            yield item
            if isinstance(item, OpError):
                return
        # NVIDIA's multimem rules (its 13.5 verifier, probed through tileirdisasm).
        view = M.types_of(self, "view")[0]
        tv = getattr(view, "tensor_view", None)
        attr = tv.ptr_attr.data if isinstance(tv, ct.TensorViewType) else ""
        if attr != "multicast":
            yield OpError(f"expected a multicast pointer, but got {attr or 'none'}")
            return
        tile = M.types_of(self, self.TILE_FIELD)[0]
        elem = ct.element_type(tile)
        if isinstance(elem, builtin.IntegerType) and elem.width.data not in (32, 64):
            yield OpError(f"multimem requires 32- or 64-bit integer/index element types; got {elem.width.data} bits")
            return
        if not isinstance(elem, (builtin.IntegerType, builtin.IndexType)):
            # (tileirdisasm 13.5's next rules, in its order: PTX multimem has no 8- or 16-bit
            # access, so f16/bf16 go by pairs of elements adjacent in memory.)
            bits = _MULTIMEM_FLOAT_BITS.get(type(elem))
            if bits is None:
                yield OpError("multimem supports only f16, bf16, f32, and f64 floating-point element types")
                return
            n = 1
            for d in ct.shape_of(tile):
                n *= d
            if n * bits % 32:
                yield OpError("multimem op requires tile total size to be a multiple of 4 bytes for float element "
                              f"types; got {n} element(s) of {bits} bits (total {n * bits} bits)")
                return
            unit = sum(1 for s in getattr(tv, "strides", ()) if s == 1)
            if bits == 16 and unit != 1:
                yield OpError(f"f16/bf16 multimem views must have exactly one element stride statically known to equal 1; got {unit}")
                return
        if not self.REDUCES:
            return
        kind = multimem_reduction(self)
        is_float = not isinstance(elem, builtin.IntegerType)
        if is_float and kind in ("and", "or", "xor", "umin", "umax"):
            yield OpError("and/or/xor/umin/umax reductions require integer element types")
        elif is_float and kind != "add":
            yield from self.check_float_min_max(elem)

    def check_float_min_max(self, elem: Attribute) -> VerifyResult:
        return iter(())


_MULTIMEM_FLOAT_BITS: dict[type, int] = {
    builtin.Float16Type: 16, builtin.BFloat16Type: 16, builtin.Float32Type: 32, builtin.Float64Type: 64}


def multimem_reduction(op: Operation) -> str:
    a = op.properties.get("reduction")
    return a.case if isinstance(a, EnumAttr) else "add"


@tile_op
class MultimemLoadReduceViewTkoOp(_MultimemOp):
    """Loads the tile at the given tile-grid coordinates from every GPU's copy of a multicast
    view and combines them with `reduction` (PTX `multimem.ld_reduce`, sm_90 and newer).

    ```mlir
    %t, %tok = multimem_load_reduce_view_tko relaxed sys %pv[%i] : partition_view<tile=(64), tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    ```
    """

    name = "cuda_tile.multimem_load_reduce_view_tko"
    RESULT_NAMES = ("reduced_values", "result_token")
    memory_ordering_semantics = prop_def(Attribute)
    memory_scope = opt_prop_def(Attribute)
    reduction = opt_prop_def(Attribute)
    view = operand_def()
    index = var_operand_def()
    reduced_values = result_def()
    TILE_FORMAT = (
        "custom<MemoryAttributes>($memory_ordering_semantics, $memory_scope) $view `[` $index `]` "
        "(`token` `=` $token^)? (`inbounds` `=` $inbounds^)? attr-dict-with-keyword `:` "
        "custom<CudaTileType>(type($view)) `,` custom<CudaTileTypeSplat>(type($index), ref($index)) "
        "(`,` custom<CudaTileType>(type($token))^)? `->` "
        "custom<CudaTileType>(type($reduced_values)) `,` custom<CudaTileType>(type($result_token))"
    )
    TYPE_CONSTRAINTS = {
        "view": M.TILE_VIEW,
        "index": VARIADIC_INT_TILE,
        "token": M.TOKEN,
        "reduced_values": M.TILE,
        "result_token": M.TOKEN,
    }
    TILE_FIELD: ClassVar[str] = "reduced_values"
    REDUCES: ClassVar[bool] = True

    def check_float_min_max(self, elem: Attribute) -> VerifyResult:
        if elem not in (builtin.f16, builtin.bf16):
            yield OpError(f"min/max supports f16 and bf16 float types only; got {M.q(elem)}")


class _MultimemWriteOp(_MultimemOp, _ViewWriteOp):
    """multimem_reduce/store_view_tko: `%view, %tile[%index...]`, a token out."""

    view = operand_def()
    tile = operand_def()
    index = var_operand_def()
    TILE_FORMAT: ClassVar[str] = (
        "custom<MemoryAttributes>($memory_ordering_semantics, $memory_scope) $view `,` $tile `[` $index `]` "
        "(`token` `=` $token^)? (`inbounds` `=` $inbounds^)? attr-dict-with-keyword `:` "
        "custom<CudaTileType>(type($view)) `,` custom<CudaTileType>(type($tile)) `,` "
        "custom<CudaTileTypeSplat>(type($index), ref($index)) (`,` custom<CudaTileType>(type($token))^)? `->` "
        "custom<CudaTileType>(type($result_token))"
    )


@tile_op
class MultimemReduceViewTkoOp(_MultimemWriteOp):
    """Combines a tile into the given tile-grid coordinates of every GPU's copy of a multicast
    view with `reduction` (PTX `multimem.red`, sm_90 and newer).

    ```mlir
    %tok = multimem_reduce_view_tko relaxed sys %pv, %t[%i] attributes {reduction = #cuda_tile.multimem_reduction_kind<max>} : partition_view<tile=(64), tensor_view<1024xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xi32>, tile<i32> -> token
    ```
    """

    name = "cuda_tile.multimem_reduce_view_tko"
    memory_ordering_semantics = prop_def(Attribute)
    memory_scope = prop_def(Attribute)
    reduction = opt_prop_def(Attribute)
    REDUCES: ClassVar[bool] = True

    def check_float_min_max(self, elem: Attribute) -> VerifyResult:
        yield OpError("supports only add for floating-point element types")

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if M.ordering_of(self) not in ("relaxed", "release"):
            yield OpError("memory ordering semantics must be one of: relaxed, release")
            return
        yield from super().verify_tile(ctx)


@tile_op
class MultimemStoreViewTkoOp(M.OrderedAccess, _MultimemWriteOp):
    """Stores a tile at the given tile-grid coordinates of every GPU's copy of a multicast view
    (PTX `multimem.st`, sm_90 and newer).

    ```mlir
    %tok = multimem_store_view_tko weak %pv, %t[%i] : partition_view<tile=(64), tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    ```
    """

    name = "cuda_tile.multimem_store_view_tko"


OPS: list[type[Operation]] = module_ops(globals())
