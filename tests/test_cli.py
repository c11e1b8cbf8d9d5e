"""The CLI contract: `tile-lsp check` text/JSON output and exit codes, `tile-lsp opt`."""

from __future__ import annotations

import json
import subprocess
import sys

from tile_lsp.cli import main

GOOD = """cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %b = constant <f32: 2.0> : tile<f32>
    return
  }
}
"""
BAD = GOOD.replace("%b = constant <f32: 2.0> : tile<f32>", "%b = constant <f32: 2.0> tile<f32>")


def test_check_text_format_and_exit_status(tmp_path, capsys):
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text(GOOD)
    bad.write_text(BAD)
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["check", str(good), str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{bad}:3:30: error: expected ':'"]


def test_check_json_format(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    assert main(["check", "--format", "json", str(bad)]) == 1
    data = json.loads(capsys.readouterr().out)
    (d,) = data["diagnostics"]
    assert {k: d[k] for k in ("file", "line", "column", "end_line", "end_column", "severity", "message", "stage")} == {
        "file": str(bad),
        "line": 3,
        "column": 30,
        "end_line": 3,
        "end_column": 34,
        "severity": "error",
        "message": "expected ':'",
        "stage": "cuda_tile",
    }


def test_check_split_input_file_uses_original_lines(tmp_path, capsys):
    f = tmp_path / "split.mlir"
    f.write_text(GOOD + "// -----\n" + BAD)
    assert main(["check", "--split-input-file", str(f)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{f}:10:30: error: expected ':'"]


def test_opt_prints_a_fixed_point(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD.replace("  ", "      "))
    once = tmp_path / "once.mlir"
    twice = tmp_path / "twice.mlir"
    assert main(["opt", str(src), "-o", str(once)]) == 0
    assert main(["opt", str(once), "-o", str(twice)]) == 0
    assert once.read_text() == twice.read_text()
    assert once.read_text().startswith("cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n")


def test_opt_generic_form_reparses_to_the_same_custom_form(tmp_path):
    src = tmp_path / "in.mlir"
    src.write_text(GOOD)
    gen = tmp_path / "gen.mlir"
    back = tmp_path / "back.mlir"
    assert main(["opt", "--generic", str(src), "-o", str(gen)]) == 0
    assert gen.read_text().startswith('"cuda_tile.module"()')
    assert main(["opt", str(gen), "-o", str(back)]) == 0
    direct = tmp_path / "direct.mlir"
    main(["opt", str(src), "-o", str(direct)])
    assert back.read_text() == direct.read_text()


def test_opt_fails_on_errors(tmp_path, capsys):
    bad = tmp_path / "bad.mlir"
    bad.write_text(BAD)
    assert main(["opt", str(bad)]) == 1
    assert "error: expected ':'" in capsys.readouterr().err


def test_console_script_and_module_entry_point(tmp_path):
    f = tmp_path / "good.mlir"
    f.write_text(GOOD)
    proc = subprocess.run([sys.executable, "-m", "tile_lsp", "check", str(f)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-m", "tile_lsp", "check", str(tmp_path / "missing.mlir")], capture_output=True, text=True)
    assert proc.returncode == 1 and "missing.mlir" in proc.stderr


UPSTREAM = """gpu.module @kernels {
  gpu.func @k(%a: memref<4xf32, 1>) kernel {
    %tid = gpu.thread_id x
    %v = memref.load %a[%tid] : memref<4xf32, 1>
    %w = math.exp %v : f64
    gpu.return
  }
}
"""


def test_check_and_opt_read_upstream_dialect_files(tmp_path, capsys):
    """gpu/nvgpu/nvvm files go to the back half's parser: real diagnostics, and `opt` prints them."""
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text(UPSTREAM.replace("%w = math.exp %v : f64", "%w = math.exp %v : f32"))
    bad.write_text(UPSTREAM)
    assert main(["check", str(good)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{bad}:5:19: error: use of value '%v' expects different type than prior uses: 'f64' vs 'f32'"]  # (mlir-opt 22's words)
    assert main(["opt", str(good)]) == 0
    printed = capsys.readouterr().out
    assert "gpu.func @k(" in printed and "kernel" in printed and "math.exp" in printed
