"""Hover at a cursor (`|`): an op's documentation, types and attributes; a value's type and
definer; a type's shape, element type and bytes; a symbol's signature.
"""

from __future__ import annotations

import pathlib

import pytest
from util import check, split_cursor

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.document import DocumentAnalysis, analyze
from tile_lsp.features import hover

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"

KERNEL = """cuda_tile.module @m {
  global @lut <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>, %a: tile<f32>) {
    %t0 = make_token : token
    %v = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %v : partition_view<tile=(16), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %x = constant <f16: [[1.0, 2.0], [3.0, 4.0]]> : tile<2x2xf16>
    %s = reduce %x dim=1 identities=[0.0 : f16] : tile<2x2xf16> -> tile<2xf16>
    (%l: tile<f16>, %r: tile<f16>) {
      %m = addf %l, %r : tile<f16>
      yield %m : tile<f16>
    }
    %c = cmpi less_than %n, %n, signed : tile<i32> -> tile<i1>
    %g = get_global @lut : tile<ptr<f32>>
    return
  }
}
"""


def cursor(needle: str, delta: int = 1, nth: int = 0) -> str:
    at = -1
    for _ in range(nth + 1):
        at = KERNEL.index(needle, at + 1)
    return KERNEL[: at + delta] + "|" + KERNEL[at + delta :]


def text(doc: DocumentAnalysis, offset: int) -> str | None:
    found = hover.hover(doc, offset)
    return found[0] if found else None


def hovered(doc: DocumentAnalysis, offset: int) -> str | None:
    """The source text the hover describes."""
    found = hover.hover(doc, offset)
    return doc.source.text[found[1].start : found[1].end] if found else None


def hover_at(needle: str, delta: int = 1, nth: int = 0) -> str:
    source, offset = split_cursor(cursor(needle, delta, nth))
    found = hover.hover(analyze(source), offset)
    assert found is not None, needle
    return found[0]


def test_the_kernel_is_valid():
    assert analyze(KERNEL).diagnostics == []


def test_op_hover_has_docs_types_and_attribute_meanings():
    got = hover_at("cmpi")
    assert got.startswith("**cuda_tile.cmpi**\n\n" + registry.op_class("cuda_tile.cmpi").__doc__.split("\n")[0])  # type: ignore[union-attr]
    assert "Operands: `tile<i32>`, `tile<i32>`" in got and "Results: `tile<i1>`" in got
    assert "- `signedness = #cuda_tile.signedness<signed>`: whether the integer operands are read as signed" in got
    assert "- `comparison_predicate = #cuda_tile.comparison_predicate<less_than>`: the relation tested" in got


def test_op_hover_on_a_region_op_and_one_without_operands():
    reduce_ = hover_at("reduce")
    assert "Operands: `tile<2x2xf16>`" in reduce_ and "Results: `tile<2xf16>`" in reduce_
    assert "- `dim = 1 : i32`: the dimension the op works along." in reduce_
    token = hover_at("make_token")
    assert "Operands" not in token and "Results: `token`" in token


@pytest.mark.parametrize(
    ("needle", "nth", "expected"),
    [
        ("%s =", 0, "`%s`: `tile<2xf16>`\n\nDefined by `reduce`\n\ntile: shape 2, 2 elements of `f16`, 4 bytes"),
        (
            "%l,",
            0,
            "`%l`: `tile<f16>`\n\nBlock argument of `reduce`\n\ntile: shape scalar (rank 0), 1 element of `f16`, 2 bytes",
        ),
        (
            "%n,",
            0,
            "`%n`: `tile<i32>`\n\nBlock argument of `entry`\n\ntile: shape scalar (rank 0), 1 element of `i32`, 4 bytes",
        ),
        ("%t0 =", 0, "`%t0`: `token`\n\nDefined by `make_token`\n\ntoken: orders memory operations; carries no data"),
    ],
)
def test_value_hover(needle: str, nth: int, expected: str):
    check(cursor(needle, 1, nth), expected, text)


@pytest.mark.parametrize(
    ("needle", "expected"),
    [
        ("tile<2x2xf16> ->", "tile: shape 2x2, 4 elements of `f16`, 8 bytes"),
        ("tile<ptr<f32>>,", "tile: shape scalar (rank 0), 1 element of `ptr<f32>`, 8 bytes"),
        ("tensor_view<?xf32, strides=[1]>\n", "tensor view over global memory: shape ?, strides [1], elements `f32`"),
        ("partition_view<", "partition view: the tensor view cut into 16 tiles, out-of-bounds reads give zero"),
        ("tile<2xf32>", "tile: shape 2, 2 elements of `f32`, 8 bytes"),
    ],
)
def test_type_hover_gives_shape_element_type_and_bytes(needle: str, expected: str):
    got = hover_at(needle)
    assert got.endswith("\n\n" + expected), got


def test_type_hover_covers_the_outermost_type():
    check(cursor("ptr<f32>>,", 2), "tile<ptr<f32>>", hovered)  # inside the inner ptr<...>
    check(cursor("f16> ->", 0), "tile<2x2xf16>", hovered)


def test_symbol_hover_shows_the_signature():
    got = hover_at("@lut :")
    assert got.startswith("```mlir\nglobal @lut <f32: [1.0, 2.0]> : tile<2xf32>\n```")
    got = hover_at("@k(")
    assert got.startswith("```mlir\nentry @k(%p: tile<ptr<f32>>, %n: tile<i32>, %a: tile<f32>)\n```")


def test_hover_names_what_it_describes():
    check(cursor("%l,"), "%l", hovered)
    check(cursor("addf"), "addf", hovered)
    check(cursor("@lut :"), "@lut", hovered)


def test_no_hover_on_blank_space_or_punctuation():
    check(cursor("    return", 2), None, text)
    check(cursor(" {\n      %m", 0), None, text)


def test_hover_on_every_op_of_a_real_kernel():
    """Each op of gemm.mlir gets a hover with its name and its result types."""
    source = (DATA / "gemm.mlir").read_text()
    doc = analyze(source)
    seen = 0
    for item in doc.items:
        for op, info in item.result.smap.ops.items():
            if info.name_span.end <= info.name_span.start:
                continue  # implicit terminators have no name in the text
            got = text(doc, item.start + info.name_span.start + 1)
            assert got is not None and got.startswith(f"**{op.name}**"), op.name
            seen += 1
    assert seen > 100


def test_hover_on_a_result_group_use_names_the_result():
    src = "entry @k(%a: tile<i32>) {\n  %q:3 = get_tile_block_id : tile<i32>\n  %s = addi %q#1, %a : tile<i32>\n  return\n}\n"
    doc = analyze(src)
    found = hover.hover(doc, src.index("%q#1") + 2)
    assert found is not None and found[0].startswith("`%q#1`: `tile<i32>`")
