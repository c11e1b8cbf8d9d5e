"""The language server, `tile-lsp check` and the compile's front end give the same diagnostics:
mutants of real kernels (fixed seed) through the server's analysis (its session and shared item
cache, as documents are edited) and through `check --format json`, compared record by record;
duplicate symbols are front-end errors with MLIR's wording, and `compile` stops at them.

TILE_LSP_DIFF_MUTANTS=N compares N mutants instead of the CI's few hundred.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest
from mutants import kernels, mutants

from tile_lsp.cli import main
from tile_lsp.compiler.diagnostics import to_json
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from tile_lsp.session import Session

MUTANTS = int(os.environ.get("TILE_LSP_DIFF_MUTANTS", "300"))


def _key(record: dict[str, object]) -> tuple[object, ...]:
    related = tuple((r["line"], r["column"], r["message"]) for r in record["related"])  # type: ignore[attr-defined]
    return (record["line"], record["column"], record["end_line"], record["end_column"], record["severity"],
            record["message"], related)


def _check_json(path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> list[tuple[object, ...]]:
    main(["check", "--format", "json", str(path)])
    return sorted(_key(r) for r in json.loads(capsys.readouterr().out)["diagnostics"])


def test_check_and_the_server_agree_on_mutated_kernels(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = Session()  # one session, one item cache: the cache must not change any answer
    path = tmp_path / "mutant.mlir"
    disagree: list[str] = []
    for version, (name, text) in enumerate(mutants(MUTANTS, seed=3, hostile=False)):
        path.write_text(text, encoding="utf-8")
        snap = session.update("file:///mutant.mlir", version, text, str(path))
        server = sorted(_key(to_json(d, snap.analysis.source)) for d in snap.analysis.diagnostics)
        check = _check_json(path, capsys)
        if server != check:
            only_server = [d for d in server if d not in check][:2]
            only_check = [d for d in check if d not in server][:2]
            disagree.append(f"{name}: server only {only_server}, check only {only_check}")
    assert not disagree, f"{len(disagree)} of {MUTANTS} mutants disagree; first:\n" + "\n".join(disagree[:5])


def _front_end_diagnostics(text: str, path: str) -> list[tuple[object, ...]]:
    """What `compile` reports when its front end stops it (or nothing, when it goes on)."""
    result = compile_source(SourceText(text, path), CompileOptions(target=Target(90)), "cuda_tile", cache=False)
    source = SourceText(text, path)
    return sorted(_key(to_json(d, source)) for d in result.diagnostics if d.stage == "cuda_tile")


def test_the_compile_front_end_agrees_too() -> None:
    session = Session()
    disagree = []
    for version, (name, text) in enumerate(mutants(60, seed=4, hostile=False)):
        snap = session.update("file:///m.mlir", version, text, "m.mlir")
        server = sorted(_key(to_json(d, snap.analysis.source)) for d in snap.analysis.diagnostics)
        if not any(d.is_error for d in snap.analysis.diagnostics):
            continue  # (a compile that goes on reports the later stages' findings)
        if _front_end_diagnostics(text, "m.mlir") != server:
            disagree.append(name)
    assert not disagree, disagree[:5]


def _duplicated(kernel: str) -> tuple[str, str]:
    """A real kernel with its first entry written twice (the second copy right after it)."""
    import re

    text = dict(kernels())[kernel]
    m = re.search(r"^([ \t]*)entry @([\w$.]+)", text, re.M)
    assert m is not None
    close = "\n" + m.group(1) + "}\n"
    start, end = m.start(), text.index(close, m.start()) + len(close)
    return text[:end] + text[start:end] + text[end:], m.group(2)


@pytest.mark.parametrize("kernel", ["vector_add.mlir", "gemm.mlir", "attention.mlir"])
def test_a_duplicate_entry_is_the_same_error_everywhere(kernel: str, tmp_path: pathlib.Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    text, name = _duplicated(kernel)
    path = tmp_path / kernel
    path.write_text(text, encoding="utf-8")
    snap = Session().update("file:///d.mlir", 1, text, str(path))
    server = sorted(_key(to_json(d, snap.analysis.source)) for d in snap.analysis.diagnostics)
    assert [k[5] for k in server] == [f"redefinition of symbol named '{name}'"]
    assert server[0][6][0][2] == "see existing symbol definition here"
    assert _check_json(path, capsys) == server
    # `compile` stops at the front end's error (it failed in LLVM at 1:1 before)
    main(["compile", "--no-cache", "--gpu-name", "sm_90a", "--format", "json", "-o", str(tmp_path / "out.ptx"), str(path)])
    record = json.loads(capsys.readouterr().out)
    assert sorted(_key(d) for d in record["diagnostics"]) == server
    assert [s["name"] for s in record["stages"]] == []


def test_a_duplicate_global_in_a_file_parsed_whole() -> None:
    # generic form: the splitter hands the whole text to one parse, which checks the symbol table too
    text = (
        '"cuda_tile.module"() <{sym_name = "m"}> ({\n'
        '  "cuda_tile.global"() <{sym_name = "g", type = !cuda_tile.tile<1xf32>, value = #cuda_tile.dense<f32: [0.0]>}> : () -> ()\n'
        '  "cuda_tile.global"() <{sym_name = "g", type = !cuda_tile.tile<1xf32>, value = #cuda_tile.dense<f32: [0.0]>}> : () -> ()\n'
        "}) : () -> ()\n"
    )
    snap = Session().update("file:///g.mlir", 1, text, "g.mlir")
    messages = [d.message for d in snap.analysis.diagnostics]
    assert messages == ["redefinition of symbol named 'g'"], messages
