"""The server's own copy of each open document: LSP content changes applied to a text.

pygls's TextDocument splits lines with `str.splitlines`, which also breaks at \\f, \\v,
\\x1c-\\x1e, U+0085, U+2028 and U+2029: after a form feed in a comment every incremental edit
landed a line too high, and Format Document wrote the drifted text into the file. Here lines end
exactly where LSP says (\\n, \\r\\n, a lone \\r), columns count the negotiated position encoding's
code units (UTF-16 unless the client and server agreed on UTF-8 or UTF-32), and out-of-range
positions clamp as VS Code's text model does (`SourceText.lsp_offset`); a range given end first
is taken the other way round.

Plain data only (no lsprotocol): `protocol.content_changes` turns lsprotocol's change events into
`Change`s.
"""

from __future__ import annotations

from collections.abc import Iterable

from tile_lsp.compiler.source import ENCODINGS, SourceText

# (start line, start character, end line, end character); None: the whole document.
Range = tuple[int, int, int, int]
Change = tuple[Range | None, str]


# What one didChange did to the previous text, as one replacement in its offsets: [start, end)
# of the old text became [start, new_end) of the new one (the document cache re-parses only there).
Edit = tuple[int, int, int]


def apply_change(text: str, where: Range | None, new: str, encoding: str = "utf-16") -> str:
    """`text` with the range `where` (LSP positions in `encoding` units) replaced by `new`."""
    return change_source(SourceText(text), where, new, encoding)[0].text


def change_source(
    source: SourceText, where: Range | None, new: str, encoding: str = "utf-16"
) -> tuple[SourceText, Edit | None]:
    """`source` with the range `where` replaced by `new` (its line index spliced, not rebuilt),
    and the edit in offsets (None: the whole text was replaced)."""
    if where is None:
        return SourceText(new, source.path), None
    a = source.lsp_offset(where[0], where[1], encoding)
    b = source.lsp_offset(where[2], where[3], encoding)
    if a > b:
        a, b = b, a
    return source.replaced(a, b, new), (a, b, a + len(new))


def compose(first: Edit | None, second: Edit | None, delta_first: int) -> Edit | None:
    """Two edits in a row as one, in the offsets of the text before the first: `delta_first` is
    the first's change in length. None (a whole-text replacement) absorbs the other."""
    if first is None or second is None:
        return None
    a1, b1, e1 = first
    a2, b2, e2 = second
    start = min(a1, a2)
    end_before = max(b1, b2 - delta_first if b2 >= e1 else b1)  # (an end inside the first's text: its end)
    return start, end_before, end_before + delta_first + (e2 - b2)


def apply_changes(text: str, changes: Iterable[Change], encoding: str = "utf-16") -> str:
    """The changes of one didChange, in order: each one's range is in the text the previous left."""
    return apply_source_changes(SourceText(text), changes, encoding)[0].text


def apply_source_changes(
    source: SourceText, changes: Iterable[Change], encoding: str = "utf-16"
) -> tuple[SourceText, Edit | None]:
    """`apply_changes` on a SourceText: the new one, and all the changes as one `Edit` of the old
    text (None: a change replaced the whole text, or there was none)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown position encoding {encoding!r}")
    edit: Edit | None = None
    for n, (where, new) in enumerate(changes):
        source, one = change_source(source, where, new, encoding)
        edit = one if n == 0 else compose(edit, one, edit[2] - edit[1] if edit is not None else 0)
    return source, edit
