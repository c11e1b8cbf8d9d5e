"""The document store: immutable per-version snapshots, analysed lazily and memoized.

Only the store mutates; features read a snapshot. Editor-agnostic (no LSP types).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, analyze


@dataclass(frozen=True)
class Settings:
    """The server's settings (initializationOptions / didChangeConfiguration), schema of record."""

    gpuName: str | None = None  # noqa: N815 (names are the settings' JSON keys)
    computeCapability: int | None = None  # noqa: N815
    optLevel: int = 3  # noqa: N815
    lineinfo: bool = True
    ptxasPath: str | None = None  # noqa: N815
    previewOnSave: bool = True  # noqa: N815
    previewDir: str = ".tile-lsp"  # noqa: N815

    @classmethod
    def from_json(cls, data: Any, base: Settings | None = None) -> Settings:
        """Known keys from a (possibly nested under `tileLsp`) JSON object; others ignored."""
        base = base or cls()
        if isinstance(data, dict) and isinstance(data.get("tileLsp"), dict):
            data = data["tileLsp"]
        if not isinstance(data, dict):
            return base
        values = {k: getattr(base, k) for k in cls.__dataclass_fields__}
        for key, default in values.items():
            if key in data and (data[key] is None or isinstance(data[key], type(default) if default is not None else object)):
                values[key] = data[key]
        return cls(**values)


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

    @property
    def analysis(self) -> DocumentAnalysis:
        if self._analysis is None:
            with self._lock:
                if self._analysis is None:
                    self._analysis = analyze(self.text, self.path, self.cache)
        return self._analysis


class Session:
    """Open documents by URI (latest snapshot each) plus the shared item cache."""

    def __init__(self) -> None:
        self.cache = ItemCache()
        self.documents: dict[str, Snapshot] = {}
        self.settings = Settings()

    def update(self, uri: str, version: int, text: str, path: str) -> Snapshot:
        snap = Snapshot(uri, version, text, path, self.cache)
        self.documents[uri] = snap
        return snap

    def close(self, uri: str) -> None:
        self.documents.pop(uri, None)

    def get(self, uri: str) -> Snapshot | None:
        return self.documents.get(uri)

    def is_latest(self, snap: Snapshot) -> bool:
        return self.documents.get(snap.uri) is snap
