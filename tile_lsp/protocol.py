"""Conversions between tile-lsp's plain data and lsprotocol types.

Positions are LSP's: lines end at \n, \r\n or a lone \r (SourceText's `lsp_*` methods), columns
count the code units of the position encoding negotiated at initialize (`set_position_encoding`;
UTF-16 unless the client offered UTF-8 or UTF-32 first).

With facade.py, host.py and server.py, the only modules that know LSP types.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import converters
from lsprotocol import types as lsp

from tile_lsp import textsync
from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import ENCODINGS, SourceText, Span

if TYPE_CHECKING:
    from tile_lsp.compiler.document import DocumentAnalysis, Item

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
    source: SourceText, changes: Sequence[lsp.TextDocumentContentChangeEvent], encoding: str | None = None
) -> tuple[SourceText, textsync.Edit | None]:
    """A document's text after one didChange (the server's own copy: `textsync`), and the edit
    in offsets of the text before."""
    return textsync.apply_source_changes(source, content_changes(changes), encoding or _encoding)


def diagnostic(source: SourceText, uri: str, d: Diagnostic, lines: int = 0, encoding: str | None = None) -> lsp.Diagnostic:
    """`d` in LSP terms; `lines`: the line of `source`'s start in the document (a piece of it)."""
    span = d.span if d.span.end > d.span.start else Span(d.span.start, min(d.span.start + 1, len(source.text)))
    convert = to_range if not lines else lambda source, span: _moved(to_range(source, span, encoding), lines)
    related = [
        lsp.DiagnosticRelatedInformation(location=lsp.Location(uri=uri, range=convert(source, r.span)), message=r.message)
        for r in d.related
    ]
    return lsp.Diagnostic(
        range=convert(source, span),
        message=d.message,
        severity=_SEVERITY[d.severity],
        source=f"tile-lsp({d.stage})",
        related_information=related or None,
    )


def _moved(r: lsp.Range, lines: int) -> lsp.Range:
    start, end = r.start, r.end
    return lsp.Range(lsp.Position(start.line + lines, start.character), lsp.Position(end.line + lines, end.character))


class FrontEndDiagnostics:
    """The front end's diagnostics of each document's latest analysis in LSP terms, converted
    item by item and kept: an item the next version keeps on the same line (everything but the
    edited entry when an edit adds no line) is not converted again, nor, in the server, encoded
    again (`server._PyglsClient`). Converting 1,282 diagnostics of a 50,000-line file took ~28 ms
    a keystroke. Each item's diagnostics are converted in its own text (items start lines) and
    moved to its line; the same order and ranges as converting `analysis.diagnostics`."""

    def __init__(self) -> None:
        # uri -> (id(result), item line, encoding) -> (result, [(offset in the item, diagnostic)])
        self._items: dict[str, dict[tuple[int, int, str], tuple[object, list[tuple[int, lsp.Diagnostic]]]]] = {}

    def forget(self, uri: str) -> None:
        self._items.pop(uri, None)

    def of(self, uri: str, analysis: DocumentAnalysis) -> list[lsp.Diagnostic]:
        items, source = analysis.items, analysis.source
        if not items or items[0].kind == "whole" or analysis.extra is None:
            return [diagnostic(source, uri, d) for d in analysis.diagnostics]
        encoding = _encoding
        old = self._items.get(uri, {})
        kept: dict[tuple[int, int, str], tuple[object, list[tuple[int, lsp.Diagnostic]]]] = {}
        found: list[tuple[int, lsp.Diagnostic]] = []
        for item in items:
            if item.kind == "shell":  # (document offsets already)
                found.extend((d.span.start, diagnostic(source, uri, d)) for d in item.result.diagnostics)
                continue
            if not item.result.diagnostics:
                continue
            line = source.lsp_position(item.start, encoding)[0]
            key = (id(item.result), line, encoding)
            hit = old.get(key)
            if hit is None or hit[0] is not item.result:
                hit = (item.result, [(d.span.start, self._one(uri, item, d, line, encoding, source)) for d in item.result.diagnostics])
            kept[key] = hit
            found.extend((at + item.start, d) for at, d in hit[1])
        found.extend((d.span.start, diagnostic(source, uri, d)) for d in analysis.extra)
        found.sort(key=lambda pair: pair[0])  # (stable: as analysis.diagnostics are sorted)
        self._items[uri] = kept
        return [d for _, d in found]

    @staticmethod
    def _one(uri: str, item: Item, d: Diagnostic, line: int, encoding: str, source: SourceText) -> lsp.Diagnostic:
        piece = item.result.source
        size = len(piece.text)
        inside = all(0 <= s.start <= s.end <= size for s in (d.span, *(r.span for r in d.related)))
        if inside and (d.span.end > d.span.start or d.span.start < size):
            return diagnostic(piece, uri, d, line, encoding)
        whole = item.diagnostics[item.result.diagnostics.index(d)]  # (an edge case: in the document)
        return diagnostic(source, uri, whole)


_CONVERTER = converters.get_converter()


def unstructure(d: lsp.Diagnostic) -> Any:
    """An lsp.Diagnostic as plain JSON data."""
    return _CONVERTER.unstructure(d, lsp.Diagnostic)


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
