"""A Tile IR 13.4 kernel as cuTile 1.7 exports it (grid dependency control, fpowi, insert,
inbounds) in the language server over stdio: no diagnostics (it used to be painted red as
unknown ops), hover explains the new ops and flags in our words, completion offers them, and the
background pipeline compiles it to PTX with griddepcontrol."""

from __future__ import annotations

import asyncio
import pathlib
import sys
import time

import pytest
import pytest_lsp
from lsp_helpers import TIMEOUT_S, open_document, record_publishes, until_published, view_stage
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNEL = (ROOT / "tests" / "data" / "cutile" / "pdl_powi_insert.mlir").read_text()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options={"gpuName": "sm_90a"})
    )
    yield
    await lsp_client.shutdown_session()


def _position(text: str, needle: str, delta: int = 1) -> lsp.Position:
    at = text.index(needle) + delta
    return lsp.Position(line=text.count("\n", 0, at), character=at - (text.rfind("\n", 0, at) + 1))


async def _hover(client: LanguageClient, uri: str, needle: str, delta: int = 1) -> str:
    found = await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=_position(KERNEL, needle, delta))
    )
    assert found is not None and isinstance(found.contents, lsp.MarkupContent), needle
    return found.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_a_13_4_kernel_is_clean_hovers_and_compiles(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "pdl_powi_insert.mlir").as_uri()
    log = record_publishes(client)
    open_document(client, uri, KERNEL)
    await until_published(log, uri, 1, lambda d: True)
    errors = [d.message for p in log if p.uri == uri for d in p.diagnostics if d.severity == lsp.DiagnosticSeverity.Error]
    assert errors == []

    assert "grid this one depends on" in await _hover(client, uri, "gdc_wait_tko")
    assert "integer `exponent`" in await _hover(client, uri, "fpowi")
    assert "inverse of `extract`" in await _hover(client, uri, "= insert", 3)
    load = await _hover(client, uri, "load_view_tko weak %pview[")
    assert "`inbounds = [true]`" in load and "`memory_ordering_semantics = weak`" in load and "no bounds check" in load

    line = KERNEL.index("  %2 = join_tokens")
    pos = lsp.Position(line=KERNEL.count("\n", 0, line), character=2)
    done = await client.text_document_completion_async(
        lsp.CompletionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=pos)
    )
    items = done.items if isinstance(done, lsp.CompletionList) else (done or [])
    labels = {i.label for i in items}
    assert {"gdc_wait_tko", "gdc_launch_dependents_tko", "fpowi", "insert", "memory_fence_alias_tko"} <= labels

    deadline = time.monotonic() + TIMEOUT_S
    ptx = await view_stage(client, uri, "ptx")
    while not ptx.get("ok") and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        ptx = await view_stage(client, uri, "ptx")
    assert ptx["ok"] is True, ptx["output"][:400]
    assert ptx["output"].count("griddepcontrol.wait;") == 2 and "griddepcontrol.launch_dependents;" in ptx["output"]
