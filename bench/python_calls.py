"""Work counted in Python function calls: a measure of speed that a busy machine does not move.

`python bench/python_calls.py [--json OUT]`

On these 2-core machines a benchmark's times drift by tens of percent with whatever else runs;
the number of Python calls a piece of work makes is exact and repeatable, and for this
pure-Python compiler it follows its CPU time closely (what it misses: work inside C code, such
as llvmlite, ptxas, regexes and isinstance on abstract classes). To compare two versions, run
this with each one first on PYTHONPATH. Workloads (process CPU time shown too, one run each):
- front end: parse + verify of every cuTile kernel of tests/data/cutile, each file whole;
- stages: attention.mlir and row_softmax.mlir through the xDSL stages to the llvm dialect
  for sm_80 and sm_90a (TILE_LSP_NO_FORK=1: printing counted in this process);
- bytecode: read + verify of every tests/data/cutile/*.tileirbc;
- upstream: the upstream inputs of tests/data/upstream and tests/upstream_lowering/data
  parsed, verified and lowered to the llvm dialect for sm_90a.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pathlib
import pstats
import sys
import time
from collections.abc import Callable

ROOT = pathlib.Path(__file__).resolve().parents[1]
CUTILE = ROOT / "tests" / "data" / "cutile"


def workloads() -> dict[str, Callable[[], None]]:
    from tile_lsp.compiler.document import analyze
    from tile_lsp.compiler.pipeline import compile_whole
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    kernels = sorted(p for p in CUTILE.glob("*.mlir") if not p.name.endswith(".g.mlir"))
    texts = [(p.name, p.read_text()) for p in kernels]
    bytecodes = [(p.name, p.read_bytes()) for p in sorted(CUTILE.glob("*.tileirbc"))]
    upstream = [
        (p.name, p.read_text())
        for folder in (ROOT / "tests" / "data" / "upstream", ROOT / "tests" / "upstream_lowering" / "data")
        for p in sorted(folder.glob("*.mlir"))
    ]

    def front_end() -> None:
        for name, text in texts:
            analyze(text, name)

    def stages() -> None:
        for chip in ("sm_80", "sm_90a"):
            options = CompileOptions(target=Target.parse_gpu_name(chip))
            for name in ("attention.mlir", "row_softmax.mlir"):
                result = compile_whole(SourceText((CUTILE / name).read_text(), name), options, "llvm")
                assert result.ok, [d.message for d in result.diagnostics]

    def bytecode() -> None:
        from tile_lsp.compiler.bytecode.reader import read_bytecode

        for name, data in bytecodes:
            read_bytecode(data, name)

    def upstream_() -> None:
        options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
        for name, text in upstream:
            compile_whole(SourceText(text, name), options, "llvm")

    return {"front end": front_end, "stages": stages, "bytecode": bytecode, "upstream": upstream_}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--json", type=pathlib.Path)
    args = ap.parse_args(argv)
    os.environ["TILE_LSP_NO_FORK"] = "1"
    out: dict[str, dict[str, float]] = {}
    for name, work in workloads().items():
        work()  # (warm: imports, caches)
        started = time.process_time()
        work()
        seconds = time.process_time() - started
        profile = cProfile.Profile()
        profile.runcall(work)
        calls = int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
        out[name] = {"calls": calls, "cpu_s": seconds}
        print(f"{name:10} {calls:>12,} Python calls   {seconds:7.3f} s CPU")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
