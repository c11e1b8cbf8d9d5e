"""The background pipeline in the editor, end to end over stdio: stage diagnostics with their
stage as LSP `source`, the missing-target diagnostic and its quick fixes, tileLsp/viewStage
(request and command), code lenses, preview files on save, stale versions never published, and
a pipeline timeout that leaves the server answering."""

from __future__ import annotations

import ast
import asyncio
import pathlib
import shutil
import sys
import time

import pytest
import pytest_lsp
from lsp_helpers import (
    configure,
    open_document,
    record_publishes,
    record_timeline,
    replace_all,
    until_listing,
    until_published,
    view_stage,
)
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient

TIMEOUT_S = 60.0
CUTILE = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
HAS_PTXAS = shutil.which("ptxas") is not None or pathlib.Path("/usr/local/cuda/bin/ptxas").exists()

KERNEL = (pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "upstream" / "scale.mlir").read_text(encoding="utf-8")

# An sm_90a-only nvvm op: with gpuName sm_80 the nvvm -> llvm stage rejects it (at line 3).
WGMMA = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fence(%a: memref<128xf32, 1>) kernel {
      nvvm.wgmma.fence.aligned
      gpu.return
    }
  }
}
"""

# The verifier rejects a non-barrier operand at parse time already (line 2).
MBARRIER = """func.func @f(%m: memref<1xi64, 3>, %n: index) {
  %c0 = arith.constant 0 : index
  "nvgpu.mbarrier.init"(%m, %n, %c0) : (memref<1xi64, 3>, index, index) -> ()
  return
}
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "tile_lsp", "serve"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(window=lsp.WindowClientCapabilities(show_document=lsp.ShowDocumentClientCapabilities(support=True))),
            initialization_options={"gpuName": "sm_90a", "previewOnSave": True},
        )
    )
    yield
    await lsp_client.shutdown_session()


def _has_stage(diags: list[lsp.Diagnostic]) -> bool:
    return any(d.source not in ("tile-lsp(mlir)", "tile-lsp(cuda_tile)") for d in diags)


def _as_code_action(item: lsp.Command | lsp.CodeAction) -> lsp.CodeAction:
    """lsprotocol's client side reads any code action that has a `command` as a Command (the
    command object stringified); editors read the JSON as it is. Undo that here."""
    if isinstance(item, lsp.CodeAction):
        return item
    command = ast.literal_eval(item.command)
    return lsp.CodeAction(
        title=item.title,
        kind=lsp.CodeActionKind.QuickFix,
        command=lsp.Command(command["title"], command["command"], arguments=command.get("arguments")),
        is_preferred=item.title == "Set tileLsp.gpuName to sm_90a" or None,
    )


def _hover_params(uri: str, line: int, character: int) -> lsp.HoverParams:
    return lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=lsp.Position(line=line, character=character))


@pytest.mark.asyncio(loop_scope="module")
async def test_front_end_error_in_upstream_file(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "mbar.mlir").as_uri()
    log = record_publishes(client)
    open_document(client, uri, MBARRIER)
    published = await until_published(log, uri, 1, lambda d: len(d) > 0)
    (diag,) = published.diagnostics
    assert "must be mbarrier barrier type, but got 'memref<1xi64, 3>'" in diag.message
    assert diag.range.start.line == 2 and diag.source == "tile-lsp(mlir)"


@pytest.mark.asyncio(loop_scope="module")
async def test_stage_only_diagnostic_at_its_line(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_80")
    uri = (tmp_path / "wgmma.mlir").as_uri()
    log = record_publishes(client)
    open_document(client, uri, WGMMA)
    published = await until_published(log, uri, 1, _has_stage)
    (diag,) = published.diagnostics
    assert diag.message == "'nvvm.wgmma.fence.aligned' requires sm_90a but the target is sm_80"
    assert diag.source == "tile-lsp(llvm)"
    assert diag.range.start.line == 3 and diag.severity == lsp.DiagnosticSeverity.Error
    # The right target: the stage diagnostic goes away (the same version is re-checked).
    configure(client, gpuName="sm_90a")
    await until_published(log, uri, 1, lambda d: len(d) == 0)


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
@pytest.mark.asyncio(loop_scope="module")
async def test_stage_diagnostics_are_published_before_ptxas_runs(client: LanguageClient, tmp_path: pathlib.Path):
    """Two publishes per compiled version: every stage's diagnostics through PTX first
    (`tileLsp/pipelineStatus` "stages"), then with ptxas's messages ("done"). CUDA 13's ptxas
    rejects sm_70, which every stage before it accepts."""
    configure(client, gpuName="sm_70")
    uri = (tmp_path / "early.mlir").as_uri()
    log = record_timeline(client, "tileLsp/pipelineStatus")
    open_document(client, uri, KERNEL)
    deadline = time.monotonic() + TIMEOUT_S
    while not any(m == "tileLsp/pipelineStatus" and _get(p, "state") == "done" for m, p in log):
        assert time.monotonic() < deadline, log
        await asyncio.sleep(0.02)
    mine = [(m, p) for m, p in log if _get(p, "uri") == uri]
    statuses = [_get(p, "state") for m, p in mine if m == "tileLsp/pipelineStatus"]
    assert statuses == ["stages", "done"], mine
    assert all(_get(p, "version") == 1 for _, p in mine)
    stages_at = next(i for i, (m, p) in enumerate(mine) if m == "tileLsp/pipelineStatus")
    before = [p for m, p in mine[:stages_at] if m == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    after = [p for m, p in mine[stages_at:] if m == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    if not any(d.source == "tile-lsp(ptxas)" for d in after[-1].diagnostics):
        pytest.skip("this ptxas still accepts sm_70 (CUDA < 13)")
    assert before and list(before[-1].diagnostics) == []  # the stages found nothing; ptxas had not run
    (diag,) = after[-1].diagnostics
    assert diag.message.startswith("ptxas error for sm_70:") and "reproduce with: " in diag.message
    # The finished compile took longer than the stages (the status carries the worker's time).
    seconds = [_get(p, "seconds") for m, p in mine if m == "tileLsp/pipelineStatus"]
    assert 0 < seconds[0] < seconds[1]
    configure(client, gpuName="sm_90a")


def _get(params: object, name: str) -> object:
    """A field of a notification's params (a dict, or the client's namedtuple of it)."""
    return params.get(name) if isinstance(params, dict) else getattr(params, name, None)


@pytest.mark.asyncio(loop_scope="module")
async def test_missing_target_and_its_quick_fixes(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName=None, computeCapability=None)
    path = tmp_path / "k.mlir"
    uri = path.as_uri()
    log = record_publishes(client)
    open_document(client, uri, KERNEL)
    published = await until_published(log, uri, 1, _has_stage)
    (diag,) = published.diagnostics  # once
    assert diag.message == "failed to get compute capability."
    assert diag.source == "tile-lsp(nvvm)" and diag.range.start.line == 1
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri=uri),
            range=diag.range,
            context=lsp.CodeActionContext(diagnostics=[diag]),
        )
    )
    assert actions is not None
    actions = [_as_code_action(a) for a in actions]
    titles = [a.title for a in actions if isinstance(a, lsp.CodeAction)]
    assert titles[0] == "Set tileLsp.gpuName to sm_90a"
    assert 'Add #nvvm.target<chip = "sm_90a"> to the gpu.module' in titles
    preferred = next(a for a in actions if isinstance(a, lsp.CodeAction) and a.is_preferred)
    assert preferred.command is not None and preferred.command.command == "tileLsp.setGpuName"
    edit_fix = next(a for a in actions if isinstance(a, lsp.CodeAction) and a.edit is not None)
    (text_edit,) = edit_fix.edit.changes[uri]  # type: ignore[index,union-attr]
    assert text_edit.new_text == ' [#nvvm.target<chip = "sm_90a">]'
    assert text_edit.range.start == lsp.Position(line=1, character=len("  gpu.module @kernels"))
    # Run the command as an editor does: the server takes the target, the diagnostic goes.
    result = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command=preferred.command.command, arguments=preferred.command.arguments)
    )
    assert result is not None
    await until_published(log, uri, 1, lambda d: len(d) == 0)
    assert any("sm_90a" in m.message for m in client.messages)
    settings = await client.protocol.send_request_async("tileLsp/settings", {})
    settings = settings if isinstance(settings, dict) else settings._asdict()
    assert settings["gpuName"] == "sm_90a"


@pytest.mark.asyncio(loop_scope="module")
async def test_view_stage_request_and_command(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "k.mlir").as_uri()
    open_document(client, uri, KERNEL)
    started = time.perf_counter()
    ptx = await view_stage(client, uri, "ptx")
    first_s = time.perf_counter() - started
    assert ptx["stage"] == "ptx" and ptx["ok"] is True
    assert ".entry scale" in ptx["output"] and ".target sm_90a" in ptx["output"]
    assert isinstance(ptx["seconds"], float) and ptx["diagnostics"] == []
    started = time.perf_counter()
    for stage, marker in (("nvvm", "nvvm.read.ptx.sreg.tid.x"), ("llvm", "llvm.func"), ("llvm-ir", "define ")):
        found = await view_stage(client, uri, stage)
        assert found["ok"] is True and marker in found["output"], (stage, found["output"][:400])
    cached_s = (time.perf_counter() - started) / 3
    print(f"viewStage: first {first_s * 1000:.0f} ms, cached {cached_s * 1000:.1f} ms")
    assert cached_s < first_s + 0.5
    via_command = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command="tileLsp.viewStage", arguments=[{"uri": uri, "stage": "ptx"}])
    )
    assert via_command["output"] == ptx["output"]
    if HAS_PTXAS:
        cubin = await view_stage(client, uri, "cubin")
        assert cubin["ok"] is True and "registers:" in cubin["output"] and "scale:" in cubin["output"]
    with pytest.raises(Exception, match="unknown stage"):
        await view_stage(client, uri, "sass")


@pytest.mark.asyncio(loop_scope="module")
async def test_view_stage_of_a_failing_compile_says_why(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_80")
    uri = (tmp_path / "wgmma.mlir").as_uri()
    open_document(client, uri, WGMMA)
    found = await view_stage(client, uri, "ptx")
    assert found["ok"] is False
    assert "requires sm_90a but the target is sm_80" in found["output"]
    (diag,) = found["diagnostics"]  # pygls hands custom results over as namedtuples
    assert diag.source == "tile-lsp(llvm)" and diag.range.start.line == 3


@pytest.mark.asyncio(loop_scope="module")
async def test_view_stage_of_a_cuda_tile_file_shows_its_ptx(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_90a")
    text = (CUTILE / "vector_add.mlir").read_text(encoding="utf-8")
    text = text[: text.index("\nentry ", 1) + 1]  # the f32 entry only: quick
    uri = (tmp_path / "vector_add.mlir").as_uri()
    open_document(client, uri, text)
    ptx = await view_stage(client, uri, "ptx")
    assert ptx["ok"] is True, ptx["output"][:400]
    assert ".entry vector_add_Kt1_A1f32" in ptx["output"] and ".target sm_90a" in ptx["output"]
    gpu = await view_stage(client, uri, "gpu")
    assert gpu["ok"] is True and "gpu.func @vector_add_Kt1_A1f32" in gpu["output"]
    tileaa = await view_stage(client, uri, "tileaa")
    assert tileaa["ok"] is True and "nv_tileaa." in tileaa["output"]


@pytest.mark.skipif(not HAS_PTXAS, reason="needs ptxas")
@pytest.mark.asyncio(loop_scope="module")
async def test_code_lens_per_kernel(client: LanguageClient, tmp_path: pathlib.Path):
    uri = (tmp_path / "k.mlir").as_uri()
    open_document(client, uri, KERNEL)
    lenses = await client.text_document_code_lens_async(lsp.CodeLensParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    assert lenses is not None and len(lenses) == 2
    resources, show = lenses
    assert resources.range.start.line == 2 and show.range.start.line == 2
    assert resources.command is not None and show.command is not None
    title = resources.command.title
    assert title.startswith("sm_90a · ") and " regs · 0 spills · 0 B smem" in title, title
    assert show.command.title == "Show PTX" and show.command.command == "tileLsp.viewStage"
    assert list(show.command.arguments) == [{"uri": uri, "stage": "ptx", "show": True}]
    # Clicking it: the PTX is written next to the file and the client is asked to show it.
    await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command=show.command.command, arguments=show.command.arguments)
    )
    shown = tmp_path / ".tile-lsp" / "k.ptx"
    assert shown.exists() and ".entry scale" in shown.read_text()
    deadline = time.monotonic() + 10
    while not client.shown_documents and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert client.shown_documents[-1].uri == shown.as_uri()


@pytest.mark.asyncio(loop_scope="module")
async def test_preview_files_on_save(client: LanguageClient, tmp_path: pathlib.Path):
    path = tmp_path / "saxpy.mlir"
    path.write_text(KERNEL)
    uri = path.as_uri()
    open_document(client, uri, KERNEL)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    preview = tmp_path / ".tile-lsp"
    names = ["saxpy.nvvm.mlir", "saxpy.llvm.mlir", "saxpy.ll", "saxpy.ptx", "saxpy.map.json"]
    expected = sorted([*names, ".tile-lsp-manifest.json"])
    assert await until_listing(preview, expected) == expected
    assert ".entry scale" in (preview / "saxpy.ptx").read_text()
    assert "define " in (preview / "saxpy.ll").read_text()
    assert "gpu.module @kernels" in (preview / "saxpy.nvvm.mlir").read_text()
    # previewDir elsewhere, previewOnSave off: nothing written
    configure(client, previewOnSave=False, previewDir="other")  # (relative: from the file's folder)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    await asyncio.sleep(0.5)
    assert not (tmp_path / "other").exists()
    configure(client, previewOnSave=True)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(uri=uri)))
    deadline = time.monotonic() + TIMEOUT_S
    while not (tmp_path / "other" / "saxpy.ptx").exists() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert (tmp_path / "other" / "saxpy.ptx").exists()


@pytest.mark.asyncio(loop_scope="module")
async def test_stale_results_are_never_published(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_80")
    uri = (tmp_path / "stale.mlir").as_uri()
    log = record_publishes(client)
    version = 1
    open_document(client, uri, KERNEL, version)  # clean at sm_80
    await until_published(log, uri, version, lambda d: True)
    for _ in range(3):
        # A stage error, then at once a clean text: the error's compile must never be published.
        replace_all(client, uri, version + 1, WGMMA)
        replace_all(client, uri, version + 2, KERNEL.replace("%s : f32", "%s  : f32"))
        version += 2
        await until_published(log, uri, version, lambda d: True)
        await asyncio.sleep(0.3)
        latest = [p for p in log if p.uri == uri][-1]
        assert latest.version == version and list(latest.diagnostics) == []
    for params in log:
        if any("requires sm_90a" in d.message for d in params.diagnostics):
            raise AssertionError(f"a superseded version's stage diagnostics were published: v{params.version}")
    # Versions only grow.
    versions = [p.version for p in log if p.uri == uri]
    assert versions == sorted(versions)


@pytest.mark.asyncio(loop_scope="module")
async def test_pipeline_timeout_is_a_diagnostic_and_the_server_answers(client: LanguageClient, tmp_path: pathlib.Path):
    configure(client, gpuName="sm_90a", pipelineTimeout=0.001)
    uri = (tmp_path / "slow.mlir").as_uri()
    log = record_publishes(client)
    open_document(client, uri, KERNEL.replace("@scale", "@slow"))
    published = await until_published(log, uri, 1, _has_stage)
    (diag,) = published.diagnostics
    assert diag.source == "tile-lsp(pipeline)" and diag.severity == lsp.DiagnosticSeverity.Warning
    assert "did not finish within 0.001 s" in diag.message and "tileLsp.pipelineTimeout" in diag.message
    started = time.perf_counter()
    at = lsp.Position(line=4, character=KERNEL.splitlines()[4].index("%tid") + 1)
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=at))
    found = await client.text_document_definition_async(
        lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=at)
    )
    assert time.perf_counter() - started < 2.0
    assert hover is None or hover.contents is not None  # (upstream hovers are still thin)
    assert found and found[0].range.start.line == 3  # type: ignore[index,union-attr]
    # A normal timeout again: the same text compiles (timeouts are not cached).
    configure(client, pipelineTimeout=30)
    await until_published(log, uri, 1, lambda d: len(d) == 0)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_stays_fast_while_compiling(client: LanguageClient, tmp_path: pathlib.Path):
    """Definitions are answered from the front end while a (larger) kernel compiles in a worker."""
    uri = (tmp_path / "big.mlir").as_uri()
    ops = "".join(
        f"      %r{i} = arith.mulf %v, %s : f32\n      memref.store %r{i}, %a[%tid] : memref<128xf32, 1>\n"
        for i in range(400)
    )
    text = KERNEL.replace(
        "      %r = arith.mulf %v, %s : f32\n      memref.store %r, %a[%tid] : memref<128xf32, 1>\n", ops
    )
    log = record_timeline(client, "tileLsp/pipelineStatus")
    open_document(client, uri, text)
    use = lsp.Position(line=4, character=text.splitlines()[4].index("%tid"))
    params = lsp.DefinitionParams(text_document=lsp.TextDocumentIdentifier(uri=uri), position=use)
    await client.text_document_definition_async(params)  # waits for the front end
    latencies: list[float] = []
    # (the front end's diagnostics come at once; the compile's status says when it is over)
    while not any(m == "tileLsp/pipelineStatus" and _get(p, "uri") == uri and _get(p, "state") != "stages" for m, p in log):
        started = time.perf_counter()
        found = await client.text_document_definition_async(params)
        latencies.append(time.perf_counter() - started)
        assert found and found[0].range.start.line == 3  # type: ignore[index,union-attr]
        await asyncio.sleep(0.02)
    assert [p for m, p in log if m == lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS and p.uri == uri][-1].diagnostics == ()
    # Not a benchmark (bench/pipeline_lsp.py is): a request loop blocked by the compile would
    # answer after the compile (seconds); the median guards against a slow-but-not-blocked loop.
    latencies.sort()
    assert latencies and max(latencies) < 1.0 and latencies[len(latencies) // 2] < 0.1, latencies
    print(f"definition during a compile: {len(latencies)} requests, max {max(latencies) * 1000:.1f} ms")
