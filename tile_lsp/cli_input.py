"""What the CLI's commands read: a file (or stdin for `-`), cuda_tile text or Tile IR bytecode.

Shared by `cli` (`check`, `opt`) and `cli_compile` (`compile`), below both.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # (as in `tile_lsp.cli`: no typing import on the daemon client's path)
if TYPE_CHECKING:
    from tile_lsp.compiler.diagnostics import Diagnostic
    from tile_lsp.compiler.source import SourceText


def load_input(path: str) -> tuple[SourceText, list[Diagnostic]]:
    """The file as text: cuda_tile text, or Tile IR bytecode (found by its magic) printed."""
    from tile_lsp.compiler.bytecode.convert import load_source

    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return load_source(data, path)


def read_input(path: str) -> tuple[SourceText, list[Diagnostic]] | None:
    """`load_input(path)`; None, with `PATH: error: why` on stderr, when the file cannot be read."""
    try:
        return load_input(path)
    except OSError as exc:
        print(f"{path}: error: {exc.strerror}", file=sys.stderr)
        return None
