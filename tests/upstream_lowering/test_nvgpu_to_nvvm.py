"""nvgpu -> nvvm (lowering/nvgpu_to_nvvm.py), one test per row of seed 000's NVGPU table plus the TMA
slot-mapping cases; each checks the emitted ops and their order and that mlir-opt 22 accepts the
printed result. The NVVM -> LLVM half of these families (lowering/nvvm_to_llvm_arch.py) is checked
against MLIR 22's own translation (`mlir-opt --convert-nvvm-to-llvm | mlir-translate`), LLVM 22's
intrinsic table (llvmlite selects every intrinsic we name) and ptxas.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from tile_lsp.compiler.lowering.common import LoweringContext, apply_patterns, apply_patterns_to
from tile_lsp.compiler.lowering.nvgpu_to_nvvm import gmma_descriptor_bits, nvgpu_patterns
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.util import mlir_opt, mlir_opt_batch, mlir_opt_ok, parse_ok, print_ir, run_batch, run_memo

BAR = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
TOK = "!nvgpu.mbarrier.token"


def tmap(shape: str, swizzle: str = "none") -> str:
    return (f"!nvgpu.tensormap.descriptor<tensor = memref<{shape}xf32, 3>, swizzle = {swizzle}, l2promo = none, "
            "oob = zero, interleave = none>")  # fmt: skip


def accepts(text: str) -> None:
    res = mlir_opt(text)
    assert res.returncode == 0, f"mlir-opt rejected:\n{res.stderr}\n---\n{text}"


def _lower_only(text: str, chip: str = "sm_90a") -> tuple[ModuleOp, LoweringContext, str]:
    parsed = parse_ok(text)
    assert parsed.module is not None
    lctx = LoweringContext(SourceText(text, "t.mlir"), CompileOptions(target=Target.parse_gpu_name(chip)),
                           spans=parsed.spans)  # fmt: skip
    apply_patterns(parsed.module, nvgpu_patterns(lctx))
    return parsed.module, lctx, print_ir(parsed.module)


def lower(text: str, chip: str = "sm_90a") -> tuple[ModuleOp, LoweringContext, str]:
    """Parse, apply the nvgpu patterns, print; mlir-opt 22 must accept the printed module."""
    module, lctx, printed = _lower_only(text, chip)
    if not any(d.is_error for d in lctx.sink.items):
        accepts(printed)
    return module, lctx, printed


_PRINTED: dict[str, tuple[str, bool]] = {}  # text -> (lowered print, had an error), for `lowered_text`


def lowered_text(text: str) -> str:
    """`lower(text)[2]`, from `prefetch_lowered` when it saw `text` (same checks)."""
    if text not in _PRINTED:
        _, lctx, printed = _lower_only(text)
        _PRINTED[text] = (printed, any(d.is_error for d in lctx.sink.items))
    printed, error = _PRINTED[text]
    if not error:
        accepts(printed)
    return printed


def prefetch_lowered(texts: list[str], *ref_args: str) -> None:
    """Batches for tests comparing with mlir-opt: mlir-opt on each text (plain and with `ref_args`)
    and on each of our lowered prints, one run each instead of one per text."""
    mlir_opt_batch(texts)
    mlir_opt_batch(texts, *ref_args)
    for text in texts:
        try:
            _, lctx, printed = _lower_only(text)
        except Exception:  # noqa: BLE001 - the test itself reports it
            continue
        _PRINTED[text] = (printed, any(d.is_error for d in lctx.sink.items))
    mlir_opt_batch([printed for printed, _ in _PRINTED.values()])


def names(module: Operation, prefixes: tuple[str, ...] = ("nvvm.", "llvm.inline_asm")) -> list[str]:
    return [op.name for op in module.walk() if op.name.startswith(prefixes)]


def ops_named(module: Operation, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


def assert_in_order(seq: list[str], expected: list[str]) -> None:
    """`expected` occurs in `seq` as a subsequence (same relative order)."""
    it = iter(seq)
    for want in expected:
        assert any(got == want for got in it), f"{want!r} missing or out of order in {seq}"


def no_nvgpu_left(module: Operation) -> None:
    assert [op.name for op in module.walk() if op.name.startswith("nvgpu.")] == []


def func(args: str, body: str, results: str = "") -> str:
    """A function around `body`; `results` = "%v : type" returns values (keeps pure ops alive)."""
    ret = f"return {results}" if results else "return"
    sig = f" -> ({results.split(' : ', 1)[1]})" if results else ""
    return (
        f"func.func @k({args}){sig} {{\n  %c0 = arith.constant 0 : index\n  %c7 = arith.constant 7 : index\n"
        f"{body}\n  {ret}\n}}\n"
    )


def segments(op: Operation) -> list[int]:
    seg = op.properties["operandSegmentSizes"]
    return list(seg.get_values())  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------
# mbarrier rows


def test_mbarrier_create() -> None:
    """nvgpu.mbarrier.create -> a private shared-memory barrier object + llvm.mlir.addressof."""
    module, _, printed = lower(func("", "  %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = "
                                        "#gpu.address_space<workgroup>, num_barriers = 3>\n"
                                        "  nvgpu.mbarrier.init %b[%c0], %c7 : !nvgpu.mbarrier.group<memorySpace = "
                                        "#gpu.address_space<workgroup>, num_barriers = 3>"))  # fmt: skip
    no_nvgpu_left(module)
    assert "llvm.mlir.global internal @__mbarrier()" in printed and "addr_space = 3 : i32" in printed
    assert "!llvm.array<3 x i64>" in printed
    assert_in_order(
        [op.name for op in module.walk()], ["llvm.mlir.global", "llvm.mlir.addressof", "nvvm.mbarrier.init"]
    )


def test_mbarrier_init() -> None:
    module, _, printed = lower(func(f"%b: {BAR}, %p: i1", f"  nvgpu.mbarrier.init %b[%c0], %c7 : {BAR}\n"
                                    f"  nvgpu.mbarrier.init %b[%c7], %c7, predicate = %p : {BAR}"))  # fmt: skip
    no_nvgpu_left(module)
    inits = ops_named(module, "nvvm.mbarrier.init")
    assert [len(op.operands) for op in inits] == [2, 3]
    assert all(str(op.operands[0].type) == "!llvm.ptr<3>" for op in inits)
    assert '"nvvm.mbarrier.init"(%b_1, %0) : (!llvm.ptr<3>, i32) -> ()' in printed
    # %b[%c7] indexes the barrier array: a GEP over i64 before the init
    assert_in_order(
        [op.name for op in module.walk()], ["nvvm.mbarrier.init", "llvm.getelementptr", "nvvm.mbarrier.init"]
    )


def test_mbarrier_arrive_family() -> None:
    """arrive / arrive.nocomplete / arrive.expect_tx -> the matching nvvm.mbarrier ops (shared pointers)."""
    module, _, _ = lower(func(f"%b: {BAR}", f"  %t = nvgpu.mbarrier.arrive %b[%c0] : {BAR} -> {TOK}\n"
                              f"  %u = nvgpu.mbarrier.arrive.nocomplete %b[%c0], %c7 : {BAR} -> {TOK}\n"
                              f"  nvgpu.mbarrier.arrive.expect_tx %b[%c0], %c7 : {BAR}"))  # fmt: skip
    no_nvgpu_left(module)
    assert names(module) == [
        "nvvm.mbarrier.arrive",
        "nvvm.mbarrier.arrive.nocomplete",
        "nvvm.mbarrier.arrive.expect_tx",
    ]
    arrive, nocomplete, expect = (ops_named(module, n)[0] for n in names(module))
    assert str(arrive.results[0].type) == "i64" and str(nocomplete.results[0].type) == "i64"
    assert [str(v.type) for v in expect.operands] == ["!llvm.ptr<3>", "i32"]


def test_mbarrier_test_wait() -> None:
    module, _, _ = lower(func(f"%b: {BAR}", f"  %t = nvgpu.mbarrier.arrive %b[%c0] : {BAR} -> {TOK}\n"
                              f"  %d = nvgpu.mbarrier.test.wait %b[%c0], %t : {BAR}, {TOK}"))  # fmt: skip
    no_nvgpu_left(module)
    assert names(module) == ["nvvm.mbarrier.arrive", "nvvm.mbarrier.test.wait"]
    wait = ops_named(module, "nvvm.mbarrier.test.wait")[0]
    assert [str(v.type) for v in wait.operands] == ["!llvm.ptr<3>", "i64"] and str(wait.results[0].type) == "i1"


def test_mbarrier_try_wait_parity() -> None:
    module, _, _ = lower(func(f"%b: {BAR}, %ph: i1", f"  nvgpu.mbarrier.try_wait.parity %b[%c0], %ph, %c7 : {BAR}"))
    no_nvgpu_left(module)
    wait = ops_named(module, "nvvm.mbarrier.try_wait.parity")[0]
    assert [str(v.type) for v in wait.operands] == ["!llvm.ptr<3>", "i32", "i32"]
    assert_in_order([op.name for op in module.walk()], ["llvm.zext", "llvm.trunc", "nvvm.mbarrier.try_wait.parity"])


def test_mbarrier_not_shared_rejected_verbatim() -> None:
    """A non-shared barrier is rejected with MLIR's operand-type diagnostic; no address-space cast."""
    gbar = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<global>>"
    module, lctx, _ = lower(func(f"%b: {gbar}", f"  nvgpu.mbarrier.init %b[%c0], %c7 : {gbar}"))
    assert [d.message for d in lctx.sink.items] == [
        f"'nvgpu.mbarrier.init' op operand #0 must be mbarrier barrier type, but got '{gbar}'"
    ]
    assert ops_named(module, "nvgpu.mbarrier.init") and not ops_named(module, "llvm.addrspacecast")


# ---------------------------------------------------------------------------------------------
# TMA rows (+ slot mapping per rank / optional operand)

RANK_SHAPES = {1: "128", 2: "32x32", 3: "2x32x32", 4: "2x2x32x32", 5: "2x2x2x32x32"}


RANKS = [1, 2, 3, 4, 5]
LOAD_EXTRAS = ["none", "multicast", "predicate", "multicast+predicate"]


def _tma_load_text(rank: int, extra: str) -> str:
    shape = RANK_SHAPES[rank]
    desc = tmap(shape)
    coords = ", ".join(["%c0"] * (rank - 1) + ["%c7"])
    tail = ""
    if "multicast" in extra:
        tail += " multicast_mask = %m"
    if "predicate" in extra:
        tail += ", predicate = %p"
    body = f"  nvgpu.tma.async.load %t[{coords}], %b[%c0] to %s{tail} : {desc}, {BAR} -> memref<{shape}xf32, 3>"
    return func(f"%t: {desc}, %b: {BAR}, %s: memref<{shape}xf32, 3>, %m: i16, %p: i1", body)


def _tma_store_text(rank: int, predicate: bool) -> str:
    shape = RANK_SHAPES[rank]
    desc = tmap(shape)
    coords = ", ".join(["%c7"] * rank)
    pred = ", predicate = %p" if predicate else ""
    body = f"  nvgpu.tma.async.store %s to %t[{coords}]{pred} : memref<{shape}xf32, 3> -> {desc}"
    return func(f"%t: {desc}, %s: memref<{shape}xf32, 3>, %p: i1", body)


def _tma_optional_text(multicast: bool, cache_hint: bool) -> str:
    desc = tmap("2x32x32")
    tail = " multicast_mask = %m" if multicast else ""
    attrs = " {l2CacheHint = 51966 : i64}" if cache_hint else ""
    body = (f"  nvgpu.tma.async.load %t[%c0, %c7, %c0], %b[%c0] to %s{tail}{attrs} : {desc}, {BAR} "
            "-> memref<2x32x32xf32, 3>")  # fmt: skip
    return func(f"%t: {desc}, %b: {BAR}, %s: memref<2x32x32xf32, 3>, %m: i16", body)


@pytest.fixture(scope="module")
def _tma_batched() -> None:
    """mlir-opt's check of every TMA slot case's lowered print, as one batch (not ~34 runs)."""
    texts = [_tma_load_text(rank, extra) for rank in RANKS for extra in LOAD_EXTRAS]
    texts += [_tma_store_text(rank, predicate) for rank in RANKS for predicate in (False, True)]
    texts += [_tma_optional_text(m, c) for m in (False, True) for c in (False, True)]
    printed = []
    for text in texts:
        try:
            printed.append(_lower_only(text)[2])
        except Exception:  # noqa: BLE001 - the test itself reports it
            continue
    mlir_opt_batch(printed)


@pytest.mark.usefixtures("_tma_batched")
@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("extra", LOAD_EXTRAS)
def test_tma_async_load_slots(rank: int, extra: str) -> None:
    module, _, _ = lower(_tma_load_text(rank, extra))
    no_nvgpu_left(module)
    (load,) = ops_named(module, "nvvm.cp.async.bulk.tensor.shared.cluster.global")
    # slots: dst, descriptor, coords, barrier, im2col, multicast, cache hint, predicate
    assert segments(load) == [1, 1, rank, 1, 0, int("multicast" in extra), 0, int("predicate" in extra)]
    types = [str(v.type) for v in load.operands]
    expected = ["!llvm.ptr<7>", "!llvm.ptr"] + ["i32"] * rank + ["!llvm.ptr<3>"]
    expected += ["i16"] if "multicast" in extra else []
    expected += ["i1"] if "predicate" in extra else []
    assert types == expected
    assert_in_order(
        [op.name for op in module.walk()], ["llvm.addrspacecast", "nvvm.cp.async.bulk.tensor.shared.cluster.global"]
    )


@pytest.mark.usefixtures("_tma_batched")
@pytest.mark.parametrize("multicast", [False, True])
@pytest.mark.parametrize("cache_hint", [False, True])
def test_tma_async_load_optional_slots_and_enable_flags(multicast: bool, cache_hint: bool) -> None:
    """Absent optional operands leave their slot out at the nvvm level; at the intrinsic level the slot
    is a zero placeholder and the i1 multicastEnable / cacheHintEnable immediates say which are real."""
    from tile_lsp.compiler.lowering.nvvm_to_llvm import convert_nvvm_to_llvm

    module, lctx, _ = lower(_tma_optional_text(multicast, cache_hint))
    (load,) = ops_named(module, "nvvm.cp.async.bulk.tensor.shared.cluster.global")
    assert segments(load) == [1, 1, 3, 1, 0, int(multicast), int(cache_hint), 0]
    assert convert_nvvm_to_llvm(module, lctx), [d.message for d in lctx.sink.items]
    (call,) = [op for op in module.walk() if op.name == "llvm.call_intrinsic"]
    assert call.properties["intrin"].data == "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.3d"  # type: ignore[attr-defined]
    # dst, barrier, descriptor, 3 coords, mask, hint, multicastEnable, cacheHintEnable, ctaGroup
    assert len(call.operands) == 11
    flags = [int(op.owner.properties["value"].value.data != 0) for op in call.operands[8:10]]  # type: ignore[union-attr]
    assert flags == [int(multicast), int(cache_hint)]
    mask_owner = call.operands[6].owner
    assert (isinstance(mask_owner, Operation) and mask_owner.name == "llvm.mlir.constant") != multicast


@pytest.mark.usefixtures("_tma_batched")
@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("predicate", [False, True])
def test_tma_async_store_slots(rank: int, predicate: bool) -> None:
    module, _, _ = lower(_tma_store_text(rank, predicate))
    no_nvgpu_left(module)
    (store,) = ops_named(module, "nvvm.cp.async.bulk.tensor.global.shared.cta")
    assert segments(store) == [1, 1, rank, 0, int(predicate)]
    assert [str(v.type) for v in store.operands][:2] == ["!llvm.ptr", "!llvm.ptr<3>"]


def test_tma_create_descriptor_stack_object() -> None:
    """A 128-byte (16 x i64) stack object: alloca, then one store per word (address word first)."""
    desc = tmap("32x32", "swizzle_128b")
    body = (f'  %u = "memref.cast"(%g) : (memref<64x128xf32>) -> memref<*xf32>\n'
            f"  %d = nvgpu.tma.create.descriptor %u box[%c7, %c7] : memref<*xf32> -> {desc}\n"
            f"  nvgpu.tma.prefetch.descriptor %d : {desc}")  # fmt: skip
    module, _, printed = lower(func("%g: memref<64x128xf32>", body))
    no_nvgpu_left(module)
    seq = [op.name for op in module.walk() if op.name.startswith("llvm.")]
    assert seq.count("llvm.store") == 16
    assert_in_order(seq, ["llvm.ptrtoint", "llvm.alloca", "llvm.store"])
    assert "llvm.alloca" in printed and "!llvm.array<16 x i64>" in printed
    (alloca,) = ops_named(module, "llvm.alloca")
    assert alloca.properties["alignment"].value.data == 64  # type: ignore[attr-defined]
    # the prefetch consumes the stack object, not a rebuilt descriptor
    (prefetch,) = ops_named(module, "nvvm.prefetch")
    assert prefetch.operands[0] is alloca.results[0] or "unrealized_conversion_cast" in prefetch.operands[0].owner.name  # type: ignore[union-attr]


def test_tma_prefetch_descriptor() -> None:
    desc = tmap("128")
    module, _, printed = lower(func(f"%t: {desc}, %p: i1", f"  nvgpu.tma.prefetch.descriptor %t : {desc}\n"
                                    f"  nvgpu.tma.prefetch.descriptor %t, predicate = %p : {desc}"))  # fmt: skip
    no_nvgpu_left(module)
    assert names(module) == ["nvvm.prefetch", "nvvm.prefetch"]
    assert "nvvm.prefetch tensormap, %t_1 : !llvm.ptr" in printed
    assert [len(op.operands) for op in ops_named(module, "nvvm.prefetch")] == [1, 2]


def test_tma_fence_descriptor() -> None:
    desc = tmap("128")
    module, _, printed = lower(func(f"%t: {desc}", f"  nvgpu.tma.fence.descriptor %t : {desc}"))
    no_nvgpu_left(module)
    assert names(module) == ["nvvm.fence.proxy.acquire"]
    assert "llvm.mlir.constant(128 : i32) : i32" in printed
    assert "nvvm.fence.proxy.acquire <sys>" in printed


# ---------------------------------------------------------------------------------------------
# WGMMA rows

DESC_A = "!nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>"
DESC_B = "!nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>"
ACC = "!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>"
TMA_A = "!nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>"


def test_warpgroup_generate_descriptor_packing() -> None:
    """Folded constant `llvm.or` the 14-bit start address of `llvm.ptrtoint` (MLIR's bit layout)."""
    body = f"  %d = nvgpu.warpgroup.generate.descriptor %s, %t : memref<128x64xf16, 3>, {TMA_A} -> {DESC_A}"
    module, _, printed = lower(func(f"%s: memref<128x64xf16, 3>, %t: {TMA_A}", body, f"%d : {DESC_A}"))
    no_nvgpu_left(module)
    seq = [op.name for op in module.walk() if op.name.startswith("llvm.")]
    assert seq == ["llvm.mlir.constant", "llvm.ptrtoint", "llvm.mlir.constant", "llvm.shl", "llvm.mlir.constant",
                   "llvm.lshr", "llvm.or"]  # fmt: skip
    desc_t = ng.TensorMapDescriptorType.new(
        parse_ok(f"func.func @f(%t: {TMA_A}) {{\n return\n}}\n").module.body.block.ops.first.args[0].type.parameters
    )  # type: ignore[union-attr]
    bits = gmma_descriptor_bits(desc_t)
    # swizzle 128B (1) at bit 62, stride 64 at bit 32, leading dim 1024 at bit 16 (MLIR's CHECK values)
    assert bits == (1 << 62) | (64 << 32) | (1024 << 16)
    assert f"llvm.mlir.constant({bits})" in printed or f"llvm.mlir.constant({bits} : i64)" in printed


def test_warpgroup_mma_fence_mma_commit_wait_in_order() -> None:
    body = f"  %r = nvgpu.warpgroup.mma %a, %b, %c {{transposeB}}: {DESC_A}, {DESC_B}, {ACC} -> {ACC}"
    module, _, _ = lower(func(f"%a: {DESC_A}, %b: {DESC_B}, %c: {ACC}", body))
    no_nvgpu_left(module)
    seq = names(module)
    assert seq == (["nvvm.wgmma.fence.aligned"] + ["nvvm.wgmma.mma_async"] * 8
                   + ["nvvm.wgmma.commit.group.sync.aligned", "nvvm.wgmma.wait.group.sync.aligned"])  # fmt: skip
    mma = ops_named(module, "nvvm.wgmma.mma_async")[0]
    assert str(mma.properties["shape"]) == "#nvvm.shape<m = 64, n = 128, k = 16>"
    # MLIR 22: layoutA = transposeA ? col : row, layoutB = transposeB ? row : col
    assert str(mma.properties["layoutA"]) == "#nvvm.mma_layout<row>"
    assert str(mma.properties["layoutB"]) == "#nvvm.mma_layout<row>"
    wait = ops_named(module, "nvvm.wgmma.wait.group.sync.aligned")[0]
    assert wait.properties["group"].value.data == 1  # type: ignore[attr-defined]
    # each mma_async chains on the previous accumulator of its 64-row tile
    mmas = ops_named(module, "nvvm.wgmma.mma_async")
    assert all(mmas[i + 1].operands[0] is mmas[i].results[0] for i in (0, 1, 2, 4, 5, 6))


def test_warpgroup_mma_store_per_thread_stores() -> None:
    body = f"  nvgpu.warpgroup.mma.store %c, %d : {ACC} to memref<128x128xf32, 3>"
    module, _, _ = lower(func(f"%c: {ACC}, %d: memref<128x128xf32, 3>", body))
    no_nvgpu_left(module)
    seq = [op.name for op in module.walk() if op.name.startswith(("llvm.store", "nvvm."))]
    tile = ["nvvm.read.ptx.sreg.tid.x"] + ["llvm.store"] * 64  # 2 row halves x 16 column groups x 2 values
    assert seq == tile * 2


def test_warpgroup_mma_init_accumulator() -> None:
    body = f"  %i = nvgpu.warpgroup.mma.init.accumulator -> {ACC}"
    module, _, printed = lower(func("", body, f"%i : {ACC}"))
    no_nvgpu_left(module)
    seq = [op.name for op in module.walk() if op.name.startswith("llvm.")]
    assert seq[:3] == ["llvm.mlir.constant", "llvm.mlir.poison", "llvm.extractvalue"]
    assert seq.count("llvm.insertvalue") == 2 * 64 + 2
    assert "0.000000e+00 : f32" in printed


# ---------------------------------------------------------------------------------------------
# mma.sync, ldmatrix, sparse MMA rows


@pytest.mark.parametrize(
    ("types", "shape", "intrinsic_types", "n_regs"),
    [
        (("vector<4x2xf16>", "vector<2x2xf16>", "vector<2x2xf16>"), "16, 8, 16", "f16", (4, 2, 2)),
        (("vector<4x2xf16>", "vector<2x2xf16>", "vector<2x2xf32>"), "16, 8, 16", "f16", (4, 2, 4)),
        # bf16 pairs travel as i32 registers (NVVM's mma.sync); mlir-opt 22 cannot lower this one.
        (("vector<4x2xbf16>", "vector<2x2xbf16>", "vector<2x2xf32>"), "16, 8, 16", "bf16", (4, 2, 4)),
        (("vector<4x4xi8>", "vector<2x4xi8>", "vector<2x2xi32>"), "16, 8, 32", "s8", (4, 2, 4)),
        (("vector<1x1xf64>", "vector<1x1xf64>", "vector<1x2xf64>"), "8, 8, 4", "f64", (1, 1, 2)),
        (
            ("vector<2x1xf32>", "vector<1x1xf32>", "vector<2x2xf32>"),
            "16, 8, 4], tf32Enabled, x = [0",
            "tf32",
            (2, 1, 4),
        ),
    ],
)
def test_mma_sync(types: tuple[str, str, str], shape: str, intrinsic_types: str, n_regs: tuple[int, int, int]) -> None:
    ta, tb, tc = types
    body = f"  %d = nvgpu.mma.sync (%a, %b, %c) {{mmaShape = [{shape}]}} : ({ta}, {tb}, {tc}) -> {tc}"
    module, _, _ = lower(func(f"%a: {ta}, %b: {tb}, %c: {tc}", body, f"%d : {tc}"))
    no_nvgpu_left(module)
    (mma,) = ops_named(module, "nvvm.mma.sync")
    assert segments(mma) == list(n_regs)
    assert str(mma.properties["multiplicandAPtxType"]) == f"#nvvm.mma_type<{intrinsic_types}>"
    if intrinsic_types in ("bf16", "s8", "tf32"):
        assert all(str(v.type) == "i32" for v in mma.operands[: n_regs[0] + n_regs[1]]), [str(v.type) for v in mma.operands]
    seq = [op.name for op in module.walk() if op.name.startswith("llvm.") or op.name == "nvvm.mma.sync"]
    assert_in_order(seq, ["llvm.extractvalue", "nvvm.mma.sync", "llvm.extractvalue", "llvm.insertvalue"])


def _packed_operands(elem: str, rows_a: list[int]) -> str:
    """mma.sync m16n8k16 whose A and B are packed from i32 registers as the gpu stage packs them:
    a bitcast per register and a `vector.insert` per row, A's rows written in the order `rows_a`
    (register %r<i> for row i; a repeated row is written again from %r9)."""
    lines = [f"  %pa = ub.poison : vector<4x2x{elem}>", f"  %pb = ub.poison : vector<2x2x{elem}>"]
    prev, seen = "%pa", set()
    for n, row in enumerate(rows_a):
        reg = "%r9" if row in seen else f"%r{row}"
        seen.add(row)
        lines += [f"  %xa{n} = llvm.bitcast {reg} : i32 to vector<2x{elem}>",
                  f"  %a{n} = vector.insert %xa{n}, {prev} [{row}] : vector<2x{elem}> into vector<4x2x{elem}>"]
        prev = f"%a{n}"
    lines += [f"  %xb0 = llvm.bitcast %s0 : i32 to vector<2x{elem}>",
              f"  %b0 = vector.insert %xb0, %pb [0] : vector<2x{elem}> into vector<2x2x{elem}>",
              f"  %xb1 = llvm.bitcast %s1 : i32 to vector<2x{elem}>",
              f"  %b1 = vector.insert %xb1, %b0 [1] : vector<2x{elem}> into vector<2x2x{elem}>",
              f"  %d = nvgpu.mma.sync ({prev}, %b1, %c) {{mmaShape = [16, 8, 16]}} : "
              f"(vector<4x2x{elem}>, vector<2x2x{elem}>, vector<2x2xf32>) -> vector<2x2xf32>"]
    args = ", ".join(f"%r{i}: i32" for i in (0, 1, 2, 3, 9)) + ", %s0: i32, %s1: i32, %c: vector<2x2xf32>"
    return func(args, "\n".join(lines), "%d : vector<2x2xf32>")


def test_mma_sync_reads_packed_rows_directly() -> None:
    """Operands the gpu stage packed row by row (`vector.insert`) reach nvvm.mma.sync as the rows
    themselves: bf16 registers as the i32 they were bitcast from (no array round trip), f16 as
    the rows; the last write of a row counts; the packing chain is gone once nothing reads it."""
    def lowered(elem: str, rows_a: list[int]) -> tuple[ModuleOp, Operation, list[SSAValue]]:
        module, _, _ = lower(_packed_operands(elem, rows_a))
        (mma,) = ops_named(module, "nvvm.mma.sync")
        (function,) = ops_named(module, "func.func")
        return module, mma, list(function.regions[0].blocks[0].args)

    module, mma, (r0, r1, r2, r3, r9, s0, s1, _) = lowered("bf16", [0, 1, 2, 3])
    assert list(mma.operands[:6]) == [r0, r1, r2, r3, s0, s1]
    assert ops_named(module, "vector.insert") == []
    # Rows written out of order, row 0 twice (the later write, from %r9, wins).
    module, mma, (r0, r1, r2, r3, r9, s0, s1, _) = lowered("bf16", [3, 0, 2, 1, 0])
    assert list(mma.operands[:6]) == [r9, r1, r2, r3, s0, s1]
    # f16 registers are the rows (vector<2xf16>): the bitcasts themselves.
    module, mma, _ = lowered("f16", [0, 1, 2, 3])
    assert [getattr(v.owner, "name", None) for v in mma.operands[:6]] == ["llvm.bitcast"] * 6
    # The nvvm stage's driver removes no dead code as it goes: the pattern erases the chain, so
    # the stage's later pass does not lower ops that are dead.
    parsed = parse_ok(_packed_operands("f16", [0, 1, 2, 3]))
    assert parsed.module is not None
    lctx = LoweringContext(SourceText("", "t.mlir"), CompileOptions(target=Target.parse_gpu_name("sm_90a")))
    apply_patterns_to(parsed.module, nvgpu_patterns(lctx), lambda name: name.startswith("nvgpu."))
    assert ops_named(parsed.module, "nvvm.mma.sync") and ops_named(parsed.module, "vector.insert") == []


def test_mma_sync_partly_packed_operand_unpacks_the_vector() -> None:
    """A row no `vector.insert` wrote (row 3 of A): A is unpacked from the vector as before."""
    module, _, _ = lower(_packed_operands("f16", [0, 1, 2]))
    (mma,) = ops_named(module, "nvvm.mma.sync")
    assert [getattr(v.owner, "name", None) for v in mma.operands[:4]] == ["llvm.extractvalue"] * 4
    assert [getattr(v.owner, "name", None) for v in mma.operands[4:6]] == ["llvm.bitcast"] * 2


@pytest.mark.parametrize(
    ("num", "result"), [(1, "i32"), (2, "!llvm.struct<(i32, i32)>"), (4, "!llvm.struct<(i32, i32, i32, i32)>")]
)
def test_ldmatrix_repack(num: int, result: str) -> None:
    body = (f"  %a = nvgpu.ldmatrix %s[%c0, %c7] {{transpose = false, numTiles = {num} : i32}} : "
            f"memref<128x128xf16, 3> -> vector<{num}x2xf16>")  # fmt: skip
    module, _, _ = lower(func("%s: memref<128x128xf16, 3>", body, f"%a : vector<{num}x2xf16>"))
    no_nvgpu_left(module)
    (ld,) = ops_named(module, "nvvm.ldmatrix")
    assert str(ld.results[0].type) == result
    seq = [op.name for op in module.walk() if op.name.startswith(("llvm.", "nvvm."))]
    after = seq[seq.index("nvvm.ldmatrix") + 1 :]
    per_tile = ["llvm.bitcast"] if num == 1 else ["llvm.extractvalue", "llvm.bitcast"]
    assert_in_order(after, per_tile * num + ["llvm.mlir.poison"] + ["llvm.insertvalue"] * num)


@pytest.mark.parametrize(
    ("types", "shape", "selector", "asm", "constraints"),
    [
        (("vector<2x2xf16>", "vector<2x2xf16>", "vector<2x2xf16>"), "16, 8, 16", 1,
         "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0,$1},{$2,$3},{$4,$5},{$6,$7},$8,0x1;",
         "=r,=r,r,r,r,r,r,r,r"),
        (("vector<4x2xf16>", "vector<4x2xf16>", "vector<2x2xf16>"), "16, 8, 32", 0,
         "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16 {$0,$1},{$2,$3,$4,$5},{$6,$7,$8,$9},{$10,$11},$12,0x0;",
         "=r,=r,r,r,r,r,r,r,r,r,r,r,r"),
        (("vector<4x4xi8>", "vector<4x4xi8>", "vector<2x2xi32>"), "16, 8, 64", 0,
         "mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.s8.s32 "
         "{$0,$1,$2,$3},{$4,$5,$6,$7},{$8,$9,$10,$11},{$12,$13,$14,$15},$16,0x0;",
         "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r,r,r,r"),
    ],
)  # fmt: skip
def test_mma_sp_sync_inline_asm(
    types: tuple[str, str, str], shape: str, selector: int, asm: str, constraints: str
) -> None:
    """The sparse-MMA template and constraint string, byte for byte as MLIR 22's conversion emits them."""
    ta, tb, tc = types
    body = (f"  %d = nvgpu.mma.sp.sync(%a, %b, %c) metadata(%m) {{mmaShape = [{shape}], sparsitySelector = {selector} : i32}}"
            f" : ({ta}, {tb}, {tc}) -> {tc}")  # fmt: skip
    module, _, _ = lower(func(f"%a: {ta}, %b: {tb}, %c: {tc}, %m: vector<2xi16>", body, f"%d : {tc}"))
    no_nvgpu_left(module)
    (inline,) = ops_named(module, "llvm.inline_asm")
    assert inline.properties["asm_string"].data == asm  # type: ignore[attr-defined]
    assert inline.properties["constraints"].data == constraints  # type: ignore[attr-defined]
    assert "has_side_effects" in inline.properties
    meta = inline.operands[-1]
    assert meta.owner.name == "llvm.bitcast" and str(meta.type) == "i32"  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------
# SM80 cp.async rows


def test_device_async_copy() -> None:
    body = ("  %0 = nvgpu.device_async_copy %src[%c7, %c7], %dst[%c0, %c7, %c7], 4 : memref<128x128xf32> to memref<3x16x128xf32, 3>\n"
            "  %1 = nvgpu.device_async_copy %src[%c7, %c7], %dst[%c0, %c7, %c7], 4, %n {bypassL1} : memref<128x128xf32> to memref<3x16x128xf32, 3>")  # fmt: skip
    module, _, printed = lower(func("%src: memref<128x128xf32>, %dst: memref<3x16x128xf32, 3>, %n: index", body))
    no_nvgpu_left(module)
    copies = ops_named(module, "nvvm.cp.async.shared.global")
    assert [len(c.operands) for c in copies] == [2, 3]
    assert [str(c.operands[0].type) for c in copies] == ["!llvm.ptr<3>"] * 2
    assert [str(c.operands[1].type) for c in copies] == ["!llvm.ptr<1>"] * 2
    assert (
        "modifier = #nvvm<load_cache_modifier ca>" in printed and "modifier = #nvvm<load_cache_modifier cg>" in printed
    )
    assert_in_order([op.name for op in module.walk()], ["llvm.addrspacecast", "nvvm.cp.async.shared.global",
                                                       "llvm.mul", "llvm.lshr", "nvvm.cp.async.shared.global"])  # fmt: skip


def test_device_async_create_group_and_wait() -> None:
    body = ("  %0 = nvgpu.device_async_copy %src[%c7], %dst[%c7], 4 : memref<16xf32> to memref<16xf32, 3>\n"
            "  %1 = nvgpu.device_async_create_group %0\n"
            "  nvgpu.device_async_wait %1 {numGroups = 2 : i32}")  # fmt: skip
    module, _, _ = lower(func("%src: memref<16xf32>, %dst: memref<16xf32, 3>", body))
    no_nvgpu_left(module)
    assert names(module) == ["nvvm.cp.async.shared.global", "nvvm.cp.async.commit.group", "nvvm.cp.async.wait.group"]
    (wait,) = ops_named(module, "nvvm.cp.async.wait.group")
    assert wait.properties["n"].value.data == 2  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------
# rcp, packed conversion, packed f32x2 rows


def test_rcp_scalarised() -> None:
    module, _, _ = lower(
        func(
            "%v: vector<2x4xf32>",
            "  %r = nvgpu.rcp %v {rounding = approx, ftz} : vector<2x4xf32>",
            "%r : vector<2x4xf32>",
        )
    )
    no_nvgpu_left(module)
    assert names(module) == ["nvvm.rcp.approx.ftz.f"] * 8
    seq = [
        op.name for op in module.walk() if op.name.startswith(("llvm.extractelement", "llvm.insertelement", "nvvm."))
    ]
    assert seq[:3] == ["llvm.extractelement", "nvvm.rcp.approx.ftz.f", "llvm.insertelement"]


def test_packed_float_conversion() -> None:
    body = ("  %t = nvgpu.cvt_fptrunc %v : vector<2xf32> to vector<2xf16>\n"
            "  %b = nvgpu.cvt_fptrunc %v : vector<2xf32> to vector<2xbf16>\n"
            "  %e = nvgpu.cvt_fpext %h : vector<2xf16> to vector<2xf32>")  # fmt: skip
    module, _, printed = lower(
        func("%v: vector<2xf32>, %h: vector<2xf16>", body, "%t, %b, %e : vector<2xf16>, vector<2xbf16>, vector<2xf32>")
    )
    no_nvgpu_left(module)
    assert names(module) == ["nvvm.convert.f32x2.to.f16x2", "nvvm.convert.f32x2.to.bf16x2"]
    assert "{rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xf16>" in printed
    assert "llvm.fpext %h : vector<2xf16> to vector<2xf32>" in printed
    (cvt, _) = (ops_named(module, n)[0] for n in names(module))
    lo_hi = [op.operands[1].owner for op in (cvt, cvt)]
    assert lo_hi[0].name == "llvm.extractelement"  # type: ignore[union-attr]


def test_packed_f32x2_arithmetic() -> None:
    body = ("  %f = nvgpu.fma.packed.f32x2 %a, %b, %c : vector<2xf32>\n"
            "  %m = nvgpu.mul.packed.f32x2 %a, %b : vector<2xf32>")  # fmt: skip
    module, _, printed = lower(
        func("%a: vector<2xf32>, %b: vector<2xf32>, %c: vector<2xf32>", body, "%f, %m : vector<2xf32>, vector<2xf32>")
    )
    no_nvgpu_left(module)
    assert "llvm.intr.fma(%a, %b, %c) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>" in printed
    assert "llvm.fmul %a, %b : vector<2xf32>" in printed


def test_every_seed_row_has_a_pattern() -> None:
    from tile_lsp.compiler.lowering.nvgpu_to_nvvm import PATTERNS

    roots = {p.ROOT.name for p in PATTERNS}
    seed_rows = {
        "nvgpu.mbarrier.create", "nvgpu.mbarrier.init", "nvgpu.mbarrier.arrive", "nvgpu.mbarrier.arrive.nocomplete",
        "nvgpu.mbarrier.arrive.expect_tx", "nvgpu.mbarrier.test.wait", "nvgpu.mbarrier.try_wait.parity",
        "nvgpu.tma.async.load", "nvgpu.tma.async.store", "nvgpu.tma.create.descriptor",
        "nvgpu.tma.prefetch.descriptor", "nvgpu.tma.fence.descriptor", "nvgpu.warpgroup.generate.descriptor",
        "nvgpu.warpgroup.mma", "nvgpu.warpgroup.mma.store", "nvgpu.warpgroup.mma.init.accumulator",
        "nvgpu.mma.sync", "nvgpu.ldmatrix", "nvgpu.device_async_copy", "nvgpu.device_async_create_group",
        "nvgpu.device_async_wait", "nvgpu.mma.sp.sync", "nvgpu.rcp", "nvgpu.cvt_fptrunc", "nvgpu.cvt_fpext",
        "nvgpu.fma.packed.f32x2", "nvgpu.mul.packed.f32x2",
    }  # fmt: skip
    assert seed_rows <= roots
    assert roots <= {op.name for op in ng.OPS}


# ---------------------------------------------------------------------------------------------
# NVVM -> LLVM of these families (nvvm_to_llvm_arch.py)

NVVM_CASES = """llvm.func @f(%b: !llvm.ptr<3>, %c: i32, %t: i64, %p: i1, %g: !llvm.ptr, %d7: !llvm.ptr<7>, %m: i16, %h: i64, %g1: !llvm.ptr<1>, %v2: vector<2xf16>, %acc: !llvm.struct<(f32, f32, f32, f32)>) {
  nvvm.mbarrier.init %b, %c : !llvm.ptr<3>, i32
  nvvm.mbarrier.init %b, %c, predicate = %p : !llvm.ptr<3>, i32, i1
  nvvm.mbarrier.init %g, %c : !llvm.ptr, i32
  %0 = nvvm.mbarrier.arrive %b : !llvm.ptr<3> -> i64
  %1 = nvvm.mbarrier.arrive.nocomplete %b, %c : !llvm.ptr<3>, i32 -> i64
  nvvm.mbarrier.arrive.expect_tx %b, %c : !llvm.ptr<3>, i32
  nvvm.mbarrier.arrive.expect_tx %b, %c, predicate = %p : !llvm.ptr<3>, i32, i1
  %2 = nvvm.mbarrier.test.wait %b, %t : !llvm.ptr<3>, i64 -> i1
  nvvm.mbarrier.try_wait.parity %b, %c, %c : !llvm.ptr<3>, i32, i32
  nvvm.mbarrier.inval %b : !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %b, box[%c, %c] multicast_mask = %m l2_cache_hint = %h : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %b, box[%c, %c, %c] multicast_mask = %m : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %b, box[%c, %c, %c, %c, %c] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %b, box[%c] predicate = %p : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %b, box[%c, %c] : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %b, box[%c, %c, %c, %c] l2_cache_hint = %h : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %b, box[%c, %c], predicate = %p : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.wait_group 0
  nvvm.wgmma.fence.aligned
  %w = nvvm.wgmma.mma_async %t, %t, %acc, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 1
  nvvm.cp.async.shared.global %b, %g1, 16, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.shared.global %b, %g1, 16, cache = cg, %c : !llvm.ptr<3>, !llvm.ptr<1>, i32
  nvvm.cp.async.shared.global %b, %g1, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.commit.group
  nvvm.cp.async.wait.group 0
  %4 = nvvm.ldmatrix %b {num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i32
  %5 = nvvm.ldmatrix %b {num = 4 : i32, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  %6 = nvvm.mma.sync A[%v2, %v2, %v2, %v2] B[%v2, %v2] C[%v2, %v2] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>
  nvvm.stmatrix %b, %c, %c, %c, %c {layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32, i32, i32, i32
  nvvm.stmatrix %b, %c {layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32
  %7 = nvvm.mma.sync A[%c, %c] B[%c] C[%c, %c, %c, %c] {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
  llvm.return
}
"""


def _tool(name: str) -> str:
    path = f"/usr/lib/llvm-22/bin/{name}"
    if not shutil.which(path):
        pytest.skip(f"{name} 22 is not installed")
    return path


def _calls(llvm_ir: str) -> list[str]:
    """The call lines of LLVM IR, SSA names and constants' names normalised."""
    return [
        re.sub(r"%[\w.]+", "%x", line.strip())
        for line in llvm_ir.splitlines()
        if line.strip().startswith(("call", "%")) and " call " in f" {line.strip()} "
    ]


def _lower_nvvm(text: str, chip: str = "sm_90a") -> tuple[ModuleOp, LoweringContext]:
    from tile_lsp.compiler.lowering.nvvm_to_llvm import convert_nvvm_to_llvm

    parsed = parse_ok(text)
    assert parsed.module is not None
    lctx = LoweringContext(SourceText(text, "n.mlir"), CompileOptions(target=Target.parse_gpu_name(chip)),
                           spans=parsed.spans)  # fmt: skip
    convert_nvvm_to_llvm(parsed.module, lctx)
    return parsed.module, lctx


def test_nvvm_arch_lowering_matches_mlir_22_translation() -> None:
    """Our llvm.call_intrinsic / inline asm, translated, equals MLIR 22's `--convert-nvvm-to-llvm` + translate."""
    translate = _tool("mlir-translate")
    module, lctx = _lower_nvvm(NVVM_CASES)
    assert not lctx.sink.items, [d.message for d in lctx.sink.items]
    assert [op.name for op in module.walk() if op.name.startswith("nvvm.")] == []
    ours = subprocess.run([translate, "--mlir-to-llvmir"], input=print_ir(module), capture_output=True, text=True)
    assert ours.returncode == 0, ours.stderr
    ref_llvm = mlir_opt(NVVM_CASES, "--convert-nvvm-to-llvm")
    assert ref_llvm.returncode == 0, ref_llvm.stderr
    ref = subprocess.run([translate, "--mlir-to-llvmir"], input=ref_llvm.stdout, capture_output=True, text=True)
    assert ref.returncode == 0, ref.stderr
    # wgmma: MLIR folds the scale/transpose immediates into `n` operands identically; compare everything
    assert _calls(ours.stdout) == _calls(ref.stdout)


def test_nvvm_arch_intrinsics_exist_in_llvm_22() -> None:
    """Every intrinsic we emit is selected by LLVM 22's NVPTX backend (not an external call)."""
    llvm = pytest.importorskip("llvmlite.binding")
    module, lctx = _lower_nvvm(NVVM_CASES)
    translate = _tool("mlir-translate")
    ir = subprocess.run([translate, "--mlir-to-llvmir"], input=print_ir(module), capture_output=True, text=True).stdout
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    parsed = llvm.parse_assembly(ir)
    parsed.verify()
    machine = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu="sm_90a", features="+ptx86")
    ptx = machine.emit_assembly(parsed)
    assert ".extern .func" not in ptx and "call.uni" not in ptx
    for instr in ("mbarrier.init.shared", "cp.async.bulk.tensor.2d.shared::cluster.global", "wgmma.fence.sync.aligned",
                  "ldmatrix.sync.aligned.m8n8.x4.trans", "stmatrix.sync.aligned.m8n8.x1.trans",
                  "cp.async.ca.shared.global", "cp.async.bulk.tensor.4d.global.shared::cta"):  # fmt: skip
        assert instr in ptx, instr


def test_nvvm_arch_sm_floors() -> None:
    """WGMMA needs sm_90a exactly; TMA sm_90; mbarrier sm_80 (seed 002 floors, helper A's wording)."""
    from tile_lsp.compiler.lowering.nvvm_to_llvm_arch import ARCH_LOWERINGS, ARCH_SM_FLOORS

    floors = {name: ARCH_SM_FLOORS[name] for name in ("nvvm.wgmma.mma_async", "nvvm.cp.async.bulk.tensor.shared.cluster.global",
                                                     "nvvm.mbarrier.init", "nvvm.ldmatrix")}  # fmt: skip
    assert [(f.cc, f.arch_specific) for f in floors.values()] == [(90, True), (90, False), (80, False), (75, False)]  # type: ignore[union-attr]
    assert set(ARCH_SM_FLOORS) == set(ARCH_LOWERINGS)
    text = "llvm.func @f() {\n  nvvm.wgmma.fence.aligned\n  llvm.return\n}\n"
    _, lctx = _lower_nvvm(text, "sm_90")
    assert [d.message for d in lctx.sink.items] == [
        "'nvvm.wgmma.fence.aligned' requires sm_90a but the target is sm_90"
    ]
    _, lctx = _lower_nvvm(text, "sm_100a")
    assert [d.message for d in lctx.sink.items] == [
        "'nvvm.wgmma.fence.aligned' requires sm_90a but the target is sm_100a"
    ]
    tma = "llvm.func @f() {\n  nvvm.cp.async.bulk.commit.group\n  llvm.return\n}\n"
    _, lctx = _lower_nvvm(tma, "sm_80")
    assert [d.message for d in lctx.sink.items] == [
        "'nvvm.cp.async.bulk.commit.group' requires sm_90 or newer but the target is sm_80"
    ]


E2E_KERNEL = f"""!tmA = {TMA_A}
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!bar = {BAR}
func.func @k(%tA: !tmA, %tB: !tmB, %sA: memref<128x64xf16, 3>, %sB: memref<64x128xf16, 3>, %sBt: memref<64x64xf16, 3>,
             %D: memref<128x128xf32, 3>, %mask: i16) {{
  %c0 = arith.constant 0 : index
  %n = arith.constant 128 : index
  %tx = arith.constant 32768 : index
  %bar = nvgpu.mbarrier.create -> !bar
  nvgpu.mbarrier.init %bar[%c0], %n : !bar
  nvgpu.tma.prefetch.descriptor %tA : !tmA
  nvgpu.tma.fence.descriptor %tA : !tmA
  nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %tx : !bar
  nvgpu.tma.async.load %tA[%c0, %c0], %bar[%c0] to %sA : !tmA, !bar -> memref<128x64xf16, 3>
  nvgpu.tma.async.load %tB[%c0, %c0], %bar[%c0] to %sBt multicast_mask = %mask : !tmB, !bar -> memref<64x64xf16, 3>
  %ph = arith.constant 0 : i1
  nvgpu.mbarrier.try_wait.parity %bar[%c0], %ph, %n : !bar
  %dA = nvgpu.warpgroup.generate.descriptor %sA, %tA : memref<128x64xf16, 3>, !tmA -> {DESC_A}
  %dB = nvgpu.warpgroup.generate.descriptor %sB, %tB : memref<64x128xf16, 3>, !tmB -> {DESC_B}
  %acc = nvgpu.warpgroup.mma.init.accumulator -> {ACC}
  %r = nvgpu.warpgroup.mma %dA, %dB, %acc {{transposeB}}: {DESC_A}, {DESC_B}, {ACC} -> {ACC}
  nvgpu.warpgroup.mma.store %r, %D : {ACC} to memref<128x128xf32, 3>
  nvgpu.tma.async.store %sA to %tA[%c0, %c0] : memref<128x64xf16, 3> -> !tmA
  return
}}
"""


def test_end_to_end_nvgpu_kernel_through_ptxas() -> None:
    """nvgpu (TMA + mbarrier + WGMMA) -> nvvm stage -> llvm stage -> LLVM IR -> PTX -> ptxas sm_90a."""
    translate = _tool("mlir-translate")
    llvm = pytest.importorskip("llvmlite.binding")
    from tile_lsp.compiler.lowering.nvvm_to_llvm import convert_nvvm_to_llvm
    from tile_lsp.compiler.lowering.to_nvvm import convert_to_nvvm

    parsed = parse_ok(E2E_KERNEL)
    assert parsed.module is not None
    lctx = LoweringContext(SourceText(E2E_KERNEL, "k.mlir"), CompileOptions(target=Target.parse_gpu_name("sm_90a")),
                           spans=parsed.spans)  # fmt: skip
    assert convert_to_nvvm(parsed.module, lctx), [d.message for d in lctx.sink.items]
    accepts(print_ir(parsed.module))
    assert convert_nvvm_to_llvm(parsed.module, lctx), [d.message for d in lctx.sink.items]
    ir = subprocess.run([translate, "--mlir-to-llvmir"], input=print_ir(parsed.module), capture_output=True, text=True)
    assert ir.returncode == 0, ir.stderr
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    mod = llvm.parse_assembly(ir.stdout)
    machine = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu="sm_90a", features="+ptx86")
    ptx = machine.emit_assembly(mod)
    order = [ptx.index(s) for s in ("mbarrier.init.shared", "cp.async.bulk.tensor.2d.shared::cluster.global",
                                    "wgmma.fence.sync.aligned", "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16",
                                    "wgmma.commit_group.sync.aligned", "wgmma.wait_group.sync.aligned")]  # fmt: skip
    assert order == sorted(order)
    ptxas = shutil.which("ptxas") or ("/usr/local/bin/ptxas" if shutil.which("/usr/local/bin/ptxas") else None)
    if ptxas is None:
        pytest.skip("ptxas is not installed")
    res = subprocess.run([ptxas, "-arch=sm_90a", "-", "-o", "/dev/null"], input=ptx, capture_output=True, text=True)
    if res.returncode != 0 and "No such file" in res.stderr:
        pytest.skip("ptxas cannot read stdin")
    assert res.returncode == 0, res.stderr


def test_packed_f32x2_selects_sm100_packed_instructions() -> None:
    """On sm_100a the NVPTX backend turns the packed ops into fma.rn.f32x2 / mul.rn.f32x2."""
    translate = _tool("mlir-translate")
    llvm = pytest.importorskip("llvmlite.binding")
    from tile_lsp.compiler.lowering.to_nvvm import convert_to_nvvm

    text = (
        "func.func @k(%a: vector<2xf32>, %b: vector<2xf32>, %c: vector<2xf32>) -> vector<2xf32> {\n"
        "  %f = nvgpu.fma.packed.f32x2 %a, %b, %c : vector<2xf32>\n"
        "  %m = nvgpu.mul.packed.f32x2 %f, %b : vector<2xf32>\n"
        "  return %m : vector<2xf32>\n}\n"
    )
    parsed = parse_ok(text)
    assert parsed.module is not None
    lctx = LoweringContext(SourceText(text, "p.mlir"), CompileOptions(target=Target.parse_gpu_name("sm_100a")))
    assert convert_to_nvvm(parsed.module, lctx), [d.message for d in lctx.sink.items]
    ir = subprocess.run([translate, "--mlir-to-llvmir"], input=print_ir(parsed.module), capture_output=True, text=True)
    assert ir.returncode == 0, ir.stderr
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    machine = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu="sm_100a", features="+ptx86")
    ptx = machine.emit_assembly(llvm.parse_assembly(ir.stdout))
    assert "fma.rn.f32x2" in ptx and "mul.rn.f32x2" in ptx


_ARCH_OPS = re.compile(r"nvvm\.(mbarrier|cp\.async|wgmma|mma\.sync|ldmatrix|stmatrix|convert\.f8x2|convert\.f16x2)")
_TRANSLATE = ("--mlir-to-llvmir",)
_TO_LLVM = ("--convert-func-to-llvm", "--convert-arith-to-llvm", "--reconcile-unrealized-casts")
# Deliberate divergence: for a *generic* barrier pointer MLIR 22 addrspacecasts to shared and calls the
# intrinsic; we keep the upstream test's `mbarrier.arrive.expect_tx.b64` inline PTX (no address-space cast).
_KNOWN_DIVERGENT = {"init_mbarrier_arrive_expect_tx_generic"}


def _upstream_arch_functions(shared: object, rel: str) -> list[tuple[str, str]]:
    from pathlib import Path

    text = (Path(str(shared)) / "conformance/mlir-upstream/mlir/test" / rel).read_text()
    out = []
    for chunk in re.split(r"\n(?=llvm\.func|func\.func)", text):
        chunk = chunk.split("\n// -----")[0]
        if _ARCH_OPS.search(chunk):
            name = re.search(r"@(\w+)", chunk)
            out.append((name.group(1) if name else "?", chunk))
    return out


@pytest.mark.parametrize(
    ("rel", "minimum"), [("Target/LLVMIR/nvvmir.mlir", 19), ("Conversion/NVVMToLLVM/nvvm-to-llvm.mlir", 5)]
)
def test_upstream_arch_functions_lower_like_mlir_22(shared: object, rel: str, minimum: int) -> None:
    """Every upstream function using our nvvm ops: parsed, printed (mlir-opt accepts), lowered by
    ARCH_LOWERINGS and translated = MLIR 22's `--convert-nvvm-to-llvm` + translate, call by call."""
    from tile_lsp.compiler.lowering.nvvm_to_llvm import convert_nvvm_to_llvm
    from tile_lsp.compiler.mlir.context import parse_upstream

    translate = _tool("mlir-translate")
    functions = _upstream_arch_functions(shared, rel)
    # Every tool run of the loop below, batched up front (one mlir-opt / mlir-translate per stage).
    mlir_opt_batch([chunk for _, chunk in functions], "--convert-nvvm-to-llvm", *_TO_LLVM)
    ok = [mlir_opt_ok(chunk, "--convert-nvvm-to-llvm", *_TO_LLVM) for _, chunk in functions]
    refs = {i: mlir_opt(chunk, "--convert-nvvm-to-llvm", *_TO_LLVM) for i, (_, chunk) in enumerate(functions) if ok[i]}
    run_batch(translate, [ref.stdout for ref in refs.values()], _TRANSLATE, marker="; -----")
    lowered: dict[int, tuple[str, str, list[str]]] = {}  # index -> (printed, lowered, diagnostics)
    for i, (name, chunk) in enumerate(functions):
        if not ok[i] or name in _KNOWN_DIVERGENT:
            continue
        parsed = parse_upstream(SourceText(chunk, "n.mlir"))
        if parsed.module is None or parsed.diagnostics:
            continue  # parse_ok below reports it
        before = print_ir(parsed.module)
        lctx = LoweringContext(SourceText(chunk, "n.mlir"), CompileOptions(), spans=parsed.spans)
        convert_nvvm_to_llvm(parsed.module, lctx)
        lowered[i] = (before, print_ir(parsed.module), [d.message for d in lctx.sink.items])
    mlir_opt_batch([before for before, _, _ in lowered.values()])
    mlir_opt_batch([after for _, after, _ in lowered.values()], *_TO_LLVM)
    run_batch(translate, [mlir_opt(after, *_TO_LLVM).stdout for _, after, _ in lowered.values()], _TRANSLATE,
              marker="; -----")  # fmt: skip
    checked = 0
    for i, (name, chunk) in enumerate(functions):
        if not ok[i] or name in _KNOWN_DIVERGENT:
            continue  # the snapshot's text that MLIR 22 itself rejects
        ref = refs[i]
        ref_ir = run_memo(translate, ref.stdout, _TRANSLATE)
        if ref_ir.returncode != 0:
            continue
        if i not in lowered:
            parse_ok(chunk)
        before, after, messages = lowered[i]
        accepts(before)
        assert not messages, (name, messages)
        ours_llvm = mlir_opt(after, *_TO_LLVM)
        assert ours_llvm.returncode == 0, (name, ours_llvm.stderr)
        ours = run_memo(translate, ours_llvm.stdout, _TRANSLATE)
        assert ours.returncode == 0, (name, ours.stderr)
        assert _calls(ours.stdout) == _calls(ref_ir.stdout), name
        checked += 1
    assert checked >= minimum


@dataclass
class _ConversionFunction:
    name: str
    part: str  # the function as written
    src: str  # the file's type aliases + the function
    ok: bool  # our parser read it without a diagnostic
    left: list[str]  # nvgpu ops left after our patterns
    messages: list[str]  # our patterns' diagnostics
    printed: str  # the lowered module


_CONVERSION: dict[str, list[_ConversionFunction]] = {}


def _conversion_functions(shared: object) -> list[_ConversionFunction]:
    """Each function of Conversion/NVGPUToNVVM/nvgpu-to-nvvm.mlir, parsed and lowered by our nvgpu
    patterns once per process (several tests assert on the same lowering)."""
    from pathlib import Path

    from tile_lsp.compiler.mlir.context import parse_upstream

    path = Path(str(shared)) / "conformance/mlir-upstream/mlir/test/Conversion/NVGPUToNVVM/nvgpu-to-nvvm.mlir"
    if str(path) in _CONVERSION:
        return _CONVERSION[str(path)]
    text = path.read_text().replace("swizzle=swizzle_32b", "swizzle=swizzle_128b")
    text = text.replace("swizzle=swizzle_64b", "swizzle=swizzle_128b")
    aliases = "\n".join(re.findall(r"^![\w]+ = .*$", text, flags=re.M))
    body = re.sub(r"^![\w]+ = .*$", "", text, flags=re.M)
    out = []
    for part in re.split(r"\n(?=func\.func|module|memref\.global)", body):
        if not part.lstrip().startswith("func.func"):
            continue
        src = aliases + "\n" + part
        name = re.search(r"@(\w+)", part)
        parsed = parse_upstream(SourceText(src, "c.mlir"))
        if parsed.module is None or parsed.diagnostics:
            out.append(_ConversionFunction(name.group(1) if name else "?", part, src, False, [], [], ""))
            continue
        lctx = LoweringContext(SourceText(src, "c.mlir"), CompileOptions(), spans=parsed.spans)
        apply_patterns(parsed.module, nvgpu_patterns(lctx))
        left = [op.name for op in parsed.module.walk() if op.name.startswith("nvgpu.")]
        out.append(_ConversionFunction(name.group(1) if name else "?", part, src, True, left,
                                       [d.message for d in lctx.sink.items], print_ir(parsed.module)))  # fmt: skip
    mlir_opt_batch([f.printed for f in out if f.ok])
    _CONVERSION[str(path)] = out
    return out


def test_upstream_conversion_functions_lower_completely(shared: object) -> None:
    """Each function of Conversion/NVGPUToNVVM/nvgpu-to-nvvm.mlir our parser reads: no nvgpu op left, no
    diagnostic, mlir-opt 22 accepts the result (bare-pointer memrefs, so not FileCheck-identical)."""
    lowered = 0
    failures = []
    for fn in _conversion_functions(shared):
        if not fn.ok or "memref.get_global" in fn.part or "memref.cast" in fn.part:
            continue
        res = mlir_opt(fn.printed)
        if fn.left or fn.messages or res.returncode != 0:
            failures.append((fn.name, fn.left[:2], fn.messages[:1]))
        else:
            lowered += 1
    assert not failures
    assert lowered >= 33


WGMMA_ATTRS = ["", "{transposeB}", "{transposeA, transposeB}"]
WGMMA_SHAPES = [("64x32xf16", "32x8xf16", "64x8xf32"), ("128x64xf16", "64x128xf16", "128x128xf32")]


def _wgmma_text(attrs: str, a: str, b: str, acc: str) -> str:
    da, db = (
        f"!nvgpu.warpgroup.descriptor<tensor = memref<{a}, 3>>",
        f"!nvgpu.warpgroup.descriptor<tensor = memref<{b}, 3>>",
    )
    ty = f"!nvgpu.warpgroup.accumulator<fragmented = vector<{acc}>>"
    return (
        f"func.func @w(%a: {da}, %b: {db}, %c: {ty}) -> {ty} {{\n"
        f"  %r = nvgpu.warpgroup.mma %a, %b, %c {attrs}: {da}, {db}, {ty} -> {ty}\n  return %r : {ty}\n}}\n"
    )


@pytest.fixture(scope="module")
def _vs_mlir_22_batched() -> None:
    """The wgmma / mma.sync comparisons' mlir-opt runs and our lowerings, batched once."""
    texts = [_wgmma_text(attrs, *shape) for attrs in WGMMA_ATTRS for shape in WGMMA_SHAPES]
    texts += [text for case in MMA_CASES for sparse in (False, True) for text, ok in [_mma_text(*case, sparse)] if ok]
    prefetch_lowered(texts, "--convert-nvgpu-to-nvvm")


@pytest.mark.usefixtures("_vs_mlir_22_batched")
@pytest.mark.parametrize("attrs", WGMMA_ATTRS)
@pytest.mark.parametrize(("a", "b", "acc"), WGMMA_SHAPES)
def test_warpgroup_mma_matches_mlir_22(attrs: str, a: str, b: str, acc: str) -> None:
    """Same wgmma.mma_async attributes, count and descriptor increments as mlir-opt 22's -convert-nvgpu-to-nvvm."""
    text = _wgmma_text(attrs, a, b, acc)
    ref = mlir_opt(text, "--convert-nvgpu-to-nvvm")
    assert ref.returncode == 0, ref.stderr
    printed = lowered_text(text)
    ours = mlir_opt(printed)
    assert ours.returncode == 0

    def summary(mlir: str) -> tuple[list[str], list[int]]:
        mmas = [
            re.sub(r"%[\w#]+", "%x", line.split("=", 1)[1].split(":")[0])
            for line in mlir.splitlines()
            if "nvvm.wgmma.mma_async" in line
        ]
        incs = [int(m) for m in re.findall(r"llvm\.mlir\.constant\((\d+) : i\d+\) : i64\n\s*%\S+ = llvm\.add", mlir)]
        return mmas, incs

    expected = summary(ref.stdout)
    assert expected[0] and (expected[1] or "64x32" not in a)
    assert summary(ours.stdout) == expected


MMA_CASES = [
    ("vector<4x2xf16>", "vector<2x2xf16>", "vector<2x2xf16>", "[16, 8, 16]", ""),
    ("vector<4x2xf16>", "vector<2x2xf16>", "vector<2x2xf32>", "[16, 8, 16]", ""),
    ("vector<2x2xf16>", "vector<1x2xf16>", "vector<2x2xf16>", "[16, 8, 8]", ""),
    ("vector<4x4xi8>", "vector<2x4xi8>", "vector<2x2xi32>", "[16, 8, 32]", ""),
    ("vector<2x8xi4>", "vector<1x8xi4>", "vector<2x2xi32>", "[16, 8, 32]", ""),
    ("vector<1x1xf64>", "vector<1x1xf64>", "vector<1x2xf64>", "[8, 8, 4]", ""),
    ("vector<2x1xf32>", "vector<1x1xf32>", "vector<2x2xf32>", "[16, 8, 4]", ", tf32Enabled"),
]


def _mma_text(ta: str, tb: str, tc: str, shape: str, extra: str, sparse: bool) -> tuple[str, bool]:
    """(the function, whether a sparse form exists for these types)."""
    has_form = not (sparse and ("f64" in ta or "f32" in ta))
    if sparse:
        rows = int(ta.split("<")[1].split("x")[0])
        ta = ta.replace(f"<{rows}x", f"<{max(1, rows // 2)}x") if rows > 1 else ta
        op = f"nvgpu.mma.sp.sync(%a, %b, %c) metadata(%m) {{mmaShape = {shape}{extra}}}"
    else:
        op = f"nvgpu.mma.sync (%a, %b, %c) {{mmaShape = {shape}{extra}}}"
    text = (
        f"func.func @m(%a: {ta}, %b: {tb}, %c: {tc}, %m: vector<2xi16>) -> {tc} {{\n"
        f"  %d = {op} : ({ta}, {tb}, {tc}) -> {tc}\n  return %d : {tc}\n}}\n"
    )
    return text, has_form


@pytest.mark.usefixtures("_vs_mlir_22_batched")
@pytest.mark.parametrize(("ta", "tb", "tc", "shape", "extra"), MMA_CASES)
@pytest.mark.parametrize("sparse", [False, True])
def test_mma_sync_matches_mlir_22(ta: str, tb: str, tc: str, shape: str, extra: str, sparse: bool) -> None:
    """nvvm.mma.sync attributes/operand types and the sparse inline asm equal mlir-opt 22's conversion."""
    text, has_form = _mma_text(ta, tb, tc, shape, extra, sparse)
    if not has_form:
        pytest.skip("no sparse form")
    if not mlir_opt_ok(text):
        pytest.skip("shape/type combination MLIR 22 rejects")
    ref = mlir_opt(text, "--convert-nvgpu-to-nvvm")
    assert ref.returncode == 0, ref.stderr
    printed = lowered_text(text)
    ours = mlir_opt(printed)
    assert ours.returncode == 0

    def key_lines(mlir: str) -> list[str]:
        picked = [line for line in mlir.splitlines() if "nvvm.mma.sync" in line or "llvm.inline_asm" in line]
        return [re.sub(r"%[\w#]+", "%x", line.split("=", 1)[1]) for line in picked]

    assert key_lines(ours.stdout) == key_lines(ref.stdout)
    assert key_lines(ref.stdout)


def test_upstream_conversion_nvvm_ops_equal_mlir_22(shared: object) -> None:
    """For every function of Conversion/NVGPUToNVVM that both we and mlir-opt 22 handle, the sequence of
    emitted nvvm ops / inline asm (attributes, operand and result types) equals mlir-opt's
    `--convert-nvgpu-to-nvvm` output; only the memref addressing around them differs (bare pointers)."""

    def key(mlir: str) -> list[str]:
        lines = [line for line in mlir.splitlines() if re.search(r"\bnvvm\.|llvm\.inline_asm", line)]
        return [re.sub(r"%[\w#]+", "%x", line.split("=", 1)[1] if re.match(r"\s*%\S+ = ", line) else line).strip()
                for line in lines]  # fmt: skip

    functions = _conversion_functions(shared)
    mlir_opt_batch([fn.src for fn in functions if fn.ok], "--convert-nvgpu-to-nvvm")
    same = 0
    for fn in functions:
        if not fn.ok:
            continue
        if not mlir_opt_ok(fn.src, "--convert-nvgpu-to-nvvm"):
            continue
        ref = mlir_opt(fn.src, "--convert-nvgpu-to-nvvm")
        ours = mlir_opt(fn.printed)
        assert ours.returncode == 0, ours.stderr
        assert key(ours.stdout) == key(ref.stdout), fn.name
        same += 1
    assert same >= 37


BF16_MMA = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mma_bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>, %out: memref<4xf32, 1>) kernel {
      %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
      %c0 = arith.constant 0 : index
      memref.store %e, %out[%c0] : memref<4xf32, 1>
      gpu.return
    }
  }
}
"""


def test_bf16_mma_sync_reaches_ptx() -> None:
    """bf16 nvgpu.mma.sync to PTX (ptxas checks it when found): the bf16 instruction, f32 accumulators."""
    from tile_lsp.compiler.entry_cache import compile_source

    result = compile_source(SourceText(BF16_MMA, "mma.mlir"), CompileOptions(target=Target(80)), "ptx")
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.output is not None and "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" in result.output.text
