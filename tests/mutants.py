"""Mutants of real kernels for the property tests: tokens deleted, duplicated, swapped or
inserted (other tokens of the file, or hostile ones: deep nesting, huge numbers, NULs, unicode,
a byte-order mark, unbalanced brackets), with a fixed seed so a failure reproduces.

`mutants(n, seed)` yields (name, text); the name says which kernel and mutant it is.
"""

from __future__ import annotations

import pathlib
import random
import re
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parents[1]
CUTILE = ROOT / "tests" / "data" / "cutile"
NVIDIA = ROOT.parent / "shared" / "kernels" / "nvidia"

_TOKEN = re.compile(r"\s+|%[\w$.\-#]+|@[\w$.\-]+|\w+|//[^\n]*|.", re.S)

HOSTILE = (
    "tile<" * 400 + "f32" + ">" * 400,
    "tile<" * 60,
    "[" * 500 + "]" * 500,
    "{" * 300,
    "(" * 300,
    "<" * 300,
    "9" * 5000,
    "1" + "0" * 4400,
    "-" + "9" * 4500,
    "0x" + "f" * 5000,
    "1." + "5" * 5000 + "e99999",
    "9" * 5000 + "x",
    "18446744073709551616",
    "2147483648",
    "-9223372036854775809",
    "\x00",
    "\x01\x7f",
    "\ufeff",
    "\u00e9",
    "\U0001f600",
    "\u2028",
    "\r\n",
    "\r",
    "\t",
    "%",
    "@",
    "#",
    "!",
    '"',
    "//",
    "loc(",
    'loc("f.mlir":99999999999999999999:1)',
    "%undefined_value",
    "%0:" + "9" * 5000,
    "^bb" + "9" * 5000,
    "@" + "x" * 70000,
    " " * 70000,
    "%" + "v" * 5000,
    "entry @dup() {\n return\n }\n",
    "global @g <f32: 0.0> : tile<f32>\n",
    "cuda_tile.module @n {",
    "}",
    "{",
    ")",
    ">",
    "]",
    ":",
    ",",
    "=",
    "->",
    "?",
    "x",
    "tile<",
    "!cuda_tile.",
    "cuda_tile.",
    '"cuda_tile.addf"',
    "#cuda_tile.",
    "dense<",
    "<" + "f32: [" * 200,
)


def kernels() -> list[tuple[str, str]]:
    """(name, text) of the real kernels: the cuTile corpus and NVIDIA's examples (if present)."""
    paths = sorted(CUTILE.glob("*.mlir"))
    if NVIDIA.is_dir():
        paths += sorted(NVIDIA.glob("*.mlir"))
    return [(p.name, p.read_text(encoding="utf-8")) for p in paths]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def mutate_lines(text: str, rng: random.Random) -> str:
    """Whole lines deleted, duplicated or swapped, or a block of lines (an entry, a region)
    written twice: what editing does to a file (and where per-item recovery is tested)."""
    lines = text.splitlines(keepends=True)
    if len(lines) < 2:
        return text
    i = rng.randrange(len(lines))
    how = rng.randrange(4)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[i])
    elif how == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        j = min(len(lines), i + rng.randint(2, 40))
        lines[j:j] = lines[i:j]
    return "".join(lines)


def mutate(text: str, rng: random.Random, hostile: bool = True) -> str:
    if rng.random() < 0.3:
        text = mutate_lines(text, rng)
        if rng.random() < 0.5:
            return text
    toks = tokens(text)
    for _ in range(rng.randint(1, 3)):
        if not toks:
            toks = [rng.choice(HOSTILE)]
        i = rng.randrange(len(toks))
        how = rng.randrange(6 if hostile else 4)
        if how == 0:
            del toks[i]
        elif how == 1:
            toks.insert(i, toks[i])
        elif how == 2:
            j = rng.randrange(len(toks))
            toks[i], toks[j] = toks[j], toks[i]
        elif how == 3:
            toks.insert(i, rng.choice(toks))
        else:
            toks.insert(i, rng.choice(HOSTILE))
    return "".join(toks)


def mutants(n: int, seed: int = 26, hostile: bool = True) -> Iterator[tuple[str, str]]:
    """`n` mutants, round robin over the kernels; the same `seed` gives the same texts."""
    rng = random.Random(seed)
    corpus = kernels()
    for k in range(n):
        name, text = corpus[k % len(corpus)]
        yield f"{name}#{k}", mutate(text, rng, hostile)
