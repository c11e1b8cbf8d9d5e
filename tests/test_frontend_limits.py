"""Front-end faults are diagnostics at the right place with MLIR's wording, never "internal
error": integers of any length in every place one is read, nesting of any depth in every
recursive construct, unicode digits."""

from __future__ import annotations

import pytest

from tile_lsp.compiler.frontend import parse_chunk
from tile_lsp.compiler.source import SourceText
from tile_lsp.features import hover

KERNEL = "cuda_tile.module @m {\n  entry @k(%a: tile<f32>) {\n    BODY\n    return\n  }\n}\n"


def first_error(text: str) -> tuple[int, int, str]:
    src = SourceText(text)
    errs = [d for d in parse_chunk(src).diagnostics if d.is_error]
    assert errs, "an error expected"
    line, col = src.line_col(errs[0].span.start)
    return line + 1, col + 1, errs[0].message


def at(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of `needle` in `text`."""
    src = SourceText(text)
    line, col = src.line_col(text.index(needle))
    return line + 1, col + 1


@pytest.mark.parametrize("digits", [25, 5000])
@pytest.mark.parametrize(
    ("body", "needle", "message"),
    [
        ("%b = constant <i32: N> : tile<i32>", "N>", "custom op 'cuda_tile.constant' integer value too large"),
        ("%b = constant <i32: -N> : tile<i32>", "-N", "custom op 'cuda_tile.constant' integer value too large"),
        ("%b = constant <f32: 0xN> : tile<f32>", "0xN", "custom op 'cuda_tile.constant' hexadecimal float constant out of range for type"),
        ("%b = constant <i32: 1> : tile<Nxi32>", "Nxi32", "invalid dimension"),
        ("%b = constant <i32: 1> : tile<2xNxi32>", "Nxi32", "invalid dimension"),
        ("%b = constant <i32: 1> : tile<iN>", "iN", "integer bitwidth is limited to 16777215 bits"),
        ('%b = constant <i32: 1> : tile<i32> loc("f":N:1)', "N:1", "expected integer line number in FileLineColLoc"),
        ('%b = constant <i32: 1> : tile<i32> loc("f":1:N)', "N)", "expected integer column number in FileLineColLoc"),
        ("%b = addf %a#N, %a : tile<f32>", "%a#N", "custom op 'cuda_tile.addf' invalid SSA value result number: %a#N"),
        (
            "%b = make_tensor_view %a, shape = [N], strides = [1] : tensor_view<4xf32, strides=[1]>",
            "N]",
            "custom op 'cuda_tile.make_tensor_view' integer value too large",
        ),
        ("%b = constant <i32: 1> : tile<i32> {x = N : i32}", "N :", "custom op 'cuda_tile.constant' integer constant out of range for attribute"),
        ("%b = constant <i32: 1> : tile<i32> {x = N}", "N}", "custom op 'cuda_tile.constant' integer constant out of range for attribute"),
        ('"t.x"() {x = array<i32: N>} : () -> ()', "N>", "integer constant out of range for attribute"),
    ],
)
def test_a_huge_integer_is_a_diagnostic_at_the_literal(body: str, needle: str, message: str, digits: int) -> None:
    n = "9" * digits
    text = KERNEL.replace("BODY", body.replace("N", n))
    assert first_error(text) == (*at(text, needle.replace("N", n)), message.replace("N", n))


def test_integers_just_inside_their_range_still_parse() -> None:
    for body in (
        "%b = constant <i64: 9223372036854775807> : tile<i64>",
        "%b = constant <i32: 1> : tile<i32> {x = 4294967295 : i32, y = -2147483648 : i32}",
        '%b = constant <i32: 1> : tile<i32> loc("f":4294967295:1)',
        "%b = constant <i32: 000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001> : tile<i32>",
    ):
        text = KERNEL.replace("BODY", body)
        assert not [d for d in parse_chunk(SourceText(text)).diagnostics if d.is_error], body


def test_a_small_attribute_out_of_its_type_is_reported_not_truncated() -> None:
    text = KERNEL.replace("BODY", "%b = constant <i32: 1> : tile<i32> {x = 256 : i8}")
    assert first_error(text)[2].endswith("integer constant out of range for attribute")


def test_div_by_accepts_leading_zeros() -> None:
    text = KERNEL.replace("BODY", "%b = constant <i32: 1> : tile<i32>\n    %c = assume div_by<0016>, %b : tile<i32>")
    assert not [d for d in parse_chunk(SourceText(text)).diagnostics if d.is_error]


def test_unicode_digits_are_not_integers() -> None:
    # `²` is a digit to str.isdigit but not to int(); MLIR's digits are ASCII.
    text = KERNEL.replace("BODY", "%b = constant <i32: 1> : tile<i²>")
    line, col, message = first_error(text)
    assert "internal" not in message and line == 3


@pytest.mark.parametrize(
    ("nested", "what"),
    [
        ("%b = constant <i32: 1> : " + "tile<" * 40 + "i32" + ">" * 40, "types"),
        ('"t.x"() {x = ' + "[" * 40 + "]" * 40 + "} : () -> ()", "attributes"),
        ('%b = constant <i32: 1> : tile<i32> loc(' + "fused[" * 40 + '"a":1:1' + "]" * 40 + ")", "locations"),
        ("%b = constant <i32: " + "[" * 40 + "1" + "]" * 40 + "> : tile<i32>", "literal lists"),
        ('"t.x"() : ' + "(" * 40 + ") -> ()" * 40, "types"),
    ],
)
def test_deep_nesting_is_a_diagnostic_where_it_gets_too_deep(nested: str, what: str) -> None:
    text = KERNEL.replace("BODY", nested)
    line, col, message = first_error(text)
    assert message == f"{what} are nested more than 32 levels deep"
    assert line == 3 and col > 20  # at the construct, not at 1:1


def test_nesting_within_the_limit_parses() -> None:
    text = KERNEL.replace("BODY", '"t.x"() {x = ' + "[" * 30 + "]" * 30 + "} : () -> ()")
    assert not [d for d in parse_chunk(SourceText(text)).diagnostics if d.is_error]


def test_hover_on_a_deep_or_huge_type_answers_or_stays_silent() -> None:
    from tile_lsp.compiler.document import analyze

    for t in ("tile<" * 400 + "f32" + ">" * 400, "tile<" + "9" * 5000 + "xf32>"):
        text = KERNEL.replace("tile<f32>)", t + ")", 1).replace("BODY", "")
        doc = analyze(text)
        hover.hover(doc, text.index("tile<") + 6)  # must not raise


def test_hover_on_a_value_defined_nowhere() -> None:
    from tile_lsp.compiler.document import analyze

    text = KERNEL.replace("BODY", "%b = addf %zz, %a : tile<f32>")
    found = hover.hover(analyze(text), text.index("%zz") + 1)
    assert found is not None and "Not defined" in found[0]
