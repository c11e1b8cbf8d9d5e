"""The cuda_tile dialect object: every op class of Tile IR 13.1-13.3 in one list.

`OPS` is what the registry loads on first lookup; importing this registers syntax.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tile_lsp.compiler.dialects.cuda_tile import custom as _custom  # registers directives
from tile_lsp.compiler.dialects.cuda_tile.attrs import register_enum_spellings
from tile_lsp.compiler.dialects.cuda_tile.ops_structure import (
    ConstantOp,
    EntryOp,
    GetGlobalOp,
    GlobalOp,
    ModuleOp,
    ReturnOp,
    TestingFuncOp,
)

del _custom

OPS: list[type[Operation]] = [
    ModuleOp,
    EntryOp,
    TestingFuncOp,
    ReturnOp,
    GlobalOp,
    GetGlobalOp,
    ConstantOp,
]

register_enum_spellings()
