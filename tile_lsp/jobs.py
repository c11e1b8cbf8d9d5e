"""Requests as jobs off the event loop: each runs on a worker thread, stops at its work's
checkpoints when cancelled or when an edit supersedes its version, and never kills the server.

Plain asyncio and threads, no protocol: the facade (`facade.py`) wraps its feature functions with
`Jobs.job`; the server maps `Superseded` to ContentModified and a cancelled task to
RequestCancelled (`server.py`).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tile_lsp.compiler.document import Stopped
from tile_lsp.session import Snapshot


class Superseded(Exception):
    """A request's document changed before or during its work: answered ContentModified."""


class Jobs:
    """The two request threads, and the wrapper that puts a feature function on one."""

    def __init__(self, snapshot: Callable[[str], Snapshot | None], log_failure: Callable[[], None]) -> None:
        self.snapshot = snapshot
        self.log_failure = log_failure
        # Expensive requests (semantic tokens, references, formatting, completion, code actions),
        # one at a time off the loop: hovers, edits and $/cancelRequest are read meanwhile.
        self.request_pool = ThreadPoolExecutor(1, thread_name_prefix="tile-lsp-request")
        # Quick requests (hover, definition, highlights, symbols, folding, rename), one at a time
        # on a thread of their own: one that must wait for its version's analysis (the analysis
        # thread is making it) blocks neither the loop nor the expensive requests' thread.
        self.quick_pool = ThreadPoolExecutor(1, thread_name_prefix="tile-lsp-quick")

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` on the expensive requests' thread (no checkpoints of its own)."""
        return await asyncio.get_running_loop().run_in_executor(self.request_pool, fn, *args)

    def job(
        self,
        default: Callable[[], object],
        *,
        drop_superseded: bool = False,
        quick: bool = False,
        passthrough: tuple[type[Exception], ...] = (),
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """A request handler `fn(params, snap, cancelled)` as an async `handler(params)` run on the
        request thread, so that the loop keeps reading and answering (hovers, didChange,
        $/cancelRequest); `snap` is the document's version when the request came (None: not
        open, or no text document: workspace/symbol). A cancel of the awaiting task answers at
        once, and `cancelled()` turns true for the work's checkpoints (a job not started yet does
        not start). With `drop_superseded`, a job whose version is superseded before it starts,
        or while it makes its version's analysis or does its work (at their checkpoints), is
        dropped with `Superseded` (the text it asked about is gone; clients ask again for the new
        version), so a client that does not cancel cannot queue up work on stale versions, and no
        request waits behind the analysis of a version nobody will see. `quick`: on the quick
        requests' thread. A failure is logged and answers `default()`; an exception of a
        `passthrough` class goes to the caller (an error the editor shows: a refused rename)."""

        def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
            def work(params: Any, snap: Snapshot | None, flag: threading.Event) -> Any:
                if flag.is_set():
                    raise Stopped()
                watched = snap if drop_superseded else None
                if watched is not None and (watched.superseded or watched.analysis_unless_superseded() is None):
                    raise Superseded()  # (an analysis made here stops once an edit supersedes it)
                # (with drop_superseded the work's checkpoints also stop it once an edit came)
                stop = (lambda: flag.is_set() or watched.superseded) if watched is not None else flag.is_set
                try:
                    return fn(params, snap, stop)
                except Stopped:
                    if watched is not None and not flag.is_set():
                        raise Superseded() from None
                    raise

            @functools.wraps(fn)
            async def handler(params: Any) -> Any:
                flag = threading.Event()
                document = getattr(params, "text_document", None)
                snap = self.snapshot(document.uri) if document is not None else None
                pool = self.quick_pool if quick else self.request_pool
                try:
                    return await asyncio.get_running_loop().run_in_executor(pool, work, params, snap, flag)
                except asyncio.CancelledError:
                    flag.set()
                    raise
                except Stopped:
                    raise asyncio.CancelledError() from None
                except Superseded:
                    raise
                except passthrough:
                    raise
                except Exception:  # never let one request kill the server
                    self.log_failure()
                    return default()

            return handler

        return wrap
