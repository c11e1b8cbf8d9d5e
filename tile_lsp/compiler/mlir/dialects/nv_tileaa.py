"""nv_tileaa: the internal tile dialect stage 2 (`tileaa`) lowers cuda_tile into (seed 003).

Upstream MLIR has no nv_tileaa, so the syntax is ours; one shape for every op:

```mlir
%r = nv_tileaa.addf %a, %b {attrs} : tensor<8x64xf32>             // operands and result share T
%t = nv_tileaa.join_mem_token %t0, %t1 : !nv_tileaa.mem_token
%s = nv_tileaa.reduce %v {dim = 1 : i32} : (tensor<8x64xf32>) -> tensor<8xf32> {
^bb0(%acc : f32, %val : f32):
  %x = nv_tileaa.addf %acc, %val : f32
  nv_tileaa.yield %x : f32                                        // result-less: operand types
}
```

Tiles are builtin `tensor<...>` (rank 0: the element type), pointers `!llvm.ptr`, tokens
`!nv_tileaa.mem_token`, views `!nv_tileaa.tensor_view<...>` / `!nv_tileaa.tile_view<...>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, FunctionType, IntAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, Region, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

# ---------------------------------------------------------------------------------------------
# Types


@irdl_attr_definition
class MemTokenType(ParametrizedAttribute, TypeAttribute):
    """`!nv_tileaa.mem_token`: orders memory operations (cuda_tile's `token`)."""

    name = "nv_tileaa.mem_token"


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(v) for v in values])


def _parse_int_list(parser: AttrParser) -> list[int]:
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_shape_dimension)


def _print_int_list(printer: Printer, values: ArrayAttr[IntAttr]) -> None:
    printer.print_string("[" + ", ".join("?" if v.data < 0 else str(v.data) for v in values.data) + "]")


@irdl_attr_definition
class TensorViewType(ParametrizedAttribute, TypeAttribute):
    """`!nv_tileaa.tensor_view<?x32xf32, strides = [?, 1]>`: strided global memory (-1 = `?`)."""

    name = "nv_tileaa.tensor_view"
    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    strides: ArrayAttr[IntAttr]

    @staticmethod
    def get(shape: Sequence[int], element_type: Attribute, strides: Sequence[int]) -> TensorViewType:
        return TensorViewType(_ints(shape), element_type, _ints(strides))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        dims, elem = parser.parse_ranked_shape()
        parser.parse_punctuation(",")
        parser.parse_keyword("strides")
        parser.parse_punctuation("=")
        strides = _parse_int_list(parser)
        parser.parse_punctuation(">")
        return (_ints(dims), elem, _ints(strides))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for v in self.shape.data:
            printer.print_string(("?" if v.data < 0 else str(v.data)) + "x")
        printer.print_attribute(self.element_type)
        printer.print_string(", strides = ")
        _print_int_list(printer, self.strides)
        printer.print_string(">")


TILE_VIEW_KINDS = ("partition", "strided", "gather_scatter")


@irdl_attr_definition
class TileViewType(ParametrizedAttribute, TypeAttribute):
    """`!nv_tileaa.tile_view<partition, tile = [1, 1024], padding = zero, !nv_tileaa.tensor_view<...>>`:
    a tensor view cut into tiles (cuda_tile's partition / strided / gather_scatter views).
    Optional fields: `dim_map`, `padding`, `traversal_strides`, `sparse_dim`."""

    name = "nv_tileaa.tile_view"
    kind: StringAttr
    tile: ArrayAttr[IntAttr]
    tensor_view: TensorViewType
    dim_map: ArrayAttr[IntAttr]  # empty: identity
    padding: StringAttr  # "": none
    traversal_strides: ArrayAttr[IntAttr]  # empty: the tile shape
    sparse_dim: IntAttr  # -1: none

    @staticmethod
    def get(
        kind: str,
        tile: Sequence[int],
        tensor_view: TensorViewType,
        dim_map: Sequence[int] = (),
        padding: str = "",
        traversal_strides: Sequence[int] = (),
        sparse_dim: int = -1,
    ) -> TileViewType:
        return TileViewType(
            StringAttr(kind), _ints(tile), tensor_view, _ints(dim_map), StringAttr(padding),
            _ints(traversal_strides), IntAttr(sparse_dim),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        kind = parser.parse_identifier()
        if kind not in TILE_VIEW_KINDS:
            parser.raise_error(f"expected one of {', '.join(TILE_VIEW_KINDS)}")
        fields: dict[str, Attribute] = {"dim_map": _ints(()), "padding": StringAttr(""),
                                         "traversal_strides": _ints(()), "sparse_dim": IntAttr(-1)}
        tile: ArrayAttr[IntAttr] | None = None
        view: Attribute | None = None
        while parser.parse_optional_punctuation(",") is not None:
            if (view := parser.parse_optional_type()) is not None:
                break
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            if key == "tile":
                tile = _ints(_parse_int_list(parser))
            elif key in ("dim_map", "traversal_strides"):
                fields[key] = _ints(_parse_int_list(parser))
            elif key == "padding":
                fields[key] = StringAttr(parser.parse_identifier())
            elif key == "sparse_dim":
                fields[key] = IntAttr(parser.parse_integer(allow_negative=False, allow_boolean=False))
            else:
                parser.raise_error(f"unknown tile_view field '{key}'")
        if tile is None or not isinstance(view, TensorViewType):
            parser.raise_error("tile_view needs `tile = [...]` and a trailing !nv_tileaa.tensor_view")
        parser.parse_punctuation(">")
        return (StringAttr(kind), tile, view, fields["dim_map"], fields["padding"],
                fields["traversal_strides"], fields["sparse_dim"])

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}, tile = ")
        _print_int_list(printer, self.tile)
        for key in ("dim_map", "traversal_strides"):
            values = getattr(self, key)
            if values.data:
                printer.print_string(f", {key} = ")
                _print_int_list(printer, values)
        if self.padding.data:
            printer.print_string(f", padding = {self.padding.data}")
        if self.sparse_dim.data >= 0:
            printer.print_string(f", sparse_dim = {self.sparse_dim.data}")
        printer.print_string(", ")
        printer.print_attribute(self.tensor_view)
        printer.print_string(">")


def is_tileaa_type(t: Attribute) -> bool:
    """False for types that still belong to cuda_tile (also as a tensor element): the legality
    predicate the seed gives ub.poison, used here for every nv_tileaa value."""
    if t.name.startswith("cuda_tile."):
        return False
    if isinstance(t, TensorType):
        return is_tileaa_type(t.element_type)
    return True


# ---------------------------------------------------------------------------------------------
# Ops: one shared shape (variadic operands, results, regions; attributes in the attr-dict)


class TileAAOp(IRDLOperation):
    """Shared shape and syntax of every nv_tileaa op (see the module docstring)."""

    args = var_operand_def()
    outs = var_result_def()
    regs = var_region_def()

    # Ops that never produce results print only their operand types after `:`.
    NO_RESULTS: ClassVar[bool] = False

    @classmethod
    def make(
        cls,
        operands: Sequence[object],
        result_types: Sequence[Attribute],
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
    ) -> TileAAOp:
        op = cls.create(operands=list(operands), result_types=list(result_types),  # type: ignore[arg-type]
                        attributes=dict(attributes or {}), regions=list(regions))
        assert isinstance(op, TileAAOp)
        return op

    @classmethod
    def parse(cls, parser: Parser) -> TileAAOp:
        names = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            names.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        ins: list[Attribute] = []
        outs: list[Attribute] = []
        pos = parser.pos
        if parser.parse_optional_punctuation(":") is not None:
            if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
                fn = parser.parse_function_type()
                ins, outs = list(fn.inputs.data), list(fn.outputs.data)
            else:
                types: list[Attribute] = [parser.parse_type()]
                while parser.parse_optional_punctuation(",") is not None:
                    types.append(parser.parse_type())
                if cls.NO_RESULTS:
                    ins = types
                else:
                    if len(types) != 1:
                        parser.raise_error("expected one type (shared by operands and result) or a function type")
                    ins, outs = types * len(names), types
        operands = parser.resolve_operands(names, ins, parser.pos if pos is None else pos)
        regions = []
        while (region := parser.parse_optional_region()) is not None:
            regions.append(region)
        return cls.make(operands, outs, attrs, regions)

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        ins = [v.type for v in self.operands]
        outs = [r.type for r in self.results]
        if self.NO_RESULTS and not outs and ins and not self.regions:
            printer.print_string(" : ")
            printer.print_list(ins, printer.print_attribute)
        elif len(outs) == 1 and ins and all(t == outs[0] for t in ins) and not self.regions:
            printer.print_string(" : ")
            printer.print_attribute(outs[0])
        elif ins or outs or self.regions:
            printer.print_string(" : ")
            printer.print_attribute(FunctionType.from_lists(ins, outs))
        for region in self.regions:
            printer.print_string(" ")
            printer.print_region(region)

    def verify_(self) -> None:
        for kind, values in (("operand", self.operands), ("result", self.results)):
            for i, v in enumerate(values):
                if not is_tileaa_type(v.type):
                    raise VerifyException(f"'{self.name}' op {kind} #{i} has a type nv_tileaa does not accept: {v.type}")
        for region in self.regions:
            for block in region.blocks:
                for arg in block.args:
                    if not is_tileaa_type(arg.type):
                        raise VerifyException(
                            f"'{self.name}' op region argument #{arg.index} has a type nv_tileaa does not accept: "
                            f"{arg.type}"
                        )


class _Terminator(TileAAOp):
    NO_RESULTS: ClassVar[bool] = True
    traits = traits_def(IsTerminator())


class _NoResults(TileAAOp):
    NO_RESULTS: ClassVar[bool] = True


# (mnemonic, base, summary): the dialect's op roster. The converter names which cuda_tile op
# becomes which; the summaries double as hover text.
_ROSTER: tuple[tuple[str, type[TileAAOp], str], ...] = (
    # values and symbols
    ("splat", TileAAOp, "Broadcast a scalar to every element of a tensor."),
    ("global", _NoResults, "A module-level global (`sym_name`, `type`, `value`, `constant`, `alignment`)."),
    ("get_global", TileAAOp, "Pointer to a global named by `name`."),
    ("assume", TileAAOp, "Passes its operand through with a `predicate` the optimizer may rely on."),
    # integer arithmetic
    *((m, TileAAOp, f"Element-wise integer `{m}`.") for m in (
        "absi", "negi", "addi", "subi", "muli", "shli", "shri", "mulhii", "divi", "remi", "mini",
        "andi", "ori", "xori", "cmpi")),
    # float arithmetic
    *((m, TileAAOp, f"Element-wise float `{m}` (rounding/fastmath attributes carried).") for m in (
        "absf", "negf", "addf", "subf", "mulf", "divf", "remf", "maxf", "minf", "fma", "cmpf")),
    ("select", TileAAOp, "Element-wise choice between two tensors by an i1 condition."),
    # math
    *((m, TileAAOp, f"Element-wise `{m}`.") for m in (
        "ceil", "floor", "cos", "cosh", "sin", "sinh", "tan", "tanh", "exp", "exp2", "log", "log2",
        "sqrt", "rsqrt", "pow", "fpowi", "atan2")),
    # conversions
    *((m, TileAAOp, f"Element-wise conversion `{m}`.") for m in (
        "bitcast", "int_to_ptr", "ptr_to_int", "ptr_to_ptr", "exti", "trunci", "ftof", "ftoi", "itof")),
    # structured control flow (cuda_tile's if/for/loop keep their regions; terminators follow)
    ("if", TileAAOp, "Two-region conditional on a rank-0 i1."),
    ("for", TileAAOp, "Counted loop: lower, upper, step, init values; body block (iv, iter values)."),
    ("loop", TileAAOp, "Loop left by `break`; `continue` starts the next iteration."),
    ("yield", _Terminator, "Ends an if/reduce/scan region, giving its values."),
    ("continue", _Terminator, "Ends a loop iteration with the next iteration values."),
    ("break", _Terminator, "Leaves a `loop` with its results."),
    ("return", _Terminator, "Returns from the enclosing kernel out of a nested region (early exit)."),
    ("assert", _NoResults, "Traps with `message` when the i1 operand is false somewhere."),
    ("print", _NoResults, "Formatted print (`str`) of its operands."),
    ("print_tko", TileAAOp, "Formatted print ordered by a memory token."),
    # shape
    *((m, TileAAOp, f"Shape operation `{m}`.") for m in (
        "broadcast", "reshape", "permute", "cat", "extract", "insert", "iota", "pack", "unpack")),
    ("get_tile_block_id", TileAAOp, "The tile block's id (x, y, z)."),
    ("get_num_tile_blocks", TileAAOp, "The tile-block grid (x, y, z)."),
    ("get_tensor_shape", TileAAOp, "Dimensions of a tensor view."),
    ("get_index_space_shape", TileAAOp, "Number of tiles per dimension of a tile view."),
    ("reduce", TileAAOp, "Reduction along `dim` with a combiner region over scalars."),
    ("scan", TileAAOp, "Prefix scan along `dim` with a combiner region over scalars."),
    ("dot", TileAAOp, "Matrix multiply-accumulate `a * b + c` (cuda_tile mmaf/mmai)."),
    ("dot_scaled", TileAAOp, "Block-scaled matrix multiply-accumulate (cuda_tile mmaf_scaled)."),
    # memory, tokens, views
    ("create_mem_token", TileAAOp, "A fresh memory token with no predecessor."),
    ("join_mem_token", TileAAOp, "A token ordered after all its operand tokens."),
    ("gdc_wait", TileAAOp, "Wait for the grid this one depends on (griddepcontrol.wait); token ordered."),
    ("gdc_launch_dependents", TileAAOp, "Let the dependent grid launch (griddepcontrol.launch_dependents); token ordered."),
    ("memory_fence_alias", TileAAOp, "Proxy fence between aliased virtual addresses (fence.proxy.alias); token ordered."),
    ("offset", TileAAOp, "Pointer arithmetic: pointer + element offset."),
    ("load", TileAAOp, "Gather load through a pointer tensor (mask, padding, token; `operand_segments`)."),
    ("store", TileAAOp, "Scatter store through a pointer tensor (mask, token; `operand_segments`)."),
    ("alloca", TileAAOp, "Scratch memory of `num_elem` elements."),
    ("make_tensor_view", TileAAOp, "A tensor view of global memory (base, dynamic shape and strides)."),
    ("make_tile_view", TileAAOp, "A tile view (partition/strided/gather_scatter) of a tensor view."),
    ("load_view", TileAAOp, "Load one tile of a tile view at a tile index (token ordered)."),
    ("store_view", TileAAOp, "Store one tile into a tile view at a tile index (token ordered)."),
    ("atomic_cas", TileAAOp, "Element-wise atomic compare-and-swap through pointers."),
    ("atomic_rmw", TileAAOp, "Element-wise atomic read-modify-write (`mode`) through pointers."),
    ("atomic_red_view", TileAAOp, "Atomic reduction of a tile into a tile view."),
    ("multimem_load_reduce_view", TileAAOp, "Load one tile of a multicast tile view, combined over every GPU's copy."),
    ("multimem_reduce_view", TileAAOp, "Combine a tile into every GPU's copy of a multicast tile view."),
    ("multimem_store_view", TileAAOp, "Store one tile into every GPU's copy of a multicast tile view."),
)


def _make_op(mnemonic: str, base: type[TileAAOp], summary: str) -> type[TileAAOp]:
    cls = type(f"TileAA_{mnemonic}", (base,), {"name": f"nv_tileaa.{mnemonic}", "__doc__": summary})
    return irdl_op_definition(cls)


OPS: dict[str, type[TileAAOp]] = {m: _make_op(m, base, doc) for m, base, doc in _ROSTER}


def op_class(mnemonic: str) -> type[TileAAOp]:
    """The class of `nv_tileaa.<mnemonic>`."""
    return OPS[mnemonic]


def dialect() -> Dialect:
    return Dialect("nv_tileaa", list(OPS.values()), [MemTokenType, TensorViewType, TileViewType])
