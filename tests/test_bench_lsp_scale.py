"""bench/lsp_scale.py's generated corpora (issue 30) are valid cuda_tile, and its typing edits
are the text they say: no server is started and nothing is timed here."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys

import pytest

from tile_lsp.compiler.document import check_document
from tile_lsp.textsync import apply_change

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def scale():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("lsp_scale", ROOT / "bench" / "lsp_scale.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["lsp_scale"] = module
    spec.loader.exec_module(module)
    return module


CASES = ["mixed", "debug-mixed", "repeat:examples/vector_add", "huge:control_flow", "debug:gemm", "repeat:attention"]


@pytest.mark.parametrize("corpus", CASES)
def test_corpora_are_valid_and_their_entries_unique(scale, corpus: str) -> None:  # type: ignore[no-untyped-def]
    text = scale.corpora(300, {corpus})[corpus]
    assert text.count("\n") >= 300
    names = re.findall(r"^\s*entry @([\w$.-]+)", text, re.M)
    assert names and len(names) == len(set(names))
    errors = [d for d in check_document(text, f"/tmp/{corpus}.mlir") if d.is_error]
    assert not errors, errors[0]


def test_typing_keeps_the_ranged_and_the_whole_text_the_same(scale) -> None:  # type: ignore[no-untyped-def]
    text = scale.corpora(300, {"mixed"})["mixed"]
    typist = scale.Typist(text)
    for _ in range(70):  # past the 60 characters that start a new comment line
        change, whole = typist.next()
        start, end = change["range"]["start"], change["range"]["end"]
        text = apply_change(text, (start["line"], start["character"], end["line"], end["character"]), change["text"])
        assert text == whole
    assert not [d for d in check_document(text, "/tmp/typed.mlir") if d.is_error]
