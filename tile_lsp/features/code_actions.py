"""Quick fixes for diagnostics with an obvious repair."""

from __future__ import annotations

from dataclasses import dataclass

from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.source import Span


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[tuple[Span, str], ...]  # absolute spans -> replacement text
    diagnostic: Diagnostic | None = None


def quick_fixes(doc: DocumentAnalysis, span: Span) -> list[Fix]:
    """Fixes for the diagnostics overlapping `span`."""
    return []
