"""Turn an OpState into an op: infer the operand types a format left implicit, then
resolve every use against them (reporting MLIR's type-mismatch error at the use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax.base import ParseError
from tile_lsp.compiler.syntax.sourcemap import OpInfo

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser


def infer_types(cls: type[Operation], state: OpState) -> None:
    """Fill missing operand/result types from the class's type rules (traits, hooks)."""
    hook = getattr(cls, "infer_types", None)
    for rule in getattr(cls, "TYPE_RULES", ()):
        rule.infer(state)
    if hook is not None:
        hook(state)
        for rule in getattr(cls, "TYPE_RULES", ()):
            rule.infer(state)


def build_op(p: SyntaxParser, cls: type[Operation], state: OpState) -> Operation:
    fields = registry.op_fields(cls)
    infer_types(cls, state)
    operands: list[SSAValue] = []
    sizes: list[int] = []
    uses: list[tuple[SSAValue, Span]] = []
    for name, _arity in fields.operands:
        refs = state.operands.get(name, [])
        types = state.operand_types.get(name)
        if refs and (types is None or len(types) != len(refs)):
            if types is not None and len(types) != len(refs):
                raise ParseError(
                    state.spans.get(name, state.name_span),
                    f"{len(refs)} operands present, but expected {len(types)}",
                )
            raise ParseError(state.name_span, f"cannot infer the type of operand '{name}' of '{state.name}'")
        for ref, t in zip(refs, types or ()):
            v = p.resolve_operand(ref, t, state)
            operands.append(v)
            uses.append((v, ref.span))
        sizes.append(len(refs))
    result_types: list[Attribute] = []
    for name, _arity in fields.results:
        rt = state.result_types.get(name)
        if rt is None:
            if _arity == "single":
                raise ParseError(state.name_span, f"cannot infer the result type of '{state.name}'")
            rt = []
        result_types.extend(rt)
    props = dict(state.properties)
    attrs = dict(state.attributes)
    for key in list(attrs):
        if key in fields.props:
            props.setdefault(key, attrs.pop(key))
    if fields.segmented:
        props["operandSegmentSizes"] = registry.segment_sizes(sizes)
    regions = []
    for name, _arity in fields.regions:
        regions.extend(state.regions.get(name, []))
    op = registry.create_op(cls, operands, result_types, props, attrs, regions)
    for v, span in uses:
        p.note_use(v, span, op)
    p.smap.ops[op] = OpInfo(state.name_span, state.name_span, symbol_span=state.symbol_span)
    for sym_name, sym_span in state.spans.items():
        if sym_name.startswith("@"):
            p.note_symbol_use(sym_name[1:], sym_span, op)
    return op
