"""One PTX module from several: the per-entry compile units' PTX merged into the file's PTX.

The header comes once; extern declarations, prototypes and internal definitions that two units
share verbatim (libdevice functions, their tables) come once; an internal symbol that two units
define differently (`printfFormat_0`, `$str`) is renamed in the later unit. Every kept line keeps
its source ref, so the merged text's line map is the units' maps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

Ref = TypeVar("Ref")

_HEADER = (".version", ".target", ".address_size")
_LINKAGE = {".visible", ".extern", ".weak", ".common"}
_FUNC_NAME = re.compile(r"\.(?:func|entry)\s+(?:\([^)]*\)\s*)?([A-Za-z_$%][\w$]*)")
_VAR_NAME = re.compile(r"([A-Za-z_$%][\w$]*)\s*(?:\[[^\]]*\]\s*)*(?:=|;|$)")


@dataclass
class _Chunk:
    """One module-scope statement: a directive, a declaration, a definition, or comment lines."""

    lines: list[str]
    refs: list[object]
    name: str | None = None  # the symbol an internal definition defines
    trailer: bool = False  # `.file` / `.section`: collected at the end, once each

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _split(lines: Sequence[str], refs: Sequence[object]) -> tuple[int, list[_Chunk]]:
    """(header length, module-scope chunks) of one unit's PTX."""
    header = 0
    for i, line in enumerate(lines):
        if line.strip().startswith(_HEADER[-1]):
            header = i + 1
            break
    chunks: list[_Chunk] = []
    current: _Chunk | None = None
    depth = 0
    for i in range(header, len(lines)):
        line = lines[i]
        code = line.split("//", 1)[0]
        stripped = code.strip()
        if current is None:
            current = _Chunk([], [])
        current.lines.append(line)
        current.refs.append(refs[i] if i < len(refs) else None)
        depth += code.count("{") - code.count("}")
        if depth > 0:
            continue
        first = current.lines[0].strip()
        done = (
            not stripped
            or stripped.endswith((";", "}"))
            or (len(current.lines) == 1 and first.startswith((".file", ".section")))
        )
        if done:
            _classify(current)
            chunks.append(current)
            current = None
    if current is not None:
        _classify(current)
        chunks.append(current)
    return header, chunks


def _classify(chunk: _Chunk) -> None:
    head = chunk.lines[0].split("//", 1)[0].strip()
    if not head:
        return
    words = head.split()
    if words[0] in (".file", ".section"):
        chunk.trailer = True
        return
    if _LINKAGE & set(words):
        return
    text = " ".join(line.split("//", 1)[0].strip() for line in chunk.lines)
    if words[0] == ".func":
        if "{" in text:  # a definition (a prototype alone ends in `;`)
            m = _FUNC_NAME.search(text)
            chunk.name = m.group(1) if m else None
    elif words[0] in (".global", ".const", ".shared"):
        m = _VAR_NAME.search(text.split("=", 1)[0] + ";")
        chunk.name = m.group(1) if m else None


def _renamer(renames: dict[str, str]) -> re.Pattern[str] | None:
    if not renames:
        return None
    names = "|".join(re.escape(n) for n in sorted(renames, key=len, reverse=True))
    return re.compile(rf"(?<![\w$%.])({names})(?![\w$])")


def merge_ptx(units: Sequence[tuple[str, Sequence[Ref | None] | None]]) -> tuple[str, list[Ref | None]]:
    """The merged PTX text of `units` ((text, line refs) each) and its line refs."""
    out_lines: list[str] = []
    out_refs: list[object] = []
    defined: dict[str, str] = {}  # internal symbol -> its definition text (as emitted)
    emitted: set[str] = set()  # declarations and trailers already emitted
    trailers: list[_Chunk] = []
    taken: set[str] = set()
    for index, (text, refs) in enumerate(units):
        lines = text.splitlines()
        unit_refs: Sequence[object] = refs or []
        header, chunks = _split(lines, unit_refs)
        if index == 0:
            out_lines.extend(lines[:header])
            out_refs.extend([None] * header)
        taken.update(c.name for c in chunks if c.name)
        renames: dict[str, str] = {}
        while True:  # renaming one symbol can change the text of a definition that uses it
            pattern = _renamer(renames)
            changed = False
            for chunk in chunks:
                if chunk.name is None or chunk.name in renames:
                    continue
                if chunk.name in defined and defined[chunk.name] != _renamed(chunk.text, pattern, renames):
                    renames[chunk.name] = _fresh(chunk.name, index, taken | set(defined))
                    taken.add(renames[chunk.name])
                    changed = True
            if not changed:
                break
        pattern = _renamer(renames)
        for chunk in chunks:
            body = _renamed(chunk.text, pattern, renames)
            name = renames.get(chunk.name, chunk.name) if chunk.name else None
            if chunk.trailer:
                if body not in emitted:
                    emitted.add(body)
                    trailers.append(chunk)
                continue
            if name is not None:
                if defined.get(name) == body:
                    continue  # the same internal definition, emitted by an earlier unit
                defined[name] = body
            elif body.strip() and body.lstrip().startswith((".extern", ".func")) and not _is_comment(body):
                if body in emitted:
                    continue  # the same declaration again
                emitted.add(body)
            out_lines.extend(body.split("\n"))
            out_refs.extend(chunk.refs)
    for chunk in trailers:
        out_lines.extend(chunk.lines)
        out_refs.extend(chunk.refs)
    return "\n".join(out_lines) + "\n", out_refs  # type: ignore[return-value]


def _renamed(text: str, pattern: re.Pattern[str] | None, renames: dict[str, str]) -> str:
    return text if pattern is None else pattern.sub(lambda m: renames[m.group(1)], text)


def _fresh(name: str, index: int, taken: set[str]) -> str:
    candidate = f"{name}_u{index}"
    while candidate in taken:
        candidate += "_"
    return candidate


def _is_comment(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("//") for line in text.split("\n"))
