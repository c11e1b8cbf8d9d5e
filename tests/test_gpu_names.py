"""GPU names are checked before anything compiles: a name LLVM's NVPTX back end or ptxas does
not know (`sm_91`, `hopper`) is one message listing the valid names (not one LLVM message per
code generation, nor "missing compute capability"), in the CLI and in the editor's settings; and
every valid name compiles to PTX (LLVM aborts the process on a PTX version a chip cannot take)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from tile_lsp.compiler.target import COMPUTE_CAPABILITIES, GPU_NAMES, Target, target_error

DATA = pathlib.Path(__file__).parent / "data" / "cutile"
LISTED = ("expected one of sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, sm_100a, "
          "sm_100f, sm_101, sm_101a, sm_101f, sm_103, sm_103a, sm_103f, sm_110, sm_110a, sm_110f, sm_120, sm_120a, "
          "sm_120f, sm_121, sm_121a, sm_121f")


def _compile(tmp_path: pathlib.Path, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "k.mlir").write_text((DATA / "vector_add.mlir").read_text())
    return subprocess.run([sys.executable, "-m", "tile_lsp", "compile", "k.mlir", "--no-daemon", "--no-cache", *options,
                           "-o", "k.ptx"], cwd=tmp_path, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name", ["sm_91", "hopper", "sm_90b", "compute_90"])
def test_an_unknown_gpu_name_is_one_message_listing_the_valid_ones(tmp_path: pathlib.Path, name: str) -> None:
    done = _compile(tmp_path, "--gpu-name", name)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"k.mlir:1:1: error: invalid --gpu-name '{name}': {LISTED}"]
    assert not (tmp_path / "k.ptx").exists()


def test_an_unknown_compute_capability_is_one_message(tmp_path: pathlib.Path) -> None:
    done = _compile(tmp_path, "--compute-capability", "91")
    assert done.returncode == 1
    assert done.stderr == ("k.mlir:1:1: error: invalid --compute-capability 91: expected one of "
                           "70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121\n")


def test_names_and_capabilities() -> None:
    assert Target.resolve("sm_91") is None and Target.resolve("hopper") is None
    assert Target.resolve("sm_90a") == Target(90, "a") and Target.resolve(None, 80) == Target(80)
    assert Target.resolve(None, 91) is None and Target.resolve("sm_90a", 80) is None
    assert target_error("sm_90a", 80) is None  # (they disagree: the caller words it)
    assert target_error("sm_90a", None) is None and target_error(None, None) is None
    assert target_error("hopper", None, gpu_option="tileLsp.gpuName") == (
        "invalid tileLsp.gpuName 'hopper': " + LISTED)
    assert Target.parse_gpu_name("sm_60") == Target(60)  # (a chip named in upstream IR is still read)
    assert set(COMPUTE_CAPABILITIES) == {Target.parse_gpu_name(n).cc for n in GPU_NAMES}  # type: ignore[union-attr]


def test_the_editor_setting_lists_the_valid_names_too() -> None:
    from tile_lsp.session import Settings

    assert Settings(gpuName="sm_91").compile_options()[1] == "invalid tileLsp.gpuName 'sm_91': " + LISTED
    assert Settings(computeCapability=91).compile_options()[1] == (
        "invalid tileLsp.computeCapability 91: expected one of " + ", ".join(map(str, COMPUTE_CAPABILITIES)))
    assert Settings(gpuName="sm_90", computeCapability=80).compile_options()[1] == (
        "tileLsp.gpuName 'sm_90' and tileLsp.computeCapability 80 disagree")


TINY = """entry @k(%a: tile<ptr<f32>>) {
  %c = constant <f32: 1.0> : tile<f32>
  store_ptr_tko weak %a, %c : tile<ptr<f32>>, tile<f32> -> token
  return
}
"""


def test_every_valid_name_compiles_to_ptx() -> None:
    """Each name through LLVM's NVPTX code generation, each in a child process of its own (LLVM
    aborts the process on a target its PTX version cannot take: sm_88, the `f` targets and
    sm_121 did). No ptxas: the PTX is what is checked (ptxas 13 has no sm_70, sm_72, sm_101)."""
    code = ("import os, sys\nfrom tile_lsp.compiler.entry_cache import compile_source\n"
            "from tile_lsp.compiler.source import SourceText\nfrom tile_lsp.compiler.target import CompileOptions, Target\n"
            f"text = {TINY!r}\n"
            "compile_source(SourceText(text, 'k.mlir'), CompileOptions(Target(80), ptxas='/nonexistent/ptxas'), 'ptx', cache=None)\n"
            "for name in sys.argv[1:]:  # (warmed up above: each child only compiles)\n"
            "    sys.stdout.flush()\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        options = CompileOptions(Target.resolve(name), ptxas='/nonexistent/ptxas', stage_texts=False)\n"
            "        r = compile_source(SourceText(text, 'k.mlir'), options, 'ptx', cache=None)\n"
            "        good = r.ok and f'.target {name}' in r.output.text\n"
            "        print(name, 'ok' if good else [d.message for d in r.diagnostics], flush=True)\n"
            "        os._exit(0)\n"
            "    _, status = os.waitpid(pid, 0)\n"
            "    if status:\n"
            "        print(name, 'died', status, flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code, *GPU_NAMES], capture_output=True, text=True, timeout=600)
    assert done.stdout.splitlines() == [f"{name} ok" for name in GPU_NAMES], done.stderr[-2000:]
