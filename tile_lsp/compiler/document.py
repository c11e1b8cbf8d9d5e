"""A document analysed item by item: each top-level `entry`/`global` is parsed on its own and
cached by its text, so an edit inside one entry re-parses only that entry.

Items keep spans relative to their own start; `Item.start` maps them into the document.
Files the splitter cannot cut safely (split markers, aliases, generic form) are parsed whole.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.ir import Operation

from tile_lsp.compiler import limits
from tile_lsp.compiler.diagnostics import Diagnostic, Related, Severity
from tile_lsp.compiler.frontend import ParseResult, parse_chunk, redefinition
from tile_lsp.compiler.items import Split, only_comments, resplit, split_items
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax.parser import Aliases
from tile_lsp.compiler.textio import blank_bom
from tile_lsp.compiler.upstream import analyze_upstream, is_upstream

Edit = tuple[int, int, int]  # (start, end, new end): `textsync.Edit`

_CACHE_SIZE = 4096  # entries at most
# Estimated bytes of the parses no open document uses that the cache keeps (old versions of the
# items being edited, for undo and for typing back what was there); the items the open documents
# use are kept whatever their size (see ItemCache.pin).
_CACHE_BUDGET = 16 << 20
# A parsed item holds ~29 bytes per character of its text (IR, source map, spans: measured with
# tracemalloc on tests/data/cutile/gemm.mlir's entries); the estimate errs high.
BYTES_PER_CHAR = 40
_ENTRY_BYTES = 2048  # and a fixed part (module op, source map, key)


class Stopped(Exception):  # noqa: N818
    """Work stopped at a checkpoint: its document version was superseded, or its request
    cancelled (`analyze(cancelled=...)`, semantic tokens)."""


@dataclass(frozen=True, eq=False)
class Item:
    """One independently parsed piece of the document."""

    kind: str  # entry | global | testing$func | whole (the whole text) | shell (module header/footer)
    start: int  # offset of the item's text in the document
    end: int
    result: ParseResult  # spans relative to `start`

    # (name, top_op, symbol: cached; `moved` hands them to the same item at another place)
    @functools.cached_property
    def name(self) -> str | None:
        op = self.top_op
        sym = op.properties.get("sym_name") if op is not None else None
        return sym.data if isinstance(sym, builtin.StringAttr) else None

    @functools.cached_property
    def top_op(self) -> Operation | None:
        module = self.result.module
        if module is None or self.kind in ("whole", "shell"):
            return None
        return module.body.block.first_op

    @functools.cached_property
    def symbol(self) -> tuple[str, Span] | None:
        """The symbol the item defines and where, relative to the item (its `@name`, else the
        op, else the item's start)."""
        name = self.name
        if name is None:
            return None
        info = self.result.smap.ops.get(self.top_op) if self.top_op is not None else None
        return name, (info.symbol_span or info.span) if info is not None else Span(0, 0)

    def moved(self, start: int, end: int) -> Item:
        """The same parse at another place in the document (an edit before it changed the length)."""
        item = Item(self.kind, start, end, self.result)
        for key in ("name", "top_op", "symbol"):
            if key in self.__dict__:
                item.__dict__[key] = self.__dict__[key]
        return item

    def local(self, offset: int) -> int:
        return offset - self.start

    def absolute(self, span: Span) -> Span:
        return Span(span.start + self.start, span.end + self.start)

    @functools.cached_property
    def diagnostics(self) -> list[Diagnostic]:
        """The result's diagnostics at document offsets (made once: an item the next version
        keeps where it is keeps these too)."""
        return [_absolute(d, self.start) for d in self.result.diagnostics]


@dataclass
class DocumentAnalysis:
    """Parse results of one version of one document (immutable once built)."""

    source: SourceText
    items: list[Item]
    diagnostics: list[Diagnostic] = field(default_factory=list)  # absolute spans
    reparsed: int = 0  # items parsed for this version (the rest came from the cache)
    split: Split | None = None  # split_items' answer for the text (the next version's `resplit` starts from it)
    # Item by item: the diagnostics that are the document's, not an item's (duplicate symbols);
    # `diagnostics` is the items' and these, sorted. None: not analysed item by item.
    extra: list[Diagnostic] | None = None

    def item_at(self, offset: int) -> Item | None:
        for item in self.items:
            if item.kind != "shell" and item.start <= offset <= item.end:
                return item
        return None

    def symbol_items(self) -> Iterator[tuple[str, Item]]:
        for item in self.items:
            name = item.name
            if name is not None:
                yield name, item


class ItemCache:
    """Parse results keyed by (item text, the symbols it may see).

    Bounded two ways. By relevance: the results the open documents' latest analyses use are
    pinned (`pin`, by the session) and never dropped, whatever their size. By memory: the other
    entries, old versions of what is being edited, are dropped least recently used first once
    their estimated size (`BYTES_PER_CHAR` per character of text) passes `budget`, or once the
    cache holds `size` entries. Without this a long editing session kept every version's parse
    (5,500 edits inside one gemm entry: 1.2 GB)."""

    def __init__(self, size: int = _CACHE_SIZE, budget: int = _CACHE_BUDGET):
        self.size = size
        self.budget = budget
        self._data: OrderedDict[tuple[str, str], tuple[ParseResult, int]] = OrderedDict()
        self._key_of: dict[int, tuple[str, str]] = {}  # id(result) -> its key
        self._unpinned_bytes = 0  # estimated size of the entries nobody pins
        self._pins: dict[str, tuple[int, list[ParseResult]]] = {}  # owner -> (version, results)
        self._pinned: Counter[int] = Counter()  # id(result) -> owners pinning it
        self._lock = threading.Lock()  # the server analyses on worker threads
        self.dropped_bytes = 0  # estimated size of every entry dropped so far (for the server's GC)

    @staticmethod
    def estimate(key: tuple[str, str]) -> int:
        return BYTES_PER_CHAR * len(key[0]) + len(key[1]) + _ENTRY_BYTES

    def __len__(self) -> int:
        return len(self._data)

    @property
    def unpinned_bytes(self) -> int:
        return self._unpinned_bytes

    def get(self, key: tuple[str, str], hold: list[ParseResult] | None = None) -> ParseResult | None:
        """The cached result; with `hold` (from `hold()`), kept until `release(hold)`."""
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return None
            self._data.move_to_end(key)
            if hold is not None:
                self._hold(hold, hit[0])
            return hit[0]

    def put(self, key: tuple[str, str], value: ParseResult, hold: list[ParseResult] | None = None) -> None:
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._forget(key, old)
            size = self.estimate(key)
            self._data[key] = (value, size)
            self._key_of[id(value)] = key
            if not self._pinned[id(value)]:
                self._unpinned_bytes += size
            if hold is not None:
                self._hold(hold, value)
            self._evict()

    def hold(self) -> list[ParseResult]:
        """A handle for the results one analysis gets and puts: none of them is dropped before
        `release` (a large file's first analysis would otherwise lose its first items to its
        last before the session pins them)."""
        return []

    def release(self, hold: list[ParseResult]) -> None:
        """The held results are ordinary entries again (dropped, if at all, at the next put or
        pin: the session pins an analysis's items right after it)."""
        with self._lock:
            self._repin(hold, [])
            hold.clear()

    def trim(self) -> None:
        """Drop what is over the budget now (puts and pins do it as they go)."""
        with self._lock:
            self._evict()

    def _hold(self, hold: list[ParseResult], result: ParseResult) -> None:
        rid = id(result)
        hold.append(result)
        self._pinned[rid] += 1
        if self._pinned[rid] == 1:
            self._unpinned_bytes -= self._size_of(rid)

    def pin(self, owner: str, version: int, results: Iterable[ParseResult]) -> None:
        """`owner`'s (a document's) results in use now, as of `version`; they replace those of
        an older version (a late analysis of an older version changes nothing)."""
        with self._lock:
            old = self._pins.get(owner)
            if old is not None and old[0] > version:
                return
            kept = list(results)  # (holding them keeps their ids theirs)
            self._pins[owner] = (version, kept)
            self._repin([] if old is None else old[1], kept)
            self._evict()

    def unpin(self, owner: str) -> None:
        """`owner` is closed: its results are ordinary entries again."""
        with self._lock:
            old = self._pins.pop(owner, None)
            if old is not None:
                self._repin(old[1], [])
                self._evict()

    def _repin(self, before: list[ParseResult], after: list[ParseResult]) -> None:
        for result in after:
            rid = id(result)
            self._pinned[rid] += 1
            if self._pinned[rid] == 1:
                self._unpinned_bytes -= self._size_of(rid)
        for result in before:
            rid = id(result)
            self._pinned[rid] -= 1
            if self._pinned[rid] <= 0:
                del self._pinned[rid]
                self._unpinned_bytes += self._size_of(rid)

    def _size_of(self, rid: int) -> int:  # (of a cached result; 0 for one not in the cache)
        key = self._key_of.get(rid)
        hit = self._data.get(key) if key is not None else None
        return hit[1] if hit is not None and id(hit[0]) == rid else 0

    def _forget(self, key: tuple[str, str], entry: tuple[ParseResult, int]) -> None:
        rid = id(entry[0])
        if self._key_of.get(rid) == key:
            del self._key_of[rid]
        if not self._pinned[rid]:
            self._unpinned_bytes -= entry[1]

    def _evict(self) -> None:
        if self._unpinned_bytes <= self.budget and len(self._data) <= self.size:
            return
        for key in list(self._data):  # least recently used first
            if self._unpinned_bytes <= self.budget and len(self._data) <= self.size:
                break
            entry = self._data[key]
            if self._pinned[id(entry[0])]:
                continue
            del self._data[key]
            self._forget(key, entry)
            self.dropped_bytes += entry[1]


def analyze(
    text: str,
    path: str = "<input>",
    cache: ItemCache | None = None,
    options: Mapping[str, object] | None = None,
    cancelled: Callable[[], bool] | None = None,
    max_file_size: int = limits.MAX_FILE_SIZE,
    *,
    source: SourceText | None = None,
    previous: tuple[DocumentAnalysis, Edit] | None = None,
) -> DocumentAnalysis:
    """Parse and verify a document, reusing cached items; never raises for bad input.
    `cancelled` is asked before each item parse: True stops with `Stopped` (the items parsed
    so far stay cached). A text over `limits.front_end_limit(max_file_size)` is not parsed: its
    analysis is one note at 1:1 saying so.

    `source`: the text's SourceText when the caller has one (its line index is kept). `previous`:
    the analysis of the text before an edit, and the edit (`textsync.Edit`): only the items the
    edit touches are looked up again; the others are the previous analysis's, moved by the
    edit's change in length (an item's parse does not depend on where it is)."""
    text = blank_bom(text)  # (a byte-order mark reads as a blank: same length, same positions)
    if source is None or source.text != text or source.path != path:
        source = SourceText(text, path)
    limit = limits.front_end_limit(max_file_size)
    if len(text) > limit // 4 and (size := limits.size_of(text)) > limit:  # (4: UTF-8's widest)
        why = limits.too_big(size, limit, "analysis") + ": not parsed; raise tileLsp.maxFileSize to analyse it"
        return DocumentAnalysis(source, [], [Diagnostic(Span(0, 0), Severity.NOTE, why)])
    if is_upstream(text):
        result = analyze_upstream(source)
        return DocumentAnalysis(source, [Item("whole", 0, len(text), result)], list(result.diagnostics), reparsed=1)
    split = None
    kept: dict[tuple[str, int, int], Item] = {}
    if previous is not None and previous[0].split is not None and options is None:
        split = resplit(text, previous[0].source.text, previous[0].split, previous[1])
        if split is not None:
            kept = _kept_items(previous[0], previous[1], split)
    if split is None:
        split = split_items(text)
    if split is None:
        result = parse_chunk(source, options=options)
        item = Item("whole", 0, len(text), result)
        return DocumentAnalysis(source, [item], list(result.diagnostics), reparsed=1)
    pieces, body = split
    cache = cache if cache is not None else ItemCache()
    held = cache.hold()
    try:
        found = _analyze_items(text, path, cache, options, cancelled, source, pieces, body, held, kept)
    finally:
        cache.release(held)
    found.split = split
    return found


_SHARED_KINDS = ("global", "alias")  # items whose parse every other item's depends on


def _kept_items(before: DocumentAnalysis, edit: Edit, split: Split) -> dict[tuple[str, int, int], Item]:
    """The previous analysis's items that an edit leaves as they were, by their (kind, start,
    end) in the new text: those wholly before it, and those after it moved by its delta. None
    when a global or an alias item is among the changed items (every entry sees them)."""
    start, end, new_end = edit
    delta = new_end - end
    old = {(i.kind, i.start, i.end): i for i in before.items if i.kind != "shell"}
    kept: dict[tuple[str, int, int], Item] = {}
    for kind, a, b in split[0]:
        if b <= start and (item := old.pop((kind, a, b), None)) is not None:
            kept[(kind, a, b)] = item
        elif a >= new_end and (item := old.pop((kind, a - delta, b - delta), None)) is not None:
            kept[(kind, a, b)] = item.moved(a, b) if delta else item
        elif kind in _SHARED_KINDS:
            return {}
    if any(kind in _SHARED_KINDS for kind, _, _ in old):  # (a global or aliases the edit changed or removed)
        return {}
    return kept


def _analyze_items(
    text: str,
    path: str,
    cache: ItemCache,
    options: Mapping[str, object] | None,
    cancelled: Callable[[], bool] | None,
    source: SourceText,
    pieces: list[tuple[str, int, int]],
    body: tuple[int, int] | None,
    held: list[ParseResult],
    kept: Mapping[tuple[str, int, int], Item],
) -> DocumentAnalysis:
    items: list[Item] = []
    reparsed = 0

    def parse_piece(
        kind: str, start: int, end: int, symbols_key: str, symbols: Mapping[str, Operation], aliases: Aliases | None
    ) -> Item:
        nonlocal reparsed
        if (same := kept.get((kind, start, end))) is not None:
            return same
        piece = text[start:end]
        key = (piece, symbols_key)
        result = cache.get(key, held)
        if result is None:
            if cancelled is not None and cancelled():
                raise Stopped()
            result = parse_chunk(SourceText(piece, path), options=options, symbols=symbols, aliases=aliases)
            cache.put(key, result, held)
            reparsed += 1
        return Item(kind, start, end, result)

    # Alias definitions first, in order (each sees those before it), then globals: entries see
    # the aliases, and the globals as symbols (get_global checks the global's type).
    alias_items: list[Item] = []
    aliases: Aliases | None = None
    for k, s, e in pieces:
        if k == "alias":
            alias_items.append(parse_piece(k, s, e, "\0alias\0" + "\0".join(text[a.start : a.end] for a in alias_items), {}, aliases))
            aliases = alias_items[-1].result.aliases or aliases
    alias_key = "\0".join(text[a.start : a.end] for a in alias_items)
    globals_ = [parse_piece(k, s, e, alias_key, {}, aliases) for k, s, e in pieces if k == "global"]
    symbols: dict[str, Operation] = {}
    for g in globals_:
        op = g.top_op
        if op is not None and g.name is not None:
            symbols.setdefault(g.name, op)
    symbols_key = "\0".join(text[g.start : g.end] for g in globals_)
    if alias_items:
        symbols_key += "\0aliases\0" + alias_key
    by_start = {g.start: g for g in (*alias_items, *globals_)}
    for kind, start, end in pieces:
        items.append(by_start.get(start) or parse_piece(kind, start, end, symbols_key, symbols, aliases))
    if body is not None:
        items.insert(0, _shell_item(text, path, body, cache, held, aliases, alias_key))
    diagnostics: list[Diagnostic] = []
    for item in items:
        diagnostics.extend(item.diagnostics)
    extra = list(_duplicate_symbols(items))
    diagnostics.extend(extra)
    diagnostics.sort(key=lambda d: d.span.start)
    return DocumentAnalysis(source, items, diagnostics, reparsed, extra=extra)


def _shell_item(
    text: str, path: str, body: tuple[int, int], cache: ItemCache, held: list[ParseResult],
    aliases: Aliases | None = None, alias_key: str = "",
) -> Item:
    """The module header (from its first line up to its `{`) parsed with its closing line (`}`
    and the module's `loc(...)`, if any: `split_items` allows nothing else there) appended, cached
    by that text. Alias definitions before the module are their own items, blanked here; after
    the closing line only blank lines, comments and (with aliases) alias definitions may follow."""
    start = _module_line(text, body[0])
    header = _blank(text[:start]) + text[start : body[0]]
    line_end = text.find("\n", body[1])
    closing = text[body[1] : len(text) if line_end < 0 else line_end]
    key = (header + closing, "\0shell\0" + alias_key)
    result = cache.get(key, held)
    if result is None:
        result = parse_chunk(SourceText(header + closing, path), aliases=aliases)
        cache.put(key, result, held)
    shift = body[1] - len(header)  # (the closing line's diagnostics, to where it is now)
    if shift and any(d.span.start > len(header) for d in result.diagnostics):
        moved = [_absolute(d, shift) if d.span.start > len(header) else d for d in result.diagnostics]
        result = ParseResult(result.source, result.span, result.module, moved, result.smap)
    tail = "" if line_end < 0 or alias_key else text[line_end + 1 :]  # (with aliases: split_items checked it)
    if tail.strip() and not only_comments(tail):
        from tile_lsp.compiler.diagnostics import Severity

        at = line_end + 1 + (len(tail) - len(tail.lstrip()))
        extra = Diagnostic(Span(at, at + 1), Severity.ERROR, "unexpected text after the end of the module")
        result = ParseResult(result.source, result.span, result.module, [*result.diagnostics, extra], result.smap)
    return Item("shell", 0, len(text), result)


def _module_line(text: str, body_start: int) -> int:
    """Where the `cuda_tile.module` line starts (the header ends at `body_start`)."""
    at = text.rfind("cuda_tile.module", 0, body_start)
    return text.rfind("\n", 0, at) + 1 if at >= 0 else 0


def _blank(text: str) -> str:
    """`text` as blanks, its line breaks kept (same offsets and lines)."""
    return "".join(ch if ch in "\r\n" else " " for ch in text) if text.strip() else text


def _absolute(d: Diagnostic, base: int) -> Diagnostic:
    if base == 0:
        return d
    related = tuple(Related(Span(r.span.start + base, r.span.end + base), r.message) for r in d.related)
    return Diagnostic(Span(d.span.start + base, d.span.end + base), d.severity, d.message, d.stage, related)


def _duplicate_symbols(items: Iterable[Item]) -> Iterator[Diagnostic]:
    return _redefinitions(_item_symbol(item) for item in items)


def _item_symbol(item: Item) -> tuple[str, Span] | None:
    """The symbol an item defines and where in the document (`Item.symbol`)."""
    found = item.symbol
    return None if found is None else (found[0], item.absolute(found[1]))


def _redefinitions(symbols: Iterable[tuple[str, Span] | None]) -> Iterator[Diagnostic]:
    seen: dict[str, Span] = {}
    for found in symbols:
        if found is None:
            continue
        name, span = found
        first = seen.setdefault(name, span)
        if first is not span:
            yield redefinition(name, span, first)  # (the whole-text parse's check says the same)


_NO_LIMIT = 1 << 60


def parse_document(text: str, path: str = "<input>", options: Mapping[str, object] | None = None) -> ParseResult:
    """The document as one module, parsed exactly as `analyze` parses it for the language
    server (item by item, the same recovery, the same diagnostics, duplicate symbols included):
    the CLI's `check`/`opt` and the pipeline's front end use it, so the editor, `check` and
    `compile` never disagree. The items' ops are moved into one module (in a `cuda_tile.module`
    when the text has one) and their source maps merged with document offsets."""
    from tile_lsp.compiler.syntax.sourcemap import SourceMap

    analysis = analyze(text, path, ItemCache(), options, max_file_size=_NO_LIMIT)  # (callers check sizes)
    source, items = analysis.source, analysis.items
    diagnostics = list(analysis.diagnostics)
    whole = Span(0, len(text))
    if len(items) == 1 and items[0].kind == "whole":
        result = items[0].result
        return ParseResult(source, whole, result.module, diagnostics, result.smap)
    smap = SourceMap()
    top = builtin.ModuleOp([])
    body = top.body.block
    for item in items:
        module = item.result.module
        smap.merge(item.result.smap, item.start)
        if module is None:
            continue
        if item.kind == "shell":  # the `cuda_tile.module` (parsed with an empty body) holds the items
            container = module.body.block.first_op
            if container is None or not container.regions or not container.regions[0].blocks:
                continue
            container.detach()
            top.body.block.add_op(container)
            body = container.regions[0].blocks[0]
            info = smap.ops.get(container)
            split = split_items(blank_bom(text))
            if info is not None and split is not None and split[1] is not None:  # the whole module, as parsed whole
                info.span = Span(info.span.start, split[1][1] + 1)
            continue
        for op in list(module.body.block.ops):
            op.detach()
            body.add_op(op)
    return ParseResult(source, whole, top, diagnostics, smap)


def check_document(text: str, path: str = "<input>", options: Mapping[str, object] | None = None) -> list[Diagnostic]:
    """`analyze(text).diagnostics`, for `tile-lsp check`: the same item by item parse, but each
    entry's IR is dropped once its diagnostics are taken (the globals, which entries look up,
    stay), so memory is one item's, not the file's (a 10 MB file: ~60 MB, not ~600)."""
    text = blank_bom(text)
    split = None if is_upstream(text) else split_items(text)
    if split is None:
        return list(analyze(text, path, ItemCache(), options, max_file_size=_NO_LIMIT).diagnostics)
    pieces, body = split
    diagnostics: list[Diagnostic] = []
    symbols: dict[str, Operation] = {}

    aliases: Aliases | None = None

    def parse(kind: str, start: int, end: int, seen: Mapping[str, Operation]) -> Item:
        result = parse_chunk(SourceText(text[start:end], path), options=options, symbols=seen, aliases=aliases)
        diagnostics.extend(_absolute(d, start) for d in result.diagnostics)
        return Item(kind, start, end, result)

    alias_items = {}
    for k, s, e in pieces:
        if k == "alias":
            alias_items[s] = parse(k, s, e, {})
            aliases = alias_items[s].result.aliases or aliases
    globals_ = {s: parse(k, s, e, {}) for k, s, e in pieces if k == "global"}
    for g in globals_.values():
        op = g.top_op
        if op is not None and g.name is not None:
            symbols.setdefault(g.name, op)
    if body is not None:
        shell = _shell_item(text, path, body, ItemCache(), [], aliases, "\0".join(text[a.start : a.end] for a in alias_items.values()))
        diagnostics.extend(shell.result.diagnostics)
    defined: list[tuple[str, Span] | None] = []
    for kind, start, end in pieces:
        done = alias_items.get(start) or globals_.get(start)
        defined.append(_item_symbol(done or parse(kind, start, end, symbols)))  # (then dropped)
    diagnostics.extend(_redefinitions(defined))
    diagnostics.sort(key=lambda d: d.span.start)
    return diagnostics

