"""Hover on upstream-dialect files (gpu, nvgpu, nvvm, llvm, arith, ...).

The document analysis of an upstream file only has a token-level map (value names, symbols):
its values are placeholders with no type or definer. Hover adds the real parse of the chunk under
the cursor (`compiler/mlir/context.py`, cached per chunk text, so a hover after the first is a
dictionary lookup), which gives every value its type and definer and every op its operands,
results and attributes.

When the background pipeline has a finished report for this very version (the server passes
only a cached one: hover never waits on a compile), an op's hover also lists the NVVM and PTX
lines it became (`PipelineReport.source_to_lines`, the same map as `CompileResult`'s).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.utils.lexer import Span as XSpan

from tile_lsp.background import PipelineReport
from tile_lsp.compiler.document import DocumentAnalysis
from tile_lsp.compiler.frontend import split_chunks
from tile_lsp.compiler.provenance import line_runs
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.features.index import SymbolRef, ValueRef, target_at
from tile_lsp.features.upstream_docs import op_description

SHOWN_LINES = 8  # stage lines shown per section; the rest are counted
_CACHE_SIZE = 32
_ATTR_CHARS = 100
# (stage, title, code-block language) of the sections an op's hover gets.
STAGE_SECTIONS = (("nvvm", "NVVM", "mlir"), ("ptx", "PTX", "ptx"))
# A cuda_tile op's hover: every stage after the source.
TILE_STAGE_SECTIONS = (("tileaa", "tileaa", "mlir"), ("gpu", "gpu", "mlir"), *STAGE_SECTIONS)
_NAME_ALIASES = {"builtin.module": "module"}


@dataclass
class ChunkModel:
    """The real parse of one `// -----` chunk: ops with their spans, values by definition."""

    span: Span
    ok: bool
    ops: list[tuple[Operation, Span]] = field(default_factory=list)  # absolute spans, outer ops first
    defs: dict[int, tuple[str, tuple[SSAValue, ...]]] = field(default_factory=dict)  # def token start -> values
    _names: list[tuple[Span, Operation, Span]] | None = None

    def name_spans(self, text: str) -> list[tuple[Span, Operation, Span]]:
        """(op-name token, op, op span) per op, found after the op's results on its first line."""
        if self._names is None:
            out: list[tuple[Span, Operation, Span]] = []
            for op, span in self.ops:
                line_end = text.find("\n", span.start)
                line_end = len(text) if line_end < 0 else line_end
                for name in (op.name, _NAME_ALIASES.get(op.name)):
                    if name is None:
                        continue
                    m = re.compile(r"(?<![\w.$])" + re.escape(name) + r"(?![\w.$])").search(text, span.start, line_end)
                    if m is not None:
                        out.append((Span(m.start(), m.end()), op, span))
                        break
            self._names = out
        return self._names


_lock = threading.Lock()
_cache: OrderedDict[tuple[str, str, int], ChunkModel] = OrderedDict()


def _parse_chunk(source: SourceText, chunk: Span) -> ChunkModel:
    from tile_lsp.compiler.mlir.context import _TrackingParser, upstream_context

    class Recording(_TrackingParser):
        """Also records where each SSA name is defined (results and block arguments)."""

        def __init__(self, *args: object) -> None:
            super().__init__(*args)  # type: ignore[arg-type]
            self.defs: dict[int, tuple[str, tuple[SSAValue, ...]]] = {}

        def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: XSpan) -> None:
            super()._register_ssa_definition(name, values, span)
            self.defs[self._base + span.start] = (name, tuple(values))

    parser = Recording(upstream_context(), source.text[chunk.start : chunk.end], source, chunk.start)
    ok = True
    try:
        parser.parse_module()
    except Exception:  # half-typed text: keep what parsed before the error
        ok = False
    ops = sorted(parser.spans.items(), key=lambda item: (item[1].start, -(item[1].end - item[1].start)))
    return ChunkModel(chunk, ok, ops, parser.defs)


def chunk_model(source: SourceText, offset: int) -> ChunkModel | None:
    """The (cached) real parse of the chunk of `source` around `offset`."""
    chunk = next((c for c in split_chunks(source.text) if c.start <= offset <= c.end), None)
    if chunk is None:
        return None
    key = (source.path, source.text[chunk.start : chunk.end], chunk.start)
    with _lock:
        model = _cache.get(key)
        if model is not None:
            _cache.move_to_end(key)
            return model
    try:
        model = _parse_chunk(source, chunk)
    except Exception:  # a dialect bug must not take hover down: the token map still answers
        model = ChunkModel(chunk, False)
    with _lock:
        _cache[key] = model
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return model


def warm(source: SourceText) -> None:
    """Parse every chunk now (off the request loop), so that hovers find it cached."""
    for chunk in split_chunks(source.text):
        chunk_model(source, chunk.start)


# -- hover ---------------------------------------------------------------------------------


def hover(
    doc: DocumentAnalysis, offset: int, report: PipelineReport | None = None, note: str | None = None
) -> tuple[str, Span] | None:
    """Markdown for the value, symbol or op name at `offset` of an upstream-dialect document."""
    target = target_at(doc, offset)
    model = chunk_model(doc.source, offset)
    if isinstance(target, ValueRef):
        return value_hover(doc, target, model), target.span
    if isinstance(target, SymbolRef):
        text = symbol_hover(doc, target, model, report)
        return (text, target.span) if text else None
    if model is None:
        return None
    for name_span, op, span in model.name_spans(doc.source.text):
        if name_span.start <= offset <= name_span.end:
            return op_hover(doc.source, op, span, report, note), name_span
    return None


def value_hover(doc: DocumentAnalysis, ref: ValueRef, model: ChunkModel | None) -> str:
    name = ref.name
    base, _, index_text = name.partition("#")
    value = _real_value(doc, ref, model)
    if value is None:
        lines = [f"`{base}`" + ("" if not index_text else f" (result {index_text})")]
        def_span = ref.item.result.smap.value_defs.get(ref.value)
        if def_span is None:
            lines.append("\nNot defined in this scope.")
        else:
            at = ref.item.absolute(def_span).start
            line = doc.source.line_col(at)[0]
            lines.append(f"\nDefined on line {line + 1}:\n```mlir\n{doc.source.line_text(line).strip()}\n```")
        return "\n".join(lines)
    lines = [f"`{name}`: `{_attr(value.type)}`", "", _definer(value)]
    return "\n".join(lines)


def _real_value(doc: DocumentAnalysis, ref: ValueRef, model: ChunkModel | None) -> SSAValue | None:
    if model is None:
        return None
    def_span = ref.item.result.smap.value_defs.get(ref.value)
    if def_span is None:
        return None
    found = model.defs.get(ref.item.absolute(def_span).start)
    if found is None:
        return None
    _, values = found
    index_text = ref.name.partition("#")[2]
    index = int(index_text) if index_text.isdigit() and len(index_text) <= 18 else 0  # (no unbounded int())
    return values[index] if index < len(values) else None


def _definer(value: SSAValue) -> str:
    if isinstance(value, OpResult):
        op = value.op
        which = f"result {value.index} of " if len(op.results) > 1 else ""
        return f"Defined by {which}`{op.name}`" + _description_suffix(op.name)
    if isinstance(value, BlockArgument):
        block = value.block
        parent = block.parent_op() if isinstance(block, Block) else None
        if parent is None:
            return f"Argument {value.index} of a block"
        sym = parent.properties.get("sym_name") or parent.attributes.get("sym_name")
        where = f"`{parent.name}`" + (f" `@{sym.data}`" if isinstance(sym, builtin.StringAttr) else "")
        return f"Argument {value.index} of {where}"
    return ""


def _description_suffix(name: str) -> str:
    text = op_description(name)
    return f": {text[0].lower()}{text[1:]}" if text else ""


def op_hover(source: SourceText, op: Operation, span: Span, report: PipelineReport | None, note: str | None) -> str:
    lines = [f"**{op.name}**"]
    description = op_description(op.name)
    if description:
        lines += ["", description]
    if op.operands:
        lines += ["", "Operands: " + ", ".join(f"`{_attr(v.type)}`" for v in op.operands)]
    if op.results:
        lines += ["", "Results: " + ", ".join(f"`{_attr(v.type)}`" for v in op.results)]
    attrs = {**op.properties, **op.attributes}
    attrs = {k: v for k, v in attrs.items() if k not in ("operandSegmentSizes", "resultSegmentSizes")}
    if attrs:
        lines += ["", "Attributes: " + ", ".join(f"`{k} = {_attr(v)}`" for k, v in attrs.items())]
    lines += stage_sections(source, span, report, note)
    return "\n".join(lines)


def symbol_hover(doc: DocumentAnalysis, ref: SymbolRef, model: ChunkModel | None, report: PipelineReport | None) -> str:
    if model is None:
        return ""
    text = doc.source.text
    for op, span in model.ops:
        sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if not isinstance(sym, builtin.StringAttr) or sym.data != ref.name:
            continue
        # The header: up to the first nested op (the body), without the body's `{`.
        end = next((s.start for _, s in model.ops if span.start < s.start < span.end), span.end)
        header = text[span.start : end].strip().removesuffix("{").strip()
        header = "\n".join(line.strip() for line in header.splitlines())
        lines = [f"```mlir\n{header}\n```"]
        description = op_description(op.name)
        if description:
            lines += ["", description]
        resources = report.kernels.get(ref.name) if report is not None else None
        if resources:
            lines += ["", "ptxas: " + _kernel_title(report, resources)]  # type: ignore[arg-type]
        return "\n".join(lines)
    return ""


def _kernel_title(report: PipelineReport, resources: dict[str, object]) -> str:
    from tile_lsp.features.pipeline_view import kernel_title

    return kernel_title(report, resources)


def stage_sections(
    source: SourceText,
    span: Span,
    report: PipelineReport | None,
    note: str | None,
    sections: Sequence[tuple[str, str, str]] = STAGE_SECTIONS,
) -> list[str]:
    """The lines of each stage in `sections` (NVVM and PTX by default) the op at `span` became,
    when the report has them."""
    if report is None:
        return ["", f"*{note}*"] if note else []
    head_end = source.text.find("\n", span.start)
    head = Span(span.start, span.end if head_end < 0 else min(span.end, head_end))
    out: list[str] = []
    for stage, title, language in sections:
        produced = report.stage(stage)
        if produced is None:
            continue
        numbers = report.source_to_lines(stage, head)
        target = f" ({report.target})" if report.target and stage == "ptx" else ""
        if not numbers:
            out += ["", f"**{title}**{target}: no lines of its own"]
            continue
        stage_lines = produced.text.splitlines()
        count = f"{len(numbers)} line{'s' if len(numbers) != 1 else ''}"
        out += ["", f"**{title}**{target}: {count} ({_ranges(numbers)})"]
        if len(numbers) > SHOWN_LINES:
            mix = instruction_mix([stage_lines[i] for i in numbers], language)
            if mix:
                out.append("mix: " + " · ".join(f"`{name}` {n}" for name, n in mix))
        out.append(f"```{language}")
        out += [tidy_line(stage_lines[i]) for i in numbers[:SHOWN_LINES]]
        out.append("```")
        if len(numbers) > SHOWN_LINES:
            out.append(f"… {len(numbers) - SHOWN_LINES} more")
    return out


_MLIR_OP = re.compile(r'^(?:[%\w#:, ]+=\s*)?"?([a-z_][\w]*\.[\w.]+)')
_PTX_OP = re.compile(r"^(?:@!?%\w+\s+)?([a-z][\w]*(?:\.[a-z]\w*)?)")
MIX_KINDS = 6


def instruction_mix(lines: list[str], language: str) -> list[tuple[str, int]]:
    """The most frequent ops (MLIR) or instructions (PTX: opcode and first modifier) among
    `lines`, most frequent first: what a long section is made of at a glance."""
    pattern = _PTX_OP if language == "ptx" else _MLIR_OP
    counts: dict[str, int] = {}
    for line in lines:
        m = pattern.match(line.strip())
        if m is None or line.strip().startswith((".", "//", "}", "{")):
            continue
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:MIX_KINDS]


def tidy_line(line: str) -> str:
    """A stage line as hover shows it: no indentation, tabs as single spaces."""
    return re.sub(r"[ ]*\t[ \t]*", " ", line.strip())


def _ranges(numbers: list[int]) -> str:
    """0-based line numbers as 1-based ranges: "line 4", "lines 4-6, 9"."""
    parts = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in line_runs(numbers)]
    return ("line " if len(numbers) == 1 else "lines ") + ", ".join(parts)


def _attr(attr: Attribute) -> str:
    text = str(attr)
    return text if len(text) <= _ATTR_CHARS else text[: _ATTR_CHARS - 1] + "…"
