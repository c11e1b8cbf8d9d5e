"""Code actions: quick fixes for diagnostics with an obvious repair, and wrapping bare items in a module.

Each candidate edit is applied and re-analysed: offered only if its diagnostic goes and no error comes.
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, Stopped, analyze
from tile_lsp.compiler.source import Span
from tile_lsp.features.fix_context import Edits, FixContext, Provider, apply_edits, line_ending
from tile_lsp.features.fix_providers import fix_enum, fix_op_name, fix_result_type, fix_use_type, fix_value_name
from tile_lsp.features.fix_terminators import fix_if_terminator, fix_loop_terminator, fix_missing_else

__all__ = ["QUICKFIX", "REWRITE", "WRAP_TITLE", "Fix", "apply_edits", "quick_fixes"]

QUICKFIX = "quickfix"
REWRITE = "refactor.rewrite"
WRAP_TITLE = "Wrap in cuda_tile.module"
WRAP_HEADER = "cuda_tile.module @module {"
_ITEM_KINDS = ("cuda_tile.entry", "cuda_tile.global", "cuda_tile.testing$func")


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[tuple[Span, str], ...]  # absolute spans -> replacement text
    diagnostic: Diagnostic | None = None
    kind: str = QUICKFIX  # or REWRITE (refactors offered without a diagnostic)
    preferred: bool = False  # the best fix for its diagnostic


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    provider: Provider
    limit: int  # how many verified fixes to offer
    truncates: bool  # a parse error that hid the rest of its item: errors revealed later are not new


def quick_fixes(
    doc: DocumentAnalysis, span: Span, cache: ItemCache | None = None, cancelled: Callable[[], bool] | None = None
) -> list[Fix]:
    """Fixes for the diagnostics overlapping `span`, and the wrap refactor on bare items.
    `cancelled` is asked before each candidate's re-analysis (the expensive part): true raises
    `Stopped`."""
    out: list[Fix] = []
    seen: set[Edits] = set()
    for diag in doc.diagnostics:
        if not diag.is_error or not _overlaps(diag.span, span):
            continue
        for fix in _fixes_for(doc, diag, cache, cancelled):
            if fix.edits not in seen:
                seen.add(fix.edits)
                out.append(fix)
    wrap = _wrap_fix(doc, span, cache)
    if wrap is not None:
        out.append(wrap)
    return out


def _overlaps(a: Span, b: Span) -> bool:
    return a.start <= b.end and b.start <= a.end


def _fixes_for(
    doc: DocumentAnalysis, diag: Diagnostic, cache: ItemCache | None, cancelled: Callable[[], bool] | None = None
) -> list[Fix]:
    item = doc.item_at(diag.span.start)
    if item is None:
        return []
    ctx = FixContext(doc, diag, item)
    fixes: list[Fix] = []
    for rule in _RULES:
        m = rule.pattern.search(diag.message)
        if m is None:
            continue
        tried: set[Edits] = set()
        for title, edits in rule.provider(ctx, m):
            if len(fixes) >= rule.limit:
                break
            if edits in tried:
                continue
            tried.add(edits)
            if cancelled is not None and cancelled():
                raise Stopped()
            if _repairs(doc, diag, edits, rule.truncates, cache):
                fixes.append(Fix(title, edits, diag, preferred=not fixes))
        break  # one rule per message
    return fixes


# -- verification -------------------------------------------------------------------------

_AFTER: OrderedDict[str, list[Diagnostic]] = OrderedDict()  # edited text -> its diagnostics
_AFTER_SIZE = 16
_OWN_CACHE = ItemCache(256)  # when the caller has none: repeated requests stay cheap


def _diagnostics(text: str, path: str, cache: ItemCache | None) -> list[Diagnostic]:
    """Diagnostics of an edited text; memoized, since editors ask for actions on every cursor move."""
    hit = _AFTER.get(text)
    if hit is None:
        hit = analyze(text, path, cache if cache is not None else _OWN_CACHE).diagnostics
        _AFTER[text] = hit
        while len(_AFTER) > _AFTER_SIZE:
            _AFTER.popitem(last=False)
    _AFTER.move_to_end(text)
    return hit


def _map(offset: int, edits: Edits) -> int:
    """Where an offset of the old text lands in the edited text (inside an edit: its start)."""
    shift = 0
    for span, new in sorted(edits, key=lambda e: e[0].start):
        if span.start < offset < span.end:
            return span.start + shift
        if span.end <= offset:  # insertions at `offset` push it along
            shift += len(new) - (span.end - span.start)
    return offset + shift


def _edited_end(edits: Edits) -> int:
    """End of the last edit's new text in the edited text."""
    shift, end = 0, 0
    for span, new in sorted(edits, key=lambda e: e[0].start):
        end = span.start + shift + len(new)
        shift += len(new) - (span.end - span.start)
    return end


def _repairs(doc: DocumentAnalysis, diag: Diagnostic, edits: Edits, truncates: bool, cache: ItemCache | None) -> bool:
    """The diagnostic is gone and the edit made no error of its own."""
    text = apply_edits(doc.source.text, edits)
    after = [d for d in _diagnostics(text, doc.source.path, cache) if d.is_error]
    where = _map(diag.span.start, edits)
    if any(d.message == diag.message and d.span.start == where for d in after):
        return False
    before = Counter((d.message, _map(d.span.start, edits)) for d in doc.diagnostics if d.is_error and d is not diag)
    new = [d for d in after if not _consume(before, (d.message, d.span.start))]
    if not truncates:
        return not new
    # Fixing a parse error reveals the checks it had hidden further down: only nearby errors count.
    line_end = text.find("\n", _edited_end(edits))
    limit = len(text) if line_end < 0 else line_end
    return all(d.span.start > limit for d in new)


def _consume(counter: Counter[tuple[str, int]], key: tuple[str, int]) -> bool:
    if counter[key] > 0:
        counter[key] -= 1
        return True
    return False


# -- the wrap refactor ------------------------------------------------------------------------------


def _bare_spans(doc: DocumentAnalysis) -> list[Span]:
    """Absolute spans of the top-level entries/globals that no module wraps."""
    if any(item.kind == "shell" for item in doc.items):
        return []
    spans = []
    for item in doc.items:
        if item.kind in ("entry", "global", "testing$func"):
            spans.append(Span(item.start, item.end))
        elif item.kind == "whole" and item.result.module is not None:
            smap = item.result.smap
            spans += [
                item.absolute(smap.ops[o].span)
                for o in item.result.module.ops
                if o.name in _ITEM_KINDS and o in smap.ops
            ]
    return spans


def _wrap_fix(doc: DocumentAnalysis, span: Span, cache: ItemCache | None) -> Fix | None:
    spans = _bare_spans(doc)
    if not spans or not any(_overlaps(s, span) for s in spans):
        return None
    text = doc.source.text
    eol = line_ending(text)
    start, end = spans[0].start, spans[-1].end
    body = text[start:end].rstrip()
    indented = "\n".join("  " + line if line.strip() else line.strip() for line in body.split("\n"))
    edits: Edits = ((Span(start, start + len(body)), f"{WRAP_HEADER}{eol}{indented}{eol}}}"),)
    if any(item.kind == "whole" for item in doc.items):
        # Parsed whole (aliases, generic form): check the wrapped text. Item by item, each item
        # parses alone either way and the new module shell is well formed, so nothing can change.
        before = Counter(d.message for d in doc.diagnostics if d.is_error)
        after = Counter(d.message for d in _diagnostics(apply_edits(text, edits), doc.source.path, cache) if d.is_error)
        if after - before:
            return None
    return Fix(WRAP_TITLE, edits, None, kind=REWRITE)


_RULES = (
    _Rule(re.compile(r"custom op '([^']+)' is unknown"), fix_op_name, 3, True),
    _Rule(re.compile(r"use of undeclared SSA value name '(%[^']+)'"), fix_value_name, 3, False),
    _Rule(
        re.compile(r"use of value '(%[^']+)' expects different type than prior uses: '([^']+)' vs '([^']+)'$"),
        fix_use_type,
        1,
        False,
    ),
    _Rule(
        re.compile(r"type of return operand \d+ \('([^']+)'\) doesn't match function result type \('([^']+)'\)"),
        fix_result_type,
        1,
        False,
    ),
    _Rule(re.compile(r"is missing a valid terminator\..*but found: \(\)$"), fix_loop_terminator, 1, False),
    _Rule(re.compile(r"but (then|else) branch does not yield anything"), fix_if_terminator, 1, False),
    _Rule(re.compile(r"has non-empty return type, must define else branch"), fix_missing_else, 1, False),
    _Rule(
        re.compile(
            r"to be one of:?|expect one of:?|one of the following enum values for attribute '[^']*'"
            r"|unknown assume predicate attribute: \S+ \(expected"
        ),
        fix_enum,
        3,
        True,
    ),
)
