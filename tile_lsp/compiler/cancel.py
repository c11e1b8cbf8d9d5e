"""Cooperative cancellation of a compile: the language server's worker calls `request()` (from a
signal handler) when the version it compiles is superseded, and the pipeline checks it at safe
points (between stages, between the ops of a pass) with `checkpoint()`, which then raises
`Cancelled`. The worker stays alive and warm, its caches whole; a process killed instead must be
replaced (a fresh worker, its caches empty), which cost a burst of typing ~0.3 s.

A wait for another process is cancellable too: an external tool (backend/process.py: ptxas,
nvlink) is killed with its group, and the code-generation helper (backend/llvm.py) is killed and
forked afresh on the next request. Nothing is checked inside an in-process call to LLVM."""

from __future__ import annotations

_requested = False


def request() -> None:
    """Ask the compile running in this process to stop at its next checkpoint."""
    global _requested
    _requested = True


def clear() -> None:
    """Forget a request (a new compile starts; a signal meant for the one before may be late)."""
    global _requested
    _requested = False


def requested() -> bool:
    """Whether a cancel was requested (and not yet cleared)."""
    return _requested


class Cancelled(BaseException):  # noqa: N818 (like KeyboardInterrupt: no `except Exception` stops it)
    """The compile was cancelled at a checkpoint."""


def checkpoint() -> None:
    """Raise `Cancelled` if a cancel was requested."""
    if _requested:
        raise Cancelled()
