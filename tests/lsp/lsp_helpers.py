"""Helpers the end-to-end LSP tests share: a log of every publishDiagnostics, waiting for a
publish that satisfies a predicate, opening/changing documents, settings, tileLsp/viewStage."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

TIMEOUT_S = 90.0


def record_publishes(client: LanguageClient) -> list[lsp.PublishDiagnosticsParams]:
    """Every publishDiagnostics from now on, in arrival order (the client keeps only the last)."""
    log: list[lsp.PublishDiagnosticsParams] = []
    features = client.protocol.fm.features
    original = features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def recording(params: lsp.PublishDiagnosticsParams) -> Any:
        log.append(params)
        return original(params)

    features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = recording
    return log


def record_timeline(client: LanguageClient, *methods: str) -> list[tuple[str, Any]]:
    """publishDiagnostics and the server's `methods` notifications from now on, as (method,
    params) in arrival order."""
    log: list[tuple[str, Any]] = []
    features = client.protocol.fm.features
    original = features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def recording(params: lsp.PublishDiagnosticsParams) -> Any:
        log.append((lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params))
        return original(params)

    features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = recording
    for method in methods:
        client.feature(method)(lambda params, method=method: log.append((method, params)))
    return log


async def until_published(
    log: list[lsp.PublishDiagnosticsParams], uri: str, version: int, pred: Any, timeout: float = TIMEOUT_S
) -> lsp.PublishDiagnosticsParams:
    """The first publish of `uri`/`version` whose diagnostics satisfy `pred`, waiting for it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for params in log:
            if params.uri == uri and params.version == version and pred(params.diagnostics):
                return params
        await asyncio.sleep(0.01)
    seen = [(p.version, [d.message for d in p.diagnostics]) for p in log if p.uri == uri]
    raise AssertionError(f"no matching publish for {uri} v{version}: {seen}")


async def until_listing(folder: Any, expected: list[str], timeout: float = TIMEOUT_S) -> list[str]:
    """The sorted names in `folder` once they are exactly `expected` (writes there go through a
    temporary file renamed into place, so a listing taken too early can show it), or the last
    listing seen when `timeout` passes."""
    wanted = sorted(expected)
    deadline = time.monotonic() + timeout
    listing: list[str] = []
    while time.monotonic() < deadline:
        listing = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
        if listing == wanted:
            break
        await asyncio.sleep(0.02)
    return listing


def open_document(client: LanguageClient, uri: str, text: str, version: int = 1, language: str = "mlir") -> None:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(uri=uri, language_id=language, version=version, text=text))
    )


def replace_all(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def configure(client: LanguageClient, **settings: Any) -> None:
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(settings={"tileLsp": settings}))


async def view_stage(client: LanguageClient, uri: str, stage: str) -> dict[str, Any]:
    found = await client.protocol.send_request_async("tileLsp/viewStage", {"uri": uri, "stage": stage})
    return found if isinstance(found, dict) else found._asdict()


def doc_id(uri: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=uri)
