"""Reading source files as text, turning undecodable bytes into a diagnostic.

The one place the front end touches raw bytes; everything after works on str.
"""

from __future__ import annotations

from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import Span


def decode_source(data: bytes) -> tuple[str, list[Diagnostic]]:
    """UTF-8 decode; invalid bytes become U+FFFD plus one error at the first of them."""
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
