"""Source text with fast offset <-> line/column conversion.

Offsets are character offsets into the whole original file, so that chunks of a
split file and single entries re-parsed alone still report original positions.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from itertools import accumulate
from typing import NamedTuple


class Span(NamedTuple):
    """A half-open character range [start, end) in a SourceText.

    A NamedTuple rather than a dataclass: the parser makes one per token it records,
    and tuple construction is several times cheaper.
    """

    start: int
    end: int

    def contains(self, offset: int) -> bool:
        return self.start <= offset <= self.end


@dataclass(eq=False)
class SourceText:
    """An immutable text plus a lazily built index of line starts."""

    text: str
    path: str = "<input>"
    _line_starts: list[int] = field(default_factory=list, repr=False)

    def line_starts(self) -> list[int]:
        if not self._line_starts:
            # split + accumulate run in C: this is on the keystroke path for big files.
            self._line_starts = list(accumulate((len(line) + 1 for line in self.text.split("\n")[:-1]), initial=0))
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """0-based (line, column in characters) of an offset."""
        starts = self.line_starts()
        line = bisect.bisect_right(starts, offset) - 1
        return line, offset - starts[line]

    def line_col_utf16(self, offset: int) -> tuple[int, int]:
        """0-based (line, column in UTF-16 code units), as LSP wants."""
        line, col = self.line_col(offset)
        start = self.line_starts()[line]
        segment = self.text[start:offset]
        if segment.isascii():
            return line, col
        return line, col + sum(1 for ch in segment if ord(ch) > 0xFFFF)

    def offset_utf16(self, line: int, col16: int) -> int:
        """Offset of a 0-based (line, UTF-16 column), as LSP positions are; clamps."""
        starts = self.line_starts()
        if line >= len(starts):
            return len(self.text)
        text = self.line_text(line)
        if text.isascii():
            return starts[line] + min(max(col16, 0), len(text))
        units = 0
        for i, ch in enumerate(text):
            if units >= col16:
                return starts[line] + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return starts[line] + len(text)

    def offset(self, line: int, col: int) -> int:
        """Offset of a 0-based (line, character column); clamps to the text."""
        starts = self.line_starts()
        if line >= len(starts):
            return len(self.text)
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)
        return min(starts[line] + max(col, 0), end)

    def line_text(self, line: int) -> str:
        starts = self.line_starts()
        end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)
        return self.text[starts[line] : end]
