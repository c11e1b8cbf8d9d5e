"""Top-level items of a Tile IR file (entries, globals, test functions), found by scanning the
text, not by parsing it: the document cache parses them one by one, and the entry cache compiles
them one by one. No xDSL here, so a `tile-lsp compile` served from the cache starts fast.
"""

from __future__ import annotations

import re

# A line that starts a top-level item (indentation allowed: items sit inside a module).
# The header up to the body's `{`, past an `attributes {...}` dictionary (`{producer = "..."}`).
_MODULE_START = re.compile(r"[ \t]*cuda_tile\.module\b[^\n{]*?(?:\battributes\s*\{[^\n}]*\}\s*)?\{")
_LONE_CR = re.compile(r"\r(?!\n)")


def split_items(text: str) -> tuple[list[tuple[str, int, int]], tuple[int, int] | None] | None:
    """(kind, start, end) of each top-level item, and the module's (body start, closing brace)
    if there is one; None when the text must be parsed whole.

    Runs on every keystroke over the whole document, so it scans with str.find (C speed)
    and looks at the few lines that can start something, not at every character.
    """
    if "\r" in text and _LONE_CR.search(text):
        return None  # a lone CR ends a line (and a comment) where this scan sees none: parse whole
    if "// -----" in text or '"cuda_tile.' in text or _line_starting_with(text, ("#", "!", "module")):
        return None
    module_lines = _lines_starting_with(text, ("cuda_tile.module",))
    if len(module_lines) > 1:
        return None
    body: tuple[int, int] | None = None
    limit = len(text)
    if module_lines:
        m = _MODULE_START.match(text, module_lines[0][1])
        close = _closing_brace(text)
        if m is None or close is None or close < m.end():
            return None
        body = (m.end(), close)
        limit = close
    # Long spellings are rare: scan for them only when `cuda_tile.` appears beyond the header.
    words = _ITEM_WORDS + _LONG_ITEM_WORDS if text.count("cuda_tile.", 0, 1 << 30) > len(module_lines) else _ITEM_WORDS
    starts = _lines_starting_with(text, words)
    if body is not None:
        if any(s < body[0] for _, s in starts):
            return None  # something odd before the module body
        starts = [(k, s) for k, s in starts if s < limit]
    else:
        head = text[: starts[0][1] if starts else len(text)]
        if head.strip(" \t\r\n") and not only_comments(head):
            return None
    items = []
    for i, (kind, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else limit
        items.append((kind, start, end))
    return items, body


Split = tuple[list[tuple[str, int, int]], tuple[int, int] | None]


def resplit(text: str, old_text: str, old: Split, edit: tuple[int, int, int]) -> Split | None:
    """`split_items(text)` from the split of the text before an edit (`old_text` with [start,
    end) replaced, now [start, new_end) of `text`): only the items the edit touches are scanned
    again, the others shift. None where that cannot be decided locally (an edit at the module's
    header or closing line or before the first item, one that adds an alias line, a split marker,
    a second module, the generic form or a lone CR, or that moves an item's first line): then
    `split_items` decides on the whole text."""
    pieces, body = old
    start, end, new_end = edit
    delta = new_end - end
    if not pieces or start < pieces[0][1]:
        return None
    if body is not None and end >= old_text.rfind("\n", 0, body[1]) + 1:
        return None  # (the closing brace's line is the edit's: `_closing_brace` decides)
    first = next(i for i, p in enumerate(pieces) if p[2] >= start)
    last = first
    while last + 1 < len(pieces) and pieces[last + 1][1] <= end:
        last += 1
    lo, hi = pieces[first][1], pieces[last][2] + delta
    region = text[lo:hi]
    if "\r" in region and _LONE_CR.search(region):
        return None
    if "// -----" in region or '"cuda_tile.' in region or "cuda_tile.module" in region:
        return None
    if _line_starting_with(region, ("#", "!", "module")):
        return None
    words = _ITEM_WORDS + _LONG_ITEM_WORDS if "cuda_tile." in region else _ITEM_WORDS
    starts = _lines_starting_with(region, words)
    if not starts or starts[0][1] != 0:
        return None  # (the first line is no item's any more: it joins the item before)
    found = [(kind, lo + at, lo + (starts[i + 1][1] if i + 1 < len(starts) else len(region))) for i, (kind, at) in enumerate(starts)]
    tail = [(kind, a + delta, b + delta) for kind, a, b in pieces[last + 1 :]] if delta else pieces[last + 1 :]
    moved = None if body is None else (body[0], body[1] + delta)
    return pieces[:first] + found + tail, moved


_ITEM_WORDS = ("entry", "global", "testing$func")
_LONG_ITEM_WORDS = ("cuda_tile.entry", "cuda_tile.global", "cuda_tile.testing$func")


def _lines_starting_with(text: str, words: tuple[str, ...]) -> list[tuple[str, int]]:
    """(word without `cuda_tile.`, line start) for lines whose first token is one of `words`."""
    found: dict[int, str] = {}
    for word in words:
        pos = text.find(word)
        while pos >= 0:
            end = pos + len(word)
            line_start = text.rfind("\n", 0, pos) + 1
            boundary = end >= len(text) or not (text[end].isalnum() or text[end] in "_$.")
            if boundary and not text[line_start:pos].strip(" \t"):
                found[line_start] = word.removeprefix("cuda_tile.")
            pos = text.find(word, end)
    return sorted(((k, s) for s, k in found.items()), key=lambda ks: ks[1])


def _line_starting_with(text: str, prefixes: tuple[str, ...]) -> bool:
    """Some line's first token starts with one of `prefixes`: alias definitions (`#loc1 = ...`,
    `!t = ...`) and a builtin `module`. MLIR puts them at column 0, but spaces or tabs before
    them are legal too."""
    for prefix in prefixes:
        pos = text.find(prefix)
        while pos >= 0:
            before = text[pos - 1] if pos else "\n"
            if before in " \t\n":  # (else it is inside a token: `%r#1`, `cuda_tile.module`)
                line_start = text.rfind("\n", 0, pos) + 1
                after = pos + len(prefix)
                if not text[line_start:pos].strip(" \t") and (
                    prefix != "module" or text[after : after + 1] in (" ", "{", "@", "\n", "\t", "")
                ):
                    return True
            pos = text.find(prefix, pos + 1)
    return False


def _closing_brace(text: str) -> int | None:
    """Offset of the module's closing `}`: the last `}` outside a trailing comment."""
    pos = len(text)
    while True:
        pos = text.rfind("}", 0, pos)
        if pos < 0:
            return None
        line_start = text.rfind("\n", 0, pos) + 1
        if "//" not in text[line_start:pos]:
            return pos


def only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("//") for line in text.splitlines())


__all__ = ["Split", "only_comments", "resplit", "split_items"]
