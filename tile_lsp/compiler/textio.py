"""Reading source files as text, turning undecodable bytes into a diagnostic.

The one place the front end touches raw bytes; everything after works on str.
"""

from __future__ import annotations

from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import Span

BOM = "\ufeff"
_UTF8_BOM = b"\xef\xbb\xbf"


def blank_bom(text: str) -> str:
    """A byte-order mark at the start of a text (an editor's buffer may keep one) reads as a
    blank: the same length, so every offset, line and column stays the text's."""
    return " " + text[1:] if text.startswith(BOM) else text


def decode_source(data: bytes) -> tuple[str, list[Diagnostic]]:
    """UTF-8 decode; invalid bytes become U+FFFD plus one error at the first of them. A UTF-8
    byte-order mark is dropped: positions then count from the first character after it, as an
    editor shows them (editors hide the mark)."""
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", errors="replace")
        text = data.decode("utf-8", errors="replace")
        offset = len(prefix)
        diag = Diagnostic(
            Span(offset, offset + 1),
            Severity.ERROR,
            f"invalid UTF-8 byte 0x{data[exc.start]:02x} at byte offset {exc.start}; "
            "cuda_tile text must be UTF-8 (is this a bytecode file? use tileirdisasm)",
        )
        return text, [diag]
