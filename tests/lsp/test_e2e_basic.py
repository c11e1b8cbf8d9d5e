"""End to end over stdio: diagnostics on open/change/close, hover, definition."""

from __future__ import annotations

import pytest
from lsp_helpers import record_publishes, until_published
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

URI = "file:///tmp/kernel.mlir"
TEXT = """cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %b = addf %a, %a : tile<f32>
    %c = mulf %b, %b : tile<f32>
    return
  }
}
"""


def _open(client: LanguageClient, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=URI, language_id="cuda-tile", version=version, text=text))
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_hover_definition(client: LanguageClient):
    log = record_publishes(client)
    _open(client, TEXT)
    first = await until_published(log, URI, 1, lambda diags: True)
    assert list(first.diagnostics) == []
    # Break a value name: %b -> %bb in the mulf line.
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(start=lsp.Position(line=3, character=16), end=lsp.Position(line=3, character=16)),
                    text="b",
                )
            ],
        )
    )
    # (version 2's own publish: one of version 1 may still arrive after the change was sent)
    (diag,) = (await until_published(log, URI, 2, lambda diags: True)).diagnostics
    assert diag.message == "use of undeclared SSA value name '%bb'"
    assert diag.range.start == lsp.Position(line=3, character=14)
    assert diag.source == "tile-lsp(cuda_tile)"

    hover = await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=2, character=11))
    )
    assert hover is not None and "cuda_tile.addf" in hover.contents.value

    locs = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=2, character=15))
    )
    assert [(loc.range.start.line, loc.range.start.character) for loc in locs] == [(1, 11)]

    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=URI)))
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []
