#!/usr/bin/env python3
"""Does NVIDIA's tileiras take our bytecode wherever it takes NVIDIA's? (issue 27)

For every cuTile kernel of tests/data/cutile (NVIDIA's bytecode, exported by cuTile 1.7: the
`.tileirbc`; ours: written by tile-lsp from the `.mlir` text, its lines as debug info) and every
cuda_tile kernel of examples/ (ours only), tileiras 13.5 compiles each bytecode for each
`--arch` (default sm_80, sm_90, sm_100). A kernel fails the check when tileiras takes NVIDIA's
bytecode and not ours for an arch; where it refuses both, the refusal is NVIDIA's (e.g. an op
the arch lacks) and is listed, not counted.

    .venv/bin/python scripts/tileiras_accepts.py [--arch sm_80,sm_90,sm_100] [--jobs 2] [--json OUT]

Needs tileiras (pyproject's test extra: nvidia-cuda-tileiras). Exit 0 when nothing failed.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bytecode.helpers import find_tool  # noqa: E402
from tile_lsp.compiler.bytecode.convert import text_to_bytecode  # noqa: E402


def kernels() -> list[tuple[str, pathlib.Path, pathlib.Path | None]]:
    """(name, .mlir text, NVIDIA's .tileirbc or None)."""
    out = []
    cutile = ROOT / "tests" / "data" / "cutile"
    for bc in sorted(cutile.glob("*.tileirbc")):
        out.append((bc.stem, cutile / f"{bc.stem}.mlir", bc))
    for mlir in sorted((ROOT / "examples").glob("*.mlir")):
        text = mlir.read_text(encoding="utf-8")
        if "entry @" in text and "broken" not in mlir.stem:
            out.append((f"examples/{mlir.stem}", mlir, None))
    return out


def run_tileiras(tileiras: str, data: bytes, arch: str, scratch: str) -> tuple[bool, float, str]:
    fd, path = tempfile.mkstemp(suffix=".tileirbc", dir=scratch)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    started = time.perf_counter()
    try:
        done = subprocess.run([tileiras, "--gpu-name", arch, path, "-o", path + ".cubin"], capture_output=True,
                              text=True, errors="replace", timeout=300, check=False)
        ok, why = done.returncode == 0, (done.stderr.strip().splitlines() or [""])[0][:200]
    except subprocess.TimeoutExpired:
        ok, why = False, "timed out after 300 s"
    return ok, time.perf_counter() - started, why


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arch", default="sm_80,sm_90,sm_100")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    tileiras = find_tool("tileiras")
    if tileiras is None:
        print("tileiras not found: pip install nvidia-cuda-tileiras (pyproject's test extra)", file=sys.stderr)
        return 2
    arches = args.arch.split(",")
    jobs = []
    ours_failed_to_write = []
    for name, mlir, nvidia in kernels():
        ours, diags, _ = text_to_bytecode(mlir.read_text(encoding="utf-8"), str(mlir.relative_to(ROOT)))
        if ours is None or any(d.is_error for d in diags):
            ours_failed_to_write.append((name, [d.message for d in diags][:3]))
            continue
        for arch in arches:
            jobs.append((name, arch, "ours", ours))
            if nvidia is not None:
                jobs.append((name, arch, "nvidia", nvidia.read_bytes()))
    results: dict[tuple[str, str, str], tuple[bool, float, str]] = {}
    with tempfile.TemporaryDirectory(prefix="tileiras-accepts-") as scratch, ThreadPoolExecutor(args.jobs) as pool:
        futures = {(n, a, w): pool.submit(run_tileiras, tileiras, d, a, scratch) for n, a, w, d in jobs}
        for key, fut in futures.items():
            results[key] = fut.result()
    names = sorted({k[0] for k in results})
    failures, refused_both, table = [], [], []
    print(f"{'kernel':28} " + " ".join(f"{a:>14}" for a in arches))
    for name in names:
        cells = []
        for arch in arches:
            ours = results.get((name, arch, "ours"))
            nv = results.get((name, arch, "nvidia"))
            mark = ("ours ok" if ours and ours[0] else "ours FAIL") + ("" if nv is None else (" / nv ok" if nv[0] else " / nv no"))
            cells.append(mark)
            if nv is not None and nv[0] and not (ours and ours[0]):
                failures.append({"kernel": name, "arch": arch, "why": ours[2] if ours else "not run"})
            elif nv is not None and not nv[0] and not (ours and ours[0]):
                refused_both.append({"kernel": name, "arch": arch, "nvidia": nv[2]})
            elif nv is None and not (ours and ours[0]):
                failures.append({"kernel": name, "arch": arch, "why": ours[2] if ours else "not run"})
            table.append({"kernel": name, "arch": arch, "ours": ours[0] if ours else None,
                          "nvidia": nv[0] if nv else None, "ours_s": round(ours[1], 2) if ours else None})
        print(f"{name:28} " + " ".join(f"{c:>14}" for c in cells))
    accepted = sum(1 for r in table if r["ours"])
    both = [r for r in table if r["nvidia"] is not None]
    print(f"tileiras took ours {accepted}/{len(table)} (kernel, arch) pairs; where it took NVIDIA's: "
          f"{sum(1 for r in both if r['nvidia'] and r['ours'])}/{sum(1 for r in both if r['nvidia'])}")
    for r in refused_both:
        print(f"  refused both: {r['kernel']} {r['arch']}: {r['nvidia']}")
    for f in failures:
        print(f"  FAIL: {f['kernel']} {f['arch']}: {f['why']}")
    for name, why in ours_failed_to_write:
        print(f"  NOT WRITTEN: {name}: {why}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps({"table": table, "failures": failures, "refused_both": refused_both,
                                                       "not_written": ours_failed_to_write}, indent=1))
    return 1 if failures or ours_failed_to_write else 0


if __name__ == "__main__":
    sys.exit(main())
