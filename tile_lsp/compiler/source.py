"""Source text with fast offset <-> line/column conversion.

Offsets are character offsets into the whole original file, so that chunks of a
split file and single entries re-parsed alone still report original positions.

Two kinds of lines: the compiler's (`line_col`, `line_starts`, `line_text`, `offset`) end at
"\n" only, as MLIR's (llvm::SourceMgr) do, so diagnostics and line maps agree with mlir-opt;
LSP's (`lsp_position`, `lsp_offset`, ...) end at "\n", "\r\n" or a lone "\r" and nowhere else
(not at \f, \v, \x1c-\x1e, U+0085, U+2028, U+2029, where `str.splitlines` also breaks), and
count columns in the code units of a position encoding ("utf-16", "utf-8" or "utf-32"). Both
are the same lines for a text without "\r". Each conversion costs O(log n): a non-ASCII line
gets a table of its wide characters once, on first use.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, NamedTuple

_LSP_BREAK = re.compile(r"\r\n?|\n")
# Characters wider than one code unit, per encoding: astral ones in UTF-16, non-ASCII in UTF-8.
_WIDE = {"utf-16": re.compile("[\U00010000-\U0010ffff]"), "utf-8": re.compile("[^\x00-\x7f]")}
ENCODINGS = ("utf-16", "utf-8", "utf-32")


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
    # "bytecode": the text is a Tile IR bytecode file's printout (compiler/bytecode/convert.py),
    # so the CLI reports diagnostics at the ops' debug locations (bytecode/debug_locations.py)
    decoded_from: str | None = None
    # (source, offset) -> "file:line:col" of the debug location there, or None: set by the
    # decoder (convert.load_source: debug_locations.debug_place); diagnostics.debug_place asks it
    locator: Callable[[SourceText, int], str | None] | None = field(default=None, repr=False)
    _debug_locator: Any = field(default=None, repr=False)  # (built on first use: debug_locations.debug_place)
    _line_starts: list[int] = field(default_factory=list, repr=False)
    _lsp: _LspLines | None = field(default=None, repr=False)

    def line_starts(self) -> list[int]:
        if not self._line_starts:
            # split, map and accumulate run in C (a big file's first index; edits splice it: `replaced`)
            self._line_starts = list(accumulate(map((1).__add__, map(len, self.text.split("\n")[:-1])), initial=0))
        return self._line_starts

    def replaced(self, start: int, end: int, new: str) -> SourceText:
        """This text with [start, end) replaced by `new`, as a new SourceText whose line index is
        this one's spliced (the lines before the change kept, those after it shifted), not
        rebuilt: an edit of a 50,000-line file costs the change, not a scan of every line."""
        text = self.text[:start] + new + self.text[end:]
        out = SourceText(text, self.path)
        starts = self._line_starts
        if starts:
            delta = len(new) - (end - start)
            head = starts[: bisect.bisect_right(starts, start)]
            pos = new.find("\n")
            while pos >= 0:
                head.append(start + pos + 1)
                pos = new.find("\n", pos + 1)
            tail = starts[bisect.bisect_right(starts, end) :]
            head.extend(map(delta.__add__, tail) if delta else tail)
            out._line_starts = head
            lsp = self._lsp
            if lsp is not None and lsp.ends is None and "\r" not in new:
                simple = True if lsp.simple and new.isascii() else None  # (None: look at the whole text)
                out._lsp = _LspLines(out, simple=simple, no_cr=True)
        return out

    def line_col(self, offset: int) -> tuple[int, int]:
        """0-based (line, column in characters) of an offset."""
        starts = self.line_starts()
        line = bisect.bisect_right(starts, offset) - 1
        return line, offset - starts[line]

    def line_col_utf16(self, offset: int) -> tuple[int, int]:
        """0-based LSP (line, column in UTF-16 code units): `lsp_position(offset, "utf-16")`."""
        return self.lsp_position(offset, "utf-16")

    def offset_utf16(self, line: int, col16: int) -> int:
        """Offset of a 0-based LSP (line, UTF-16 column); clamps: `lsp_offset(...)`."""
        return self.lsp_offset(line, col16, "utf-16")

    # -- LSP's lines and columns ------------------------------------------------------
    def lsp_lines(self) -> _LspLines:
        if self._lsp is None:
            self._lsp = _LspLines(self)
        return self._lsp

    def lsp_position(self, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
        """0-based LSP (line, column in `encoding` code units) of an offset. An offset inside
        a "\r\n" is the end of its line; offsets out of the text clamp to it."""
        lines = self.lsp_lines()
        offset = min(max(offset, 0), len(self.text))
        line = bisect.bisect_right(lines.starts, offset) - 1
        col = min(offset, lines.end(line)) - lines.starts[line]
        table = lines.table(line, encoding)
        return line, col if table is None else table.units(col)

    def lsp_offset(self, line: int, character: int, encoding: str = "utf-16") -> int:
        """Offset of a 0-based LSP position, clamped as VS Code does: past the last line is the
        end of the text, past a line's end is that end, inside a character (half a surrogate
        pair, inside a UTF-8 sequence) is that character's start."""
        lines = self.lsp_lines()
        if line < 0:
            return 0
        if line >= len(lines.starts):
            return len(self.text)
        start = lines.starts[line]
        width = lines.end(line) - start
        character = max(character, 0)
        table = lines.table(line, encoding)
        return start + min(character if table is None else table.column(character), width)

    def lsp_line_end(self, line: int) -> int:
        """Offset of the end of an LSP line's content (before its line break)."""
        return self.lsp_lines().end(line)

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


class LineTable:
    """A non-ASCII line's wide characters (more than one code unit), for O(log n) column
    conversion: their columns, the extra units before each, and the unit each starts at."""

    __slots__ = ("columns", "extra", "unit_starts")

    def __init__(self, segment: str, encoding: str) -> None:
        wide = _WIDE[encoding]
        self.columns = [m.start() for m in wide.finditer(segment)]
        if encoding == "utf-16":
            self.extra = list(range(len(self.columns) + 1))  # each astral character: one more unit
        else:
            widths = [(1 if c < 0x800 else 2 if c < 0x10000 else 3) for c in (ord(segment[i]) for i in self.columns)]
            self.extra = list(accumulate(widths, initial=0))
        self.unit_starts = [col + extra for col, extra in zip(self.columns, self.extra)]

    def units(self, column: int) -> int:
        """Code units before character `column`."""
        return column + self.extra[bisect.bisect_left(self.columns, column)]

    def column(self, units: int) -> int:
        """The character at `units` code units (inside a character: its start); unclamped."""
        k = bisect.bisect_right(self.unit_starts, units) - 1
        if k < 0:
            return units
        width = 1 + self.extra[k + 1] - self.extra[k]
        start = self.unit_starts[k]
        if units < start + width:
            return self.columns[k]
        return self.columns[k] + 1 + units - start - width


class _LspLines:
    """LSP's line index of a text: line starts (and ends, when there is a "\r"), per-line
    tables of wide characters made on first use."""

    __slots__ = ("text", "starts", "ends", "simple", "tables")

    def __init__(self, source: SourceText, simple: bool | None = None, no_cr: bool = False) -> None:
        text = source.text
        self.text = text
        if no_cr or "\r" not in text:
            self.starts = source.line_starts()  # the compiler's lines are LSP's
            self.ends: list[int] | None = None
        else:
            breaks = list(_LSP_BREAK.finditer(text))
            self.starts = [0, *(m.end() for m in breaks)]
            self.ends = [*(m.start() for m in breaks), len(text)]
        self.simple = text.isascii() if simple is None else simple  # every column is a character
        self.tables: dict[tuple[int, str], LineTable | None] = {}

    def end(self, line: int) -> int:
        if self.ends is not None:
            return self.ends[line]
        return self.starts[line + 1] - 1 if line + 1 < len(self.starts) else len(self.text)

    def table(self, line: int, encoding: str) -> LineTable | None:
        """None when columns are characters on this line (ASCII, or UTF-32)."""
        if self.simple or encoding == "utf-32":
            return None
        key = (line, encoding)
        try:
            return self.tables[key]
        except KeyError:
            pass
        if encoding not in _WIDE:
            raise ValueError(f"unknown position encoding {encoding!r} (one of {', '.join(ENCODINGS)})")
        segment = self.text[self.starts[line] : self.end(line)]
        found = None if segment.isascii() else LineTable(segment, encoding)
        if found is not None and not found.columns:
            found = None
        self.tables[key] = found
        return found
