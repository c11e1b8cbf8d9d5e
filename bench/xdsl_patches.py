"""What each patch of xDSL's internals (tile_lsp/compiler/mlir/xdsl_fast.py) gains, one at a time.

`python bench/xdsl_patches.py [--repeat N] [--json OUT]`

Each configuration runs in a fresh process with `TILE_LSP_XDSL_FAST_SKIP` naming the patches
left out: all in, none in, and each one left out alone. Three workloads, each the min of N runs
of process CPU time (children not counted: ptxas is not ours) after one warm-up:
- compile: attention.mlir (the largest cuTile kernel) to PTX for sm_90a, whole, printing in
  the process (TILE_LSP_NO_FORK=1), plus the Python calls of one run (cProfile: exact, unlike
  times on a busy machine);
- front end: parse + verify of that text 10 times over (one 20-entry file, 180 KB);
- bytecode: decode + verify of gemm.tileirbc.
A patch's gain is what leaving it out costs, against all in.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
KERNEL = ROOT / "tests" / "data" / "cutile" / "attention.mlir"
BYTECODE = ROOT / "tests" / "data" / "cutile" / "gemm.tileirbc"


def _child(repeat: int) -> dict[str, float]:
    import cProfile
    import pstats
    import time

    from tile_lsp.compiler.bytecode.reader import read_bytecode
    from tile_lsp.compiler.document import analyze
    from tile_lsp.compiler.pipeline import compile_whole
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    text = KERNEL.read_text()
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    many = "".join(text.replace("entry @", f"entry @k{i}_") for i in range(10))  # (2 entries each)
    data = BYTECODE.read_bytes()

    def compile_() -> None:
        result = compile_whole(SourceText(text, "attention.mlir"), options, "ptx")
        assert result.ok, [d.message for d in result.diagnostics]

    def front_end() -> None:
        found = analyze(many, "many.mlir")
        assert not any(d.is_error for d in found.diagnostics), [d.message for d in found.diagnostics][:3]

    def bytecode() -> None:
        read_bytecode(data, "gemm.tileirbc")

    out: dict[str, float] = {}
    for name, work in (("compile", compile_), ("front_end", front_end), ("bytecode", bytecode)):
        work()
        best = float("inf")
        for _ in range(repeat):
            started = time.process_time()
            work()
            best = min(best, time.process_time() - started)
        out[name + "_s"] = best
    profile = cProfile.Profile()
    profile.runcall(compile_)
    out["compile_calls"] = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.repeat)))
        return 0
    sys.path.insert(0, str(ROOT))
    from tile_lsp.compiler.mlir.xdsl_fast import PATCH_NAMES

    configs = [("all in", ""), ("none in", ",".join(PATCH_NAMES))] + [(f"without {n}", n) for n in PATCH_NAMES]
    rows = []
    for label, skip in configs:
        env = dict(os.environ, TILE_LSP_XDSL_FAST_SKIP=skip, TILE_LSP_NO_FORK="1", PYTHONPATH=str(ROOT))
        got = subprocess.run([sys.executable, __file__, "--child", "--repeat", str(args.repeat)],
                             capture_output=True, text=True, env=env, check=False)
        if got.returncode != 0:
            print(f"{label}: failed\n{got.stderr[-2000:]}")
            return 1
        rows.append({"config": label, **json.loads(got.stdout.strip().splitlines()[-1])})
        print(f"{label}: done", file=sys.stderr)
    base = rows[0]
    print(f"| {'configuration':32} | compile s | +% | Python calls | +% | front end s | +% | bytecode s | +% |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        cells = []
        for key in ("compile_s", "compile_calls", "front_end_s", "bytecode_s"):
            value, ref = row[key], base[key]
            shown = f"{value:,.0f}" if key == "compile_calls" else f"{value:.3f}"
            cells += [shown, f"{100 * (value - ref) / ref:+.1f}"]
        print(f"| {row['config']:32} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
