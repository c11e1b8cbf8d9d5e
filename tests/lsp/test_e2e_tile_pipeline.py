"""The whole pipeline on a cuda_tile document, end to end over stdio with a real LSP client:
as-you-type stage diagnostics at the source line, the missing target once (with its quick fix),
hover sections (tileaa, gpu, NVVM, PTX, layout) whose lines really are in those stages, code
lenses per entry, preview files with their line map on save, and the cross-stage links:
definition from a PTX line to its cuda_tile op, implementation and references from an op to
its lowered lines."""

from __future__ import annotations

import asyncio
import json
import pathlib
import shutil
import sys

import pytest
import pytest_lsp
from lsp_helpers import (
    configure,
    doc_id,
    open_document,
    record_publishes,
    replace_all,
    until_listing,
    until_published,
    view_stage,
)
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

TIMEOUT_S = 90.0  # a compile, on a loaded 2-core machine
ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "vector_add.mlir").read_text(encoding="utf-8")
HAS_PTXAS = shutil.which("ptxas") is not None or pathlib.Path("/usr/local/cuda/bin/ptxas").exists()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), initialization_options={"gpuName": "sm_90a"})
    )
    yield
    await lsp_client.shutdown_session()


def _pos(text: str, needle: str, offset: int = 0) -> lsp.Position:
    at = text.index(needle) + offset
    line = text.count("\n", 0, at)
    return lsp.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


@pytest.mark.asyncio(loop_scope="module")
async def test_missing_target_once_at_the_entry(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName=None, computeCapability=None)
    uri = (tmp_path / "nt.mlir").as_uri()
    log = record_publishes(client)
    open_document(client, uri, EXAMPLE, language="cuda_tile")
    published = await until_published(log, uri, 1, lambda d: len(d) > 0)
    (diag,) = published.diagnostics  # once, though the file could need it at every stage
    assert diag.message == "invalid or missing --compute-capability option"
    assert diag.source == "tile-lsp(tileaa)"
    entry_line = _pos(EXAMPLE, "entry @vector_add").line
    assert diag.range.start.line == entry_line and diag.range.end.line == entry_line  # the entry's line only
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(text_document=doc_id(uri), range=diag.range, context=lsp.CodeActionContext(diagnostics=[diag]))
    )
    titles = [a.title for a in actions or []]
    assert "Set tileLsp.gpuName to sm_90a" in titles
    configure(client, gpuName="sm_90a")
    await until_published(log, uri, 1, lambda d: len(d) == 0)  # the same version, re-checked with a target


@pytest.mark.asyncio(loop_scope="module")
async def test_gpu_stage_error_lands_on_the_source_op(client: LanguageClient, tmp_path: pathlib.Path):
    """A stage diagnostic of a cuda_tile document, as the user types: at the op's line, with the
    stage as the LSP source; fixing the text removes it (same document, new version)."""
    configure(client, gpuName="sm_90a")
    uri = (tmp_path / "fp4.mlir").as_uri()
    log = record_publishes(client)
    # An fp4 load: the front end accepts it, the gpu stage does not lower fp4 memory (packed two
    # per byte) yet.
    load = ("    %q_p = ptr_to_ptr %a_v : tile<128xptr<f32>> -> tile<128xptr<f4E2M1FN>>\n"
            "    %q, %tq = load_ptr_tko weak %q_p : tile<128xptr<f4E2M1FN>> -> tile<128xf4E2M1FN>, token\n")
    text = EXAMPLE.replace("    %a_p = offset", load + "    %a_p = offset", 1)
    open_document(client, uri, text, language="cuda_tile")
    published = await until_published(log, uri, 1, lambda d: any(x.source == "tile-lsp(gpu)" for x in d))
    (diag,) = published.diagnostics  # the front end has nothing to say; the gpu stage, once
    assert diag.source == "tile-lsp(gpu)" and diag.severity == lsp.DiagnosticSeverity.Error
    assert diag.message == ("not yet supported by the gpu stage: 'cuda_tile.load_ptr_tko' "
                            "(nv_tileaa.load: f4E2M1FN in memory (packed two per byte))")
    line = _pos(text, "load_ptr_tko weak %q_p").line
    assert diag.range.start.line == line == diag.range.end.line
    ptx = await view_stage(client, uri, "ptx")
    assert ptx["ok"] is False and "not yet supported by the gpu stage" in ptx["output"]
    # Typing the fix: the next version is clean, the stage diagnostic gone.
    replace_all(client, uri, 2, EXAMPLE)
    await until_published(log, uri, 2, lambda d: len(d) == 0)
    await asyncio.sleep(0.3)
    assert list([p for p in log if p.uri == uri][-1].diagnostics) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_what_the_op_became(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_90a")
    uri = (tmp_path / "va.mlir").as_uri()
    log = record_publishes(client)
    open_document(client, uri, EXAMPLE, language="cuda_tile")
    await until_published(log, uri, 1, lambda d: len(d) == 0)
    ptx = (await view_stage(client, uri, "ptx"))["output"]
    gpu = (await view_stage(client, uri, "gpu"))["output"]
    at = _pos(EXAMPLE, "addf %x, %y", 1)
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc_id(uri), position=at))
    assert hover is not None
    text = hover.contents.value  # type: ignore[union-attr]
    for title in ("**tileaa**", "**gpu**", "**NVVM**", "**PTX** (sm_90a)", "**Layout** (gpu stage)"):
        assert title in text, text
    assert "128 elements over 128 threads" in text
    # The PTX lines shown are lines of the PTX (tidied: no indentation), e.g. the add itself.
    section = text.split("**PTX** (sm_90a)", 1)[1].split("```ptx\n", 1)[1].split("```", 1)[0]
    shown = [line for line in section.splitlines() if line.strip()]
    ptx_lines = {" ".join(line.split()) for line in ptx.splitlines()}
    assert shown and all(" ".join(line.split()) in ptx_lines for line in shown), (shown, ptx[:2000])
    assert any(line.startswith("add.f32") or line.startswith("add.rn.f32") for line in shown), shown
    gpu_section = text.split("**gpu**", 1)[1].split("```mlir\n", 1)[1].split("```", 1)[0]
    assert any("arith.addf" in line for line in gpu_section.splitlines()), gpu_section
    assert all(" ".join(line.split()) in {" ".join(g.split()) for g in gpu.splitlines()} for line in gpu_section.splitlines() if line.strip())


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
@pytest.mark.asyncio(loop_scope="module")
async def test_code_lens_per_entry(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_90a")
    uri = (tmp_path / "lens.mlir").as_uri()
    open_document(client, uri, EXAMPLE, language="cuda_tile")
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(text_document=doc_id(uri)))
    assert lenses is not None and len(lenses) == 2
    resources, show = lenses
    entry_line = _pos(EXAMPLE, "entry @vector_add").line
    assert resources.range.start.line == entry_line == show.range.start.line
    assert resources.command is not None and resources.command.title.startswith("sm_90a · ")
    assert " regs · 0 spills · " in resources.command.title
    assert show.command is not None and show.command.title == "Show PTX"


@pytest.mark.asyncio(loop_scope="module")
async def test_previews_and_cross_stage_navigation(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_90a", previewOnSave=True, previewDir=".tile-lsp")
    path = tmp_path / "va.mlir"
    path.write_text(EXAMPLE)
    uri = path.as_uri()
    log = record_publishes(client)
    open_document(client, uri, EXAMPLE, language="cuda_tile")
    await until_published(log, uri, 1, lambda d: len(d) == 0)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=doc_id(uri)))
    preview = tmp_path / ".tile-lsp"
    names = ["va.tileaa.mlir", "va.gpu.mlir", "va.nvvm.mlir", "va.llvm.mlir", "va.ll", "va.ptx", "va.map.json"]
    expected = sorted([*names, ".tile-lsp-manifest.json"])
    assert await until_listing(preview, expected) == expected
    mapping = json.loads((preview / "va.map.json").read_text())
    assert mapping["source"] == str(path)
    ptx_text = (preview / "va.ptx").read_text()
    assert ".entry vector_add" in ptx_text
    add_line = _pos(EXAMPLE, "addf %x, %y").line

    # implementation: from the addf op to its lines in every preview file
    impl = await client.text_document_implementation_async(
        lsp.ImplementationParams(text_document=doc_id(uri), position=_pos(EXAMPLE, "addf %x, %y", 1))
    )
    assert impl, "no lowered lines"
    files = {pathlib.Path(loc.uri.removeprefix("file://")).name for loc in impl}  # type: ignore[union-attr]
    assert {"va.tileaa.mlir", "va.gpu.mlir", "va.nvvm.mlir", "va.ptx"} <= files, files
    ptx_locs = [loc for loc in impl if loc.uri.endswith("va.ptx")]  # type: ignore[union-attr]
    ptx_lines = ptx_text.splitlines()
    lowered = [ptx_lines[n] for loc in ptx_locs for n in range(loc.range.start.line, loc.range.end.line)]  # type: ignore[union-attr]
    assert any("add" in line and "f32" in line for line in lowered), lowered

    # definition: from that PTX line back to the addf op
    ptx_uri = (preview / "va.ptx").as_uri()
    open_document(client, ptx_uri, ptx_text, language="ptx")
    first = ptx_locs[0].range.start.line  # type: ignore[union-attr]
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=doc_id(ptx_uri), position=lsp.Position(line=first, character=2))
    )
    assert found, "no definition from the PTX line"
    (loc,) = found  # type: ignore[misc]
    assert loc.uri == uri and loc.range.start.line == add_line  # type: ignore[union-attr]
    # The PTX document itself gets no MLIR diagnostics.
    ptx_published = await until_published(log, ptx_uri, 1, lambda d: True)
    assert list(ptx_published.diagnostics) == []
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc_id(ptx_uri), position=lsp.Position(line=first, character=2)))
    assert hover is not None and "addf" in hover.contents.value  # type: ignore[union-attr]

    # references on the op's name: every lowered line; on its result: the value's uses only
    refs = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=doc_id(uri), position=_pos(EXAMPLE, "addf %x, %y", 1), context=lsp.ReferenceContext(include_declaration=True)
        )
    )
    assert refs is not None
    assert sorted((r.uri, r.range.start.line) for r in refs) == sorted((loc.uri, loc.range.start.line) for loc in impl)  # type: ignore[union-attr]
    value_refs = await client.text_document_references_async(
        lsp.ReferenceParams(
            text_document=doc_id(uri), position=_pos(EXAMPLE, "%sum = addf", 1), context=lsp.ReferenceContext(include_declaration=True)
        )
    )
    assert value_refs is not None and {r.uri for r in value_refs} == {uri} and len(value_refs) == 2  # def + the store
