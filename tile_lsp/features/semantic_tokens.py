"""Semantic tokens: ops, types, values, symbols, attributes, keywords."""

from __future__ import annotations

from dataclasses import dataclass

from tile_lsp.compiler.document import DocumentAnalysis

TOKEN_TYPES = ["function", "type", "variable", "parameter", "namespace", "property", "keyword", "number", "string", "comment"]
TOKEN_MODIFIERS = ["declaration", "definition", "readonly"]


@dataclass(frozen=True)
class Token:
    start: int  # absolute offset
    length: int
    type: str  # one of TOKEN_TYPES
    modifiers: tuple[str, ...] = ()


def semantic_tokens(doc: DocumentAnalysis) -> list[Token]:
    """Tokens in document order, non-overlapping and single-line."""
    return []
