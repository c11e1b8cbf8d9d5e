"""The interpreter core: runs one cuda_tile entry over a grid of tile blocks, op by op.

Blocks run one after another in grid order (x fastest), each sequentially, so tokens have
no effect and atomics apply in program order. Op semantics live in the `ops_*` modules,
registered by name in `HANDLERS`; control flow and regions are here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np
from xdsl.ir import Block, Operation, Region, SSAValue

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.interp.memory import GlobalMemory, MemoryFault
from tile_lsp.compiler.interp.numerics import np_dtype
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.syntax.sourcemap import SourceMap

Handler = Callable[["Interpreter", Operation, list[Any]], Sequence[Any]]
HANDLERS: dict[str, Handler] = {}
MAX_LOOP_TRIPS = 10_000_000


def handles(*names: str) -> Callable[[Handler], Handler]:
    """Register an op handler: (interpreter, op, operand values) -> result values."""

    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name if "." in name else "cuda_tile." + name] = fn
        return fn

    return register


class InterpError(Exception):
    """A user-facing failure (unsupported op, failed assert, memory fault) at an op."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.where = where


class Unsupported(InterpError):
    pass


class OpFailure(Exception):
    """Raised by handlers; the interpreter adds the op's location and turns it into InterpError."""


@dataclass
class BlockState:
    """Per tile block: its id, the grid, and the values computed so far."""

    block_id: tuple[int, int, int]
    grid: tuple[int, int, int]
    env: dict[SSAValue, Any] = field(default_factory=dict)


class Interpreter:
    """Executes entries of a parsed cuda_tile module on NumPy data."""

    def __init__(self, module: Operation, source: SourceText | None = None, smap: SourceMap | None = None,
                 memory: GlobalMemory | None = None, stdout: TextIO | None = None):
        self.module = module
        self.source = source
        self.smap = smap
        self.memory = memory or GlobalMemory()
        self.stdout = stdout or sys.stdout
        self.symbols: dict[str, Operation] = {}
        for op in module.walk():
            sym = op.properties.get("sym_name")
            if sym is not None and op.name in ("cuda_tile.entry", "cuda_tile.testing$func", "cuda_tile.global"):
                self.symbols.setdefault(sym.data, op)  # type: ignore[attr-defined]
        self.globals: dict[str, int] = {}
        self.state = BlockState((0, 0, 0), (1, 1, 1))
        self.max_loop_trips = MAX_LOOP_TRIPS

    # -- entry points ---------------------------------------------------------------

    def entries(self) -> list[str]:
        return [n for n, op in self.symbols.items() if op.name != "cuda_tile.global"]

    def run(self, entry: str, args: Sequence[Any], grid: Sequence[int] = (1, 1, 1)) -> None:
        """Run `entry` once per tile block of `grid`; pointer arguments are addresses."""
        op = self.symbols.get(entry)
        if op is None or op.name == "cuda_tile.global":
            known = ", ".join(self.entries()) or "none"
            raise InterpError(f"no entry named '{entry}' (entries: {known})")
        block = op.regions[0].blocks.first
        assert block is not None
        params = list(block.args)
        if len(args) != len(params):
            raise InterpError(f"entry '{entry}' takes {len(params)} arguments, got {len(args)}", self.where(op))
        values = [self._bind(p.type, a, i, op) for i, (p, a) in enumerate(zip(params, args))]
        g = (tuple(grid) + (1, 1, 1))[:3]
        if any(n < 1 for n in g):
            raise InterpError(f"grid dimensions must be positive, got {g}")
        with np.errstate(all="ignore"):
            for z in range(g[2]):
                for y in range(g[1]):
                    for x in range(g[0]):
                        self.state = BlockState((x, y, z), g)  # type: ignore[arg-type]
                        self.exec_block(block, values)

    def _bind(self, t: Any, a: Any, i: int, op: Operation) -> Any:
        if not isinstance(t, ct.TileType):
            return a  # views and tokens: the caller passes interpreter objects
        elem = ct.element_type(t)
        if isinstance(elem, ct.PointerType):
            return np.broadcast_to(np.asarray(a, dtype=np.int64), ct.shape_of(t)).copy()
        try:
            return np.broadcast_to(np.asarray(a).astype(np_dtype(elem)), ct.shape_of(t)).copy()
        except (TypeError, ValueError) as exc:
            raise InterpError(f"argument {i}: cannot use {np.shape(a)} value as {t}: {exc}", self.where(op))

    # -- execution ------------------------------------------------------------------

    def value_named(self, name: str) -> Any:
        """The last value (in the last tile block run) of the SSA value written `%name`."""
        if self.smap is not None:
            for v, n in self.smap.value_names.items():
                if n.lstrip("%") == name.lstrip("%") and v in self.state.env:
                    return self.state.env[v]
        raise KeyError(name)

    def where(self, op: Operation) -> str:
        """`path:line:col` of an op (1-based), or its name when the source is unknown."""
        if self.smap is not None and self.source is not None:
            span = self.smap.op_span(op)
            if span is not None:
                line, col = self.source.line_col(span.start)
                return f"{self.source.path}:{line + 1}:{col + 1}"
        return f"'{op.name}'"

    def exec_block(self, block: Block, args: Sequence[Any]) -> tuple[str, list[Any]]:
        """Run a block; returns (terminator name, its operand values)."""
        env = self.state.env
        for a, v in zip(block.args, args):
            env[a] = v
        for op in block.ops:
            control = CONTROL.get(op.name)
            if control is not None:
                signal = control(self, op)
                if signal is not None:
                    return signal
                continue
            ins = [env[v] for v in op.operands]
            handler = HANDLERS.get(op.name)
            if handler is None:
                raise Unsupported(f"op '{op.name}' is not supported by the interpreter", self.where(op))
            try:
                outs = handler(self, op, ins)
            except OpFailure as exc:
                raise InterpError(f"'{op.name}': {exc}", self.where(op))
            except MemoryFault as exc:
                raise InterpError(f"'{op.name}': {exc}", self.where(op))
            except InterpError:
                raise
            except Exception as exc:  # an interpreter bug: still name the op and where it is
                raise InterpError(f"internal error executing '{op.name}' (please report): {exc!r}", self.where(op))
            for r, v in zip(op.results, outs):
                env[r] = v
        return "", []

    def call_region(self, region: Region, args: Sequence[Any]) -> list[Any]:
        """Run a single-block region to its yield (reduce/scan combiners)."""
        block = region.blocks.first
        assert block is not None
        _, values = self.exec_block(block, args)
        return values


# -- control flow --------------------------------------------------------------------------

Signal = tuple[str, list[Any]] | None


def _terminator(it: Interpreter, op: Operation) -> Signal:
    return op.name, [it.state.env[v] for v in op.operands]


def _if(it: Interpreter, op: Operation) -> Signal:
    cond = bool(np.asarray(it.state.env[op.operands[0]]))
    region = op.regions[0] if cond else op.regions[1]
    block = region.blocks.first
    if block is None:
        return None
    kind, values = it.exec_block(block, [])
    if kind in ("cuda_tile.yield", ""):
        for r, v in zip(op.results, values):
            it.state.env[r] = v
        return None
    return kind, values  # break / continue / return of an enclosing loop or entry


def _for(it: Interpreter, op: Operation) -> Signal:
    env = it.state.env
    lb, ub, step = (env[v] for v in op.operands[:3])
    iters = [env[v] for v in op.operands[3:]]
    elem = ct.element_type(op.operands[0].type)
    unsigned = op.properties.get("unsignedCmp") is not None
    width = ct.bitwidth(elem)
    conv = (lambda x: int(np.asarray(x).astype(np.int64)) & ((1 << width) - 1)) if unsigned else (
        lambda x: int(np.asarray(x).astype(np.int64)))
    i, end, s = conv(lb), conv(ub), conv(step)
    if s <= 0:
        raise InterpError(f"'cuda_tile.for' step must be positive, got {s}", it.where(op))
    block = op.regions[0].blocks.first
    assert block is not None
    dtype = np_dtype(elem)
    while i < end:
        kind, values = it.exec_block(block, [np.asarray(i).astype(dtype), *iters])
        if kind == "cuda_tile.break":
            iters = values
            break
        if kind == "cuda_tile.return":
            return kind, values
        iters = values
        i += s
    for r, v in zip(op.results, iters):
        env[r] = v
    return None


def _loop(it: Interpreter, op: Operation) -> Signal:
    env = it.state.env
    iters = [env[v] for v in op.operands]
    block = op.regions[0].blocks.first
    assert block is not None
    for _ in range(it.max_loop_trips):
        kind, values = it.exec_block(block, iters)
        if kind == "cuda_tile.break":
            for r, v in zip(op.results, values):
                env[r] = v
            return None
        if kind == "cuda_tile.return":
            return kind, values
        iters = values
    raise InterpError(f"'cuda_tile.loop' ran {it.max_loop_trips} iterations without a break", it.where(op))


CONTROL: dict[str, Callable[[Interpreter, Operation], Signal]] = {
    "cuda_tile.if": _if,
    "cuda_tile.for": _for,
    "cuda_tile.loop": _loop,
    "cuda_tile.yield": _terminator,
    "cuda_tile.continue": _terminator,
    "cuda_tile.break": _terminator,
    "cuda_tile.return": _terminator,
}
