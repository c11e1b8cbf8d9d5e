"""pytest-lsp fixture: the real tile-lsp server over stdio, driven by a real LSP client."""

from __future__ import annotations

import sys

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(),
            initialization_options={"gpuName": "sm_90"},
        )
    )
    yield
    await lsp_client.shutdown_session()
