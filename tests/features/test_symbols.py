"""Document symbols (module -> globals/entries; bare entries), their flattening for workspace
symbols, and folding ranges, for item-wise and whole-file analyses.
"""

from __future__ import annotations

import pathlib

from util import check

from tile_lsp.compiler.document import DocumentAnalysis, analyze
from tile_lsp.features import symbols
from tile_lsp.features.symbols import Symbol

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"

MODULE = """// a header comment
cuda_tile.module @kernels {
  global @lut <f32: [1.0, 2.0]> : tile<2xf32>

  entry @first(%a: tile<f32>, %n: tile<i32>) {
    %b = addf %a, %a : tile<f32>
    return
  }

  entry @second() {
    return
  }
}
"""


def outline(syms: list[Symbol], doc: DocumentAnalysis, depth: int = 0) -> list[str]:
    """One line per symbol: indent, kind, name, detail, first and last line, selected text."""
    out = []
    for sym in syms:
        first, _ = doc.source.line_col(sym.span.start)
        last, _ = doc.source.line_col(max(sym.span.end - 1, sym.span.start))
        selected = doc.source.text[sym.selection.start : sym.selection.end]
        out.append(f"{'  ' * depth}{sym.kind} {sym.name} [{sym.detail}] {first}-{last} {selected}")
        out.extend(outline(sym.children, doc, depth + 1))
    return out


def document_outline(doc: DocumentAnalysis, offset: int) -> list[str]:
    return outline(symbols.document_symbols(doc), doc)


def folds(doc: DocumentAnalysis, offset: int) -> list[tuple[int, int]]:
    return symbols.folding_ranges(doc)


def test_module_holds_its_globals_and_entries():
    check(
        MODULE + "|",
        [
            "module kernels [module] 1-12 @kernels",
            "  global lut [tile<2xf32>] 2-3 @lut",
            "  entry first [(tile<f32>, tile<i32>)] 4-8 @first",
            "  entry second [()] 9-11 @second",
        ],
        document_outline,
    )


def test_children_lie_inside_their_module():
    doc = analyze(MODULE)
    (module,) = symbols.document_symbols(doc)
    for child in module.children:
        assert module.span.start <= child.span.start <= child.span.end <= module.span.end
        assert child.span.start <= child.selection.start <= child.selection.end <= child.span.end


def test_bare_entries_are_top_level():
    text = (DATA / "vector_add.mlir").read_text()
    got = outline(symbols.document_symbols(analyze(text)), analyze(text))
    assert [line.split(" [")[0] for line in got] == [
        "entry vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024",
        "entry vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_Sf16_I2048",
    ]
    assert got[0].endswith("0-25 @vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024")


def test_split_files_give_one_module_per_chunk():
    text = MODULE + "// -----\ncuda_tile.module @more {\n  entry @third() {\n    return\n  }\n}\n"
    check(
        text + "|",
        [
            "module kernels [module] 1-12 @kernels",
            "  global lut [tile<2xf32>] 2-2 @lut",
            "  entry first [(tile<f32>, tile<i32>)] 4-7 @first",
            "  entry second [()] 9-11 @second",
            "module more [module] 14-18 @more",
            "  entry third [()] 15-17 @third",
        ],
        document_outline,
    )


def test_flatten_names_each_container():
    flat = symbols.flatten(symbols.document_symbols(analyze(MODULE)))
    assert [(sym.name, container) for sym, container in flat] == [
        ("kernels", None),
        ("lut", "kernels"),
        ("first", "kernels"),
        ("second", "kernels"),
    ]


def test_folding_ranges_of_module_entries_and_regions():
    text = MODULE.replace(
        "    return\n  }\n\n  entry @second",
        "    for %i in (%n to %n, step %n) : tile<i32> {\n      continue\n    }\n    return\n  }\n\n  entry @second",
    )
    assert analyze(text).diagnostics == []
    check(text + "|", [(1, 15), (4, 10), (6, 8), (12, 14)], folds)


def test_folding_ranges_of_a_real_kernel():
    text = (DATA / "control_flow.mlir").read_text()
    lines = text.splitlines()
    got = symbols.folding_ranges(analyze(text))
    assert got[0] == (0, len(lines) - 1)  # the entry
    for start, end in got:
        assert lines[start].rstrip().endswith("{") and lines[end].lstrip().startswith("}")
    assert len(got) == 8  # the entry, `loop` with its two `if`s, `for` with its three `if`s (one fold per op)
