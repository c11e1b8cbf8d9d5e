"""Syntax pieces of the arith, math and conversion ops: enum keywords and rounding modes.

Registers the custom<...> directives these ops use, with NVIDIA's parse error texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Operation

from tile_lsp.compiler.dialects.cuda_tile.attrs import EnumAttr, EnumSyntax, enum
from tile_lsp.compiler.dialects.cuda_tile.custom import ROUNDING, directive_target
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.format import CUSTOM_DIRECTIVES

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter

SIGNEDNESS = EnumSyntax("signedness", ("unsigned", "signed"))
OVERFLOW = EnumSyntax("overflow", ("none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"), bracketed=True)
PREDICATE = EnumSyntax(
    "comparison_predicate",
    ("equal", "not_equal", "less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal"),
)
ORDERING = EnumSyntax("comparison_ordering", ("unordered", "ordered"))

IEEE_MODES = ("nearest_even", "zero", "negative_inf", "positive_inf")

# custom<...> directive -> (property it sets, the keywords it accepts); read by completion.
DIRECTIVE_KEYWORDS: dict[str, tuple[str, tuple[str, ...]]] = {}


def case_of(op: Operation, name: str, default: str) -> str:
    """The case of enum property `name`, or `default` when it is absent."""
    a = op.properties.get(name)
    return a.case if isinstance(a, EnumAttr) else default


# -- keyword enums (signedness, comparison predicate/ordering) -------------------


def _keyword_directive(directive: str, kind: str, message: str, cases: Sequence[str]) -> None:
    allowed = frozenset(cases)
    DIRECTIVE_KEYWORDS[directive] = (kind, tuple(cases))

    def parse(p: SyntaxParser, state: OpState, args: list[str]) -> None:
        name = directive_target(args[0])
        span = p.span()
        state.spans[name] = span
        if p.kind != lexer.BARE:
            # MLIR's parseKeyword reports first, then the directive adds its own error.
            p.sink.error(span, f"custom op '{state.name}' expected valid keyword")
            p.fail(message, span)
        word = p.tok
        if word not in allowed:
            p.fail(message, span)
        p.advance()
        state.properties[name] = enum(kind, word)

    def print_(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
        a = op.properties.get(directive_target(args[0]))
        return a.case if isinstance(a, EnumAttr) else ""

    CUSTOM_DIRECTIVES[directive] = (parse, print_)


_keyword_directive(
    "Signedness", "signedness", "expected signedness to be one of: {'signed', 'unsigned'}", SIGNEDNESS.cases
)
_keyword_directive(
    "ComparisonPredicate",
    "comparison_predicate",
    "expected 'comparison_predicate' to be one of: {'equal', 'not_equal', 'less_than', "
    "'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}",
    PREDICATE.cases,
)
_keyword_directive(
    "ComparisonOrdering",
    "comparison_ordering",
    "expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}",
    ORDERING.cases,
)


# -- rounding modes ------------------------------------------------------------------


def _rounding_directive(directive: str, shown: Sequence[str], default: str, strict: bool) -> None:
    """`[rounding<mode>]`; `shown` is the list in the error, `strict` rejects modes outside it.

    NVIDIA's strict parsers (IEEE, integer) end the message with `, got: 'mode'`.
    """
    listing = "expected rounding mode to be one of: " + ", ".join(f"'{m}'" for m in shown)
    known = frozenset(ROUNDING.cases)
    allowed = frozenset(shown)
    DIRECTIVE_KEYWORDS[directive] = ("rounding", tuple(f"rounding<{m}>" for m in shown))

    def parse(p: SyntaxParser, state: OpState, args: list[str]) -> None:
        name = directive_target(args[0])
        if not p.at_keyword("rounding"):
            state.properties[name] = enum("rounding", default)
            return
        state.spans[name] = p.span()
        p.advance()
        p.expect_punct("<")
        if p.kind != lexer.BARE:
            p.fail("expected valid keyword")
        word = p.tok
        p.advance()
        p.expect_punct(">")
        if word not in known or (strict and word not in allowed):
            p.fail(listing + (f", got: '{word}'" if strict else ""))
        state.properties[name] = enum("rounding", word)

    def print_(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
        case = case_of(op, directive_target(args[0]), default)
        return "" if case == default else f"rounding<{case}>"

    CUSTOM_DIRECTIVES[directive] = (parse, print_)


_rounding_directive("IEEERoundingMode", IEEE_MODES, "nearest_even", strict=True)
_rounding_directive("DivFOpRoundingMode", (*IEEE_MODES, "approx", "full"), "nearest_even", strict=False)
_rounding_directive("SqrtOpRoundingMode", (*IEEE_MODES, "approx"), "nearest_even", strict=False)
_rounding_directive("TanHOpRoundingMode", ("approx", "full"), "full", strict=False)
_rounding_directive("ExpOpRoundingMode", ("approx", "full"), "full", strict=False)
# ftof's parser (13.4+) also takes `nearest_away`; which modes a conversion allows is the verifier's.
_rounding_directive("FToFRoundingMode", (*IEEE_MODES, "nearest_away"), "nearest_even", strict=True)
_rounding_directive("IntegerRoundingMode", ("nearest_int_to_zero",), "nearest_int_to_zero", strict=True)


# -- maxf/minf modifiers: oilist(`flush_to_zero` $flush_to_zero | `propagate_nan` $propagate_nan)


def _parse_unit_flags(p: SyntaxParser, state: OpState, args: list[str]) -> None:
    names = [directive_target(a) for a in args]
    while p.kind == lexer.BARE and p.tok in names:
        word = p.tok
        if word in state.properties:
            p.fail(f"'{word}' clause can appear at most once in the expansion of the oilist directive")
        state.spans[word] = p.span()
        p.advance()
        state.properties[word] = builtin.UnitAttr()


def _print_unit_flags(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
    return " ".join(n for n in (directive_target(a) for a in args) if n in op.properties)


CUSTOM_DIRECTIVES["UnitFlags"] = (_parse_unit_flags, _print_unit_flags)
