"""Semantic tokens: what each token is, at positions in a real kernel, and the LSP contract
(document order, no overlaps, one line each), also for broken and edited documents.
"""

from __future__ import annotations

import pathlib

import pytest
from util import check as check_feature

from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, analyze
from tile_lsp.features import semantic_tokens as st
from tile_lsp.features.semantic_tokens import TOKEN_TYPES, Token, semantic_tokens
from tile_lsp.protocol import encode_semantic_tokens

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"
GEMM = (DATA / "cutile" / "gemm.mlir").read_text()


def token_at(doc: DocumentAnalysis, offset: int) -> tuple[str, str, tuple[str, ...]] | None:
    """(spelling, type, modifiers) of the token covering `offset`."""
    for tok in semantic_tokens(doc):
        if tok.start <= offset < tok.start + tok.length:
            return doc.source.text[tok.start : tok.start + tok.length], tok.type, tok.modifiers
    return None


def check(source_with_cursor: str, expected: tuple[str, str, tuple[str, ...]] | None) -> None:
    check_feature(source_with_cursor, expected, token_at)


def assert_well_formed(text: str, tokens: list[Token]) -> None:
    end = 0
    for tok in tokens:
        assert tok.start >= end, f"{tok} overlaps or is out of order"
        assert tok.length > 0 and "\n" not in text[tok.start : tok.start + tok.length]
        assert tok.type in TOKEN_TYPES
        end = tok.start + tok.length


# -- a real kernel ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gemm() -> tuple[DocumentAnalysis, dict[tuple[int, int], tuple[str, str, tuple[str, ...]]]]:
    doc = analyze(GEMM)
    by_position = {}
    for tok in semantic_tokens(doc):
        line, col = doc.source.line_col(tok.start)
        by_position[(line, col)] = (GEMM[tok.start : tok.start + tok.length], tok.type, tok.modifiers)
    return doc, by_position


@pytest.mark.parametrize(
    ("line", "before", "spelling", "type_", "modifiers"),
    [
        (0, "", "entry", "function", ()),
        (
            0,
            "",
            "@gemm_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I64_I8",
            "function",
            ("definition",),
        ),
        (0, "", "%arg0", "parameter", ("definition",)),
        (0, "", "tile<ptr<f16>>", "type", ()),
        (0, "", "optimization_hints", "property", ()),
        (1, "", "%0", "variable", ("definition",)),
        (1, "= ", "make_token", "function", ()),
        (1, ": ", "token", "type", ()),
        (2, "", "div_by", "keyword", ()),
        (2, "", "16", "number", ()),
        (2, "", "%arg0", "parameter", ()),
        (24, "", "partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>", "type", ()),
        (27, "", "divi", "function", ()),
        (27, "", "signed", "keyword", ()),
        (27, "", "rounding", "keyword", ()),
        (27, "", "negative_inf", "keyword", ()),
        (33, "", "less_than", "keyword", ()),
        (67, "", "%for", "variable", ("definition",)),
        (67, "= ", "for", "function", ()),
        (67, "", "%loopIdx", "parameter", ("definition",)),
        (67, "", "in", "keyword", ()),
        (67, "", "%34#1", "variable", ()),
        (67, "", "iter_values", "keyword", ()),
        (67, "", "%iterArg0", "parameter", ("definition",)),
        (68, "", "%loopIdx", "parameter", ()),
        (68, "] ", "token", "property", ()),
        (68, "= ", "%0", "variable", ()),
        (71, "", "continue", "function", ()),
    ],
)
def test_gemm_tokens_at_positions(gemm, line, before, spelling, type_, modifiers):
    """`spelling`, first found on the line after `before`, is one token of that type."""
    _, by_position = gemm
    col = GEMM.splitlines()[line].index(before + spelling) + len(before)
    assert by_position.get((line, col)) == (spelling, type_, modifiers)


def test_gemm_tokens_are_ordered_single_line_and_disjoint(gemm):
    doc, _ = gemm
    tokens = semantic_tokens(doc)
    assert_well_formed(GEMM, tokens)
    assert len(tokens) > 2000
    # Every op name, value and symbol the parse saw is a token.
    kinds = {t.type for t in tokens}
    assert {"function", "type", "variable", "parameter", "keyword", "number", "property"} <= kinds


def test_every_real_kernel_is_well_formed():
    for path in sorted((DATA / "cutile").glob("*.mlir")):
        text = path.read_text()
        assert_well_formed(text, semantic_tokens(analyze(text)))


def test_lsp_encoding_round_trips_positions(gemm):
    doc, _ = gemm
    tokens = semantic_tokens(doc)
    data = encode_semantic_tokens(doc.source, tokens)
    assert len(data) == 5 * len(tokens)
    line = col = 0
    for i, tok in enumerate(tokens):
        d_line, d_col, length, kind, _ = data[5 * i : 5 * i + 5]
        line, col = line + d_line, (col + d_col if d_line == 0 else d_col)
        assert (line, col) == doc.source.line_col(tok.start)
        assert length == tok.length and TOKEN_TYPES[kind] == tok.type


# -- single tokens, by cursor --------------------------------------------------------------

MODULE = """// globals and their uses
cuda_tile.module @m {
  global @lut <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k(%a: tile<f32>) {
    %p = get_global @lut : tile<ptr<f32>>
    %t = make_token : token
    %s = print_tko "a // b %f", %a token=%t : tile<f32> -> token
    return
  }
}
"""


def test_module_symbol_is_a_namespace():
    check(MODULE.replace("@m {", "@$0m {"), ("@m", "namespace", ("definition",)))


def test_global_definition_and_use():
    check(MODULE.replace("  global @lut", "  global @$0lut"), ("@lut", "variable", ("definition",)))
    check(MODULE.replace("get_global @lut", "get_global @l$0ut"), ("@lut", "variable", ()))


def test_comments_and_strings():
    check(MODULE.replace("// globals", "// glo$0bals"), ("// globals and their uses", "comment", ()))
    check(MODULE.replace('"a // b', '"a /$0/ b'), ('"a // b %f"', "string", ()))


def test_floats_in_a_dense_literal():
    check(MODULE.replace("[1.0,", "[1$0.0,"), ("1.0", "number", ()))
    check(MODULE.replace("<f32: [1.0", "<f3$02: [1.0"), ("f32", "type", ()))


def test_text_after_a_parse_error_is_still_coloured():
    broken = MODULE.replace(
        "    %t = make_token : token\n", "    %t = make_token : \n    %late = addf %a, %a : tile<f32>\n"
    )
    check(broken.replace("%late = addf", "%late = ad$0df"), ("addf", "function", ()))
    check(broken.replace("%late = addf", "%la$0te = addf"), ("%late", "variable", ()))
    text = broken
    assert_well_formed(text, semantic_tokens(analyze(text)))


# -- caching across edits -----------------------------------------------------------------


def test_an_edit_gives_the_same_tokens_as_a_fresh_computation():
    text = "\n".join((DATA / "cutile" / name).read_text() for name in ("gemm.mlir", "argmax.mlir", "vector_add.mlir"))
    cache = ItemCache()
    before = semantic_tokens(analyze(text, cache=cache))
    edited = text.replace("%cst_8_i32 = constant <i32: 8>", "%cst_8_i32_renamed = constant <i32: 8>", 1)
    edited = edited.replace("%3 = muli %cst_8_i32,", "%3 = muli %cst_8_i32_renamed,", 1)
    doc = analyze(edited, cache=cache)
    assert doc.reparsed == 1
    incremental = semantic_tokens(doc)
    st._cache.clear()
    assert incremental == semantic_tokens(analyze(edited))
    assert len(incremental) == len(before)
    assert_well_formed(edited, incremental)


def test_lsp_encoding_counts_utf16_units_after_non_ascii_text():
    text = MODULE.replace('"a // b %f"', '"\U0001f600 é %f"')
    doc = analyze(text)
    tokens = semantic_tokens(doc)
    data = encode_semantic_tokens(doc.source, tokens)
    line = col = 0
    for i, tok in enumerate(tokens):
        d_line, d_col, length, _, _ = data[5 * i : 5 * i + 5]
        line, col = line + d_line, (col + d_col if d_line == 0 else d_col)
        line_text = text.splitlines()[line]
        char_col = doc.source.line_col(tok.start)[1]
        spelling = text[tok.start : tok.start + tok.length]
        assert col == len(line_text[:char_col].encode("utf-16-le")) // 2
        assert length == len(spelling.encode("utf-16-le")) // 2
    (string,) = [t for t in tokens if t.type == "string"]
    assert string.length == 8 and data[5 * tokens.index(string) + 2] == 9  # the emoji is two units
