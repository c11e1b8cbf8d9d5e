"""Where a diagnostic on a decoded bytecode's text belongs for the user: the op's debug-info
location (cuTile's bytecode names the Python line of every op; ours, the `.mlir` line).

The command line reads a `.tileirbc` by printing it as text (`convert.load_source`), so every
diagnostic is first at a line of that printout, which the user never sees. Like NVIDIA's tools,
the CLI then reports it at the innermost op's debug location, with a note that gives the place
in the printout (which `tile-lsp opt FILE` shows). The editor's bytecode view shows the printout
itself, so it keeps the printout's positions.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from xdsl.dialects import builtin
from xdsl.ir import Attribute

from tile_lsp.compiler.source import SourceText

Position = tuple[str, int, int]  # file, 1-based line, 1-based column (0: none)


def debug_position(loc: Attribute | None, depth: int = 0) -> Position | None:
    """The file position a location names: a file location, a `di_loc`'s, a name location's
    child's, a call site's callee's (else its caller's), a fused location's first."""
    from tile_lsp.compiler.dialects.cuda_tile.debuginfo import DILocAttr
    from tile_lsp.compiler.syntax.locations import CallSiteLoc, FileLoc, FusedLoc, NameLoc

    if loc is None or depth > 32:
        return None
    if isinstance(loc, DILocAttr):
        loc = loc.source_loc
    if isinstance(loc, FileLoc):
        line = loc.line.data
        return (loc.filename.data, line, max(loc.column.data, 0)) if line > 0 else None
    if isinstance(loc, NameLoc):
        return debug_position(loc.child, depth + 1)
    if isinstance(loc, CallSiteLoc):
        return debug_position(loc.callee, depth + 1) or debug_position(loc.caller, depth + 1)
    if isinstance(loc, FusedLoc):
        for inner in loc.locations.data:
            found = debug_position(inner, depth + 1)
            if found is not None:
                return found
    return None


@dataclass
class DebugLocator:
    """Offsets of a decoded text -> the debug position of the innermost op around them."""

    starts: list[int]
    spans: list[tuple[int, int, Position]]  # sorted by start

    @classmethod
    def of(cls, source: SourceText) -> DebugLocator:
        from tile_lsp.compiler.frontend import parse_text

        spans: list[tuple[int, int, Position]] = []
        for result in parse_text(source.text, source.path):
            if result.module is None:
                continue
            for op in result.module.walk():
                info = result.smap.ops.get(op)
                where = debug_position(getattr(op, "location", None)) if info is not None else None
                if info is not None and where is not None and not isinstance(op, builtin.ModuleOp):
                    spans.append((info.span.start, info.span.end, where))
        spans.sort(key=lambda s: (s[0], -s[1]))
        return cls([s[0] for s in spans], spans)

    def at(self, offset: int) -> Position | None:
        """The innermost op's position: of the ops starting at or before `offset` (in file
        order, so inner ops come after the ops around them), the last that contains it."""
        i = bisect.bisect_right(self.starts, offset)
        best: Position | None = None
        best_size = None
        for window in (self.spans[max(0, i - 512) : i], self.spans[: max(0, i - 512)]):
            for start, end, where in window:
                if start <= offset <= end and (best_size is None or end - start < best_size):
                    best, best_size = where, end - start
            if best is not None:
                return best
        return None


def format_position(where: Position) -> str:
    file, line, column = where
    return f"{file}:{line}:{column}" if column > 0 else f"{file}:{line}"


def debug_place(source: SourceText, offset: int) -> str | None:
    """A decoded text's `SourceText.locator`: the debug position of the innermost op at
    `offset`, as `file:line:col` (its DebugLocator built on first use)."""
    if source._debug_locator is None:
        source._debug_locator = DebugLocator.of(source)
    where = source._debug_locator.at(offset)
    return format_position(where) if where is not None else None
