"""The llvm stage (seed 002): every nvvm op becomes an `llvm.call_intrinsic "llvm.nvvm.X"`, an
`llvm.inline_asm` with a fixed PTX template, or a short llvm expansion; ops above the target's SM
are diagnosed (op, SM it needs, target chip), and no nvvm op survives.

One dispatch map keyed by op name holds each op's single lowering and SM floor; the
architecture families (mbarrier, TMA, WGMMA, mma, ldmatrix, cp.async, ...) are merged in from
`nvvm_to_llvm_arch.ARCH_LOWERINGS` / `ARCH_SM_FLOORS`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import cast

from xdsl.dialects import builtin, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tile_lsp.compiler.lowering.common import LoweringContext, apply_patterns_to, constant_value, op_name
from tile_lsp.compiler.mlir.context import attr_text as _type_text
from tile_lsp.compiler.mlir.dialects import nvvm
from tile_lsp.compiler.mlir.xdsl_fast import int_attr, string_attr, walk_ops
from tile_lsp.compiler.target import Target

# --------------------------------------------------------------------------------------------
# Dispatch map


class LoweringKind(Enum):
    """How an nvvm op reaches LLVM (fixed per op)."""

    DIRECT_INTRINSIC = "intrinsic"
    INLINE_ASM = "inline_asm"
    LLVM_EXPANSION = "llvm_expansion"


# A rewrite gets the op (the rewriter's insertion point is just before it) and replaces it.
# It returns None when done, or a message naming what is not supported (reported at the op).
Rewrite = Callable[[Operation, PatternRewriter], "str | None"]
Floor = str | Callable[[Operation], str]


@dataclass(frozen=True)
class NvvmLowering:
    """One op's lowering; `floor` None = the family floor of FAMILY_FLOORS (by op-name prefix)."""

    kind: LoweringKind
    rewrite: Rewrite
    floor: Floor | None = None


# --------------------------------------------------------------------------------------------
# Building blocks (also used by the architecture-family lowerings)


def constant(rewriter: PatternRewriter, value: int, type: Attribute = i32) -> SSAValue:
    op = llvm.ConstantOp(int_attr(value, type), type)
    rewriter.insert(op)
    return op.result


def call_intrinsic(
    rewriter: PatternRewriter, name: str, args: Sequence[SSAValue], result: Attribute | None = None
) -> llvm.CallIntrinsicOp:
    """`llvm.call_intrinsic "name"(args) : (...) -> result`, inserted before the matched op."""
    call = llvm.CallIntrinsicOp(string_attr(name), list(args), [result] if result is not None else [])
    rewriter.insert(call)
    return call


def inline_asm(
    rewriter: PatternRewriter,
    template: str,
    constraints: str,
    args: Sequence[SSAValue],
    result: Attribute | None = None,
    side_effects: bool = True,
) -> Operation:
    """`llvm.inline_asm [has_side_effects] asm_dialect = att "template", "constraints" args`."""
    from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp

    asm = InlineAsmOp(template, constraints, list(args), [result] if result is not None else [],
                      asm_dialect=0, has_side_effects=side_effects)  # fmt: skip
    rewriter.insert(asm)
    return asm


def replace_with(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue | None]) -> None:
    rewriter.replace(op, [], list(values))


def _direct(name: str | Callable[[Operation], str]) -> Rewrite:
    """Operands in order, same results: `llvm.call_intrinsic name`."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> str | None:
        intrinsic = name(op) if callable(name) else name
        result = op.results[0].type if op.results else None
        call = call_intrinsic(rewriter, intrinsic, op.operands, result)
        replace_with(rewriter, op, list(call.results))
        return None

    return rewrite


def _intr(name: str | Callable[[Operation], str], floor: Floor = "sm_70") -> NvvmLowering:
    return NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _direct(name), floor)


# --------------------------------------------------------------------------------------------
# Core-family lowerings


_CLUSTER_SREGS = ("clusterid", "nclusterid", "cluster.")


def _sreg_entries() -> dict[str, NvvmLowering]:
    out: dict[str, NvvmLowering] = {}
    for name in nvvm.SPECIAL_REGISTER_OPS:
        reg = name.removeprefix("nvvm.read.ptx.sreg.")
        floor = "sm_90" if reg.startswith(_CLUSTER_SREGS) else "sm_70"
        out[name] = _intr("llvm.nvvm." + name.removeprefix("nvvm."), floor)
    return out


def _lower_barrier0(op: Operation, rewriter: PatternRewriter) -> str | None:
    call_intrinsic(rewriter, BARRIER_ALL, [constant(rewriter, 0)])
    replace_with(rewriter, op, [])
    return None


BARRIER_ALL = "llvm.nvvm.barrier.cta.sync.aligned.all"
BARRIER_COUNT = "llvm.nvvm.barrier.cta.sync.aligned.count"


def _lower_barrier(op: Operation, rewriter: PatternRewriter) -> str | None:
    bar = cast(nvvm.BarrierOp, op)
    bar_id = bar.barrierId if bar.barrierId is not None else constant(rewriter, 0)
    if bar.reductionOp is not None and bar.reductionPredicate is not None:
        kind = bar.reductionOp.data.value
        pred = llvm.ICmpOp(bar.reductionPredicate, constant(rewriter, 0), IntegerAttr(1, i64))  # ne
        rewriter.insert(pred)
        args = [bar_id] if bar.numberOfThreads is None else [bar_id, bar.numberOfThreads]
        suffix = "all" if bar.numberOfThreads is None else "count"
        result: Attribute = i32 if kind == "popc" else i1
        call = call_intrinsic(rewriter, f"llvm.nvvm.barrier.cta.red.{kind}.aligned.{suffix}", [*args, pred.res], result)
        value = call.results[0]
        if result == i1:
            ext = llvm.ZExtOp(value, i32)
            rewriter.insert(ext)
            value = ext.res
        replace_with(rewriter, op, [value])
        return None
    if bar.numberOfThreads is None:
        call_intrinsic(rewriter, BARRIER_ALL, [bar_id])
    else:
        call_intrinsic(rewriter, BARRIER_COUNT, [bar_id, bar.numberOfThreads])
    replace_with(rewriter, op, [])
    return None


def _lower_barrier_arrive(op: Operation, rewriter: PatternRewriter) -> str | None:
    arrive = cast(nvvm.BarrierArriveOp, op)
    bar_id = arrive.barrierId if arrive.barrierId is not None else constant(rewriter, 0)
    call_intrinsic(rewriter, "llvm.nvvm.barrier.cta.arrive.aligned.count", [bar_id, arrive.numberOfThreads])
    replace_with(rewriter, op, [])
    return None


def _aligned_name(base: str) -> Callable[[Operation], str]:
    return lambda op: base + (".aligned" if "aligned" in op.properties else "")


def _fence_proxy_name(op: Operation) -> str:
    fence = cast(nvvm.FenceProxyOp, op)
    kind = fence.kind.data
    if kind == nvvm.ProxyKind.ASYNC_SHARED:
        space = fence.space.data.value if fence.space is not None else "cta"
        return f"llvm.nvvm.fence.proxy.async.shared_{space}"
    return "llvm.nvvm.fence.proxy." + kind.value


def _fence_proxy_floor(op: Operation) -> str:
    kind = op.properties.get("kind")
    return "sm_70" if isinstance(kind, nvvm.ProxyKindAttr) and kind.data == nvvm.ProxyKind.ALIAS else "sm_90"


def _lower_fence_proxy(op: Operation, rewriter: PatternRewriter) -> str | None:
    kind = cast(nvvm.FenceProxyOp, op).kind.data
    if kind in (nvvm.ProxyKind.TENSORMAP, nvvm.ProxyKind.GENERIC):
        return f"fence.proxy with kind '{kind.value}' is written nvvm.fence.proxy.acquire/release"
    call_intrinsic(rewriter, _fence_proxy_name(op), [])
    replace_with(rewriter, op, [])
    return None


def _tensormap_fence(direction: str) -> Rewrite:
    def rewrite(op: Operation, rewriter: PatternRewriter) -> str | None:
        scope = cast(nvvm.MemScopeKindAttr, op.properties["scope"]).data.value
        for key, want in (("fromProxy", nvvm.ProxyKind.GENERIC), ("toProxy", nvvm.ProxyKind.TENSORMAP)):
            proxy = op.properties.get(key)
            if isinstance(proxy, nvvm.ProxyKindAttr) and proxy.data != want:
                return f"only the generic -> tensormap proxy fence is supported, not {key} = {proxy.data.value}"
        if direction == "acquire" and constant_value(op.operands[1]) != 128:
            return "the size of nvvm.fence.proxy.acquire must be the constant 128"
        call_intrinsic(rewriter, f"llvm.nvvm.fence.proxy.tensormap_generic.{direction}.{scope}", op.operands)
        replace_with(rewriter, op, [])
        return None

    return rewrite


_MEMBAR = {"cta": "llvm.nvvm.membar.cta", "cluster": "llvm.nvvm.fence.sc.cluster",
           "gpu": "llvm.nvvm.membar.gl", "sys": "llvm.nvvm.membar.sys"}  # fmt: skip


def _shfl_name(op: Operation) -> str:
    shfl = cast(nvvm.ShflOp, op)
    typ = "f32" if isinstance(shfl.val.type, builtin.Float32Type) else "i32"
    pred = "p" if shfl.return_value_and_is_valid is not None else ""
    return f"llvm.nvvm.shfl.sync.{shfl.kind.data.value}.{typ}{pred}"


def _vote_name(op: Operation) -> str:
    return f"llvm.nvvm.vote.{cast(nvvm.VoteSyncOp, op).kind.data.value}.sync"


def _lower_elect(op: Operation, rewriter: PatternRewriter) -> str | None:
    elect = cast(nvvm.ElectSyncOp, op)
    mask = elect.membermask if elect.membermask is not None else constant(rewriter, -1)
    pair = llvm.LLVMStructType.from_type_list([i32, i1])
    call = call_intrinsic(rewriter, "llvm.nvvm.elect.sync", [mask], pair)
    pred = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), call.results[0], i1)
    rewriter.insert(pred)
    replace_with(rewriter, op, [pred.res])
    return None


def _redux_name(op: Operation) -> str:
    redux = cast(nvvm.ReduxOp, op)
    name = f"llvm.nvvm.redux.sync.{redux.kind.data.value}"
    if isinstance(redux.val.type, builtin.Float32Type):
        if redux.abs is not None and redux.abs.value.data:
            name += ".abs"
        if redux.nan is not None and redux.nan.value.data:
            name += ".NaN"
    return name


def _redux_floor(op: Operation) -> str:
    return "sm_100a" if isinstance(cast(nvvm.ReduxOp, op).val.type, builtin.Float32Type) else "sm_80"


def _match_name(op: Operation) -> str:
    match = cast(nvvm.MatchSyncOp, op)
    width = match.val.type.width.data if isinstance(match.val.type, IntegerType) else 32
    pair = "p" if match.kind.data == nvvm.MatchSyncKind.ALL else ""  # match.all also returns the predicate
    return f"llvm.nvvm.match.{match.kind.data.value}.sync.i{width}{pair}"


def _relu_satfinite(cvt: nvvm._ConvertF32x2Op | nvvm.ConvertFloatToTF32Op) -> str:
    """The `.relu` and `.satfinite` suffixes of a conversion intrinsic, as the op asks for them."""
    relu = ".relu" if cvt.has_relu() else ""
    return relu + (".satfinite" if cvt.saturation() == nvvm.SaturationMode.SATFINITE else "")


def _lower_cvt_f32x2(target: str) -> Rewrite:
    def rewrite(op: Operation, rewriter: PatternRewriter) -> str | None:
        cvt = cast(nvvm._ConvertF32x2Op, op)
        rnd = cvt.rounding()
        if rnd not in (nvvm.FPRoundingMode.RN, nvvm.FPRoundingMode.RZ):
            return f"rounding mode '{rnd.value}' of {op.name} is not supported by the llvm stage"
        name = f"llvm.nvvm.ff2{target}x2.{rnd.value}{_relu_satfinite(cvt)}"
        call = call_intrinsic(rewriter, name, [cvt.src_hi, cvt.src_lo], cvt.dst.type)
        replace_with(rewriter, op, list(call.results))
        return None

    return rewrite


def _lower_cvt_tf32(op: Operation, rewriter: PatternRewriter) -> str | None:
    cvt = cast(nvvm.ConvertFloatToTF32Op, op)
    rnd = cvt.rounding()
    if rnd == nvvm.FPRoundingMode.NONE:
        rnd = nvvm.FPRoundingMode.RNA
    if rnd not in (nvvm.FPRoundingMode.RN, nvvm.FPRoundingMode.RZ, nvvm.FPRoundingMode.RNA):
        return f"rounding mode '{rnd.value}' of {op.name} is not supported"
    name = f"llvm.nvvm.f2tf32.{rnd.value}{_relu_satfinite(cvt)}"
    call = call_intrinsic(rewriter, name, [cvt.src], i32)
    replace_with(rewriter, op, list(call.results))
    return None


_F8_NAMES = {"f8E4M3FN": "e4m3x2", "f8E5M2": "e5m2x2"}


def _lower_cvt_f8x2(op: Operation, rewriter: PatternRewriter) -> str | None:
    cvt = cast(nvvm.ConvertF32x2ToF8x2Op, op)
    dst = _F8_NAMES.get(_type_text(cvt.dstTy))
    if dst is None:
        return f"destination type {_type_text(cvt.dstTy)} of {op.name} is not supported"
    name = f"llvm.nvvm.ff.to.{dst}.rn" + (".relu" if cvt.has_relu() else "")
    call = call_intrinsic(rewriter, name, [cvt.a, cvt.b], IntegerType(16))
    value = call.results[0]
    if isinstance(cvt.dst.type, VectorType):
        cast_op = llvm.BitcastOp(value, cvt.dst.type)
        rewriter.insert(cast_op)
        value = cast_op.result
    replace_with(rewriter, op, [value])
    return None


def _address_space(value: SSAValue) -> int:
    typ = value.type
    if isinstance(typ, llvm.LLVMPointerType) and isinstance(typ.addr_space, builtin.IntAttr):
        return typ.addr_space.data
    return 0


def _prefetch_name(op: Operation) -> str:
    pre = cast(nvvm.PrefetchOp, op)
    space = _address_space(pre.addr)
    if pre.tensormap is not None:
        return f"llvm.nvvm.prefetch.tensormap.p{101 if pre.in_param_space is not None else space}"
    level = pre.cacheLevel.data.value if pre.cacheLevel is not None else "L2"
    if pre.uniform is not None:
        return f"llvm.nvvm.prefetchu.{level}"
    where = {1: "global.", 5: "local."}.get(space, "")
    name = f"llvm.nvvm.prefetch.{where}{level}"
    if pre.evictPriority is not None:
        text = _type_text(pre.evictPriority)
        name += ".evict.last" if "evict_last" in text else ".evict.normal"
    return name


def _prefetch_ptx(op: Operation) -> str | None:
    """The PTX of a prefetch (for the predicated form, which has no intrinsic)."""
    pre = cast(nvvm.PrefetchOp, op)
    space = _address_space(pre.addr)
    if pre.tensormap is not None:
        where = {0: "", 4: ".const"}.get(space)
        return None if where is None or pre.in_param_space is not None else f"prefetch{where}.tensormap [$0];"
    if pre.uniform is not None or pre.evictPriority is not None:
        return None
    level = pre.cacheLevel.data.value if pre.cacheLevel is not None else "L2"
    where = {0: "", 1: ".global", 5: ".local"}.get(space)
    return None if where is None else f"prefetch{where}.{level} [$0];"


def _lower_prefetch(op: Operation, rewriter: PatternRewriter) -> str | None:
    pre = cast(nvvm.PrefetchOp, op)
    if pre.predicate is not None:
        ptx = _prefetch_ptx(op)
        if ptx is None:
            return "this predicated form of nvvm.prefetch is not supported by the llvm stage"
        inline_asm(rewriter, "@$1 " + ptx, "l,b", [pre.addr, pre.predicate])
    else:
        call_intrinsic(rewriter, _prefetch_name(op), [pre.addr])
    replace_with(rewriter, op, [])
    return None


def _mapa_name(op: Operation) -> str:
    return "llvm.nvvm.mapa.shared.cluster" if _address_space(op.operands[0]) == 3 else "llvm.nvvm.mapa"


def _lower_setmaxregister(op: Operation, rewriter: PatternRewriter) -> str | None:
    smr = cast(nvvm.SetMaxRegisterOp, op)
    verb = "inc" if smr.action.data == nvvm.SetMaxRegisterAction.INCREASE else "dec"
    count = constant(rewriter, smr.regCount.value.data)
    call_intrinsic(rewriter, f"llvm.nvvm.setmaxnreg.{verb}.sync.aligned.u32", [count])
    replace_with(rewriter, op, [])
    return None


def _lower_pmevent(op: Operation, rewriter: PatternRewriter) -> str | None:
    event = cast(nvvm.PMEventOp, op)
    if event.maskedEventId is not None:
        mask = event.maskedEventId.value.data
    elif event.eventId is not None:
        mask = 1 << event.eventId.value.data  # `pmevent N` is the mask with bit N
    else:
        return "nvvm.pmevent needs an id or a mask"
    call_intrinsic(rewriter, "llvm.nvvm.pm.event.mask", [constant(rewriter, mask, IntegerType(16))])
    replace_with(rewriter, op, [])
    return None


def _lower_breakpoint(op: Operation, rewriter: PatternRewriter) -> str | None:
    inline_asm(rewriter, "brkpt;", "", [])
    replace_with(rewriter, op, [])
    return None


NVVM_LOWERINGS: dict[str, NvvmLowering] = {
    **_sreg_entries(),
    # Synchronisation (sm_70). The seed's `llvm.nvvm.barrier0` (`bar.sync 0`) is spelled
    # `llvm.nvvm.barrier.cta.sync.aligned.all(0)` in LLVM 22 (the old name is only auto-upgraded
    # from IR text); intrinsics.lower_intrinsics(level=1) canonicalises old spellings met later.
    "nvvm.barrier0": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_barrier0, "sm_70"),
    "nvvm.barrier": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_barrier, "sm_70"),
    "nvvm.barrier.arrive": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_barrier_arrive, "sm_70"),
    "nvvm.bar.warp.sync": _intr("llvm.nvvm.bar.warp.sync"),
    # Cluster barriers (sm_90)
    "nvvm.cluster.arrive": _intr(_aligned_name("llvm.nvvm.barrier.cluster.arrive"), "sm_90"),
    "nvvm.cluster.arrive.relaxed": _intr(_aligned_name("llvm.nvvm.barrier.cluster.arrive.relaxed"), "sm_90"),
    "nvvm.cluster.wait": _intr(_aligned_name("llvm.nvvm.barrier.cluster.wait"), "sm_90"),
    # Fences
    "nvvm.fence.sc.cluster": _intr("llvm.nvvm.fence.sc.cluster", "sm_90"),
    "nvvm.fence.mbarrier.init": _intr("llvm.nvvm.fence.mbarrier_init.release.cluster", "sm_90"),
    # fence.proxy.alias is sm_70 (PTX 7.5); the async proxies came with sm_90.
    "nvvm.fence.proxy": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_fence_proxy, _fence_proxy_floor),
    "nvvm.fence.proxy.acquire": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _tensormap_fence("acquire"), "sm_90"),
    "nvvm.fence.proxy.release": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _tensormap_fence("release"), "sm_90"),
    "nvvm.memory.barrier": NvvmLowering(
        LoweringKind.DIRECT_INTRINSIC,
        _direct(lambda op: _MEMBAR[cast(nvvm.MembarOp, op).scope.data.value]),
        lambda op: "sm_90" if cast(nvvm.MembarOp, op).scope.data == nvvm.MemScopeKind.CLUSTER else "sm_70",
    ),
    # shfl / vote / elect / match / redux
    "nvvm.shfl.sync": _intr(_shfl_name),
    "nvvm.vote.sync": _intr(_vote_name),
    "nvvm.elect.sync": NvvmLowering(LoweringKind.LLVM_EXPANSION, _lower_elect, "sm_90"),
    "nvvm.match.sync": _intr(_match_name),
    "nvvm.redux.sync": _intr(_redux_name, _redux_floor),
    # arithmetic / conversions
    "nvvm.rcp.approx.ftz.f": _intr("llvm.nvvm.rcp.approx.ftz.f"),
    "nvvm.convert.float.to.tf32": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_cvt_tf32, "sm_80"),
    "nvvm.convert.f32x2.to.f16x2": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_cvt_f32x2("f16"), "sm_80"),
    "nvvm.convert.f32x2.to.bf16x2": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_cvt_f32x2("bf16"), "sm_80"),
    "nvvm.convert.f32x2.to.f8x2": NvvmLowering(LoweringKind.LLVM_EXPANSION, _lower_cvt_f8x2, "sm_89"),
    # misc
    "nvvm.prefetch": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_prefetch, "sm_90"),
    "nvvm.nanosleep": _intr("llvm.nvvm.nanosleep"),
    "nvvm.mapa": _intr(_mapa_name, "sm_90"),
    "nvvm.exit": _intr("llvm.nvvm.exit"),
    "nvvm.breakpoint": NvvmLowering(LoweringKind.INLINE_ASM, _lower_breakpoint, "sm_70"),
    "nvvm.griddepcontrol": _intr(
        lambda op: "llvm.nvvm.griddepcontrol." + cast(nvvm.GridDepControlOp, op).kind.data.value.replace("_", "."),
        "sm_90",
    ),
    "nvvm.pmevent": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_pmevent, "sm_70"),
    "nvvm.setmaxregister": NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _lower_setmaxregister, "sm_90a+"),
}

# SM floors of the architecture families by op-name prefix (seed 002 "Per-Arch Availability"),
# used when nvvm_to_llvm_arch.ARCH_SM_FLOORS names no floor for an op. Longest prefix wins.
FAMILY_FLOORS: dict[str, str] = {
    "nvvm.wmma": "sm_70",
    "nvvm.mma.sync": "sm_75",
    "nvvm.mma.sp": "sm_80",
    "nvvm.mma.block_scale": "sm_100a",
    "nvvm.wgmma": "sm_90a",
    "nvvm.cp.async": "sm_80",
    "nvvm.cp.async.mbarrier": "sm_80",
    "nvvm.cp.async.bulk": "sm_90",
    "nvvm.mbarrier": "sm_80",
    "nvvm.mbarrier.arrive.expect_tx": "sm_90",
    "nvvm.mbarrier.arrive_drop.expect_tx": "sm_90",
    "nvvm.mbarrier.try_wait": "sm_90",
    "nvvm.mbarrier.expect_tx": "sm_90",
    "nvvm.ldmatrix": "sm_75",
    "nvvm.stmatrix": "sm_90",
    "nvvm.tcgen05": "sm_100a",
    "nvvm.cluster": "sm_90",
    "nvvm.prefetch.tensormap": "sm_90",
    "nvvm.setmaxregister": "sm_90a+",
    "nvvm.redux": "sm_80",
}


# --------------------------------------------------------------------------------------------
# Per-arch legality


@dataclass(frozen=True)
class SmFloor:
    """The lowest target an op runs on. `sm_90a`: only that family's arch-specific chip (WGMMA is
    sm_90a only); `sm_90a+`: any arch-specific chip from sm_90a on (setmaxnreg)."""

    cc: int
    arch_specific: bool = False
    later_families: bool = False

    @staticmethod
    def parse(chip: str) -> SmFloor:
        later = chip.endswith("+")
        target = Target.parse_gpu_name(chip.rstrip("+"))
        if target is None:
            return SmFloor(0)
        return SmFloor(target.cc, target.suffix == "a", later and target.suffix == "a")

    @property
    def chip(self) -> str:
        return f"sm_{self.cc}{'a' if self.arch_specific else ''}"

    def allows(self, target: Target) -> bool:
        if target.cc < self.cc:
            return False
        if self.arch_specific:
            return target.suffix == "a" and (self.later_families or target.cc // 10 == self.cc // 10)
        return True

    def message(self, op_name: str, target: Target) -> str:
        if self.later_families:
            return f"'{op_name}' requires {self.chip} or a newer arch-specific target but the target is {target.chip}"
        if self.arch_specific:
            return f"'{op_name}' requires {self.chip} but the target is {target.chip}"
        return f"'{op_name}' requires {self.chip} or newer but the target is {target.chip}"


def sm_floor(op: Operation, table: dict[str, NvvmLowering], arch_floors: dict[str, object]) -> SmFloor:
    """The floor of `op`: the arch module's table, then the dispatch map, then the family prefixes."""
    name = op_name(op)
    spec: object = arch_floors.get(name)
    if spec is None and name in table:
        spec = table[name].floor
    if callable(spec):
        try:
            spec = spec(op)
        except Exception:  # an op of unexpected shape (e.g. unregistered): use its family floor
            spec = None
    if spec is None:
        prefixes = [p for p in FAMILY_FLOORS if name == p or name.startswith(p + ".")]
        spec = FAMILY_FLOORS[max(prefixes, key=len)] if prefixes else "sm_70"
    if isinstance(spec, SmFloor):
        return spec
    if isinstance(spec, int):
        return SmFloor(spec)
    return SmFloor.parse(str(spec))


def target_of(op: Operation, lctx: LoweringContext) -> Target | None:
    """The compile target, else the chip of the enclosing gpu.module's `#nvvm.target`."""
    if lctx.options.target is not None:
        return lctx.options.target
    parent = op.parent_op()
    while parent is not None and parent.name != "gpu.module":
        parent = parent.parent_op()
    if parent is None:
        return None
    targets = parent.properties.get("targets", parent.attributes.get("targets"))
    for attr in targets.data if isinstance(targets, ArrayAttr) else ():
        chip = getattr(attr, "chip", None)
        if isinstance(chip, builtin.StringAttr):
            return Target.parse_gpu_name(chip.data)
    return None


# --------------------------------------------------------------------------------------------
# The architecture families (helper module; absent or partial is tolerated)


def _arch_tables() -> tuple[dict[str, NvvmLowering], dict[str, object]]:
    try:
        arch = importlib.import_module("tile_lsp.compiler.lowering.nvvm_to_llvm_arch")
    except Exception:
        return {}, {}
    lowerings: dict[str, NvvmLowering] = {}
    for name, entry in dict(getattr(arch, "ARCH_LOWERINGS", {}) or {}).items():
        adapted = _adapt(entry)
        if adapted is not None:
            lowerings[name] = adapted
    floors = dict(getattr(arch, "ARCH_SM_FLOORS", {}) or {})
    return lowerings, floors


def _adapt(entry: object) -> NvvmLowering | None:
    """An ARCH_LOWERINGS value: an NvvmLowering, a RewritePattern, or a callable
    `(op, rewriter)` / `(op, rewriter, lctx)` returning None or an error message."""
    if isinstance(entry, NvvmLowering):
        return entry
    if isinstance(entry, RewritePattern):
        pattern = entry

        def via_pattern(op: Operation, rewriter: PatternRewriter) -> str | None:
            pattern.match_and_rewrite(op, rewriter)
            return None

        return NvvmLowering(LoweringKind.DIRECT_INTRINSIC, via_pattern)
    if callable(entry):
        fn = cast(Callable[..., object], entry)
        return NvvmLowering(LoweringKind.DIRECT_INTRINSIC, _with_arity(fn))
    return None


def _with_arity(fn: Callable[..., object]) -> Rewrite:
    try:
        wants_lctx = len(inspect.signature(fn).parameters) >= 3
    except (TypeError, ValueError):
        wants_lctx = False

    def rewrite(op: Operation, rewriter: PatternRewriter) -> str | None:
        result = fn(op, rewriter, _CURRENT[-1]) if wants_lctx and _CURRENT else fn(op, rewriter)
        return result if isinstance(result, str) else None

    return rewrite


_CURRENT: list[LoweringContext] = []


def dispatch_map() -> tuple[dict[str, NvvmLowering], dict[str, object]]:
    """The merged dispatch map (core + architecture families) and the arch SM floors."""
    arch, floors = _arch_tables()
    table = dict(arch)
    table.update(NVVM_LOWERINGS)
    return table, floors


# --------------------------------------------------------------------------------------------
# The conversion


class _LowerNvvmOp(RewritePattern):
    """One pattern for all nvvm ops: legality against the target, then the dispatch map entry."""

    def __init__(self, lctx: LoweringContext, table: dict[str, NvvmLowering], floors: dict[str, object]):
        self.lctx = lctx
        self.table = table
        self.floors = floors
        self.reported: set[Operation] = set()

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        name = op_name(op)
        if not name.startswith("nvvm.") or op in self.reported:
            return
        target = target_of(op, self.lctx)
        if target is not None:
            floor = sm_floor(op, self.table, self.floors)
            if not floor.allows(target):
                self._report(op, floor.message(name, target))
                return
        entry = self.table.get(name)
        if entry is None:
            return  # reported by the survivor check
        try:
            problem = entry.rewrite(op, rewriter)
        except Exception as exc:  # a lowering bug must not take the server down
            problem = f"cannot lower '{name}': {exc}"
        if problem is not None:
            self._report(op, problem)

    def _report(self, op: Operation, message: str) -> None:
        self.reported.add(op)
        self.lctx.error(op, message, stage="llvm")


def convert_nvvm_to_llvm(module: builtin.ModuleOp, lctx: LoweringContext) -> bool:
    """Lower every nvvm op to the llvm dialect; False after any diagnostic."""
    table, floors = dispatch_map()
    pattern = _LowerNvvmOp(lctx, table, floors)
    _CURRENT.append(lctx)
    try:
        apply_patterns_to(module, [pattern], lambda name: name.startswith("nvvm."))  # (only those change)
    finally:
        _CURRENT.pop()
    survivors_ok = True
    for op in walk_ops(module):
        name = op_name(op)
        if name.startswith("nvvm.") and op not in pattern.reported:
            lctx.error(op, f"failed to legalize operation '{name}': no NVVM-to-LLVM lowering", stage="llvm")
            survivors_ok = False
    return survivors_ok and not pattern.reported


__all__ = [
    "FAMILY_FLOORS",
    "NVVM_LOWERINGS",
    "LoweringKind",
    "NvvmLowering",
    "SmFloor",
    "call_intrinsic",
    "constant",
    "convert_nvvm_to_llvm",
    "dispatch_map",
    "inline_asm",
    "op_name",
    "replace_with",
    "sm_floor",
    "target_of",
]
