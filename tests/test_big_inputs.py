"""Issue 26's file-level faults: a byte-order mark, an empty file, code past column 65535, and
files over the size limits (the pipeline's, the front end's, formatting's), each a clear
diagnostic at the right place, in bounded time."""

from __future__ import annotations

import json
import pathlib
import time

import pytest

from tile_lsp.cli import main
from tile_lsp.compiler import limits
from tile_lsp.compiler.document import analyze, check_document
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from tile_lsp.compiler.textio import decode_source
from tile_lsp.features import formatting

KERNEL = """cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %b = addf %a, %a : tile<f32>
    return
  }
}
"""
BROKEN = KERNEL.replace("addf %a, %a", "addf %a, %nope")


def _errors(text: str) -> list[tuple[int, int, str]]:
    doc = analyze(text)
    return [(*doc.source.line_col(d.span.start), d.message) for d in doc.diagnostics if d.is_error]


# -- byte-order mark ---------------------------------------------------------------------------


def test_a_utf8_bom_is_dropped_when_decoding(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, diags = decode_source(b"\xef\xbb\xbf" + KERNEL.encode())
    assert (text, diags) == (KERNEL, [])
    path = tmp_path / "bom.mlir"
    path.write_bytes(b"\xef\xbb\xbf" + BROKEN.encode())
    assert main(["check", str(path)]) == 1
    # the one error, where an editor (which hides the mark) shows it
    assert capsys.readouterr().out.splitlines() == [f"{path}:3:19: error: use of undeclared SSA value name '%nope'"]


def test_a_bom_character_at_offset_0_of_an_editor_text_is_a_blank() -> None:
    assert _errors("\ufeff" + KERNEL) == []
    assert _errors("\ufeff" + BROKEN) == _errors(" " + BROKEN) == [(2, 18, "use of undeclared SSA value name '%nope'")]
    bare = KERNEL.split("\n", 1)[1].rsplit("}", 1)[0]  # a bare entry: the item splitter sees the mark too
    assert _errors("\ufeff" + bare) == []
    assert formatting.format_text("\ufeff" + KERNEL) == "\ufeff" + KERNEL


def test_the_pipeline_front_end_accepts_a_bom_text() -> None:
    result = compile_source(SourceText("\ufeff" + KERNEL), CompileOptions(target=Target(90)), "cuda_tile", cache=False)
    assert [d.message for d in result.diagnostics if d.is_error] == []


# -- empty files ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "// only a comment\n"])
def test_check_accepts_an_empty_file_and_compile_says_there_is_nothing(
    text: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.mlir"
    path.write_text(text)
    assert main(["check", str(path)]) == 0  # as mlir-opt: an empty module
    assert capsys.readouterr().out == ""
    assert main(["compile", "--gpu-name", "sm_90a", "--no-cache", "-o", str(tmp_path / "o.ptx"), str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:1:1: error: nothing to compile: the file has no cuda_tile module or entry"), err
    assert "Could not parse" not in err


# -- columns past 65535 ---------------------------------------------------------------------------


def test_code_past_column_65535_compiles_and_keeps_its_positions() -> None:
    pad = " " * 70000
    text = KERNEL.replace("    return", pad + "return")
    options = CompileOptions(target=Target(90), lineinfo=True)
    result = compile_source(SourceText(text, "wide.mlir"), options, "llvm-ir", cache=False)
    assert [d.message for d in result.diagnostics if d.is_error] == []
    # LLVM keeps 16-bit columns: past them a location says column 0 (unknown), as DILocation::get does
    assert "value for 'column' too large" not in result.stages[-1].text
    assert "column: 70001" not in result.stages[-1].text
    assert "!DILocation(line: 4, scope:" in result.stages[-1].text  # the return's line, column unknown
    # the front end's diagnostics there still say the real column
    broken = text.replace(pad + "return", pad + "%c = addf %a, %nope : tile<f32>\n    return")
    assert _errors(broken) == [(3, 70014, "use of undeclared SSA value name '%nope'")]


# -- size limits ----------------------------------------------------------------------------------


def _big(size: int) -> str:
    entry = KERNEL.split("\n", 1)[1].rsplit("}", 1)[0]
    parts, n, i = [], 0, 0
    while n < size:
        chunk = entry.replace("@k(", f"@k{i}(")
        parts.append(chunk)
        n += len(chunk)
        i += 1
    return "".join(parts)


def test_compile_refuses_a_file_over_max_size_at_once(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.mlir"
    path.write_text(_big(300_000))
    started = time.monotonic()
    assert main(["compile", "--gpu-name", "sm_90a", "--no-cache", "--max-size", "200K", "--format", "json",
                 "-o", str(tmp_path / "o.ptx"), str(path)]) == 1
    assert time.monotonic() - started < 5  # no stage runs
    record = json.loads(capsys.readouterr().out)
    [diag] = record["diagnostics"]
    assert (diag["line"], diag["column"], diag["severity"]) == (1, 1, "error")
    assert diag["message"].startswith("this file is 0.3 MB, over the 0.2 MB limit for compiling: not compiled")
    assert "--max-size 1M" in diag["message"]


def test_check_refuses_a_file_over_its_max_size(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.mlir"
    path.write_text(_big(300_000))
    assert main(["check", "--max-size", "100k", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{path}:1:1: error: this file is 0.3 MB, over the 0.1 MB limit for checking: not checked")
    assert main(["check", str(path)]) == 0  # (the default limit is 16 MB)


def test_check_document_is_the_analysis_without_the_ir() -> None:
    text = _big(50_000).replace("addf %a, %a", "addf %a, %x", 3).replace("@k7(", "@k3(")
    assert check_document(text) == analyze(text).diagnostics
    assert any(d.message == "redefinition of symbol named 'k3'" for d in check_document(text))


def test_the_server_analysis_of_a_file_over_the_front_end_limit_is_one_note() -> None:
    text = _big(40_000)
    doc = analyze(text, max_file_size=4_000)
    assert doc.items == []
    [note] = doc.diagnostics
    assert note.span.start == 0 and not note.is_error
    assert note.message.startswith("this file is 0.0 MB, over the 0.0 MB limit for analysis: not parsed")
    assert "tileLsp.maxFileSize" in note.message
    assert analyze(text).items  # within the default limits: analysed


def test_the_server_notes_a_file_over_max_file_size_and_does_not_compile_it() -> None:
    from tile_lsp.server import TileServer
    from tile_lsp.session import Settings

    server = TileServer().host
    server.session.settings = Settings(maxFileSize=10_000, gpuName="sm_90a")
    big = server.session.update("file:///big.mlir", 1, _big(20_000), "/tmp/big.mlir")
    small = server.session.update("file:///small.mlir", 1, KERNEL, "/tmp/small.mlir")
    [note] = server.size_notice(big, big.analysis)
    assert note.span.start == 0 and not note.is_error
    assert "over the 0.0 MB limit for compiling: front-end checks only" in note.message
    assert "raise tileLsp.maxFileSize" in note.message
    assert server.pipeline_request(big) is None
    assert big.analysis.items  # the front end still runs
    assert server.size_notice(small, small.analysis) == [] and server.pipeline_request(small) is not None


def test_formatting_is_refused_over_the_limit() -> None:
    text = _big(30_000)
    why = formatting.too_big_to_format(text, 10_000)
    assert why is not None and why.startswith("this file is 0.0 MB, over the 0.0 MB limit for formatting")
    assert formatting.format_text(text, max_size=10_000) is None
    assert formatting.too_big_to_format(text) is None


def test_sizes_parse_and_settings_fall_back() -> None:
    assert limits.parse_size("2M") == 2 << 20 and limits.parse_size("512k") == 512 << 10
    assert limits.parse_size("100") == 100 and limits.parse_size("1.5MB") == 3 << 19
    with pytest.raises(ValueError):
        limits.parse_size("big")
    assert limits.setting(-1) == limits.setting("x") == limits.setting(True) == limits.MAX_FILE_SIZE
    assert limits.size_of("\u00e9") == 2


def test_the_unit_cache_in_memory_is_bounded_by_bytes_not_only_by_count() -> None:
    """A worker's in-memory unit cache drops the least recently used units once their texts pass
    its byte budget (one huge entry's stages are tens of MB), keeps the newest even alone, and
    its estimate follows what real compiled units hold."""
    from tile_lsp.compiler.entry_cache import EntryCache
    from tile_lsp.compiler.entry_merge import UnitResult
    from tile_lsp.compiler.pipeline import StageOutput

    def unit(size: int) -> UnitResult:
        return UnitResult((), [StageOutput("ptx", "x" * size, 0.0)], [], {}, None, 0.0)

    cache = EntryCache(memory_bytes=100_000)
    for key in "abc":
        cache.remember(key, unit(30_000))
    assert [cache.get(k)[1] for k in "abc"] == ["memory"] * 3 and 90_000 <= cache.memory_held < 100_000
    cache.remember("d", unit(30_000))  # over the budget: the least recently used (a) goes
    assert cache.get("a") == (None, "") and cache.get("d")[1] == "memory"
    cache.remember("e", unit(500_000))  # alone over the budget: kept, alone
    assert [cache.get(k)[0] is not None for k in "bcde"] == [False, False, False, True]
    assert 500_000 <= cache.memory_held < 510_000
    cache.remember("e", unit(10))  # replacing a key replaces its size
    assert cache.memory_held < 10_000
    # A real compile's units are estimated at least at their stage texts.
    real = EntryCache()
    text = (pathlib.Path(__file__).parents[1] / "examples" / "vector_add.mlir").read_text(encoding="utf-8")
    result = compile_source(SourceText(text, "v.mlir"), CompileOptions(target=Target(80)), "ptx", cache=real)
    assert result.ok and real.memory_held >= sum(len(s.text) for s in result.stages)


async def test_a_file_over_max_file_size_gets_its_notice_before_its_analysis() -> None:
    """Opening a huge file: its analysis takes seconds (10 MB: ~15 s), so the notice saying it
    gets front-end features only is published first, alone; then the analysis's diagnostics with
    the notice. A later version of the same document waits for its analysis (no flicker)."""
    import asyncio

    from tile_lsp.host import AnalysisHost
    from tile_lsp.session import Settings

    published: list[list[str]] = []

    class Client:
        def publish(self, params: object) -> None:
            published.append([d.message for d in params.diagnostics])  # type: ignore[attr-defined]

        def __getattr__(self, name: str) -> object:
            return lambda *args: [] if name == "workspace_folders" else None

    host = AnalysisHost(Client())  # type: ignore[arg-type]
    host.session.settings = Settings(maxFileSize=10_000, gpuName="sm_90a")
    text = _big(20_000).replace("addf %a, %a", "addf %a, %x", 1)
    snap = host.session.update("file:///big.mlir", 1, text, "/tmp/big.mlir")
    await host._analyse_and_publish(snap, 0.0)
    assert len(published) == 2
    [notice] = published[0]
    assert "front-end checks only" in notice
    assert published[1][0] == notice and any("undefined value" in m or "%x" in m for m in published[1][1:])
    again = host.session.update("file:///big.mlir", 2, text + "\n", "/tmp/big.mlir")
    await host._analyse_and_publish(again, 0.0)
    assert len(published) == 3 and published[2] == published[1]
    host.shutdown()
    await asyncio.sleep(0)
