"""Back-half compile speed: per-stage and total milliseconds of `compile_source(..., emit="cubin")`
for sm_90a, steady state (min and median of N runs) and the one-time costs of a fresh process.

`python bench/compile_speed.py [--repeat N] [--largest K] [--json] [--profile DIR] [FILES...]`

Cases: examples/block_sum.mlir; the K largest units of ../shared's upstream GPUToNVVM and
NVGPUToNVVM conversion tests that compile to a cubin for sm_90a (units are cut the way
scripts/conformance_upstream.py cuts them), plus all of those units compiled once each; a
generated gpu.module with 10 kernels; and any FILES given.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import importlib
import json
import pathlib
import pstats
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
UPSTREAM_TESTS = SHARED / "conformance" / "mlir-upstream" / "mlir" / "test"
BLOCK_SUM = ROOT / "examples" / "block_sum.mlir"
CHIP = "sm_90a"
UNIT_TIMEOUT_S = 60

# The pipeline's stages, in order, as the table shows them. `parse` is parse_upstream; the rest
# are CompileResult.stages[].seconds (each includes printing its text and building its line map).
STAGES = ("parse", "nvvm", "llvm", "llvm-ir", "ptx", "cubin")

# Functions timed inside a compile (module, attribute): the pipeline looks each one up on its
# module when it calls it, so replacing the attribute times every call.
PROBES: dict[str, tuple[str, str]] = {
    "parse": ("tile_lsp.compiler.mlir.context", "parse_upstream"),
    "mlir text": ("tile_lsp.compiler.provenance_mlir", "print_mapped_located"),
    "mlir text ": ("tile_lsp.compiler.provenance_mlir", "print_mapped"),
    "mlir text  ": ("tile_lsp.compiler.mlir.context", "print_ir"),
    "ir/ptx maps": ("tile_lsp.compiler.provenance", "llvm_ir_refs"),
    "ir/ptx maps ": ("tile_lsp.compiler.provenance", "ptx_refs"),
    "llvm-ir emit": ("tile_lsp.compiler.backend.llvmir", "emit_llvm_ir"),
    "optimize": ("tile_lsp.compiler.backend.llvm", "optimize"),
    "libdevice link": ("tile_lsp.compiler.backend.llvm", "link_libdevice"),
    "libdevice parse+trim": ("tile_lsp.compiler.backend.llvm", "_trimmed_libdevice"),
    "llvmlite init": ("tile_lsp.compiler.backend.llvm", "_llvm"),
}
# Sub-phases in the breakdown table ("-O pipeline" = optimize minus the libdevice link: LLVM IR
# parse and verify, the -O passes, printing the result).
BREAKDOWN = ("mlir text", "ir/ptx maps", "llvm-ir emit", "libdevice link", "-O pipeline")


# --------------------------------------------------------------------------- timing probes
class Probes:
    """Accumulated seconds per probe label while installed (nested calls count once)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._depth: dict[str, int] = {}

    def _wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        key = label.strip()

        def timed(*args: Any, **kwargs: Any) -> Any:
            depth = self._depth.get(key, 0)
            self._depth[key] = depth + 1
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self._depth[key] = depth
                if depth == 0:
                    self.seconds[key] = self.seconds.get(key, 0.0) + time.perf_counter() - started

        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    @contextlib.contextmanager
    def installed(self) -> Iterator[Probes]:
        saved: list[tuple[Any, str, Any]] = []
        try:
            for label, (mod_name, attr) in PROBES.items():
                mod = importlib.import_module(mod_name)
                fn = getattr(mod, attr)
                saved.append((mod, attr, fn))
                setattr(mod, attr, self._wrap(label, fn))
            yield self
        finally:
            for mod, attr, fn in reversed(saved):
                setattr(mod, attr, fn)


# --------------------------------------------------------------------------- one compile
@dataclass
class Sample:
    ok: bool
    total: float
    stages: dict[str, float]
    parts: dict[str, float]
    error: str = ""


def compile_once(text: str, name: str) -> Sample:
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    options = CompileOptions(target=Target.parse_gpu_name(CHIP))
    source = SourceText(text, name)
    probes = Probes()
    with probes.installed():
        started = time.perf_counter()
        result = compile_source(source, options, emit="cubin", cache=None)  # cuda_tile input: no entry cache
        total = time.perf_counter() - started
    stages = {"parse": probes.seconds.get("parse", 0.0)}
    stages.update({s.name: s.seconds for s in result.stages})
    parts = dict(probes.seconds)
    if "optimize" in parts:
        parts["-O pipeline"] = parts["optimize"] - parts.get("libdevice link", 0.0)
    ok = result.ok and result.stage("cubin") is not None
    error = ""
    if not ok:
        errors = [d for d in result.diagnostics if d.is_error]
        error = f"[{errors[0].stage}] {errors[0].message.splitlines()[0]}" if errors else "no cubin (ptxas missing?)"
    return Sample(ok, total, stages, parts, error)


class UnitTimeout(BaseException):
    """SIGALRM during a compile; a BaseException so the pipeline's error capture lets it through."""


def _alarm(signum: int, frame: object) -> None:
    raise UnitTimeout(f"compile took longer than {UNIT_TIMEOUT_S}s")


def compile_guarded(text: str, name: str) -> Sample:
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(UNIT_TIMEOUT_S)
    try:
        return compile_once(text, name)
    except UnitTimeout as exc:
        return Sample(False, float(UNIT_TIMEOUT_S), {}, {}, str(exc))
    finally:
        signal.alarm(0)


# --------------------------------------------------------------------------- cases
@dataclass
class Case:
    label: str
    text: str
    lines: int = 0
    runs: int = 0
    samples: list[Sample] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lines = self.text.count("\n") + 1


_KERNELS = (
    # 0: block sum of exp(x) through shared memory (libdevice __nv_expf)
    """
    gpu.func @block_exp_sum{i}(%x: memref<4096xf32, 1>, %out: memref<32xf32, 1>)
        workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>)
        kernel attributes {{known_block_size = array<i32: 128, 1, 1>}} {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32, 1>
      %e = math.exp %v : f32
      memref.store %e, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {{
        %zero = arith.constant 0.0 : f32
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {{
          %t = memref.load %buf[%k] : memref<128xf32, #gpu.address_space<workgroup>>
          %acc2 = arith.addf %acc, %t : f32
          scf.yield %acc2 : f32
        }}
        memref.store %sum, %out[%bid] : memref<32xf32, 1>
      }}
      gpu.return
    }}""",
    # 1: saxpy
    """
    gpu.func @saxpy{i}(%a: f32, %x: memref<65536xf32, 1>, %y: memref<65536xf32, 1>) kernel {{
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %xv = memref.load %x[%i] : memref<65536xf32, 1>
      %yv = memref.load %y[%i] : memref<65536xf32, 1>
      %ax = arith.mulf %a, %xv : f32
      %r = arith.addf %ax, %yv : f32
      memref.store %r, %y[%i] : memref<65536xf32, 1>
      gpu.return
    }}""",
    # 2: log/sqrt/tanh with a clamp (three libdevice calls)
    """
    gpu.func @activation{i}(%x: memref<65536xf32, 1>, %y: memref<65536xf32, 1>) kernel {{
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<65536xf32, 1>
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %p = arith.addf %v, %one : f32
      %pos = arith.cmpf ogt, %p, %zero : f32
      %safe = arith.select %pos, %p, %one : f32
      %l = math.log %safe : f32
      %s = math.sqrt %safe : f32
      %t = math.tanh %v : f32
      %ls = arith.mulf %l, %s : f32
      %r = arith.addf %ls, %t : f32
      memref.store %r, %y[%i] : memref<65536xf32, 1>
      gpu.return
    }}""",
    # 3: per-thread dot product over rows (loop, no shared memory)
    """
    gpu.func @rowdot{i}(%a: memref<256x64xf32, 1>, %b: memref<64xf32, 1>, %c: memref<256xf32, 1>) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {{
        %av = memref.load %a[%tid, %k] : memref<256x64xf32, 1>
        %bv = memref.load %b[%k] : memref<64xf32, 1>
        %p = arith.mulf %av, %bv : f32
        %acc2 = arith.addf %acc, %p : f32
        scf.yield %acc2 : f32
      }}
      memref.store %sum, %c[%tid] : memref<256xf32, 1>
      gpu.return
    }}""",
    # 4: 32x32 tile transpose through padded shared memory
    """
    gpu.func @transpose{i}(%in: memref<1024x1024xf32, 1>, %out: memref<1024x1024xf32, 1>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel attributes {{known_block_size = array<i32: 32, 32, 1>}} {{
      %c32 = arith.constant 32 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %ox = arith.muli %bx, %c32 : index
      %oy = arith.muli %by, %c32 : index
      %gx = arith.addi %ox, %tx : index
      %gy = arith.addi %oy, %ty : index
      %v = memref.load %in[%gy, %gx] : memref<1024x1024xf32, 1>
      memref.store %v, %tile[%ty, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %tx2 = arith.addi %oy, %tx : index
      %ty2 = arith.addi %ox, %ty : index
      %w = memref.load %tile[%tx, %ty] : memref<32x33xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%ty2, %tx2] : memref<1024x1024xf32, 1>
      gpu.return
    }}""",
    # 5: warp sum with xor shuffles
    """
    gpu.func @warp_sum{i}(%x: memref<1024xf32, 1>, %out: memref<32xf32, 1>) kernel {{
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %w32 = arith.constant 32 : i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c32 : index
      %i = arith.addi %base, %tid : index
      %v0 = memref.load %x[%i] : memref<1024xf32, 1>
      %s16, %p16 = gpu.shuffle xor %v0, %o16, %w32 : f32
      %v1 = arith.addf %v0, %s16 : f32
      %s8, %p8 = gpu.shuffle xor %v1, %o8, %w32 : f32
      %v2 = arith.addf %v1, %s8 : f32
      %s4, %p4 = gpu.shuffle xor %v2, %o4, %w32 : f32
      %v3 = arith.addf %v2, %s4 : f32
      %s2, %p2 = gpu.shuffle xor %v3, %o2, %w32 : f32
      %v4 = arith.addf %v3, %s2 : f32
      %s1, %p1 = gpu.shuffle xor %v4, %o1, %w32 : f32
      %v5 = arith.addf %v4, %s1 : f32
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {{
        memref.store %v5, %out[%bid] : memref<32xf32, 1>
      }}
      gpu.return
    }}""",
    # 6: 2D stencil (5-point) with bounds check
    """
    gpu.func @stencil{i}(%in: memref<512x512xf32, 1>, %out: memref<512x512xf32, 1>) kernel {{
      %c1 = arith.constant 1 : index
      %c511 = arith.constant 511 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %ox = arith.muli %bx, %dx : index
      %oy = arith.muli %by, %dy : index
      %x = arith.addi %ox, %tx : index
      %y = arith.addi %oy, %ty : index
      %x0 = arith.cmpi uge, %x, %c1 : index
      %x1 = arith.cmpi ult, %x, %c511 : index
      %y0 = arith.cmpi uge, %y, %c1 : index
      %y1 = arith.cmpi ult, %y, %c511 : index
      %ix = arith.andi %x0, %x1 : i1
      %iy = arith.andi %y0, %y1 : i1
      %inside = arith.andi %ix, %iy : i1
      scf.if %inside {{
        %xm = arith.subi %x, %c1 : index
        %xp = arith.addi %x, %c1 : index
        %ym = arith.subi %y, %c1 : index
        %yp = arith.addi %y, %c1 : index
        %c = memref.load %in[%y, %x] : memref<512x512xf32, 1>
        %l = memref.load %in[%y, %xm] : memref<512x512xf32, 1>
        %r = memref.load %in[%y, %xp] : memref<512x512xf32, 1>
        %u = memref.load %in[%ym, %x] : memref<512x512xf32, 1>
        %d = memref.load %in[%yp, %x] : memref<512x512xf32, 1>
        %four = arith.constant 4.0 : f32
        %c4 = arith.mulf %c, %four : f32
        %lr = arith.addf %l, %r : f32
        %ud = arith.addf %u, %d : f32
        %n = arith.addf %lr, %ud : f32
        %lap = arith.subf %n, %c4 : f32
        memref.store %lap, %out[%y, %x] : memref<512x512xf32, 1>
      }}
      gpu.return
    }}""",
    # 7: integer hash (shifts, xor, multiply) over a grid-stride loop
    """
    gpu.func @hash{i}(%x: memref<65536xi32, 1>, %y: memref<65536xi32, 1>) kernel {{
      %c65536 = arith.constant 65536 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %base = arith.muli %bid, %bdim : index
      %start = arith.addi %base, %tid : index
      %stride = arith.muli %gdim, %bdim : index
      %k13 = arith.constant 13 : i32
      %k17 = arith.constant 17 : i32
      %k5 = arith.constant 5 : i32
      %mul = arith.constant -1640531535 : i32
      scf.for %i = %start to %c65536 step %stride {{
        %v = memref.load %x[%i] : memref<65536xi32, 1>
        %a = arith.shli %v, %k13 : i32
        %b = arith.xori %v, %a : i32
        %c = arith.shrui %b, %k17 : i32
        %d = arith.xori %b, %c : i32
        %e = arith.shli %d, %k5 : i32
        %f = arith.xori %d, %e : i32
        %g = arith.muli %f, %mul : i32
        memref.store %g, %y[%i] : memref<65536xi32, 1>
      }}
      gpu.return
    }}""",
    # 8: softmax-style row pass: max, then sum of exp (two loops, libdevice __nv_expf, maxnumf)
    """
    gpu.func @row_softmax{i}(%x: memref<128x256xf32, 1>, %y: memref<128x256xf32, 1>) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %row = gpu.block_id x
      %ninf = arith.constant -3.0e38 : f32
      %zero = arith.constant 0.0 : f32
      %m = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %ninf) -> (f32) {{
        %v = memref.load %x[%row, %k] : memref<128x256xf32, 1>
        %acc2 = arith.maxnumf %acc, %v : f32
        scf.yield %acc2 : f32
      }}
      %s = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %zero) -> (f32) {{
        %v = memref.load %x[%row, %k] : memref<128x256xf32, 1>
        %d = arith.subf %v, %m : f32
        %e = math.exp %d : f32
        memref.store %e, %y[%row, %k] : memref<128x256xf32, 1>
        %acc2 = arith.addf %acc, %e : f32
        scf.yield %acc2 : f32
      }}
      scf.for %k = %c0 to %c256 step %c1 {{
        %e = memref.load %y[%row, %k] : memref<128x256xf32, 1>
        %q = arith.divf %e, %s : f32
        memref.store %q, %y[%row, %k] : memref<128x256xf32, 1>
      }}
      gpu.return
    }}""",
    # 9: f64 polynomial with sin/cos (f64 libdevice) and an index cast
    """
    gpu.func @trig64{i}(%x: memref<8192xf64, 1>, %y: memref<8192xf64, 1>) kernel {{
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<8192xf64, 1>
      %s = math.sin %v : f64
      %c = math.cos %v : f64
      %ii = arith.index_cast %i : index to i64
      %fi = arith.sitofp %ii : i64 to f64
      %sc = arith.mulf %s, %c : f64
      %r = arith.addf %sc, %fi : f64
      memref.store %r, %y[%i] : memref<8192xf64, 1>
      gpu.return
    }}""",
)


def synthetic_module(kernels: int = 10) -> str:
    """One gpu.module with `kernels` kernels, cycling through ten different shapes (loops, shared
    memory and barriers, shuffles, f32/f64 libdevice math, integer ops, 2-D indexing)."""
    body = "".join(_KERNELS[k % len(_KERNELS)].format(i=k) for k in range(kernels))
    return (
        f"// Generated by bench/compile_speed.py: {kernels} kernels in one gpu.module.\n"
        "module attributes {gpu.container_module} {\n  gpu.module @bench {"
        + body.replace("\n    ", "\n    ")
        + "\n  }\n}\n"
    )


def upstream_cases(largest: int, log: Callable[[str], None]) -> tuple[list[Case], Case | None]:
    """The `largest` biggest upstream conversion-test units that compile to a cubin for sm_90a, and
    one case holding all such units (each compiled once per run)."""
    if not UPSTREAM_TESTS.is_dir():
        log(f"no upstream tests at {UPSTREAM_TESTS}: skipping the conformance units")
        return [], None
    sys.path.insert(0, str(ROOT / "scripts"))
    conformance = importlib.import_module("conformance_upstream")
    units = list(conformance.collect_units(UPSTREAM_TESTS))
    good: list[tuple[int, Any]] = []
    failed = 0
    for unit in units:
        sample = compile_guarded(unit.text, f"{unit.file}@{unit.name}")
        if sample.ok:
            good.append((len(unit.own.splitlines()), unit))
        else:
            failed += 1
    log(f"upstream units: {len(units)}, compile to a {CHIP} cubin: {len(good)} (the others fail or need another SM)")
    good.sort(key=lambda p: -p[0])
    cases = [
        Case(f"{pathlib.Path(u.file).name}:{u.line} @{u.name} ({n}-line function)", u.text) for n, u in good[:largest]
    ]
    everything = None
    if good:
        everything = Case(f"all {len(good)} compiling upstream units, one after another", "")
        everything.text = "\0".join(u.text for _, u in good)  # split again by run_case
        everything.lines = sum(u.text.count("\n") + 1 for _, u in good)
    return cases, everything


# --------------------------------------------------------------------------- running
def run_case(case: Case, repeat: int) -> None:
    texts = case.text.split("\0")
    for _ in range(repeat):
        merged: Sample | None = None
        for j, text in enumerate(texts):
            s = compile_guarded(text, f"{case.label}#{j}")
            if merged is None:
                merged = s
                continue
            merged.ok = merged.ok and s.ok
            merged.error = merged.error or s.error
            merged.total += s.total
            for d_to, d_from in ((merged.stages, s.stages), (merged.parts, s.parts)):
                for k, v in d_from.items():
                    d_to[k] = d_to.get(k, 0.0) + v
        assert merged is not None
        case.samples.append(merged)
    case.runs = repeat


def stat(values: list[float]) -> tuple[float, float]:
    return (min(values), statistics.median(values)) if values else (0.0, 0.0)


def case_stats(case: Case) -> dict[str, Any]:
    keys = ["total", *STAGES, *BREAKDOWN]
    out: dict[str, Any] = {"label": case.label, "lines": case.lines, "runs": case.runs}
    out["ok"] = all(s.ok for s in case.samples)
    out["error"] = next((s.error for s in case.samples if s.error), "")
    for key in keys:
        if key == "total":
            vals = [s.total for s in case.samples]
        elif key in STAGES:
            vals = [s.stages.get(key, 0.0) for s in case.samples]
        else:
            vals = [s.parts.get(key, 0.0) for s in case.samples]
        lo, med = stat(vals)
        out[key] = {"min_ms": round(lo * 1e3, 2), "median_ms": round(med * 1e3, 2)}
    other = [s.total - sum(s.stages.values()) for s in case.samples]
    lo, med = stat(other)
    out["other"] = {"min_ms": round(lo * 1e3, 2), "median_ms": round(med * 1e3, 2)}
    return out


def one_time_costs(block_sum: str) -> dict[str, float]:
    """What a fresh process pays once: imports, llvmlite's target initialization, xDSL's context,
    the first libdevice parse, and the first compile of block_sum over its steady-state cost."""
    costs: dict[str, float] = {}
    started = time.perf_counter()
    for mod in (
        "tile_lsp.compiler.pipeline",
        "tile_lsp.compiler.mlir.context",
        "tile_lsp.compiler.lowering.to_nvvm",
        "tile_lsp.compiler.lowering.nvvm_to_llvm",
        "tile_lsp.compiler.lowering.intrinsics",
        "tile_lsp.compiler.backend.llvmir",
        "tile_lsp.compiler.backend.llvm",
        "tile_lsp.compiler.backend.ptxas",
    ):
        importlib.import_module(mod)
    costs["import the pipeline's modules"] = time.perf_counter() - started
    first = compile_once(block_sum, str(BLOCK_SUM))
    second = compile_once(block_sum, str(BLOCK_SUM))
    costs["llvmlite init (targets, asm printers)"] = first.parts.get("llvmlite init", 0.0)
    costs["first libdevice parse + trim (per new set of __nv_* functions)"] = first.parts.get("libdevice parse+trim", 0.0)
    costs["first parse (xDSL context, dialect registration)"] = first.stages.get("parse", 0.0) - second.stages.get(
        "parse", 0.0
    )
    costs["first compile of block_sum, total"] = first.total
    costs["second compile of block_sum, total"] = second.total
    return costs


def fmt(cell: dict[str, float]) -> str:
    return f"{cell['min_ms']:.1f} / {cell['median_ms']:.1f}"


def markdown(rows: list[dict[str, Any]], once: dict[str, float], repeat: int) -> str:
    out = [
        f"## Steady-state compile time, {CHIP}, `--emit cubin` (ms, min / median of the runs)",
        "",
        "| case | lines | runs | " + " | ".join(STAGES) + " | other | total |",
        "|---|---:|---:|" + "---:|" * (len(STAGES) + 2),
    ]
    for r in rows:
        cells = " | ".join(fmt(r[s]) for s in STAGES)
        flag = "" if r["ok"] else f" (FAILED: {r['error']})"
        out.append(f"| {r['label']}{flag} | {r['lines']} | {r['runs']} | {cells} | {fmt(r['other'])} | {fmt(r['total'])} |")
    out += [
        "",
        "`parse` = parse_upstream; each stage includes printing its text and building its line map; "
        "`other` = total minus the stages (picking the start stage, the source index).",
        "",
        "## Inside the stages (ms, min / median)",
        "",
        "| case | " + " | ".join(BREAKDOWN) + " |",
        "|---|" + "---:|" * len(BREAKDOWN),
    ]
    for r in rows:
        out.append(f"| {r['label']} | " + " | ".join(fmt(r[b]) for b in BREAKDOWN) + " |")
    out += [
        "",
        "`mlir text` = printing the nvvm and llvm stages' MLIR (one printing gives the text with "
        "`loc(...)`, the plain text and its line map); `ir/ptx maps` = reading LLVM IR `!dbg` and PTX "
        "`.loc` into line maps; `llvm-ir emit` = our llvm dialect -> LLVM IR emitter; "
        "`libdevice link` = trimmed libdevice parse + link_in; `-O pipeline` = the rest of optimize "
        "(IR parse, verify, -O3 passes, printing).",
        "",
        "## One-time costs of a fresh process (ms)",
        "",
        "| what | ms |",
        "|---|---:|",
    ]
    out += [f"| {k} | {v * 1e3:.1f} |" for k, v in once.items()]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    ap.add_argument("--repeat", type=int, default=5, help="runs per case (default 5; the all-units case gets a third)")
    ap.add_argument("--largest", type=int, default=3, help="how many of the largest upstream units (default 3)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of markdown")
    ap.add_argument("--no-upstream", action="store_true", help="skip the upstream conformance units")
    ap.add_argument("--profile", type=pathlib.Path, help="write a cProfile of each case's runs to this folder")
    ap.add_argument("--save-synthetic", type=pathlib.Path, help="write the generated 10-kernel file here")
    args = ap.parse_args()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr)

    block_sum = BLOCK_SUM.read_text(encoding="utf-8")
    once = one_time_costs(block_sum)
    synthetic = synthetic_module(10)
    if args.save_synthetic:
        args.save_synthetic.write_text(synthetic, encoding="utf-8")
    cases = [Case("examples/block_sum.mlir", block_sum)]
    largest, everything = ([], None) if args.no_upstream else upstream_cases(args.largest, log)
    cases += largest
    cases.append(Case("synthetic gpu.module, 10 kernels", synthetic))
    cases += [Case(str(f), f.read_text(encoding="utf-8")) for f in args.files]
    if everything is not None:
        cases.append(everything)
    rows = []
    for i, case in enumerate(cases):
        repeat = max(1, args.repeat // 3) if case is everything else args.repeat
        compile_guarded(case.text.split("\0")[0], "warm-up")
        log(f"[{i + 1}/{len(cases)}] {case.label}: {repeat} runs")
        if args.profile:
            args.profile.mkdir(parents=True, exist_ok=True)
            prof = cProfile.Profile()
            prof.enable()
            run_case(case, repeat)
            prof.disable()
            path = args.profile / f"case{i + 1}.prof"
            prof.dump_stats(str(path))
            with open(args.profile / f"case{i + 1}.txt", "w", encoding="utf-8") as fh:
                pstats.Stats(str(path), stream=fh).sort_stats("cumulative").print_stats(40)
        else:
            run_case(case, repeat)
        rows.append(case_stats(case))
    if args.json:
        print(json.dumps({"chip": CHIP, "repeat": args.repeat, "cases": rows, "one_time_ms": {
            k: round(v * 1e3, 2) for k, v in once.items()}}, indent=1))
    else:
        sys.stdout.write(markdown(rows, once, args.repeat))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
