"""A NumPy reference interpreter for cuda_tile: runs entries over a grid of tile blocks.

`Interpreter(module, source, smap).run(entry, args, grid)`; pointers are addresses into
`GlobalMemory` (see `memory.py`). Semantics choices: docs/interpreter.md.
"""

from tile_lsp.compiler.interp import ops_arith, ops_debug, ops_math, ops_memory, ops_shape
from tile_lsp.compiler.interp.machine import CONTROL, HANDLERS, InterpError, Interpreter, Unsupported
from tile_lsp.compiler.interp.memory import GlobalMemory, MemoryFault, TensorView, TiledView

# Imported for their handler registrations into machine.HANDLERS: the one edge from this
# package to the ops modules, which import machine/numerics/memory as modules, never this package.
del ops_arith, ops_debug, ops_math, ops_memory, ops_shape


def supported_ops() -> set[str]:
    """Op names the interpreter executes."""
    return set(HANDLERS) | set(CONTROL)


__all__ = ["GlobalMemory", "InterpError", "Interpreter", "MemoryFault", "TensorView", "TiledView", "Unsupported",
           "supported_ops"]
