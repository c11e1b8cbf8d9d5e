"""MLIR source locations: `loc(...)` parsed into attributes that ops and block arguments keep.

Only locations the user wrote are attached (xDSL's default stays unprinted), so printing
gives back exactly the `loc(...)` suffixes of the input; dialect locations (`di_loc`) plug in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Block, BlockArgument, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import (
    CALL_ATTR_PARSERS,
    DIALECT_ATTR_PRINTERS,
    attr_str,
    escape,
    parse_attribute,
    unescape,
)

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser, SyntaxPrinter

NONE = builtin.NoneAttr()


class Location(ParametrizedAttribute):
    """Base of every location attribute (builtin kinds here, dialect kinds elsewhere)."""


@irdl_attr_definition
class UnknownLoc(Location):
    """`loc(unknown)` written explicitly."""

    name = "tile_lsp.unknown_loc"


@irdl_attr_definition
class FileLoc(Location):
    """`"file":line:col`, optionally a range `to [line]:col`; -1 marks an absent number."""

    name = "tile_lsp.file_loc"
    filename: builtin.StringAttr
    line: builtin.IntAttr
    column: builtin.IntAttr
    end_line: builtin.IntAttr
    end_column: builtin.IntAttr


def file_loc(filename: str, line: int, column: int = -1, end_line: int = -1, end_column: int = -1) -> FileLoc:
    i = builtin.IntAttr
    return FileLoc(builtin.StringAttr(filename), i(line), i(column), i(end_line), i(end_column))


@irdl_attr_definition
class NameLoc(Location):
    """`"name"` or `"name"(child)`; `child` is NoneAttr when absent."""

    name = "tile_lsp.name_loc"
    desc: builtin.StringAttr
    child: Attribute


@irdl_attr_definition
class CallSiteLoc(Location):
    """`callsite(callee at caller)`."""

    name = "tile_lsp.callsite_loc"
    callee: Attribute
    caller: Attribute


@irdl_attr_definition
class FusedLoc(Location):
    """`fused<metadata>[a, b]`; `metadata` is NoneAttr when absent."""

    name = "tile_lsp.fused_loc"
    locations: builtin.ArrayAttr[Attribute]
    metadata: Attribute


@irdl_attr_definition
class DeferredLoc(Location):
    """`#alias` used before its definition; replaced once the whole text is parsed."""

    name = "tile_lsp.deferred_loc"
    alias: builtin.StringAttr


def is_location(a: Attribute) -> bool:
    return isinstance(a, Location)


def set_location(target: Operation | BlockArgument, loc: Attribute) -> None:
    """Attach a parsed location (xDSL types the field as its own builtin location kinds)."""
    target.location = loc  # type: ignore[assignment]


def written_location(a: Attribute | None) -> Location | None:
    """The location the user wrote, or None for xDSL's implicit unknown location."""
    return a if isinstance(a, Location) else None


# -- parsing ------------------------------------------------------------------


def parse_loc(p: SyntaxParser) -> Attribute:
    """`loc(...)`; the cursor is at `loc`."""
    p.advance()
    _expect_in(p, "(", "location")
    loc = parse_location_instance(p)
    _expect_in(p, ")", "location")
    return loc


def _expect_in(p: SyntaxParser, token: str, where: str) -> None:
    """`token` (a punctuation or keyword), or MLIR's `expected '<token>' in <where>`."""
    if not p.accept_punct(token):  # (it takes any token that is spelled `token`)
        p.fail(f"expected '{token}' in {where}")


def parse_location_instance(p: SyntaxParser) -> Attribute:
    return p.nested("locations", _parse_location_instance, p)


def _parse_location_instance(p: SyntaxParser) -> Attribute:
    k, tok = p.kind, p.tok
    if k == lexer.HASH:
        span = p.span()
        if "." in tok:  # a dialect location such as #cuda_tile.di_loc<...>
            attr = parse_attribute(p)
            if not is_location(attr):
                p.fail(f"expected location attribute, but got {attr_str(attr)}", span)
            return attr
        p.advance()
        alias = p.attr_aliases.get(tok)
        if alias is None:
            p.deferred_locs.append((tok, span))
            return DeferredLoc(builtin.StringAttr(tok))
        if not is_location(alias):
            p.fail(f"expected location, but found '{attr_str(alias)}'", span)
        return alias
    if k == lexer.STRING:
        return _parse_name_or_file(p)
    if k == lexer.BARE:
        if tok == "unknown":
            p.advance()
            return UnknownLoc()
        if tok == "callsite":
            p.advance()
            _expect_in(p, "(", "callsite location")
            callee = parse_location_instance(p)
            _expect_in(p, "at", "callsite location")
            caller = parse_location_instance(p)
            _expect_in(p, ")", "callsite location")
            return CallSiteLoc(callee, caller)
        if tok == "fused":
            p.advance()
            metadata: Attribute = NONE
            if p.accept_punct("<"):
                metadata = parse_attribute(p)
                p.expect_punct(">", "'>' after fused location metadata")
            _expect_in(p, "[", "fused location")
            locs: list[Attribute] = []
            if not p.accept_punct("]"):
                while True:
                    locs.append(parse_location_instance(p))
                    if p.accept_punct("]"):
                        break
                    p.expect_punct(",", "',' or ']' in fused location")
            return FusedLoc(builtin.ArrayAttr(locs), metadata)
    p.fail("expected location instance")
    raise AssertionError


def _parse_name_or_file(p: SyntaxParser) -> Attribute:
    text = unescape(p.tok)
    p.advance()
    if p.accept_punct(":"):
        line = _expect_int(p, "expected integer line number in FileLineColLoc")
        column = end_line = end_column = -1
        if p.accept_punct(":"):
            column = _expect_int(p, "expected integer column number in FileLineColLoc")
            if p.accept_keyword("to"):
                if p.kind == lexer.INT:
                    end_line = _expect_int(p, "expected integer line number in FileLineColRange")
                _expect_in(p, ":", "FileLineColRange")
                end_column = _expect_int(p, "expected integer column number in FileLineColRange")
        return file_loc(text, line, column, end_line, end_column)
    child: Attribute = NONE
    if p.accept_punct("("):
        child = parse_location_instance(p)
        if not p.accept_punct(")"):
            p.fail("expected ')' after child location of NameLoc")
    return NameLoc(builtin.StringAttr(text), child)


def _expect_int(p: SyntaxParser, message: str) -> int:
    """A line or column number: MLIR reads them as unsigned 32-bit, and says `message` when the
    literal is not one."""
    if p.kind != lexer.INT:
        p.fail(message)
    value = p.int_token(message=message)
    if value >= 1 << 32:
        p.fail(message)
    p.advance()
    return value


def resolve_deferred(p: SyntaxParser, top: Operation) -> None:
    """Replace `#alias` locations used before their definition, once every alias is known."""
    deferred, p.deferred_locs = p.deferred_locs, []
    if not deferred:
        return
    missing = {name for name, _ in deferred if not is_location(p.attr_aliases.get(name, NONE))}
    for name, span in deferred:
        if name in missing:
            p.sink.error(span, "operation location alias was never defined")
    for op in top.walk():
        loc = written_location(op.location)
        if loc is not None:
            set_location(op, _resolved(loc, p.attr_aliases))
        for region in op.regions:
            for block in region.blocks:
                _resolve_args(block, p.attr_aliases)


def _resolve_args(block: Block, aliases: dict[str, Attribute]) -> None:
    for arg in block.args:
        loc = written_location(arg.location)
        if loc is not None:
            set_location(arg, _resolved(loc, aliases))


def _resolved(loc: Attribute, aliases: dict[str, Attribute]) -> Attribute:
    if isinstance(loc, DeferredLoc):
        target = aliases.get(loc.alias.data)
        return target if target is not None and is_location(target) else UnknownLoc()
    if isinstance(loc, NameLoc) and not isinstance(loc.child, builtin.NoneAttr):
        return NameLoc(loc.desc, _resolved(loc.child, aliases))
    if isinstance(loc, CallSiteLoc):
        return CallSiteLoc(_resolved(loc.callee, aliases), _resolved(loc.caller, aliases))
    if isinstance(loc, FusedLoc):
        return FusedLoc(builtin.ArrayAttr([_resolved(x, aliases) for x in loc.locations.data]), loc.metadata)
    return loc


# -- printing -----------------------------------------------------------------

# Dialect location kinds: class -> printer of the text inside `loc(...)` (aliases when a
# Printer is given, fully inline when it is None, e.g. inside diagnostics).
LOCATION_PRINTERS: dict[type[Attribute], Callable[[SyntaxPrinter | None, Attribute], str]] = {}


def location_body(pr: SyntaxPrinter | None, loc: Attribute) -> str:
    """The text between `loc(` and `)`."""
    if isinstance(loc, UnknownLoc):
        return "unknown"
    if isinstance(loc, FileLoc):
        s = f"{escape(loc.filename.data)}:{loc.line.data}"
        if loc.column.data >= 0:
            s += f":{loc.column.data}"
        if loc.end_column.data >= 0:
            end = f"{loc.end_line.data}:" if loc.end_line.data >= 0 else ":"
            s += f" to {end}{loc.end_column.data}"
        return s
    if isinstance(loc, NameLoc):
        s = escape(loc.desc.data)
        if not isinstance(loc.child, builtin.NoneAttr):
            s += f"({location_body(pr, loc.child)})"
        return s
    if isinstance(loc, CallSiteLoc):
        return f"callsite({location_body(pr, loc.callee)} at {location_body(pr, loc.caller)})"
    if isinstance(loc, FusedLoc):
        meta = "" if isinstance(loc.metadata, builtin.NoneAttr) else f"<{attr_str(loc.metadata)}>"
        return f"fused{meta}[" + ", ".join(location_body(pr, x) for x in loc.locations.data) + "]"
    if isinstance(loc, DeferredLoc):
        return loc.alias.data
    printer = LOCATION_PRINTERS.get(type(loc))
    if printer is not None:
        return printer(pr, loc)
    return attr_str(loc)


def location_suffix(pr: SyntaxPrinter | None, loc: Attribute | None) -> str:
    """` loc(...)` for a location the user wrote, else nothing."""
    written = written_location(loc)
    return "" if written is None else f" loc({location_body(pr, written)})"


def _print_inline(a: Attribute) -> str:
    return f"loc({location_body(None, a)})"


for _cls in (UnknownLoc, FileLoc, NameLoc, CallSiteLoc, FusedLoc, DeferredLoc):
    DIALECT_ATTR_PRINTERS[_cls] = _print_inline
CALL_ATTR_PARSERS["loc"] = parse_loc
