"""The whole pipeline on cuda_tile input: `compile_source` and `tile-lsp compile` run the front
half (cuda_tile -> tileaa -> gpu) and then the back half on the same module, with line maps from
every stage back to the cuda_tile text, and the front half's diagnostics where they belong."""

from __future__ import annotations

import pathlib
import re

import pytest

from tile_lsp.cli import COMPILE_EMITS, main
from tile_lsp.compiler.backend.ptxas import find_ptxas
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.pipeline import EMITS, CompileResult
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
SM90A = Target(90, "a")
HAS_PTXAS = find_ptxas(CompileOptions()) is not None


def first_entry(name: str) -> str:
    """The file's first top-level `entry` alone (small and quick to compile)."""
    text = (DATA / name).read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"^entry ", text, re.M)]
    return text[starts[0] : starts[1]] if len(starts) > 1 else text


VECTOR_ADD = first_entry("vector_add.mlir")  # f32, 1024-element tiles
KERNEL = "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024"


def line_of(text: str, needle: str) -> int:
    """0-based line of the first line containing `needle`."""
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


@pytest.fixture(scope="module")
def vector_add() -> CompileResult:
    return compile_source(SourceText(VECTOR_ADD, "vector_add.mlir"), CompileOptions(target=SM90A), "ptx")


def test_emit_choices_are_the_pipeline_stages() -> None:
    assert COMPILE_EMITS == EMITS


def test_vector_add_compiles_to_ptx_through_every_stage(vector_add: CompileResult) -> None:
    assert vector_add.ok, [d.message for d in vector_add.diagnostics]
    assert vector_add.start_stage == "cuda_tile" and vector_add.target == SM90A
    names = [s.name for s in vector_add.stages]
    assert names[:7] == ["cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx"]
    assert names[7:] == (["cubin"] if HAS_PTXAS else [])
    tileaa, gpu, ptx = (vector_add.stage(n) for n in ("tileaa", "gpu", "ptx"))
    assert tileaa is not None and "nv_tileaa." in tileaa.text and "cuda_tile." not in tileaa.text
    assert gpu is not None and f"gpu.func @{KERNEL}" in gpu.text and "nv_tileaa.make" not in gpu.text
    assert gpu.located_text is not None and "loc(" in gpu.located_text
    assert ptx is not None and f".visible .entry {KERNEL}(" in ptx.text and ".target sm_90a" in ptx.text
    assert ".loc" not in ptx.text  # line info only for the map: not shown without --lineinfo


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_ptxas_resources_are_reported(vector_add: CompileResult) -> None:
    res = vector_add.kernels[KERNEL]
    assert 0 < res.registers <= 255 and res.spill_stores == 0 and res.spill_loads == 0
    assert vector_add.ptxas_command is not None and "sm_90a" in vector_add.ptxas_command


def test_every_stage_maps_back_to_cuda_tile_lines(vector_add: CompileResult) -> None:
    load = line_of(VECTOR_ADD, "load_view_tko")
    fma = line_of(VECTOR_ADD, " fma ")
    # The cuda_tile stage is the text itself: line i is source line i.
    assert [r.line if r else None for r in vector_add.stage_lines("cuda_tile")][:3] == [0, 1, 2]
    for stage in ("tileaa", "gpu", "nvvm", "llvm"):
        lines = vector_add.stage(stage).text.splitlines()  # type: ignore[union-attr]
        hits = vector_add.source_to_lines(stage, fma)
        assert hits and all(("fma" in lines[i] or "fmaf" in lines[i]) for i in hits[:1]), stage
    ptx = vector_add.stage("ptx").text.splitlines()  # type: ignore[union-attr]
    refs = vector_add.stage_lines("ptx")
    loads = [i for i, line in enumerate(ptx) if "ld.global" in line]
    assert loads and all(refs[i] is not None for i in loads)
    assert {refs[i].line for i in loads if refs[i] is not None} <= {load, line_of(VECTOR_ADD, "%tile_10, ")}
    assert refs[loads[0]].line == load  # type: ignore[union-attr]
    assert loads[0] in vector_add.source_to_lines("ptx", load)


def test_missing_target_is_the_verbatim_diagnostic_at_the_module() -> None:
    result = compile_source(SourceText(VECTOR_ADD, "v.mlir"), CompileOptions(), "ptx")
    [diag] = result.diagnostics
    assert diag.message == "invalid or missing --compute-capability option"
    assert diag.stage == "tileaa" and diag.span.start == 0
    assert [s.name for s in result.stages] == ["cuda_tile"]


EXAMPLE = (pathlib.Path(__file__).resolve().parents[2] / "examples" / "vector_add.mlir").read_text(encoding="utf-8")
# An fp4 load from memory: the front end accepts it, the gpu stage does not lower fp4 memory
# (packed two per byte) yet.
FP4_LOAD = ("    %q_p = ptr_to_ptr %a_v : tile<128xptr<f32>> -> tile<128xptr<f4E2M1FN>>\n"
            "    %q, %tq = load_ptr_tko weak %q_p : tile<128xptr<f4E2M1FN>> -> tile<128xf4E2M1FN>, token\n")
FP4 = EXAMPLE.replace("    %a_p = offset", FP4_LOAD + "    %a_p = offset", 1)
FP4_MESSAGE = ("not yet supported by the gpu stage: 'cuda_tile.load_ptr_tko' "
               "(nv_tileaa.load: f4E2M1FN in memory (packed two per byte))")


def test_unsupported_op_is_named_at_its_source_line() -> None:
    result = compile_source(SourceText(FP4, "vector_add.mlir"), CompileOptions(target=SM90A), "ptx")
    errors = [d for d in result.diagnostics if d.is_error]
    assert errors and all(d.stage == "gpu" for d in errors)
    first = errors[0]
    assert first.message == FP4_MESSAGE
    line = FP4.count("\n", 0, first.span.start)
    assert line == line_of(FP4, "load_ptr_tko weak %q_p")
    assert [s.name for s in result.stages] == ["cuda_tile", "tileaa"]  # stops at the gpu stage


def test_front_end_errors_stop_the_run_at_stage_cuda_tile() -> None:
    broken = VECTOR_ADD.replace("%1 = fma %bcast,", "%1 = fma %bcastx,")
    result = compile_source(SourceText(broken, "v.mlir"), CompileOptions(target=SM90A), "ptx")
    errors = [d for d in result.diagnostics if d.is_error]
    assert [d.stage for d in errors] == ["cuda_tile"]
    assert "'%bcastx'" in errors[0].message and result.stages == []


@pytest.mark.parametrize("emit", ["cuda_tile", "tileaa", "gpu"])
def test_emit_a_front_half_stage_stops_there(emit: str) -> None:
    result = compile_source(SourceText(VECTOR_ADD, "v.mlir"), CompileOptions(target=SM90A), emit)
    assert result.ok and result.stages[-1].name == emit and result.output is not None
    assert len(result.stages) == ["cuda_tile", "tileaa", "gpu"].index(emit) + 1


def test_cli_compiles_cuda_tile_and_dumps_every_stage(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "vector_add.mlir"
    src.write_text(VECTOR_ADD, encoding="utf-8")
    out, dump = tmp_path / "out.ptx", tmp_path / "dump"
    rc = main(["compile", str(src), "--gpu-name", "sm_90a", "-o", str(out), "--dump-dir", str(dump)])
    err = capsys.readouterr().err
    assert rc == 0, err
    assert f".entry {KERNEL}(" in out.read_text()
    wanted = ["vector_add.tileaa.mlir", "vector_add.gpu.mlir", "vector_add.nvvm.mlir", "vector_add.llvm.mlir",
              "vector_add.ll", "vector_add.ptx"] + (["vector_add.cubin"] if HAS_PTXAS else [])
    assert sorted(p.name for p in dump.iterdir()) == sorted(wanted)
    assert "gpu.func @" in (dump / "vector_add.gpu.mlir").read_text()
    assert "loc(" in (dump / "vector_add.tileaa.mlir").read_text()  # dumps keep locations
    if HAS_PTXAS:
        assert re.search(rf"ptxas: {KERNEL} \(sm_90a\): registers \d+, spill stores 0", err), err


def test_cli_emit_gpu_and_missing_target(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "k.mlir"
    src.write_text(VECTOR_ADD, encoding="utf-8")
    assert main(["compile", str(src), "--compute-capability", "90", "--emit", "gpu"]) == 0
    assert f"gpu.func @{KERNEL}" in capsys.readouterr().out
    assert main(["compile", str(src), "--emit", "tileaa"]) == 1
    assert f"{src}:1:1: error: invalid or missing --compute-capability option" in capsys.readouterr().err


def test_cli_reports_the_unsupported_op_line(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "fp4.mlir"
    src.write_text(FP4, encoding="utf-8")
    assert main(["compile", str(src), "--gpu-name", "sm_90a"]) == 1
    err = capsys.readouterr().err
    line = line_of(FP4, "load_ptr_tko weak %q_p") + 1
    column = FP4.splitlines()[line - 1].index("%") + 1
    assert f"{src}:{line}:{column}: error: {FP4_MESSAGE}" in err


def test_ops_inside_loops_keep_their_own_source_lines() -> None:
    """The gpu stage's ops in a loop body map to their own cuda_tile ops, not to the loop (hover
    and the preview links depend on it): row_softmax's exp and its shuffle reduce."""
    text = first_entry("row_softmax.mlir")
    result = compile_source(SourceText(text, "row_softmax.mlir"), CompileOptions(target=SM90A), "ptx", cache=None)
    assert result.ok, [d.message for d in result.diagnostics]
    gpu = result.stage("gpu")
    assert gpu is not None
    lines = gpu.text.splitlines()
    exp_lines = [lines[i] for i in result.source_to_lines("gpu", line_of(text, "exp %"))]
    assert exp_lines and all("math.exp" in line for line in exp_lines), exp_lines
    reduce_lines = [lines[i] for i in result.source_to_lines("gpu", line_of(text, "= reduce %2"))]
    assert any("gpu.shuffle" in line for line in reduce_lines), reduce_lines
    for_line = line_of(text, "= for ") if "= for " in text else line_of(text, " for ")
    assert not any("math.exp" in lines[i] for i in result.source_to_lines("gpu", for_line))


def test_ordered_loads_and_stores_become_ptx_acquire_release() -> None:
    """acquire/relaxed loads and release stores: LLVM atomic loads/stores with the scope, which
    NVPTX turns into ld.acquire.gpu / ld.relaxed.gpu / st.release.cta."""
    text = (EXAMPLE.replace("load_ptr_tko weak %a_p", "load_ptr_tko acquire device %a_p")
            .replace("load_ptr_tko weak %b_p", "load_ptr_tko relaxed device %b_p")
            .replace("store_ptr_tko weak %c_p", "store_ptr_tko release tl_blk %c_p"))
    result = compile_source(SourceText(text, "ordered.mlir"), CompileOptions(target=SM90A), "ptx", cache=None)
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.output is not None
    ptx = result.output.text
    assert "ld.acquire.gpu.global.b32" in ptx and "ld.relaxed.gpu.global.b32" in ptx and "st.release.cta.global.b32" in ptx
    assert "ld.global" not in ptx.replace("ld.global.nc", "")  # no weak access left
