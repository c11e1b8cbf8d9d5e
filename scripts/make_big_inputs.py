"""Big inputs for the size limits of issue 26, made from the cuTile kernels of tests/data/cutile.

    .venv/bin/python scripts/make_big_inputs.py [OUT_DIR] [--mb N]

Writes into OUT_DIR (default /tmp/tile-lsp-big):
  big.mlir        every cuTile kernel, again and again with renamed entries, up to N MB (10)
  big-module.mlir the same entries inside one `cuda_tile.module @big { ... }`
  attention.mlir  attention's entries only, renamed, up to N MB (the fault matrix's file-10MB)
  line.mlir       one 1 MB line: 30,000 constants in one entry (the fault matrix's line-1MB)
  small.mlir      just under the default limit (tile_lsp.compiler.limits.MAX_FILE_SIZE)
Nothing here is a test; bench/big_inputs.py measures the CLI and the server on these files.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "tests", "data", "cutile")
_ENTRY = re.compile(r"^([ \t]*)entry @([\w$.]+)", re.M)


def kernel_entries(name: str | None = None) -> list[tuple[str, str]]:
    """(entry name, text) of every cuTile kernel file's entries (bare `entry @...{...}` items)."""
    out = []
    for file in sorted(os.listdir(KERNELS)):
        if not file.endswith(".mlir") or file.endswith(".g.mlir") or (name and file != name + ".mlir"):
            continue
        with open(os.path.join(KERNELS, file), encoding="utf-8") as f:
            text = f.read()
        for m in _ENTRY.finditer(text):
            close = "\n" + m.group(1) + "}\n"
            end = text.index(close, m.start()) + len(close)
            out.append((m.group(2), text[m.start() : end]))
    return out


def renamed_entries(target: int, name: str | None = None, indent: str = "") -> str:
    """Entries repeated with fresh names (`@name_<copy>`) until the text is `target` long."""
    entries = kernel_entries(name)
    parts: list[str] = []
    size = copy = 0
    while size < target:
        for entry, text in entries:
            chunk = text.replace(f"@{entry}(", f"@{entry}_{copy}(", 1)
            if indent:
                chunk = "".join(indent + line if line.strip() else line for line in chunk.splitlines(True))
            parts.append(chunk + "\n")
            size += len(chunk) + 1
            if size >= target:
                break
        copy += 1
    return "".join(parts)


def one_line(ops: int = 30000) -> str:
    body = " ".join(f"%v{i} = constant <i32: {i}> : tile<i32>" for i in range(ops))
    return "cuda_tile.module @m {\n  entry @e() { " + body + " return }\n}\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default="/tmp/tile-lsp-big")
    ap.add_argument("--mb", type=float, default=10.0)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    size = int(args.mb * (1 << 20))
    sys.path.insert(0, ROOT)
    from tile_lsp.compiler.limits import MAX_FILE_SIZE

    files = {
        "big.mlir": renamed_entries(size),
        "big-module.mlir": "cuda_tile.module @big {\n" + renamed_entries(size, indent="  ") + "}\n",
        "attention.mlir": renamed_entries(size, "attention"),
        "line.mlir": one_line(),
        "small.mlir": renamed_entries(MAX_FILE_SIZE - 64 * 1024),
    }
    for file, text in files.items():
        path = os.path.join(args.out, file)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{path}: {len(text.encode()) / (1 << 20):.1f} MB, {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
