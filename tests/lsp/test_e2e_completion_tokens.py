"""End to end over stdio: completion while typing a line, and full semantic tokens."""

from __future__ import annotations

import pathlib

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from tile_lsp.features.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES  # the legend the server declares

URI = "file:///tmp/completion.mlir"
GEMM_URI = "file:///tmp/gemm.mlir"
GEMM = (pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile" / "gemm.mlir").read_text()
TEXT = """cuda_tile.module @m {
  global @lut <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k(%a: tile<f32>) {
    %b = addf %a, %a : tile<f32>

    return
  }
}
"""
LINE = 4  # the empty line where typing happens


def _open(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="cuda-tile", version=1, text=text)
        )
    )


def _type(client: LanguageClient, version: int, col: int, text: str) -> None:
    """Insert `text` at (LINE, col), as a keystroke burst does."""
    pos = lsp.Position(line=LINE, character=col)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=pos, end=pos), text=text)],
        )
    )


async def _complete(client: LanguageClient, col: int) -> dict[str, lsp.CompletionItem]:
    result = await client.text_document_completion_async(
        lsp.CompletionParams(
            text_document=lsp.TextDocumentIdentifier(uri=URI), position=lsp.Position(line=LINE, character=col)
        )
    )
    assert isinstance(result, lsp.CompletionList)
    return {item.label: item for item in result.items}


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_while_typing_a_line(client: LanguageClient):
    _open(client, URI, TEXT)
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    _type(client, 2, 0, "    %c = ad")
    items = await _complete(client, 11)
    assert {"addf", "addi"} <= set(items) and "cuda_tile.addf" not in items
    addf = items["addf"]
    assert addf.kind == lsp.CompletionItemKind.Function and addf.detail and addf.documentation
    assert isinstance(addf.text_edit, lsp.TextEdit)
    assert addf.text_edit.range == lsp.Range(
        start=lsp.Position(line=LINE, character=9), end=lsp.Position(line=LINE, character=11)
    )

    _type(client, 3, 11, "df %")
    items = await _complete(client, 15)
    assert list(items) == ["%b", "%a"]  # nearest first
    b = items["%b"]
    assert b.detail == "tile<f32>" and b.kind == lsp.CompletionItemKind.Variable
    assert isinstance(b.text_edit, lsp.TextEdit) and b.text_edit.new_text == "%b"
    assert b.text_edit.range.start == lsp.Position(line=LINE, character=14)  # the `%` is replaced too

    _type(client, 4, 15, "b, %b : tile<")
    items = await _complete(client, 28)
    assert {"f32", "bf16", "ptr<"} <= set(items)

    _type(client, 5, 0, "    %g = get_global @\n")
    items = await _complete(client, 21)
    assert list(items) == ["@lut"]

    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=URI)))


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_tokens_full_on_a_real_kernel(client: LanguageClient):
    _open(client, GEMM_URI, GEMM)
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    result = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=lsp.TextDocumentIdentifier(uri=GEMM_URI))
    )
    assert result is not None and len(result.data) % 5 == 0 and len(result.data) > 5 * 2000
    lines = GEMM.splitlines()
    decoded = {}
    line = col = 0
    for i in range(0, len(result.data), 5):
        d_line, d_col, length, kind, mods = result.data[i : i + 5]
        line, col = line + d_line, (col + d_col if d_line == 0 else d_col)
        assert d_line > 0 or d_col > 0 or i == 0  # strictly increasing positions
        names = tuple(m for b, m in enumerate(TOKEN_MODIFIERS) if mods & (1 << b))
        decoded[(line, col)] = (lines[line][col : col + length], TOKEN_TYPES[kind], names)
    assert decoded[(0, 0)] == ("entry", "function", ())
    assert decoded[(1, 2)] == ("%0", "variable", ("definition",))
    assert decoded[(1, 7)] == ("make_token", "function", ())
    assert decoded[(1, 20)] == ("token", "type", ())
    at = lines[27].index("signed")
    assert decoded[(27, at)] == ("signed", "keyword", ())
    at = lines[67].index("%loopIdx")
    assert decoded[(67, at)] == ("%loopIdx", "parameter", ("definition",))
    client.text_document_did_close(
        lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=GEMM_URI))
    )
