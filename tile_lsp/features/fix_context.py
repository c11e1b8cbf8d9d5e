"""The small shared vocabulary of code actions: edits, candidates, and the context a fix provider reads.

Both the quick-fix driver and the fix providers import it; it imports neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.document import DocumentAnalysis, Item
from tile_lsp.compiler.source import Span

Edits = tuple[tuple[Span, str], ...]


@dataclass(frozen=True)
class FixContext:
    """What a fix provider looks at: the document, the diagnostic, the item it sits in."""

    doc: DocumentAnalysis
    diag: Diagnostic
    item: Item

    @property
    def text(self) -> str:
        return self.doc.source.text

    def op_at_span(self) -> Operation | None:
        """The op whose whole span is the diagnostic's (verifier errors point at the op)."""
        local = Span(self.item.local(self.diag.span.start), self.item.local(self.diag.span.end))
        for op, info in self.item.result.smap.ops.items():
            if info.span == local:
                return op
        return None


Candidate = tuple[str, Edits]
Provider = Callable[[FixContext, re.Match[str]], Iterator[Candidate]]


def apply_edits(text: str, edits: Edits) -> str:
    """The text with non-overlapping edits applied."""
    out, pos = [], 0
    for span, new in sorted(edits, key=lambda e: e[0].start):
        out.append(text[pos : span.start])
        out.append(new)
        pos = span.end
    out.append(text[pos:])
    return "".join(out)


def line_ending(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"
