"""Conversions between tile-lsp's plain data and lsprotocol types (UTF-16 positions).

The only module besides server.py that knows LSP types.
"""

from __future__ import annotations

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


def location(source: SourceText, uri: str, span: Span) -> lsp.Location:
    return lsp.Location(uri=uri, range=to_range(source, span))


def encode_semantic_tokens(source: SourceText, tokens: list) -> list[int]:  # type: ignore[type-arg]
    """LSP's relative encoding of (absolute offset, length, type, modifiers) tokens."""
    from tile_lsp.features.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES

    data: list[int] = []
    prev_line = prev_col = 0
    for tok in tokens:
        line, col = source.line_col_utf16(tok.start)
        _, end_col = source.line_col_utf16(tok.start + tok.length)
        length = end_col - col
        if length <= 0:
            continue
        delta_line = line - prev_line
        delta_col = col - prev_col if delta_line == 0 else col
        mods = 0
        for m in tok.modifiers:
            mods |= 1 << TOKEN_MODIFIERS.index(m)
        data += [delta_line, delta_col, length, TOKEN_TYPES.index(tok.type), mods]
        prev_line, prev_col = line, col
    return data
