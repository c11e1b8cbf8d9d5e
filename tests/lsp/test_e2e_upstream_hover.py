"""Hover on an upstream gpu/arith/memref file over stdio: values get their types, ops their
description, and, once the background compile of that version is cached, the NVVM and PTX lines
the op became. Hover never waits for a compile."""

from __future__ import annotations

import pathlib
import sys
import time
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
BLOCK_SUM = (ROOT / "examples" / "block_sum.mlir").read_text()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options={"gpuName": "sm_90a"})
    )
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="mlir", version=1, text=text))
    )


def _position(text: str, needle: str, delta: int) -> lsp.Position:
    at = text.index(needle) + delta
    line = text.count("\n", 0, at)
    return lsp.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


async def _hover(client: LanguageClient, uri: str, text: str, needle: str, delta: int = 1) -> str:
    found = await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=_position(text, needle, delta))
    )
    assert found is not None and isinstance(found.contents, lsp.MarkupContent), needle
    return found.contents.value


async def _view(client: LanguageClient, uri: str, stage: str) -> dict[str, Any]:
    found = await client.protocol.send_request_async("tileLsp/viewStage", {"uri": uri, "stage": stage})
    return found if isinstance(found, dict) else found._asdict()


def _section(hover: str, title: str) -> list[str]:
    """The code lines of the hover's `**title**` section."""
    body = hover.split(f"**{title}**", 1)[1]
    return [line for line in body.split("```", 2)[1].splitlines()[1:] if line]


def _norm(line: str) -> str:
    return " ".join(line.split())


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_upstream_values_and_ops(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "block_sum.mlir").as_uri()
    _open(client, uri, BLOCK_SUM)
    # Values: types from the real parse (the token map only has placeholders).
    assert (await _hover(client, uri, BLOCK_SUM, "%tid = ")).startswith("`%tid`: `index`\n\nDefined by `gpu.thread_id`")
    assert (await _hover(client, uri, BLOCK_SUM, "%buf[%tid]")).startswith(
        "`%buf`: `memref<128xf32, #gpu.address_space<workgroup>>`\n\nArgument 2 of `gpu.func` `@block_sum`"
    )
    assert (await _hover(client, uri, BLOCK_SUM, "%acc2 = ")).startswith("`%acc2`: `f32`\n\nDefined by `arith.addf`")
    # An op before its compile is cached: name, description, types; no stage lines yet.
    started = time.perf_counter()
    op = await _hover(client, uri, BLOCK_SUM, "gpu.thread_id", 3)
    assert time.perf_counter() - started < 1.0  # never waits for the compile
    assert op.startswith("**gpu.thread_id**\n\nIndex of the thread within its block")
    assert "Results: `index`" in op


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_lists_the_ptx_an_op_became(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "block_sum.mlir").as_uri()
    _open(client, uri, BLOCK_SUM)
    ptx = await _view(client, uri, "ptx")  # the compile of this version, now cached
    assert ptx["ok"] is True and ".entry block_sum" in ptx["output"]
    nvvm = await _view(client, uri, "nvvm")
    hover = await _hover(client, uri, BLOCK_SUM, "gpu.thread_id", 3)
    assert "**PTX** (sm_90a): 1 line" in hover, hover
    shown = _section(hover, "PTX")
    assert any("%tid.x" in line for line in shown), hover
    ptx_lines = {_norm(line) for line in ptx["output"].splitlines()}
    assert shown and all(_norm(line) in ptx_lines for line in shown), (shown, hover)
    nvvm_shown = _section(hover, "NVVM")
    assert any("nvvm.read.ptx.sreg.tid.x" in line for line in nvvm_shown), hover
    nvvm_lines = {_norm(line) for line in nvvm["output"].splitlines()}
    assert all(_norm(line) in nvvm_lines for line in nvvm_shown)
    # The barrier: one PTX line, bar.sync.
    barrier = await _hover(client, uri, BLOCK_SUM, "gpu.barrier", 3)
    assert [_norm(line) for line in _section(barrier, "PTX")] == ["bar.sync 0;"]
    # Cached hovers are fast (round trip over stdio included).
    started = time.perf_counter()
    for _ in range(20):
        await _hover(client, uri, BLOCK_SUM, "memref.load %x", 3)
    mean_ms = (time.perf_counter() - started) / 20 * 1000
    print(f"hover with stage sections: {mean_ms:.1f} ms mean over stdio")
    assert mean_ms < 50


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_an_edited_version_does_not_wait(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "block_sum.mlir").as_uri()
    _open(client, uri, BLOCK_SUM)
    await _view(client, uri, "ptx")
    edited = BLOCK_SUM.replace("%tid = gpu.thread_id x", "%tid = gpu.thread_id y")
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    started = time.perf_counter()
    hover = await _hover(client, uri, edited, "gpu.thread_id", 3)
    assert time.perf_counter() - started < 1.0
    assert "**PTX**" not in hover  # the cached report is of version 1: not shown for version 2
    assert "NVVM/PTX lines:" in hover
