"""Definition, references, highlight and rename at a cursor (`|`): values, block arguments,
result groups, forward references and module symbols, on small sources and real kernels.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest
from util import check, split_cursor

from tile_lsp.compiler.document import DocumentAnalysis, analyze
from tile_lsp.compiler.source import Span
from tile_lsp.features import navigation

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"

KERNEL = """cuda_tile.module @m {
  global @lut <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k(%a: tile<f32>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %p = get_global @lut : tile<ptr<f32>>
    %b = constant <i1: true> : tile<i1>
    %r = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %a) -> (tile<f32>) {
      %t = addf %later, %acc : tile<f32>
      %later = mulf %acc, %acc : tile<f32>
      continue %t : tile<f32>
    }
    %q:2 = if %b -> (tile<f32>, tile<f32>) {
      yield %a, %r : tile<f32>, tile<f32>
    } else {
      yield %r, %a : tile<f32>, tile<f32>
    }
    %s = addf %q#0, %q#1 : tile<f32>
    return
  }
}
"""


def where(doc: DocumentAnalysis, spans: list[Span]) -> list[str]:
    """`line:col text` of each span (0-based), the readable form of a location."""
    out = []
    for span in spans:
        line, col = doc.source.line_col(span.start)
        out.append(f"{line}:{col} {doc.source.text[span.start : span.end]}")
    return out


def definition(doc: DocumentAnalysis, offset: int) -> list[str]:
    return where(doc, navigation.definition(doc, offset))


def references(include_declaration: bool) -> Callable[[DocumentAnalysis, int], list[str]]:
    return lambda doc, offset: where(doc, navigation.references(doc, offset, include_declaration))


def highlights(doc: DocumentAnalysis, offset: int) -> list[tuple[str, bool]]:
    occ = navigation.occurrences(doc, offset)
    return list(zip(where(doc, [o.span for o in occ]), [o.is_def for o in occ]))


def cursor(text: str, needle: str, nth: int = 0, delta: int = 1) -> str:
    """`text` with the cursor inside the nth `needle`."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    return text[:at] + "|" + text[at:]


@pytest.mark.parametrize(
    ("needle", "nth", "expected"),
    [
        ("%acc,", 0, "7:65 %acc"),  # for iter_values block argument
        ("%i in", 0, "7:13 %i"),  # the definition itself
        ("%a) ->", 0, "2:11 %a"),  # entry argument, used in the for header
        ("%later,", 0, "9:6 %later"),  # forward reference inside the region
        ("%q#1", 0, "12:4 %q"),  # one result of a result group
        ("%r :", 0, "7:4 %r"),  # a region op's result, used in a later region
        ("@lut :", 0, "1:9 @lut"),  # get_global -> the global
        ("@k(", 0, "2:8 @k"),  # a symbol's own name
    ],
)
def test_definition(needle: str, nth: int, expected: str):
    check(cursor(KERNEL, needle, nth), [expected], definition)


def test_definition_with_the_cursor_just_after_the_name():
    check(cursor(KERNEL, "%acc,", delta=4), ["7:65 %acc"], definition)


def test_no_definition_on_op_names_types_or_blank():
    for needle in ("addf", "tile<f32>", "  return"):
        check(cursor(KERNEL, needle, delta=2), [], definition)


def test_references_with_and_without_the_declaration():
    uses = ["8:24 %acc", "9:20 %acc", "9:26 %acc"]
    check(cursor(KERNEL, "%acc ="), ["7:65 %acc", *uses], references(True))
    check(cursor(KERNEL, "%acc ="), uses, references(False))


def test_references_of_a_result_group_include_every_result():
    check(cursor(KERNEL, "%q:2"), ["17:14 %q#0", "17:20 %q#1"], references(False))
    check(cursor(KERNEL, "%q#0"), ["12:4 %q", "17:14 %q#0", "17:20 %q#1"], references(True))


def test_references_of_a_symbol_span_items():
    check(cursor(KERNEL, "@lut <"), ["1:9 @lut", "5:20 @lut"], references(True))
    check(cursor(KERNEL, "@lut :"), ["5:20 @lut"], references(False))


def test_highlight_marks_the_definition():
    check(cursor(KERNEL, "%r :"), [("7:4 %r", True), ("13:16 %r", False), ("15:12 %r", False)], highlights)


def test_value_names_are_scoped_to_their_entry():
    two = KERNEL.replace(
        "  entry @k(", "  entry @j(%a: tile<f32>) {\n    %u = addf %a, %a : tile<f32>\n    return\n  }\n  entry @k("
    )
    check(cursor(two, "%a, %a"), ["2:11 %a", "3:14 %a", "3:18 %a"], references(True))


def test_definition_in_real_kernels():
    argmax = (DATA / "argmax.mlir").read_text()
    check(cursor(argmax, "%reduce_lhs,"), ["26:3 %reduce_lhs"], definition)  # reduce block argument
    check(cursor(argmax, "%reduce_16#1"), ["34:2 %reduce_16"], definition)
    loops = (DATA / "control_flow.mlir").read_text()
    check(cursor(loops, "%loopIdx", 1), ["55:15 %loopIdx"], definition)
    check(cursor(loops, "%arg13", 1), ["28:26 %arg13"], definition)  # loop iter_values


def test_earlier_values_of_a_broken_entry_still_resolve():
    broken = KERNEL.replace("continue %t : tile<f32>", "continue %t ) tile<f32>")
    assert analyze(split_cursor(cursor(broken, "%acc,"))[0]).diagnostics
    check(cursor(broken, "%acc,"), ["7:65 %acc"], definition)
    check(cursor(broken, "@lut :"), ["1:9 @lut"], definition)


# --------------------------------------------------------------------------- rename
def prepare(doc: DocumentAnalysis, offset: int) -> str | None:
    found = navigation.prepare_rename(doc, offset)
    if found is None:
        return None
    (text,) = where(doc, [found[0]])
    assert text.endswith(found[1])
    return text


def renamed(new_name: str) -> Callable[[DocumentAnalysis, int], str]:
    """The document's text after the rename (or the error message)."""

    def apply(doc: DocumentAnalysis, offset: int) -> str:
        edits = navigation.rename(doc, offset, new_name)
        if isinstance(edits, str):
            return edits
        text = doc.source.text
        for span, new in sorted(edits, reverse=True):
            text = text[: span.start] + new + text[span.end :]
        return text

    return apply


def test_prepare_rename():
    check(cursor(KERNEL, "%q#1"), "17:20 %q", prepare)  # the name part of `%q#1`
    check(cursor(KERNEL, "@lut :"), "5:20 @lut", prepare)
    check(cursor(KERNEL, "addf"), None, prepare)


def test_rename_a_result_group_from_its_definition():
    text, offset = split_cursor(cursor(KERNEL, "%q:2"))
    out = renamed("%pair")(analyze(text), offset)
    assert "%pair:2 = if" in out and "addf %pair#0, %pair#1" in out and "%q" not in out
    assert _messages(out) == _messages(text)


def test_rename_a_block_argument_without_its_sigil():
    text, offset = split_cursor(cursor(KERNEL, "%acc,"))
    out = renamed("sum")(analyze(text), offset)
    assert "iter_values(%sum = %a)" in out and "mulf %sum, %sum" in out and "%acc" not in out
    assert _messages(out) == _messages(text)


def test_rename_a_global_renames_get_global():
    text, offset = split_cursor(cursor(KERNEL, "@lut :"))
    out = renamed("table")(analyze(text), offset)
    assert "global @table <" in out and "get_global @table :" in out and _messages(out) == _messages(text)


def _messages(text: str) -> list[str]:
    # KERNEL deliberately uses %later before its definition (a forward reference), which
    # is reported as a dominance error; a rename must not add or remove any diagnostic.
    return [d.message for d in analyze(text).diagnostics]


def test_kernel_forward_reference_is_a_dominance_error():
    assert _messages(KERNEL.replace("|", "")) == ["'cuda_tile.addf' op operand #0 does not dominate this use"]


@pytest.mark.parametrize(
    ("needle", "new", "message"),
    [
        ("%t =", "2x", "'%2x' is not a valid SSA value name"),
        ("%t =", "%a b", "'%a b' is not a valid SSA value name"),
        ("%t =", "%later", "'%later' is already defined in this scope"),
        ("@lut <", "k", "symbol '@k' already exists"),
        ("@lut <", "@9", "'@9' is not a valid symbol name"),
        ("addf", "x", "nothing to rename here"),
    ],
)
def test_rename_rejects(needle: str, new: str, message: str):
    check(cursor(KERNEL, needle), message, renamed(new))
