"""Kernel run time on a real GPU: our compiled cuTile kernels against NVIDIA's tileiras on the same
kernels, at sizes where the kernel, not the launch, takes the time; each output checked against an
independent NumPy reference first.

Two steps, because tileiras and the GPU need not be on one machine:

    python bench/gpu_runtime.py build DIR [--tileiras PATH]   # compile both (no GPU needed)
    python bench/gpu_runtime.py run DIR [--repeat N] [--json OUT]   # check and time (needs a GPU)

`build` writes DIR/<case>.ours.cubin (our pipeline, sm_90a, as `tile-lsp compile --emit cubin`) and
DIR/<case>.tileiras.cubin (`tileiras --gpu-name sm_90`, which targets sm_90a), and DIR/manifest.json
(entry, threads per block of each). `run` builds each case's inputs (seeded), launches each cubin
once and checks its outputs against the reference (after `--warmup` launches that let the clocks
ramp up), then times `--rounds` rounds of `--repeat` launches with CUDA events, alternating the two
compilers, and reports the median. Repeated launches reuse one set of buffers, so inputs that fit
in L2 (50 MB on an H100/H200) are read from it: for both compilers alike. Both kernels take the cuda_tile entry's parameters in order (a
pointer per array, then its i32 sizes and strides), so they get the same arguments.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import re
import statistics
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
DATA = ROOT / "tests" / "data" / "cutile"

from interp.cutile_cases import (  # noqa: E402
    BF16,
    F16,
    attention,
    column_sum,
    err,
    f64,
    gemm,
    prefix_scan,
    rand,
    transpose,
    vector_add,
)


def layernorm(rows: int, cols: int) -> Callable[..., Any]:
    def build(rng: np.random.Generator) -> Any:
        x, w, b = rand(rng, (rows, cols), F16), rand(rng, (cols,), F16), rand(rng, (cols,), F16)
        y, mean, rstd = np.zeros((rows, cols), F16), np.zeros(rows, np.float32), np.zeros(rows, np.float32)
        m = f64(x).mean(axis=1)
        s = 1.0 / np.sqrt(((f64(x) - m[:, None]) ** 2).mean(axis=1) + 1e-5)
        want = (f64(x) - m[:, None]) * s[:, None] * f64(w) + f64(b)
        return [x, w, b, y, mean, rstd, np.float32(1e-5)], (rows, 1, 1), lambda r: {
            "y": (err(r.array(3), want), 8e-3), "rstd": (err(r.array(5), s, rel=True), 1e-5)}
    return build


def softmax_rel(dtype: Any, rows: int, cols: int, bound: float) -> Callable[..., Any]:
    """row_softmax with a relative bound: over thousands of columns every value is small, and an
    absolute bound would pass an all-zero output."""
    def build(rng: np.random.Generator) -> Any:
        x, y = rand(rng, (rows, cols), dtype, -4, 4), np.zeros((rows, cols), dtype)
        e = np.exp(f64(x) - f64(x).max(axis=1, keepdims=True))
        want = e / e.sum(axis=1, keepdims=True)
        return [x, y], (rows, 1, 1), lambda r: {"y": (err(r.array(1), want, rel=True), bound)}
    return build


def rebound(builder: Callable[..., Any], **bounds: float) -> Callable[..., Any]:
    """`builder` with other error bounds (longer sums than the unit-test sizes)."""
    def build(rng: np.random.Generator) -> Any:
        args, grid, check = builder(rng)
        return args, grid, lambda r: {k: (m, bounds.get(k, b)) for k, (m, b) in check(r).items()}
    return build


# (name, file, entry prefix, builder): sizes where each kernel runs for tens of microseconds or more.
CASES: list[tuple[str, str, str, Callable[..., Any]]] = [
    ("vector_add f32 16M", "vector_add", "vector_add_Kt1_A1f32", vector_add(np.float32, 1 << 24, 1024)),
    ("vector_add f16 16M", "vector_add", "vector_add_Kt1_A1f16", vector_add(F16, 1 << 24, 2048)),
    ("row_softmax f32 8192x1000", "row_softmax", "row_softmax_Kt1_A2f32", softmax_rel(np.float32, 8192, 1000, 1e-5)),
    ("row_softmax bf16 4096x4000", "row_softmax", "row_softmax_Kt1_A2bf16", softmax_rel(BF16, 4096, 4000, 1.6e-2)),
    ("layernorm f16 8192x512", "layernorm", "layernorm_", layernorm(8192, 512)),
    ("gemm f16 2048^3", "gemm", "gemm_Kt1_A2f16", gemm(F16, F16, 2048, 2048, 2048, 128, 128, 6e-2)),
    ("gemm bf16->f32 2048^3", "gemm", "gemm_Kt1_A2bf16", gemm(BF16, np.float32, 2048, 2048, 2048, 128, 256, 1e-3)),
    ("gemm tf32 1024^3", "gemm", "gemm_Kt1_A2f32", gemm(np.float32, np.float32, 1024, 1024, 1024, 64, 64, 1e-3)),
    ("attention f16 16x1024x64 causal", "attention", "attention_fwd_Kt1_A3f16",
     attention(F16, 16, 1024, 64, 128, True, 4e-3)),
    ("attention bf16 8x1024x128", "attention", "attention_fwd_Kt1_A3bf16",
     attention(BF16, 8, 1024, 128, 64, False, 2e-2)),
    ("prefix_scan f32 4096x1500", "prefix_scan", "prefix_scan_Kt1_A2f32", rebound(prefix_scan(np.float32, 4096, 1500), sums=1e-3)),
    ("transpose f32 4096^2", "transpose", "transpose_Kt1_A2f32", transpose(np.float32, 4096, 4096, 64, 32)),
    ("column_sum f32 8192x4096", "column_sum", "column_sum_Kt1_A2f32", rebound(column_sum(np.float32, 8192, 4096, 32, 256, 16), out=1e-3)),
]


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")


# --------------------------------------------------------------------------- build (no GPU)
def build(out: pathlib.Path, tileiras: str | None) -> int:
    from bench.tileiras_compare import KNOWN_TILEIRAS, tileiras_ptx
    from tile_lsp.cli_run import block_size, compile_for_gpu, resolve_entry

    tileiras = tileiras or (str(KNOWN_TILEIRAS) if KNOWN_TILEIRAS.exists() else None)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for name, file, prefix, _ in CASES:
        text = (DATA / f"{file}.mlir").read_text()
        entry = resolve_entry(text, f"{file}.mlir", prefix)
        cubin, ptx = compile_for_gpu(text, f"{file}.mlir", "sm_90a")
        (out / f"{slug(name)}.ours.cubin").write_bytes(cubin)
        item: dict[str, Any] = {"name": name, "file": file, "entry": entry, "ours_threads": block_size(ptx, entry)}
        if tileiras:
            path = out / f"{slug(name)}.tileiras.cubin"
            subprocess.run([tileiras, "--gpu-name", "sm_90", "--lineinfo", "-o", str(path),
                            str(DATA / f"{file}.tileirbc")], check=True, capture_output=True, timeout=600)
            item["tileiras_threads"] = block_size(tileiras_ptx(path.read_bytes()), entry)
        manifest.append(item)
        print(f"built {name}: ours {item['ours_threads']} threads, tileiras {item.get('tileiras_threads', '-')}")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return 0


# --------------------------------------------------------------------------- run (GPU)
class _Outputs:
    def __init__(self, arrays: dict[int, Any]) -> None:
        self.arrays = arrays

    def array(self, i: int) -> Any:
        return self.arrays[i]


def run(directory: pathlib.Path, repeat: int, rounds: int, warmup: int, json_out: str | None) -> int:
    from tile_lsp.cli_run import Gpu, _param
    from tile_lsp.compiler.interp.launch import bind, entry_params, load_module
    from tile_lsp.compiler.interp.memory import GlobalMemory

    gpu = Gpu()
    manifest = {m["name"]: m for m in json.loads((directory / "manifest.json").read_text())}
    rows = []
    print(f"{'kernel':34} {'ours ms':>9} {'tileiras ms':>12} {'ours/theirs':>11}  outputs (ours | tileiras)")
    for name, file, _, builder in CASES:
        item = manifest[name]
        text = (DATA / f"{file}.mlir").read_text()
        params = entry_params(load_module(text, f"{file}.mlir"), item["entry"])
        row: dict[str, Any] = {"name": name}
        prepared = {}
        for who in ("ours", "tileiras"):
            path = directory / f"{slug(name)}.{who}.cubin"
            if path.exists():
                args, grid, check = builder(np.random.default_rng(0))
                launch = bind(params, args, GlobalMemory())
                values = [np.asarray(args[launch.pointer_params[p]]) if p in launch.pointer_params
                          else _param(t, launch.values[p]) for p, t in enumerate(params)]
                prepared[who] = (path.read_bytes(), values, grid, check, launch, item[f"{who}_threads"])
        times: dict[str, list[float]] = {who: [] for who in prepared}
        # Warm-up (clocks ramp up from idle; first launches are slow), then rounds that alternate
        # the two compilers so that a drift in clocks or temperature falls on both.
        for rnd in range(1 + rounds):
            for who, (image, values, grid, check, launch, threads) in prepared.items():
                if "error" in row.get(who, {}):
                    continue
                sink: list[float] = [] if rnd == 0 else times[who]
                try:
                    out = gpu.launch(image, item["entry"], values, grid, threads, sink, warmup if rnd == 0 else repeat)
                except Exception as exc:  # report and go on: one kernel's failure is a row, not the end
                    row[who] = {"error": str(exc)[:120]}
                    continue
                if rnd == 0:
                    outputs = _Outputs({launch.pointer_params[p]: a for p, a in out.items()})
                    checks = {k: (float(m), float(b)) for k, (m, b) in check(outputs).items()}
                    row[who] = {"checks": checks, "ok": all(m <= b for m, b in checks.values())}
        for who, ts in times.items():
            if ts:
                row[who].update(ms=statistics.median(ts), min_ms=min(ts), launches=len(ts))
        rows.append(row)
        ours, theirs = row.get("ours", {}), row.get("tileiras", {})

        def cell(side: dict[str, Any]) -> str:
            return f"{side['ms']:.3f}" if "ms" in side else ("error" if side else "-")

        def verdict(side: dict[str, Any]) -> str:
            if "error" in side:
                return side["error"]
            return "ok" if side.get("ok") else ("wrong: " + ", ".join(
                f"{k} {m:.2g}>{b:.2g}" for k, (m, b) in side.get("checks", {}).items() if m > b))
        ratio = f"{ours['ms'] / theirs['ms']:.2f}x" if "ms" in ours and "ms" in theirs else "-"
        print(f"{name:34} {cell(ours):>9} {cell(theirs):>12} {ratio:>11}  {verdict(ours)} | {verdict(theirs)}",
              flush=True)
    both = [r for r in rows if "ms" in r.get("ours", {}) and "ms" in r.get("tileiras", {})]
    if both:
        geo = math.exp(statistics.mean(math.log(r["ours"]["ms"] / r["tileiras"]["ms"]) for r in both))
        print(f"geometric mean of ours/tileiras over {len(both)} kernels: {geo:.2f}x")
    if json_out:
        pathlib.Path(json_out).write_text(json.dumps(rows, indent=1))
    return 0 if all(r.get("ours", {}).get("ok") for r in rows) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    b = sub.add_parser("build")
    b.add_argument("dir", type=pathlib.Path)
    b.add_argument("--tileiras")
    r = sub.add_parser("run")
    r.add_argument("dir", type=pathlib.Path)
    r.add_argument("--repeat", type=int, default=20, help="timed launches per round")
    r.add_argument("--rounds", type=int, default=5, help="rounds, alternating the two compilers")
    r.add_argument("--warmup", type=int, default=200, help="untimed launches of each first")
    r.add_argument("--json")
    args = parser.parse_args(argv)
    return build(args.dir, args.tileiras) if args.step == "build" else run(args.dir, args.repeat, args.rounds, args.warmup, args.json)


if __name__ == "__main__":
    sys.exit(main())
