"""Definition, references, document highlight and rename for values, block arguments and
module symbols (entries, globals, `get_global @g` uses), forward references included.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.source import Span
from tile_lsp.features.index import SymbolRef, ValueRef, symbol_occurrences, target_at, value_occurrences


@dataclass(frozen=True)
class Occurrence:
    span: Span
    is_def: bool


def definition(doc: DocumentAnalysis, offset: int) -> list[Span]:
    """Where the value or symbol under the cursor is defined."""
    return [o.span for o in occurrences(doc, offset) if o.is_def]


def references(
    doc: DocumentAnalysis, offset: int, include_declaration: bool = True, cancelled: Callable[[], bool] | None = None
) -> list[Span]:
    """Every occurrence of the value or symbol under the cursor. `cancelled` is asked before
    each item a symbol's search looks at: True stops with `Stopped`."""
    return [o.span for o in occurrences(doc, offset, cancelled) if include_declaration or not o.is_def]


def occurrences(doc: DocumentAnalysis, offset: int, cancelled: Callable[[], bool] | None = None) -> list[Occurrence]:
    """Definition and uses of the value/symbol at `offset` (empty if none)."""
    target = target_at(doc, offset)
    if isinstance(target, ValueRef):
        return [Occurrence(s, d) for s, d in value_occurrences(target.item, target.value)]
    if isinstance(target, SymbolRef):
        return [Occurrence(s, d) for s, d in symbol_occurrences(doc, target.name, cancelled)]
    return []


_VALUE_NAME = re.compile(r"%[A-Za-z_$.-][\w$.-]*\Z|%\d+\Z")
_SYMBOL_NAME = re.compile(r"@[A-Za-z_$.][\w$.-]*\Z")


def prepare_rename(doc: DocumentAnalysis, offset: int) -> tuple[Span, str] | None:
    """The span and current name a rename at `offset` would change."""
    target = target_at(doc, offset)
    if isinstance(target, ValueRef):
        span = _name_part(doc, target.span)
        return span, doc.source.text[span.start : span.end]
    if isinstance(target, SymbolRef):
        return target.span, doc.source.text[target.span.start : target.span.end]
    return None


def rename(doc: DocumentAnalysis, offset: int, new_name: str) -> list[tuple[Span, str]] | str:
    """Text edits for a rename, or an error message explaining why it cannot be done."""
    target = target_at(doc, offset)
    if isinstance(target, ValueRef):
        new = new_name if new_name.startswith("%") else "%" + new_name
        if not _VALUE_NAME.match(new):
            return f"'{new}' is not a valid SSA value name"
        clash = _value_clash(doc, target, new)
        if clash:
            return f"'{new}' is already defined in this scope"
        return [(_name_part(doc, s), new) for s, _ in value_occurrences(target.item, target.value)]
    if isinstance(target, SymbolRef):
        new = new_name if new_name.startswith("@") else "@" + new_name
        if not _SYMBOL_NAME.match(new):
            return f"'{new}' is not a valid symbol name"
        if any(name == new[1:] for name, _ in doc.symbol_items()):
            return f"symbol '{new}' already exists"
        return [(s, new) for s, _ in symbol_occurrences(doc, target.name)]
    return "nothing to rename here"


def _name_part(doc: DocumentAnalysis, span: Span) -> Span:
    """`%x#1` -> the `%x` part (result numbers stay)."""
    text = doc.source.text[span.start : span.end]
    hash_at = text.find("#")
    return Span(span.start, span.start + hash_at) if hash_at >= 0 else span


def _value_clash(doc: DocumentAnalysis, target: ValueRef, new: str) -> bool:
    names = target.item.result.smap.value_names.values()
    return any(n.split("#")[0] == new for n in names)
