"""Conformance report on ../shared/conformance/cuda_tile: valid-chunk round trips and
expected-error hit rates. `python scripts/conformance.py [--failures] [DIR]`.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from tile_lsp.testing.lit import ChunkOutcome, check_file

DEFAULT_DIR = pathlib.Path(__file__).resolve().parents[1].parent / "shared" / "conformance" / "cuda_tile"
# Files whose RUN line expects the tool to fail with FileCheck'd output, not annotations.
FILECHECK_NEGATIVE = ("debuginfo_loc_invalid.mlir", "debuginfo_attr_invalid.mlir")


def collect(root: pathlib.Path) -> dict[str, list[ChunkOutcome]]:
    out: dict[str, list[ChunkOutcome]] = {}
    for path in sorted(root.rglob("*.mlir")):
        text = path.read_text(encoding="utf-8")
        out[str(path.relative_to(root))] = check_file(text, str(path))
    return out


def summarize(results: dict[str, list[ChunkOutcome]]) -> dict[str, float | int]:
    valid = valid_ok = exp = hit = text_hit = 0
    for name, chunks in results.items():
        negative_file = name.endswith(FILECHECK_NEGATIVE) or "RUN: not" in ""
        for c in chunks:
            errs = [i for i, e in enumerate(c.expectations) if e.kind == "error"]
            exp += len(errs)
            hit += sum(c.hit_line[i] for i in errs)
            text_hit += sum(c.hit_text[i] for i in errs)
            if c.valid and not negative_file:
                valid += 1
                valid_ok += c.roundtrip_ok
    return {
        "valid_chunks": valid,
        "valid_ok": valid_ok,
        "valid_rate": valid_ok / valid if valid else 1.0,
        "expected_errors": exp,
        "line_hits": hit,
        "line_rate": hit / exp if exp else 1.0,
        "text_hits": text_hit,
        "text_rate": text_hit / hit if hit else 1.0,
    }


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default=str(DEFAULT_DIR))
    ap.add_argument("--failures", action="store_true", help="list every failing chunk/annotation")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    if not root.is_dir():
        print(f"no conformance suite at {root}", file=sys.stderr)
        return 2
    results = collect(root)
    for name, chunks in results.items():
        v = [c for c in chunks if c.valid and not name.endswith(FILECHECK_NEGATIVE)]
        e = [(c, i) for c in chunks for i, x in enumerate(c.expectations) if x.kind == "error"]
        print(
            f"{name:55s} valid {sum(c.roundtrip_ok for c in v):4d}/{len(v):<4d} "
            f"errors line {sum(c.hit_line[i] for c, i in e):4d}/{len(e):<4d} "
            f"text {sum(c.hit_text[i] for c, i in e):4d}"
        )
        if args.failures:
            for c in v:
                if not c.roundtrip_ok:
                    print("   VALID-FAIL", c.failure.splitlines()[0] if c.failure else "", *c.failure.splitlines()[1:6], sep="\n      ")
            for c, i in e:
                x = c.expectations[i]
                if not c.hit_text[i]:
                    print(f"   {'TEXT' if c.hit_line[i] else 'MISS'} line {x.line + 1}: {x.text}")
    s = summarize(results)
    print(
        f"\nvalid chunks: {s['valid_ok']}/{s['valid_chunks']} = {s['valid_rate']:.1%}\n"
        f"expected-error lines hit: {s['line_hits']}/{s['expected_errors']} = {s['line_rate']:.1%}\n"
        f"of those, text matches: {s['text_hits']}/{s['line_hits']} = {s['text_rate']:.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
