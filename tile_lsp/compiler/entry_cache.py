"""Per-entry compile units and their cache: a Tile IR file is lowered one `entry` at a time (with
the globals it uses); each unit's stage outputs are cached by its text, the options and the
compiler's own source, and the units' outputs are merged into the one `CompileResult` callers see.

An unchanged entry costs a lookup; an edit re-lowers the edited entry only. A unit compiled at
other lines of the file (an edit above it added lines) is moved: its diagnostics, line maps and
locations are shifted. Outputs that embed absolute lines (`assert` passes its line to the runtime)
are cached by position too. Device debug info (`-G`) and files the splitter cannot cut are
compiled whole.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import pathlib
import re
import stat
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from tile_lsp import __version__
from tile_lsp.compiler import cancel, pipeline
from tile_lsp.compiler.diagnostics import Diagnostic, DiagnosticSink, Related, Severity
from tile_lsp.compiler.entry_merge import UnitResult, merge_units, merged_diagnostics
from tile_lsp.compiler.pipeline import CompileResult, EarlyHook, StageOutput, UnitStats, compile_whole
from tile_lsp.compiler.private_files import UnsafeLocation, private_dir
from tile_lsp.compiler.provenance import SourceRef
from tile_lsp.compiler.safe_codec import Codec, load_file, store_file
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.target import CompileOptions

if TYPE_CHECKING:
    from tile_lsp.compiler.backend.ptxas import RunningPtxas

MEMORY_UNITS = 128  # units (all stages of one entry each) kept in a process, at most ...
MEMORY_BYTES = 192 << 20  # ... and about this much of their texts (one huge entry's are tens of MB)
DISK_LIMIT_BYTES = 512 << 20  # the cache directory is pruned (least recently used first) past this
PRUNE_EVERY = 32  # writes between two size checks of the directory
_ASSERT = re.compile(r"\bassert\b")
# A comment, or a string (kept: `//` inside one is not a comment).
_COMMENT = re.compile(r'("(?:[^"\\\n]|\\.)*")|//[^\n\r]*')  # a lone CR ends a comment (MLIR's lexer)
_SYMBOL = re.compile(r"@([A-Za-z_][\w$.]*)")
_LOC = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_PTX_LOC = re.compile(r"^(\s*\.loc\s+\d+\s+)(\d+)", re.MULTILINE)
_IR_LINE = re.compile(r"\b((?:scopeLine|line): )(\d+)")


@dataclass(frozen=True)
class Segment:
    """A piece of the file that belongs to a unit: where it starts (offset, 0-based line)."""

    start: int
    line: int
    text: str


@dataclass(frozen=True)
class Unit:
    """One entry and what it needs: the module shell, the globals it uses, in file order."""

    name: str
    segments: tuple[Segment, ...]
    positional: bool  # its outputs embed absolute source lines: cached by its exact text and position

    @cached_property
    def _lines(self) -> tuple[tuple[tuple[int, int], ...], str]:
        """(offset, line) of each line that holds code, and the shape that keys a non-positional
        unit: those lines with comments and trailing blanks cut (indentation kept). Two units of
        one shape differ only in comments and blank lines, so their outputs differ only in
        positions, which `relocate` moves line by line. (Cut with regexes: this runs for every
        unit of the file on every compile.)"""
        anchors: list[tuple[int, int]] = []
        shape: list[str] = []
        for seg in self.segments:
            code = _COMMENT.sub(_keep_string, seg.text).split("\n")
            offset = seg.start
            for index, (line, original) in enumerate(zip(code, seg.text.split("\n"), strict=True)):
                kept = line.rstrip()
                if kept:
                    anchors.append((offset, seg.line + index))
                    shape.append(kept)
                offset += len(original) + 1
            shape.append("\0")
        return tuple(anchors), "\n".join(shape)

    @property
    def layout(self) -> tuple[tuple[int, int], ...]:
        """Where the unit's code lines start: (offset, line) each."""
        return self._lines[0]

    @property
    def shape(self) -> str:
        return self._lines[1]


class EntryCache:
    """Unit results by key: an in-memory LRU, and optionally a directory (one file per key).

    The directory's files are data (`safe_codec`: plain values, the classes of `_unit_codec`
    only, a digest binding each to its key; nothing in them is run), in folders only this user
    can write (`private_files`): a directory someone else could write is not used at all
    (`check_directory` says why), a file that is damaged, moved or not ours is a miss."""

    def __init__(self, size: int = MEMORY_UNITS, directory: str | None = None, defer_writes: bool = False,
                 disk_limit: int = DISK_LIMIT_BYTES, memory_bytes: int = MEMORY_BYTES) -> None:
        self.size = size
        self.memory_bytes = memory_bytes
        self._held = 0  # the estimated bytes of what `_memory` holds (`_estimate`)
        self._sizes: dict[str, int] = {}
        self.directory = directory
        self.disk_limit = disk_limit
        self._writes = 0
        self._memory: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        # With `defer_writes`, `put` only remembers; `flush` writes to the directory (the
        # language server's worker flushes after it has sent its report).
        self.defer_writes = defer_writes
        self._unwritten: dict[str, Any] = {}
        self._refused: str | None = None
        self._checked = False

    def check_directory(self) -> str | None:
        """None when the directory can be used (made 0700 when missing, else owned by this user
        and writable by no one else: `private_files.private_dir`), else why not, in one line;
        then this cache keeps to memory. Checked once."""
        if not self._checked and self.directory is not None:
            try:
                private_dir(self.directory)
            except UnsafeLocation as exc:
                self._refused = str(exc)
            except OSError as exc:  # (a folder that cannot be made: only costs speed)
                self._refused = f"{self.directory}: {exc.strerror or exc}"
            self._checked = True
        return self._refused

    def _disk(self) -> bool:
        return self.directory is not None and self.check_directory() is None

    def get(self, key: str) -> tuple[Any, str]:
        """(value, "memory" | "disk") or (None, "")."""
        with self._lock:
            value = self._memory.get(key)
            if value is not None:
                self._memory.move_to_end(key)
                return value, "memory"
        if not self._disk():
            return None, ""
        # (missing, damaged, from another version, moved, not ours: a miss; a hit is marked used)
        value = load_file(self._path(key), _unit_codec(), key.encode(), self.disk_limit)
        if value is None:
            return None, ""
        self._remember(key, value)
        return value, "disk"

    def put(self, key: str, value: Any) -> None:
        self._remember(key, value)
        if self.directory is None:
            return
        if self.defer_writes:
            with self._lock:
                self._unwritten[key] = value
            return
        self._write(key, value)

    def flush(self) -> None:
        """Write what `put` deferred."""
        with self._lock:
            unwritten, self._unwritten = self._unwritten, {}
        for key, value in unwritten.items():
            self._write(key, value)

    def _write(self, key: str, value: Any) -> None:
        # (a read-only or full cache directory only costs speed)
        if not self._disk() or not store_file(self._path(key), _unit_codec(), value, key.encode()):
            return
        if self._writes % PRUNE_EVERY == 0:
            self.prune()
        self._writes += 1

    def prune(self) -> int:
        """Delete the least recently used unit files until the directory holds at most 80% of
        `disk_limit` (when it is over the limit); returns how many were deleted."""
        if not self._disk():
            return 0
        assert self.directory is not None
        files = []
        try:
            for sub in os.scandir(self.directory):
                if sub.is_dir(follow_symlinks=False):
                    for entry in os.scandir(sub.path):
                        if entry.name.endswith(".unit"):
                            st = entry.stat(follow_symlinks=False)
                            if stat.S_ISREG(st.st_mode):
                                files.append((st.st_mtime, st.st_size, entry.path))
        except OSError:
            return 0
        total = sum(size for _, size, _ in files)
        if total <= self.disk_limit:
            return 0
        deleted = 0
        for _, size, path in sorted(files):
            if total <= self.disk_limit * 0.8:
                break
            try:
                os.remove(path)
            except OSError:
                continue
            total -= size
            deleted += 1
        return deleted

    def clear_memory(self) -> None:
        with self._lock:
            self._memory.clear()
            self._sizes.clear()
            self._held = 0

    def remember(self, key: str, value: Any) -> None:
        """Keep `value` in memory only (the disk keeps what was compiled)."""
        self._remember(key, value)

    def _remember(self, key: str, value: Any) -> None:
        """Keep `value` (the newest always), then drop the least recently used past the count or
        the byte budget."""
        size = _estimate(value)
        with self._lock:
            self._held += size - self._sizes.get(key, 0)
            self._sizes[key] = size
            self._memory[key] = value
            self._memory.move_to_end(key)
            while len(self._memory) > 1 and (len(self._memory) > self.size or self._held > self.memory_bytes):
                old, _ = self._memory.popitem(last=False)
                self._held -= self._sizes.pop(old, 0)

    @property
    def memory_held(self) -> int:
        """The estimated bytes the memory cache holds."""
        return self._held

    def _path(self, key: str) -> str:
        assert self.directory is not None
        return os.path.join(self.directory, key[:2], key[2:] + ".unit")


def _estimate(value: Any) -> int:
    """About how many bytes a cached unit holds: its texts, bytes and line maps (what grows with
    the entry), plus a little per diagnostic."""
    if isinstance(value, UnitResult):
        size = 512 + 16 * len(value.layout) + 256 * len(value.diagnostics) + len(value.link_object or b"")
        for stage in value.stages:
            size += len(stage.text) + len(stage.located_text or "") + len(stage.data or b"") + 8 * len(stage.line_refs or ())
        return size + sum(len(text) for text in value.layouts.values())
    if isinstance(value, tuple):
        return 64 + sum(len(part) for part in value if isinstance(part, (str, bytes)))
    return 1024


_PROCESS_CACHE = EntryCache()


@cache
def _unit_codec() -> Codec:
    """What a unit file may hold: `UnitResult`, `(cubin, ptxas command)` tuples and plain data."""
    from tile_lsp.compiler.backend.ptxas import KernelResources

    return Codec("unit", (UnitResult, StageOutput, Diagnostic, Related, Severity, Span, SourceRef, KernelResources))


def default_directory(environ: Mapping[str, str], home: str) -> str:
    """The on-disk unit cache shared by `tile-lsp compile` and the language server's workers:
    $XDG_CACHE_HOME/tile-lsp/units, else <home>/.cache/tile-lsp/units (callers pass the
    environment: the compiler reads none itself)."""
    base = environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    return os.path.join(base, "tile-lsp", "units")


def libdevice_directory(units: str) -> str:
    """Where trimmed libdevices are kept (`backend.cuda_tools.set_trim_directory`), beside the units."""
    return os.path.join(os.path.dirname(units), "libdevice")


def disk_cache_folders(units: str) -> tuple[str, str]:
    """(the unit folder `units`, the trimmed libdevices' beside it), each and the folder above
    them (`<cache>/tile-lsp`) made 0700 or checked by `private_files.private_dir`: ours, no link,
    writable by no one else. Raises `UnsafeLocation` (the one line to show, see `refused_notice`)
    or another OSError (a folder that cannot be made)."""
    private_dir(os.path.dirname(os.path.abspath(units)))
    return private_dir(units), private_dir(libdevice_directory(os.path.abspath(units)))


def refused_notice(exc: UnsafeLocation) -> str:
    """The one message for a refused cache folder (the compile goes on without the disk cache)."""
    return f"tile-lsp: warning: cache folder {exc}; running without the disk cache"


def process_cache() -> EntryCache:
    """The in-memory cache of this process (the language server's workers keep theirs warm)."""
    return _PROCESS_CACHE


_FINGERPRINT: str | None = None
_NOT_COMPILER = {"interp"}  # packages under compiler/ that do not change what a compile produces


def compiler_fingerprint(refresh: bool = False) -> str:
    """A hash of the compiler's own source files: a code change invalidates every cached unit.
    Computed once per process (`refresh`: read the files again)."""
    global _FINGERPRINT
    if _FINGERPRINT is None or refresh:
        h = hashlib.sha256(__version__.encode())
        root = pathlib.Path(__file__).resolve().parent
        for path in sorted(root.rglob("*.py")):
            if path.parent.name in _NOT_COMPILER:
                continue
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
        _FINGERPRINT = h.hexdigest()
    return _FINGERPRINT


def _ptxas_identity(options: CompileOptions) -> str:
    from tile_lsp.compiler.backend.ptxas import find_ptxas

    return _file_identity(find_ptxas(options))


# -- cutting a file into units ----------------------------------------------------------------


def split_units(source: SourceText) -> list[Unit] | None:
    """One unit per entry (file order), or None when the file must be compiled whole."""
    from tile_lsp.compiler.items import split_items

    text = source.text
    cut = split_items(text)
    if cut is None:
        return None
    items, body = cut

    def segment(start: int, end: int) -> Segment:
        return Segment(start, source.line_col(start)[0], text[start:end])

    shell: list[Segment] = []
    if body is not None:  # (from the module's first line to its closing one: aliases are apart)
        first = text.rfind("\n", 0, text.rfind("cuda_tile.module", 0, body[0])) + 1
        line_end = text.find("\n", body[1])
        shell = [segment(first, body[0]), segment(body[1], len(text) if line_end < 0 else line_end + 1)]
    aliases: dict[str, Segment] = {}
    globals_: dict[str, Segment] = {}
    entries: list[tuple[str, Segment]] = []
    seen: set[str] = set()
    for kind, start, end in items:
        if kind == "alias":
            aliases.update(_alias_segments(source, start, end))
            continue
        seg = segment(start, end)
        m = _SYMBOL.search(seg.text)
        if m is None or m.group(1) in seen:
            return None  # a quoted or duplicate name: the whole-file parse reports it
        seen.add(m.group(1))
        if kind == "global":
            globals_[m.group(1)] = seg
        else:
            entries.append((m.group(1), seg))
    if not entries:
        return None
    used: set[str] = set()
    wanted: list[set[str]] = []
    for name, seg in entries:
        refs = {n for n in _SYMBOL.findall(seg.text) if n in globals_ and n != name}
        used |= refs
        wanted.append(refs)
    wanted[0] |= set(globals_) - used  # unused globals are still parsed and checked, once
    units = []
    for (name, seg), refs in zip(entries, wanted, strict=True):
        segs = [*shell, seg, *(globals_[g] for g in refs)]
        if aliases:
            segs += _aliases_used(segs, aliases)
        segs.sort(key=lambda s: s.start)
        units.append(Unit(name, tuple(segs), any(_ASSERT.search(s.text) for s in segs)))
    return units


_ALIAS_DEF = re.compile(r"^[ \t]*([#!][A-Za-z_][\w$.]*)[ \t]*=", re.MULTILINE)
_ALIAS_USE = re.compile(r"[#!][A-Za-z_][\w$.]*")


def _alias_segments(source: SourceText, start: int, end: int) -> dict[str, Segment]:
    """Each alias an alias item (`items.split_items`) defines: its definition, up to the next."""
    text = source.text
    found = list(_ALIAS_DEF.finditer(text, start, end))
    out = {}
    for i, m in enumerate(found):
        stop = found[i + 1].start() if i + 1 < len(found) else end
        out[m.group(1)] = Segment(m.start(), source.line_col(m.start())[0], text[m.start() : stop])
    return out


def _aliases_used(segments: list[Segment], aliases: dict[str, Segment]) -> list[Segment]:
    """The definitions of the aliases `segments` name, and of those these name, in turn."""
    wanted: dict[str, Segment] = {}
    todo = [seg.text for seg in segments]
    while todo:
        for name in _ALIAS_USE.findall(todo.pop()):
            seg = aliases.get(name)
            if seg is not None and name not in wanted:
                wanted[name] = seg
                todo.append(seg.text)
    return list(wanted.values())


def masked_source(source: SourceText, unit: Unit, blank: str) -> SourceText:
    """The file with everything outside `unit` blanked (same offsets and lines)."""
    pieces: list[str] = []
    cursor = 0
    for seg in unit.segments:
        pieces.append(blank[cursor : seg.start])
        pieces.append(seg.text)
        cursor = seg.start + len(seg.text)
    pieces.append(blank[cursor:])
    return SourceText("".join(pieces), source.path)


def unit_lines(unit: Unit) -> list[int]:
    """The 0-based lines of the file that `unit`'s segments cover, in order."""
    lines: list[int] = []
    for seg in unit.segments:
        first = max(seg.line, lines[-1] + 1) if lines else seg.line
        lines.extend(range(first, seg.line + seg.text.count("\n") + 1))
    return lines


def unit_key(context: str, unit: Unit) -> str:
    """The cache key of `unit`: its shape (its code lines, comments and trailing blanks cut), so
    an edit that only touches comments or blank lines finds the unit compiled; a positional
    unit: its exact text at its lines."""
    h = hashlib.sha256(context.encode())
    if not unit.positional:
        h.update(b"\0shape\0")
        h.update(unit.shape.encode())
        return h.hexdigest()
    for seg in unit.segments:
        h.update(f"\0{len(seg.text)}:{seg.line}\0".encode())
        h.update(seg.text.encode())
    return h.hexdigest()


def _libdevice_identity() -> str:
    """The libdevice a compile would link (its version: a new one changes the code; none or a
    broken one fails the units that call it, which must compile again once there is a good one)."""
    from tile_lsp.compiler.backend.cuda_tools import find_libdevice

    return _file_identity(find_libdevice())


def _file_identity(path: str | None) -> str:
    """A tool's or library's part of a cache key: its path, size and modification time."""
    if path is None:
        return "none"
    try:
        st = os.stat(path)
    except OSError:
        return path
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def _context(path: str, options: CompileOptions, emit: str, provenance: bool) -> str:
    return "\0".join(
        (__version__, compiler_fingerprint(), repr(options), emit, str(provenance), _ptxas_identity(options),
         _libdevice_identity(), path)
    )


# -- compiling ----------------------------------------------------------------------------------


def compile_source(
    source: SourceText,
    options: CompileOptions,
    emit: str = "ptx",
    *,
    provenance: bool = True,
    cache: EntryCache | None | bool = True,
    early: EarlyHook | None = None,
    max_size: int | None = None,
) -> CompileResult:
    """`pipeline.compile_source` with Tile IR compiled one entry at a time (`compile_by_entry`):
    each unit's outputs are cached in `cache` (True: the process's in-memory cache; False/None:
    no cache) and merged into one result, with `unit_stats` saying which units were compiled and
    which were taken from it. What a compile of the CLI, the editor and the daemon goes through."""
    store = process_cache() if cache is True else (cache or None)

    def by_entry(text: SourceText, opts: CompileOptions, stage: str, lines: bool, hook: EarlyHook | None) -> CompileResult | None:
        return compile_by_entry(text, opts, stage, lines, store, hook)

    return pipeline.compile_source(source, options, emit, provenance=provenance, by_entry=by_entry, early=early,
                                   max_size=max_size)


def compile_by_entry(
    source: SourceText,
    options: CompileOptions,
    emit: str,
    provenance: bool,
    cache: EntryCache | None,
    early: EarlyHook | None = None,
) -> CompileResult | None:
    """The file compiled unit by unit through `cache`; None when it must be compiled whole.
    `early` (pipeline.EarlyHook) is called when exactly one unit is compiled (an edit), with
    the file's diagnostics: the cached units' and that unit's through the ptx stage."""
    if options.target is None or options.device_debug:
        return None
    units = split_units(source)
    if units is None:
        return None
    started = time.perf_counter()
    unit_emit = "ptx" if emit == "cubin" and len(units) > 1 else emit
    context = _context(source.path, options, unit_emit, provenance)
    stats = UnitStats(units=[u.name for u in units])
    done: list[tuple[UnitResult, bool] | None] = []
    missing: list[tuple[int, Unit, str]] = []
    moving: list[tuple[int, UnitResult, Unit, str]] = []  # cached, at other positions now
    for unit in units:
        key = unit_key(context, unit)
        got, where = cache.get(key) if cache is not None else (None, "")
        if isinstance(got, UnitResult):
            (stats.from_memory if where == "memory" else stats.from_disk).append(unit.name)
            if got.layout != unit.layout and got.layout:
                moving.append((len(done), got, unit, key))
                got = relocate_diagnostics(got, unit)  # (its texts and maps: `move_all` below)
            done.append((got, False))
            continue
        missing.append((len(done), unit, key))
        done.append(None)

    def move_all() -> None:
        """The moved units' texts and line maps (~20-30 ms for attention's second entry): beside
        the edited unit's ptxas when one unit compiles (an edit), else here."""
        for slot, got, unit, key in moving:
            moved = relocate(got, unit, source, options)
            if cache is not None:
                cache.remember(key, moved)  # the next keystroke finds it where it is now
            done[slot] = (moved, False)
        moving.clear()

    early_cubin: list[RunningPtxas] = []  # the file's cubin, started beside the edited unit's ptxas
    if missing:
        blank = re.sub(r"[^\n]", " ", source.text)
        one = len(missing) == 1
        hook = _early_hook(early, done) if one else None
        beside: Callable[[], None] | None = move_all if one else None
        if one and emit == "cubin" and len(units) > 1:
            hook, beside = _start_file_cubin_beside(hook, move_all, done, missing[0][0], cache, context, options,
                                                    early_cubin)

        def compile_unit(unit: Unit) -> UnitResult:
            t0 = time.perf_counter()
            masked = masked_source(source, unit, blank)
            res = compile_whole(
                masked, options, unit_emit, provenance=provenance, before_ptxas=hook, beside_ptxas=beside,
                link_object=len(units) > 1, ref_lines=unit_lines(unit),
            )
            return _unit_result(res, unit, time.perf_counter() - t0, keep_cubin=len(units) == 1)

        try:
            compiled = _compile_all(compile_unit, [u for _, u, _ in missing])
        except BaseException:  # a cancel (or a bug): the file's ptxas started beside goes too
            for running in early_cubin:
                running.kill()
            raise
        for (slot, unit, key), unit_result in zip(missing, compiled, strict=True):
            stats.compiled.append(unit.name)
            for out in unit_result.stages:
                stats.stage_runs[out.name] = stats.stage_runs.get(out.name, 0) + 1
            if cache is not None and _cacheable(unit_result):
                cache.put(key, unit_result)
            done[slot] = (unit_result, True)
    move_all()
    result = merge_units(source, options, emit, [d for d in done if d is not None], provenance)
    started_cubin = early_cubin[0] if early_cubin else None
    if emit == "cubin" and len(units) > 1 and result.ok and result.stage("ptx") is not None:
        objects = [d[0].link_object for d in done if d is not None]
        if not (all(objects) and _linked_cubin(result, [o for o in objects if o], stats)):
            _merged_cubin(result, cache, context, stats, started_cubin)
        elif started_cubin is not None:
            started_cubin.kill()
    elif started_cubin is not None:  # the edited unit failed: its file has no cubin
        started_cubin.kill()
    stats.seconds = time.perf_counter() - started
    result.unit_stats = stats
    return result


def _early_hook(
    early: EarlyHook | None, done: list[tuple[UnitResult, bool] | None]
) -> Callable[[CompileResult], None] | None:
    """The one unit being compiled's before-ptxas hook: `early` with every unit's diagnostics,
    in file order, the compiling unit's so far in its slot (merged as `merge_units` merges)."""
    if early is None:
        return None

    def hook(partial: CompileResult) -> None:
        early(merged_diagnostics([d[0] if d is not None else partial for d in done]))

    return hook


def parallel_jobs() -> int:
    """How many units compile at once: the cores this process may use, or `TILE_LSP_JOBS`."""
    wanted = os.environ.get("TILE_LSP_JOBS", "")
    if wanted.isdigit() and int(wanted) > 0:
        return int(wanted)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _compile_all(compile_unit: Callable[[Unit], UnitResult], units: list[Unit]) -> list[UnitResult]:
    """`compile_unit` of each unit, in order. Two or more units, several cores and `fork`: each
    unit compiles in a forked child (`forked.Forked`, a snapshot with everything imported and
    warm), `parallel_jobs()` at a time; a child that fails hands its unit back to this process."""
    from tile_lsp.compiler import forked

    jobs = min(parallel_jobs(), len(units))
    if jobs < 2 or not forked.enabled():
        return [compile_unit(u) for u in units]
    results: list[UnitResult | None] = [None] * len(units)
    running: list[tuple[int, forked.Forked[UnitResult] | None]] = []

    def collect() -> None:
        index, job = running[0]
        try:
            # (a cancel, compiler/cancel.py, is seen while waiting: the children do not see it)
            results[index] = job.result(check=cancel.checkpoint) if job is not None else None
        except forked.ForkFailed:
            results[index] = None
        running.pop(0)
        if results[index] is None:
            results[index] = compile_unit(units[index])

    try:
        for index, unit in enumerate(units):
            if len(running) >= jobs:
                collect()
            try:
                job: forked.Forked[UnitResult] | None = forked.Forked(lambda unit=unit: compile_unit(unit))  # type: ignore[misc]
            except OSError:
                job = None
            running.append((index, job))
        while running:
            collect()
    except cancel.Cancelled:  # the children still running stop too
        for _, job in running:
            if job is not None:
                job.kill()
        raise
    return [r for r in results if r is not None]


def _unit_result(res: CompileResult, unit: Unit, seconds: float, keep_cubin: bool) -> UnitResult:
    stages = []
    link: bytes | None = None
    for out in res.stages:
        if out.name == "cuda_tile":  # the masked text: the refs of the unit's own lines only
            # (`ref_lines`; each ref names its line, where `relocate` and the merge place it)
            refs: list[SourceRef | None] | None = None
            if out.line_refs is not None:
                refs = [r for r in out.line_refs if r is not None]
            out = replace(out, text="", line_refs=refs)
        elif out.data is not None and not keep_cubin:
            if out.name == "cubin" and res.link_object:
                link = out.data
            out = replace(out, data=b"")
        stages.append(out)
    layouts = dict(getattr(res, "layouts", None) or {})
    return UnitResult(unit.layout, stages, list(res.diagnostics), dict(res.kernels), res.ptxas_command, seconds, layouts,
                      link)


def _cacheable(result: UnitResult) -> bool:
    return not any("timed out" in d.message or "cannot run ptxas" in d.message for d in result.diagnostics)


def _start_file_cubin_beside(
    hook: Callable[[CompileResult], None] | None,
    move_all: Callable[[], None],
    done: list[tuple[UnitResult, bool] | None],
    slot: int,
    cache: EntryCache | None,
    context: str,
    options: CompileOptions,
    started: list[RunningPtxas],
) -> tuple[Callable[[CompileResult], None], Callable[[], None]]:
    """(before-ptxas hook, beside-ptxas work) for the one unit an edit compiles in a file whose
    cubin is wanted: once that unit's ptxas runs, the file's merged PTX is known (the other
    units' PTX is cached), and ptxas on it starts beside (into `started`). `_merged_cubin`
    takes it when the merged PTX turns out the same, else stops it and runs its own. On two
    cores the two ptxas runs overlap instead of following each other."""
    from tile_lsp.compiler.backend import ptxas
    from tile_lsp.compiler.backend.ptx_link import merge_ptx

    partial: list[CompileResult] = []

    def before(result: CompileResult) -> None:
        partial.append(result)
        if hook is not None:
            hook(result)

    def beside() -> None:
        move_all()
        ptx = partial[0].stage("ptx") if partial else None
        target = partial[0].target if partial else None
        if ptx is None or target is None:
            return
        if ptxas.linkable(ptx.text, options) and all(d[0].link_object for d in done if d is not None):
            return  # (the file's cubin will be linked from the units' objects)
        texts: list[str] = []
        for i, d in enumerate(done):
            other = None if d is None else next((s.text for s in d[0].stages if s.name == "ptx"), None)
            if i == slot:
                texts.append(ptx.text)
            elif other is not None:
                texts.append(other)
            else:
                return  # (no unit but the edited one is still to come: not this case)
        text, _ = merge_ptx([(t, None) for t in texts])
        key = hashlib.sha256((context + "\0cubin\0" + text).encode()).hexdigest()
        if cache is not None and isinstance(cache.get(key)[0], tuple):
            return  # (that cubin is cached)
        started.append(ptxas.start_ptxas(text, target, options, name="file"))

    return before, beside


def _linked_cubin(result: CompileResult, objects: list[bytes], stats: UnitStats) -> bool:
    """The file's cubin from its units' `ptxas -ewp` objects, by nvlink (the kernels' code is
    byte for byte what ptxas makes of the merged PTX); False when nvlink could not (none beside
    ptxas, or a symbol two units define): the caller runs ptxas on the merged PTX."""
    from tile_lsp.compiler.backend import ptxas

    assert result.target is not None
    t0 = time.perf_counter()
    cubin, command, _ = ptxas.link_objects(objects, result.target, result.options)
    if cubin is None:
        return False
    stats.merged_ptxas = "linked"
    result.ptxas_command = command
    text = f"{len(cubin)} bytes of {result.target.chip} cubin (nvlink of {len(objects)} entries' objects)"
    result.stages.append(StageOutput("cubin", text, time.perf_counter() - t0, data=cubin))
    return True


def _merged_cubin(
    result: CompileResult, cache: EntryCache | None, context: str, stats: UnitStats, started: RunningPtxas | None = None
) -> None:
    """ptxas on the merged PTX for the file's cubin (cached by that PTX); `started`: a ptxas run
    started early on what the merged PTX was expected to be."""
    from tile_lsp.compiler.backend import ptxas

    ptx = result.stage("ptx")
    assert ptx is not None and result.target is not None
    key = hashlib.sha256((context + "\0cubin\0" + ptx.text).encode()).hexdigest()
    t0 = time.perf_counter()
    if started is not None and started.ptx != ptx.text:
        started.kill()
        started = None
    got, _ = cache.get(key) if cache is not None and started is None else (None, "")
    if isinstance(got, tuple):
        cubin, command = got
        stats.merged_ptxas = "cached"
    else:
        if ptxas.find_ptxas(result.options) is None:
            DiagnosticSink("ptxas", result.diagnostics).error(
                Span(0, min(1, len(result.source.text))), "ptxas not found (give --ptxas PATH, set CUDA_HOME, or put it on PATH)"
            )
            return
        res = started.finish() if started is not None else ptxas.run_ptxas(ptx.text, result.target, result.options)
        stats.merged_ptxas, stats.merged_ptxas_beside = "run", started is not None
        command = res.command
        if not res.ok or res.cubin is None:
            detail = res.diagnostics.strip() if res.diagnostics else f"no output\nreproduce with: {res.command}"
            message = f"ptxas rejected the merged PTX of the file's entries for {result.target.chip}:\n{detail}"
            DiagnosticSink("ptxas", result.diagnostics).error(Span(0, min(1, len(result.source.text))), message)
            return
        cubin = res.cubin
        if cache is not None:
            cache.put(key, (cubin, command))
    result.ptxas_command = command
    text = f"{len(cubin)} bytes of {result.target.chip} cubin"
    result.stages.append(StageOutput("cubin", text, time.perf_counter() - t0, data=cubin))


# -- moving a cached unit to where it is now -----------------------------------------------------


def _keep_string(m: re.Match[str]) -> str:
    return m.group(1) or ""


class _Shift:
    """Old -> new offsets and lines of a unit, code line by code line (a unit found by its key has
    the same code lines, comments and blank lines aside): a position maps with the code line it
    is on, or the last one before it. Positions before the unit's first line stay (the file
    start, where an implicit module is; for the file's first unit that is also its first line's
    place, so there it moves with the line)."""

    def __init__(self, old: tuple[tuple[int, int], ...], unit: Unit) -> None:
        new = unit.layout
        assert len(old) == len(new)
        self.new = new
        self.old_offsets = [o for o, _ in old]
        self.old_lines = [ln for _, ln in old]
        deltas = {(n[0] - o[0], n[1] - o[1]) for o, n in zip(old, new, strict=True)}
        # The usual move: an edit above the unit shifts all of it alike.
        self.uniform = next(iter(deltas)) if len(deltas) == 1 else None

    def offset(self, value: int) -> int:
        return self._moved(value, self.old_offsets, 0)

    def line(self, value: int) -> int:
        return self._moved(value, self.old_lines, 1)

    def _moved(self, value: int, olds: list[int], k: int) -> int:
        """`value` (an offset, k=0, or a line, k=1) moved with the code line it falls in; before
        the first code line (an implicit module at the file's start) it stays."""
        if value < olds[0]:
            return value
        if self.uniform is not None:
            return value + self.uniform[k]
        i = bisect.bisect_right(olds, value) - 1
        return self.new[i][k] + value - olds[i]

    def span(self, span: Span) -> Span:
        return Span(self.offset(span.start), self.offset(span.end))


def relocate_diagnostics(got: UnitResult, unit: Unit) -> UnitResult:
    """`got` with its diagnostics moved to `unit`'s positions (what the early diagnostics need),
    its texts, line maps and layouts not yet (`relocate` moves everything); `layout` stays `got`'s."""
    if got.layout == unit.layout or not got.layout:
        return got
    shift = _Shift(got.layout, unit)
    return replace(got, diagnostics=_moved_diagnostics(got.diagnostics, shift))


def _moved_diagnostics(diagnostics: list[Diagnostic], shift: _Shift) -> list[Diagnostic]:
    return [
        replace(d, span=shift.span(d.span), related=tuple(replace(r, span=shift.span(r.span)) for r in d.related))
        for d in diagnostics
    ]


def relocate(got: UnitResult, unit: Unit, source: SourceText, options: CompileOptions) -> UnitResult:
    """`got` moved from the positions it was compiled at to `unit`'s (the same when unmoved)."""
    if got.layout == unit.layout or not got.layout:
        return got
    shift = _Shift(got.layout, unit)
    path = source.path
    memo: dict[int, SourceRef | None] = {}

    def move_ref(ref: SourceRef | None) -> SourceRef | None:
        if ref is None:
            return None
        moved = memo.get(id(ref))
        if moved is None:
            if ref.offset is None:
                moved = ref if ref.path != path else SourceRef(ref.path, shift.line(ref.line), ref.column)
            else:
                span = shift.span(ref.span) if ref.span is not None else None
                moved = SourceRef(ref.path, shift.line(ref.line), ref.column, shift.offset(ref.offset), span)
            memo[id(ref)] = moved
        return moved

    def move_loc(m: re.Match[str]) -> str:
        if m.group(1) != path:
            return m.group(0)
        return f'"{m.group(1)}":{shift.line(int(m.group(2)) - 1) + 1}:{m.group(3)}'

    def move_line(m: re.Match[str]) -> str:
        line = int(m.group(2))
        return m.group(1) + (str(shift.line(line - 1) + 1) if line > 0 else "0")

    stages = []
    for out in got.stages:
        refs = [move_ref(r) for r in out.line_refs] if out.line_refs is not None else None
        if out.name == "cuda_tile" and refs is not None:  # a line's ref belongs at its new line
            placed: list[SourceRef | None] = [None] * len(source.line_starts())
            for ref in refs:
                if ref is not None and 0 <= ref.line < len(placed):
                    placed[ref.line] = ref
            refs = placed
        located = _LOC.sub(move_loc, out.located_text) if out.located_text else out.located_text
        text = out.text
        if options.lineinfo and out.name == "ptx":
            text = _PTX_LOC.sub(move_line, text)
        elif options.lineinfo and out.name == "llvm-ir":
            text = _IR_LINE.sub(move_line, text)
        stages.append(replace(out, text=text, located_text=located, line_refs=refs))
    diagnostics = _moved_diagnostics(got.diagnostics, shift)
    layouts = {shift.offset(at): text for at, text in got.layouts.items()}
    # (with line info the object's line table names the old lines: the file's cubin is then made
    # by ptxas on the merged PTX)
    link = None if options.lineinfo else got.link_object
    return replace(got, layout=unit.layout, stages=stages, diagnostics=diagnostics, layouts=layouts, link_object=link)
