"""Stages 6-7 with llvmlite (LLVM 22): link libdevice minimally, optimize at -O level, emit PTX.

libdevice is linked the way nvcc does it, but smaller: only the `__nv_*` functions the module
calls and what they reach are kept (the rest is dropped before linking), then internalized
so the -O pipeline inlines and deletes them. Code generation runs in a helper child process
(forked once, reused) so an LLVM fatal error becomes a diagnostic, not a dead process.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import hashlib
import os
import pickle
import re
import select
import signal
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from tile_lsp.compiler import cancel
from tile_lsp.compiler.backend.cuda_tools import LIBDEVICE_HELP, find_libdevice, libdevice_not_found, trim_directory
from tile_lsp.compiler.backend.llvmir_values import NVPTX_TRIPLE
from tile_lsp.compiler.diagnostics import DiagnosticSink, Related
from tile_lsp.compiler.safe_codec import Codec, load_file, store_file
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.target import CompileOptions, Target

_NOWHERE = Span(0, 0)
_DEFAULT_CHIP = "sm_80"
_DEFAULT_FEATURES = "+ptx70"


class LLVMError(Exception):
    """LLVM rejected the module or failed to generate code (the message says why)."""


class LibdeviceUnreadable(Exception):
    """The libdevice file found is not LLVM bitcode LLVM can read (the message says which and why)."""


# Where the module calls a function: the source spans of the ops that call it (file order), for
# diagnostics about what it needs (the pipeline's `_callers`). None or no spans: the file start.
Locate = Callable[[str], list[Span]]


@dataclass
class LinkStats:
    """What linking libdevice did (for tests and the `llvm-ir` view's summary)."""

    libdevice: str | None = None
    requested: list[str] = field(default_factory=list)  # __nv_* the module called
    kept: list[str] = field(default_factory=list)  # libdevice definitions linked in
    libdevice_functions: int = 0  # definitions in the whole libdevice
    bytes_before: int = 0  # IR text size before linking
    bytes_linked: int = 0  # IR text size right after linking
    bytes_after: int = 0  # IR text size after optimization


@dataclass
class OptimizeResult:
    ir: str
    ok: bool
    stats: LinkStats


@cache
def _llvm():  # type: ignore[no-untyped-def]
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    return llvm


@dataclass(frozen=True)
class _TrimmedLibdevice:
    """The part of libdevice a set of `__nv_*` functions needs, as bitcode (cheap to re-parse)."""

    bitcode: bytes
    kept: tuple[str, ...]
    definitions: int  # definitions in the whole libdevice
    missing: tuple[str, ...]  # requested names libdevice does not define


_TRIMMED: dict[tuple[str, int, int, frozenset[str], str, str], _TrimmedLibdevice] = {}
_TRIMMED_MAX = 64
# A trimmed libdevice on disk: data only (`safe_codec`), bound to its file name (the hash of what
# it was trimmed for), in a folder only this user can write.
_TRIM_CODEC = Codec("libdevice", (_TrimmedLibdevice,))
_TRIM_FILE_LIMIT = 64 << 20


def _trim_file(key: tuple[str, int, int, frozenset[str], str, str]) -> str | None:
    directory = trim_directory()
    if directory is None:
        return None
    llvm = _llvm()
    path, mtime, size, wanted, triple, layout = key
    text = "\0".join([path, str(mtime), str(size), *sorted(wanted), triple, layout, repr(llvm.llvm_version_info)])
    return os.path.join(directory, hashlib.sha256(text.encode()).hexdigest() + ".trim")


# Trimmed libdevices kept on disk (one per set of functions kernels called; a few kB each): past
# this many, the least recently used go (a load marks its file used).
TRIM_FILES_MAX = 1024


def _load_trimmed(file: str | None) -> _TrimmedLibdevice | None:
    """The trimmed libdevice stored at `file`; None when it is missing, damaged, another
    version's or not ours (removed then; a hit is marked used: the pruning keeps it longest)."""
    if file is None:
        return None
    found = load_file(file, _TRIM_CODEC, os.path.basename(file).encode(), _TRIM_FILE_LIMIT)
    return found if isinstance(found, _TrimmedLibdevice) else None


def _prune_trimmed(directory: str, keep: int) -> None:
    """At most `keep` trimmed libdevices in `directory`: the least recently used go first."""
    try:
        names = [n for n in os.listdir(directory) if n.endswith(".trim")]
    except OSError:
        return
    if len(names) <= keep:
        return
    used = []
    for name in names:
        with contextlib.suppress(OSError):
            used.append((os.lstat(os.path.join(directory, name)).st_mtime_ns, name))
    used.sort()
    for _, name in used[: len(used) - keep]:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(directory, name))


def _store_trimmed(file: str | None, trimmed: _TrimmedLibdevice) -> None:
    if file is None:
        return
    # (a refused, read-only or full cache directory only costs speed)
    if store_file(file, _TRIM_CODEC, trimmed, os.path.basename(file).encode()):
        _prune_trimmed(os.path.dirname(file), TRIM_FILES_MAX)


def _trimmed_libdevice(path: str, wanted: frozenset[str], triple: str, data_layout: str, tm) -> _TrimmedLibdevice:  # type: ignore[no-untyped-def]
    """libdevice minus what `wanted` does not reach (cached per file version and name set, in
    memory and in the trim directory: parsing and trimming the 470 KB library is most of the
    cost of linking it)."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, wanted, triple, data_layout)
    found = _TRIMMED.get(key)
    if found is not None:
        return found
    file = _trim_file(key)
    found = _load_trimmed(file)
    if found is not None:
        _remember_trimmed(key, found)
        return found
    llvm = _llvm()
    try:
        with open(path, "rb") as fh:
            lib = llvm.parse_bitcode(fh.read())
    except OSError as exc:
        raise LibdeviceUnreadable(f"{path} cannot be read ({exc.strerror or exc})") from None
    except RuntimeError as exc:  # llvmlite: "LLVM bitcode parsing error\n<why>"
        why = " ".join(str(exc).split("\n")[1:]).strip() or _first_line(str(exc))
        raise LibdeviceUnreadable(f"{path} is not valid LLVM bitcode ({why})") from None
    definitions = [f for f in lib.functions if not f.is_declaration]
    missing = tuple(sorted(wanted - {f.name for f in definitions}))
    kept: tuple[str, ...] = ()
    bitcode = b""
    if not missing:
        for f in definitions:
            if f.name not in wanted:
                f.linkage = llvm.Linkage.internal
        for g in lib.global_variables:
            if not g.is_declaration:
                g.linkage = llvm.Linkage.internal
        dce = llvm.create_new_module_pass_manager()
        dce.add_global_dead_code_eliminate_pass()
        dce.run(lib, llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=0)))
        kept = tuple(sorted(f.name for f in lib.functions if not f.is_declaration))
        lib.triple = triple
        lib.data_layout = data_layout
        bitcode = lib.as_bitcode()
    result = _TrimmedLibdevice(bitcode, kept, len(definitions), missing)
    _remember_trimmed(key, result)
    _store_trimmed(file, result)
    return result


def _remember_trimmed(key: tuple[str, int, int, frozenset[str], str, str], trimmed: _TrimmedLibdevice) -> None:
    if len(_TRIMMED) >= _TRIMMED_MAX:
        _TRIMMED.pop(next(iter(_TRIMMED)))
    _TRIMMED[key] = trimmed


# DWARF sections in PTX use label differences, which ptxas accepts from PTX ISA 7.5 on.
DEBUG_MIN_PTX = 75


def target_machine(target: Target | None, opt_level: int = 3, *, debug: bool = False):  # type: ignore[no-untyped-def]
    """An NVPTX target machine for `target` (cpu = chip, features = +ptxNN; at least
    +ptx75 with full debug info)."""
    llvm = _llvm()
    chip = target.chip if target is not None else _DEFAULT_CHIP
    features = target.ptx_feature if target is not None else _DEFAULT_FEATURES
    if debug:
        features = f"+ptx{max(DEBUG_MIN_PTX, int(features.removeprefix('+ptx')))}"
    return llvm.Target.from_triple(NVPTX_TRIPLE).create_target_machine(
        cpu=chip, features=features, opt=max(0, min(3, opt_level))
    )


def _called_libdevice(module) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(f.name for f in module.functions if f.is_declaration and f.name.startswith("__nv_"))


def _at_callers(sink: DiagnosticSink, locate: Locate | None, names: list[str], message: Callable[[str], str]) -> None:
    """One error per function of `names`, at the first op that calls it (`locate`; the others
    that do are its notes), else at the file start."""
    for name in names:
        spans = locate(name) if locate is not None else []
        first = spans[0] if spans else _NOWHERE
        sink.error(first, message(name), *(Related(s, f"`{name}` is needed here too") for s in spans[1:9]))


def link_libdevice(module, stats: LinkStats, sink: DiagnosticSink, tm, locate: Locate | None = None) -> bool:  # type: ignore[no-untyped-def]
    """Links the needed part of libdevice into `module` (in place); False after a diagnostic,
    each at the source op that calls the libdevice function it is about (`locate`)."""
    llvm = _llvm()
    stats.requested = _called_libdevice(module)
    if not stats.requested:
        return True
    path = find_libdevice()
    if path is None:
        why = libdevice_not_found()
        _at_callers(sink, locate, stats.requested,
                    lambda name: f"`{name}` (libdevice) is needed here, and no libdevice was found: {why}")
        return False
    stats.libdevice = path
    try:
        trimmed = _trimmed_libdevice(path, frozenset(stats.requested), module.triple, module.data_layout, tm)
    except LibdeviceUnreadable as exc:
        unreadable = str(exc)
        _at_callers(sink, locate, stats.requested,
                    lambda name: f"{unreadable}: `{name}`, needed here, cannot be linked from it; {LIBDEVICE_HELP}")
        return False
    stats.libdevice_functions = trimmed.definitions
    if trimmed.missing:
        _at_callers(sink, locate, list(trimmed.missing), lambda name: f"`{name}` is not in libdevice ({path})")
        return False
    stats.kept = list(trimmed.kept)
    lib = llvm.parse_bitcode(trimmed.bitcode)
    module.link_in(lib)
    for f in module.functions:
        if f.name in stats.kept:
            f.linkage = llvm.Linkage.internal
    return True


def effective_opt_level(options: CompileOptions) -> int:
    """-O level of the LLVM pipeline: 0 with --device-debug (as nvcc -G does), so the
    `llvm.nvvm.move` pins and the `#dbg_value` records that read them survive (seed 001)."""
    return 0 if options.device_debug else max(0, min(3, options.opt_level))


def is_device_debug_ir(ir: str) -> bool:
    """Whether `ir` carries full debug info (a FullDebug compile unit: --device-debug)."""
    return "emissionKind: FullDebug" in ir


def optimize_with_stats(
    ir: str, options: CompileOptions, sink: DiagnosticSink, *, measure_link: bool = True, locate: Locate | None = None
) -> OptimizeResult:
    """Parse, verify, link libdevice, run the -O pipeline, verify again. `measure_link=False` leaves
    `bytes_linked` at 0 (it prints the whole linked module: tens of ms on a big unit); `locate`
    places libdevice's diagnostics at the ops that call it."""
    llvm = _llvm()
    stats = LinkStats(bytes_before=len(ir))
    level = effective_opt_level(options)
    tm = target_machine(options.target, level)
    try:
        module = llvm.parse_assembly(ir)
        module.verify()
    except RuntimeError as exc:
        sink.error(_NOWHERE, f"LLVM rejected the emitted IR: {_first_line(str(exc))}")
        return OptimizeResult(ir, False, stats)
    module.triple = NVPTX_TRIPLE
    module.data_layout = str(tm.target_data)
    if not link_libdevice(module, stats, sink, tm, locate):
        return OptimizeResult(ir, False, stats)
    if measure_link:
        stats.bytes_linked = len(str(module))
    pto = llvm.create_pipeline_tuning_options(speed_level=level)
    builder = llvm.create_pass_builder(tm, pto)
    builder.getModulePassManager().run(module, builder)
    try:
        module.verify()
    except RuntimeError as exc:
        sink.error(_NOWHERE, f"LLVM IR invalid after optimization: {_first_line(str(exc))}")
        return OptimizeResult(ir, False, stats)
    text = str(module)
    stats.bytes_after = len(text)
    return OptimizeResult(text, True, stats)


def optimize(ir: str, options: CompileOptions, sink: DiagnosticSink, locate: Locate | None = None) -> str:
    """The optimized, libdevice-linked IR (the input unchanged after a diagnostic)."""
    return optimize_with_stats(ir, options, sink, measure_link=False, locate=locate).ir


def emit_ptx(ir: str, target: Target | None, *, opt_level: int = 3, sink: DiagnosticSink | None = None) -> str:
    """PTX for `ir` from llvmlite's NVPTX back end. Raises LLVMError unless a `sink` takes it.
    IR with full debug info (--device-debug) is compiled at -O0 whatever `opt_level` says."""
    if is_device_debug_ir(ir):
        opt_level = 0
    try:
        return _generate(ir, target, opt_level)
    except LLVMError as exc:
        if sink is None:
            raise
        sink.error(_NOWHERE, str(exc))
        return ""


_PIN = re.compile(r"^\s*(%[-\w.$]+) = call \w+ @llvm\.nvvm\.move\.\w+(?:\.\w+)*\(\w+ (%[-\w.$]+)\)", re.MULTILINE)
_DBG_VALUE_OPERAND = re.compile(r"(#dbg_value\([^%\n]*?)(%[-\w.$]+)(?=,)")


def forward_pins(ir: str) -> str:
    """`#dbg_value` records read the value a `llvm.nvvm.move` pin passes through instead of the pin.

    Only for code generation: the pin is `memory(none)`, so NVPTX instruction selection deletes
    one that only debug records read, and the variable would lose its DWARF location. The pin has
    done its job by then (the IR pipeline did not fold the value away)."""
    pins = {m.group(1): m.group(2) for m in _PIN.finditer(ir)}
    if not pins:
        return ir
    return _DBG_VALUE_OPERAND.sub(lambda m: m.group(1) + pins.get(m.group(2), m.group(2)), ir)


def _codegen(ir: str, target: Target | None, opt_level: int) -> str:
    llvm = _llvm()
    debug = is_device_debug_ir(ir)
    tm = target_machine(target, opt_level, debug=debug)
    if debug:
        ir = forward_pins(ir)
    try:
        module = llvm.parse_assembly(ir)
        module.verify()
    except RuntimeError as exc:
        raise LLVMError(f"LLVM rejected the IR: {_first_line(str(exc))}") from None
    module.triple = NVPTX_TRIPLE
    module.data_layout = str(tm.target_data)
    return str(tm.emit_assembly(module))


class _CodegenHelper:
    """A child process that generates code, request after request: forked once (on first use)
    instead of once per compile, so the ~15 ms a fork and its copy-on-write faults cost a small
    unit is paid once. An LLVM abort ends the child, never this process: the request that caused
    it raises LLVMError with LLVM's own message, and the next request starts a fresh child. A
    process forked from this one (a unit compiled in parallel, a printing child) gets a helper
    of its own (the pipes are per owner). The child leaves when this process closes its pipe."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self._err = tempfile.TemporaryFile()  # noqa: SIM115 (the child's stderr, read after an abort)
        req_r, self._req_w = os.pipe()
        self._resp_r, resp_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(self._req_w)
                os.close(self._resp_r)
                faulthandler.disable()  # an LLVM abort here is expected: no Python traceback for it
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C goes to the parent, which closes the pipe
                gc.disable()  # a collection would touch (copy) the parent's pages
                # It outlives the command that started it (a compile daemon's worker runs many):
                # it must not hold that command's stdin/stdout (a pipe's reader would wait on it).
                null = os.open(os.devnull, os.O_RDWR)
                os.dup2(null, 0)
                os.dup2(null, 1)
                os.close(null)
                os.dup2(self._err.fileno(), 2)
                _serve(req_r, resp_w)
                code = 0
            finally:
                os._exit(code)
        os.close(req_r)
        os.close(resp_w)
        self.alive = True

    def run(self, ir: str, target: Target | None, opt_level: int) -> str:
        """PTX for `ir`; LLVMError when LLVM rejects it or the child dies (an abort)."""
        mark = self._err.seek(0, os.SEEK_END)
        try:
            _send(self._req_w, pickle.dumps((ir, target, opt_level), protocol=pickle.HIGHEST_PROTOCOL))
            self._await_reply()
            reply = _receive(self._resp_r)
        except OSError:
            reply = None
        if reply is None:  # the child died on this request
            self.close()
            _, status = os.waitpid(self.pid, 0)
            self._err.seek(mark)
            err = self._err.read().decode(errors="replace")
            why = _first_line(_clean_llvm_error(err)) or _describe_status(status)
            raise LLVMError(f"LLVM code generation failed: {why}")
        text = reply.decode(errors="replace")
        if text.startswith("ok\n"):
            return text[3:]
        raise LLVMError(text.removeprefix("error\n"))

    def _await_reply(self) -> None:
        """Wait until the reply starts, looking for a cancel of the compile (compiler/cancel.py)
        every _CANCEL_POLL_S: a cancelled request kills the child (the next request forks a
        fresh one) and raises `Cancelled`, so a long code generation does not hold a cancelled
        language-server worker until its grace period ends."""
        while not select.select([self._resp_r], [], [], _CANCEL_POLL_S)[0]:
            if cancel.requested():
                self.close()
                with contextlib.suppress(OSError):
                    os.kill(self.pid, signal.SIGKILL)
                with contextlib.suppress(OSError):
                    os.waitpid(self.pid, 0)
                raise cancel.Cancelled()

    def close(self) -> None:
        if self.alive:
            self.alive = False
            for fd in (self._req_w, self._resp_r):
                with contextlib.suppress(OSError):
                    os.close(fd)


def _serve(requests: int, replies: int) -> None:
    """The helper's loop: code generation for each request until the pipe closes."""
    while True:
        request = _receive(requests)
        if request is None:
            return
        try:
            data = "ok\n" + _codegen(*pickle.loads(request))
        except LLVMError as exc:
            data = "error\n" + str(exc)
        except Exception as exc:  # llvmlite's RuntimeError and the like
            data = f"error\nLLVM code generation failed: {_first_line(str(exc))}"
        _send(replies, data.encode())


def _send(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _receive(fd: int) -> bytes | None:
    """One length-prefixed message, or None at end of file (the other side is gone)."""
    head = _read_exactly(fd, 8)
    if head is None:
        return None
    return _read_exactly(fd, int.from_bytes(head, "little"))


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


_CANCEL_POLL_S = 0.02  # how often a wait for the helper looks for a cancel
_HELPER: _CodegenHelper | None = None
_HELPER_LOCK = threading.Lock()


def _reset_lock_in_child() -> None:
    """A child forked while another thread generated code must not inherit the held lock."""
    global _HELPER_LOCK
    _HELPER_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_lock_in_child)


def _generate(ir: str, target: Target | None, opt_level: int) -> str:
    """`_codegen` in the helper process (started when there is none for this process), or
    here where there is no fork."""
    global _HELPER
    if not hasattr(os, "fork"):
        return _codegen(ir, target, opt_level)
    with _HELPER_LOCK:
        if _HELPER is None or not _HELPER.alive or _HELPER.owner != os.getpid():
            _HELPER = _CodegenHelper()
        return _HELPER.run(ir, target, opt_level)


def _describe_status(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"terminated by {signal.Signals(sig).name}"
        except ValueError:
            return f"terminated by signal {sig}"
    return f"exit status {os.WEXITSTATUS(status)}"


def _clean_llvm_error(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith(("PLEASE submit", "Stack dump", " #"))]
    return "\n".join(lines)


def _first_line(text: str) -> str:
    text = re.sub(r"^LLVM ERROR:\s*", "", text.strip())
    return " | ".join(text.splitlines()[:2]) if text else ""
