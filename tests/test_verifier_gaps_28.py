"""Verifier rules that kernels nobody here wrote exposed (issue 28), each in NVIDIA's words as
tileirdisasm/tileiras 13.5 give them: tensor_view sizes and strides, impure ops in a combiner
(reported at that op), a padding value without a mask, and --Werr-hints."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tile_lsp.compiler.bytecode.reader import decode
from tile_lsp.compiler.bytecode.writer import write_bytecode
from tile_lsp.compiler.frontend import parse_text


def _errors(text: str) -> list[tuple[int, str]]:
    [parsed] = parse_text(text, "t.mlir")
    return [(parsed.source.line_col(d.span.start)[0] + 1, d.message) for d in parsed.diagnostics if d.is_error]


def _view(shape: str, strides: str, dims: str) -> str:
    return (
        "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>) {\n"
        f"    %tv = make_tensor_view %p, shape = [{shape}], strides = [{strides}] : tensor_view<{dims}xf32, strides=[{strides}]>\n"
        "    return\n  }\n}\n"
    )


@pytest.mark.parametrize(
    ("shape", "strides", "dims", "message"),
    [
        ("0", "1", "0", "dimensions must have strictly positive constant sizes but got [0]"),
        ("16, 0", "16, 1", "16x0", "dimensions must have strictly positive constant sizes but got [16, 0]"),
        ("16", "0", "16", "dimensions must have strictly positive constant strides but got [0]"),
    ],
)
def test_tensor_view_sizes_and_strides_are_positive(shape: str, strides: str, dims: str, message: str) -> None:
    [(line, got)] = _errors(_view(shape, strides, dims))
    assert line == 3 and message in got


def test_bytecode_tensor_view_with_a_zero_size_is_refused_at_its_type() -> None:
    [parsed] = parse_text(_view("16", "1", "16"), "t.mlir")
    data, _ = write_bytecode(parsed.module)
    assert data is not None
    # The type table holds tensor_view<16xf32, strides=[1]>: a count, then each size (and stride) as an
    # 8-byte little-endian int.
    size = bytes([1]) + (16).to_bytes(8, "little") + bytes([1]) + (1).to_bytes(8, "little")
    at = data.index(size) + 1
    bad = data[:at] + (0).to_bytes(8, "little") + data[at + 8 :]
    dec = decode(bad)
    assert dec.module is None and "dimensions must have strictly positive constant sizes but got [0]" in dec.diagnostics[0].message


_COMBINER = """cuda_tile.module @m {{
  entry @k() {{
    %x = constant <f32: 1.0> : tile<8xf32>
    %r = {op} %x dim=0 {extra}identities=[0.000000e+0 : f32] : tile<8xf32> -> {result}
    (%a: tile<f32>, %b: tile<f32>) {{
      %t = make_token : token
      {impure}
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }}
    return
  }}
}}
"""


@pytest.mark.parametrize(
    ("op", "impure", "name"),
    [
        ("reduce", '%t2 = print_tko "%f", %a token=%t : tile<f32> -> token', "print_tko"),
        ("scan", "%q = alloca num_elem = 4, alignment = 16 : tile<ptr<f32>>", "alloca"),
        ("scan", "%w = gdc_wait_tko token = %t -> token", "gdc_wait_tko"),
        ("reduce", "%w = memory_fence_alias_tko %t", "memory_fence_alias_tko"),
    ],
)
def test_impure_op_in_a_combiner_is_reported_at_that_op(op: str, impure: str, name: str) -> None:
    scan = op == "scan"
    text = _COMBINER.format(
        op=op, impure=impure, extra="reverse=false " if scan else "", result="tile<8xf32>" if scan else "tile<f32>"
    )
    assert _errors(text) == [
        (7, f"'cuda_tile.{name}' op only memory-effect-free operations are allowed inside 'cuda_tile.{op}'")
    ]


def test_token_ops_are_allowed_in_a_combiner() -> None:
    text = _COMBINER.format(op="reduce", impure="%j = join_tokens %t, %t : token", extra="", result="tile<f32>")
    assert _errors(text) == []


def test_load_ptr_padding_without_mask_reads_as_tileirdisasm_prints_it() -> None:
    text = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %ps = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %ps : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %pad = constant <f32: 0.0> : tile<8xf32>
    %x, %t = load_ptr_tko weak %pb, %pad : tile<8xptr<f32>>, tile<8xf32> -> tile<8xf32>, token
    return
  }
}
"""
    [parsed] = parse_text(text, "t.mlir")
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    load = next(op for op in parsed.module.walk() if op.name == "cuda_tile.load_ptr_tko")
    assert load.mask is None and load.paddingValue is not None  # type: ignore[attr-defined]
    # and a mask is still a mask
    masked = text.replace("%pad = constant <f32: 0.0> : tile<8xf32>", "%pad = constant <i1: true> : tile<8xi1>").replace(
        "tile<8xptr<f32>>, tile<8xf32> ->", "tile<8xptr<f32>>, tile<8xi1> ->"
    )
    [again] = parse_text(masked, "t.mlir")
    assert again.ok
    load = next(op for op in again.module.walk() if op.name == "cuda_tile.load_ptr_tko")
    assert load.mask is not None and load.paddingValue is None  # type: ignore[attr-defined]


def test_check_werr_hints(tmp_path) -> None:
    f = tmp_path / "h.mlir"
    f.write_text("cuda_tile.module @m {\n  entry @k() optimization_hints=<sm_100={num_qqq=1}> {\n    return\n  }\n}\n")
    plain = subprocess.run([sys.executable, "-m", "tile_lsp", "check", str(f)], capture_output=True, text=True)
    assert plain.returncode == 0 and "warning: num_qqq is not known hint for current Operation" in plain.stdout
    strict = subprocess.run([sys.executable, "-m", "tile_lsp", "check", "--Werr-hints", str(f)], capture_output=True, text=True)
    assert strict.returncode == 1
    assert "h.mlir:2:3: error: 'cuda_tile.entry' op Optimization hints verification failed" in strict.stdout
