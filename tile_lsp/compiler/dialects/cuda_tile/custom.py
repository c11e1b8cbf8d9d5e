"""custom<...> directives shared by cuda_tile op formats (types, rounding, symbols).

Each directive is a (parse, print) pair registered in CUSTOM_DIRECTIVES by name.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Operation

from tile_lsp.compiler.dialects.cuda_tile.attrs import EnumSyntax
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import symbol_name
from tile_lsp.compiler.syntax.format import CUSTOM_DIRECTIVES
from tile_lsp.compiler.syntax.types import parse_type

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter


@cache
def directive_target(arg: str) -> str:
    """`type($x)` / `$x` / `ref($x)` -> `x`: the field a custom directive argument names."""
    return arg.replace("type(", "").replace("ref(", "").rstrip(")").lstrip("$")


@cache
def _type_targets(op_name: str, args: tuple[str, ...]) -> tuple[tuple[str, bool, bool], ...]:
    """Per (op, directive args): (name, is_variadic, is_result) for each target, computed once."""
    from tile_lsp.compiler.dialects import registry

    cls = registry.op_class(op_name)
    fields = registry.op_fields(cls) if cls else None
    result_names = {n for n, _ in fields.results} if fields else set()
    arity = dict(fields.operands + fields.results) if fields else {}
    out = []
    for arg in args:
        name = directive_target(arg)
        out.append((name, arity.get(name, "single") == "variadic", name in result_names))
    return tuple(out)


def _parse_cuda_tile_type(p: SyntaxParser, state: OpState, args: list[str]) -> None:
    for i, (name, variadic, is_result) in enumerate(_type_targets(state.name, tuple(args))):
        if i:
            p.expect_punct(",")
        if variadic:
            types = []
            if p.kind in (lexer.BARE, lexer.BANG):
                types.append(parse_type(p))
                while p.at_punct(",") and p.kinds[p.i + 1] in (lexer.BARE, lexer.BANG):
                    p.advance()
                    types.append(parse_type(p))
        else:
            if p.kind not in (lexer.BARE, lexer.BANG):
                # parseCudaTileType: no type and no dialect keyword either.
                p.fail("expected valid keyword")
            types = [parse_type(p)]
        if is_result:
            state.result_types[name] = types
        else:
            state.operand_types[name] = types


def _print_cuda_tile_type(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
    parts = []
    for arg in args:
        x = getattr(op, directive_target(arg))
        values = list(x) if isinstance(x, list | tuple) else ([] if x is None else [x])
        parts.append(", ".join(pr.type(v.type) for v in values))
    return ", ".join(parts)


CUSTOM_DIRECTIVES["CudaTileType"] = (_parse_cuda_tile_type, _print_cuda_tile_type)

ROUNDING = EnumSyntax(
    "rounding",
    ("nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full", "nearest_int_to_zero", "nearest_away"),
    bracketed=True,
)


# The rounding<...> directives (IEEERoundingMode, DivFOpRoundingMode, ...) live in arith_syntax.py.


def _parse_symbol(p: SyntaxParser, state: OpState, args: list[str]) -> None:
    if p.kind != lexer.SYMBOL:
        p.fail("expected valid '@'-identifier for symbol name")
    name = symbol_name(p.tok)
    state.spans["@" + name] = p.span()
    p.advance()
    state.properties[directive_target(args[0])] = builtin.SymbolRefAttr(name)


def _print_symbol(pr: SyntaxPrinter, op: Operation, args: list[str]) -> str:
    from tile_lsp.compiler.syntax.attributes import attr_str

    return attr_str(op.properties[directive_target(args[0])])


CUSTOM_DIRECTIVES["SymbolRef"] = (_parse_symbol, _print_symbol)
