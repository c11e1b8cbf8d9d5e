"""A warm compile server for the CLI: `tile-lsp daemon start`, then every `tile-lsp compile`,
`check` and `opt` runs in it instead of starting the compiler cold.

A fresh `tile-lsp compile` spends most of its time before compiling anything: importing xDSL
(which builds several hundred op classes and parses their assembly formats), loading LLVM and
parsing libdevice. The daemon pays that once. It imports the compiler, compiles a small kernel
to warm every lazy table, and then waits on a Unix socket.

**Commands run in a worker.** The client (`run_via_daemon`, called by `tile_lsp.cli.main`
before anything else is imported) sends its argv, working directory, umask and environment, and
its own stdin, stdout and stderr as file descriptors (SCM_RIGHTS). The daemon's worker process
puts those descriptors in place of its own, moves to the client's directory, takes its
environment and runs `tile_lsp.cli.main(argv)`, exactly as the client would have, then puts its
own back for the next command (no fork per command: a fork costs the command ~20-50 ms of
copy-on-write faults, and the worker keeps the unit cache's memory). A command that comes while
the worker is busy gets a child forked for it alone. Output goes straight to the client's
terminal, pipes or files; the exit status goes back over the socket and becomes the client's.
When the client goes away (Ctrl-C, killed), the process running its command and everything it
started (ptxas) are killed; a lost worker is replaced.

**Never stale.** Before each request the daemon compares the stat signature of its own source
(and of xDSL and llvmlite) with the one it started with. When it has changed it says so and
exits; the client then compiles in its own process and starts a fresh daemon for the next time.

**Never in the way.** No daemon, a refused connection, `--no-daemon` or `TILE_LSP_DAEMON=0`: the
client compiles in its own process, as before. The socket lives in a directory only its user
can enter (`$XDG_RUNTIME_DIR/tile-lsp`, else `$TMPDIR/tile-lsp-UID`), one per Python and
tile_lsp install. The daemon exits after `--idle-timeout` seconds without requests.

This module is imported on every CLI start: it imports nothing heavy at module level. It does
not import the CLI either: `tile-lsp daemon serve` (what `start` spawns) hands `cli.main` in.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import signal
import socket
import struct
import sys
import time
import zlib

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: the client starts lean)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    Run = Callable[[list[str]], int]  # a command line to its exit status: `tile_lsp.cli.main`

PROTOCOL = 2
DAEMON_COMMANDS = frozenset({"compile", "check", "opt"})
DEFAULT_IDLE_TIMEOUT = 1800.0
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_HEADER = struct.Struct("!I")
_MAX_HEADER = 16 << 20
_MAX_SOCKET_PATH = 100  # sun_path holds 107 bytes on Linux (103 on macOS): room for bind's temporary name
_EVENT_READ = 1  # selectors.EVENT_READ (selectors is imported by the server only)
# A connection's first message must arrive within this (a real client sends it right after
# connecting); at most _MAX_PENDING connections wait for theirs, the oldest is dropped for a new one.
HANDSHAKE_TIMEOUT_S = 2.0
_MAX_PENDING = 32


# --------------------------------------------------------------------------- where
def socket_dir(environ: Mapping[str, str]) -> str:
    runtime = environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        return os.path.join(runtime, "tile-lsp")
    import tempfile

    return os.path.join(tempfile.gettempdir(), f"tile-lsp-{os.getuid()}")


def socket_path(environ: Mapping[str, str]) -> str:
    """The daemon's socket for this Python, this environment (venv) and this tile_lsp install
    (under /tmp when the runtime directory's path is too long for a Unix socket)."""
    interpreter = os.path.realpath(sys.executable)  # (python and python3 in a venv are one)
    ident = f"{interpreter}\0{sys.prefix}\0{_PACKAGE}".encode()
    key = f"{zlib.crc32(ident):08x}{zlib.adler32(ident):08x}"  # (no hashlib: ~5 ms of a client's start)
    path = os.path.join(socket_dir(environ), f"daemon-{key}.sock")
    if len(os.fsencode(path)) > _MAX_SOCKET_PATH:
        path = os.path.join(f"/tmp/tile-lsp-{os.getuid()}", f"daemon-{key}.sock")
    return path


def _private_dir(path: str, create: bool) -> bool:
    """Whether `path` is a directory that only this user can enter (made so when `create`)."""
    if create:
        with contextlib.suppress(FileExistsError):
            os.makedirs(path, mode=0o700)
    try:
        st = os.lstat(path)
    except OSError:
        return False
    import stat

    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and st.st_mode & 0o077 == 0


def source_signature() -> tuple[tuple[str, int, int], ...]:
    """(path, size, mtime) of every Python file of tile_lsp, and of xDSL's and llvmlite's
    `__init__.py` (an upgrade rewrites them): when it changes, a running daemon is stale."""
    files: list[str] = []
    for root, dirs, names in os.walk(_PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".py")]
    for module in ("xdsl", "llvmlite"):
        mod = sys.modules.get(module)
        if mod is not None and getattr(mod, "__file__", None):
            files.append(mod.__file__)  # type: ignore[arg-type]
    out = []
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append((path, st.st_size, st.st_mtime_ns))
    return tuple(out)


# --------------------------------------------------------------------------- wire format
def _send(sock: socket.socket, message: Mapping[str, Any], fds: Sequence[int] = ()) -> None:
    body = marshal.dumps(dict(message))
    head = _HEADER.pack(len(body))
    if fds:
        socket.send_fds(sock, [head], list(fds))
    else:
        sock.sendall(head)
    sock.sendall(body)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(n - got)
        if not chunk:
            raise ConnectionError("connection closed")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _recv(sock: socket.socket, want_fds: int = 0) -> tuple[dict[str, Any], list[int]]:
    fds: list[int] = []
    if want_fds:
        head, fds, _, _ = socket.recv_fds(sock, _HEADER.size, want_fds)
        if not head:
            raise ConnectionError("connection closed")
        if len(head) < _HEADER.size:
            head += _recv_exact(sock, _HEADER.size - len(head))
    else:
        head = _recv_exact(sock, _HEADER.size)
    (size,) = _HEADER.unpack(head)
    if size > _MAX_HEADER:
        for fd in fds:
            os.close(fd)
        raise ConnectionError("message too large")
    try:  # (marshal: both ends are this interpreter, and only this user can connect)
        message = marshal.loads(_recv_exact(sock, size))
    except (ValueError, EOFError, TypeError):
        message = None
    if not isinstance(message, dict):
        for fd in fds:
            os.close(fd)
        raise ConnectionError("not a message")
    return message, fds


# --------------------------------------------------------------------------- client
def wanted(argv: Sequence[str], environ: Mapping[str, str]) -> bool:
    """Whether this command line may go to a daemon."""
    if environ.get("TILE_LSP_DAEMON", "") in ("0", "off", "no") or "--no-daemon" in argv:
        return False
    if not argv or argv[0] not in DAEMON_COMMANDS:
        return False
    # A child of the daemon is not in the terminal's foreground process group: reading a
    # terminal there would stop it (SIGTTIN). Input typed at the terminal is read here.
    return not ("-" in argv[1:] and _isatty(0))


def _isatty(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _connect(path: str, timeout: float | None = None) -> socket.socket | None:
    if not os.path.exists(path) or not _private_dir(os.path.dirname(path), create=False):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    return sock


def _std_fds() -> tuple[list[int], list[int]]:
    """Descriptors 0, 1, 2 to hand over (/dev/null in place of a closed one); the ones opened here."""
    fds, opened = [], []
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
            fds.append(fd)
        except OSError:
            null = os.open(os.devnull, mode)
            fds.append(null)
            opened.append(null)
    return fds, opened


def run_via_daemon(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> int | None:
    """Run the CLI command `argv` in the daemon; its exit status, or None when no daemon ran it
    (none running, refused, or stale: the caller then runs it itself)."""
    environ = os.environ if environ is None else environ
    try:
        cwd = os.getcwd()
    except OSError:  # (a directory deleted under the shell: the command fails here, as it would)
        return None
    sock = _connect(socket_path(environ))
    if sock is None:
        return None
    umask = os.umask(0o022)
    os.umask(umask)
    fds, opened = _std_fds()
    started = False
    try:
        with sock:
            try:
                _send(sock, {"protocol": PROTOCOL, "op": "run", "argv": list(argv), "cwd": cwd, "umask": umask,
                             "env": dict(environ)}, fds)
                reply, _ = _recv(sock)
            except (OSError, ValueError):
                return None
            if reply.get("stale"):
                _restart_in_background(environ)
                return None
            if "started" not in reply:
                return None
            started = True
            try:
                done, _ = _recv(sock)
            except (OSError, ValueError):
                print("tile-lsp: the compile daemon stopped during this command; run it again "
                      "(`--no-daemon` runs it in this process)", file=sys.stderr)
                return 1
            return int(done.get("exit", 1))
    except KeyboardInterrupt:  # the socket is closed: the daemon stops the child
        if not started:
            raise
        return 130
    finally:
        for fd in opened:
            os.close(fd)


def _restart_in_background(environ: Mapping[str, str]) -> None:
    """The daemon that ran was stale and has exited: start a new one for the next command."""
    with contextlib.suppress(OSError):
        spawn(environ, DEFAULT_IDLE_TIMEOUT)


def request(environ: Mapping[str, str], op: str, timeout: float = 5.0) -> dict[str, Any] | None:
    """Send a `status` or `stop` request; the reply, or None when no daemon answers."""
    sock = _connect(socket_path(environ), timeout)
    if sock is None:
        return None
    with sock:
        try:
            _send(sock, {"protocol": PROTOCOL, "op": op})
            reply, _ = _recv(sock)
        except (OSError, ValueError):
            return None
    return reply


def spawn(environ: Mapping[str, str], idle_timeout: float) -> int:
    """Start a daemon in its own session, detached from this terminal; its pid."""
    import subprocess

    path = socket_path(environ)
    directory = os.path.dirname(path)
    if not _private_dir(directory, create=True):
        raise OSError(f"{directory} is not a private directory of this user")
    log = path[: -len(".sock")] + ".log"  # (beside the socket)
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tile_lsp", "daemon", "serve", "--idle-timeout", str(idle_timeout)],
            stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True, close_fds=True,
            env=dict(environ), cwd="/",
        )
    return proc.pid


def start(environ: Mapping[str, str], idle_timeout: float, wait: float = 60.0) -> dict[str, Any]:
    """Start a daemon unless one answers; its status once it serves (or an `error`)."""
    status = request(environ, "status")
    if status is not None and not status.get("stale"):
        return {**status, "already": True}
    if status is not None:
        request(environ, "stop")
    pid = spawn(environ, idle_timeout)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        status = request(environ, "status")
        if status is not None and status.get("pid") == pid:
            return status
        try:
            done, code = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            done, code = pid, 0
        if done:
            return {"error": f"the daemon exited during its start (status {code}); see its log", "pid": pid}
        time.sleep(0.05)
    return {"error": f"the daemon did not answer within {wait:g} s", "pid": pid}


# --------------------------------------------------------------------------- server
# Small, but through a view load, libdevice, a reduction (shuffles and shared memory) and a store.
_WARM_KERNEL = """entry @warm_up(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<ptr<f32>>) {
  %0 = make_token : token
  %view = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %out = make_tensor_view %arg2, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %bx, %by, %bz = get_tile_block_id : tile<i32>
  %pin = make_partition_view %view : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %pout = make_partition_view %out : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
  %x, %t = load_view_tko weak %pin[%bx] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %e = exp %x : tile<256xf32>
  %s = reduce %e dim=0 identities=[0.000000e+00 : f32] : tile<256xf32> -> tile<f32>
  (%lhs: tile<f32>, %rhs: tile<f32>) {
    %a = addf %lhs, %rhs : tile<f32>
    yield %a : tile<f32>
  }
  %r = reshape %s : tile<f32> -> tile<1xf32>
  %b = broadcast %r : tile<1xf32> -> tile<256xf32>
  %y = divf %e, %b : tile<256xf32>
  %t2 = store_view_tko weak %y, %pout[%bx] token = %t : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
"""


def warm_up(prepare: Callable[[], object]) -> list[str]:
    """Import the compiler and run it once (cuda_tile to a cubin, and the upstream parser), and
    `prepare` the commands (the CLI: its modules imported, its parser built), so that a forked
    child finds every module loaded and every lazy table built; the compile's errors."""
    import importlib
    import pkgutil

    import tile_lsp.compiler as compiler
    from tile_lsp.compiler.entry_cache import compile_source, compiler_fingerprint
    from tile_lsp.compiler.mlir import context
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    for info in pkgutil.walk_packages(compiler.__path__, "tile_lsp.compiler."):
        if ".interp" in info.name:
            continue  # `tile-lsp run`'s interpreter: not a daemon command
        try:
            importlib.import_module(info.name)
        except Exception as exc:  # noqa: BLE001 (the child that needs it imports it again, and reports it)
            print(f"tile-lsp daemon: import {info.name}: {exc}", file=sys.stderr)
    compiler_fingerprint()
    context.upstream_context()
    prepare()
    target = Target.parse_gpu_name("sm_90a")
    result = compile_source(SourceText(_WARM_KERNEL, "warm.mlir"), CompileOptions(target=target), "cubin", cache=None)
    return [d.message for d in result.diagnostics if d.severity == "error"]


class _Handshake:
    """A connection whose first message has not all come yet (read as it comes, never waited for)."""

    def __init__(self, conn: socket.socket, deadline: float) -> None:
        self.conn = conn
        self.deadline = deadline
        self.data = bytearray()
        self.fds: list[int] = []

    def read(self) -> tuple[dict[str, Any], list[int]] | None:
        """Take what the connection has; the message (and its descriptors) once complete.
        Raises ConnectionError when it cannot become one (closed, too large, not a message)."""
        try:
            chunk, fds, _, _ = socket.recv_fds(self.conn, 1 << 16, 3)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as exc:
            raise ConnectionError(str(exc))
        self.fds += fds
        if not chunk:
            raise ConnectionError("connection closed")
        self.data += chunk
        if len(self.data) < _HEADER.size:
            return None
        (size,) = _HEADER.unpack_from(self.data)
        if size > _MAX_HEADER:
            raise ConnectionError("message too large")
        if len(self.data) < _HEADER.size + size:
            return None
        try:  # (marshal: both ends are this interpreter, and only this user can connect)
            message = marshal.loads(bytes(self.data[_HEADER.size : _HEADER.size + size]))
        except (ValueError, EOFError, TypeError):
            message = None
        if not isinstance(message, dict):
            raise ConnectionError("not a message")
        fds, self.fds = self.fds, []
        return message, fds

    def close(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []
        self.conn.close()


class _Server:
    def __init__(self, path: str, idle_timeout: float, signature: Callable[[], object], run: Run) -> None:
        self.path = path
        self.run = run
        self.idle_timeout = idle_timeout
        self.signature = signature
        self.started_signature = signature()
        self.started_at = time.time()
        self.served = 0
        self.children: dict[int, socket.socket] = {}  # pid -> the client's connection
        # The worker runs requests one at a time in its own process (`_worker_main`): (pid, its
        # socket, the connection of the client it serves now or None). A request that comes
        # while it is busy gets a child of its own.
        self.worker: tuple[int, socket.socket] | None = None
        self.worker_client: socket.socket | None = None
        self.last_activity = time.monotonic()
        self.stopping = False
        self.pending: dict[socket.socket, _Handshake] = {}  # connections whose first message is still coming
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.wake_r, self.wake_w = os.pipe()
        self.sel: Any = None

    def bind(self) -> None:
        """Listen at `path`: bound under a temporary name, then renamed over it (atomic)."""
        tmp = os.path.join(os.path.dirname(self.path), f".{os.getpid()}.tmp")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        self.listener.bind(tmp)
        os.chmod(tmp, 0o600)
        self.listener.listen(128)
        self.listener.setblocking(False)
        os.replace(tmp, self.path)
        self.inode = os.stat(self.path).st_ino

    def owns_socket(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self.inode
        except OSError:
            return False

    def serve_forever(self) -> None:
        import selectors

        os.set_blocking(self.wake_w, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: self._stop())
        self.sel = sel = selectors.DefaultSelector()
        sel.register(self.listener, _EVENT_READ, "accept")
        sel.register(self.wake_r, _EVENT_READ, "wake")
        try:
            while True:
                self._reap()
                busy = bool(self.children) or self.worker_client is not None
                if self.stopping and not busy:
                    return
                if not busy and time.monotonic() - self.last_activity > self.idle_timeout:
                    return
                if self.worker is None and not self.stopping:
                    self._fork_worker()
                wait = 1.0
                if self.pending:
                    wait = max(0.0, min(wait, min(h.deadline for h in self.pending.values()) - time.monotonic()))
                for key, _ in sel.select(timeout=wait):
                    if key.data == "accept":
                        self._accept()
                    elif isinstance(key.data, _Handshake):
                        self._handshake(key.data)
                    elif key.data == "wake":
                        with contextlib.suppress(BlockingIOError):
                            os.read(self.wake_r, 4096)
                    elif key.data == "worker":
                        self._worker_says()
                    else:  # a client's connection: it closed (or wrote) while its command runs
                        self._client_gone(key.data)
                self._expire_handshakes()
                if not self.owns_socket() and not self.stopping:
                    self._stop()  # another daemon took the socket
        finally:
            self._close()

    def _stop(self) -> None:
        if not self.stopping:
            self.stopping = True
            if self.owns_socket():
                with contextlib.suppress(OSError):
                    os.unlink(self.path)

    def _close(self) -> None:
        for hs in list(self.pending.values()):
            self._drop_handshake(hs)
        self._drop_worker()
        for pid, conn in list(self.children.items()):
            _kill_group(pid)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
            conn.close()
        self.sel.close()
        if self.owns_socket():
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        self.listener.close()

    def _in_child(self) -> None:
        """In a freshly forked child: let go of the server's sockets and descriptors."""
        self.listener.close()
        for conn in self.children.values():
            conn.close()
        for hs in self.pending.values():
            hs.close()
        if self.worker is not None:
            self.worker[1].close()
        if self.worker_client is not None:
            self.worker_client.close()
        os.close(self.wake_r)
        os.close(self.wake_w)

    # -- the worker
    def _fork_worker(self) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError:
            mine.close()
            theirs.close()
            return
        if pid == 0:
            mine.close()
            self._in_child()
            _worker_main(self.run, theirs)  # never returns
        theirs.close()
        self.worker = (pid, mine)
        self.sel.register(mine, _EVENT_READ, "worker")

    def _worker_says(self) -> None:
        """The worker finished a command (its exit status), or it died."""
        assert self.worker is not None
        try:
            reply, _ = _recv(self.worker[1])
        except (OSError, ValueError):
            self._drop_worker()
            return
        conn, self.worker_client = self.worker_client, None
        if conn is not None:
            self._answer(conn, int(reply.get("exit", 1)))

    def _drop_worker(self, status: int | None = None) -> None:
        """The worker is gone (or must go): its client gets an exit status, a new one is forked."""
        worker, self.worker = self.worker, None
        if worker is None:
            return
        pid, sock = worker
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(sock)
        sock.close()
        if status is None:
            _kill_group(pid)
            with contextlib.suppress(OSError):
                _, status = os.waitpid(pid, 0)
        conn, self.worker_client = self.worker_client, None
        if conn is not None:
            code = os.waitstatus_to_exitcode(status) if status is not None else 1
            self._answer(conn, code if code > 0 else (1 if code == 0 else 128 - code))

    def _answer(self, conn: socket.socket, code: int) -> None:
        self.last_activity = time.monotonic()
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(conn)
        with contextlib.suppress(OSError):
            conn.setblocking(True)
            conn.settimeout(2.0)
            _send(conn, {"exit": code})
        conn.close()

    # -- requests
    def _accept(self) -> None:
        """Take every connection waiting; each is read as its first message comes (`_handshake`),
        so that one that sends nothing, or half a message, delays no other."""
        while True:
            try:
                conn, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            conn.setblocking(False)
            if len(self.pending) >= _MAX_PENDING:  # the oldest goes: a real client's message comes at once
                self._drop_handshake(min(self.pending.values(), key=lambda h: h.deadline))
            hs = _Handshake(conn, time.monotonic() + HANDSHAKE_TIMEOUT_S)
            self.pending[conn] = hs
            self.sel.register(conn, _EVENT_READ, hs)

    def _drop_handshake(self, hs: _Handshake) -> None:
        self.pending.pop(hs.conn, None)
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(hs.conn)
        hs.close()

    def _expire_handshakes(self) -> None:
        now = time.monotonic()
        for hs in [h for h in self.pending.values() if h.deadline <= now]:
            self._drop_handshake(hs)

    def _handshake(self, hs: _Handshake) -> None:
        try:
            got = hs.read()
        except ConnectionError:
            self._drop_handshake(hs)
            return
        if got is None:
            return
        self.pending.pop(hs.conn, None)
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(hs.conn)
        self.last_activity = time.monotonic()
        message, fds = got
        self._request(hs.conn, message, fds)

    def _request(self, conn: socket.socket, message: dict[str, Any], fds: list[int]) -> None:
        """Answer a connection's first message."""
        conn.setblocking(True)
        conn.settimeout(2.0)  # (replies are small: a client that does not read them is dropped)
        try:
            op = message.get("op")
            if message.get("protocol") != PROTOCOL:
                _send(conn, {"error": f"protocol {message.get('protocol')} (this daemon speaks {PROTOCOL})"})
            elif op == "status":
                _send(conn, self._status())
            elif op == "stop":
                _send(conn, {**self._status(), "stopping": True})
                self._stop()
            elif op == "run" and self.stopping:
                _send(conn, {"stale": True, "why": "stopping"})
            elif op == "run" and self.signature() != self.started_signature:
                _send(conn, {"stale": True, "why": "the compiler's source changed"})
                self._stop()
            elif op == "run" and len(fds) == 3:
                self._run(conn, message, fds)
                return  # the connection stays open until the child exits
            else:
                _send(conn, {"error": "bad request"})
        except (OSError, ValueError, KeyError, TypeError):
            pass
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
        conn.close()

    def _status(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "socket": self.path, "started": self.started_at, "served": self.served,
                "running": len(self.children) + (self.worker_client is not None),
                "worker": self.worker[0] if self.worker else None, "idle_timeout": self.idle_timeout,
                "stale": self.signature() != self.started_signature}

    def _run(self, conn: socket.socket, message: dict[str, Any], fds: list[int]) -> None:
        argv = [str(a) for a in message["argv"]]
        cwd = str(message["cwd"])
        env = {str(k): str(v) for k, v in dict(message["env"]).items()}
        umask = int(message.get("umask", 0o022)) & 0o777
        if self.worker is not None and self.worker_client is None and self._hand_to_worker(argv, cwd, env, umask, fds):
            pid = self.worker[0]
            self.worker_client = conn
        else:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                self._in_child()
                _child(self.run, argv, cwd, env, umask, fds)  # never returns
            self.children[pid] = conn
        self.served += 1
        conn.settimeout(None)
        self.sel.register(conn, _EVENT_READ, pid)
        try:
            _send(conn, {"started": pid})
        except OSError:
            self._client_gone(pid)

    def _hand_to_worker(self, argv: list[str], cwd: str, env: dict[str, str], umask: int, fds: list[int]) -> bool:
        assert self.worker is not None
        try:
            self.worker[1].settimeout(5.0)
            _send(self.worker[1], {"argv": argv, "cwd": cwd, "env": env, "umask": umask}, fds)
            self.worker[1].settimeout(None)
        except OSError:
            self._drop_worker()
            return False
        return True

    def _client_gone(self, pid: int) -> None:
        worker = self.worker is not None and pid == self.worker[0]
        conn = self.worker_client if worker else self.children.get(pid)
        if conn is None:
            return
        try:
            conn.setblocking(False)
            if conn.recv(4096):
                return  # not closed: clients send nothing more (anything sent is dropped)
        except BlockingIOError:
            return
        except OSError:
            pass
        with contextlib.suppress(KeyError, ValueError):
            self.sel.unregister(conn)
        if worker:  # the worker and what it started go; a new worker is forked
            self._drop_worker()
            return
        _kill_group(pid)  # the client went away: its child goes too (reaped by _reap)

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if self.worker is not None and pid == self.worker[0]:
                self._drop_worker(status)
                continue
            conn = self.children.pop(pid, None)
            if conn is None:
                continue
            self.last_activity = time.monotonic()
            code = os.waitstatus_to_exitcode(status)
            with contextlib.suppress(KeyError, ValueError):
                self.sel.unregister(conn)
            with contextlib.suppress(OSError):
                conn.setblocking(True)
                conn.settimeout(2.0)
                _send(conn, {"exit": code if code >= 0 else 128 - code})
            conn.close()


def _kill_group(pid: int) -> None:
    """Kill a child that runs a command: its process group, and the groups of what it started
    (ptxas runs in a process group of its own)."""
    from tile_lsp.compiler.backend.process import kill_tree

    kill_tree(pid)


def _run_command(run: Run, argv: list[str], cwd: str, env: dict[str, str], umask: int) -> int:
    """`run(argv)` (`tile_lsp.cli.main`) as the client's process would run it: its directory,
    umask and environment (descriptors 0-2 are the client's already); its exit status."""
    code = 1
    try:
        _reopen_std_streams()
        os.umask(umask)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        try:
            code = run(argv)
        except SystemExit as exc:  # argparse: --help, usage errors
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # noqa: BLE001 (reported to the client's stderr, as a crash would be)
        import traceback

        with contextlib.suppress(BaseException):
            traceback.print_exc()
        code = 1
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
        with contextlib.suppress(BaseException):
            sys.stderr.flush()
    return code


def _child_signals() -> None:
    os.setpgid(0, 0)  # its own group: killing it takes ptxas (and every child) along
    signal.set_wakeup_fd(-1)
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _child(run: Run, argv: list[str], cwd: str, env: dict[str, str], umask: int, fds: list[int]) -> None:
    """In a child forked for one request: become the client's process and run its command;
    never returns."""
    code = 1
    try:
        _child_signals()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        code = _run_command(run, argv, cwd, env, umask)
    finally:
        os._exit(code)


def _worker_main(run: Run, sock: socket.socket) -> None:
    """The worker: run one request after another in this process (no fork, no copy-on-write
    faults, and the unit cache's memory kept), restoring its own directory, environment,
    umask and descriptors 0-2 after each; exits when the server closes `sock`."""
    import gc

    code = 1
    try:
        _child_signals()
        home = (os.getcwd(), dict(os.environ), [os.dup(fd) for fd in (0, 1, 2)])
        while True:
            try:
                request, fds = _recv(sock, 3)
            except (OSError, ValueError):
                code = 0
                return
            if len(fds) != 3:
                for fd in fds:
                    os.close(fd)
                _send(sock, {"exit": 1})
                continue
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
                os.close(fd)
            status = _run_command(run, [str(a) for a in request["argv"]], str(request["cwd"]),
                                  dict(request["env"]), int(request["umask"]))
            for target, fd in enumerate(home[2]):  # the client's descriptors go: it sees EOF
                os.dup2(fd, target)
            _reopen_std_streams()
            os.chdir(home[0])
            os.environ.clear()
            os.environ.update(home[1])
            _send(sock, {"exit": status})
            gc.collect()  # (the command ran with the collector off: its garbage goes now)
    finally:
        os._exit(code)


def _reopen_std_streams() -> None:
    """sys.stdin/stdout/stderr over the new descriptors 0-2, buffered as a fresh process's are."""
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's own streams)
    sys.stdout = open(1, "w", buffering=1 if _isatty(1) else -1, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115


def serve(environ: Mapping[str, str], idle_timeout: float, run: Run, prepare: Callable[[], object],
          signature: Callable[[], object] = source_signature) -> int:
    """Run a daemon here until it is stopped, idle or stale; its exit status. It runs each
    command line with `run` (`tile_lsp.cli.main`) after `prepare()` (see `warm_up`): the CLI
    hands both in (`tile-lsp daemon serve`), the daemon does not import it."""
    path = socket_path(environ)
    if not _private_dir(os.path.dirname(path), create=True):
        print(f"tile-lsp daemon: {os.path.dirname(path)} is not a private directory of this user", file=sys.stderr)
        return 1
    started = time.monotonic()
    problems = warm_up(prepare)
    if problems:  # a daemon that cannot compile would only hand out its failures
        print(f"tile-lsp daemon: the warm-up compile failed: {problems[0]}", file=sys.stderr)
        return 1
    import gc

    gc.collect()
    gc.freeze()  # the children's collections leave the warmed-up objects (and their pages) alone
    server = _Server(path, idle_timeout, signature, run)
    server.bind()
    print(f"tile-lsp daemon: pid {os.getpid()} serving {path} (warm-up {time.monotonic() - started:.2f} s)",
          file=sys.stderr, flush=True)
    server.serve_forever()
    print(f"tile-lsp daemon: pid {os.getpid()} stopped after {server.served} commands", file=sys.stderr, flush=True)
    return 0


def command(args: Any, run: Run, prepare: Callable[[], object]) -> int:
    """`tile-lsp daemon start|stop|status|serve` (`serve`: see `serve` for `run` and `prepare`)."""
    environ = os.environ
    if args.action == "serve":
        return serve(environ, args.idle_timeout, run, prepare)
    if args.action == "start":
        status = start(environ, args.idle_timeout)
        if "error" in status:
            print(f"tile-lsp daemon: {status['error']}", file=sys.stderr)
            return 1
        word = "already running" if status.get("already") else "started"
        print(f"tile-lsp daemon: {word} (pid {status['pid']}, socket {status['socket']})")
        return 0
    if args.action == "stop":
        reply = request(environ, "stop")
        if reply is None:
            print("tile-lsp daemon: not running")
            return 0
        pid = int(reply["pid"])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.02)
        print(f"tile-lsp daemon: stopped (pid {pid}, {reply['served']} commands served)")
        return 0
    reply = request(environ, "status")
    if reply is None:
        print(f"tile-lsp daemon: not running (socket {socket_path(environ)})")
        return 3
    import json

    print(json.dumps(reply, indent=1) if args.json else
          f"tile-lsp daemon: pid {reply['pid']}, {reply['served']} commands served, {reply['running']} running"
          f"{', stale' if reply.get('stale') else ''} (socket {reply['socket']})")
    return 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

