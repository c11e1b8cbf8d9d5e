"""Document symbols (module -> globals/entries), workspace symbols and folding ranges."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.ir import Operation

from tile_lsp.compiler.document import DocumentAnalysis, Item
from tile_lsp.compiler.source import Span


@dataclass
class Symbol:
    name: str
    kind: str  # module | entry | global | function
    span: Span  # whole item
    selection: Span  # the @name
    detail: str = ""
    children: list[Symbol] = field(default_factory=list)


def symbol_ops(item: Item) -> list[Operation]:
    """The ops of `item` that define a symbol: in a whole file (or its shell) those with a symbol
    span in the source map, else the item's own op (if it parsed)."""
    if item.kind in ("whole", "shell"):
        return [op for op, info in item.result.smap.ops.items() if info.symbol_span is not None]
    return [item.top_op] if item.top_op is not None else []


def document_symbols(doc: DocumentAnalysis) -> list[Symbol]:
    """Module(s) with their items; bare items (tileirdisasm output) at the top."""
    out: list[Symbol] = []
    module_sym: Symbol | None = None
    for item in doc.items:
        smap = item.result.smap
        if item.kind in ("whole", "shell"):
            # The source map lists an op after the ops inside it: walk in text order instead.
            for op, info in sorted(smap.ops.items(), key=lambda kv: kv[1].span.start):
                name = op.properties.get("sym_name")
                if not hasattr(name, "data") or info.symbol_span is None:
                    continue
                kind = op.name.removeprefix("cuda_tile.")
                span = _op_span(doc, item, info.span)
                detail = kind if kind == "module" else _detail(op)
                sym = Symbol(name.data, _kind(kind), span, item.absolute(info.symbol_span), detail)  # type: ignore[union-attr]
                if kind == "module":
                    module_sym = sym
                    out.append(sym)
                elif module_sym is not None and module_sym.span.start <= sym.span.start <= module_sym.span.end:
                    module_sym.children.append(sym)
                else:
                    out.append(sym)
            continue
        top = item.top_op
        item_info = smap.ops.get(top) if top is not None else None
        if top is None or item_info is None or item.name is None or item_info.symbol_span is None:
            continue
        kind = top.name.removeprefix("cuda_tile.")
        out_list = module_sym.children if module_sym is not None else out
        out_list.append(
            Symbol(item.name, _kind(kind), Span(item.start, item.end), item.absolute(item_info.symbol_span), _detail(top))
        )
    return out


def flatten(syms: list[Symbol], container: str | None = None) -> list[tuple[Symbol, str | None]]:
    """Every symbol with the name of its container (workspace symbols)."""
    out: list[tuple[Symbol, str | None]] = []
    for sym in syms:
        out.append((sym, container))
        out.extend(flatten(sym.children, sym.name))
    return out


def _kind(op_kind: str) -> str:
    return {"module": "module", "entry": "entry", "global": "global"}.get(op_kind, "function")


def _detail(op: Operation) -> str:
    """An entry's argument types, a global's type."""
    from tile_lsp.compiler.syntax.types import type_str

    ftype = op.properties.get("function_type")
    if isinstance(ftype, builtin.FunctionType):
        return "(" + ", ".join(type_str(t) for t in ftype.inputs.data) + ")"
    t = op.properties.get("type")
    return type_str(t) if t is not None else ""


def _op_span(doc: DocumentAnalysis, item: Item, span: Span) -> Span:
    """An op's absolute span; the shell parses the module header alone, so there the module
    reaches its closing brace (where the last item ends)."""
    if item.kind != "shell":
        return item.absolute(span)
    close = max((i.end for i in doc.items if i.kind != "shell"), default=doc.source.text.rfind("}"))
    return Span(span.start, max(span.end, close + 1))


def folding_ranges(doc: DocumentAnalysis) -> list[tuple[int, int]]:
    """(start line, end line) of every multi-line `{ ... }` region (ops with regions)."""
    out: set[tuple[int, int]] = set()
    src = doc.source
    for item in doc.items:
        for op, info in item.result.smap.ops.items():
            if not op.regions:
                continue
            span = _op_span(doc, item, info.span)
            a, _ = src.lsp_position(span.start)  # LSP's lines (a lone \r ends one too)
            b, _ = src.lsp_position(span.end)
            if b > a:
                out.add((a, b))
    return sorted(out)
