"""Top-level items of a Tile IR file (entries, globals, test functions, alias definitions),
found by scanning the text, not by parsing it: the document cache parses them one by one, and the
entry cache compiles them one by one. No xDSL here, so a `tile-lsp compile` served from the cache
starts fast.

Alias definitions (`#loc12 = loc(...)`, `!t = ...`: what `tileirdisasm -g` and MLIR's printer
put after the code, or before it) are items of kind `alias`, one per run of definition lines;
every other item is parsed with the aliases they define (`document.py`). In a `cuda_tile.module`
they sit before its first line or after its closing one.
"""

from __future__ import annotations

import re

# A line that starts a top-level item (indentation allowed: items sit inside a module).
# The header up to the body's `{`, past an `attributes {...}` dictionary (`{producer = "..."}`).
_MODULE_START = re.compile(r"[ \t]*cuda_tile\.module\b[^\n{]*?(?:\battributes\s*\{[^\n}]*\}\s*)?\{")
_LONE_CR = re.compile(r"\r(?!\n)")
# A line whose first token starts with `#` or `!`, and the alias it defines if it is a definition.
_HASH_LINE = re.compile(r"^[ \t]*[#!](?:([A-Za-z_][\w$.]*)[ \t]*=)?", re.MULTILINE)
# The rest of a module's closing line: its location.
_MODULE_TAIL = re.compile(r"[ \t]*loc\((?:[^()\n]|\([^()\n]*\))*\)[ \t]*(?://[^\n]*)?")


def split_items(text: str) -> tuple[list[tuple[str, int, int]], tuple[int, int] | None] | None:
    """(kind, start, end) of each top-level item, and the module's (body start, closing brace)
    if there is one; None when the text must be parsed whole.

    Runs on every keystroke over the whole document, so it scans with str.find (C speed)
    and looks at the few lines that can start something, not at every character.
    """
    if "\r" in text and _LONE_CR.search(text):
        return None  # a lone CR ends a line (and a comment) where this scan sees none: parse whole
    if "// -----" in text or '"cuda_tile.' in text or _line_starting_with(text, ("module",)):
        return None
    aliases = _alias_lines(text)
    if aliases is None:
        return None
    module_lines = _lines_starting_with(text, ("cuda_tile.module",))
    if len(module_lines) > 1:
        return None
    body: tuple[int, int] | None = None
    limit = len(text)
    if module_lines:
        first = module_lines[0][1]
        after = [a for a in aliases if a > first]  # (after the module's closing line, or misplaced)
        m = _MODULE_START.match(text, first)
        close = _closing_brace(text, after[0] if after else len(text))
        if m is None or close is None or close < m.end():
            return None
        line_end = text.find("\n", close)
        line_end = len(text) if line_end < 0 else line_end
        if any(a < line_end for a in after) or not _module_tail(text, close + 1, line_end):
            return None
        gaps = _gaps(text, aliases, 0, first) + (_gaps(text, after, line_end + 1, len(text)) if after else [])
        if any(text[a:b].strip(" \t\r\n") and not only_comments(text[a:b]) for a, b in gaps):
            return None  # something other than aliases and comments outside the module
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
        first_start = min([s for _, s in starts[:1]] + aliases[:1], default=len(text))
        head = text[:first_start]
        if head.strip(" \t\r\n") and not only_comments(head):
            return None
    items = []
    if body is None:
        marks = sorted([*starts, *(("alias", a) for a in aliases)], key=lambda ks: ks[1])
        bounds = [limit] * len(marks)
    else:  # the aliases before the module end at its first line; the ones after it, at the end
        before = [("alias", a) for a in aliases if a < first]
        marks = [*before, *starts, *(("alias", a) for a in aliases if a > first)]
        bounds = [first] * len(before) + [limit] * len(starts) + [len(text)] * (len(marks) - len(before) - len(starts))
    i = 0
    while i < len(marks):
        kind, start = marks[i]
        j = i + 1
        while kind == "alias" and j < len(marks) and marks[j][0] == "alias" and marks[j][1] <= bounds[i]:
            j += 1  # (a run of definitions is one item)
        end = marks[j][1] if j < len(marks) and marks[j][1] <= bounds[i] else bounds[i]
        items.append((kind, start, end))
        i = j
    return items, body


def _alias_lines(text: str) -> list[int] | None:
    """Where the alias definitions' lines start; None when a line starts with `#` or `!`
    without defining an alias (something only the whole-text parse can place)."""
    if "#" not in text and "!" not in text:
        return []
    found = []
    for m in _HASH_LINE.finditer(text):
        if m.group(1) is None:
            return None
        found.append(m.start())
    return found


def _gaps(text: str, aliases: list[int], lo: int, hi: int) -> list[tuple[int, int]]:
    """The text of [lo, hi) outside the alias definitions' first lines (a definition that goes
    on over more lines leaves its other lines here: the caller then parses the text whole)."""
    out = []
    pos = lo
    for a in aliases:
        if a >= hi:
            break
        out.append((pos, a))
        end = text.find("\n", a)
        pos = hi if end < 0 or end >= hi else end + 1
    out.append((pos, hi))
    return [(a, b) for a, b in out if b > a]


def _module_tail(text: str, start: int, end: int) -> bool:
    """The rest of the module's closing line is blank, a comment, or the module's `loc(...)`."""
    rest = text[start:end].strip(" \t\r")
    return not rest or rest.startswith("//") or _MODULE_TAIL.fullmatch(text[start:end].rstrip("\r")) is not None


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


def _closing_brace(text: str, before: int | None = None) -> int | None:
    """Offset of the module's closing `}`: the last `}` (before `before`) outside a trailing comment."""
    pos = len(text) if before is None else before
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
