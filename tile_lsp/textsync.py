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


def apply_change(text: str, where: Range | None, new: str, encoding: str = "utf-16") -> str:
    """`text` with the range `where` (LSP positions in `encoding` units) replaced by `new`."""
    if where is None:
        return new
    source = SourceText(text)
    a = source.lsp_offset(where[0], where[1], encoding)
    b = source.lsp_offset(where[2], where[3], encoding)
    if a > b:
        a, b = b, a
    return text[:a] + new + text[b:]


def apply_changes(text: str, changes: Iterable[Change], encoding: str = "utf-16") -> str:
    """The changes of one didChange, in order: each one's range is in the text the previous left."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown position encoding {encoding!r}")
    for where, new in changes:
        text = apply_change(text, where, new, encoding)
    return text
