"""What sits at an offset of an analysed document: a value, a symbol, an op name, or a type.

Every feature starts here; spans returned are absolute (document offsets).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import Operation, OpResult, SSAValue

from tile_lsp.compiler.document import DocumentAnalysis, Item, Stopped
from tile_lsp.compiler.source import Span


@dataclass(frozen=True)
class ValueRef:
    item: Item
    value: SSAValue
    name: str
    span: Span  # the occurrence under the cursor (absolute)
    is_def: bool


@dataclass(frozen=True)
class SymbolRef:
    name: str
    span: Span  # absolute
    is_def: bool
    item: Item  # where the occurrence is


@dataclass(frozen=True)
class OpRef:
    item: Item
    op: Operation
    span: Span  # the op-name token (absolute)


@dataclass(frozen=True)
class TypeRef:
    text: str
    span: Span


Target = ValueRef | SymbolRef | OpRef | TypeRef


def target_at(doc: DocumentAnalysis, offset: int) -> Target | None:
    """The most specific thing at `offset` (a cursor just after a token still counts)."""
    item = doc.item_at(offset)
    if item is None:
        return None
    local = item.local(offset)
    smap = item.result.smap
    for value, span in smap.value_defs.items():
        if span.start <= local <= span.end:
            return ValueRef(item, value, _base_name(smap.value_names.get(value, "")), item.absolute(span), True)
    for use in smap.uses:
        if use.span.start <= local <= use.span.end:
            name = doc.source.text[item.start + use.span.start : item.start + use.span.end]
            return ValueRef(item, use.value, name, item.absolute(use.span), False)
    for info in smap.ops.values():
        if info.symbol_span is not None and info.symbol_span.start <= local <= info.symbol_span.end:
            name = _symbol_text(doc, item, info.symbol_span)
            return SymbolRef(name, item.absolute(info.symbol_span), True, item)
    for sym in smap.symbol_uses:
        if sym.span.start <= local <= sym.span.end:
            return SymbolRef(sym.name, item.absolute(sym.span), False, item)
    for op, info in smap.ops.items():
        if info.name_span.start <= local <= info.name_span.end and info.name_span.end > info.name_span.start:
            return OpRef(item, op, item.absolute(info.name_span))
    return type_at(doc, offset)


def _base_name(name: str) -> str:
    return name.split("#")[0]


def _symbol_text(doc: DocumentAnalysis, item: Item, span: Span) -> str:
    return doc.source.text[item.start + span.start + 1 : item.start + span.end].strip('"')


_TYPE_HEAD = re.compile(r"(?:!cuda_tile\.)?(?:tile|ptr|tensor_view|partition_view|strided_view|gather_scatter_view)<|(?:!cuda_tile\.)?token\b")


def type_at(doc: DocumentAnalysis, offset: int) -> TypeRef | None:
    """The outermost cuda_tile type spelled around `offset` on its line, by bracket matching.

    Linear in the line: a type that ends before `offset` is skipped whole (the types nested in
    it are not matched again), and no type starting after `offset` is looked at."""
    text = doc.source.text
    line, _ = doc.source.line_col(offset)
    line_start = doc.source.line_starts()[line]
    line_text = doc.source.line_text(line)
    at = 0
    while True:
        m = _TYPE_HEAD.search(line_text, at)
        if m is None or line_start + m.start() > offset:
            return None
        start = line_start + m.start()
        end = line_start + m.end()
        if m.group().endswith("<"):
            depth = 1
            while end < line_start + len(line_text) and depth:
                c = text[end]
                depth += c == "<"
                depth -= c == ">"
                end += 1
        if offset <= end:
            return TypeRef(text[start:end], Span(start, end))
        at = end - line_start


def value_occurrences(item: Item, value: SSAValue) -> list[tuple[Span, bool]]:
    """Every (absolute span, is_definition) of a value inside its item. A result group
    (`%r:2 = ...`) is one name: the uses of all its results count (`%r#1` is `%r`)."""
    smap = item.result.smap
    out: list[tuple[Span, bool]] = []
    d = smap.value_defs.get(value)
    group = {id(value)}
    if d is not None:
        out.append((item.absolute(d), True))
        if isinstance(value, OpResult):
            group = {id(r) for r in value.op.results if smap.value_defs.get(r) == d}
    out.extend((item.absolute(u.span), False) for u in smap.uses if id(u.value) in group)
    return out


def symbol_occurrences(doc: DocumentAnalysis, name: str, cancelled: Callable[[], bool] | None = None) -> list[tuple[Span, bool]]:
    """Every (absolute span, is_definition) of a module symbol across the document; `cancelled`
    is asked before each item (True: `Stopped`)."""
    out: list[tuple[Span, bool]] = []
    for item in doc.items:
        if cancelled is not None and cancelled():
            raise Stopped()
        smap = item.result.smap
        for info in smap.ops.values():
            if info.symbol_span is not None and _symbol_text(doc, item, info.symbol_span) == name:
                out.append((item.absolute(info.symbol_span), True))
        out.extend((item.absolute(s.span), False) for s in smap.symbol_uses if s.name == name)
    return sorted(set(out))
