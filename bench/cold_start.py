"""Cold start of the language server over stdio: process start -> `initialize` answered -> didOpen
-> first `publishDiagnostics`, for tests/data/cutile/gemm.mlir and a 1,000-line cuda_tile file,
min and median of N fresh processes; mlir-lsp-server 22 on a small .mlir beside it.

`python bench/cold_start.py [--runs N] [--no-pipeline] [--compare DIR] [--mlir-bin DIR] [--json PATH]`

`--compare DIR`: each tile-lsp case also with DIR's tile_lsp (e.g. `git archive` of the commit
before, unpacked), the two alternating run by run (the machine's load drifts).

Each run is a new server process (warm: its .pyc files are written by the first run, which is
not counted). Times are from just before the process is spawned; didOpen is sent as soon as
`initialize` is answered (as editors do), so "diagnostics" includes "initialize".
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from lsp_latency import KERNELS, MLIR_BIN, LspClient, cuda_tile_corpus  # noqa: E402

SMALL_MLIR = 'func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n  return %0 : i32\n}\n'


def cpu_ms(pid: int) -> float:
    """The CPU time process `pid` has used (user + system, all its threads), in ms (Linux)."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) * 1e3 / os.sysconf("SC_CLK_TCK")


async def one_run(cmd: list[str], uri: str, text: str) -> dict[str, float]:
    """Milliseconds from spawning `cmd` to: the initialize answer, the first publish for `uri`;
    and the server's CPU time by then (less noisy on a shared machine than the wall time)."""
    t0 = time.perf_counter()
    client = await LspClient.start(cmd)
    pid = client.proc.pid
    try:
        await client.initialize()
        t_init, cpu_init = time.perf_counter(), cpu_ms(pid)
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "mlir", "version": 1, "text": text}})
        when, _ = await client.diagnostics_for(uri, 1, 0)
        cpu_diag = cpu_ms(pid)
        return {"initialize_ms": (t_init - t0) * 1e3, "diagnostics_ms": (when - t0) * 1e3, "initialize_cpu_ms": cpu_init, "diagnostics_cpu_ms": cpu_diag}
    finally:
        await client.stop()


async def measure(cases: list[tuple[str, list[str], str]], runs: int) -> list[dict[str, Any]]:
    """Each case `runs` times (after one uncounted run that warms the .pyc files and the disk
    cache), the cases taking turns."""
    uris = [f"file:///tmp/tile-lsp-bench/{label.replace(' ', '_')}.mlir" for label, _, _ in cases]
    for (_, cmd, text), uri in zip(cases, uris):
        await one_run(cmd, uri, text)
    samples: list[list[dict[str, float]]] = [[] for _ in cases]
    for _ in range(runs):
        for (_, cmd, text), uri, got in zip(cases, uris, samples):
            got.append(await one_run(cmd, uri, text))
    results = []
    for (label, _, text), got in zip(cases, samples):
        out: dict[str, Any] = {"label": label, "lines": text.count("\n"), "runs": runs}
        for key in ("initialize_ms", "diagnostics_ms", "initialize_cpu_ms", "diagnostics_cpu_ms"):
            values = [s[key] for s in got]
            out[key] = {"min": min(values), "median": statistics.median(values), "all": [round(v, 1) for v in values]}
        results.append(out)
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7, help="fresh server processes per case")
    ap.add_argument("--no-pipeline", action="store_true", help="serve --no-pipeline (front end only)")
    ap.add_argument("--mlir-bin", type=pathlib.Path, default=MLIR_BIN, help="where mlir-lsp-server is")
    ap.add_argument("--only", help="run only the cases whose label contains this")
    ap.add_argument("--compare", type=pathlib.Path, help="also run each tile-lsp case with this folder's tile_lsp")
    ap.add_argument("--json", type=pathlib.Path, help="write the results as JSON here")
    args = ap.parse_args()
    ours = [sys.executable, "-m", "tile_lsp", "serve"] + (["--no-pipeline"] if args.no_pipeline else [])
    cases: list[tuple[str, list[str], str]] = [
        ("tile-lsp gemm", ours, (KERNELS / "gemm.mlir").read_text(encoding="utf-8")),
        ("tile-lsp 1k", ours, cuda_tile_corpus(1000)),
    ]
    server = args.mlir_bin / "mlir-lsp-server"
    if server.exists():
        cases.append(("mlir-lsp-server small", [str(server)], SMALL_MLIR))
    else:
        print(f"mlir-lsp-server not measured: {server} is missing (apt-get install -y mlir-22-tools)")
    if args.compare:
        other = ["env", "-C", str(args.compare.resolve()), f"PYTHONPATH={args.compare.resolve()}", *ours]
        cases = [c for label, cmd, text in cases for c in [(label, cmd, text)] + ([(f"{label} ({args.compare.name})", other, text)] if cmd == ours else [])]
    if args.only:
        cases = [c for c in cases if args.only in c[0]]
    results = asyncio.run(measure(cases, args.runs))
    print(f"{'case':32s} {'lines':>6s} {'init min':>9s} {'init med':>9s} {'diag min':>9s} {'diag med':>9s} {'cpu init':>9s} {'cpu diag':>9s}")
    for r in results:
        i, d = r["initialize_ms"], r["diagnostics_ms"]
        ci, cd = r["initialize_cpu_ms"], r["diagnostics_cpu_ms"]
        print(f"{r['label']:32s} {r['lines']:6d} {i['min']:9.0f} {i['median']:9.0f} {d['min']:9.0f} {d['median']:9.0f} {ci['median']:9.0f} {cd['median']:9.0f}")
    print(f"(ms, {args.runs} runs; wall min and median from spawning the server; cpu: the server's median CPU time by then)")
    if args.json:
        args.json.write_text(json.dumps({"no_pipeline": args.no_pipeline, "results": results}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
