"""What each patch of xDSL's internals (tile_lsp/compiler/mlir/xdsl_fast.py) gains, one at a time.

`python bench/xdsl_patches.py [--pairs N] [--json OUT]`

Two workloads: `stages`, attention.mlir (the largest cuTile kernel) through the xDSL stages
(cuda_tile -> llvm dialect, sm_90a, printing in the process: TILE_LSP_NO_FORK=1); `front end`,
parse + verify of that text 10 times over (one 20-entry file, 180 KB). Process CPU time.

A patch's gain is what turning it off costs. On a busy machine a time drifts by tens of percent
over minutes, so each patch is timed on and off in alternation, N pairs (default 3) in one
process (`xdsl_fast.set_patch`), and the gain is min(off) / min(on) - 1; the memoized attribute
hashes, which cannot be taken back in a process, alternate between two processes
(`TILE_LSP_XDSL_FAST_SKIP`). Python calls of one `stages` run (cProfile) are shown too: exact,
but blind to what C code costs (an isinstance on an abstract base class counts no call).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parents[1]
KERNEL = ROOT / "tests" / "data" / "cutile" / "attention.mlir"


def _workloads() -> dict[str, Callable[[], None]]:
    from tile_lsp.compiler.document import analyze
    from tile_lsp.compiler.pipeline import compile_whole
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    text = KERNEL.read_text()
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    many = "".join(text.replace("entry @", f"entry @k{i}_") for i in range(10))  # (2 entries each)

    def stages() -> None:
        result = compile_whole(SourceText(text, "attention.mlir"), options, "llvm")
        assert result.ok, [d.message for d in result.diagnostics]

    def front_end() -> None:
        found = analyze(many, "many.mlir")
        assert not any(d.is_error for d in found.diagnostics), [d.message for d in found.diagnostics][:3]

    return {"stages": stages, "front end": front_end}


def _cpu(work: Callable[[], None]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def _calls(work: Callable[[], None]) -> int:
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(work)
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def _in_process(pairs: int) -> list[dict[str, object]]:
    from tile_lsp.compiler.mlir.xdsl_fast import PATCH_NAMES, set_patch

    works = _workloads()
    for work in works.values():
        work()  # (warm: imports, caches)
    rows: list[dict[str, object]] = []
    for name in PATCH_NAMES[1:]:
        row: dict[str, object] = {"patch": name}
        for label, work in works.items():
            on, off = [], []
            for _ in range(pairs):
                on.append(_cpu(work))
                set_patch(name, False)
                off.append(_cpu(work))
                set_patch(name, True)
            row[label] = min(off) / min(on) - 1
        row["calls_on"] = _calls(works["stages"])
        set_patch(name, False)
        row["calls_off"] = _calls(works["stages"])
        set_patch(name, True)
        rows.append(row)
        print(f"{name}: done", file=sys.stderr)
    return rows


def _child() -> dict[str, float]:
    works = _workloads()
    out: dict[str, float] = {}
    for label, work in works.items():
        work()
        out[label] = _cpu(work)
    out["calls"] = _calls(works["stages"])
    return out


def _attribute_hashes(pairs: int) -> dict[str, object]:
    """The memoized hashes on and off, alternating between processes."""

    def run(skip: str) -> dict[str, float]:
        env = dict(os.environ, TILE_LSP_XDSL_FAST_SKIP=skip, TILE_LSP_NO_FORK="1", PYTHONPATH=str(ROOT))
        got = subprocess.run([sys.executable, __file__, "--child"], capture_output=True, text=True, env=env, check=True)
        return json.loads(got.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]

    on, off = [], []
    for _ in range(pairs):
        on.append(run(""))
        off.append(run("attribute_hashes"))
    row: dict[str, object] = {"patch": "attribute_hashes"}
    for label in ("stages", "front end"):
        row[label] = min(r[label] for r in off) / min(r[label] for r in on) - 1
    row["calls_on"], row["calls_off"] = on[0]["calls"], off[0]["calls"]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--json", type=pathlib.Path)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    os.environ["TILE_LSP_NO_FORK"] = "1"
    if args.child:
        print(json.dumps(_child()))
        return 0
    sys.path.insert(0, str(ROOT))
    rows = [_attribute_hashes(args.pairs), *_in_process(args.pairs)]
    print("| patch | stages: cost of turning it off | front end: cost | Python calls of `stages` without it |")
    print("|---|---|---|---|")
    for row in rows:
        on, off = int(row["calls_on"]), int(row["calls_off"])  # type: ignore[call-overload]
        print(f"| `{row['patch']}` | {100 * float(row['stages']):+.1f}% | {100 * float(row['front end']):+.1f}% | "  # type: ignore[arg-type]
              f"{off:,} ({100 * (off - on) / on:+.1f}%) |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
