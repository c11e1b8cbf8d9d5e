"""Conversions between tile-lsp's plain data and lsprotocol types (UTF-16 positions).

The only module besides server.py that knows LSP types.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import converters
from lsprotocol import types as lsp

from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import SourceText, Span

_SEVERITY = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.NOTE: lsp.DiagnosticSeverity.Information,
    Severity.REMARK: lsp.DiagnosticSeverity.Hint,
}


def position(source: SourceText, offset: int) -> lsp.Position:
    line, col = source.line_col_utf16(offset)
    return lsp.Position(line=line, character=col)


def to_range(source: SourceText, span: Span) -> lsp.Range:
    return lsp.Range(start=position(source, span.start), end=position(source, span.end))


def offset(source: SourceText, pos: lsp.Position) -> int:
    return source.offset_utf16(pos.line, pos.character)


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


def encode_semantic_tokens(source: SourceText, tokens: list) -> list[int]:  # type: ignore[type-arg]
    """LSP's relative encoding of (absolute offset, length, type, modifiers) tokens, in order."""
    from tile_lsp.features.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES

    types = {t: i for i, t in enumerate(TOKEN_TYPES)}
    bits = {m: 1 << i for i, m in enumerate(TOKEN_MODIFIERS)}
    if not source.text.isascii():
        return _encode_utf16(source, tokens, types, bits)
    # ASCII text (the usual case): columns are offsets, and lines advance with the tokens.
    starts = source.line_starts()
    last_line = len(starts) - 1
    data: list[int] = []
    extend = data.extend
    prev_line = prev_col = line = 0
    next_start = starts[1] if last_line else 1 << 62
    for start, length, kind, mods in tokens:
        if start >= next_start or start < starts[line]:
            line = source.line_col(start)[0]
            next_start = starts[line + 1] if line < last_line else 1 << 62
        col = start - starts[line]
        flags = 0
        for m in mods:
            flags |= bits[m]
        if line == prev_line:
            extend((0, col - prev_col, length, types[kind], flags))
        else:
            extend((line - prev_line, col, length, types[kind], flags))
            prev_line = line
        prev_col = col
    return data


def _encode_utf16(source: SourceText, tokens: list, types: dict[str, int], bits: dict[str, int]) -> list[int]:  # type: ignore[type-arg]
    data: list[int] = []
    prev_line = prev_col = 0
    for tok in tokens:
        line, col = source.line_col_utf16(tok.start)
        length = source.line_col_utf16(tok.start + tok.length)[1] - col
        if length <= 0:
            continue
        flags = 0
        for m in tok.modifiers:
            flags |= bits[m]
        delta_line = line - prev_line
        data += [delta_line, col - prev_col if delta_line == 0 else col, length, types[tok.type], flags]
        prev_line, prev_col = line, col
    return data
