"""The language server: pygls protocol glue over the facade (`facade.py`) and the analysis host
(`host.py`), in the manner of MLIR's LSPServer over MLIRServer.

Every capability is declared here, once (`REQUESTS`, `COMMANDS` and the notifications in
`TileServer._register`); each handler only hands its params to a facade method. The server
keeps its own text of each document (`tile_lsp.textsync` through `AnalysisHost.open_or_change`),
maps a request superseded by an edit to ContentModified (`jobs.Superseded`), and tells the
host's `Client` calls to pygls (`_PyglsClient`). See docs/pipeline-in-the-editor.md for what the
pipeline adds to diagnostics, hover, lenses, previews and the cross-stage links.
"""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
import logging
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from tile_lsp import __version__
from tile_lsp import protocol as proto
from tile_lsp.facade import Facade
from tile_lsp.features import bytecode_view, semantic_tokens
from tile_lsp.features import pipeline_view as pview
from tile_lsp.host import PIPELINE_STATUS_NOTIFICATION, AnalysisHost, uri_to_path
from tile_lsp.jobs import Jobs, Superseded

log = logging.getLogger("tile_lsp")
SETTINGS_REQUEST = "tileLsp/settings"  # custom request: the settings in force, as JSON
# custom request {uri} -> {uri, version, text} (null: not open): the server's own copy of a
# document, for clients and fuzzers to check that text sync agrees with the editor's
DOCUMENT_TEXT_REQUEST = "tileLsp/documentText"
VIEW_STAGE_REQUEST = "tileLsp/viewStage"  # {uri, stage} -> {output, stage, seconds, ok, diagnostics}
__all__ = ["PIPELINE_STATUS_NOTIFICATION", "TileServer", "serve"]

# (method, registration options or None, the facade's method answering it)
REQUESTS: list[tuple[str, Any, str]] = [
    (lsp.TEXT_DOCUMENT_HOVER, None, "hover"),
    (lsp.TEXT_DOCUMENT_DEFINITION, None, "definition"),
    (lsp.TEXT_DOCUMENT_REFERENCES, None, "references"),
    (lsp.TEXT_DOCUMENT_IMPLEMENTATION, None, "implementation"),
    (lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, None, "highlight"),
    (lsp.TEXT_DOCUMENT_PREPARE_RENAME, None, "prepare_rename"),
    (lsp.TEXT_DOCUMENT_RENAME, None, "rename"),
    (lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL, None, "document_symbols"),
    (lsp.WORKSPACE_SYMBOL, None, "workspace_symbols"),
    (lsp.TEXT_DOCUMENT_FOLDING_RANGE, None, "folding"),
    (lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["%", "@", ":", "<", "!", " "]), "completion"),
    (
        lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        lsp.SemanticTokensLegend(token_types=semantic_tokens.TOKEN_TYPES, token_modifiers=semantic_tokens.TOKEN_MODIFIERS),
        "semantic_tokens",
    ),
    (lsp.TEXT_DOCUMENT_FORMATTING, None, "formatting"),
    (
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, lsp.CodeActionKind.RefactorRewrite]),
        "code_actions",
    ),
    (lsp.TEXT_DOCUMENT_CODE_LENS, lsp.CodeLensOptions(resolve_provider=False), "code_lenses"),
    (VIEW_STAGE_REQUEST, None, "view_stage"),
    (bytecode_view.BYTECODE_TEXT_REQUEST, None, "bytecode_text"),
    (SETTINGS_REQUEST, None, "settings"),
    (DOCUMENT_TEXT_REQUEST, None, "document_text"),
]
# workspace/executeCommand NAME [args]: the facade's method, given the first argument
COMMANDS: list[tuple[str, str]] = [
    (pview.VIEW_STAGE, "view_stage"),  # [{uri, stage, show?}]
    (bytecode_view.SAVE_AS_BYTECODE, "save_as_bytecode"),  # [{uri, path, version?}]
]


class _OwnTextProtocol(LanguageServerProtocol):
    """pygls's protocol without its text documents: the server keeps its own. pygls's
    TextDocument breaks lines with `str.splitlines` (at \\f, U+2028, ... too), so edits after a
    form feed landed a line too high; and an update it failed skipped our didChange handler.
    Plain functions, not pygls's generators: pygls keeps the future of every notification a
    generator handles (`_request_futures`, never emptied): ~1 KB for each didChange, for the life
    of the server. (Our did* handlers are plain functions.)"""

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        """As pygls's, but a request dropped because its document changed (`Superseded`) is
        answered ContentModified without the traceback pygls logs for every error answer (the
        LSP answer for a result made stale by an edit: VS Code and Neovim ask again, silently)."""
        if not future.cancelled() and isinstance(future.exception(), Superseded):
            self._request_futures.pop(msg_id, None)
            error = JsonRpcContentModified("the document changed before this request was served")
            self._send_response(msg_id, error=error.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def send_json(self, body: str) -> None:
        """A message already encoded as (ASCII) JSON, framed as pygls frames its own."""
        if self.writer is None:
            return
        header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
        result = self.writer.write((header + body if self._include_headers else body).encode(self.CHARSET))
        if inspect.isawaitable(result):
            asyncio.ensure_future(result)

    def _user(self, method: str, params: Any) -> Any:
        handler = self.fm.features.get(method)
        return handler(params) if handler is not None else None

    @lsp_method(lsp.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: lsp.DidOpenTextDocumentParams) -> Any:
        return self._user(lsp.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams) -> Any:
        return self._user(lsp.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: lsp.DidCloseTextDocumentParams) -> Any:
        return self._user(lsp.TEXT_DOCUMENT_DID_CLOSE, params)


class _PyglsClient:
    """The host's `Client`, over a pygls LanguageServer."""

    def __init__(self, ls: LanguageServer) -> None:
        self.ls = ls
        # uri -> id(diagnostic) -> (diagnostic, its JSON): the host hands the same lsp.Diagnostic
        # objects again for what an edit did not change (protocol.FrontEndDiagnostics), so a
        # publish encodes only what is new (a 50,000-line file's 1,282: ~13 ms with pygls's encoder)
        self._encoded: dict[str, dict[int, tuple[lsp.Diagnostic, str]]] = {}

    def publish(self, params: lsp.PublishDiagnosticsParams) -> None:
        protocol = self.ls.protocol
        if not isinstance(protocol, _OwnTextProtocol):
            self.ls.text_document_publish_diagnostics(params)
            return
        old = self._encoded.get(params.uri, {})
        new: dict[int, tuple[lsp.Diagnostic, str]] = {}
        parts = []
        for d in params.diagnostics:
            hit = old.get(id(d))
            if hit is None or hit[0] is not d:
                hit = (d, json.dumps(proto.unstructure(d), separators=(",", ":")))
            new[id(d)] = hit
            parts.append(hit[1])
        if params.diagnostics:
            self._encoded[params.uri] = new
        else:
            self._encoded.pop(params.uri, None)
        head = {"uri": params.uri} if params.version is None else {"uri": params.uri, "version": params.version}
        params_json = json.dumps(head, separators=(",", ":"))[:-1] + ',"diagnostics":[' + ",".join(parts) + "]}"
        protocol.send_json('{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":' + params_json + "}")

    def notify(self, method: str, params: Any) -> None:
        self.ls.protocol.notify(method, params)

    def show_message(self, kind: lsp.MessageType, text: str) -> None:
        self.ls.window_show_message(lsp.ShowMessageParams(type=kind, message=text))

    def log_message(self, kind: lsp.MessageType, text: str) -> None:
        self.ls.window_log_message(lsp.LogMessageParams(type=kind, message=text))

    def can_show_documents(self) -> bool:
        caps = self.ls.client_capabilities
        return caps is not None and caps.window is not None and caps.window.show_document is not None

    def show_document(self, uri: str) -> None:
        self.ls.window_show_document(lsp.ShowDocumentParams(uri=uri, external=False, take_focus=False))

    def can_refresh_code_lenses(self) -> bool:
        caps = self.ls.client_capabilities
        workspace = caps.workspace if caps is not None else None
        return bool(workspace is not None and workspace.code_lens is not None and workspace.code_lens.refresh_support)

    def refresh_code_lenses(self) -> None:
        if self.can_refresh_code_lenses():
            self.ls.workspace_code_lens_refresh(None)

    def workspace_folders(self) -> list[str]:
        """rootUri/rootPath and workspaceFolders, as paths."""
        try:
            workspace = self.ls.workspace
        except Exception:  # before initialize
            return []
        folders = [workspace.root_path] if workspace.root_path else []
        return folders + [uri_to_path(f.uri) for f in workspace.folders.values()]


class TileServer:
    """tile-lsp's server: a pygls LanguageServer over the host and its facade."""

    def __init__(self, *, pipeline: bool = True) -> None:
        self.ls = LanguageServer(
            "tile-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental, protocol_cls=_OwnTextProtocol
        )
        self.host = AnalysisHost(_PyglsClient(self.ls), compile_documents=pipeline)
        self.jobs = Jobs(self.host.snapshot, self.host.log_failure)
        self.facade = Facade(self.host, self.jobs)
        self._register()

    def _register(self) -> None:
        ls, host, facade = self.ls, self.host, self.facade
        for method, options, name in REQUESTS:
            ls.feature(method, options)(_handler(getattr(facade, name)))
        for command, name in COMMANDS:
            ls.command(command)(_first_argument(getattr(facade, name)))

        @ls.feature(lsp.INITIALIZE)
        def initialize(params: lsp.InitializeParams) -> None:
            # (over TCP the transport has taken the token out of the options: tile_lsp/transport.py)
            host.initialize(params.initialization_options)
            # pygls answers the client's first offered encoding it knows (utf-8/16/32), else utf-16
            proto.set_position_encoding(ls.workspace.position_encoding)

        @ls.command(pview.SET_GPU_NAME)
        def set_gpu_name(*args: Any) -> dict[str, Any]:
            """[chip]: the target for this session."""
            return host.set_gpu_name(args[0] if args and isinstance(args[0], str) else pview.FIX_CHIPS[0])

        @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
        def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
            host.open_or_change(params.text_document.uri, params.text_document.version, params.text_document.text)

        @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
        def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
            uri = params.text_document.uri
            old = host.session.get(uri)
            if old is None:  # never opened (or closed): there is no text to apply the edits to
                log.warning("didChange for %s, which is not open: ignored", uri)
                return
            source, edit = proto.apply_content_changes(old.text_source, params.content_changes)
            host.open_or_change(uri, params.text_document.version, source.text, source, edit)

        # (plain functions: pygls keeps the future of every notification a coroutine handles)
        ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(lambda params: host.close(params.text_document.uri))
        ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))(lambda params: host.saved(params.text_document.uri))
        ls.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)(lambda params: host.change_settings(params.settings))
        ls.feature(lsp.SHUTDOWN)(lambda params: host.shutdown())


def _handler(method: Any) -> Any:
    """A plain function calling `method` (pygls marks its handlers with attributes, which a bound
    method cannot take), async if the method is."""

    async def answer_async(params: Any) -> Any:
        return await method(params)

    def answer(params: Any) -> Any:
        return method(params)

    chosen = answer_async if inspect.iscoroutinefunction(method) else answer
    chosen.__name__ = chosen.__qualname__ = getattr(method, "__name__", "handler")
    return chosen


def _first_argument(method: Any) -> Any:
    """A command handler (pygls passes the command's arguments) calling `method(arguments[0])`."""

    async def command(*args: Any) -> Any:
        return await method(args[0] if args else {})

    return command


def serve(tcp_port: int | None = None, token_file: str | None = None, *, pipeline: bool = True) -> None:
    """Run the server over stdio, or on 127.0.0.1:PORT with --tcp for the one client that
    sends the token (`tile_lsp/transport.py`; `token_file`: the user's own, else a new one).
    `pipeline` False: front-end features only, no compiles (`serve --no-pipeline`)."""
    # The IR of open documents is a large, long-lived heap: full collections of it cost
    # 100+ ms on big files, so collect the oldest generation much less often (threshold 100).
    # The youngest stays small: a collection stops every thread, and one of 50,000 young
    # objects (each edit's parse is cyclic garbage once superseded) took 100-220 ms, a pause
    # every request in flight waited out (fuzz_lsp: p95 500 ms over 10,000 edits); of 2,000,
    # under 20 ms, for the same total.
    gc.set_threshold(2_000, 10, 100)
    server = TileServer(pipeline=pipeline)
    if tcp_port is not None:
        from tile_lsp import transport

        transport.serve_tcp(server.ls, "127.0.0.1", tcp_port, token_file)  # (TokenError: a bad file)
    else:
        server.ls.start_io()
