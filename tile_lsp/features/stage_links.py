"""Cross-stage links through plain files: the preview folder a compile is written to, and the
map that ties every line of those files to the source op it came from.

`write_previews` writes `<stem>.tileaa.mlir`, `.gpu.mlir`, `.nvvm.mlir`, `.llvm.mlir`, `.ll`,
`.ptx` and `<stem>.map.json` (per file, per line: the source op's position and span, plus the
hash of the source text they were made from).

A preview folder can be the user's own (previewDir "."): `.tile-lsp-manifest.json` in it lists
every file the server wrote there with the sha256 of what it wrote, and a file is overwritten
or removed only when the manifest lists it with its present content (a user's own `k.ptx`, or a
preview the user edited, is left alone and reported to the caller). Writes go through
`private_files.write_private` (atomic, never following a link) into a folder `private_dir`
accepts; scratch previews live in this user's private runtime folder. Because the links are files and positions, any
LSP client follows them with its own definition/implementation/references UI: a definition on
a PTX line opens the cuda_tile op, an implementation on a cuda_tile op lists its PTX lines.

Editor-agnostic: plain paths and 0-based lines; the server makes LSP locations of them.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from dataclasses import dataclass
from typing import Any

from tile_lsp.background import PipelineReport
from tile_lsp.compiler import private_files
from tile_lsp.compiler.provenance import SourceRef, line_runs
from tile_lsp.compiler.source import Span
from tile_lsp.features.pipeline_view import PREVIEW_SUFFIX

MAP_SUFFIX = ".map.json"
MAP_VERSION = 1
MANIFEST = ".tile-lsp-manifest.json"  # per preview folder: {"version", "files": {name: sha256}}
MANIFEST_VERSION = 1
MANIFEST_LIMIT = 4 << 20
# Files that are lowered text whatever folder they are in: never parsed as MLIR.
LOWERED_SUFFIXES = (".ptx", ".ll")
# Stages in the order implementation/references list them.
LINK_STAGES = tuple(PREVIEW_SUFFIX)


@dataclass(frozen=True)
class Origin:
    """Where a lowered line came from: the source file and the op (0-based line/column)."""

    path: str
    line: int
    column: int
    span: Span | None


@dataclass(frozen=True)
class LoweredRange:
    """Consecutive lines `first..last` (0-based, inclusive) of one preview file."""

    path: str
    stage: str
    first: int
    last: int


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def is_lowered_path(path: str) -> bool:
    """A document that is a stage's output (PTX, LLVM IR, or a file a preview map lists)."""
    return path.endswith(LOWERED_SUFFIXES) or _map_entry(path) is not None


def scratch_dir(source_path: str) -> str:
    """Where previews go when the document has no folder of its own (untitled) or when
    previews are off: a per-document folder in this user's private runtime folder
    (`private_files.user_runtime_dir`). Raises OSError (`UnsafeLocation`) when none is safe."""
    digest = hashlib.sha256(source_path.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return private_files.user_runtime_dir("previews", digest)


def stem_of(path: str) -> str:
    name = os.path.basename(path)
    return name[: -len(".mlir")] if name.endswith(".mlir") else os.path.splitext(name)[0]


def _encode(ref: SourceRef | None) -> list[int] | None:
    """[line, column, span start, span end] of a ref into the compiled source (None: no op of
    the source, e.g. a structural line or a location in another file)."""
    if ref is None or ref.offset is None:
        return None
    if ref.span is not None:
        return [ref.line, ref.column, ref.span.start, ref.span.end]
    return [ref.line, ref.column]


def write_previews(
    directory: str,
    stem: str,
    report: PipelineReport,
    source_path: str,
    source_text: str,
    refused: list[str] | None = None,
) -> list[str]:
    """Every produced stage of `report` as `<stem><suffix>` in `directory`, and the line map;
    files of stages the report lacks are removed (never a stale dump next to a fresh one), both
    only where the folder's manifest allows (`write_files`). Returns the files written; the
    files left alone are appended to `refused`. Raises OSError (`UnsafeLocation`: the folder)."""
    stages: dict[str, str | None] = {}
    lines: dict[str, Any] = {}
    for stage, suffix in PREVIEW_SUFFIX.items():
        produced = report.stage(stage)
        stages[stem + suffix] = None if produced is None else produced.text
        if produced is not None:
            lines[stem + suffix] = {"stage": stage, "lines": [_encode(r) for r in produced.line_refs or []]}
    written = write_files(directory, stages, refused)
    names = {os.path.basename(p) for p in written}
    files = {name: entry for name, entry in lines.items() if name in names}  # links only into our files
    mapping = {"version": MAP_VERSION, "source": source_path, "sha256": text_hash(source_text), "files": files}
    map_path = os.path.join(directory, stem + MAP_SUFFIX)
    written += write_files(directory, {stem + MAP_SUFFIX: json.dumps(mapping, separators=(",", ":"))}, refused)
    _MAPS.forget(map_path)
    return written


_FOLDER_LOCK = threading.Lock()  # one manifest read-modify-write at a time in this process


def write_files(directory: str, contents: dict[str, str | None], refused: list[str] | None = None) -> list[str]:
    """Write (text) or remove (None) the files `contents` names in `directory`, which is
    created or checked with `private_files.private_dir`. A file that exists is overwritten or
    removed only when the folder's manifest lists it with the sha256 of its present content;
    others (a user's own, a link, a preview the user edited) are left alone, appended to
    `refused` when they would have been written, and dropped from the manifest. Writes are
    `private_files.write_private` (atomic, a link at the name is never followed). Returns the
    paths written; raises OSError (`UnsafeLocation`: the folder, or a manifest not ours)."""
    directory = private_files.private_dir(directory)
    written: list[str] = []
    with _FOLDER_LOCK:
        manifest = _load_manifest(directory)
        before = dict(manifest)
        try:
            for name, text in contents.items():
                if os.path.basename(name) != name or name in ("", ".", "..", MANIFEST):
                    raise ValueError(f"not a preview file name: {name!r}")
                target = os.path.join(directory, name)
                present = _content_hash(target)  # None: no file (or a link, or not a regular file)
                exists = os.path.lexists(target)
                ours = exists and present is not None and manifest.get(name) == present
                if text is None:
                    if ours:
                        os.unlink(target)
                    manifest.pop(name, None)
                    continue
                data = text.encode("utf-8", "surrogatepass")
                if exists and not ours:
                    manifest.pop(name, None)
                    if refused is not None:
                        refused.append(target)
                    continue
                private_files.write_private(target, data)
                manifest[name] = hashlib.sha256(data).hexdigest()
                written.append(target)
        finally:
            if manifest != before:
                body = json.dumps({"version": MANIFEST_VERSION, "files": manifest}, indent=1, sort_keys=True)
                private_files.write_private(os.path.join(directory, MANIFEST), body.encode())
    return written


def _load_manifest(directory: str) -> dict[str, str]:
    path = os.path.join(directory, MANIFEST)
    if not os.path.lexists(path):
        return {}
    data = private_files.read_private(path, MANIFEST_LIMIT)
    mapping: Any = None
    if data is not None:
        try:
            mapping = json.loads(data)
        except ValueError:
            mapping = None
    files = mapping.get("files") if isinstance(mapping, dict) and mapping.get("version") == MANIFEST_VERSION else None
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise private_files.UnsafeLocation(
            f"{path} is not a tile-lsp manifest of this user's (a link, someone else's file, or not ours); "
            "no previews are written in that folder (remove it to let tile-lsp write there)"
        )
    return dict(files)


def _content_hash(path: str) -> str | None:
    """sha256 of a regular file at `path` (not followed if a link), or None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        digest = hashlib.sha256()
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
        return digest.hexdigest()


def in_map(path: str) -> bool:
    """Whether `path` is a preview file its folder's line map lists (one tile-lsp wrote)."""
    return _map_entry(path) is not None


def previews_current(directory: str, stem: str, source_text: str) -> bool:
    """Whether the folder holds the previews of exactly this source text."""
    mapping = _MAPS.load(os.path.join(directory, stem + MAP_SUFFIX))
    return mapping is not None and mapping.get("sha256") == text_hash(source_text)


class _MapCache:
    """Parsed map files by path, re-read when the file changes (mtime/size)."""

    def __init__(self) -> None:
        self._data: dict[str, tuple[tuple[float, int], dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def load(self, path: str) -> dict[str, Any] | None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        key = (st.st_mtime, st.st_size)
        with self._lock:
            hit = self._data.get(path)
            if hit is not None and hit[0] == key:
                return hit[1]
        try:
            with open(path, encoding="utf-8") as f:
                mapping = json.load(f)
        except (OSError, ValueError):
            return None
        if not isinstance(mapping, dict) or mapping.get("version") != MAP_VERSION:
            return None
        with self._lock:
            self._data[path] = (key, mapping)
        return mapping

    def forget(self, path: str) -> None:
        with self._lock:
            self._data.pop(path, None)


_MAPS = _MapCache()


def _map_entry(path: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(the map, its entry for this file) when `path` is a preview file a map lists."""
    directory, name = os.path.split(path)
    for suffix in sorted(PREVIEW_SUFFIX.values(), key=len, reverse=True):
        if not name.endswith(suffix):
            continue
        mapping = _MAPS.load(os.path.join(directory, name[: -len(suffix)] + MAP_SUFFIX))
        if mapping is None:
            continue
        entry = mapping.get("files", {}).get(name)
        if isinstance(entry, dict):
            return mapping, entry
    return None


def origin_of(path: str, line: int) -> Origin | None:
    """The source op that line `line` (0-based) of the preview file `path` was lowered from."""
    found = _map_entry(path)
    if found is None:
        return None
    mapping, entry = found
    lines = entry.get("lines") or []
    if not 0 <= line < len(lines) or not lines[line]:
        return None
    raw = lines[line]
    span = Span(raw[2], raw[3]) if len(raw) >= 4 else None
    return Origin(str(mapping.get("source", "")), int(raw[0]), int(raw[1]), span)


def origin_stage(path: str) -> str | None:
    found = _map_entry(path)
    return str(found[1].get("stage")) if found is not None else None


def lowered_ranges(report: PipelineReport, where: int | Span, directory: str, stem: str) -> list[LoweredRange]:
    """The lines of each preview file lowered from source line `where` (an int) or from the
    source ops starting in the range `where`, as runs of consecutive lines, stage by stage."""
    out: list[LoweredRange] = []
    for stage in LINK_STAGES:
        if report.stage(stage) is None:
            continue
        numbers = report.source_to_lines(stage, where)
        path = os.path.join(directory, stem + PREVIEW_SUFFIX[stage])
        for first, last in line_runs(numbers):
            out.append(LoweredRange(path, stage, first, last))
    return out
