"""NVVM -> LLVM for the architecture families of nvvm_arch.py (seed 002; consumed by nvvm_to_llvm.py).

`ARCH_LOWERINGS`: op name -> `NvvmLowering(kind, rewrite, floor)`; `ARCH_SM_FLOORS`: op name ->
`SmFloor(cc, arch_specific)` (= (sm int, needs the 'a' suffix)). Intrinsic names, operand orders and the
inline-PTX templates are LLVM 22's / MLIR 22's (`mlir-opt --convert-nvvm-to-llvm | mlir-translate`
produces the same calls); every intrinsic named here is one LLVM 22 (llvmlite 0.50) selects.

Forms with a predicate operand, `try_wait.parity` (a retry loop) and `wgmma.mma_async` have no LLVM
intrinsic and become `llvm.inline_asm` with MLIR 22's templates. TMA loads/stores pass the optional
multicast mask / L2 cache hint as real operands plus i1 "enable" immediates (multicastEnable,
cacheHintEnable) — absent operands become zero with the enable flag false.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseArrayBase, Float32Type, IntegerAttr, IntegerType, VectorType, i1, i16, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.nvvm_to_llvm import (
    LoweringKind,
    NvvmLowering,
    SmFloor,
    call_intrinsic,
    constant,
    inline_asm,
    replace_with,
)
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na

Rewrite = Callable[[Operation, PatternRewriter], "str | None"]


def _prop(op: Operation, name: str) -> Attribute | None:
    found = op.properties.get(name)
    return found if found is not None else op.attributes.get(name)


def _enum(op: Operation, name: str, default: str = "") -> str:
    attr = _prop(op, name)
    if attr is None:
        return default
    value = getattr(attr, "value", None)
    if value is not None and hasattr(value, "data"):
        return str(value.data)
    data = getattr(attr, "data", attr)
    return str(getattr(data, "value", data))


def _int(op: Operation, name: str, default: int = 0) -> int:
    attr = _prop(op, name)
    return attr.value.data if isinstance(attr, IntegerAttr) else default


def _space(v: SSAValue) -> int:
    return na.ptr_space(v.type) or 0


def _const(rewriter: PatternRewriter, value: int, t: IntegerType = i32) -> SSAValue:
    return constant(rewriter, value, t)


def _done(rewriter: PatternRewriter, op: Operation, results: Sequence[SSAValue]) -> None:
    replace_with(rewriter, op, list(results))


def _call(rewriter: PatternRewriter, op: Operation, name: str, args: Sequence[SSAValue]) -> None:
    result = op.results[0].type if op.results else None
    call = call_intrinsic(rewriter, name, args, result)
    _done(rewriter, op, list(call.results))


def _asm(rewriter: PatternRewriter, op: Operation, template: str, constraints: str, args: Sequence[SSAValue]) -> None:
    result = op.results[0].type if op.results else None
    asm = inline_asm(rewriter, template, constraints, args, result)
    _done(rewriter, op, list(asm.results))


# ----------------------------------------------------------------------------------------------
# mbarrier
# ----------------------------------------------------------------------------------------------

# op -> (intrinsic stem, PTX of the predicated form, whether .shared is selected by the pointer)
_MBARRIER: dict[str, tuple[str, str]] = {
    "nvvm.mbarrier.init": ("llvm.nvvm.mbarrier.init", "mbarrier.init{s}.b64 [$0], $1;"),
    "nvvm.mbarrier.inval": ("llvm.nvvm.mbarrier.inval", "mbarrier.inval{s}.b64 [$0];"),
    "nvvm.mbarrier.arrive": ("llvm.nvvm.mbarrier.arrive", ""),
    "nvvm.mbarrier.arrive.nocomplete": ("llvm.nvvm.mbarrier.arrive.noComplete", ""),
    "nvvm.mbarrier.test.wait": ("llvm.nvvm.mbarrier.test.wait", ""),
}


def _legacy(name: str) -> str:
    return na.LEGACY_SHARED_MBARRIER.get(name, name)


def _lower_mbarrier(op: Operation, rewriter: PatternRewriter) -> str | None:
    name = _legacy(op.name)
    stem, predicated = _MBARRIER[name]
    args = list(op.operands)
    shared = _space(args[0]) == 3
    has_pred = name in ("nvvm.mbarrier.init",) and len(args) == 3
    if has_pred:
        template = "@$2 " + predicated.replace("{s}", ".shared" if shared else "")
        _asm(rewriter, op, template, f"{'r' if shared else 'l'},r,b", args)
        return None
    if name == "nvvm.mbarrier.test.wait" and shared:
        _call(rewriter, op, "llvm.nvvm.mbarrier.test.wait.scope.cta.space.cta", args)
        return None
    _call(rewriter, op, stem + (".shared" if shared else ""), args)
    return None


def _lower_expect_tx(op: Operation, rewriter: PatternRewriter) -> str | None:
    args = list(op.operands)
    shared = _space(args[0]) == 3
    if len(args) == 3 or not shared:
        pred = "@$2 " if len(args) == 3 else ""
        template = f"{pred}mbarrier.arrive.expect_tx{'.shared' if shared else ''}.b64 _, [$0], $1;"
        cons = f"{'r' if shared else 'l'},r" + (",b" if len(args) == 3 else "")
        _asm(rewriter, op, template, cons, args)
        return None
    call = call_intrinsic(rewriter, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", args, i64)
    _done(rewriter, op, [])
    _ = call
    return None


TRY_WAIT_PARITY_ASM = (
    "{\n\t.reg .pred       P1; \n\tLAB_WAIT: \n\tmbarrier.try_wait.parity{s}.b64 P1, [$0], $1, $2; "
    "\n\t@P1 bra.uni DONE; \n\tbra.uni     LAB_WAIT; \n\tDONE: \n\t}"
)


def _lower_try_wait_parity(op: Operation, rewriter: PatternRewriter) -> str | None:
    args = list(op.operands)
    shared = _space(args[0]) == 3
    template = TRY_WAIT_PARITY_ASM.replace("{s}", ".shared" if shared else "")
    _asm(rewriter, op, template, f"{'r' if shared else 'l'},r,r", args)
    return None


# ----------------------------------------------------------------------------------------------
# TMA
# ----------------------------------------------------------------------------------------------


def _lower_tma_load(op: Operation, rewriter: PatternRewriter) -> str | None:
    """`llvm.nvvm.cp.async.bulk.tensor.g2s.tile.Nd(dst7, bar3, tmap, c0..cN-1, i16 mask, i64 hint,
    i1 multicastEnable, i1 cacheHintEnable, i32 ctaGroup)`; with a predicate: MLIR 22's inline PTX."""
    assert isinstance(op, na.CpAsyncBulkTensorSharedClusterGlobalOp)
    rank = len(op.coordinates)
    mode = _enum(op, "mode", "tile")
    if op.predicate is not None or op.im2colOffsets:
        if op.multicastMask is not None or op.l2CacheHint is not None or op.im2colOffsets:
            return "not supported by the llvm stage: predicated TMA load with multicast/cache-hint/im2col"
        assert op.predicate is not None
        coords = ", ".join(f"${2 + i}" for i in range(rank))
        template = (
            f"@${rank + 3} cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::complete_tx::bytes "
            f"[$0], [$1, {{{coords}}} ], [${rank + 2}];"
        )
        cons = ",".join(["l", "l"] + ["r"] * rank + ["r", "b"])
        _asm(rewriter, op, template, cons, [op.dstMem, op.tmaDescriptor, *op.coordinates, op.mbar, op.predicate])
        return None
    if mode != "tile":
        return f"not supported by the llvm stage: TMA load mode {mode}"
    mask = op.multicastMask if op.multicastMask is not None else _const(rewriter, 0, i16)
    hint = op.l2CacheHint if op.l2CacheHint is not None else _const(rewriter, 0, i64)
    mc_enable = _const(rewriter, int(op.multicastMask is not None), i1)
    ch_enable = _const(rewriter, int(op.l2CacheHint is not None), i1)
    cta_group = _const(rewriter, 0, i32)
    args = [op.dstMem, op.mbar, op.tmaDescriptor, *op.coordinates, mask, hint, mc_enable, ch_enable, cta_group]
    _call(rewriter, op, f"llvm.nvvm.cp.async.bulk.tensor.g2s.tile.{rank}d", args)
    return None


def _lower_tma_store(op: Operation, rewriter: PatternRewriter) -> str | None:
    """`llvm.nvvm.cp.async.bulk.tensor.s2g.tile.Nd(src3, tmap, c0..cN-1, i64 hint, i1 cacheHintEnable)`."""
    assert isinstance(op, na.CpAsyncBulkTensorGlobalSharedCtaOp)
    rank = len(op.coordinates)
    if op.predicate is not None:
        if op.l2CacheHint is not None:
            return "not supported by the llvm stage: predicated TMA store with a cache hint"
        coords = ", ".join(f"${2 + i}" for i in range(rank))
        template = f"@${rank + 2} cp.async.bulk.tensor.{rank}d.global.shared::cta.bulk_group [$0, {{{coords}}} ], [$1];"
        cons = ",".join(["l", "r"] + ["r"] * rank + ["b"])
        _asm(rewriter, op, template, cons, [op.tmaDescriptor, op.srcMem, *op.coordinates, op.predicate])
        return None
    hint = op.l2CacheHint if op.l2CacheHint is not None else _const(rewriter, 0, i64)
    enable = _const(rewriter, int(op.l2CacheHint is not None), i1)
    args = [op.srcMem, op.tmaDescriptor, *op.coordinates, hint, enable]
    _call(rewriter, op, f"llvm.nvvm.cp.async.bulk.tensor.s2g.tile.{rank}d", args)
    return None


def _lower_tma_prefetch(op: Operation, rewriter: PatternRewriter) -> str | None:
    """`llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.Nd(tmap, c0..cN-1, i64 hint, i1 cacheHintEnable)`."""
    assert isinstance(op, na.CpAsyncBulkTensorPrefetchOp)
    rank = len(op.coordinates)
    if op.im2colOffsets:
        return "not supported by the llvm stage: im2col TMA prefetch"
    hint = op.l2CacheHint if op.l2CacheHint is not None else _const(rewriter, 0, i64)
    enable = _const(rewriter, int(op.l2CacheHint is not None), i1)
    _call(
        rewriter,
        op,
        f"llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.{rank}d",
        [op.tmaDescriptor, *op.coordinates, hint, enable],
    )
    return None


def _lower_bulk_wait(op: Operation, rewriter: PatternRewriter) -> str | None:
    name = "llvm.nvvm.cp.async.bulk.wait.group" + (".read" if _prop(op, "read") is not None else "")
    _call(rewriter, op, name, [_const(rewriter, _int(op, "group"))])
    return None


# ----------------------------------------------------------------------------------------------
# WGMMA
# ----------------------------------------------------------------------------------------------


def wgmma_asm(op: Operation, acc_count: int, acc_code: str) -> tuple[str, str]:
    """MLIR 22's inline PTX for `nvvm.wgmma.mma_async` (accumulators tied in/out, scale-d via setp)."""
    shape = _prop(op, "shape")
    m, n, k = (
        (shape.m.value.data, shape.n.value.data, shape.k.value.data)
        if isinstance(shape, na.MMAShapeAttr)
        else (64, 8, 16)
    )
    t_d, t_a, t_b = _enum(op, "typeD"), _enum(op, "typeA"), _enum(op, "typeB")
    sat = ".satfinite" if t_d == "s32" and _enum(op, "satfinite", "wrapped") == "satfinite" else ""
    b1 = ".and.popc" if t_a == "b1" else ""
    w = acc_count
    regs = ", ".join(f"${i}" for i in range(w))
    base = 2 * w
    tail = ""
    if t_a in ("f16", "bf16", "tf32", "e4m3", "e5m2"):
        tail = f", ${base + 3},  ${base + 4}"
        if t_a in ("f16", "bf16"):
            tail += f", ${base + 5},  ${base + 6}"
    template = (
        f"{{\n.reg .pred p;\nsetp.ne.b32 p, ${base + 2}, 0;\n"
        f"wgmma.mma_async.sync.aligned.m{m}n{n}k{k}{sat}{b1}.{t_d}.{t_a}.{t_b} {{{regs}}}, ${base}, ${base + 1}, p{tail};\n}}\n"
    )
    constraints = ",".join([f"={acc_code}"] * w + [str(i) for i in range(w)] + ["l", "l"] + ["n"] * 5)
    return template, constraints


def _lower_wgmma(op: Operation, rewriter: PatternRewriter) -> str | None:
    assert isinstance(op, na.WgmmaMmaAsyncOp)
    acc_t = op.inouts.type
    if not isinstance(acc_t, llvm.LLVMStructType):
        return "not supported by the llvm stage: wgmma accumulator that is not a struct"
    elems = list(acc_t.types.data)
    code = "f" if elems and isinstance(elems[0], Float32Type) else "r"
    template, cons = wgmma_asm(op, len(elems), code)
    values = []
    for i, t in enumerate(elems):
        ex = llvm.ExtractValueOp(_pos(i), op.inouts, t)
        rewriter.insert(ex)
        values.append(ex.results[0])
    scale_d = 0 if _enum(op, "scaleD", "one") == "zero" else 1
    scale_a = -1 if _enum(op, "scaleA", "one") == "neg" else 1
    scale_b = -1 if _enum(op, "scaleB", "one") == "neg" else 1
    trans_a = 1 if _enum(op, "layoutA", "row") == "col" else 0
    trans_b = 1 if _enum(op, "layoutB", "col") == "row" else 0
    imms = [_const(rewriter, v) for v in (scale_d, scale_a, scale_b, trans_a, trans_b)]
    _asm(rewriter, op, template, cons, [*values, op.descriptorA, op.descriptorB, *imms])
    return None


def _pos(i: int) -> DenseArrayBase:  # type: ignore[type-arg]
    return DenseArrayBase.from_list(i64, [i])


def _lower_wgmma_wait(op: Operation, rewriter: PatternRewriter) -> str | None:
    _call(rewriter, op, "llvm.nvvm.wgmma.wait_group.sync.aligned", [_const(rewriter, _int(op, "group"), i64)])
    return None


# ----------------------------------------------------------------------------------------------
# mma.sync, ldmatrix
# ----------------------------------------------------------------------------------------------


def _scalar_name(t: Attribute) -> str:
    elem = t.element_type if isinstance(t, VectorType) else t
    return str(elem).replace("bf16", "bf16")


def mma_intrinsic(op: Operation) -> str | None:
    """LLVM 22's `llvm.nvvm.mma.*` name of an `nvvm.mma.sync` (None = unsupported combination)."""
    assert isinstance(op, na.MmaSyncOp)
    shape = _prop(op, "shape")
    if not isinstance(shape, na.MMAShapeAttr):
        return None
    m, n, k = shape.m.value.data, shape.n.value.data, shape.k.value.data
    la, lb = _enum(op, "layoutA", "row"), _enum(op, "layoutB", "col")
    ta = _enum(op, "multiplicandAPtxType") or na.infer_mma_ptx_type(op.operandA[0].type) or ""
    tb = _enum(op, "multiplicandBPtxType") or ta
    head = f"llvm.nvvm.mma.m{m}n{n}k{k}.{la}.{lb}"
    if ta == "b1":
        b1 = _enum(op, "b1Op", "xor_popc").replace("_", ".")
        return f"llvm.nvvm.mma.{b1}.m{m}n{n}k{k}.{la}.{lb}.b1"
    if ta in ("s8", "u8", "s4", "u4"):
        sat = ".satfinite" if _enum(op, "intOverflowBehavior", "wrapped") == "satfinite" else ""
        types = ta if ta == tb else f"{ta}.{tb}"
        return f"{head}{sat}.{types}"
    if ta in ("f16",):
        res = op.results[0].type
        d = "f16" if isinstance(res, llvm.LLVMStructType) and isinstance(res.types.data[0], VectorType) else "f32"
        c = _scalar_name(op.operandC[0].type) if op.operandC else d
        c = "f16" if c == "f16" else "f32"
        return f"{head}.{d}.{c}"
    if ta in ("bf16", "tf32", "f64"):
        return f"{head}.{ta}"
    if ta in ("e4m3", "e5m2"):
        res = op.results[0].type
        d = "f16" if isinstance(res, llvm.LLVMStructType) and isinstance(res.types.data[0], VectorType) else "f32"
        return f"{head}.{ta}.{tb}.{d}"
    return None


def _lower_mma_sync(op: Operation, rewriter: PatternRewriter) -> str | None:
    name = mma_intrinsic(op)
    if name is None:
        return "not supported by the llvm stage: this mma.sync shape/type combination"
    _call(rewriter, op, name, list(op.operands))
    return None


def _matrix_intrinsic(op: Operation, verb: str, num: int) -> str:
    """`llvm.nvvm.{ldmatrix,stmatrix}.sync.aligned.mMnN.xNUM[.trans].ELT.p3`."""
    trans = ".trans" if _enum(op, "layout", "row") == "col" else ""
    shape = _prop(op, "shape")
    mm, nn = (shape.m.value.data, shape.n.value.data) if isinstance(shape, na.LdStMatrixShapeAttr) else (8, 8)
    elt = _enum(op, "eltType", "b16")
    return f"llvm.nvvm.{verb}.sync.aligned.m{mm}n{nn}.x{num}{trans}.{elt}.p3"


def ldmatrix_intrinsic(op: Operation) -> str:
    return _matrix_intrinsic(op, "ldmatrix", _int(op, "num", 1))


def stmatrix_intrinsic(op: Operation) -> str:
    return _matrix_intrinsic(op, "stmatrix", len(op.operands) - 1)


# ----------------------------------------------------------------------------------------------
# cp.async (SM80)
# ----------------------------------------------------------------------------------------------


def _lower_cp_async(op: Operation, rewriter: PatternRewriter) -> str | None:
    assert isinstance(op, na.CpAsyncSharedGlobalOp)
    size = _int(op, "size", 16)
    mod = _enum(op, "modifier", "ca")
    if mod == "cg" and size != 16:
        return "cp.async.cg requires a 16-byte copy"
    name = f"llvm.nvvm.cp.async.{mod}.shared.global.{size}"
    args = [op.dst, op.src]
    if op.cpSize is not None:
        name += ".s"
        args.append(op.cpSize)
    _call(rewriter, op, name, args)
    return None


def _lower_cp_async_wait(op: Operation, rewriter: PatternRewriter) -> str | None:
    _call(rewriter, op, "llvm.nvvm.cp.async.wait.group", [_const(rewriter, _int(op, "n"))])
    return None


def _lower_cp_async_mbarrier_arrive(op: Operation, rewriter: PatternRewriter) -> str | None:
    shared = _space(op.operands[0]) == 3
    noinc = ".noinc" if _prop(op, "noinc") is not None else ""
    _call(rewriter, op, f"llvm.nvvm.cp.async.mbarrier.arrive{noinc}{'.shared' if shared else ''}", list(op.operands))
    return None


# ----------------------------------------------------------------------------------------------
# packed conversions (the f16x2 / f8x2 ones nvvm.py does not own)
# ----------------------------------------------------------------------------------------------


def _f8_kind_and_relu(op: Operation, type_prop: str) -> tuple[str, str]:
    """The f8 kind of a packed f8x2 conversion (`e5m2` when property `type_prop` names E5M2, else
    `e4m3`) and its `.relu` suffix (empty unless the `relu` property is true)."""
    ty = _prop(op, type_prop)
    kind = "e5m2" if ty is not None and "E5M2" in str(ty) else "e4m3"
    relu = ".relu" if _prop(op, "relu") is not None and "true" in str(_prop(op, "relu")) else ""
    return kind, relu


def _lower_f8x2_to_f16x2(op: Operation, rewriter: PatternRewriter) -> str | None:
    """`llvm.nvvm.{e4m3,e5m2}x2.to.f16x2.rn[.relu](i16) -> <2 x half>`."""
    kind, relu = _f8_kind_and_relu(op, "srcType")
    _call(rewriter, op, f"llvm.nvvm.{kind}x2.to.f16x2.rn{relu}", list(op.operands))
    return None


def _lower_f16x2_to_f8x2(op: Operation, rewriter: PatternRewriter) -> str | None:
    """`llvm.nvvm.f16x2.to.{e4m3,e5m2}x2.rn[.relu](<2 x half>) -> i16`."""
    kind, relu = _f8_kind_and_relu(op, "dstTy")
    _call(rewriter, op, f"llvm.nvvm.f16x2.to.{kind}x2.rn{relu}", list(op.operands))
    return None


def _intr(name: str | Callable[[Operation], str]) -> Rewrite:
    """A call of the intrinsic `name` (or the one `name(op)` names) on all the op's operands."""

    def rewrite(op: Operation, rewriter: PatternRewriter) -> str | None:
        _call(rewriter, op, name if isinstance(name, str) else name(op), list(op.operands))
        return None

    return rewrite


def _entry(kind: LoweringKind, rewrite: Rewrite, floor: str) -> NvvmLowering:
    return NvvmLowering(kind, rewrite, floor)


_D, _A, _E = LoweringKind.DIRECT_INTRINSIC, LoweringKind.INLINE_ASM, LoweringKind.LLVM_EXPANSION

ARCH_LOWERINGS: dict[str, NvvmLowering] = {
    # mbarrier (shared variant selected by the !llvm.ptr<3> operand; legacy .shared names too)
    **{name: _entry(_D, _lower_mbarrier, "sm_80") for name in _MBARRIER},
    **{
        legacy: _entry(_D, _lower_mbarrier, "sm_80")
        for legacy, new in na.LEGACY_SHARED_MBARRIER.items()
        if new in _MBARRIER
    },
    "nvvm.mbarrier.arrive.expect_tx": _entry(_D, _lower_expect_tx, "sm_90"),
    "nvvm.mbarrier.arrive.expect_tx.shared": _entry(_D, _lower_expect_tx, "sm_90"),
    "nvvm.mbarrier.try_wait.parity": _entry(_A, _lower_try_wait_parity, "sm_90"),
    "nvvm.mbarrier.try_wait.parity.shared": _entry(_A, _lower_try_wait_parity, "sm_90"),
    # TMA
    "nvvm.cp.async.bulk.tensor.shared.cluster.global": _entry(_D, _lower_tma_load, "sm_90"),
    "nvvm.cp.async.bulk.tensor.global.shared.cta": _entry(_D, _lower_tma_store, "sm_90"),
    "nvvm.cp.async.bulk.tensor.prefetch": _entry(_D, _lower_tma_prefetch, "sm_90"),
    "nvvm.cp.async.bulk.commit.group": _entry(_D, _intr("llvm.nvvm.cp.async.bulk.commit.group"), "sm_90"),
    "nvvm.cp.async.bulk.wait_group": _entry(_D, _lower_bulk_wait, "sm_90"),
    # WGMMA
    "nvvm.wgmma.fence.aligned": _entry(_D, _intr("llvm.nvvm.wgmma.fence.sync.aligned"), "sm_90a"),
    "nvvm.wgmma.commit.group.sync.aligned": _entry(_D, _intr("llvm.nvvm.wgmma.commit_group.sync.aligned"), "sm_90a"),
    "nvvm.wgmma.wait.group.sync.aligned": _entry(_D, _lower_wgmma_wait, "sm_90a"),
    "nvvm.wgmma.mma_async": _entry(_A, _lower_wgmma, "sm_90a"),
    # warp MMA, ldmatrix
    "nvvm.mma.sync": _entry(_D, _lower_mma_sync, "sm_80"),
    "nvvm.ldmatrix": _entry(_D, _intr(ldmatrix_intrinsic), "sm_75"),
    "nvvm.stmatrix": _entry(_D, _intr(stmatrix_intrinsic), "sm_90"),
    # SM80 cp.async
    "nvvm.cp.async.shared.global": _entry(_D, _lower_cp_async, "sm_80"),
    "nvvm.cp.async.commit.group": _entry(_D, _intr("llvm.nvvm.cp.async.commit.group"), "sm_80"),
    "nvvm.cp.async.wait.group": _entry(_D, _lower_cp_async_wait, "sm_80"),
    "nvvm.cp.async.mbarrier.arrive": _entry(_D, _lower_cp_async_mbarrier_arrive, "sm_80"),
    # packed conversions
    "nvvm.convert.f8x2.to.f16x2": _entry(_D, _lower_f8x2_to_f16x2, "sm_89"),
    "nvvm.convert.f16x2.to.f8x2": _entry(_D, _lower_f16x2_to_f8x2, "sm_89"),
}


def _mma_floor(op: Operation) -> SmFloor:
    """mma.sync: f16 m16n8k8/m16n8k16 on sm_75+ (m16n8k8 f16) / sm_80 otherwise; fp8 on sm_89."""
    ta = _enum(op, "multiplicandAPtxType")
    if ta in ("e4m3", "e5m2"):
        return SmFloor(89)
    shape = _prop(op, "shape")
    if ta in ("f16", "") and isinstance(shape, na.MMAShapeAttr) and shape.k.value.data == 8:
        return SmFloor(75)
    return SmFloor(80)


ARCH_SM_FLOORS: dict[str, SmFloor | Callable[[Operation], SmFloor]] = {
    name: SmFloor.parse(entry.floor) for name, entry in ARCH_LOWERINGS.items() if isinstance(entry.floor, str)
}
ARCH_SM_FLOORS["nvvm.mma.sync"] = _mma_floor

__all__ = ["ARCH_LOWERINGS", "ARCH_SM_FLOORS", "ldmatrix_intrinsic", "mma_intrinsic", "wgmma_asm"]
