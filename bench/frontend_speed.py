"""Front-end speed: parse+verify milliseconds per 1,000 lines of real cuda_tile text.

`python bench/frontend_speed.py [--repeat N] [FILES...]`; default corpus is the
cuTile-generated kernels in tests/data/cutile plus ../shared's valid cuda_tile files.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

from tile_lsp.compiler.frontend import parse_chunk, split_chunks
from tile_lsp.compiler.source import SourceText

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def default_corpus() -> list[pathlib.Path]:
    files = sorted((ROOT / "tests" / "data" / "cutile").glob("*.mlir"))
    files += sorted((SHARED / "kernels" / "nvidia").glob("*.mlir"))
    for name in ("ops.mlir", "arith.mlir", "canonicalize.mlir", "memory_consistency_ops.mlir"):
        p = SHARED / "conformance" / "cuda_tile" / "Dialect" / "CudaTile" / name
        if p.exists():
            files.append(p)
    return files


def time_text(text: str, repeat: int) -> float:
    """Median seconds to parse+verify all chunks of text."""
    source = SourceText(text)
    spans = split_chunks(text)
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for s in spans:
            parse_chunk(source, s)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    files = args.files or default_corpus()
    if not files:
        print("no input files", file=sys.stderr)
        return 2
    texts = [f.read_text(encoding="utf-8") for f in files]
    parse_chunk(SourceText(texts[0]))  # warm-up: dialect registration, caches
    total_lines = 0
    total_s = 0.0
    print(f"{'file':60s} {'lines':>7s} {'ms':>8s} {'ms/1k lines':>12s}")
    for f, text in zip(files, texts):
        lines = text.count("\n") + 1
        s = time_text(text, args.repeat)
        total_lines += lines
        total_s += s
        print(f"{f.name[:60]:60s} {lines:7d} {s * 1e3:8.2f} {s * 1e6 / lines:12.1f}")
    # One large file made of the whole corpus, the case a big document would hit.
    big = "\n// -----\n".join(texts)
    s_big = time_text(big, max(3, args.repeat // 2))
    big_lines = big.count("\n") + 1
    print(f"\ntotal: {total_lines} lines, {total_s * 1e3:.1f} ms, {total_s * 1e6 / total_lines:.1f} ms per 1,000 lines")
    print(f"concatenated corpus: {big_lines} lines, {s_big * 1e3:.1f} ms, {s_big * 1e6 / big_lines:.1f} ms per 1,000 lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
