"""The per-entry compile cache: a 10-entry Tile IR file compiles unit by unit; an unchanged file
recompiles with zero stage runs, an edit re-lowers only the edited entry, the merged PTX is one
module ptxas accepts, line maps still point into the right entry after units move, a global's
change invalidates only its users and an options change invalidates all."""

from __future__ import annotations

import json
import pathlib
import re
import time

import pytest

from tile_lsp.cli import main
from tile_lsp.compiler.backend.cubin import elf_sections
from tile_lsp.compiler.backend.ptx_link import merge_ptx
from tile_lsp.compiler.backend.ptxas import find_ptxas, run_ptxas
from tile_lsp.compiler.entry_cache import EntryCache, compile_source, split_units
from tile_lsp.compiler.pipeline import CompileResult
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
# 10 entries: specializations of six cuTile kernels (files of 2, 2, 2, 2, 1 and 1 entries).
FILES = ("vector_add", "row_softmax", "prefix_scan", "column_sum", "control_flow", "layernorm")
TEN = "".join((DATA / f"{name}.mlir").read_text(encoding="utf-8") for name in FILES)
SM90 = Target(90)
OPTIONS = CompileOptions(target=SM90)
HAS_PTXAS = find_ptxas(OPTIONS) is not None
# The edit: swap the f32 vector_add's fma operands (same line count).
EDITED_KERNEL = "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024"
FMA = "%1 = fma %bcast, %tile, %tile_10  : tile<1024xf32>"
SWAPPED = "%1 = fma %bcast, %tile_10, %tile  : tile<1024xf32>"


def entry_names(text: str) -> list[str]:
    return re.findall(r"^entry @(\w+)", text, re.M)


def entry_lines(text: str) -> dict[str, range]:
    """Each entry's 0-based source line range."""
    lines = text.splitlines()
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := re.match(r"entry @(\w+)", line))]
    out = {}
    for k, (start, name) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        out[name] = range(start, end)
    return out


def ptx_kernel_lines(ptx: str) -> dict[str, range]:
    """Each `.entry`'s line range in the PTX text (header to closing brace)."""
    lines = ptx.splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"\.visible \.entry (\w+)\(", line)
        if m:
            end = next(j for j in range(i, len(lines)) if lines[j] == "}")
            out[m.group(1)] = range(i, end + 1)
    return out


def compile_ten(text: str, cache: EntryCache, emit: str = "ptx", options: CompileOptions = OPTIONS) -> CompileResult:
    return compile_source(SourceText(text, "ten.mlir"), options, emit, cache=cache)


@pytest.fixture(scope="module")
def cache() -> EntryCache:
    return EntryCache()


@pytest.fixture(scope="module")
def cold(cache: EntryCache) -> tuple[CompileResult, float]:
    started = time.perf_counter()
    result = compile_ten(TEN, cache)
    return result, time.perf_counter() - started


def test_the_file_is_cut_into_ten_units() -> None:
    units = split_units(SourceText(TEN, "ten.mlir"))
    assert units is not None and [u.name for u in units] == entry_names(TEN) and len(units) == 10


def test_cold_compile_lowers_every_entry_once(cold: tuple[CompileResult, float]) -> None:
    result, _ = cold
    assert result.ok, [d.message for d in result.diagnostics if d.is_error]
    stats = result.unit_stats
    assert stats is not None and stats.compiled == entry_names(TEN) and not stats.from_memory
    assert stats.stage_runs["tileaa"] == stats.stage_runs["gpu"] == stats.stage_runs["ptx"] == 10
    ptx = result.stage("ptx")
    assert ptx is not None and ptx.text.count(".version ") == 1 and ptx.text.count(".visible .entry ") == 10
    if HAS_PTXAS:
        assert sorted(result.kernels) == sorted(entry_names(TEN))


def test_unchanged_file_recompiles_with_zero_stage_runs(cold: tuple[CompileResult, float], cache: EntryCache) -> None:
    first, cold_seconds = cold
    started = time.perf_counter()
    again = compile_ten(TEN, cache)
    seconds = time.perf_counter() - started
    stats = again.unit_stats
    assert stats is not None and stats.compiled == [] and stats.stage_runs == {} and len(stats.from_memory) == 10
    assert seconds < cold_seconds / 10, (seconds, cold_seconds)
    for stage in ("tileaa", "gpu", "llvm-ir", "ptx"):
        assert again.stage(stage).text == first.stage(stage).text  # type: ignore[union-attr]
    assert again.stage_lines("ptx") == first.stage_lines("ptx")
    assert again.kernels == first.kernels


def test_editing_one_entry_recompiles_only_that_entry(cold: tuple[CompileResult, float], cache: EntryCache) -> None:
    first, _ = cold
    assert TEN.count(FMA) == 1
    edited = compile_ten(TEN.replace(FMA, SWAPPED), cache)
    assert edited.ok
    stats = edited.unit_stats
    assert stats is not None and stats.compiled == [EDITED_KERNEL] and len(stats.from_memory) == 9
    assert set(stats.stage_runs.values()) == {1}
    old, new = first.stage("ptx").text, edited.stage("ptx").text  # type: ignore[union-attr]
    old_k, new_k = ptx_kernel_lines(old), ptx_kernel_lines(new)
    for name in entry_names(TEN):
        same = [old.splitlines()[i] for i in old_k[name]] == [new.splitlines()[i] for i in new_k[name]]
        assert same == (name != EDITED_KERNEL), name


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_merged_ptx_is_one_module_ptxas_accepts(cold: tuple[CompileResult, float], cache: EntryCache) -> None:
    result, _ = cold
    ptx = result.stage("ptx").text  # type: ignore[union-attr]
    res = run_ptxas(ptx, SM90, OPTIONS)
    assert res.ok, res.diagnostics
    assert sorted(res.kernels) == sorted(entry_names(TEN))
    cubin = compile_ten(TEN, cache, emit="cubin")  # the units come from the cache: no ptxas runs
    assert cubin.ok and cubin.unit_stats is not None and cubin.unit_stats.compiled == []
    assert cubin.unit_stats.merged_ptxas == "linked"  # nvlink of the units' `ptxas -ewp` objects
    out = cubin.output
    assert out is not None and out.data is not None and out.data[:4] == b"\x7fELF"
    # Every kernel's code is byte for byte what whole-program ptxas makes of the merged PTX.
    linked, whole = elf_sections(out.data), elf_sections(res.cubin or b"")
    texts = sorted(k for k in whole if k.startswith(".text."))
    assert len(texts) == 10 and texts == sorted(k for k in linked if k.startswith(".text."))
    assert all(linked[k] == whole[k] for k in texts)
    assert cubin.kernels == res.kernels  # and the -v report of each is the same


def test_line_maps_follow_units_that_moved(cache: EntryCache, cold: tuple[CompileResult, float]) -> None:
    """Three lines added at the top and one entry edited: nine units come from the cache at new
    lines; every kernel's PTX lines still map into its own entry, and so do the MLIR stages'."""
    text = "// moved\n// by\n// three lines\n" + TEN.replace(FMA, SWAPPED)
    result = compile_ten(text, cache)
    assert result.ok and result.unit_stats is not None and len(result.unit_stats.compiled) <= 1
    ranges = entry_lines(text)
    ptx = result.stage("ptx").text  # type: ignore[union-attr]
    refs = result.stage_lines("ptx")
    for name, lines in ptx_kernel_lines(ptx).items():
        mapped = [refs[i] for i in lines if refs[i] is not None]
        assert mapped and all(r.line in ranges[name] for r in mapped), name  # type: ignore[union-attr]
    fma_line = next(i for i, line in enumerate(text.splitlines()) if "%1 = fma %bcast" in line and "2048" in line)
    for stage in ("tileaa", "gpu", "nvvm", "ptx"):
        hits = result.source_to_lines(stage, fma_line)
        assert hits, stage
    gpu = result.stage("gpu")
    assert gpu is not None and gpu.located_text is not None
    loc_lines = {int(m) for m in re.findall(r'"ten\.mlir":(\d+):', gpu.located_text)}
    assert loc_lines and all(0 < n <= len(text.splitlines()) for n in loc_lines)
    # Nothing maps into the added comment lines but the implicit module, at the file start (1:1)
    # as a fresh compile puts it.
    assert not loc_lines & {2, 3}
    assert {line.strip() for line in gpu.located_text.splitlines() if '"ten.mlir":1:1' in line} <= {
        '} loc("ten.mlir":1:1)', 'module {', 'module attributes {gpu.container_module} {'} | {
        line.strip() for line in gpu.located_text.splitlines()[:1]}


def _comparable(result: CompileResult) -> list[object]:
    """Stage texts, line maps, diagnostics and ptxas numbers, with one place blurred: where a
    file has no `cuda_tile.module`, the implicit module sits at the file start, which for the
    first unit is also its first token's place; moved with that token, the two differ."""
    text = result.source.text
    m = re.search(r"^[ \t]*(?!//)\S", text, re.M)  # the first token: the first line not blank or a comment
    assert m is not None
    first = m.end() - 1
    first_line = text.count("\n", 0, first)
    path = result.source.path
    starts = (f'"{path}":1:1', f'"{path}":{first_line + 1}:1')

    def blur_ref(ref: object) -> object:
        return "START" if getattr(ref, "offset", None) in (0, first) else ref

    def blur_text(t: str | None) -> str | None:
        if t is None:
            return None
        for start in starts:
            t = t.replace(start, "START")
        return t

    def blur_line(ref: object) -> object:  # the cuda_tile text's own lines: where a line holds no op
        # start, the ref spans to the line's end, which moves when a comment is added there
        return None if ref is None else (ref.line, ref.column, ref.offset)  # type: ignore[attr-defined]

    return [(s.name, s.text, blur_text(s.located_text),
             [blur_line(r) if s.name == "cuda_tile" else blur_ref(r) for r in s.line_refs or []]) for s in result.stages] + [
        result.diagnostics, result.kernels]


@pytest.mark.parametrize("lineinfo", [False, True])
def test_comment_and_blank_line_edits_inside_entries_reuse_them_exactly(lineinfo: bool) -> None:
    """Comments and blank lines typed inside and between entries change no token: every unit
    comes from the cache, moved token by token, and the result is what compiling the edited
    text afresh gives (stage texts, `loc`s, `.loc`/`!DILocation` lines, line maps). A change of
    column (re-indenting) or of a token recompiles."""
    text = "".join((DATA / f"{name}.mlir").read_text(encoding="utf-8") for name in ("vector_add", "control_flow"))
    options = CompileOptions(target=SM90, lineinfo=lineinfo)
    cache = EntryCache()
    first = compile_source(SourceText(text, "c.mlir"), options, "ptx", cache=cache)
    assert first.ok and first.unit_stats is not None and len(first.unit_stats.compiled) == 3
    lines = text.splitlines(keepends=True)
    fma = next(i for i, line in enumerate(lines) if "= fma " in line)
    edited_lines = [*lines[: fma], "    // a note typed above the fma\n", "\n", *lines[fma:]]
    last = max(i for i, line in enumerate(edited_lines) if "return" in line)
    edited_lines[last] = edited_lines[last].rstrip("\n") + "  // and one after a return\n"
    edited = "// a header comment\n\n" + "".join(edited_lines)
    again = compile_source(SourceText(edited, "c.mlir"), options, "ptx", cache=cache)
    assert again.unit_stats is not None and again.unit_stats.compiled == []
    fresh = compile_source(SourceText(edited, "c.mlir"), options, "ptx", cache=None)
    assert _comparable(again) == _comparable(fresh)
    fma_line = edited.splitlines().index(next(ln for ln in edited.splitlines() if "= fma " in ln))
    assert again.source_to_lines("nvvm", fma_line) == fresh.source_to_lines("nvvm", fma_line) != []
    reindented = edited.replace(lines[fma], "  " + lines[fma], 1)
    moved = compile_source(SourceText(reindented, "c.mlir"), options, "ptx", cache=cache)
    assert moved.unit_stats is not None and len(moved.unit_stats.compiled) == 1


GLOBALS = """global @g <f32: [1.0, 2.0]> : tile<2xf32>
global @h <i32: [7]> : tile<1xi32>
entry @uses_g() {
  %0 = get_global @g : tile<ptr<f32>>
  return
}
entry @plain() {
  return
}
entry @uses_h() {
  %0 = get_global @h : tile<ptr<i32>>
  return
}
"""


def test_a_global_change_invalidates_only_its_users() -> None:
    cache = EntryCache()
    first = compile_source(SourceText(GLOBALS, "g.mlir"), OPTIONS, "tileaa", cache=cache)
    assert first.ok and first.unit_stats is not None and first.unit_stats.compiled == ["uses_g", "plain", "uses_h"]
    changed = GLOBALS.replace("[1.0, 2.0]", "[1.0, 3.0]")
    second = compile_source(SourceText(changed, "g.mlir"), OPTIONS, "tileaa", cache=cache)
    assert second.unit_stats is not None and second.unit_stats.compiled == ["uses_g"]
    assert second.ok and second.stage("tileaa") is not None


def test_an_options_change_invalidates_every_unit() -> None:
    text = (DATA / "vector_add.mlir").read_text(encoding="utf-8")
    cache = EntryCache()
    first = compile_source(SourceText(text, "v.mlir"), OPTIONS, "llvm", cache=cache)
    assert first.unit_stats is not None and len(first.unit_stats.compiled) == 2
    again = compile_source(SourceText(text, "v.mlir"), OPTIONS, "llvm", cache=cache)
    assert again.unit_stats is not None and again.unit_stats.compiled == []
    other = compile_source(SourceText(text, "v.mlir"), CompileOptions(target=Target(90, "a")), "llvm", cache=cache)
    assert other.unit_stats is not None and len(other.unit_stats.compiled) == 2


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_cli_keeps_units_on_disk(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "vector_add.mlir"
    src.write_text((DATA / "vector_add.mlir").read_text(encoding="utf-8"), encoding="utf-8")
    args = ["compile", str(src), "--gpu-name", "sm_90", "--emit", "cubin", "-o", str(tmp_path / "v.cubin"),
            "--format", "json", "--cache-dir", str(tmp_path / "cache")]
    from tile_lsp import cli_compile

    runs = []
    for extra, new_process in (([], True), ([], True), (["--no-cache"], True), ([], False)):
        if new_process:
            cli_compile._CACHES.clear()  # as each `tile-lsp compile` process starts
        assert main(args + extra) == 0
        runs.append(json.loads(capsys.readouterr().out)["units"])
    assert runs[0]["compiled"] and len(runs[0]["compiled"]) == 2 and runs[0]["merged_ptxas"] == "linked"
    assert runs[1]["compiled"] == [] and runs[1]["from_disk"] == 2 and runs[1]["merged_ptxas"] == "linked"
    assert len(runs[2]["compiled"]) == 2 and runs[2]["cached"] == 0
    # In one process (a compile daemon's worker), the command after a --no-cache one reads the
    # disk; the next one finds the units in memory.
    assert runs[3]["compiled"] == [] and runs[3]["from_memory"] == 0 and runs[3]["from_disk"] == 2
    assert main(args) == 0
    again = json.loads(capsys.readouterr().out)["units"]
    assert again["compiled"] == [] and again["from_memory"] == 2 and again["from_disk"] == 0
    assert (tmp_path / "v.cubin").read_bytes()[:4] == b"\x7fELF"


def test_units_compiled_in_parallel_children_equal_those_compiled_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Missing units compile in forked children, `parallel_jobs()` at a time: same texts, line
    maps, diagnostics and ptxas numbers as one by one in this process."""
    from tile_lsp.compiler import entry_cache, forked

    if not forked.enabled():
        pytest.skip("needs os.fork")
    text = "".join((DATA / f"{name}.mlir").read_text(encoding="utf-8") for name in ("vector_add", "control_flow"))
    seen: list[int] = []
    real = entry_cache._compile_all

    def counting(compile_unit, units):  # type: ignore[no-untyped-def]
        seen.append(entry_cache.parallel_jobs())
        return real(compile_unit, units)

    monkeypatch.setattr(entry_cache, "_compile_all", counting)
    results = []
    for jobs in ("1", "3"):
        monkeypatch.setenv("TILE_LSP_JOBS", jobs)
        res = compile_source(SourceText(text, "three.mlir"), OPTIONS, "ptx", cache=None)
        assert res.ok and res.unit_stats is not None and len(res.unit_stats.compiled) == 3
        results.append(res)
    serial, parallel = results
    assert seen == [1, 3]
    assert [(s.name, s.text, s.line_refs) for s in parallel.stages] == [(s.name, s.text, s.line_refs) for s in serial.stages]
    assert parallel.diagnostics == serial.diagnostics and parallel.kernels == serial.kernels


def test_a_cli_compile_served_from_the_cache_never_imports_xdsl(tmp_path: pathlib.Path) -> None:
    """The cached path (split, unpickle, merge) is plain Python: a fresh `tile-lsp compile` of an
    unchanged file must not pay for importing xDSL and the stages (most of a cold start)."""
    import os
    import subprocess
    import sys

    src = tmp_path / "k.mlir"
    src.write_text(TEN, encoding="utf-8")
    args = ["compile", str(src), "--gpu-name", "sm_90", "--emit", "ptx", "-o", str(tmp_path / "k.ptx"),
            "--format", "json", "--cache-dir", str(tmp_path / "cache")]
    probe = ("import json, sys; from tile_lsp.cli import main; rc = main(sys.argv[1:]); "
             "print(json.dumps([rc, sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'llvmlite'})]))")
    runs = []
    for _ in range(2):  # (the cold run in process, so that the probe sees its imports)
        env = {**os.environ, "TILE_LSP_JOBS": "1"}
        out = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=600, env=env).stdout
        report, probed = out.strip().rsplit("\n", 1)
        runs.append((json.loads(report)["units"], json.loads(probed)))
    (cold, cold_probe), (warm, warm_probe) = runs
    assert cold_probe == [0, ["llvmlite", "xdsl"]] and len(cold["compiled"]) == 10
    assert warm_probe == [0, []] and warm["compiled"] == [] and warm["from_disk"] == 10


def test_ptx_merge_renames_clashing_internal_symbols_and_shares_equal_ones() -> None:
    def unit(name: str, fmt: str) -> str:
        return (
            "//\n.version 8.7\n.target sm_90\n.address_size 64\n\n"
            ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0\n)\n;\n"
            f".global .align 1 .b8 printfFormat_0[2] = {{{fmt}, 0}};\n"
            ".func  (.param .b32 func_retval0) __nv_fabsf(\n\t.param .b32 __nv_fabsf_param_0\n)\n{\n\tret;\n}\n"
            f".visible .entry {name}()\n{{\n\tmov.u64 \t%rd1, printfFormat_0;\n\tret;\n}}\n"
        )

    text, refs = merge_ptx([(unit("a", "65"), None), (unit("b", "66"), None)])
    assert len(refs) == len(text.splitlines())
    assert text.count(".version") == 1 and text.count(".extern .func") == 1
    assert text.count("__nv_fabsf(") == 1  # the same definition, once
    assert "printfFormat_0[2] = {65, 0}" in text and "printfFormat_0_u1[2] = {66, 0}" in text
    b = text[text.index(".entry b()") :]
    assert "printfFormat_0_u1;" in b
    if HAS_PTXAS:
        assert run_ptxas(text.replace("{\n\tmov", "{\n\t.reg .b64 %rd<2>;\n\tmov"), SM90, OPTIONS).ok


def test_deferred_disk_writes_wait_for_flush(tmp_path: pathlib.Path) -> None:
    """The language server's worker puts units in memory at once and on disk after its report."""
    cache = EntryCache(directory=str(tmp_path), defer_writes=True)
    cache.put("ab" + "0" * 62, {"unit": 1})
    assert cache.get("ab" + "0" * 62) == ({"unit": 1}, "memory")
    assert not list(tmp_path.rglob("*.unit"))
    cache.flush()
    (written,) = tmp_path.rglob("*.unit")
    fresh = EntryCache(directory=str(tmp_path))  # another process: only the disk
    assert fresh.get("ab" + "0" * 62) == ({"unit": 1}, "disk")
    cache.flush()  # nothing left to write
    assert list(tmp_path.rglob("*.unit")) == [written]


def test_the_disk_cache_is_pruned_least_recently_used_first(tmp_path: pathlib.Path) -> None:
    """Past its size limit the directory loses its least recently used units (a read counts as a
    use), down to 80% of the limit; what is left still reads back."""
    import os

    cache = EntryCache(directory=str(tmp_path), disk_limit=10**9)
    keys = [f"{i:02d}" + "0" * 62 for i in range(10)]
    for i, key in enumerate(keys):
        cache.put(key, bytes(range(256)) * 40 + bytes([i]))  # ~10 KB each, incompressible enough
        path = tmp_path / key[:2] / (key[2:] + ".unit")
        os.utime(path, (1000 + i, 1000 + i))  # written in order, one second apart
    sizes = {key: (tmp_path / key[:2] / (key[2:] + ".unit")).stat().st_size for key in keys}
    os.utime(tmp_path / keys[0][:2] / (keys[0][2:] + ".unit"), (2000, 2000))  # the oldest, read again
    cache.disk_limit = sum(sizes.values()) // 2
    deleted = cache.prune()
    left = {key for key in keys if (tmp_path / key[:2] / (key[2:] + ".unit")).exists()}
    assert deleted == len(keys) - len(left) and deleted > 0
    assert sum(sizes[k] for k in left) <= cache.disk_limit * 0.8
    assert keys[0] in left and keys[1] not in left  # used recently: kept; oldest unused: gone
    assert cache.prune() == 0  # under the limit now
    fresh = EntryCache(directory=str(tmp_path))
    assert fresh.get(keys[0])[1] == "disk"


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_an_edit_hands_out_its_diagnostics_before_ptxas_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """`compile_source(early=...)` on an edit: once, before ptxas runs on the edited entry, with
    the file's diagnostics so far: the cached entry's ptxas messages and the edited entry's
    stages through PTX. CUDA 13's ptxas rejects sm_70, so every entry has a ptxas error."""
    from tile_lsp.compiler.backend import ptxas

    text = (DATA / "vector_add.mlir").read_text(encoding="utf-8")
    options, cache = CompileOptions(target=Target(70)), EntryCache()
    events: list[object] = []
    cold = compile_source(SourceText(text, "v.mlir"), options, "ptx", cache=cache, early=events.append)
    if cold.ok:
        pytest.skip("this ptxas still accepts sm_70 (CUDA < 13)")
    assert events == []  # two entries compiled at once: nothing early
    assert [d.stage for d in cold.diagnostics] == ["ptxas", "ptxas"]
    # A ptxas message with no PTX line sits on its own entry (the unit's kernel), not line 1.
    where = [SourceText(text).line_col(d.span.start)[0] for d in cold.diagnostics]
    assert [next(n for n, lines in entry_lines(text).items() if w in lines) for w in where] == entry_names(text)
    real = ptxas.run_ptxas
    monkeypatch.setattr(ptxas, "run_ptxas", lambda *a, **kw: (events.append("ptxas"), real(*a, **kw))[1])
    assert text.count(FMA) == 1
    edited = compile_source(SourceText(text.replace(FMA, SWAPPED), "v.mlir"), options, "ptx", cache=cache, early=events.append)
    assert edited.unit_stats is not None and edited.unit_stats.compiled == [EDITED_KERNEL]
    assert len(events) == 2 and events[1] == "ptxas", events
    early = events[0]
    assert isinstance(early, list) and len(early) == 1 and early[0].stage == "ptxas"
    edited_lines = entry_lines(text)[EDITED_KERNEL]
    other = early[0]
    assert SourceText(text).line_col(other.span.start)[0] not in edited_lines  # the cached entry's
    assert len(edited.diagnostics) == 2 and other in edited.diagnostics


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_entries_an_edit_moves_are_relocated_beside_ptxas(monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit that adds a line moves the entries after it. Their diagnostics move at once (the
    early ones name the new lines); their texts and line maps (~30 ms for a large entry) move
    while the edited entry's ptxas runs, not before its stages. CUDA 13's ptxas rejects sm_70,
    so every entry has a ptxas error to follow."""
    from tile_lsp.compiler import entry_cache, pipeline

    text = (DATA / "vector_add.mlir").read_text(encoding="utf-8")
    options, cache = CompileOptions(target=Target(70)), EntryCache()
    cold = compile_source(SourceText(text, "v.mlir"), options, "ptx", cache=cache)
    if cold.ok:
        pytest.skip("this ptxas still accepts sm_70 (CUDA < 13)")
    events: list[object] = []
    real_relocate = entry_cache.relocate
    monkeypatch.setattr(entry_cache, "relocate", lambda *a: (events.append("relocate"), real_relocate(*a))[1])
    monkeypatch.setattr(pipeline, "_BESIDE_PTXAS", [lambda: events.append("beside")])  # (work_beside_ptxas, undone after)
    first = entry_names(text)[0]
    opening = next(i for i, line in enumerate(text.splitlines(keepends=True)) if line.startswith(f"entry @{first}"))
    lines = text.splitlines(keepends=True)
    lines.insert(opening + 1, "  %moved = constant <i32: 1> : tile<i32>\n")
    edited_text = "".join(lines)
    edited = compile_source(SourceText(edited_text, "v.mlir"), options, "ptx", cache=cache, early=events.append)
    assert edited.unit_stats is not None and edited.unit_stats.compiled == [first]
    early, *rest = events
    assert rest == ["relocate", "beside"]
    moved_entry = entry_lines(edited_text)[entry_names(text)[1]]
    line_of = lambda d: SourceText(edited_text).line_col(d.span.start)[0]  # noqa: E731
    # Early: the moved entry's ptxas error, at its new lines (the edited entry's ptxas follows).
    assert isinstance(early, list) and len(early) == 1 and line_of(early[0]) in moved_entry
    assert early[0] in edited.diagnostics and len(edited.diagnostics) == 2
    ptx_refs = [r for r in edited.stage_lines("ptx") if r is not None]
    assert {r.line for r in ptx_refs} & set(moved_entry)  # and its PTX lines map there too


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_cli_without_dump_dir_keeps_no_intermediate_texts_and_the_same_output(tmp_path: pathlib.Path) -> None:
    """`tile-lsp compile` without --dump-dir prints no tileaa/gpu/nvvm/llvm stage (nobody reads
    it): its PTX and cubin are byte for byte those of a compile that keeps every text, and a
    --dump-dir run (another cache key) still writes every stage."""
    text = (DATA / "layernorm.mlir").read_text(encoding="utf-8")
    lean = compile_source(SourceText(text, "l.mlir"), CompileOptions(target=SM90, stage_texts=False), "cubin", cache=None)
    full = compile_source(SourceText(text, "l.mlir"), OPTIONS, "cubin", cache=None)
    assert lean.ok and full.ok
    assert [s.text for s in lean.stages if s.name in ("tileaa", "gpu", "nvvm", "llvm")] == ["", "", "", ""]
    assert all(s.text for s in full.stages if s.name in ("tileaa", "gpu", "nvvm", "llvm"))
    assert lean.stage("ptx").text == full.stage("ptx").text and lean.output.data == full.output.data
    assert lean.kernels == full.kernels
    src = tmp_path / "ten.mlir"
    src.write_text(TEN, encoding="utf-8")
    base = ["compile", str(src), "--gpu-name", "sm_90", "--cache-dir", str(tmp_path / "cache"), "--no-daemon"]
    assert main([*base, "-o", str(tmp_path / "a.ptx")]) == 0
    assert main([*base, "-o", str(tmp_path / "b.ptx"), "--dump-dir", str(tmp_path / "dump")]) == 0
    assert (tmp_path / "a.ptx").read_text() == (tmp_path / "b.ptx").read_text()
    for suffix, op in ((".tileaa.mlir", "nv_tileaa."), (".gpu.mlir", "gpu.func"), (".nvvm.mlir", "nvvm."),
                       (".llvm.mlir", "llvm.func")):
        dumped = (tmp_path / "dump" / f"ten{suffix}").read_text()
        assert dumped.count("// -----") == 9 and op in dumped, suffix


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_file_cubin_of_an_edit_is_linked_from_the_units_objects(tmp_path: pathlib.Path) -> None:
    """One entry of ten edited, --emit cubin: only that entry meets ptxas (as an object), and
    nvlink makes the file's cubin; each kernel's code is what ptxas makes of the merged PTX."""
    cache = EntryCache(directory=str(tmp_path / "units"))
    assert compile_ten(TEN, cache, emit="cubin").ok
    result = compile_ten(TEN.replace(FMA, SWAPPED), cache, emit="cubin")
    stats = result.unit_stats
    assert result.ok and stats is not None and stats.compiled == [EDITED_KERNEL]
    assert stats.merged_ptxas == "linked" and not stats.merged_ptxas_beside
    whole = run_ptxas(result.stage("ptx").text, SM90, OPTIONS)  # type: ignore[union-attr]
    linked, reference = elf_sections(result.output.data), elf_sections(whole.cubin or b"")  # type: ignore[union-attr]
    texts = [k for k in reference if k.startswith(".text.")]
    assert len(texts) == 10 and all(linked.get(k) == reference[k] for k in texts)
    assert result.kernels == whole.kernels


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_file_with_a_call_is_assembled_whole() -> None:
    """An entry that calls a function (vprintf) is no object for nvlink (`ptxas -ewp` cannot
    total its stack): its file's cubin is ptxas on the merged PTX."""
    text = TEN + (DATA / "debug_print.mlir").read_text(encoding="utf-8")
    result = compile_source(SourceText(text, "t.mlir"), OPTIONS, "cubin", cache=EntryCache())
    assert result.ok and result.unit_stats is not None and result.unit_stats.merged_ptxas == "run"


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_a_ptxas_without_ewp_assembles_the_file_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ptxas whose --help has no --extensible-whole-program (an older toolkit): whole-program
    checks, and the file's cubin from ptxas on the merged PTX."""
    from tile_lsp.compiler.backend import ptxas

    monkeypatch.setattr(ptxas, "_has_option", lambda path, option: option != "--extensible-whole-program")
    monkeypatch.setenv("TILE_LSP_JOBS", "1")  # (units compiled here, where the calls are seen)
    asked: list[bool] = []
    real_start = ptxas.start_ptxas
    monkeypatch.setattr(ptxas, "start_ptxas", lambda *a, ewp=False, **k: asked.append(ewp) or real_start(*a, ewp=ewp, **k))
    result = compile_source(SourceText(TEN, "t.mlir"), OPTIONS, "cubin", cache=EntryCache())
    assert result.ok and result.unit_stats is not None and result.unit_stats.merged_ptxas == "run"
    assert len(asked) == 11 and not any(asked)  # ten checks and the file's ptxas, none with -ewp


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_file_cubin_of_an_edit_starts_beside_the_edited_entrys_ptxas(tmp_path: pathlib.Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Without nvlink, one entry of ten edited, --emit cubin: the file's ptxas starts while the
    edited entry's own ptxas runs (its PTX is the merged one's last missing part), and its cubin
    is byte for byte the cubin of a compile without the cache."""
    from tile_lsp.compiler.backend import ptxas

    monkeypatch.setattr(ptxas, "find_nvlink", lambda options: None)
    cache = EntryCache(directory=str(tmp_path / "units"))
    assert compile_ten(TEN, cache, emit="cubin").ok
    edited = TEN.replace(FMA, SWAPPED)
    result = compile_ten(edited, cache, emit="cubin")
    stats = result.unit_stats
    assert result.ok and stats is not None and stats.compiled == [EDITED_KERNEL]
    assert stats.merged_ptxas == "run" and stats.merged_ptxas_beside
    fresh = compile_source(SourceText(edited, "ten.mlir"), OPTIONS, "cubin", cache=None)
    assert fresh.ok and fresh.unit_stats is not None and not fresh.unit_stats.merged_ptxas_beside
    assert result.output.data == fresh.output.data  # type: ignore[union-attr]
    # Compiled again with another edit: the early ptxas is not taken when the cubin is cached...
    again = compile_ten(edited, EntryCache(directory=str(tmp_path / "units")), emit="cubin")
    assert again.unit_stats is not None and again.unit_stats.merged_ptxas == "cached"


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
def test_an_edit_whose_ptxas_fails_stops_the_file_ptxas_started_beside(tmp_path: pathlib.Path) -> None:
    """The edited entry's own ptxas fails while the file's (started beside it) still runs: the
    compile reports the failure at once and leaves no ptxas of the file running."""
    import subprocess

    flag = tmp_path / "fail"
    fake = tmp_path / "ptxas"
    fake.write_text(f"""#!/bin/sh
case "$*" in *file.ptx*) sleep 30;; esac
if [ -e {flag} ]; then case "$*" in *kernel.ptx*) echo "ptxas fatal   : forced failure" >&2; exit 1;; esac; fi
exec {find_ptxas(OPTIONS)} "$@"
""")
    fake.chmod(0o755)
    options = CompileOptions(target=SM90, ptxas=str(fake))
    cache = EntryCache(directory=str(tmp_path / "units"))
    assert compile_ten(TEN, cache, emit="cubin", options=options).ok
    flag.touch()
    started = time.monotonic()
    broken = compile_ten(TEN.replace(FMA, SWAPPED), cache, emit="cubin", options=options)
    assert not broken.ok and any("forced failure" in d.message for d in broken.diagnostics)
    assert time.monotonic() - started < 20
    left = subprocess.run(["pgrep", "-f", f"{fake}.*file.ptx"], capture_output=True, text=True)
    assert left.stdout.strip() == "", left.stdout
