"""Completion of op names and op keywords: which ops may start a statement where the
cursor is, and the keywords an op's custom form accepts, read off its format.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import DIRECTIVE_KEYWORDS
from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.syntax import format as fmt
from tile_lsp.features.completion_scope import braces_before, chunk_start
from tile_lsp.features.completion_types import Completion, Cursor, keyword

ITEM_OPS = ("cuda_tile.entry", "cuda_tile.global")
_NOT_IN_BODIES = frozenset(("builtin.module", "cuda_tile.module", *ITEM_OPS, "cuda_tile.testing$func"))


# -- op names --------------------------------------------------------------------------


@dataclass(frozen=True)
class OpEntry:
    name: str  # full name
    summary: str
    doc: str
    has_results: bool


@cache
def op_table() -> tuple[OpEntry, ...]:
    out = []
    for name, cls in sorted(registry.all_ops().items()):
        doc = inspect.getdoc(cls) or ""
        has_results = bool(registry.op_fields(cls).results)
        out.append(OpEntry(name, doc.splitlines()[0] if doc else "", doc, has_results))
    return tuple(out)


def op_names(cur: Cursor, with_results: bool) -> list[Completion]:
    """Ops that may start here: items at the top level and in modules, the rest in bodies."""
    region = enclosing_region(cur.doc, cur.offset)
    if region == "body":
        allowed = [e for e in op_table() if e.name.startswith("cuda_tile.") and e.name not in _NOT_IN_BODIES]
        short = not cur.word.startswith("cuda_tile.")
    elif region == "cuda_tile.module":
        allowed = [e for e in op_table() if e.name in ITEM_OPS]
        short = not cur.word.startswith("cuda_tile.")
    else:  # top level, or a builtin module: short `entry` only in files written that way
        allowed = [e for e in op_table() if e.name in ("cuda_tile.module", *ITEM_OPS)]
        short = _bare_items(cur.doc) and not cur.word.startswith("cuda_tile.")
    if with_results:
        allowed = [e for e in allowed if e.has_results]
    out = []
    for e in allowed:
        label = e.name.removeprefix("cuda_tile.") if short and e.name != "cuda_tile.module" else e.name
        out.append(Completion(label, "op", e.summary, label, e.doc, cur.replace))
    return out


def _bare_items(doc: DocumentAnalysis) -> bool:
    return not any(i.kind == "shell" for i in doc.items) and any(i.kind in ("entry", "global") for i in doc.items)


_REGION_OWNER = re.compile(r"[ \t]*(cuda_tile\.module|module)\b")


def enclosing_region(doc: DocumentAnalysis, offset: int) -> str:
    """'top', 'module' (builtin), 'cuda_tile.module' or 'body': whose region the cursor is in.
    Only the cursor's item is scanned; an item of a split file sits in the module (if any)."""
    text = doc.source.text
    item = doc.item_at(offset)
    if item is not None and item.kind != "whole":
        stack = braces_before(text, item.start, offset).open_stack
        outer = "cuda_tile.module" if any(i.kind == "shell" for i in doc.items) else "top"
    else:
        stack = braces_before(text, chunk_start(text, offset), offset).open_stack
        outer = "top"
    if not stack:
        return outer
    line_start = text.rfind("\n", 0, stack[-1]) + 1
    m = _REGION_OWNER.match(text, line_start)
    return m.group(1) if m else "body"


# -- op keywords -----------------------------------------------------------------------


def op_keywords(cur: Cursor, op_name: str) -> list[Completion]:
    if not op_name:
        return []
    return [keyword(k, op_name.removeprefix("cuda_tile."), cur.replace) for k in op_keyword_spellings(op_name)]


@cache
def op_keyword_spellings(op_name: str) -> tuple[str, ...]:
    """Keywords an op's custom form accepts, read off its format and ATTR_SYNTAX."""
    cls = registry.op_class(op_name)
    if cls is None:
        return ()
    attr_syntax = getattr(cls, "ATTR_SYNTAX", {})
    elements = fmt.op_syntax(cls).elements
    words = list(_format_keywords(elements, attr_syntax)) if elements is not None else []
    for syntax in attr_syntax.values():
        words.extend(getattr(syntax, "cases", ()))
    return tuple(dict.fromkeys(words))


def _format_keywords(elements: Sequence[object], attr_syntax: dict[str, object]) -> Iterator[str]:
    for i, e in enumerate(elements):
        if isinstance(e, fmt.Optional_):
            yield from _format_keywords(e.elements, attr_syntax)
            yield from _format_keywords(e.else_elements, attr_syntax)
        elif isinstance(e, fmt.Lit) and e.text[:1].isalpha():
            yield from _literal_keyword(e.text, elements[i + 1 :], attr_syntax)
        elif isinstance(e, fmt.Custom):
            yield from _directive_keywords(e, attr_syntax)


def _literal_keyword(word: str, rest: Sequence[object], attr_syntax: dict[str, object]) -> Iterator[str]:
    """`rounding` before a bracketed enum is spelled `rounding<case>`; other keywords alone."""
    following = next((e for e in rest if not (isinstance(e, fmt.Lit) and not e.text)), None)
    syntax = attr_syntax.get(following.name) if isinstance(following, fmt.Var) else None
    if syntax is not None and getattr(syntax, "bracketed", False):
        yield from (f"{word}<{c}>" for c in getattr(syntax, "cases", ()))
    else:
        yield word


def _directive_keywords(e: fmt.Custom, attr_syntax: dict[str, object]) -> Iterator[str]:
    if e.name in DIRECTIVE_KEYWORDS:
        yield from DIRECTIVE_KEYWORDS[e.name][1]
    elif e.name == "UnitFlags":  # its arguments are spelled as their own names
        yield from (a.lstrip("$") for a in e.args)
    else:
        for a in e.args:
            yield from getattr(attr_syntax.get(a.lstrip("$")), "cases", ())
