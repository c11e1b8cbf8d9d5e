"""End-to-end test of editors/nvim in a real headless Neovim (Debian's 0.7.2 or newer).

Neovim runs the plugin against the real server (`python -m tile_lsp serve`); a Lua script
(nvim_e2e.lua) opens a kernel, waits for diagnostics, breaks a value, hovers, goes to a
definition, tries :TileLspShowPtx, and writes what it saw as JSON, which is asserted here.
Skipped when `nvim` is not installed (`.ci/run` installs it).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PLUGIN = ROOT / "editors" / "nvim"
KERNELS = ROOT / "tests" / "data" / "cutile"
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim)")


def run_nvim(tmp_path: Path, lua: str, extra_env: dict[str, str], timeout: float = 60) -> dict:
    """Run headless nvim with the test init and `-c <lua>`, then `qa!`; return the JSON result."""
    assert NVIM is not None
    result = tmp_path / "result.json"
    env = dict(os.environ)
    env.update(
        TILE_LSP_NVIM_RTP=str(PLUGIN),
        TILE_LSP_CMD=json.dumps([sys.executable, "-m", "tile_lsp", "serve"]),
        TILE_LSP_RESULT=str(result),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        **extra_env,
    )
    cmd = [NVIM, "--headless", "--clean", "-u", str(HERE / "nvim_init.lua"), "-c", lua, "-c", "qa!"]
    try:
        proc = subprocess.run(
            cmd, cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"nvim did not exit within {timeout}s; output: {e.stdout!r} {e.stderr!r}")
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stdout} {proc.stderr}"
    return json.loads(result.read_text())


@pytest.fixture
def kernels(tmp_path: Path) -> tuple[Path, Path]:
    work = tmp_path / "proj"
    work.mkdir()
    (work / ".git").mkdir()  # the root marker: both kernels share one root, hence one client
    a = shutil.copy(KERNELS / "vector_add.mlir", work / "vector_add.mlir")
    b = shutil.copy(KERNELS / "argmax.mlir", work / "argmax.mlir")
    return Path(a), Path(b)


def test_nvim_end_to_end(tmp_path: Path, kernels: tuple[Path, Path]) -> None:
    kernel, second = kernels
    res = run_nvim(
        tmp_path,
        f"luafile {HERE / 'nvim_e2e.lua'}",
        {
            "TILE_LSP_KERNEL": str(kernel),
            "TILE_LSP_KERNEL2": str(second),
            "TILE_LSP_WAIT_MS": "40000",
            "TILE_LSP_SETTINGS": json.dumps({"gpuName": "sm_90a", "previewOnSave": False}),
        },
    )
    assert res["ok"], res.get("error")
    assert res["steps"] == ["opened", "attached", "broken", "fixed", "hover", "definition", "show_stage", "second"]
    assert res["filetype"] == "cuda_tile"
    assert res["attached"] and res["client_name"] == "tile-lsp"

    # the clean kernel: diagnostics were published, and there are none
    assert res["first_publish"] is True
    assert res["initial_diagnostics"] == []

    # `%bcast` -> `%bcastx` on line 22: one error at the use, NVIDIA's wording
    assert res["original_line"] == "  %1 = fma %bcast, %tile, %tile_10  : tile<1024xf32>"
    assert res["broken_seen"] is True
    assert res["broken_diagnostics"] == [
        {
            "lnum": 21,
            "col": 11,
            "end_lnum": 21,
            "end_col": 18,
            "severity": 1,
            "message": "use of undeclared SSA value name '%bcastx'",
            "source": "tile-lsp(cuda_tile)",
        }
    ]
    assert res["fixed_clean"] is True

    # hover on `fma`: the op's docs and the operand types
    assert res["hover_kind"] == "markdown"
    assert res["hover"].startswith("**cuda_tile.fma**\n\nFused multiply-add")
    assert "Operands: `tile<1024xf32>`, `tile<1024xf32>`, `tile<1024xf32>`" in res["hover"]
    assert res["hover_range"] == {"start": {"line": 21, "character": 7}, "end": {"line": 21, "character": 10}}

    # definition of the `%bcast` use: its result on line 21 (0-based 20)
    assert res["definition"] == {
        "uri_matches": True,
        "line": 20,
        "character": 2,
        "text": "  %bcast = broadcast %reshape : tile<1xf32> -> tile<1024xf32>",
    }

    # :TileLspShowPtx / :TileLspShowStage: tileLsp/viewStage compiles the cuda_tile kernel through
    # the whole pipeline (tileaa -> gpu -> ... -> PTX) and shows the PTX
    stage = res["show_stage"]
    assert stage["call_ok"] and stage["command_ok"] and stage["done"]
    assert stage["ok"] is True
    assert ".entry vector_add_Kt1_A1f32" in stage["message"], stage["message"][:400]
    # asked from the PTX view, :TileLspShowStage tileaa shows the source's tileaa stage
    assert "nv_tileaa." in (res.get("tileaa_text") or ""), res.get("messages")
    assert not any("no tile-lsp server attached" in m["msg"] for m in res["messages"]), res["messages"]

    # a second kernel under the same root reuses the one client
    assert res["second_filetype"] == "cuda_tile"
    assert res["same_client"] is True
    assert res["tile_clients"] == 1


def test_nvim_filetype_detection(tmp_path: Path) -> None:
    files = {
        "long.mlir": "cuda_tile.module @m {\n}\n",
        "bare.mlir": "// comment\n\nentry @k() {\n  return\n}\n",
        "glob.mlir": "global @g <f32: 0.0> : tile<1xf32>\n",
        "upstream.mlir": "func.func @f() {\n  return\n}\n",
        "kernel.ptx": ".version 8.0\n.target sm_90\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    lua = (
        "lua local r = {} "
        f"for _, f in ipairs(vim.fn.json_decode('{json.dumps(sorted(files))}')) do "
        "vim.cmd('edit ' .. f); r[f] = vim.bo.filetype end "
        "local h = io.open(os.getenv('TILE_LSP_RESULT'), 'w'); h:write(vim.fn.json_encode(r)); h:close()"
    )
    res = run_nvim(tmp_path, lua, {}, timeout=30)
    assert res["long.mlir"] == "cuda_tile"
    assert res["bare.mlir"] == "cuda_tile"
    assert res["glob.mlir"] == "cuda_tile"
    assert res["upstream.mlir"] != "cuda_tile"  # left to Neovim's own mlir detection
    assert res["kernel.ptx"] == "ptx"


def test_nvim_upstream_ptx(tmp_path: Path) -> None:
    """An upstream `.mlir` kernel (filetype mlir) attaches; tileLsp/viewStage gives its PTX; the
    hover on gpu.thread_id lists the PTX line reading %tid.x, which is a line of that PTX."""
    work = tmp_path / "proj"
    work.mkdir()
    (work / ".git").mkdir()
    kernel = Path(shutil.copy(ROOT / "examples" / "block_sum.mlir", work / "block_sum.mlir"))
    res = run_nvim(
        tmp_path,
        f"luafile {HERE / 'nvim_upstream.lua'}",
        {
            "TILE_LSP_KERNEL": str(kernel),
            "TILE_LSP_WAIT_MS": "90000",
            "TILE_LSP_SETTINGS": json.dumps({"gpuName": "sm_90a", "previewOnSave": False}),
        },
        timeout=240,
    )
    assert res["ok"], res.get("error")
    assert res["steps"] == ["opened", "attached", "ptx", "hover"]
    assert res["filetype"] == "mlir"
    assert res["stage_ok"] is True
    ptx = res["ptx"]
    assert ".target sm_90a" in ptx and ".entry block_sum" in ptx, ptx[:2000]
    assert res["split_filetype"] == "ptx" and res["split_name"].endswith("tile-lsp://ptx/block_sum.mlir")
    hover = res["hover"]
    assert hover.startswith("**gpu.thread_id**"), hover
    section = hover.split("**PTX**", 1)[1]
    shown = [line for line in section.split("```ptx\n", 1)[1].split("```", 1)[0].splitlines() if line]
    assert any("%tid.x" in line for line in shown), hover
    ptx_lines = {" ".join(line.split()) for line in ptx.splitlines()}
    assert all(" ".join(line.split()) in ptx_lines for line in shown), (shown, hover)


def test_nvim_cross_stage_navigation(tmp_path: Path) -> None:
    """Save writes the previews; implementation on a cuda_tile op lists its lines in them; the
    PTX preview attaches (a map lists it) and definition on its line leads back to the op."""
    work = tmp_path / "proj"
    work.mkdir()
    (work / ".git").mkdir()
    kernel = Path(shutil.copy(ROOT / "examples" / "vector_add.mlir", work / "vector_add.mlir"))
    res = run_nvim(
        tmp_path,
        f"luafile {HERE / 'nvim_preview.lua'}",
        {
            "TILE_LSP_KERNEL": str(kernel),
            "TILE_LSP_WAIT_MS": "90000",
            "TILE_LSP_SETTINGS": json.dumps({"gpuName": "sm_90a", "previewOnSave": True}),
        },
        timeout=240,
    )
    assert res["ok"], res.get("error")
    assert res["steps"] == ["attached", "saved", "implementation", "definition"]
    assert res["previews"] is True
    assert {"vector_add.tileaa.mlir", "vector_add.gpu.mlir", "vector_add.nvvm.mlir", "vector_add.ptx"} <= set(res["impl_files"])
    assert res["ptx_filetype"] == "ptx" and res["ptx_attached"] is True
    assert "add" in res["ptx_text"] and "f32" in res["ptx_text"], res["ptx_text"]
    assert res["def_uri_matches"] is True and res["def_line"] == res["add_line"]


def test_nvim_bytecode(tmp_path: Path) -> None:
    """A `.tileirbc` opens as its decoded text, read-only (`:w` and `:q` neither write nor ask);
    the server attaches under the file's URI (diagnostics, hover); a truncated copy shows the
    decoder's error with its byte offset and no traceback; :TileSaveBytecode writes bytecode."""
    work = tmp_path / "proj"
    work.mkdir()
    (work / ".git").mkdir()
    original = (KERNELS / "vector_add.tileirbc").read_bytes()
    bytecode = work / "vector_add.tileirbc"
    bytecode.write_bytes(original)
    corrupt = work / "cut.tileirbc"
    corrupt.write_bytes(original[:200])
    fake = work / "fake.tileirbc"
    fake.write_text("entry @k() {\n  return\n}\n")
    kernel = Path(shutil.copy(ROOT / "examples" / "vector_add.mlir", work / "vector_add.mlir"))
    target = work / "out" / "saved.tileirbc"
    target.parent.mkdir()
    res = run_nvim(
        tmp_path,
        f"luafile {HERE / 'nvim_bytecode.lua'}",
        {
            "TILE_LSP_BYTECODE": str(bytecode),
            "TILE_LSP_CORRUPT": str(corrupt),
            "TILE_LSP_FAKE": str(fake),
            "TILE_LSP_MISSING": str(work / "gone.tileirbc"),
            "TILE_LSP_KERNEL": str(kernel),
            "TILE_LSP_TARGET": str(target),
            "TILE_LSP_WAIT_MS": "60000",
            "TILE_LSP_SETTINGS": json.dumps({"gpuName": "sm_90a", "previewOnSave": False}),
        },
        timeout=240,
    )
    assert res["ok"], res.get("error")
    assert res["steps"] == ["opened", "readonly", "attached", "hover", "quit", "corrupt", "saved"]

    # the text view: a header naming the file, its version and size, then the decoded module
    assert res["header"][0] == f"// vector_add.tileirbc: Tile IR bytecode 13.4, {len(original):,} bytes"
    assert res["entries"] and all(e.startswith("entry @vector_add") for e in res["entries"]), res["entries"]
    assert res["uri"] == bytecode.as_uri()
    assert res["state"] == {
        "filetype": "cuda_tile",
        "buftype": "nowrite",
        "modifiable": False,
        "readonly": True,
        "modified": False,
    }

    # read-only: no edit, :w and :w! refuse, the binary is untouched, :q asks nothing
    assert res["set_lines"]["ok"] is False and "modifiable" in res["set_lines"]["error"]
    assert res["normal_x"]["ok"] is False and "E21" in res["normal_x"]["error"]
    assert res["write"]["ok"] is False and "E382" in res["write"]["error"]
    assert res["write_bang"]["ok"] is False and "E382" in res["write_bang"]["error"]
    assert res["file_unchanged"] is True and res["modified_after"] is False
    assert res["quit"]["ok"] is True and res["quit_left_other"] is True, res["quit"]
    assert res["file_unchanged_after_quit"] is True
    assert bytecode.read_bytes() == original

    # the server serves the view under the file's own URI: the buffer's text, diagnostics, hover
    assert res["attached"] is True and res["client_name"] == "tile-lsp"
    assert res["server_text_matches"] is True
    assert res["published"] is True
    assert [d for d in res["diagnostics"] if d["severity"] == 1] == [], res["diagnostics"]
    assert "cuda_tile." in res["hover"] and "fma" in res["hover"], res.get("hover") or res.get("hover_error")

    # corrupt: the decoder's message with the byte offset, in the buffer and as an error; no traceback
    bad = res["corrupt"]
    assert bad["edit_ok"] is True, bad["edit_error"]
    assert any("invalid Tile IR bytecode at byte offset 13" in line for line in bad["lines"]), bad["lines"]
    assert bad["state"]["modifiable"] is False and bad["state"]["buftype"] == "nowrite"
    assert bad["attached"] is False
    errors = [m["msg"] for m in bad["messages"] if m["level"] == 4]
    assert any("byte offset 13" in m for m in errors), bad["messages"]
    everything = json.dumps(bad)
    assert "traceback" not in everything.lower() and "E5108" not in everything, everything
    assert corrupt.read_bytes() == original[:200]
    fake_view, missing_view = res["others"]
    assert fake_view["edit_ok"] is True and fake_view["modifiable"] is False
    assert any("fake.tileirbc: not Tile IR bytecode" in line for line in fake_view["lines"]), fake_view
    assert missing_view["edit_ok"] is True
    assert any("gone.tileirbc: cannot read it" in line for line in missing_view["lines"]), missing_view
    assert not (work / "gone.tileirbc").exists()

    # :TileSaveBytecode PATH: bytecode (the magic, then the version), reported
    assert res["saved"] is True, res["save_messages"]
    data = target.read_bytes()
    assert data.startswith(b"\x7fTileIR\x00"), data[:16]
    assert res["target_size"] == len(data)
    wrote = [m["msg"] for m in res["save_messages"] if "wrote " in m["msg"]]
    assert wrote and str(target) in wrote[0] and f"{len(data):,} bytes" in wrote[0], res["save_messages"]
    # with a version; a bad version is an error and writes nothing
    assert res["save_13_3"]["ok"] is True, res["save_13_3"]
    assert res["save_13_3"]["result"]["version"] == "13.3"
    assert res["target2_head"][:10] == [0x7F, *b"TileIR", 0, 13, 3]
    assert res["save_bad"]["done"] is True and res["save_bad"]["ok"] is False
    assert "invalid bytecode version" in res["save_bad"]["result"]["error"] and res["save_bad"]["written"] is False
    # and what was written opens in the view
    assert res["roundtrip_header"].startswith("// saved_13_3.tileirbc: Tile IR bytecode 13.3, ")
    assert res["roundtrip_entries"] == ["entry @vector_add"]
