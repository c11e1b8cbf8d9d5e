"""ptxas (and any external tool) as a good citizen: a timeout or cancel kills the tool with
everything it started, its output is read with a cap and decoded whatever its bytes, a run that
makes no cubin says so, no scratch directory is left behind, the `--help` probe is bounded and
cached, and every error keeps a command that reproduces it.

The misbehaving ptxas here are shell scripts (a wrapper that starts children and waits, one
that floods stderr, prints invalid UTF-8, exits 0 without output); the well-behaved one is the
real ptxas. Processes left behind are found by a marker unique to each test in /proc."""

from __future__ import annotations

import asyncio
import contextlib
import os
import pathlib
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import pytest

from tile_lsp.compiler.backend import ptxas
from tile_lsp.compiler.target import CompileOptions, Target

TARGET = Target(90, "a")
PTX = ".version 8.7\n.target sm_90a\n.address_size 64\n"
REAL = "/usr/local/bin/ptxas"
needs_ptxas = pytest.mark.skipif(not os.access(REAL, os.X_OK), reason="needs the real ptxas")
DATA = pathlib.Path(__file__).parent / "data" / "cutile"


def _marked(marker: str) -> list[int]:
    """Pids of the processes whose command line names `marker`."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    argv = f.read()
            except OSError:
                continue
            if marker.encode() in argv:
                out.append(int(name))
    return out


def _gone(marker: str, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while _marked(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def tool(tmp_path: pathlib.Path) -> Iterator[tuple[pathlib.Path, str]]:
    """(a folder for fake ptxas scripts, a marker unique to this test); whatever still runs with
    the marker at the end is killed (by pid, never by name)."""
    marker = f"tlxt{os.getpid()}x{time.monotonic_ns()}"
    yield tmp_path, marker
    for pid in _marked(marker):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _script(folder: pathlib.Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def scratch(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """tempfile's directory for this test: what ptxas runs leave in it is seen."""
    where = tmp_path / "tmp"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


# A wrapper that starts four children (its own script, with "child") and waits for them.
WRAPPER = """if [ "$1" = child ]; then sleep 300; exit 0; fi
for i in 1 2 3 4; do "$0" child & done
wait
"""


def test_a_timeout_kills_the_wrapper_and_every_child_it_started(tool: tuple[pathlib.Path, str],
                                                                  scratch: pathlib.Path) -> None:
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", WRAPPER)
    started = time.monotonic()
    result = ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake, ptxas_timeout=1.0))
    assert time.monotonic() - started < 5
    assert result.timed_out and not result.ok
    [msg] = result.messages
    assert msg.text == f"ptxas timed out after 1 s (ptxas_timeout); command: {result.command}"
    assert result.command == f"{fake} -arch=sm_90a -O3 -v kernel.ptx -o kernel.cubin"
    assert _gone(marker), f"left running: {_marked(marker)}"
    assert list(scratch.iterdir()) == []


def test_a_cancel_kills_ptxas_with_its_group(tool: tuple[pathlib.Path, str], scratch: pathlib.Path) -> None:
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", WRAPPER)

    def cancelled() -> None:
        deadline = time.monotonic() + 10
        while len(_marked(marker)) < 5 and time.monotonic() < deadline:  # the wrapper and its 4
            time.sleep(0.02)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake, ptxas_timeout=60), beside=cancelled)
    assert _gone(marker), f"left running: {_marked(marker)}"
    assert list(scratch.iterdir()) == []
    running = ptxas.start_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake))  # `kill`, as the entry cache does
    deadline = time.monotonic() + 10
    while len(_marked(marker)) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    running.kill()
    assert _gone(marker) and list(scratch.iterdir()) == []


def test_a_wrapper_that_exits_leaving_a_child_on_the_pipes_does_not_hang(tool: tuple[pathlib.Path, str]) -> None:
    """ptxas's output is read to the end of its pipes; a child it left holding them is killed
    once ptxas itself has exited, instead of being waited for (until the timeout)."""
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", 'if [ "$1" = child ]; then sleep 300; exit 0; fi\n'
                                              '"$0" child &\necho "ptxas fatal   : no luck" >&2\nexit 3\n')
    started = time.monotonic()
    result = ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake, ptxas_timeout=30))
    assert time.monotonic() - started < 5
    assert not result.ok and not result.timed_out
    assert [m.text for m in result.messages] == ["no luck"]
    assert _gone(marker)


def test_a_flood_of_output_is_cut_not_kept(tool: tuple[pathlib.Path, str]) -> None:
    folder, marker = tool
    flood = f"{sys.executable} -c 'import sys; [sys.stderr.buffer.write(b\"x\" * 1023 + b\"\\n\") for _ in range(40 * 1024)]'"
    fake = _script(folder, f"{marker}-ptxas", f"{flood}\nexit 1\n")
    result = ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake))
    assert not result.ok
    assert len(result.stderr) < 2 * 1024 * 1024  # (40 MiB written)
    cut = 40 * 1024 * 1024 - (1 << 20)
    assert f"[ptxas wrote {40 * 1024 * 1024} bytes to stderr: the first {1 << 20} are kept, {cut} were cut]" in result.stderr
    assert [m.text for m in result.messages] == [f"ptxas failed with exit status 1 ({cut} bytes of its stderr cut)"]
    assert result.diagnostics.endswith(f"reproduce with: {result.command}")


def test_a_flood_of_messages_is_cut_and_says_so(tool: tuple[pathlib.Path, str]) -> None:
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", 'for i in $(seq 1 500); do echo "ptxas error   : number $i" >&2; done\nexit 1\n')
    result = ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake))
    assert len(result.messages) == ptxas.MAX_MESSAGES + 1
    assert result.messages[0].text == "number 1" and result.messages[-1].text == "... and 400 more ptxas messages"


def test_output_that_is_not_utf8_is_decoded_with_replacements(tool: tuple[pathlib.Path, str]) -> None:
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", "printf 'ptxas fatal   : bad \\377\\376 byte\\n' >&2\nprintf '\\377' \nexit 1\n")
    result = ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake))
    assert not result.ok
    assert [m.text for m in result.messages] == ["bad \ufffd\ufffd byte"]


def test_exit_zero_without_a_cubin_says_so(tool: tuple[pathlib.Path, str], scratch: pathlib.Path) -> None:
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", "exit 0\n")
    result = ptxas.run_ptxas(PTX, TARGET, CompileOptions(TARGET, ptxas=fake), name="unit3")
    assert not result.ok and result.cubin is None
    assert [m.text for m in result.messages] == ["ptxas exited 0 but wrote no output file unit3.cubin"]
    assert result.diagnostics.endswith(f"reproduce with: {fake} -arch=sm_90a -O3 -v unit3.ptx -o unit3.cubin")
    assert list(scratch.iterdir()) == []


@needs_ptxas
def test_a_failed_real_ptxas_leaves_nothing_and_its_command_reproduces_it(scratch: pathlib.Path,
                                                                           tmp_path: pathlib.Path) -> None:
    broken = PTX + ".visible .entry k()\n{\n\tbogus.instruction;\n\tret;\n}\n"
    result = ptxas.run_ptxas(broken, TARGET, CompileOptions(TARGET, ptxas=REAL))
    assert not result.ok and result.messages and result.messages[0].line == 6
    assert list(scratch.iterdir()) == []  # (it used to keep the PTX in /tmp/tile-lsp-ptxas-*)
    assert result.command == f"{REAL} -arch=sm_90a -O3 -v kernel.ptx -o kernel.cubin"
    # The command, run where the PTX is saved under the name it gives, says the same.
    work = tmp_path / "work"
    work.mkdir()
    (work / "kernel.ptx").write_text(broken)
    again = subprocess.run(shlex.split(result.command), cwd=work, capture_output=True, text=True)
    assert again.returncode != 0 and result.messages[0].text in again.stderr
    ok = ptxas.run_ptxas(PTX + ".visible .entry k()\n{\n\tret;\n}\n", TARGET, CompileOptions(TARGET, ptxas=REAL))
    assert ok.ok and ok.cubin and list(scratch.iterdir()) == []


def test_the_help_probe_is_bounded_cached_and_leaves_nothing(tool: tuple[pathlib.Path, str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    folder, marker = tool
    counter = folder / "asked"
    fake = _script(folder, f"{marker}-ptxas", f'if [ "$1" = --help ]; then echo x >> {counter}; fi\n{WRAPPER}')
    monkeypatch.setattr(ptxas, "PROBE_TIMEOUT_S", 0.5)
    started = time.monotonic()
    assert not ptxas.splits_compile(fake)
    assert time.monotonic() - started < 3
    assert _gone(marker)
    assert not ptxas.splits_compile(fake) and not ptxas._has_option(fake, "--extensible-whole-program")
    assert counter.read_text().count("x") == 1  # asked once
    answers = _script(folder, f"{marker}-other", 'echo "  --split-compile N"\n')
    assert ptxas.splits_compile(answers)


def test_kill_tree_reaches_ptxas_in_its_own_group(tool: tuple[pathlib.Path, str]) -> None:
    """A process running ptxas killed from outside (a daemon's child, a language-server worker)
    takes ptxas's group along, although it is not its own."""
    from tile_lsp.compiler.backend.process import kill_tree

    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", WRAPPER)
    code = ("import os, sys; os.setpgid(0, 0)\n"
            "from tile_lsp.compiler.backend import ptxas\nfrom tile_lsp.compiler.target import CompileOptions, Target\n"
            f"t = Target(90, 'a'); ptxas.run_ptxas('', t, CompileOptions(t, ptxas={fake!r}, ptxas_timeout=300))\n")
    runner = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 30
        while len(_marked(marker)) < 6 and time.monotonic() < deadline:  # (it, the wrapper, 4 children)
            time.sleep(0.05)
        assert len(_marked(marker)) == 6
        kill_tree(runner.pid)
        assert runner.wait(10) == -signal.SIGKILL
        assert _gone(marker), f"left running: {_marked(marker)}"
    finally:
        runner.kill()
        runner.wait()


def test_a_language_server_worker_killed_on_its_timeout_takes_ptxas_along(tool: tuple[pathlib.Path, str]) -> None:
    from tile_lsp.background import TIMEOUT, BackgroundPipeline, PipelineRequest, WorkerPool, run_request

    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", WRAPPER)
    text = (DATA / "vector_add.mlir").read_text()
    options = CompileOptions(TARGET, ptxas=fake, ptxas_timeout=300)

    async def main() -> None:
        service = BackgroundPipeline(WorkerPool(run_request, warm=False))
        try:
            report = await service.compile(PipelineRequest(text, "/tmp/k.mlir", options, "ptx"), 20)
            assert report.status == TIMEOUT
        finally:
            service.close()

    asyncio.run(main())
    assert _gone(marker, 5), f"left running: {_marked(marker)}"


def test_cli_ptxas_timeout(tool: tuple[pathlib.Path, str], tmp_path: pathlib.Path) -> None:
    folder, marker = tool
    fake = _script(folder, f"{marker}-ptxas", WRAPPER)
    (tmp_path / "k.mlir").write_text((DATA / "vector_add.mlir").read_text())
    done = subprocess.run([sys.executable, "-m", "tile_lsp", "compile", "k.mlir", "--gpu-name", "sm_90a", "--no-daemon",
                           "--no-cache", "--ptxas", fake, "--ptxas-timeout", "1.5", "-o", "k.ptx"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "ptxas timed out after 1.5 s (ptxas_timeout)" in done.stderr
    assert _gone(marker)
    bad = subprocess.run([sys.executable, "-m", "tile_lsp", "compile", "k.mlir", "--gpu-name", "sm_90a", "--no-daemon",
                          "--ptxas-timeout", "0"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--ptxas-timeout must be a positive number of seconds" in bad.stderr
