"""tile_lsp.background: compiles in worker processes, with the cache, shared runs, cancellation,
timeouts, and crashes turned into reports (the language server never sees an exception)."""

from __future__ import annotations

import asyncio
import os
import pathlib
import signal
import stat
import time
from typing import Any

import pytest

from tile_lsp.background import (
    CANCEL_GRACE_S,
    CRASH,
    DONE,
    TIMEOUT,
    BackgroundPipeline,
    EarlyReport,
    PipelineReport,
    PipelineRequest,
    StageText,
    WorkerPool,
    run_request,
)
from tile_lsp.compiler.diagnostics import Severity
from tile_lsp.compiler.target import CompileOptions, Target

KERNEL = (pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "upstream" / "scale.mlir").read_text(encoding="utf-8")


def _request(text: str = KERNEL, chip: str | None = "sm_90a") -> PipelineRequest:
    target = Target.parse_gpu_name(chip) if chip else None
    return PipelineRequest(text, "/tmp/k.mlir", CompileOptions(target=target))


# Compile functions for the fault tests; module level, so a worker can import them.
def segfault(request: PipelineRequest) -> PipelineReport:
    os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("unreachable")


def raises(request: PipelineRequest) -> PipelineReport:
    raise RuntimeError("pipeline bug")


def sleeps(request: PipelineRequest) -> PipelineReport:
    time.sleep(float(request.text))
    return PipelineReport(DONE)


def chatty(request: PipelineRequest) -> PipelineReport:
    """Sends an early report every 5 ms for `request.text` seconds, then reports."""
    from tile_lsp import background

    deadline = time.monotonic() + float(request.text)
    while time.monotonic() < deadline:
        if background._early_sink is not None:
            background._early_sink(EarlyReport([], 0.0))
        time.sleep(0.005)
    return PipelineReport(DONE)


def works_with_checkpoints(request: PipelineRequest) -> PipelineReport:
    """Like `sleeps`, but at the pipeline's checkpoints (compiler/cancel.py) all along."""
    from tile_lsp.compiler import cancel

    deadline = time.monotonic() + float(request.text)
    while time.monotonic() < deadline:
        cancel.checkpoint()
        time.sleep(0.005)
    return PipelineReport(DONE, seconds=float(os.getpid()))


def runs_a_tool(request: PipelineRequest) -> PipelineReport:
    """Waits for an external tool (`sleep request.text`), as a compile waits for ptxas."""
    from tile_lsp.compiler.backend.process import run_tool

    run_tool(["sleep", request.text], 60)
    return PipelineReport(DONE)


def leaves_a_folder(request: PipelineRequest) -> PipelineReport:
    """Makes a temporary folder as ptxas's runner does, then hangs (no checkpoint)."""
    import tempfile

    tempfile.mkdtemp(prefix="tile-lsp-ptxas-")
    time.sleep(float(request.text))
    return PipelineReport(DONE)


def _big_ir(n: int) -> str:
    lines = ["define void @k(ptr %p) {", "entry:", "  %v0 = load float, ptr %p"]
    lines += [f"  %v{i} = fmul float %v{i - 1}, %v{(i * 7) // 9}" for i in range(1, n)]
    return "\n".join([*lines, f"  store float %v{n - 1}, ptr %p", "  ret void", "}", ""])


def generates_code(request: PipelineRequest) -> PipelineReport:
    """LLVM code generation of `request.text` fmuls in the helper process (seconds at 60,000);
    the report's `seconds` is the helper's pid."""
    from tile_lsp.compiler.backend import llvm

    text = llvm._generate(_big_ir(int(request.text)), Target(80), 3)
    assert ".func k(" in text and text.count("mul.rn.f32") == int(request.text) - 1
    assert llvm._HELPER is not None
    return PipelineReport(DONE, seconds=float(llvm._HELPER.pid))


def _processes_with(word: bytes) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if word in pathlib.Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0"):
                    found.append(int(name))
            except OSError:
                pass
    return found


_KEPT: list[Any] = []  # (in a worker) what `keeps_objects` keeps, like a cache


def keeps_objects(request: PipelineRequest) -> PipelineReport:
    """Keeps `request.text` many new objects; reports the worker's frozen-object count so far."""
    import gc

    _KEPT.extend([i] for i in range(int(request.text)))
    return PipelineReport(DONE, seconds=float(gc.get_freeze_count()))


def sized(request: PipelineRequest) -> PipelineReport:
    """A report whose one stage is `request.text`'s first word many characters long."""
    return PipelineReport(DONE, stages=[StageText("ptx", "x" * int(request.text.split()[0]), 0.0)])


def _service(fn=run_request, **kw) -> BackgroundPipeline:  # type: ignore[no-untyped-def]
    return BackgroundPipeline(WorkerPool(fn, warm=False, **kw))


def test_the_report_cache_is_bounded_by_size() -> None:
    """The newest report of each file is kept (an open document's hovers, lenses and views read
    it); older versions go oldest first once their estimated size passes the budget (a big
    file's reports are tens of MB each); a closed document's reports go."""

    async def main() -> None:
        service = BackgroundPipeline(WorkerPool(sized, warm=False), cache_budget=10_000)

        async def compile_(text: str, path: str = "k.mlir") -> None:
            await service.compile(PipelineRequest(text, path, CompileOptions()), 60)
            await asyncio.sleep(0.01)  # (the cache is filled by the run's done-callback)

        def kept() -> list[str]:
            return [r.text for r in service.cache]

        try:
            for text in ("3000 a", "3000 b", "3000 c", "3000 d"):
                await compile_(text)
            assert kept() == ["3000 a", "3000 b", "3000 c", "3000 d"]  # older: 3 x ~3,000 <= 10,000
            await compile_("3000 e")  # older: 4 x ~3,000 > 10,000: a goes
            assert kept() == ["3000 b", "3000 c", "3000 d", "3000 e"]
            await compile_("50000 f", "big.mlir")  # over the budget alone, but the newest of its file
            assert kept() == ["3000 b", "3000 c", "3000 d", "3000 e", "50000 f"]
            assert service.cached(PipelineRequest("50000 f", "big.mlir", CompileOptions())) is not None
            await compile_("3000 g")  # e becomes an older version: b goes
            assert kept() == ["3000 c", "3000 d", "3000 e", "50000 f", "3000 g"]
            service.forget("big.mlir")  # closed
            assert kept() == ["3000 c", "3000 d", "3000 e", "3000 g"]
        finally:
            service.close()

    asyncio.run(main())


def test_run_request_in_process() -> None:
    report = run_request(_request())
    assert report.status == DONE and report.diagnostics == []
    assert [s.name for s in report.stages][:4] == ["nvvm", "llvm", "llvm-ir", "ptx"]
    ptx = report.stage("ptx")
    assert ptx is not None and ".entry scale" in ptx.text
    missing = run_request(_request(chip=None))
    assert [d.message for d in missing.diagnostics] == ["failed to get compute capability."]
    bad = run_request(PipelineRequest(KERNEL, "k.mlir", CompileOptions(), target_error="tileLsp.gpuName 'gfx90a' is not a GPU name like sm_90a"))
    assert bad.diagnostics[0].message.startswith("invalid or missing --compute-capability option: tileLsp.gpuName")


def test_compile_cache_and_shared_runs() -> None:
    async def main() -> None:
        service = _service()
        try:
            first, second = await asyncio.gather(service.compile(_request(), 60), service.compile(_request(), 60))
            assert first is second and first.status == DONE and service.runs == 1
            started = time.perf_counter()
            again = await service.compile(_request(), 60)
            assert again is first and time.perf_counter() - started < 0.05  # the cache
            assert service.cached(_request()) is first and service.cached(_request(chip="sm_80")) is None
        finally:
            service.close()

    asyncio.run(main())


def test_stage_diagnostics_come_early_and_ptxas_messages_with_the_report() -> None:
    """The worker sends every stage's diagnostics through PTX before ptxas runs; ptxas's own
    messages (here a rejection: CUDA 13's ptxas has no sm_70) come only with the report."""

    async def main() -> None:
        service = _service()
        got: list[tuple[float, EarlyReport]] = []
        try:
            request = _request(chip="sm_70")
            report = await service.compile(request, 60, lambda early: got.append((time.perf_counter(), early)))
            finished = time.perf_counter()
            if not any(d.is_error for d in report.diagnostics):
                pytest.skip("this ptxas still accepts sm_70 (CUDA < 13)")
            assert [d.stage for d in report.diagnostics] == ["ptxas"]
            assert len(got) == 1
            at, early = got[0]
            assert early.diagnostics == [] and 0 < early.seconds < report.seconds and at <= finished
            # The report from the cache: no compile, nothing early.
            again: list[EarlyReport] = []
            assert await service.compile(request, 60, again.append) is report and again == []
        finally:
            service.close()

    asyncio.run(main())


def test_crash_and_exception_are_reports() -> None:
    async def main() -> None:
        crashing = _service(segfault)
        failing = _service(raises)
        try:
            crash = await crashing.compile(_request(), 60)
            assert crash.status == CRASH
            (diag,) = crash.diagnostics
            assert diag.stage == "pipeline" and diag.severity is Severity.ERROR and "SIGSEGV" in diag.message
            assert crashing.cached(_request()) is None  # crashes are not cached
            error = await failing.compile(_request(), 60)
            assert error.status == CRASH and "RuntimeError: pipeline bug" in error.diagnostics[0].message
        finally:
            crashing.close()
            failing.close()

    asyncio.run(main())


def test_timeout_kills_the_run_and_the_next_one_works() -> None:
    async def main() -> None:
        service = _service(sleeps)
        try:
            started = time.perf_counter()
            slow = await service.compile(PipelineRequest("30", "k.mlir", CompileOptions()), 0.3)
            assert slow.status == TIMEOUT and time.perf_counter() - started < 10
            assert "did not finish within 0.3 s" in slow.diagnostics[0].message
            assert slow.diagnostics[0].severity is Severity.WARNING
            fast = await service.compile(PipelineRequest("0", "k.mlir", CompileOptions()), 30)
            assert fast.status == DONE
        finally:
            service.close()

    asyncio.run(main())


def test_the_timeout_holds_while_messages_keep_coming() -> None:
    """The deadline is checked whatever the worker sends: a run whose early reports come every
    few ms still times out (it was only checked when a poll found nothing)."""

    async def main() -> None:
        service = _service(chatty)
        try:
            started = time.perf_counter()
            slow = await service.compile(PipelineRequest("3", "k.mlir", CompileOptions()), 0.2, lambda _: None)
            assert slow.status == TIMEOUT and time.perf_counter() - started < 2.5
        finally:
            service.close()

    asyncio.run(main())


async def _cancel_while_running(service: BackgroundPipeline, request: PipelineRequest, after: float) -> list[Any]:
    """Start `request`, cancel its only waiter `after` seconds after a worker took it up; the
    workers that were busy."""
    task = asyncio.ensure_future(service.compile(request, 120))
    while not any(w.ready for w in service.pool._all):
        await asyncio.sleep(0.05)
    await asyncio.sleep(after)
    busy = [w for w in service.pool._all if w.ready and w not in service.pool._idle]
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return busy


async def _handed_back_within(service: BackgroundPipeline, worker: Any, limit: float, what: str = "") -> None:
    """Wait until the cancelled `worker` is idle again (it reported CANCELLED), alive, failing
    once `limit` seconds have passed."""
    started = time.perf_counter()
    while worker not in service.pool._idle:
        assert time.perf_counter() - started < limit, what or f"the worker was not handed back within {limit} s"
        await asyncio.sleep(0.005)
    assert worker.proc.is_alive()


def test_cancelling_the_last_waiter_stops_the_worker() -> None:
    async def main() -> None:
        service = _service(sleeps, max_busy=1)
        try:
            busy = await _cancel_while_running(service, PipelineRequest("30", "k.mlir", CompileOptions()), 1.0)
            assert busy and service.inflight == {}
            # The one slot frees up: the next request runs although the first slept for 30 s.
            started = time.perf_counter()
            fast = await service.compile(PipelineRequest("0", "k.mlir", CompileOptions()), 30)
            assert fast.status == DONE and time.perf_counter() - started < 10
            assert not any(w.proc.is_alive() for w in busy if w not in service.pool._idle)
        finally:
            service.close()

    asyncio.run(main())


def test_handed_over_is_set_once_a_worker_has_the_request() -> None:
    async def main() -> None:
        service = _service(sleeps, max_busy=1)
        try:
            request = PipelineRequest("1.0", "k.mlir", CompileOptions())
            handed_over = asyncio.Event()
            started = time.perf_counter()
            run = asyncio.ensure_future(service.compile(request, 30, handed_over=handed_over))
            await asyncio.wait_for(handed_over.wait(), 30)  # (the worker starts cold: imports)
            assert not run.done()  # it has the request, and sleeps on it for a second
            report = await run
            assert report.status == DONE and time.perf_counter() - started >= 1.0
            cached = asyncio.Event()
            assert await service.compile(request, 30, handed_over=cached) is report and cached.is_set()
        finally:
            service.close()

    asyncio.run(main())


def test_a_worker_freezes_what_survives_its_gc() -> None:
    """After a report the worker collects and freezes the survivors (its caches), so the next
    collection scans only the next compile's objects, not every cache entry again."""

    async def main() -> None:
        service = _service(keeps_objects, max_busy=1)
        try:
            first = await service.compile(PipelineRequest("100000", "k.mlir", CompileOptions()), 30)
            await asyncio.sleep(1.0)  # (its housekeeping runs once it has reported)
            second = await service.compile(PipelineRequest("0", "k.mlir", CompileOptions()), 30)
            assert first.status == second.status == DONE
            assert second.seconds >= first.seconds + 100000  # the kept objects are frozen
        finally:
            service.close()

    asyncio.run(main())


def test_housekeeping_waits_for_no_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's housekeeping (background._Housekeeping): beside ptxas it writes the deferred
    disk copies and collects; after a report it collects only when no job is waiting (or after
    _COLLECT_EVERY compiles without one); every FULL_COLLECT_EVERY-th collection unfreezes."""
    import gc

    from tile_lsp import background

    done: list[str] = []

    class Cache:
        def flush(self) -> None:
            done.append("flush")

    monkeypatch.setattr(background, "_UNIT_CACHE", Cache())
    monkeypatch.setattr(gc, "collect", lambda *a: done.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: done.append("freeze"))
    monkeypatch.setattr(gc, "unfreeze", lambda: done.append("unfreeze"))
    house = background._Housekeeping()
    house.beside_ptxas()
    assert done == ["flush", "collect", "freeze"]
    house.after_report(job_waiting=False)
    assert done == ["flush", "collect", "freeze"]  # collected beside ptxas: none after the report
    done.clear()
    for _ in range(background._COLLECT_EVERY - 1):
        house.after_report(job_waiting=True)
    assert done == []  # the next job goes first
    house.after_report(job_waiting=True)
    assert done == ["collect", "freeze"]  # but not forever
    done.clear()
    house.after_report(job_waiting=False)
    assert done == ["collect", "freeze"]
    while house.collections % background.FULL_COLLECT_EVERY != background.FULL_COLLECT_EVERY - 1:
        house.collect()
    done.clear()
    house.collect()
    assert done == ["unfreeze", "collect", "freeze"]


def test_a_cancelled_compile_stops_at_a_checkpoint_and_its_worker_serves_on() -> None:
    async def main() -> None:
        service = _service(works_with_checkpoints, max_busy=1)
        try:
            [busy] = await _cancel_while_running(service, PipelineRequest("30", "k.mlir", CompileOptions()), 1.0)
            await _handed_back_within(service, busy, CANCEL_GRACE_S)
            fast = await service.compile(PipelineRequest("0", "k.mlir", CompileOptions()), 30)
            assert fast.status == DONE and busy.proc.is_alive()
        finally:
            service.close()

    asyncio.run(main())


def test_a_cancel_while_a_tool_runs_kills_the_tool_not_the_worker() -> None:
    """A compile waiting for ptxas (any external tool) stops waiting on a cancel: the tool's
    group is killed and the worker is free again well within its grace period, warm."""
    marker = "31.4159"

    async def main() -> None:
        service = _service(runs_a_tool, max_busy=1)
        try:
            [busy] = await _cancel_while_running(service, PipelineRequest(marker, "k.mlir", CompileOptions()), 1.0)
            await _handed_back_within(service, busy, CANCEL_GRACE_S / 2, "the worker waited for the tool")
            assert _processes_with(marker.encode()) == []
            fast = await service.compile(PipelineRequest("0", "k.mlir", CompileOptions()), 30)
            assert fast.status == DONE and busy.proc.is_alive()
        finally:
            service.close()

    asyncio.run(main())


def test_a_killed_worker_leaves_no_temporary_folder() -> None:
    """A worker killed mid-compile (here on the pipeline's timeout) cannot remove its ptxas
    folder itself: its temporary files live in a private folder of its own, which the server
    removes with it."""

    async def main() -> None:
        service = _service(leaves_a_folder, max_busy=1)
        try:
            run = asyncio.ensure_future(service.compile(PipelineRequest("60", "k.mlir", CompileOptions()), 3.0))
            scratch = None
            while scratch is None or not os.listdir(scratch):
                busy = [w for w in service.pool._all if w.ready and w not in service.pool._idle]
                scratch = busy[0].scratch if busy else None
                await asyncio.sleep(0.05)
            [made] = os.listdir(scratch)
            assert made.startswith("tile-lsp-ptxas-") and stat.S_IMODE(os.stat(scratch).st_mode) == 0o700
            report = await run
            assert report.status == TIMEOUT and not os.path.exists(scratch)
        finally:
            service.close()
        assert all(w.scratch is None for w in service.pool._all)

    asyncio.run(main())


def test_a_cancel_during_code_generation_kills_the_helper_not_the_worker() -> None:
    """LLVM's code generation runs in a helper process; a cancel while it works kills the helper
    (the next request forks a fresh one) and frees the worker within its grace period."""

    async def main() -> None:
        service = _service(generates_code, max_busy=1)
        try:
            first = await service.compile(PipelineRequest("10", "k.mlir", CompileOptions()), 60)
            assert first.status == DONE, first.diagnostics
            helper = int(first.seconds)
            [busy] = await _cancel_while_running(service, PipelineRequest("200000", "k.mlir", CompileOptions()), 0.5)
            await _handed_back_within(service, busy, CANCEL_GRACE_S / 2, "the worker waited for LLVM")
            assert not pathlib.Path(f"/proc/{helper}").exists()
            again = await service.compile(PipelineRequest("11", "k.mlir", CompileOptions()), 60)
            assert again.status == DONE and busy.proc.is_alive() and int(again.seconds) != helper
        finally:
            service.close()

    asyncio.run(main())


def test_a_real_compile_cancelled_midway_leaves_the_worker_sound() -> None:
    """attention, cancelled while it lowers: the worker stops it (its printing children too) and
    compiles the next request to the same PTX as a worker that was never interrupted."""
    text = (pathlib.Path(__file__).parents[1] / "data" / "cutile" / "attention.mlir").read_text()
    request = PipelineRequest(text, "/tmp/attention.mlir", CompileOptions(target=Target.parse_gpu_name("sm_90a")))

    async def main() -> None:
        service = _service(max_busy=1)
        try:
            [busy] = await _cancel_while_running(service, request, 0.4)
            await _handed_back_within(service, busy, CANCEL_GRACE_S + 0.5)
            again = await service.compile(request, 120)
            assert again.status == DONE and busy.proc.is_alive(), again.diagnostics
            reference = run_request(request)
            assert again.stage("ptx") is not None and reference.stage("ptx") is not None
            assert again.stage("ptx").text == reference.stage("ptx").text  # type: ignore[union-attr]
            assert [d.message for d in again.diagnostics] == [d.message for d in reference.diagnostics]
        finally:
            service.close()

    asyncio.run(main())


def test_settings_give_compile_options() -> None:
    from tile_lsp.session import Settings

    settings = Settings.from_json({"tileLsp": {"gpuName": "sm_90a", "optLevel": 2, "pipelineTimeout": 5, "lineinfo": False}})
    assert settings.pipelineTimeout == 5.0 and isinstance(settings.pipelineTimeout, float)
    options, error = settings.compile_options()
    assert error is None and options.target == Target(90, "a") and options.opt_level == 2 and not options.lineinfo
    assert Settings.from_json({"pipelineTimeout": None}, settings).pipelineTimeout == 30.0  # null: the default
    assert Settings.from_json({"lineinfo": 1}, settings).lineinfo is False  # ill-typed: ignored
    assert Settings().compile_options() == (CompileOptions(lineinfo=True), None)  # no target: the pipeline says so
    assert Settings(computeCapability=80).compile_options()[0].target == Target(80)
    assert (Settings(gpuName="gfx90a").compile_options()[1] or "").startswith(
        "invalid tileLsp.gpuName 'gfx90a': expected one of sm_70, sm_72, sm_75, sm_80, ")
    assert Settings(pipelineTimeout=5.0).compile_options()[0].ptxas_timeout == 5.0  # ptxas dies within the compile's time
    assert "disagree" in (Settings(gpuName="sm_90", computeCapability=80).compile_options()[1] or "")


def test_the_warm_up_kernels_compile() -> None:
    """A worker warms up on both paths (upstream gpu MLIR and cuda_tile) before its first job:
    a warm-up that failed would silently leave the first-use costs to the user's first edit."""
    from tile_lsp.background import _WARM_TEXT, _WARM_TILE
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText

    for text in (_WARM_TEXT, _WARM_TILE):
        result = compile_source(SourceText(text, "warm.mlir"), CompileOptions(target=Target(80)), "ptx", cache=False)
        assert result.ok and result.stage("ptx") is not None, [d.message for d in result.diagnostics]
