"""The document store: immutable per-version snapshots, analysed lazily and memoized.

Only the store mutates; features read a snapshot. Editor-agnostic (no LSP types).
"""

from __future__ import annotations

import dataclasses
import functools
import os
import stat
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tile_lsp.compiler import limits
from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, Stopped, analyze
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target, target_error
from tile_lsp.features.stage_links import is_lowered_path
from tile_lsp.textsync import Edit, compose

# Settings that name a program the server runs: taken only when `program_refusal` accepts them.
PROGRAM_SETTINGS = ("ptxasPath",)
DEFAULT_PREVIEW_DIR = ".tile-lsp"


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def program_refusal(path: Any, untrusted: Iterable[str]) -> str | None:
    """Why a setting may not name `path` as a program to run (None: it may). Settings can come
    from a cloned repository (workspace settings, `.nvim.lua`, `.vscode/settings.json`), so the
    program must be an absolute path to a regular executable file outside every `untrusted`
    folder (the workspace folders, the folders of open documents), and it and every folder
    above it (of the path as given and as resolved) must belong to root or to this user and be
    writable by nobody else (a sticky folder of root's like /tmp excepted: its other users
    cannot replace what is ours in it)."""
    if not isinstance(path, str) or not os.path.isabs(path):
        return "it is not an absolute path"
    given = os.path.normpath(path)
    real = os.path.realpath(given)
    try:
        st = os.stat(real)
    except OSError as exc:
        return f"it cannot be read ({exc.strerror})"
    if not stat.S_ISREG(st.st_mode) or not os.access(real, os.X_OK):
        return "it is not an executable file"
    for folder in untrusted:
        if not os.path.isabs(folder):
            continue
        for candidate, root in ((given, os.path.normpath(folder)), (real, os.path.realpath(folder))):
            if _inside(candidate, root):
                return f"it is inside {folder}, a workspace or document folder (whose settings a repository can set)"
    me = os.geteuid()
    checked: set[str] = set()
    for start in (real, given):
        node = start
        while True:
            if node not in checked:
                checked.add(node)
                try:
                    st = os.stat(node)
                except OSError as exc:
                    return f"{node} cannot be read ({exc.strerror})"
                if st.st_uid not in (0, me):
                    return f"{node} belongs to uid {st.st_uid}, neither root nor this user ({me})"
                # (a sticky folder of root's, /tmp, is fine above: nobody else can replace our entry)
                sticky = stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX and st.st_uid == 0
                if st.st_mode & 0o022 and not sticky:
                    return f"{node} is writable by other users (mode {stat.S_IMODE(st.st_mode):04o})"
            parent = os.path.dirname(node)
            if parent == node:
                break
            node = parent
    return None


def preview_dir_refusal(value: Any) -> str | None:
    """Why `value` may not be the previewDir (None: it may): a relative folder below the saved
    file's folder, so no absolute path, no `~`, no `..` component ("": the default)."""
    if value == "":
        return None
    if not isinstance(value, str) or "\0" in value:
        return "it is not a folder name"
    if os.path.isabs(value) or value.startswith("~"):
        return "it must be a relative path (taken from the saved file's folder), not an absolute or ~ one"
    if ".." in value.replace("\\", "/").split("/"):
        return "it must stay below the saved file's folder (no '..')"
    return None


@dataclass(frozen=True)
class Settings:
    """The server's settings (initializationOptions / didChangeConfiguration), schema of record."""

    gpuName: str | None = None  # noqa: N815 (names are the settings' JSON keys)
    computeCapability: int | None = None  # noqa: N815
    optLevel: int = 3  # noqa: N815
    lineinfo: bool = True
    ptxasPath: str | None = None  # noqa: N815
    previewOnSave: bool = True  # noqa: N815
    previewDir: str = ".tile-lsp"  # noqa: N815 (relative: next to the saved file)
    pipelineTimeout: float = 30.0  # noqa: N815 (seconds per background compile)
    # Bytes: a bigger file gets front-end features only (no background compile), one 8 times
    # bigger not even those (tile_lsp/compiler/limits.py).
    maxFileSize: int = 2 << 20  # noqa: N815

    def compile_options(self) -> tuple[CompileOptions, str | None]:
        """The compile options these settings give, and why the target is invalid (or None).
        No target at all is valid here: the pipeline reports it with the seed's diagnostic."""
        cc: int | None = None
        error: str | None = None
        raw = self.computeCapability
        if raw is not None:
            try:
                cc = int(raw)
            except (TypeError, ValueError):
                error = f"tileLsp.computeCapability {raw!r} is not a number"
        target = None
        if error is None and (self.gpuName or cc is not None):
            target = Target.resolve(self.gpuName or None, cc)
            if target is None:
                error = target_error(
                    self.gpuName or None, cc, gpu_option="tileLsp.gpuName", cc_option="tileLsp.computeCapability"
                ) or f"tileLsp.gpuName {self.gpuName!r} and tileLsp.computeCapability {cc} disagree"
        level = self.optLevel if isinstance(self.optLevel, int) and 0 <= self.optLevel <= 3 else 3
        timeout = self.pipelineTimeout  # (ptxas is killed within the compile's own time)
        options = CompileOptions(target=target, opt_level=level, lineinfo=bool(self.lineinfo), ptxas=self.ptxasPath or None,
                                 ptxas_timeout=float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else 30.0)
        return options, error

    @classmethod
    def from_json(cls, data: Any, base: Settings | None = None) -> Settings:
        """Known keys from a (possibly nested under `tileLsp`) JSON object; others ignored."""
        base = base or cls()
        if isinstance(data, dict) and isinstance(data.get("tileLsp"), dict):
            data = data["tileLsp"]
        if not isinstance(data, dict):
            return base
        values = {k: getattr(base, k) for k in cls.__dataclass_fields__}
        for key, spec in cls.__dataclass_fields__.items():
            if key not in data:
                continue
            value, default = data[key], spec.default
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)  # JSON has one number type: 5 is a fine timeout
            if value is None:  # null: the schema's default
                values[key] = default
            elif default is None or (
                isinstance(value, type(default)) and isinstance(value, bool) == isinstance(default, bool)
            ):
                values[key] = value
        return cls(**values)

    def checked(self, untrusted: Iterable[str]) -> tuple[Settings, list[str]]:
        """These settings with every refused program path (`program_refusal`, against the
        `untrusted` folders) and a refused previewDir (`preview_dir_refusal`) back at their
        defaults, and one line per refusal (for a warning)."""
        folders = list(untrusted)
        changes: dict[str, Any] = {}
        notes: list[str] = []
        for key in PROGRAM_SETTINGS:
            value = getattr(self, key)
            if value is None:
                continue
            why = program_refusal(value, folders)
            if why is not None:
                changes[key] = None
                notes.append(
                    f"tile-lsp: tileLsp.{key} {value!r} refused: {why}; the default search is used instead "
                    f"(set it in your user settings to an executable outside the workspace)"
                )
        why = preview_dir_refusal(self.previewDir)
        if why is not None:
            changes["previewDir"] = DEFAULT_PREVIEW_DIR
            notes.append(
                f"tile-lsp: tileLsp.previewDir {self.previewDir!r} refused: {why}; using {DEFAULT_PREVIEW_DIR!r}"
            )
        return (dataclasses.replace(self, **changes) if changes else self), notes


_stoppable = threading.local()  # .on: this thread's analysis stops once its version is superseded


@dataclass
class Snapshot:
    """One version of one document under one set of settings (a change of the settings makes new
    snapshots of the open documents: `Session.resettle`); `analysis` is computed once, on first
    use, and `compile_options` derived from `settings` once."""

    uri: str
    version: int
    text: str
    path: str
    cache: ItemCache
    settings: Settings = field(default_factory=lambda: Settings())
    _analysis: DocumentAnalysis | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # A newer version (or the close) replaced this one in the session: background work on it stops.
    superseded: bool = field(default=False, repr=False)
    _session: Session | None = field(default=None, repr=False)
    # The text as a SourceText (its line index spliced from the previous version's), if the
    # editor's change made one; and the analysed version it is an edit of, with that edit
    # (`textsync.Edit`, in the base's offsets): the analysis starts from the base's. Dropped once
    # this version is analysed, so no chain of old versions stays alive.
    source: SourceText | None = field(default=None, repr=False)
    base: Snapshot | None = field(default=None, repr=False)
    edit: Edit | None = field(default=None, repr=False)

    @property
    def analysis(self) -> DocumentAnalysis:
        if self._analysis is None:
            stoppable = getattr(_stoppable, "on", False)
            with self._lock:
                if self._analysis is None:
                    if is_lowered_path(self.path):  # PTX, LLVM IR, stage dumps: links, no parse
                        self._analysis = DocumentAnalysis(self.source or SourceText(self.text, self.path), [])
                    else:
                        cancelled = (lambda: self.superseded) if stoppable else None
                        limit = limits.setting(self.settings.maxFileSize)
                        base = self.base
                        previous = (base._analysis, self.edit) if base is not None and base._analysis is not None and self.edit is not None else None
                        self._analysis = analyze(self.text, self.path, self.cache, cancelled=cancelled, max_file_size=limit,
                                                 source=self.source, previous=previous)
                    self.base = None
                    if self._session is not None:
                        self._session.analysed(self, self._analysis)
        return self._analysis

    @property
    def text_source(self) -> SourceText:
        """The text as a SourceText (the session gives every snapshot one)."""
        return self.source if self.source is not None else SourceText(self.text, self.path)

    @functools.cached_property
    def compile_options(self) -> tuple[CompileOptions, str | None]:
        """`settings.compile_options()`: the options this version compiles with, and why the
        settings' target is invalid (None: valid)."""
        return self.settings.compile_options()

    def analysis_unless_superseded(self) -> DocumentAnalysis | None:
        """The analysis, or None when this version is (or, between two item parses, becomes)
        superseded: what background work calls, so that no request waits behind the analysis
        of a version nobody will look at. (Requests use `analysis`, which always finishes.)"""
        if self.superseded and self._analysis is None:
            return None
        _stoppable.on = True
        try:
            return self.analysis
        except Stopped:
            return None
        finally:
            _stoppable.on = False


class Session:
    """Open documents by URI (latest snapshot each) plus the shared item cache, whose entries
    the documents' latest analyses use are pinned there (ItemCache.pin)."""

    def __init__(self) -> None:
        self.cache = ItemCache()
        self.documents: dict[str, Snapshot] = {}
        self.settings = Settings()

    def update(
        self, uri: str, version: int, text: str, path: str, source: SourceText | None = None, edit: Edit | None = None
    ) -> Snapshot:
        """A new version; `source` and `edit` (what the editor's change did to the current
        version's text, `textsync.apply_source_changes`) let its analysis start from the last
        analysed version's."""
        if source is None or source.text != text:
            source = SourceText(text, path)  # (its line index is built on first use, then spliced by edits)
        snap = Snapshot(uri, version, text, path, self.cache, self.settings, _session=self, source=source)
        old = self.documents.get(uri)
        if old is not None and edit is not None and version > old.version and old.settings.maxFileSize == self.settings.maxFileSize:
            if old._analysis is not None:
                snap.base, snap.edit = old, edit
            elif old.base is not None and old.edit is not None:  # (not analysed: an edit of its base)
                snap.base, snap.edit = old.base, compose(old.edit, edit, old.edit[2] - old.edit[1])
        if old is not None:
            old.superseded = True
        if old is None or version < old.version:  # opened (again): no older version's pins stand
            self.cache.unpin(uri)
        self.documents[uri] = snap
        return snap

    def resettle(self, settings: Settings) -> list[Snapshot]:
        """New settings: every open document gets a new snapshot under them (same version and
        text; the old ones are superseded, so their background work stops and nothing of theirs
        is published). Its analysis is kept where the file-size limit, the one setting it reads,
        is the same. Returns the new snapshots."""
        self.settings = settings
        fresh: list[Snapshot] = []
        for uri, old in list(self.documents.items()):
            snap = Snapshot(uri, old.version, old.text, old.path, self.cache, settings, _session=self, source=old.source)
            if old._analysis is not None and old.settings.maxFileSize == settings.maxFileSize:
                snap._analysis = old._analysis
            old.superseded = True
            self.documents[uri] = snap
            fresh.append(snap)
        return fresh

    def analysed(self, snap: Snapshot, analysis: DocumentAnalysis) -> None:
        """A snapshot's analysis is done: the latest one's items are the document's pins."""
        if self.documents.get(snap.uri) is snap:
            self.cache.pin(snap.uri, snap.version, (item.result for item in analysis.items))

    def close(self, uri: str) -> None:
        old = self.documents.pop(uri, None)
        if old is not None:
            old.superseded = True
        self.cache.unpin(uri)

    def get(self, uri: str) -> Snapshot | None:
        return self.documents.get(uri)

    def is_latest(self, snap: Snapshot) -> bool:
        return self.documents.get(snap.uri) is snap
