"""Conversions between tile-lsp's plain data and lsprotocol types.

Positions are LSP's: lines end at \n, \r\n or a lone \r (SourceText's `lsp_*` methods), columns
count the code units of the position encoding negotiated at initialize (`set_position_encoding`;
UTF-16 unless the client offered UTF-8 or UTF-32 first).

With facade.py, host.py and server.py, the only modules that know LSP types.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from lsprotocol import converters
from lsprotocol import types as lsp

from tile_lsp import textsync
from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import ENCODINGS, SourceText, Span

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
    Severity.REMARK: lsp.DiagnosticSeverity.Hint,
}


_encoding = "utf-16"  # this process serves one client: what its initialize negotiated


def set_position_encoding(kind: object) -> str:
    """The position encoding of every conversion from now on (pygls's pick at initialize); an
    unknown one is UTF-16, LSP's default."""
    global _encoding
    value = getattr(kind, "value", kind)
    _encoding = value if isinstance(value, str) and value in ENCODINGS else "utf-16"
    return _encoding


def position_encoding() -> str:
    return _encoding


def position(source: SourceText, offset: int, encoding: str | None = None) -> lsp.Position:
    line, col = source.lsp_position(offset, encoding or _encoding)
    return lsp.Position(line=line, character=col)


def to_range(source: SourceText, span: Span, encoding: str | None = None) -> lsp.Range:
    return lsp.Range(start=position(source, span.start, encoding), end=position(source, span.end, encoding))


def offset(source: SourceText, pos: lsp.Position, encoding: str | None = None) -> int:
    return source.lsp_offset(pos.line, pos.character, encoding or _encoding)


def content_changes(changes: Sequence[lsp.TextDocumentContentChangeEvent]) -> list[textsync.Change]:
    """didChange's content changes as plain (range or None, text) pairs."""
    out: list[textsync.Change] = []
    for change in changes:
        where = getattr(change, "range", None)
        if where is None:
            out.append((None, change.text))
        else:
            s, e = where.start, where.end
            out.append(((s.line, s.character, e.line, e.character), change.text))
    return out


def apply_content_changes(
    text: str, changes: Sequence[lsp.TextDocumentContentChangeEvent], encoding: str | None = None
) -> str:
    """A document's text after one didChange (the server's own copy: `textsync`)."""
    return textsync.apply_changes(text, content_changes(changes), encoding or _encoding)


def diagnostic(source: SourceText, uri: str, d: Diagnostic) -> lsp.Diagnostic:
    span = d.span if d.span.end > d.span.start else Span(d.span.start, min(d.span.start + 1, len(source.text)))
    related = [
        lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=to_range(source, r.span)), message=r.message)
        for r in d.related
    ]
    return lsp.Diagnostic(
        range=to_range(source, span),
        message=d.message,
        severity=_SEVERITY[d.severity],
        source=f"tile-lsp({d.stage})",
        related_information=related or None,
    )


_CONVERTER = converters.get_converter()


def diagnostic_json(source: SourceText, uri: str, d: Diagnostic) -> Any:
    """An LSP diagnostic as plain JSON (for custom responses that are not lsprotocol types)."""
    return _CONVERTER.unstructure(diagnostic(source, uri, d), lsp.Diagnostic)


def location(source: SourceText, uri: str, span: Span) -> lsp.Location:
    return lsp.Location(uri=uri, range=to_range(source, span))


def encode_semantic_tokens(source: SourceText, tokens: list, encoding: str | None = None) -> list[int]:  # type: ignore[type-arg]
    """LSP's relative encoding of (absolute offset, length, type, modifiers) tokens, in order.

    O(tokens + log lines per line change): columns of a non-ASCII line come from its table of
    wide characters (made once). A token is cut at its LSP line's end (a lone \r inside a
    comment ends that line); one left empty is dropped."""
    from tile_lsp.features.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES

    encoding = encoding or _encoding
    types = {t: i for i, t in enumerate(TOKEN_TYPES)}
    bits = {m: 1 << i for i, m in enumerate(TOKEN_MODIFIERS)}
    lines = source.lsp_lines()
    starts = lines.starts
    last_line = len(starts) - 1
    data: list[int] = []
    extend = data.extend
    prev_line = prev_col = 0
    line = 0
    line_start, line_end = 0, lines.end(0)
    next_start = starts[1] if last_line else 1 << 62
    table = lines.table(0, encoding)
    for start, length, kind, mods in tokens:
        if start >= next_start or start < line_start:
            line = bisect.bisect_right(starts, start) - 1
            line_start, line_end = starts[line], lines.end(line)
            next_start = starts[line + 1] if line < last_line else 1 << 62
            table = lines.table(line, encoding)
        end = start + length
        if end > line_end:
            end = line_end
            if end <= start:
                continue
        if table is None:
            col = start - line_start
            size = end - start
        else:
            col = table.units(start - line_start)
            size = table.units(end - line_start) - col
        flags = 0
        for m in mods:
            flags |= bits[m]
        if line == prev_line:
            extend((0, col - prev_col, size, types[kind], flags))
        else:
            extend((line - prev_line, col, size, types[kind], flags))
            prev_line = line
        prev_col = col
    return data
