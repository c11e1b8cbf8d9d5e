"""End to end over stdio (issue 26): formatting and references stop their work, not only their
answer, when cancelled or when an edit supersedes their version.

Formatting a big file parses it item by item (and checks its result by the items that changed):
a `$/cancelRequest` or an edit stops it at the next item. Before, pygls answered the cancel at
once but the work ran to its end on a worker thread. Measures relative to a whole formatting
of the big file in the same server (`whole`), so they hold on any machine's speed: after the
cancel (or the edit) is answered, the server uses under a quarter of the CPU time of the next
`whole / 2` seconds (its work goes on: all of it), and a small request on the request thread
is answered in under `whole / 2`.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import re
import sys
import time

import pytest
import pytest_lsp
from lsp_helpers import doc_id, open_document, record_publishes, until_published
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified, JsonRpcException, JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
NO_PIPELINE = ["-m", "tile_lsp", "serve", "--no-pipeline"]
BIG = "file:///tmp/cancel_work_big.mlir"
TINY = "file:///tmp/cancel_work_tiny.mlir"


def _messy_module(size: int) -> str:
    """layernorm's entries with messier spacing, renamed and repeated to `size` characters."""
    kernel = (ROOT / "tests" / "data" / "cutile" / "layernorm.mlir").read_text(encoding="utf-8")
    entries = re.findall(r"^entry @.*?^}\n", kernel, re.M | re.S)
    messy = "".join(e.replace("  %", "      %", 3).replace(" = ", "   =  ", 5) for e in entries)
    copies = size // len(messy) + 1
    return "".join(re.sub(r"^entry @(\w+)", rf"entry @\g<1>_{i}", messy, flags=re.M) for i in range(copies))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, *NO_PIPELINE]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    log = record_publishes(lsp_client)
    open_document(lsp_client, BIG, _messy_module(600_000))
    open_document(lsp_client, TINY, "entry @k(%a: tile<i32>) {\n  %b = addi %a, %a : tile<i32>\n  return\n}\n")
    await until_published(log, BIG, 1, lambda d: True)
    await until_published(log, TINY, 1, lambda d: True)
    yield
    await lsp_client.shutdown_session()


def _cpu_s(client: LanguageClient) -> float:
    """The server process's user + system CPU time so far (/proc/<pid>/stat)."""
    pid = client._server.pid  # type: ignore[union-attr]
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _assert_idle(client: LanguageClient, whole: float) -> None:
    """The server's work stopped: it is nearly idle for the next whole/2 seconds, and a small
    request is answered meanwhile."""
    before, start = _cpu_s(client), time.monotonic()
    await asyncio.sleep(whole / 2)
    used = _cpu_s(client) - before
    assert used < 0.25 * (time.monotonic() - start), (used, whole)
    waited = await _tiny_answer_s(client)
    assert waited < whole / 2, (waited, whole)


def _formatting(client: LanguageClient, msg_id: str) -> asyncio.Future:
    params = lsp.DocumentFormattingParams(text_document=doc_id(BIG), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True))
    return asyncio.ensure_future(client.protocol.send_request_async(lsp.TEXT_DOCUMENT_FORMATTING, params, msg_id=msg_id))


async def _whole_formatting_s(client: LanguageClient) -> float:
    start = time.monotonic()
    edits = await _formatting(client, f"whole-{start}")
    assert edits and len(edits) == 1 and edits[0].new_text.count("\n") > 1000
    return time.monotonic() - start


async def _tiny_answer_s(client: LanguageClient) -> float:
    start = time.monotonic()
    tokens = await client.text_document_semantic_tokens_full_async(lsp.SemanticTokensParams(text_document=doc_id(TINY)))
    assert tokens is not None and tokens.data
    return time.monotonic() - start


@pytest.mark.asyncio(loop_scope="module")
async def test_a_cancelled_formatting_stops_its_work(client: LanguageClient):
    whole = await _whole_formatting_s(client)
    future = _formatting(client, "format-cancelled")
    await asyncio.sleep(whole / 4)  # (well inside its work)
    client.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id="format-cancelled"))
    with pytest.raises(JsonRpcRequestCancelled):
        await future
    await _assert_idle(client, whole)


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_stops_the_formatting_of_the_old_version(client: LanguageClient):
    whole = await _whole_formatting_s(client)
    future = _formatting(client, "format-superseded")
    await asyncio.sleep(whole / 4)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=BIG, version=2),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), text="// edited\n")],
        )
    )
    with pytest.raises(JsonRpcException) as answer:
        await future
    assert answer.value.code == JsonRpcContentModified.CODE  # (its edit would apply to a text that is gone)
    await asyncio.sleep(0.5)  # (the edit's own analysis: one item, and its diagnostics)
    await _assert_idle(client, whole)


@pytest.mark.asyncio(loop_scope="module")
async def test_references_of_a_symbol_across_items_are_answered(client: LanguageClient):
    """(The references handler runs on the request thread now: still right, and at every item.)"""
    text = "".join(f"entry @e{i}() {{\n  return\n}}\n" for i in range(50))
    uri = "file:///tmp/cancel_work_refs.mlir"
    log = record_publishes(client)
    open_document(client, uri, text)
    await until_published(log, uri, 1, lambda d: True)
    refs = await client.text_document_references_async(
        lsp.ReferenceParams(text_document=doc_id(uri), position=lsp.Position(3, 8), context=lsp.ReferenceContext(include_declaration=True))
    )
    assert [(r.range.start.line, r.range.start.character) for r in refs or []] == [(3, 6)]
