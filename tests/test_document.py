"""Item-wise analysis: an edit inside one entry re-parses only that entry; positions stay
absolute; files that cannot be cut safely are parsed whole."""

from __future__ import annotations

import pathlib

from tile_lsp.compiler.document import ItemCache, analyze, split_items

DATA = pathlib.Path(__file__).parent / "data" / "cutile"


def _module(text: str) -> str:
    return "cuda_tile.module @m {\n" + "".join("  " + line + "\n" for line in text.splitlines()) + "}\n"


def test_one_entry_edit_reparses_one_item():
    text = _module((DATA / "gemm.mlir").read_text() + (DATA / "attention.mlir").read_text())
    cache = ItemCache()
    first = analyze(text, cache=cache)
    entries = [i for i in first.items if i.kind == "entry"]
    assert len(entries) == 6 and first.reparsed == 6 and first.diagnostics == []
    at = text.index("%assume_4 = ")
    edited = text[:at] + "%assume_4x = " + text[at + len("%assume_4 = ") :]
    second = analyze(edited, cache=cache)
    assert second.reparsed == 1
    (diag,) = second.diagnostics
    assert diag.message == "use of undeclared SSA value name '%assume_4'"
    line, _ = second.source.line_col(diag.span.start)
    assert second.source.line_text(line).strip().startswith("%tview = make_tensor_view %assume, shape = [%assume_4")
    # Inserting lines above an entry shifts it but keeps it cached.
    shifted = text.replace("cuda_tile.module @m {\n", "cuda_tile.module @m {\n\n\n// note\n", 1)
    third = analyze(shifted, cache=cache)
    assert third.reparsed == 0 and third.diagnostics == []


def test_get_global_sees_globals_of_other_items():
    text = _module(
        "global @g <f32: [1.0, 2.0]> : tile<2xf32>\n"
        "entry @k() {\n  %p = get_global @g : tile<ptr<f32>>\n  %q = get_global @h : tile<ptr<f32>>\n  return\n}\n"
    )
    diags = analyze(text).diagnostics
    assert [d.message for d in diags] == ["'cuda_tile.get_global' op 'h' does not reference a valid global"]


def test_duplicate_symbols_across_items():
    text = _module("entry @k() {\n  return\n}\nentry @k() {\n  return\n}\n")
    (diag,) = analyze(text).diagnostics
    assert diag.message == "redefinition of symbol named 'k'" and diag.related


def test_files_that_cannot_be_cut_are_parsed_whole():
    assert split_items("entry @k() {\n#cuda_tile.foo<1>\n}\n") is None  # (a `#` line that defines nothing)
    assert split_items("entry @k() {\n}\n// -----\nentry @j() {\n}\n") is None
    assert split_items('"cuda_tile.module"() ({\n}) : () -> ()\n') is None
    doc = analyze("module {\n  cuda_tile.module @m {\n    entry @k() {\n      return\n    }\n  }\n}\n")
    assert [i.kind for i in doc.items] == ["whole"] and doc.diagnostics == []


def test_indented_alias_definitions_are_items_and_a_module_parses_whole():
    """Aliases (`#loc1 = loc(...)`) and a builtin `module` may stand after spaces or tabs: the
    definitions are alias items (once they were not seen, and their uses became 'alias was never
    defined' errors in a valid file); a builtin module is parsed whole."""
    for indent in (" ", "\t", " \t  "):
        cut = split_items(indent + "#a = loc(unknown)\nentry @k() {\n}\n")
        assert cut is not None and [k for k, _, _ in cut[0]] == ["alias", "entry"]
        cut = split_items("entry @k() {\n}\n" + indent + "!t = !cuda_tile.tile<f32>\n")
        assert cut is not None and [k for k, _, _ in cut[0]] == ["entry", "alias"]
        assert split_items(indent + "module {\n  entry @k() {\n  }\n}\n") is None
    text = (DATA / "prefix_scan.g.mlir").read_text(encoding="utf-8")
    indented = "".join("\t" + line for line in text.splitlines(keepends=True))
    assert analyze(text).diagnostics == []
    assert analyze(indented).diagnostics == []
    # (inside a token they are not line starts: entries still cut)
    assert split_items("entry @k() {\n  %r#1 = foo\n}\nentry @j() {\n  %x = cuda_tile.module_thing\n}\n") is not None
