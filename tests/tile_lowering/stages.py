"""Running the front half in tests: cut a file into entries, lower one to the gpu stage, and
carry it on to PTX the way the pipeline does (asserting each stage reports nothing)."""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.tile_to_tileaa import convert_cuda_tile_to_tileaa, cuda_tile_spans
from tile_lsp.compiler.lowering.tileaa_to_gpu import convert_tileaa_to_gpu
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
SM80, SM90A = Target(80), Target(90, "a")


def entries(path: pathlib.Path) -> list[str]:
    """The file's top-level `entry` functions, each as a text of its own."""
    text = path.read_text()
    starts = [m.start() for m in re.finditer(r"^entry ", text, re.M)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


@dataclass
class Run:
    lctx: LoweringContext
    module: ModuleOp
    ok: bool

    @property
    def errors(self) -> list[str]:
        return [d.message for d in self.lctx.sink.items if d.is_error]


def to_gpu(text: str, target: Target = SM90A, threads: int | None = None) -> Run:
    [parsed] = parse_text(text, "input.mlir")
    assert parsed.module is not None and parsed.ok, [d.message for d in parsed.diagnostics]
    lctx = LoweringContext(SourceText(text, "input.mlir"), CompileOptions(target=target),
                           DiagnosticSink(stage="tileaa"), cuda_tile_spans(parsed.smap))
    module = parsed.module
    assert convert_cuda_tile_to_tileaa(module, lctx), [d.message for d in lctx.sink.items]
    lctx.sink.stage = "gpu"
    return Run(lctx, module, convert_tileaa_to_gpu(module, lctx, threads))


def to_ptx(run: Run, target: Target) -> str:
    """Stages 4-7 as the pipeline runs them; asserts that each one reports nothing."""
    from tile_lsp.compiler.backend import llvm as llvm_backend
    from tile_lsp.compiler.backend import llvmir
    from tile_lsp.compiler.lowering import debuginfo, intrinsics, nvvm_to_llvm, target_attach, to_nvvm

    m, lctx = run.module, run.lctx
    assert to_nvvm.convert_to_nvvm(m, lctx), run.errors
    assert target_attach.attach_nvvm_target(m, lctx), run.errors
    assert debuginfo.translate_debug_info(m, lctx), run.errors
    assert nvvm_to_llvm.convert_nvvm_to_llvm(m, lctx) and not lctx.sink.has_errors, run.errors
    for level in (0, 1):
        intrinsics.lower_intrinsics(m, lctx, level)
    assert not lctx.sink.has_errors, run.errors
    ir = llvmir.emit_llvm_ir(m, lctx)
    assert ir is not None and not lctx.sink.has_errors, run.errors
    optimized = llvm_backend.optimize(ir, lctx.options, lctx.sink)
    assert not lctx.sink.has_errors, run.errors
    ptx = llvm_backend.emit_ptx(optimized, target, opt_level=lctx.options.opt_level, sink=lctx.sink)
    assert ptx and not lctx.sink.has_errors, run.errors
    return ptx


def ops(module: Operation, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]
