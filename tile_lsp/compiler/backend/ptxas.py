"""Stage 8: PTX -> cubin with ptxas (`-v`), resource usage per kernel, messages with PTX lines.

Every failure carries the command that reproduces it (run where the PTX is saved as the file
it names). ptxas runs in its own process group and scratch directory (`backend/process.py`):
a timeout or cancel kills the group, its output is read with a cap, and the directory is
removed however the run ends.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shlex
import shutil
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tile_lsp.compiler.backend.cuda_tools import find_ptxas_binary
from tile_lsp.compiler.backend.process import Tool, run_tool
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


PROBE_TIMEOUT_S = 5.0  # `ptxas --help` (which options it has): a wedged ptxas costs this once


def _has_option(ptxas: str, option: str) -> bool:
    """Whether `ptxas --help` lists `option` (asked once per ptxas file, bounded by PROBE_TIMEOUT_S)."""
    try:
        st = os.stat(ptxas)
        key = (os.path.realpath(ptxas), st.st_size, st.st_mtime_ns)
    except OSError:
        return False
    return option in _usage(*key)


@functools.lru_cache(maxsize=8)
def _usage(path: str, size: int, mtime_ns: int) -> str:
    """`ptxas --help`'s text ("" when it fails or hangs), per (file, size, mtime): a ptxas
    replaced in place is asked again."""
    try:
        tool = run_tool([path, "--help"], PROBE_TIMEOUT_S)
    except OSError:
        return ""
    return tool.text("ptxas") if tool.returncode == 0 else ""


class RunningPtxas:
    """One ptxas process on a PTX text, from its start to its `PtxasResult`.

    ptxas runs in a scratch directory of its own, on `<name>.ptx`, writing `<name>.cubin`; the
    command it is shown with names those two files relative to that directory, so that it
    reproduces the run wherever the PTX is saved under that name (`tile-lsp compile --emit ptx
    -o <name>.ptx`). The directory is removed when the run ends, whichever way it ends."""

    def __init__(self, ptx: str, target: Target, options: CompileOptions, name: str, ewp: bool = False) -> None:
        self.ptx = ptx
        self.ewp = ewp
        self.options = options
        self.tool: Tool | None = None
        self.early: PtxasResult | None = None  # a result known before any process ran
        self.started = time.monotonic()
        self.workdir: str | None = None
        self.cubin_name = f"{name}.cubin"
        ptxas = find_ptxas(options)
        if ptxas is None:
            where = options.ptxas or "PATH, CUDA_HOME/bin, /usr/local/cuda/bin or the nvidia-cuda-nvcc wheel"
            self.early = PtxasResult(False, None, {}, [PtxasMessage(None, "error", f"ptxas not found ({where})")], "")
            self.command = ""
            return
        if os.sep in ptxas:  # (it runs in the scratch directory: a relative path would not do)
            ptxas = os.path.abspath(ptxas)
        debug = ptx_has_debug(ptx)
        threads = 1 if debug or options.device_debug else ptxas_threads(ptxas, ptx)
        cmd = ptxas_command(ptxas, f"{name}.ptx", self.cubin_name, target, options, debug=debug, threads=threads,
                            ewp=ewp and not debug)
        self.command = shlex.join(cmd)
        try:
            self.workdir = tempfile.mkdtemp(prefix="tile-lsp-ptxas-")
            with open(os.path.join(self.workdir, f"{name}.ptx"), "w", encoding="utf-8") as fh:
                fh.write(ptx)
            self.tool = Tool(cmd, cwd=self.workdir)
        except OSError as exc:
            self._remove_workdir()
            self.early = PtxasResult(False, None, {}, [PtxasMessage(None, "error", f"cannot run ptxas: {exc}")],
                                     self.command)

    def finish(self, beside: Callable[[], None] | None = None) -> PtxasResult:
        """Wait for ptxas (doing `beside()` meanwhile: its time counts against the timeout;
        ptxas's few kB of output wait in the pipes), then its result. ptxas is killed with its
        process group on the timeout (`options.ptxas_timeout`) or a cancel (any exception here)."""
        if self.early is not None or self.tool is None:
            assert self.early is not None
            return self.early
        tool, timeout = self.tool, self.options.ptxas_timeout
        try:
            if beside is not None:
                try:
                    beside()
                except Exception:  # work that only fills the wait: never worth a failed compile
                    log.debug("work beside ptxas failed", exc_info=True)
            left = timeout - (time.monotonic() - self.started)
            if left <= 0 or not tool.wait(left):
                self.kill()
                msg = f"ptxas timed out after {timeout:g} s (ptxas_timeout); command: {self.command}"
                return PtxasResult(False, None, {}, [PtxasMessage(None, "error", msg)], self.command, timed_out=True)
            return self._result(tool)
        except BaseException:  # a cancel: ptxas goes with it
            self.kill()
            raise
        finally:
            self.tool = None
            tool.kill()  # (its pipes; the process has ended by now)
            self._remove_workdir()

    def _result(self, tool: Tool) -> PtxasResult:
        output = tool.text("ptxas")
        messages = parse_messages(output)
        if len(messages) > MAX_MESSAGES:
            more = len(messages) - MAX_MESSAGES
            messages = [*messages[:MAX_MESSAGES], PtxasMessage(None, "error" if tool.returncode else "warning",
                                                               f"... and {more} more ptxas messages")]
        kernels = parse_resources(output)
        if self.ewp:  # (no calls: the whole-program report's cumulative stack is the frame)
            for res in kernels.values():
                res.cumulative_stack_bytes = res.cumulative_stack_bytes or res.stack_bytes
        assert self.workdir is not None
        cubin_path = os.path.join(self.workdir, self.cubin_name)
        cubin: bytes | None = None
        if tool.returncode == 0 and os.path.isfile(cubin_path):
            with open(cubin_path, "rb") as fh:
                cubin = fh.read()
        elif tool.returncode == 0:
            messages.append(PtxasMessage(None, "error", f"ptxas exited 0 but wrote no output file {self.cubin_name}"))
        elif not any(m.severity == "error" for m in messages):
            cut = f" ({tool.stderr_cut} bytes of its stderr cut)" if tool.stderr_cut else ""
            messages.append(PtxasMessage(None, "error", f"ptxas failed with {_exit_status(tool.returncode)}{cut}"))
        return PtxasResult(cubin is not None, cubin, kernels, messages, self.command, output)

    def kill(self) -> None:
        """Stop ptxas (if it still runs) with its process group, and drop what it made."""
        if self.tool is not None:
            self.tool.kill()
            self.tool = None
        self._remove_workdir()
        if self.early is None:
            self.early = PtxasResult(False, None, {}, [PtxasMessage(None, "error", "ptxas was stopped")], self.command)

    def _remove_workdir(self) -> None:
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None


MAX_MESSAGES = 100  # ptxas messages kept per run (a flood of them is cut, and says so)


def _exit_status(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit status {code}"


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
    try:
        paths = []
        for i, data in enumerate(objects):
            paths.append(f"unit{i}.cubin")  # (nvlink reads objects by this suffix)
            with open(os.path.join(workdir, paths[-1]), "wb") as fh:
                fh.write(data)
        cmd = [os.path.abspath(nvlink), f"-arch={target.chip}", *paths, "-o", "file.cubin"]
        command = shlex.join(cmd)
        try:
            done = run_tool(cmd, options.ptxas_timeout, cwd=workdir)
        except OSError as exc:
            return None, command, f"nvlink: {exc}"
        if done.returncode is None:
            return None, command, f"nvlink timed out after {options.ptxas_timeout:g} s (ptxas_timeout)"
        out = os.path.join(workdir, "file.cubin")
        if done.returncode != 0 or not os.path.isfile(out):
            why = done.text("nvlink").strip()
            if not why:
                why = ("nvlink exited 0 but wrote no output file file.cubin" if done.returncode == 0
                       else f"nvlink failed with {_exit_status(done.returncode)}")
            return None, command, why
        with open(out, "rb") as fh:
            return fh.read(), command, ""
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


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
