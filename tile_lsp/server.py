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
import importlib
import inspect
import json
import logging
import sys
import threading
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from tile_lsp import __version__
from tile_lsp import lsp_names as names

if TYPE_CHECKING:
    from tile_lsp.facade import Facade
    from tile_lsp.host import AnalysisHost

log = logging.getLogger("tile_lsp")
SETTINGS_REQUEST = "tileLsp/settings"  # custom request: the settings in force, as JSON
# custom request {uri} -> {uri, version, text} (null: not open): the server's own copy of a
# document, for clients and fuzzers to check that text sync agrees with the editor's
DOCUMENT_TEXT_REQUEST = "tileLsp/documentText"
VIEW_STAGE_REQUEST = "tileLsp/viewStage"  # {uri, stage} -> {output, stage, seconds, ok, diagnostics}
__all__ = ["TileServer", "serve"]  # (PIPELINE_STATUS_NOTIFICATION: tile_lsp.host's)

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
        lsp.SemanticTokensLegend(token_types=names.TOKEN_TYPES, token_modifiers=names.TOKEN_MODIFIERS),
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
    (names.BYTECODE_TEXT_REQUEST, None, "bytecode_text"),
    (SETTINGS_REQUEST, None, "settings"),
    (DOCUMENT_TEXT_REQUEST, None, "document_text"),
]
# workspace/executeCommand NAME [args]: the facade's method, given the first argument
COMMANDS: list[tuple[str, str]] = [
    (names.VIEW_STAGE, "view_stage"),  # [{uri, stage, show?}]
    (names.SAVE_AS_BYTECODE, "save_as_bytecode"),  # [{uri, path, version?}]
]
# The facade's plain (not async) methods: answered on the loop as their request is read, in order
# with the did* notifications; the rest run as tasks. Declared, not looked up: the facade is
# imported after `initialize` is answered (tests/test_server_start.py checks it against the facade).
ON_THE_LOOP = frozenset({"settings", "document_text"})
# The language side, imported on a thread while pygls answers `initialize` (see `TileServer`).
LANGUAGE_MODULES = ("tile_lsp.host", "tile_lsp.facade")


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
        if not future.cancelled() and future.exception() is not None and _superseded(future.exception()):
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
        from tile_lsp import protocol as proto  # (loaded with the host, which publishes)

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
        from tile_lsp.host import uri_to_path

        folders = [workspace.root_path] if workspace.root_path else []
        return folders + [uri_to_path(f.uri) for f in workspace.folders.values()]


class TileServer:
    """tile-lsp's server: a pygls LanguageServer over the host and its facade.

    The language side (host, facade and the compiler under them: ~0.6 s of imports) is built on
    its first use; with `preload` its modules are imported on a thread from the moment
    `initialize` is answered (not before: beside pygls's own work they would delay the answer).
    A handler that needs it first waits for that thread (never imports beside it), so a didOpen
    that comes early is answered the same, only later."""

    def __init__(self, *, pipeline: bool = True, preload: bool = False) -> None:
        self.ls = LanguageServer(
            "tile-lsp", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental, protocol_cls=_OwnTextProtocol
        )
        self.pipeline = pipeline
        self._language: tuple[AnalysisHost, Facade] | None = None
        self._initialized: tuple[Any, Any] | None = None  # initialize's (options, position encoding)
        self._preload: threading.Thread | None = None
        self._preloads = preload
        self._register()

    def _start_preload(self) -> None:
        if self._preloads and self._preload is None and self._language is None:
            self._preload = threading.Thread(target=_import_language, name="tile-lsp-preload", daemon=True)
            self._preload.start()

    @property
    def host(self) -> AnalysisHost:
        return self._language_side()[0]

    @property
    def facade(self) -> Facade:
        return self._language_side()[1]

    def _language_side(self) -> tuple[AnalysisHost, Facade]:
        """The host and facade, built on first use (on the loop's thread)."""
        if self._language is None:
            self._start_preload()  # (where none runs yet: serve's collector comes back with it)
            if self._preload is not None:
                self._preload.join()  # (its imports done: none of them runs on two threads)
            from tile_lsp.facade import Facade
            from tile_lsp.host import AnalysisHost
            from tile_lsp.jobs import Jobs

            host = AnalysisHost(_PyglsClient(self.ls), compile_documents=self.pipeline)
            self._language = host, Facade(host, Jobs(host.snapshot, host.log_failure))
            if self._initialized is not None:
                self._settle()
        return self._language

    def _settle(self) -> None:
        """What `initialize` said, given to the host: its settings, and the position encoding
        pygls picked (the client's first offered one it knows: utf-8/16/32, else utf-16)."""
        from tile_lsp import protocol as proto

        assert self._initialized is not None
        options, encoding = self._initialized
        # (over TCP the transport has taken the token out of the options: tile_lsp/transport.py)
        self.host.initialize(options)
        proto.set_position_encoding(encoding)

    def _register(self) -> None:
        ls = self.ls
        for method, options, name in REQUESTS:
            ls.feature(method, options)(_handler(self, name))
        for command, name in COMMANDS:
            ls.command(command)(_first_argument(self, name))

        @ls.feature(lsp.INITIALIZE)
        def initialize(params: lsp.InitializeParams) -> None:
            self._initialized = params.initialization_options, ls.workspace.position_encoding
            if self._language is not None:  # (built before initialize: a test's server)
                self._settle()
            elif self._preloads:  # once this answer is written (pygls writes it before returning to the loop)
                asyncio.get_running_loop().call_soon(self._start_preload)

        @ls.command(names.SET_GPU_NAME)
        def set_gpu_name(*args: Any) -> dict[str, Any]:
            """[chip]: the target for this session."""
            from tile_lsp.features.pipeline_view import FIX_CHIPS

            return self.host.set_gpu_name(args[0] if args and isinstance(args[0], str) else FIX_CHIPS[0])

        @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
        def did_open(params: lsp.DidOpenTextDocumentParams) -> None:
            self.host.open_or_change(params.text_document.uri, params.text_document.version, params.text_document.text)

        @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
        def did_change(params: lsp.DidChangeTextDocumentParams) -> None:
            from tile_lsp import protocol as proto

            host, uri = self.host, params.text_document.uri
            old = host.session.get(uri)
            if old is None:  # never opened (or closed): there is no text to apply the edits to
                log.warning("didChange for %s, which is not open: ignored", uri)
                return
            source, edit = proto.apply_content_changes(old.text_source, params.content_changes)
            host.open_or_change(uri, params.text_document.version, source.text, source, edit)

        # (plain functions: pygls keeps the future of every notification a coroutine handles)
        ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)(lambda params: self.host.close(params.text_document.uri))
        ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))(lambda params: self.host.saved(params.text_document.uri))
        ls.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)(lambda params: self.host.change_settings(params.settings))

        @ls.feature(lsp.SHUTDOWN)
        def shutdown(params: Any) -> None:
            if self._language is not None:  # (never built: no pipeline to stop)
                self.host.shutdown()


def _import_language() -> None:
    """The preload thread: the language side's modules. A failure is left for the loop's own
    import of them to raise (and pygls to report). Then the collector, off since `cmd_serve`
    (imports make next to no garbage; its collections were ~10% of their time), runs again, with
    what the imports made frozen (modules and classes that live as long as the server: no
    collection walks them, the first one included)."""
    try:
        for name in LANGUAGE_MODULES:
            importlib.import_module(name)
    except BaseException:  # noqa: S110 (re-raised by the loop's import)
        pass
    finally:
        gc.freeze()
        gc.enable()


def _superseded(exc: BaseException) -> bool:
    from tile_lsp.jobs import Superseded  # (only raised by jobs: loaded by then)

    return isinstance(exc, Superseded)


def _handler(server: TileServer, name: str) -> Any:
    """A plain function calling the facade's method `name` (pygls marks its handlers with
    attributes, which a bound method cannot take), async unless the method is `ON_THE_LOOP`."""

    async def answer_async(params: Any) -> Any:
        return await getattr(server.facade, name)(params)

    def answer(params: Any) -> Any:
        return getattr(server.facade, name)(params)

    chosen = answer if name in ON_THE_LOOP else answer_async
    chosen.__name__ = chosen.__qualname__ = name
    return chosen


def _first_argument(server: TileServer, name: str) -> Any:
    """A command handler (pygls passes the command's arguments) calling the facade's method
    `name` with `arguments[0]`."""

    async def command(*args: Any) -> Any:
        return await getattr(server.facade, name)(args[0] if args else {})

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
    # A thread waiting for the GIL gets it after the switch interval: 5 ms by default, and a
    # hover crosses threads a few times (loop, quick-request thread, loop) while an analysis or
    # semantic tokens run Python on another. 1 ms: those waits are short; the cost is a
    # switch per ms between busy threads.
    sys.setswitchinterval(0.001)
    server = TileServer(pipeline=pipeline, preload=True)
    from tile_lsp import transport

    if tcp_port is not None:
        transport.serve_tcp(server.ls, "127.0.0.1", tcp_port, token_file)  # (TokenError: a bad file)
    else:
        transport.serve_stdio(server.ls)
