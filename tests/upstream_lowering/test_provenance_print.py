"""One printing for the MLIR stages: `print_mapped_located` gives exactly `print_ir`'s plain and
located texts and `print_mapped`'s line map (the pipeline's nvvm/llvm stage texts come from it)."""

from __future__ import annotations

import pathlib

import pytest

from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.lowering import to_nvvm
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
from tile_lsp.compiler.provenance import SourceIndex
from tile_lsp.compiler.provenance_mlir import print_mapped, print_mapped_located
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

BLOCK_SUM = pathlib.Path(__file__).resolve().parents[2] / "examples" / "block_sum.mlir"


@pytest.mark.parametrize("lowered", [False, True])
def test_one_printing_matches_print_ir(lowered: bool) -> None:
    source = SourceText(BLOCK_SUM.read_text(encoding="utf-8"), str(BLOCK_SUM))
    parsed = parse_upstream(source)
    assert parsed.ok and parsed.module is not None
    module = parsed.module
    if lowered:  # llvm-dialect ops, block arguments with locations, stamped locations
        sink = DiagnosticSink("nvvm", [])
        lctx = LoweringContext(source, CompileOptions(target=Target(90, "a")), sink, parsed.spans)
        assert to_nvvm.convert_to_nvvm(module, lctx)
    index = SourceIndex(source, parsed.spans)
    text, located, refs = print_mapped_located(module, index)
    assert text == print_ir(module)
    assert located == print_ir(module, locations=True)
    assert " loc(" in located and " loc(" not in text
    assert refs == print_mapped(module, index)[1]
    assert len(refs) == len(text.splitlines()) == len(located.splitlines())
    assert any(r is not None for r in refs)


@pytest.mark.parametrize("name", ["plain.mlir", 'we"ird\\dir/ké rnel\t€.mlir'])
def test_one_printing_escapes_file_names_as_xdsl_does(name: str) -> None:
    """The printer writes string literals whole (memoized) instead of byte by byte: the texts
    stay those of xDSL's own printer, also for a file name that needs escapes."""
    source = SourceText(BLOCK_SUM.read_text(encoding="utf-8"), f"/tmp/{name}")
    parsed = parse_upstream(source)
    assert parsed.ok and parsed.module is not None
    index = SourceIndex(source, parsed.spans)
    text, located, _ = print_mapped_located(parsed.module, index)
    assert text == print_ir(parsed.module)
    assert located == print_ir(parsed.module, locations=True)
    assert located is not None and name.split("/")[0][:2] in located
