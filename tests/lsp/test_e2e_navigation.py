"""End to end over stdio on real kernels: definition, references, highlight, rename, symbols,
folding, hover, UTF-16 positions, settings, diagnostics versioning and close.
"""

from __future__ import annotations

import asyncio
import pathlib
from typing import Any

import pytest
from lsp_helpers import record_publishes
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
LOOPS = (DATA / "control_flow.mlir").read_text()  # searchsorted: loop/for/if, block args, result groups
ARGMAX = (DATA / "argmax.mlir").read_text()  # reduce regions with block arguments
VECTOR_ADD = (DATA / "vector_add.mlir").read_text()  # two bare entries
MODULE = """// Kernels for the café ☕ demo 😀: comments may hold any Unicode.
cuda_tile.module @kernels {
  global @scale <f32: [2.0]> : tile<1xf32>

  entry @scaled(%x: tile<f32>) {
    %p = get_global @scale : tile<ptr<f32>>
    %b = addf %x, %x : tile<f32>
    print "é 😀 %f", %b : tile<f32>
    return
  }

  entry @forward(%a: tile<f32>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %r = for %i in (%c0 to %n, step %c1) : tile<i32> iter_values(%acc = %a) -> (tile<f32>) {
      %earlier = mulf %acc, %acc : tile<f32>
      %next = addf %earlier, %acc : tile<f32>
      continue %next : tile<f32>
    }
    return
  }
}
"""
A, B = "file:///tmp/nav_a.mlir", "file:///tmp/nav_b.mlir"
TIMEOUT_S = 10.0


# --------------------------------------------------------------------------- helpers
def _pos(text: str, needle: str, nth: int = 0, delta: int = 0) -> lsp.Position:
    """The LSP position (UTF-16 column) of the nth `needle` in `text`, plus `delta` characters."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += delta
    line = text.count("\n", 0, at)
    line_start = text.rfind("\n", 0, at) + 1
    return lsp.Position(line=line, character=len(text[line_start:at].encode("utf-16-le")) // 2)


def _in(text: str, needle: str, nth: int = 0) -> lsp.Position:
    """A cursor inside the nth `needle` (one character in)."""
    return _pos(text, needle, nth, 1)


def _start(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    p = _pos(text, needle, nth)
    return p.line, p.character


def _starts(found: Any) -> list[tuple[int, int]]:
    """Start (line, character) of every location/highlight/range, sorted."""
    ranges = [getattr(f, "range", f) for f in found or []]
    return sorted((r.start.line, r.start.character) for r in ranges)


def _doc(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)


async def _published(
    log: list[lsp.PublishDiagnosticsParams], uri: str, version: int | None
) -> lsp.PublishDiagnosticsParams:
    """The first publish for `uri` (for `version`, when given) in `log`, waiting for it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT_S
    while loop.time() < deadline:
        for params in log:
            if params.uri == uri and (version is None or params.version == version):
                return params
        await asyncio.sleep(0.005)
    raise AssertionError(f"no diagnostics for {uri} version {version}: got {[(p.uri, p.version) for p in log]}")


async def _open(client: LanguageClient, uri: str, text: str) -> list[lsp.Diagnostic]:
    """Open `uri` and return its first diagnostics."""
    log = record_publishes(client)
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="cuda-tile", version=1, text=text)
        )
    )
    return list((await _published(log, uri, 1)).diagnostics)


def _change(client: LanguageClient, uri: str, version: int, start: lsp.Position, end: lsp.Position, text: str) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangePartial(range=lsp.Range(start=start, end=end), text=text)],
        )
    )


async def _definition(client: LanguageClient, uri: str, pos: lsp.Position) -> list[tuple[int, int]]:
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=_doc(uri), position=pos))
    return _starts(found)


async def _references(client: LanguageClient, uri: str, pos: lsp.Position, declaration: bool) -> list[tuple[int, int]]:
    found = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=_doc(uri), position=pos, context=lsp.ReferenceContext(include_declaration=declaration)
        )
    )
    return _starts(found)


async def _hover(client: LanguageClient, uri: str, pos: lsp.Position) -> str:
    found = await client.text_document_hover_async(lsp.HoverParams(text_document=_doc(uri), position=pos))
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    return found.contents.value


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """Apply LSP edits to `text` (UTF-16 columns), last first so earlier offsets stay valid."""
    lines = text.splitlines(keepends=True)

    def offset(p: lsp.Position) -> int:
        line = lines[p.line]
        col, units = 0, 0
        while units < p.character:
            units += 2 if ord(line[col]) > 0xFFFF else 1
            col += 1
        return sum(len(x) for x in lines[: p.line]) + col

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


# --------------------------------------------------------------------------- definition
@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_values_and_block_arguments(client: LanguageClient):
    assert await _open(client, A, LOOPS) == []
    assert await _open(client, B, ARGMAX) == []
    cases = [
        (A, LOOPS, _in(LOOPS, "%loopIdx", 1), _start(LOOPS, "%loopIdx")),  # `for` induction variable
        (A, LOOPS, _in(LOOPS, "%iterArg0", 2), _start(LOOPS, "%iterArg0")),  # `for` iter_values argument
        (A, LOOPS, _in(LOOPS, "%arg13", 1), _start(LOOPS, "%arg13 =")),  # `loop` iter_values argument
        (A, LOOPS, _in(LOOPS, "%arg12", 1), _start(LOOPS, "%arg12")),  # entry argument
        (A, LOOPS, _in(LOOPS, "%8#1"), _start(LOOPS, "%8:2")),  # one result of a result group
        (A, LOOPS, _in(LOOPS, "%reshape_23,"), _start(LOOPS, "%reshape_23 =")),  # value in a region
        (B, ARGMAX, _in(ARGMAX, "%reduce_lhs,"), _start(ARGMAX, "%reduce_lhs:")),  # `reduce` block argument
        (B, ARGMAX, _in(ARGMAX, "%reduce_rhs0,"), _start(ARGMAX, "%reduce_rhs0:")),
    ]
    for uri, _, pos, expected in cases:
        assert await _definition(client, uri, pos) == [expected], (uri, pos)
    # On an op name or a type there is nothing to go to.
    assert await _definition(client, A, _in(LOOPS, "make_token")) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_forward_references_and_globals(client: LanguageClient):
    # Half-edited code: `%later` is used one line before it is defined. That is an error
    # (the definition cannot dominate the use), and navigation still finds the definition.
    forward = MODULE.replace(
        "%earlier = mulf %acc, %acc : tile<f32>\n      %next = addf %earlier, %acc : tile<f32>",
        "%next = addf %later, %acc : tile<f32>\n      %later = mulf %acc, %acc : tile<f32>",
    )
    c = "file:///tmp/nav_forward.mlir"
    assert [d.message for d in await _open(client, c, forward)] == [
        "'cuda_tile.addf' op operand #0 does not dominate this use"
    ]
    assert await _definition(client, c, _in(forward, "%later,")) == [_start(forward, "%later =")]
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=_doc(c)))
    await _open(client, A, MODULE)
    # `get_global @scale` goes to the global; so does the global's own name.
    assert await _definition(client, A, _in(MODULE, "@scale :")) == [_start(MODULE, "@scale <")]
    assert await _definition(client, A, _in(MODULE, "@scale <")) == [_start(MODULE, "@scale <")]


# --------------------------------------------------------------------------- references, highlight
@pytest.mark.asyncio(loop_scope="module")
async def test_references_with_and_without_the_declaration(client: LanguageClient):
    await _open(client, A, LOOPS)
    uses = [_start(LOOPS, "%iterArg0", n) for n in (1, 2, 3)]
    decl = _start(LOOPS, "%iterArg0")
    assert await _references(client, A, _in(LOOPS, "%iterArg0", 2), True) == sorted([decl, *uses])
    assert await _references(client, A, _in(LOOPS, "%iterArg0", 2), False) == uses
    # From the definition of a result group, the uses of every result (`%1#1`) count.
    group_uses = [_start(LOOPS, "%1#1"), _start(LOOPS, "%1#1", 1)]
    assert await _references(client, A, _in(LOOPS, "%1:2"), False) == group_uses
    await _open(client, B, MODULE)
    scale = _start(MODULE, "@scale <"), _start(MODULE, "@scale :")
    assert await _references(client, B, _in(MODULE, "@scale :"), True) == sorted(scale)
    assert await _references(client, B, _in(MODULE, "@scale <"), False) == [scale[1]]


@pytest.mark.asyncio(loop_scope="module")
async def test_document_highlight_marks_definitions_as_writes(client: LanguageClient):
    await _open(client, A, LOOPS)
    found = await client.text_document_document_highlight_async(
        lsp.DocumentHighlightParams(text_document=_doc(A), position=_in(LOOPS, "%arg13", 2))
    )
    kinds = sorted(((h.range.start.line, h.range.start.character), h.kind) for h in found or [])
    writes = [pos for pos, kind in kinds if kind == lsp.DocumentHighlightKind.Write]
    reads = [pos for pos, kind in kinds if kind == lsp.DocumentHighlightKind.Read]
    assert writes == [_start(LOOPS, "%arg13 =")]
    assert reads == [_start(LOOPS, "%arg13", n) for n in range(1, 5)]


# --------------------------------------------------------------------------- rename
async def _rename(client: LanguageClient, uri: str, pos: lsp.Position, new_name: str) -> list[lsp.TextEdit]:
    found = await client.text_document_rename_async(
        lsp.RenameParams(text_document=_doc(uri), position=pos, new_name=new_name)
    )
    assert found is not None and found.changes is not None
    return list(found.changes[uri])


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_values_keeps_the_kernel_valid(client: LanguageClient):
    await _open(client, A, LOOPS)
    prepared = await client.text_document_prepare_rename_async(
        lsp.PrepareRenameParams(text_document=_doc(A), position=_in(LOOPS, "%8#1"))
    )
    assert isinstance(prepared, lsp.PrepareRenamePlaceholder)
    assert prepared.placeholder == "%8"  # the name, not the result number
    assert (prepared.range.end.character - prepared.range.start.character) == 2
    edits = await _rename(client, A, _in(LOOPS, "%8#1"), "%pair")
    renamed = _apply(LOOPS, edits)
    assert "%pair:2 = if" in renamed and "continue %pair#0, %pair#1" in renamed and "%8" not in renamed
    # A block argument, renamed without its sigil; the result parses with no diagnostics.
    renamed = _apply(renamed, await _rename(client, A, _in(LOOPS, "%loopIdx"), "i"))
    assert "for %i in" in renamed and "addi %1#1, %i :" in renamed
    assert await _open(client, B, renamed) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_symbols_through_get_global(client: LanguageClient):
    await _open(client, A, MODULE)
    prepared = await client.text_document_prepare_rename_async(
        lsp.PrepareRenameParams(text_document=_doc(A), position=_in(MODULE, "@scale :"))
    )
    assert isinstance(prepared, lsp.PrepareRenamePlaceholder) and prepared.placeholder == "@scale"
    renamed = _apply(MODULE, await _rename(client, A, _in(MODULE, "@scale :"), "factor"))
    assert "global @factor <" in renamed and "get_global @factor :" in renamed and "@scale " not in renamed
    assert await _open(client, B, renamed) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_rejects_invalid_names(client: LanguageClient):
    await _open(client, A, MODULE)
    for pos, bad in [
        (_in(MODULE, "%b ="), "1st"),  # not a valid SSA name
        (_in(MODULE, "%b ="), "%x"),  # already defined in this scope (the entry argument)
        (_in(MODULE, "@scale :"), "not a name"),
        (_in(MODULE, "@scale :"), "forward"),  # an existing symbol
    ]:
        with pytest.raises(JsonRpcException):
            await client.text_document_rename_async(lsp.RenameParams(text_document=_doc(A), position=pos, new_name=bad))
    # Ops are not renameable: prepareRename says so with no range.
    assert (
        await client.text_document_prepare_rename_async(
            lsp.PrepareRenameParams(text_document=_doc(A), position=_in(MODULE, "addf"))
        )
        is None
    )


# --------------------------------------------------------------------------- symbols, folding
async def _symbols(client: LanguageClient, uri: str) -> list[lsp.DocumentSymbol]:
    found = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=_doc(uri)))
    assert found is not None and all(isinstance(s, lsp.DocumentSymbol) for s in found)
    return found  # type: ignore[return-value]


def _encloses(outer: lsp.Range, inner: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character

    return key(outer.start) <= key(inner.start) and key(inner.end) <= key(outer.end)


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols_module_then_globals_and_entries(client: LanguageClient):
    await _open(client, A, MODULE)
    (module,) = await _symbols(client, A)
    assert (module.name, module.kind) == ("kernels", lsp.SymbolKind.Module)
    children = [(c.name, c.kind, c.detail) for c in module.children or []]
    assert children == [
        ("scale", lsp.SymbolKind.Variable, "tile<1xf32>"),
        ("scaled", lsp.SymbolKind.Function, "(tile<f32>)"),
        ("forward", lsp.SymbolKind.Function, "(tile<f32>, tile<i32>)"),
    ]
    for child in module.children or []:
        assert _encloses(module.range, child.range) and _encloses(child.range, child.selection_range)
    assert module.range.end.line == MODULE.rstrip().count("\n")  # through the closing brace
    scaled = (module.children or [])[1]
    assert (scaled.selection_range.start.line, scaled.selection_range.start.character) == _start(MODULE, "@scaled")


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols_of_bare_entries(client: LanguageClient):
    await _open(client, A, VECTOR_ADD)
    found = await _symbols(client, A)
    assert [s.name.split("_Kt")[0] for s in found] == ["vector_add", "vector_add"]
    assert all(s.kind == lsp.SymbolKind.Function and not s.children for s in found)
    assert found[0].range.end.line <= found[1].range.start.line


@pytest.mark.asyncio(loop_scope="module")
async def test_workspace_symbols_span_open_files(client: LanguageClient):
    await _open(client, A, MODULE)
    await _open(client, B, VECTOR_ADD)
    found = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="")) or []
    by_uri: dict[str, list[str]] = {}
    for sym in found:
        assert isinstance(sym, lsp.SymbolInformation)
        by_uri.setdefault(sym.location.uri, []).append(sym.name)
    assert sorted(by_uri[A]) == ["forward", "kernels", "scale", "scaled"]
    assert len(by_uri[B]) == 2
    scal = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="SCAL")) or []
    assert sorted((s.name, s.container_name) for s in scal) == [("scale", "kernels"), ("scaled", "kernels")]  # type: ignore[union-attr]
    assert [s.location.range.start for s in scal if s.name == "scaled"] == [_pos(MODULE, "@scaled")]  # type: ignore[union-attr]


@pytest.mark.asyncio(loop_scope="module")
async def test_folding_ranges_cover_entries_and_regions(client: LanguageClient):
    await _open(client, A, LOOPS)
    found = await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=_doc(A)))
    ranges = {(r.start_line, r.end_line) for r in found or []}
    last = LOOPS.rstrip().count("\n")
    loop_start, loop_end = _start(LOOPS, "loop iter_values")[0], _start(LOOPS, "%reshape_14")[0] - 1
    assert (0, last) in ranges  # the entry
    assert (loop_start, loop_end) in ranges  # the `loop` region
    assert (_start(LOOPS, "%8:2 = if")[0], _start(LOOPS, "continue %8#0")[0] - 1) in ranges  # if/else
    assert all(a < b for a, b in ranges)


# --------------------------------------------------------------------------- hover
@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_op_value_type_and_symbol(client: LanguageClient):
    await _open(client, A, MODULE)
    op = await _hover(client, A, _in(MODULE, "addf"))
    assert op.startswith("**cuda_tile.addf**") and "Operands: `tile<f32>`, `tile<f32>`" in op
    assert "rounding_mode" in op  # what the attribute means, in our words
    value = await _hover(client, A, _in(MODULE, "%acc,"))
    assert value.startswith("`%acc`: `tile<f32>`") and "Block argument of `for`" in value
    result = await _hover(client, A, _in(MODULE, "%p ="))
    assert "`tile<ptr<f32>>`" in result and "Defined by `get_global`" in result
    type_ = await _hover(client, A, _in(MODULE, "tile<1xf32>"))
    assert "shape 1" in type_ and "4 bytes" in type_
    symbol = await _hover(client, A, _in(MODULE, "@scale :"))
    assert "global @scale <f32: [2.0]> : tile<1xf32>" in symbol
    entry = await _hover(client, A, _in(MODULE, "@forward"))
    assert "entry @forward(%a: tile<f32>, %n: tile<i32>)" in entry


# --------------------------------------------------------------------------- UTF-16
@pytest.mark.asyncio(loop_scope="module")
async def test_positions_after_non_ascii_text_are_utf16(client: LanguageClient):
    """é is one UTF-16 unit, 😀 two: columns after them differ from Python's character count."""
    assert await _open(client, A, MODULE) == []
    print_b = _in(MODULE, "%b : tile<f32>")
    assert print_b.character == MODULE.splitlines()[7].index("%b") + 1 + 1  # the emoji's extra unit
    assert await _definition(client, A, print_b) == [_start(MODULE, "%b =")]
    found = await client.text_document_hover_async(lsp.HoverParams(text_document=_doc(A), position=print_b))
    assert found is not None and found.range is not None
    assert (found.range.start, found.range.end.character) == (_pos(MODULE, "%b : tile<f32>"), print_b.character + 1)
    # Break that use (`%b` -> `%bz`): the diagnostic's range starts at its UTF-16 column.
    log = record_publishes(client)
    after_b = _pos(MODULE, "%b : tile<f32>", 0, 2)
    _change(client, A, 2, after_b, after_b, "z")
    (diag,) = (await _published(log, A, 2)).diagnostics
    assert diag.message == "use of undeclared SSA value name '%bz'"
    assert diag.range.start == _pos(MODULE, "%b : tile<f32>")


# --------------------------------------------------------------------------- settings
async def _settings(client: LanguageClient) -> dict[str, Any]:
    found = await client.protocol.send_request_async("tileLsp/settings", {})
    return found if isinstance(found, dict) else found._asdict()  # pygls: a namedtuple for custom methods


@pytest.mark.asyncio(loop_scope="module")
async def test_settings_from_initialization_options_and_configuration_changes(client: LanguageClient):
    # conftest initializes with {"gpuName": "sm_90"}; the rest are the schema's defaults.
    first = await _settings(client)
    assert first["gpuName"] == "sm_90" and first["optLevel"] == 3 and first["lineinfo"] is True
    assert set(first) == {
        "gpuName",
        "computeCapability",
        "optLevel",
        "lineinfo",
        "ptxasPath",
        "previewOnSave",
        "previewDir",
        "pipelineTimeout",
        "maxFileSize",
    }
    client.workspace_did_change_configuration(
        lsp.DidChangeConfigurationParams(settings={"tileLsp": {"optLevel": 1, "lineinfo": False, "previewDir": "out"}})
    )
    changed = await _settings(client)
    assert (changed["optLevel"], changed["lineinfo"], changed["previewDir"]) == (1, False, "out")
    assert changed["gpuName"] == "sm_90"  # keys not sent keep their values
    # Ill-typed values are ignored, flat (un-nested) settings are accepted.
    client.workspace_did_change_configuration(
        lsp.DidChangeConfigurationParams(settings={"optLevel": "fast", "computeCapability": 90})
    )
    last = await _settings(client)
    assert (last["optLevel"], last["computeCapability"]) == (1, 90)


# --------------------------------------------------------------------------- diagnostics lifecycle
@pytest.mark.asyncio(loop_scope="module")
async def test_an_old_version_is_never_published_after_a_newer_one(client: LanguageClient):
    assert await _open(client, A, MODULE) == []
    log = record_publishes(client)
    version = 1
    for _ in range(5):  # several rounds: a race would only show sometimes
        old, new = version + 1, version + 2
        at = _pos(MODULE, "%x, %x", 0, 2)
        _change(client, A, old, at, at, "q")  # %x -> %xq: an undeclared value
        _change(client, A, new, at, _pos(MODULE, "%x, %x", 0, 3), "")  # and straight back: no errors
        await _published(log, A, new)
        await asyncio.sleep(0.1)  # anything stale would arrive now
        versions = [p.version or 0 for p in log if p.uri == A]
        assert versions == sorted(versions), versions
        assert log[-1].version == new and list(log[-1].diagnostics) == []
        version = new


@pytest.mark.asyncio(loop_scope="module")
async def test_closing_clears_diagnostics(client: LanguageClient):
    broken = MODULE.replace("%x, %x", "%y, %x")
    diags = await _open(client, A, broken)
    assert [d.message for d in diags] == ["use of undeclared SSA value name '%y'"]
    assert diags[0].source == "tile-lsp(cuda_tile)"
    log = record_publishes(client)
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(text_document=_doc(A)))
    cleared = await _published(log, A, None)
    assert list(cleared.diagnostics) == []
    assert await _definition(client, A, _in(broken, "%b : tile")) == []  # closed: nothing to navigate
