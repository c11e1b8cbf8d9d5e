"""Code actions at a cursor (`$0`): each fix kind applied, its diagnostic gone, the exact text
that results; fixes whose edit would not repair the diagnostic are not offered.
"""

from __future__ import annotations

import pathlib

from util import check, split_cursor

from tile_lsp.compiler.document import DocumentAnalysis, analyze
from tile_lsp.compiler.source import Span
from tile_lsp.features.code_actions import QUICKFIX, REWRITE, WRAP_TITLE, apply_edits, quick_fixes

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"


def fixes_at(doc: DocumentAnalysis, offset: int) -> list[tuple[str, str]]:
    """(title, text after the fix) of every quick fix at the cursor (the refactor left out)."""
    return [
        (f.title, apply_edits(doc.source.text, f.edits))
        for f in quick_fixes(doc, Span(offset, offset))
        if f.kind == QUICKFIX
    ]


def check_fix(source_with_cursor: str, title: str, fixed: str, others: tuple[str, ...] = ()) -> None:
    """The preferred fix is `title` and gives `fixed`, which has no diagnostic left where the
    original had the one under the cursor; `others` are the further titles offered."""
    text, offset = split_cursor(source_with_cursor)
    doc = analyze(text)
    (diag,) = [d for d in doc.diagnostics if d.span.start <= offset <= d.span.end]
    got = check(source_with_cursor, [(title, fixed), *[(t, ...) for t in others]], _titles_and_first)
    assert got[0][1] == fixed
    preferred = [f for f in quick_fixes(doc, Span(offset, offset)) if f.preferred]
    assert [f.title for f in preferred] == [title] and preferred[0].diagnostic == diag
    assert diag.message not in [d.message for d in analyze(fixed).diagnostics]


def _titles_and_first(doc: DocumentAnalysis, offset: int) -> list[tuple[str, object]]:
    """The first fix with its text, the others by title only (`...`): compared as a list."""
    got = fixes_at(doc, offset)
    return [(t, text if i == 0 else ...) for i, (t, text) in enumerate(got)]


def module(body: str) -> str:
    return "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>) {\n" + body + "    return\n  }\n}\n"


# -- names -----------------------------------------------------------------------------------------


def test_unknown_op_becomes_the_closest_op():
    check_fix(
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = add$0ff %a, %a : tile<f32>\n"),
        "Change to 'addf'",
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = addf %a, %a : tile<f32>\n"),
    )


def test_unknown_qualified_op_name():
    check_fix(
        module("    %a = cuda_tile.constant <f32: 1.0> : tile<f32>\n    %b = cuda_tile.ne$0gff %a : tile<f32>\n"),
        "Change to 'cuda_tile.negf'",
        module("    %a = cuda_tile.constant <f32: 1.0> : tile<f32>\n    %b = cuda_tile.negf %a : tile<f32>\n"),
    )


def test_unknown_op_candidates_that_do_not_fit_are_dropped():
    """`muli` and `mulhii` are closer to `mulii`, but on f32 operands they would be new errors."""
    check_fix(
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = mul$0ii %a, %a : tile<f32>\n"),
        "Change to 'mulf'",
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = mulf %a, %a : tile<f32>\n"),
    )


def test_undeclared_value_becomes_the_closest_defined_name():
    check_fix(
        module(
            "    %sum = constant <f32: 1.0> : tile<f32>\n"
            "    %b = addf %sum, %smu$0 : tile<f32>\n"
            "    %c = mulf %smu, %b : tile<f32>\n"
        ),
        "Change to '%sum'",
        module(
            "    %sum = constant <f32: 1.0> : tile<f32>\n"
            "    %b = addf %sum, %sum : tile<f32>\n"
            "    %c = mulf %sum, %b : tile<f32>\n"
        ),
    )


def test_undeclared_value_of_the_wrong_type_is_not_offered():
    text = module(
        "    %idx = constant <i32: 1> : tile<i32>\n"
        "    %a = constant <f32: 1.0> : tile<f32>\n"
        "    %b = addf %a, %id$0 : tile<f32>\n"
    )
    check(text, [], fixes_at)


def test_values_of_other_entries_are_not_candidates():
    text = (
        "entry @one() {\n  %value = constant <f32: 1.0> : tile<f32>\n  return\n}\n"
        "entry @two() {\n  %a = constant <f32: 1.0> : tile<f32>\n  %b = addf %a, %valeu$0 : tile<f32>\n  return\n}\n"
    )
    check(text, [], fixes_at)


def test_enum_keyword_in_braces_list():
    check_fix(
        module(
            "    %a = constant <i32: 1> : tile<i32>\n    %b = cmpi less_th$0n %a, %a, signed : tile<i32> -> tile<i1>\n"
        ),
        "Change to 'less_than'",
        module(
            "    %a = constant <i32: 1> : tile<i32>\n    %b = cmpi less_than %a, %a, signed : tile<i32> -> tile<i1>\n"
        ),
        others=("Change to 'less_than_or_equal'",),
    )


def test_enum_keyword_named_by_got():
    """The rounding message names the bad word (`got: '...'`) but points past it."""
    text = module(
        "    %a = constant <f32: 1.0> : tile<f32>\n    %b = addf %a, %a rounding<nearest_evn> $0: tile<f32>\n"
    )
    check_fix(
        text,
        "Change to 'nearest_even'",
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = addf %a, %a rounding<nearest_even> : tile<f32>\n"),
    )


def test_enum_keyword_in_brackets_list():
    check_fix(
        module(
            "    %t = make_token : token\n"
            "    %v, %t2 = load_ptr_tko wea$0kk %p token = %t : tile<ptr<f32>> -> tile<f32>, token\n"
        ),
        "Change to 'weak'",
        module(
            "    %t = make_token : token\n"
            "    %v, %t2 = load_ptr_tko weak %p token = %t : tile<ptr<f32>> -> tile<f32>, token\n"
        ),
    )


def test_assume_predicate():
    check_fix(
        module("    %a = assume div_b$0i<16>, %p : tile<ptr<f32>>\n"),
        "Change to 'div_by'",
        module("    %a = assume div_by<16>, %p : tile<ptr<f32>>\n"),
    )


def test_enum_without_close_match_has_no_fix():
    text = module(
        "    %a = constant <i32: 1> : tile<i32>\n    %b = cmpi bo$0gus %a, %a, signed : tile<i32> -> tile<i1>\n"
    )
    check(text, [], fixes_at)


# -- types -----------------------------------------------------------------------------------------


def test_written_type_follows_the_value():
    check_fix(
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = addf %a$0, %a : tile<f16>\n"),
        "Change type to 'tile<f32>'",
        module("    %a = constant <f32: 1.0> : tile<f32>\n    %b = addf %a, %a : tile<f32>\n"),
    )


def test_written_long_type_keeps_its_spelling():
    check_fix(
        module("    %a = constant <f32: 1.0> : tile<4xf32>\n    %b = negf %a$0 : !cuda_tile.tile<f32>\n"),
        "Change type to 'tile<4xf32>'",
        module("    %a = constant <f32: 1.0> : tile<4xf32>\n    %b = negf %a : !cuda_tile.tile<4xf32>\n"),
    )


def test_type_fix_that_breaks_the_other_operand_is_not_offered():
    text = "testing$func @f(%x: tile<f32>, %y: tile<f16>) {\n  %b = addf %x, %y$0 : tile<f32>\n  return\n}\n"
    check(text, [], fixes_at)


def test_type_fix_that_breaks_later_uses_is_not_offered():
    text = (
        "testing$func @f(%x: tile<f32>, %h: tile<f16>) {\n"
        "  %b = negf %x$0 : tile<f16>\n"
        "  %c = addf %b, %h : tile<f16>\n"
        "  return\n}\n"
    )
    check(text, [], fixes_at)


def test_function_result_type_follows_the_returned_value():
    check_fix(
        "testing$func @f(%a: tile<f32>) -> tile<f16> {\n  re$0turn %a : tile<f32>\n}\n",
        "Change function result type to 'tile<f32>'",
        "testing$func @f(%a: tile<f32>) -> tile<f32> {\n  return %a : tile<f32>\n}\n",
    )


# -- terminators -------------------------------------------------------------------------------------

LOOP_BODY = "    %c0 = constant <i32: 0> : tile<i32>\n    %f = constant <f32: 0.0> : tile<f32>\n"


def test_for_gets_a_continue_with_the_last_value_of_each_type():
    check_fix(
        module(
            LOOP_BODY
            + "    %r = f$0or %i in (%c0 to %c0, step %c0) : tile<i32> iter_values(%x = %f) -> (tile<f32>) {\n"
            "      %y = addf %x, %x : tile<f32>\n"
            "    }\n"
        ),
        "Insert 'continue %y : tile<f32>'",
        module(
            LOOP_BODY + "    %r = for %i in (%c0 to %c0, step %c0) : tile<i32> iter_values(%x = %f) -> (tile<f32>) {\n"
            "      %y = addf %x, %x : tile<f32>\n"
            "      continue %y : tile<f32>\n"
            "    }\n"
        ),
    )


def test_loop_without_body_values_continues_with_its_iter_values():
    check_fix(
        module(LOOP_BODY + "    %r = lo$0op iter_values(%x = %f) : tile<f32> -> tile<f32> {\n    }\n"),
        "Insert 'continue %x : tile<f32>'",
        module(
            LOOP_BODY + "    %r = loop iter_values(%x = %f) : tile<f32> -> tile<f32> {\n"
            "      continue %x : tile<f32>\n"
            "    }\n"
        ),
    )


def test_empty_continue_is_completed():
    check_fix(
        module(
            LOOP_BODY + "    %r = loop iter_values(%x = %f) : tile<f32> -> tile<f32> {\n"
            "      %y = negf %x : tile<f32>\n"
            "      conti$0nue\n"
            "    }\n"
        ),
        "Change to 'continue %y : tile<f32>'",
        module(
            LOOP_BODY + "    %r = loop iter_values(%x = %f) : tile<f32> -> tile<f32> {\n"
            "      %y = negf %x : tile<f32>\n"
            "      continue %y : tile<f32>\n"
            "    }\n"
        ),
    )


def test_if_branch_gets_a_yield_in_the_prefixed_style():
    check_fix(
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n"
        "%v = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n"
        "%r = cuda_$0tile.if %c -> (!cuda_tile.tile<i32>) {\n"
        "  cuda_tile.yield %v : !cuda_tile.tile<i32>\n"
        "} else {\n"
        "}\n",
        "Insert 'cuda_tile.yield %v : !cuda_tile.tile<i32>'",
        "%c = cuda_tile.constant <i1: true> : !cuda_tile.tile<i1>\n"
        "%v = cuda_tile.constant <i32: 1> : !cuda_tile.tile<i32>\n"
        "%r = cuda_tile.if %c -> (!cuda_tile.tile<i32>) {\n"
        "  cuda_tile.yield %v : !cuda_tile.tile<i32>\n"
        "} else {\n"
        "  cuda_tile.yield %v : !cuda_tile.tile<i32>\n"
        "}\n",
    )


def test_if_without_else_gets_one():
    check_fix(
        module(
            "    %c = constant <i1: true> : tile<i1>\n"
            "    %v = constant <i32: 1> : tile<i32>\n"
            "    %r = i$0f %c -> (tile<i32>) {\n"
            "      yield %v : tile<i32>\n"
            "    }\n"
        ),
        "Add 'else { yield %v : tile<i32> }'",
        module(
            "    %c = constant <i1: true> : tile<i1>\n"
            "    %v = constant <i32: 1> : tile<i32>\n"
            "    %r = if %c -> (tile<i32>) {\n"
            "      yield %v : tile<i32>\n"
            "    } else {\n"
            "      yield %v : tile<i32>\n"
            "    }\n"
        ),
    )


def test_no_terminator_fix_without_a_value_of_the_type():
    text = module(
        "    %c0 = constant <i32: 0> : tile<i32>\n"
        "    %c = constant <i1: true> : tile<i1>\n"
        "    %r = i$0f %c -> (tile<f64>) {\n"
        "    } else {\n"
        "    }\n"
    )
    check(text, [], fixes_at)


# -- the module wrapper ------------------------------------------------------------------------------


def wrap_result(doc: DocumentAnalysis, offset: int) -> str | None:
    fixes = [f for f in quick_fixes(doc, Span(offset, offset)) if f.kind == REWRITE]
    assert all(f.title == WRAP_TITLE for f in fixes)
    return apply_edits(doc.source.text, fixes[0].edits) if fixes else None


def test_wrap_bare_entries_in_a_module():
    text = (
        "// two kernels\n"
        "global @g <f32: [1.0]> : tile<1xf32>\n"
        "entry @k() {\n"
        "  %$0a = get_global @g : tile<ptr<f32>>\n"
        "  return\n"
        "}\n"
        "\n"
        "entry @j() {\n"
        "  return\n"
        "}\n"
    )
    wrapped = (
        "// two kernels\n"
        "cuda_tile.module @module {\n"
        "  global @g <f32: [1.0]> : tile<1xf32>\n"
        "  entry @k() {\n"
        "    %a = get_global @g : tile<ptr<f32>>\n"
        "    return\n"
        "  }\n"
        "\n"
        "  entry @j() {\n"
        "    return\n"
        "  }\n"
        "}\n"
    )
    check(text, wrapped, wrap_result)
    assert analyze(wrapped).diagnostics == []


def test_wrap_is_offered_next_to_other_fixes_and_keeps_their_errors():
    text = "entry @k() {\n  %a = constant <f32: 1.0> : tile<f32>\n  %b = add$0ff %a, %a : tile<f32>\n  return\n}\n"
    text_, offset = split_cursor(text)
    titles = [(f.kind, f.title) for f in quick_fixes(analyze(text_), Span(offset, offset))]
    assert titles == [(QUICKFIX, "Change to 'addf'"), (REWRITE, WRAP_TITLE)]
    wrapped = wrap_result(analyze(text_), offset)
    assert wrapped is not None
    assert [d.message for d in analyze(wrapped).diagnostics] == [d.message for d in analyze(text_).diagnostics]


def test_wrap_keeps_crlf_line_ends():
    text = "entry @k() {\r\n  re$0turn\r\n}\r\n"
    check(text, "cuda_tile.module @module {\r\n  entry @k() {\r\n    return\r\n  }\r\n}\r\n", wrap_result)


def test_no_wrap_inside_a_module():
    check(module("    %a$0 = constant <f32: 1.0> : tile<f32>\n"), None, wrap_result)


def test_wrap_real_kernel_with_debug_info():
    """tileirdisasm -g output: bare entries, `#loc` aliases after them (the file parses whole)."""
    text = (DATA / "vector_add.g.mlir").read_text()
    doc = analyze(text)
    entry = text.index("entry @")
    wrapped = wrap_result(doc, entry)
    assert wrapped is not None and wrapped.count(WRAP_TITLE.split()[-1] + " @module {") == 1
    assert analyze(wrapped).diagnostics == doc.diagnostics == []


def test_nothing_away_from_diagnostics_and_bare_items():
    check(module("    %a$0 = constant <f32: 1.0> : tile<f32>\n"), [], fixes_at)
