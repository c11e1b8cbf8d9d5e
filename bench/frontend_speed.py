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


def time_text(text: str, repeat: int) -> tuple[float, float]:
    """(min, median) wall seconds to parse+verify all chunks of text.

    The minimum is the least disturbed sample on a shared 2-core machine; the median
    shows what a user typically sees.
    """
    source = SourceText(text)
    spans = split_chunks(text)
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for s in spans:
            parse_chunk(source, s)
        samples.append(time.perf_counter() - t0)
    return min(samples), statistics.median(samples)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    files = args.files or default_corpus()
    if not files:
        print("no input files", file=sys.stderr)
        return 2
    texts = [f.read_text(encoding="utf-8") for f in files]
    parse_chunk(SourceText(texts[0]))  # warm-up: dialect registration, caches
    print(f"{'file':50s} {'lines':>7s} {'min ms':>8s} {'med ms':>8s} {'min ms/1k':>10s}")
    groups: dict[str, list[tuple[int, float, float]]] = {}
    for f, text in zip(files, texts):
        lines = text.count("\n") + 1
        lo, med = time_text(text, args.repeat)
        group = "cuTile-generated (tests/data/cutile)" if "cutile" in str(f) else "NVIDIA tests and examples (../shared)"
        groups.setdefault(group, []).append((lines, lo, med))
        print(f"{f.name[-50:]:50s} {lines:7d} {lo * 1e3:8.2f} {med * 1e3:8.2f} {lo * 1e6 / lines:10.1f}")
    print()
    for group, rows in groups.items():
        n = sum(r[0] for r in rows)
        lo = sum(r[1] for r in rows)
        med = sum(r[2] for r in rows)
        print(f"{group}: {n} lines, {lo * 1e6 / n:.1f} ms per 1,000 lines (min), {med * 1e6 / n:.1f} (median)")
    # One large file made of the whole corpus, the case a big document would hit.
    big = "\n// -----\n".join(texts)
    lo, med = time_text(big, max(3, args.repeat // 2))
    big_lines = big.count("\n") + 1
    print(f"whole corpus as one file: {big_lines} lines, {lo * 1e6 / big_lines:.1f} ms per 1,000 lines (min), {med * 1e6 / big_lines:.1f} (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
