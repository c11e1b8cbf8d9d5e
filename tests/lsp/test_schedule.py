"""When the server starts a version's compile: an edit on its own at once, an edit inside a burst
of edits once typing pauses (host.PIPELINE_DEBOUNCE_S). The host is driven directly, with a
client that records nothing and, below, a pipeline of the test's own (both injected)."""

from __future__ import annotations

import asyncio
import dataclasses
import types
from collections.abc import Coroutine
from typing import Any

from tile_lsp.host import PIPELINE_DEBOUNCE_S, PIPELINE_IDLE_S, AnalysisHost


class _Client:
    """The host's Client, saying nothing."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args: [] if name == "workspace_folders" else None


async def test_an_edit_on_its_own_compiles_at_once_and_a_burst_waits_for_the_pause() -> None:
    server = AnalysisHost(_Client())
    pauses: list[tuple[int, float]] = []

    def publish_later(snap: Any, pause: float) -> Coroutine[Any, Any, None]:
        pauses.append((snap.version, pause))
        return asyncio.sleep(0)

    server._publish_later = publish_later  # type: ignore[method-assign]
    uri = "file:///tmp/k.mlir"

    def edit(version: int, uri: str = uri) -> None:
        server.schedule_diagnostics(types.SimpleNamespace(uri=uri, version=version))  # type: ignore[arg-type]

    edit(1)  # the document opens: nothing to wait for
    edit(2)  # a keystroke right after: a burst may be starting
    edit(3)
    server.last_edit[uri] -= PIPELINE_IDLE_S  # the user paused, then made one edit
    edit(4)
    edit(1, "file:///tmp/other.mlir")  # another document's edits are its own
    assert pauses == [(1, 0.0), (2, PIPELINE_DEBOUNCE_S), (3, PIPELINE_DEBOUNCE_S), (4, 0.0), (1, 0.0)]
    await asyncio.sleep(0.01)
    assert all(task.done() for task in server.pending.values())


class _Recorder:
    """BackgroundPipeline's interface, recording when runs start and end; a second `compile` of
    a request in flight joins its run, and a finished one is cached, as in the real one."""

    def __init__(self, events: list[str]) -> None:
        self.events = events
        self.inflight: dict[Any, asyncio.Future[Any]] = {}
        self.done: dict[Any, Any] = {}

    def cached(self, request: Any) -> Any:
        return self.done.get(request)

    async def compile(self, request: Any, timeout: float, early: Any = None, handed_over: Any = None) -> Any:
        from tile_lsp.background import DONE, PipelineReport

        run = self.inflight.get(request)
        if run is None:
            self.events.append("compile starts")

            async def work() -> Any:
                try:
                    await asyncio.sleep(0.01)
                    self.events.append("worker has it")
                    if handed_over is not None:
                        handed_over.set()
                    await asyncio.sleep(0.5)
                except asyncio.CancelledError:
                    self.events.append("compile cancelled")
                    raise
                self.done[request] = PipelineReport(DONE)
                return self.done[request]

            run = self.inflight[request] = asyncio.ensure_future(work())
            run.add_done_callback(lambda _: self.inflight.pop(request, None))
        waiters = getattr(run, "waiters", 0) + 1
        run.waiters = waiters  # type: ignore[attr-defined]
        try:
            return await asyncio.shield(run)
        except asyncio.CancelledError:
            run.waiters -= 1  # type: ignore[attr-defined]
            if run.waiters == 0:  # type: ignore[attr-defined]
                run.cancel()
            raise


async def _publish_one_edit(text: str, clean_before: bool) -> list[str]:
    """Events of one edit on its own (pause 0), with an analysis that takes 0.2 s."""
    from tile_lsp.session import Snapshot

    events: list[str] = []
    server = AnalysisHost(_Client(), _Recorder(events))  # type: ignore[arg-type]
    def publish(snap: Any, analysis: Any, stage: list[Any]) -> None:
        errors = sum(d.is_error for d in analysis.diagnostics)
        events.append(f"publish: {errors} front-end errors, {len(stage)} stage")

    server._publish = publish  # type: ignore[method-assign]
    server._status = lambda *args: None  # type: ignore[method-assign]
    server.session.settings = dataclasses.replace(server.session.settings, gpuName="sm_90a")
    uri = "file:///tmp/k.mlir"
    snap = server.session.update(uri, 2, text, "/tmp/k.mlir")
    server.front_end_clean[uri] = clean_before

    class SlowAnalysis(Snapshot):
        @property
        def analysis(self) -> Any:
            events.append("analysis starts")
            import time

            time.sleep(0.2)
            found = Snapshot.analysis.fget(self)  # type: ignore[attr-defined]
            events.append("analysis done")
            return found

    snap.__class__ = SlowAnalysis
    await server._publish_later(snap, 0.0)
    await asyncio.sleep(0.6)  # (a run nobody waits for any more would have ended by now)
    return events


async def test_an_edit_on_its_own_compiles_while_the_front_end_analyses() -> None:
    from pathlib import Path

    kernel = (Path(__file__).parents[1] / "data" / "cutile" / "vector_add.mlir").read_text()
    # The document's last version had no front-end errors: the compile starts beside the analysis.
    ahead = await _publish_one_edit(kernel, clean_before=True)
    # (the analysis waits for the hand-over: on a thread beside it, it would hold up the GIL)
    assert ahead.index("compile starts") < ahead.index("worker has it") < ahead.index("analysis starts")
    assert ahead.count("compile starts") == 1 and "compile cancelled" not in ahead and ahead[-1] == "publish: 0 front-end errors, 0 stage"
    # It had errors: the compile waits for the analysis, as before.
    after = await _publish_one_edit(kernel, clean_before=False)
    assert after.index("analysis done") < after.index("compile starts") and after[-1] == "publish: 0 front-end errors, 0 stage"
    # Started ahead, and this version has front-end errors: that compile is cancelled.
    broken = await _publish_one_edit(kernel.replace(" = ", " = = ", 1), clean_before=True)
    assert broken.index("compile starts") < broken.index("analysis done") < broken.index("compile cancelled")
    [published] = [e for e in broken if e.startswith("publish")]
    assert published.endswith(" stage") and not published.startswith("publish: 0 ")


async def test_new_settings_make_new_snapshots_with_their_compile_options() -> None:
    """A snapshot's compile options are its own: a settings change gives every open document a
    new snapshot (same version and text, the analysis kept), supersedes the old one, and the
    compile that follows is the new options'; the old snapshot's request keeps the old ones."""
    from pathlib import Path

    from tile_lsp.compiler.target import Target
    from tile_lsp.session import Settings

    events: list[str] = []
    host = AnalysisHost(_Client(), _Recorder(events))  # type: ignore[arg-type]
    host._status = lambda *args: None  # type: ignore[method-assign]
    host.initialize({"gpuName": "sm_80"})
    kernel = (Path(__file__).parents[1] / "data" / "cutile" / "vector_add.mlir").read_text()
    uri = "file:///tmp/k.mlir"
    old = host.session.update(uri, 3, kernel, "/tmp/k.mlir")
    analysis = old.analysis
    old_request = host.pipeline_request(old)
    assert old_request is not None and old_request.options.target == Target(80)

    host.change_settings({"gpuName": "sm_90a", "optLevel": 1})
    new = host.session.get(uri)
    assert new is not None and new is not old and old.superseded and not new.superseded
    assert (new.version, new.text) == (3, kernel) and new.analysis is analysis  # (not analysed again)
    options, error = new.compile_options
    assert error is None and options.target == Target(90, "a") and options.opt_level == 1
    assert host.pipeline_request(old) == old_request  # (what a request in flight still holds)
    request = host.pipeline_request(new)
    assert request is not None and request.options == options
    # A change of the file-size limit, which the analysis reads, analyses again.
    host.apply_settings(Settings(gpuName="sm_90a", optLevel=1, maxFileSize=1 << 30))
    newest = host.session.get(uri)
    assert newest is not None and newest is not new and newest._analysis is None
    for task in list(host.pending.values()):
        task.cancel()
