"""What the editor shows of a background compile (`background.PipelineReport`): stage
diagnostics, stage views, the per-kernel resource lenses, the missing-target quick fixes and the
preview files. Pure functions over the report and the document text.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from tile_lsp.background import PipelineReport
from tile_lsp.compiler.diagnostics import Diagnostic
from tile_lsp.compiler.source import Span
from tile_lsp.lsp_names import SET_GPU_NAME as SET_GPU_NAME  # (declared at initialize)
from tile_lsp.lsp_names import VIEW_STAGE as VIEW_STAGE

VIEW_STAGES = ("cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin")
# Preview file name per stage: <stem> + suffix (the same names `tile-lsp compile --dump-dir` writes).
PREVIEW_SUFFIX = {"tileaa": ".tileaa.mlir", "gpu": ".gpu.mlir", "nvvm": ".nvvm.mlir", "llvm": ".llvm.mlir", "llvm-ir": ".ll", "ptx": ".ptx"}
FIX_CHIPS = ("sm_90a", "sm_80", "sm_100a")  # offered by the missing-target quick fix, first preferred
_MISSING_TARGET = ("failed to get compute capability.", "invalid or missing --compute-capability option")
_PARSE_STAGES = ("mlir",)  # the front end reports parse/verify errors of the same text itself
_GPU_MODULE = re.compile(r"\bgpu\.module\s+(@[\w$.\-]+|@\"[^\"]*\")(\s*)(\[)?")
_KERNEL_DEF = re.compile(
    r"\b(?:gpu|llvm)\.func\s+(?:[a-z]+\s+)?@([\w$.\-]+)|^[ \t]*(?:cuda_tile\.)?entry\s+@([\w$.\-]+)", re.MULTILINE
)


def stage_diagnostics(report: PipelineReport, front: list[Diagnostic], text: str | None = None) -> list[Diagnostic]:
    """The report's diagnostics worth adding to the front end's: no parse errors (the front end
    has them), no duplicates, the missing-target message once. With `text`, a diagnostic on a
    whole op (an entry, a loop) is narrowed to the op's first line: the squiggle marks the op,
    not the page."""
    seen = {(d.span, d.message) for d in front}
    out: list[Diagnostic] = []
    missing = False
    for d in report.diagnostics:
        if text is not None:
            d = _first_line(d, text)
        if d.stage in _PARSE_STAGES or (d.span, d.message) in seen:
            continue
        if is_missing_target(d):
            if missing:
                continue
            missing = True
        seen.add((d.span, d.message))
        out.append(d)
    return out


def _first_line(d: Diagnostic, text: str) -> Diagnostic:
    end = text.find("\n", d.span.start, d.span.end)
    if end < 0 or end <= d.span.start:
        return d
    return dataclasses.replace(d, span=Span(d.span.start, end))


def is_missing_target(d: Diagnostic) -> bool:
    return d.message.startswith(_MISSING_TARGET)


@dataclass(frozen=True)
class StageView:
    """The answer to tileLsp/viewStage: the stage's text (or why there is none)."""

    stage: str
    output: str
    seconds: float
    ok: bool
    diagnostics: list[Diagnostic]


def view_stage(report: PipelineReport | None, stage: str, *, cuda_tile: bool = False, error: str | None = None) -> StageView:
    """One stage of a report as text. Without that stage, the text says why (as comments)."""
    if report is None:
        why = error or "no pipeline result for this document"
        return StageView(stage, f"// tile-lsp: {why}\n", 0.0, False, [])
    start = report.start_stage if report.start_stage in VIEW_STAGES else "nvvm"
    shown_stages = VIEW_STAGES[VIEW_STAGES.index(start):]
    if stage not in shown_stages:
        shown = ", ".join(shown_stages)
        why = f"this input starts at stage {report.start_stage or 'nvvm'}; stages shown: {shown}"
        return StageView(stage, f"// tile-lsp: {why}\n", 0.0, False, [])
    errors = [d for d in report.diagnostics if d.is_error]
    if stage == "cubin":
        out = report.stage("cubin")
        if out is not None and report.kernels:
            return StageView(stage, resource_summary(report), out.seconds, True, report.diagnostics)
    else:
        out = report.stage(stage)
        if out is not None:
            return StageView(stage, out.text, out.seconds, True, report.diagnostics)
    lines = [f"// tile-lsp: stage '{stage}' was not produced for this version"]
    if stage == "cubin" and not errors and report.stage("ptx") is not None:
        lines.append("// ptxas was not found (setting tileLsp.ptxasPath, CUDA_HOME or PATH)")
    for d in report.diagnostics:
        lines.append(f"// {d.severity.value} [{d.stage}]: " + d.message.replace("\n", "\n//   "))
    return StageView(stage, "\n".join(lines) + "\n", 0.0, False, report.diagnostics)


def resource_summary(report: PipelineReport) -> str:
    """ptxas's resource usage per kernel, as text (the cubin stage's view)."""
    chip = report.target or "?"
    lines = [f"// ptxas resource usage for {chip}"]
    if report.ptxas_command:
        lines.append(f"// {report.ptxas_command}")
    for name, res in report.kernels.items():
        lines.append(f"{name}:")
        for key, value in res.items():
            lines.append(f"  {key.replace('_', ' ')}: {value}")
    return "\n".join(lines) + "\n"


def kernel_title(report: PipelineReport, resources: dict[str, object]) -> str:
    """"sm_90a · 13 regs · 0 spills · 0 B smem"."""
    regs = resources.get("registers", "?")
    spill = _int(resources.get("spill_stores")) + _int(resources.get("spill_loads"))
    smem = resources.get("shared_bytes", 0)
    spills = "0 spills" if spill == 0 else f"{spill} B spills"
    return f"{report.target or '?'} · {regs} regs · {spills} · {smem} B smem"


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


@dataclass(frozen=True)
class Lens:
    span: Span
    title: str
    stage: str  # the stage its command shows


def kernel_lenses(text: str, report: PipelineReport | None) -> list[Lens]:
    """Per kernel definition (a cuda_tile `entry`, or a gpu.func / llvm.func the PTX has an entry
    of): its ptxas resources (when ptxas ran) and a "Show PTX" lens."""
    if report is None or report.stage("ptx") is None:
        return []
    out: list[Lens] = []
    for m in _KERNEL_DEF.finditer(text):
        name = m.group(1) or m.group(2)
        res = report.kernels.get(name)
        span = Span(m.start(), m.end())
        if res is not None:
            out.append(Lens(span, kernel_title(report, res), "cubin"))
            out.append(Lens(span, "Show PTX", "ptx"))
        elif not report.kernels and (m.group(2) or _is_kernel(text, m.end())):
            out.append(Lens(span, "Show PTX", "ptx"))
    return out


def _is_kernel(text: str, at: int) -> bool:
    brace = text.find("{", at)
    header = text[at : brace if brace >= 0 else at + 400]
    return re.search(r"\bkernel\b|gpu\.kernel|nvvm\.kernel", header) is not None


@dataclass(frozen=True)
class TargetFix:
    """A missing-target quick fix: a text edit or a server command."""

    title: str
    diagnostic: Diagnostic
    edit: tuple[Span, str] | None = None
    command: tuple[str, list[object]] | None = None
    preferred: bool = False


def target_fixes(text: str, diagnostics: list[Diagnostic], span: Span) -> list[TargetFix]:
    """For a missing-target diagnostic touching `span`: set tileLsp.gpuName (a command the server
    runs: works in every client) per chip, and add `[#nvvm.target<chip = ...>]` to the gpu.module
    it is on (an edit: persists in the file)."""
    out: list[TargetFix] = []
    for d in diagnostics:
        if not is_missing_target(d) or d.span.start > span.end or d.span.end < span.start:
            continue
        for i, chip in enumerate(FIX_CHIPS):
            out.append(TargetFix(f"Set tileLsp.gpuName to {chip}", d, command=(SET_GPU_NAME, [chip]), preferred=i == 0))
        edit = _module_target_edit(text, d.span, FIX_CHIPS[0])
        if edit is not None:
            out.append(TargetFix(f'Add #nvvm.target<chip = "{FIX_CHIPS[0]}"> to the gpu.module', d, edit=edit))
    return out


def _module_target_edit(text: str, near: Span, chip: str) -> tuple[Span, str] | None:
    """Insert the target after the gpu.module's name (the one the diagnostic is on, else the
    first), unless that module already lists targets."""
    matches = list(_GPU_MODULE.finditer(text))
    if not matches:
        return None
    m = next((m for m in matches if m.start() <= near.start < m.end() + 1), matches[0])
    if m.group(3):
        return None  # `[...]` targets already: the fix would not be the right edit
    at = m.end(1)
    return Span(at, at), f' [#nvvm.target<chip = "{chip}">]'


def preview_files(report: PipelineReport, stem: str) -> dict[str, str | None]:
    """File name -> content for the preview directory; None: remove (stage not produced)."""
    out: dict[str, str | None] = {}
    for stage, suffix in PREVIEW_SUFFIX.items():
        produced = report.stage(stage)
        out[stem + suffix] = produced.text if produced is not None else None
    return out
