"""The tile-to-threads stage's core (stage 3, `tileaa_to_gpu.py`): what a converted nv_tileaa
value is in per-thread code (`Dist`, `TensorView`, `TileView`, `Token`, `Streamed`), the
`KernelConverter` base every op family builds with (emitting ops, thread-dependent indices,
values and their layouts, the shared-memory exchange), `Unsupported` and its message, and the
helpers the families share: element types, op attributes, guarded and ordered loads and stores,
and the per-thread addressing of partition views (`view_access`).

Op families are handler modules built on this one (they import it and each other, never the
entry point): `gpu_arith.py` (element-wise), `gpu_shape.py`, `gpu_memory.py` (views, loads,
stores, atomics, tokens, print), `gpu_control.py` (for, if, loop and early exits),
`gpu_reduce.py`, `gpu_mma.py` (dot), `gpu_scaled.py`, `gpu_views.py`, `gpu_multimem.py`,
`gpu_globals.py`, `gpu_streamed.py`, `gpu_testing.py`; `tileaa_to_gpu.py` holds the stage's
entry point and dispatches ops to them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    Float32Type,
    FloatAttr,
    FloatTF32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    StringAttr,
    TensorType,
    UnknownLoc,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.llvm import GEP_USE_SSA_VAL, LLVMPointerType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.dialects.cuda_tile.floats import float_format
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.gpu_convert import f8_format, storage_type
from tile_lsp.compiler.lowering.layout import Layout, unravel
from tile_lsp.compiler.lowering.types import llvm_ptr
from tile_lsp.compiler.mlir.dialects import gpu, llvm_memory
from tile_lsp.compiler.mlir.dialects.llvm_syntax import ORDERINGS
from tile_lsp.compiler.mlir.dialects.nv_tileaa import MemTokenType, TensorViewType, TileViewType
from tile_lsp.compiler.mlir.xdsl_fast import int_attr, walk_ops

UNSUPPORTED = "not yet supported by the gpu stage: '{name}'"


class Unsupported(Exception):
    """Raised inside the converter for an op this slice cannot lower; reported at `op`."""

    def __init__(self, op: Operation, detail: str = "") -> None:
        super().__init__(detail)
        self.op = op
        self.detail = detail


# The op name at the start of an op's source text (results, `=`, optional quote and dialect).
_SOURCE_OP = re.compile(r'(?:%[\w.$#:-]+(?:\s*,\s*%[\w.$#:-]+)*\s*=\s*)?"?(?:cuda_tile\.)?([a-z_][\w$]*)')


def unsupported_message(lctx: LoweringContext, op: Operation, detail: str = "") -> str:
    """`not yet supported by the gpu stage: '<op>'`, naming the cuda_tile op `op` came from
    (read at its source location): `'cuda_tile.x' (detail)`, or `'cuda_tile.x' (nv_tileaa.y:
    detail)` when stage 2 renamed it."""
    name = op.name
    span = lctx.span_of(op)
    found = _SOURCE_OP.match(lctx.source.text, span.start, span.end) if span.end > span.start else None
    source = found.group(1) if found and found.group(1) not in ("entry", "module") else None  # (an op's own text)
    if source and (not name.startswith("nv_tileaa.") or source != name.removeprefix("nv_tileaa.")):
        inner = f"{name}: {detail}" if detail else name
        return UNSUPPORTED.format(name=f"cuda_tile.{source}") + f" ({inner})"
    if source:  # the same op in both dialects: the name the user wrote
        return UNSUPPORTED.format(name=f"cuda_tile.{source}") + (f" ({detail})" if detail else "")
    return UNSUPPORTED.format(name=name) + (f" ({detail})" if detail else "")


# ---------------------------------------------------------------------------------------------
# What a converted nv_tileaa value is in per-thread code


@dataclass
class Dist:
    """A shaped tile: `slots[r]` is this thread's element in register slot r of `layout`."""

    layout: Layout
    shape: tuple[int, ...]
    slots: list[SSAValue]


@dataclass
class TensorView:
    """Strided global memory: base pointer, per-dimension extent and stride (i64 values)."""

    base: SSAValue
    element_type: Attribute
    shape: list[SSAValue]
    strides: list[SSAValue]


@dataclass
class TileView:
    """A partition view: tile dimension d covers tensor dimension `dim_map[d]` (cuTile's load
    `order`): element c of the tile at index i is tensor element g[dim_map[d]] = i[d] * tile[d] + c[d]."""

    tile: tuple[int, ...]
    view: TensorView
    padding: str
    dim_map: tuple[int, ...]


@dataclass
class Token:
    """A memory token has no runtime value; `after_write`: it orders after a store, so the next
    access that takes it needs a CTA barrier first."""

    after_write: bool


class Failed:
    """The value of an op that was reported as not supported."""


@dataclass(frozen=True)
class Streamed:
    """A tile too large for registers (more than MAX_SLOTS slots per thread), whole in global
    memory, row-major and dense: a test function's tile argument. It is only ever copied:
    `store_view` writes it with a loop over its elements (gpu_streamed.py); any other use is
    reported at the op."""

    base: SSAValue  # !llvm.ptr<1>
    shape: tuple[int, ...]
    elem: Attribute


Value = SSAValue | Dist | TensorView | TileView | Token | Streamed | Failed


def scalar_type(t: Attribute) -> Attribute:
    """The per-thread scalar type of a tile (or scalar) type: tf32 values live in f32 registers
    and memory words (rounded to tf32 where a conversion makes them)."""
    if type(t) is TensorType:  # (exact type tests: asked of every value; an ABC miss costs ~0.3 us)
        t = t.element_type
    return Float32Type() if type(t) is FloatTF32Type else storage_type(t)


def narrow_float(t: Attribute) -> Attribute | None:
    """The sub-16-bit float type a value of type `t` holds that this stage cannot lower (fp6;
    fp8 e4m3fn/e5m2, fp4 e2m1 and e8m0 live in i8 registers, see gpu_convert.py)."""
    if isinstance(t, TensorType):
        t = t.element_type
    if isinstance(t, TileViewType):
        t = t.tensor_view
    if isinstance(t, TensorViewType):
        t = t.element_type
    if isinstance(t, AnyFloat) and not isinstance(t, FloatTF32Type) and t.bitwidth < 16 and f8_format(t) is None:
        return t
    return None


def byte_size(t: Attribute) -> int:
    """Bytes one element of `t` takes in memory (i1 and 8-bit floats: one byte)."""
    if isinstance(t, LLVMPointerType):
        return 8
    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, AnyFloat):
        return max(1, t.bitwidth // 8)
    return 8


def num_elements(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


MAX_SLOTS = 256  # register slots per thread of the largest tile the stage lowers


def tensor_elem(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def bit_width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    return 0


def target_sm(cv: KernelConverter) -> int:
    target = cv.lctx.options.target
    return target.cc if target is not None else 0


def get_attr(op: Operation, key: str) -> Attribute | None:
    """An attribute (or property) of `op`; `None` when absent (some attributes are falsy)."""
    found = op.attributes.get(key)
    return found if found is not None else op.properties.get(key)


def str_attr(op: Operation, key: str, default: str = "") -> str:
    a = get_attr(op, key)
    return a.data if isinstance(a, StringAttr) else default


def is_unsigned(op: Operation) -> bool:
    return str_attr(op, "signedness", "signed") == "unsigned"


def create_op(name: str, operands: Sequence[SSAValue], result: Attribute,
              properties: dict[str, Attribute] | None = None) -> Operation:
    from tile_lsp.compiler.mlir.context import upstream_context

    cls = upstream_context().get_op(name)
    props = {k: v for k, v in (properties or {}).items() if v is not None}
    return cls.create(operands=list(operands), result_types=[result], properties=props)


def cast_value(cv: KernelConverter, name: str, value: SSAValue, t: Attribute) -> SSAValue:
    """A one-operand arith cast `name` to `t`."""
    return cv.v(create_op(name, [value], t))


# ---------------------------------------------------------------------------------------------
# One kernel's conversion state and building blocks


class KernelConverter:
    """What op handlers convert with: the kernel being built (`block`, `loc`, `values`), its
    threads, shared-memory exchange and globals. The stage's converter (`tileaa_to_gpu.py`)
    adds the op dispatch (`convert_one`) and the kernel's end (`kernel_return`)."""

    def __init__(self, lctx: LoweringContext, threads: int) -> None:
        self.lctx = lctx
        self.threads = threads
        self.values: dict[SSAValue, Value] = {}
        self.block = Block()
        self.loc: LocationAttr | None = None
        self.entry = Block()
        self.tid_anchor: Operation | None = None
        self.tid_times: dict[int, SSAValue] = {}
        self.failed = False
        self.name = ""
        self.globals: list[Operation] = []  # the kernel's shared-memory buffer (made at the end)
        self.smem_bytes = 0  # size of that buffer: the largest exchange
        self.smem_offset = 0  # next free byte of the exchange being built
        self.constants = 0  # constant globals made so far
        # (block, type, value) -> a constant already made in that block (reused: it dominates
        # every later op of the block and of the regions nested in it).
        self.const_cache: dict[tuple[Block, Attribute, int | str], SSAValue] = {}
        self.result_ptrs: list[SSAValue] = []  # a testing$func's result pointers (gpu_testing.py)
        self.global_scratch: list[str] = []  # `alloca global` address slots, freed at return (gpu_globals.py)

    # -- building ------------------------------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        """Append `op` at the current source op's location; ops nested in its regions keep the
        location they were emitted with (a loop body's ops are its body's source ops) and only
        those made without one (terminators) take the op's."""
        if self.loc is not None:
            op.location = self.loc
            for nested in walk_ops(op):
                if nested is not op and type(nested.location) is UnknownLoc:
                    nested.location = self.loc
        self.block.add_op(op)
        return op

    def v(self, op: Operation) -> SSAValue:
        return self.emit(op).results[0]

    def const(self, value: int | float, t: Attribute) -> SSAValue:
        if isinstance(value, float) and (fmt := float_format(tensor_elem(t))) is not None and f8_format(t):
            value = fmt.encode(value)  # a narrow float constant: its code
        t = scalar_type(t)
        key = (self.block, t, value if isinstance(value, int) else repr(value))  # repr: -0.0 != 0.0
        cached = self.const_cache.get(key)
        if cached is None:
            cached = self.const_cache[key] = self._new_const(value, t)
        return cached

    def _new_const(self, value: int | float, t: Attribute) -> SSAValue:
        if isinstance(t, IntegerType):
            width = t.width.data
            value = int(value)
            if width == 1:
                value = -1 if value else 0
            elif value >= 1 << (width - 1):
                value -= 1 << width
            return self.v(arith.ConstantOp(int_attr(int(value), t)))
        if isinstance(t, IndexType):
            return self.v(arith.ConstantOp(int_attr(int(value), t)))
        assert isinstance(t, AnyFloat)
        return self.v(arith.ConstantOp(FloatAttr(float(value), t)))

    def i32c(self, value: int) -> SSAValue:
        return self.const(value, i32)

    def i64c(self, value: int) -> SSAValue:
        return self.const(value, i64)

    def to_i64(self, value: SSAValue, signed: bool = True) -> SSAValue:
        t = value.type
        if t == i64:
            return value
        if isinstance(t, IndexType):
            return self.v(arith.IndexCastOp(value, i64))
        return self.v(arith.ExtSIOp(value, i64) if signed else arith.ExtUIOp(value, i64))

    # -- thread-dependent indices --------------------------------------------------------------

    def at_top(self, build: Callable[[], object]) -> None:
        """Run `build` with its ops placed at the top of the kernel (after the thread id)."""
        self.thread_times(1)
        self._at_anchor(build, self.loc)

    def _at_anchor(self, build: Callable[[], object], loc: LocationAttr | None) -> None:
        """Run `build` at location `loc`, its ops going after `tid_anchor` (which moves past them)."""
        saved_block, saved_loc = self.block, self.loc
        anchor = self.tid_anchor
        assert anchor is not None
        self.block, self.loc = Block(), loc
        build()
        for op in list(self.block.ops):
            op.detach()
            self.entry.insert_op_after(op, anchor)
            anchor = op
        self.tid_anchor = anchor
        self.block, self.loc = saved_block, saved_loc

    def first_thread(self) -> SSAValue:
        """`thread_id.x == 0` (i1): the thread that does what the tile block does once."""
        return self.v(arith.CmpiOp(self.thread_times(1), self.i32c(0), "eq"))

    def when(self, cond: SSAValue | None, build: Callable[[], object]) -> None:
        """The ops `build` emits, under `scf.if cond` (unconditionally when `cond` is None)."""
        if cond is None:
            build()
            return
        outer = self.block
        self.block = Block()
        then = self.block
        build()
        self.emit(scf.YieldOp())
        self.block = outer
        self.emit(scf.IfOp(cond, [], Region(then), Region(Block([scf.YieldOp()]))))

    def thread_times(self, factor: int) -> SSAValue:
        """`thread_id.x * factor` as i32, computed once at the top of the kernel."""
        if factor not in self.tid_times:
            anchor = self.tid_anchor
            assert anchor is not None

            def build() -> None:
                self.tid_times[factor] = self.v(arith.MuliOp(self.tid_times[1], self.i32c(factor)))

            self._at_anchor(build, anchor.location)
        return self.tid_times[factor]

    def element_index(self, layout: Layout, slot: int) -> SSAValue:
        """Row-major element index (i32) this thread holds in `slot`."""
        if layout.uniform:
            return self.i32c(0)
        base = self.thread_times(layout.vector)
        off = layout.offset(slot)
        return base if off == 0 else self.v(arith.AddiOp(base, self.i32c(off)))

    def real_element_index(self, layout: Layout, slot: int) -> SSAValue:
        """Row-major element index (i32) of this thread's `slot` (ghost slots: element 0)."""
        e = self.element_index(layout, slot)
        guard = self.not_ghost(layout, e)
        return self.v(arith.SelectOp(guard, e, self.i32c(0))) if guard is not None else e

    def not_ghost(self, layout: Layout, index: SSAValue) -> SSAValue | None:
        """i1 `index < N` when the layout has ghost slots; None when every slot is real."""
        if not layout.has_ghosts:
            return None
        return self.v(arith.CmpiOp(index, self.i32c(layout.num_elements), "ult"))

    def coords(self, index: SSAValue, shape: Sequence[int]) -> list[SSAValue]:
        """Row-major coordinates (i32) of element `index` of a tile of `shape`."""
        out: list[SSAValue] = []
        rest = index
        for i, d in enumerate(reversed(shape)):
            last = i == len(shape) - 1
            out.append(rest if last else self.v(arith.RemUIOp(rest, self.i32c(d))))
            if not last:
                rest = self.v(arith.DivUIOp(rest, self.i32c(d)))
        return out[::-1]

    # -- values --------------------------------------------------------------------------------

    def layout_of(self, t: Attribute) -> Layout | None:
        if isinstance(t, TensorType):
            return Layout.for_shape(t.get_shape(), self.threads)
        return None

    def get(self, value: SSAValue) -> Value:
        return self.values[value]

    def scalar(self, op: Operation, value: SSAValue) -> SSAValue:
        got = self.values[value]
        if not isinstance(got, SSAValue):
            raise Unsupported(op, "expected a uniform value")
        return got

    def slots(self, op: Operation, value: SSAValue, layout: Layout) -> list[SSAValue]:
        """The per-slot values of `value` in `layout` (uniform values repeat)."""
        got = self.values[value]
        if isinstance(got, SSAValue):
            return [got] * layout.slots
        if isinstance(got, Dist) and got.layout == layout:
            return got.slots
        raise Unsupported(op, "layout change")

    def tile(self, t: Attribute, slots: list[SSAValue]) -> Value:
        """A converted value of nv_tileaa type `t` from its per-slot values."""
        layout = self.layout_of(t)
        if layout is None or layout.uniform:
            return slots[0]
        assert isinstance(t, TensorType)
        return Dist(layout, tuple(t.get_shape()), slots)

    def flat_types(self, op: Operation, t: Attribute) -> list[Attribute]:
        """What a value of type `t` becomes as scf operands / block arguments."""
        if isinstance(t, MemTokenType):
            return []
        if isinstance(t, TensorType):
            layout = self.layout_of(t)
            assert layout is not None
            return [scalar_type(t)] * layout.slots
        if isinstance(t, (TensorViewType, TileViewType)):
            raise Unsupported(op, "a view carried through control flow")
        return [t]

    def flatten(self, op: Operation, value: SSAValue) -> list[SSAValue]:
        t = value.type
        if isinstance(t, MemTokenType):
            return []
        layout = self.layout_of(t)
        if layout is not None:
            return self.slots(op, value, layout)
        return [self.scalar(op, value)]

    def unflatten(self, types: Sequence[Attribute], flat: Sequence[SSAValue], token: bool) -> list[Value]:
        out: list[Value] = []
        i = 0
        for t in types:
            if isinstance(t, MemTokenType):
                out.append(Token(token))
                continue
            layout = self.layout_of(t)
            n = layout.slots if layout is not None else 1
            out.append(self.tile(t, list(flat[i : i + n])))
            i += n
        return out

    # -- shared-memory exchange --------------------------------------------------------------

    def smem(self, elem: Attribute, count: int) -> SSAValue:
        """Address of `count` elements of `elem` in the kernel's one CTA-shared buffer (an
        addrspace-3 global), after what the current exchange already took. Every exchange
        ends with a barrier, so the next one starts again at byte 0 (`exchange_barrier`)."""
        offset = self.smem_offset
        size = byte_size(elem) * count
        self.smem_offset = offset + (size + 15) // 16 * 16
        self.smem_bytes = max(self.smem_bytes, self.smem_offset)
        base = self.v(llvm.AddressOfOp(self.smem_name, llvm_ptr(3)))
        if offset:
            base = self.v(llvm_memory.GEPOp(base, [offset], IntegerType(8)))
        return base

    @property
    def smem_name(self) -> str:
        return f"__tile_smem_{self.name}"

    def share(self, op: Operation, value: SSAValue) -> SSAValue:
        """Write this thread's elements of tile `value` row-major into shared memory and return
        the address; the caller puts one barrier after all its writes (`exchange_barrier`)."""
        t = value.type
        elem = scalar_type(t)
        shape = t.get_shape() if isinstance(t, TensorType) else ()
        base = self.smem(elem, num_elements(shape))
        layout = self.layout_of(t) or Layout(1, self.threads)
        values = self.slots(op, value, layout) if not layout.uniform else [self.scalar(op, value)]
        for r in range(layout.slots):
            e = self.element_index(layout, r)
            ptr = self.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], elem, ssa_indices=[e]))
            guarded_store(self, values[r], ptr, self.not_ghost(layout, e))
        return base

    def finish_exchange(self) -> None:
        """The closing barrier of an exchange: the buffer is free again."""
        self.emit(gpu.BarrierOp())
        self.smem_offset = 0

    def exchange_barrier(self) -> None:
        """The barrier between an exchange's writes and its reads."""
        self.emit(gpu.BarrierOp())

    def read_shared(self, base: SSAValue, index: SSAValue, elem: Attribute) -> SSAValue:
        ptr = self.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], elem, ssa_indices=[index]))
        return self.v(llvm_memory.LoadOp(ptr, elem))

    def linear(self, coords: Sequence[SSAValue], shape: Sequence[int]) -> SSAValue:
        """Row-major linear index (i32) of `coords` in `shape`."""
        index: SSAValue | None = None
        stride = 1
        for c, d in zip(reversed(coords), reversed(shape), strict=True):
            term = c if stride == 1 else self.v(arith.MuliOp(c, self.i32c(stride)))
            index = term if index is None else self.v(arith.AddiOp(index, term))
            stride *= d
        return index if index is not None else self.i32c(0)

    def dst_coords(self, layout: Layout, slot: int, shape: Sequence[int]) -> list[SSAValue]:
        """Coordinates of this thread's element in `slot` (ghost slots read element 0)."""
        e = self.real_element_index(layout, slot)
        return self.coords(e, shape) if shape else []

    def gather(self, op: Operation, value: SSAValue, result_type: Attribute,
               source: Callable[[list[SSAValue]], list[SSAValue]]) -> Value:
        """The data movement every layout-changing op shares: share `value`, barrier, then each
        thread reads, for each of its result elements (coordinates c), source element
        `source(c)`; a second barrier lets the next exchange reuse the threads' time safely."""
        t = value.type
        src_shape = t.get_shape() if isinstance(t, TensorType) else ()
        elem = scalar_type(t)
        base = self.share(op, value)
        self.exchange_barrier()
        dst_shape = result_type.get_shape() if isinstance(result_type, TensorType) else ()
        layout = self.layout_of(result_type) or Layout(1, self.threads)
        slots = []
        # A vector of V slots lies in one row when V divides the row: its lanes reuse the first
        # slot's coordinates (+ lane), and a source element already read (the same coordinate
        # values, e.g. a broadcast along the row) is not read again.
        share_rows = not layout.uniform and bool(dst_shape) and dst_shape[-1] % layout.vector == 0
        first: list[SSAValue] = []
        reads: dict[tuple[SSAValue, ...], SSAValue] = {}
        for r in range(layout.slots):
            lane = r % layout.vector
            lane_op = None
            if share_rows and lane:
                lane_op = self.emit(arith.AddiOp(first[-1], self.i32c(lane)))
                coords = [*first[:-1], lane_op.results[0]]
            else:
                coords = first = self.dst_coords(layout, r, dst_shape)
            src = tuple(source(coords))
            if src not in reads:
                reads[src] = self.read_shared(base, self.linear(list(src), src_shape), elem)
            slots.append(reads[src])
            if lane_op is not None and not lane_op.results[0].uses:
                lane_op.detach()
                lane_op.erase()
        self.finish_exchange()
        return self.tile(result_type, slots)

    def too_large(self, t: Attribute) -> bool:
        """Whether a tile of type `t` takes more than MAX_SLOTS register slots per thread (one
        scalar per slot: such a tile would not finish compiling); see `Streamed`."""
        return isinstance(t, TensorType) and num_elements(t.get_shape()) > MAX_SLOTS * self.threads

    # -- what the stage's converter adds (tileaa_to_gpu.py) ------------------------------------

    def convert_one(self, op: Operation) -> None:
        """Convert `op` into the current block; an op that cannot be lowered is reported and its
        results marked `Failed` (control-flow handlers convert region bodies with it)."""
        raise NotImplementedError

    def kernel_return(self) -> None:
        """`gpu.return`, after what the kernel frees at its end."""
        raise NotImplementedError



# ---------------------------------------------------------------------------------------------
# Memory: token order, guarded and ordered element accesses, partition-view addressing


def order_by_token(cv: KernelConverter, op: Operation, token: SSAValue | None) -> None:
    """A CTA barrier before `op` when its token orders it after a store."""
    if token is None:
        return
    t = cv.get(token)
    if isinstance(t, Token) and t.after_write:
        cv.emit(gpu.BarrierOp())


def _segments(op: Operation) -> list[int]:
    seg = get_attr(op, "operand_segments")
    if isinstance(seg, DenseArrayBase):
        return [int(x) for x in seg.get_values()]
    return [1] * len(op.operands)


def split_operands(op: Operation) -> list[list[SSAValue]]:
    out: list[list[SSAValue]] = []
    i = 0
    for n in _segments(op):
        out.append(list(op.operands[i : i + n]))
        i += n
    return out


_PADDING = {"": 0.0, "zero": 0.0, "neg_zero": -0.0, "nan": float("nan"), "pos_inf": float("inf"),
            "neg_inf": float("-inf")}


def zero_value(cv: KernelConverter, elem: Attribute) -> SSAValue:
    if isinstance(elem, LLVMPointerType):
        return cv.v(create_op("llvm.mlir.zero", [], elem))
    return cv.const(0, elem)


def padding_value(cv: KernelConverter, op: Operation, padding: str, elem: Attribute) -> SSAValue:
    """What an out-of-bounds (or masked-off) load gives: the view's padding value, else zero;
    of a narrow float, its code (e8m0 has no zero, infinity or sign: every padding is NaN)."""
    narrow = f8_format(op.results[0].type) if op.results else None
    fmt = float_format(tensor_elem(op.results[0].type)) if narrow is not None else None
    if narrow is not None and fmt is not None:
        return cv.const(fmt.encode(_PADDING[padding]) if narrow.signed else 0xFF, elem)
    if padding in ("", "zero") or not isinstance(elem, AnyFloat):
        if padding not in ("", "zero"):
            raise Unsupported(op, f"padding '{padding}' for {elem}")
        return zero_value(cv, elem)
    return cv.const(_PADDING[padding], elem)


def load_element(cv: KernelConverter, ptr: SSAValue, elem: Attribute, ordered: Ordered | None) -> SSAValue:
    """`llvm.load`; atomic when `ordered`. LLVM has no atomic i1 (an atomic access is at least a
    byte): an ordered i1 is the atomic load of its byte, truncated as a plain i1 load would be."""
    if ordered is None:
        return cv.v(llvm_memory.LoadOp(ptr, elem))
    held = i8 if elem == i1 else elem
    loaded = cv.v(llvm_memory.LoadOp(ptr, held, alignment=byte_size(elem), ordering=ORDERINGS[ordered.access],
                                     syncscope=ordered.syncscope))
    return cast_value(cv, "arith.trunci", loaded, i1) if elem == i1 else loaded


def store_element(cv: KernelConverter, value: SSAValue, ptr: SSAValue, ordered: Ordered | None) -> None:
    """`llvm.store`; atomic when `ordered` (an i1 as its zero-extended byte, see `load_element`)."""
    if ordered is None:
        cv.emit(llvm_memory.StoreOp(value, ptr))
        return
    size = byte_size(value.type)
    if value.type == i1:
        value = cast_value(cv, "arith.extui", value, i8)
    cv.emit(llvm_memory.StoreOp(value, ptr, alignment=size, ordering=ORDERINGS[ordered.access],
                                syncscope=ordered.syncscope))


def guarded_load(cv: KernelConverter, ptr: SSAValue, guard: SSAValue | None, elem: Attribute,
                 otherwise: Callable[[], SSAValue], ordered: Ordered | None = None) -> SSAValue:
    """`llvm.load ptr` (atomic when `ordered`), or under `guard` an scf.if giving `otherwise()`
    when it is false."""
    if guard is None:
        return load_element(cv, ptr, elem, ordered)
    outer = cv.block
    then_block, else_block = Block(), Block()
    cv.block = then_block
    loaded = load_element(cv, ptr, elem, ordered)
    cv.emit(scf.YieldOp(loaded))
    cv.block = else_block
    cv.emit(scf.YieldOp(otherwise()))
    cv.block = outer
    return cv.v(scf.IfOp(guard, [elem], Region(then_block), Region(else_block)))


def guarded_store(cv: KernelConverter, value: SSAValue, ptr: SSAValue, guard: SSAValue | None,
                  ordered: Ordered | None = None) -> None:
    cv.when(guard, lambda: store_element(cv, value, ptr, ordered))


def and_guards(cv: KernelConverter, a: SSAValue | None, b: SSAValue | None) -> SSAValue | None:
    if a is None:
        return b
    if b is None:
        return a
    return cv.v(arith.AndIOp(a, b))


def add_offset_term(cv: KernelConverter, offset: SSAValue | None, coord: SSAValue, stride: SSAValue) -> SSAValue:
    """`offset + coord * stride`: a term added to a linear element offset (the term alone when
    `offset` is None, the first)."""
    term = cv.v(arith.MuliOp(coord, stride))
    return term if offset is None else cv.v(arith.AddiOp(offset, term))


def view_element_ptr(cv: KernelConverter, view: TensorView, offset: SSAValue | None) -> SSAValue:
    """The address of the element at linear offset `offset` (in elements; made of one term at
    least) of `view`."""
    assert offset is not None
    return cv.v(llvm_memory.GEPOp(view.base, [GEP_USE_SSA_VAL], view.element_type, ssa_indices=[offset]))


def tile_origin(cv: KernelConverter, view: TileView, index: list[SSAValue]) -> list[SSAValue]:
    """The tensor coordinates (i64) of the first element of the tile at `index`, per tile dimension."""
    return [cv.v(arith.MuliOp(cv.to_i64(i), cv.i64c(tile))) for i, tile in zip(index, view.tile, strict=True)]


@functools.lru_cache(maxsize=256)
def slot_deltas(layout: Layout, tile: tuple[int, ...]) -> tuple[tuple[int, ...] | None, ...]:
    """Per register slot: its element's tile coordinates minus those of the thread's slot-0
    element, when that difference is the same for every thread holding a real element there
    (then the slot's address is the thread's base address plus a constant per dimension);
    None where it depends on the thread (a row boundary falls between threads differently)."""
    out: list[tuple[int, ...] | None] = []
    for r in range(layout.slots):
        delta: tuple[int, ...] | None = None
        same = True
        for t in range(layout.threads):
            e = layout.element(t, r)
            if e >= layout.num_elements:
                continue
            d = tuple(a - b for a, b in zip(unravel(e, tile), unravel(layout.element(t, 0), tile), strict=True))
            if delta is None:
                delta = d
            elif d != delta:
                same = False
                break
        out.append(delta if same else None)
    return tuple(out)


@dataclass
class ThreadBase:
    """One view access's per-thread part, made once: the tensor coordinates of the thread's
    slot-0 element, their in-bounds tests (made when first needed) and their offset."""

    coords: list[SSAValue]
    offset: SSAValue
    guards: dict[tuple[int, ...], SSAValue | None]  # dimensions a slot does not move in -> their test
    unchecked: frozenset[int] = frozenset()  # tile dimensions the op declares `inbounds`


def inbounds_dims(op: Operation) -> frozenset[int]:
    """The tile dimensions whose bounds test `inbounds = [...]` (13.4, cuTile's check_bounds=False)
    lets the access skip: the op promises the tile lies inside the view there."""
    flags = get_attr(op, "inbounds")
    if not isinstance(flags, DenseArrayBase):
        return frozenset()
    return frozenset(d for d, v in enumerate(flags.get_values()) if v)


def _thread_base(cv: KernelConverter, view: TileView, layout: Layout, origin: list[SSAValue]) -> ThreadBase:
    first = cv.coords(cv.element_index(layout, 0), view.tile)
    coords = [cv.v(arith.AddiOp(o, cv.to_i64(c, signed=False))) for o, c in zip(origin, first, strict=True)]
    offset: SSAValue | None = None
    for d, g in enumerate(coords):
        offset = add_offset_term(cv, offset, g, view.view.strides[view.dim_map[d]])
    assert offset is not None
    return ThreadBase(coords, offset, {})


def _still_guard(cv: KernelConverter, view: TileView, base: ThreadBase, dims: tuple[int, ...]) -> SSAValue | None:
    """The thread's in-bounds test over the dimensions `dims` (where the slot sits at the base
    coordinate), made once per set of dimensions."""
    if dims not in base.guards:
        guard: SSAValue | None = None
        for d in dims:
            if d in base.unchecked:
                continue
            extent = view.view.shape[view.dim_map[d]]
            guard = and_guards(cv, guard, cv.v(arith.CmpiOp(base.coords[d], extent, "ult")))
        base.guards[dims] = guard
    return base.guards[dims]


def _based_access(cv: KernelConverter, view: TileView, layout: Layout, slot: int, delta: tuple[int, ...],
                  base: ThreadBase) -> tuple[SSAValue, SSAValue | None]:
    """A slot at a constant coordinate offset from the thread's base: one add and one bounds
    test per dimension it moves in, instead of unravelling its element index."""
    guard = cv.not_ghost(layout, cv.element_index(layout, slot)) if layout.has_ghosts else None
    guard = and_guards(cv, guard, _still_guard(cv, view, base, tuple(d for d, step in enumerate(delta) if step == 0)))
    offset = base.offset
    for d, step in enumerate(delta):
        if step == 0:
            continue
        extent, stride = view.view.shape[view.dim_map[d]], view.view.strides[view.dim_map[d]]
        g = cv.v(arith.AddiOp(base.coords[d], cv.i64c(step)))
        if d not in base.unchecked:
            guard = and_guards(cv, guard, cv.v(arith.CmpiOp(g, extent, "ult")))
        moved = stride if step == 1 else cv.v(arith.MuliOp(cv.i64c(step), stride))
        offset = cv.v(arith.AddiOp(offset, moved))
    return view_element_ptr(cv, view.view, offset), guard


def view_access(cv: KernelConverter, op: Operation, view: TileView, index: list[SSAValue],
                layout: Layout, slot: int, origin: list[SSAValue] | None = None,
                vectors: dict[int, tuple[list[SSAValue], SSAValue | None]] | None = None,
                based: list[ThreadBase] | None = None,
                ) -> tuple[SSAValue, SSAValue | None]:
    """(element pointer, in-bounds guard or None) of this thread's `slot` of the tile at `index`;
    `origin` is `tile_origin(cv, view, index)` when the caller already made it in this block, and
    `vectors` (first slot of a vector -> its tile coordinates and ghost guard) and `based` (the
    thread's base, `ThreadBase`) collect and reuse per-thread work across the slots of one
    access emitted into one block."""
    if based is not None and not layout.uniform:
        delta = slot_deltas(layout, tuple(view.tile))[slot]
        if delta is not None:
            if not based:
                based.append(_thread_base(cv, view, layout, origin or tile_origin(cv, view, index)))
                based[0].unchecked = inbounds_dims(op)
            return _based_access(cv, view, layout, slot, delta, based[0])
    lane = slot % layout.vector
    if vectors is not None and lane and view.tile[-1] % layout.vector == 0 and slot - lane in vectors:
        # The slot's vector lies in one row of the tile (V divides the row) and N is a multiple
        # of V: same coordinates as the vector's first slot but the last (+ lane), same ghost test.
        first, guard = vectors[slot - lane]
        coords = [*first[:-1], cv.v(arith.AddiOp(first[-1], cv.i32c(lane)))]
    else:
        e = cv.element_index(layout, slot)
        guard = cv.not_ghost(layout, e)
        coords = cv.coords(e, view.tile) if not layout.uniform else [cv.i32c(0)] * len(view.tile)
        if vectors is not None and not lane:
            vectors[slot] = (coords, guard)
    if origin is None:
        origin = tile_origin(cv, view, index)
    offset: SSAValue | None = None
    unchecked = inbounds_dims(op)
    for d, c in enumerate(coords):
        extent, stride = view.view.shape[view.dim_map[d]], view.view.strides[view.dim_map[d]]
        g = cv.v(arith.AddiOp(origin[d], cv.to_i64(c, signed=False)))
        if d not in unchecked:  # `inbounds`: the op promises the tile stays inside this dimension
            guard = and_guards(cv, guard, cv.v(arith.CmpiOp(g, extent, "ult")))
        offset = add_offset_term(cv, offset, g, stride)
    return view_element_ptr(cv, view.view, offset), guard


def view_operands(cv: KernelConverter, op: Operation, groups: list[list[SSAValue]]
                  ) -> tuple[TileView, list[SSAValue], SSAValue | None]:
    view_v, index_v = groups[0], groups[1]
    token = groups[2][0] if len(groups) > 2 and groups[2] else None
    view = cv.get(view_v[0])
    if not isinstance(view, TileView):
        raise Unsupported(op)
    index = [cv.scalar(op, x) for x in index_v]
    if len(index) != len(view.tile):
        raise Unsupported(op, "tile index rank")
    return view, index, token


@dataclass(frozen=True)
class Ordered:
    """A load/store with memory ordering: every element access is an LLVM atomic load/store
    with ordering `access` and sync scope (NVPTX: `ld.acquire.gpu`, `st.release.cta`, ...),
    plus an `llvm.fence acq_rel` (`fence.acq_rel.<scope>`) before all of the op's accesses
    and/or after them where `access` alone does not give the requested ordering."""

    ordering: str  # the op's (LLVM spelling)
    syncscope: str | None
    access: str = "monotonic"
    fence_before: bool = False
    fence_after: bool = False


def check_ordering(op: Operation) -> Ordered | None:
    """None for a weak access; else how to order it. Loads take relaxed/acquire and stores
    relaxed/release as they are (the cuda_tile verifier admits only these). The other
    orderings follow the PTX memory model, since LLVM has no acq_rel load or store (its
    verifier rejects them) and PTX no `ld.release`/`st.acquire`: a load's release half is a
    `fence.acq_rel` before it (PTX's release pattern: fence, then the access), a store's
    acquire half a `fence.acq_rel` after it (the acquire pattern: the access, then fence).
    So an acq_rel load is `fence.acq_rel; ld.acquire` and an acq_rel store
    `st.release; fence.acq_rel`, at the op's scope. (cuda_tile has no seq_cst ordering.)"""
    sem = get_attr(op, "memory_ordering_semantics")
    if not isinstance(sem, IntegerAttr) or sem.value.data == 0:
        return None
    ordering, scope = atomic_params(op)
    is_load = any(isinstance(r.type, TensorType) or not isinstance(r.type, MemTokenType) for r in op.results)
    if is_load:
        access = "acquire" if ordering in ("acquire", "acq_rel") else "monotonic"
        return Ordered(ordering, scope, access, fence_before=ordering in ("release", "acq_rel"))
    access = "release" if ordering in ("release", "acq_rel") else "monotonic"
    return Ordered(ordering, scope, access, fence_after=ordering in ("acquire", "acq_rel"))


def fence_before(cv: KernelConverter, ordered: Ordered | None) -> None:
    if ordered is not None and ordered.fence_before:
        cv.emit(llvm_memory.FenceOp("acq_rel", ordered.syncscope))


def fence_after(cv: KernelConverter, ordered: Ordered | None) -> None:
    if ordered is not None and ordered.fence_after:
        cv.emit(llvm_memory.FenceOp("acq_rel", ordered.syncscope))


# Memory orderings and scopes: cuda_tile enum cases by their i32 value (memory_syntax.ORDERINGS
# / SCOPES).
_LLVM_ORDERING = {1: "monotonic", 2: "acquire", 3: "release", 4: "acq_rel"}
_SYNCSCOPE: dict[int, str | None] = {0: "block", 1: "device", 2: None}


def atomic_params(op: Operation) -> tuple[str, str | None]:
    sem, scope = get_attr(op, "memory_ordering_semantics"), get_attr(op, "memory_scope")
    ordering = _LLVM_ORDERING.get(sem.value.data if isinstance(sem, IntegerAttr) else 1)
    if ordering is None:
        raise Unsupported(op, "memory ordering")
    scope_index = scope.value.data if isinstance(scope, IntegerAttr) else 1
    if scope_index not in _SYNCSCOPE:
        raise Unsupported(op, "memory scope")
    return ordering, _SYNCSCOPE[scope_index]


def guarded_value(cv: KernelConverter, guard: SSAValue | None, elem: Attribute,
                  build: Callable[[], SSAValue]) -> SSAValue:
    """`build()` under `guard` (an scf.if giving 0 where the guard is false)."""
    if guard is None:
        return build()
    outer = cv.block
    then_block, else_block = Block(), Block()
    cv.block = then_block
    cv.emit(scf.YieldOp(build()))
    cv.block = else_block
    cv.emit(scf.YieldOp(zero_value(cv, elem)))
    cv.block = outer
    return cv.v(scf.IfOp(guard, [elem], Region(then_block), Region(else_block)))

