"""End to end over stdio: a parse error in one entry leaves hover and definition working in
the other entries (mlir-lsp-server blanks the whole chunk), and in the broken entry's earlier ops.
"""

from __future__ import annotations

import asyncio
import pathlib

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
FIRST, SECOND = (DATA / "vector_add.mlir").read_text().split("\nentry ", 1)
SECOND = "entry " + SECOND
LOOPS = (DATA / "control_flow.mlir").read_text()
# searchsorted between the two vector_add entries; its loop body gets a parse error.
VALID = FIRST + "\n" + LOOPS + SECOND
GOOD_LINE = "    %5 = addi %arg14, %arg13 : tile<i32>"
BAD_LINE = "    %5 = addi %arg14, %arg13 ) tile<i32>"
URI = "file:///tmp/recovery.mlir"


def _pos(text: str, needle: str, nth: int = 0, delta: int = 1) -> lsp.Position:
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    return lsp.Position(line=text.count("\n", 0, at), character=at - (text.rfind("\n", 0, at) + 1))


def _line(text: str, needle: str, nth: int = 0) -> int:
    return _pos(text, needle, nth, 0).line


def _doc() -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=URI)


async def _diagnostics(client: LanguageClient, text: str) -> list[lsp.Diagnostic]:
    """Open `text` and wait for its diagnostics."""
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=URI, language_id="cuda-tile", version=1, text=text)
        )
    )
    params = await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
    return list(params.diagnostics)


async def _definition(client: LanguageClient, pos: lsp.Position) -> list[tuple[int, int]]:
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=_doc(), position=pos))
    assert isinstance(found, list | None)
    return sorted(
        (loc.range.start.line, loc.range.start.character) for loc in found or [] if isinstance(loc, lsp.Location)
    )


async def _hover(client: LanguageClient, pos: lsp.Position) -> str | None:
    found = await client.text_document_hover_async(lsp.HoverParams(text_document=_doc(), position=pos))
    return found.contents.value if found is not None and isinstance(found.contents, lsp.MarkupContent) else None


def _start(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    p = _pos(text, needle, nth, 0)
    return p.line, p.character


@pytest.mark.parametrize("wrapped", [False, True], ids=["bare-entries", "in-cuda_tile.module"])
@pytest.mark.asyncio(loop_scope="module")
async def test_a_parse_error_in_one_entry_spares_the_others(client: LanguageClient, wrapped: bool):
    assert GOOD_LINE in VALID
    broken = VALID.replace(GOOD_LINE, BAD_LINE)
    if wrapped:
        broken = "cuda_tile.module @kernels {\n" + broken + "}\n"
    diags = await _diagnostics(client, broken)
    assert [d.message for d in diags] == ["expected ':'"]
    assert diags[0].range.start.line == _line(broken, BAD_LINE)

    # The entries before and after the broken one: hover and definition work as usual.
    for nth in (0, 1):  # the first and the last vector_add
        assert await _definition(client, _pos(broken, "%bcast, %tile", nth)) == [_start(broken, "%bcast =", nth)]
        hover = await _hover(client, _pos(broken, "fma", nth))
        assert hover is not None and hover.startswith("**cuda_tile.fma**")
    assert _line(broken, "fma", 1) > _line(broken, BAD_LINE)  # the second one is past the error

    # Inside the broken entry, what precedes the error still resolves, regions included.
    use = _pos(broken, "%arg13", nth=1)  # in `cmpi` inside the loop body, before the bad line
    assert use.line < _line(broken, BAD_LINE)
    assert await _definition(client, use) == [_start(broken, "%arg13 =")]
    value = await _hover(client, use)
    # (the `loop` op itself was never completed, so the hover cannot name it)
    assert value is not None and value.startswith("`%arg13`: `tile<i32>`") and "Block argument" in value
    (assume,) = await _definition(client, _pos(broken, "%assume_6", nth=1))
    assert assume == _start(broken, "%assume_6 =")


@pytest.mark.asyncio(loop_scope="module")
async def test_recovery_while_editing(client: LanguageClient):
    """Break the entry by an edit, navigate elsewhere, then repair it: diagnostics follow."""
    assert await _diagnostics(client, VALID) == []
    line = _line(VALID, GOOD_LINE)
    colon = GOOD_LINE.index(":")

    def change(version: int, text: str) -> None:
        start = lsp.Position(line=line, character=colon)
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=URI, version=version),
                content_changes=[
                    lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(start=start, end=lsp.Position(line=line, character=colon + 1)), text=text
                    )
                ],
            )
        )

    change(2, ")")
    params = await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
    assert [d.message for d in params.diagnostics] == ["expected ':'"]
    assert await _definition(client, _pos(VALID, "%bcast, %tile")) == [_start(VALID, "%bcast =")]
    last_hover = await _hover(client, _pos(VALID, "fma", 1))
    assert last_hover is not None and "cuda_tile.fma" in last_hover
    change(3, ":")
    params = await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 10)
    assert list(params.diagnostics) == []
    # Repaired: the line after the old error resolves again.
    assert await _definition(client, _pos(VALID, "%5, %cst_2_i32")) == [_start(VALID, "%5 = addi")]
