"""Stage 8: PTX -> cubin with ptxas (`-v`), resource usage per kernel, messages with PTX lines.

Every failure carries the command that reproduces it; on failure the PTX file is kept so
the command can be rerun as printed.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tile_lsp.compiler.backend.cuda_tools import find_ptxas_binary
from tile_lsp.compiler.target import CompileOptions, Target

log = logging.getLogger("tile_lsp")


@dataclass
class KernelResources:
    """What ptxas -v reports for one function."""

    registers: int = 0
    spill_stores: int = 0  # bytes
    spill_loads: int = 0  # bytes
    shared_bytes: int = 0
    stack_bytes: int = 0  # stack frame
    barriers: int = 0
    cumulative_stack_bytes: int = 0
    cmem: dict[int, int] = field(default_factory=dict)  # bank -> bytes
    is_entry: bool = False

    @property
    def spills_stores(self) -> int:
        return self.spill_stores

    @property
    def spills_loads(self) -> int:
        return self.spill_loads


@dataclass(frozen=True)
class PtxasMessage:
    """One ptxas error/warning; `line` is the PTX line it names (1-based) or None."""

    line: int | None
    severity: str  # "error" | "warning"
    text: str


@dataclass
class PtxasResult:
    ok: bool
    cubin: bytes | None
    kernels: dict[str, KernelResources]
    messages: list[PtxasMessage]
    command: str
    stderr: str = ""
    timed_out: bool = False

    @property
    def diagnostics(self) -> str:
        """The messages as text, ending with the command that reproduces them."""
        lines = [f"{m.severity}: " + (f"line {m.line}: " if m.line else "") + m.text for m in self.messages]
        if not self.ok:
            lines.append(f"reproduce with: {self.command}")
        return "\n".join(lines)


_MESSAGE = re.compile(
    r"^ptxas\s+(?:(?P<file>[^,\n]*?), line (?P<line>\d+); )?(?P<sev>error|warning|fatal)\s*:\s*"
    r"(?P<text>.*)$"
)
_FUNC = re.compile(r"^ptxas info\s*: (?:Compiling entry function|Function properties for) '?(?P<name>[^' ]+)'?")
_ENTRY = re.compile(r"^ptxas info\s*: Compiling entry function '(?P<name>[^']+)'")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"^ptxas info\s*: Used (\d+) registers(?P<rest>.*)$")


def find_ptxas(options: CompileOptions | None = None) -> str | None:
    """options.ptxas, else PATH, CUDA_HOME/bin, /usr/local/cuda/bin, the nvidia-cuda-nvcc wheel."""
    return find_ptxas_binary(options.ptxas if options is not None else None)


def ptxas_command(
    ptxas: str,
    ptx_path: str,
    cubin_path: str,
    target: Target,
    options: CompileOptions,
    *,
    debug: bool = False,
    threads: int = 1,
    ewp: bool = False,
) -> list[str]:
    """The ptxas command line. Device debug (`options.device_debug`, or `debug`: the PTX says
    `.target ..., debug`) is `-g -O0` (ptxas rejects -g with optimization: "Optimized debugging
    not supported", and -g overrides -lineinfo); line info is `-lineinfo` at the -O level.
    `threads` > 1 optimizes the functions on that many threads (`--split-compile`). `ewp`: an
    object for nvlink (`-ewp`, extensible whole program: the same code as whole-program mode,
    see `linkable`)."""
    if options.device_debug or debug:
        cmd = [ptxas, f"-arch={target.chip}", "-O0", "-v", "-g"]
    else:
        cmd = [ptxas, f"-arch={target.chip}", f"-O{max(0, min(3, options.opt_level))}", "-v"]
        if options.lineinfo:
            cmd.append("-lineinfo")
        if threads > 1:
            cmd += ["--split-compile", str(threads)]
        if ewp:
            cmd.append("-ewp")
    return [*cmd, ptx_path, "-o", cubin_path]


_FUNCTION_START = re.compile(r"^[ \t]*(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\b[^;\n]*$", re.MULTILINE)


def splits_compile(ptxas: str) -> bool:
    """Whether this ptxas has `--split-compile N` (functions optimized on N threads). With it the
    cubin is the same but for the command line ptxas records in it, and so is the -v report."""
    return _has_option(ptxas, "--split-compile")


def ptxas_threads(ptxas: str, ptx: str) -> int:
    """Threads worth giving ptxas for `ptx`: one per function defined there, at most the cores
    this process may use (1 where ptxas cannot split)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    if cores < 2:
        return 1
    functions = sum(1 for _ in _FUNCTION_START.finditer(ptx))
    if functions < 2 or not splits_compile(ptxas):
        return 1
    return min(cores, functions)


_DEBUG_TARGET = re.compile(r"^\s*\.target\s+[^\n]*\bdebug\b", re.MULTILINE)


def ptx_has_debug(ptx: str) -> bool:
    """Whether the PTX was generated with full debug info (`.target sm_XX, debug`)."""
    return _DEBUG_TARGET.search(ptx) is not None


def run_ptxas(
    ptx: str, target: Target, options: CompileOptions, *, name: str = "kernel", beside: Callable[[], None] | None = None,
    ewp: bool = False,
) -> PtxasResult:
    """Assemble `ptx` for `target`; never raises for ptxas failures or timeouts. `beside` is
    called once ptxas has started: work for this process while it would only wait. `ewp`: make
    an object for `link_objects` instead of a cubin (only for `linkable` PTX)."""
    return start_ptxas(ptx, target, options, name=name, ewp=ewp).finish(beside)


def start_ptxas(ptx: str, target: Target, options: CompileOptions, *, name: str = "kernel",
                ewp: bool = False) -> RunningPtxas:
    """ptxas on `ptx`, started (`finish` waits for it and reads what it made; `kill` stops it)."""
    return RunningPtxas(ptx, target, options, name, ewp)


_CALL = re.compile(r"^\s*(?:@!?%\w+\s+)?call(?:\.uni)?\b", re.MULTILINE)


def linkable(ptx: str, options: CompileOptions) -> bool:
    """Whether `ptx` can be assembled as an object for nvlink with the code whole-program ptxas
    makes. `ptxas -ewp` gives byte-identical SASS and the same -v report for kernels that call
    nothing; with calls (vprintf, malloc, a device function) it cannot total the stack yet, and
    a call's code differs; device debug is left to whole-program mode. Also: this ptxas has
    `-ewp` and an nvlink beside it."""
    if options.device_debug or ptx_has_debug(ptx) or _CALL.search(ptx) is not None:
        return False
    ptxas = find_ptxas(options)
    return ptxas is not None and _has_option(ptxas, "--extensible-whole-program") and find_nvlink(options) is not None


@functools.lru_cache(maxsize=8)
def _has_option(ptxas: str, option: str) -> bool:
    try:
        usage = subprocess.run([ptxas, "--help"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return option in usage


class RunningPtxas:
    """One ptxas process on a PTX text, from its start to its `PtxasResult`."""

    def __init__(self, ptx: str, target: Target, options: CompileOptions, name: str, ewp: bool = False) -> None:
        self.ptx = ptx
        self.ewp = ewp
        self.options = options
        self.proc: subprocess.Popen[str] | None = None
        self.early: PtxasResult | None = None  # a result known before any process ran
        self.started = time.monotonic()
        ptxas = find_ptxas(options)
        if ptxas is None:
            where = options.ptxas or "PATH, CUDA_HOME/bin, /usr/local/cuda/bin or the nvidia-cuda-nvcc wheel"
            self.early = PtxasResult(False, None, {}, [PtxasMessage(None, "error", f"ptxas not found ({where})")], "")
            self.command = ""
            return
        self.workdir = tempfile.mkdtemp(prefix="tile-lsp-ptxas-")
        ptx_path = os.path.join(self.workdir, f"{name}.ptx")
        self.cubin_path = os.path.join(self.workdir, f"{name}.cubin")
        with open(ptx_path, "w") as fh:
            fh.write(ptx)
        debug = ptx_has_debug(ptx)
        threads = 1 if debug or options.device_debug else ptxas_threads(ptxas, ptx)
        cmd = ptxas_command(ptxas, ptx_path, self.cubin_path, target, options, debug=debug, threads=threads,
                            ewp=ewp and not debug)
        self.command = shlex.join(cmd)
        try:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        except OSError as exc:
            self.early = PtxasResult(False, None, {}, [PtxasMessage(None, "error", f"cannot run ptxas: {exc}")],
                                     self.command)

    def finish(self, beside: Callable[[], None] | None = None) -> PtxasResult:
        """Wait for ptxas (doing `beside()` meanwhile: its time counts against the timeout;
        ptxas's few kB of output wait in the pipes), then its result."""
        if self.early is not None or self.proc is None:
            assert self.early is not None
            return self.early
        proc, timeout = self.proc, self.options.ptxas_timeout
        try:
            if beside is not None:
                try:
                    beside()
                except Exception:  # work that only fills the wait: never worth a failed compile
                    log.debug("work beside ptxas failed", exc_info=True)
            stdout, stderr = proc.communicate(timeout=max(0.0, timeout - (time.monotonic() - self.started)))
        except subprocess.TimeoutExpired:
            self.kill(keep_files=True)  # (the PTX stays, for the command that reproduces it)
            msg = f"ptxas timed out after {timeout:g} s (ptxas_timeout); command: {self.command}"
            return PtxasResult(False, None, {}, [PtxasMessage(None, "error", msg)], self.command, timed_out=True)
        except BaseException:  # a cancel: ptxas goes with it
            self.kill()
            raise
        output = stdout + stderr
        messages = parse_messages(output)
        kernels = parse_resources(output)
        if self.ewp:  # (no calls: the whole-program report's cumulative stack is the frame)
            for res in kernels.values():
                res.cumulative_stack_bytes = res.cumulative_stack_bytes or res.stack_bytes
        ok = proc.returncode == 0 and os.path.isfile(self.cubin_path)
        cubin: bytes | None = None
        if ok:
            with open(self.cubin_path, "rb") as fh:
                cubin = fh.read()
            shutil.rmtree(self.workdir, ignore_errors=True)
        elif not any(m.severity == "error" for m in messages):
            messages.append(PtxasMessage(None, "error", f"ptxas failed with exit status {proc.returncode}"))
        return PtxasResult(ok, cubin, kernels, messages, self.command, output)

    def kill(self, keep_files: bool = False) -> None:
        """Stop ptxas (if it still runs) and drop what it made."""
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.proc.kill()
            with contextlib.suppress(Exception):
                self.proc.wait()  # (not its pipes to the end: a child of a ptxas wrapper may hold them)
            for pipe in (self.proc.stdout, self.proc.stderr):
                if pipe is not None:
                    pipe.close()
            self.proc = None
            if not keep_files:
                shutil.rmtree(self.workdir, ignore_errors=True)
        if self.early is None:
            self.early = PtxasResult(False, None, {}, [PtxasMessage(None, "error", "ptxas was stopped")], self.command)


def find_nvlink(options: CompileOptions) -> str | None:
    """The nvlink beside the ptxas `options` finds (an object is read by its own toolkit's
    nvlink), else None."""
    ptxas = find_ptxas(options)
    if ptxas is None:
        return None
    for directory in dict.fromkeys((os.path.dirname(ptxas), os.path.dirname(os.path.realpath(ptxas)))):
        cand = os.path.join(directory, "nvlink")
        if os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def link_objects(objects: list[bytes], target: Target, options: CompileOptions) -> tuple[bytes | None, str, str]:
    """nvlink the `ptxas -ewp` objects into one cubin: (cubin or None, command, what failed)."""
    nvlink = find_nvlink(options)
    if nvlink is None:
        return None, "", "nvlink not found beside ptxas"
    workdir = tempfile.mkdtemp(prefix="tile-lsp-nvlink-")
    paths = []
    for i, data in enumerate(objects):
        paths.append(os.path.join(workdir, f"unit{i}.cubin"))  # (nvlink reads objects by this suffix)
        with open(paths[-1], "wb") as fh:
            fh.write(data)
    out = os.path.join(workdir, "file.cubin")
    cmd = [nvlink, f"-arch={target.chip}", *paths, "-o", out]
    command = shlex.join(cmd)
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=options.ptxas_timeout)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, command, f"nvlink: {exc}"
    if done.returncode != 0 or not os.path.isfile(out):
        return None, command, (done.stderr or done.stdout).strip() or f"nvlink failed with exit status {done.returncode}"
    with open(out, "rb") as fh:
        cubin = fh.read()
    shutil.rmtree(workdir, ignore_errors=True)
    return cubin, command, ""


def parse_messages(output: str) -> list[PtxasMessage]:
    """Errors and warnings (fatal counts as error), in order."""
    out: list[PtxasMessage] = []
    for raw in output.splitlines():
        m = _MESSAGE.match(raw.strip())
        if m is None:
            continue
        sev = "warning" if m.group("sev") == "warning" else "error"
        line = int(m.group("line")) if m.group("line") else None
        out.append(PtxasMessage(line, sev, m.group("text").strip()))
    return out


def parse_resources(output: str) -> dict[str, KernelResources]:
    """Per-function resources from `ptxas -v` output."""
    kernels: dict[str, KernelResources] = {}
    current: KernelResources | None = None
    for raw in output.splitlines():
        line = raw.strip()
        entry = _ENTRY.match(line)
        func = _FUNC.match(line)
        if func is not None:
            current = kernels.setdefault(func.group("name"), KernelResources())
            if entry is not None:
                current.is_entry = True
            continue
        if current is None:
            continue
        frame = _FRAME.search(line)
        if frame is not None:
            current.stack_bytes, current.spill_stores, current.spill_loads = (int(g) for g in frame.groups())
            continue
        used = _USED.match(line)
        if used is not None:
            current.registers = int(used.group(1))
            rest = used.group("rest")
            if (b := re.search(r"used (\d+) barriers", rest)) is not None:
                current.barriers = int(b.group(1))
            if (s := re.search(r"(\d+) bytes smem", rest)) is not None:
                current.shared_bytes = int(s.group(1))
            if (c := re.search(r"(\d+) bytes cumulative stack size", rest)) is not None:
                current.cumulative_stack_bytes = int(c.group(1))
            for bank in re.finditer(r"(\d+) bytes cmem\[(\d+)\]", rest):
                current.cmem[int(bank.group(2))] = int(bank.group(1))
    return kernels
