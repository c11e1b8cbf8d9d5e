"""A lockstep SIMT simulator of the gpu stage's output, for tests on a machine without a GPU: it
runs a `gpu.func` over a grid of CTAs (one after another), all threads of a CTA as NumPy lanes.

Control flow is masked (scf.if/for/while run a region for the threads that take it), warp ops
(gpu.shuffle, nvvm.ldmatrix, mma.sync) follow the PTX ISA's definitions, atomics apply thread by
thread in thread order. Limitation: every op runs for all threads before the next one, so a
missing `gpu.barrier` cannot change a result; instead shared memory has a race detector (a read
of a byte another thread wrote, or a write of a byte another thread read, since the last barrier).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.dialects.llvm import LLVMArrayType, LLVMPointerType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tile_lsp.compiler.mlir.dialects.llvm_syntax import ATOMIC_BIN_OPS

BF16 = np.dtype(ml_dtypes.bfloat16)
# i4 lives sign-extended in an int8 (`_narrow`).
_INT = {1: np.dtype(np.bool_), 4: np.dtype(np.int8), 8: np.dtype(np.int8), 16: np.dtype(np.int16),
        32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def isa_a_row_col(lane: int, i: int) -> tuple[int, int]:
    """mma.m16n8k16 A element a_i (i = 0..7), the PTX ISA's formulas for .f16/.bf16."""
    group, tig = lane >> 2, lane % 4
    row = group if i in (0, 1, 4, 5) else group + 8
    col = tig * 2 + (i & 1) if i < 4 else tig * 2 + (i & 1) + 8
    return row, col


def isa_b_row_col(lane: int, i: int) -> tuple[int, int]:
    """B element b_i (i = 0..3): row = k, col = n."""
    group, tig = lane >> 2, lane % 4
    row = tig * 2 + (i & 1) if i < 2 else tig * 2 + (i & 1) + 8
    return row, group


def isa_c_row_col(lane: int, i: int) -> tuple[int, int]:
    """C/D element c_i (i = 0..3)."""
    group, tig = lane >> 2, lane % 4
    row = group if i < 2 else group + 8
    return row, tig * 2 + (i & 1)


@functools.cache
def dtype_of(t: Attribute) -> np.dtype[Any]:
    if isinstance(t, IntegerType):
        return _INT[t.width.data]
    if isinstance(t, IndexType | LLVMPointerType):
        return np.dtype(np.int64)
    if isinstance(t, BFloat16Type):
        return BF16
    if isinstance(t, Float16Type):
        return np.dtype(np.float16)
    if isinstance(t, Float32Type):
        return np.dtype(np.float32)
    if isinstance(t, Float64Type):
        return np.dtype(np.float64)
    if isinstance(t, VectorType):
        return dtype_of(t.element_type)
    raise NotImplementedError(str(t))


def _shape(t: Attribute) -> tuple[int, ...]:
    return tuple(t.get_shape()) if isinstance(t, VectorType) else ()


def _size(t: Attribute) -> int:
    if isinstance(t, LLVMArrayType):
        return t.size.data * _size(t.type)
    return dtype_of(t).itemsize


def unsigned(v: np.ndarray) -> np.ndarray:
    return v if v.dtype == np.bool_ else v.view(_UINT[v.dtype.itemsize])


class Memory:
    """Flat byte memory: global buffers, shared and constant globals. Every access by an
    active thread must fall inside one allocation; shared allocations are race-checked."""

    def __init__(self, size: int = 1 << 20) -> None:
        self.data = np.zeros(size, np.uint8)
        self.top = 256  # [0, 256): null, never allocated
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.shared: list[tuple[int, int]] = []
        self.epoch = 1
        self.races: list[str] = []
        self._shadow: dict[str, np.ndarray] = {}
        self.mallocs: list[int] = []  # device-side malloc results, in order
        self.freed: list[int] = []

    def alloc(self, nbytes: int, shared: bool = False) -> int:
        addr = self.top
        self.top += (max(nbytes, 1) + 255) // 256 * 256 + 256  # a gap: overruns hit no buffer
        while self.top > self.data.size:
            self.data = np.concatenate([self.data, np.zeros_like(self.data)])
        self.starts.append(addr)
        self.ends.append(addr + nbytes)
        if shared:
            self.shared.append((addr, addr + nbytes))
        return addr

    def free(self, addr: int) -> None:
        """Device-side free: the allocation at `addr` (which must be one) can be touched no more."""
        k = bisect.bisect_right(self.starts, addr) - 1
        assert k >= 0 and self.starts[k] == addr and self.ends[k] > addr, f"free of {addr}: not an allocation"
        self.ends[k] = addr
        self.freed.append(addr)

    def put(self, array: np.ndarray, bf16: bool = False) -> int:
        raw = np.ascontiguousarray(array.astype(BF16) if bf16 else array).view(np.uint8).reshape(-1)
        addr = self.alloc(raw.size)
        self.data[addr : addr + raw.size] = raw
        return addr

    def get(self, addr: int, count: int, t: Attribute | np.dtype[Any]) -> np.ndarray:
        dt = t if isinstance(t, np.dtype) else dtype_of(t)
        raw = self.data[addr : addr + count * dt.itemsize].copy()
        return raw.view(np.uint8).astype(bool) if dt == np.bool_ else raw.view(dt)

    def _index(self, addrs: np.ndarray, nbytes: int, mask: np.ndarray, what: str) -> np.ndarray:
        idx = np.where(mask, addrs, 0)[:, None] + np.arange(nbytes)
        live = idx[mask]
        if live.size and not self._within_one(int(live[:, 0].min()), int(live[:, -1].max())):
            lo, hi = live.min(axis=1), live.max(axis=1)
            k = np.searchsorted(np.asarray(self.starts), lo, side="right") - 1
            bad = (k < 0) | (hi >= np.asarray(self.ends)[np.maximum(k, 0)])
            if bad.any():
                raise IndexError(f"{what} out of bounds at address {int(lo[bad][0])} "
                                 f"(thread {int(np.flatnonzero(mask)[np.flatnonzero(bad)[0]])})")
        return idx

    def _within_one(self, lo: int, hi: int) -> bool:
        k = bisect.bisect_right(self.starts, lo) - 1
        return k >= 0 and hi < self.ends[k]

    def load(self, addrs: np.ndarray, dt: np.dtype[Any], lanes: int, mask: np.ndarray, shared: bool = False) -> np.ndarray:
        width = dt.itemsize * lanes
        idx = self._index(addrs, width, mask, "load")
        if shared:
            self._check_read(idx, mask)
        raw = self.data[idx]
        if dt == np.bool_:
            return raw != 0
        return raw.view(dt).reshape(len(addrs), lanes)

    def store(self, addrs: np.ndarray, values: np.ndarray, dt: np.dtype[Any], mask: np.ndarray,
              shared: bool = False) -> None:
        v = np.ascontiguousarray(values.astype(np.uint8) if dt == np.bool_ else values.astype(dt))
        raw = v.view(np.uint8).reshape(len(addrs), -1)
        idx = self._index(addrs, raw.shape[1], mask, "store")
        if shared:
            self._check_write(idx, mask)
        self.data[idx[mask]] = raw[mask]

    # -- the race detector: per shared byte, the epoch (barrier count) and thread of the last
    #    write and of the last read (-2: several readers) ----------------------------------------
    def _shadows(self) -> tuple[np.ndarray, ...]:
        if self._shadow.get("w_epoch", np.zeros(0)).size != self.data.size:
            for k in ("w_epoch", "writer", "r_epoch", "reader"):
                self._shadow[k] = np.full(self.data.size, -1 if k in ("writer", "reader") else 0, np.int64)
        s = self._shadow
        return s["w_epoch"], s["writer"], s["r_epoch"], s["reader"]

    def new_cta(self) -> None:
        self.epoch += 1
        for a, b in self.shared:  # shared memory starts undefined: NaN / -1 bytes
            self.data[a:b] = 0xFF

    def _check_read(self, idx: np.ndarray, mask: np.ndarray) -> None:
        w_epoch, writer, r_epoch, reader = self._shadows()
        tid = np.broadcast_to(np.arange(len(mask))[:, None], idx.shape)[mask].reshape(-1)
        flat = idx[mask].reshape(-1)
        hazard = (w_epoch[flat] == self.epoch) & (writer[flat] != tid)
        if hazard.any():
            j = np.flatnonzero(hazard)[0]
            self._race("read", int(flat[j]), int(tid[j]), int(writer[flat[j]]))
        other = (r_epoch[flat] == self.epoch) & (reader[flat] != tid)
        reader[flat] = tid  # several threads reading one byte now: one of them wins
        r_epoch[flat] = self.epoch
        several = other | (reader[flat] != tid)
        reader[flat[several]] = -2

    def _check_write(self, idx: np.ndarray, mask: np.ndarray) -> None:
        w_epoch, writer, r_epoch, reader = self._shadows()
        tid = np.broadcast_to(np.arange(len(mask))[:, None], idx.shape)[mask].reshape(-1)
        flat = idx[mask].reshape(-1)
        hazard = (r_epoch[flat] == self.epoch) & (reader[flat] != tid)
        if hazard.any():
            j = np.flatnonzero(hazard)[0]
            self._race("write", int(flat[j]), int(tid[j]), int(reader[flat[j]]))
        w_epoch[flat] = self.epoch
        writer[flat] = tid

    def _race(self, kind: str, addr: int, tid: int, other: int) -> None:
        cross = other == -2 or other // 32 != tid // 32
        self.races.append(f"{'cross-warp' if cross else 'intra-warp'} {kind} race at shared byte {addr}: "
                          f"thread {tid} vs {'several readers' if other == -2 else f'thread {other}'}")

    def barrier(self) -> None:
        self.epoch += 1


Handler = Callable[["Simulator", Operation, list[Any], np.ndarray], Any]
Step = Callable[[list[Any], np.ndarray], Any]
HANDLERS: dict[str, Handler] = {}
BUILDERS: dict[str, Callable[[Simulator, Operation], Step]] = {}  # ops with static parts worked out once


def builds(*names: str) -> Callable[[Callable[[Simulator, Operation], Step]], Callable[[Simulator, Operation], Step]]:
    def register(fn: Callable[[Simulator, Operation], Step]) -> Callable[[Simulator, Operation], Step]:
        for n in names:
            BUILDERS[n] = fn
        return fn
    return register


def handles(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = fn
        return fn
    return register


class Simulator:
    """Runs a gpu.func; a value is an array with the thread as first axis (a struct: a list)."""

    def __init__(self, module: Operation, threads: int, mem: Memory) -> None:
        self.t = threads
        self.mem = mem
        self.env: dict[SSAValue, Any] = {}
        self.globals: dict[str, int] = {}
        self.block_id = (0, 0, 0)
        self.grid = (1, 1, 1)
        self.printed: list[tuple[str, list[Any]]] = []
        self.assert_failures: list[str] = []
        self.tid = np.arange(threads)
        self._plans: dict[Block, list[Any]] = {}
        for op in module.walk():
            if op.name == "llvm.mlir.global":
                t = op.properties["global_type"]
                shared = getattr(op.properties.get("addr_space"), "value", None)
                addr = mem.alloc(_size(t), shared=shared is not None and shared.data == 3)
                value = op.properties.get("value")
                if value is not None:
                    assert isinstance(t, LLVMArrayType)
                    vals = np.array(value.get_values(), dtype=dtype_of(t.type))  # type: ignore[attr-defined]
                    mem.data[addr : addr + vals.nbytes] = vals.view(np.uint8)
                self.globals[op.properties["sym_name"].data] = addr  # type: ignore[attr-defined]

    def run(self, fn: Operation, args: list[Any], block_id: tuple[int, int, int] = (0, 0, 0),
            grid: tuple[int, int, int] = (1, 1, 1)) -> None:
        """One CTA."""
        self.block_id, self.grid = block_id, grid
        self.mem.new_cta()
        entry = fn.regions[0].blocks[0]
        for a, v in zip(entry.args, args, strict=True):
            self.env[a] = np.full(self.t, v, dtype_of(a.type))
        with np.errstate(all="ignore"):  # inactive threads compute on garbage
            self.block(entry, np.ones(self.t, bool))
        self.env.clear()

    def launch(self, fn: Operation, args: list[Any], grid: tuple[int, int, int]) -> None:
        """Every CTA of `grid`, x fastest."""
        for z in range(grid[2]):
            for y in range(grid[1]):
                for x in range(grid[0]):
                    self.run(fn, args, (x, y, z), grid)

    def block(self, block: Block, mask: np.ndarray) -> list[Any]:
        env = self.env
        plan = self._plans.get(block)
        if plan is None:
            plan = self._plans[block] = [self._step(op) for op in block.ops]
        for run, operands, results in plan:
            if run is None:  # the terminator
                return [env[x] for x in operands]
            res = run([env[o] for o in operands], mask)
            if len(results) == 1:
                env[results[0]] = res
            elif results:
                for r, v in zip(results, res, strict=True):
                    env[r] = v
        return []

    def _step(self, op: Operation) -> tuple[Step | None, tuple[SSAValue, ...], tuple[SSAValue, ...]]:
        """What running `op` takes: a function of its operand values and the mask."""
        if op.name in ("scf.yield", "scf.condition", "gpu.return"):
            return None, tuple(op.operands), ()
        build = BUILDERS.get(op.name)
        if build is not None:
            return build(self, op), tuple(op.operands), tuple(op.results)
        handler = HANDLERS.get(op.name)
        if handler is None:
            raise NotImplementedError(op.name)
        return functools.partial(handler, self, op), tuple(op.operands), tuple(op.results)

    def full(self, t: Attribute, value: Any = 0) -> np.ndarray:
        return np.full((self.t, *_shape(t)), value, dtype_of(t))

    def region(self, block: Block, mask: np.ndarray) -> list[Any] | None:
        """A region for the threads in `mask`; None when there are none."""
        return self.block(block, mask) if mask.any() else None


def _merge(cond: np.ndarray, a: list[Any] | None, b: list[Any] | None) -> list[Any] | None:
    if a is None or b is None:
        return a if b is None else b
    return [np.where(cond.reshape((-1,) + (1,) * (np.ndim(x) - 1)), x, y) for x, y in zip(a, b, strict=True)]


# -- structured control flow ------------------------------------------------------------------


@handles("scf.if")
def _scf_if(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    cond = x[0].astype(bool)
    types = [r.type for r in op.results]
    then = s.region(op.regions[0].blocks[0], mask & cond)
    other = s.region(op.regions[1].blocks[0], mask & ~cond) if op.regions[1].blocks else None
    out = _merge(cond, then, other)
    if out is None:
        out = [s.full(t) for t in types]
    return out[0] if len(out) == 1 else out


@handles("scf.for")
def _scf_for(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    lb, ub, step, *carried = x
    body = op.regions[0].blocks[0]
    if mask.any():
        st, lo = int(step[mask][0]), int(lb[mask][0])
        assert (step[mask] == st).all() and (lb[mask] == lo).all(), "non-uniform scf.for bounds"
        for i in range(lo, int(ub[mask].max()), st):  # per-thread trip counts: a thread stops at its ub
            active = mask & (i < ub)
            s.env[body.args[0]] = np.full(s.t, i, lb.dtype)
            for a, v in zip(body.args[1:], carried, strict=True):
                s.env[a] = v
            new = s.block(body, active)
            carried = _merge(active, new, carried) or []
    if len(op.results) == 1:
        return carried[0]
    return carried


@handles("scf.while")
def _scf_while(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    active, values = mask.copy(), list(x)
    results: list[Any] = [s.full(r.type) for r in op.results]
    while active.any():
        for a, v in zip(before.args, values, strict=True):
            s.env[a] = v
        cond_op = before.last_op
        assert cond_op is not None and cond_op.name == "scf.condition"
        out = s.block(before, active)
        go = active & out[0].astype(bool)
        leaving = active & ~go
        results = _merge(leaving, out[1:], results) or []
        active = go
        if not active.any():
            break
        for a, v in zip(after.args, out[1:], strict=True):
            s.env[a] = v
        values = s.block(after, active)
    return results[0] if len(results) == 1 else results


# -- gpu ops ----------------------------------------------------------------------------------


def _dim(op: Operation) -> int:
    return "xyz".index(op.properties["dimension"].data.value)  # type: ignore[attr-defined]


@handles("gpu.thread_id")
def _thread_id(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    return s.tid.astype(np.int64) if _dim(op) == 0 else np.zeros(s.t, np.int64)


@handles("gpu.block_id")
def _block_id(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    return np.full(s.t, s.block_id[_dim(op)], np.int64)


@handles("gpu.grid_dim")
def _grid_dim(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    return np.full(s.t, s.grid[_dim(op)], np.int64)


@handles("gpu.block_dim")
def _block_dim(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    return np.full(s.t, s.t if _dim(op) == 0 else 1, np.int64)


@handles("gpu.barrier")
def _barrier(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    assert mask.all(), "gpu.barrier under divergent control flow"
    s.mem.barrier()


@handles("llvm.fence")
def _fence(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    """Nothing to do: lockstep execution performs every access in program order, at once."""


@handles("nvvm.griddepcontrol", "nvvm.fence.proxy")
def _grid_dependency(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    """Nothing to do: one grid runs at a time, and memory has no aliased mappings here."""


@handles("gpu.printf")
def _printf(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    fmt = op.properties["format"].data  # type: ignore[attr-defined]
    for t in np.flatnonzero(mask):
        s.printed.append((fmt, [v[t].item() for v in x]))


@handles("cf.assert")
def _assert(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    if (mask & ~x[0].astype(bool)).any():
        s.assert_failures.append(str(op.properties.get("msg", "")))


@handles("gpu.shuffle")
def _shuffle(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    """PTX shfl.sync within segments of `width` lanes; an out-of-segment source gives the own value."""
    value, offset, width = x
    mode = op.properties["mode"].data.value  # type: ignore[attr-defined]
    w = int(width[mask][0]) if mask.any() else 32
    lane = s.tid % 32
    seg = lane - lane % w
    off = offset.astype(np.int64)
    src = {"xor": lane ^ off, "up": lane - off, "down": lane + off, "idx": seg + off % w}[mode]
    valid = (src >= seg) & (src < seg + w)
    src_t = np.where(valid, s.tid - lane + src, s.tid)
    if (mask & ~mask[src_t]).any():
        s.mem.races.append("gpu.shuffle reads an inactive lane")
    return [value[src_t], valid]


# -- arith / math -----------------------------------------------------------------------------


@builds("arith.constant")
def _constant(s: Simulator, op: Operation) -> Step:
    value = op.properties["value"]
    rt = op.results[0].type
    assert isinstance(value, IntegerAttr | FloatAttr), value
    v = value.value.data
    if isinstance(rt, IntegerType | IndexType):
        c = np.full(s.t, np.int64(v)).astype(dtype_of(rt)) if dtype_of(rt) != np.bool_ else np.full(s.t, bool(v))
    else:
        c = s.full(rt, v)
    return lambda x, mask: c


def _elementwise(fn: Callable[..., np.ndarray]) -> Callable[[Simulator, Operation], Step]:
    def build(s: Simulator, op: Operation) -> Step:
        dt = dtype_of(op.results[0].type)
        return lambda x, mask: fn(*x).astype(dt, copy=False)
    return build


def _float_math(fn: Callable[..., np.ndarray]) -> Callable[[Simulator, Operation], Step]:
    """math.* in f64, rounded once to the result type."""
    def build(s: Simulator, op: Operation) -> Step:
        dt = dtype_of(op.results[0].type)
        return lambda x, mask: fn(*(v.astype(np.float64) for v in x)).astype(dt)
    return build


def _shift(a: np.ndarray, b: np.ndarray, left: bool, arith: bool = False) -> np.ndarray:
    """LLVM shifts; an amount of the bit width or more gives 0 (or the sign), as PTX's shl/shr."""
    big = unsigned(b) >= a.dtype.itemsize * 8
    amount = np.where(big, 0, b).astype(a.dtype)
    fill: Any = 0
    if left:
        r = a << amount
    elif arith:
        r, fill = a >> amount, np.where(a < 0, -1, 0)
    else:
        r = (unsigned(a) >> unsigned(amount)).view(a.dtype)
    return np.where(big, fill, r).astype(a.dtype)


def _divsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    b = np.where(b == 0, 1, b)
    q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
    return np.where((a < 0) != (b < 0), -q, q).astype(a.dtype)


def _udiv(a: np.ndarray, b: np.ndarray, rem: bool) -> np.ndarray:
    ua, ub = unsigned(a), unsigned(b)
    ub = np.where(ub == 0, 1, ub).astype(ua.dtype)
    return (ua % ub if rem else ua // ub).view(a.dtype)


_ELEMENTWISE: dict[str, Callable[..., Any]] = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b, "arith.muli": lambda a, b: a * b,
    "arith.andi": lambda a, b: a & b, "arith.ori": lambda a, b: a | b, "arith.xori": lambda a, b: a ^ b,
    "arith.shli": lambda a, b: _shift(a, b, True), "arith.shrui": lambda a, b: _shift(a, b, False),
    "arith.shrsi": lambda a, b: _shift(a, b, False, True),
    "arith.divui": lambda a, b: _udiv(a, b, False), "arith.remui": lambda a, b: _udiv(a, b, True),
    "arith.divsi": _divsi, "arith.remsi": lambda a, b: a - _divsi(a, b) * np.where(b == 0, 1, b),
    "arith.minsi": np.minimum, "arith.maxsi": np.maximum,
    "arith.minui": lambda a, b: np.minimum(unsigned(a), unsigned(b)).view(a.dtype),
    "arith.maxui": lambda a, b: np.maximum(unsigned(a), unsigned(b)).view(a.dtype),
    "arith.addf": lambda a, b: a + b, "arith.subf": lambda a, b: a - b, "arith.mulf": lambda a, b: a * b,
    "arith.divf": lambda a, b: a / b, "arith.remf": np.fmod, "arith.negf": lambda a: -a,
    "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin, "arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
    "arith.select": lambda c, a, b: np.where(c.reshape((-1,) + (1,) * (a.ndim - 1)), a, b),
    "arith.index_cast": lambda a: a, "arith.index_castui": lambda a: unsigned(a),
    "arith.extsi": lambda a: a, "arith.trunci": lambda a: a, "arith.extui": unsigned,
    "arith.extf": lambda a: a, "arith.truncf": lambda a: a, "arith.sitofp": lambda a: a,
    "arith.uitofp": unsigned, "arith.fptosi": lambda a: a, "arith.fptoui": lambda a: a,
    "llvm.select": lambda c, a, b: np.where(c, a, b),
}
for _name, _fn in _ELEMENTWISE.items():
    BUILDERS[_name] = _elementwise(_fn)

_MATH: dict[str, Callable[..., np.ndarray]] = {
    "math.exp": np.exp, "math.exp2": np.exp2, "math.log": np.log, "math.log2": np.log2, "math.log1p": np.log1p,
    "math.sqrt": np.sqrt, "math.rsqrt": lambda a: 1.0 / np.sqrt(a), "math.tanh": np.tanh, "math.sin": np.sin,
    "math.cos": np.cos, "math.tan": np.tan, "math.absf": np.abs, "math.floor": np.floor, "math.ceil": np.ceil,
    "math.fma": lambda a, b, c: a * b + c, "math.powf": np.power, "math.erf": lambda a: _erf(a),
    "math.copysign": np.copysign, "math.trunc": np.trunc, "math.roundeven": np.rint,
    "math.fpowi": np.power,  # the i32 exponent arrives as f64: exact
}
for _name, _fn in _MATH.items():
    BUILDERS[_name] = _float_math(_fn)


def _erf(a: np.ndarray) -> np.ndarray:
    import math

    return np.vectorize(math.erf)(a)


def _width(t: Attribute) -> int:
    t = t.element_type if isinstance(t, VectorType) else t
    return t.width.data if isinstance(t, IntegerType) else 0


def _narrow(a: np.ndarray, width: int) -> np.ndarray:
    """The low `width` (< 8) bits of `a`, sign-extended (how an i4 is held)."""
    sign = 1 << (width - 1)
    return ((a.astype(np.int64) & ((1 << width) - 1)) ^ sign) - sign


@builds("arith.trunci")
def _trunci(s: Simulator, op: Operation) -> Step:
    dt, w = dtype_of(op.results[0].type), _width(op.results[0].type)
    if 1 < w < 8:
        return lambda x, mask: _narrow(x[0], w).astype(dt)
    return lambda x, mask: x[0].astype(dt, copy=False)


@builds("arith.extui")
def _extui(s: Simulator, op: Operation) -> Step:
    dt, w = dtype_of(op.results[0].type), _width(op.operands[0].type)
    if 1 < w < 8:
        return lambda x, mask: (x[0].astype(np.int64) & ((1 << w) - 1)).astype(dt)
    return lambda x, mask: unsigned(x[0]).astype(dt, copy=False)


_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
         "true"]
_REL = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
        "ge": np.greater_equal}


@builds("arith.cmpi")
def _cmpi(s: Simulator, op: Operation) -> Step:
    p = _CMPI[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
    rel = _REL[p[-2:]]
    if p[0] == "u":
        return lambda x, mask: rel(unsigned(x[0]), unsigned(x[1]))
    return lambda x, mask: rel(x[0], x[1])


@handles("arith.cmpf")
def _cmpf(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    p = _CMPF[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
    a, b = x
    unordered = np.isnan(a) | np.isnan(b)
    if p in ("false", "true"):
        return np.full(s.t, p == "true")
    if p in ("ord", "uno"):
        return unordered if p == "uno" else ~unordered
    rel = _REL[p[1:]](a, b)
    return (rel & ~unordered) if p[0] == "o" else (rel | unordered)


def bitcast(v: np.ndarray, rt: Attribute, threads: int) -> np.ndarray:
    raw = np.ascontiguousarray(v).view(np.uint8).reshape(threads, -1)
    return raw.view(dtype_of(rt)).reshape((threads, *_shape(rt)))


@builds("arith.bitcast", "llvm.bitcast")
def _bitcast(s: Simulator, op: Operation) -> Step:
    rt = op.results[0].type
    return lambda x, mask: bitcast(x[0], rt, s.t)


# -- vectors, structs, poison ---------------------------------------------------------------------


def _position(op: Operation) -> tuple[int, ...]:
    return tuple(int(p) for p in op.properties["static_position"].get_values())  # type: ignore[attr-defined]


@handles("ub.poison")
def _poison(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    return s.full(op.results[0].type)


@builds("vector.insert")
def _vinsert(s: Simulator, op: Operation) -> Step:
    where = (slice(None), *_position(op))

    def run(x: list[Any], mask: np.ndarray) -> Any:
        out = x[1].copy()
        out[where] = x[0]
        return out
    return run


@builds("vector.extract")
def _vextract(s: Simulator, op: Operation) -> Step:
    where = (slice(None), *_position(op))
    return lambda x, mask: x[0][where].copy()


@builds("llvm.extractvalue")
def _extractvalue(s: Simulator, op: Operation) -> Step:
    [pos] = [int(p) for p in op.properties["position"].get_values()]  # type: ignore[attr-defined]
    return lambda x, mask: x[0][pos]


# -- llvm memory ------------------------------------------------------------------------------


def _is_shared(t: Attribute) -> bool:
    return isinstance(t, LLVMPointerType) and getattr(t.addr_space, "data", 0) == 3


@handles("llvm.call")
def _call(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    """Device-side malloc and free (PTX system calls), per active thread."""
    callee = op.properties["callee"].root_reference.data  # type: ignore[attr-defined]
    out = np.zeros(s.t, np.int64)
    for t in np.flatnonzero(mask):
        if callee == "malloc":
            out[t] = s.mem.alloc(int(x[0][t]))
            s.mem.mallocs.append(int(out[t]))
        elif callee == "free":
            s.mem.free(int(x[0][t]))
        else:
            raise NotImplementedError(f"llvm.call @{callee}")
    return out if op.results else None


@builds("llvm.ptrtoint", "llvm.inttoptr")
def _ptr_int(s: Simulator, op: Operation) -> Step:
    return lambda x, mask: x[0].astype(np.int64)


@handles("llvm.mlir.addressof")
def _addressof(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    return np.full(s.t, s.globals[op.properties["global_name"].root_reference.data], np.int64)  # type: ignore[attr-defined]


@builds("llvm.getelementptr")
def _gep(s: Simulator, op: Operation) -> Step:
    raw = [int(v) for v in op.properties["rawConstantIndices"].get_values()]  # type: ignore[attr-defined]
    t = op.properties["elem_type"]
    sizes = []
    for k in range(len(raw)):
        if k > 0:
            assert isinstance(t, LLVMArrayType), t
            t = t.type
        sizes.append(_size(t))
    if len(raw) == 1 and raw[0] == -2147483648:
        size = sizes[0]
        return lambda x, mask: x[0] + x[1].astype(np.int64) * size

    def run(x: list[Any], mask: np.ndarray) -> Any:
        base, *dyn = x
        dyn_iter = iter(dyn)
        addr = base
        for r, size in zip(raw, sizes, strict=True):
            addr = addr + (next(dyn_iter).astype(np.int64) if r == -2147483648 else r) * size
        return addr
    return run


@builds("llvm.load")
def _load(s: Simulator, op: Operation) -> Step:
    rt = op.results[0].type
    shape, dt, shared = _shape(rt), dtype_of(rt), _is_shared(op.operands[0].type)
    lanes = int(np.prod(shape)) if shape else 1

    def run(x: list[Any], mask: np.ndarray) -> Any:
        out = s.mem.load(x[0], dt, lanes, mask, shared)
        return out.reshape((s.t, *shape)) if shape else out[:, 0]
    return run


@builds("llvm.store")
def _store(s: Simulator, op: Operation) -> Step:
    dt, shared = dtype_of(op.operands[0].type), _is_shared(op.operands[1].type)
    return lambda x, mask: s.mem.store(x[1], x[0], dt, mask, shared)


_RMW: dict[str, Callable[[Any, Any], Any]] = {
    "xchg": lambda o, v: v, "add": lambda o, v: o + v, "sub": lambda o, v: o - v, "_and": lambda o, v: o & v,
    "_or": lambda o, v: o | v, "_xor": lambda o, v: o ^ v, "max": max, "min": min, "fadd": lambda o, v: o + v,
    "fmax": lambda o, v: np.fmax(o, v), "fmin": lambda o, v: np.fmin(o, v), "nand": lambda o, v: ~(o & v),
    "umax": lambda o, v: o if unsigned(np.array([o]))[0] >= unsigned(np.array([v]))[0] else v,
    "umin": lambda o, v: o if unsigned(np.array([o]))[0] <= unsigned(np.array([v]))[0] else v,
}


@handles("llvm.atomicrmw")
def _atomicrmw(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    """One thread at a time, in thread order; returns each thread's old value."""
    ptr, val = x
    kind = ATOMIC_BIN_OPS[op.properties["bin_op"].value.data]  # type: ignore[attr-defined]
    dt = dtype_of(op.results[0].type)
    old = np.zeros(s.t, dt)
    one = np.ones(1, bool)
    shared = _is_shared(op.operands[0].type)
    for t in np.flatnonzero(mask):
        o = s.mem.load(ptr[t : t + 1], dt, 1, one, shared)[0, 0]
        old[t] = o
        new = np.array([_RMW[kind](o, val[t])], dt)
        s.mem.store(ptr[t : t + 1], new, dt, one, shared)
    return old


@handles("llvm.cmpxchg")
def _cmpxchg(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    ptr, cmp, new = x
    dt = dtype_of(op.operands[1].type)
    old, ok = np.zeros(s.t, dt), np.zeros(s.t, bool)
    one = np.ones(1, bool)
    for t in np.flatnonzero(mask):
        o = s.mem.load(ptr[t : t + 1], dt, 1, one)[0, 0]
        old[t], ok[t] = o, o == cmp[t]
        if ok[t]:
            s.mem.store(ptr[t : t + 1], new[t : t + 1], dt, one)
    return [old, ok]


@handles("llvm.inline_asm")
def _inline_asm(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    asm = op.properties["asm_string"].data  # type: ignore[attr-defined]
    if asm.startswith("cvt.rn.f16x2.e4m3x2") or asm.startswith("cvt.rn.f16x2.e5m2x2"):
        f8 = ml_dtypes.float8_e4m3fn if "e4m3" in asm else ml_dtypes.float8_e5m2
        pair = np.ascontiguousarray(x[0].astype(np.int16)).view(np.uint8).reshape(s.t, 2).view(f8)
        return pair.astype(np.float16).view(np.int32).reshape(s.t)  # byte 0 -> low half
    if (m := _DIRECTED_CVT.match(asm)) is not None:
        return _directed_cvt(m.group(1), m.group(2), np.asarray(x[0]))
    if asm == "trap;":
        if mask.any():
            s.assert_failures.append(f"trap (threads {np.flatnonzero(mask)[:4].tolist()})")
        return None
    if (m := _MULTIMEM_PAIR.match(asm)) is not None:
        return _multimem_pair(s, m.group(1), m.group(2), m.group(3), x, mask)
    raise NotImplementedError(f"llvm.inline_asm {asm!r}")


# gpu_multimem.py's f16/bf16 pair forms. One GPU: the multicast range has one copy, so a
# load-reduce reads it, a reduce adds into it (atomically, thread by thread), a store writes it.
_MULTIMEM_PAIR = re.compile(r"multimem\.(ld_reduce|red|st)\.\S*?(?:\.global)(?:\.(add|min|max))?(?:\.acc::f32)?\.(f16|bf16)x2 ")


def _multimem_pair(s: Simulator, what: str, op: str | None, elem: str, x: list[Any], mask: np.ndarray) -> Any:
    words = np.dtype(np.int32)
    if what == "ld_reduce":
        return np.where(mask, s.mem.load(np.asarray(x[0]), words, 1, mask).reshape(s.t), 0).astype(np.int32)
    if what == "st":
        s.mem.store(np.asarray(x[0]), np.asarray(x[1]).astype(np.int32), words, mask)
        return None
    assert op == "add", op
    half = BF16 if elem == "bf16" else np.dtype(np.float16)
    addrs, values = np.asarray(x[0]), np.ascontiguousarray(np.asarray(x[1]).astype(np.int32))
    for t in np.flatnonzero(mask):
        one = np.zeros(s.t, bool)
        one[t] = True
        old = s.mem.load(addrs, words, 1, one)[t].view(half).astype(np.float64)
        new = (old + values[t : t + 1].view(half).astype(np.float64)).astype(half)
        s.mem.store(addrs, np.broadcast_to(new.view(np.int32), (s.t,)), words, one)
    return None


_DIRECTED_CVT = re.compile(r"cvt\.(rz|rm|rp)\.(f16|bf16|f32)\.(?:f32|f64) \$0, \$1;$")


def _directed_cvt(mode: str, dst: str, x: np.ndarray) -> np.ndarray:
    """PTX cvt.rz/.rm/.rp (PTX ISA: round toward zero / -inf / +inf) to f16/bf16 (the b16 bits,
    as an i16) or f32: NumPy's nearest conversion, stepped back one ulp where it went past."""
    v = x.astype(np.float64)
    if dst == "bf16":  # only .rz reaches here: keep the high 16 bits of the (toward zero) f32
        f = _directed_cvt("rz", "f32", x) if x.dtype == np.float64 else x.astype(np.float32)
        bits = f.view(np.uint32)
        out = np.where(np.isnan(f), np.uint32(0x7FC00000), bits & np.uint32(0xFFFF0000))
        return (out >> np.uint32(16)).astype(np.uint16).view(np.int16)
    dt = np.float16 if dst == "f16" else np.float32
    with np.errstate(over="ignore", invalid="ignore"):
        t = v.astype(dt)
        tv = t.astype(np.float64)
        if mode == "rz":
            back = np.abs(tv) > np.abs(v)
            t = np.where(back, np.nextafter(t, dt(0)), t)
        elif mode == "rm":
            t = np.where(tv > v, np.nextafter(t, dt(-np.inf)), t)
        else:
            t = np.where(tv < v, np.nextafter(t, dt(np.inf)), t)
    t = t.astype(dt)
    return t.view(np.int16) if dst == "f16" else t


# -- warp-level matrix ops (PTX ISA) --------------------------------------------------------


@handles("nvvm.ldmatrix")
def _ldmatrix(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    """ldmatrix .m8n8 .x{num} .b16: lanes 8m..8m+7 give the row addresses of matrix m; lane l
    receives, of each matrix, row l/4 elements 2(l%4), +1 (.trans: of the transpose)."""
    num = op.properties["num"].value.data  # type: ignore[attr-defined]
    trans = "col" in str(op.properties["layout"])
    rows = s.mem.load(x[0], np.dtype(np.uint16), 8, mask, shared=True)  # (T, 8): the row each lane addresses
    lane = s.tid % 32
    warp0 = s.tid - lane
    regs = []
    for m in range(num):
        r, c = lane // 4, 2 * (lane % 4)
        if trans:  # element (c, r) and (c + 1, r) of the addressed rows
            lo, hi = rows[warp0 + 8 * m + c, r], rows[warp0 + 8 * m + c + 1, r]
        else:
            lo, hi = rows[warp0 + 8 * m + r, c], rows[warp0 + 8 * m + r, c + 1]
        regs.append(np.stack([lo, hi], 1).view(np.int32).reshape(s.t))
    return regs[0] if num == 1 else regs


def mma_m16n8k16(threads: int, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """m16n8k16 per warp from the ISA's fragment tables; a: (T, 8), b: (T, 4), c: (T, 4)."""
    d = np.zeros((threads, 4), np.float64)
    for warp in range(threads // 32):
        am, bm, cm = np.zeros((16, 16)), np.zeros((16, 8)), np.zeros((16, 8))
        for lane in range(32):
            t = warp * 32 + lane
            for i in range(8):
                am[isa_a_row_col(lane, i)] = a[t, i]
            for i in range(4):
                bm[isa_b_row_col(lane, i)] = b[t, i]
                cm[isa_c_row_col(lane, i)] = c[t, i]
        dm = am @ bm + cm
        for lane in range(32):
            for i in range(4):
                d[warp * 32 + lane, i] = dm[isa_c_row_col(lane, i)]
    return d


def mma_m16n8k8_tf32(threads: int, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """m16n8k8 .tf32 per warp; a: (T, 4), b: (T, 2), c: (T, 4). The low 13 mantissa bits of the
    inputs are ignored, as the hardware does."""
    def tf32(v: np.ndarray) -> np.ndarray:
        return (v.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
    a, b = tf32(a), tf32(b)
    d = np.zeros((threads, 4), np.float64)
    for warp in range(threads // 32):
        am, bm, cm = np.zeros((16, 8)), np.zeros((8, 8)), np.zeros((16, 8))
        for lane in range(32):
            t, group, tig = warp * 32 + lane, lane >> 2, lane % 4
            for i in range(4):
                am[group + 8 * (i % 2), tig + 4 * (i // 2)] = a[t, i]
                cm[isa_c_row_col(lane, i)] = c[t, i]
            for i in range(2):
                bm[tig + 4 * i, group] = b[t, i]
        dm = am @ bm + cm
        for lane in range(32):
            for i in range(4):
                d[warp * 32 + lane, i] = dm[isa_c_row_col(lane, i)]
    return d


@handles("nvgpu.mma.sync")
def _nvgpu_mma(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    a, b, c = (v.astype(np.float64).reshape(s.t, -1) for v in x)
    tf32 = "tf32Enabled" in op.properties
    d = mma_m16n8k8_tf32(s.t, a, b, c) if tf32 else mma_m16n8k16(s.t, a, b, c)
    return d.reshape(s.t, 2, 2).astype(dtype_of(op.results[0].type))


@handles("nvvm.mma.sync")
def _nvvm_mma(s: Simulator, op: Operation, x: list[Any], mask: np.ndarray) -> Any:
    a_regs, b_regs, c = x[:4], x[4:6], x[6:]
    elem = BF16 if "bf16" in str(op.properties["multiplicandAPtxType"]) else np.dtype(np.float16)
    a = np.stack([bitcast(r, VectorType(BFloat16Type(), [2]), s.t).view(elem) for r in a_regs], 1).reshape(s.t, 8)
    b = np.stack([bitcast(r, VectorType(BFloat16Type(), [2]), s.t).view(elem) for r in b_regs], 1).reshape(s.t, 4)
    d = mma_m16n8k16(s.t, a.astype(np.float64), b.astype(np.float64), np.stack(c, 1).astype(np.float64))
    return [d[:, i].astype(np.float32) for i in range(4)]


def simulate_kernel(module: Operation, args: list[Any], grid: tuple[int, int, int] = (1, 1, 1)) -> list[Any]:
    """The one gpu.func of `module` run on `grid` with `args` (arrays go to device memory, 1-byte
    ones as bytes; scalars as the parameter's type); returns `args` with each array as it is
    after. Fails on a failed device assert or a shared-memory race."""
    [fn] = [op for op in module.walk() if op.name == "gpu.func"]
    threads = int(fn.properties["known_block_size"].get_values()[0])  # type: ignore[attr-defined]
    mem = Memory()
    values: list[Any] = []
    where: dict[int, int] = {}
    for i, (a, param) in enumerate(zip(args, fn.regions[0].blocks[0].args, strict=True)):
        if isinstance(a, np.ndarray):
            where[i] = mem.put(a.view(np.uint8) if a.dtype.itemsize == 1 else a)
            values.append(where[i])
        else:
            values.append(np.asarray(a).astype(dtype_of(param.type)))
    sim = Simulator(module, threads, mem)
    sim.launch(fn, values, grid)
    assert not sim.assert_failures and not mem.races, (sim.assert_failures, mem.races[:3])
    return [mem.get(where[i], a.nbytes, np.dtype(np.uint8)).view(a.dtype).reshape(a.shape) if i in where else a
            for i, a in enumerate(args)]
