"""The document store: immutable per-version snapshots, analysed lazily and memoized.

Only the store mutates; features read a snapshot. Editor-agnostic (no LSP types).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, Stopped, analyze
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from tile_lsp.features.stage_links import is_lowered_path


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
                error = (
                    f"tileLsp.gpuName {self.gpuName!r} and tileLsp.computeCapability {cc} disagree"
                    if self.gpuName and cc is not None and Target.parse_gpu_name(self.gpuName) is not None
                    else f"tileLsp.gpuName {self.gpuName!r} is not a GPU name like sm_90a"
                    if self.gpuName
                    else f"tileLsp.computeCapability {cc} is not a compute capability like 90"
                )
        level = self.optLevel if isinstance(self.optLevel, int) and 0 <= self.optLevel <= 3 else 3
        options = CompileOptions(target=target, opt_level=level, lineinfo=bool(self.lineinfo), ptxas=self.ptxasPath or None)
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


_stoppable = threading.local()  # .on: this thread's analysis stops once its version is superseded


@dataclass
class Snapshot:
    """One version of one document; `analysis` is computed once, on first use."""

    uri: str
    version: int
    text: str
    path: str
    cache: ItemCache
    _analysis: DocumentAnalysis | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # A newer version (or the close) replaced this one in the session: background work on it stops.
    superseded: bool = field(default=False, repr=False)
    _session: Session | None = field(default=None, repr=False)

    @property
    def analysis(self) -> DocumentAnalysis:
        if self._analysis is None:
            stoppable = getattr(_stoppable, "on", False)
            with self._lock:
                if self._analysis is None:
                    if is_lowered_path(self.path):  # PTX, LLVM IR, stage dumps: links, no parse
                        self._analysis = DocumentAnalysis(SourceText(self.text, self.path), [])
                    else:
                        cancelled = (lambda: self.superseded) if stoppable else None
                        self._analysis = analyze(self.text, self.path, self.cache, cancelled=cancelled)
                    if self._session is not None:
                        self._session.analysed(self, self._analysis)
        return self._analysis

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

    def update(self, uri: str, version: int, text: str, path: str) -> Snapshot:
        snap = Snapshot(uri, version, text, path, self.cache, _session=self)
        old = self.documents.get(uri)
        if old is not None:
            old.superseded = True
        if old is None or version < old.version:  # opened (again): no older version's pins stand
            self.cache.unpin(uri)
        self.documents[uri] = snap
        return snap

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
