"""Provenance: which source op each line of a stage's text came from (docs/pipeline.md, "Provenance").

Every stage text gets a list with one entry per line (0-based): the `SourceRef` of the source
op the line was lowered from, or None for structural lines (blank lines, block labels,
declarations, directives). How each kind of text is read:

- MLIR stages (nvvm, llvm; provenance_mlir.py, the only part that needs xDSL): a printer that records the line each op starts (and, for an op with
  regions, ends) on while printing the plain text; each op's location gives its source.
- LLVM IR: the `!dbg` attachments and their `!DILocation`/`!DISubprogram` metadata.
- PTX: the `.loc`/`.file` directives (backend/ptx_map.py).

LLVM IR and PTX only carry positions when compiled with line info; the pipeline compiles them
with `DebugDirectivesOnly` line info whenever a map is wanted and, when the user did not ask
for line info, shows the text with the debug-only lines taken out (`strip_llvm_debug`,
`strip_ptx_debug`), so the map is reindexed onto exactly the text the user sees.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tile_lsp.compiler.source import SourceText, Span

if TYPE_CHECKING:
    from xdsl.ir import Operation


@dataclass(frozen=True)
class SourceRef:
    """A source position a stage line came from. `line`/`column` are 0-based; `offset` and
    `span` (the whole source op written there) are set when `path` is the compiled source."""

    path: str
    line: int
    column: int
    offset: int | None = None
    span: Span | None = None


_UNSET = object()


class SourceIndex:
    """Turns (path, 1-based line, 1-based column) positions into `SourceRef`s of one source."""

    def __init__(self, source: SourceText, spans: Mapping[Operation, Span] | None = None) -> None:
        self.source = source
        self._refs: dict[tuple[str, int, int], SourceRef | None] = {}
        self._by_start: dict[int, Span] = {}
        for span in (spans or {}).values():
            known = self._by_start.get(span.start)
            if known is None or span.end - span.start > known.end - known.start:
                self._by_start[span.start] = span

    def is_source(self, path: str) -> bool:
        return same_file(path, self.source.path)

    def ref(self, path: str, line: int, column: int) -> SourceRef | None:
        """The ref of a 1-based (line, column) position as locations and `.loc` state them; one
        object per position (a kernel's stages name a few hundred positions over tens of
        thousands of lines, and a report pickles each object once)."""
        key = (path, line, column)
        found = self._refs.get(key, _UNSET)
        if found is _UNSET:
            found = self._refs[key] = self._ref(path, line, column)
        return found  # type: ignore[return-value]

    def _ref(self, path: str, line: int, column: int) -> SourceRef | None:
        if line <= 0:
            return None
        line0, col0 = line - 1, max(0, column - 1)
        if not self.is_source(path) or line0 >= len(self.source.line_starts()):
            return SourceRef(path, line0, col0)
        offset = self.source.offset(line0, col0)
        span = self._by_start.get(offset)
        if span is None:
            end = self.source.text.find("\n", offset)
            span = Span(offset, end if end > offset else min(offset + 1, len(self.source.text)))
        return SourceRef(self.source.path, line0, col0, offset, span)


def same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    if not a or not b or os.path.basename(a) != os.path.basename(b):
        return False
    return os.path.abspath(a) == os.path.abspath(b) or a.endswith("/" + b) or b.endswith("/" + a)


def lines_of_source(refs: Sequence[SourceRef | None], source: SourceText, where: int | Span) -> list[int]:
    """Stage lines whose ref is in `source` at 0-based source line `where` (an int) or whose
    ref's offset lies in the character range `where` (a Span)."""
    out: list[int] = []
    for index, ref in enumerate(refs):
        if ref is None or ref.offset is None:
            continue
        if isinstance(where, Span):
            hit = where.start <= ref.offset < max(where.end, where.start + 1)
        else:
            hit = ref.line == where
        if hit:
            out.append(index)
    return out


def line_runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """Ascending line numbers as runs of consecutive lines (first, last), e.g. for 3, 4, 5, 9:
    (3, 5), (9, 9)."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


# --- LLVM IR --------------------------------------------------------------------------------

_MD_DEF = re.compile(r"^!(\d+) = (?:distinct )?(.*)$")
_DBG = re.compile(r"!dbg !(\d+)")
_FIELD = re.compile(r"\b(\w+): (?:!(\d+)|\"((?:[^\"\\]|\\.)*)\"|(\d+))")


def _fields(body: str) -> dict[str, str]:
    return {m.group(1): m.group(2) or m.group(3) or m.group(4) or "" for m in _FIELD.finditer(body)}


def llvm_ir_refs(ir: str, index: SourceIndex) -> list[SourceRef | None]:
    """Per line of LLVM IR text, the source of its `!dbg` location (a `define`'s: its
    subprogram's line); the innermost position for inlined code, as `.loc` gives it."""
    lines = ir.splitlines()
    nodes: dict[str, str] = {}
    for raw in lines:
        m = _MD_DEF.match(raw)
        if m is not None:
            nodes[m.group(1)] = m.group(2)

    def file_of(node_id: str | None, depth: int = 0) -> str | None:
        body = nodes.get(node_id or "")
        if body is None or depth > 32:
            return None
        if body.startswith("!DIFile("):
            f = _fields(body)
            name, directory = f.get("filename", ""), f.get("directory", "")
            return os.path.join(directory, name) if directory and not os.path.isabs(name) else name
        f = _fields(body)
        return file_of(f.get("file") or f.get("scope"), depth + 1)

    cache: dict[str, SourceRef | None] = {}

    def ref_of(node_id: str) -> SourceRef | None:
        if node_id in cache:
            return cache[node_id]
        body = nodes.get(node_id, "")
        ref: SourceRef | None = None
        if body.startswith(("!DILocation(", "!DISubprogram(")):
            f = _fields(body)
            path = file_of(f.get("scope") if body.startswith("!DILocation(") else (f.get("file") or f.get("scope")))
            if path is not None and f.get("line", "").isdigit():
                ref = index.ref(path, int(f["line"]), int(f.get("column", "0") or 0))
        cache[node_id] = ref
        return ref

    refs: list[SourceRef | None] = []
    for raw in lines:
        m = _DBG.search(raw) if not raw.startswith("!") else None
        refs.append(ref_of(m.group(1)) if m is not None else None)
    return refs


_DEBUG_FLAGS = ('!"Debug Info Version"', '!"Dwarf Version"')


def strip_llvm_debug(ir: str) -> tuple[str, list[int]]:
    """LLVM IR compiled with line info, without it: `!dbg` attachments, debug metadata and the
    debug module flags removed, the remaining metadata renumbered in order. Returns the text and,
    per kept line, its index in `ir`."""
    lines = ir.splitlines()
    nodes: dict[int, str] = {}
    for raw in lines:
        m = _MD_DEF.match(raw)
        if m is not None:
            nodes[int(m.group(1))] = m.group(2)
    debug = {n for n, body in nodes.items() if body.startswith("!DI") or any(f in body for f in _DEBUG_FLAGS)}
    # Keep what the code and the named metadata (but the debug compile unit) still reach.
    todo: list[int] = []
    for raw in lines:
        if _MD_DEF.match(raw) is None and not raw.startswith("!llvm.dbg.cu "):
            todo.extend(int(m) for m in re.findall(r"!(\d+)\b", _DBG.sub("", raw)))
    reached: set[int] = set()
    while todo:
        n = todo.pop()
        if n in reached or n in debug or n not in nodes:
            continue
        reached.add(n)
        todo.extend(int(m) for m in re.findall(r"!(\d+)\b", nodes[n]))
    dropped = set(nodes) - reached
    kept_ids = [n for n in sorted(nodes) if n not in dropped]
    renumber = {old: new for new, old in enumerate(kept_ids)}

    def fix_refs(text: str) -> str:
        return re.sub(r"!(\d+)\b", lambda m: f"!{renumber.get(int(m.group(1)), int(m.group(1)))}", text)

    out: list[str] = []
    kept: list[int] = []
    for i, raw in enumerate(lines):
        if raw.startswith("!llvm.dbg.cu ") or raw.startswith("declare void @llvm.dbg."):
            continue
        m = _MD_DEF.match(raw)
        if m is not None and int(m.group(1)) in dropped:
            continue
        text = re.sub(r",? !dbg !\d+", "", raw)
        if raw.startswith("!") and "= !{" in raw:  # a named or tuple node listing dropped ones
            text = re.sub(r"!\{([^}]*)\}", lambda m: "!{" + _drop_ids(m.group(1), dropped) + "}", text)
        out.append(fix_refs(text))
        kept.append(i)
    # Blank lines left doubled (or trailing) where a whole metadata group went.
    final: list[str] = []
    final_kept: list[int] = []
    for text, i in zip(out, kept, strict=True):
        if not text and (not final or not final[-1]):
            continue
        final.append(text)
        final_kept.append(i)
    _drop_trailing_blanks(final, final_kept)
    return "\n".join(final) + "\n", final_kept


def _drop_trailing_blanks(lines: list[str], kept: list[int]) -> None:
    """Pop the blank lines at the end of `lines`, and as many indices (theirs) off the end of `kept`."""
    while lines and not lines[-1]:
        lines.pop()
        kept.pop()


def _drop_ids(items: str, dropped: set[int]) -> str:
    parts = [p.strip() for p in items.split(",")] if items.strip() else []
    return ", ".join(p for p in parts if not (re.fullmatch(r"!\d+", p) and int(p[1:]) in dropped))


# --- PTX ------------------------------------------------------------------------------------

_PTX_DEBUG_LINE = re.compile(r"^\s*(\.loc\b|\.file\b|\$L__(tmp|func_begin|func_end|info_string)\d+:)")
_PTX_SECTION = re.compile(r"^\s*\.section\s+\.debug")


def strip_ptx_debug(ptx: str) -> tuple[str, list[int]]:
    """PTX compiled with line info, without it: `.loc`/`.file`, the debug labels and the
    `.section .debug_*` blocks removed. Returns the text and, per kept line, its index in `ptx`."""
    lines = ptx.splitlines()
    out: list[str] = []
    kept: list[int] = []
    depth = 0
    opening = False  # a `.section` header whose `{` is on a later line
    for i, raw in enumerate(lines):
        if depth > 0 or (opening and raw.strip().startswith("{")):
            opening = False
            depth += raw.count("{") - raw.count("}")
            continue
        opening = False
        if _PTX_SECTION.match(raw):
            depth = raw.count("{") - raw.count("}")
            opening = "{" not in raw
            continue
        if _PTX_DEBUG_LINE.match(raw):
            continue
        out.append(raw)
        kept.append(i)
    _drop_trailing_blanks(out, kept)
    trailing = "\n\n" if ptx.endswith("\n\n") else "\n"
    return "\n".join(out) + trailing, kept


def ptx_refs(ptx: str, index: SourceIndex) -> list[SourceRef | None]:
    """Per line of PTX text, the source position its `.loc` states (instruction lines only)."""
    from tile_lsp.compiler.backend.ptx_map import ptx_line_to_source

    refs: list[SourceRef | None] = [None] * len(ptx.splitlines())
    for line, loc in ptx_line_to_source(ptx).items():
        refs[line] = index.ref(loc.path, loc.line, loc.column)
    return refs


def reindex(refs: Sequence[SourceRef | None], kept: Sequence[int]) -> list[SourceRef | None]:
    """The refs of a text made of the lines `kept` of the text `refs` describes."""
    return [refs[i] if i < len(refs) else None for i in kept]
