"""Hash every stage text and diagnostic of a corpus: the check that a refactoring changed nothing.

    python scripts/stage_hashes.py > /tmp/before.txt      # on the old code
    python scripts/stage_hashes.py --against /tmp/before.txt   # on the new: exit 1 on a change

The corpus: every `.mlir` under examples/, tests/data/ and tests/upstream_lowering/data/
(cuTile's kernels, the upstream gpu/nvvm/llvm inputs), each compiled whole (no per-entry cache)
to PTX for sm_80, sm_90a and sm_100a. One line per (file, target, stage): its name and the
SHA-256 of its text (with line maps, the located text and the line refs too), plus one line per
file and target for the diagnostics. Run with `-j N` to use N processes.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("sm_80", "sm_90a", "sm_100a")


def corpus() -> list[Path]:
    found: list[Path] = []
    for folder in ("examples", "tests/data", "tests/upstream_lowering/data"):
        found.extend(sorted((ROOT / folder).rglob("*.mlir")))
    return found


def _digest(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def hash_file(path: Path) -> list[str]:
    from tile_lsp.compiler.pipeline import compile_whole
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    text = path.read_text(encoding="utf-8", errors="replace")
    name = path.relative_to(ROOT).as_posix()
    lines: list[str] = []
    for chip in TARGETS:
        target = Target.parse_gpu_name(chip)
        try:
            result = compile_whole(SourceText(text, name), CompileOptions(target=target), "ptx")
        except Exception as exc:  # (a crash is a result too: it must stay the same)
            lines.append(f"{name} {chip} crash {_digest(type(exc).__name__, str(exc))}")
            continue
        for stage in result.stages:
            if stage.name == "cubin":
                continue  # (ptxas's bytes: not ours)
            lines.append(f"{name} {chip} {stage.name} {_digest(stage.text, stage.located_text, stage.line_refs)}")
        diags = [(d.stage, d.severity, d.span, d.message) for d in result.diagnostics]
        lines.append(f"{name} {chip} diagnostics {_digest(diags)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--against", help="a file this script wrote before: report what differs")
    ap.add_argument("-j", type=int, default=1, help="processes")
    ap.add_argument("files", nargs="*", help="only these files (default: the corpus)")
    args = ap.parse_args(argv)
    files = [Path(f).resolve() for f in args.files] or corpus()
    if args.j > 1:
        with ProcessPoolExecutor(args.j) as pool:
            results = list(pool.map(hash_file, files))
    else:
        results = [hash_file(f) for f in files]
    lines = [line for group in results for line in group]
    if not args.against:
        print("\n".join(lines))
        return 0
    names = {f.relative_to(ROOT).as_posix() for f in files}
    before = [line for line in Path(args.against).read_text().splitlines() if line.split(" ", 1)[0] in names]
    old, new = set(before), set(lines)
    changed = sorted(new - old)
    gone = sorted(old - new)
    for line in gone:
        print(f"- {line}")
    for line in changed:
        print(f"+ {line}")
    print(f"{len(lines)} hashes, {len(changed)} new or changed, {len(gone)} gone", file=sys.stderr)
    return 1 if changed or gone else 0


if __name__ == "__main__":
    sys.exit(main())
