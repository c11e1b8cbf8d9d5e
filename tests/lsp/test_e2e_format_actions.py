"""End to end over stdio: textDocument/formatting and textDocument/codeAction from the real server."""

from __future__ import annotations

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

URI = "file:///tmp/format_actions.mlir"
MESSY = """entry @k(%a :tile<f32>)   {
\t%b=addf %a,%a:tile<f32>   // doubled
      return
}
"""
FORMATTED = """entry @k(%a: tile<f32>) {
  %b = addf %a, %a : tile<f32>  // doubled
  return
}
"""
TYPO = """entry @k(%a: tile<f32>) {
  %b = addff %a, %a : tile<f32>
  return
}
"""


def _doc() -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=URI)


async def _open(client: LanguageClient, text: str) -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=URI, language_id="cuda-tile", version=1, text=text)
        )
    )
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


async def _close(client: LanguageClient) -> None:
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=_doc()))
    await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """Apply LSP edits (ASCII text: UTF-16 columns are character columns)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def off(p: lsp.Position) -> int:
        return starts[p.line] + p.character if p.line < len(lines) else len(text)

    for e in sorted(edits, key=lambda e: off(e.range.start), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end) :]
    return text


def _format_params() -> lsp.DocumentFormattingParams:
    return lsp.DocumentFormattingParams(
        text_document=_doc(), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting(client: LanguageClient):
    await _open(client, MESSY)
    edits = await client.text_document_formatting_async(_format_params())
    assert edits is not None and _apply(MESSY, edits) == FORMATTED
    await _close(client)


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_leaves_broken_text_alone(client: LanguageClient):
    await _open(client, TYPO)
    edits = await client.text_document_formatting_async(_format_params())
    assert not edits
    await _close(client)


@pytest.mark.asyncio(loop_scope="module")
async def test_code_actions(client: LanguageClient):
    await _open(client, TYPO)
    (diag,) = client.diagnostics[URI]
    assert diag.message.startswith("custom op 'addff' is unknown")
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(text_document=_doc(), range=diag.range, context=lsp.CodeActionContext(diagnostics=[diag]))
    )
    assert actions is not None
    by_title = {a.title: a for a in actions if isinstance(a, lsp.CodeAction)}
    assert list(by_title) == ["Change to 'addf'", "Wrap in cuda_tile.module"]

    fix = by_title["Change to 'addf'"]
    assert fix.kind == lsp.CodeActionKind.QuickFix and fix.is_preferred
    assert fix.diagnostics is not None and fix.diagnostics[0].message == diag.message
    assert fix.edit is not None and fix.edit.changes is not None
    assert _apply(TYPO, fix.edit.changes[URI]) == TYPO.replace("addff", "addf")

    wrap = by_title["Wrap in cuda_tile.module"]
    assert wrap.kind == lsp.CodeActionKind.RefactorRewrite and not wrap.is_preferred
    assert wrap.edit is not None and wrap.edit.changes is not None
    assert _apply(TYPO, wrap.edit.changes[URI]).startswith("cuda_tile.module @module {\n  entry @k(")

    only_refactors = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=_doc(),
            range=diag.range,
            context=lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.Refactor]),
        )
    )
    assert only_refactors is not None
    assert [a.title for a in only_refactors] == ["Wrap in cuda_tile.module"]
    await _close(client)
