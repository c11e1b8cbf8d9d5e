"""The facade: one method per LSP feature, over the analysis host (`host.py`).

Each method takes the request's LSP params and returns its LSP result; the server's handlers
(`server.py`) only call them. The feature logic itself is protocol-free (`tile_lsp/features/`);
this module converts positions and results (`protocol.py`) and chooses where each runs: a
`@job` method runs on a request thread with checkpoints (`jobs.py`), its arguments the params,
the document's snapshot when the request came, and `cancelled()`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import pathlib
from collections.abc import Callable
from typing import Any

from lsprotocol import types as lsp

from tile_lsp import protocol as proto
from tile_lsp.background import DONE
from tile_lsp.compiler import limits
from tile_lsp.compiler.document import Stopped
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.features import (
    bytecode_view,
    code_actions,
    completion,
    formatting,
    hover,
    navigation,
    semantic_tokens,
    stage_links,
    symbols,
)
from tile_lsp.features import pipeline_view as pview
from tile_lsp.host import AnalysisHost, field_of, uri_to_path
from tile_lsp.jobs import Jobs
from tile_lsp.session import Snapshot

COMPLETION_KIND = {
    "op": lsp.CompletionItemKind.Function,
    "value": lsp.CompletionItemKind.Variable,
    "type": lsp.CompletionItemKind.TypeParameter,
    "keyword": lsp.CompletionItemKind.Keyword,
    "symbol": lsp.CompletionItemKind.Reference,
}
SYMBOL_KIND = {
    "module": lsp.SymbolKind.Module,
    "entry": lsp.SymbolKind.Function,
    "global": lsp.SymbolKind.Variable,
    "function": lsp.SymbolKind.Function,
}
Cancelled = Callable[[], bool]
# A code lens request waits this long for its version's compile, where the client can be asked to
# refresh its lenses later (workspace/codeLens/refresh); other clients wait for the compile.
LENS_WAIT_S = 0.5


def _none() -> None:
    return None


def job(default: Callable[[], object], **how: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks a method `fn(self, params, snap, cancelled)` to run as a request job (Jobs.job
    with `how`); the facade's constructor binds it."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn._job = (default, how)  # type: ignore[attr-defined]
        return fn

    return mark


QUICK = {"quick": True, "drop_superseded": True}


class Facade:
    """What the server answers each request with."""

    def __init__(self, host: AnalysisHost, jobs: Jobs) -> None:
        self.host = host
        self.jobs = jobs
        for name in dir(type(self)):
            marked = getattr(getattr(type(self), name), "_job", None)
            if marked is not None:
                default, how = marked
                setattr(self, name, jobs.job(default, **how)(getattr(self, name)))

    # -- reading the document --------------------------------------------------------
    @job(_none, **QUICK)
    def hover(self, params: lsp.HoverParams, snap: Snapshot | None, cancelled: Cancelled) -> lsp.Hover | None:
        if snap is None:
            return None
        doc = snap.analysis
        if stage_links.is_lowered_path(snap.path):
            return self.host.origin_hover(snap, params.position.line)
        report, note = self.host.cached_report(snap)
        found = hover.hover(doc, proto.offset(doc.source, params.position), report, note)
        if found is None:
            return None
        text, span = found
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=proto.to_range(doc.source, span))

    @job(list, **QUICK)
    def definition(self, params: lsp.DefinitionParams, snap: Snapshot | None, cancelled: Cancelled) -> list[lsp.Location]:
        if snap is None:
            return []
        if stage_links.is_lowered_path(snap.path):
            origin = stage_links.origin_of(snap.path, params.position.line)
            return [self.host.origin_location(origin)] if origin is not None else []
        doc = snap.analysis
        return [proto.location(doc.source, snap.uri, s) for s in navigation.definition(doc, proto.offset(doc.source, params.position))]

    @job(lambda: ([], None), drop_superseded=True)
    def _references(
        self, params: lsp.ReferenceParams, snap: Snapshot | None, cancelled: Cancelled
    ) -> tuple[list[lsp.Location], int | None]:
        if snap is None:
            return [], None
        doc = snap.analysis
        at = proto.offset(doc.source, params.position)
        spans = navigation.references(doc, at, params.context.include_declaration, cancelled)
        found = [proto.location(doc.source, snap.uri, s) for s in spans]
        # On an op's name (no value or symbol there): every line it was lowered to.
        op_line = None if navigation.occurrences(doc, at) else doc.source.line_col(at)[0]
        return found, op_line

    async def references(self, params: lsp.ReferenceParams) -> list[lsp.Location]:
        snap = self.host.snapshot(params.text_document.uri)
        if snap is None or stage_links.is_lowered_path(snap.path):
            return []
        out, op_line = await self._references(params)
        if op_line is not None:
            out += await self._lowered(snap, op_line, wait=False)
        return out

    async def implementation(self, params: lsp.ImplementationParams) -> list[lsp.Location]:
        """From a source op: the lines it was lowered to, in every preview file (tileaa, gpu,
        nvvm, llvm, LLVM IR, PTX); compiles this version first if needed."""
        snap = self.host.snapshot(params.text_document.uri)
        if snap is None or stage_links.is_lowered_path(snap.path):
            return []
        source = SourceText(snap.text)  # the compiler's line of the LSP position
        return await self._lowered(snap, source.line_col(proto.offset(source, params.position))[0], wait=True)

    async def _lowered(self, snap: Snapshot, line: int, *, wait: bool) -> list[lsp.Location]:
        try:
            return [_range_location(r) for r in await self.host.lowered_ranges(snap, line, wait=wait)]
        except asyncio.CancelledError:
            raise
        except Exception:
            self.host.log_failure()
            return []

    @job(list, **QUICK)
    def highlight(self, params: lsp.DocumentHighlightParams, snap: Snapshot | None, cancelled: Cancelled) -> list[lsp.DocumentHighlight]:
        if snap is None:
            return []
        doc = snap.analysis
        return [
            lsp.DocumentHighlight(
                range=proto.to_range(doc.source, o.span),
                kind=lsp.DocumentHighlightKind.Write if o.is_def else lsp.DocumentHighlightKind.Read,
            )
            for o in navigation.occurrences(doc, proto.offset(doc.source, params.position))
        ]

    @job(_none, **QUICK)
    def prepare_rename(self, params: lsp.PrepareRenameParams, snap: Snapshot | None, cancelled: Cancelled) -> lsp.PrepareRenamePlaceholder | None:
        if snap is None:
            return None
        doc = snap.analysis
        found = navigation.prepare_rename(doc, proto.offset(doc.source, params.position))
        if found is None:
            return None
        span, text = found
        return lsp.PrepareRenamePlaceholder(range=proto.to_range(doc.source, span), placeholder=text)

    @job(_none, quick=True, passthrough=(ValueError,))
    def rename(self, params: lsp.RenameParams, snap: Snapshot | None, cancelled: Cancelled) -> lsp.WorkspaceEdit | None:
        if snap is None:
            return None
        doc = snap.analysis
        edits = navigation.rename(doc, proto.offset(doc.source, params.position), params.new_name)
        if isinstance(edits, str):
            raise ValueError(edits)  # pygls turns this into a JSON-RPC error the editor shows
        return lsp.WorkspaceEdit(changes={snap.uri: [lsp.TextEdit(range=proto.to_range(doc.source, s), new_text=t) for s, t in edits]})

    @job(list, **QUICK)
    def document_symbols(self, params: lsp.DocumentSymbolParams, snap: Snapshot | None, cancelled: Cancelled) -> list[lsp.DocumentSymbol]:
        if snap is None:
            return []
        doc = snap.analysis

        def convert(sym: symbols.Symbol) -> lsp.DocumentSymbol:
            return lsp.DocumentSymbol(
                name=sym.name,
                detail=sym.detail,
                kind=SYMBOL_KIND[sym.kind],
                range=proto.to_range(doc.source, sym.span),
                selection_range=proto.to_range(doc.source, sym.selection),
                children=[convert(c) for c in sym.children],
            )

        return [convert(s) for s in symbols.document_symbols(doc)]

    @job(list, quick=True)
    def workspace_symbols(self, params: lsp.WorkspaceSymbolParams, _: None, cancelled: Cancelled) -> list[lsp.SymbolInformation]:
        out: list[lsp.SymbolInformation] = []
        query = params.query.lower()
        for snap in list(self.host.session.documents.values()):
            if cancelled():
                raise Stopped()
            doc = snap.analysis
            for sym, container in symbols.flatten(symbols.document_symbols(doc)):
                if query in sym.name.lower():
                    location = proto.location(doc.source, snap.uri, sym.selection)
                    out.append(lsp.SymbolInformation(name=sym.name, kind=SYMBOL_KIND[sym.kind], location=location, container_name=container))
        return out

    @job(list, **QUICK)
    def folding(self, params: lsp.FoldingRangeParams, snap: Snapshot | None, cancelled: Cancelled) -> list[lsp.FoldingRange]:
        if snap is None:
            return []
        return [lsp.FoldingRange(start_line=a, end_line=b, kind=lsp.FoldingRangeKind.Region) for a, b in symbols.folding_ranges(snap.analysis)]

    @job(_none, drop_superseded=True)
    def completion(self, params: lsp.CompletionParams, snap: Snapshot | None, cancelled: Cancelled) -> lsp.CompletionList | None:
        if snap is None:
            return None
        doc = snap.analysis
        items = []
        for i, c in enumerate(completion.complete(doc, proto.offset(doc.source, params.position))):
            # Replacing the typed word (sigil included) keeps `%`/`@` from doubling.
            edit = lsp.TextEdit(range=proto.to_range(doc.source, c.replace), new_text=c.insert_text or c.label) if c.replace is not None else None
            items.append(
                lsp.CompletionItem(
                    label=c.label,
                    kind=COMPLETION_KIND.get(c.kind),
                    detail=c.detail or None,
                    insert_text=c.insert_text if c.replace is None else None,
                    text_edit=edit,
                    sort_text=f"{i:04d}",  # the feature's order: nearest values first
                    documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=c.documentation) if c.documentation else None,
                )
            )
        return lsp.CompletionList(is_incomplete=False, items=items)

    @job(lambda: lsp.SemanticTokens(data=[]), drop_superseded=True)
    def semantic_tokens(self, params: lsp.SemanticTokensParams, snap: Snapshot | None, cancelled: Cancelled) -> lsp.SemanticTokens:
        if snap is None:
            return lsp.SemanticTokens(data=[])
        doc = snap.analysis
        tokens = semantic_tokens.semantic_tokens(doc, cancelled)
        return lsp.SemanticTokens(data=proto.encode_semantic_tokens(doc.source, tokens))

    # -- changing the document -----------------------------------------------------------
    @job(_none, drop_superseded=True)
    def _formatted(self, params: lsp.DocumentFormattingParams, snap: Snapshot | None, cancelled: Cancelled) -> str | None:
        # Seconds on huge files: on the request thread, stopped between items by a cancel
        # or an edit (ContentModified: the edit would apply to a text that is gone).
        return formatting.format_text(snap.text, cancelled=cancelled) if snap is not None else None

    async def formatting(self, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
        snap = self.host.snapshot(params.text_document.uri)
        if snap is None:
            return []
        refused = formatting.too_big_to_format(snap.text, limits.setting(snap.settings.maxFileSize))
        if refused is not None:
            self.host.client.show_message(lsp.MessageType.Info, f"tile-lsp: {refused}")
            return []
        new = await self._formatted(params)
        if new is None or new == snap.text or not self.host.session.is_latest(snap):
            return []
        return [lsp.TextEdit(range=proto.to_range(SourceText(snap.text), Span(0, len(snap.text))), new_text=new)]

    @job(list, drop_superseded=True)
    def code_actions(self, params: lsp.CodeActionParams, snap: Snapshot | None, cancelled: Cancelled) -> list[lsp.CodeAction]:
        if snap is None:
            return []
        doc = snap.analysis
        span = Span(proto.offset(doc.source, params.range.start), proto.offset(doc.source, params.range.end))
        only = [getattr(k, "value", k) for k in params.context.only or ()]
        out = []
        for fix in code_actions.quick_fixes(doc, span, snap.cache, cancelled):
            if only and not any(fix.kind == k or fix.kind.startswith(f"{k}.") for k in only):
                continue  # the client asked for other kinds (e.g. only refactors)
            edits = [lsp.TextEdit(range=proto.to_range(doc.source, s), new_text=t) for s, t in fix.edits]
            diags = [proto.diagnostic(doc.source, snap.uri, fix.diagnostic)] if fix.diagnostic else None
            action = lsp.CodeAction(
                title=fix.title, kind=lsp.CodeActionKind(fix.kind), diagnostics=diags, edit=lsp.WorkspaceEdit(changes={snap.uri: edits}),
                is_preferred=fix.preferred or None,
            )
            out.append(action)
        if only and lsp.CodeActionKind.QuickFix.value not in only:
            return out
        version, stage = self.host.stage_published.get(snap.uri, (None, []))
        if version != snap.version:
            return out
        for tfix in pview.target_fixes(snap.text, stage, span):
            action = lsp.CodeAction(
                title=tfix.title,
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[proto.diagnostic(doc.source, snap.uri, tfix.diagnostic)],
                is_preferred=tfix.preferred or None,
            )
            if tfix.edit is not None:
                at, text = tfix.edit
                action.edit = lsp.WorkspaceEdit(changes={snap.uri: [lsp.TextEdit(range=proto.to_range(doc.source, at), new_text=text)]})
            if tfix.command is not None:
                name, args = tfix.command
                action.command = lsp.Command(title=tfix.title, command=name, arguments=args)
            out.append(action)
        return out

    # -- the pipeline's results ---------------------------------------------------------
    async def code_lenses(self, params: lsp.CodeLensParams) -> list[lsp.CodeLens]:
        uri = params.text_document.uri
        snap = self.host.snapshot(uri)
        if snap is None:
            return []
        try:
            compile_ = asyncio.ensure_future(self.host.report_for(snap))
            if self.host.client.can_refresh_code_lenses():
                # Answered within LENS_WAIT_S: a compile still running then answers no lenses, and
                # the client is asked to ask again once it is done (the cached report answers at once).
                try:
                    done, _ = await asyncio.wait({compile_}, timeout=LENS_WAIT_S)
                except asyncio.CancelledError:
                    compile_.cancel()  # (asyncio.wait does not: the request's compile would run on)
                    raise
                if not done:
                    self.host.lenses_pending.add(compile_)
                    compile_.add_done_callback(functools.partial(self._lenses_ready, snap))
                    return []
            report = await compile_
            if report is None or report.status != DONE or not self.host.session.is_latest(snap):
                return []
            source = SourceText(snap.text)
            return [
                lsp.CodeLens(
                    range=proto.to_range(source, lens.span),
                    command=lsp.Command(title=lens.title, command=pview.VIEW_STAGE, arguments=[{"uri": uri, "stage": lens.stage, "show": True}]),
                )
                for lens in pview.kernel_lenses(snap.text, report)
            ]
        except asyncio.CancelledError:
            raise
        except Exception:
            self.host.log_failure()
            return []

    def _lenses_ready(self, snap: Snapshot, compile_: asyncio.Future[Any]) -> None:
        self.host.lenses_pending.discard(compile_)
        if not compile_.cancelled() and compile_.exception() is None and self.host.session.is_latest(snap):
            self.host.client.refresh_code_lenses()

    async def view_stage(self, params: Any) -> dict[str, Any]:
        return await self.host.view_stage(params)

    # -- bytecode, settings and the server's own text -----------------------------------
    async def bytecode_text(self, params: Any) -> dict[str, Any]:
        """{uri}: a bytecode file's text view (tile_lsp/features/bytecode_view.py)."""
        uri = field_of(params, "uri")
        if not isinstance(uri, str) or not uri.startswith("file:"):
            return {"error": f"not a file URI: {uri!r}"}
        result: dict[str, Any] = await self.jobs.run(bytecode_view.bytecode_text, uri_to_path(uri))
        return result

    async def save_as_bytecode(self, params: Any) -> dict[str, Any]:
        """{uri, path, version?}: the open document's text written as bytecode to `path`."""
        uri, target, version = (field_of(params, k) for k in ("uri", "path", "version"))
        snap = self.host.snapshot(uri) if isinstance(uri, str) else None
        if snap is None:
            return {"error": f"{uri} is not open"}
        if not isinstance(target, str):
            return {"error": "no path to write the bytecode to"}
        run = functools.partial(bytecode_view.save_as_bytecode, snap.text, snap.path, target, version if isinstance(version, str) else None)
        result: dict[str, Any] = await self.jobs.run(run)
        return result

    def settings(self, params: Any) -> dict[str, Any]:
        """The settings in force, for clients and tests to confirm what the server took."""
        return dataclasses.asdict(self.host.session.settings)

    def document_text(self, params: Any) -> dict[str, Any] | None:
        """{uri} -> {uri, version, text} (null: not open): the server's own copy of a document."""
        uri = field_of(params, "uri")
        snap = self.host.session.get(uri) if isinstance(uri, str) else None
        return None if snap is None else {"uri": snap.uri, "version": snap.version, "text": snap.text}


def _range_location(r: stage_links.LoweredRange) -> lsp.Location:
    end = lsp.Position(r.last + 1, 0)
    return lsp.Location(uri=pathlib.Path(r.path).as_uri(), range=lsp.Range(start=lsp.Position(r.first, 0), end=end))
