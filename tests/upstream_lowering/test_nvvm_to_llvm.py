"""Seed 002: nvvm -> llvm (one test per table row we cover), the SM-floor legality rows, the
inline-asm templates, and the "no nvvm op survives" rule. Outputs are checked op by op, in order,
then by mlir-opt 22, mlir-translate 22 (intrinsic names exist) and LLVM's NVPTX backend."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import FileLineColLoc, UnregisteredOp, i32
from xdsl.ir import Operation

from tile_lsp.compiler.lowering import ptx_templates
from tile_lsp.compiler.lowering.nvvm_to_llvm import NVVM_LOWERINGS, LoweringKind, convert_nvvm_to_llvm
from tile_lsp.compiler.mlir.context import UpstreamParse
from upstream_lowering.nvvm_tools import (
    assert_mlir_opt_accepts,
    emit_ptx,
    emit_ptx_batch,
    func,
    lctx_for,
    parse,
    printed,
    run_ptxas,
    to_llvm_ir,
    to_llvm_ir_batch,
)
from upstream_lowering.util import mlir_opt_batch

ARGS = "%m: i32, %p: i1, %f: f32, %i: i32, %ptr: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>"


def _ops(module: Operation) -> list[tuple[str, str | None]]:
    """(op name, intrinsic or asm string) of the function body, in order, without the return."""
    out: list[tuple[str, str | None]] = []
    for op in module.walk():
        if op.parent_op() is None or op.parent_op().name != "llvm.func" or op.name == "llvm.return":  # type: ignore[union-attr]
            continue
        detail = None
        if isinstance(op, llvm.CallIntrinsicOp):
            detail = op.intrin.data
        elif op.name == "llvm.inline_asm":
            detail = op.properties["asm_string"].data  # type: ignore[attr-defined]
        out.append((op.name, detail))
    return out


Lowered = tuple[bool, list[tuple[str, str | None]], str, list[str]]
_LOWERED: dict[tuple[str, str | None, str], Lowered] = {}


def lower(body: str, chip: str | None = "sm_90a", args: str = ARGS) -> Lowered:
    """(ok, ops, printed, diagnostics) of the llvm stage on `body`; once per process and input."""
    key = (body, chip, args)
    if key not in _LOWERED:
        _LOWERED[key] = _lower(body, chip, args)
    ok, ops, text, diags = _LOWERED[key]
    return ok, list(ops), text, list(diags)


def _lower(body: str, chip: str | None, args: str) -> Lowered:
    parsed = parse(func(body, args))
    lctx = lctx_for(parsed, chip)
    assert parsed.module is not None
    ok = convert_nvvm_to_llvm(parsed.module, lctx)
    return ok, _ops(parsed.module), printed(parsed), [d.message for d in lctx.sink.items]


def prefetch_valid(cases: list[tuple[str, str]]) -> None:
    """The mlir-opt, mlir-translate and NVPTX runs `check_valid` makes for (text, chip) cases, batched:
    one run of each tool (one llvmlite child) instead of one per case; what a batch rejects is rerun
    alone by `check_valid` for the exact message."""
    mlir_opt_batch([text for text, _ in cases])
    to_llvm_ir_batch([text for text, _ in cases])
    items = []
    for text, chip in cases:
        try:
            items.append((to_llvm_ir(text), chip, "+ptx86"))
        except AssertionError:
            continue  # check_valid reports it
    emit_ptx_batch(items)


def check_valid(text: str, chip: str = "sm_90a") -> None:
    """mlir-opt parses it, mlir-translate knows every intrinsic, NVPTX selects every call, and
    ptxas accepts the PTX when it carries inline asm (which only ptxas reads)."""
    assert_mlir_opt_accepts(text)
    ptx = emit_ptx(to_llvm_ir(text), chip)
    if "llvm.inline_asm" in text:
        # CUDA 13's ptxas starts at sm_75; an older chip's PTX is checked as sm_75 code.
        ptxas_chip = chip if int(chip[3:].rstrip("af")) >= 75 else "sm_75"
        res = run_ptxas(ptx.replace(".target sm_70", ".target sm_75"), ptxas_chip)
        assert res.returncode == 0, res.stderr + ptx


C = "llvm.call_intrinsic"
K = "llvm.mlir.constant"

# (row id, nvvm body, chip, expected ops in order)
ROWS: list[tuple[str, str, str, list[tuple[str, str | None]]]] = [
    # Synchronisation
    ("barrier0", "nvvm.barrier0", "sm_70",
     [(K, None), (C, "llvm.nvvm.barrier.cta.sync.aligned.all")]),
    ("bar.warp.sync", "nvvm.bar.warp.sync %m : i32", "sm_70", [(C, "llvm.nvvm.bar.warp.sync")]),
    ("barrier-id", "nvvm.barrier id = %i", "sm_70", [(C, "llvm.nvvm.barrier.cta.sync.aligned.all")]),
    ("barrier-id-count", "nvvm.barrier id = %i number_of_threads = %m", "sm_70",
     [(C, "llvm.nvvm.barrier.cta.sync.aligned.count")]),
    ("barrier-red-popc", "%r = nvvm.barrier #nvvm.reduction<popc> %i -> i32", "sm_70",
     [(K, None), (K, None), ("llvm.icmp", None), (C, "llvm.nvvm.barrier.cta.red.popc.aligned.all")]),
    ("barrier.arrive", "nvvm.barrier.arrive id = %i number_of_threads = %m", "sm_70",
     [(C, "llvm.nvvm.barrier.cta.arrive.aligned.count")]),
    ("barrier.arrive-default-id", "nvvm.barrier.arrive number_of_threads = %m", "sm_70",
     [(K, None), (C, "llvm.nvvm.barrier.cta.arrive.aligned.count")]),
    ("elect.sync", "%e = nvvm.elect.sync -> i1\n%z = llvm.zext %e : i1 to i32\n"
     "llvm.call_intrinsic \"llvm.nvvm.bar.warp.sync\"(%z) : (i32) -> ()",
     "sm_90", [(K, None), (C, "llvm.nvvm.elect.sync"), ("llvm.extractvalue", None), ("llvm.zext", None),
               (C, "llvm.nvvm.bar.warp.sync")]),
    # Special registers (one row per register family of the seed table)
    *[(f"sreg.{r}", f"%r = nvvm.read.ptx.sreg.{r} : i32", "sm_70", [(C, f"llvm.nvvm.read.ptx.sreg.{r}")])
      for r in ("tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x", "ctaid.y", "ctaid.z",
                "nctaid.x", "nctaid.y", "nctaid.z", "warpid", "laneid", "smid", "warpsize")],
    *[(f"sreg.{r}", f"%r = nvvm.read.ptx.sreg.{r} : i32", "sm_90", [(C, f"llvm.nvvm.read.ptx.sreg.{r}")])
      for r in ("clusterid.x", "nclusterid.y", "cluster.ctaid.z", "cluster.nctaid.x", "cluster.ctarank")],
    ("sreg.range", "%r = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32", "sm_70",
     [(C, "llvm.nvvm.read.ptx.sreg.tid.x")]),
    ("sreg.clock64", "%r = nvvm.read.ptx.sreg.clock64 : i64", "sm_70", [(C, "llvm.nvvm.read.ptx.sreg.clock64")]),
    # shfl / vote / match / redux
    *[(f"shfl.{k}.{t}", f"%r = nvvm.shfl.sync {k} %m, %{v}, %i, %i : {t} -> {t}", "sm_70",
       [(C, f"llvm.nvvm.shfl.sync.{k}.{t}")])
      for k in ("idx", "up", "down", "bfly") for t, v in (("i32", "i"), ("f32", "f"))],
    ("shfl.pred", "%r = nvvm.shfl.sync bfly %m, %f, %i, %i {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i1)>",
     "sm_70", [(C, "llvm.nvvm.shfl.sync.bfly.f32p")]),
    ("vote.ballot", "%r = nvvm.vote.sync ballot %m, %p -> i32", "sm_70", [(C, "llvm.nvvm.vote.ballot.sync")]),
    *[(f"vote.{k}", f"%r = nvvm.vote.sync {k} %m, %p -> i1", "sm_70", [(C, f"llvm.nvvm.vote.{k}.sync")])
      for k in ("all", "any", "uni")],
    ("match.any", "%r = nvvm.match.sync any %m, %i : i32 -> i32", "sm_70", [(C, "llvm.nvvm.match.any.sync.i32")]),
    ("match.all", "%r = nvvm.match.sync all %m, %i : i32 -> !llvm.struct<(i32, i1)>", "sm_70",
     [(C, "llvm.nvvm.match.all.sync.i32p")]),
    ("redux.add", "%r = nvvm.redux.sync add %i, %m : i32 -> i32", "sm_80", [(C, "llvm.nvvm.redux.sync.add")]),
    ("redux.umax", "%r = nvvm.redux.sync umax %i, %m : i32 -> i32", "sm_80", [(C, "llvm.nvvm.redux.sync.umax")]),
    ("redux.fmax.abs.nan", "%r = nvvm.redux.sync fmax %f, %m {abs = true, nan = true} : f32 -> f32", "sm_100a",
     [(C, "llvm.nvvm.redux.sync.fmax.abs.NaN")]),
    # misc: fences, prefetch, conversions, cluster barriers
    ("fence.mbarrier.init", "nvvm.fence.mbarrier.init", "sm_90",
     [(C, "llvm.nvvm.fence.mbarrier_init.release.cluster")]),
    ("fence.proxy.async.shared", "nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}",
     "sm_90", [(C, "llvm.nvvm.fence.proxy.async.shared_cta")]),
    ("fence.proxy.alias", "nvvm.fence.proxy {kind = #nvvm.proxy_kind<alias>}", "sm_90",
     [(C, "llvm.nvvm.fence.proxy.alias")]),
    ("fence.proxy.acquire", "%c = llvm.mlir.constant(128 : i32) : i32\nnvvm.fence.proxy.acquire <gpu> %ptr, %c", "sm_90",
     [(K, None), (C, "llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu")]),
    ("fence.proxy.release", "nvvm.fence.proxy.release #nvvm.mem_scope<cluster>", "sm_90",
     [(C, "llvm.nvvm.fence.proxy.tensormap_generic.release.cluster")]),
    ("fence.sc.cluster", "nvvm.fence.sc.cluster", "sm_90", [(C, "llvm.nvvm.fence.sc.cluster")]),
    ("memory.barrier", "nvvm.memory.barrier <gpu>", "sm_70", [(C, "llvm.nvvm.membar.gl")]),
    ("prefetch.tensormap", "nvvm.prefetch tensormap, %ptr : !llvm.ptr", "sm_90",
     [(C, "llvm.nvvm.prefetch.tensormap.p0")]),
    ("prefetch.tensormap.predicated", "nvvm.prefetch tensormap, %ptr, predicate = %p : !llvm.ptr, i1", "sm_90",
     [("llvm.inline_asm", "@$1 prefetch.tensormap [$0];")]),
    ("prefetch.global.L2", "nvvm.prefetch level = L2, %g : !llvm.ptr<1>", "sm_90", [(C, "llvm.nvvm.prefetch.global.L2")]),
    ("cvt.bf16x2", "%r = nvvm.convert.f32x2.to.bf16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rn>} : vector<2xbf16>", "sm_80",
     [(C, "llvm.nvvm.ff2bf16x2.rn")]),
    ("cvt.f16x2", "%r = nvvm.convert.f32x2.to.f16x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rz>} : vector<2xf16>", "sm_80",
     [(C, "llvm.nvvm.ff2f16x2.rz")]),
    ("cvt.e4m3x2", "%r = nvvm.convert.f32x2.to.f8x2 %f, %f {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>}"
     " : vector<2xi8> (f8E4M3FN)\nllvm.store %r, %ptr : vector<2xi8>, !llvm.ptr", "sm_90",
     [(C, "llvm.nvvm.ff.to.e4m3x2.rn"), ("llvm.bitcast", None), ("llvm.store", None)]),
    ("cvt.tf32", "%r = nvvm.convert.float.to.tf32 %f {rnd = #nvvm.fp_rnd_mode<rna>}", "sm_80",
     [(C, "llvm.nvvm.f2tf32.rna")]),
    ("rcp.approx.ftz.f", "%r = nvvm.rcp.approx.ftz.f %f : f32", "sm_70", [(C, "llvm.nvvm.rcp.approx.ftz.f")]),
    ("cluster.arrive.aligned", "nvvm.cluster.arrive {aligned}", "sm_90", [(C, "llvm.nvvm.barrier.cluster.arrive.aligned")]),
    ("cluster.arrive.relaxed", "nvvm.cluster.arrive.relaxed", "sm_90", [(C, "llvm.nvvm.barrier.cluster.arrive.relaxed")]),
    ("cluster.wait", "nvvm.cluster.wait", "sm_90", [(C, "llvm.nvvm.barrier.cluster.wait")]),
    ("mapa.shared", "%r = nvvm.mapa %s, %i : !llvm.ptr<3> -> !llvm.ptr<7>", "sm_90", [(C, "llvm.nvvm.mapa.shared.cluster")]),
    ("nanosleep", "nvvm.nanosleep %i", "sm_70", [(C, "llvm.nvvm.nanosleep")]),
    ("setmaxregister", "nvvm.setmaxregister increase 232", "sm_90a",
     [(K, None), (C, "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32")]),
    ("breakpoint", "nvvm.breakpoint", "sm_70", [("llvm.inline_asm", "brkpt;")]),
    ("exit", "nvvm.exit", "sm_70", [(C, "llvm.nvvm.exit")]),
    ("griddepcontrol.wait", "nvvm.griddepcontrol wait", "sm_90", [(C, "llvm.nvvm.griddepcontrol.wait")]),
    ("griddepcontrol.launch_dependents", "nvvm.griddepcontrol launch_dependents", "sm_90",
     [(C, "llvm.nvvm.griddepcontrol.launch.dependents")]),
    ("pmevent.id", "nvvm.pmevent id = 10", "sm_70", [(K, None), (C, "llvm.nvvm.pm.event.mask")]),
    ("pmevent.mask", "nvvm.pmevent mask = 4", "sm_70", [(K, None), (C, "llvm.nvvm.pm.event.mask")]),
]  # fmt: skip


@pytest.fixture(scope="module")
def _rows_batched() -> None:
    """Every row lowered once, and its tool checks run as one batch per tool (not ~100 runs each)."""
    cases = []
    for _, body, chip, _ in ROWS:
        try:
            ok, _, text, _ = lower(body, chip)
        except AssertionError:
            continue  # the row's test reports it
        if ok:
            cases.append((text, chip))
    prefetch_valid(cases)


@pytest.mark.usefixtures("_rows_batched")
@pytest.mark.parametrize(("body", "chip", "expected"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_row_lowers_to_expected_ops(body: str, chip: str, expected: list[tuple[str, str | None]]) -> None:
    ok, ops, text, diags = lower(body, chip)
    assert ok, diags
    assert ops == expected
    assert not re.search(r"^\s*(%\S+ = )?nvvm\.", text, re.MULTILINE), text
    check_valid(text, chip)


def test_dispatch_map_records_kind_per_op() -> None:
    assert NVVM_LOWERINGS["nvvm.barrier0"].kind is LoweringKind.DIRECT_INTRINSIC
    assert NVVM_LOWERINGS["nvvm.breakpoint"].kind is LoweringKind.INLINE_ASM
    assert NVVM_LOWERINGS["nvvm.elect.sync"].kind is LoweringKind.LLVM_EXPANSION
    assert NVVM_LOWERINGS["nvvm.redux.sync"].floor != "sm_70"


def test_lowered_op_keeps_source_location() -> None:
    ok, _, _, _ = lower("nvvm.bar.warp.sync %m : i32", "sm_70")
    assert ok
    parsed = parse(func("nvvm.bar.warp.sync %m : i32", ARGS))
    lctx = lctx_for(parsed, "sm_70")
    assert parsed.module is not None and convert_nvvm_to_llvm(parsed.module, lctx)
    call = next(op for op in parsed.module.walk() if isinstance(op, llvm.CallIntrinsicOp))
    assert isinstance(call.location, FileLineColLoc)
    assert call.location.line.data == 2


# --------------------------------------------------------------------------------------------
# Per-arch legality (seed 002 "Per-Arch Availability": op above target -> diagnostic at the op)

LEGALITY: list[tuple[str, str, str, str | None]] = [
    # (op, target, the SM the diagnostic must name or None when legal, how it is spelled)
    ("nvvm.barrier0", "sm_70", "", None),
    ("nvvm.barrier0", "sm_60", "sm_70", "'nvvm.barrier0' requires sm_70 or newer but the target is sm_60"),
    ("nvvm.read.ptx.sreg.tid.x", "sm_60", "sm_70", "'nvvm.read.ptx.sreg.tid.x' requires sm_70 or newer but the target is sm_60"),
    ("nvvm.shfl.sync", "sm_60", "sm_70", "'nvvm.shfl.sync' requires sm_70 or newer but the target is sm_60"),
    ("nvvm.redux.sync", "sm_75", "sm_80", "'nvvm.redux.sync' requires sm_80 or newer but the target is sm_75"),
    ("nvvm.cp.async.shared.global", "sm_75", "sm_80",
     "'nvvm.cp.async.shared.global' requires sm_80 or newer but the target is sm_75"),
    ("nvvm.mbarrier.init", "sm_75", "sm_80", "'nvvm.mbarrier.init' requires sm_80 or newer but the target is sm_75"),
    ("nvvm.mbarrier.arrive.expect_tx", "sm_80", "sm_90",
     "'nvvm.mbarrier.arrive.expect_tx' requires sm_90 or newer but the target is sm_80"),
    ("nvvm.wgmma.fence.aligned", "sm_90", "sm_90a", "'nvvm.wgmma.fence.aligned' requires sm_90a but the target is sm_90"),
    ("nvvm.wgmma.fence.aligned", "sm_100a", "sm_90a",
     "'nvvm.wgmma.fence.aligned' requires sm_90a but the target is sm_100a"),
    ("nvvm.wgmma.fence.aligned", "sm_90a", "", None),
    ("nvvm.cp.async.bulk.tensor.shared.cluster.global", "sm_80", "sm_90",
     "'nvvm.cp.async.bulk.tensor.shared.cluster.global' requires sm_90 or newer but the target is sm_80"),
    ("nvvm.cluster.arrive", "sm_80", "sm_90", "'nvvm.cluster.arrive' requires sm_90 or newer but the target is sm_80"),
    ("nvvm.ldmatrix", "sm_70", "sm_75", "'nvvm.ldmatrix' requires sm_75 or newer but the target is sm_70"),
    ("nvvm.stmatrix", "sm_80", "sm_90", "'nvvm.stmatrix' requires sm_90 or newer but the target is sm_80"),
    ("nvvm.tcgen05.fence.before_thread_sync", "sm_90a", "sm_100a",
     "'nvvm.tcgen05.fence.before_thread_sync' requires sm_100a but the target is sm_90a"),
    ("nvvm.elect.sync", "sm_80", "sm_90", "'nvvm.elect.sync' requires sm_90 or newer but the target is sm_80"),
]  # fmt: skip


def _module_with(op_name: str) -> UpstreamParse:
    """A function holding one generic `op_name` (no operands: only its name matters for legality)."""
    parsed = parse(func("llvm.call_intrinsic \"llvm.nvvm.exit\"() : () -> ()"))
    assert parsed.module is not None
    marker = next(op for op in parsed.module.walk() if isinstance(op, llvm.CallIntrinsicOp))
    # The probe's result feeds a call, so dead-code elimination keeps it.
    probe = UnregisteredOp.with_name(op_name).create(result_types=[i32])
    use = llvm.CallIntrinsicOp("llvm.nvvm.bar.warp.sync", [probe.results[0]], [])
    probe.location = use.location = marker.location
    block = marker.parent_block()
    assert block is not None
    block.insert_ops_before([probe, use], marker)
    marker.detach()
    marker.erase()
    return parsed


@pytest.mark.parametrize(("op_name", "chip", "needed", "message"), LEGALITY,
                         ids=[f"{r[0]}@{r[1]}" for r in LEGALITY])  # fmt: skip
def test_sm_floor(op_name: str, chip: str, needed: str, message: str | None) -> None:
    parsed = _module_with(op_name)
    lctx = lctx_for(parsed, chip)
    assert parsed.module is not None
    convert_nvvm_to_llvm(parsed.module, lctx)
    floor_errors = [d.message for d in lctx.sink.items if " requires " in d.message]
    if message is None:
        assert floor_errors == []
    else:
        assert floor_errors == [message]
        assert needed in message and chip in message and op_name in message


def test_floor_error_points_at_the_op() -> None:
    body = "%r = nvvm.redux.sync add %i, %m : i32 -> i32"
    parsed = parse(func(body, ARGS))
    lctx = lctx_for(parsed, "sm_75")
    assert parsed.module is not None
    assert not convert_nvvm_to_llvm(parsed.module, lctx)
    (diag,) = lctx.sink.items
    assert diag.message == "'nvvm.redux.sync' requires sm_80 or newer but the target is sm_75"
    assert parsed.source.text[diag.span.start :].startswith("%r = nvvm.redux.sync")


def test_target_from_gpu_module_nvvm_target() -> None:
    text = (
        '"gpu.module"() <{sym_name = "kernels", targets = [#nvvm.target<chip = "sm_75">]}> ({\n'
        + func("%r = nvvm.redux.sync add %i, %m : i32 -> i32", ARGS)
        + "}) : () -> ()\n"
    )
    parsed = parse(text)
    lctx = lctx_for(parsed, None)
    assert parsed.module is not None
    assert not convert_nvvm_to_llvm(parsed.module, lctx)
    assert [d.message for d in lctx.sink.items] == [
        "'nvvm.redux.sync' requires sm_80 or newer but the target is sm_75"
    ]


def test_no_nvvm_op_survives() -> None:
    parsed = _module_with("nvvm.no_such_op")
    lctx = lctx_for(parsed, "sm_90a")
    assert parsed.module is not None
    assert not convert_nvvm_to_llvm(parsed.module, lctx)
    assert [d.message for d in lctx.sink.items] == [
        "failed to legalize operation 'nvvm.no_such_op': no NVVM-to-LLVM lowering"
    ]


def test_unsupported_form_is_a_diagnostic_not_a_crash() -> None:
    ok, _, _, diags = lower("nvvm.fence.proxy.acquire <gpu> %ptr, %i", "sm_90")
    assert not ok
    assert diags == ["the size of nvvm.fence.proxy.acquire must be the constant 128"]


# --------------------------------------------------------------------------------------------
# Inline-PTX templates (seed 002: template and constraint strings byte for byte)


def test_sparse_mma_template_m16n8k16_f16() -> None:
    template, constraints = ptx_templates.sparse_mma((16, 8, 16), ("f16", "f16", "f16", "f16"), (4, 4, 8, 4), 0)
    assert template == (
        "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
        "{$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9, $10, $11, $12, $13, $14, $15}, {$16, $17, $18, $19}, $20, 0x0;"
    )
    assert constraints == "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r,r"
    assert constraints.count("=r") == 4 and constraints.count(",r") == 17


def test_sparse_mma_template_m16n8k32_s8_selector() -> None:
    template, constraints = ptx_templates.sparse_mma((16, 8, 32), ("s32", "s8", "s8", "s32"), (4, 2, 2, 4), 1)
    assert template == (
        "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
        "{$0, $1, $2, $3}, {$4, $5}, {$6, $7}, {$8, $9, $10, $11}, $12, 0x1;"
    )
    assert constraints == "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r"


def test_stmatrix_fallback_template() -> None:
    assert ptx_templates.stmatrix_fallback(4, True) == (
        "stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [$0], {$1, $2, $3, $4};",
        "l,r,r,r,r",
    )
    assert ptx_templates.stmatrix_fallback(1, False) == (
        "stmatrix.sync.aligned.m8n8.x1.shared::cta.b16 [$0], {$1};",
        "l,r",
    )


def test_im2col_tma_store_template() -> None:
    template, constraints = ptx_templates.im2col_tma_store(5)
    assert template == (
        "cp.async.bulk.tensor.5d.global.shared::cta.im2col.bulk_group.L2::cache_hint "
        "[$0, {$1, $2, $3, $4, $5}], [$6], $7;"
    )
    assert constraints == "l,r,r,r,r,r,l,l"
    assert ptx_templates.im2col_tma_store(3)[1] == "l,r,r,r,l,l"


def test_tcgen05_cp_and_wgmma_templates() -> None:
    assert ptx_templates.tcgen05_cp("128x256b", "", "b8x16.b6x16_p32") == (
        "tcgen05.cp.128x256b.b8x16.b6x16_p32 [$0], [$1];", "r,r")
    template, constraints = ptx_templates.wgmma_scale_d(8, 16, ("f32", "f16", "f16"), 4)
    assert template == "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {$0, $1, $2, $3}, $4, $5, $6, 1, 1, $7, $8;"
    assert constraints == "=f,=f,=f,=f,l,l,n,n,n"


_ASM_IR = """target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(3) %p, i32 %a, i32 %b, i32 %c, i32 %d) {{
  {call}
  ret void
}}
"""


def _inline_asm_ptx(call: str, chip: str) -> str:
    return emit_ptx(_ASM_IR.format(call=call), chip, "+ptx80")


def test_stmatrix_fallback_passes_ptxas() -> None:
    template, constraints = ptx_templates.stmatrix_fallback(4, False)
    call = (f'call void asm sideeffect "{template}", "{constraints}"'
            "(ptr addrspace(3) %p, i32 %a, i32 %b, i32 %c, i32 %d)")  # fmt: skip
    ptx = _inline_asm_ptx(call, "sm_90a")
    assert "stmatrix.sync.aligned.m8n8.x4.shared::cta.b16" in ptx
    res = run_ptxas(ptx, "sm_90a")
    assert res.returncode == 0, res.stderr


def test_sparse_mma_template_passes_ptxas() -> None:
    template, constraints = ptx_templates.sparse_mma((16, 8, 32), ("s32", "s8", "s8", "s32"), (4, 2, 2, 4), 0)
    ret = "{ i32, i32, i32, i32 }"
    args = ", ".join(["i32 %a"] * 9)
    call = f'%r = call {ret} asm sideeffect "{template}", "{constraints}"({args})'
    ptx = _inline_asm_ptx(call, "sm_80")
    res = run_ptxas(ptx, "sm_80")
    assert res.returncode == 0, res.stderr


# --------------------------------------------------------------------------------------------
# Upstream MLIR 22 test functions over our ops, lowered end to end


def test_upstream_nvvmir_functions_lower_to_valid_llvm(shared: Path) -> None:
    from upstream_lowering.test_nvvm_dialect import _upstream_functions

    path = shared / "conformance" / "mlir-upstream" / "mlir" / "test" / "Target" / "LLVMIR" / "nvvmir.mlir"
    if not path.exists():
        pytest.skip("nvvmir.mlir not in ../shared")
    functions = _upstream_functions(path)
    assert len(functions) >= 10
    lowered = []
    for name, code in functions:
        parsed = parse(code)
        lctx = lctx_for(parsed, "sm_100a")
        assert parsed.module is not None
        lowered.append((name, convert_nvvm_to_llvm(parsed.module, lctx), [d.message for d in lctx.sink.items],
                        printed(parsed)))  # fmt: skip
    prefetch_valid([(text, "sm_100a") for _, ok, _, text in lowered if ok])
    for name, ok, messages, text in lowered:
        assert ok, (name, messages)
        check_valid(text, "sm_100a")


def test_setmaxregister_floor_allows_later_arch_specific_targets() -> None:
    ok, _, _, diags = lower("nvvm.setmaxregister increase 232", "sm_100a")
    assert ok, diags
    ok, _, _, diags = lower("nvvm.setmaxregister increase 232", "sm_90")
    assert not ok
    assert diags == [
        "'nvvm.setmaxregister' requires sm_90a or a newer arch-specific target but the target is sm_90"
    ]
