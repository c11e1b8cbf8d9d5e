"""Fix providers that change a written word: a misspelt op, value or keyword name, or a mismatched type.

Each takes the diagnostic's context and its message match, and yields candidate edits to verify.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.features.fix_context import Candidate, Edits, FixContext

# -- providers: names -------------------------------------------------------------------------


def _closest(word: str, choices: list[str], n: int = 3) -> list[str]:
    return difflib.get_close_matches(word, [c for c in choices if c != word], n=n, cutoff=0.6)


def _word_span(ctx: FixContext, word: str) -> Span | None:
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


def fix_op_name(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
    word = m.group(1)
    span = _word_span(ctx, word)
    if span is None:
        return
    for name in _closest(word, _op_names(word)):
        yield f"Change to '{name}'", ((span, name),)


def fix_value_name(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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


def _scope(ctx: FixContext) -> Span:
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


def fix_enum(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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


def fix_use_type(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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


def fix_result_type(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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
