"""The compile daemon (`tile-lsp daemon`): a command it runs behaves exactly as the same command
run in its own process (output, files, exit status, stdin, relative paths), a client that goes
away takes its compile along, a stale or idle daemon goes away, and nothing is routed to it that
should not be. Every daemon here is a real one, in a private runtime directory of the test."""

from __future__ import annotations

import atexit
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import pytest

from tile_lsp import daemon

DATA = pathlib.Path(__file__).parent / "data" / "cutile"
CLI = [sys.executable, "-m", "tile_lsp"]
BAD = """entry @k(%a: tile<f32>) {
  %b = constant <f32: 2.0> tile<f32>
  return
}
"""


def _env(tmp: pathlib.Path) -> dict[str, str]:
    # A runtime directory of the test's own, with a short path (a Unix socket's path is short).
    run = tempfile.mkdtemp(prefix="tl-", dir="/tmp")
    atexit.register(shutil.rmtree, run, True)
    env = {k: v for k, v in os.environ.items() if k != "TILE_LSP_DAEMON"}
    env["XDG_RUNTIME_DIR"] = run
    env["XDG_CACHE_HOME"] = str(tmp / "cache")
    assert daemon.socket_path(env).startswith(run)
    return env


def _cli(args: list[str], env: dict[str, str], cwd: pathlib.Path, stdin: str | None = None,
         umask: int = 0o022, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, cwd=cwd, input=stdin, timeout=timeout,
                          preexec_fn=lambda: os.umask(umask))  # noqa: PLW1509 (no threads here)


def _status(env: dict[str, str]) -> dict[str, object] | None:
    return daemon.request(env, "status")


def _stop(env: dict[str, str]) -> None:
    reply = daemon.request(env, "stop")
    if reply is None:
        return
    pid = int(reply["pid"])  # type: ignore[call-overload]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and daemon._alive(pid):
        time.sleep(0.05)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], pathlib.Path]]:
    tmp = tmp_path_factory.mktemp("daemon")
    env = _env(tmp)
    started = _cli(["daemon", "start", "--idle-timeout", "300"], env, tmp)
    assert started.returncode == 0, started.stderr
    assert "started (pid" in started.stdout
    try:
        yield env, tmp
    finally:
        _stop(env)
    assert _status(env) is None


def _served(env: dict[str, str]) -> int:
    status = _status(env)
    assert status is not None
    return int(status["served"])  # type: ignore[call-overload]


def test_compile_through_the_daemon_is_the_compile_in_process(running: tuple[dict[str, str], pathlib.Path]) -> None:
    env, tmp = running
    work = tmp / "work"
    work.mkdir()
    (work / "k.mlir").write_text((DATA / "vector_add.mlir").read_text())
    before = _served(env)
    # Relative paths: the daemon's child works in the client's directory.
    theirs = _cli(["compile", "k.mlir", "--gpu-name", "sm_90", "-o", "a.ptx", "--dump-dir", "dumps"], env, work, umask=0o077)
    assert _served(env) == before + 1
    ours = _cli(["compile", "k.mlir", "--gpu-name", "sm_90", "-o", "b.ptx", "--no-daemon"], env, work, umask=0o077)
    assert (work / "a.ptx").stat().st_mode & 0o777 == (work / "b.ptx").stat().st_mode & 0o777 == 0o600  # its umask
    assert _served(env) == before + 1  # --no-daemon: not sent
    assert theirs.returncode == ours.returncode == 0, theirs.stderr
    assert (work / "a.ptx").read_text() == (work / "b.ptx").read_text()
    assert ".entry vector_add" in (work / "a.ptx").read_text()
    assert theirs.stderr == ours.stderr  # ptxas's resource lines, when there is a ptxas
    assert sorted(p.name for p in (work / "dumps").iterdir())[:3] == ["k.gpu.mlir", "k.ll", "k.llvm.mlir"]
    # stdout as the output, JSON report on stderr: the same bytes.
    a = _cli(["compile", "k.mlir", "--gpu-name", "sm_90", "--emit", "nvvm", "-o", "-"], env, work)
    b = _cli(["compile", "k.mlir", "--gpu-name", "sm_90", "--emit", "nvvm", "-o", "-", "--no-daemon"], env, work)
    assert a.stdout == b.stdout and "nvvm." in a.stdout
    assert _served(env) == before + 2


def test_failures_usage_errors_and_stdin_keep_their_exit_status(running: tuple[dict[str, str], pathlib.Path]) -> None:
    env, tmp = running
    (tmp / "bad.mlir").write_text(BAD)
    before = _served(env)
    theirs = _cli(["check", "bad.mlir"], env, tmp)
    ours = _cli(["check", "bad.mlir", "--no-daemon"], env, tmp)
    assert theirs.returncode == ours.returncode == 1
    assert theirs.stdout == ours.stdout == "bad.mlir:2:28: error: expected ':'\n"
    usage = _cli(["compile", "--no-such-option", "bad.mlir"], env, tmp)
    assert usage.returncode == 2 and "unrecognized arguments: --no-such-option" in usage.stderr
    piped = _cli(["opt", "-"], env, tmp, stdin=(DATA / "vector_add.mlir").read_text())
    local = _cli(["opt", "-", "--no-daemon"], env, tmp, stdin=(DATA / "vector_add.mlir").read_text())
    assert piped.returncode == local.returncode == 0
    assert piped.stdout == local.stdout and "make_tensor_view" in piped.stdout
    missing = _cli(["compile", "missing.mlir", "--gpu-name", "sm_90"], env, tmp)
    assert missing.returncode == 1 and "missing.mlir: error: No such file or directory" in missing.stderr
    assert _served(env) == before + 4


def test_a_client_that_goes_away_takes_its_compile_along(running: tuple[dict[str, str], pathlib.Path]) -> None:
    env, tmp = running
    marker = f"tile-lsp-test-hang-{os.getpid()}"
    hang = tmp / f"{marker}-ptxas"  # a ptxas that never answers, as a wedged one would not
    hang.write_text("#!/bin/sh\nsleep 300\n")
    hang.chmod(0o755)
    (tmp / "k.mlir").write_text((DATA / "vector_add.mlir").read_text())
    client = subprocess.Popen([*CLI, "compile", "k.mlir", "--gpu-name", "sm_90", "--ptxas", str(hang), "--no-cache"],
                              cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _hanging(marker):
        time.sleep(0.05)
    assert _hanging(marker), "the compile never reached ptxas"
    assert _status(env)["running"] == 1  # type: ignore[index]
    client.send_signal(signal.SIGKILL)
    client.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (_hanging(marker) or _status(env)["running"]):  # type: ignore[index]
        time.sleep(0.05)
    assert not _hanging(marker)
    assert _status(env)["running"] == 0  # type: ignore[index]


def _hanging(marker: str) -> bool:
    """Whether the hanging ptxas runs: a shell running the script named with `marker` (the
    client's own command line names it too, as its --ptxas)."""
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if argv[0].endswith(b"sh") and any(marker.encode() in arg for arg in argv[1:2]):
                return True
    return False


def test_a_stale_daemon_steps_aside_and_a_fresh_one_replaces_it(tmp_path: pathlib.Path) -> None:
    env = _env(tmp_path)
    version = tmp_path / "version"
    version.write_text("1")
    serve = ("import os, pathlib, sys; from tile_lsp import cli, daemon; "
             "sys.exit(daemon.serve(os.environ, 120, cli.main, cli.prepare_daemon, "
             f"signature=lambda: pathlib.Path({str(version)!r}).read_text()))")
    proc = subprocess.Popen([sys.executable, "-c", serve], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _status(env) is None:
            time.sleep(0.05)
        status = _status(env)
        if status is None:
            proc.kill()
            pytest.fail(f"the daemon did not start: {proc.communicate()[1]}")
        assert status["pid"] == proc.pid and not status["stale"]
        (tmp_path / "bad.mlir").write_text(BAD)
        assert _cli(["check", "bad.mlir"], env, tmp_path).returncode == 1
        assert _served(env) == 1
        version.write_text("2")  # "the compiler's source changed"
        again = _cli(["check", "bad.mlir"], env, tmp_path)
        assert again.returncode == 1 and again.stdout == "bad.mlir:2:28: error: expected ':'\n"  # ran in its process
        assert proc.wait(timeout=20) == 0  # the stale one left
        deadline = time.monotonic() + 60  # ... and the client started a fresh one for next time
        while time.monotonic() < deadline and (_status(env) is None or _status(env)["pid"] == proc.pid):  # type: ignore[index]
            time.sleep(0.1)
        fresh = _status(env)
        assert fresh is not None and fresh["pid"] != proc.pid and fresh["served"] == 0
    finally:
        proc.kill()
        _stop(env)


def test_an_idle_daemon_exits(tmp_path: pathlib.Path) -> None:
    env = _env(tmp_path)
    started = _cli(["daemon", "start", "--idle-timeout", "1"], env, tmp_path)
    assert started.returncode == 0, started.stderr
    pid = int(started.stdout.split("pid ")[1].split(",")[0])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and daemon._alive(pid):
        time.sleep(0.1)
    assert not daemon._alive(pid)
    assert _status(env) is None and not os.path.exists(daemon.socket_path(env))
    status = _cli(["daemon", "status"], env, tmp_path)
    assert status.returncode == 3 and "not running" in status.stdout


def test_what_goes_to_a_daemon() -> None:
    env: dict[str, str] = {}
    assert daemon.wanted(["compile", "k.mlir"], env)
    assert daemon.wanted(["check", "k.mlir"], env) and daemon.wanted(["opt", "k.mlir"], env)
    assert not daemon.wanted(["compile", "k.mlir", "--no-daemon"], env)
    assert not daemon.wanted(["compile", "k.mlir"], {"TILE_LSP_DAEMON": "0"})
    assert not daemon.wanted(["serve"], env) and not daemon.wanted(["run", "k.mlir"], env)
    assert not daemon.wanted(["daemon", "status"], env) and not daemon.wanted([], env)


def test_no_daemon_and_unsafe_directories_are_refused(tmp_path: pathlib.Path) -> None:
    env = _env(tmp_path)
    assert daemon.run_via_daemon(["check", "x.mlir"], env) is None  # none running: the caller runs it
    shared = pathlib.Path(env["XDG_RUNTIME_DIR"]) / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    env["XDG_RUNTIME_DIR"] = str(shared)
    directory = pathlib.Path(daemon.socket_dir(env))
    directory.mkdir()
    directory.chmod(0o770)  # another user of the group could put a socket here
    assert not daemon._private_dir(str(directory), create=False)
    pathlib.Path(daemon.socket_path(env)).touch()
    assert daemon.run_via_daemon(["check", "x.mlir"], env) is None
    assert daemon.request(env, "status") is None


def test_the_socket_is_per_environment() -> None:
    env = {"XDG_RUNTIME_DIR": "/run/user/1"}
    path = daemon.socket_path(env)
    assert path.startswith("/run/user/1/tile-lsp/daemon-") and path.endswith(".sock")
    assert daemon.socket_path({}) != path  # (no runtime directory: one under $TMPDIR)
    deep = daemon.socket_path({"XDG_RUNTIME_DIR": "/run/" + "x" * 120})  # too long for a socket
    assert deep.startswith(f"/tmp/tile-lsp-{os.getuid()}/daemon-") and len(deep) < 100


def test_the_worker_runs_command_after_command_each_in_its_own_directory_and_environment(
    running: tuple[dict[str, str], pathlib.Path],
) -> None:
    """Commands run one after another in the daemon's worker process (no fork per command): each
    sees only its own working directory and environment, never the previous command's."""
    env, tmp = running
    worker = _status(env)["worker"]  # type: ignore[index]
    assert worker is not None
    a, b, c = tmp / "a", tmp / "b", tmp / "c"
    for d in (a, b, c):
        d.mkdir()
    (a / "k.mlir").write_text((DATA / "vector_add.mlir").read_text())
    (b / "k.mlir").write_text((DATA / "row_softmax.mlir").read_text())
    (c / "k.mlir").write_text(BAD)
    # a's command names its cache directory (XDG_CACHE_HOME); b's has none (so ~/.cache, under
    # its own HOME): a variable of a's command that b's lacks must not linger for b's.
    without_xdg = {k: v for k, v in env.items() if k != "XDG_CACHE_HOME"}
    envs = {a: {**env, "XDG_CACHE_HOME": str(a / "cache")}, b: {**without_xdg, "HOME": str(b)}}
    for _ in range(2):
        for d, entry in ((a, "vector_add"), (b, "row_softmax")):
            done = _cli(["compile", "k.mlir", "--gpu-name", "sm_90", "-o", "k.ptx"], envs[d], d)
            assert done.returncode == 0, done.stderr
            assert f".entry {entry}" in (d / "k.ptx").read_text()
        failed = _cli(["compile", "k.mlir", "--gpu-name", "sm_90", "-o", "k.ptx"], {**env, "XDG_CACHE_HOME": str(c / "cache")}, c)
        assert failed.returncode == 1 and "k.mlir:2:28: error: expected ':'" in failed.stderr
        assert not (c / "k.ptx").exists()
    for where in (a / "cache", b / ".cache"):  # each command's own cache directory
        units = list((where / "tile-lsp" / "units").rglob("*.unit"))
        assert len(units) == 2, units  # (both entries of its file; none of the other)
    # One entry compiled in the worker itself (not in a child per entry): whatever it leaves
    # running for the next command (its LLVM codegen helper) must not hold this command's
    # stdout or stderr, or a caller reading them to the end would wait forever.
    (c / "one.mlir").write_text((DATA / "layernorm.mlir").read_text())
    for emit in ("llvm-ir", "ptx"):
        one = _cli(["compile", "one.mlir", "--gpu-name", "sm_90", "--emit", emit, "-o", "-", "--no-cache"], env, c, timeout=120)
        assert one.returncode == 0, one.stderr
        assert (".entry layernorm" if emit == "ptx" else "define ptx_kernel void @layernorm") in one.stdout
    assert _status(env)["worker"] == worker  # the same process ran them all


def test_a_command_that_comes_while_the_worker_is_busy_gets_a_child_of_its_own(
    running: tuple[dict[str, str], pathlib.Path],
) -> None:
    env, tmp = running
    marker = f"tile-lsp-test-busy-{os.getpid()}"
    hang = tmp / f"{marker}-ptxas"
    hang.write_text("#!/bin/sh\nsleep 300\n")
    hang.chmod(0o755)
    (tmp / "k.mlir").write_text((DATA / "vector_add.mlir").read_text())
    (tmp / "bad.mlir").write_text(BAD)
    worker = _status(env)["worker"]  # type: ignore[index]
    busy = subprocess.Popen([*CLI, "compile", "k.mlir", "--gpu-name", "sm_90", "--ptxas", str(hang), "--no-cache"],
                            cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _hanging(marker):
            time.sleep(0.05)
        assert _hanging(marker)
        meanwhile = _cli(["check", "bad.mlir"], env, tmp)  # served by a forked child
        assert meanwhile.returncode == 1 and meanwhile.stdout == "bad.mlir:2:28: error: expected ':'\n"
        assert _status(env)["running"] == 1  # type: ignore[index]
    finally:
        busy.kill()
        busy.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (_hanging(marker) or _status(env)["worker"] in (worker, None)):  # type: ignore[index]
        time.sleep(0.05)
    assert not _hanging(marker)
    assert _status(env)["worker"] not in (worker, None)  # the busy worker went with its client; a new one serves
    again = _cli(["check", "bad.mlir"], env, tmp)
    assert again.returncode == 1 and again.stdout == meanwhile.stdout


def test_silent_and_malformed_connections_do_not_hold_up_a_real_command(
    running: tuple[dict[str, str], pathlib.Path],
) -> None:
    """Connections that say nothing, half a header, a header promising more than comes, or
    garbage, each waiting their handshake timeout, must not make a real command wait behind
    them (one at a time with a 5 s read timeout, 300 of them held a daemon for 275 s)."""
    import socket

    env, tmp = running
    (tmp / "bad.mlir").write_text(BAD)
    path = daemon.socket_path(env)
    before = _served(env)
    junk: list[socket.socket] = []
    try:
        for i in range(120):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            kind = i % 4
            if kind == 1:
                s.sendall(b"\x00\x00")  # half a header
            elif kind == 2:
                s.sendall(b"\x00\x00\x10\x00" + b"x" * 100)  # 4096 bytes promised, 100 sent
            elif kind == 3:
                s.sendall(b"GET / HTTP/1.0\r\n\r\n")  # not ours at all
            junk.append(s)
        started = time.monotonic()
        done = _cli(["check", "bad.mlir"], env, tmp, timeout=60)
        took = time.monotonic() - started
        assert done.returncode == 1 and done.stdout == "bad.mlir:2:28: error: expected ':'\n"
        assert _served(env) == before + 1  # (it went through the daemon)
        assert took < 5, f"the command waited {took:.1f} s behind {len(junk)} bad connections"
    finally:
        for s in junk:
            s.close()
    status = _status(env)
    assert status is not None and status["running"] == 0
