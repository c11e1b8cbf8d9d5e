"""Measure how many `expected-error` annotations of an upstream MLIR test our parser+verifiers hit.

A hit = one of our error diagnostics in the same `// -----` chunk is on the annotated line and its
message contains the annotated text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tile_lsp.compiler.mlir.context import parse_upstream
from tile_lsp.compiler.source import SourceText, Span

_EXPECT = re.compile(r"//\s*expected-error\s*(@below|@above|@\+(\d+)|@-(\d+))?\s*\{\{(.*)\}\}")


@dataclass
class Expectation:
    line: int  # 0-based line the diagnostic must be on
    text: str
    hit: bool = False
    got: str = ""


def expectations(text: str) -> list[Expectation]:
    out: list[Expectation] = []
    for i, line in enumerate(text.splitlines()):
        m = _EXPECT.search(line)
        if not m:
            continue
        where = m.group(1)
        if where is None:
            target = i
        elif where == "@below":
            target = i + 1
        elif where == "@above":
            target = i - 1
        elif m.group(2):
            target = i + int(m.group(2))
        else:
            target = i - int(m.group(3))
        out.append(Expectation(target, m.group(4)))
    return out


def measure(path: Path) -> tuple[int, int, list[Expectation]]:
    """(hits, total, expectations) over the `// -----` chunks of `path`."""
    text = path.read_text()
    source = SourceText(text, str(path))
    exps = expectations(text)
    starts = [0] + [m.end() for m in re.finditer(r"^// -----\s*$", text, flags=re.M)]
    ends = [m.start() for m in re.finditer(r"^// -----\s*$", text, flags=re.M)] + [len(text)]
    for start, end in zip(starts, ends):
        result = parse_upstream(source, Span(start, end))
        diags = [d for d in result.diagnostics if d.is_error]
        first_line = source.line_col(start)[0]
        last_line = source.line_col(max(start, end - 1))[0]
        for exp in exps:
            if not first_line <= exp.line <= last_line:
                continue
            for d in diags:
                line = source.line_col(d.span.start)[0]
                exp.got += f"[{line + 1}] {d.message}\n"
                if line == exp.line and exp.text in d.message:
                    exp.hit = True
    hits = sum(e.hit for e in exps)
    return hits, len(exps), exps
