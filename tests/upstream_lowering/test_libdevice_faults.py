"""libdevice faults through `tile-lsp compile` (issue 26): a corrupt libdevice is named as not
valid LLVM bitcode, a missing one is reported at the source op that needs a libdevice function
(naming it), and an f32 `fma` needs no libdevice at all (`llvm.fma.f32`, which NVPTX lowers to
`fma.rn.f32` as libdevice's `__nv_fmaf` does)."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

from tile_lsp import cli_compile
from tile_lsp.cli import main
from tile_lsp.compiler.backend import cuda_tools

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
VECTOR_ADD = (DATA / "vector_add.mlir").read_text()
FMA = "%1 = fma %bcast, %tile, %tile_10  : tile<1024xf32>"
# The f32 entry computes exp(x) + y instead (`__nv_expf`); the f16 entry keeps its fma.
EXP = VECTOR_ADD.replace(FMA, "%e = exp %tile : tile<1024xf32>\n  %1 = addf %e, %tile_10  : tile<1024xf32>", 1)
EXP_LINE = EXP.splitlines().index("  %e = exp %tile : tile<1024xf32>") + 1
HAS_LIBDEVICE = cuda_tools.find_libdevice() is not None


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    from tile_lsp.compiler.backend import llvm

    monkeypatch.setattr(cli_compile, "_CACHES", {})
    monkeypatch.setattr(llvm, "_TRIMMED", {})
    monkeypatch.setattr(cuda_tools, "_TRIM_DIRECTORY", None)
    monkeypatch.delenv("TILE_LSP_LIBDEVICE", raising=False)


def _compile(path: pathlib.Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict, str]:
    """`tile-lsp compile --format json` (no unit cache unless `extra` names one): (status, report, PTX)."""
    out = path.with_suffix(".ptx")
    if out.exists():
        out.unlink()
    code = main(["compile", str(path), "--gpu-name", "sm_90a", "--format", "json", "-o", str(out),
                 *(extra or ("--no-cache",))])
    report = json.loads(capsys.readouterr().out)
    return code, report, out.read_text() if out.exists() else ""


def test_a_corrupt_libdevice_is_named_as_not_bitcode(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "cuda" / "nvvm" / "libdevice" / "libdevice.10.bc"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"this is not bitcode\n" * 50)
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))  # (searched first)
    assert cuda_tools.find_libdevice() == str(bad)
    kernel = tmp_path / "k.mlir"
    kernel.write_text(EXP)
    code, report, _ = _compile(kernel, capsys)
    assert code == 1
    (d,) = report["diagnostics"]
    assert "internal error" not in d["message"]
    assert d["line"] == EXP_LINE and d["stage"] == "llvm-ir"  # at the op that calls into libdevice
    assert d["message"].startswith(f"{bad} is not valid LLVM bitcode (")
    assert "__nv_expf" in d["message"] and "nvidia-nvvm" in d["message"] and "CUDA_HOME" in d["message"]


def test_a_missing_libdevice_is_reported_at_the_op_that_needs_it(tmp_path: pathlib.Path,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TILE_LSP_LIBDEVICE", str(tmp_path / "nowhere.bc"))
    assert cuda_tools.find_libdevice() is None
    kernel = tmp_path / "k.mlir"
    kernel.write_text(EXP)
    code, report, _ = _compile(kernel, capsys)
    assert code == 1
    (d,) = report["diagnostics"]
    assert (d["line"], d["column"], d["stage"]) == (EXP_LINE, 3, "llvm-ir")
    assert re.match(r"`__nv_expf` \(libdevice\) is needed here, and no libdevice was found", d["message"])
    assert f"TILE_LSP_LIBDEVICE names {tmp_path / 'nowhere.bc'}, which is not a file" in d["message"]


@pytest.mark.skipif(not HAS_LIBDEVICE, reason="needs libdevice (to compare with)")
def test_f32_fma_needs_no_libdevice(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = tmp_path / "vector_add.mlir"
    kernel.write_text(VECTOR_ADD)  # fma in f32, and in f16 (computed in f32)
    code, report, with_libdevice = _compile(kernel, capsys)
    assert code == 0
    monkeypatch.setenv("TILE_LSP_LIBDEVICE", str(tmp_path / "nowhere.bc"))
    assert cuda_tools.find_libdevice() is None
    code, report, without = _compile(kernel, capsys)
    assert code == 0 and report["diagnostics"] == []
    assert without == with_libdevice  # the same code: fma.rn.f32
    assert without.count("fma.rn.f32") == 24 and "__nv_" not in without


@pytest.mark.skipif(not HAS_LIBDEVICE, reason="needs libdevice")
def test_a_compile_that_failed_for_want_of_libdevice_is_not_cached(tmp_path: pathlib.Path,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = tmp_path / "k.mlir"
    kernel.write_text(EXP)
    cache = ("--cache-dir", str(tmp_path / "cache"))
    monkeypatch.setenv("TILE_LSP_LIBDEVICE", str(tmp_path / "nowhere.bc"))
    code, _, _ = _compile(kernel, capsys, *cache)
    assert code == 1
    monkeypatch.delenv("TILE_LSP_LIBDEVICE")  # installed now
    cli_compile._CACHES.clear()
    code, report, ptx = _compile(kernel, capsys, *cache)
    assert code == 0 and report["units"]["compiled"] and ".entry" in ptx
