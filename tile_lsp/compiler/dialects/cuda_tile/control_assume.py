"""cuda_tile.assume and its predicates: div_by, same_elements, bounded.

Each predicate is an attribute spelled `#cuda_tile.div_by<16>` generically and
`div_by<16>` inside assume; its checks against the constrained value are NVIDIA's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Data, Operation
from xdsl.irdl import irdl_attr_definition, operand_def, prop_def, result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, tile_op
from tile_lsp.compiler.syntax import attributes as attr_syntax
from tile_lsp.compiler.syntax import lexer

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext

INT64_MAX = (1 << 63) - 1


class _Predicate(Data[tuple[int | None, ...]]):
    """Shared storage of the assume predicates: a tuple of ints (None = `?`)."""

    @classmethod
    def parse_parameter(cls, parser):  # type: ignore[no-untyped-def]  # pragma: no cover
        raise NotImplementedError("parsed by tile_lsp.compiler.syntax")

    def print_parameter(self, printer) -> None:  # type: ignore[no-untyped-def]  # pragma: no cover
        printer.print_string(repr(self.data))


@irdl_attr_definition
class DivByAttr(_Predicate):
    """`div_by<divisor>` or `div_by<divisor, every N along D>`."""

    name = "cuda_tile.div_by"


@irdl_attr_definition
class SameElementsAttr(_Predicate):
    """`same_elements<[a, b, ...]>`: groups of this many elements per dim are equal."""

    name = "cuda_tile.same_elements"


@irdl_attr_definition
class BoundedAttr(_Predicate):
    """`bounded<lb, ub>`; either side may be `?` (unbounded)."""

    name = "cuda_tile.bounded"


def _parse_uint(p: SyntaxParser, what: str) -> int:
    if p.kind != lexer.INT:
        p.fail(f"failed to parse parameter '{what}' which is expected to be an integer")
    value = p.int_token(message=f"failed to parse parameter '{what}' which is expected to be an integer")
    p.advance()
    return value


def _parse_div_by(p: SyntaxParser) -> Attribute:
    p.expect_punct("<")
    values: list[int | None] = [_parse_uint(p, "divisor")]
    if p.accept_punct(","):
        p.expect_keyword("every")
        values.append(_parse_uint(p, "every"))
        p.expect_keyword("along")
        values.append(_parse_uint(p, "along"))
    p.expect_punct(">")
    return DivByAttr(tuple(values))


def _parse_same_elements(p: SyntaxParser) -> Attribute:
    p.expect_punct("<")
    p.expect_punct("[")
    values = p.comma_list(p.parse_int_literal, "]")
    p.expect_punct(">")
    return SameElementsAttr(tuple(values))


def _parse_bound(p: SyntaxParser) -> int | None:
    if p.accept_punct("?"):
        return None
    if p.kind != lexer.INT and not p.at_punct("-"):
        p.fail("expected either 64-bit integer or question mark")
    return p.parse_int_literal()


def _parse_bounded(p: SyntaxParser) -> Attribute:
    p.expect_punct("<")
    lb = _parse_bound(p)
    p.expect_punct(",")
    ub = _parse_bound(p)
    p.expect_punct(">")
    return BoundedAttr((lb, ub))


_PARSERS = {"div_by": _parse_div_by, "same_elements": _parse_same_elements, "bounded": _parse_bounded}


def predicate_body(a: Attribute) -> str:
    """`div_by<16>`: the spelling inside assume (the generic one minus `#cuda_tile.`)."""
    v = a.data if isinstance(a, _Predicate) else ()
    if isinstance(a, DivByAttr):
        return f"div_by<{v[0]}, every {v[1]} along {v[2]}>" if len(v) == 3 else f"div_by<{v[0]}>"
    if isinstance(a, SameElementsAttr):
        return "same_elements<[" + ", ".join(str(x) for x in v) + "]>"
    if isinstance(a, BoundedAttr):
        return "bounded<" + ", ".join("?" if x is None else str(x) for x in v) + ">"
    return attr_syntax.attr_str(a)


for _kw, _parse in _PARSERS.items():
    attr_syntax.DIALECT_ATTR_PARSERS[f"cuda_tile.{_kw}"] = _parse
for _cls in (DivByAttr, SameElementsAttr, BoundedAttr):
    attr_syntax.DIALECT_ATTR_PRINTERS[_cls] = lambda a: "#cuda_tile." + predicate_body(a)


def parse_predicate(p: SyntaxParser) -> Attribute:
    """custom<AssumePredicate>: a full attribute or a bare `div_by<...>`-style keyword."""
    start = p.span()
    if p.kind == lexer.BARE:
        parse = _PARSERS.get(p.tok)
        if parse is None:
            p.fail(
                f"unknown assume predicate attribute: {p.tok} (expected 'div_by', 'same_elements', or 'bounded')"
            )
            raise AssertionError
        p.advance()
        return parse(p)
    if p.kind in (lexer.HASH, lexer.INT, lexer.FLOAT, lexer.STRING) or p.at_punct("["):
        a = attr_syntax.parse_attribute(p)
        if not isinstance(a, _Predicate):
            p.fail("expected assume predicate attribute", start)
        return a
    p.fail("expected attribute name")
    raise AssertionError


def _elem_is_int_or_ptr(t: Attribute) -> bool:
    e = ct.element_type(t)
    return isinstance(e, builtin.IntegerType | ct.PointerType)


def _check_div_by(v: tuple[int | None, ...], t: Attribute) -> str | None:
    is_view = isinstance(t, ct.TensorViewType)
    if not (is_view or (isinstance(t, ct.TileType) and _elem_is_int_or_ptr(t))):
        return "'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values"
    divisor = v[0] or 0
    if len(v) == 3:
        every, along = v[1] or 0, v[2] or 0
        if is_view:
            return "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a tensor_view"
        assert isinstance(t, ct.TileType)
        if t.rank == 0:
            return "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile"
        if not 0 <= along < t.rank:
            return f"'cuda_tile.div_by' every_dim ({along}) must be >= 0 and < tile rank ({t.rank})"
        if not 0 <= every <= t.shape[along]:
            return (
                "expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the respective "
                f"dimension ({t.shape[along]})"
            )
    if divisor > INT64_MAX:
        return "'cuda_tile.div_by' divisor is too large"
    if divisor <= 0 or divisor & (divisor - 1):
        return "'cuda_tile.div_by' divisor must be a power of 2"
    return None


def _check_same_elements(v: tuple[int | None, ...], t: Attribute) -> str | None:
    if not (isinstance(t, ct.TileType) and _elem_is_int_or_ptr(t)):
        return "'cuda_tile.same_elements' is valid only for tile of integer/pointer values"
    if len(v) != t.rank:
        return (
            f"expected number of values in 'cuda_tile.same_elements' ({len(v)}) to match rank of "
            f"constrained tile ({t.rank})"
        )
    for i, (x, dim) in enumerate(zip(v, t.shape)):
        if x is None or not 0 <= x <= dim:
            return (
                f"expected 'cuda_tile.same_elements' value {i} to be within 0 and the size of the respective "
                f"dimension ({dim})"
            )
    return None


def _check_bounded(v: tuple[int | None, ...], t: Attribute) -> str | None:
    e = ct.element_type(t)
    if not (isinstance(t, ct.TileType) and isinstance(e, builtin.IntegerType)):
        return "'cuda_tile.bounded' is valid only for tile of integer values"
    width = e.width.data
    lo_lim, hi_lim = -(1 << (width - 1)), (1 << (width - 1)) - 1
    lb, ub = v
    if lb is not None and not lo_lim <= lb <= hi_lim:
        return f"'cuda_tile.bounded' expects lower bound to be within [{lo_lim}, {hi_lim}]"
    if ub is not None and not lo_lim <= ub <= hi_lim:
        return f"'cuda_tile.bounded' expects upper bound to be within [{lo_lim}, {hi_lim}]"
    if lb is not None and ub is not None and lb > ub:
        return "'cuda_tile.bounded' expects lower bound to be less than or equal to upper bound"
    return None


@tile_op
class AssumeOp(CudaTileOp):
    """Returns its operand unchanged while promising the compiler a property of it (divisibility, bounds, ...).

    ```mlir
    %p = assume div_by<16>, %ptr : tile<ptr<f32>>
    ```
    """

    name = "cuda_tile.assume"
    RESULT_NAMES = ("assume",)
    value = operand_def()
    predicate = prop_def(Attribute)
    result = result_def()
    TYPE_RULES = (C.AllTypesMatch("value", "result"),)

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        from tile_lsp.compiler.dialects.cuda_tile.control_regions import parse_cuda_type
        from tile_lsp.compiler.syntax.attributes import parse_attr_dict_body

        state.spans["predicate"] = p.span()
        state.properties["predicate"] = parse_predicate(p)
        p.expect_punct(",")
        state.spans["value"] = p.span()
        state.operands["value"] = [p.parse_value_use()]
        if p.at_punct("{"):
            state.attributes.update(parse_attr_dict_body(p))
        p.expect_punct(":")
        t = parse_cuda_type(p)
        state.operand_types["value"] = [t]
        state.result_types["result"] = [t]

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, AssumeOp)
        attrs = pr.attr_dict(op, elided={"predicate"})
        attrs = f" {attrs}" if attrs else ""
        return f" {predicate_body(op.predicate)}, {pr.value_name(op.value)}{attrs} : {pr.type(op.value.type)}"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        pred = self.predicate
        t = self.value.type
        msg: str | None
        if isinstance(pred, DivByAttr):
            msg = _check_div_by(pred.data, t)
        elif isinstance(pred, SameElementsAttr):
            msg = _check_same_elements(pred.data, t)
        elif isinstance(pred, BoundedAttr):
            msg = _check_bounded(pred.data, t)
        else:
            msg = "expected assume predicate attribute"
        if msg is not None:
            yield OpError(msg)


OPS: list[type[Operation]] = [AssumeOp]
