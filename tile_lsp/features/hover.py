"""Hover text (Markdown): what an op does and its types, a value's type and definer, a
type's shape and size, a symbol's signature. The prose is ours (op docstrings).

Upstream-dialect documents (gpu/nvgpu/nvvm/llvm MLIR) are answered by `upstream_hover`.
"""

from __future__ import annotations

import inspect
import math

from xdsl.dialects import builtin
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult

from tile_lsp.background import PipelineReport
from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax.attributes import attr_str
from tile_lsp.compiler.syntax.base import ParseError
from tile_lsp.compiler.syntax.parser import Parser
from tile_lsp.compiler.syntax.types import parse_type, type_str
from tile_lsp.compiler.upstream import is_upstream
from tile_lsp.features.index import OpRef, SymbolRef, TypeRef, ValueRef, target_at

# What common inherent attributes mean, in our words.
ATTR_DOCS = {
    "rounding_mode": "IEEE rounding applied to each result element (default: nearest-even).",
    "flush_to_zero": "subnormal inputs and results are flushed to a sign-preserving zero (f32 only).",
    "signedness": "whether the integer operands are read as signed or unsigned.",
    "overflow": "what the op may assume about integer overflow (wrapping when absent).",
    "comparison_predicate": "the relation tested element by element.",
    "comparison_ordering": "whether a NaN operand makes the comparison false (ordered) or true (unordered).",
    "memory_ordering_semantics": "memory-model ordering of the access (weak, relaxed, acquire, release, acq_rel).",
    "memory_scope": "which threads the ordering is guaranteed against (tile block, device, system).",
    "propagate_nan": "NaN in either operand produces NaN instead of the other operand.",
    "dim": "the dimension the op works along.",
    "identities": "the identity element of each reduced/scanned operand.",
    "permutation": "result dimension i takes source dimension permutation[i].",
    "optimization_hints": "per-architecture tuning hints; they never change results.",
    "reverse": "scan from the last element towards the first.",
    "mode": "the read-modify-write operation applied atomically.",
    "alignment": "byte alignment of the global's storage.",
    "inbounds": "per index dimension: the tile is promised to lie inside the view there, so no bounds check is made "
    "(a tile that does not is undefined behaviour).",
    "reduction": "how the copies on every GPU are combined (add when absent).",
    "saturating": "out-of-range values clamp to the integer type's limits instead of being undefined.",
    "callee": "the extern function called; it is defined in an NVIDIA tile library, not in this module.",
    "const_args": "compile-time arguments (integers, types, strings) the tile library specialises the callee on.",
    "arg_attrs": "one dictionary of attributes per operand, passed on to the callee.",
    "res_attrs": "one dictionary of attributes per result, passed on to the callee.",
}


def hover(
    doc: DocumentAnalysis, offset: int, report: PipelineReport | None = None, note: str | None = None
) -> tuple[str, Span] | None:
    """Markdown for the thing under the cursor, with the span it describes. For upstream-dialect
    documents, `report` is the background compile of this version, if finished (an op's hover
    then lists the NVVM and PTX lines it became); `note` says why there is none."""
    if is_upstream(doc.source.text):
        from tile_lsp.features import upstream_hover

        return upstream_hover.hover(doc, offset, report, note)
    target = target_at(doc, offset)
    if isinstance(target, OpRef):
        return op_hover(target.op) + lowered_sections(doc.source, target.span, report, note), target.span
    if isinstance(target, ValueRef):
        return value_hover(target), target.span
    if isinstance(target, SymbolRef):
        text = symbol_hover(doc, target.name)
        return (text, target.span) if text else None
    if isinstance(target, TypeRef):
        text = type_hover(target.text)
        return (text, target.span) if text else None
    return None


def lowered_sections(source: SourceText, span: Span, report: PipelineReport | None, note: str | None) -> str:
    """What the op on this line became in each stage (tileaa, gpu, NVVM, PTX), and the layout
    the gpu stage gave its result, from the background compile of this version."""
    from tile_lsp.features import upstream_hover

    start = source.text.rfind("\n", 0, span.start) + 1
    end = source.text.find("\n", span.start)
    line = Span(start, len(source.text) if end < 0 else end)
    lines = upstream_hover.stage_sections(source, line, report, note, upstream_hover.TILE_STAGE_SECTIONS)
    layout = report.layout_at(line) if report is not None else None
    if layout:
        lines[:0] = ["", f"**Layout** (gpu stage): {layout}"]
    return "\n" + "\n".join(lines) if lines else ""


def op_doc(name: str) -> str:
    cls = registry.op_class(name)
    doc = inspect.getdoc(cls) if cls is not None else None
    return doc or ""


def op_hover(op: Operation) -> str:
    lines = [f"**{op.name}**", "", op_doc(op.name)]
    if op.operands:
        lines += ["", "Operands: " + ", ".join(f"`{type_str(v.type)}`" for v in op.operands)]
    if op.results:
        lines += ["", "Results: " + ", ".join(f"`{type_str(v.type)}`" for v in op.results)]
    attrs = {k: v for k, v in op.properties.items() if k != "operandSegmentSizes"}
    if attrs:
        lines += ["", "Attributes:"]
        spellings = getattr(type(op), "ATTR_SYNTAX", {})
        for key, value in attrs.items():
            meaning = ATTR_DOCS.get(key, "")
            lines.append(f"- `{key} = {_attr_text(spellings.get(key), value)}`" + (f": {meaning}" if meaning else ""))
    return "\n".join(lines).strip()


def _attr_text(syntax: object, value: Attribute) -> str:
    """A property as the op's custom form spells it (`[true, false]`, `weak`), else generically."""
    if syntax is not None:
        try:
            text = syntax.print(value)  # type: ignore[attr-defined]
            if text:
                return str(text)
        except Exception:
            pass
    return attr_str(value, short_types=True)


def value_hover(ref: ValueRef) -> str:
    value = ref.value
    lines = [f"`{ref.name}`: `{type_str(value.type)}`"]
    if isinstance(value, OpResult):
        lines.append(f"\nDefined by `{value.op.name.removeprefix('cuda_tile.')}`")
    elif isinstance(value, BlockArgument):
        block_owner = value.block.parent_op()
        where = f" of `{block_owner.name.removeprefix('cuda_tile.')}`" if block_owner is not None else ""
        lines.append(f"\nBlock argument{where}")
    else:  # a use of a name defined nowhere (a forward reference the parse never resolved)
        lines.append("\nNot defined anywhere in scope")
    detail = describe_type(value.type)
    if detail:
        lines.append("\n" + detail)
    return "\n".join(lines)


def symbol_hover(doc: DocumentAnalysis, name: str) -> str | None:
    for sym, item in doc.symbol_items():
        if sym != name or item.top_op is None:
            continue
        op = item.top_op
        info = item.result.smap.ops.get(op)
        if info is None:
            continue
        header = doc.source.text[item.start + info.span.start : item.start + info.span.end].split("{")[0].strip()
        return f"```mlir\n{header}\n```\n\n{op_doc(op.name).splitlines()[0] if op_doc(op.name) else ''}"
    return None


def type_hover(text: str) -> str | None:
    p = Parser(SourceText(text))
    try:
        t = parse_type(p)
    except ParseError:  # a half-typed type is not worth an error in a hover
        return None
    return f"`{type_str(t)}`\n\n{describe_type(t)}"


def describe_type(t: object) -> str:
    """Shape, element type and size of a cuda_tile type, in words."""
    if isinstance(t, ct.TileType):
        elem = t.element_type
        bits = ct.bitwidth(elem)
        n = t.num_elements
        shape = "x".join(map(str, t.shape)) or "scalar (rank 0)"
        size = f"{math.ceil(n * bits / 8)} bytes" if bits else "?"
        return f"tile: shape {shape}, {n} element{'s' if n != 1 else ''} of `{type_str(elem)}`, {size}"
    if isinstance(t, ct.PointerType):
        return f"pointer to `{type_str(t.pointee)}` in global memory (8 bytes)"
    if isinstance(t, ct.TokenType):
        return "token: orders memory operations; carries no data"
    if isinstance(t, ct.TensorViewType):
        dims = "x".join("?" if d < 0 else str(d) for d in t.shape) or "scalar"
        strides = ", ".join("?" if s < 0 else str(s) for s in t.strides)
        return f"tensor view over global memory: shape {dims}, strides [{strides}], elements `{type_str(t.element_type)}`"
    if isinstance(t, ct.PartitionViewType):
        tile = "x".join(map(str, t.tile_shape))
        pad = f", out-of-bounds reads give {t.padding_value.data}" if t.padding_value.data else ""
        return f"partition view: the tensor view cut into {tile} tiles{pad}"
    if isinstance(t, builtin.IntegerType | builtin.AnyFloat | ct.FloatNV8E5M3FNUType):
        return f"scalar element type, {ct.bitwidth(t)} bits"
    return ""
