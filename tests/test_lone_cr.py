"""A lone CR ends a line, and so a `//` comment (LSP; MLIR's lexer): a file saved with old Mac
line ends must mean what it means with LF ends, in the front end, the item splitter, the unit
cache's keys and the pipeline. (Before, the first comment ran to the end of the file: `check`
saw nothing, `compile` called it upstream MLIR, or compiled an empty module and said nothing.)"""

from __future__ import annotations

import pathlib

from tile_lsp.compiler.document import parse_document
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

ROOT = pathlib.Path(__file__).resolve().parents[1]
LF = (ROOT / "examples" / "vector_add.mlir").read_text()
BROKEN = LF.replace("addf %x, %y", "addf %x, %bid")


def _front(text: str) -> list[tuple[int, str]]:
    return sorted((d.span.start, d.message) for d in parse_document(text, "k.mlir").diagnostics)


def test_front_end_reads_lone_cr_as_lf():
    for text in (LF, BROKEN):
        cr = text.replace("\n", "\r")
        assert len(cr) == len(text)
        assert _front(cr) == _front(text)
    assert _front(BROKEN.replace("\n", "\r"))  # the error is found, at the same offset


def test_pipeline_compiles_lone_cr_files_like_lf_files():
    options = CompileOptions(target=Target.resolve("sm_90a", None))
    for text in (LF, BROKEN):
        want = compile_source(SourceText(text, "k.mlir"), options, "llvm-ir", cache=False)
        got = compile_source(SourceText(text.replace("\n", "\r"), "k.mlir"), options, "llvm-ir", cache=False)
        assert got.ok == want.ok
        assert [(d.span, d.message) for d in got.diagnostics] == [(d.span, d.message) for d in want.diagnostics]
        if want.ok:
            assert got.stages[-1].text == want.stages[-1].text
            assert "vector_add" in got.stages[-1].text


def test_unit_key_sees_code_after_a_comment_ended_by_cr():
    from tile_lsp.compiler.entry_cache import _COMMENT

    text = "// note\rentry @k() {\r  return\r}\r"
    assert "entry @k" in _COMMENT.sub("", text)
