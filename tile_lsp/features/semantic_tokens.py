"""Semantic tokens: ops, types, values, symbols, attributes, keywords, literals and comments.

The SourceMap says what each op name, value and symbol is; one lexer pass over the whole
text adds types, keywords and literals, and still colours text a broken parse did not reach.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from functools import cache
from typing import NamedTuple

from xdsl.dialects import builtin
from xdsl.ir import BlockArgument, SSAValue

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.document import DocumentAnalysis, Item
from tile_lsp.compiler.frontend import ParseResult
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.sourcemap import SourceMap
from tile_lsp.compiler.syntax.types import CUDA_TILE_TYPES

TOKEN_TYPES = [
    "function",
    "type",
    "variable",
    "parameter",
    "namespace",
    "property",
    "keyword",
    "number",
    "string",
    "comment",
]
TOKEN_MODIFIERS = ["declaration", "definition", "readonly"]


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
_CACHE_SIZE = 4096

# Tokens of one segment relative to its start; a symbol reference's type is "@name" until
# the document's symbol table resolves it (an entry -> function, a global -> variable).
Rel = tuple[int, int, str, tuple[str, ...]]
# What a source map says, per start in the segment: (end, token type, modifiers).
Known = dict[int, tuple[int, str, tuple[str, ...]]]


class _Entry:
    """Cached tokens of one parsed item (kept with its ParseResult so the id stays unique)."""

    __slots__ = ("result", "rel", "symbols", "placed_at", "placed")

    def __init__(self, result: ParseResult, rel: list[Rel]):
        self.result = result
        self.rel = rel
        self.symbols = _symbol_indices(rel)
        self.placed_at: tuple[int, frozenset[tuple[str, str]]] | None = None
        self.placed: list[Token] = []


_cache: OrderedDict[int, _Entry] = OrderedDict()


def semantic_tokens(doc: DocumentAnalysis) -> list[Token]:
    """Tokens in document order, non-overlapping and single-line. Items come from a cache
    keyed by their ParseResult, which the analysis reuses for unchanged item text."""
    text = doc.source.text
    symbol_types = _symbol_types(doc)
    key = frozenset(symbol_types.items())
    out: list[Token] = []
    for start, end, item in segments(doc):
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
    entry = _cache.get(id(item.result))
    if entry is None or entry.result is not item.result:
        entry = _Entry(item.result, segment_tokens(text[item.start : item.end], item.result.smap, 0))
        _cache[id(item.result)] = entry
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    _cache.move_to_end(id(item.result))
    if entry.placed_at != (item.start, key):
        entry.placed = _place(entry.rel, item.start, symbol_types, entry.symbols)
        entry.placed_at = (item.start, key)
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
        if item.kind in ("whole", "shell"):
            ops = [op for op, info in item.result.smap.ops.items() if info.symbol_span is not None]
        else:
            ops = [item.top_op] if item.top_op is not None else []
        for op in ops:
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
                j = _matching_angle(text, toks, i + 1)
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


def _matching_angle(text: str, toks: lexer.Tokens, i: int) -> int | None:
    """Index of the `>` closing the `<` at token `i`, if it is on the same line."""
    texts, kinds = toks.texts, toks.kinds
    line_end = text.find("\n", toks.starts[i])
    depth = 0
    for j in range(i, len(texts) - 1):
        if line_end >= 0 and toks.starts[j] > line_end:
            return None
        if kinds[j] == lexer.PUNCT:
            t = texts[j]
            if t == "<":
                depth += 1
            elif t == ">":
                depth -= 1
                if depth == 0:
                    return j
            elif t in ("{", "}"):
                return None
    return None


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
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
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
