"""The cuda_tile dialect object: every op class of Tile IR 13.1-13.5 in one list.

`OPS` is what the registry loads on first lookup; importing this registers syntax.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tile_lsp.compiler.dialects.cuda_tile import (
    custom,
    ops_arith,
    ops_atomic,
    ops_control,
    ops_conversion,
    ops_math,
    ops_memory,
    ops_mma,
    ops_shape,
    ops_structure,
    preview,
)
from tile_lsp.compiler.dialects.cuda_tile.attrs import register_enum_spellings

del custom  # imported for its directive registrations

OPS: list[type[Operation]] = [
    *ops_structure.OPS,
    *ops_arith.OPS,
    *ops_math.OPS,
    *ops_conversion.OPS,
    *ops_control.OPS,
    *ops_shape.OPS,
    *ops_memory.OPS,
    *ops_atomic.OPS,
    *ops_mma.OPS,
    *preview.OPS,
]

register_enum_spellings()
