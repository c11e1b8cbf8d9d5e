"""Robustness under editing: 200 random edits (insertions, deletions, truncations) of real
kernels, sent as incremental changes by a real LSP client while the pipeline runs in the
background. The server must answer every request, never crash, and its last published
diagnostics must be those of the final text (same version, same messages at the same lines)."""

from __future__ import annotations

import asyncio
import pathlib
import random
import sys
import time

import pytest
import pytest_lsp
from lsp_helpers import record_publishes
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tile_lsp.compiler.document import analyze
from tile_lsp.compiler.source import SourceText

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNELS = [ROOT / "tests" / "data" / "cutile" / n for n in ("vector_add.mlir", "row_softmax.mlir", "prefix_scan.mlir")]
EDITS = 200
SNIPPETS = ["%", "addf", " : tile<", "}", "{", "\n", "entry @x() {\n", "constant <f32: 1.0> : tile<f32>\n", "\x00", "é", ")", "<i32: 3>"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options={"gpuName": "sm_90a", "pipelineTimeout": 20})
    )
    yield
    await lsp_client.shutdown_session()


def _position(text: str, offset: int) -> lsp.Position:
    """LSP position (UTF-16 columns) of a character offset."""
    line, col = SourceText(text).line_col_utf16(offset)
    return lsp.Position(line=line, character=col)


def _settled(published: list[lsp.PublishDiagnosticsParams], version: int, front: list[tuple[str, int]], broken: bool) -> bool:
    """The last publish is for `version` and has the front end's diagnostics of its text: exactly
    them when the text has errors (no stage ran), at least them otherwise (plus stage ones)."""
    if not published or published[-1].version != version:
        return False
    got = sorted((d.message, d.range.start.line) for d in published[-1].diagnostics)
    return got == front if broken else all(f in got for f in front)


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    """(start, end, new text): a harmless space (the text stays valid), an insertion, a deletion
    or a truncation."""
    kind = rng.random()
    n = len(text)
    commas = [i for i in range(n - 1) if text[i] == "," and text[i + 1] == " "]
    if kind < 0.25 and commas:  # still valid text (a changed entry): the pipeline runs, and is superseded
        at = rng.choice(commas) + 1
        return at, at, " "
    if kind < 0.55 or n == 0:
        at = rng.randint(0, n)
        return at, at, rng.choice(SNIPPETS)
    if kind < 0.9:
        start = rng.randint(0, n - 1)
        return start, min(n, start + rng.randint(1, 40)), ""
    start = rng.randint(n // 2, n)
    return start, n, ""  # truncation: the rest of the file is gone


@pytest.mark.asyncio(loop_scope="module")
async def test_random_edits_never_break_the_server(client: LanguageClient, tmp_path: pathlib.Path):
    rng = random.Random(20261121)
    log = record_publishes(client)
    answered = 0
    per_kernel = EDITS // len(KERNELS)
    for k, kernel in enumerate(KERNELS):
        text = kernel.read_text(encoding="utf-8")
        uri = (tmp_path / f"k{k}.mlir").as_uri()
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="cuda_tile", version=1, text=text))
        )
        version = 1
        count = per_kernel if k < len(KERNELS) - 1 else EDITS - per_kernel * (len(KERNELS) - 1)
        for i in range(count):
            start, end, new = _random_edit(rng, text)
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(start=_position(text, start), end=_position(text, end)), text=new
            )
            text = text[:start] + new + text[end:]
            version += 1
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(
                    text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=[change]
                )
            )
            if i % 4 == 0:  # the server answers while edits and compiles go on
                at = _position(text, rng.randint(0, len(text)))
                hover = client.text_document_hover_async(lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=at))
                definition = client.text_document_definition_async(
                    lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=at)
                )
                await asyncio.wait_for(asyncio.gather(hover, definition), timeout=10)
                answered += 2
            if rng.random() < 0.3:
                await asyncio.sleep(rng.choice([0.0, 0.01, 0.05, 0.3]))
        # The final text: the last publish is for the last version and lists the front end's
        # diagnostics of that text exactly (and, when the text parses, stage diagnostics too).
        expected = analyze(text, str(tmp_path / f"k{k}.mlir"))
        source = SourceText(text)
        front = sorted((d.message, source.line_col(d.span.start)[0]) for d in expected.diagnostics)
        broken = any(d.is_error for d in expected.diagnostics)

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _settled([p for p in log if p.uri == uri], version, front, broken):
            await asyncio.sleep(0.1)
        mine = [p for p in log if p.uri == uri]
        assert mine and mine[-1].version == version, f"last publish is v{mine[-1].version if mine else None}, text is v{version}"
        versions = [p.version for p in mine]
        assert versions == sorted(versions), "a superseded version was published after a newer one"
        got = sorted((d.message, d.range.start.line) for d in mine[-1].diagnostics)
        assert _settled(mine, version, front, broken), (got, front)
    # Still alive and answering.
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=(tmp_path / "k0.mlir").as_uri()))
    )
    assert symbols is not None
    assert answered >= EDITS // 4 * 2 - 6
