"""Semantic tokens: ops, types, values, symbols, attributes, keywords, literals and comments.

The SourceMap says what each op name, value and symbol is; one lexer pass over the whole
text adds types, keywords and literals, and still colours text a broken parse did not reach.

Linear in the text: no step rescans a line per token (a 10,000-token line costs 10,000 tokens'
work). An item's tokens are cached beside its ParseResult, and only while that result lives (a
weak reference: the item cache, bounded by memory and by the open documents, decides), within a
memory budget of their own.
"""

from __future__ import annotations

import bisect
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from typing import NamedTuple

from xdsl.dialects import builtin
from xdsl.ir import BlockArgument, SSAValue

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.document import DocumentAnalysis, Item, Stopped
from tile_lsp.compiler.frontend import ParseResult
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.sourcemap import SourceMap
from tile_lsp.compiler.syntax.types import CUDA_TILE_TYPES
from tile_lsp.features.symbols import symbol_ops
from tile_lsp.lsp_names import TOKEN_MODIFIERS as TOKEN_MODIFIERS  # (declared at initialize)
from tile_lsp.lsp_names import TOKEN_TYPES as TOKEN_TYPES


class Token(NamedTuple):
    """A tuple rather than a dataclass: a large file has tens of thousands of them."""

    start: int  # absolute offset
    length: int
    type: str  # one of TOKEN_TYPES
    modifiers: tuple[str, ...] = ()


_DEFINITION = ("definition",)
_SYMBOL_TYPES = {"cuda_tile.module": "namespace", "builtin.module": "namespace", "cuda_tile.global": "variable"}
_TYPE_HEADS = frozenset((*CUDA_TILE_TYPES, *(f"!cuda_tile.{t}" for t in CUDA_TILE_TYPES)))
_SCALAR_TYPES = frozenset((*ct.ELEMENT_TYPE_NAMES, "index"))
_LITERALS = {lexer.INT: "number", lexer.FLOAT: "number", lexer.STRING: "string", lexer.HASH: "property"}
_CACHE_SIZE = 4096  # entries at most
_CACHE_BUDGET = 16 << 20  # estimated bytes of cached tokens at most
_TOKEN_BYTES = 240  # a token, relative and placed (measured: ~244 bytes per token on gemm.mlir)
_LINE_BREAK = re.compile(r"[\r\n]")  # LSP's line breaks ("\r\n" is two of them, which is fine here)

# Tokens of one segment relative to its start; a symbol reference's type is "@name" until
# the document's symbol table resolves it (an entry -> function, a global -> variable).
Rel = tuple[int, int, str, tuple[str, ...]]
# What a source map says, per start in the segment: (end, token type, modifiers).
Known = dict[int, tuple[int, str, tuple[str, ...]]]


class _Entry:
    """Cached tokens of one parsed item, while its ParseResult lives (a weak reference to it)."""

    __slots__ = ("ref", "rel", "symbols", "placed_at", "placed", "size")

    def __init__(self, ref: weakref.ref[ParseResult], rel: list[Rel]):
        self.ref = ref
        self.rel = rel
        self.symbols = _symbol_indices(rel)
        self.placed_at: tuple[int, frozenset[tuple[str, str]]] | None = None
        self.placed: list[Token] = []
        self.size = _TOKEN_BYTES * len(rel) + 200


_cache: OrderedDict[int, _Entry] = OrderedDict()  # id(ParseResult) -> its tokens
_cache_bytes = 0
_lock = threading.RLock()  # requests may run on worker threads; (re-entrant: a weakref callback)


def _drop(key: int, ref: weakref.ref[ParseResult]) -> None:
    """A cached item's ParseResult died: its tokens go too."""
    global _cache_bytes
    with _lock:
        entry = _cache.get(key)
        if entry is not None and entry.ref is ref:
            del _cache[key]
            _cache_bytes -= entry.size


def clear_cache() -> None:
    global _cache_bytes
    with _lock:
        _cache.clear()
        _cache_bytes = 0


def cache_stats() -> tuple[int, int]:
    """(entries, estimated bytes) of the token cache."""
    return len(_cache), _cache_bytes


def semantic_tokens(doc: DocumentAnalysis, cancelled: Callable[[], bool] | None = None) -> list[Token]:
    """Tokens in document order, non-overlapping and single-line. Items come from a cache
    keyed by their ParseResult, which the analysis reuses for unchanged item text. `cancelled`
    is asked between items: True stops with `Stopped`."""
    text = doc.source.text
    symbol_types = _symbol_types(doc)
    key = frozenset(symbol_types.items())
    out: list[Token] = []
    for start, end, item in segments(doc):
        if cancelled is not None and cancelled():
            raise Stopped()
        if item is not None and item.kind != "shell":
            out.extend(_item_tokens(text, item, symbol_types, key))
        else:
            rel = segment_tokens(text[start:end], item.result.smap if item else None, -start)
            out.extend(_place(rel, start, symbol_types, _symbol_indices(rel)))
    return out


def segments(doc: DocumentAnalysis) -> list[tuple[int, int, Item | None]]:
    """The items in order, and the text between them (module header and closing brace,
    which belong to the shell item, and comments)."""
    length = len(doc.source.text)
    whole = next((i for i in doc.items if i.kind == "whole"), None)
    if whole is not None:
        return [(0, length, whole)]
    shell = next((i for i in doc.items if i.kind == "shell"), None)
    out: list[tuple[int, int, Item | None]] = []
    pos = 0
    for item in sorted((i for i in doc.items if i.kind != "shell"), key=lambda i: i.start):
        if item.start > pos:
            out.append((pos, item.start, shell))
        out.append((item.start, item.end, item))
        pos = item.end
    if pos < length:
        out.append((pos, length, shell))
    return out


def _item_tokens(text: str, item: Item, symbol_types: dict[str, str], key: frozenset[tuple[str, str]]) -> list[Token]:
    global _cache_bytes
    rid = id(item.result)
    with _lock:
        entry = _cache.get(rid)
        if entry is not None and entry.ref() is item.result:
            _cache.move_to_end(rid)
        else:
            entry = None
    if entry is None:
        rel = segment_tokens(text[item.start : item.end], item.result.smap, 0)
        entry = _Entry(weakref.ref(item.result, lambda ref, rid=rid: _drop(rid, ref)), rel)  # type: ignore[misc]
        with _lock:
            old = _cache.pop(rid, None)
            if old is not None:
                _cache_bytes -= old.size
            _cache[rid] = entry
            _cache_bytes += entry.size
            while len(_cache) > 1 and (len(_cache) > _CACHE_SIZE or _cache_bytes > _CACHE_BUDGET):
                _, gone = _cache.popitem(last=False)
                _cache_bytes -= gone.size
    placed_at = (item.start, key)
    if entry.placed_at != placed_at:
        placed = _place(entry.rel, item.start, symbol_types, entry.symbols)
        entry.placed, entry.placed_at = placed, placed_at
        return placed
    return entry.placed


def _symbol_indices(rel: list[Rel]) -> list[int]:
    return [i for i, r in enumerate(rel) if r[2][0] == "@"]


def _place(rel: list[Rel], base: int, symbol_types: dict[str, str], symbols: list[int]) -> list[Token]:
    """Absolute tokens; the hot loop of an edit (every later item moves), hence tuple.__new__."""
    new = tuple.__new__
    out: list[Token] = [new(Token, (base + s, n, k, m)) for s, n, k, m in rel]
    for i in symbols:
        s, n, k, m = rel[i]
        out[i] = Token(base + s, n, symbol_types.get(k[1:], "function"), m)
    return out


def segment_tokens(seg: str, smap: SourceMap | None, base: int) -> list[Rel]:
    """Tokens of one segment of text, relative to it; `base` maps source-map spans into it."""
    toks = lexer.tokenize(seg)
    known = from_source_map(smap, base) if smap is not None else {}
    out = _classify(seg, toks, known)
    comments = comment_tokens(seg, toks)
    return _merge(out, comments) if comments else out


def from_source_map(smap: SourceMap, base: int) -> Known:
    """Op names, symbols and every value definition and use, from a SourceMap."""
    known: Known = {}
    for op, info in smap.ops.items():
        name = info.name_span
        if name.end > name.start:
            known[base + name.start] = (base + name.end, "function", ())
        sym = info.symbol_span
        if sym is not None:
            known[base + sym.start] = (base + sym.end, _SYMBOL_TYPES.get(op.name, "function"), _DEFINITION)
    for value, span in smap.value_defs.items():
        known[base + span.start] = (base + span.end, _value_type(value), _DEFINITION)
    for use in smap.uses:
        known.setdefault(base + use.span.start, (base + use.span.end, _value_type(use.value), ()))
    for su in smap.symbol_uses:
        known.setdefault(base + su.span.start, (base + su.span.end, "@" + su.name, ()))
    return known


def _value_type(value: SSAValue) -> str:
    return "parameter" if isinstance(value, BlockArgument) else "variable"


def _symbol_types(doc: DocumentAnalysis) -> dict[str, str]:
    """Symbol name -> token type; an item's own op is its only symbol (no walk over its ops)."""
    out: dict[str, str] = {}
    for item in doc.items:
        for op in symbol_ops(item):
            sym = op.properties.get("sym_name")
            if isinstance(sym, builtin.StringAttr):
                out.setdefault(sym.data, _SYMBOL_TYPES.get(op.name, "function"))
    return out


@cache
def _op_words() -> frozenset[str]:
    names = registry.all_ops()
    return frozenset((*names, *(n.removeprefix("cuda_tile.") for n in names)))


def _classify(text: str, toks: lexer.Tokens, known: Known) -> list[Rel]:
    """One pass over the lexer's tokens: a source-map fact wins, else the token's spelling decides."""
    kinds, starts, ends, texts = toks.kinds, toks.starts, toks.ends, toks.texts
    op_words = _op_words()
    out: list[Rel] = []
    add = out.append
    n = len(kinds) - 1
    angles: dict[int, int] | None = None  # `<` token -> its `>` on the same line (made on first use)
    i = 0
    while i < n:
        s = starts[i]
        hit = known.get(s)
        if hit is not None:
            add((s, hit[0] - s, hit[1], hit[2]))
            i = _skip_to(starts, i, hit[0])
            continue
        k = kinds[i]
        t = texts[i]
        if k == lexer.BARE or k == lexer.BANG:
            if t in _TYPE_HEADS and texts[i + 1] == "<":
                if angles is None:
                    angles = _angle_matches(text, toks)
                j = angles.get(i + 1)
                if j is not None:
                    add((s, ends[j] - s, "type", ()))
                    i = j + 1
                    continue
            add((s, ends[i] - s, _word_type(t, k, texts, kinds, i, op_words), ()))
        elif k == lexer.VALUE:
            add((s, ends[i] - s, "variable", ()))
        elif k == lexer.SYMBOL:
            add((s, ends[i] - s, "@" + t[1:].strip('"'), ()))
        elif k in _LITERALS:
            add((s, ends[i] - s, _LITERALS[k], ()))
        i += 1
    return out


def _skip_to(starts: list[int], i: int, end: int) -> int:
    """The first token at or after `end` (a source-map span may cover several lexer tokens)."""
    i += 1
    while starts[i] < end:
        i += 1
    return i


def _angle_matches(text: str, toks: lexer.Tokens) -> dict[int, int]:
    """Index of the `>` closing each `<` token that is closed on its own line, before any `{`
    or `}`: one pass with a stack (matching each `<` by a scan to its line's end cost a long
    line of unclosed `<`s quadratic time)."""
    breaks = [m.start() for m in _LINE_BREAK.finditer(text)]
    texts, kinds, starts = toks.texts, toks.kinds, toks.starts
    out: dict[int, int] = {}
    stack: list[int] = []
    line_end = -1  # the line break ending the line of the `<`s on the stack
    for j in range(len(texts) - 1):
        if kinds[j] != lexer.PUNCT:
            continue
        t = texts[j]
        if stack and starts[j] > line_end:
            stack.clear()  # those `<` are not closed on their line
        if t == "<":
            if not stack:
                b = bisect.bisect_left(breaks, starts[j])
                line_end = breaks[b] if b < len(breaks) else len(text)
            stack.append(j)
        elif t == ">":
            if stack:
                out[stack.pop()] = j
        elif t in ("{", "}"):
            stack.clear()
    return out


def _word_type(word: str, kind: int, texts: list[str], kinds: list[int], i: int, op_words: frozenset[str]) -> str:
    """A bare word the source maps do not know: a type, an attribute name, an op the parse
    did not reach, or a keyword (enum cases, `iter_values`, `weak`, ...)."""
    follows = texts[i + 1]
    if kind == lexer.BANG or word in _SCALAR_TYPES or (word == "token" and follows != "="):
        return "type"
    if follows == "=":
        return "property"
    if word in op_words and i > 0 and texts[i - 1] == "=" and i > 1 and kinds[i - 2] in (lexer.VALUE, lexer.INT):
        return "function"
    return "keyword"


def comment_tokens(text: str, toks: lexer.Tokens) -> list[Rel]:
    """`//` comments: they lie between lexer tokens (a `//` inside a string is not one)."""
    out: list[Rel] = []
    pos = text.find("//")
    starts, ends = toks.starts, toks.ends
    while pos >= 0:
        j = bisect.bisect_right(starts, pos) - 1
        if j >= 0 and pos < ends[j]:  # inside a string token
            pos = text.find("//", ends[j])
            continue
        found = _LINE_BREAK.search(text, pos)  # a comment ends at "\n" or "\r", as the lexer's does
        end = len(text) if found is None else found.start()
        out.append((pos, end - pos, "comment", ()))
        pos = text.find("//", end)
    return out


def _merge(tokens: list[Rel], comments: list[Rel]) -> list[Rel]:
    out: list[Rel] = []
    ci = 0
    for tok in tokens:
        while ci < len(comments) and comments[ci][0] < tok[0]:
            out.append(comments[ci])
            ci += 1
        out.append(tok)
    out.extend(comments[ci:])
    return out
