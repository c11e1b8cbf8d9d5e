"""Debug info and locations: `loc(...)` round-trips, and NVIDIA's FileCheck'd debug-info errors."""

from __future__ import annotations

import pathlib
import re

import pytest

from tile_lsp.compiler.frontend import parse_chunk, split_chunks
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.syntax.printer import Printer
from tile_lsp.testing.lit import roundtrip

# These files run `not cuda-tile-opt ... | FileCheck`, so the conformance script does not
# score them; here every CHECK line must appear in an error of its chunk.
FILECHECK_NEGATIVE = ("debuginfo_attr_invalid.mlir", "debuginfo_loc_invalid.mlir")
_CHECK = re.compile(r"// CHECK: (.*)")


@pytest.mark.parametrize("name", FILECHECK_NEGATIVE)
def test_filecheck_negative_debuginfo_errors(shared: pathlib.Path, name: str) -> None:
    text = (shared / "conformance" / "cuda_tile" / "Dialect" / "CudaTile" / name).read_text(encoding="utf-8")
    source = SourceText(text, name)
    missing: list[str] = []
    checked = 0
    for span in split_chunks(text):
        checks = [c.strip() for c in _CHECK.findall(text[span.start : span.end])]
        if not checks:
            continue
        errors = [d.message for d in parse_chunk(source, span).diagnostics if d.is_error]
        for check in checks:
            checked += 1
            if not any(check in e for e in errors):
                missing.append(f"line {source.line_col(span.start)[0] + 1}: {check}")
    assert checked > 0
    assert missing == []


def _opt(text: str) -> str:
    result = parse_chunk(SourceText(text))
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.module is not None
    ok, why = roundtrip(result)
    assert ok, why
    return Printer().module_text(result.module)


def test_builtin_locations_print_back_as_written() -> None:
    text = """cuda_tile.module @m {
  testing$func @f(%a: tile<f32> loc("a.py":1:2)) {
    return loc(callsite("inner"("x.py":3:4) at fused<"meta">["y.py":5:6 to 7:8, unknown]))
  } loc("f.py":10:4)
} loc(unknown)
"""
    out = _opt(text)
    assert 'testing$func @f(%a: tile<f32> loc("a.py":1:2))' in out
    assert 'return loc(callsite("inner"("x.py":3:4) at fused<"meta">["y.py":5:6 to 7:8, unknown]))' in out
    assert '} loc("f.py":10:4)' in out
    assert out.rstrip().endswith("} loc(unknown)")


def test_ops_without_locations_print_none() -> None:
    out = _opt("cuda_tile.module @m {\n  entry @k() {\n    return\n  }\n}\n")
    assert "loc(" not in out


def test_debug_info_attributes_get_mlir_style_aliases() -> None:
    text = """#file = #cuda_tile.di_file<"k.py" in "/src">
#cu = #cuda_tile.di_compile_unit<file = #file>
#sp = #cuda_tile.di_subprogram<file = #file, line = 3, name = "k", linkageName = "k", compileUnit = #cu>
#blk = #cuda_tile.di_lexical_block<scope = #sp, file = #file, line = 4>
cuda_tile.module @m {
  entry @k() {
    return loc(#cuda_tile.di_loc<loc("k.py":5:1) in #blk>)
  } loc(#cuda_tile.di_loc<loc("k.py":3:1) in #sp>)
}
"""
    out = _opt(text)
    assert '#di_file = #cuda_tile.di_file<"k.py" in "/src">\n' in out
    assert '#loc = loc("k.py":5:1)\n' in out
    assert "#loc1 = #cuda_tile.di_loc<#loc in #di_lexical_block>\n" in out
    assert (
        '#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "k", linkageName = "k", '
        "compileUnit = #di_compile_unit>" in out
    )
    assert "#di_lexical_block = #cuda_tile.di_lexical_block<scope = #di_subprogram, file = #di_file, line = 4>" in out
    assert re.search(r"return loc\(#loc\d*\)", out)


def test_location_alias_may_follow_its_use() -> None:
    text = 'cuda_tile.module @m {\n  entry @k() {\n    return loc(#later)\n  }\n}\n#later = loc("a.py":1:1)\n'
    result = parse_chunk(SourceText(text))
    assert result.ok
    assert 'return loc("a.py":1:1)' in Printer().module_text(result.module)  # type: ignore[arg-type]
    missing = parse_chunk(SourceText(text.replace('#later = loc("a.py":1:1)\n', "")))
    assert [d.message for d in missing.diagnostics] == ["operation location alias was never defined"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '#f = #cuda_tile.di_file<"a" in "b">\n#x = #cuda_tile.di_compile_unit<line = 1>\n',
            "duplicate or unknown struct parameter name: line",
        ),
        ('#x = #cuda_tile.di_file<1 in "b">\n', "which is to be a `StringAttr`"),
        (
            'cuda_tile.module @m {\n  entry @k() {\n    return\n  } loc(callsite("a":1:1 at "b":2:2))\n}\n',
            "Function location must not be a CallSiteLoc.",
        ),
        ("cuda_tile.module @m {\n  entry @k() {\n    return loc(\n  }\n}\n", "expected location instance"),
    ],
)
def test_debug_info_errors(text: str, message: str) -> None:
    errors = [d.message for d in parse_chunk(SourceText(text)).diagnostics if d.is_error]
    assert any(message in e for e in errors), errors
