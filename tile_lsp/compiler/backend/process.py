"""External tools (ptxas, nvlink) run as good citizens: each in a process group of its own, its
output read with a cap, the whole group killed on a timeout or a cancel, nothing left behind.

A tool is often a wrapper script (`exec ptxas "$@"`, or worse: one that starts children and
waits). Killing only the direct child would leave those children running, holding our pipes.
So the tool starts in a new process group, and `kill` signals the group; once the tool itself
has exited, what is left of its group (a child it did not wait for) is killed too.

A compile that is cancelled (compiler/cancel.py) while it waits for a tool stops waiting within
_CANCEL_POLL_S: the tool and its group are killed and `Cancelled` is raised, so a language
server's worker is free again at once instead of being killed after its grace period.

Output: the first `cap` bytes of stdout and of stderr are kept, the rest is read and counted
but dropped (a tool that floods stderr costs no memory), and decoded with errors replaced.

`kill_tree(pid)` is for a process that ran tools: it kills `pid`'s process group and the groups
of all its descendants (found in /proc where there is one), since a tool's group is not its
parent's.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from tile_lsp.compiler import cancel

OUTPUT_CAP = 1 << 20  # bytes kept per stream
_CHUNK = 1 << 16
_CANCEL_POLL_S = 0.02  # how often a wait looks for a cancel of the compile it belongs to
_EXIT_POLL_S = 0.05  # how often exit is checked while a leftover child holds the pipes (no pidfd)
_CLOSED_POLL_S = 0.002  # ... and once the pipes are closed
_DRAIN_S = 1.0  # after the group is killed: how long its pipes may take to close


class Tool:
    """One external tool process: started in its own process group; `wait` reads its output
    (capped) until it exits or a deadline passes, `kill` stops it and its whole group."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None, cap: int = OUTPUT_CAP) -> None:
        """Raises OSError when the tool cannot be started."""
        self.argv = list(argv)
        self.cap = cap
        self.out = bytearray()
        self.err = bytearray()
        self.out_total = 0
        self.err_total = 0
        self.returncode: int | None = None
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            process_group=0, close_fds=True,
        )
        self.pid = self.proc.pid

    # -- reading
    def wait(self, timeout: float) -> bool:
        """Read the tool's output until it has exited and its pipes are closed (True), or until
        `timeout` seconds have passed (False: it still runs; `kill` it). Raises `Cancelled` when
        the compile is cancelled meanwhile (the caller kills the tool)."""
        deadline = time.monotonic() + max(0.0, timeout)
        pipes = [p for p in (self.proc.stdout, self.proc.stderr) if p is not None]
        if self.returncode is not None:
            return True
        sel = selectors.DefaultSelector()
        pidfd = -1
        try:
            for pipe in pipes:
                if not pipe.closed:
                    sel.register(pipe, selectors.EVENT_READ)
            with contextlib.suppress(AttributeError, OSError):
                pidfd = os.pidfd_open(self.pid)
                sel.register(pidfd, selectors.EVENT_READ, "exit")
            while True:
                if self._exited():
                    # Whatever of its group is left (a child it started and did not wait for)
                    # goes too; the tool is a zombie until reaped, so its group id is not reused.
                    self._signal_group()
                    self._drain(sel, time.monotonic() + _DRAIN_S)
                    self.returncode = self.proc.wait()
                    return True
                cancel.checkpoint()
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                left = min(left, _CANCEL_POLL_S)
                pipes_open = any(key.data != "exit" for key in sel.get_map().values())
                if pidfd < 0:  # exit is polled: briefly once the pipes are closed (it exits now)
                    left = min(left, _EXIT_POLL_S if pipes_open else _CLOSED_POLL_S)
                    if not pipes_open:
                        time.sleep(left)
                        continue
                for key, _ in sel.select(left):
                    if key.data != "exit":  # (exit: the next round sees it)
                        self._read(sel, key.fileobj)
        finally:
            sel.close()
            if pidfd >= 0:
                os.close(pidfd)

    def _read(self, sel: selectors.BaseSelector, pipe: Any) -> None:
        fd = pipe.fileno()
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            sel.unregister(pipe)
            return
        if pipe is self.proc.stdout:
            self.out_total += len(chunk)
            room = self.cap - len(self.out)
            if room > 0:
                self.out += chunk[:room]
        else:
            self.err_total += len(chunk)
            room = self.cap - len(self.err)
            if room > 0:
                self.err += chunk[:room]

    def _drain(self, sel: selectors.BaseSelector, until: float) -> None:
        while any(key.data != "exit" for key in sel.get_map().values()):
            left = until - time.monotonic()
            if left <= 0:
                return
            for key, _ in sel.select(left):
                if key.data != "exit":
                    self._read(sel, key.fileobj)

    def _exited(self) -> bool:
        """Whether the tool has exited (without reaping it: its pid, and so its group's id, stays
        taken until `proc.wait`)."""
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True  # (reaped already)
        except (AttributeError, OSError):
            return self.proc.poll() is not None
        return info is not None

    # -- stopping
    def _signal_group(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)

    def kill(self) -> None:
        """Stop the tool and everything of its process group; reap it; close its pipes."""
        if self.returncode is None:
            self._signal_group()
            with contextlib.suppress(OSError):
                self.proc.kill()
            with contextlib.suppress(Exception):
                self.returncode = self.proc.wait(5.0)
        for pipe in (self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    # -- results
    @property
    def stdout_cut(self) -> int:
        return self.out_total - len(self.out)

    @property
    def stderr_cut(self) -> int:
        return self.err_total - len(self.err)

    def text(self, name: str = "the tool") -> str:
        """stdout then stderr, decoded (undecodable bytes replaced), with a line saying how much
        of each was cut."""
        parts = [bytes(self.out).decode("utf-8", errors="replace"), bytes(self.err).decode("utf-8", errors="replace")]
        text = "".join(p if not p or p.endswith("\n") else p + "\n" for p in parts)
        for stream, cut, total in (("stdout", self.stdout_cut, self.out_total), ("stderr", self.stderr_cut, self.err_total)):
            if cut > 0:
                text += f"[{name} wrote {total} bytes to {stream}: the first {total - cut} are kept, {cut} were cut]\n"
        return text


def run_tool(argv: Sequence[str], timeout: float, *, cwd: str | None = None, cap: int = OUTPUT_CAP) -> Tool:
    """Run a tool to its end (or kill it with its group after `timeout` s: `returncode` None).
    Raises OSError when it cannot be started."""
    tool = Tool(argv, cwd=cwd, cap=cap)
    try:
        if not tool.wait(timeout):
            tool.kill()
            tool.returncode = None
    except BaseException:
        tool.kill()
        raise
    finally:
        for pipe in (tool.proc.stdout, tool.proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
    return tool


def _children() -> dict[int, list[int]]:
    """ppid -> pids, from /proc (empty where there is none)."""
    out: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(b")", 1)[-1].split()
        if len(fields) > 1:
            out.setdefault(int(fields[1]), []).append(int(name))
    return out


def kill_tree(pid: int) -> None:
    """SIGKILL `pid`'s process group, the process groups of all its descendants (a tool it runs
    has a group of its own) and `pid` itself. `pid`'s group is stopped first, so that it starts
    no new tool while its descendants are looked for."""
    own = os.getpgrp()
    if pid != own:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGSTOP)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGSTOP)
    children = _children()
    groups: list[int] = []
    todo, seen = [pid], {pid}
    while todo:
        current = todo.pop()
        with contextlib.suppress(OSError):
            groups.append(os.getpgid(current))
        for child in children.get(current, ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    for group in dict.fromkeys([*groups, pid]):
        if group != own:
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
