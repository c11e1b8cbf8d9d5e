"""End to end over stdio: Tile IR bytecode in the editor (issue 27).

- `tileLsp/bytecodeText` gives a `.tileirbc` file's text view: the decoded module under a header
  naming its version; corrupt bytecode and non-bytecode files give an error with the place.
- That text, opened as a document the way the VS Code extension opens it (a `tileirbc:` URI) and
  the way the Neovim plugin does (the file's own `file:` URI), gets everything a `.mlir` file
  gets: front-end diagnostics, hover, symbols, the background pipeline's code lens.
- `tileLsp.saveAsBytecode` writes an open document as bytecode (atomically, of the asked
  version), which reads back as the same module.
"""

from __future__ import annotations

import pathlib
import shutil
import sys

import pytest
import pytest_lsp
from lsp_helpers import open_document, record_publishes, until_published
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tile_lsp.compiler.bytecode import is_bytecode
from tile_lsp.compiler.bytecode.format import parse_version
from tile_lsp.compiler.bytecode.reader import decode
from tile_lsp.compiler.syntax.printer import Printer

ROOT = pathlib.Path(__file__).resolve().parents[2]
CUTILE = ROOT / "tests" / "data" / "cutile"
HAS_PTXAS = shutil.which("ptxas") is not None


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options={"gpuName": "sm_90a"})
    )
    yield
    await lsp_client.shutdown_session()


async def _bytecode_text(client: LanguageClient, path: pathlib.Path) -> dict:
    got = await client.protocol.send_request_async("tileLsp/bytecodeText", {"uri": path.as_uri()})
    return got if isinstance(got, dict) else got._asdict()


def _module_text(data: bytes) -> str:
    decoded = decode(data)
    assert decoded.module is not None, decoded.diagnostics
    return Printer().module_text(decoded.module)


@pytest.mark.asyncio(loop_scope="module")
async def test_bytecode_text_view(client: LanguageClient, tmp_path: pathlib.Path):
    path = CUTILE / "vector_add.tileirbc"
    got = await _bytecode_text(client, path)
    assert "error" not in got, got
    text = got["text"]
    assert text.startswith(f"// vector_add.tileirbc: Tile IR bytecode {got['version']}, {path.stat().st_size:,} bytes")
    assert got["version"].startswith("13.") and got["bytes"] == path.stat().st_size
    assert text.endswith(_module_text(path.read_bytes()))  # the header, then the decoded module
    assert "entry @vector_add_Kt1_A1f32" in text

    # Corrupt: cut in the middle of its sections; the error names the byte offset.
    cut = tmp_path / "cut.tileirbc"
    cut.write_bytes(path.read_bytes()[:200])
    bad = await _bytecode_text(client, cut)
    assert "text" not in bad and "invalid Tile IR bytecode at byte offset" in bad["error"], bad
    # Not bytecode at all (a text file of that name), and a missing file.
    fake = tmp_path / "fake.tileirbc"
    fake.write_text("entry @k() { return }\n")
    assert "not Tile IR bytecode" in (await _bytecode_text(client, fake))["error"]
    assert "cannot read it" in (await _bytecode_text(client, tmp_path / "gone.tileirbc"))["error"]


@pytest.mark.parametrize("scheme", ["tileirbc", "file"])
@pytest.mark.asyncio(loop_scope="module")
async def test_bytecode_view_has_every_feature(client: LanguageClient, scheme: str):
    path = CUTILE / "vector_add.tileirbc"
    text = (await _bytecode_text(client, path))["text"]
    uri = f"tileirbc:{path}" if scheme == "tileirbc" else path.as_uri()
    log = record_publishes(client)
    open_document(client, uri, text, language="cuda-tile")
    first = await until_published(log, uri, 1, lambda d: True)
    assert not [d for d in first.diagnostics if d.severity == lsp.DiagnosticSeverity.Error], first.diagnostics
    doc = lsp.TextDocumentIdentifier(uri=uri)
    lines = text.splitlines()
    line = next(i for i, t in enumerate(lines) if " fma " in t)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(text_document=doc, position=lsp.Position(line, lines[line].index("fma") + 1))
    )
    assert hover is not None and "fma" in hover.contents.value  # type: ignore[union-attr]
    symbols = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc))
    assert symbols and any("vector_add_Kt1_A1f32" in s.name for s in symbols)
    if HAS_PTXAS:  # the pipeline ran on the view: each kernel's resources
        lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(text_document=doc))
        assert lenses and any(lens.command and lens.command.title.startswith("sm_90a · ") for lens in lenses), lenses
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=doc))


@pytest.mark.asyncio(loop_scope="module")
async def test_save_as_bytecode(client: LanguageClient, tmp_path: pathlib.Path):
    source = (CUTILE / "layernorm.mlir").read_text(encoding="utf-8")
    uri = (tmp_path / "layernorm.mlir").as_uri()
    open_document(client, uri, source)
    target = tmp_path / "out" / "layernorm.tileirbc"
    target.parent.mkdir()

    async def save(**extra: str) -> dict:
        got = await client.workspace_execute_command_async(
            lsp.ExecuteCommandParams(command="tileLsp.saveAsBytecode", arguments=[{"uri": uri, "path": str(target), **extra}])
        )
        return got if isinstance(got, dict) else dict(got)

    saved = await save()
    assert "error" not in saved and saved["path"] == str(target), saved
    data = target.read_bytes()
    assert is_bytecode(data) and saved["bytes"] == len(data)
    again = tmp_path / "again.tileirbc"  # our bytecode of our reading of it: the same bytes
    again.write_bytes(data)
    view = await _bytecode_text(client, again)
    assert view["version"] == saved["version"] and "entry @layernorm" in view["text"]

    older = await save(version="13.1")
    assert older["version"] == "13.1" and decode(target.read_bytes()).version == parse_version("13.1")
    assert _module_text(target.read_bytes()) == _module_text(data)  # the same module, written as 13.1
    refused = await save(version="12.9")
    assert "invalid bytecode version" in refused["error"]
    assert _module_text(target.read_bytes()) == _module_text(data)  # a refusal leaves the file alone
    relative = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command="tileLsp.saveAsBytecode", arguments=[{"uri": uri, "path": "rel.tileirbc"}])
    )
    assert "must be absolute" in dict(relative)["error"]
    assert sorted(p.name for p in target.parent.iterdir()) == ["layernorm.tileirbc"]  # no scratch file left
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
