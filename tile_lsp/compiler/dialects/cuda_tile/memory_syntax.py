"""Syntax and checks shared by the memory, view and atomic ops.

Ordering/scope/mode keywords (NVIDIA's I32 enums, `N : i32` generically), the view-op
type directives and the load/store type rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrSizedOperandSegments, opt_prop_def, prop_def

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import IntAttrSyntax
from tile_lsp.compiler.dialects.cuda_tile.base import OpError, VerifyResult
from tile_lsp.compiler.dialects.cuda_tile.custom import directive_target
from tile_lsp.compiler.dialects.cuda_tile.hints import hints_body_str, parse_hints_body
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.format import CUSTOM_DIRECTIVES
from tile_lsp.compiler.syntax.types import long_type_str, parse_type

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter

ORDERINGS = ("weak", "relaxed", "acquire", "release", "acq_rel")
SCOPES = ("tl_blk", "device", "sys")
RMW_MODES = ("and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg")
INT_RMW_MODES = frozenset(("and", "or", "xor", "add", "max", "min", "umax", "umin"))

# `irdl_options` of an op with several variadic/optional operand groups (a token among them):
# their sizes are kept in the `operandSegmentSizes` property, as MLIR does.
SEGMENTED_OPERANDS = (AttrSizedOperandSegments(as_property=True),)


class OrderedAccess:
    """The memory ordering keyword and optional scope of a load or store: its first properties.
    A mixin listed before the op's base class (xDSL takes the fields in MRO order)."""

    memory_ordering_semantics = prop_def(Attribute)
    memory_scope = opt_prop_def(Attribute)


class Hinted:
    """`optimization_hints`, the property after the ordering and scope: a mixin listed after
    OrderedAccess."""

    optimization_hints = opt_prop_def(Attribute)


class I32EnumSyntax:
    """A bare-keyword enum stored as an i32 IntegerAttr (NVIDIA's specialized enum attrs)."""

    def __init__(self, attr_name: str, cases: Sequence[str]):
        self.attr_name = attr_name
        self.cases = tuple(cases)
        self.index = {c: i for i, c in enumerate(cases)}
        # Attributes are immutable: build each case's IntegerAttr once (creation is slow).
        self.attrs = {c: builtin.IntegerAttr(i, builtin.i32) for i, c in enumerate(cases)}
        self.message = (
            "expected string or keyword containing one of the following enum values for attribute "
            f"'{attr_name}' [{', '.join(cases)}]"
        )

    def can_start(self, p: SyntaxParser) -> bool:
        return p.kind == lexer.BARE and p.tok in self.index

    def parse(self, p: SyntaxParser) -> Attribute:
        span = p.span()
        word = p.tok[1:-1] if p.kind == lexer.STRING else p.tok if p.kind == lexer.BARE else ""
        if word not in self.index:
            p.fail(self.message, span)
        p.advance()
        return self.attr(word)

    def attr(self, word: str) -> builtin.IntegerAttr:
        return self.attrs[word]

    def print(self, a: Attribute) -> str:
        case = self.case(a)
        return case if case is not None else str(a)

    def case(self, a: Attribute | None) -> str | None:
        """The keyword of a stored value (None if absent or out of range)."""
        if isinstance(a, builtin.IntegerAttr):
            v = a.value.data
            if 0 <= v < len(self.cases):
                return self.cases[v]
        return None


MULTIMEM_REDUCTIONS = ("add", "min", "max", "and", "or", "xor", "umin", "umax")

ORDERING = I32EnumSyntax("memory_ordering_semantics", ORDERINGS)
SCOPE = I32EnumSyntax("memory_scope", SCOPES)
MODE = I32EnumSyntax("mode", RMW_MODES)

ENUM_SUMMARIES = {
    "memory_ordering_semantics": (ORDERING, "memory ordering semantics"),
    "memory_scope": (SCOPE, "memory scope"),
    "mode": (MODE, "atomic rmw mode"),
}


def ordering_of(op: Operation) -> str | None:
    return ORDERING.case(op.properties.get("memory_ordering_semantics"))


def scope_of(op: Operation) -> str | None:
    return SCOPE.case(op.properties.get("memory_scope"))


def mode_of(op: Operation) -> str | None:
    return MODE.case(op.properties.get("mode"))


def check_enum_props(op: Operation) -> VerifyResult:
    """ODS attribute constraints: a generic-form value outside the enum is rejected."""
    for name, (syntax, summary) in ENUM_SUMMARIES.items():
        a = op.properties.get(name)
        if a is not None and syntax.case(a) is None:
            yield OpError(f"attribute '{name}' failed to satisfy constraint: {summary}")
            return


class HintsSyntax:
    """`optimization_hints = <sm_100 = {...}>` inside a declarative format."""

    def can_start(self, p: SyntaxParser) -> bool:
        return p.at_punct("<")

    def parse(self, p: SyntaxParser) -> Attribute:
        return parse_hints_body(p)

    def print(self, a: Attribute) -> str:
        return hints_body_str(a)


HINTS = HintsSyntax()


class BoolListSyntax:
    """`inbounds = [true, false]` (13.4): one flag per index, stored as `array<i1: ...>`."""

    def can_start(self, p: SyntaxParser) -> bool:
        return p.at_punct("[")

    def parse(self, p: SyntaxParser) -> Attribute:
        p.expect_punct("[")
        values: list[int] = []
        while not p.at_punct("]"):
            if values:
                p.expect_punct(",")
            span = p.span()
            if p.kind != lexer.BARE or p.tok not in ("true", "false"):
                p.fail("expected 'true' or 'false'", span)
            values.append(1 if p.tok == "true" else 0)
            p.advance()
        p.expect_punct("]")
        return builtin.DenseArrayBase.from_list(builtin.i1, values)

    def print(self, a: Attribute) -> str:
        return "[" + ", ".join("true" if v else "false" for v in bool_list(a)) + "]"


def bool_list(a: Attribute | None) -> tuple[bool, ...]:
    """The flags of an `inbounds` property (empty when absent)."""
    if isinstance(a, builtin.DenseArrayBase):
        return tuple(bool(v) for v in a.get_values())
    return ()


BOOL_LIST = BoolListSyntax()


def check_inbounds(op: Operation, n_indices: int) -> VerifyResult:
    """`inbounds` holds one flag per index (a generic-form value must be an i1 array too)."""
    a = op.properties.get("inbounds")
    if a is None:
        return
    if not (isinstance(a, builtin.DenseArrayBase) and a.elt_type == builtin.i1):
        yield OpError("attribute 'inbounds' failed to satisfy constraint: i1 dense array attribute")
        return
    n = len(a.get_values())
    if n != n_indices:
        yield OpError(f"inbounds size ({n}) must match the number of index dimensions ({n_indices})")


I64 = IntAttrSyntax(64)  # a plain integer attribute (`num_elem = 64`), stored as i64


# -- custom<MemoryAttributes> (view loads and stores) ----------------------------------


def _parse_memory_attributes(p: SyntaxParser, state: OpState, args: list[str]) -> None:
    ordering_name, scope_name = directive_target(args[0]), directive_target(args[1])
    span = p.span()
    word = p.tok if p.kind == lexer.BARE else ""
    if word not in ORDERING.index:
        p.fail(
            f'invalid memory_ordering_semantics attribute specification. Got "{word}" but expect one of: '
            + ", ".join(ORDERINGS),
            span,
        )
    p.advance()
    state.spans[ordering_name] = span
    state.properties[ordering_name] = ORDERING.attr(word)
    if p.kind != lexer.BARE:
        return
    scope_span = p.span()
    scope = p.tok
    if word == "weak":
        p.fail(
            f'operation specifies weak memory ordering semantics, but then provides "{scope}" scope, '
            "expected no memory scope.",
            scope_span,
        )
    if scope not in SCOPE.index:
        p.fail(
            f'invalid memory_scope attribute specification. Got "{scope}" but expect one of: ' + ", ".join(SCOPES),
            scope_span,
        )
    p.advance()
    state.spans[scope_name] = scope_span
    state.properties[scope_name] = SCOPE.attr(scope)


def _print_memory_attributes(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
    ordering = ORDERING.print(op.properties[directive_target(args[0])])
    scope = op.properties.get(directive_target(args[1]))
    return ordering if scope is None else f"{ordering} {SCOPE.print(scope)}"


CUSTOM_DIRECTIVES["MemoryAttributes"] = (_parse_memory_attributes, _print_memory_attributes)


# -- custom<CudaTileTypeSplat> (one index type for all view indices) -------------------


_TOKEN_WORDS = ("token", "!cuda_tile.token")


def _parse_type_splat(p: SyntaxParser, state: OpState, args: list[str]) -> None:
    name = directive_target(args[0])
    types = [parse_type(p)]
    # Views whose indices differ in type (gather/scatter) list one type per index.
    # (A `token` after them is the token operand's type: the multimem ops list it there.)
    while p.at_punct(",") and p.kinds[p.i + 1] in (lexer.BARE, lexer.BANG) and p.texts[p.i + 1] not in _TOKEN_WORDS:
        p.advance()
        types.append(parse_type(p))
    count = len(state.operands.get(name, []))
    state.operand_types[name] = types * count if len(types) == 1 else types


def _print_type_splat(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
    values = list(getattr(op, directive_target(args[0])))
    if not values:
        # NVIDIA's printer requires an index; keep the text parseable.
        return pr.type(ct.tile((), builtin.i32))
    types = [v.type for v in values]
    if all(t == types[0] for t in types):
        return pr.type(types[0])
    return ", ".join(pr.type(t) for t in types)


CUSTOM_DIRECTIVES["CudaTileTypeSplat"] = (_parse_type_splat, _print_type_splat)


# -- constraints -----------------------------------------------------------------------

TOKEN = C.TypeConstraint("cuda tile token type", lambda t: isinstance(t, ct.TokenType))
TILE = C.TypeConstraint("Tile type", lambda t: isinstance(t, ct.TileType))
TENSOR_VIEW = C.TypeConstraint("tensor view type", lambda t: isinstance(t, ct.TensorViewType))
PARTITION_VIEW = C.TypeConstraint("partition view type", lambda t: isinstance(t, ct.PartitionViewType))
STRIDED_VIEW = C.TypeConstraint("strided view type", lambda t: isinstance(t, ct.StridedViewType))
GATHER_SCATTER_VIEW = C.TypeConstraint("gather/scatter view type", lambda t: isinstance(t, ct.GatherScatterViewType))
TILE_VIEW = C.TypeConstraint("TileView instance", ct.is_tile_view)
SCALAR_PTR = C.tile_of(ptr=True, rank=0)
SCALAR_INT = C.SCALAR_INT


def q(t: Attribute) -> str:
    """A type as MLIR streams it into a diagnostic: full spelling in single quotes."""
    return f"'{long_type_str(t)}'"


def dims(shape: Sequence[int]) -> str:
    """A shape as MLIR streams an ArrayRef into a diagnostic: `4, 8`."""
    return ", ".join(str(d) for d in shape)


@cache
def _segment_values(sizes: builtin.DenseArrayBase) -> tuple[int, ...]:
    return tuple(int(v) for v in sizes.get_values())  # type: ignore[misc]


def types_of(op: Operation, name: str) -> list[Attribute]:
    """Types of operand or result group `name`.

    Slicing by the segment sizes directly: IRDL accessors decode operandSegmentSizes
    on every access, which dominates verification of these many-operand ops.
    """
    fields = registry.op_fields(type(op))
    sizes = op.properties.get("operandSegmentSizes") if fields.segmented else None
    if isinstance(sizes, builtin.DenseArrayBase):
        counts = _segment_values(sizes)
        pos = 0
        for (field, _), count in zip(fields.operands, counts):
            if field == name:
                return [v.type for v in op.operands[pos : pos + count]]
            pos += count
    x = getattr(op, name)
    if isinstance(x, list | tuple):
        return [v.type for v in x]
    return [] if x is None else [x.type]


def int_width(t: Attribute) -> int:
    """Bit width as MLIR's getIntOrFloatBitWidth reports it (tf32 is 19 bits)."""
    if isinstance(t, builtin.FloatTF32Type):
        return 19
    return ct.bitwidth(t)


# -- type rules --------------------------------------------------------------------------


class TokenOperand(C.TypeRule):
    """The optional `token = %t` operand is always a token (the format writes no type)."""

    def infer(self, state: OpState) -> None:
        uses = state.operands.get("token")
        if uses:
            state.operand_types.setdefault("token", [ct.TokenType()] * len(uses))


TOKEN_OPERAND = TokenOperand()


class _PairRule(C.TypeRule):
    """A TypesMatchWith-style check of `name` against `other` (skipped when either is absent)."""

    def __init__(self, name: str, other: str, summary: str):
        self.name = name
        self.other = other
        self.summary = summary

    def holds(self, a: Attribute, b: Attribute) -> bool:
        raise NotImplementedError

    def verify(self, op: Operation) -> str | None:
        a, b = types_of(op, self.name), types_of(op, self.other)
        if a and b and not self.holds(a[0], b[0]):
            return f"failed to verify that {self.summary}"
        return None


class PointerOf(_PairRule):
    """TypesMatchWith: `name` must be the pointer tile of `other`'s type."""

    def holds(self, a: Attribute, b: Attribute) -> bool:
        # (whatever pointer attribute the pointer carries: `ptr<f32, <unicast>>` points at f32)
        return (
            isinstance(a, ct.TileType)
            and isinstance(b, ct.TileType)
            and a.shape == b.shape
            and isinstance(a.element_type, ct.PointerType)
            and a.element_type.pointee == b.element_type
        )


def multicast(t: Attribute) -> bool:
    """A (tile of) pointer(s) with the 13.5 `<multicast>` attribute."""
    elem = ct.element_type(t) if isinstance(t, ct.TileType) else t
    return isinstance(elem, ct.PointerType) and elem.ptr_attr.data == "multicast"


class ShapeOf(_PairRule):
    """OptionalTypesMatchWith on shapes: `name` (when present) has `other`'s shape."""

    def holds(self, a: Attribute, b: Attribute) -> bool:
        return ct.shape_of(a) == ct.shape_of(b)


class SameTypeAs(_PairRule):
    """OptionalTypesMatchWith on whole types: `name` (when present) has `other`'s type."""

    def holds(self, a: Attribute, b: Attribute) -> bool:
        return a == b


class SameOperandsAndResultShape(C.TypeRule):
    """The native MLIR trait (checked after the ODS constraints and predicates)."""

    def verify(self, op: Operation) -> str | None:
        shapes = [ct.shape_of(v.type) for v in (*op.operands, *op.results) if isinstance(v.type, ct.TileType)]
        if shapes and any(s != shapes[0] for s in shapes):
            return "requires the same shape for all operands and results"
        return None


# -- memory model --------------------------------------------------------------------------


def check_memory_model(op: Operation, kind: str, allowed: tuple[str, str, str]) -> VerifyResult:
    """NVIDIA's load/store ordering rules: weak takes no scope, the others need one."""
    ordering = ordering_of(op) or ""
    if ordering not in allowed:
        yield OpError(f"expect one of: {allowed[0]}, {allowed[1]}, or {allowed[2]}, but got: {ordering}")
        return
    has_scope = "memory_scope" in op.properties
    if ordering == "weak":
        if has_scope:
            yield OpError(f"weak {kind} must not have memory scope")
    elif not has_scope:
        yield OpError(f"memory scope is required for {ordering} {kind}")


LOAD_ORDERINGS = ("weak", "relaxed", "acquire")
STORE_ORDERINGS = ("weak", "relaxed", "release")
