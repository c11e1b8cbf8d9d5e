"""The CLI on bytecode: check/opt/compile/run find it by its magic (not the file's name), and
`opt --emit-bytecode` writes it; an unreadable bytecode is one diagnostic at its byte offset."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.bytecode.helpers import CUTILE, ROOT, find_tool, run_tool

ENV = dict(os.environ, TILE_LSP_DAEMON="0")


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "tile_lsp", *args], capture_output=True, cwd=ROOT, env=ENV, timeout=120)


def test_check_and_opt_read_bytecode_by_its_magic(tmp_path):
    odd = tmp_path / "kernel.dat"  # no .tileirbc: the magic decides
    odd.write_bytes((CUTILE / "vector_add.tileirbc").read_bytes())
    assert cli("check", str(odd)).returncode == 0
    opt = cli("opt", str(odd))
    assert opt.returncode == 0, opt.stderr
    assert b"entry @vector_add_" in opt.stdout and b"store_view_tko" in opt.stdout


def test_truncated_bytecode_is_one_diagnostic_at_its_offset(tmp_path):
    bad = tmp_path / "bad.tileirbc"
    bad.write_bytes((CUTILE / "vector_add.tileirbc").read_bytes()[:100])
    for command in ("check", "opt", "compile"):
        done = cli(command, str(bad), *(["--gpu-name", "sm_90a"] if command == "compile" else []))
        err = (done.stdout + done.stderr).decode()
        assert done.returncode == 1, (command, err)
        assert f"{bad}:1:" in err and "byte offset" in err and "Traceback" not in err, (command, err)


def test_compile_and_run_take_bytecode(tmp_path):
    done = cli("compile", str(CUTILE / "vector_add.tileirbc"), "--gpu-name", "sm_90a", "--emit", "ptx", "-o", str(tmp_path / "k.ptx"))
    assert done.returncode == 0, done.stderr
    assert ".entry vector_add_" in (tmp_path / "k.ptx").read_text()
    src = tmp_path / "va.tileirbc"
    made = cli("opt", str(ROOT / "examples" / "vector_add.mlir"), "--emit-bytecode", "-o", str(src))
    assert made.returncode == 0, made.stderr
    ran = cli("run", str(src), "--grid", "2", "--arg", "f32[256]:arange", "--arg", "f32[256]:arange", "--arg", "f32[256]:zeros",
              "--out", str(tmp_path / "out"))
    assert ran.returncode == 0, ran.stderr
    import numpy as np

    out = np.load(tmp_path / "out" / "arg2.npy")
    assert np.array_equal(out, 2 * np.arange(256, dtype=np.float32))


def test_emit_bytecode_versions(tmp_path):
    mlir = str(ROOT / "examples" / "vector_add.mlir")
    for version in ("13.1", "13.5"):
        out = tmp_path / f"v{version}.tileirbc"
        done = cli("opt", mlir, "--emit-bytecode", version, "-o", str(out))
        assert done.returncode == 0, done.stderr
        back = cli("opt", str(out))
        assert back.returncode == 0 and b"addf" in back.stdout
    bad = cli("opt", mlir, "--emit-bytecode", "12.9", "-o", str(tmp_path / "x"))
    assert bad.returncode == 2 and b"13.1, 13.2" in bad.stderr


def test_invalid_ir_is_still_written(tmp_path):
    src = tmp_path / "bad.mlir"
    src.write_text((ROOT / "examples" / "vector_add.mlir").read_text().replace(
        "%sum = addf %x, %y : tile<128xf32>", "%sum = addf %x, %bid : tile<128xf32>"))
    out = tmp_path / "bad.tileirbc"
    done = cli("opt", str(src), "--emit-bytecode", "-o", str(out))
    assert done.returncode == 1 and b"error" in done.stderr
    assert out.exists() and out.read_bytes()[:8] == b"\x7fTileIR\x00"


def test_diagnostics_on_bytecode_are_at_its_debug_locations(tmp_path):
    """`check` of a bytecode that fails verification reports at the op's debug location (the
    .mlir line it was written from, as cuTile's bytecode names Python lines), with a note that
    gives the place in the printout `tile-lsp opt --no-verify` shows; JSON keeps the printout's position
    and adds `debug_location`."""
    src = tmp_path / "bad.mlir"
    text = (ROOT / "examples" / "vector_add.mlir").read_text()
    src.write_text(text.replace("%sum = addf %x, %y : tile<128xf32>", "%sum = addf %x, %bid : tile<128xf32>"))
    line = next(i for i, t in enumerate(src.read_text().splitlines(), 1) if "%sum = addf" in t)
    column = src.read_text().splitlines()[line - 1].index("%sum") + 1
    out = tmp_path / "bad.tileirbc"
    assert cli("opt", str(src), "--emit-bytecode", "-o", str(out)).returncode == 1
    done = cli("check", str(out))
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 1 and lines, done.stderr
    assert lines[0].startswith(f"{src}:{line}:{column}: error: "), lines
    assert lines[1].startswith(f"{out}:") and "note: in the decoded bytecode" in lines[1], lines
    assert cli("opt", str(out)).stdout == b""  # (invalid IR: not printed without --no-verify)
    shown = cli("opt", "--no-verify", str(out))
    assert shown.returncode == 1 and b"expects different type" in shown.stderr
    printed = shown.stdout.decode().splitlines()
    at = int(lines[1].split(":")[1])  # the printout's line holds the op
    assert "addf" in printed[at - 1], printed[at - 1]
    import json

    record = json.loads(cli("check", "--format", "json", str(out)).stdout)["diagnostics"][0]
    assert record["debug_location"] == f"{src}:{line}:{column}" and record["line"] == at
    as_text = cli("opt", "--no-verify", str(src))  # a text file's invalid IR, printed all the same
    assert as_text.returncode == 1 and b"addf %" in as_text.stdout and b"expects different type" in as_text.stderr
    plain = json.loads(cli("check", "--format", "json", str(src)).stdout)["diagnostics"][0]
    assert plain["debug_location"] is None  # (a text file: its own positions)


def test_tileiras_compiles_what_opt_writes(tmp_path):
    tileiras = find_tool("tileiras")
    if tileiras is None:
        pytest.skip("tileiras (nvidia-cuda-tileiras) not installed")
    out = tmp_path / "va.tileirbc"
    assert cli("opt", str(ROOT / "examples" / "vector_add.mlir"), "--emit-bytecode", "-o", str(out)).returncode == 0
    done = run_tool(tileiras, "--gpu-name", "sm_90", str(out), "-o", str(tmp_path / "va.cubin"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "va.cubin").stat().st_size > 0
