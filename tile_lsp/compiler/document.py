"""A document analysed item by item: each top-level `entry`/`global` is parsed on its own and
cached by its text, so an edit inside one entry re-parses only that entry.

Items keep spans relative to their own start; `Item.start` maps them into the document.
Files the splitter cannot cut safely (split markers, aliases, generic form) are parsed whole.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import Diagnostic, Related
from tile_lsp.compiler.frontend import ParseResult, parse_chunk
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.upstream import analyze_upstream, is_upstream

# A line that starts a top-level item (indentation allowed: items sit inside a module).
_MODULE_START = re.compile(r"[ \t]*cuda_tile\.module\b[^\n{]*\{")
_CACHE_SIZE = 4096


@dataclass(frozen=True)
class Item:
    """One independently parsed piece of the document."""

    kind: str  # entry | global | testing$func | whole (the whole text) | shell (module header/footer)
    start: int  # offset of the item's text in the document
    end: int
    result: ParseResult  # spans relative to `start`

    @property
    def name(self) -> str | None:
        op = self.top_op
        sym = op.properties.get("sym_name") if op is not None else None
        return sym.data if isinstance(sym, builtin.StringAttr) else None

    @property
    def top_op(self) -> Operation | None:
        module = self.result.module
        if module is None or self.kind in ("whole", "shell"):
            return None
        return module.body.block.first_op

    def local(self, offset: int) -> int:
        return offset - self.start

    def absolute(self, span: Span) -> Span:
        return Span(span.start + self.start, span.end + self.start)


@dataclass
class DocumentAnalysis:
    """Parse results of one version of one document (immutable once built)."""

    source: SourceText
    items: list[Item]
    diagnostics: list[Diagnostic] = field(default_factory=list)  # absolute spans
    reparsed: int = 0  # items parsed for this version (the rest came from the cache)

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
    """Parse results keyed by (item text, the symbols it may see); least recently used out."""

    def __init__(self, size: int = _CACHE_SIZE):
        self.size = size
        self._data: OrderedDict[tuple[str, str], ParseResult] = OrderedDict()
        self._lock = threading.Lock()  # the server analyses on worker threads

    def get(self, key: tuple[str, str]) -> ParseResult | None:
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
            return hit

    def put(self, key: tuple[str, str], value: ParseResult) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)


def split_items(text: str) -> tuple[list[tuple[str, int, int]], tuple[int, int] | None] | None:
    """(kind, start, end) of each top-level item, and the module's (body start, closing brace)
    if there is one; None when the text must be parsed whole.

    Runs on every keystroke over the whole document, so it scans with str.find (C speed)
    and looks at the few lines that can start something, not at every character.
    """
    if "// -----" in text or '"cuda_tile.' in text or _line_starting_with(text, ("#", "!", "module")):
        return None
    module_lines = _lines_starting_with(text, ("cuda_tile.module",))
    if len(module_lines) > 1:
        return None
    body: tuple[int, int] | None = None
    limit = len(text)
    if module_lines:
        m = _MODULE_START.match(text, module_lines[0][1])
        close = _closing_brace(text)
        if m is None or close is None or close < m.end():
            return None
        body = (m.end(), close)
        limit = close
    # Long spellings are rare: scan for them only when `cuda_tile.` appears beyond the header.
    words = _ITEM_WORDS + _LONG_ITEM_WORDS if text.count("cuda_tile.", 0, 1 << 30) > len(module_lines) else _ITEM_WORDS
    starts = _lines_starting_with(text, words)
    if body is not None:
        if any(s < body[0] for _, s in starts):
            return None  # something odd before the module body
        starts = [(k, s) for k, s in starts if s < limit]
    else:
        head = text[: starts[0][1] if starts else len(text)]
        if head.strip(" \t\r\n") and not _only_comments(head):
            return None
    items = []
    for i, (kind, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else limit
        items.append((kind, start, end))
    return items, body


_ITEM_WORDS = ("entry", "global", "testing$func")
_LONG_ITEM_WORDS = ("cuda_tile.entry", "cuda_tile.global", "cuda_tile.testing$func")


def _lines_starting_with(text: str, words: tuple[str, ...]) -> list[tuple[str, int]]:
    """(word without `cuda_tile.`, line start) for lines whose first token is one of `words`."""
    found: dict[int, str] = {}
    for word in words:
        pos = text.find(word)
        while pos >= 0:
            end = pos + len(word)
            line_start = text.rfind("\n", 0, pos) + 1
            boundary = end >= len(text) or not (text[end].isalnum() or text[end] in "_$.")
            if boundary and not text[line_start:pos].strip(" \t"):
                found[line_start] = word.removeprefix("cuda_tile.")
            pos = text.find(word, end)
    return sorted(((k, s) for s, k in found.items()), key=lambda ks: ks[1])


def _line_starting_with(text: str, prefixes: tuple[str, ...]) -> bool:
    """Some line starts (at column 0, where MLIR puts them) with one of `prefixes`:
    alias definitions and a builtin `module`."""
    for prefix in prefixes:
        probe = "\n" + prefix
        pos = 0 if text.startswith(prefix) else text.find(probe)
        while pos >= 0:
            after = pos + len(probe) - (1 if pos == 0 and text.startswith(prefix) else 0)
            if prefix != "module" or text[after : after + 1] in (" ", "{", "@", "\n", "\t", ""):
                return True
            pos = text.find(probe, pos + 1)
    return False


def _closing_brace(text: str) -> int | None:
    """Offset of the module's closing `}`: the last `}` outside a trailing comment."""
    pos = len(text)
    while True:
        pos = text.rfind("}", 0, pos)
        if pos < 0:
            return None
        line_start = text.rfind("\n", 0, pos) + 1
        if "//" not in text[line_start:pos]:
            return pos


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("//") for line in text.splitlines())


def analyze(
    text: str,
    path: str = "<input>",
    cache: ItemCache | None = None,
    options: Mapping[str, object] | None = None,
) -> DocumentAnalysis:
    """Parse and verify a document, reusing cached items; never raises for bad input."""
    source = SourceText(text, path)
    if is_upstream(text):
        result = analyze_upstream(source)
        return DocumentAnalysis(source, [Item("whole", 0, len(text), result)], list(result.diagnostics), reparsed=1)
    split = split_items(text)
    if split is None:
        result = parse_chunk(source, options=options)
        item = Item("whole", 0, len(text), result)
        return DocumentAnalysis(source, [item], list(result.diagnostics), reparsed=1)
    pieces, body = split
    cache = cache if cache is not None else ItemCache()
    items: list[Item] = []
    reparsed = 0

    def parse_piece(kind: str, start: int, end: int, symbols_key: str, symbols: Mapping[str, Operation]) -> Item:
        nonlocal reparsed
        piece = text[start:end]
        key = (piece, symbols_key)
        result = cache.get(key)
        if result is None:
            result = parse_chunk(SourceText(piece, path), options=options, symbols=symbols)
            cache.put(key, result)
            reparsed += 1
        return Item(kind, start, end, result)

    # Globals first: entries see them as symbols (get_global checks the global's type).
    globals_ = [parse_piece(k, s, e, "", {}) for k, s, e in pieces if k == "global"]
    symbols: dict[str, Operation] = {}
    for g in globals_:
        op = g.top_op
        if op is not None and g.name is not None:
            symbols.setdefault(g.name, op)
    symbols_key = "\0".join(text[g.start : g.end] for g in globals_)
    by_start = {g.start: g for g in globals_}
    for kind, start, end in pieces:
        items.append(by_start.get(start) or parse_piece(kind, start, end, symbols_key, symbols))
    if body is not None:
        items.insert(0, _shell_item(text, path, body, cache))
    diagnostics: list[Diagnostic] = []
    for item in items:
        diagnostics.extend(_absolute(d, item.start) for d in item.result.diagnostics)
    diagnostics.extend(_duplicate_symbols(items))
    diagnostics.sort(key=lambda d: d.span.start)
    return DocumentAnalysis(source, items, diagnostics, reparsed)


def _shell_item(text: str, path: str, body: tuple[int, int], cache: ItemCache) -> Item:
    """The module header (up to its `{`) parsed with a closing `}` added, cached by its text;
    text after the module's closing brace must be blank or comments."""
    header = text[: body[0]]
    key = (header, "\0shell")
    result = cache.get(key)
    if result is None:
        result = parse_chunk(SourceText(header + "}", path))
        cache.put(key, result)
    tail = text[body[1] + 1 :]
    if tail.strip() and not _only_comments(tail):
        from tile_lsp.compiler.diagnostics import Severity

        at = body[1] + 1 + (len(tail) - len(tail.lstrip()))
        extra = Diagnostic(Span(at, at + 1), Severity.ERROR, "unexpected text after the end of the module")
        result = ParseResult(result.source, result.span, result.module, [*result.diagnostics, extra], result.smap)
    return Item("shell", 0, len(text), result)


def _absolute(d: Diagnostic, base: int) -> Diagnostic:
    if base == 0:
        return d
    related = tuple(Related(Span(r.span.start + base, r.span.end + base), r.message) for r in d.related)
    return Diagnostic(Span(d.span.start + base, d.span.end + base), d.severity, d.message, d.stage, related)


def _duplicate_symbols(items: list[Item]) -> Iterator[Diagnostic]:
    from tile_lsp.compiler.diagnostics import Severity

    seen: dict[str, Item] = {}
    for item in items:
        name = item.name
        if name is None:
            continue
        first = seen.get(name)
        if first is None:
            seen[name] = item
            continue
        info = item.result.smap.ops.get(item.top_op) if item.top_op is not None else None
        span = item.absolute(info.symbol_span or info.span) if info is not None else Span(item.start, item.start)
        first_info = first.result.smap.ops.get(first.top_op) if first.top_op is not None else None
        first_span = (
            first.absolute(first_info.symbol_span or first_info.span)
            if first_info is not None
            else Span(first.start, first.start)
        )
        yield Diagnostic(
            span,
            Severity.ERROR,
            f"redefinition of symbol named '{name}'",
            "cuda_tile",
            (Related(first_span, "see existing symbol definition here"),),
        )
