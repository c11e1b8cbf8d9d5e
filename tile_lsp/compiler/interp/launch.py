"""Binding host data to an entry's parameters, and one-call runs of a cuda_tile source text.

Arrays go to pointer parameters. When fewer arguments than parameters are given, an array
also fills the 2*ndim integer parameters right after its pointer with its shape and its
strides in elements: the cuTile calling convention (`ptr, shape..., strides...`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np
from xdsl.ir import Operation

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.interp.machine import InterpError, Interpreter
from tile_lsp.compiler.interp.memory import GlobalMemory


@dataclass
class Launch:
    """Parameter values for `Interpreter.run`, and which parameter holds which array."""

    values: list[Any] = field(default_factory=list)
    arrays: dict[int, str] = field(default_factory=dict)  # argument number -> buffer name
    pointer_params: dict[int, int] = field(default_factory=dict)  # parameter number -> argument number


def entry_params(interp: Interpreter, entry: str) -> list[Any]:
    op = interp.symbols.get(entry)
    if op is None or op.name == "cuda_tile.global":
        raise InterpError(f"no entry named '{entry}' (entries: {', '.join(interp.entries()) or 'none'})")
    block = op.regions[0].blocks.first
    assert block is not None
    return [a.type for a in block.args]


def _is_int_scalar(t: Any) -> bool:
    return isinstance(t, ct.TileType) and t.rank == 0 and ct.is_int(t.element_type)


def bind(params: Sequence[Any], args: Sequence[Any], memory: GlobalMemory) -> Launch:
    """Match host arguments (NumPy arrays for pointers, scalars otherwise) to parameters."""
    out = Launch()
    p = 0
    for i, arg in enumerate(args):
        if p >= len(params):
            raise InterpError(f"too many arguments: the entry takes {len(params)} parameters")
        t = params[p]
        if isinstance(ct.element_type(t), ct.PointerType):
            if not isinstance(arg, np.ndarray) or arg.ndim == 0:
                raise InterpError(f"argument {i}: parameter {p} is a pointer; give an array")
            name = f"arg{i}"
            out.arrays[i] = name
            out.pointer_params[p] = i
            out.values.append(memory.add(name, arg))
            p += 1
            expand = 2 * arg.ndim
            left_params, left_args = len(params) - p, len(args) - i - 1
            if left_params - expand >= left_args and all(_is_int_scalar(x) for x in params[p : p + expand]):
                item = arg.itemsize
                out.values.extend(int(s) for s in arg.shape)
                out.values.extend(int(s) // item for s in arg.strides)
                p += expand
            continue
        if isinstance(arg, np.ndarray) and arg.ndim > 0 and ct.shape_of(t) != arg.shape:
            raise InterpError(f"argument {i}: parameter {p} has type {t}, got an array of shape {arg.shape}")
        out.values.append(arg)
        p += 1
    if p != len(params):
        raise InterpError(f"too few arguments: the entry takes {len(params)} parameters, {p} bound")
    return out


@dataclass
class RunResult:
    memory: GlobalMemory
    launch: Launch

    def array(self, i: int) -> np.ndarray[Any, Any]:
        """The final contents of array argument `i`."""
        return self.memory.array(self.launch.arrays[i])


def load_module(text: str, path: str = "<input>") -> Interpreter:
    """Parse + verify; raises InterpError with the first diagnostic when the text is invalid."""
    results = parse_text(text, path)
    result = results[0]
    if not result.ok or result.module is None:
        first = next((d for d in result.diagnostics if d.is_error), None)
        line, col = result.source.line_col(first.span.start) if first else (0, 0)
        raise InterpError(f"{first.message if first else 'parse failed'}", f"{path}:{line + 1}:{col + 1}")
    return Interpreter(result.module, result.source, result.smap)


def run_text(text: str, entry: str, args: Sequence[Any], grid: Sequence[int] = (1, 1, 1), path: str = "<input>",
             stdout: TextIO | None = None) -> RunResult:
    """Parse `text`, run `entry` on `args` over `grid`; arrays are copied in (read results back)."""
    interp = load_module(text, path)
    if stdout is not None:
        interp.stdout = stdout
    launch = bind(entry_params(interp, entry), args, interp.memory)
    interp.run(entry, launch.values, grid)
    return RunResult(interp.memory, launch)


def find_entry(interp: Interpreter, prefix: str) -> Operation:
    """The entry whose name is `prefix` or starts with it (cuTile mangles names)."""
    names = [n for n in interp.entries() if n == prefix or n.startswith(prefix)]
    if len(names) != 1:
        raise InterpError(f"entry '{prefix}': {len(names)} matches among {', '.join(interp.entries())}")
    return interp.symbols[names[0]]
