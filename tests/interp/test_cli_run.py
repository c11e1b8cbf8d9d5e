"""`tile-lsp run`: argument specs, summaries, .npy outputs, clear errors (never a traceback),
and the GPU path's compile step (the launch itself is in test_gpu.py)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import DATA, ROOT

from interp.gpu import unavailable
from tile_lsp.cli import main
from tile_lsp.cli_run import RunError, compile_cubin, parse_arg

VECTOR_ADD = str(DATA / "cutile" / "vector_add.mlir")
F32_ENTRY = "vector_add_Kt1_A1f32"


def test_run_vector_add_writes_outputs_and_a_summary(tmp_path, capsys):
    b = np.linspace(-1, 1, 1500).astype(np.float32)
    np.save(tmp_path / "b.npy", b)
    rc = main(["run", VECTOR_ADD, "--entry", F32_ENTRY, "--grid", "2", "--arg", "f32[1500]:arange",
               "--arg", f"f32[1500]:file={tmp_path / 'b.npy'}", "--arg", "f32[1500]:zeros", "--arg", "f32=0.5",
               "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    c = np.load(tmp_path / "out" / "arg2.npy")
    assert c.dtype == np.float32 and c.tolist() == (0.5 * np.arange(1500) + b.astype(np.float64)).astype(np.float32).tolist()
    assert out[0].startswith("arg0: float32[1500] min 0 max 1499 mean 749.5 sum 1124250 crc32 ")
    assert out[2].startswith("arg2: float32[1500] min -1 max ") and len(out) == 3


def test_random_inputs_follow_the_seed(capsys):
    args = ["run", VECTOR_ADD, "--entry", F32_ENTRY, "--arg", "f32[64]", "--arg", "f32[64]", "--arg", "f32[64]:zeros",
            "--arg", "f32=1"]
    main([*args, "--seed", "3"])
    first = capsys.readouterr().out
    main([*args, "--seed", "3"])
    assert capsys.readouterr().out == first
    main([*args, "--seed", "4"])
    assert capsys.readouterr().out != first


@pytest.mark.parametrize(("spec", "message"), [
    ("f33[4]", "unknown dtype 'f33'"),
    ("f32[0]", "give positive dimensions"),
    ("f32[4]:ramp", "unknown initializer 'ramp'"),
    ("i32=x", "'x' is not a number"),
    ("f32", "expected DTYPE[DIMS][:INIT] or DTYPE=VALUE"),
])
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(RunError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_arg(spec, np.random.default_rng(0))


def test_user_errors_exit_nonzero_with_one_line(capsys):
    assert main(["run", VECTOR_ADD, "--entry", "nope", "--arg", "f32=1"]) == 1
    assert "no single entry matches 'nope'" in capsys.readouterr().err
    assert main(["run", VECTOR_ADD, "--entry", F32_ENTRY, "--arg", "f32=1"]) == 1
    assert "--arg 0 'f32=1' is an f32 scalar, but parameter %arg0 of @" in capsys.readouterr().err
    assert main(["run", VECTOR_ADD, "--entry", F32_ENTRY, "--grid", "0"]) == 1
    assert "bad --grid '0'" in capsys.readouterr().err


def test_a_failed_assert_reports_the_op_location(capsys):
    path = str(DATA / "cutile" / "debug_print.mlir")
    rc = main(["run", path, "--grid", "1", "--arg", "f32[256]", "--arg", "f32[1]:zeros"])
    err = capsys.readouterr().err
    assert rc == 1 and err.startswith(f"{path}:19:3: error: assertion failed in tile block (0, 0, 0) at element (")
    assert err.rstrip().endswith(": inputs must be non-negative")


def test_device_gpu_fails_clearly_without_a_gpu():
    reason = unavailable()
    if reason is None:
        pytest.skip("a GPU is available here")
    proc = subprocess.run([sys.executable, "-m", "tile_lsp", "run", VECTOR_ADD, "--entry", F32_ENTRY, "--device", "gpu",
                           "--arg", "f32[64]", "--arg", "f32[64]", "--arg", "f32[64]:zeros", "--arg", "f32=1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tile-lsp run: error: ") and ("cuda-bindings" in proc.stderr or "CUDA" in proc.stderr
                                                  or "GPU" in proc.stderr)


def test_gpu_compile_step_gives_a_cubin_and_the_block_size():
    text = (DATA / "cutile" / "vector_add.mlir").read_text()
    entry = "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024"
    cubin, threads = compile_cubin(text, "vector_add.mlir", entry, "sm_90a")
    assert cubin[:4] == b"\x7fELF" and threads == 128


def test_kernel_parameters_are_packed_by_their_cuda_tile_type():
    import ctypes

    import ml_dtypes

    from tile_lsp.cli_run import _param
    from tile_lsp.compiler.dialects.cuda_tile import types as ct

    def tile(name: str) -> ct.TileType:
        return ct.tile((), ct.ELEMENT_TYPE_NAMES[name])

    assert isinstance(_param(tile("f32"), np.float32(1.5)), ctypes.c_float)
    half = _param(tile("f16"), np.float16(1.0))
    assert isinstance(half, ctypes.c_uint16) and half.value == 0x3C00
    assert _param(tile("bf16"), np.asarray(1.0, ml_dtypes.bfloat16)).value == 0x3F80
    assert _param(tile("i64"), 2**40).value == 2**40 and _param(tile("i32"), -3).value == -3


def test_compare_and_summary_lines():
    from tile_lsp.cli_run import compare_line, summary_line

    a = np.array([1.0, 2.0, np.nan], np.float32)
    b = np.array([1.0, 2.5, np.nan], np.float32)
    assert compare_line("arg0", a, b) == "arg0: max abs err 0.5 max rel err 0.25"
    assert summary_line("x", a).startswith("x: float32[3] min 1 max 2 mean 1.5 sum nan crc32 ")


def test_time_needs_the_gpu_and_a_count(capsys):
    base = ["run", VECTOR_ADD, "--entry", F32_ENTRY, "--arg", "f32[64]", "--arg", "f32[64]", "--arg", "f32[64]:zeros",
            "--arg", "f32=1"]
    assert main([*base, "--time", "5"]) == 1
    assert capsys.readouterr().err == "tile-lsp run: error: --time measures the GPU kernel: add --device gpu or --compare\n"
    assert main([*base, "--device", "gpu", "--time", "-1"]) == 1
    assert capsys.readouterr().err == "tile-lsp run: error: --time takes a number of launches (0 or more)\n"


def test_time_line():
    from tile_lsp.cli_run import time_line

    assert time_line([3.0, 1.0, 2.0, 10.0]) == ("gpu kernel time: median 2.5 ms, min 1 ms over 4 launches "
                                               "(CUDA events; after one untimed launch, same buffers)")


ENTRY = "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024"
GOOD = ["f32[64]", "f32[64]", "f32[64]:zeros", "f32=1"]


@pytest.mark.parametrize(("args", "col", "message"), [
    (["i32[64]", *GOOD[1:]], 76,
     f"--arg 0 'i32[64]' is an i32 array of shape [64], but parameter %arg0 of @{ENTRY} is tile<ptr<f32>>: "
     "give an array of f32"),
    (["f32=1", *GOOD[1:]], 76,
     f"--arg 0 'f32=1' is an f32 scalar, but parameter %arg0 of @{ENTRY} is tile<ptr<f32>>: "
     "give an array of f32, e.g. f32[1024]"),
    ([*GOOD[:3], "i32=1"], 253,
     f"--arg 3 'i32=1' is an i32 scalar, but parameter %arg9 of @{ENTRY} is tile<f32>: give a scalar of f32, e.g. f32=1"),
    ([*GOOD[:3], "f32[2]"], 253,
     f"--arg 3 'f32[2]' is an f32 array of shape [2], but parameter %arg9 of @{ENTRY} is tile<f32>: give a scalar, "
     "e.g. f32=1"),
    (GOOD[:3], 253,
     f"no --arg for parameter %arg9 (tile<f32>) of @{ENTRY}: it takes 10 parameters, the 3 --arg given fill 9 "
     "(an array also fills the shape and stride parameters after its pointer)"),
    ([], 76,
     f"no --arg for parameter %arg0 (tile<ptr<f32>>) of @{ENTRY}: it takes 10 parameters, no --arg was given "
     "(an array also fills the shape and stride parameters after its pointer)"),
    (["f32[64]", "i32=64", "i32=1", "f32[64]", "i32=64", "i32=1", "f32[64]:zeros", "i32=64", "i32=1", "f32=1", "f32=2"], 7,
     f"@{ENTRY} takes 10 parameters; --arg 10 'f32=2' is one too many"),
])
def test_each_arg_is_checked_against_the_signature_at_the_parameter(capsys, args, col, message):
    """An --arg that does not fit the entry's parameter (pointer element type, scalar type, a
    scalar for a pointer, an array for a scalar, too few, too many) is one error in `check`'s
    format at that parameter (or the entry), naming the argument, the parameter's type and what
    was given; nothing runs."""
    argv = ["run", VECTOR_ADD, "--entry", ENTRY, "--grid", "1"]
    for a in args:
        argv += ["--arg", a]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.err == f"{VECTOR_ADD}:1:{col}: error: {message}\n" and captured.out == ""


def test_a_fitting_signature_still_runs(capsys):
    argv = ["run", VECTOR_ADD, "--entry", ENTRY]
    for a in GOOD:
        argv += ["--arg", a]
    assert main(argv) == 0 and capsys.readouterr().out.count("crc32") == 3
    # the cuTile convention spelled out: pointer, shape and stride as arguments of their own
    argv = ["run", VECTOR_ADD, "--entry", ENTRY]
    for a in ["f32[64]", "i32=64", "i32=1", "f32[64]", "i32=64", "i32=1", "f32[64]:zeros", "i32=64", "i32=1", "f32=1"]:
        argv += ["--arg", a]
    assert main(argv) == 0


def test_errors_are_in_checks_format(tmp_path, capsys):
    """At a place in the file: `path:line:col: error: message`, as `tile-lsp check` prints; about
    the options: `tile-lsp run: error: message`."""
    broken = tmp_path / "broken.mlir"
    broken.write_text("entry @k(%a: tile<f32>) {\n  %b = constant <f32: 2.0> tile<f32>\n  return\n}\n")
    assert main(["run", str(broken), "--arg", "f32=1"]) == 1
    assert capsys.readouterr().err == f"{broken}:2:28: error: expected ':'\n"
    assert main(["check", str(broken), "--no-daemon"]) == 1
    assert capsys.readouterr().out == f"{broken}:2:28: error: expected ':'\n"  # (the same line)
    assert main(["run", VECTOR_ADD, "--entry", "nope"]) == 1
    assert capsys.readouterr().err.startswith(f"{VECTOR_ADD}:1:1: error: no single entry matches 'nope' (entries: ")
    assert main(["run", VECTOR_ADD, "--arg", "f33[4]"]) == 1
    assert capsys.readouterr().err.startswith("tile-lsp run: error: unknown dtype 'f33' (known: ")
    assert main(["run", VECTOR_ADD, "--entry", ENTRY, "--device", "gpu", "--gpu-name", "sm_91", *sum((["--arg", a] for a in GOOD), [])]) == 1
    assert capsys.readouterr().err.startswith("tile-lsp run: error: invalid --gpu-name 'sm_91': expected one of sm_70, ")
