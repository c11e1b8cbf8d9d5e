"""The pipeline driver and `tile-lsp compile`: stage table, input detection, target diagnostics,
internal errors as diagnostics, and a small gpu.module kernel compiled end to end."""

from __future__ import annotations

import json
import pathlib

import pytest

from tile_lsp.cli import main
from tile_lsp.compiler import pipeline
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.pipeline import STAGES, start_stage_of
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.util import mlir_opt

KERNEL = (pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "upstream" / "scale.mlir").read_text(encoding="utf-8")

LLVM_ONLY = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      llvm.store %t, %p : i32, !llvm.ptr<1>
      llvm.return
    }
  }
}
"""

def _write(tmp_path: pathlib.Path, text: str, name: str = "k.mlir") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_stage_table() -> None:
    assert STAGES == ("cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin")


def test_gpu_input_starts_at_nvvm_and_llvm_only_input_at_llvm() -> None:
    from tile_lsp.compiler.mlir.context import parse_upstream

    gpu = parse_upstream(SourceText(KERNEL, "k.mlir"))
    llvm = parse_upstream(SourceText(LLVM_ONLY, "l.mlir"))
    assert gpu.module is not None and llvm.module is not None
    assert start_stage_of(gpu.module) == "nvvm"
    assert start_stage_of(llvm.module) == "llvm"


def test_cuda_tile_input_runs_the_front_half() -> None:
    text = "cuda_tile.module @m {\n  entry @e() {\n    return\n  }\n}\n"
    result = compile_source(SourceText(text, "t.mlir"), CompileOptions(target=Target(90)))
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.start_stage == "cuda_tile"
    assert [s.name for s in result.stages] == ["cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin"]
    assert ".entry e(" in result.stages[6].text


def test_cuda_tile_parse_errors_stop_the_run() -> None:
    text = "cuda_tile.module @m {\n  entry @e() {\n    %x = bogus_op\n  }\n}\n"
    result = compile_source(SourceText(text, "t.mlir"), CompileOptions(target=Target(90)))
    assert not result.ok and result.stages == []
    assert {d.stage for d in result.diagnostics if d.is_error} == {"cuda_tile"}


def test_emit_before_the_start_stage_is_a_diagnostic() -> None:
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(target=Target(90)), emit="gpu")
    assert [d.message for d in result.diagnostics] == ["--emit gpu comes before stage nvvm, where this input starts"]


def test_llvm_input_without_any_target_is_the_option_diagnostic() -> None:
    result = compile_source(SourceText(LLVM_ONLY, "l.mlir"), CompileOptions())
    assert [d.message for d in result.diagnostics] == ["invalid or missing --compute-capability option"]
    assert result.diagnostics[0].stage == "llvm"


def test_target_from_an_existing_nvvm_target() -> None:
    text = LLVM_ONLY.replace("gpu.module @kernels {", 'gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {')
    result = compile_source(SourceText(text, "l.mlir"), CompileOptions(), emit="llvm")
    assert result.target == Target(90, "a")
    assert "invalid or missing --compute-capability option" not in [d.message for d in result.diagnostics]


def test_stage_exception_becomes_an_internal_error_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(run: object) -> bool:
        raise RuntimeError("boom")

    monkeypatch.setitem(pipeline.STAGE_TABLE, "nvvm", pipeline.Stage(broken))
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(target=Target(90)))
    (diag,) = result.diagnostics
    assert diag.stage == "nvvm" and diag.message.startswith("internal error in stage nvvm: RuntimeError: boom")


def test_unknown_emit_is_a_diagnostic() -> None:
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(target=Target(90)), emit="sass")
    assert not result.ok and "unknown --emit stage 'sass'" in result.diagnostics[0].message


def test_cli_bad_compute_capability(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    assert main(["compile", path, "--compute-capability", "nine"]) == 1
    assert "error: invalid or missing --compute-capability option" in capsys.readouterr().err


def test_cli_gpu_name_and_capability_disagree(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    assert main(["compile", path, "--gpu-name", "sm_90a", "--compute-capability", "80"]) == 1
    assert "invalid or missing --compute-capability option" in capsys.readouterr().err


def test_cli_bad_gpu_name(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    assert main(["compile", path, "--gpu-name", "gfx90a"]) == 1
    assert "error: invalid --gpu-name 'gfx90a': expected one of sm_70, sm_72, sm_75, sm_80, " in capsys.readouterr().err


def test_cli_json_diagnostics_carry_the_stage(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "cuda_tile.module @m {\n}\n")
    assert main(["compile", path, "--format", "json"]) == 1  # no target: stage tileaa says so
    record = json.loads(capsys.readouterr().out)
    assert record["diagnostics"][0]["stage"] == "tileaa"
    assert record["diagnostics"][0]["message"] == "invalid or missing --compute-capability option"
    assert record["start_stage"] == "cuda_tile"


def test_missing_capability_on_gpu_module_is_verbatim() -> None:
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(), emit="nvvm")
    assert [d.message for d in result.diagnostics] == ["failed to get compute capability."]
    assert result.diagnostics[0].stage == "nvvm"


def test_nvvm_stage_output_is_accepted_by_mlir_opt() -> None:
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(target=Target(90, "a")), emit="nvvm")
    assert result.ok, [d.message for d in result.diagnostics]
    nvvm = result.stage("nvvm")
    assert nvvm is not None and "#nvvm.target" in nvvm.text
    for text in (nvvm.text, nvvm.located_text or ""):
        res = mlir_opt(text)
        assert res.returncode == 0, res.stderr


def test_cli_compiles_a_kernel_to_ptx_with_dumps(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    out = tmp_path / "k.ptx"
    dumps = tmp_path / "dumps"
    rc = main(["compile", path, "--gpu-name", "sm_90a", "-o", str(out), "--dump-dir", str(dumps), "--lineinfo"])
    err = capsys.readouterr().err
    assert rc == 0, err
    ptx = out.read_text()
    assert ".target sm_90a" in ptx and ".entry scale" in ptx
    assert ".loc" in ptx  # --lineinfo: PTX lines map back to the source
    names = {p.name for p in dumps.iterdir()}
    assert names == {"k.nvvm.mlir", "k.llvm.mlir", "k.ll", "k.ptx", "k.cubin"}
    for mlir in ("k.nvvm.mlir", "k.llvm.mlir"):  # MLIR dumps carry source locations
        assert 'loc("' in (dumps / mlir).read_text()
    assert (dumps / "k.ptx").read_text() == ptx
    assert (dumps / "k.cubin").read_bytes()[:4] == b"\x7fELF"
    assert "ptxas: scale (sm_90a):" in err  # resource usage per kernel


def test_cli_emit_cubin(tmp_path: pathlib.Path) -> None:
    path = _write(tmp_path, KERNEL)
    out = tmp_path / "k.cubin"
    assert main(["compile", path, "--gpu-name", "sm_80", "--emit", "cubin", "-o", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x7fELF"


def test_compile_result_records_every_stage_with_time() -> None:
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(target=Target(80)), emit="ptx")
    assert result.ok, [d.message for d in result.diagnostics]
    assert [s.name for s in result.stages][:4] == ["nvvm", "llvm", "llvm-ir", "ptx"]
    assert all(s.seconds >= 0 for s in result.stages)
    assert "scale" in result.kernels


DEBUG_KERNEL = KERNEL.replace(
    "      memref.store",
    '      "debuginfo.value"(%r) {variable = #llvm.di_local_variable<scope = #llvm.di_file<"k.py" in "/src">, '
    'name = "r">} : (f32) -> ()\n      memref.store',
)


def _compiled(emit: str, **options: object) -> str:
    result = compile_source(SourceText(DEBUG_KERNEL, "k.mlir"), CompileOptions(target=Target(80), **options), emit)  # type: ignore[arg-type]
    assert result.ok, [d.message for d in result.diagnostics]
    out = result.stage(emit)
    assert out is not None
    return out.text


def test_debug_row_off_no_line_info_no_variables() -> None:
    ll = _compiled("llvm-ir")
    assert "!dbg" not in ll and "DILocalVariable" not in ll and "llvm.nvvm.move" not in ll
    assert ".loc" not in _compiled("ptx")


def test_debug_row_lineinfo_locations_only() -> None:
    ll = _compiled("llvm-ir", lineinfo=True)
    assert "emissionKind: DebugDirectivesOnly" in ll and "!dbg" in ll
    assert "DILocalVariable" not in ll and "dbg_value" not in ll
    assert ".loc" in _compiled("ptx", lineinfo=True)


def test_debug_row_device_debug_variables_with_pins() -> None:
    ll = _compiled("llvm-ir", device_debug=True, opt_level=0)
    assert "@llvm.nvvm.move.float" in ll
    assert 'DILocalVariable(name: "r"' in ll and "dbg_value(float %" in ll


def test_ptxas_rejection_is_a_ptxas_diagnostic_with_the_command() -> None:
    # CUDA 13's ptxas dropped Volta: a real rejection without any stand-in tool.
    result = compile_source(SourceText(KERNEL, "k.mlir"), CompileOptions(target=Target(70)), emit="ptx")
    if result.ok:
        pytest.skip("this ptxas still accepts sm_70 (CUDA < 13)")
    (diag,) = result.diagnostics
    assert diag.stage == "ptxas", diag.message
    assert diag.message.startswith("ptxas error for sm_70:")
    assert "reproduce with: " in diag.message and "-arch=sm_70" in diag.message


def test_cli_emit_ptx_prints_to_stdout(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    for extra in ([], ["-o", "-"]):
        assert main(["compile", path, "--gpu-name", "sm_90a", "--emit", "ptx", *extra]) == 0
        captured = capsys.readouterr()
        assert captured.out.startswith("//") and ".target sm_90a" in captured.out and ".entry scale" in captured.out
        assert ".loc" not in captured.out  # no --lineinfo: none shown, though the map was made
        assert "ptxas: scale (sm_90a):" in captured.err


def test_cli_emit_llvm_ir_to_stdout(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    assert main(["compile", path, "--gpu-name", "sm_80", "--emit", "llvm-ir", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert "define ptx_kernel void @scale(" in out and "!dbg" not in out


def test_cli_cubin_to_stdout(tmp_path: pathlib.Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = _write(tmp_path, KERNEL)
    assert main(["compile", path, "--gpu-name", "sm_80", "--emit", "cubin", "-o", "-"]) == 0
    assert capsysbinary.readouterr().out[:4] == b"\x7fELF"


def test_cli_errors_exit_1_and_print_nothing(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL.replace("arith.mulf %v, %s : f32", "arith.mulf %v, %nope : f32"))
    assert main(["compile", path, "--gpu-name", "sm_90a", "-o", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "error:" in captured.err
    good = _write(tmp_path, KERNEL, "good.mlir")
    missing = tmp_path / "no" / "such" / "dir" / "k.ptx"
    assert main(["compile", good, "--gpu-name", "sm_90a", "-o", str(missing)]) == 1
    assert f"{missing}: error:" in capsys.readouterr().err
    assert main(["compile", str(tmp_path / "absent.mlir"), "--gpu-name", "sm_90a"]) == 1


def test_cli_json_has_per_stage_seconds(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, KERNEL)
    out = tmp_path / "k.ptx"
    assert main(["compile", path, "--gpu-name", "sm_90a", "--format", "json", "-o", str(out)]) == 0
    record = json.loads(capsys.readouterr().out)
    stages = record["stages"]
    assert [s["name"] for s in stages] == ["nvvm", "llvm", "llvm-ir", "ptx", "cubin"]
    assert all(isinstance(s["seconds"], float) and s["seconds"] >= 0 for s in stages)
    assert record["target"] == "sm_90a" and record["diagnostics"] == []
    assert record["kernels"]["scale"]["registers"] > 0
    # With the PTX on stdout, the JSON record moves to stderr.
    assert main(["compile", path, "--gpu-name", "sm_90a", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert ".entry scale" in captured.out and json.loads(captured.err)["stages"][0]["name"] == "nvvm"
