"""Fix providers for missing terminators: `continue` in loops, `yield` in `if` branches, a missing `else`.

Each picks, per required type, the latest named value of that type in scope, spelled like the op it ends.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from xdsl.ir import Attribute, Block, Operation, SSAValue

from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.types import type_str
from tile_lsp.features.fix_context import Candidate, FixContext, line_ending

# -- providers: terminators ------------------------------------------------------------------------


def fix_loop_terminator(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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


def fix_if_terminator(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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


def fix_missing_else(ctx: FixContext, m: re.Match[str]) -> Iterator[Candidate]:
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
    eol = line_ending(ctx.text)
    yield f"Add 'else {{ {line} }}'", ((Span(brace + 1, brace + 1), f" else {{{eol}{indent}  {line}{eol}{indent}}}"),)


def _results(block: Block) -> list[SSAValue]:
    """Values a block's ops define, latest first."""
    return [r for o in reversed(list(block.ops)) for r in o.results]


def _op_text(ctx: FixContext, op: Operation, name: str, values: list[SSAValue], types: list[Attribute]) -> str:
    """A terminator spelled like `op` is: `cuda_tile.`-prefixed with long types, or short."""
    info = ctx.item.result.smap.ops.get(op)
    long = info is not None and ctx.text.startswith("cuda_tile.", ctx.item.absolute(info.name_span).start)
    names = ", ".join(ctx.item.result.smap.value_names[v] for v in values)
    spelled = ", ".join(type_str(t, short=not long) for t in types)
    return f"{'cuda_tile.' if long else ''}{name} {names} : {spelled}"


def _terminator(ctx: FixContext, op: Operation, index: int, line: str) -> Iterator[Candidate]:
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
        yield f"Insert '{line}'", ((Span(at, at), f"{indent}{line}{line_ending(ctx.text)}"),)


def _pick_values(
    ctx: FixContext, op: Operation, types: list[Attribute], inner: Sequence[SSAValue]
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


def _region_close(ctx: FixContext, op: Operation, index: int) -> int | None:
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


def _body_indent(ctx: FixContext, block: Block, close_line: int) -> str:
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
