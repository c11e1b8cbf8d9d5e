"""The lowering pipeline as a table of named stages (see docs/pipeline.md): one loop runs
them from the stage the input starts at, keeps every stage's output, and never raises.

Stage functions belong to their own modules and are imported when their stage runs, so a stage
that is missing or broken becomes a diagnostic ("internal error in stage X: ...") instead of a
crash of the whole compile.
"""

from __future__ import annotations

import logging
import re
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from tile_lsp.compiler import cancel, limits
from tile_lsp.compiler.diagnostics import Diagnostic, DiagnosticSink
from tile_lsp.compiler.provenance import SourceIndex, SourceRef, lines_of_source, reindex
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.target import CompileOptions, Target

if TYPE_CHECKING:  # (xDSL is imported by the stages: a compile served from the cache never needs it)
    from xdsl.dialects import builtin
    from xdsl.ir import Operation

    from tile_lsp.compiler.lowering.common import LoweringContext

STAGES = ("cuda_tile", "tileaa", "gpu", "nvvm", "llvm", "llvm-ir", "ptx", "cubin")
EMITS = STAGES
MLIR_STAGES = ("tileaa", "gpu", "nvvm", "llvm")
# The `stage` a diagnostic of each pipeline stage carries (the cubin stage's messages are ptxas's).
DIAGNOSTIC_STAGE = {"cubin": "ptxas"}
MISSING_TARGET = "invalid or missing --compute-capability option"
log = logging.getLogger("tile_lsp")
# `compile_source(early=...)`: called at most once per compile, with the file's diagnostics of
# every stage through PTX, just before ptxas runs (the editor publishes them then; ptxas is the
# slowest single step of an edit, and its messages follow with the finished compile), or where a
# stage's errors stopped the compile (they are final then, and the stage texts still print).
EarlyHook = Callable[[list[Diagnostic]], None]
# Dialects the llvm stage takes as they are; anything else in the input starts at the nvvm stage.
_LLVM_LEVEL = ("llvm", "nvvm")
_LONE_CR = re.compile(r"\r(?!\n)")
# (A lone CR ends a comment, as in MLIR's lexer: a line start here is also just after one.)
_CUDA_TILE = re.compile(r"(?:^|(?<=\r))[^/\n\r]*?\bcuda_tile\.|^\s*entry\b", re.MULTILINE)
_BESIDE_PTXAS: list[Callable[[], None]] = []  # see work_beside_ptxas
# The niceness of the children that print the stages: they yield the CPU to the compile that goes
# on (its diagnostics wait on it, never on them) and to the editor's server on a busy machine.
PRINT_NICENESS = 10


def work_beside_ptxas(work: Callable[[], None] | None) -> None:
    """Work of this process for the time ptxas runs in every compile from now on, after the stage
    texts are in (None: none). The editor's worker collects its garbage there
    (tile_lsp.background): the IR is let go before ptxas starts (`_release_ir`), and no printing
    child is alive to copy the pages a collection touches."""
    _BESIDE_PTXAS[:] = [work] if work is not None else []


@dataclass
class StageOutput:
    """What one stage produced: its text (MLIR, LLVM IR or PTX), bytes for the cubin, its time."""

    name: str
    text: str
    seconds: float
    located_text: str | None = None  # MLIR stages: the same text with `loc(...)` on every op
    data: bytes | None = None
    # Per 0-based line of `text`, the source it came from (None: structural, or no map made).
    line_refs: list[SourceRef | None] | None = None


@dataclass
class UnitStats:
    """Which units one compile lowered and which it took from the cache."""

    units: list[str] = field(default_factory=list)  # entry names, file order
    compiled: list[str] = field(default_factory=list)
    from_memory: list[str] = field(default_factory=list)
    from_disk: list[str] = field(default_factory=list)
    stage_runs: dict[str, int] = field(default_factory=dict)  # stage -> units that ran it now
    merged_ptxas: str = "none"  # the whole file's cubin: "linked", "run", "cached" or "none"
    merged_ptxas_beside: bool = False  # that run started beside the edited unit's ptxas
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "units": len(self.units),
            "compiled": self.compiled,
            "cached": len(self.from_memory) + len(self.from_disk),
            "from_memory": len(self.from_memory),
            "from_disk": len(self.from_disk),
            "stage_runs": self.stage_runs,
            "merged_ptxas": self.merged_ptxas,
            "merged_ptxas_beside": self.merged_ptxas_beside,
            "seconds": round(self.seconds, 6),
        }


@dataclass
class CompileResult:
    """Everything one compile produced: per-stage outputs, diagnostics, ptxas resources."""

    source: SourceText
    options: CompileOptions
    emit: str
    start_stage: str | None = None
    target: Target | None = None
    stages: list[StageOutput] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    kernels: dict[str, Any] = field(default_factory=dict)  # name -> backend.ptxas.KernelResources
    ptxas_command: str | None = None
    # Source offset of a cuda_tile op -> the layout the gpu stage gave its result, in words.
    layouts: dict[int, str] = field(default_factory=dict)
    unit_stats: UnitStats | None = None  # per-entry compile units: compiled vs cached, per stage
    link_object: bool = False  # the cubin stage's data is a `ptxas -ewp` object for nvlink

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    def stage(self, name: str) -> StageOutput | None:
        return next((s for s in self.stages if s.name == name), None)

    def stage_lines(self, stage: str) -> list[SourceRef | None]:
        """Per 0-based line of `stage`'s text, the source op it came from (None where no source
        op did: structural lines; every line when the stage did not run or kept no map)."""
        out = self.stage(stage)
        if out is None or out.data is not None:
            return []
        count = len(out.text.splitlines())
        refs = out.line_refs or []
        return list(refs[:count]) + [None] * (count - len(refs))

    def source_to_lines(self, stage: str, where: int | Span) -> list[int]:
        """The 0-based lines of `stage`'s text lowered from the 0-based source line `where` (an
        int), or from source ops at offsets in the character range `where` (a Span)."""
        return lines_of_source(self.stage_lines(stage), self.source, where)

    @property
    def output(self) -> StageOutput | None:
        """The requested stage's output, if the compile got that far."""
        return self.stage(self.emit)


# `compile_source(by_entry=...)`: Tile IR compiled one entry at a time (source, options, emit,
# provenance, early), None where the file must be compiled whole (`entry_cache.compile_source`).
ByEntry = Callable[[SourceText, CompileOptions, str, bool, EarlyHook | None], CompileResult | None]


class _Run:
    """One pipeline run's state: the module, the lowering context, the result being filled."""

    def __init__(
        self, result: CompileResult, module: builtin.ModuleOp, lctx: LoweringContext, index: SourceIndex | None
    ) -> None:
        self.result = result
        self.module = module
        self.lctx = lctx
        self.index = index  # None: no line maps wanted
        self.llvm_ir: str | None = None  # what the ptx stage compiles (with line info when mapping)
        self.ptx: str | None = None  # what ptxas assembles (the shown PTX)
        # MLIR stage texts printed by forked children, collected before the compile returns.
        self.pending: list[tuple[StageOutput, Any]] = []
        self.before_ptxas: Callable[[CompileResult], None] | None = None  # compile_source's `early`
        self.beside_ptxas: Callable[[], None] | None = None  # compile_whole's
        self.link_object = False  # compile_whole's
        # Work for the shown texts and line maps only (no later stage reads it, no diagnostic
        # comes of it): done after the early diagnostics, the ptx stage's before ptxas (its map
        # places ptxas's messages), the others while ptxas runs (`_finish_deferred`).
        self.deferred: list[tuple[StageOutput, Callable[[], None]]] = []
        # The llvm stage's text, printed once the diagnostics are out (`_print_late`): no later
        # stage changes the module, so it needs no snapshot taken at once.
        self.late: list[StageOutput] = []
        # Set by `_release_ir` (before ptxas), after which `module` is gone: where a ptxas
        # message with no PTX line goes (each located kernel's name and span), and the module's.
        self.kernel_spans: list[tuple[str, Span]] = []
        self.module_span: Span | None = None

    @property
    def debug_shown(self) -> bool:
        """Whether the user asked for line info (or full debug info) in the texts."""
        return self.lctx.options.lineinfo or self.lctx.options.device_debug

    @property
    def forced_lineinfo(self) -> bool:
        """Line info compiled in only for the map, taken out of the shown texts."""
        return self.index is not None and not self.debug_shown

    @property
    def sink(self) -> DiagnosticSink:
        return self.lctx.sink

    def internal_error(self, stage: str, exc: BaseException) -> None:
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        at = f" ({where.filename.rsplit('/', 1)[-1]}:{where.lineno})" if where else ""
        self.module_error(f"internal error in stage {stage}: {type(exc).__name__}: {exc}{at}")

    def module_error(self, message: str) -> None:
        """An error at the module (its source position), also once the IR is released."""
        if self.module_span is not None:
            self.sink.error(self.module_span, message)
        else:
            self.lctx.error(self.module, message)


def detect_start(source: SourceText) -> str:
    """"cuda_tile" for Tile IR text, else "mlir" (refined to nvvm/llvm after parsing)."""
    return "cuda_tile" if _CUDA_TILE.search(source.text) else "mlir"


def start_stage_of(module: Operation) -> str:
    """"llvm" when the module holds only llvm/nvvm ops (inside gpu.modules), else "nvvm"."""
    from tile_lsp.compiler.lowering.debuginfo import op_name

    for op in module.walk():
        name = op_name(op)
        if name in ("builtin.module", "gpu.module"):
            continue
        if name.split(".", 1)[0] not in _LLVM_LEVEL:
            return "nvvm"
    return "llvm"


def compile_source(
    source: SourceText,
    options: CompileOptions,
    emit: str = "ptx",
    *,
    provenance: bool = True,
    by_entry: ByEntry | None = None,
    early: EarlyHook | None = None,
    max_size: int | None = None,
) -> CompileResult:
    """Run the stages from where `source` starts up to `emit`; every failure is a diagnostic.
    A text over `max_size` bytes (`compile --max-size`; None: no limit) is refused at 1:1.

    With `provenance` (the default) every text stage keeps its line map (`CompileResult.stage_lines`):
    LLVM IR and PTX are then built with line info even without `options.lineinfo`, and shown
    without it (the user's `lineinfo` still decides the shown text and ptxas's `-lineinfo`).

    With `by_entry`, Tile IR is compiled by it, one entry at a time, where it can be (None: the
    file whole): `entry_cache.compile_source`, the compile of the CLI and the editor, passes its
    units' compile and cache here; this module knows nothing of units.

    `early` (see `EarlyHook`) gets the diagnostics through the ptx stage before ptxas runs, or
    those of the stages that ran when one's errors stopped the compile; it is not called when a
    compile ends without errors short of ptxas, nor when several entries compile at once."""
    if source.text.startswith("\ufeff"):  # an editor's byte-order mark: a blank (positions stay)
        from tile_lsp.compiler.textio import blank_bom

        source = SourceText(blank_bom(source.text), source.path)
    if "\r" in source.text and _LONE_CR.search(source.text):
        # A lone CR ends a line (LSP; MLIR's lexer ends a comment there); the item splitter, the
        # units' cache keys and the stages' line maps read lines at "\n": they get the same text
        # with "\n" there (every offset stays, so diagnostics are where they were).
        source = SourceText(_LONE_CR.sub("\n", source.text), source.path)
    if max_size is not None and len(source.text) * 4 > max_size and (size := limits.size_of(source.text)) > max_size:
        refused = CompileResult(source, options, emit)
        message = (
            f"{limits.too_big(size, max_size, 'compiling')}: not compiled (raise it with --max-size "
            f"{(size >> 20) + 1}M; `tile-lsp check` checks files up to {limits.megabytes(limits.front_end_limit())})"
        )
        DiagnosticSink("cuda_tile", refused.diagnostics).error(_file_start(source), message)
        return refused
    if by_entry is not None and emit in EMITS and detect_start(source) == "cuda_tile":
        merged = by_entry(source, options, emit, provenance, early)
        if merged is not None:
            return merged
    hook = None if early is None else (lambda partial: early(list(partial.diagnostics)))
    return compile_whole(source, options, emit, provenance=provenance, before_ptxas=hook)


def compile_whole(
    source: SourceText,
    options: CompileOptions,
    emit: str = "ptx",
    *,
    provenance: bool = True,
    before_ptxas: Callable[[CompileResult], None] | None = None,
    beside_ptxas: Callable[[], None] | None = None,
    link_object: bool = False,
    ref_lines: Sequence[int] | None = None,
) -> CompileResult:
    """`compile_source` on the whole text at once, without units or caches; `before_ptxas` is
    called with the result so far just before the cubin stage (ptxas) runs, `beside_ptxas`
    while ptxas runs (before `work_beside_ptxas`'s; not at all when no ptxas runs). `link_object`:
    where the PTX is `ptxas.linkable`, the cubin stage is an object for nvlink
    (`CompileResult.link_object`; a unit of a file whose cubin is linked from its units').
    `ref_lines`: the 0-based lines whose cuda_tile-stage refs are made (a unit's own lines in its
    masked copy of the file, a ref each, in order; None: one per line of the file)."""
    result = CompileResult(source, options, emit)
    if emit not in EMITS:
        DiagnosticSink("options", result.diagnostics).error(_file_start(source), f"unknown --emit stage '{emit}'")
        return result
    if _no_code(source.text):
        # mlir-opt reads an empty file as an empty module; a compile of one is a mistake (a
        # wrong or truncated file), and an empty PTX would only fail later, at the kernel's load.
        DiagnosticSink("cuda_tile", result.diagnostics).error(
            _file_start(source), "nothing to compile: the file has no cuda_tile module or entry (it is empty or only comments)"
        )
        return result
    if detect_start(source) == "cuda_tile":
        run = _start_cuda_tile(result, provenance, ref_lines)
        if run is None:
            return result
    else:
        run = _start_upstream(result, provenance)
        if run is None:
            return result
    run.before_ptxas = before_ptxas
    run.beside_ptxas = beside_ptxas
    run.link_object = link_object
    cancelled = False
    try:
        _run_stages(run, emit)
    except cancel.Cancelled:
        cancelled = True
        _abandon(run)
        raise
    finally:
        if not cancelled:
            _print_late(run)
            _finish_deferred(run)
            _join_prints(run)
    return result


def _abandon(run: _Run) -> None:
    """A cancelled run: its printing children are stopped, its texts never finished."""
    pending, run.pending, run.late, run.deferred = run.pending, [], [], []
    for _, job in pending:
        job.kill()


def _start_upstream(result: CompileResult, provenance: bool) -> _Run | None:
    """Parse upstream-dialect MLIR; the run starts at the nvvm or llvm stage."""
    from tile_lsp.compiler.mlir.context import parse_upstream

    source, options = result.source, result.options
    try:
        parsed = parse_upstream(source)
    except Exception as exc:  # parse_upstream reports user errors itself; this is a parser bug
        message = f"internal error in stage mlir: {type(exc).__name__}: {exc}"
        DiagnosticSink("mlir", result.diagnostics).error(_file_start(source), message)
        return None
    result.diagnostics.extend(parsed.diagnostics)
    if not parsed.ok or parsed.module is None:
        return None
    module = parsed.module
    result.start_stage = start_stage_of(module)
    sink = DiagnosticSink(result.start_stage, result.diagnostics)
    from tile_lsp.compiler.lowering.common import LoweringContext

    lctx = LoweringContext(source, options, sink, parsed.spans)
    run = _Run(result, module, lctx, SourceIndex(source, parsed.spans) if provenance else None)
    _resolve_target(run)
    return run


def _start_cuda_tile(result: CompileResult, provenance: bool, ref_lines: Sequence[int] | None = None) -> _Run | None:
    """Parse and verify Tile IR with the front end (its diagnostics stop the run: stage
    cuda_tile); the run's first output is the cuda_tile text itself, every line its own source."""
    from tile_lsp.compiler.document import parse_document
    from tile_lsp.compiler.lowering.tile_to_tileaa import cuda_tile_spans

    source, options = result.source, result.options
    result.start_stage = "cuda_tile"
    sink = DiagnosticSink("cuda_tile", result.diagnostics)
    started = time.perf_counter()
    try:
        parsed = parse_document(source.text, source.path)  # (as the editor and `check` parse it)
    except Exception as exc:  # the front end reports user errors itself; this is a parser bug
        sink.error(_file_start(source), f"internal error in stage cuda_tile: {type(exc).__name__}: {exc}")
        return None
    result.diagnostics.extend(parsed.diagnostics)  # (stage cuda_tile)
    if not parsed.ok or parsed.module is None:
        return None
    try:
        spans = cuda_tile_spans(parsed.smap)
    except Exception as exc:
        sink.error(_file_start(source), f"internal error in stage cuda_tile: {type(exc).__name__}: {exc}")
        return None
    from tile_lsp.compiler.lowering.common import LoweringContext

    lctx = LoweringContext(source, options, sink, spans)
    index = SourceIndex(source, spans) if provenance else None
    run = _Run(result, parsed.module, lctx, index)
    result.target = options.target
    refs: list[SourceRef | None] | None = None
    if index is not None:
        lines = range(len(source.line_starts())) if ref_lines is None else ref_lines
        refs = [index.ref(source.path, line + 1, 1) for line in lines]
    output = StageOutput("cuda_tile", source.text, time.perf_counter() - started, line_refs=refs)
    result.stages.append(output)
    return run


def _run_stages(run: _Run, emit: str) -> None:
    """Run the stages after the start stage up to `emit` (ptx also runs ptxas, when found, to
    check the PTX and report resources); stop at the first stage with an error."""
    result, sink = run.result, run.sink  # (no local holds the IR: `_release_ir` lets it go)
    assert result.start_stage is not None
    first = STAGES.index(result.start_stage)
    if result.stages and result.stages[-1].name == result.start_stage:
        first += 1  # the start stage's output is made already (cuda_tile: the parsed text)
    last = STAGES.index(emit)
    if last < STAGES.index(result.start_stage):
        run.module_error(f"--emit {emit} comes before stage {result.start_stage}, where this input starts")
        return
    for name in STAGES[first:]:
        if STAGES.index(name) > last and not (name == "cubin" and emit == "ptx"):
            break
        cancel.checkpoint()
        if name == "cubin":
            _diagnostics_out(run)
            _print_late(run)
            _finish_deferred(run, "ptx")  # ptxas's messages are placed through the PTX line map
            _release_ir(run)
        sink.stage = DIAGNOSTIC_STAGE.get(name, name)
        started = time.perf_counter()
        stage = STAGE_TABLE[name]
        try:
            if stage.lower is not None:  # an MLIR stage: the module rewritten, then printed here
                produced = _mlir_output(run, name, stage.printed) if stage.lower(run) else None
            else:
                assert stage.emit is not None
                produced = stage.emit(run)
        except Exception as exc:  # a stage's own bug: report it, never crash the caller
            run.internal_error(name, exc)
            produced = None
        if produced is not None:
            produced.seconds = time.perf_counter() - started
            result.stages.append(produced)
        elif not sink.has_errors and not (name == "cubin" and emit == "ptx"):
            run.module_error(f"stage {name} failed without a diagnostic")
        if sink.has_errors:
            if name != "cubin":  # (ptxas's own errors come with the finished compile)
                _diagnostics_out(run)
            break


def _release_ir(run: _Run) -> None:
    """Before ptxas, the last stage: nothing after it reads the IR but the spans its messages
    may need, taken now. The module, the op spans and the line-map index are let go (`module`
    is deleted: a later read is a bug that fails loudly), so the garbage collection an editor's
    worker runs while ptxas does (`work_beside_ptxas`) frees every stage's IR instead of
    freezing it with what survives."""
    try:
        module_span, kernels = _kernel_spans(run)
    except Exception:  # (only a saving: the IR then stays until the compile returns)
        log.debug("the IR could not be let go before ptxas", exc_info=True)
        return
    run.module_span, run.kernel_spans = module_span, kernels
    del run.module
    run.lctx.spans = {}
    run.index = None


def _kernel_spans(run: _Run) -> tuple[Span, list[tuple[str, Span]]]:
    """The module's span, and each function's with a source position (name, span)."""
    from tile_lsp.compiler.mlir.context import location_offset

    lctx = run.lctx
    kernels: list[tuple[str, Span]] = []
    for op in _shallow_ops(run.module):
        name = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if op.name.endswith(".func") and name is not None and location_offset(op.location, lctx.source) is not None:
            kernels.append((str(getattr(name, "data", name)), lctx.span_of(op)))
    return lctx.span_of(run.module), kernels


def _shallow_ops(module: Operation) -> list[Operation]:
    """The module's ops and those of the modules in it (gpu.module): where functions are."""
    found: list[Operation] = []
    for op in module.regions[0].block.ops if module.regions and module.regions[0].blocks else ():
        found.append(op)
        if op.regions and not op.name.endswith(".func"):
            found.extend(_shallow_ops(op))
    return found


def _diagnostics_out(run: _Run) -> None:
    """The stage diagnostics are final: the early hook gets them (once), before the stage texts
    are finished (a stage that stopped the compile: before its printing is collected)."""
    hook, run.before_ptxas = run.before_ptxas, None
    if hook is not None:
        try:
            hook(run.result)
        except Exception:  # only an early look at the diagnostics: the compile goes on
            log.debug("the before-ptxas hook failed", exc_info=True)


def _resolve_target(run: _Run) -> Target | None:
    """The compile target: the option, else a chip an `#nvvm.target` in the module names."""
    from tile_lsp.compiler.lowering.target_attach import existing_target

    target = run.lctx.options.target
    if target is None and run.module_span is None:  # (after `_release_ir` it was found already, if at all)
        target = existing_target(run.module)
    if target is not None and run.lctx.options.target is None:
        run.lctx.options = replace(run.lctx.options, target=target)
    run.result.target = target
    return target


def _require_target(run: _Run) -> Target | None:
    target = _resolve_target(run)
    if target is None:
        run.module_error(MISSING_TARGET)
    return target


def _mlir_output(run: _Run, name: str, printed: str) -> StageOutput:
    """The stage's text (plain and located) and line map, printed from the module as it is now.
    With fork (`compiler.forked`) the printing runs in a child on a snapshot of the module while
    the next stages go on; `_join_prints` fills the output in before the compile returns.

    Each fork costs the stages after it copy-on-write faults on every page they touch, so
    `printed` (the stage table's `Stage.printed`) "here" (a small module: printing it costs less)
    prints at once, and "late" (the module does not change after this stage) leaves the fork
    until the diagnostics are out; "fork" forks now."""
    from tile_lsp.compiler import forked

    if not run.lctx.options.stage_texts and name != run.result.emit:
        return StageOutput(name, "", 0.0)  # (nobody reads it: see CompileOptions.stage_texts)
    if forked.enabled() and printed != "here":
        out = StageOutput(name, "", 0.0)
        if printed == "late":
            run.late.append(out)
            return out
        _print_forked(run, out)
        return out
    text, located, refs = _print_stage(run.module, run.index)
    return StageOutput(name, text, 0.0, located_text=located, line_refs=refs)


def _print_forked(run: _Run, out: StageOutput) -> None:
    """Print `out`'s stage from the module as it is now, in a forked child (here if none)."""
    from tile_lsp.compiler import forked

    module, index = run.module, run.index
    after = run.pending[-1][1] if run.pending else None
    try:
        job = forked.Forked(lambda: _print_stage(module, index), after, nice=PRINT_NICENESS)
    except OSError:  # no process to be had (limits, memory): print here
        out.text, out.located_text, out.line_refs = _print_stage(module, index)
    else:
        run.pending.append((out, job))


def _print_late(run: _Run) -> None:
    """Start the printing `_mlir_output` left for now (a stage printed "late")."""
    late, run.late = run.late, []
    for out in late:
        _print_forked(run, out)


def _print_stage(module: Operation, index: SourceIndex | None) -> tuple[str, str | None, list[SourceRef | None] | None]:
    from tile_lsp.compiler.mlir.context import print_ir
    from tile_lsp.compiler.provenance_mlir import print_mapped, print_mapped_located

    refs: list[SourceRef | None] | None = None
    located: str | None = None
    if index is not None:  # one printing: the located text, and the plain one cut from it
        try:
            text, located, refs = print_mapped_located(module, index)
        except Exception:  # a location kind the printer does not know: print without locations
            text, refs = print_mapped(module, index)
            located = ""
    if refs is None:
        text = print_ir(module)
    if located is None:  # ("": printing locations failed already)
        try:
            located = print_ir(module, locations=True)
        except Exception:  # a location kind the printer does not know: the plain dump still stands
            located = None
    return text, located or None, refs


def _defer(run: _Run, out: StageOutput, work: Callable[[], None]) -> StageOutput:
    """`out`, to be completed by `work` once the diagnostics are out (see `_Run.deferred`)."""
    run.deferred.append((out, work))
    return out


def _finish_deferred(run: _Run, only: str | None = None) -> None:
    """Do the deferred work (of stage `only`, when given)."""
    pending = [item for item in run.deferred if only is None or item[0].name == only]
    run.deferred = [item for item in run.deferred if not (only is None or item[0].name == only)]
    for out, work in pending:
        started = time.perf_counter()
        try:
            work()
        except Exception as exc:  # a line-map bug: say so at the module, keep the compile
            run.internal_error(out.name, exc)
        out.seconds += time.perf_counter() - started


def _join_prints(run: _Run) -> None:
    """Collect the stage texts printed in forked children (see `_mlir_output`)."""
    from tile_lsp.compiler.forked import ForkFailed

    pending, run.pending = run.pending, []
    for out, job in pending:
        try:
            out.text, out.located_text, out.line_refs = job.result()
        except ForkFailed as exc:
            out.text = f"// tile-lsp: printing the {out.name} stage failed ({exc})\n"
            out.located_text, out.line_refs = None, None


# -- the stages -------------------------------------------------------------------------------
# An MLIR stage (`Stage.lower`) rewrites `run.module` in place and says whether the compile goes
# on; the loop prints it. A text stage (`Stage.emit`) makes its own output from what the stage
# before it left (`run.llvm_ir`, `run.ptx`).


def _lower_tileaa(run: _Run) -> bool:
    from tile_lsp.compiler.lowering.tile_to_tileaa import convert_cuda_tile_to_tileaa

    # (without a target: "invalid or missing --compute-capability option" at the module)
    return convert_cuda_tile_to_tileaa(run.module, run.lctx) and not run.sink.has_errors


def _lower_gpu(run: _Run) -> bool:
    from tile_lsp.compiler.lowering.cse import eliminate_common_subexpressions
    from tile_lsp.compiler.lowering.tileaa_to_gpu import convert_tileaa_to_gpu

    if not convert_tileaa_to_gpu(run.module, run.lctx) or run.sink.has_errors:
        return False
    eliminate_common_subexpressions(run.module)  # slot-by-slot code repeats index arithmetic
    run.result.layouts = dict(run.lctx.layouts)
    return True


def _lower_nvvm(run: _Run) -> bool:
    from tile_lsp.compiler.lowering import debuginfo, target_attach, to_nvvm
    from tile_lsp.compiler.lowering.cse import eliminate_common_subexpressions

    if not to_nvvm.convert_to_nvvm(run.module, run.lctx):
        return False
    if run.result.start_stage == "cuda_tile":  # (the user's own gpu/nvvm MLIR lowers op for op)
        eliminate_common_subexpressions(run.module)  # the patterns make a constant per use
    return target_attach.attach_nvvm_target(run.module, run.lctx) and debuginfo.translate_debug_info(run.module, run.lctx)


def _lower_llvm(run: _Run) -> bool:
    if _require_target(run) is None:
        return False
    from tile_lsp.compiler.lowering import intrinsics, nvvm_to_llvm

    if not nvvm_to_llvm.convert_nvvm_to_llvm(run.module, run.lctx) or run.sink.has_errors:
        return False
    for level in (0, 1):
        intrinsics.lower_intrinsics(run.module, run.lctx, level)
        if run.sink.has_errors:
            return False
    return True


def _emit_llvm_ir(run: _Run) -> StageOutput | None:
    if _require_target(run) is None:
        return None
    from tile_lsp.compiler import provenance
    from tile_lsp.compiler.backend import llvm as llvm_backend
    from tile_lsp.compiler.backend import llvmir

    options = run.lctx.options
    if run.forced_lineinfo:  # DebugDirectivesOnly: `!dbg` locations, no code change
        run.lctx.options = replace(options, lineinfo=True)
    try:
        ir = llvmir.emit_llvm_ir(run.module, run.lctx)
    finally:
        run.lctx.options = options
    if ir is None or run.sink.has_errors:
        return None
    optimized = llvm_backend.optimize(ir, options, run.sink, _callers(run))
    if run.sink.has_errors:
        return None
    run.llvm_ir = optimized
    return _map_lines(run, StageOutput("llvm-ir", optimized, 0.0), provenance.llvm_ir_refs, provenance.strip_llvm_debug)


def _map_lines(
    run: _Run,
    out: StageOutput,
    refs_of: Callable[[str, SourceIndex], list[SourceRef | None]],
    strip: Callable[[str], tuple[str, list[int]]],
    stripped: Callable[[str], None] = lambda text: None,
) -> StageOutput:
    """`out` with its line map made once the diagnostics are out (when the run has a source
    index). Debug directives forced for the map (DebugDirectivesOnly) are then stripped from the
    shown text, and `stripped` is told the text that remains."""
    index = run.index
    if index is None:
        return out
    forced = run.forced_lineinfo  # (taken now: the map is made after `_release_ir`)
    text = out.text

    def mapped() -> None:
        refs = refs_of(text, index)
        if forced:
            out.text, kept = strip(text)
            stripped(out.text)
            refs = reindex(refs, kept)
        out.line_refs = refs

    return _defer(run, out, mapped)


def _callers(run: _Run) -> Callable[[str], list[Span]]:
    """Where the module calls a function: the source spans of its `llvm.call` ops to it, in file
    order (for the libdevice link's diagnostics: only walked when there is one)."""

    def locate(name: str) -> list[Span]:
        from xdsl.dialects.builtin import SymbolRefAttr

        spans = set()
        for op in run.module.walk():
            callee = op.properties.get("callee") if op.name == "llvm.call" else None
            if isinstance(callee, SymbolRefAttr) and callee.string_value() == name:
                spans.add(run.lctx.span_of(op))
        return sorted(spans)

    return locate


def _emit_ptx(run: _Run) -> StageOutput | None:
    target = _require_target(run)
    if target is None or run.llvm_ir is None:
        return None
    from tile_lsp.compiler import provenance
    from tile_lsp.compiler.backend import llvm as llvm_backend

    ptx = llvm_backend.emit_ptx(run.llvm_ir, target, opt_level=run.lctx.options.opt_level, sink=run.sink)
    if run.sink.has_errors or not ptx:
        return None
    run.ptx = ptx

    def shown(text: str) -> None:  # (the map is made before ptxas: it is given the shown PTX)
        run.ptx = text

    return _map_lines(run, StageOutput("ptx", ptx, 0.0), provenance.ptx_refs, provenance.strip_ptx_debug, shown)


def _emit_cubin(run: _Run) -> StageOutput | None:
    target = _require_target(run)
    if target is None or run.ptx is None:
        return None
    from tile_lsp.compiler.backend import ptxas

    if ptxas.find_ptxas(run.lctx.options) is None:
        if run.result.emit == "cubin":
            run.module_error("ptxas not found (give --ptxas PATH, set CUDA_HOME, or put it on PATH)")
        return None  # `--emit ptx` without a ptxas: the PTX stands unchecked
    ewp = run.link_object and ptxas.linkable(run.ptx, run.lctx.options)
    res = ptxas.run_ptxas(run.ptx, target, run.lctx.options, beside=lambda: _beside_ptxas(run), ewp=ewp)
    run.result.ptxas_command = res.command
    run.result.kernels = dict(res.kernels)
    _report_ptxas(run, res, target)
    if not res.ok:
        return None
    cubin = res.cubin or b""
    run.result.link_object = ewp
    what = "object for nvlink (ptxas -ewp)" if ewp else "cubin"
    return StageOutput("cubin", f"{len(cubin)} bytes of {target.chip} {what}", 0.0, data=cubin)


def _beside_ptxas(run: _Run) -> None:
    """While ptxas runs: the printing children are waited for (they must be, before the compile
    returns), the other deferred line maps made (the llvm-ir stage's), then the run's own
    `beside_ptxas`, then `work_beside_ptxas`'s."""
    _join_prints(run)
    _finish_deferred(run)
    if run.beside_ptxas is not None:
        run.beside_ptxas()
    for work in _BESIDE_PTXAS:
        work()


def _ptxas_anchor(run: _Run, message: str) -> Span:
    """Where a ptxas message with no PTX line goes: the kernel it names, else the module's first
    kernel with a source position (one entry's unit: that entry, not the file's first line),
    else the module (spans `_release_ir` took, or taken now where it kept the IR)."""
    module_span, located = (run.module_span, run.kernel_spans) if run.module_span is not None else _kernel_spans(run)
    named = [span for name, span in located if re.search(rf"\b{re.escape(name)}\b", message)]
    fallback = module_span
    return (named or [span for _, span in located] or [fallback])[0]


def _report_ptxas(run: _Run, res: Any, target: Target) -> None:
    """ptxas messages at the source op their PTX line came from (through the ptx stage's line
    map), else at their kernel (`_ptxas_anchor`); every error names the command that reproduces it."""
    assert run.ptx is not None
    refs = run.result.stage_lines("ptx")
    placed = False
    for msg in res.messages:
        ref = refs[msg.line - 1] if msg.line and 0 < msg.line <= len(refs) else None
        span = None
        if ref is not None and ref.offset is not None:
            span = ref.span or Span(ref.offset, min(ref.offset + 1, len(run.lctx.source.text)))
        text = f"ptxas {msg.severity} for {target.chip}: {msg.text}" + (f" (PTX line {msg.line})" if msg.line else "")
        if msg.severity == "warning":
            if span is not None:
                run.sink.warning(span, text)
            else:
                run.sink.warning(_ptxas_anchor(run, msg.text), text)
            continue
        text += f"\nreproduce with: {res.command}"
        if span is not None:
            run.sink.error(span, text)
        else:
            run.sink.error(_ptxas_anchor(run, msg.text), text)
        placed = True
    if not res.ok and not placed:
        detail = res.diagnostics.strip() if res.diagnostics else f"no output\nreproduce with: {res.command}"
        run.sink.error(_ptxas_anchor(run, detail), f"ptxas rejected the PTX for {target.chip}:\n{detail}")


@dataclass(frozen=True)
class Stage:
    """A row of the stage table: an MLIR stage's `lower` (module to module) and when the loop
    prints its module (`printed`: "fork", in a child on a snapshot while the next stages run;
    "here", at once, for a module smaller than a fork's cost; "late", once the diagnostics are
    out, for a module no later stage changes), or a text stage's `emit`."""

    lower: Callable[[_Run], bool] | None = None
    printed: str = "fork"
    emit: Callable[[_Run], StageOutput | None] | None = None


# Every stage after the start stage, in `STAGES` order (the cuda_tile stage is the parse:
# `_start_cuda_tile`; upstream input starts at nvvm or llvm: `_start_upstream`).
STAGE_TABLE: dict[str, Stage] = {
    "tileaa": Stage(_lower_tileaa, printed="here"),  # (about a tenth of the gpu stage's text)
    "gpu": Stage(_lower_gpu),
    "nvvm": Stage(_lower_nvvm),
    "llvm": Stage(_lower_llvm, printed="late"),  # (the llvm-ir stage reads the module, never changes it)
    "llvm-ir": Stage(emit=_emit_llvm_ir),
    "ptx": Stage(emit=_emit_ptx),
    "cubin": Stage(emit=_emit_cubin),
}


def _no_code(text: str) -> bool:
    """Nothing but blanks and `//` comments (a file of code gets past the first line or two)."""
    from tile_lsp.compiler.items import only_comments

    return not text.strip() or (text.lstrip().startswith("//") and only_comments(text))


def _file_start(source: SourceText) -> Span:
    return Span(0, min(1, len(source.text)))
