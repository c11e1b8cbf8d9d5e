"""Code actions: quick fixes for diagnostics with an obvious repair, and wrapping bare items in a module.

Each candidate edit is applied and re-analysed: offered only if its diagnostic goes and no error comes.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from xdsl.ir import Attribute, Block, Operation, SSAValue

from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.document import DocumentAnalysis, Item, ItemCache, analyze
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.types import type_str

QUICKFIX = "quickfix"
REWRITE = "refactor.rewrite"
WRAP_TITLE = "Wrap in cuda_tile.module"
WRAP_HEADER = "cuda_tile.module @module {"
_ITEM_KINDS = ("cuda_tile.entry", "cuda_tile.global", "cuda_tile.testing$func")

Edits = tuple[tuple[Span, str], ...]


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[tuple[Span, str], ...]  # absolute spans -> replacement text
    diagnostic: Diagnostic | None = None
    kind: str = QUICKFIX  # or REWRITE (refactors offered without a diagnostic)
    preferred: bool = False  # the best fix for its diagnostic


@dataclass(frozen=True)
class _Context:
    """What a fix provider looks at: the document, the diagnostic, the item it sits in."""

    doc: DocumentAnalysis
    diag: Diagnostic
    item: Item

    @property
    def text(self) -> str:
        return self.doc.source.text

    def op_at_span(self) -> Operation | None:
        """The op whose whole span is the diagnostic's (verifier errors point at the op)."""
        local = Span(self.item.local(self.diag.span.start), self.item.local(self.diag.span.end))
        for op, info in self.item.result.smap.ops.items():
            if info.span == local:
                return op
        return None


Candidate = tuple[str, Edits]
Provider = Callable[[_Context, re.Match[str]], Iterator[Candidate]]


@dataclass(frozen=True)
class _Rule:
    pattern: re.Pattern[str]
    provider: Provider
    limit: int  # how many verified fixes to offer
    truncates: bool  # a parse error that hid the rest of its item: errors revealed later are not new


def quick_fixes(doc: DocumentAnalysis, span: Span, cache: ItemCache | None = None) -> list[Fix]:
    """Fixes for the diagnostics overlapping `span`, and the wrap refactor on bare items."""
    out: list[Fix] = []
    seen: set[Edits] = set()
    for diag in doc.diagnostics:
        if not diag.is_error or not _overlaps(diag.span, span):
            continue
        for fix in _fixes_for(doc, diag, cache):
            if fix.edits not in seen:
                seen.add(fix.edits)
                out.append(fix)
    wrap = _wrap_fix(doc, span, cache)
    if wrap is not None:
        out.append(wrap)
    return out


def _overlaps(a: Span, b: Span) -> bool:
    return a.start <= b.end and b.start <= a.end


def _fixes_for(doc: DocumentAnalysis, diag: Diagnostic, cache: ItemCache | None) -> list[Fix]:
    item = doc.item_at(diag.span.start)
    if item is None:
        return []
    ctx = _Context(doc, diag, item)
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


def apply_edits(text: str, edits: Edits) -> str:
    """The text with non-overlapping edits applied."""
    out, pos = [], 0
    for span, new in sorted(edits, key=lambda e: e[0].start):
        out.append(text[pos : span.start])
        out.append(new)
        pos = span.end
    out.append(text[pos:])
    return "".join(out)


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


# -- providers: names -------------------------------------------------------------------------


def _closest(word: str, choices: list[str], n: int = 3) -> list[str]:
    return difflib.get_close_matches(word, [c for c in choices if c != word], n=n, cutoff=0.6)


def _word_span(ctx: _Context, word: str) -> Span | None:
    """The diagnostic's own span when it spells `word`, else the nearest `word` before it on its line."""
    text, span = ctx.text, ctx.diag.span
    if text[span.start : span.end].strip('"') == word:
        return span
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.start)
    line_end = len(text) if line_end < 0 else line_end
    hits = list(re.finditer(rf"(?<![\w$.]){re.escape(word)}(?![\w$.])", text[line_start:line_end]))
    before = [m for m in hits if line_start + m.start() <= span.end]
    if not (before or hits):
        return None
    m = (before or hits)[-1]
    return Span(line_start + m.start(), line_start + m.end())


def _op_names(word: str) -> list[str]:
    names = registry.all_ops()
    if "." in word and not word.startswith("testing$"):
        return sorted(names)
    return sorted(n.removeprefix("cuda_tile.") for n in names if n.startswith("cuda_tile."))


def _fix_op_name(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    word = m.group(1)
    span = _word_span(ctx, word)
    if span is None:
        return
    for name in _closest(word, _op_names(word)):
        yield f"Change to '{name}'", ((span, name),)


def _fix_value_name(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """Every use of the undeclared name becomes the closest name defined before it."""
    bad = m.group(1)
    item, smap = ctx.item, ctx.item.result.smap
    scope = _scope(ctx)
    use_at = item.local(ctx.diag.span.start)
    defined = sorted(
        {
            name.split("#")[0]
            for v, name in smap.value_names.items()
            if v in smap.value_defs
            and scope.start <= item.absolute(smap.value_defs[v]).start
            and smap.value_defs[v].start < use_at
        }
    )
    uses = _value_tokens(ctx.text, scope, bad)
    for name in _closest(bad, defined):
        yield f"Change to '{name}'", tuple((span, name) for span in uses)


def _scope(ctx: _Context) -> Span:
    """The top-level op around the diagnostic (an entry: values never cross it), else the item."""
    item, module = ctx.item, ctx.item.result.module
    for op in module.ops if module is not None else ():
        info = item.result.smap.ops.get(op)
        if info is not None:
            span = item.absolute(info.span)
            if span.start <= ctx.diag.span.start < span.end:
                return span
    return Span(item.start, item.end)


def _value_tokens(text: str, scope: Span, name: str) -> list[Span]:
    """Spans of the `%name` part of every `%name` / `%name#1` token in the scope."""
    toks = lexer.tokenize(text, scope.start, scope.end)
    return [
        Span(start, start + len(name))
        for kind, start, tok in zip(toks.kinds, toks.starts, toks.texts)
        if kind == lexer.VALUE and tok.split("#")[0] == name
    ]


def _fix_enum(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """A keyword the message lists the valid ones for: `to be one of: {'a', 'b'}`, `one of: 'a',
    got: 'w'`, `enum values for attribute 'x' [a, b]`, `attribute: w (expected 'a', or 'b')`."""
    msg = ctx.diag.message
    got = re.search(r",? (?:but )?got: '?([\w$.]+)'?", msg)
    listed = msg[m.end() : got.start() if got else len(msg)]
    allowed = re.findall(r"'([^']*)'", listed) or [w for w in re.findall(r"[\w$.]+", listed) if w not in ("or", "and")]
    bad = got.group(1) if got else ctx.text[ctx.diag.span.start : ctx.diag.span.end].strip('"')
    if not allowed or not re.fullmatch(r"[\w$.]+", bad):
        return
    span = _word_span(ctx, bad)
    if span is None:
        return
    quoted = ctx.text[span.start : span.end].startswith('"')
    for case in _closest(bad, allowed):
        yield f"Change to '{case}'", ((span, f'"{case}"' if quoted else case),)


# -- providers: types ---------------------------------------------------------------------------


def _spellings(long: str) -> list[str]:
    """A type as a diagnostic spells it (`!cuda_tile.tile<f32>`) and as short forms write it."""
    short = long.removeprefix("!cuda_tile.")
    return [long, short] if short != long else [long]


def _type_hits(text: str, start: int, end: int, long: str) -> list[tuple[Span, str]]:
    """Written occurrences of a type in text[start:end], with the spelling that replaces it."""
    hits: list[tuple[Span, str]] = []
    for spelling in _spellings(long):
        for m in re.finditer(rf"(?<![\w$.!<]){re.escape(spelling)}(?![\w$.])", text[start:end]):
            s = Span(start + m.start(), start + m.end())
            if not any(h.start <= s.start < h.end for h, _ in hits):
                hits.append((s, spelling))
    return sorted(hits, key=lambda h: h[0].start)


def _retype(hits: list[tuple[Span, str]], new_long: str) -> Iterator[Edits]:
    """Each occurrence alone, then all of them, each in the spelling style it was written in."""

    def spell(old: str) -> str:
        return new_long if old.startswith("!") else new_long.removeprefix("!cuda_tile.")

    for span, old in hits:
        yield ((span, spell(old)),)
    if len(hits) > 1:
        yield tuple((span, spell(old)) for span, old in hits)


def _header_end(text: str, start: int, end: int) -> int:
    """End of an op's header: its first region brace (a `{` that ends its line), else `end`."""
    m = re.compile(r"\{[ \t]*(?://[^\n]*)?\n").search(text, start, end)
    return m.start() if m else end


def _fix_use_type(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """The written type the use was checked against becomes the value's type."""
    wanted, actual = m.group(2), m.group(3)
    item, text = ctx.item, ctx.text
    start = ctx.diag.span.end
    user = next((u.user for u in item.result.smap.uses if item.absolute(u.span) == ctx.diag.span), None)
    info = item.result.smap.ops.get(user) if user is not None else None
    end = item.absolute(info.span).end if info is not None else text.find("\n", start)
    end = _header_end(text, start, end if end >= 0 else len(text))
    short = actual.removeprefix("!cuda_tile.")
    for edits in _retype(_type_hits(text, start, end, wanted), actual):
        yield f"Change type to '{short}'", edits


def _fix_result_type(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """The function's declared result type becomes the type actually returned."""
    got, want = m.group(1), m.group(2)
    op = ctx.op_at_span()
    func = op.parent_op() if op is not None else None
    while func is not None and "function_type" not in func.properties:
        func = func.parent_op()
    info = ctx.item.result.smap.ops.get(func) if func is not None else None
    if info is None:
        return
    span = ctx.item.absolute(info.span)
    header = _header_end(ctx.text, span.start, span.end)
    arrow = ctx.text.rfind("->", span.start, header)
    if arrow < 0:
        return
    short = got.removeprefix("!cuda_tile.")
    for edits in _retype(_type_hits(ctx.text, arrow, header, want), got):
        yield f"Change function result type to '{short}'", edits


# -- providers: terminators ------------------------------------------------------------------------


def _fix_loop_terminator(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """`continue` with, per loop-carried type, the last value of that type in the body."""
    op = ctx.op_at_span()
    if op is not None and op.name == "cuda_tile.continue":  # a written `continue` reports itself
        op = op.parent_op()
    if op is None or not op.regions or op.regions[0].blocks.first is None:
        return
    block = op.regions[0].blocks.first
    carried: list[SSAValue] = list(block.args[1:] if op.name == "cuda_tile.for" else block.args)
    types = [r.type for r in op.results] if op.name == "cuda_tile.for" else [a.type for a in carried]
    values = _pick_values(ctx, op, types, _results(block) + carried)
    if values is not None:
        yield from _terminator(ctx, op, 0, _op_text(ctx, op, "continue", values, types))


def _fix_if_terminator(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """`yield` with, per result type, the last value of that type in the branch or before the `if`."""
    op = ctx.op_at_span()
    index = 0 if m.group(1) == "then" else 1
    block = op.regions[index].blocks.first if op is not None and len(op.regions) == 2 else None
    if op is None or block is None:
        return
    types = [r.type for r in op.results]
    values = _pick_values(ctx, op, types, _results(block))
    if values is not None:
        yield from _terminator(ctx, op, index, _op_text(ctx, op, "yield", values, types))


def _fix_missing_else(ctx: _Context, m: re.Match[str]) -> Iterator[Candidate]:
    """An `else` branch yielding, per result type, the last value of that type before the `if`."""
    op = ctx.op_at_span()
    if op is None or not op.results:
        return
    types = [r.type for r in op.results]
    values = _pick_values(ctx, op, types, [])
    close = _region_close(ctx, op, 0)
    if values is None or close is None:
        return
    line = _op_text(ctx, op, "yield", values, types)
    brace = ctx.text.index("}", close)
    indent = ctx.text[close:brace]
    eol = _eol(ctx.text)
    yield f"Add 'else {{ {line} }}'", ((Span(brace + 1, brace + 1), f" else {{{eol}{indent}  {line}{eol}{indent}}}"),)


def _eol(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _results(block: Block) -> list[SSAValue]:
    """Values a block's ops define, latest first."""
    return [r for o in reversed(list(block.ops)) for r in o.results]


def _op_text(ctx: _Context, op: Operation, name: str, values: list[SSAValue], types: list[Attribute]) -> str:
    """A terminator spelled like `op` is: `cuda_tile.`-prefixed with long types, or short."""
    info = ctx.item.result.smap.ops.get(op)
    long = info is not None and ctx.text.startswith("cuda_tile.", ctx.item.absolute(info.name_span).start)
    names = ", ".join(ctx.item.result.smap.value_names[v] for v in values)
    spelled = ", ".join(type_str(t, short=not long) for t in types)
    return f"{'cuda_tile.' if long else ''}{name} {names} : {spelled}"


def _terminator(ctx: _Context, op: Operation, index: int, line: str) -> Iterator[Candidate]:
    """Insert `line` before region `index`'s closing brace, or replace an empty terminator."""
    block = op.regions[index].blocks.first
    if block is None:
        return
    smap = ctx.item.result.smap
    last = block.last_op
    written = smap.ops.get(last) if last is not None else None
    if written is not None and last is not None and not last.operands and last.name.endswith(line.split()[0]):
        yield f"Change to '{line}'", ((ctx.item.absolute(written.span), line),)
        return
    at = _region_close(ctx, op, index)
    if at is not None:
        indent = _body_indent(ctx, block, at)
        yield f"Insert '{line}'", ((Span(at, at), f"{indent}{line}{_eol(ctx.text)}"),)


def _pick_values(
    ctx: _Context, op: Operation, types: list[Attribute], inner: Sequence[SSAValue]
) -> list[SSAValue] | None:
    """For each type, the first named value of that type: from `inner`, then the latest before
    `op` in its enclosing blocks. None when some type has none."""
    names = ctx.item.result.smap.value_names
    pool: list[SSAValue] = list(inner)
    outer: Operation | None = op
    while outer is not None and (parent := outer.parent_block()) is not None:
        earlier = []
        for o in parent.ops:
            if o is outer:
                break
            earlier.append(o)
        pool += [r for o in reversed(earlier) for r in o.results]
        pool += list(parent.args)
        outer = outer.parent_op()
    chosen: list[SSAValue] = []
    for t in types:
        v = next((v for v in pool if v.type == t and v in names and v not in chosen), None)
        if v is None:
            return None
        chosen.append(v)
    return chosen


def _region_close(ctx: _Context, op: Operation, index: int) -> int | None:
    """Offset of the start of the line holding region `index`'s closing `}` (on its own line)."""
    info = ctx.item.result.smap.ops.get(op)
    if info is None:
        return None
    span = ctx.item.absolute(info.span)
    toks = lexer.tokenize(ctx.text, span.start, span.end)
    depth, region = 0, -1
    for i, tok in enumerate(toks.texts):
        if tok == "{":
            depth += 1
            region += depth == 1
        elif tok == "}":
            depth -= 1
            if depth == 0 and region == index:
                line_start = ctx.text.rfind("\n", 0, toks.starts[i]) + 1
                if ctx.text[line_start : toks.starts[i]].strip():
                    return None
                return line_start
    return None


def _body_indent(ctx: _Context, block: Block, close_line: int) -> str:
    """The indentation of the block's last written op, else one level in from the `}`."""
    smap = ctx.item.result.smap
    for o in reversed(list(block.ops)):
        info = smap.ops.get(o)
        if info is not None and info.span.end > info.span.start:
            start = ctx.item.absolute(info.span).start
            line_start = ctx.text.rfind("\n", 0, start) + 1
            return ctx.text[line_start:start] if not ctx.text[line_start:start].strip() else ""
    close = ctx.text[close_line:]
    return close[: len(close) - len(close.lstrip(" \t"))] + "  "


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
    eol = _eol(text)
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
    _Rule(re.compile(r"custom op '([^']+)' is unknown"), _fix_op_name, 3, True),
    _Rule(re.compile(r"use of undeclared SSA value name '(%[^']+)'"), _fix_value_name, 3, False),
    _Rule(
        re.compile(r"use of value '(%[^']+)' expects different type than prior uses: '([^']+)' vs '([^']+)'$"),
        _fix_use_type,
        1,
        False,
    ),
    _Rule(
        re.compile(r"type of return operand \d+ \('([^']+)'\) doesn't match function result type \('([^']+)'\)"),
        _fix_result_type,
        1,
        False,
    ),
    _Rule(re.compile(r"is missing a valid terminator\..*but found: \(\)$"), _fix_loop_terminator, 1, False),
    _Rule(re.compile(r"but (then|else) branch does not yield anything"), _fix_if_terminator, 1, False),
    _Rule(re.compile(r"has non-empty return type, must define else branch"), _fix_missing_else, 1, False),
    _Rule(
        re.compile(
            r"to be one of:?|expect one of:?|one of the following enum values for attribute '[^']*'"
            r"|unknown assume predicate attribute: \S+ \(expected"
        ),
        _fix_enum,
        3,
        True,
    ),
)
