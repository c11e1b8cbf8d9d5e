"""End to end over stdio: the server's copy of a document stays the client's through incremental
edits, whatever line-break-like characters (\\f, \\v, \\x1c-\\x1e, U+0085, U+2028, U+2029: lines
only for Python's `str.splitlines`) or lone \\r (a line break for LSP) it holds, in the default
UTF-16 and in a negotiated UTF-8 position encoding; and every position it answers (formatting's
edit, diagnostics, semantic tokens) is in LSP's lines and the negotiated code units.

The client's side is the reference model (text_model.py): it computes the edits' positions and
applies the formatting edits. Before the server kept its own text, pygls's `splitlines`-based
document put every edit after a form feed one line too high, and Format Document wrote that
drifted text into the file."""

from __future__ import annotations

import asyncio
import pathlib
import sys

import pytest
import pytest_lsp
import text_model
from lsp_helpers import record_publishes, until_published
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from tile_lsp.features.formatting import format_text
from tile_lsp.features.semantic_tokens import TOKEN_TYPES

ROOT = pathlib.Path(__file__).resolve().parents[2]
KERNEL = (ROOT / "tests" / "data" / "cutile" / "debug_print.mlir").read_text(encoding="utf-8")
ODD = "\f\v\x85\u2028\u2029"  # (\x1c-\x1e: the front end calls them binary junk)


def _document() -> str:
    """debug_print.mlir with comments holding a form feed (and the other characters
    `splitlines` breaks at) and a lone \\r near the top, and one without a final line break."""
    first_break = KERNEL.index("\n") + 1
    text = KERNEL[:first_break] + f"  // form feed\fand {ODD} inside\n  // a lone\r  // carriage return\n" + KERNEL[first_break:]
    return text + "// the end é\U0001f600"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]),
    params=["utf-16", "utf-8"],
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    encodings = None if request.param == "utf-16" else [request.param]  # utf-16: the client says nothing
    result = await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(general=lsp.GeneralClientCapabilities(position_encodings=encodings)),
            initialization_options={"pipelineTimeout": 20},
        )
    )
    lsp_client.encoding = request.param  # type: ignore[attr-defined]
    assert (result.capabilities.position_encoding or "utf-16") == request.param
    yield
    await lsp_client.shutdown_session()


class _Editor:
    """The client's text and the edits it sends, positions by the reference model."""

    def __init__(self, client: LanguageClient, uri: str, text: str):
        self.client, self.uri, self.text, self.version = client, uri, text, 1
        self.encoding: str = client.encoding  # type: ignore[attr-defined]

    def position(self, offset: int) -> lsp.Position:
        line, character = text_model.position_of(self.text, offset, self.encoding)
        return lsp.Position(line=line, character=character)

    def change(self, *edits: tuple[int, int, str]) -> None:
        """One didChange of (start offset, end offset, new text) edits, each in the text the
        previous one left."""
        changes: list[lsp.TextDocumentContentChangeEvent] = []
        for start, end, new in edits:
            where = (self.position(start), self.position(end))
            changes.append(lsp.TextDocumentContentChangePartial(range=lsp.Range(*where), text=new))
            self.text = self.text[:start] + new + self.text[end:]
        self.version += 1
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version),
                content_changes=changes,
            )
        )

    def replace(self, old: str, new: str, after: str = "") -> None:
        at = self.text.index(old, self.text.index(after) if after else 0)
        self.change((at, at + len(old), new))

    async def formats_as_its_text(self) -> None:
        """Format Document, its edits applied to the client's text, gives the formatted client's
        text: the server formatted the text the client has."""
        expected = format_text(self.text)
        assert expected is not None and expected != self.text
        edits = await self.client.text_document_formatting_async(
            lsp.DocumentFormattingParams(text_document=lsp.TextDocumentIdentifier(uri=self.uri), options=lsp.FormattingOptions(2, True))
        )
        assert edits
        plain = [((e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), e.new_text) for e in edits]
        assert text_model.apply_edits(self.text, plain, self.encoding) == expected

    async def server_holds_its_text(self) -> None:
        """tileLsp/documentText: the server's copy is the client's text, version and all."""
        got = await self.client.protocol.send_request_async("tileLsp/documentText", {"uri": self.uri})
        got = got if isinstance(got, dict) else {k: getattr(got, k) for k in ("uri", "version", "text")}
        assert (got["version"], got["text"]) == (self.version, self.text)

    def offset(self, pos: lsp.Position) -> int:
        return text_model.offset_of(self.text, pos.line, pos.character, self.encoding)


@pytest.mark.asyncio(loop_scope="module")
async def test_incremental_edits_after_odd_line_breaks_then_format(client: LanguageClient, tmp_path: pathlib.Path):
    log = record_publishes(client)
    uri = (tmp_path / "sync.mlir").as_uri()
    ed = _Editor(client, uri, _document())
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id="mlir", version=1, text=ed.text))
    )
    # What the user of the issue typed: a constant's value, below the form feed.
    ed.replace("<i32: 1>", "<i32: 7>", after="%cst_1_i32_1 =")
    at = ed.text.index("  %tview =")
    ed.change((at, at, "  // typed é\U0001f600 here\n"), (at, at, "  %c2 = constant <i32: 2> : tile<i32>\n"))
    ed.replace('"inputs must', '"inputs é\U0001f600 must')  # wide characters before tokens on the line
    ed.replace("%2 = cmpf", "%2   =   cmpf")
    at = ed.text.index("// the end")
    ed.change((at, at, "\r"))  # a lone \r: a new line for LSP
    ed.replace("\U0001f600", "\U0001f9ea", after="// the end")
    await until_published(log, uri, ed.version, lambda d: True)
    await ed.server_holds_its_text()

    await ed.formats_as_its_text()

    # Semantic tokens: each decoded range holds what its type says.
    tokens = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )
    assert tokens is not None and tokens.data
    line = col = 0
    seen = set()
    for i in range(0, len(tokens.data), 5):
        d_line, d_col, length, kind, _ = tokens.data[i : i + 5]
        line, col = line + d_line, (col + d_col if d_line == 0 else d_col)
        start = ed.offset(lsp.Position(line, col))
        end = ed.offset(lsp.Position(line, col + length))
        word, what = ed.text[start:end], TOKEN_TYPES[kind]
        seen.add((what, word))
        assert word and not any(c in word for c in "\r\n"), (line, col, word)
        if what in ("variable", "parameter"):
            assert word.startswith("%"), (line, col, word, what)
        elif what == "comment":
            assert word.startswith("//"), (line, col, word)
        elif what == "string":
            assert word.startswith('"') and word.endswith('"'), (line, col, word)
    assert ("comment", "// typed é\U0001f600 here") in seen
    assert {("comment", "// a lone"), ("comment", "// carriage return")} <= seen  # a lone \r ends a comment
    assert ("string", '"inputs é\U0001f600 must be non-negative"') in seen
    assert ("variable", "%c2") in seen

    # A diagnostic's range, on a line after all of it.
    ed.replace("%2   =   cmpf", "%2   =   cmpff")
    found = await until_published(log, uri, ed.version, lambda d: bool(d))
    (diag,) = [d for d in found.diagnostics if "cmpff" in d.message]
    assert ed.text[ed.offset(diag.range.start) : ed.offset(diag.range.end)].startswith("cmpff")

    ed.replace("cmpff", "cmpf")

    # Positions past a line's end and past the last line clamp (as VS Code does).
    last = len(text_model.lines(ed.text)) - 1
    ed.version += 1
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=ed.version),
            content_changes=[
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(last + 5, 0), lsp.Position(last + 9, 3)), text="\n// appended"
                ),
                lsp.TextDocumentContentChangePartial(range=lsp.Range(lsp.Position(0, 9999), lsp.Position(0, 9999)), text=" "),
            ],
        )
    )
    first_end = ed.text.index("\n")
    ed.text = ed.text[:first_end] + " " + ed.text[first_end:] + "\n// appended"
    await until_published(log, uri, ed.version, lambda d: True)
    symbols = await client.text_document_document_symbol_async(
        lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
    )
    assert symbols
    entry = symbols[0]
    assert isinstance(entry, lsp.DocumentSymbol)
    picked = ed.text[ed.offset(entry.selection_range.start) : ed.offset(entry.selection_range.end)]
    assert picked.lstrip("@") == entry.name and ed.text[ed.offset(entry.range.start) :].startswith("entry")
    await ed.server_holds_its_text()
    await ed.formats_as_its_text()
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    await asyncio.sleep(0)
    closed = await client.protocol.send_request_async("tileLsp/documentText", {"uri": uri})
    assert closed is None  # (not open: no text)
