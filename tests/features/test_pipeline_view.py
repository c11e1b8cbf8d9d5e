"""features/pipeline_view.py: what the editor shows of a background compile report."""

from __future__ import annotations

from tile_lsp.background import DONE, PipelineReport, StageText
from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.source import Span
from tile_lsp.features import pipeline_view as pview

TEXT = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<128xf32, 1>) kernel {
      gpu.return
    }
    gpu.func @helper() {
      gpu.return
    }
  }
}
"""
MODULE = Span(TEXT.index("gpu.module"), TEXT.rindex("  }\n}") + 3)


def _diag(message: str, stage: str = "nvvm", span: Span = MODULE) -> Diagnostic:
    return Diagnostic(span, Severity.ERROR, message, stage)


def _report(**kw) -> PipelineReport:  # type: ignore[no-untyped-def]
    return PipelineReport(DONE, **kw)


def test_stage_diagnostics_drop_parse_errors_duplicates_and_repeat_missing_targets() -> None:
    front = [_diag("same", "mlir")]
    report = _report(
        diagnostics=[
            _diag("same", "llvm"),  # the front end has it (same span and text)
            _diag("parse error", "mlir"),
            _diag("failed to get compute capability."),
            _diag("failed to get compute capability.", span=Span(0, 1)),
            _diag("'nvvm.x' requires sm_90a but the target is sm_80", "llvm"),
        ]
    )
    got = pview.stage_diagnostics(report, front)
    assert [(d.stage, d.message) for d in got] == [
        ("nvvm", "failed to get compute capability."),
        ("llvm", "'nvvm.x' requires sm_90a but the target is sm_80"),
    ]


def test_target_fixes_command_per_chip_and_module_edit() -> None:
    missing = _diag("failed to get compute capability.")
    fixes = pview.target_fixes(TEXT, [missing], Span(MODULE.start + 3, MODULE.start + 3))
    assert [f.title for f in fixes] == [
        "Set tileLsp.gpuName to sm_90a",
        "Set tileLsp.gpuName to sm_80",
        "Set tileLsp.gpuName to sm_100a",
        'Add #nvvm.target<chip = "sm_90a"> to the gpu.module',
    ]
    assert fixes[0].preferred and fixes[0].command == ("tileLsp.setGpuName", ["sm_90a"])
    edit = fixes[-1].edit
    assert edit is not None
    at, new = edit
    fixed = TEXT[: at.start] + new + TEXT[at.end :]
    assert '  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {\n' in fixed
    # Not on the diagnostic: nothing; a module with targets already: no edit.
    assert pview.target_fixes(TEXT, [missing], Span(0, 0)) == []
    with_targets = TEXT.replace("@kernels {", "@kernels [#nvvm.target] {")
    assert all(f.edit is None for f in pview.target_fixes(with_targets, [missing], MODULE))
    assert pview.target_fixes(TEXT, [_diag("other")], MODULE) == []


def test_kernel_lenses_and_titles() -> None:
    ptx = StageText("ptx", ".entry scale", 0.01)
    res = {"registers": 13, "spill_stores": 0, "spill_loads": 0, "shared_bytes": 0}
    report = _report(stages=[ptx, StageText("cubin", "x", 0.01)], kernels={"scale": res}, target="sm_90a")
    lenses = pview.kernel_lenses(TEXT, report)
    assert [(TEXT[lens.span.start : lens.span.end], lens.title, lens.stage) for lens in lenses] == [
        ("gpu.func @scale", "sm_90a · 13 regs · 0 spills · 0 B smem", "cubin"),
        ("gpu.func @scale", "Show PTX", "ptx"),
    ]
    spilled = pview.kernel_title(report, {**res, "spill_stores": 8, "spill_loads": 4, "shared_bytes": 512})
    assert spilled == "sm_90a · 13 regs · 12 B spills · 512 B smem"
    # Without ptxas: only "Show PTX", on kernels only.
    no_ptxas = _report(stages=[ptx], target="sm_90a")
    assert [(lens.title, lens.stage) for lens in pview.kernel_lenses(TEXT, no_ptxas)] == [("Show PTX", "ptx")]
    assert pview.kernel_lenses(TEXT, _report()) == []


def test_view_stage_texts() -> None:
    report = _report(stages=[StageText("ptx", ".entry scale\n", 0.25)], target="sm_90a")
    view = pview.view_stage(report, "ptx")
    assert (view.output, view.seconds, view.ok) == (".entry scale\n", 0.25, True)
    failed = _report(diagnostics=[_diag("'nvvm.x' requires sm_90a\nmore", "llvm")])
    view = pview.view_stage(failed, "ptx")
    assert not view.ok and view.output.startswith("// tile-lsp: stage 'ptx' was not produced")
    assert "// error [llvm]: 'nvvm.x' requires sm_90a\n//   more" in view.output
    assert "no pipeline result" in pview.view_stage(None, "ptx", cuda_tile=True).output
    tile = _report(stages=[StageText("cuda_tile", "C", 0.0), StageText("gpu", "G", 0.0)], start_stage="cuda_tile")
    assert pview.view_stage(tile, "gpu").output == "G"
    nvvm_start = _report(stages=[StageText("nvvm", "N", 0.0)], start_stage="nvvm")
    assert "starts at stage nvvm" in pview.view_stage(nvvm_start, "gpu").output
    assert "starts at stage nvvm" in pview.view_stage(_report(start_stage="nvvm"), "gpu").output
    summary = pview.view_stage(
        _report(stages=[StageText("cubin", "1 bytes", 0.1)], kernels={"k": {"registers": 4}}, target="sm_80"), "cubin"
    )
    assert summary.ok and "k:\n  registers: 4" in summary.output


def test_preview_files() -> None:
    report = _report(stages=[StageText("nvvm", "N", 0.0), StageText("llvm", "L", 0.0)])
    assert pview.preview_files(report, "k") == {
        "k.tileaa.mlir": None,
        "k.gpu.mlir": None,
        "k.nvvm.mlir": "N",
        "k.llvm.mlir": "L",
        "k.ll": None,
        "k.ptx": None,
    }
