"""Code lenses never wait long for a compile when the client can refresh them (issue 26: in the
10,000-edit fuzz a lens request waited 5.9 s for its version's compile). With
`workspace.codeLens.refreshSupport` the server answers within `facade.LENS_WAIT_S`: no lenses
while the compile runs, then `workspace/codeLens/refresh` once it is done, and the request the
client sends then is answered from the cached report."""

from __future__ import annotations

import asyncio
import pathlib
import re
import shutil
import sys
import time

import pytest
import pytest_lsp
from lsp_helpers import doc_id, open_document
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tile_lsp.facade import LENS_WAIT_S

ROOT = pathlib.Path(__file__).resolve().parents[2]
HAS_PTXAS = shutil.which("ptxas") is not None or pathlib.Path("/usr/local/cuda/bin/ptxas").exists()
# Entries renamed: no other test's compile of attention can have put these units in the session's
# unit cache (the lens request would then find the compile done within the wait).
ATTENTION = re.sub(
    r"^entry @(\w+)", r"entry @\1_lens_refresh", (ROOT / "tests" / "data" / "cutile" / "attention.mlir").read_text(encoding="utf-8"), flags=re.M
)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    refreshes: list[float] = []

    @lsp_client.feature(lsp.WORKSPACE_CODE_LENS_REFRESH)
    def on_refresh(*args: object) -> None:  # (pygls passes the client, then the params)
        refreshes.append(time.monotonic())

    lsp_client.lens_refreshes = refreshes  # type: ignore[attr-defined]
    workspace = lsp.WorkspaceClientCapabilities(code_lens=lsp.CodeLensWorkspaceClientCapabilities(refresh_support=True))
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(workspace=workspace), initialization_options={"gpuName": "sm_90a"})
    )
    yield
    await lsp_client.shutdown_session()


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
@pytest.mark.asyncio(loop_scope="module")
async def test_lenses_answer_at_once_and_refresh_when_the_compile_is_done(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "attention.mlir").as_uri()
    open_document(client, uri, ATTENTION)  # (a cold compile of attention: seconds)
    start = time.monotonic()
    first = await client.text_document_code_lens_async(lsp.CodeLensParams(text_document=doc_id(uri)))
    waited = time.monotonic() - start
    refreshes = client.lens_refreshes  # type: ignore[attr-defined]
    assert not first and not refreshes  # the compile was still running
    assert waited < LENS_WAIT_S + 2.0, waited  # (the bound plus the loop's own delays on a busy machine)
    deadline = time.monotonic() + 120
    while not refreshes and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert refreshes, "no workspace/codeLens/refresh after the compile"
    again = await client.text_document_code_lens_async(lsp.CodeLensParams(text_document=doc_id(uri)))
    assert again and any(lens.command is not None and lens.command.title.startswith("sm_90a · ") for lens in again)
