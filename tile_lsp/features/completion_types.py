"""Completion's plain data: a candidate, and what the text says around the cursor.
Shared by the completion modules; it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.source import Span

OPEN = {"(", "[", "<"}
CLOSE = {")", "]", ">"}


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # op | value | type | keyword | symbol
    detail: str = ""
    insert_text: str | None = None
    documentation: str = ""
    replace: Span | None = None  # the typed text the candidate replaces (absolute)


@dataclass
class Cursor:
    """What the text says around the cursor: the typed word and the statement before it."""

    doc: DocumentAnalysis
    offset: int
    word: str
    replace: Span
    kinds: list[int]  # the statement's tokens before the word
    texts: list[str]
    open_brackets: list[int] = field(default_factory=list)  # token indices of unclosed ( [ <

    @property
    def last(self) -> str:
        return self.texts[-1] if self.texts else ""

    def innermost(self) -> tuple[str, str] | None:
        """(bracket, the token before it) of the innermost bracket open at the cursor."""
        if not self.open_brackets:
            return None
        i = self.open_brackets[-1]
        return self.texts[i], self.texts[i - 1] if i > 0 else ""


def keyword(word: str, detail: str, replace: Span) -> Completion:
    return Completion(word, "keyword", detail, word, "", replace)
