"""Files with debug info are cut into items like the rest (issue 30, item 4): `tileirdisasm -g`
output puts `#locN = loc(...)` and `#di_*` alias definitions after the code, and MLIR's printer
puts a module's after its closing line (or type aliases before it). These were parsed and
compiled whole on every keystroke (2 s per edit at 10,000 lines, 1-6 s per compile).

- The definitions are `alias` items; every other item is parsed with the aliases they define,
  and the document's IR (ops, locations, diagnostics) is exactly the whole-text parse's.
- An edit inside an entry re-parses that entry only; an edit of a definition re-parses the
  items that may use it, and their locations change with it.
- The entry cache's units carry the definitions their entry uses (transitively), not all of
  them: compiled by entry, the PTX's line info is the whole compile's, and a second compile
  takes every unit from the cache.
"""

from __future__ import annotations

import pathlib

import pytest

from tile_lsp import textsync
from tile_lsp.compiler import entry_cache, pipeline
from tile_lsp.compiler.document import ItemCache, analyze, check_document, parse_document
from tile_lsp.compiler.frontend import parse_chunk
from tile_lsp.compiler.items import split_items
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

KERNELS = pathlib.Path(__file__).parent / "data" / "cutile"
DEBUG = sorted(KERNELS.glob("*.g.mlir"))


def _wrapped(text: str) -> str:
    """The file in a module, the aliases after its closing line (MLIR's printer's layout)."""
    code, defs = text.split("\n#", 1)
    return "cuda_tile.module @m {\n" + code + "\n} loc(#loc)\n#" + defs


def _aliases_first(text: str) -> str:
    code, defs = text.split("\n#", 1)
    return "#" + defs + "cuda_tile.module @m {\n" + code + "\n}\n"


def _ir(text: str, path: str) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    result = parse_document(text, path)
    assert result.module is not None
    ops = [(op.name, str(op.location)) for op in result.module.walk() if op.name != "builtin.module"]
    return ops, [(d.span.start, d.message) for d in result.diagnostics]


def _whole(text: str, path: str) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    result = parse_chunk(SourceText(text, path))
    assert result.module is not None
    ops = [(op.name, str(op.location)) for op in result.module.walk() if op.name != "builtin.module"]
    return ops, [(d.span.start, d.message) for d in result.diagnostics]


@pytest.mark.parametrize("layout", [str, _wrapped, _aliases_first], ids=["tileirdisasm", "module", "aliases-first"])
@pytest.mark.parametrize("path", DEBUG, ids=[p.name for p in DEBUG])
def test_a_debug_file_is_cut_into_items_and_parses_as_the_whole_text(path: pathlib.Path, layout) -> None:
    text = layout(path.read_text(encoding="utf-8"))
    cut = split_items(text)
    assert cut is not None
    kinds = [k for k, _, _ in cut[0]]
    assert kinds.count("alias") == 1 and kinds.count("entry") == text.count("\nentry @") + text.startswith("entry @")
    ops, diagnostics = _ir(text, path.name)
    assert any("di_loc" in loc for _, loc in ops)  # (the aliases reached the ops)
    assert (ops, diagnostics) == _whole(text, path.name)
    assert [(d.span.start, d.message) for d in check_document(text, path.name)] == diagnostics == []


def test_an_edit_in_an_entry_reparses_it_alone_and_an_alias_edit_moves_the_locations() -> None:
    text = (KERNELS / "gemm.g.mlir").read_text(encoding="utf-8")
    source = SourceText(text, "gemm.g.mlir")
    cache = ItemCache()
    first = analyze(text, "gemm.g.mlir", cache, source=source)
    assert [i.kind for i in first.items] == ["entry"] * 4 + ["alias"] and first.reparsed == 5
    at = text.index("%0 = make_token")
    source, edit = textsync.apply_source_changes(source, [((*source.lsp_position(at), *source.lsp_position(at + 2)), "%q")])
    assert edit is not None
    second = analyze(source.text, "gemm.g.mlir", cache, source=source, previous=(first, edit))
    assert second.reparsed == 1 and [i.result for i in second.items[1:]] == [i.result for i in first.items[1:]]
    # `%0 = make_token ... loc(#loc29)`, `#loc29 = #cuda_tile.di_loc<#loc in ...>`: #loc's line, changed.
    line = next(ln for ln in source.text.splitlines() if ln.startswith("#loc = "))
    assert line.endswith('gemm.py":8:0)')
    at = source.text.index(line)
    changed = line.replace(":8:0)", ":1008:0)")
    source, edit = textsync.apply_source_changes(
        source, [((*source.lsp_position(at), *source.lsp_position(at + len(line))), changed)]
    )
    third = analyze(source.text, "gemm.g.mlir", cache, source=source, previous=(second, edit))
    assert third.reparsed == 5  # (every entry may use it)
    entry = third.items[0].top_op
    assert entry is not None
    op = entry.regions[0].blocks[0].first_op
    assert op is not None and op.name == "cuda_tile.make_token" and "int<1008>" in str(op.location)
    assert _ir(source.text, "gemm.g.mlir") == _whole(source.text, "gemm.g.mlir")


def test_an_undefined_alias_in_an_entry_is_reported_at_its_use() -> None:
    text = (KERNELS / "vector_add.g.mlir").read_text(encoding="utf-8").replace("loc(#loc11)", "loc(#nope)", 1)
    assert "#nope" in text
    _, diagnostics = _ir(text, "v.g.mlir")
    assert [m for _, m in diagnostics] == ["operation location alias was never defined"]
    assert text[diagnostics[0][0] :].startswith("#nope")
    assert (_ir(text, "v.g.mlir")) == _whole(text, "v.g.mlir")


def test_units_carry_the_aliases_their_entry_uses() -> None:
    text = (KERNELS / "gemm.g.mlir").read_text(encoding="utf-8")
    source = SourceText(text, "gemm.g.mlir")
    units = entry_cache.split_units(source)
    assert units is not None and len(units) == 4
    defined = sum(1 for line in text.splitlines() if line.startswith("#"))
    for unit in units:
        entry = [s for s in unit.segments if s.text.startswith("entry @")]
        assert len(entry) == 1
        names = {s.text.split(" ", 1)[0] for s in unit.segments if s.text.startswith("#")}
        assert 0 < len(names) < defined  # (its own, not every entry's)
        used = {w for w in entry[0].text.replace("(", " ").replace(")", " ").split() if w.startswith("#loc")}
        assert used <= names
        # transitively: each di_loc's subprogram and its file
        assert any(n.startswith("#di_subprogram") for n in names) and "#di_file" in names
        masked = entry_cache.masked_source(source, unit, "".join(c if c == "\n" else " " for c in text))
        assert parse_document(masked.text, "gemm.g.mlir").ok


def test_a_debug_file_compiles_by_entry_with_the_whole_compiles_line_info() -> None:
    text = (KERNELS / "attention.g.mlir").read_text(encoding="utf-8")
    source = SourceText(text, "attention.g.mlir")
    options = CompileOptions(target=Target(90), lineinfo=True)
    whole = pipeline.compile_source(source, options, "ptx")
    cache = entry_cache.EntryCache()
    by_entry = entry_cache.compile_source(source, options, "ptx", cache=cache)
    assert whole.ok and by_entry.ok and by_entry.unit_stats is not None and len(by_entry.unit_stats.units) == 2

    def line_info(result: pipeline.CompileResult) -> set[str]:
        stage = result.stage("ptx")
        assert stage is not None
        return {ln.strip() for ln in stage.text.splitlines() if ln.strip().startswith((".loc", ".file"))}

    assert line_info(by_entry) == line_info(whole) and len(line_info(whole)) > 20
    again = entry_cache.compile_source(source, options, "ptx", cache=cache)
    assert again.unit_stats is not None and again.unit_stats.compiled == [] and line_info(again) == line_info(whole)
