"""Completion of values in scope: the brace structure before the cursor, and which
values defined earlier in the item (parsed or only typed) the cursor may see.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from xdsl.ir import BlockArgument, OpResult, SSAValue

from tile_lsp.compiler.document import Item
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.types import type_str
from tile_lsp.features.completion_types import CLOSE, OPEN, Completion, Cursor


@dataclass
class Braces:
    """Brace structure of the text between an item's start and the cursor."""

    positions: list[int] = field(default_factory=list)  # every `{` and `}` token
    depth_after: list[int] = field(default_factory=list)
    opens: list[bool] = field(default_factory=list)
    nesting: list[int] = field(default_factory=list)  # ( [ < depth at each brace
    suffix_min: list[int] = field(default_factory=list)  # lowest depth from event i to the cursor
    open_stack: list[int] = field(default_factory=list)  # `{` still open at the cursor
    marks: dict[int, tuple[int, int]] = field(default_factory=dict)  # value token -> (depth, nesting)
    lexical_defs: list[tuple[int, str]] = field(default_factory=list)  # `%x = ` the parse did not reach
    statements: list[int] = field(default_factory=list)  # where each line's first word or value is
    statement_depths: list[int] = field(default_factory=list)

    def still_open(self, event: int) -> bool:
        """The brace opened at `event` is not closed before the cursor."""
        return event + 1 >= len(self.positions) or self.suffix_min[event + 1] >= self.depth_after[event]

    def unclosed_since(self, pos: int, depth: int) -> bool:
        """No brace around `pos` (at brace depth `depth`) closes between it and the cursor."""
        i = bisect.bisect_right(self.positions, pos)
        return i >= len(self.positions) or self.suffix_min[i] >= depth

    def region_after(self, pos: int, nesting: int) -> int | None:
        """The region `{` a header block argument at `pos` belongs to: the first brace after it
        outside the brackets it sits in (so `optimization_hints=<default = {}>` is skipped)."""
        i = bisect.bisect_right(self.positions, pos)
        for j in range(i, len(self.positions)):
            if self.opens[j] and self.nesting[j] <= nesting:
                return j
        return None

    def statement_between(self, start: int, stop: int, depth: int) -> bool:
        """A statement at brace depth `depth` starts strictly between `start` and `stop`."""
        i = bisect.bisect_right(self.statements, start)
        j = bisect.bisect_left(self.statements, stop)
        return depth in self.statement_depths[i:j]


def braces_before(text: str, start: int, stop: int) -> Braces:
    """One lexer pass over text[start:stop]: braces, where each value token sits, statements."""
    toks = lexer.tokenize(text, start, stop)
    b = Braces()
    depth = nesting = 0
    kinds, starts, texts = toks.kinds, toks.starts, toks.texts
    for i in range(len(kinds) - 1):
        k, s, t = kinds[i], starts[i], texts[i]
        if k == lexer.VALUE or k == lexer.BARE or k == lexer.STRING:
            if k == lexer.VALUE:
                b.marks[s] = (depth, nesting)
            if _starts_statement(text, toks, i):
                b.statements.append(s)
                b.statement_depths.append(depth)
                if k == lexer.VALUE:
                    b.lexical_defs.extend(_lexical_results(toks, i))
        elif k != lexer.PUNCT:
            continue
        elif t == "{" or t == "}":
            if t == "}" and not b.open_stack:
                continue  # a stray `}` closes nothing: the depth never goes below 0
            depth += 1 if t == "{" else -1
            b.positions.append(s)
            b.depth_after.append(depth)
            b.opens.append(t == "{")
            b.nesting.append(nesting)
            if t == "{":
                b.open_stack.append(s)
            else:
                b.open_stack.pop()
        elif t in OPEN:
            nesting += 1
        elif t in CLOSE:
            nesting -= 1
    low = 1 << 30
    b.suffix_min = [0] * len(b.depth_after)
    for i in range(len(b.depth_after) - 1, -1, -1):
        low = min(low, b.depth_after[i])
        b.suffix_min[i] = low
    return b


def _starts_statement(text: str, toks: lexer.Tokens, i: int) -> bool:
    """First on its line or just after a `{`; a word after `}` continues its op (`} else {`)."""
    if i == 0:
        return True
    return toks.texts[i - 1] == "{" or text.find("\n", toks.ends[i - 1], toks.starts[i]) >= 0


def _lexical_results(toks: lexer.Tokens, i: int) -> list[tuple[int, str]]:
    """`%a, %b:2 =` at a statement start: the names it defines, found by their spelling."""
    found = []
    n = len(toks.kinds) - 1
    while i < n and toks.kinds[i] == lexer.VALUE:
        found.append((toks.starts[i], toks.texts[i]))
        i += 1
        if i + 1 < n and toks.texts[i] == ":" and toks.kinds[i + 1] == lexer.INT:
            i += 2
        if i < n and toks.texts[i] == ",":
            i += 1
            continue
        break
    return found if i < n and toks.texts[i] == "=" else []


def values_in_scope(cur: Cursor) -> list[Completion]:
    """Values the cursor may use, nearest definition first: earlier in its entry, in regions
    still open at the cursor (block arguments of enclosing for/loop/reduce bodies included)."""
    item = cur.doc.item_at(cur.offset)
    if item is None:
        return []
    text = cur.doc.source.text
    start = item.start if item.kind != "whole" else chunk_start(text, cur.offset)
    br = braces_before(text, start, cur.replace.start)
    found: dict[str, tuple[int, str]] = {}
    known = set()
    for value, span in item.result.smap.value_defs.items():
        pos = item.start + span.start
        known.add(pos)
        name = item.result.smap.value_names.get(value, "")
        if name and name not in found and _visible(item, value, pos, br, cur.offset):
            found[name] = (pos, type_str(value.type))
    line_start = text.rfind("\n", 0, cur.offset) + 1
    for pos, name in br.lexical_defs:
        if pos not in known and pos < line_start and name not in found and _lexically_visible(br, pos):
            found[name] = (pos, "")
    ordered = sorted(found.items(), key=lambda kv: -kv[1][0])
    return [Completion(name, "value", detail, name, "", cur.replace) for name, (_, detail) in ordered]


def _visible(item: Item, value: SSAValue, pos: int, br: Braces, offset: int) -> bool:
    mark = br.marks.get(pos)
    if mark is None:  # defined after the cursor
        return False
    depth, nesting = mark
    smap = item.result.smap
    if isinstance(value, OpResult):
        info = smap.ops.get(value.op)
        if info is None or item.start + info.span.end > offset:  # not in its own op
            return False
        return br.unclosed_since(pos, depth)
    if isinstance(value, BlockArgument) and value.owner in smap.block_spans:  # ^bb(%x: ...)
        return br.unclosed_since(pos, depth)
    region = br.region_after(pos, nesting)
    return region is not None and br.still_open(region)


def _lexically_visible(br: Braces, pos: int) -> bool:
    """Like `_visible`, for a `%x = ` the parse did not reach. Where the cursor is deeper, the
    brace holding it must belong to a later statement: in `%r = for ... {` (or an `if` with
    its `else`) the op's own results do not exist yet."""
    mark = br.marks.get(pos)
    if mark is None or not br.unclosed_since(pos, mark[0]):
        return False
    depth = mark[0]  # (== len(open_stack) where the value was: braces_before keeps it so)
    if len(br.open_stack) <= depth:
        return True
    return br.statement_between(pos, br.open_stack[depth], depth)


def chunk_start(text: str, offset: int) -> int:
    """Where the `// -----` chunk holding `offset` starts: chunks of a split file are separate
    documents, so a whole-file item is scanned from there, not from the top."""
    return text.rfind("\n// -----", 0, offset) + 1
