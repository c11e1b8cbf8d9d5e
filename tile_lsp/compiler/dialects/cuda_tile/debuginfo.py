"""Debug-info attributes (`#cuda_tile.di_file`, `di_subprogram`, ...) and the `di_loc` location.

Also NVIDIA's debug-info rules: a function's `di_loc` scope is its subprogram, and every
op inside uses a scope of that same subprogram; module-level items carry no scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, cast

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from tile_lsp.compiler.dialects.cuda_tile.base import OpError, VerifyResult
from tile_lsp.compiler.syntax import attributes as attr_syntax
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import escape, parse_attribute, unescape
from tile_lsp.compiler.syntax.locations import (
    LOCATION_PRINTERS,
    CallSiteLoc,
    FileLoc,
    FusedLoc,
    Location,
    NameLoc,
    location_body,
)

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext

NONE = builtin.NoneAttr()


@irdl_attr_definition
class DIFileAttr(ParametrizedAttribute):
    """`#cuda_tile.di_file<"name" in "directory">`."""

    name = "cuda_tile.di_file"
    file_name: builtin.StringAttr
    directory: builtin.StringAttr


@irdl_attr_definition
class DICompileUnitAttr(ParametrizedAttribute):
    """`#cuda_tile.di_compile_unit<file = #di_file>`."""

    name = "cuda_tile.di_compile_unit"
    file: DIFileAttr


@irdl_attr_definition
class DISubprogramAttr(ParametrizedAttribute):
    """A function's debug scope; `scope_line` is NoneAttr when absent."""

    name = "cuda_tile.di_subprogram"
    file: DIFileAttr
    line: builtin.IntAttr
    sp_name: builtin.StringAttr
    linkage_name: builtin.StringAttr
    compile_unit: DICompileUnitAttr
    scope_line: Attribute


@irdl_attr_definition
class DILexicalBlockAttr(ParametrizedAttribute):
    """A nested scope inside a subprogram (or another block); `column` is NoneAttr when absent."""

    name = "cuda_tile.di_lexical_block"
    scope: Attribute
    file: DIFileAttr
    line: builtin.IntAttr
    column: Attribute


@irdl_attr_definition
class DILocAttr(Location):
    """`#cuda_tile.di_loc<loc("file":1:2) in #di_subprogram>`: a file location with its scope."""

    name = "cuda_tile.di_loc"
    source_loc: FileLoc
    scope: Attribute


LOCAL_SCOPES = (DISubprogramAttr, DILexicalBlockAttr)

# ODS parameter kinds: (C++ type name in messages, check of a parsed attribute).
_Kind = tuple[str, Callable[[Attribute], bool]]
_FILE: _Kind = ("DIFileAttr", lambda a: isinstance(a, DIFileAttr))
_UNIT: _Kind = ("DICompileUnitAttr", lambda a: isinstance(a, DICompileUnitAttr))
_SCOPE: _Kind = ("DILocalScopeAttr", lambda a: isinstance(a, LOCAL_SCOPES))
_STRING: _Kind = ("StringAttr", lambda a: isinstance(a, builtin.StringAttr))
_UNSIGNED: _Kind = ("unsigned", lambda a: True)

# mnemonic -> (ODS def name, [(param, kind, required)]) in declaration (= print) order.
_STRUCTS: dict[str, tuple[str, list[tuple[str, _Kind, bool]]]] = {
    "di_compile_unit": ("CudaTile_DICompileUnitAttr", [("file", _FILE, True)]),
    "di_subprogram": (
        "CudaTile_DISubprogramAttr",
        [
            ("file", _FILE, True),
            ("line", _UNSIGNED, True),
            ("name", _STRING, True),
            ("linkageName", _STRING, True),
            ("compileUnit", _UNIT, True),
            ("scopeLine", _UNSIGNED, False),
        ],
    ),
    "di_lexical_block": (
        "CudaTile_DILexicalBlockAttr",
        [("scope", _SCOPE, True), ("file", _FILE, True), ("line", _UNSIGNED, True), ("column", _UNSIGNED, False)],
    ),
}


# -- parsing ----------------------------------------------------------------------


def _parse_struct(p: SyntaxParser, mnemonic: str) -> dict[str, Attribute]:
    """`<key = value, ...>` in any order (ODS `struct(params)`), with ODS's messages."""
    def_name, params = _STRUCTS[mnemonic]
    kinds = {name: kind for name, kind, _ in params}
    p.expect_punct("<")
    seen: dict[str, Attribute] = {}
    all_required = all(req for _, _, req in params)
    index = 0
    while True:
        if p.kind != lexer.BARE:
            p.fail("expected a parameter name in struct")
        key, key_span = p.tok, p.span()
        p.advance()
        p.expect_punct("=")
        if key in seen or key not in kinds:
            p.fail(f"duplicate or unknown struct parameter name: {key}", key_span)
        seen[key] = _parse_param(p, def_name, key, kinds[key])
        index += 1
        if all_required:
            if index == len(params):
                break
            p.expect_punct(",")
        elif not p.accept_punct(","):
            break
    for name, _, required in params:
        if required and name not in seen:
            p.fail(f"struct is missing required parameter: {name}")
    p.expect_punct(">")
    return seen


def _parse_param(p: SyntaxParser, def_name: str, key: str, kind: _Kind) -> Attribute:
    type_name, check = kind
    start = p.span()
    if kind is _UNSIGNED:
        if p.kind != lexer.INT:
            p.fail(f"failed to parse {def_name} parameter '{key}' which is to be a `{type_name}`", start)
        value = p.int_token(message=f"failed to parse {def_name} parameter '{key}' which is to be a `{type_name}`")
        if value >= 1 << 32:
            p.fail(f"failed to parse {def_name} parameter '{key}' which is to be a `{type_name}`", start)
        p.advance()
        return builtin.IntAttr(value)
    attr = parse_attribute(p)
    if not check(attr):
        p.fail(f"failed to parse {def_name} parameter '{key}' which is to be a `{type_name}`", start)
    return attr


def _parse_file(p: SyntaxParser) -> Attribute:
    p.expect_punct("<")
    if p.kind != lexer.STRING:
        p.fail("failed to parse CudaTile_DIFileAttr parameter 'name' which is to be a `StringAttr`")
    file_name = unescape(p.tok)
    p.advance()
    p.expect_keyword("in")
    if p.kind != lexer.STRING:
        p.fail("failed to parse CudaTile_DIFileAttr parameter 'directory' which is to be a `StringAttr`")
    directory = unescape(p.tok)
    p.advance()
    p.expect_punct(">")
    return DIFileAttr(builtin.StringAttr(file_name), builtin.StringAttr(directory))


def _parse_compile_unit(p: SyntaxParser) -> Attribute:
    s = _parse_struct(p, "di_compile_unit")
    return DICompileUnitAttr(cast(DIFileAttr, s["file"]))


def _parse_subprogram(p: SyntaxParser) -> Attribute:
    s = _parse_struct(p, "di_subprogram")
    return DISubprogramAttr(
        cast(DIFileAttr, s["file"]),
        cast(builtin.IntAttr, s["line"]),
        cast(builtin.StringAttr, s["name"]),
        cast(builtin.StringAttr, s["linkageName"]),
        cast(DICompileUnitAttr, s["compileUnit"]),
        s.get("scopeLine", NONE),
    )


def _parse_lexical_block(p: SyntaxParser) -> Attribute:
    s = _parse_struct(p, "di_lexical_block")
    return DILexicalBlockAttr(
        s["scope"], cast(DIFileAttr, s["file"]), cast(builtin.IntAttr, s["line"]), s.get("column", NONE)
    )


def _parse_di_loc(p: SyntaxParser) -> Attribute:
    p.expect_punct("<")
    start = p.span()
    source = parse_attribute(p)
    if not isinstance(source, FileLoc):
        p.fail("failed to parse CudaTile_DILocAttr parameter 'sourceLoc' which is to be a `FileLineColLoc`", start)
    p.expect_keyword("in")
    start = p.span()
    scope = parse_attribute(p)
    if not isinstance(scope, LOCAL_SCOPES):
        p.fail("failed to parse CudaTile_DILocAttr parameter 'scope' which is to be a `DILocalScopeAttr`", start)
    p.expect_punct(">")
    return DILocAttr(cast(FileLoc, source), scope)


# -- printing -----------------------------------------------------------------------


def _ref(pr: SyntaxPrinter | None, a: Attribute) -> str:
    """A nested debug-info node: an alias when printing a module, inline otherwise."""
    base = _ALIAS_BASE.get(type(a))
    if pr is None or base is None:
        return _inline(pr, a)
    return pr.alias(a, base, lambda: _inline(pr, a))


def _inline(pr: SyntaxPrinter | None, a: Attribute) -> str:
    if isinstance(a, DIFileAttr):
        return f"#cuda_tile.di_file<{escape(a.file_name.data)} in {escape(a.directory.data)}>"
    if isinstance(a, DICompileUnitAttr):
        return f"#cuda_tile.di_compile_unit<file = {_ref(pr, a.file)}>"
    if isinstance(a, DISubprogramAttr):
        parts = [
            f"file = {_ref(pr, a.file)}",
            f"line = {a.line.data}",
            f"name = {escape(a.sp_name.data)}",
            f"linkageName = {escape(a.linkage_name.data)}",
            f"compileUnit = {_ref(pr, a.compile_unit)}",
        ]
        if isinstance(a.scope_line, builtin.IntAttr):
            parts.append(f"scopeLine = {a.scope_line.data}")
        return f"#cuda_tile.di_subprogram<{', '.join(parts)}>"
    if isinstance(a, DILexicalBlockAttr):
        parts = [f"scope = {_ref(pr, a.scope)}", f"file = {_ref(pr, a.file)}", f"line = {a.line.data}"]
        if isinstance(a.column, builtin.IntAttr):
            parts.append(f"column = {a.column.data}")
        return f"#cuda_tile.di_lexical_block<{', '.join(parts)}>"
    if isinstance(a, DILocAttr):
        source = f"loc({location_body(pr, a.source_loc)})"
        if pr is not None:  # as MLIR prints it: `#loc = loc("f.py":1:2)`, `#loc1 = #cuda_tile.di_loc<#loc in ...>`
            source = pr.alias(a.source_loc, "loc", lambda: source)
        return f"#cuda_tile.di_loc<{source} in {_ref(pr, a.scope)}>"
    return attr_syntax.attr_str(a)


def _loc_text(pr: SyntaxPrinter | None, a: Attribute) -> str:
    """Inside `loc(...)`: MLIR names every di_loc `#loc`, `#loc1`, ..."""
    if pr is None:
        return _inline(None, a)
    return pr.alias(a, "loc", lambda: _inline(pr, a))


_ALIAS_BASE: dict[type[Attribute], str] = {
    DIFileAttr: "di_file",
    DICompileUnitAttr: "di_compile_unit",
    DISubprogramAttr: "di_subprogram",
    DILexicalBlockAttr: "di_lexical_block",
}

for _mnemonic, _parser in (
    ("di_file", _parse_file),
    ("di_compile_unit", _parse_compile_unit),
    ("di_subprogram", _parse_subprogram),
    ("di_lexical_block", _parse_lexical_block),
    ("di_loc", _parse_di_loc),
):
    attr_syntax.DIALECT_ATTR_PARSERS[f"cuda_tile.{_mnemonic}"] = _parser
for _cls in _ALIAS_BASE:
    attr_syntax.DIALECT_ATTR_PRINTERS[_cls] = lambda a: _inline(None, a)
attr_syntax.DIALECT_ATTR_PRINTERS[DILocAttr] = lambda a: f"loc({_inline(None, a)})"
LOCATION_PRINTERS[DILocAttr] = _loc_text


# -- verification (NVIDIA's debug-info rules) ----------------------------------------


def di_loc_of(loc: Attribute | None) -> DILocAttr | None:
    """The di_loc inside a location: through name, callsite (caller) and fused wrappers."""
    if type(loc) not in _MAY_HOLD_DI_LOC:  # fast path: most ops carry xDSL's unknown location
        return None
    if isinstance(loc, DILocAttr):
        return loc
    if isinstance(loc, NameLoc):
        return di_loc_of(loc.child)
    if isinstance(loc, CallSiteLoc):
        return di_loc_of(loc.caller)
    if isinstance(loc, FusedLoc):
        for sub in loc.locations.data:
            found = di_loc_of(sub)
            if found is not None:
                return found
    return None


_MAY_HOLD_DI_LOC = frozenset({DILocAttr, NameLoc, CallSiteLoc, FusedLoc})


def subprogram_of(scope: Attribute) -> DISubprogramAttr | None:
    while isinstance(scope, DILexicalBlockAttr):
        scope = scope.scope
    return scope if isinstance(scope, DISubprogramAttr) else None


def _loc_str(loc: Attribute) -> str:
    return f"loc({location_body(None, loc)})"


def verify_function(func: Operation) -> VerifyResult:
    """Rules for the function's own location (C++ verifyFuncDebugInfo)."""
    loc = func.location
    if isinstance(loc, CallSiteLoc):
        yield OpError(
            f"invalid function debug info location: {_loc_str(loc)}. Function location must not be a CallSiteLoc."
        )
        return
    di = di_loc_of(loc)
    if di is None:
        return
    subprogram = di.scope
    if not isinstance(subprogram, DISubprogramAttr):
        yield OpError(
            f"invalid function debug info scope: {_inline(None, subprogram)}. "
            "Function location must have cuda_tile.di_subprogram debug info scope."
        )
        return
    sym = func.properties.get("sym_name")
    name = sym.data if isinstance(sym, builtin.StringAttr) else ""
    if subprogram.linkage_name.data != name:
        yield OpError(
            f'invalid function debug info scope: {_inline(None, subprogram)}. Function name "{name}" does not '
            f"match subprogram scope linkage name {escape(subprogram.linkage_name.data)}."
        )


def verify_function_body(func: Operation, ctx: VerifyContext) -> None:
    """Every op in the function uses the function's subprogram (reports the first offender)."""
    fn_di = di_loc_of(func.location)
    fn_sub = subprogram_of(fn_di.scope) if fn_di is not None else None
    for op in _walk(func):
        di = di_loc_of(op.location)
        if di is None:
            continue
        op_sub = subprogram_of(di.scope)
        if op_sub is None:
            continue
        if fn_sub is None:
            ctx.sink.error(
                ctx.span(op),
                f"'{_op_name(op)}' op invalid operation debug info scope: {_inline(None, op_sub)}. "
                "Operation has debug info scope, but function debug info scope is undefined.",
            )
            return
        if op_sub != fn_sub:
            ctx.sink.error(
                ctx.span(op),
                f"invalid operation debug info scope: {_inline(None, op_sub)}. Operation debug info scope does "
                f"not match function debug info scope: {_inline(None, fn_sub)}.",
            )
            return


def verify_module_items(module: Operation, ctx: VerifyContext, functions: tuple[type[Operation], ...]) -> None:
    """Module-level items other than functions must not carry a debug scope."""
    for region in module.regions:
        for block in region.blocks:
            for op in block.ops:
                if isinstance(op, functions):
                    continue
                di = di_loc_of(op.location)
                if di is not None:
                    ctx.sink.error(
                        ctx.span(op),
                        f"'{_op_name(op)}' op invalid operation debug info scope: {_loc_str(di)}. "
                        "Global variables must not have scope.",
                    )
                    return


def _walk(op: Operation) -> Iterator[Operation]:
    stack = [op]
    while stack:
        for region in stack.pop().regions:
            for block in region.blocks:
                for inner in block.ops:
                    yield inner
                    if inner.regions:
                        stack.append(inner)


def _op_name(op: Operation) -> str:
    if isinstance(op, builtin.UnregisteredOp):
        return op.op_name.data
    return op.name
