"""A parse error in one top-level item must not hide the other items' IR and diagnostics."""

from __future__ import annotations

from tile_lsp.compiler.dialects.cuda_tile.ops_structure import EntryOp, GlobalOp
from tile_lsp.compiler.frontend import parse_chunk, parse_text
from tile_lsp.compiler.source import SourceText

TEXT = """cuda_tile.module @m {
  global @g <f32: [1.0, 2.0]> : tile<2xf32>
  entry @first(%a: tile<f32>) {
    %b = addf %a, %a : tile<f32>
    %c = mulf %b, %b : tile<f32>
    return
  }
  entry @broken(%a: tile<f32>) {
    %b = addf %a, %a tile<f32>
    return
  }
  entry @third(%x: tile<i32>) {
    %y = addi %x, %x : tile<i32>
    %z = addf %y, %y : tile<i32>
    return
  }
}
"""


def test_other_entries_survive_a_parse_error():
    src = SourceText(TEXT)
    result = parse_chunk(src)
    assert result.module is not None
    names = [op.properties["sym_name"].data for op in result.module.walk() if isinstance(op, EntryOp | GlobalOp)]
    assert names == ["g", "first", "third"]
    diags = [(src.line_col(d.span.start)[0] + 1, d.message) for d in result.diagnostics]
    # The syntax error in @broken, and the verifier error in @third, both reported.
    assert diags[0][0] == 9 and "expected ':'" in diags[0][1]
    assert any(line == 14 for line, _ in diags[1:])
    # Value information of the other entries is intact.
    defined = {result.smap.value_names[v] for v in result.smap.value_defs}
    assert {"%a", "%b", "%c", "%x", "%y", "%z"} <= defined


def test_split_chunks_keep_original_line_numbers():
    text = "cuda_tile.module @a {\n}\n// -----\n\n\ncuda_tile.module @b {\n  entry @k() {\n    %x = bogus\n  }\n}\n"
    results = parse_text(text, split=True)
    assert len(results) == 2
    assert results[0].ok
    (d,) = results[1].diagnostics
    assert results[1].source.line_col(d.span.start) == (7, 9)
