"""Stage 3 fast path for `nv_tileaa.reduce` with a simple commutative combiner (addf, maxf, ...,
on 32-bit elements): per-thread partials, a `gpu.shuffle xor` butterfly, then one small
shared-memory step across warps, instead of every thread re-reading whole rows.

Which elements meet is read off the source `Layout` (`plan_reduce`): slots whose element has the
same output index in every thread form a *class* and are combined in-thread first; a thread-id
bit b is a *team bit* when flipping it never changes any class's output index. Lane team bits
(b < 5) are reduced by shuffles with offset 1 << b; warp team bits (b >= 5, one contiguous run)
leave P = 2^(their count) partials per output, which one writer per lane team stores at
`output * P + warp part` and each result slot combines in order. Anything else (ghost slots,
teams that are not bit-aligned, other combiners or element types) keeps the baseline.

Forward `scan` of a one-row tile with such a combiner (`lower_scan_shuffle`): per layout round,
a vector scan in each thread, a `gpu.shuffle up` scan over the lanes, warp totals through
shared memory, and a carry from round to round.

`lower_reduce` and `lower_scan` (the handlers of `reduce` and `scan`) try these paths and
otherwise run the baseline: every thread combines, in order, the source elements of each of its
result elements, read from shared memory, in a loop with the combiner region inlined.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ArrayAttr, Float32Type, FloatAttr, IntegerAttr, IntegerType, TensorType, i32
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.lowering.gpu_arith import ELEMENTWISE
from tile_lsp.compiler.lowering.gpu_control import region_body
from tile_lsp.compiler.lowering.gpu_core import (
    Dist,
    KernelConverter,
    Unsupported,
    Value,
    get_attr,
    num_elements,
    scalar_type,
)
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.dialects import gpu, llvm_memory

COMMUTATIVE = ("addf", "addi", "maxf", "minf", "maxi", "mini", "mulf", "muli", "andi", "ori", "xori")
LANE_BITS = 5
WARP = 32


@dataclass(frozen=True)
class ReducePlan:
    """`classes[c]`: the slots combined in-thread for class c; `lane_bits`: shuffle offsets
    (as bit numbers); `warp_shift`, `warp_bits`: the run of thread-id bits whose threads hold
    partials of the same outputs in different warps (P = 2 ** warp_bits of them)."""

    classes: tuple[tuple[int, ...], ...]
    lane_bits: tuple[int, ...]
    warp_shift: int
    warp_bits: int
    shifts: tuple[int | None, ...] = ()  # class c's output - class 0's, when the same in every thread

    @property
    def parts(self) -> int:
        return 1 << self.warp_bits


def output_index(element: int, shape: Sequence[int], dim: int) -> int:
    """Row-major index, in the shape without `dim`, of the output `element` reduces into."""
    inner = 1
    for d in shape[dim + 1 :]:
        inner *= d
    outer, rest = divmod(element, inner * shape[dim])
    return outer * inner + rest % inner


def plan_reduce(layout: Layout, shape: Sequence[int], dim: int) -> ReducePlan | None:
    """The reduction plan of a tile of `shape` in `layout` along `dim`, or None (baseline).
    (A pure function of its arguments, kept per process: an edit re-plans the same tiles.)"""
    return _plan_reduce(layout, tuple(shape), dim)


@functools.lru_cache(maxsize=256)
def _plan_reduce(layout: Layout, shape: tuple[int, ...], dim: int) -> ReducePlan | None:
    if layout.uniform or layout.has_ghosts or layout.threads & (layout.threads - 1):
        return None
    threads, vector = layout.threads, layout.vector
    inner = 1
    for d in shape[dim + 1 :]:
        inner *= d
    span = inner * shape[dim]
    # output_index(layout.element(t, r)) for every thread t of every slot r, in one pass per slot
    outs = [
        [(e // span) * inner + e % inner for e in range(off, off + threads * vector, vector)]
        for off in map(layout.offset, range(layout.slots))
    ]
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for r, sig in enumerate(outs):
        by_signature.setdefault(tuple(sig), []).append(r)
    classes = tuple(tuple(rs) for rs in by_signature.values())
    reps = [outs[c[0]] for c in classes]
    team_bits = [b for b in range(threads.bit_length() - 1)
                 if all(f[t] == f[t ^ (1 << b)] for f in reps for t in range(threads))]
    # The team of t must be exactly the threads that differ from t in team bits only, and each
    # output has one writer: (team, class) pairs never share an output.
    mask = sum(1 << b for b in team_bits)
    owner: dict[int, tuple[int, int]] = {}
    for c, f in enumerate(reps):
        for t in range(threads):
            if owner.setdefault(f[t], (t & ~mask, c)) != (t & ~mask, c):
                return None
    lane_bits = tuple(b for b in team_bits if b < LANE_BITS)
    warp = [b for b in team_bits if b >= LANE_BITS]
    if warp and warp != list(range(warp[0], warp[0] + len(warp))):
        return None
    shifts = tuple(f[0] - reps[0][0] if all(f[t] - reps[0][t] == f[0] - reps[0][0] for t in range(threads)) else None
                   for f in reps)
    return ReducePlan(classes, lane_bits, warp[0] if warp else 0, len(warp), shifts)


def simple_combiner(op: Operation) -> Operation | None:
    """The combiner's one op when the region is `yield(op(lhs, rhs))` with a commutative op."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    block = op.regions[0].blocks[0]
    body = list(block.ops)
    if len(block.args) != 2 or len(body) != 2:
        return None
    inner, last = body
    if inner.name.removeprefix("nv_tileaa.") not in COMMUTATIVE or not inner.name.startswith("nv_tileaa."):
        return None
    if last.name != "nv_tileaa.yield" or list(last.operands) != [inner.results[0]]:
        return None
    if set(inner.operands) != set(block.args) or len(inner.operands) != 2:
        return None
    return inner


def lower_reduce_shuffle(cv: KernelConverter, op: Operation) -> bool:
    """`reduce` by shuffles when `simple_combiner` and `plan_reduce` allow; False (nothing
    emitted) otherwise."""
    if len(op.operands) != 1 or len(op.results) != 1:
        return False
    inner = simple_combiner(op)
    src_t, res_t = op.operands[0].type, op.results[0].type
    elem = scalar_type(src_t)
    if inner is None or not isinstance(src_t, TensorType) or not _is_32bit(elem):
        return False
    dim_attr = op.properties.get("dim") or op.attributes.get("dim")
    dim = getattr(getattr(dim_attr, "value", None), "data", None)
    src = cv.get(op.operands[0])
    if not isinstance(dim, int) or not isinstance(src, Dist):
        return False
    plan = plan_reduce(src.layout, src_t.get_shape(), dim)
    if plan is None:
        return False
    build = ELEMENTWISE[inner.name.removeprefix("nv_tileaa.")]

    def combine(x: SSAValue, y: SSAValue) -> SSAValue:
        return build(cv, inner, [x, y], elem)

    _emit(cv, op, src, plan, dim, res_t, combine)
    return True


def _is_32bit(t: Attribute) -> bool:
    return isinstance(t, Float32Type) or (isinstance(t, IntegerType) and t.width.data == 32)


def _emit(cv: KernelConverter, op: Operation, src: Dist, plan: ReducePlan, dim: int, res_t: Attribute,
          combine: Callable[[SSAValue, SSAValue], SSAValue]) -> None:
    elem = scalar_type(op.operands[0].type)
    shape = list(src.shape)
    kept = [d for i, d in enumerate(shape) if i != dim]
    width = cv.i32c(32)
    partials = []
    for cls in plan.classes:
        value = src.slots[cls[0]]
        for r in cls[1:]:
            value = combine(value, src.slots[r])
        for b in plan.lane_bits:
            other = cv.emit(gpu.ShuffleOp("xor", value, cv.i32c(1 << b), width)).results[0]
            value = combine(value, other)
        partials.append(value)
    total = 1
    for d in kept:
        total *= d
    base = cv.smem(elem, total * plan.parts)
    tid = cv.thread_times(1)
    lane_mask = sum(1 << b for b in plan.lane_bits)
    writer = cv.v(arith.CmpiOp(cv.v(arith.AndIOp(tid, cv.i32c(lane_mask))), cv.i32c(0), "eq")) if lane_mask else None
    part = None
    if plan.warp_bits:
        part = cv.v(arith.AndIOp(cv.v(arith.ShRUIOp(tid, cv.i32c(plan.warp_shift))), cv.i32c(plan.parts - 1)))
    indices: list[SSAValue] = []
    for cls, shift in zip(plan.classes, plan.shifts, strict=True):
        if shift is not None and indices:
            indices.append(cv.v(arith.AddiOp(indices[0], cv.i32c(shift * plan.parts))))
            continue
        coords = cv.coords(cv.element_index(src.layout, cls[0]), shape)
        index = cv.linear([c for i, c in enumerate(coords) if i != dim], kept) if kept else cv.i32c(0)
        if part is not None:
            index = cv.v(arith.AddiOp(cv.v(arith.MuliOp(index, cv.i32c(plan.parts))), part))
        indices.append(index)
    # One writer per lane team stores all its partials (a single scf.if).
    outer = cv.block
    stores = Block()
    cv.block = stores
    for value, index in zip(partials, indices, strict=True):
        cv.emit(llvm_memory.StoreOp(value, cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], elem, ssa_indices=[index]))))
    cv.block = outer
    if writer is None:
        for store_op in list(stores.ops):
            store_op.detach()
            cv.block.add_op(store_op)
    else:
        stores.add_op(scf.YieldOp())
        cv.emit(scf.IfOp(writer, [], Region(stores), Region(Block([scf.YieldOp()]))))
    cv.exchange_barrier()
    layout = cv.layout_of(res_t) or Layout(1, cv.threads)
    slots = []
    for r in range(layout.slots):
        e = cv.real_element_index(layout, r)
        first = e if plan.parts == 1 else cv.v(arith.MuliOp(e, cv.i32c(plan.parts)))
        value = cv.read_shared(base, first, elem)
        for p in range(1, plan.parts):
            value = combine(value, cv.read_shared(base, cv.v(arith.AddiOp(first, cv.i32c(p))), elem))
        slots.append(value)
    cv.finish_exchange()
    cv.values[op.results[0]] = cv.tile(res_t, slots)


def lower_scan_shuffle(cv: KernelConverter, op: Operation) -> bool:
    """Forward `scan` of a tile that is one row along `dim` (every other extent 1), with a
    simple commutative combiner on 32-bit values: per round of the layout (T*V consecutive
    elements) each thread scans its vector, lanes scan their totals with `gpu.shuffle up`, warps
    exchange their totals through shared memory, and rounds carry their totals forward. False
    (nothing emitted) otherwise."""
    if len(op.operands) != 1 or len(op.results) != 1:
        return False
    inner = simple_combiner(op)
    src_t = op.operands[0].type
    elem = scalar_type(src_t)
    rev = op.properties.get("reverse") or op.attributes.get("reverse")
    ids = op.properties.get("identities") or op.attributes.get("identities")
    dim_attr = op.properties.get("dim") or op.attributes.get("dim")
    dim = getattr(getattr(dim_attr, "value", None), "data", None)
    src = cv.get(op.operands[0])
    if inner is None or not isinstance(src_t, TensorType) or not _is_32bit(elem) or not isinstance(src, Dist):
        return False
    if (isinstance(rev, IntegerAttr) and rev.value.data) or not isinstance(dim, int):
        return False
    if not isinstance(ids, ArrayAttr) or len(ids.data) != 1 or not isinstance(ids.data[0], IntegerAttr | FloatAttr):
        return False
    if any(d != 1 for i, d in enumerate(src_t.get_shape()) if i != dim):
        return False
    layout = src.layout
    if layout.uniform or layout.has_ghosts or layout.threads % WARP:
        return False
    build = ELEMENTWISE[inner.name.removeprefix("nv_tileaa.")]

    def combine(x: SSAValue, y: SSAValue) -> SSAValue:
        return build(cv, inner, [x, y], elem)

    identity = cv.v(arith.ConstantOp(ids.data[0], elem))  # type: ignore[arg-type]
    _emit_scan(cv, op, src, combine, identity)
    return True


def _emit_scan(cv: KernelConverter, op: Operation, src: Dist, combine: Callable[[SSAValue, SSAValue], SSAValue],
               identity: SSAValue) -> None:
    layout = src.layout
    elem = identity.type
    v, warps = layout.vector, layout.threads // WARP
    rounds = layout.slots // v
    tid = cv.thread_times(1)
    lane = cv.v(arith.AndIOp(tid, cv.i32c(WARP - 1)))
    warp = cv.v(arith.ShRUIOp(tid, cv.i32c(5)))
    width = cv.i32c(WARP)
    scans, excls, incls = [], [], []
    for j in range(rounds):
        run = [src.slots[j * v]]
        for q in range(1, v):
            run.append(combine(run[-1], src.slots[j * v + q]))
        scans.append(run)
        incl = run[-1]
        for off in (1, 2, 4, 8, 16):  # Hillis-Steele over the lanes
            other = cv.emit(gpu.ShuffleOp("up", incl, cv.i32c(off), width)).results[0]
            has = cv.v(arith.CmpiOp(lane, cv.i32c(off), "uge"))
            incl = cv.v(arith.SelectOp(has, combine(incl, other), incl))
        prev = cv.emit(gpu.ShuffleOp("up", incl, cv.i32c(1), width)).results[0]
        excls.append(cv.v(arith.SelectOp(cv.v(arith.CmpiOp(lane, cv.i32c(1), "uge")), prev, identity)))
        incls.append(incl)
    # Lane 31 holds its warp's total of each round: to shared memory, then every thread reads them.
    base = cv.smem(elem, rounds * warps)
    stores = Block()
    outer = cv.block
    cv.block = stores
    for j, incl in enumerate(incls):
        index = cv.v(arith.AddiOp(warp, cv.i32c(j * warps)))
        cv.emit(llvm_memory.StoreOp(incl, cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], elem, ssa_indices=[index]))))
    cv.emit(scf.YieldOp())
    cv.block = outer
    last = cv.v(arith.CmpiOp(lane, cv.i32c(WARP - 1), "eq"))
    cv.emit(scf.IfOp(last, [], Region(stores), Region(Block([scf.YieldOp()]))))
    cv.exchange_barrier()
    carry = identity
    slots: list[SSAValue] = []
    for j in range(rounds):
        totals = [cv.read_shared(base, cv.i32c(j * warps + w), elem) for w in range(warps)]
        prefix = identity
        for w in range(warps - 1):  # warps before this thread's
            before = cv.v(arith.CmpiOp(warp, cv.i32c(w), "ugt"))
            prefix = cv.v(arith.SelectOp(before, combine(prefix, totals[w]), prefix))
        start = combine(combine(carry, prefix), excls[j])
        slots.extend(combine(start, x) for x in scans[j])
        for total in totals:
            carry = combine(carry, total)
    cv.finish_exchange()
    cv.values[op.results[0]] = cv.tile(op.results[0].type, slots)



# ---------------------------------------------------------------------------------------------
# The baseline, through shared memory (the handler falls back to it)


def _identities(op: Operation) -> list[Attribute]:
    ids = get_attr(op, "identities")
    return list(ids.data) if isinstance(ids, ArrayAttr) else []


def _combine_loop(cv: KernelConverter, op: Operation, bases: list[SSAValue], elems: list[Attribute],
                  lb: SSAValue, ub: SSAValue, index_of: Callable[[SSAValue], SSAValue],
                  identities: list[Attribute]) -> list[SSAValue]:
    """`acc = identities; for k in [lb, ub): acc = combiner(acc, src[index_of(k)])`, the
    combiner region inlined in the loop body (region arguments: lhs0, rhs0, lhs1, rhs1, ...)."""
    inits = []
    for ident, elem in zip(identities, elems, strict=True):
        if not isinstance(ident, (IntegerAttr, FloatAttr)):
            raise Unsupported(op, "identity value")
        inits.append(cv.v(arith.ConstantOp(ident, elem)))  # type: ignore[arg-type]
    body = Block(arg_types=[i32, *elems])
    outer = cv.block
    cv.block = body
    index = index_of(body.args[0])
    vals = [cv.read_shared(b, index, e) for b, e in zip(bases, elems, strict=True)]
    cv.block = outer
    args: list[Value] = []
    for acc, val in zip(body.args[1:], vals, strict=True):
        args.extend([acc, val])
    region_body(cv, op, op.regions[0], args, body, "yield")
    one = cv.i32c(1)
    loop = cv.emit(scf.ForOp(lb, ub, one, inits, Region(body)))
    return list(loop.results)


def _reduce_scan_inputs(cv: KernelConverter, op: Operation) -> tuple[int, list[int], list[Attribute], list[Attribute]]:
    dim_attr = get_attr(op, "dim")
    if not isinstance(dim_attr, IntegerAttr):
        raise Unsupported(op, "no dim")
    src_t = op.operands[0].type
    src_shape = list(src_t.get_shape()) if isinstance(src_t, TensorType) else []
    elems = [scalar_type(x.type) for x in op.operands]
    identities = _identities(op)
    if len(identities) != len(elems) or not src_shape:
        raise Unsupported(op, "identities")
    return dim_attr.value.data, src_shape, elems, identities


def lower_reduce(cv: KernelConverter, op: Operation) -> None:
    """Through shared memory: every thread combines, in order, the K source elements along
    `dim` that each of its result elements reduces (baseline). Simple commutative combiners on
    32-bit values take the warp-shuffle fast path (`gpu_reduce.py`) when the layout allows."""

    if lower_reduce_shuffle(cv, op):
        return
    dim, src_shape, elems, identities = _reduce_scan_inputs(cv, op)
    bases = [cv.share(op, x) for x in op.operands]
    cv.exchange_barrier()
    t0 = op.results[0].type
    dst_shape = t0.get_shape() if isinstance(t0, TensorType) else ()
    layout = cv.layout_of(t0) or Layout(1, cv.threads)
    per_result: list[list[SSAValue]] = [[] for _ in op.results]
    kept = [d for i, d in enumerate(src_shape) if i != dim]
    for r in range(layout.slots):
        coords = cv.dst_coords(layout, r, dst_shape)
        if len(dst_shape) == len(src_shape):  # keep-dims form (a size-1 dim at `dim`)
            coords = [c for i, c in enumerate(coords) if i != dim]
        elif len(coords) != len(kept):
            if num_elements(dst_shape) == num_elements(kept):
                coords = cv.coords(cv.linear(coords, dst_shape), kept) if kept else []
            else:
                raise Unsupported(op, "result shape")

        def index_of(k: SSAValue, coords: list[SSAValue] = coords) -> SSAValue:
            full = list(coords)
            full.insert(dim, k)
            return cv.linear(full, src_shape)

        outs = _combine_loop(cv, op, bases, elems, cv.i32c(0), cv.i32c(src_shape[dim]), index_of, identities)
        for i, v in enumerate(outs):
            per_result[i].append(v)
    cv.finish_exchange()
    for res, slots in zip(op.results, per_result, strict=True):
        cv.values[res] = cv.tile(res.type, slots)


def lower_scan(cv: KernelConverter, op: Operation) -> None:
    """Inclusive prefix scan along `dim` through shared memory: element c combines source
    elements 0..c along `dim` in order (K-1 down to c when `reverse`). A forward scan of one
    row with a simple combiner takes the warp-shuffle fast path (`gpu_reduce.py`)."""

    if lower_scan_shuffle(cv, op):
        return
    dim, src_shape, elems, identities = _reduce_scan_inputs(cv, op)
    rev = get_attr(op, "reverse")
    reverse = isinstance(rev, IntegerAttr) and bool(rev.value.data)
    bases = [cv.share(op, x) for x in op.operands]
    cv.exchange_barrier()
    layout = cv.layout_of(op.results[0].type) or Layout(1, cv.threads)
    per_result: list[list[SSAValue]] = [[] for _ in op.results]
    for r in range(layout.slots):
        coords = cv.dst_coords(layout, r, src_shape)

        def index_of(k: SSAValue, coords: list[SSAValue] = coords, extent: int = src_shape[dim]) -> SSAValue:
            full = list(coords)
            # Reverse scans combine from the last element down: step k reads K-1-k.
            full[dim] = cv.v(arith.SubiOp(cv.i32c(extent - 1), k)) if reverse else k
            return cv.linear(full, src_shape)

        if reverse:  # elements K-1 down to c: K - c steps
            ub = cv.v(arith.SubiOp(cv.i32c(src_shape[dim]), coords[dim]))
        else:  # elements 0 up to c
            ub = cv.v(arith.AddiOp(coords[dim], cv.i32c(1)))
        outs = _combine_loop(cv, op, bases, elems, cv.i32c(0), ub, index_of, identities)
        for i, v in enumerate(outs):
            per_result[i].append(v)
    cv.finish_exchange()
    for res, slots in zip(op.results, per_result, strict=True):
        cv.values[res] = cv.tile(res.type, slots)


__all__ = ["lower_reduce", "lower_scan", "COMMUTATIVE", "ReducePlan", "lower_reduce_shuffle", "lower_scan_shuffle", "output_index", "plan_reduce", "simple_combiner"]
