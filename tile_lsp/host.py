"""The analysis host: every open document's state and every query on it, behind one object.

The server (`server.py`) is protocol glue over it and `facade.py`; tests drive the host with a
client and a pipeline of their own. It owns:
- the Session (`session.py`): one immutable Snapshot per open document, whose memoized
  analysis every feature reads;
- publishing: front-end diagnostics per version, debounced, never for a superseded version,
  joined by the stage diagnostics of the same version's compile;
- the injected background pipeline (`background.py`, typed `PipelineReport`s): a version's
  compile, its cached report for hover, lenses, previews and the cross-stage links;
- the settings in force, with the ones a cloned repository may not choose refused.

What it says to the editor goes through the `Client` it is given: nothing here knows pygls.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import dataclasses
import gc
import logging
import os
import pathlib
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from tile_lsp import protocol as proto
from tile_lsp.background import CANCELLED, DONE, BackgroundPipeline, EarlyReport, PipelineReport, PipelineRequest
from tile_lsp.compiler import limits
from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.pipeline import STAGES, detect_start
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.upstream import is_upstream
from tile_lsp.features import pipeline_view as pview
from tile_lsp.features import stage_links, upstream_hover
from tile_lsp.session import (
    DEFAULT_PREVIEW_DIR,
    PROGRAM_SETTINGS,
    Session,
    Settings,
    Snapshot,
    preview_dir_refusal,
    program_refusal,
)
from tile_lsp.textsync import Edit

DEBOUNCE_S = 0.0  # (a burst of edits read at once is applied before this task runs; a later one supersedes it)
PIPELINE_DEBOUNCE_S = 0.1  # in a burst of edits, a compile starts once typing pauses this long
# An edit that comes this long after the document's previous one (or its opening) is not part of a
# burst: its compile starts at once. Should it turn out to start a burst, the next keystroke
# cancels that compile, and the rest of the burst waits for the pause as before.
PIPELINE_IDLE_S = 0.5
AHEAD_HANDOVER_S = 0.05  # an edit's front-end analysis waits at most this for its compile to start
# The item cache's dropped parses are cyclic garbage (xDSL IR), which only a full collection frees,
# and serve() makes those rare: one runs after an analysis once the cache has dropped this much
# since the last (estimated bytes; ~70 versions of a gemm entry). Without it RSS grew ~75 KB an edit.
COLLECT_AFTER_DROPPED = 16 << 20
log = logging.getLogger("tile_lsp")
# server -> client: {uri, version, state, seconds}, see AnalysisHost._status
PIPELINE_STATUS_NOTIFICATION = "tileLsp/pipelineStatus"


class Client(Protocol):
    """What the host says to the editor (server.py implements it over pygls)."""

    def publish(self, params: lsp.PublishDiagnosticsParams) -> None: ...
    def notify(self, method: str, params: Any) -> None: ...
    def show_message(self, kind: lsp.MessageType, text: str) -> None: ...
    def log_message(self, kind: lsp.MessageType, text: str) -> None: ...
    def can_show_documents(self) -> bool: ...
    def show_document(self, uri: str) -> None: ...
    def can_refresh_code_lenses(self) -> bool: ...
    def refresh_code_lenses(self) -> None: ...  # (only where the client supports it)
    def workspace_folders(self) -> list[str]: ...


class AnalysisHost:
    """The open documents, their analyses and compiles, and the settings in force."""

    def __init__(self, client: Client, pipeline: BackgroundPipeline | None = None, *, compile_documents: bool = True) -> None:
        self.client = client
        self.session = Session()
        # Background analyses, one at a time: a queued one whose version was superseded is
        # skipped, a running one stops at its next item (Snapshot.analysis_unless_superseded).
        self.analysis_pool = ThreadPoolExecutor(1, thread_name_prefix="tile-lsp-analysis")
        self._collected_at = 0  # the item cache's dropped_bytes at the last full collection
        self._frozen = False  # gc.freeze() done (after the first analysis: `_collect_if_due`)
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.saving: set[asyncio.Task[None]] = set()  # previews being written after a didSave
        self.lenses_pending: set[asyncio.Future[Any]] = set()  # compiles a lens refresh waits for
        self.last_edit: dict[str, float] = {}  # uri -> when its latest version came (monotonic)
        self.front_end_clean: dict[str, bool] = {}  # uri -> its last analysed version had no errors
        self.pipeline = pipeline if pipeline is not None else BackgroundPipeline()  # (workers start with the first compile)
        self.compile_documents = compile_documents  # False: front end only (`serve --no-pipeline`)
        # uri -> (version, stage diagnostics) last published: what the quick fixes look at.
        self.stage_published: dict[str, tuple[int, list[Diagnostic]]] = {}
        self.front_end_diagnostics = proto.FrontEndDiagnostics()  # (converted item by item, kept)
        # uri -> id(item's parse) -> (that parse, the stage diagnostics last published in the item,
        # relative to it): what a new version that keeps the item shows until its compile reports
        self.stage_by_item: dict[str, dict[int, tuple[object, list[Diagnostic]]]] = {}
        self.gpu_override: str | None = None  # tileLsp.setGpuName, while the client sets no target
        self.warned: set[str] = set()  # warnings shown once per session (refused settings, files left alone)
        # (program path, untrusted folders) -> why refused (None: accepted), see `refuses_a_program`
        self._program_verdicts: dict[tuple[str, tuple[str, ...]], str | None] = {}

    # -- documents -------------------------------------------------------------------
    def initialize(self, options: Any) -> None:
        self.session.settings = self.checked_settings(Settings.from_json(options))

    def change_settings(self, settings: Any) -> None:
        self.apply_settings(Settings.from_json(settings, self.session.settings))

    def close(self, uri: str) -> None:
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.stage_published.pop(uri, None)
        self.front_end_diagnostics.forget(uri)
        self.stage_by_item.pop(uri, None)
        self.last_edit.pop(uri, None)
        self.front_end_clean.pop(uri, None)
        snap = self.session.get(uri)
        if snap is not None:  # its reports go
            self.pipeline.forget(snap.path)
        self.session.close(uri)
        self.client.publish(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def shutdown(self) -> None:
        self.pipeline.close()

    def compiles(self, snap: Snapshot) -> bool:
        return self.compile_documents and compiles(snap)

    def set_gpu_name(self, chip: str) -> dict[str, Any]:
        """tileLsp.setGpuName: the target for this session."""
        self.gpu_override = chip
        self.apply_settings(dataclasses.replace(self.session.settings, gpuName=chip, computeCapability=None))
        self.client.show_message(
            lsp.MessageType.Info,
            f'tile-lsp: target set to {chip} for this session; add "tileLsp.gpuName": "{chip}" to your settings to keep it',
        )
        return {"gpuName": chip}

    def saved(self, uri: str) -> None:
        """didSave: the previews of the saved version, written by a task (see write_preview)."""
        snap = self.snapshot(uri)
        if snap is None or not self.session.settings.previewOnSave:
            return
        task = asyncio.get_event_loop().create_task(self._preview_saved(snap))
        self.saving.add(task)  # (a task nobody holds may be collected before it runs)
        task.add_done_callback(self.saving.discard)

    async def _preview_saved(self, snap: Snapshot) -> None:
        try:
            await self.write_preview(snap)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.log_failure()

    # -- plumbing ------------------------------------------------------------------
    def log_failure(self) -> None:
        text = traceback.format_exc()
        log.error(text)
        self.client.log_message(lsp.MessageType.Error, text)

    def snapshot(self, uri: str) -> Snapshot | None:
        return self.session.get(uri)  # (the server's own text: `open_or_change`)

    def schedule_diagnostics(self, snap: Snapshot) -> None:
        old = self.pending.pop(snap.uri, None)
        if old is not None:
            old.cancel()
        now = time.monotonic()
        previous = self.last_edit.get(snap.uri)
        self.last_edit[snap.uri] = now
        pause = PIPELINE_DEBOUNCE_S if previous is not None and now - previous < PIPELINE_IDLE_S else 0.0
        self.pending[snap.uri] = asyncio.get_event_loop().create_task(self._publish_later(snap, pause))

    async def _publish_later(self, snap: Snapshot, pause: float = PIPELINE_DEBOUNCE_S) -> None:
        """Front-end diagnostics, then the pipeline's: its compile starts after `pause` (the
        typing pause inside a burst of edits; none for an edit on its own)."""
        await asyncio.sleep(DEBOUNCE_S)
        if not self.session.is_latest(snap):
            return
        handed_over = asyncio.Event()
        ahead = self._compile_ahead(snap, handed_over) if pause <= 0 else None
        try:
            if ahead is not None:  # the analysis waits until the worker has the compile: run on a
                # thread beside the hand-over, it held the GIL that needs (20-30 ms)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(handed_over.wait(), AHEAD_HANDOVER_S)
            await self._analyse_and_publish(snap, pause)
        finally:
            if ahead is not None:
                ahead.cancel()  # (the run goes on if the publishing joined it)

    def _collect_if_due(self) -> None:
        """A full garbage collection once the item cache has dropped COLLECT_AFTER_DROPPED
        (estimated) since the last one: what it dropped is freed, not kept until serve()'s rare
        full collections."""
        if not self._frozen:
            # Once, after the first analysis: the modules, classes and tables loaded by now stay
            # for the server's life; frozen, no collection walks them again (~80k objects, a
            # third of a full collection's time late in a session). (The first version's IR is
            # frozen too: one version of one document is never collected.)
            self._frozen = True
            gc.collect()
            gc.freeze()
        dropped = self.session.cache.dropped_bytes
        if dropped - self._collected_at >= COLLECT_AFTER_DROPPED:
            self._collected_at = dropped
            gc.collect()

    def _compile_ahead(self, snap: Snapshot, handed_over: asyncio.Event) -> asyncio.Future[PipelineReport] | None:
        """An edit on its own: its compile starts now, beside the front end's analysis (10-80 ms
        on a large file, on the other core), when the document's last analysed version had no
        front-end errors (with errors there is no compile: this one would be cancelled)."""
        if not self.front_end_clean.get(snap.uri, False):
            return None
        request = self.pipeline_request(snap, check_front_end=False)
        if request is None or self.pipeline.cached(request) is not None:
            return None
        ahead = asyncio.ensure_future(self.pipeline.compile(request, self.timeout(), handed_over=handed_over))
        ahead.add_done_callback(lambda done: done.cancelled() or done.exception())  # (seen: not logged)
        return ahead

    async def _analyse_and_publish(self, snap: Snapshot, pause: float) -> None:
        if snap.uri not in self.stage_published and (notice := self.size_notice(snap)):
            # A file over the size limit, just opened: its analysis takes seconds (a 10 MB file:
            # ~15 s), so the notice saying what it gets comes first, alone.
            diags = [proto.diagnostic(SourceText(snap.text, snap.path), snap.uri, d) for d in notice]
            self.client.publish(lsp.PublishDiagnosticsParams(uri=snap.uri, version=snap.version, diagnostics=diags))
        try:
            # Off the request loop: hovers and definitions keep being answered meanwhile. None:
            # the version was superseded before or while it was analysed (its task publishes).
            found = await asyncio.get_running_loop().run_in_executor(self.analysis_pool, snap.analysis_unless_superseded)
        except asyncio.CancelledError:
            raise
        except Exception:  # an analysis bug must not kill the server
            self.log_failure()
            return
        if found is None:
            return
        analysis = found
        asyncio.get_running_loop().call_soon(self._collect_if_due)  # (after this version is published)
        self.front_end_clean[snap.uri] = not any(d.is_error for d in analysis.diagnostics)
        if not self.session.is_latest(snap):
            return  # a newer version arrived while we worked: its own task will publish
        if is_upstream(snap.text):
            asyncio.get_running_loop().run_in_executor(None, self._warm_hover, snap)
        request = self.pipeline_request(snap, analysis)
        if request is None:
            if self.session.is_latest(snap):  # (not when the settings were just resettled)
                self._publish(snap, analysis, [])
            return
        report = self.pipeline.cached(request)
        if report is None:
            # At once, not after the compile: the front end's diagnostics, and the stage
            # diagnostics of the entries this version has not changed (`carried_stage`); the
            # compile's own replace them (through PTX first, then the finished compile).
            self._publish(snap, analysis, self.carried_stage(snap.uri, analysis))
            if pause > 0:
                await asyncio.sleep(pause)
                if not self.session.is_latest(snap):
                    return

            def early(found: EarlyReport) -> None:
                """Every stage's diagnostics through PTX, before ptxas (its messages, the code
                lens and the hover's lines come with the finished compile)."""
                if self.session.is_latest(snap) and not task.done():
                    stage = pview.stage_diagnostics(PipelineReport(DONE, found.diagnostics), analysis.diagnostics, snap.text)
                    self._publish(snap, analysis, stage)
                    self._status(snap, "stages", found.seconds)

            task = asyncio.ensure_future(self.pipeline.compile(request, self.timeout(), early))
            try:
                report = await task
            except asyncio.CancelledError:
                task.cancel()  # a newer version: this compile is stale (its worker is stopped)
                raise
            except Exception:
                self.log_failure()
                return
        if not self.session.is_latest(snap) or report.status == CANCELLED:
            return  # never publish a stale version's results
        self._publish(snap, analysis, pview.stage_diagnostics(report, analysis.diagnostics, snap.text))
        self._status(snap, report.status, report.seconds)

    def _status(self, snap: Snapshot, state: str, seconds: float) -> None:
        """`tileLsp/pipelineStatus`: how far the pipeline's diagnostics for this version are
        published ("stages": through PTX; "done", "timeout", "crash": the finished compile)."""
        params = {"uri": snap.uri, "version": snap.version, "state": state, "seconds": round(seconds, 6)}
        try:
            self.client.notify(PIPELINE_STATUS_NOTIFICATION, params)
        except Exception:  # a status line for clients that want one; never worth a failure
            log.debug("pipeline status not sent", exc_info=True)

    def _publish(self, snap: Snapshot, analysis: DocumentAnalysis, stage: list[Diagnostic]) -> None:
        self.stage_published[snap.uri] = (snap.version, stage)
        self.stage_by_item[snap.uri] = _by_item(analysis, stage)
        source = analysis.source
        diags = [proto.diagnostic(source, snap.uri, d) for d in self.size_notice(snap, analysis)]
        diags += self.front_end_diagnostics.of(snap.uri, analysis)
        diags += [proto.diagnostic(source, snap.uri, d) for d in stage]
        self.client.publish(lsp.PublishDiagnosticsParams(uri=snap.uri, version=snap.version, diagnostics=diags))

    def carried_stage(self, uri: str, analysis: DocumentAnalysis) -> list[Diagnostic]:
        """The stage diagnostics last published in the items this analysis keeps (the same
        parse: the same text and the same globals, so the same per-entry compile), moved to
        where those items are now. A changed entry's wait for its compile."""
        by_item = self.stage_by_item.get(uri)
        if not by_item:
            return []
        out: list[Diagnostic] = []
        for item in analysis.items:
            hit = by_item.get(id(item.result))
            if hit is not None and hit[0] is item.result:
                out.extend(_moved(d, item.start) for d in hit[1])
        return out

    def size_notice(self, snap: Snapshot, analysis: DocumentAnalysis | None = None) -> list[Diagnostic]:
        """For a file over tileLsp.maxFileSize: the one note (information, at 1:1) saying it gets
        front-end features only (its analysis says so itself past the front end's limit)."""
        limit = limits.setting(snap.settings.maxFileSize)
        if len(snap.text) * 4 <= limit or (size := limits.size_of(snap.text)) <= limit:
            return []
        if analysis is not None and not analysis.items:  # (past the front end's limit too)
            return []
        message = (
            f"{limits.too_big(size, limit, 'compiling')}: front-end checks only (no lowering, stage "
            f"diagnostics, previews or PTX lines in hover); raise tileLsp.maxFileSize to compile it"
        )
        return [Diagnostic(Span(0, 0), Severity.NOTE, message, "cuda_tile")]

    # -- the background pipeline -----------------------------------------------------
    def timeout(self) -> float:
        value = self.session.settings.pipelineTimeout
        return float(value) if isinstance(value, (int, float)) and value > 0 else 30.0

    def pipeline_request(
        self, snap: Snapshot, analysis: DocumentAnalysis | None = None, *, check_front_end: bool = True
    ) -> PipelineRequest | None:
        """The compile for this version, or None: a lowered file (PTX, a stage dump), text in
        neither cuda_tile nor an upstream dialect, or front-end errors (the pipeline would only
        repeat them; not looked at with `check_front_end=False`)."""
        if not self.compiles(snap) or self.size_notice(snap):
            return None
        if check_front_end:
            analysis = analysis if analysis is not None else snap.analysis
            if any(d.is_error for d in analysis.diagnostics):
                return None
        if self.refuses_a_program(snap.settings):
            # Trust withdrawn since this snapshot was made (a document opened in the folder of
            # a program a setting names): the settings lose the program and every open document
            # gets a new snapshot (and compile) without it; this one compiles nothing.
            self.apply_settings(self.session.settings)
            return None
        options, target_error = snap.compile_options
        return PipelineRequest(snap.text, snap.path, options, "ptx", target_error)

    # -- settings from untrusted places ----------------------------------------------
    def workspace_folders(self) -> list[str]:
        """The client's workspace folders (rootUri/rootPath and workspaceFolders)."""
        return self.client.workspace_folders()

    def untrusted_folders(self) -> list[str]:
        """Folders whose settings a cloned repository can set: the workspace folders and the
        folders of the open documents. A program a setting names must lie outside them."""
        folders = self.workspace_folders()
        folders += [os.path.dirname(d.path) for d in list(self.session.documents.values()) if os.path.isabs(d.path)]
        return sorted({os.path.normpath(f) for f in folders if os.path.isabs(f)})

    def warn_once(self, message: str) -> None:
        if message in self.warned:
            return
        self.warned.add(message)
        log.warning(message)
        self.client.show_message(lsp.MessageType.Warning, message)

    def checked_settings(self, settings: Settings) -> Settings:
        """`settings` with the refused ones (session.Settings.checked) at their defaults, each
        refusal shown once as a warning."""
        checked, notes = settings.checked(self.untrusted_folders())
        for note in notes:
            self.warn_once(note)
        return checked

    def refuses_a_program(self, settings: Settings) -> bool:
        """Whether a program `settings` name is refused now, checked again against the folders
        of the documents open now (a document opened after the settings came may hold it)."""
        values = [getattr(settings, key) for key in PROGRAM_SETTINGS if getattr(settings, key)]
        if not values:
            return False
        folders = tuple(self.untrusted_folders())
        refused = False
        for value in values:
            verdict_key = (str(value), folders)
            if verdict_key not in self._program_verdicts:
                self._program_verdicts[verdict_key] = program_refusal(value, folders)
            if self._program_verdicts[verdict_key] is not None:
                refused = True
        return refused

    def cached_report(self, snap: Snapshot) -> tuple[PipelineReport | None, str | None]:
        """The finished compile of `snap` if cached (never starts or waits for one), else a
        note saying why there is none (for hover)."""
        request = self.pipeline_request(snap)
        if request is None:
            return None, None
        report = self.pipeline.cached(request)
        if report is not None:
            return report, None
        running = request in self.pipeline.inflight
        return None, "NVVM/PTX lines: " + (
            "this version is still compiling" if running else "shown once this version has compiled"
        )

    def origin_location(self, origin: stage_links.Origin) -> lsp.Location:
        """A lowered line's source op, as a location: the op's first line from where it starts."""
        uri = pathlib.Path(origin.path).as_uri() if os.path.isabs(origin.path) else origin.path
        start = lsp.Position(origin.line, origin.column)
        end = lsp.Position(origin.line + 1, 0)
        open_doc = next((d for d in self.session.documents.values() if d.path == origin.path), None)
        if open_doc is not None and origin.span is not None:
            source = SourceText(open_doc.text)
            if origin.span.end <= len(open_doc.text):
                line_end = open_doc.text.find("\n", origin.span.start)
                stop = origin.span.end if line_end < 0 else min(origin.span.end, line_end)
                return lsp.Location(uri=open_doc.uri, range=proto.to_range(source, Span(origin.span.start, stop)))
        return lsp.Location(uri=uri, range=lsp.Range(start=start, end=end))

    def origin_hover(self, snap: Snapshot, line: int) -> lsp.Hover | None:
        """Hover on a line of a preview file: the source op it came from."""
        origin = stage_links.origin_of(snap.path, line)
        if origin is None:
            return None
        text = None
        open_doc = next((d for d in self.session.documents.values() if d.path == origin.path), None)
        try:
            if open_doc is not None:
                text = open_doc.text
            else:
                with open(origin.path, encoding="utf-8") as f:
                    text = f.read()
        except OSError:
            text = None
        stage = stage_links.origin_stage(snap.path) or "this stage"
        where = f"{os.path.basename(origin.path)}:{origin.line + 1}:{origin.column + 1}"
        lines = [f"**{stage}** line {line + 1} was lowered from `{where}`"]
        if text is not None:
            src_lines = text.split("\n")  # origin.line is the compiler's (MLIR's) line: "\n" only
            if origin.line < len(src_lines):
                lines += ["", "```mlir", src_lines[origin.line].strip(), "```"]
        lines += ["", "*Go to Definition opens the source op.*"]
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n".join(lines)))

    def _warm_hover(self, snap: Snapshot) -> None:
        """Parse the upstream document for hover now (a worker thread), so hovers find it cached."""
        try:
            upstream_hover.warm(SourceText(snap.text, snap.path))
        except Exception:  # only a cache warm-up: hover parses on demand
            log.debug("hover warm-up failed", exc_info=True)

    async def report_for(self, snap: Snapshot) -> PipelineReport | None:
        """The background compile of `snap` (cached, shared with the diagnostics' run)."""
        analysis = await asyncio.get_running_loop().run_in_executor(None, lambda: snap.analysis)
        request = self.pipeline_request(snap, analysis)
        if request is None:
            return None
        return await self.pipeline.compile(request, self.timeout())

    async def view_stage(self, params: Any) -> dict[str, Any]:
        uri, stage = field_of(params, "uri"), field_of(params, "stage")
        snap = self.snapshot(uri) if isinstance(uri, str) else None
        if snap is None:
            raise ValueError(f"tile-lsp: {uri!r} is not an open document")
        if not isinstance(stage, str) or stage not in STAGES:
            raise ValueError(f"tile-lsp: unknown stage {stage!r} (one of {', '.join(STAGES)})")
        report = await self.report_for(snap)
        cuda_tile = detect_start(SourceText(snap.text)) == "cuda_tile"
        error = None
        if report is None:
            errors = [d for d in snap.analysis.diagnostics if d.is_error]
            error = (
                f"fix the {len(errors)} front-end error(s) first; the pipeline runs on text that parses"
                if errors
                else "not a cuda_tile or upstream gpu/nvgpu/nvvm/llvm MLIR file"
            )
        view = pview.view_stage(report, stage, cuda_tile=cuda_tile, error=error)
        source = SourceText(snap.text)
        diagnostics = view.diagnostics if report is not None else [d for d in snap.analysis.diagnostics if d.is_error]
        result: dict[str, Any] = {
            "output": view.output,
            "stage": view.stage,
            "seconds": round(view.seconds, 6),
            "ok": view.ok,
            "diagnostics": [proto.diagnostic_json(source, snap.uri, d) for d in diagnostics],
            # The whole run: its time, and which entries were lowered vs taken from the cache.
            "pipelineSeconds": round(report.seconds, 6) if report is not None else None,
            "units": report.unit_stats if report is not None else {},
        }
        if field_of(params, "show"):
            shown = self._show_stage(snap, view)
            if shown is not None:
                result["uri"] = shown
        return result

    def _show_stage(self, snap: Snapshot, view: pview.StageView) -> str | None:
        """Write a stage's text to a file and ask the client to open it (code lens clicks, which
        have no client code to show a result)."""
        if not self.client.can_show_documents():
            return None
        path = uri_to_path(snap.uri)
        suffix = pview.PREVIEW_SUFFIX.get(view.stage, ".ptxas.txt")
        refused: list[str] = []
        try:
            directory = self.preview_dir(path) or stage_links.scratch_dir(path)
            target = os.path.join(directory, _stem(path) + suffix)
            request = self.pipeline_request(snap)
            report = self.pipeline.cached(request) if request is not None else None
            if report is not None and report.status == DONE:  # every stage and the map: links work
                stage_links.write_previews(directory, _stem(path), report, path, snap.text, refused)
            # this stage (or why there is none); a file of the user's there is left alone
            stage_links.write_files(directory, {_stem(path) + suffix: view.output}, refused)
            self._warn_left_alone(refused)
            if target in refused:
                return None
        except (OSError, ValueError) as exc:
            self.client.show_message(lsp.MessageType.Warning, f"tile-lsp: {exc}")
            return None
        uri = pathlib.Path(target).as_uri()
        self.client.show_document(uri)
        return uri

    def preview_dir(self, path: str) -> str | None:
        """The preview folder of the document at `path`: previewDir (relative, checked by
        Settings.checked) from the document's folder, when that folder, resolved, stays inside
        the document's folder or its workspace folder (a link committed to a repository must not
        lead elsewhere); else the default `.tile-lsp` on the same terms; else None (a warning)."""
        if not os.path.isabs(path):
            return None  # untitled documents: no folder next to them
        base = os.path.dirname(path)
        roots = [base] + [f for f in self.workspace_folders() if os.path.isabs(f) and _inside_folder(path, f)]
        wanted = self.session.settings.previewDir or DEFAULT_PREVIEW_DIR
        for value in dict.fromkeys([wanted, DEFAULT_PREVIEW_DIR]):
            if preview_dir_refusal(value) is not None:
                continue
            directory = os.path.normpath(os.path.join(base, value))
            real = os.path.realpath(directory)
            if any(_inside_folder(real, os.path.realpath(r)) for r in roots):
                return directory
            self.warn_once(
                f"tile-lsp: preview folder {directory} refused: it resolves to {real}, outside "
                f"{base} and its workspace folder (a link?); previews are not written there"
            )
        return None

    def link_dir(self, path: str) -> str:
        """Where the previews the cross-stage links point into live: previewDir when previews
        are on, else a per-document scratch folder (OSError: no safe scratch folder)."""
        directory = self.preview_dir(path) if self.session.settings.previewOnSave else None
        return directory or stage_links.scratch_dir(path)

    def _warn_left_alone(self, refused: list[str]) -> None:
        for target in refused:
            self.warn_once(
                f"tile-lsp: {target} was left alone: tile-lsp did not write it (or it changed since); "
                f"remove it, or set tileLsp.previewDir to another folder, to get that preview"
            )

    async def write_preview(self, snap: Snapshot) -> list[str]:
        """On save: the stage dumps of the saved version (and their line map) into previewDir;
        the files written."""
        directory = self.preview_dir(snap.path)
        if directory is None:
            return []
        report = await self.report_for(snap)
        if report is None or report.status != DONE or not self.session.is_latest(snap):
            return []
        return self._write_links(snap, report, directory)

    def _write_links(self, snap: Snapshot, report: PipelineReport, directory: str) -> list[str]:
        refused: list[str] = []
        try:
            written = stage_links.write_previews(directory, _stem(snap.path), report, snap.path, snap.text, refused)
            self._warn_left_alone(refused)
            return written
        except OSError as exc:
            self.client.log_message(lsp.MessageType.Warning, f"tile-lsp: preview not written: {exc}")
            return []

    async def lowered_ranges(self, snap: Snapshot, where: int | Span, *, wait: bool) -> list[stage_links.LoweredRange]:
        """The preview-file lines lowered from `where` in this version (writing the previews of
        this version first when the folder holds another's). `wait`: compile if not cached."""
        request = self.pipeline_request(snap)
        if request is None:
            return []
        report = self.pipeline.cached(request)
        if report is None and wait:
            report = await self.pipeline.compile(request, self.timeout())
        if report is None or report.status != DONE or not self.session.is_latest(snap):
            return []
        directory, stem = self.link_dir(snap.path), _stem(snap.path)
        found = stage_links.lowered_ranges(report, where, directory, stem)
        if found and not stage_links.previews_current(directory, stem, snap.text):
            await asyncio.get_running_loop().run_in_executor(None, self._write_links, snap, report, directory)
        return [r for r in found if stage_links.in_map(r.path)]  # not into a file tile-lsp left alone

    def apply_settings(self, settings: Settings) -> None:
        """New settings; the session's setGpuName holds while the client names no target.
        Open documents are re-checked (the compile options may have changed)."""
        if self.gpu_override and not settings.gpuName and settings.computeCapability is None:
            settings = dataclasses.replace(settings, gpuName=self.gpu_override)
        settings = self.checked_settings(settings)
        if settings != self.session.settings:
            self.stage_by_item.clear()  # (another target, other options: nothing carries over)
            for snap in self.session.resettle(settings):  # (new snapshots: new compile options)
                if self.compiles(snap):
                    self.schedule_diagnostics(snap)
            self.client.refresh_code_lenses()  # the lenses name the target

    def open_or_change(
        self, uri: str, version: int | None, text: str, source: SourceText | None = None, edit: Edit | None = None
    ) -> None:
        """A new version of a document, its text the server's own (`did_change` applies the
        edits with `tile_lsp.textsync`: LSP's line breaks, the negotiated position encoding,
        giving the new `source` and the `edit` that made it, which the analysis starts from)."""
        snap = self.session.update(uri, version or 0, text, uri_to_path(uri), source, edit)
        if self.compiles(snap):
            self.pipeline.prestart()  # the first compile of the session then finds a warm worker
        self.schedule_diagnostics(snap)



def _by_item(analysis: DocumentAnalysis, stage: list[Diagnostic]) -> dict[int, tuple[object, list[Diagnostic]]]:
    """Stage diagnostics grouped by the item they lie in, relative to it (those in the module's
    header: the shell's, at document offsets; any other, or one whose notes point outside its
    item, is not kept)."""
    found: dict[int, tuple[object, list[Diagnostic]]] = {}
    if not stage or not analysis.items or analysis.items[0].kind == "whole":
        return found
    entries = [item for item in analysis.items if item.kind != "shell"]
    starts = [item.start for item in entries]
    shell = analysis.items[0] if analysis.items[0].kind == "shell" else None
    for d in stage:
        k = bisect.bisect_right(starts, d.span.start) - 1
        item = entries[k] if k >= 0 and d.span.end <= entries[k].end else None
        if item is None and shell is not None and (not starts or d.span.end <= starts[0]):
            item = shell
        if item is None or any(not item.start <= r.span.start <= r.span.end <= item.end for r in d.related):
            continue
        group = found.setdefault(id(item.result), (item.result, []))
        group[1].append(_moved(d, -item.start))
    return found


def _moved(d: Diagnostic, by: int) -> Diagnostic:
    if by == 0:
        return d
    related = tuple(dataclasses.replace(r, span=Span(r.span.start + by, r.span.end + by)) for r in d.related)
    return dataclasses.replace(d, span=Span(d.span.start + by, d.span.end + by), related=related)


def compiles(snap: Snapshot) -> bool:
    """Whether the pipeline runs on this document: cuda_tile or upstream-dialect text, not a
    lowered file (PTX, LLVM IR, a stage dump a preview map lists)."""
    if stage_links.is_lowered_path(snap.path):
        return False
    return is_upstream(snap.text) or detect_start(SourceText(snap.text)) == "cuda_tile"


def uri_to_path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def field_of(params: Any, name: str) -> Any:
    """A field of a custom request's params (a dict, or pygls's namedtuple) or command argument."""
    if isinstance(params, dict):
        return params.get(name)
    return getattr(params, name, None)


def _inside_folder(path: str, folder: str) -> bool:
    """`path` is `folder` or below it (plain path comparison)."""
    path, folder = os.path.normpath(path), os.path.normpath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _stem(path: str) -> str:
    base = os.path.basename(path) or "document"
    return os.path.splitext(base)[0]
