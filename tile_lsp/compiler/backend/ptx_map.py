"""PTX line -> source location, read back from the `.loc`/`.file` directives line info adds.

`ptx_line_to_source(ptx)` maps each PTX instruction line (0-based) to (path, line, column) of
the source op it came from (1-based line/column, as in `.loc`); inlined code maps to the
innermost (callee) location, as `.loc` states it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"((?:[^"\\]|\\.)*)"')
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)")


@dataclass(frozen=True)
class SourceLoc:
    path: str
    line: int
    column: int


def ptx_files(ptx: str) -> dict[int, str]:
    """The `.file` table: index -> path."""
    files: dict[int, str] = {}
    for raw in ptx.splitlines():
        m = _FILE.match(raw)
        if m is not None:
            files[int(m.group(1))] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
    return files


def ptx_line_to_source(ptx: str) -> dict[int, SourceLoc]:
    """Each instruction line's source location (lines before any `.loc`, or at line 0, are absent)."""
    files = ptx_files(ptx)
    result: dict[int, SourceLoc] = {}
    current: SourceLoc | None = None
    for index, raw in enumerate(ptx.splitlines()):
        text = raw.strip()
        m = _LOC.match(raw)
        if m is not None:
            line = int(m.group(2))
            path = files.get(int(m.group(1)))
            current = SourceLoc(path, line, int(m.group(3))) if path is not None and line > 0 else None
            continue
        if text == "}" or text.startswith((".entry", ".visible", ".func", ".extern")):
            current = None
            continue
        if not text or text.startswith((".", "$", "//", "{", ")", "(")) or current is None:
            continue
        result[index] = current
    return result


def source_to_ptx_lines(ptx: str) -> dict[tuple[str, int], list[int]]:
    """The inverse: (path, source line) -> PTX instruction lines (0-based)."""
    inverse: dict[tuple[str, int], list[int]] = {}
    for ptx_line, loc in sorted(ptx_line_to_source(ptx).items()):
        inverse.setdefault((loc.path, loc.line), []).append(ptx_line)
    return inverse
