"""A reference model of LSP positions and text synchronisation, written to be obviously right
rather than fast: the tests compare the server's own (fast) implementation against it.

LSP (3.17, "Text Documents"): lines end at "\\n", "\\r\\n" or "\\r" and nowhere else (not at
\\f, \\v, \\x1c-\\x1e, U+0085, U+2028, U+2029, where Python's `str.splitlines` also breaks);
a column counts code units of the negotiated position encoding ("utf-16" unless both sides
agreed on "utf-8" or "utf-32"). Out-of-range positions are clamped as VS Code's text model does:
a line past the last is the end of the document, a character past the line's end is the line's
end, a position inside a character (half a surrogate pair, a byte inside a UTF-8 sequence) is
the start of that character; a range whose start is after its end is taken the other way round.
"""

from __future__ import annotations

import re

_BREAK = re.compile(r"\r\n|\r|\n")


def lines(text: str) -> list[tuple[int, str]]:
    """(start offset, content without its line break) of every LSP line; there is always one
    more line than there are line breaks."""
    out = []
    pos = 0
    for m in _BREAK.finditer(text):
        out.append((pos, text[pos : m.start()]))
        pos = m.end()
    out.append((pos, text[pos:]))
    return out


def units(ch: str, encoding: str) -> int:
    """Code units of one character (a lone surrogate counts as one UTF-16 unit, three bytes)."""
    if encoding == "utf-32":
        return 1
    if encoding == "utf-16":
        return len(ch.encode("utf-16-le", "surrogatepass")) // 2
    return len(ch.encode("utf-8", "surrogatepass"))


def offset_of(text: str, line: int, character: int, encoding: str = "utf-16") -> int:
    table = lines(text)
    if line >= len(table):
        return len(text)
    start, content = table[max(line, 0)]
    used = 0
    for i, ch in enumerate(content):
        width = units(ch, encoding)
        if used + width > character:  # the position is before this character or inside it
            return start + i
        used += width
    return start + len(content)


def position_of(text: str, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
    table = lines(text)
    line = max(i for i, (start, _) in enumerate(table) if start <= offset)
    start, content = table[line]
    col = min(offset - start, len(content))  # inside a "\r\n": the end of the line
    return line, sum(units(ch, encoding) for ch in content[:col])


def apply(text: str, change: tuple[tuple[int, int, int, int] | None, str], encoding: str = "utf-16") -> str:
    """One content change: ((start line, start char, end line, end char) or None for the
    whole document, new text)."""
    where, new = change
    if where is None:
        return new
    a = offset_of(text, where[0], where[1], encoding)
    b = offset_of(text, where[2], where[3], encoding)
    a, b = min(a, b), max(a, b)
    return text[:a] + new + text[b:]


def apply_edits(text: str, edits: list[tuple[tuple[int, int, int, int], str]], encoding: str = "utf-16") -> str:
    """TextEdits of one response: all ranges refer to the text before any of them (LSP), so
    they are applied last first."""
    placed = []
    for (sl, sc, el, ec), new in edits:
        a, b = offset_of(text, sl, sc, encoding), offset_of(text, el, ec, encoding)
        placed.append((min(a, b), max(a, b), new))
    for a, b, new in sorted(placed, key=lambda p: (p[0], p[1]), reverse=True):
        text = text[:a] + new + text[b:]
    return text
