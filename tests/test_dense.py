"""Dense constant literals: element rounding, MLIR's float spelling, and literal errors."""

from __future__ import annotations

import math

import pytest

from tile_lsp.compiler.dialects.cuda_tile import floats
from tile_lsp.compiler.frontend import parse_chunk
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.syntax.printer import Printer


def _const(literal: str, type_: str) -> str:
    text = f"cuda_tile.module @m {{\n  entry @k() {{\n    %c = constant {literal} : {type_}\n    return\n  }}\n}}\n"
    result = parse_chunk(SourceText(text))
    assert result.ok, [d.message for d in result.diagnostics]
    line = next(x for x in Printer().module_text(result.module).splitlines() if "constant" in x)  # type: ignore[arg-type]
    return line.split("constant ", 1)[1]


@pytest.mark.parametrize(
    ("literal", "type_", "printed"),
    [
        ("<i16: 0xFFFF>", "tile<i16>", "<i16: -1> : tile<i16>"),
        ("<i32: [1, 1]>", "tile<2xi32>", "<i32: 1> : tile<2xi32>"),
        ("<f32: [0.0, -0.0]>", "tile<2xf32>", "<f32: [0.000000e+00, -0.000000e+00]> : tile<2xf32>"),
        ("<f16: 70000.0>", "tile<f16>", "<f16: 0x7C00> : tile<f16>"),
        ("<f32: 0.1>", "tile<f32>", "<f32: 1.000000e-01> : tile<f32>"),
        ("<f32: 0.333333333>", "tile<f32>", "<f32: 0.333333343> : tile<f32>"),
        ("<f4E2M1FN: [0x2, 0x4]>", "tile<2xf4E2M1FN>", "<f4E2M1FN: [1.000000e+00, 2.000000e+00]> : tile<2xf4E2M1FN>"),
        ("<f8E4M3FN: 1000.0>", "tile<f8E4M3FN>", "<f8E4M3FN: 0x7F> : tile<f8E4M3FN>"),
        ("<i1: [true, false]>", "tile<2xi1>", "<i1: [true, false]> : tile<2xi1>"),
    ],
)
def test_dense_literal_prints_like_mlir(literal: str, type_: str, printed: str) -> None:
    assert _const(literal, type_) == printed


@pytest.mark.parametrize(
    ("literal", "type_", "message"),
    [
        ("<i8: 256>", "tile<i8>", "integer constant out of range for type"),
        ("<i8: true>", "tile<i8>", "expected integer value"),
        ("<f32: 2>", "tile<f32>", "unexpected decimal integer literal for a floating point value"),
        ("<f16: 0x12345678>", "tile<f16>", "hexadecimal float constant out of range for type"),
        (
            "<i32: [[1, 2], [3]]>",
            "tile<2x2xi32>",
            "tensor literal is invalid; ranks are not consistent between elements",
        ),
        ("<i32: [1, 2, 3]>", "tile<4xi32>", "inferred shape of elements literal ([3]) does not match type ([4])"),
        ("<f16: 1.0>", "tile<f32>", "mismatch between the element type: 'f16' and the tile element type 'f32'"),
        ("<f4E2M1FN: 1.0>", "tile<f4E2M1FN>", "F4E2M1FN tiles must have an even number of elements"),
        ("<f32: 1.0>", "tile<4096x8192xf32>", "tile would exceed the maximum of 16777216 elements"),
    ],
)
def test_dense_literal_errors(literal: str, type_: str, message: str) -> None:
    text = f"cuda_tile.module @m {{\n  entry @k() {{\n    %c = constant {literal} : {type_}\n    return\n  }}\n}}\n"
    errors = [d for d in parse_chunk(SourceText(text)).diagnostics if d.is_error]
    assert any(message in d.message for d in errors), [d.message for d in errors]


def test_decimal_integer_float_error_has_a_note() -> None:
    text = "cuda_tile.module @m {\n  entry @k() {\n    %c = constant <f32: 2> : tile<f32>\n    return\n  }\n}\n"
    (err,) = [d for d in parse_chunk(SourceText(text)).diagnostics if d.is_error]
    assert [n.message for n in err.related] == ["add a trailing dot to make the literal a float"]


@pytest.mark.parametrize("fmt", [floats.F16, floats.BF16, floats.F8E4M3FN, floats.F8E5M2, floats.F4E2M1FN])
def test_every_bit_pattern_round_trips(fmt: floats.FloatFormat) -> None:
    for bits in range(1 << fmt.width):
        value = fmt.decode(bits)
        if not math.isnan(value):
            assert fmt.encode(value) == bits or (value == 0 and fmt.encode(value) in (0, fmt.sign_bit))
