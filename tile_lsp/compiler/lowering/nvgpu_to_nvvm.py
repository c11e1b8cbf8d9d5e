"""nvgpu -> nvvm + llvm (seed 000, NVGPU table): one RewritePattern per nvgpu op.

Shapes follow the seed and MLIR 22's `-convert-nvgpu-to-nvvm` (names/operand orders of the nvvm
ops are MLIR 22's, so mlir-opt 22 accepts the result):

* mbarrier.*: `nvvm.mbarrier.*` on the barrier's `!llvm.ptr<3>` element address (MLIR 22 selects the
  shared variant by the pointer's address space; the `.shared` op names are gone). A barrier group
  that is not in shared memory is rejected with the verbatim operand-type diagnostic, never cast.
* tma.async.load/store: `nvvm.cp.async.bulk.tensor.shared.cluster.global` /
  `.global.shared.cta`, slots dst, descriptor, coordinates (i32, rank 1-5), barrier, multicast mask,
  (cache hint), predicate; optional slots are present only when the operand is (operand segments;
  the enable flags appear at the LLVM-intrinsic level, see nvvm_to_llvm_arch.py).
* tma.create.descriptor: a 128-byte (16 x i64) stack object written field by field.
* warpgroup.generate.descriptor: folded constant `llvm.or` the 14-bit `llvm.ptrtoint` base.
* warpgroup.mma: fence -> mma_async (xN) -> commit -> wait, in this order.
* ldmatrix: `nvvm.ldmatrix` + extractvalue/bitcast repack; mma.sync: `nvvm.mma.sync` + repack
  (an operand packed by `vector.insert`s, as the gpu stage packs them, gives its rows directly,
  a bitcast i32 its i32: MLIR would fold the same round trip in canonicalization);
  mma.sp.sync: `llvm.inline_asm` with MLIR's sparse template and constraints.
* device_async_*: `nvvm.cp.async.shared.global` / `commit.group` / `wait.group`.
* rcp: scalarised `nvvm.rcp.approx.ftz.f`; cvt_fptrunc: `nvvm.convert.f32x2.to.{f16x2,bf16x2}`;
  cvt_fpext: `llvm.fpext`; fma/mul.packed.f32x2: `llvm.intr.fma` / `llvm.fmul` on vector<2xf32>
  (MLIR 22's nvvm has no packed-f32x2 op; NVPTX selects fma.rn.f32x2 / mul.rn.f32x2 for them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.types import (
    cast_to,
    llvm_ptr,
    memref_element_ptr,
    memref_unsupported,
    register_type_conversion,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na
from tile_lsp.compiler.mlir.dialects.llvm_ext import (
    AddrSpaceCastOp,
    ExtractElementOp,
    InlineAsmOp,
    PoisonOp,
    StoreOp,
)
from tile_lsp.compiler.mlir.xdsl_fast import int_attr, shared, vector_type

UNSUPPORTED = "not supported by the nvvm stage: {what}"
TENSORMAP_BYTES = 128
EXCLUDE_4_LSB = 4

# ----------------------------------------------------------------------------------------------
# type conversion of the nvgpu types (registered into the shared converter)
# ----------------------------------------------------------------------------------------------


def accumulator_struct(t: ng.WarpgroupAccumulatorType) -> Attribute:
    """`!llvm.struct<(struct<(f32 x N/2)> x M/64)>`: per 64-row tile, the thread's fragment."""
    shape = t.fragmented.get_shape()
    elem = t.fragmented.element_type
    inner = llvm.LLVMStructType.from_type_list([elem] * (shape[1] // 2))
    return llvm.LLVMStructType.from_type_list([inner] * max(1, shape[0] // ng.WGMMA_M))


def convert_nvgpu_type(t: Attribute) -> Attribute | None:
    if isinstance(t, ng.MBarrierGroupType):
        return llvm_ptr(ng.SHARED_AS) if ng.is_shared_space(t.memorySpace) else None
    if isinstance(t, ng.MBarrierTokenType):
        return i64
    if isinstance(t, ng.DeviceAsyncTokenType):
        return i32
    if isinstance(t, ng.TensorMapDescriptorType):
        return llvm_ptr()
    if isinstance(t, ng.WarpgroupMatrixDescriptorType):
        return i64
    if isinstance(t, ng.WarpgroupAccumulatorType):
        return accumulator_struct(t)
    return None


register_type_conversion(convert_nvgpu_type)


# ----------------------------------------------------------------------------------------------
# small builders
# ----------------------------------------------------------------------------------------------


def _ins(rewriter: PatternRewriter, op: Operation) -> Operation:
    rewriter.insert(op)
    return op


class _RewriteConstants:
    """The constants `_const` made during the latest rewrite: (block, value, type) -> op."""

    rewriter: PatternRewriter | None = None
    op: Operation | None = None
    made: dict[tuple[Block, int, IntegerType], Operation] = {}


def _const(rewriter: PatternRewriter, value: int, t: IntegerType = i64) -> SSAValue:
    return _ins(rewriter, llvm.ConstantOp(int_attr(value, t), t)).results[0]


def _reused_const(rewriter: PatternRewriter, value: int, t: IntegerType = i64) -> SSAValue:
    """`_const`, but within one rewrite a constant already made in the same block is reused (it
    was inserted earlier at a point before this one, so it dominates). Only for rewrites whose
    constants upstream's op-by-op comparison does not look at (the WGMMA store's thousands)."""
    current = rewriter._current_operation  # pyright: ignore[reportPrivateUsage]
    seen = _RewriteConstants
    if seen.rewriter is not rewriter or seen.op is not current:
        seen.rewriter, seen.op, seen.made = rewriter, current, {}
    block = rewriter.insertion_point.block
    key = (block, value, t)
    made = seen.made.get(key)
    if made is None or made.parent is not block:
        made = seen.made[key] = _ins(rewriter, llvm.ConstantOp(IntegerAttr(value, t), t))
    return made.results[0]


def _binop(
    rewriter: PatternRewriter, cls: Callable[[SSAValue, SSAValue], Operation], a: SSAValue, b: SSAValue
) -> SSAValue:
    return _ins(rewriter, cls(a, b)).results[0]


def _array(n: int, t: Attribute) -> llvm.LLVMArrayType:
    """`!llvm.array<n x t>`, shared."""
    return shared(("llvm-array", n, t), lambda: llvm.LLVMArrayType(IntAttr(n), t))


def _to_int(rewriter: PatternRewriter, value: SSAValue, t: IntegerType = i32) -> SSAValue:
    """An index/integer value as `t` (index -> i64 cast, then trunc/zext)."""
    if isinstance(value.type, IndexType):
        value = cast_to(rewriter, value, i64)
    vt = value.type
    if not isinstance(vt, IntegerType) or vt.width.data == t.width.data:
        return value
    if vt.width.data > t.width.data:
        return _ins(rewriter, llvm.TruncOp(value, t)).results[0]
    return _ins(rewriter, llvm.ZExtOp(value, t)).results[0]


def _extract(rewriter: PatternRewriter, container: SSAValue, index: int, t: Attribute) -> SSAValue:
    op = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [index]), container, t)
    return _ins(rewriter, op).results[0]


def _insert(rewriter: PatternRewriter, container: SSAValue, value: SSAValue, index: int) -> SSAValue:
    op = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [index]), container, value)
    return _ins(rewriter, op).results[0]


def _bitcast(rewriter: PatternRewriter, value: SSAValue, t: Attribute) -> SSAValue:
    if value.type == t:
        return value
    owner = value.owner
    if isinstance(owner, llvm.BitcastOp) and owner.arg.type == t:  # a bitcast back: the original
        return owner.arg
    return _ins(rewriter, llvm.BitcastOp(value, t)).results[0]


def _poison(rewriter: PatternRewriter, t: Attribute) -> SSAValue:
    return _ins(rewriter, PoisonOp(t)).results[0]


def _vector_as_array(rewriter: PatternRewriter, value: SSAValue) -> tuple[SSAValue, list[SSAValue]] | None:
    """A 2-D `vector<RxCxT>` as `!llvm.array<R x vector<CxT>>` and its R rows (extractvalue)."""
    t = value.type
    if not isinstance(t, VectorType) or len(t.get_shape()) != 2:
        return None
    rows, cols = t.get_shape()
    row_t = vector_type(t.element_type, (cols,))
    arr_t = _array(rows, row_t)
    arr = cast_to(rewriter, value, arr_t)
    return arr, [_extract(rewriter, arr, i, row_t) for i in range(rows)]


def _inserted_rows(value: SSAValue) -> list[SSAValue] | None:
    """The R rows of a 2-D `vector<RxCxT>` that a chain of `vector.insert`s at static positions
    [0] .. [R-1] wrote whole (the gpu stage packs mma operands so): the rows themselves, without
    the array round trip of `_vector_as_array`. None when some row is not written that way."""
    t = value.type
    if not isinstance(t, VectorType) or len(t.get_shape()) != 2:
        return None
    count, cols = t.get_shape()
    row_t = vector_type(t.element_type, (cols,))
    rows: list[SSAValue | None] = [None] * count
    left = count
    current = value
    while left:
        op = current.owner
        if not isinstance(op, vector.InsertOp) or op.dynamic_position or op.source.type != row_t:
            return None
        position = op.static_position.get_values()
        if len(position) != 1 or not 0 <= position[0] < count:
            return None
        if rows[position[0]] is None:  # the last insert at a position is the one that counts
            rows[position[0]] = op.source
            left -= 1
        current = op.dest
    return cast(list[SSAValue], rows)


def _erase_unused_inserts(rewriter: PatternRewriter, value: SSAValue) -> None:
    """Erase the `vector.insert` chain ending in `value` as far as nothing else reads it (the
    operand chains `_inserted_rows` looked through, once their last mma is lowered)."""
    op = value.owner
    while isinstance(op, vector.InsertOp) and not op.result.uses:
        dest = op.dest
        rewriter.erase(op)
        op = dest.owner


def _rows_to_vector(rewriter: PatternRewriter, rows: Sequence[SSAValue], t: VectorType) -> SSAValue:
    """Repack 1-D rows into `!llvm.array<R x vector<C>>` and cast back to the 2-D vector type `t`."""
    shape = t.get_shape()
    row_t = vector_type(t.element_type, (shape[1],))
    arr_t = _array(shape[0], row_t)
    acc = _poison(rewriter, arr_t)
    for i, row in enumerate(rows):
        acc = _insert(rewriter, acc, row, i)
    return cast_to(rewriter, acc, t)


def _extract_elem(rewriter: PatternRewriter, vec: SSAValue, lane: int) -> SSAValue:
    return _ins(rewriter, ExtractElementOp(vec, _const(rewriter, lane))).results[0]


def _insert_elem(rewriter: PatternRewriter, vec: SSAValue, value: SSAValue, lane: int) -> SSAValue:
    return _ins(rewriter, llvm.InsertElementOp(vec, value, _const(rewriter, lane))).results[0]


def _base_ptr(rewriter: PatternRewriter, lctx: LoweringContext, op: Operation, memref: SSAValue) -> SSAValue | None:
    """The bare pointer of `memref` (offset applied); a diagnostic when the memref is unsupported."""
    t = memref.type
    if not isinstance(t, MemRefType):
        lctx.error(op, UNSUPPORTED.format(what=f"operand of type {ng.mlir_type_str(t)}"))
        return None
    why = memref_unsupported(t)
    if why is not None:
        lctx.error(op, UNSUPPORTED.format(what=why))
        return None
    ptr = memref_element_ptr(rewriter, memref, [])
    if ptr is None:
        lctx.error(op, UNSUPPORTED.format(what=ng.mlir_type_str(t)))
    return ptr


def _element_ptr(
    rewriter: PatternRewriter, lctx: LoweringContext, op: Operation, memref: SSAValue, indices: Sequence[SSAValue]
) -> SSAValue | None:
    t = memref.type
    if not isinstance(t, MemRefType) or memref_unsupported(t) is not None:
        why = memref_unsupported(t) if isinstance(t, MemRefType) else ng.mlir_type_str(t)
        lctx.error(op, UNSUPPORTED.format(what=why))
        return None
    ptr = memref_element_ptr(rewriter, memref, list(indices))
    if ptr is None:
        lctx.error(op, UNSUPPORTED.format(what=ng.mlir_type_str(t)))
    return ptr


def _replace(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    """Replace `op`'s results by `values`, bridging type changes with unrealized casts."""
    bridged = [cast_to(rewriter, v, r.type) for v, r in zip(values, op.results)]
    rewriter.replace(op, [], bridged)


class _Pattern(RewritePattern):
    """One nvgpu root op; `rewrite` returns False when it reported a diagnostic (op left in place)."""

    ROOT: type[Operation] = Operation

    def __init__(self, lctx: LoweringContext) -> None:
        self.lctx = lctx
        self.reported: set[int] = set()

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not self.ROOT or id(op) in self.reported:
            return
        try:
            done = self.rewrite(op, rewriter)
        except Exception as exc:  # never crash the pipeline: every failure is a diagnostic
            self.lctx.error(op, f"internal error lowering '{op.name}': {exc}")
            done = False
        if not done:
            self.reported.add(id(op))

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        raise NotImplementedError

    def error(self, op: Operation, msg: str) -> bool:
        self.lctx.error(op, msg)
        return False


# ----------------------------------------------------------------------------------------------
# mbarrier
# ----------------------------------------------------------------------------------------------


def mbarrier_operand_error(op: Operation, barrier: SSAValue) -> str | None:
    """MLIR's operand-type diagnostic when the barrier is not a shared-memory mbarrier group."""
    t = barrier.type
    if isinstance(t, ng.MBarrierGroupType) and ng.is_shared_space(t.memorySpace):
        return None
    return f"'{op.name}' op operand #0 must be mbarrier barrier type, but got '{ng.mlir_type_str(t)}'"


class _MBarrierPattern(_Pattern):
    def barrier_ptr(
        self, op: Operation, rewriter: PatternRewriter, barrier: SSAValue, mbar_id: SSAValue
    ) -> SSAValue | None:
        msg = mbarrier_operand_error(op, barrier)
        if msg is not None:
            self.lctx.error(op, msg)
            return None
        base = cast_to(rewriter, barrier, llvm_ptr(ng.SHARED_AS))
        idx = _to_int(rewriter, mbar_id, i64)
        owner = idx.owner
        if isinstance(owner, UnrealizedConversionCastOp):
            owner = owner.inputs[0].owner
        value = getattr(owner, "properties", {}).get("value") if isinstance(owner, Operation) else None
        if isinstance(value, IntegerAttr) and value.value.data == 0:
            return base
        gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], i64, ssa_indices=[idx], result_type=llvm_ptr(ng.SHARED_AS))
        return _ins(rewriter, gep).results[0]


class MBarrierCreatePattern(_Pattern):
    """`nvgpu.mbarrier.create` -> a private shared-memory global `!llvm.array<N x i64>` + addressof."""

    ROOT = ng.MBarrierCreateOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierCreateOp)
        t = op.barriers.type
        if not isinstance(t, ng.MBarrierGroupType) or not ng.is_shared_space(t.memorySpace):
            return self.error(
                op, f"'{op.name}' op result #0 must be mbarrier barrier type, but got '{ng.mlir_type_str(t)}'"
            )
        from tile_lsp.compiler.lowering.llvm_build import _insert_at_top, _symbols, symbol_scope

        scope = symbol_scope(op)
        if scope is None:
            return self.error(op, UNSUPPORTED.format(what="mbarrier.create outside a module"))
        existing = _symbols(scope)
        name = "__mbarrier"
        n = 0
        while name in existing:
            n += 1
            name = f"__mbarrier_{n}"
        glob = llvm.GlobalOp(_array(t.num_barriers.data, i64), name, "internal", addr_space=ng.SHARED_AS, alignment=8)
        glob.location = op.location
        _insert_at_top(scope, glob)
        addr = _ins(rewriter, llvm.AddressOfOp(name, llvm_ptr(ng.SHARED_AS)))
        _replace(rewriter, op, [addr.results[0]])
        return True


class MBarrierInitPattern(_MBarrierPattern):
    ROOT = ng.MBarrierInitOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierInitOp)
        ptr = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if ptr is None:
            return False
        args = [ptr, _to_int(rewriter, op.count)]
        if op.predicate is not None:
            args.append(op.predicate)
        _ins(rewriter, na.MBarrierInitOp.create(operands=args, result_types=[]))
        rewriter.erase(op)
        return True


class MBarrierArrivePattern(_MBarrierPattern):
    ROOT = ng.MBarrierArriveOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierArriveOp)
        ptr = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if ptr is None:
            return False
        new = _ins(rewriter, na.MBarrierArriveOp.create(operands=[ptr], result_types=[i64]))
        _replace(rewriter, op, [new.results[0]])
        return True


class MBarrierArriveNoCompletePattern(_MBarrierPattern):
    ROOT = ng.MBarrierArriveNoCompleteOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierArriveNoCompleteOp)
        ptr = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if ptr is None:
            return False
        count = _to_int(rewriter, op.count)
        new = _ins(rewriter, na.MBarrierArriveNocompleteOp.create(operands=[ptr, count], result_types=[i64]))
        _replace(rewriter, op, [new.results[0]])
        return True


class MBarrierArriveExpectTxPattern(_MBarrierPattern):
    ROOT = ng.MBarrierArriveExpectTxOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierArriveExpectTxOp)
        ptr = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if ptr is None:
            return False
        args = [ptr, _to_int(rewriter, op.txcount)]
        if op.predicate is not None:
            args.append(op.predicate)
        _ins(rewriter, na.MBarrierArriveExpectTxOp.create(operands=args, result_types=[]))
        rewriter.erase(op)
        return True


class MBarrierTestWaitPattern(_MBarrierPattern):
    ROOT = ng.MBarrierTestWaitOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierTestWaitOp)
        ptr = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if ptr is None:
            return False
        token = cast_to(rewriter, op.token, i64)
        new = _ins(rewriter, na.MBarrierTestWaitOp.create(operands=[ptr, token], result_types=[i1]))
        _replace(rewriter, op, [new.results[0]])
        return True


class MBarrierTryWaitParityPattern(_MBarrierPattern):
    ROOT = ng.MBarrierTryWaitParityOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MBarrierTryWaitParityOp)
        ptr = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if ptr is None:
            return False
        phase = _to_int(rewriter, op.phaseParity)
        ticks = _to_int(rewriter, op.ticks)
        _ins(rewriter, na.MBarrierTryWaitParityOp.create(operands=[ptr, phase, ticks], result_types=[]))
        rewriter.erase(op)
        return True


# ----------------------------------------------------------------------------------------------
# TMA
# ----------------------------------------------------------------------------------------------


class TmaAsyncLoadPattern(_MBarrierPattern):
    """Slots: dst (shared::cluster), descriptor, coords (i32 x rank), barrier, [multicast], [hint], [pred]."""

    ROOT = ng.TmaAsyncLoadOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.TmaAsyncLoadOp)
        bar = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if bar is None:
            return False
        dst = _base_ptr(rewriter, self.lctx, op, op.dst)
        if dst is None:
            return False
        dst7 = _ins(rewriter, AddrSpaceCastOp(dst, llvm_ptr(7))).results[0]
        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        coords = [_to_int(rewriter, c) for c in op.coordinates]
        mask = [op.multicastMask] if op.multicastMask is not None else []
        # tile-lsp extension: an `l2CacheHint = N : i64` attribute fills the cache-hint slot
        # (MLIR 22's nvgpu.tma.async.load has no cache-hint operand).
        hint_attr = op.attributes.get("l2CacheHint")
        hint = [_const(rewriter, hint_attr.value.data)] if isinstance(hint_attr, IntegerAttr) else []
        pred = [op.predicate] if op.predicate is not None else []
        new = na.CpAsyncBulkTensorSharedClusterGlobalOp.build(
            operands=[dst7, desc, coords, bar, [], mask, hint, pred],
            properties={"mode": na.TMALoadModeAttr.get("tile"), "isCTAOnly": IntegerAttr(0, 1)},
        )
        _ins(rewriter, new)
        rewriter.erase(op)
        return True


class TmaAsyncStorePattern(_Pattern):
    """Slots: descriptor, src (shared::cta), coords (i32 x rank), [hint], [pred]."""

    ROOT = ng.TmaAsyncStoreOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.TmaAsyncStoreOp)
        src = _base_ptr(rewriter, self.lctx, op, op.src)
        if src is None:
            return False
        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        coords = [_to_int(rewriter, c) for c in op.coordinates]
        hint_attr = op.attributes.get("l2CacheHint")
        hint = [_const(rewriter, hint_attr.value.data)] if isinstance(hint_attr, IntegerAttr) else []
        pred = [op.predicate] if op.predicate is not None else []
        new = na.CpAsyncBulkTensorGlobalSharedCtaOp.build(
            operands=[desc, src, coords, hint, pred], properties={"mode": na.TMAStoreModeAttr.get("tile")}
        )
        _ins(rewriter, new)
        rewriter.erase(op)
        return True


# CUtensorMapDataType values (CUDA driver API enum order).
_CU_DTYPE = {"i8": 0, "i16": 1, "i32": 3, "i64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9}

# Field layout of the 128-byte tensor-map stack object (16 x i64 words):
#   word 0       global base address
#   word 1       rank | dtype << 8 | interleave << 16 | swizzle << 24 | l2promo << 32 | oob << 40
#   words 2..6   box dimensions (runtime operands; 0 beyond the rank)
#   words 7..11  tensor (descriptor memref) extents
#   words 12..15 byte strides of the outer dimensions (row-major, innermost-but-one first)
TENSORMAP_WORDS = TENSORMAP_BYTES // 8


class TmaCreateDescriptorPattern(_Pattern):
    ROOT = ng.TmaCreateDescriptorOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.TmaCreateDescriptorOp)
        desc_t = op.tensorMap.type
        assert isinstance(desc_t, ng.TensorMapDescriptorType)
        source = op.tensor
        owner = source.owner
        if (
            isinstance(owner, Operation)
            and owner.name == "memref.cast"
            and isinstance(owner.operands[0].type, MemRefType)
        ):
            source = owner.operands[0]
        if isinstance(source.type, MemRefType):
            base = _base_ptr(rewriter, self.lctx, op, source)
            if base is None:
                return False
        else:
            base = cast_to(rewriter, source, llvm_ptr())
        tensor = desc_t.tensor
        shape = list(tensor.get_shape())
        rank = len(op.boxDimensions)
        dtype = _CU_DTYPE.get(ng.mlir_type_str(tensor.element_type))
        if dtype is None:
            return self.error(
                op, UNSUPPORTED.format(what=f"tensor map element type {ng.mlir_type_str(tensor.element_type)}")
            )
        fields = (
            rank
            | dtype << 8
            | ng.INTERLEAVE_INDEX[ng.TensorMapInterleaveKind(desc_t.field("interleave"))] << 16
            | ng.SWIZZLE_INDEX[ng.TensorMapSwizzleKind(desc_t.field("swizzle"))] << 24
            | ng.L2PROMO_INDEX[ng.TensorMapL2PromoKind(desc_t.field("l2promo"))] << 32
            | ng.OOB_INDEX[ng.TensorMapOOBKind(desc_t.field("oob"))] << 40
        )
        elem_bytes = max(1, ng.bitwidth(tensor.element_type) // 8)
        strides: list[int] = []
        acc = elem_bytes
        for dim in reversed(shape[1:]):
            acc *= dim
            strides.append(acc)
        words: list[SSAValue | int] = [0] * TENSORMAP_WORDS
        words[0] = _ins(rewriter, llvm.PtrToIntOp(base, i64)).results[0]
        words[1] = fields
        for i, d in enumerate(op.boxDimensions[:5]):
            words[2 + i] = _to_int(rewriter, d, i64)
        for i, extent in enumerate(shape[:5]):
            words[7 + i] = extent
        for i, s in enumerate(strides[:4]):
            words[12 + i] = s
        size = _const(rewriter, 1)
        alloca = _ins(rewriter, llvm.AllocaOp(size, _array(TENSORMAP_WORDS, i64), alignment=64))
        obj = alloca.results[0]
        for i, w in enumerate(words):
            value = w if isinstance(w, SSAValue) else _const(rewriter, w)
            slot = obj if i == 0 else _ins(rewriter, llvm.GEPOp(obj, [i], i64, result_type=llvm_ptr())).results[0]
            _ins(rewriter, StoreOp(value, slot, alignment=8))
        _replace(rewriter, op, [obj])
        return True


class TmaPrefetchPattern(_Pattern):
    ROOT = ng.TmaPrefetchOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.TmaPrefetchOp)
        from tile_lsp.compiler.mlir.dialects import nvvm

        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        pred = [op.predicate] if op.predicate is not None else []
        _ins(rewriter, nvvm.PrefetchOp.build(operands=[desc, pred], properties={"tensormap": UnitAttr()}))
        rewriter.erase(op)
        return True


class TmaFencePattern(_Pattern):
    """`nvgpu.tma.fence.descriptor` -> `nvvm.fence.proxy.acquire <sys> %desc, 128` (generic -> tensormap)."""

    ROOT = ng.TmaFenceOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.TmaFenceOp)
        from tile_lsp.compiler.mlir.dialects import nvvm

        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        size = _const(rewriter, TENSORMAP_BYTES, i32)
        props: dict[str, Attribute] = {
            "scope": nvvm.MemScopeKindAttr(nvvm.MemScopeKind("sys")),
            "fromProxy": nvvm.ProxyKindAttr(nvvm.ProxyKind("generic")),
            "toProxy": nvvm.ProxyKindAttr(nvvm.ProxyKind("tensormap")),
        }
        _ins(rewriter, nvvm.FenceProxyAcquireOp.build(operands=[desc, size], properties=props))
        rewriter.erase(op)
        return True


# ----------------------------------------------------------------------------------------------
# WGMMA
# ----------------------------------------------------------------------------------------------

_SWIZZLE_LAYOUT = {"swizzle_128b": (128, 1), "swizzle_64b": (64, 2), "swizzle_32b": (32, 3), "none": (1, 0)}


def gmma_descriptor_bits(desc_t: ng.TensorMapDescriptorType) -> int:
    """The constant part of the GMMA shared-memory descriptor (everything but the start address)."""
    layout, swizzle = _SWIZZLE_LAYOUT[desc_t.field("swizzle")]
    size_n = desc_t.tensor.get_shape()[0]
    stride = (layout << 3) >> EXCLUDE_4_LSB
    lead = (size_n * layout) >> EXCLUDE_4_LSB
    offset = 0
    return (swizzle << 62) | (offset << 49) | (stride << 32) | (lead << 16)


class WarpgroupGenerateDescriptorPattern(_Pattern):
    """`%bits = llvm.mlir.constant` (folded fields) `llvm.or` the 14-bit start address from `llvm.ptrtoint`."""

    ROOT = ng.WarpgroupGenerateDescriptorOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.WarpgroupGenerateDescriptorOp)
        desc_t = op.tensorMap.type
        assert isinstance(desc_t, ng.TensorMapDescriptorType)
        base = _base_ptr(rewriter, self.lctx, op, op.tensor)
        if base is None:
            return False
        bits = gmma_descriptor_bits(desc_t)
        if bits >= 1 << 63:
            bits -= 1 << 64
        folded = _const(rewriter, bits)
        addr = _ins(rewriter, llvm.PtrToIntOp(base, i64)).results[0]
        shl = _binop(rewriter, llvm.ShlOp, addr, _const(rewriter, 46))
        base14 = _binop(rewriter, llvm.LShrOp, shl, _const(rewriter, 50))
        desc = _binop(rewriter, llvm.OrOp, folded, base14)
        _replace(rewriter, op, [desc])
        return True


def _wgmma_type(t: Attribute) -> str | None:
    if isinstance(t, Float32Type) or ng.mlir_type_str(t) == "tf32":
        return "tf32"
    return {
        "f16": "f16",
        "bf16": "bf16",
        "f8E4M3FN": "e4m3",
        "f8E5M2": "e5m2",
        "i1": "b1",
        "i8": "s8",
        "ui8": "u8",
    }.get(ng.mlir_type_str(t))


def _wgmma_k(t: Attribute) -> int | None:
    name = ng.mlir_type_str(t)
    if name == "tf32" or isinstance(t, Float32Type):
        return 8
    if name in ("f16", "bf16"):
        return 16
    if name in ("f8E4M3FN", "f8E5M2", "i8", "ui8", "i16"):
        return 32
    if name == "i1":
        return 256
    return None


class WarpgroupMmaPattern(_Pattern):
    """fence -> mma_async (M/64 x N/n x K/k) -> commit -> wait, in this order."""

    ROOT = ng.WarpgroupMmaOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.WarpgroupMmaOp)
        ta = op.descriptorA.type
        tb = op.descriptorB.type
        tc = op.matrixC.type
        assert isinstance(ta, ng.WarpgroupMatrixDescriptorType) and isinstance(tb, ng.WarpgroupMatrixDescriptorType)
        assert isinstance(tc, ng.WarpgroupAccumulatorType)
        a, b = ta.tensor, tb.tensor
        total_m, total_k = a.get_shape()
        total_n = b.get_shape()[1]
        elem_a, elem_b = a.element_type, b.element_type
        wk = _wgmma_k(elem_a)
        type_a, type_b = _wgmma_type(elem_a), _wgmma_type(elem_b)
        type_d = (
            "f32"
            if isinstance(tc.fragmented.element_type, Float32Type)
            else ng.mlir_type_str(tc.fragmented.element_type)
        )
        if wk is None or type_a is None or type_b is None:
            return self.error(op, UNSUPPORTED.format(what=f"wgmma element type {ng.mlir_type_str(elem_a)}"))
        wm, wn = ng.WGMMA_M, total_n
        iter_m, iter_n, iter_k = total_m // wm, total_n // wn, total_k // wk
        desc_a = cast_to(rewriter, op.descriptorA, i64)
        desc_b = cast_to(rewriter, op.descriptorB, i64)
        acc_t = accumulator_struct(tc)
        assert isinstance(acc_t, llvm.LLVMStructType)
        inner_t = acc_t.types.data[0]
        acc = cast_to(rewriter, op.matrixC, acc_t)
        _ins(rewriter, na.WgmmaFenceAlignedOp.create())
        result = _poison(rewriter, acc_t)
        byte_a = max(1, ng.bitwidth(elem_a) // 8)
        byte_b = max(1, ng.bitwidth(elem_b) // 8)
        props: dict[str, Attribute] = {
            "shape": na.MMAShapeAttr.get(wm, wn, wk),
            "typeA": na.WGMMATypesAttr.get(type_a),
            "typeB": na.WGMMATypesAttr.get(type_b),
            "typeD": na.WGMMATypesAttr.get(type_d),
            "scaleD": na.WGMMAScaleOutAttr.get("one"),
            "scaleA": na.WGMMAScaleInAttr.get("one"),
            "scaleB": na.WGMMAScaleInAttr.get("one"),
            "layoutA": na.MMALayoutAttr.get("col" if op.transposeA is not None else "row"),
            "layoutB": na.MMALayoutAttr.get("row" if op.transposeB is not None else "col"),
            "satfinite": na.MMAIntOverflowAttr.get("wrapped"),
        }
        for i in range(iter_m):
            c = _extract(rewriter, acc, i, inner_t)
            for _j in range(iter_n):
                for k in range(iter_k):
                    inc_a = ((wk * k + total_k * a.get_shape()[1] * i) * byte_a) >> EXCLUDE_4_LSB
                    inc_b = (b.get_shape()[0] * wk * k * byte_b) >> EXCLUDE_4_LSB
                    da = desc_a if not inc_a else _binop(rewriter, llvm.AddOp, desc_a, _const(rewriter, inc_a))
                    db = desc_b if not inc_b else _binop(rewriter, llvm.AddOp, desc_b, _const(rewriter, inc_b))
                    mma = na.WgmmaMmaAsyncOp.create(
                        operands=[c, da, db], result_types=[inner_t], properties=dict(props)
                    )
                    c = _ins(rewriter, mma).results[0]
            result = _insert(rewriter, result, c, i)
        _ins(rewriter, na.WgmmaCommitGroupSyncAlignedOp.create())
        _ins(rewriter, na.WgmmaWaitGroupSyncOp.create(properties={"group": IntegerAttr(op.wait_group, i64)}))
        _replace(rewriter, op, [result])
        return True


class WarpgroupMmaStorePattern(_Pattern):
    """Accumulator fragments -> per-thread `llvm.store`s (row = warp*16 + lane/4 (+8), col = 2*(lane%4) + 8j)."""

    ROOT = ng.WarpgroupMmaStoreOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.WarpgroupMmaStoreOp)
        acc_type = op.matrixD.type
        dst_t = op.dstMemref.type
        assert isinstance(acc_type, ng.WarpgroupAccumulatorType) and isinstance(dst_t, MemRefType)
        base = _base_ptr(rewriter, self.lctx, op, op.dstMemref)
        if base is None:
            return False
        from tile_lsp.compiler.lowering.llvm_build import make_op

        acc_t = accumulator_struct(acc_type)
        assert isinstance(acc_t, llvm.LLVMStructType)
        inner_t = acc_t.types.data[0]
        assert isinstance(inner_t, llvm.LLVMStructType)
        elem = acc_type.fragmented.element_type
        n = acc_type.fragmented.get_shape()[1]
        row_stride = dst_t.get_shape()[1] if len(dst_t.get_shape()) > 1 else 1
        acc = cast_to(rewriter, op.matrixD, acc_t)
        ptr_t = base.type
        assert isinstance(ptr_t, llvm.LLVMPointerType)
        for tile in range(len(acc_t.types.data)):
            frag = _extract(rewriter, acc, tile, inner_t)
            # thread coordinates (re-derived per 64-row tile, as MLIR 22 does)
            tid = _ins(rewriter, make_op("nvvm.read.ptx.sreg.tid.x", [], [i32])).results[0]
            warp = _reused_const(rewriter, 32, i32)
            lane = _binop(rewriter, llvm.URemOp, tid, warp)
            warp_id = _binop(rewriter, llvm.UDivOp, tid, warp)
            lane4 = _binop(rewriter, llvm.UDivOp, lane, _reused_const(rewriter, 4, i32))
            lane4mod = _binop(rewriter, llvm.URemOp, lane, _reused_const(rewriter, 4, i32))
            col0 = _binop(rewriter, llvm.MulOp, lane4mod, _reused_const(rewriter, 2, i32))
            warp_rows = _binop(rewriter, llvm.MulOp, warp_id, _reused_const(rewriter, 16, i32))
            row0 = _binop(rewriter, llvm.AddOp, lane4, warp_rows)
            for half in range(2):
                row = _binop(rewriter, llvm.AddOp, row0, _reused_const(rewriter, tile * ng.WGMMA_M + half * 8, i32))
                row_off = _binop(rewriter, llvm.MulOp, _to_int(rewriter, row, i64), _reused_const(rewriter, row_stride))
                for j in range(n // 8):
                    col = _binop(rewriter, llvm.AddOp, col0, _reused_const(rewriter, j * 8, i32))
                    lin = _binop(rewriter, llvm.AddOp, row_off, _to_int(rewriter, col, i64))
                    for e in range(2):
                        idx = half * 2 + j * 4 + e
                        value = _extract(rewriter, frag, idx, elem)
                        at = lin if e == 0 else _binop(rewriter, llvm.AddOp, lin, _reused_const(rewriter, 1))
                        gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], elem, ssa_indices=[at], result_type=ptr_t)
                        _ins(rewriter, StoreOp(value, _ins(rewriter, gep).results[0]))
        rewriter.erase(op)
        return True


class WarpgroupMmaInitAccumulatorPattern(_Pattern):
    """Poison aggregate with every fragment element set to zero."""

    ROOT = ng.WarpgroupMmaInitAccumulatorOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.WarpgroupMmaInitAccumulatorOp)
        acc_type = op.matrixC.type
        assert isinstance(acc_type, ng.WarpgroupAccumulatorType)
        acc_t = accumulator_struct(acc_type)
        assert isinstance(acc_t, llvm.LLVMStructType)
        inner_t = acc_t.types.data[0]
        assert isinstance(inner_t, llvm.LLVMStructType)
        elem = acc_type.fragmented.element_type
        zero_attr: Attribute = (
            FloatAttr(0.0, elem)  # type: ignore[arg-type]
            if isinstance(elem, (Float16Type, Float32Type, BFloat16Type, Float64Type))
            else IntegerAttr(0, cast(IntegerType, elem))
        )
        zero = _ins(rewriter, llvm.ConstantOp(zero_attr, elem)).results[0]
        outer = _poison(rewriter, acc_t)
        inners: list[SSAValue] = []
        for i in range(len(acc_t.types.data)):
            inner = _extract(rewriter, outer, i, inner_t)
            for e in range(len(inner_t.types.data)):
                inner = _insert(rewriter, inner, zero, e)
            inners.append(inner)
        for i, inner in enumerate(inners):
            outer = _insert(rewriter, outer, inner, i)
        _replace(rewriter, op, [outer])
        return True


# ----------------------------------------------------------------------------------------------
# mma.sync, mma.sp.sync, ldmatrix
# ----------------------------------------------------------------------------------------------


def _ptx_type(elem: Attribute, tf32: bool) -> str | None:
    name = ng.mlir_type_str(elem)
    if isinstance(elem, Float32Type):
        return "tf32" if tf32 else "f32"
    return {"f16": "f16", "bf16": "bf16", "f64": "f64", "i8": "s8", "i4": "s4", "i32": "s32", "i1": "b1"}.get(name)


def _operand_regs(rewriter: PatternRewriter, value: SSAValue, *, accumulate: bool) -> list[SSAValue] | None:
    """The per-thread registers of an mma operand (MLIR's layout: rows, bitcast to i32 when narrow).
    Rows a `vector.insert` chain wrote are taken as they are: no array round trip to unpack."""
    rows = _inserted_rows(value)
    if rows is None:
        split = _vector_as_array(rewriter, value)
        if split is None:
            return None
        _, rows = split
    t = value.type
    assert isinstance(t, VectorType)
    elem = t.element_type
    width = ng.bitwidth(elem)
    regs: list[SSAValue] = []
    for row in rows:
        row_t = row.type
        assert isinstance(row_t, VectorType)
        lanes = row_t.get_shape()[0]
        if isinstance(elem, Float16Type) or (isinstance(elem, BFloat16Type) and accumulate):
            regs.append(row)
        elif (width in (4, 8, 16) or (isinstance(elem, Float32Type) and not accumulate)) and width * lanes == 32:
            # bf16 multiplicands travel as i32 (two bf16 per register), as NVVM's mma.sync wants.
            regs.append(_bitcast(rewriter, row, i32))
        else:
            regs.extend(_extract_elem(rewriter, row, lane) for lane in range(lanes))
    return regs


def _mma_result_struct(c_type: VectorType) -> llvm.LLVMStructType:
    elem = c_type.element_type
    rows, cols = c_type.get_shape()
    if isinstance(elem, (Float16Type, BFloat16Type)):
        return llvm.LLVMStructType.from_type_list([vector_type(elem, (cols,))] * rows)
    return llvm.LLVMStructType.from_type_list([elem] * (rows * cols))


def _unpack_result(rewriter: PatternRewriter, res: SSAValue, c_type: VectorType) -> SSAValue:
    """Struct of fragments -> `!llvm.array<R x vector<C>>` -> the nvgpu result vector type."""
    elem = c_type.element_type
    rows, cols = c_type.get_shape()
    row_t = vector_type(elem, (cols,))
    out_rows: list[SSAValue] = []
    if isinstance(elem, (Float16Type, BFloat16Type)):
        out_rows = [_extract(rewriter, res, i, row_t) for i in range(rows)]
    else:
        for i in range(rows):
            vec = _poison(rewriter, row_t)
            for lane in range(cols):
                vec = _insert_elem(rewriter, vec, _extract(rewriter, res, i * cols + lane, elem), lane)
            out_rows.append(vec)
    return _rows_to_vector(rewriter, out_rows, c_type)


class MmaSyncPattern(_Pattern):
    ROOT = ng.MmaSyncOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MmaSyncOp)
        at, ct = op.matrixA.type, op.matrixC.type
        assert isinstance(at, VectorType) and isinstance(ct, VectorType)
        tf32 = op.tf32Enabled is not None
        ptx_a = _ptx_type(at.element_type, tf32)
        shape = ng.mma_shape(op)
        if ptx_a is None or shape is None:
            return self.error(op, UNSUPPORTED.format(what=f"mma.sync element type {ng.mlir_type_str(at.element_type)}"))
        a = _operand_regs(rewriter, op.matrixA, accumulate=False)
        b = _operand_regs(rewriter, op.matrixB, accumulate=False)
        c = _operand_regs(rewriter, op.matrixC, accumulate=True)
        if a is None or b is None or c is None:
            return self.error(op, UNSUPPORTED.format(what="mma.sync operands that are not 2-D vectors"))
        props: dict[str, Attribute] = {
            "shape": na.MMAShapeAttr.get(*shape),
            "layoutA": na.MMALayoutAttr.get("row"),
            "layoutB": na.MMALayoutAttr.get("col"),
            "multiplicandAPtxType": na.MMATypesAttr.get(ptx_a),
            "multiplicandBPtxType": na.MMATypesAttr.get(ptx_a),
        }
        if ptx_a in ("s8", "s4", "u8", "u4"):
            props["intOverflowBehavior"] = na.MMAIntOverflowAttr.get("satfinite")
        res_t = _mma_result_struct(ct)
        mma = na.MmaSyncOp.build(operands=[a, b, c], result_types=[res_t], properties=props)
        res = _ins(rewriter, mma).results[0]
        operands = (op.matrixA, op.matrixB, op.matrixC)
        _replace(rewriter, op, [_unpack_result(rewriter, res, ct)])
        for value in operands:
            _erase_unused_inserts(rewriter, value)
        return True


def sparse_mma_asm(
    shape: tuple[int, int, int],
    a_ptx: str,
    c_ptx: str,
    n_a: int,
    n_b: int,
    n_c: int,
    n_d: int,
    selector: int,
    sat: bool,
) -> tuple[str, str]:
    """MLIR's `mma.sp.sync` inline-asm template and constraint string."""
    m, n, k = shape
    regs = iter(range(n_d + n_a + n_b + n_c + 1))

    def group(count: int) -> str:
        return "{" + ",".join(f"${next(regs)}" for _ in range(count)) + "}"

    d = group(n_d)
    a = group(n_a)
    b = group(n_b)
    c = group(n_c)
    meta = f"${next(regs)}"
    satf = ".satfinite" if sat else ""
    asm = f"mma.sp.sync.aligned.m{m}n{n}k{k}.row.col{satf}.{c_ptx}.{a_ptx}.{a_ptx}.{c_ptx} {d},{a},{b},{c},{meta},0x{selector:x};"
    # MLIR 22 binds every fragment (f32 accumulators included) to 32-bit `r` registers.
    constraints = ",".join(["=r"] * n_d + ["r"] * (n_a + n_b + n_c + 1))
    return asm, constraints


class MmaSparseSyncPattern(_Pattern):
    """`llvm.inline_asm has_side_effects` with MLIR's sparse-MMA template (seed 002)."""

    ROOT = ng.MmaSparseSyncOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MmaSparseSyncOp)
        at, ct = op.matrixA.type, op.matrixC.type
        assert isinstance(at, VectorType) and isinstance(ct, VectorType)
        shape = ng.mma_shape(op)
        a_ptx = _ptx_type(at.element_type, op.tf32Enabled is not None)
        c_ptx = _ptx_type(ct.element_type, False)
        if shape is None or a_ptx is None or c_ptx is None:
            return self.error(
                op, UNSUPPORTED.format(what=f"mma.sp.sync element type {ng.mlir_type_str(at.element_type)}")
            )
        a = _operand_regs(rewriter, op.matrixA, accumulate=False)
        b = _operand_regs(rewriter, op.matrixB, accumulate=False)
        c = _operand_regs(rewriter, op.matrixC, accumulate=True)
        if a is None or b is None or c is None:
            return self.error(op, UNSUPPORTED.format(what="mma.sp.sync operands that are not 2-D vectors"))
        meta = _bitcast(rewriter, op.sparseMetadata, i32)
        res_t = _mma_result_struct(ct)
        n_d = len(res_t.types.data)
        sat = a_ptx in ("s8", "s4", "u8", "u4")
        asm, constraints = sparse_mma_asm(shape, a_ptx, c_ptx, len(a), len(b), len(c), n_d, op.selector, sat)
        inline = InlineAsmOp(asm, constraints, [*a, *b, *c, meta], [res_t], asm_dialect=0, has_side_effects=True)
        res = _ins(rewriter, inline).results[0]
        _replace(rewriter, op, [_unpack_result(rewriter, res, ct)])
        return True


class LdMatrixPattern(_Pattern):
    """`nvvm.ldmatrix` (x1 -> i32, x2/x4 -> struct of i32) + extractvalue/bitcast repack."""

    ROOT = ng.LdMatrixOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.LdMatrixOp)
        rt = op.res.type
        assert isinstance(rt, VectorType)
        ptr = _element_ptr(rewriter, self.lctx, op, op.srcMemref, op.indices)
        if ptr is None:
            return False
        num = op.numTiles.value.data
        res_t: Attribute = i32 if num == 1 else llvm.LLVMStructType.from_type_list([i32] * num)
        layout = "col" if op.transpose.value.data else "row"
        props = {
            "num": IntegerAttr(num, i32),
            "layout": na.MMALayoutAttr.get(layout),
            "shape": na.LdStMatrixShapeAttr.get(8, 8),
            "eltType": na.LdStMatrixEltTypeAttr.get("b16"),
        }
        ld = _ins(rewriter, na.LdMatrixOp.create(operands=[ptr], result_types=[res_t], properties=props)).results[0]
        rows, cols = rt.get_shape()
        row_t = vector_type(rt.element_type, (cols,))
        out_rows: list[SSAValue] = []
        for i in range(rows):
            word = ld if num == 1 else _extract(rewriter, ld, i, i32)
            out_rows.append(_bitcast(rewriter, word, row_t))
        _replace(rewriter, op, [_rows_to_vector(rewriter, out_rows, rt)])
        return True


# ----------------------------------------------------------------------------------------------
# cp.async (SM80)
# ----------------------------------------------------------------------------------------------


class DeviceAsyncCopyPattern(_Pattern):
    ROOT = ng.DeviceAsyncCopyOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.DeviceAsyncCopyOp)
        dst_t = op.dst.type
        assert isinstance(dst_t, MemRefType)
        dst = _element_ptr(rewriter, self.lctx, op, op.dst, op.dstIndices)
        src = _element_ptr(rewriter, self.lctx, op, op.src, op.srcIndices)
        if dst is None or src is None:
            return False
        if src.type != llvm_ptr(ng.GLOBAL_AS):
            src = _ins(rewriter, AddrSpaceCastOp(src, llvm_ptr(ng.GLOBAL_AS))).results[0]
        width = ng.bitwidth(dst_t.element_type)
        size = op.dstElements.value.data * width // 8
        modifier = "cg" if op.bypassL1 is not None and size == 16 else "ca"
        operands = [dst, src]
        if op.srcElements is not None:
            count = _to_int(rewriter, op.srcElements)
            bits = _binop(rewriter, llvm.MulOp, _const(rewriter, width, i32), count)
            operands.append(_binop(rewriter, llvm.LShrOp, bits, _const(rewriter, 3, i32)))
        props = {"size": IntegerAttr(size, i32), "modifier": na.LoadCacheModifierAttr.of(modifier)}
        _ins(
            rewriter,
            na.CpAsyncSharedGlobalOp.build(operands=[operands[0], operands[1], operands[2:]], properties=props),
        )
        _replace(rewriter, op, [_const(rewriter, 0, i32)])
        return True


class DeviceAsyncCreateGroupPattern(_Pattern):
    ROOT = ng.DeviceAsyncCreateGroupOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        _ins(rewriter, na.CpAsyncCommitGroupOp.create())
        _replace(rewriter, op, [_const(rewriter, 0, i32)])
        return True


class DeviceAsyncWaitPattern(_Pattern):
    ROOT = ng.DeviceAsyncWaitOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.DeviceAsyncWaitOp)
        n = op.numGroups.value.data if op.numGroups is not None else 0
        _ins(rewriter, na.CpAsyncWaitGroupOp.create(properties={"n": IntegerAttr(n, i32)}))
        rewriter.erase(op)
        return True


# ----------------------------------------------------------------------------------------------
# rcp, packed conversion, packed f32x2 arithmetic
# ----------------------------------------------------------------------------------------------


def _map_lanes(rewriter: PatternRewriter, value: SSAValue, fn: Callable[[SSAValue], SSAValue]) -> SSAValue:
    """Apply `fn` to every f32 lane of a 1-D or 2-D vector (2-D via `!llvm.array<R x vector<C>>`)."""
    t = value.type
    assert isinstance(t, VectorType)
    shape = t.get_shape()

    def one_row(row: SSAValue, lanes: int) -> SSAValue:
        out = _poison(rewriter, row.type)
        for lane in range(lanes):
            out = _insert_elem(rewriter, out, fn(_extract_elem(rewriter, row, lane)), lane)
        return out

    if len(shape) == 1:
        return one_row(value, shape[0])
    split = _vector_as_array(rewriter, value)
    assert split is not None
    return _rows_to_vector(rewriter, [one_row(r, shape[1]) for r in split[1]], t)


class RcpPattern(_Pattern):
    ROOT = ng.RcpOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.RcpOp)
        from tile_lsp.compiler.mlir.dialects import nvvm

        t = op.input.type
        if not isinstance(t, VectorType) or len(t.get_shape()) > 2:
            return self.error(op, UNSUPPORTED.format(what=f"rcp of {ng.mlir_type_str(t)}"))

        def rcp(x: SSAValue) -> SSAValue:
            return _ins(rewriter, nvvm.RcpApproxFtzF32Op(x)).results[0]

        _replace(rewriter, op, [_map_lanes(rewriter, op.input, rcp)])
        return True


class CvtFpTruncPattern(_Pattern):
    """vector<2xf32> -> vector<2x{f16,bf16}>: `nvvm.convert.f32x2.to.{f16x2,bf16x2}` (hi = lane 1, lo = lane 0)."""

    ROOT = ng.CvtFpTruncOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.CvtFpTruncOp)
        from tile_lsp.compiler.mlir.dialects import nvvm

        it, rt = op.input.type, op.res.type
        assert isinstance(it, VectorType) and isinstance(rt, VectorType)
        if not isinstance(it.element_type, Float32Type) or not isinstance(rt.element_type, (Float16Type, BFloat16Type)):
            return self.error(
                op, UNSUPPORTED.format(what=f"packed conversion {ng.mlir_type_str(it)} to {ng.mlir_type_str(rt)}")
            )
        lo = _extract_elem(rewriter, op.input, 0)
        hi = _extract_elem(rewriter, op.input, 1)
        cls = nvvm.ConvertF32x2ToF16x2Op if isinstance(rt.element_type, Float16Type) else nvvm.ConvertF32x2ToBF16x2Op
        new = _ins(rewriter, cls(hi, lo, rt))
        _replace(rewriter, op, [new.results[0]])
        return True


class CvtFpExtPattern(_Pattern):
    """vector<2x{f16,bf16}> -> vector<2xf32>: one `llvm.fpext` on the pair (NVPTX: two cvt.f32.f16)."""

    ROOT = ng.CvtFpExtOp

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.CvtFpExtOp)
        it, rt = op.input.type, op.res.type
        assert isinstance(it, VectorType) and isinstance(rt, VectorType)
        if not isinstance(it.element_type, (Float16Type, BFloat16Type)) or not isinstance(rt.element_type, Float32Type):
            return self.error(
                op, UNSUPPORTED.format(what=f"packed conversion {ng.mlir_type_str(it)} to {ng.mlir_type_str(rt)}")
            )
        new = _ins(rewriter, llvm.FPExtOp(op.input, rt))
        _replace(rewriter, op, [new.results[0]])
        return True


class FmaPackedPattern(_Pattern):
    ROOT = ng.FmaPackedF32x2Op

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.FmaPackedF32x2Op)
        a, b, c = op.args
        new = _ins(rewriter, llvm.FMAOp(a, b, c))
        _replace(rewriter, op, [new.results[0]])
        return True


class MulPackedPattern(_Pattern):
    ROOT = ng.MulPackedF32x2Op

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        assert isinstance(op, ng.MulPackedF32x2Op)
        a, b = op.args
        new = _ins(rewriter, llvm.FMulOp(a, b))
        _replace(rewriter, op, [new.results[0]])
        return True


PATTERNS: tuple[type[_Pattern], ...] = (
    MBarrierCreatePattern,
    MBarrierInitPattern,
    MBarrierArrivePattern,
    MBarrierArriveNoCompletePattern,
    MBarrierArriveExpectTxPattern,
    MBarrierTestWaitPattern,
    MBarrierTryWaitParityPattern,
    TmaAsyncLoadPattern,
    TmaAsyncStorePattern,
    TmaCreateDescriptorPattern,
    TmaPrefetchPattern,
    TmaFencePattern,
    WarpgroupGenerateDescriptorPattern,
    WarpgroupMmaPattern,
    WarpgroupMmaStorePattern,
    WarpgroupMmaInitAccumulatorPattern,
    MmaSyncPattern,
    LdMatrixPattern,
    DeviceAsyncCopyPattern,
    DeviceAsyncCreateGroupPattern,
    DeviceAsyncWaitPattern,
    MmaSparseSyncPattern,
    RcpPattern,
    CvtFpTruncPattern,
    CvtFpExtPattern,
    FmaPackedPattern,
    MulPackedPattern,
)


def nvgpu_patterns(lctx: LoweringContext) -> list[RewritePattern]:
    """One pattern per nvgpu op (seed 000's NVGPU table)."""
    return [p(lctx) for p in PATTERNS]


__all__ = [
    "PATTERNS",
    "accumulator_struct",
    "convert_nvgpu_type",
    "gmma_descriptor_bits",
    "nvgpu_patterns",
    "sparse_mma_asm",
]
