"""The cuda_tile front end: text in, (module or None, diagnostics, source map) out.

Handles `// -----` split files chunk by chunk with positions in the original file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import Diagnostic, DiagnosticSink, Related, Severity
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax.parser import Aliases, Parser
from tile_lsp.compiler.syntax.sourcemap import SourceMap
from tile_lsp.compiler.verifier import verify_ops
from tile_lsp.compiler.verify_context import VerifyContext

SPLIT_MARKER = re.compile(r"^// -----\s*$", re.MULTILINE)


@dataclass
class ParseResult:
    """One parsed chunk: its range in the file, IR (if any), diagnostics, source map."""

    source: SourceText
    span: Span
    module: builtin.ModuleOp | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    smap: SourceMap = field(default_factory=SourceMap)
    producer: str | None = None  # bytecode's producer section (the tool that wrote it)
    # The aliases known at the text's end (those it was given and those it defines), when any:
    # what the items after an alias item are parsed with (document.py).
    aliases: Aliases | None = None

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


def split_chunks(text: str) -> list[Span]:
    """Spans of the `// -----` separated chunks of a file."""
    spans: list[Span] = []
    start = 0
    for m in SPLIT_MARKER.finditer(text):
        spans.append(Span(start, m.start()))
        start = m.end()
    spans.append(Span(start, len(text)))
    return spans


def parse_chunk(
    source: SourceText,
    span: Span | None = None,
    verify: bool = True,
    options: Mapping[str, object] | None = None,
    symbols: Mapping[str, Operation] | None = None,
    aliases: Aliases | None = None,
) -> ParseResult:
    """Parse and verify text[span]; never raises for bad input. `options` tune the verifier
    (e.g. `hints_errors`: bad optimization hints are errors, like cuda-tile-opt -Werr-hints);
    `symbols` are module symbols and `aliases` the aliases defined outside the text (items
    parsed one by one)."""
    span = span or Span(0, len(source.text))
    bad = _binary_junk(source.text, span)
    if bad is not None:
        sink = DiagnosticSink()
        sink.error(Span(bad, bad + 1), "file contains binary data (a NUL or control byte); is this a bytecode file?")
        return ParseResult(source, span, None, sink.items)
    parser = Parser(source, span.start, span.end, aliases)
    try:
        module = parser.parse_top_level()
    except RecursionError:  # (regions, types and attributes have their own depth limits first)
        parser.sink.error(parser.span(), "nesting is too deep to parse here")
        return ParseResult(source, span, None, parser.sink.items, parser.smap)
    except Exception as exc:  # a front-end bug must surface as a diagnostic, never a crash
        at = parser.span()
        parser.sink.error(at, f"internal error in the cuda_tile parser (please report): {exc!r}")
        return ParseResult(source, span, None, parser.sink.items, parser.smap)
    if verify:
        ctx = VerifyContext(
            parser.smap,
            parser.sink,
            symbols={**(symbols or {}), **collect_symbols(module)},
            options=dict(options or {}),
            generic_ops=parser.generic_ops,
        )
        verify_ops(module.ops, ctx, parser.diagnosed_ops)
        parser.sink.items.extend(redefined_symbols(module, parser.smap))
    diags = sorted(parser.sink.items, key=lambda d: d.span.start)
    known: Aliases | None = (parser.attr_aliases, parser.type_aliases, {}) if parser.defines_aliases else None
    return ParseResult(source, span, module, diags, parser.smap, aliases=known)


def parse_text(text: str, path: str = "<input>", split: bool = False) -> list[ParseResult]:
    source = SourceText(text, path)
    spans = split_chunks(text) if split else [Span(0, len(text))]
    return [parse_chunk(source, s) for s in spans]


def redefined_symbols(module: builtin.ModuleOp, smap: SourceMap) -> Iterator[Diagnostic]:
    """MLIR's symbol table check, in each module of the text (the top one, `module`s and
    `cuda_tile.module`s): a second op defining a name is reported at its `@name`."""
    tables = [module, *(op for op in module.walk() if op.name in ("builtin.module", "cuda_tile.module") and op is not module)]
    for table in tables:
        if not table.regions or not table.regions[0].blocks:
            continue
        seen: dict[str, Span] = {}
        for op in table.regions[0].blocks[0].ops:
            sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
            info = smap.ops.get(op)
            if not isinstance(sym, builtin.StringAttr) or info is None:
                continue
            span = info.symbol_span or info.span
            first = seen.setdefault(sym.data, span)
            if first is not span:
                yield redefinition(sym.data, span, first)


def redefinition(name: str, span: Span, first: Span) -> Diagnostic:
    """MLIR's wording for a symbol defined twice in one symbol table."""
    return Diagnostic(
        span,
        Severity.ERROR,
        f"redefinition of symbol named '{name}'",
        "cuda_tile",
        (Related(first, "see existing symbol definition here"),),
    )


def collect_symbols(module: builtin.ModuleOp) -> dict[str, Operation]:
    """Symbols visible to entries: globals and entries of every cuda_tile.module."""
    out: dict[str, Operation] = {}
    for op in module.walk():
        sym = op.properties.get("sym_name")
        if isinstance(sym, builtin.StringAttr):
            out.setdefault(sym.data, op)
    return out


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def _binary_junk(text: str, span: Span) -> int | None:
    m = _CONTROL.search(text, span.start, span.end)
    return m.start() if m else None
