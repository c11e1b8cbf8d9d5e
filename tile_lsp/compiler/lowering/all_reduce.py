"""`gpu.all_reduce` -> warp shuffles + a shared-memory exchange across warps (the algorithm of
upstream's all-reduce lowering, expressed with scf.if / gpu.shuffle / gpu.barrier / memref ops that
the rest of the nvvm stage lowers):

1. linear thread id `tid = (tid.z * ntid.y + tid.y) * ntid.x + tid.x`, block size, lane = tid & 31,
   active width of this warp = block size - (tid - lane);
2. reduce within each warp: a `gpu.shuffle xor` butterfly (offsets 1, 2, .., 16); a partial warp
   (active width < 32) only accumulates shuffled values whose source lane was valid;
3. lane 0 of every warp stores its partial result to a 32-element workgroup buffer
   (a private `memref.global` in address space 3), `gpu.barrier`;
4. the first ceil(block size / 32) threads reduce those partials the same way and thread 0
   stores the total to buffer[0], `gpu.barrier`, every thread loads buffer[0].

Only `uniform` reductions of 32-bit scalars (i32 / f32) are lowered; others get a
`not supported by the nvvm stage: ...` diagnostic at the op.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    Float32Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    i1,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.common import LoweringContext, LoweringPattern
from tile_lsp.compiler.lowering.llvm_build import make_op, read_sreg, symbol_scope

SUBGROUP_SIZE = 32
UNSUPPORTED = "not supported by the nvvm stage: {what}"

# reduction kind -> (integer combiner, float combiner), the arith op that combines two values:
# gpu.all_reduce's and gpu.subgroup_reduce's.
COMBINERS: dict[str, tuple[str | None, str | None]] = {
    "add": ("arith.addi", "arith.addf"), "mul": ("arith.muli", "arith.mulf"),
    "minsi": ("arith.minsi", None), "minui": ("arith.minui", None), "maxsi": ("arith.maxsi", None),
    "maxui": ("arith.maxui", None), "minnumf": (None, "arith.minnumf"), "maxnumf": (None, "arith.maxnumf"),
    "minimumf": (None, "arith.minimumf"), "maximumf": (None, "arith.maximumf"),
    "and": ("arith.andi", None), "or": ("arith.ori", None), "xor": ("arith.xori", None),
}

Accumulate = Callable[["_Builder", SSAValue, SSAValue], SSAValue]


class _Builder:
    """Appends ops to a block (or before the rewritten op at the top level)."""

    def __init__(self, block: Block | None, rewriter: PatternRewriter | None = None) -> None:
        self.block = block
        self.rewriter = rewriter

    def add(self, op: Operation) -> Operation:
        if self.block is not None:
            self.block.add_op(op)
        else:
            assert self.rewriter is not None
            self.rewriter.insert(op)
        return op

    def op(self, name: str, operands: list[SSAValue], result: Attribute | None,
           props: dict[str, Attribute] | None = None) -> SSAValue:
        new = self.add(make_op(name, operands, [result] if result is not None else [], props or {}))
        return new.results[0] if new.results else operands[0]

    def i32c(self, value: int) -> SSAValue:
        return self.op("arith.constant", [], i32, {"value": IntegerAttr(value, i32)})

    def cmp(self, pred: int, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.op("arith.cmpi", [a, b], i1, {"predicate": IntegerAttr(pred, 64)})

    def if_(self, cond: SSAValue, types: list[Attribute],
            then: Callable[[_Builder], list[SSAValue]], other: Callable[[_Builder], list[SSAValue]] | None
            ) -> list[SSAValue]:
        then_block = Block()
        then_vals = then(_Builder(then_block))
        then_block.add_op(scf.YieldOp(*then_vals))
        else_region: Region | None = None
        if other is not None or types:
            else_block = Block()
            else_vals = other(_Builder(else_block)) if other is not None else []
            else_block.add_op(scf.YieldOp(*else_vals))
            else_region = Region(else_block)
        new = self.add(scf.IfOp(cond, types, Region(then_block), else_region))
        return list(new.results)


_EQ, _SLT = 0, 2  # arith.cmpi predicate numbers


def _subgroup_reduce(b: _Builder, active: SSAValue, value: SSAValue, acc: Accumulate) -> SSAValue:
    """Butterfly reduction of `value` over the first `active` lanes of the warp."""
    size = b.i32c(SUBGROUP_SIZE)
    partial = b.cmp(_SLT, active, size)
    t = value.type

    def partial_warp(bb: _Builder) -> list[SSAValue]:
        v = value
        i = 1
        while i < SUBGROUP_SIZE:
            shuffle = bb.add(_shuffle(v, bb.i32c(i), active))
            shuffled, valid = shuffle.results
            v = bb.if_(valid, [t], _accumulating(acc, v, shuffled), _passing(v))[0]
            i <<= 1
        return [v]

    def full_warp(bb: _Builder) -> list[SSAValue]:
        v = value
        i = 1
        while i < SUBGROUP_SIZE:
            shuffle = bb.add(_shuffle(v, bb.i32c(i), size))
            v = acc(bb, v, shuffle.results[0])
            i <<= 1
        return [v]

    return b.if_(partial, [t], partial_warp, full_warp)[0]


def _accumulating(acc: Accumulate, current: SSAValue, shuffled: SSAValue) -> Callable[[_Builder], list[SSAValue]]:
    return lambda b: [acc(b, current, shuffled)]


def _passing(current: SSAValue) -> Callable[[_Builder], list[SSAValue]]:
    return lambda _b: [current]


def _shuffle(value: SSAValue, offset: SSAValue, width: SSAValue) -> Operation:
    from tile_lsp.compiler.mlir.dialects.gpu import ShuffleOp

    return ShuffleOp("xor", value, offset, width)


def _combiner(op: Operation, lctx: LoweringContext) -> Accumulate | None:
    value_type = op.operands[0].type
    kind = op.properties.get("op")
    if kind is not None:
        kind_name = str(getattr(getattr(kind, "data", None), "value", getattr(kind, "data", "")))
        pair = COMBINERS.get(kind_name)
        name = None if pair is None else (pair[1] if isinstance(value_type, Float32Type) else pair[0])
        if name is None:
            lctx.error(op, UNSUPPORTED.format(what=f"gpu.all_reduce {kind_name} of {value_type}"))
            return None
        return lambda b, x, y: b.op(name, [x, y], value_type)
    body = op.regions[0] if op.regions else None
    if body is None or len(body.blocks) != 1 or len(body.blocks[0].args) != 2:
        lctx.error(op, UNSUPPORTED.format(what="gpu.all_reduce with a multi-block reduction region"))
        return None
    block = body.blocks[0]

    def inline(b: _Builder, x: SSAValue, y: SSAValue) -> SSAValue:
        mapping: dict[SSAValue, SSAValue] = {block.args[0]: x, block.args[1]: y}
        for inner in block.ops:
            if inner.name == "gpu.yield":
                return mapping.get(inner.operands[0], inner.operands[0])
            b.add(inner.clone(value_mapper=mapping))
        return x

    return inline


def _workgroup_buffer(op: Operation, element: Attribute) -> SSAValue | None:
    """A private 32-element workgroup-memory global in the enclosing module and its memref."""
    from tile_lsp.compiler.mlir.dialects.gpu import AddressSpace, AddressSpaceAttr
    from tile_lsp.compiler.mlir.dialects.memref import GlobalOp

    scope = symbol_scope(op)
    func = op.parent_op()
    while func is not None and func.name not in ("gpu.func", "func.func", "llvm.func"):
        func = func.parent_op()
    if scope is None or func is None or not scope.regions or not scope.regions[0].blocks:
        return None
    fname = func.properties.get("sym_name") or func.attributes.get("sym_name")
    base = f"__wg_{fname.data if isinstance(fname, StringAttr) else 'all_reduce'}"
    taken = {str(getattr(o.properties.get("sym_name"), "data", "")) for o in scope.regions[0].blocks[0].ops}
    index = 0
    while f"{base}_{index}" in taken:
        index += 1
    name = f"{base}_{index}"
    mtype = MemRefType(element, [SUBGROUP_SIZE], memory_space=AddressSpaceAttr(AddressSpace.WORKGROUP))
    glob = GlobalOp.create(properties={"sym_name": StringAttr(name), "sym_visibility": StringAttr("private"),
                                       "type": mtype})
    glob.location = op.location
    top = scope.regions[0].blocks[0]
    first = top.first_op
    if first is None:
        top.add_op(glob)
    else:
        top.insert_op_before(glob, first)
    get = make_op("memref.get_global", [], [mtype], {"name": SymbolRefAttr(name)})
    return get  # type: ignore[return-value]


class LowerAllReduce(LoweringPattern):
    """See the module docstring."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.all_reduce" or len(op.operands) != 1 or len(op.results) != 1:
            return
        value = op.operands[0]
        t = value.type
        if t not in (i32,) and not isinstance(t, Float32Type):
            self.lctx.error(op, UNSUPPORTED.format(what=f"gpu.all_reduce of {t} (only i32 and f32)"))
            rewriter.replace(op, [], [value])  # reported; keep the IR well formed
            return
        if op.properties.get("uniform") is None:
            self.lctx.error(op, UNSUPPORTED.format(what="gpu.all_reduce without `uniform`"))
            rewriter.replace(op, [], [value])
            return
        acc = _combiner(op, self.lctx)
        get = _workgroup_buffer(op, t)
        if acc is None or get is None:
            rewriter.replace(op, [], [value])
            return
        b = _Builder(None, rewriter)
        buffer = b.add(get).results[0]  # type: ignore[arg-type]
        nx, ny, nz = (read_sreg(rewriter, f"ntid.{d}") for d in "xyz")
        tx, ty, tz = (read_sreg(rewriter, f"tid.{d}") for d in "xyz")
        t1 = b.op("arith.muli", [tz, ny], i32)
        t2 = b.op("arith.addi", [t1, ty], i32)
        t3 = b.op("arith.muli", [t2, nx], i32)
        t4 = b.op("arith.muli", [nx, ny], i32)
        tid = b.op("arith.addi", [t3, tx], i32)
        block_size = b.op("arith.muli", [t4, nz], i32)
        lane_mask = b.i32c(SUBGROUP_SIZE - 1)
        lane = b.op("arith.andi", [tid, lane_mask], i32)
        first_lane = b.cmp(_EQ, lane, b.i32c(0))
        before = b.op("arith.subi", [tid, lane], i32)
        active = b.op("arith.subi", [block_size, before], i32)
        warp_value = _subgroup_reduce(b, active, value, acc)

        def to_index(bb: _Builder, v: SSAValue) -> SSAValue:
            return bb.op("arith.index_cast", [v], IndexType())

        def store_partial(bb: _Builder) -> list[SSAValue]:
            warp = bb.op("arith.divsi", [tid, bb.i32c(SUBGROUP_SIZE)], i32)
            bb.add(make_op("memref.store", [warp_value, buffer, to_index(bb, warp)], []))
            return []

        b.if_(first_lane, [], store_partial, None)
        barrier = make_op("gpu.barrier", [], [])
        b.add(barrier)
        biased = b.op("arith.addi", [block_size, lane_mask], i32)
        warps = b.op("arith.divsi", [biased, b.i32c(SUBGROUP_SIZE)], i32)
        valid = b.cmp(_SLT, tid, warps)
        zero = b.op("arith.constant", [], IndexType(), {"value": IntegerAttr(0, IndexType())})

        def reduce_partials(bb: _Builder) -> list[SSAValue]:
            partial = bb.op("memref.load", [buffer, to_index(bb, tid)], t)
            total = _subgroup_reduce(bb, warps, partial, acc)
            bb.add(make_op("memref.store", [total, buffer, zero], []))
            return []

        b.if_(valid, [], reduce_partials, None)
        b.add(make_op("gpu.barrier", [], []))
        result = b.op("memref.load", [buffer, zero], t)
        rewriter.replace(op, [], [result])


__all__ = ["COMBINERS", "LowerAllReduce", "SUBGROUP_SIZE"]
