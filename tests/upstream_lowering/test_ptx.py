"""Stages 6-8 end to end with the real tools: our LLVM IR -> llvmlite -O pipeline with minimal
libdevice -> NVPTX PTX -> ptxas (skipped when no ptxas is found)."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import time

import pytest

from tile_lsp.compiler.backend.cubin import elf_sections
from tile_lsp.compiler.backend.cuda_tools import find_libdevice
from tile_lsp.compiler.backend.llvm import LLVMError, emit_ptx, optimize, optimize_with_stats
from tile_lsp.compiler.backend.llvmir import emit_llvm_ir
from tile_lsp.compiler.backend.ptxas import find_ptxas, parse_resources, run_ptxas
from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.util import parse_ok

KERNEL = pathlib.Path(__file__).parent / "data" / "llvmir_kernel.mlir"
TARGETS = [Target(80), Target(90, "a"), Target(100, "a")]


def needs_ptxas() -> str:
    path = find_ptxas(CompileOptions())
    if path is None:
        pytest.skip("ptxas not found")
    return path


def needs_libdevice() -> str:
    path = find_libdevice()
    if path is None:
        pytest.skip("libdevice not found")
    return path


def compile_kernel(
    target: Target, *, lineinfo: bool = False, opt_level: int = 3, text: str | None = None
) -> tuple[str, CompileOptions]:
    """The kernel file through emit -> optimize -> PTX; asserts no diagnostics."""
    parsed = parse_ok(text if text is not None else KERNEL.read_text(), str(KERNEL))
    assert parsed.module is not None
    options = CompileOptions(target, opt_level=opt_level, lineinfo=lineinfo)
    lctx = LoweringContext(parsed.source, options, spans=parsed.spans)
    ir = emit_llvm_ir(parsed.module, lctx)
    assert ir is not None, [d.message for d in lctx.sink.items]
    sink = DiagnosticSink(stage="llvm-ir")
    optimized = optimize(ir, options, sink)
    assert not sink.items, [d.message for d in sink.items]
    ptx = emit_ptx(optimized, target, opt_level=opt_level)
    return ptx, options


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.chip)
def test_kernel_assembles_with_ptxas(target: Target) -> None:
    needs_libdevice()
    ptx, options = compile_kernel(target)
    assert f".target {target.chip}" in ptx
    assert f".version {target.ptx_version // 10}.{target.ptx_version % 10}" in ptx
    assert ".visible .entry axpy(" in ptx
    needs_ptxas()
    result = run_ptxas(ptx, target, options)
    assert result.ok, result.diagnostics
    assert result.cubin is not None and result.cubin[:4] == b"\x7fELF"
    res = result.kernels["axpy"]
    assert res.is_entry and res.registers > 0
    assert res.shared_bytes == 512  # @smem: 128 x f32
    assert res.barriers == 1  # bar.sync 0 from the inline asm


def test_launch_bounds_reach_ptx() -> None:
    ptx, _ = compile_kernel(Target(90, "a"))
    assert re.search(r"^\.maxntid 128, 1, 1$", ptx, re.M)
    text = KERNEL.read_text().replace(
        "nvvm.maxntid = array<i32: 128, 1, 1>",
        "nvvm.reqntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32, nvvm.maxnreg = 64 : i32",
    )
    ptx2, _ = compile_kernel(Target(90, "a"), text=text)
    assert re.search(r"^\.reqntid 128, 1, 1$", ptx2, re.M)
    assert re.search(r"^\.minnctapersm 2$", ptx2, re.M)
    assert re.search(r"^\.maxnreg 64$", ptx2, re.M)


def _without_debug(ptx: str) -> list[str]:
    drop = re.compile(r"^\s*(\.loc\b|\.file\b|\$L__(tmp|func_begin|func_end)\d+:|\.section\s+\.debug|$)")
    return [line for line in ptx.splitlines() if not drop.match(line)]


def test_lineinfo_adds_loc_and_file_only() -> None:
    target = Target(90, "a")
    with_lines, _ = compile_kernel(target, lineinfo=True)
    plain, _ = compile_kernel(target)
    assert re.search(rf'^\s*\.file\s+1 ".*{KERNEL.name}"', with_lines, re.M)
    locs = re.findall(r"^\s*\.loc\s+1 (\d+) (\d+)", with_lines, re.M)
    assert ("22", "7") in locs  # the __nv_expf call's line
    assert ("48", "7") in locs  # the atomicrmw fadd
    assert not re.search(r"^\s*\.(loc|file)\s", plain, re.M)
    assert _without_debug(with_lines) == _without_debug(plain)
    needs_ptxas()
    result = run_ptxas(with_lines, target, CompileOptions(target, lineinfo=True))
    assert result.ok, result.diagnostics
    assert "-lineinfo" in result.command


def test_libdevice_is_linked_minimally() -> None:
    needs_libdevice()
    ir = """target triple = "nvptx64-nvidia-cuda"
declare float @__nv_sinf(float)
declare float @__nv_powf(float, float)
declare double @__nv_exp(double)
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %v = load float, ptr addrspace(1) %p
  %s = call float @__nv_sinf(float %v)
  %w = call float @__nv_powf(float %s, float %v)
  %d = fpext float %w to double
  %e = call double @__nv_exp(double %d)
  %t = fptrunc double %e to float
  store float %t, ptr addrspace(1) %p
  ret void
}
"""
    target = Target(80)
    sink = DiagnosticSink()
    result = optimize_with_stats(ir, CompileOptions(target, opt_level=0), sink)
    assert result.ok and not sink.items
    stats = result.stats
    assert stats.requested == ["__nv_exp", "__nv_powf", "__nv_sinf"]
    assert set(stats.requested) <= set(stats.kept)
    assert len(stats.kept) <= 10 < stats.libdevice_functions  # of ~350 definitions
    assert stats.bytes_linked < 200_000  # the whole of libdevice is ~2.6 MB of IR text
    defined = re.findall(r"^define (\w+ )*\S+ @(\S+)\(", result.ir, re.M)
    names = [name for *_, name in defined]
    assert names[0] == "k" and all(n.startswith("__nv_") for n in names[1:])
    assert all("internal" in d[0] for d in defined[1:])  # linked functions are internalized
    # at -O3 they are inlined and deleted
    optimized = optimize_with_stats(ir, CompileOptions(target, opt_level=3), DiagnosticSink())
    assert re.findall(r"^define .*@(\S+)\(", optimized.ir, re.M) == ["k"]
    ptx = emit_ptx(optimized.ir, target)
    assert "__nv_" not in ptx and "__nvvm_reflect" not in ptx


def test_trimmed_libdevice_is_cached_per_file_version(tmp_path: pathlib.Path) -> None:
    from tile_lsp.compiler.backend import llvm as backend

    path = needs_libdevice()
    copy = tmp_path / "libdevice.10.bc"
    shutil.copyfile(path, copy)
    tm = backend.target_machine(Target(80))
    wanted = frozenset({"__nv_sinf"})
    args = ("nvptx64-nvidia-cuda", str(tm.target_data), tm)
    first = backend._trimmed_libdevice(str(copy), wanted, *args)
    assert "__nv_sinf" in first.kept and not first.missing and first.definitions > 300
    assert backend._trimmed_libdevice(str(copy), wanted, *args) is first  # same file: no re-parse
    os.utime(copy, ns=(0, 0))  # a new version of the file (another mtime) is read again
    again = backend._trimmed_libdevice(str(copy), wanted, *args)
    assert again is not first and (again.kept, again.definitions) == (first.kept, first.definitions)
    missing = backend._trimmed_libdevice(str(copy), frozenset({"__nv_nope"}), *args)
    assert missing.missing == ("__nv_nope",) and not missing.bitcode



def test_trimmed_libdevice_is_kept_on_disk_for_the_next_process(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a trim directory, a process that has never trimmed libdevice for a set of functions
    takes it from the directory (no parse); a damaged file is a miss, trimmed and written again."""
    import llvmlite.binding as binding

    from tile_lsp.compiler.backend import cuda_tools
    from tile_lsp.compiler.backend import llvm as backend

    path = needs_libdevice()
    tm = backend.target_machine(Target(80))
    wanted = frozenset({"__nv_expf", "__nv_logf"})
    args = ("nvptx64-nvidia-cuda", str(tm.target_data), tm)
    monkeypatch.setattr(backend, "_TRIMMED", {})
    monkeypatch.setattr(cuda_tools, "_TRIM_DIRECTORY", None)
    parses = []
    real_parse = binding.parse_bitcode
    monkeypatch.setattr(binding, "parse_bitcode", lambda data: parses.append(len(data)) or real_parse(data))
    cuda_tools.set_trim_directory(str(tmp_path / "libdevice"))
    first = backend._trimmed_libdevice(path, wanted, *args)
    (stored,) = (tmp_path / "libdevice").iterdir()
    assert parses and stored.suffix == ".trim"
    parses.clear()
    backend._TRIMMED.clear()  # as a new process finds it
    again = backend._trimmed_libdevice(path, wanted, *args)
    assert parses == [] and again == first and again is not first
    stored.write_bytes(stored.read_bytes()[:100])  # truncated
    backend._TRIMMED.clear()
    mended = backend._trimmed_libdevice(path, wanted, *args)
    assert parses and mended == first
    assert backend._load_trimmed(str(stored)) == first  # written again, whole


def test_trimmed_libdevices_on_disk_are_pruned_least_recently_used_first(tmp_path: pathlib.Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Past TRIM_FILES_MAX files, a store removes the least recently used (a load counts as a use)."""
    import os

    from tile_lsp.compiler.backend import llvm as backend

    monkeypatch.setattr(backend, "TRIM_FILES_MAX", 3)
    directory = tmp_path / "libdevice"
    trimmed = backend._TrimmedLibdevice(b"bc", ("__nv_expf",), 1, ())
    files = [str(directory / f"{i}.trim") for i in range(4)]
    for i, file in enumerate(files[:3]):
        backend._store_trimmed(file, trimmed)
        os.utime(file, ns=(i * 10**9, i * 10**9))  # stored one after another
    assert backend._load_trimmed(files[0]) == trimmed  # the oldest store, used now
    backend._store_trimmed(files[3], trimmed)
    assert sorted(p.name for p in directory.iterdir()) == ["0.trim", "2.trim", "3.trim"]
    (directory / "notes.txt").write_text("not ours")
    backend._store_trimmed(str(directory / "4.trim"), trimmed)
    names = sorted(p.name for p in directory.iterdir())
    assert len([n for n in names if n.endswith(".trim")]) == 3 and "notes.txt" in names


def test_optimize_reports_invalid_ir() -> None:
    sink = DiagnosticSink()
    out = optimize("define void @f() {\n  ret i32 0\n}\n", CompileOptions(Target(80)), sink)
    assert out.startswith("define void @f()")
    assert [d.message.split(":")[0] for d in sink.items] == ["LLVM rejected the emitted IR"]


def test_emit_ptx_failure_is_an_error_not_a_crash() -> None:
    # wgmma needs sm_90a: LLVM's instruction selector aborts the process on sm_80
    bad = (
        "define void @f() {\n  call void @llvm.nvvm.wgmma.fence.sync.aligned()\n  ret void\n}\n"
        "declare void @llvm.nvvm.wgmma.fence.sync.aligned()\n"
    )
    with pytest.raises(LLVMError, match="Cannot select: intrinsic %llvm.nvvm.wgmma.fence.sync.aligned"):
        emit_ptx(bad, Target(80))
    sink = DiagnosticSink()
    assert emit_ptx(bad, Target(80), sink=sink) == ""
    assert sink.has_errors
    assert "wgmma.fence" in emit_ptx(bad, Target(90, "a"))


def test_code_generation_helper_is_reused_and_per_process() -> None:
    """Code generation runs in one helper child per process, reused request after request; a
    forked process (a unit compiled in parallel) starts its own instead of sharing the pipes."""
    from tile_lsp.compiler.backend import llvm as backend

    good = "define void @f() {\n  ret void\n}\n"
    assert ".func f()" in emit_ptx(good, Target(80))
    first = backend._HELPER
    assert first is not None and first.alive and first.owner == os.getpid()
    assert ".func f()" in emit_ptx(good, Target(90, "a"))
    assert backend._HELPER is first  # the same child answered
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child reports through the pipe)
        try:
            ok = ".func f()" in emit_ptx(good, Target(80))
            mine = backend._HELPER
            ok = ok and mine is not None and mine is not first and mine.owner == os.getpid()
            os.write(write, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write)
    got = os.read(read, 1)
    os.close(read)
    os.waitpid(pid, 0)
    assert got == b"1"
    assert ".func f()" in emit_ptx(good, Target(80)) and backend._HELPER is first


def test_ptxas_error_names_line_and_command() -> None:
    needs_ptxas()
    target = Target(90, "a")
    ptx, options = compile_kernel(target)
    broken = ptx.replace("ld.global.", "ld.global.bogus.", 1)
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "bogus" in text)
    result = run_ptxas(broken, target, options)
    assert not result.ok and result.cubin is None
    assert result.messages[0].line == line and result.messages[0].severity == "error"
    assert "bogus" in result.messages[0].text
    assert re.search(r"ptxas -arch=sm_90a -O3 -v kernel\.ptx -o kernel\.cubin$", result.command)
    assert result.diagnostics.endswith(f"reproduce with: {result.command}")
    # (the command names the PTX relative to where it ran, a scratch directory that is gone:
    # tests/test_external_tools.py reruns it beside a saved kernel.ptx)


def test_ptxas_timeout_message() -> None:
    needs_ptxas()
    target = Target(90, "a")
    ptx, _ = compile_kernel(target)
    options = CompileOptions(target, ptxas_timeout=0.001)
    result = run_ptxas(ptx, target, options)
    assert not result.ok and result.timed_out
    [msg] = result.messages
    assert msg.text.startswith("ptxas timed out after 0.001 s (ptxas_timeout); command: ")
    assert result.command in msg.text


def test_work_beside_ptxas_runs_while_it_does_and_counts_against_its_timeout() -> None:
    """`run_ptxas(beside=...)`: called once, after ptxas has started (the editor's worker does its
    housekeeping there); the same result as without it; a failure in it is not the compile's;
    its time counts against ptxas_timeout."""
    needs_ptxas()
    target = Target(90, "a")
    ptx, options = compile_kernel(target)
    plain = run_ptxas(ptx, target, options)
    seen: list[int] = []

    def look() -> None:
        if os.path.isdir("/proc/self"):
            seen.append(len([p for p in os.listdir("/proc") if p.isdigit() and _is_ptxas(p)]))
        raise RuntimeError("housekeeping broke")

    beside = run_ptxas(ptx, target, options, beside=look)
    assert beside.ok and beside.cubin == plain.cubin
    assert seen in ([], [1])  # (where there is a /proc: ptxas was running)
    slow = run_ptxas(ptx, target, CompileOptions(target, ptxas_timeout=0.2), beside=lambda: time.sleep(0.5))
    assert slow.timed_out and not slow.ok


def _is_ptxas(pid: str) -> bool:
    """Whether process `pid` is a child of this one running ptxas: by its command line, since a
    `ptxas` that is a shell wrapper (`exec .../ptxas "$@"`) is named `sh` until it execs."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[1] != str(os.getpid()):
                return False
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            argv = cmdline.read().split(b"\0")
    except (OSError, IndexError):
        return False
    return any(os.path.basename(arg) == b"ptxas" for arg in argv[:2])


def test_find_ptxas_honours_explicit_path(tmp_path: pathlib.Path) -> None:
    assert find_ptxas(CompileOptions(ptxas=str(tmp_path / "missing"))) is None
    result = run_ptxas("", Target(80), CompileOptions(Target(80), ptxas=str(tmp_path / "missing")))
    assert not result.ok and result.messages[0].text.startswith("ptxas not found")


def test_resource_parser() -> None:
    out = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_90a'
ptxas info    : Function properties for k
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 16 bytes cumulative stack size, 512 bytes smem, 376 bytes cmem[0]
ptxas info    : Function properties for helper
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
"""
    res = parse_resources(out)
    k = res["k"]
    assert (k.registers, k.spill_stores, k.spill_loads, k.stack_bytes, k.shared_bytes, k.barriers, k.cmem) == (
        40,
        8,
        4,
        16,
        512,
        1,
        {0: 376},
    )
    assert k.is_entry and not res["helper"].is_entry


def test_ptx_lines_map_back_to_source() -> None:
    from tile_lsp.compiler.backend.ptx_map import ptx_line_to_source, source_to_ptx_lines

    ptx, _ = compile_kernel(Target(90, "a"), lineinfo=True)
    lines = ptx.splitlines()
    mapping = ptx_line_to_source(ptx)
    assert mapping and all(loc.path.endswith(KERNEL.name) for loc in mapping.values())
    atom = next(i for i, t in enumerate(lines) if "atom.global" in t or "red.global" in t)
    assert (mapping[atom].line, mapping[atom].column) in {(48, 7), (50, 7)}
    back = source_to_ptx_lines(ptx)
    assert atom in back[(mapping[atom].path, mapping[atom].line)]
    assert not ptx_line_to_source(compile_kernel(Target(90, "a"))[0])


@pytest.mark.parametrize("name", ["llvmir_upstream_saxpy.mlir", "llvmir_kernel.mlir"])
def test_same_ptx_as_mlir_translate(name: str) -> None:
    """Differential check against upstream: mlir-translate's LLVM IR and ours give the same PTX."""
    import subprocess

    from xdsl.dialects import builtin

    from tile_lsp.compiler.backend.llvmir import device_ops
    from upstream_lowering.util import print_ir

    translate = shutil.which("mlir-translate") or "/usr/lib/llvm-22/bin/mlir-translate"
    if not os.access(translate, os.X_OK):
        pytest.skip("mlir-translate 22 is not installed")
    needs_libdevice()
    path = KERNEL.parent / name
    parsed = parse_ok(path.read_text(), str(path))
    assert parsed.module is not None
    target = Target(90, "a")
    options = CompileOptions(target)
    ours = emit_llvm_ir(parsed.module, LoweringContext(parsed.source, options, spans=parsed.spans))
    assert ours is not None
    # mlir-translate does not look inside gpu.module: give it the kernel's ops at top level
    top = builtin.ModuleOp([op.clone() for op in device_ops(parsed.module)])
    res = subprocess.run(
        [translate, "--mlir-to-llvmir"], input=print_ir(top), capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 0, res.stderr
    ptx = [emit_ptx(optimize(ir, options, DiagnosticSink()), target) for ir in (res.stdout, ours)]
    assert ptx[0] == ptx[1]
    assert "ex2.approx.ftz.f32" in ptx[1] and "atom.global" in ptx[1]


def test_code_generation_from_another_thread() -> None:
    """The helper may be forked from a thread that is not the main one (a worker thread): code
    generation works there, and the main thread's next request is served too."""
    import threading

    from tile_lsp.compiler.backend import llvm as backend

    good = "define void @f() {\n  ret void\n}\n"
    old = backend._HELPER
    if old is not None and old.owner == os.getpid():  # the thread forks the next helper
        old.close()  # (the old one sees the end of its pipe and leaves)
        os.waitpid(old.pid, 0)
    backend._HELPER = None
    out: list[str] = []
    thread = threading.Thread(target=lambda: out.append(emit_ptx(good, Target(80))))
    thread.start()
    thread.join(60)
    assert out and ".func f()" in out[0]
    assert ".func f()" in emit_ptx(good, Target(80))


def test_ptxas_splits_a_file_of_kernels_over_threads_with_the_same_cubin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two kernels: ptxas optimizes them on two threads (`--split-compile`); the code, the -v
    report and every cubin section but ptxas's note of its command line are as on one thread."""
    from tile_lsp.compiler.backend import ptxas as ptxas_mod
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText

    path = needs_ptxas()
    needs_libdevice()
    if not ptxas_mod.splits_compile(path) or ptxas_mod.ptxas_threads(path, ".entry a(\n.entry b(\n") < 2:
        pytest.skip("this ptxas or this machine does not split compiles")
    kernels = pathlib.Path(__file__).parents[1] / "data" / "cutile" / "vector_add.mlir"
    target = Target(90, "a")
    options = CompileOptions(target)
    ptx = compile_source(SourceText(kernels.read_text(), str(kernels)), options, "ptx", cache=False).stage("ptx")
    assert ptx is not None and ptx.text.count(".entry") == 2
    split = run_ptxas(ptx.text, target, options)
    assert split.ok and "--split-compile 2" in split.command
    monkeypatch.setattr(ptxas_mod, "ptxas_threads", lambda *_: 1)
    whole = run_ptxas(ptx.text, target, options)
    assert whole.ok and "--split-compile" not in whole.command
    assert split.kernels == whole.kernels and len(whole.kernels) == 2
    assert split.cubin is not None and whole.cubin is not None
    a, b = elf_sections(split.cubin), elf_sections(whole.cubin)
    assert a.keys() == b.keys()
    assert [name for name in a if a[name] != b[name]] == [".note.nv.tkinfo"]
    assert any(name.startswith(".text.") for name in a)
