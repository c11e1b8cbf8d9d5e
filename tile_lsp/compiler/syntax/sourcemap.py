"""Where every op, value definition and value use sits in the source text.

Filled in by the parser; read by diagnostics placement and (later) the language server.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from xdsl.ir import Block, Operation, SSAValue

from tile_lsp.compiler.source import Span


@dataclass(slots=True)
class OpInfo:
    """Source facts of one parsed op."""

    span: Span  # whole op, from its first result name to its end
    name_span: Span  # the op name token
    result_spans: list[Span] = field(default_factory=list)
    symbol_span: Span | None = None  # `@name` the op defines, if any


class ValueUse(NamedTuple):
    """One use of a value as written (a tuple: one is made per operand parsed)."""

    value: SSAValue
    span: Span
    user: Operation | None


@dataclass(slots=True)
class SymbolUse:
    name: str
    span: Span
    user: Operation


@dataclass
class SourceMap:
    """Side tables keyed by IR object; IR objects stay plain xDSL."""

    ops: dict[Operation, OpInfo] = field(default_factory=dict)
    value_defs: dict[SSAValue, Span] = field(default_factory=dict)
    value_names: dict[SSAValue, str] = field(default_factory=dict)
    uses: list[ValueUse] = field(default_factory=list)
    symbol_uses: list[SymbolUse] = field(default_factory=list)
    block_spans: dict[Block, Span] = field(default_factory=dict)

    def op_span(self, op: Operation) -> Span | None:
        info = self.ops.get(op)
        return info.span if info else None

    def merge(self, other: SourceMap, base: int) -> None:
        """Add `other`'s tables, its spans moved by `base` (an item parsed on its own, whose
        text starts at `base` in the document)."""

        def at(s: Span) -> Span:
            return Span(s.start + base, s.end + base)

        if base == 0:
            self.ops.update(other.ops)
            self.value_defs.update(other.value_defs)
            self.uses.extend(other.uses)
            self.symbol_uses.extend(other.symbol_uses)
            self.block_spans.update(other.block_spans)
        else:
            for op, info in other.ops.items():
                symbol = info.symbol_span
                self.ops[op] = OpInfo(
                    at(info.span), at(info.name_span), [at(s) for s in info.result_spans], at(symbol) if symbol else None
                )
            self.value_defs.update((v, at(s)) for v, s in other.value_defs.items())
            self.uses.extend(ValueUse(u.value, at(u.span), u.user) for u in other.uses)
            self.symbol_uses.extend(SymbolUse(u.name, at(u.span), u.user) for u in other.symbol_uses)
            self.block_spans.update((b, at(s)) for b, s in other.block_spans.items())
        self.value_names.update(other.value_names)

