"""Tile IR bytecode (`.tileirbc`, versions 13.1-13.5): a pure-Python reader and writer.

- `reader.decode(data)` / `reader.read_bytecode(data, path)`: bytes -> our cuda_tile IR
  (the same ops, properties and locations the text front end builds), or diagnostics.
- `writer.write_bytecode(module, version=None)`: IR -> bytes (with debug info).
- `opspec.OPS`: the instruction layouts both use; `format`: constants and byte primitives.
"""

from __future__ import annotations

from tile_lsp.compiler.bytecode.format import MAGIC

__all__ = ["MAGIC", "is_bytecode"]


def is_bytecode(data: bytes) -> bool:
    """True when `data` starts with the Tile IR bytecode magic (`\\x7fTileIR\\x00`)."""
    return data[: len(MAGIC)] == MAGIC
