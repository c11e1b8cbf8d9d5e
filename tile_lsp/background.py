"""The lowering pipeline off the language server's request loop: worker processes, a cache,
cancellation and a timeout.

`BackgroundPipeline.compile(request, timeout)` (asyncio) runs `compile_source` in a worker
process and returns a `PipelineReport` (plain, picklable data). Reports are cached by the
request (text, path, compile options, emit); concurrent callers of the same request share one
run. A run nobody waits for any more is cancelled: its worker is signalled (CANCEL_SIGNAL) and
stops the compile at its next checkpoint (compiler/cancel.py), staying warm with its caches; one
that has not stopped within CANCEL_GRACE_S is killed with its process group (the LLVM codegen
child and ptxas included), as are runs past their timeout. A worker that dies is a
"crash" report with a diagnostic, never an exception in the server. A warm spare worker is kept
so that the run after a cancellation starts at once.

Editor-agnostic: no LSP types here (the server turns reports into LSP messages).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import itertools
import multiprocessing
import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from tile_lsp.compiler import cancel
from tile_lsp.compiler.diagnostics import Diagnostic, Severity
from tile_lsp.compiler.provenance import SourceRef, lines_of_source
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.target import CompileOptions, Target

DONE, TIMEOUT, CRASH, CANCELLED = "done", "timeout", "crash", "cancelled"
PIPELINE_STAGE = "pipeline"  # the `stage` of the service's own diagnostics (timeout, crash)
READY_LIMIT_S = 120.0  # a worker that has not started (imports + warm-up) by then is broken
_POLL_S = 0.02
CANCEL_SIGNAL = signal.SIGUSR1  # server -> worker: stop this compile at its next checkpoint
# How long a cancelled compile may take to stop at a checkpoint (LLVM, the code generation helper
# and ptxas are never interrupted: the longest of them on attention is ~0.2 s) before its worker
# is killed and replaced instead.
CANCEL_GRACE_S = 0.5
_COLLECT_EVERY = 8  # compiles a worker may run back to back before it runs the GC anyway
FULL_COLLECT_EVERY = 32  # a worker's GC looks at its frozen objects again every this many collections
FLUSH_IDLE_S = 0.5  # a worker idle this long writes the unit cache's deferred disk copies
_CACHE_SIZE = 64
# The newest report of each file is kept (what hovers, lenses and views of an open document
# read; `forget` drops a file's reports when its document closes); the older versions (undo finds them) only
# while they hold at most this much (estimated: texts and line maps): the reports of a 2 MB
# file's versions are ~30 MB each, attention's 1.6 MB.
_CACHE_BUDGET = 24 << 20
# Imported once in the fork server, so that every worker forked from it starts warm.
_PRELOAD = [
    "tile_lsp.background",
    "tile_lsp.compiler.pipeline",
    "tile_lsp.compiler.entry_cache",
    "tile_lsp.compiler.entry_merge",
    "tile_lsp.compiler.mlir.context",
    "tile_lsp.compiler.lowering.to_nvvm",
    "tile_lsp.compiler.lowering.nvvm_to_llvm",
    "tile_lsp.compiler.lowering.intrinsics",
    "tile_lsp.compiler.backend.llvmir",
    "tile_lsp.compiler.backend.llvm",
    "tile_lsp.compiler.backend.ptxas",
    "tile_lsp.compiler.frontend",
    "tile_lsp.compiler.forked",
    "tile_lsp.compiler.lowering.cse",
    "tile_lsp.compiler.lowering.tile_to_tileaa",
    "tile_lsp.compiler.lowering.tileaa_to_gpu",
    "tile_lsp.compiler.lowering.gpu_mma",
    "tile_lsp.compiler.lowering.gpu_reduce",
]
_WARM_TEXT = """module attributes {gpu.container_module} {
  gpu.module @warm {
    gpu.func @warm(%a: memref<4xf32, 1>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<4xf32, 1>
      memref.store %v, %a[%t] : memref<4xf32, 1>
      gpu.return
    }
  }
}
"""


_WARM_TILE = """cuda_tile.module @warm {
  entry @warm(%a: tile<ptr<f32>>) {
    %lane = iota : tile<128xi32>
    %a_1d = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %a_v = broadcast %a_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %a_p = offset %a_v, %lane : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t0 = load_ptr_tko weak %a_p : tile<128xptr<f32>> -> tile<128xf32>, token
    %y = addf %x, %x : tile<128xf32>
    %t1 = store_ptr_tko weak %a_p, %y : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
"""


@dataclass(frozen=True)
class PipelineRequest:
    """One compile: the document text, its path, the options; hashable (the cache key)."""

    text: str
    path: str
    options: CompileOptions
    emit: str = "ptx"
    target_error: str | None = None  # the settings name a target that does not parse: report it


@dataclass
class StageText:
    """One stage's output as text (the cubin stage: its size line), with its time."""

    name: str
    text: str
    seconds: float
    # Per 0-based line of `text`: the source op it was lowered from (CompileResult.stage_lines).
    # (The MLIR stages' text with `loc(...)` stays in the worker: nothing in the server reads it,
    # and it was half of the report the worker pickles for every compile.)
    line_refs: list[SourceRef | None] | None = None


@dataclass
class EarlyReport:
    """The stage diagnostics of a compile still running: every stage's through PTX, sent by the
    worker just before ptxas runs (`compile_source(early=...)`); the full report follows."""

    diagnostics: list[Diagnostic]
    seconds: float


@dataclass
class PipelineReport:
    """What a background compile produced; `status` says whether it finished."""

    status: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stages: list[StageText] = field(default_factory=list)
    kernels: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> ptxas resources
    target: str | None = None
    start_stage: str | None = None
    ptxas_command: str | None = None
    seconds: float = 0.0
    # Source offset of an op -> the layout the gpu stage gave its result (CompileResult.layouts).
    layouts: dict[int, str] = field(default_factory=dict)
    # Compile units (entries) compiled vs taken from the per-entry cache (CompileResult.unit_stats).
    unit_stats: dict[str, Any] = field(default_factory=dict)

    def stage(self, name: str) -> StageText | None:
        return next((s for s in self.stages if s.name == name), None)

    def layout_at(self, where: Span) -> str | None:
        """The gpu stage's layout for the op starting in `where`, if it recorded one."""
        return next((text for at, text in sorted(self.layouts.items()) if where.start <= at < where.end), None)

    def source_to_lines(self, stage: str, where: int | Span) -> list[int]:
        """The 0-based lines of `stage`'s text lowered from source line `where` (an int) or from
        source ops at offsets in the range `where` (a Span): CompileResult.source_to_lines."""
        out = self.stage(stage)
        if out is None or not out.line_refs:
            return []
        return lines_of_source(out.line_refs, SourceText(""), where)


# -- the worker side ------------------------------------------------------------------------


# In a worker, while a job runs: sends that job's EarlyReport to the server (`_worker_main`).
_early_sink: Callable[[EarlyReport], None] | None = None


def run_request(request: PipelineRequest) -> PipelineReport:
    """Compile one request (in a worker process) into a report. Never raises for user errors.
    In a worker, the stage diagnostics also go out early, before ptxas runs (`_early_sink`)."""
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.pipeline import MISSING_TARGET

    started = time.perf_counter()
    source = SourceText(request.text, request.path)
    if request.target_error is not None:
        diag = Diagnostic(_file_start(source), Severity.ERROR, f"{MISSING_TARGET}: {request.target_error}", "options")
        return PipelineReport(DONE, [diag], seconds=time.perf_counter() - started)
    sink = _early_sink

    def early(diagnostics: list[Diagnostic]) -> None:
        if sink is not None:
            sink(EarlyReport(diagnostics, time.perf_counter() - started))

    result = compile_source(source, request.options, request.emit, cache=_unit_cache(), early=early)
    stages: list[StageText] = []
    for out in result.stages:
        stages.append(StageText(out.name, out.text, out.seconds, _line_refs(result, out.name)))
    kernels = {name: _plain(res) for name, res in result.kernels.items()}
    return PipelineReport(
        DONE,
        list(result.diagnostics),
        stages,
        kernels,
        result.target.chip if result.target else None,
        result.start_stage,
        result.ptxas_command,
        time.perf_counter() - started,
        dict(getattr(result, "layouts", None) or {}),
        _unit_stats(getattr(result, "unit_stats", None)),
    )


def _unit_stats(stats: Any) -> dict[str, Any]:
    """The per-entry cache's counters as plain JSON (entry_cache.UnitStats.as_json)."""
    if stats is None:
        return {}
    as_json = getattr(stats, "as_json", None)
    return dict(as_json()) if callable(as_json) else dict(stats)


_UNIT_CACHE: Any = None


def _unit_cache() -> Any:
    """This worker's per-entry cache: memory, backed by the same directory as `tile-lsp
    compile` ($XDG_CACHE_HOME/tile-lsp/units), so that a worker killed by a newer version (or a
    fresh spare) still finds every entry compiled before. Disk writes wait until the next
    compile's ptxas runs or the worker is idle (`_Housekeeping`)."""
    global _UNIT_CACHE
    if _UNIT_CACHE is None:
        from tile_lsp.compiler.backend.cuda_tools import set_trim_directory
        from tile_lsp.compiler.entry_cache import EntryCache, default_directory, disk_cache_folders, refused_notice
        from tile_lsp.compiler.private_files import UnsafeLocation

        set_trim_directory(None)
        try:  # (folders someone else could write are not used: said once, in the server's log)
            directory, trimmed = disk_cache_folders(default_directory(os.environ, os.path.expanduser("~")))
        except OSError as exc:
            if isinstance(exc, UnsafeLocation):
                print(refused_notice(exc), file=sys.stderr)
            _UNIT_CACHE = EntryCache(defer_writes=True)
        else:
            set_trim_directory(trimmed)
            _UNIT_CACHE = EntryCache(directory=directory, defer_writes=True)
    return _UNIT_CACHE


def _line_refs(result: Any, stage: str) -> list[SourceRef | None] | None:
    stage_lines = getattr(result, "stage_lines", None)
    if stage_lines is None:
        return None
    try:
        refs = stage_lines(stage)
    except Exception:  # the line maps are an extra; a bug there must not lose the compile
        return None
    return list(refs) if refs else None


def _plain(res: Any) -> dict[str, Any]:
    fields = getattr(res, "__dataclass_fields__", None)
    items = {k: getattr(res, k) for k in fields} if fields else dict(vars(res))
    return {k: v for k, v in items.items() if isinstance(v, (int, float, str, bool))}


def _file_start(source: SourceText) -> Span:
    return Span(0, min(1, len(source.text)))


def _receive(conn: Connection) -> Any:
    """`conn.recv()` with the cyclic GC paused: a report holds ~10^5 small objects (line maps),
    and the collections their unpickling triggers took up to 0.3 s of the server's GIL."""
    data = conn.recv_bytes()
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if enabled:
            gc.enable()


class _Housekeeping:
    """A worker's garbage collection and unit-cache disk writes, done where they cost no one a
    wait: while ptxas runs (`pipeline.work_beside_ptxas`; the pipeline has let go of the IR by then,
    `pipeline._release_ir`), after a report unless the next job is already there, and when idle.

    The cyclic GC never runs during a compile (it took ~10% of a large kernel's compile): what
    survives a collection (the imports, the caches) is frozen out of the next ones, which then
    cost only a compile's garbage (attention's stages: ~46k objects, ~40 ms; ~150 ms when the
    caches were scanned again each time). Every FULL_COLLECT_EVERY-th collection unfreezes
    first, so a cycle dropped from a cache since is still freed. The collection beside ptxas
    freezes what is alive then, the report's texts and maps included: they hold no cycles, so
    reference counting still frees them."""

    def __init__(self) -> None:
        self.uncollected = 0  # compiles finished since the last collection
        self.collections = 0
        self.beside_done = False  # this compile's collection ran beside its ptxas

    def collect(self) -> None:
        self.collections += 1
        if self.collections % FULL_COLLECT_EVERY == 0:
            gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.uncollected = 0

    def beside_ptxas(self) -> None:
        """The disk copies of the compiles before this one, and this compile's garbage."""
        self.flush()
        self.collect()
        self.beside_done = True

    def after_report(self, job_waiting: bool) -> None:
        """A collection unless one ran beside this compile's ptxas (the few hundred objects
        left since wait for the next one) or a job is waiting (at most _COLLECT_EVERY compiles
        go uncollected, for compiles without a ptxas)."""
        if self.beside_done:
            self.beside_done = False
            return
        self.uncollected += 1
        if job_waiting and self.uncollected < _COLLECT_EVERY:
            return
        self.collect()

    @staticmethod
    def flush() -> None:
        if _UNIT_CACHE is not None:
            _UNIT_CACHE.flush()


def _worker_main(conn: Connection, compile_fn: Callable[[PipelineRequest], PipelineReport], warm: bool,
                 scratch: str | None = None) -> None:
    """A worker process: warm up, say "ready", then compile requests until the pipe closes.
    Its temporary files (ptxas's folders, the code-generation helper's stderr) go to `scratch`,
    a private folder the server removes once the worker is gone, killed or not."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # its own group: a cancel kills the LLVM child and ptxas with it
    if scratch is not None:
        tempfile.tempdir = scratch
        os.environ["TMPDIR"] = scratch  # (and the tools' own temporary files)
    # The server talks LSP on stdout: nothing of ours (nor ptxas's) may ever write there.
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(2, 1)
    sys.stdout = sys.stderr
    if warm:
        with contextlib.suppress(Exception):
            run_request(PipelineRequest(_WARM_TEXT, "warm.mlir", CompileOptions(target=Target(80))))
        with contextlib.suppress(Exception):  # the cuda_tile path's first-use costs too (~0.2 s)
            from tile_lsp.compiler.entry_cache import compile_source

            compile_source(SourceText(_WARM_TILE, "warm.mlir"), CompileOptions(target=Target(80)), "ptx", cache=False)
    try:
        conn.send(("ready", None))
    except (OSError, ValueError):  # the server went away while this worker warmed up
        return
    # The cyclic GC runs between compiles and beside ptxas, never during the stages (see
    # _Housekeeping): what the imports and the warm-up made is frozen out of its scans.
    gc.freeze()
    gc.disable()
    housekeeping = _Housekeeping()
    from tile_lsp.compiler import pipeline

    pipeline.work_beside_ptxas(housekeeping.beside_ptxas)
    global _early_sink
    signal.signal(CANCEL_SIGNAL, _cancel_requested)
    while True:
        try:
            if not conn.poll(FLUSH_IDLE_S):
                housekeeping.flush()  # idle: the last compiles' disk copies
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job, request = message
        _early_sink = functools.partial(_send_early, conn, job)
        cancel.clear()  # (a signal meant for the job before may come after its report)
        try:
            report = compile_fn(request)
        except cancel.Cancelled:
            report = PipelineReport(CANCELLED)
        except BaseException as exc:  # a pipeline bug: report it, keep serving
            source = SourceText(request.text, request.path)
            text = f"tile-lsp's pipeline failed: {type(exc).__name__}: {exc}"
            report = PipelineReport(CRASH, [Diagnostic(_file_start(source), Severity.ERROR, text, PIPELINE_STAGE)])
        _early_sink = None
        try:
            conn.send((job, report))
        except (OSError, ValueError):
            return
        del report
        housekeeping.after_report(conn.poll(0))


def _cancel_requested(signum: int, frame: Any) -> None:
    cancel.request()  # the compile stops at its next checkpoint (compiler/cancel.py)


def _send_early(conn: Connection, job: int, early: EarlyReport) -> None:
    with contextlib.suppress(OSError, ValueError):  # the server went away: the compile's end says so
        conn.send((job, early))


# -- the server side ------------------------------------------------------------------------


def _context() -> Any:
    """Workers fork from a clean, single-threaded fork server that has the compiler imported."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(_PRELOAD)
        return ctx
    return multiprocessing.get_context("spawn")


class _Worker:
    def __init__(self, ctx: Any, compile_fn: Callable[[PipelineRequest], PipelineReport], warm: bool) -> None:
        parent, child = ctx.Pipe()
        self.conn: Connection = parent
        # The worker's temporary folder: what a killed worker leaves (a ptxas folder) goes with it.
        self.scratch: str | None = tempfile.mkdtemp(prefix="tile-lsp-worker-")
        self.proc = ctx.Process(target=_worker_main, args=(child, compile_fn, warm, self.scratch), daemon=True,
                                name="tile-lsp-pipeline")
        self.proc.start()
        child.close()
        self.ready = False

    def wait_ready(self, cancel: threading.Event, limit: float) -> str:
        """DONE once the worker said ready; CANCELLED or CRASH otherwise."""
        deadline = time.monotonic() + limit
        while not self.ready:
            if cancel.is_set():
                return CANCELLED
            if time.monotonic() > deadline:
                return CRASH
            try:
                if self.conn.poll(_POLL_S):
                    self.conn.recv()
                    self.ready = True
            except (EOFError, OSError):
                return CRASH
        return DONE

    def interrupt(self) -> None:
        """Ask the worker to stop its compile at the next checkpoint (it reports CANCELLED)."""
        if self.proc.pid is not None:
            with contextlib.suppress(OSError):
                os.kill(self.proc.pid, CANCEL_SIGNAL)

    def kill(self) -> None:
        pid = self.proc.pid
        if pid is not None:
            from tile_lsp.compiler.backend.process import kill_tree

            kill_tree(pid)  # the worker's group (LLVM child) and ptxas's (a group of its own)
        self.proc.join(2.0)
        with contextlib.suppress(OSError):
            self.conn.close()
        self.remove_scratch()

    def remove_scratch(self) -> None:
        """Remove the worker's temporary folder (once it has exited: call after join)."""
        if self.scratch is not None and not self.proc.is_alive():
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.proc.join(0.5)
        if self.proc.is_alive():
            self.kill()
        self.remove_scratch()

    def exit_description(self) -> str:
        self.proc.join(1.0)
        code = self.proc.exitcode
        if code is None:
            return "the worker stopped answering"
        if code < 0:
            try:
                return f"the worker was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"the worker was killed by signal {-code}"
        return f"the worker exited with status {code}"


class WorkerPool:
    """At most `max_busy` compiling workers, plus `spare` warm idle ones started ahead."""

    def __init__(
        self,
        compile_fn: Callable[[PipelineRequest], PipelineReport] = run_request,
        *,
        warm: bool = True,
        max_busy: int | None = None,
        spare: int = 1,
    ) -> None:
        self.compile_fn = compile_fn
        self.warm = warm
        self.max_busy = max_busy or max(1, min(2, (os.cpu_count() or 2) - 1))
        self.spare = spare
        self._ctx: Any = None
        self._lock = threading.Lock()
        self._starting = threading.Lock()
        self._slots = threading.BoundedSemaphore(self.max_busy)
        self._idle: list[_Worker] = []
        self._all: set[_Worker] = set()
        self._closed = False

    def _start(self) -> _Worker:
        if self._ctx is None:
            self._ctx = _context()
        worker = _Worker(self._ctx, self.compile_fn, self.warm)
        with self._lock:
            closed = self._closed
            if not closed:
                self._all.add(worker)
        if closed:  # (started by a prestart that raced `close`: it goes at once, its folder too)
            worker.stop()
        return worker

    def prestart(self) -> None:
        """Start spare workers until `spare` are idle (one starter at a time)."""
        with self._starting:
            with self._lock:
                missing = self.spare - len(self._idle)
            for _ in range(max(0, missing)):
                if self._closed:
                    return
                worker = self._start()
                with self._lock:
                    self._idle.append(worker)

    def acquire(self, cancel: threading.Event) -> _Worker | None:
        while not self._slots.acquire(timeout=_POLL_S):
            if cancel.is_set() or self._closed:
                return None
        worker = None
        with self._lock:
            while self._idle and worker is None:
                worker = self._idle.pop()
                if not worker.proc.is_alive():  # died while idle (killed from outside): drop it
                    self._all.discard(worker)
                    worker.remove_scratch()
                    worker = None
        if worker is None:
            try:
                worker = self._start()
            except Exception:
                self._slots.release()
                raise
        threading.Thread(target=self.prestart, daemon=True, name="tile-lsp-prestart").start()
        return worker

    def release(self, worker: _Worker, healthy: bool) -> None:
        if healthy and not self._closed:
            with self._lock:
                self._idle.append(worker)
        else:
            worker.kill()
            with self._lock:
                self._all.discard(worker)
        self._slots.release()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._all)
            self._all.clear()
            self._idle.clear()
        for worker in workers:
            worker.stop()


class _Early:
    """A running compile's EarlyReport, handed from the thread that reads the worker to the
    asyncio loop's listeners (each called once; one that comes late gets it at once); and the
    moment the worker has the request (`sent`: events waiting for it are set then, or at once)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.report: EarlyReport | None = None
        self.listeners: list[Callable[[EarlyReport], None]] = []
        self.sent = False  # a worker has the request (or the run is over)
        self.sent_events: list[asyncio.Event] = []  # set then

    def handed_over(self) -> None:  # on the reading thread
        self.loop.call_soon_threadsafe(self.mark_sent)

    def mark_sent(self) -> None:
        self.sent = True
        events, self.sent_events = self.sent_events, []
        for event in events:
            event.set()

    def on_sent(self, event: asyncio.Event) -> None:
        if self.sent:
            event.set()
        else:
            self.sent_events.append(event)

    def arrived(self, report: EarlyReport) -> None:  # on the reading thread
        self.loop.call_soon_threadsafe(self._deliver, report)

    def _deliver(self, report: EarlyReport) -> None:
        self.report = report
        listeners, self.listeners = self.listeners, []
        for listener in listeners:
            listener(report)

    def listen(self, listener: Callable[[EarlyReport], None]) -> None:
        if self.report is not None:
            self.loop.call_soon(listener, self.report)
        else:
            self.listeners.append(listener)

    def forget(self, listener: Callable[[EarlyReport], None]) -> None:
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)


@dataclass
class _Inflight:
    future: asyncio.Future[PipelineReport]
    cancel: threading.Event
    early: _Early
    waiters: int = 0


def report_bytes(request: PipelineRequest, report: PipelineReport) -> int:
    """A cached report's estimated size: the request's text, the stages' texts (a byte a
    character), 8 bytes a line-map slot, 200 a diagnostic."""
    size = len(request.text) + 200 * len(report.diagnostics)
    for stage in report.stages:
        size += len(stage.text) + 8 * len(stage.line_refs or ())
    return size


class BackgroundPipeline:
    """Cached, shared, cancellable background compiles (call from one asyncio loop)."""

    def __init__(
        self, pool: WorkerPool | None = None, cache_size: int = _CACHE_SIZE, cache_budget: int = _CACHE_BUDGET
    ) -> None:
        self.pool = pool or WorkerPool()
        self.cache: OrderedDict[PipelineRequest, PipelineReport] = OrderedDict()
        self.cache_size = cache_size
        self.cache_budget = cache_budget
        self._cache_bytes: dict[PipelineRequest, int] = {}
        self._newest: dict[str, PipelineRequest] = {}  # path -> its newest cached report's request
        self.inflight: dict[PipelineRequest, _Inflight] = {}
        self._threads = ThreadPoolExecutor(max_workers=8, thread_name_prefix="tile-lsp-pipeline")
        self._jobs = itertools.count(1)
        self.runs = 0  # compiles started (for tests and benchmarks)
        self._prestarted = False

    def prestart(self) -> None:
        """Start the worker processes now (in the background), so the first compile is fast."""
        if not self._prestarted:
            self._prestarted = True
            threading.Thread(target=self.pool.prestart, daemon=True, name="tile-lsp-prestart").start()

    def cached(self, request: PipelineRequest) -> PipelineReport | None:
        report = self.cache.get(request)
        if report is not None:
            self.cache.move_to_end(request)
        return report

    async def compile(
        self,
        request: PipelineRequest,
        timeout: float,
        early: Callable[[EarlyReport], None] | None = None,
        handed_over: asyncio.Event | None = None,
    ) -> PipelineReport:
        """The report for `request`: from the cache, from a run already going, or a new run.
        Cancelling the caller cancels the run once nobody else waits for it. `early` is called
        (on the loop) with the run's EarlyReport if one comes before the report; `handed_over`
        is set once a worker has the request (or the run is over)."""
        hit = self.cached(request)
        if hit is not None:
            if handed_over is not None:
                handed_over.set()
            return hit
        entry = self.inflight.get(request)
        if entry is None:
            cancel = threading.Event()
            loop = asyncio.get_running_loop()
            box = _Early(loop)
            future = loop.run_in_executor(
                self._threads, self._run, request, timeout, cancel, box.arrived, box.handed_over
            )
            future.add_done_callback(lambda _: box.mark_sent())
            entry = _Inflight(future, cancel, box)
            self.inflight[request] = entry
            self.runs += 1
            future.add_done_callback(functools.partial(self._finished, request, entry))
        entry.waiters += 1
        if early is not None:
            entry.early.listen(early)
        if handed_over is not None:
            entry.early.on_sent(handed_over)
        try:
            return await asyncio.shield(entry.future)
        except asyncio.CancelledError:
            if early is not None:
                entry.early.forget(early)
            entry.waiters -= 1
            if entry.waiters <= 0 and not entry.future.done():
                entry.cancel.set()
                if self.inflight.get(request) is entry:
                    del self.inflight[request]
            raise

    def _finished(self, request: PipelineRequest, entry: _Inflight, future: asyncio.Future[PipelineReport]) -> None:
        if self.inflight.get(request) is entry:
            del self.inflight[request]
        if future.cancelled() or future.exception() is not None:
            return
        report = future.result()
        if report.status == DONE:  # timeouts and crashes are retried next time
            self.cache[request] = report
            self.cache.move_to_end(request)
            self._cache_bytes[request] = report_bytes(request, report)
            self._newest[request.path] = request
            self._trim()

    def _trim(self) -> None:
        """Drop the least recently used reports past the count, and older versions (not the
        newest of their file) past the byte budget."""
        newest = set(self._newest.values())
        older = sum(size for key, size in self._cache_bytes.items() if key not in newest)
        for key in list(self.cache):
            if len(self.cache) <= 1 or (len(self.cache) <= self.cache_size and older <= self.cache_budget):
                return
            if key in newest and len(self.cache) <= self.cache_size:
                continue
            del self.cache[key]
            size = self._cache_bytes.pop(key, 0)
            if key in newest:
                del self._newest[key.path]
            else:
                older -= size

    def forget(self, path: str) -> None:
        """The document of `path` closed: its reports go (they would only crowd out others' older
        versions; reopening it unchanged recompiles from the workers' unit caches)."""
        self._newest.pop(path, None)
        for key in [key for key in self.cache if key.path == path]:
            del self.cache[key]
            self._cache_bytes.pop(key, None)

    def _run(
        self,
        request: PipelineRequest,
        timeout: float,
        cancel: threading.Event,
        early: Callable[[EarlyReport], None] = lambda _: None,
        handed_over: Callable[[], None] = lambda: None,
    ) -> PipelineReport:
        """Blocking (on a thread): one request on one worker, watching cancel and the deadline;
        the worker's EarlyReport, if it sends one, goes to `early`; `handed_over` is called once
        the worker has the request."""
        source = SourceText(request.text, request.path)
        try:
            worker = self.pool.acquire(cancel)
        except Exception as exc:
            return _service_report(CRASH, source, f"tile-lsp could not start a pipeline worker: {exc}")
        if worker is None:
            return PipelineReport(CANCELLED)
        state = worker.wait_ready(cancel, READY_LIMIT_S)
        if state == CANCELLED:
            self.pool.release(worker, healthy=True)
            return PipelineReport(CANCELLED)
        if state == CRASH:
            what = worker.exit_description()
            self.pool.release(worker, healthy=False)
            return _service_report(CRASH, source, f"tile-lsp's pipeline worker did not start ({what})")
        job = next(self._jobs)
        started = time.monotonic()
        deadline = started + max(0.0, timeout)
        stopping: float | None = None  # when the worker was asked to stop (the run was cancelled)
        try:
            worker.conn.send((job, request))
            handed_over()
            while True:
                if cancel.is_set() and stopping is None:
                    stopping = time.monotonic()
                    worker.interrupt()
                if stopping is not None and time.monotonic() - stopping > CANCEL_GRACE_S:
                    self.pool.release(worker, healthy=False)  # it did not stop in time: kill it
                    return PipelineReport(CANCELLED)
                if time.monotonic() <= deadline and worker.conn.poll(min(_POLL_S, max(0.0, deadline - time.monotonic()))):
                    got, report = _receive(worker.conn)
                    if got != job:
                        continue
                    if isinstance(report, EarlyReport):
                        if stopping is None:
                            early(report)
                        continue
                    if stopping is not None:  # stopped, or finished before it saw the request
                        self.pool.release(worker, healthy=report.status in (DONE, CANCELLED))
                        return PipelineReport(CANCELLED)
                    self.pool.release(worker, healthy=report.status == DONE)
                    return report
                if time.monotonic() > deadline:
                    self.pool.release(worker, healthy=False)
                    text = (
                        f"the pipeline did not finish within {timeout:g} s (setting tileLsp.pipelineTimeout); "
                        "no stage diagnostics for this version"
                    )
                    return _service_report(TIMEOUT, source, text, Severity.WARNING, time.monotonic() - started)
        except (EOFError, OSError, ValueError):
            what = worker.exit_description()
            self.pool.release(worker, healthy=False)
            text = f"tile-lsp's pipeline crashed on this version ({what}); front-end diagnostics still apply"
            return _service_report(CRASH, source, text, seconds=time.monotonic() - started)

    def close(self) -> None:
        for entry in list(self.inflight.values()):
            entry.cancel.set()
        self.pool.close()
        self._threads.shutdown(wait=False, cancel_futures=True)


def _service_report(
    status: str, source: SourceText, text: str, severity: Severity = Severity.ERROR, seconds: float = 0.0
) -> PipelineReport:
    return PipelineReport(status, [Diagnostic(_file_start(source), severity, text, PIPELINE_STAGE)], seconds=seconds)
