"""nvgpu -> nvvm (stage 4): mbarrier.* and TMA (tma.async.load/store, tma.create.descriptor,
prefetch, fence) patterns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    UnitAttr,
    UnrealizedConversionCastOp,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.nvgpu_nvvm_core import (
    UNSUPPORTED,
    NvgpuPattern,
    OpT,
    base_ptr,
    const,
    insert_op,
    llvm_array,
    lower_to,
    replace_results,
    to_int,
)
from tile_lsp.compiler.lowering.types import (
    cast_to,
    llvm_ptr,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na
from tile_lsp.compiler.mlir.dialects.llvm_ext import (
    AddrSpaceCastOp,
    StoreOp,
)

TENSORMAP_BYTES = 128

# ----------------------------------------------------------------------------------------------
# mbarrier
# ----------------------------------------------------------------------------------------------


def mbarrier_operand_error(op: Operation, barrier: SSAValue) -> str | None:
    """MLIR's operand-type diagnostic when the barrier is not a shared-memory mbarrier group."""
    t = barrier.type
    if isinstance(t, ng.MBarrierGroupType) and ng.is_shared_space(t.memorySpace):
        return None
    return f"'{op.name}' op operand #0 must be mbarrier barrier type, but got '{ng.mlir_type_str(t)}'"


class _MBarrierPattern(NvgpuPattern[OpT]):
    def barrier_ptr(
        self, op: Operation, rewriter: PatternRewriter, barrier: SSAValue, mbar_id: SSAValue
    ) -> SSAValue | None:
        msg = mbarrier_operand_error(op, barrier)
        if msg is not None:
            self.lctx.error(op, msg)
            return None
        base = cast_to(rewriter, barrier, llvm_ptr(ng.SHARED_AS))
        idx = to_int(rewriter, mbar_id, i64)
        owner = idx.owner
        if isinstance(owner, UnrealizedConversionCastOp):
            owner = owner.inputs[0].owner
        value = getattr(owner, "properties", {}).get("value") if isinstance(owner, Operation) else None
        if isinstance(value, IntegerAttr) and value.value.data == 0:
            return base
        gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], i64, ssa_indices=[idx], result_type=llvm_ptr(ng.SHARED_AS))
        return insert_op(rewriter, gep).results[0]


class MBarrierCreatePattern(NvgpuPattern[ng.MBarrierCreateOp]):
    """`nvgpu.mbarrier.create` -> a private shared-memory global `!llvm.array<N x i64>` + addressof."""

    def rewrite(self, op: ng.MBarrierCreateOp, rewriter: PatternRewriter) -> bool:
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
        glob = llvm.GlobalOp(llvm_array(t.num_barriers.data, i64), name, "internal", addr_space=ng.SHARED_AS, alignment=8)
        glob.location = op.location
        _insert_at_top(scope, glob)
        addr = insert_op(rewriter, llvm.AddressOfOp(name, llvm_ptr(ng.SHARED_AS)))
        replace_results(rewriter, op, [addr.results[0]])
        return True


# How an nvgpu operand of an mbarrier op becomes the nvvm operand (its table row's `ARGS`).
_Convert = Callable[[PatternRewriter, SSAValue], SSAValue]


def _token(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
    return cast_to(rewriter, value, i64)


class _BarrierOperands(Protocol):
    barriers: SSAValue
    mbarId: SSAValue


class _MBarrierOpPattern(_MBarrierPattern[Operation]):
    """An mbarrier op lowered to its nvvm twin `NVVM`: the barrier's element address, then the
    operands named in `ARGS`, converted in order, then the predicate where the op has one; the
    nvvm result (of type `RESULT`, None: no result) replaces the op's, else the op is erased."""

    NVVM: type[Operation] = Operation
    ARGS: tuple[tuple[str, _Convert], ...] = ()
    RESULT: Attribute | None = None

    def rewrite(self, op: Operation, rewriter: PatternRewriter) -> bool:
        barrier = cast(_BarrierOperands, op)
        ptr = self.barrier_ptr(op, rewriter, barrier.barriers, barrier.mbarId)
        if ptr is None:
            return False
        args = [ptr, *(convert(rewriter, getattr(op, field)) for field, convert in self.ARGS)]
        predicate = getattr(op, "predicate", None)
        if predicate is not None:
            args.append(predicate)
        result_types = [] if self.RESULT is None else [self.RESULT]
        return lower_to(rewriter, op, self.NVVM.create(operands=args, result_types=result_types))


class MBarrierInitPattern(_MBarrierOpPattern):
    ROOT, NVVM, ARGS = ng.MBarrierInitOp, na.MBarrierInitOp, (("count", to_int),)


class MBarrierArrivePattern(_MBarrierOpPattern):
    ROOT, NVVM, RESULT = ng.MBarrierArriveOp, na.MBarrierArriveOp, i64


class MBarrierArriveNoCompletePattern(_MBarrierOpPattern):
    ROOT, NVVM, ARGS, RESULT = ng.MBarrierArriveNoCompleteOp, na.MBarrierArriveNocompleteOp, (("count", to_int),), i64


class MBarrierArriveExpectTxPattern(_MBarrierOpPattern):
    ROOT, NVVM, ARGS = ng.MBarrierArriveExpectTxOp, na.MBarrierArriveExpectTxOp, (("txcount", to_int),)


class MBarrierTestWaitPattern(_MBarrierOpPattern):
    ROOT, NVVM, ARGS, RESULT = ng.MBarrierTestWaitOp, na.MBarrierTestWaitOp, (("token", _token),), i1


class MBarrierTryWaitParityPattern(_MBarrierOpPattern):
    ROOT, NVVM = ng.MBarrierTryWaitParityOp, na.MBarrierTryWaitParityOp
    ARGS = (("phaseParity", to_int), ("ticks", to_int))


# ----------------------------------------------------------------------------------------------
# TMA
# ----------------------------------------------------------------------------------------------


def _hint_and_predicate(
    rewriter: PatternRewriter, op: Operation, predicate: SSAValue | None
) -> tuple[list[SSAValue], list[SSAValue]]:
    """The optional cache-hint and predicate slots of a TMA copy. The hint is a tile-lsp extension:
    an `l2CacheHint = N : i64` attribute fills the cache-hint slot (MLIR 22's nvgpu.tma.async.load
    and store have no cache-hint operand)."""
    hint_attr = op.attributes.get("l2CacheHint")
    hint = [const(rewriter, hint_attr.value.data)] if isinstance(hint_attr, IntegerAttr) else []
    return hint, [predicate] if predicate is not None else []


class TmaAsyncLoadPattern(_MBarrierPattern[ng.TmaAsyncLoadOp]):
    """Slots: dst (shared::cluster), descriptor, coords (i32 x rank), barrier, [multicast], [hint], [pred]."""

    def rewrite(self, op: ng.TmaAsyncLoadOp, rewriter: PatternRewriter) -> bool:
        bar = self.barrier_ptr(op, rewriter, op.barriers, op.mbarId)
        if bar is None:
            return False
        dst = base_ptr(rewriter, self.lctx, op, op.dst)
        if dst is None:
            return False
        dst7 = insert_op(rewriter, AddrSpaceCastOp(dst, llvm_ptr(7))).results[0]
        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        coords = [to_int(rewriter, c) for c in op.coordinates]
        mask = [op.multicastMask] if op.multicastMask is not None else []
        hint, pred = _hint_and_predicate(rewriter, op, op.predicate)
        new = na.CpAsyncBulkTensorSharedClusterGlobalOp.build(
            operands=[dst7, desc, coords, bar, [], mask, hint, pred],
            properties={"mode": na.TMALoadModeAttr.get("tile"), "isCTAOnly": IntegerAttr(0, 1)},
        )
        return lower_to(rewriter, op, new)


class TmaAsyncStorePattern(NvgpuPattern[ng.TmaAsyncStoreOp]):
    """Slots: descriptor, src (shared::cta), coords (i32 x rank), [hint], [pred]."""

    def rewrite(self, op: ng.TmaAsyncStoreOp, rewriter: PatternRewriter) -> bool:
        src = base_ptr(rewriter, self.lctx, op, op.src)
        if src is None:
            return False
        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        coords = [to_int(rewriter, c) for c in op.coordinates]
        hint, pred = _hint_and_predicate(rewriter, op, op.predicate)
        new = na.CpAsyncBulkTensorGlobalSharedCtaOp.build(
            operands=[desc, src, coords, hint, pred], properties={"mode": na.TMAStoreModeAttr.get("tile")}
        )
        return lower_to(rewriter, op, new)


# CUtensorMapDataType values (CUDA driver API enum order).
_CU_DTYPE = {"i8": 0, "i16": 1, "i32": 3, "i64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9}

# Field layout of the 128-byte tensor-map stack object (16 x i64 words):
#   word 0       global base address
#   word 1       rank | dtype << 8 | interleave << 16 | swizzle << 24 | l2promo << 32 | oob << 40
#   words 2..6   box dimensions (runtime operands; 0 beyond the rank)
#   words 7..11  tensor (descriptor memref) extents
#   words 12..15 byte strides of the outer dimensions (row-major, innermost-but-one first)
TENSORMAP_WORDS = TENSORMAP_BYTES // 8


class TmaCreateDescriptorPattern(NvgpuPattern[ng.TmaCreateDescriptorOp]):
    def rewrite(self, op: ng.TmaCreateDescriptorOp, rewriter: PatternRewriter) -> bool:
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
            base = base_ptr(rewriter, self.lctx, op, source)
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
        words[0] = insert_op(rewriter, llvm.PtrToIntOp(base, i64)).results[0]
        words[1] = fields
        for i, d in enumerate(op.boxDimensions[:5]):
            words[2 + i] = to_int(rewriter, d, i64)
        for i, extent in enumerate(shape[:5]):
            words[7 + i] = extent
        for i, s in enumerate(strides[:4]):
            words[12 + i] = s
        size = const(rewriter, 1)
        alloca = insert_op(rewriter, llvm.AllocaOp(size, llvm_array(TENSORMAP_WORDS, i64), alignment=64))
        obj = alloca.results[0]
        for i, w in enumerate(words):
            value = w if isinstance(w, SSAValue) else const(rewriter, w)
            slot = obj if i == 0 else insert_op(rewriter, llvm.GEPOp(obj, [i], i64, result_type=llvm_ptr())).results[0]
            insert_op(rewriter, StoreOp(value, slot, alignment=8))
        replace_results(rewriter, op, [obj])
        return True


class TmaPrefetchPattern(NvgpuPattern[ng.TmaPrefetchOp]):
    def rewrite(self, op: ng.TmaPrefetchOp, rewriter: PatternRewriter) -> bool:
        from tile_lsp.compiler.mlir.dialects import nvvm

        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        pred = [op.predicate] if op.predicate is not None else []
        return lower_to(rewriter, op, nvvm.PrefetchOp.build(operands=[desc, pred], properties={"tensormap": UnitAttr()}))


class TmaFencePattern(NvgpuPattern[ng.TmaFenceOp]):
    """`nvgpu.tma.fence.descriptor` -> `nvvm.fence.proxy.acquire <sys> %desc, 128` (generic -> tensormap)."""

    def rewrite(self, op: ng.TmaFenceOp, rewriter: PatternRewriter) -> bool:
        from tile_lsp.compiler.mlir.dialects import nvvm

        desc = cast_to(rewriter, op.tensorMapDescriptor, llvm_ptr())
        size = const(rewriter, TENSORMAP_BYTES, i32)
        props: dict[str, Attribute] = {
            "scope": nvvm.MemScopeKindAttr(nvvm.MemScopeKind("sys")),
            "fromProxy": nvvm.ProxyKindAttr(nvvm.ProxyKind("generic")),
            "toProxy": nvvm.ProxyKindAttr(nvvm.ProxyKind("tensormap")),
        }
        return lower_to(rewriter, op, nvvm.FenceProxyAcquireOp.build(operands=[desc, size], properties=props))
