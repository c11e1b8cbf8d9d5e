"""The per-entry units' outputs as one `CompileResult`: stage texts concatenated (PTX linked into
one module by `backend.ptx_link`) with their line maps, diagnostics and ptxas resources merged.

The merged run stops where the first unit stopped, as a whole-file run would: its stages are the
ones every unit produced, and its diagnostics those of the stages up to the first failing one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tile_lsp.compiler.backend.ptx_link import merge_ptx
from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.pipeline import DIAGNOSTIC_STAGE, MLIR_STAGES, STAGES, CompileResult, StageOutput
from tile_lsp.compiler.provenance import SourceIndex, SourceRef
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions

# Between two units' texts of a stage: MLIR's split marker (mlir-opt --split-input-file reads the
# merged text), and the same as an LLVM IR comment.
SEPARATOR = {"llvm-ir": "; -----"} | {name: "// -----" for name in MLIR_STAGES}
_STAGE_OF_DIAGNOSTIC = {v: k for k, v in DIAGNOSTIC_STAGE.items()}


@dataclass
class UnitResult:
    """One unit's compile, as cached: stage outputs at the positions of `layout`."""

    layout: tuple[tuple[int, int], ...]
    stages: list[StageOutput]
    diagnostics: list[Diagnostic]
    kernels: dict[str, Any]
    ptxas_command: str | None
    seconds: float
    layouts: dict[int, str] = field(default_factory=dict)  # CompileResult.layouts
    link_object: bytes | None = None  # `ptxas -ewp` object (units of a file with several)


def merge_units(
    source: SourceText, options: CompileOptions, emit: str, units: Sequence[tuple[UnitResult, bool]], provenance: bool
) -> CompileResult:
    """One result from the units' results ((result, compiled now) each, file order)."""
    result = CompileResult(source, options, emit, start_stage="cuda_tile", target=options.target)
    results = [u for u, _ in units]
    if len(results) == 1:
        only = results[0]
        result.diagnostics = list(only.diagnostics)
        result.stages = [_cuda_tile_stage(source, results, units, provenance) if s.name == "cuda_tile" else s
                         for s in only.stages]
        result.kernels = dict(only.kernels)
        result.ptxas_command = only.ptxas_command
        result.layouts = dict(only.layouts)
        if not units[0][1]:
            result.stages = [_cached(s) for s in result.stages]
        return result
    result.diagnostics = merged_diagnostics(results)
    names = _common_stages(results)
    for name in names:
        started = time.perf_counter()
        fresh = sum(_seconds(r, name) for r, now in units if now)
        if name == "cuda_tile":
            out = _cuda_tile_stage(source, results, units, provenance)
        elif name == "ptx":
            parts = [(_stage(r, name).text, _stage(r, name).line_refs) for r in results]
            text, refs = merge_ptx(parts)
            out = StageOutput(name, text, 0.0, line_refs=refs if provenance else None)
        elif name == "cubin":
            if emit == "cubin":
                continue  # the file's cubin: ptxas on the merged PTX (entry_cache)
            count = sum(len(r.kernels) for r in results)
            out = StageOutput(name, f"{count} kernels checked by ptxas, entry by entry", 0.0, data=b"")
        else:
            out = _concatenated(name, [_stage(r, name) for r in results])
        out.seconds = fresh + (time.perf_counter() - started)
        result.stages.append(out)
    for r in results:
        result.kernels.update(r.kernels)
        result.ptxas_command = r.ptxas_command or result.ptxas_command
        result.layouts.update(r.layouts)
    return result


def _stage(result: UnitResult, name: str) -> StageOutput:
    return next(s for s in result.stages if s.name == name)


def _seconds(result: UnitResult, name: str) -> float:
    return next((s.seconds for s in result.stages if s.name == name), 0.0)


def _cached(out: StageOutput) -> StageOutput:
    from dataclasses import replace

    return replace(out, seconds=0.0)


def _common_stages(results: Sequence[UnitResult]) -> list[str]:
    names: list[str] = []
    for name in STAGES:
        if all(any(s.name == name for s in r.stages) for r in results):
            names.append(name)
        else:
            break
    return names


def _stage_index(stage: str) -> int:
    name = _STAGE_OF_DIAGNOSTIC.get(stage, stage)
    return STAGES.index(name) if name in STAGES else 0


class _HasDiagnostics(Protocol):
    @property
    def diagnostics(self) -> list[Diagnostic]: ...


def merged_diagnostics(results: Sequence[_HasDiagnostics]) -> list[Diagnostic]:
    """All units' diagnostics once each; after an error, only those of stages up to its stage."""
    seen: set[tuple[object, ...]] = set()
    out: list[Diagnostic] = []
    for r in results:
        for d in r.diagnostics:
            key = (d.span, d.severity, d.message, d.stage)
            if key not in seen:
                seen.add(key)
                out.append(d)
    errors = [_stage_index(d.stage) for d in out if d.is_error]
    if errors:
        cut = min(errors)
        out = [d for d in out if _stage_index(d.stage) <= cut]
    return out


def _cuda_tile_stage(
    source: SourceText, results: Sequence[UnitResult], units: Sequence[tuple[UnitResult, bool]], provenance: bool
) -> StageOutput:
    """The file itself; each line's ref from the unit it belongs to (its op spans)."""
    refs: list[SourceRef | None] | None = None
    count = len(source.line_starts())
    if provenance:
        refs = [None] * count
        for r in results:
            own = next((s.line_refs for s in r.stages if s.name == "cuda_tile"), None) or []
            for ref in own:  # (a unit keeps the refs of its own lines, each naming its line)
                if ref is not None and 0 <= ref.line < count and refs[ref.line] is None:
                    refs[ref.line] = ref
        index = SourceIndex(source)
        for i in range(count):
            if refs[i] is None:
                refs[i] = index.ref(source.path, i + 1, 1)
    seconds = sum(_seconds(r, "cuda_tile") for r, now in units if now)
    return StageOutput("cuda_tile", source.text, seconds, line_refs=refs)


def _concatenated(name: str, outs: Sequence[StageOutput]) -> StageOutput:
    """An MLIR or LLVM IR stage: the units' texts one after the other, split by `SEPARATOR`."""
    separator = SEPARATOR.get(name, "// -----")
    lines: list[str] = []
    refs: list[SourceRef | None] = []
    located: list[str] | None = []
    mapped = all(o.line_refs is not None for o in outs)
    for i, out in enumerate(outs):
        if i:
            lines.append(separator)
            refs.append(None)
            if located is not None:
                located.append(separator)
        own = out.text.splitlines()
        lines.extend(own)
        theirs = list(out.line_refs or [])[: len(own)]
        refs.extend(theirs + [None] * (len(own) - len(theirs)))
        if located is not None and out.located_text is not None:
            located.extend(out.located_text.splitlines())
        else:
            located = None
    return StageOutput(
        name,
        "\n".join(lines) + "\n",
        0.0,
        located_text="\n".join(located) + "\n" if located is not None else None,
        line_refs=refs if mapped else None,
    )
