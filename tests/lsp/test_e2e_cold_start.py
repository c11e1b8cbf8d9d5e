"""End to end over stdio, from a fresh server: `initialize` is answered before the compiler is
imported (on a thread meanwhile), so a didOpen sent at once is answered once it is, with what
initialize negotiated (settings, position encoding) applied to the late-built host."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsp_helpers import record_publishes, until_published
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

URI = "file:///tmp/cold.mlir"
# `%a` after a non-ASCII name: its column differs between UTF-8 (18) and UTF-16 (15)
TEXT = """cuda_tile.module @m {
  entry @"ké€"(%a: tile<f32>) {
    %b = addf %a, %a : tile<f32>
    %c = mulf %b, %bb : tile<f32>
    return
  }
}
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve", "--no-pipeline"]))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_document_opened_as_soon_as_initialize_is_answered(client: LanguageClient):
    caps = lsp.ClientCapabilities(general=lsp.GeneralClientCapabilities(position_encodings=[lsp.PositionEncodingKind.Utf8]))
    result = await client.initialize_session(lsp.InitializeParams(capabilities=caps, initialization_options={"gpuName": "sm_90a"}))
    assert result.capabilities.position_encoding == lsp.PositionEncodingKind.Utf8
    assert result.capabilities.semantic_tokens_provider is not None
    assert result.capabilities.semantic_tokens_provider.legend.token_types[0] == "function"
    log = record_publishes(client)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=URI, language_id="cuda-tile", version=1, text=TEXT))
    )
    (diag,) = (await until_published(log, URI, 1, lambda diags: True)).diagnostics
    assert diag.message == "use of undeclared SSA value name '%bb'"
    assert diag.range.start == lsp.Position(line=3, character=18)

    settings = await client.protocol.send_request_async("tileLsp/settings", {})
    assert settings.gpuName == "sm_90a"  # initialize's options reached the host built after it
    hover = await client.text_document_hover_async(
        lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=2, character=11))
    )
    assert hover is not None and "cuda_tile.addf" in hover.contents.value
    locs = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=2, character=14))
    )
    assert [(loc.range.start.line, loc.range.start.character) for loc in locs] == [(1, 18)]  # (UTF-8, as negotiated)
