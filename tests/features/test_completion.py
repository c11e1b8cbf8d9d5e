"""Completion at a cursor (`$0`): op names, values in scope, types and keywords, symbols.

Most sources are half-typed, as they are while someone types: the cursor's line does not parse.
"""

from __future__ import annotations

import pathlib

from util import check as check_feature
from util import split_cursor

from tile_lsp.compiler.document import DocumentAnalysis, analyze
from tile_lsp.compiler.source import Span
from tile_lsp.features.completion import ELEMENT_TYPES, TOP_TYPES, Completion, complete

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"

KERNEL = """cuda_tile.module @m {
  global @lut <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k(%a: tile<f32>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %r = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %a) -> (tile<f32>) {
      %t = addf %acc, %a : tile<f32>
      continue %t : tile<f32>
    }
    LINE
    return
  }
  entry @other() {
    %late = constant <i32: 2> : tile<i32>
    return
  }
}
"""


def at(line: str) -> str:
    """KERNEL with `line` typed after the loop."""
    return KERNEL.replace("LINE", line)


def labels(doc: DocumentAnalysis, offset: int) -> list[str]:
    return [c.label for c in complete(doc, offset)]


def check(source_with_cursor: str, expected: list[str], among: set[str] | None = None) -> list[str]:
    """The labels offered, in order; with `among`, only those of interest (the rest may vary)."""

    def feature(doc: DocumentAnalysis, offset: int) -> list[str]:
        got = labels(doc, offset)
        return got if among is None else [x for x in got if x in among]

    result: list[str] = check_feature(source_with_cursor, expected, feature)
    return result


def completions(source_with_cursor: str) -> list[Completion]:
    text, offset = split_cursor(source_with_cursor)
    return complete(analyze(text), offset)


# -- op names ------------------------------------------------------------------------


def test_op_names_at_statement_start_are_short_inside_a_module():
    got = check(
        at("$0"), ["addf", "for", "return"], among={"addf", "return", "for", "cuda_tile.addf", "entry", "module"}
    )
    assert len(got) == 3


def test_op_names_for_a_half_typed_name():
    items = {c.label: c for c in completions(at("ad$0"))}
    addf = items["addf"]
    assert addf.kind == "op" and addf.insert_text == "addf"
    assert addf.detail.startswith("Float addition")
    assert "```mlir" in addf.documentation  # the whole docstring, example included


def test_op_names_after_results_need_results():
    check(at("%s = $0"), ["addf", "constant"], among={"addf", "constant", "return", "continue", "assert"})


def test_op_names_keep_a_typed_dialect_prefix():
    check(
        at("cuda_tile.ad$0"), ["cuda_tile.addf", "cuda_tile.addi"], among={"addf", "cuda_tile.addf", "cuda_tile.addi"}
    )


def test_module_body_offers_items_only():
    check("cuda_tile.module @m {\n  $0\n}\n", ["entry", "global"])


def test_top_level_names_are_prefixed_unless_the_file_has_bare_items():
    check("$0", ["cuda_tile.entry", "cuda_tile.global", "cuda_tile.module"])
    check("entry @k() {\n  return\n}\n$0", ["entry", "global", "cuda_tile.module"])


def test_op_names_in_a_bare_entry_are_short():
    check("entry @k() {\n  %x = io$0\n}\n", ["iota"], among={"iota", "cuda_tile.iota"})


# -- values in scope --------------------------------------------------------------------


def test_values_after_percent_nearest_first_with_types():
    items = completions(at("%s = addf %$0"))
    assert [(c.label, c.detail) for c in items] == [
        ("%r", "tile<f32>"),
        ("%c1", "tile<i32>"),
        ("%c0", "tile<i32>"),
        ("%n", "tile<i32>"),
        ("%a", "tile<f32>"),
    ]
    assert all(c.kind == "value" for c in items)


def test_values_replace_the_typed_word_with_its_sigil():
    text, offset = split_cursor(at("%s = addf %c$0"))
    (first, *_) = complete(analyze(text), offset)
    assert first.replace == Span(offset - 2, offset) and first.insert_text == "%r"


def test_loop_block_arguments_are_in_scope_inside_the_loop_only():
    inside = KERNEL.replace("      continue %t", "      %u = addf %t, %$0\n      continue %t")
    check(inside, ["%t", "%acc", "%i", "%c1", "%c0", "%n", "%a"])
    # After the loop: its results, not its body's values or block arguments.
    check(at("%s = addf %$0"), ["%r", "%c1", "%c0", "%n", "%a"])


def test_values_of_a_sibling_region_are_excluded():
    source = """entry @k(%c: tile<i1>) {
  %x = if %c -> (tile<i32>) {
    %then_only = constant <i32: 1> : tile<i32>
    yield %then_only : tile<i32>
  } else {
    %e = constant <i32: 2> : tile<i32>
    yield %$0
  }
  return
}
"""
    check(source, ["%e", "%c"])


def test_values_of_other_entries_and_later_lines_are_excluded():
    got = check(at("%s = addf %$0"), ["%r", "%c1", "%c0", "%n", "%a"])
    assert "%late" not in got
    later = KERNEL.replace("    %c1 = constant", "    %x = addf %$0\n    %c1 = constant")
    check(later, ["%c0", "%n", "%a"])


def test_values_in_operand_position_without_a_sigil():
    got = check(at("%s = addf %r, $0"), ["%r", "%c1", "%c0", "%n", "%a"], among={"%r", "%c1", "%c0", "%n", "%a"})
    assert got[0] == "%r"


def test_values_defined_after_a_broken_line_come_from_the_text():
    source = at("%bad = addf %nope,\n    %late_def = constant <i32: 3> : tile<i32>\n    %s = addf %$0")
    items = completions(source)
    assert [c.label for c in items][:2] == ["%late_def", "%bad"]
    assert items[0].detail == ""  # the parse stopped before it: no type known


def test_reduce_block_arguments_in_a_real_kernel():
    text = (DATA / "argmax.mlir").read_text()
    anchor = "    %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32>\n"
    source = text.replace(anchor, "    %9 = maxf %$0\n", 1)
    got = check(
        source,
        ["%reduce_rhs", "%reduce_lhs", "%1"],
        among={"%reduce_rhs", "%reduce_lhs", "%1", "%reduce", "%9", "%reduce_lhs0"},
    )
    assert "%reduce" not in got  # the reduce's own result is not defined inside its body


def test_else_region_of_a_real_kernel_excludes_the_then_region():
    text = (DATA / "control_flow.mlir").read_text()
    source = text.replace("      yield %6, %arg14", "      yield %$06, %arg14", 1)
    got = check(
        source,
        ["%7", "%6", "%5", "%arg14", "%arg13"],
        among={"%7", "%6", "%5", "%arg14", "%arg13", "%9", "%cst_1_i32_24", "%8"},
    )
    assert "%8" not in got  # the if being written is not its own operand


# -- types and keywords -------------------------------------------------------------------


def test_types_after_a_colon():
    check(at("%s = addf %r, %r : $0"), list(TOP_TYPES))
    check("entry @k(%a: $0", list(TOP_TYPES))


def test_element_types_inside_tile():
    check(at("%s = addf %r, %r : tile<$0"), [*ELEMENT_TYPES, "ptr<"])
    check(at("%s = addf %r, %r : tile<ptr<$0"), list(ELEMENT_TYPES))


def test_a_typed_shape_stays_and_only_the_element_is_replaced():
    text, offset = split_cursor(at("%s = addf %r, %r : tile<4x8xf$0"))
    f32 = next(c for c in complete(analyze(text), offset) if c.label == "f32")
    assert f32.replace == Span(offset - 1, offset) and f32.kind == "type"


def test_element_types_start_a_dense_literal():
    check(at("%s = constant <$0"), list(ELEMENT_TYPES))
    check(at("%s = constant <i32: $0"), [])


def test_comparison_predicates_and_signedness_from_the_format():
    check(
        at("%s = cmpi $0"),
        ["equal", "not_equal", "less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal", "signed"],
        among={
            "equal",
            "not_equal",
            "less_than",
            "less_than_or_equal",
            "greater_than",
            "greater_than_or_equal",
            "signed",
        },
    )


def test_rounding_modes_are_the_ops_own():
    check(at("%s = addf %r, %r rounding<$0"), ["nearest_even", "zero", "negative_inf", "positive_inf"])
    got = check(
        at("%s = divf %r, %r $0"),
        ["rounding<approx>", "flush_to_zero"],
        among={"rounding<approx>", "flush_to_zero", "signed"},
    )
    assert "signed" not in got


def test_bracketed_enum_cases():
    check(at("%s = addi %c0, %c1 overflow<$0"), ["none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap"])


def test_memory_ordering_keywords():
    check(
        at("%x, %t = load_ptr_tko $0"), ["weak", "relaxed", "acquire"], among={"weak", "relaxed", "acquire", "signed"}
    )


# -- symbols -----------------------------------------------------------------------------


def test_get_global_offers_globals():
    items = completions(at("%g = get_global @$0"))
    assert [(c.label, c.kind, c.detail) for c in items] == [("@lut", "symbol", "global : tile<2xf32>")]


def test_symbols_elsewhere_include_entries():
    check(at("%s = constant <i32: 0> {ref = @$0"), ["@lut", "@k", "@other"])


def test_no_symbols_where_one_is_being_defined():
    check("cuda_tile.module @m {\n  entry @$0\n}\n", [])


# -- where nothing fits ---------------------------------------------------------------------


def test_nothing_inside_comments_or_strings():
    check(at("// %s = addf %$0"), [])
    check(at('print "%$0'), [])


def test_nothing_outside_the_text_that_could_start_something():
    check(at("%s $0"), [])


def test_split_files_scope_values_to_their_chunk():
    source = """entry @a() {
  %x = constant <i32: 1> : tile<i32>
  return
}
// -----
entry @b() {
  %y = constant <i32: 2> : tile<i32>
  %z = addi %$0
"""
    check(source, ["%y"])
    check(source.replace("%z = addi %$0", "$0"), ["iota"], among={"iota", "cuda_tile.iota"})
