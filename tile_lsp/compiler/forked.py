"""Work on a snapshot of the process, off the critical path: `Forked(fn)` runs `fn()` in a forked
child (a copy-on-write snapshot of everything, the IR included, taken in about a millisecond)
while this process goes on, and `result()` collects what it returned.

The pipeline prints each MLIR stage this way: the next stage rewrites the module in place, so
its text must be taken now, but nothing needs that text until the compile is over. On a machine
with a free core the printing then costs no wall time at all.

Where there is no fork (not POSIX) or the child fails, `Forked` says so and the caller does the
work itself or reports it; a child never runs past its parent (`result` waits for it, and a
process-group kill takes it along).
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import tempfile
import time
from collections.abc import Callable
from typing import IO, Generic, TypeVar

T = TypeVar("T")



def enabled() -> bool:
    """Whether work may go to forked children: a POSIX fork exists and TILE_LSP_NO_FORK is unset
    (read each time: the daemon serves each client with that client's environment)."""
    return hasattr(os, "fork") and os.environ.get("TILE_LSP_NO_FORK") is None


class ForkFailed(RuntimeError):
    """The child did not hand back a result (it crashed, was killed, or could not pickle it)."""


class Forked(Generic[T]):
    """`fn()` computed in a forked child; `result()` waits for it (at most `timeout` seconds).
    With `after`, the child starts its work only once that child has exited: a chain of them
    uses one core, leaving the other to this process. With `nice`, the child lowers its CPU
    priority by that much (POSIX niceness), so it yields to this process on a busy machine."""

    _exit_r: int
    _done: bool

    def __init__(self, fn: Callable[[], T], after: Forked[object] | None = None, *, nice: int = 0) -> None:
        self._file: IO[bytes] | None = tempfile.TemporaryFile()  # noqa: SIM115 (closed in result())
        wait_fd = after._exit_r if after is not None and not after._done else None
        self._exit_r, exit_w = os.pipe()  # readable at EOF once the child (its last holder) exits
        try:
            self._pid = os.fork()
        except OSError:
            self._file.close()
            os.close(self._exit_r)
            os.close(exit_w)
            raise
        if self._pid == 0:  # the child: never returns
            code = 1
            try:
                gc.disable()  # a collection would touch (copy) every page of the snapshot
                if nice:
                    with contextlib.suppress(OSError):
                        os.nice(nice)
                if wait_fd is not None:
                    while os.read(wait_fd, 1):
                        pass
                payload = pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
                self._file.write(payload)
                self._file.flush()
                code = 0
            except BaseException:  # the parent sees the missing result
                code = 1
            finally:
                os._exit(code)
        os.close(exit_w)
        self._value: T | None = None
        self._done = False

    def result(self, timeout: float = 300.0, check: Callable[[], None] | None = None) -> T:
        """The child's value, once it has exited; `check` is called while waiting (it may raise:
        the child then runs on, see `kill`)."""
        if self._done:
            return self._value  # type: ignore[return-value]
        assert self._file is not None
        status = self._wait(timeout, check)
        try:
            if status != 0:
                raise ForkFailed(_describe(status))
            self._file.seek(0)
            value: T = pickle.loads(self._file.read())
        except (EOFError, pickle.UnpicklingError) as exc:
            raise ForkFailed(f"unreadable result: {exc}") from None
        finally:
            self._file.close()
            self._file = None
            os.close(self._exit_r)
        self._value, self._done = value, True
        return value

    def kill(self) -> None:
        """Stop the child (if it still runs) and drop its result."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(OSError):
            os.kill(self._pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.waitpid(self._pid, 0)
        if self._file is not None:
            self._file.close()
            self._file = None
        os.close(self._exit_r)

    def _wait(self, timeout: float, check: Callable[[], None] | None = None) -> int:
        deadline = time.monotonic() + timeout
        delay = 0.0005
        while True:
            pid, status = os.waitpid(self._pid, os.WNOHANG)
            if pid:
                return status
            if check is not None:
                check()
            if time.monotonic() > deadline:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
                return -1
            time.sleep(delay)
            delay = min(delay * 2, 0.01)


def _describe(status: int) -> str:
    if status == -1:
        return "timed out"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status) if os.WIFEXITED(status) else status}"


__all__ = ["ForkFailed", "Forked", "enabled"]
