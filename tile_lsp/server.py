"""The language server (pygls): handlers look up a snapshot, call a feature, convert.

Capabilities are declared here, once. Diagnostics are published per version, debounced,
never for a superseded version, and cleared on close. A failing handler logs through
window/logMessage and answers with an empty result.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import gc
import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from tile_lsp import __version__
from tile_lsp import protocol as proto
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.features import code_actions, completion, formatting, hover, navigation, semantic_tokens, symbols
from tile_lsp.session import Session, Settings, Snapshot

DEBOUNCE_S = 0.005  # coalesces keystroke bursts; small, since re-parsing one entry is cheap
log = logging.getLogger("tile_lsp")
SETTINGS_REQUEST = "tileLsp/settings"  # custom request: the settings in force, as JSON
F = TypeVar("F", bound=Callable[..., Any])

_COMPLETION_KIND = {
    "op": lsp.CompletionItemKind.Function,
    "value": lsp.CompletionItemKind.Variable,
    "type": lsp.CompletionItemKind.TypeParameter,
    "keyword": lsp.CompletionItemKind.Keyword,
    "symbol": lsp.CompletionItemKind.Reference,
}
_SYMBOL_KIND = {
    "module": lsp.SymbolKind.Module,
    "entry": lsp.SymbolKind.Function,
    "global": lsp.SymbolKind.Variable,
    "function": lsp.SymbolKind.Function,
}


def uri_to_path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


class TileServer:
    """tile-lsp's server: a pygls LanguageServer plus the document Session."""

    def __init__(self) -> None:
        self.ls = LanguageServer("tile-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
        self.session = Session()
        self.pending: dict[str, asyncio.Task[None]] = {}
        self._register()

    # -- plumbing ----------------------------------------------------------------
    def guarded(self, default: Callable[[], object]) -> Callable[[F], F]:
        """A handler that fails logs the traceback to the client and returns `default()`."""

        def wrap(fn: F) -> F:
            @functools.wraps(fn)
            def run(*args: Any) -> Any:
                try:
                    return fn(*args)
                except Exception:  # never let one request kill the server
                    self._log_failure()
                    return default()

            return cast(F, run)

        return wrap

    def _log_failure(self) -> None:
        text = traceback.format_exc()
        log.error(text)
        self.ls.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=text))

    def snapshot(self, uri: str) -> Snapshot | None:
        snap = self.session.get(uri)
        if snap is None:
            return None
        doc = self.ls.workspace.get_text_document(uri)
        if doc.version is not None and doc.version != snap.version:  # should not happen; be safe
            snap = self.session.update(uri, doc.version, doc.source, uri_to_path(uri))
        return snap

    def schedule_diagnostics(self, snap: Snapshot) -> None:
        old = self.pending.pop(snap.uri, None)
        if old is not None:
            old.cancel()
        self.pending[snap.uri] = asyncio.get_event_loop().create_task(self._publish_later(snap))

    async def _publish_later(self, snap: Snapshot) -> None:
        await asyncio.sleep(DEBOUNCE_S)
        if not self.session.is_latest(snap):
            return
        try:
            # Off the request loop: hovers and definitions keep being answered meanwhile.
            analysis = await asyncio.get_running_loop().run_in_executor(None, lambda: snap.analysis)
        except asyncio.CancelledError:
            raise
        except Exception:  # an analysis bug must not kill the server
            self._log_failure()
            return
        if not self.session.is_latest(snap):
            return  # a newer version arrived while we worked: its own task will publish
        diags = [proto.diagnostic(analysis.source, snap.uri, d) for d in analysis.diagnostics]
        self.ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=snap.uri, version=snap.version, diagnostics=diags)
        )

    def _open_or_change(self, uri: str) -> None:
        doc = self.ls.workspace.get_text_document(uri)
        snap = self.session.update(uri, doc.version or 0, doc.source, uri_to_path(uri))
        self.schedule_diagnostics(snap)

    # -- handlers -----------------------------------------------------------------
    def _register(self) -> None:  # noqa: C901 (one place that lists every capability)
        ls = self.ls
        empty: Callable[[], list[Any]] = list

        def none() -> None:
            return None

        @ls.feature(lsp.INITIALIZE)
        def initialize(params: lsp.InitializeParams) -> None:
            self.session.settings = Settings.from_json(params.initialization_options)

        @ls.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
        def did_change_configuration(params: lsp.DidChangeConfigurationParams) -> None:
            self.session.settings = Settings.from_json(params.settings, self.session.settings)

        @ls.feature(SETTINGS_REQUEST)
        def current_settings(params: Any) -> dict[str, Any]:
            """The settings in force, for clients and tests to confirm what the server took."""
            return dataclasses.asdict(self.session.settings)

        @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
        def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
            self._open_or_change(params.text_document.uri)

        @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
        def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
            self._open_or_change(params.text_document.uri)

        @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
        def did_close(params: lsp.DidCloseTextDocumentParams) -> None:
            uri = params.text_document.uri
            task = self.pending.pop(uri, None)
            if task is not None:
                task.cancel()
            self.session.close(uri)
            ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

        @ls.feature(lsp.TEXT_DOCUMENT_HOVER)
        @self.guarded(none)
        def on_hover(params: lsp.HoverParams) -> lsp.Hover | None:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return None
            doc = snap.analysis
            found = hover.hover(doc, proto.offset(doc.source, params.position))
            if found is None:
                return None
            text, span = found
            return lsp.Hover(
                contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                range=proto.to_range(doc.source, span),
            )

        @ls.feature(lsp.TEXT_DOCUMENT_DEFINITION)
        @self.guarded(empty)
        def on_definition(params: lsp.DefinitionParams) -> list[lsp.Location]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            doc = snap.analysis
            spans = navigation.definition(doc, proto.offset(doc.source, params.position))
            return [proto.location(doc.source, snap.uri, s) for s in spans]

        @ls.feature(lsp.TEXT_DOCUMENT_REFERENCES)
        @self.guarded(empty)
        def on_references(params: lsp.ReferenceParams) -> list[lsp.Location]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            doc = snap.analysis
            spans = navigation.references(
                doc, proto.offset(doc.source, params.position), params.context.include_declaration
            )
            return [proto.location(doc.source, snap.uri, s) for s in spans]

        @ls.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
        @self.guarded(empty)
        def on_highlight(params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            doc = snap.analysis
            occ = navigation.occurrences(doc, proto.offset(doc.source, params.position))
            return [
                lsp.DocumentHighlight(
                    range=proto.to_range(doc.source, o.span),
                    kind=lsp.DocumentHighlightKind.Write if o.is_def else lsp.DocumentHighlightKind.Read,
                )
                for o in occ
            ]

        @ls.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
        @self.guarded(none)
        def on_prepare_rename(params: lsp.PrepareRenameParams) -> lsp.PrepareRenamePlaceholder | None:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return None
            doc = snap.analysis
            found = navigation.prepare_rename(doc, proto.offset(doc.source, params.position))
            if found is None:
                return None
            span, text = found
            return lsp.PrepareRenamePlaceholder(range=proto.to_range(doc.source, span), placeholder=text)

        @ls.feature(lsp.TEXT_DOCUMENT_RENAME)
        def on_rename(params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return None
            doc = snap.analysis
            edits = navigation.rename(doc, proto.offset(doc.source, params.position), params.new_name)
            if isinstance(edits, str):
                raise ValueError(edits)  # pygls turns this into a JSON-RPC error the editor shows
            return lsp.WorkspaceEdit(
                changes={
                    snap.uri: [lsp.TextEdit(range=proto.to_range(doc.source, s), new_text=t) for s, t in edits]
                }
            )

        @ls.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
        @self.guarded(empty)
        def on_document_symbol(params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            doc = snap.analysis

            def convert(sym: symbols.Symbol) -> lsp.DocumentSymbol:
                return lsp.DocumentSymbol(
                    name=sym.name,
                    detail=sym.detail,
                    kind=_SYMBOL_KIND[sym.kind],
                    range=proto.to_range(doc.source, sym.span),
                    selection_range=proto.to_range(doc.source, sym.selection),
                    children=[convert(c) for c in sym.children],
                )

            return [convert(s) for s in symbols.document_symbols(doc)]

        @ls.feature(lsp.WORKSPACE_SYMBOL)
        @self.guarded(empty)
        def on_workspace_symbol(params: lsp.WorkspaceSymbolParams) -> list[lsp.SymbolInformation]:
            out: list[lsp.SymbolInformation] = []
            query = params.query.lower()
            for snap in list(self.session.documents.values()):
                doc = snap.analysis
                for sym, container in symbols.flatten(symbols.document_symbols(doc)):
                    if query in sym.name.lower():
                        out.append(
                            lsp.SymbolInformation(
                                name=sym.name,
                                kind=_SYMBOL_KIND[sym.kind],
                                location=proto.location(doc.source, snap.uri, sym.selection),
                                container_name=container,
                            )
                        )
            return out

        @ls.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
        @self.guarded(empty)
        def on_folding(params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            return [
                lsp.FoldingRange(start_line=a, end_line=b, kind=lsp.FoldingRangeKind.Region)
                for a, b in symbols.folding_ranges(snap.analysis)
            ]

        @ls.feature(
            lsp.TEXT_DOCUMENT_COMPLETION,
            lsp.CompletionOptions(trigger_characters=["%", "@", ":", "<", "!", " "]),
        )
        @self.guarded(none)
        def on_completion(params: lsp.CompletionParams) -> lsp.CompletionList | None:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return None
            doc = snap.analysis
            items = completion.complete(doc, proto.offset(doc.source, params.position))
            return lsp.CompletionList(
                is_incomplete=False,
                items=[
                    lsp.CompletionItem(
                        label=c.label,
                        kind=_COMPLETION_KIND.get(c.kind),
                        detail=c.detail or None,
                        insert_text=c.insert_text if c.replace is None else None,
                        # Replacing the typed word (sigil included) keeps `%`/`@` from doubling.
                        text_edit=lsp.TextEdit(
                            range=proto.to_range(doc.source, c.replace), new_text=c.insert_text or c.label
                        )
                        if c.replace is not None
                        else None,
                        sort_text=f"{i:04d}",  # the feature's order: nearest values first
                        documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=c.documentation)
                        if c.documentation
                        else None,
                    )
                    for i, c in enumerate(items)
                ],
            )

        legend = lsp.SemanticTokensLegend(
            token_types=semantic_tokens.TOKEN_TYPES, token_modifiers=semantic_tokens.TOKEN_MODIFIERS
        )

        @ls.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend)
        @self.guarded(lambda: lsp.SemanticTokens(data=[]))
        def on_semantic_tokens(params: lsp.SemanticTokensParams) -> lsp.SemanticTokens:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return lsp.SemanticTokens(data=[])
            doc = snap.analysis
            return lsp.SemanticTokens(data=proto.encode_semantic_tokens(doc.source, semantic_tokens.semantic_tokens(doc)))

        @ls.feature(lsp.TEXT_DOCUMENT_FORMATTING)
        async def on_formatting(params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            try:
                # Formatting re-parses twice to prove it is safe: seconds on huge files, so
                # it runs on a worker thread and other requests are served meanwhile.
                new = await asyncio.get_running_loop().run_in_executor(None, formatting.format_text, snap.text)
            except Exception:
                self._log_failure()
                return []
            if new is None or new == snap.text or not self.session.is_latest(snap):
                return []
            source = SourceText(snap.text)
            return [lsp.TextEdit(range=proto.to_range(source, Span(0, len(snap.text))), new_text=new)]

        @ls.feature(
            lsp.TEXT_DOCUMENT_CODE_ACTION,
            lsp.CodeActionOptions(
                code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]
            ),
        )
        @self.guarded(empty)
        def on_code_action(params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
            snap = self.snapshot(params.text_document.uri)
            if snap is None:
                return []
            doc = snap.analysis

            span = Span(proto.offset(doc.source, params.range.start), proto.offset(doc.source, params.range.end))
            only = [getattr(k, "value", k) for k in params.context.only or ()]
            out = []
            for fix in code_actions.quick_fixes(doc, span, snap.cache):
                if only and not any(fix.kind == k or fix.kind.startswith(f"{k}.") for k in only):
                    continue  # the client asked for other kinds (e.g. only refactors)
                edits = [lsp.TextEdit(range=proto.to_range(doc.source, s), new_text=t) for s, t in fix.edits]
                diags = [proto.diagnostic(doc.source, snap.uri, fix.diagnostic)] if fix.diagnostic else None
                out.append(
                    lsp.CodeAction(
                        title=fix.title,
                        kind=lsp.CodeActionKind(fix.kind),
                        diagnostics=diags,
                        edit=lsp.WorkspaceEdit(changes={snap.uri: edits}),
                        is_preferred=fix.preferred or None,
                    )
                )
            return out


def serve(tcp_port: int | None = None) -> None:
    """Run the server over stdio, or on 127.0.0.1:PORT with --tcp."""
    # The IR of open documents is a large, long-lived heap: full collections of it cost
    # 100+ ms on big files, so collect the oldest generation much less often.
    gc.set_threshold(50_000, 50, 100)
    server = TileServer()
    if tcp_port is not None:
        server.ls.start_tcp("127.0.0.1", tcp_port)
    else:
        server.ls.start_io()
