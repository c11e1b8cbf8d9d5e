"""Completion: op names, values in scope, types and keywords, symbols (see server.py)."""

from __future__ import annotations

from dataclasses import dataclass

from tile_lsp.compiler.document import DocumentAnalysis


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # op | value | type | keyword | symbol
    detail: str = ""
    insert_text: str | None = None
    documentation: str = ""


def complete(doc: DocumentAnalysis, offset: int) -> list[Completion]:
    """Candidates at `offset` (filled in by the completion work of issue 3)."""
    return []
