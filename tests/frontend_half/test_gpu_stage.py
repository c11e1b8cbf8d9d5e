"""Stage 3 `gpu` (tile to threads), first slice: the Layout object, the shape of the emitted
gpu.module, diagnostics for what is not covered yet, and every exported cuTile entry end to end
(cuda_tile -> nv_tileaa -> gpu -> mlir-opt 22 -> nvvm -> llvm -> LLVM IR -> PTX -> ptxas for
sm_80 and sm_90a).
"""

from __future__ import annotations

import itertools
import pathlib
import re
from dataclasses import dataclass

import pytest
from backhalf.util import mlir_opt
from xdsl.dialects.builtin import FileLineColLoc, FusedLoc, ModuleOp, UnknownLoc
from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.layout import Layout, unravel
from tile_lsp.compiler.lowering.tile_to_tileaa import convert_cuda_tile_to_tileaa, cuda_tile_spans
from tile_lsp.compiler.lowering.tileaa_to_gpu import UNSUPPORTED, convert_tileaa_to_gpu
from tile_lsp.compiler.mlir.context import print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
SM80, SM90A = Target(80), Target(90, "a")

# ---------------------------------------------------------------------------------------------
# Layout


@pytest.mark.parametrize(("shape", "threads"), [((1024,), 128), ((16,), 128), ((64, 128), 128), ((3, 5), 4),
                                                ((256,), 128), ((2, 2048), 128), ((1,), 128), ((7,), 2)])
def test_layout_round_trip(shape: tuple[int, ...], threads: int) -> None:
    layout = Layout.for_shape(shape, threads)
    n = layout.num_elements
    seen: dict[int, tuple[int, int]] = {}
    for t, r in itertools.product(range(threads), range(layout.slots)):
        e = layout.element(t, r)
        if layout.uniform:
            assert e == 0 and layout.owner(0) == (0, 0)
            continue
        assert e == t * layout.vector + layout.offset(r)
        assert layout.is_ghost(t, r) == (e >= n)
        if e < n:
            assert e not in seen, f"element {e} owned twice"
            seen[e] = (t, r)
            assert layout.owner(e) == (t, r)
    if not layout.uniform:
        assert sorted(seen) == list(range(n))  # every element has exactly one owner
        assert layout.has_ghosts == (layout.slots * threads != n)


def test_layout_is_contiguous_vectors_cyclic_over_threads() -> None:
    layout = Layout.for_shape((1024,), 128)
    assert (layout.vector, layout.slots) == (4, 8)
    assert [layout.element(0, r) for r in range(8)] == [0, 1, 2, 3, 512, 513, 514, 515]
    assert [layout.element(1, r) for r in range(4)] == [4, 5, 6, 7]
    assert [layout.element(t, 0) for t in range(3)] == [0, 4, 8]  # consecutive threads, consecutive vectors
    small = Layout.for_shape((16,), 128)
    assert (small.vector, small.slots, small.has_ghosts) == (1, 1, True)
    assert small.is_ghost(16, 0) and not small.is_ghost(15, 0)
    assert Layout.for_shape((1, 1), 128).uniform and Layout.for_shape((), 128).slots == 1
    # The layout depends on the element count only, so reshapes are free.
    assert Layout.for_shape((4, 256), 128) == Layout.for_shape((1024,), 128)
    assert unravel(517, (4, 256)) == [2, 5]


# ---------------------------------------------------------------------------------------------
# Running the stages


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


def to_gpu(text: str, target: Target = SM90A, threads: int = 128) -> Run:
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


# ---------------------------------------------------------------------------------------------
# The emitted gpu.module

VECTOR_ADD = entries(DATA / "vector_add.mlir")[0]  # f32, 1024-element tiles


def test_vector_add_becomes_one_gpu_module_of_kernels() -> None:
    run = to_gpu(VECTOR_ADD)
    assert run.ok and run.errors == []
    top = list(run.module.body.block.ops)
    assert [op.name for op in top] == ["gpu.module"]
    [gmod] = top
    assert "gpu.container_module" in run.module.attributes
    assert str(gmod.attributes["nv_tileaa.compute_capability"]) == "90 : i32"
    assert str(gmod.attributes["nv_tileaa.target_spec"]) == '"sm_90a"'
    [fn] = [op for op in gmod.regions[0].block.ops if op.name == "gpu.func"]
    text = print_ir(run.module)
    assert "gpu.func @vector_add_Kt1_A1f32" in text
    assert "kernel attributes {known_block_size = array<i32: 128, 1, 1>}" in text
    assert not [op.name for op in run.module.walk() if op.name.startswith(("nv_tileaa.", "func."))]
    # 1024 elements / 128 threads: 8 slots, so 8 guarded loads per input and 8 guarded stores.
    assert len(ops(fn, "llvm.load")) == 16 and len(ops(fn, "llvm.store")) == 8
    assert len(ops(fn, "math.fma")) == 8
    assert len(ops(fn, "scf.if")) == 24  # bounds checks: OOB loads give the padding, OOB stores are masked
    names = [op.name for op in fn.walk()]
    assert names.index("gpu.thread_id") < names.index("gpu.block_id")
    run.module.verify()


def test_vector_add_gpu_dump_is_accepted_by_mlir_opt() -> None:
    run = to_gpu(VECTOR_ADD)
    res = mlir_opt(print_ir(run.module))
    assert res.returncode == 0, res.stderr


def test_threads_option_sets_block_size_and_slots() -> None:
    run = to_gpu(VECTOR_ADD, threads=256)
    assert run.ok
    assert "known_block_size = array<i32: 256, 1, 1>" in print_ir(run.module)
    assert len(ops(run.module, "math.fma")) == 4  # 1024 / (256 threads x 4)


def test_new_ops_keep_the_source_location() -> None:
    run = to_gpu(VECTOR_ADD)
    assert not [op.name for op in run.module.walk()
                if isinstance(op.location, UnknownLoc) and op is not run.module]
    [fma] = ops(run.module, "math.fma")[:1]
    loc = fma.location
    line = loc.line.data if isinstance(loc, FileLineColLoc) else None
    if isinstance(loc, FusedLoc):
        line = next(x.line.data for x in loc.locations.data if isinstance(x, FileLineColLoc))
    assert line == VECTOR_ADD.splitlines().index(next(x for x in VECTOR_ADD.splitlines() if " fma " in x)) + 1


def test_reduce_goes_through_one_shared_buffer_with_barriers() -> None:
    run = to_gpu(entries(DATA / "row_softmax.mlir")[1])
    assert run.ok, run.errors
    text = print_ir(run.module)
    globs = ops(run.module, "llvm.mlir.global")
    assert len(globs) == 1 and "addr_space = 3" in text
    assert len(ops(run.module, "gpu.barrier")) >= 4  # write, barrier, read, barrier per exchange
    assert mlir_opt(text).returncode == 0


def test_unsupported_op_is_a_diagnostic_at_the_op_and_the_module_is_kept() -> None:
    text = entries(DATA / "index_select.mlir")[0]
    run = to_gpu(text)
    assert not run.ok
    assert run.errors and all(e.startswith(UNSUPPORTED.split("'")[0]) for e in run.errors)
    assert "not yet supported by the gpu stage: 'nv_tileaa.make_tile_view' (gather_scatter views)" in run.errors
    assert ops(run.module, "gpu.module") == []  # unchanged: still the nv_tileaa module
    spans = [d.span for d in run.lctx.sink.items]
    assert all(s.start > 0 for s in spans)  # at the op, not at the file start


def test_loop_with_break_and_early_continue_stays_structured() -> None:
    """control_flow: `loop` with a `break` inside an if -> scf.while; `for` with `continue`
    inside ifs -> the rest of the body runs under `scf.if kind == 0` (exit state)."""
    run = to_gpu(entries(DATA / "control_flow.mlir")[0])
    assert run.ok, run.errors
    [loop] = ops(run.module, "scf.while")
    [cond] = ops(loop, "scf.condition")
    assert [v.type for v in cond.operands[1:]] == [v.type for v in loop.results]
    assert len(ops(run.module, "scf.for")) >= 1
    assert not [op.name for op in run.module.walk() if op.name.startswith(("nv_tileaa.", "cf."))]
    assert mlir_opt(print_ir(run.module)).returncode == 0


# ---------------------------------------------------------------------------------------------
# Every exported cuTile entry: what reaches ptxas, and what blocks the rest

# (file, entry index) -> the op that blocks it in this slice.
BLOCKED = {
    ("gemm", 3): "nv_tileaa.make_tensor_view",  # fp8 (e4m3) values
    ("index_select", 0): "nv_tileaa.make_tile_view",  # gather_scatter view
}
ENTRIES = [(p.stem, i) for p in sorted(DATA.glob("*.mlir")) if not p.name.endswith(".g.mlir")
           for i in range(len(entries(p)))]


@pytest.mark.parametrize(("name", "index"), ENTRIES, ids=[f"{n}-{i}" for n, i in ENTRIES])
def test_cutile_entry_reaches_ptxas(name: str, index: int) -> None:
    text = entries(DATA / f"{name}.mlir")[index]
    run = to_gpu(text, SM80)
    if (name, index) in BLOCKED:
        assert not run.ok
        assert any(f"'{BLOCKED[name, index]}'" in e for e in run.errors), run.errors
        return
    assert run.ok, run.errors
    res = mlir_opt(print_ir(run.module))
    assert res.returncode == 0, res.stderr
    from tile_lsp.compiler.backend.cuda_tools import find_libdevice
    from tile_lsp.compiler.backend.ptxas import find_ptxas, run_ptxas

    if find_libdevice() is None:
        pytest.skip("libdevice not found")
    for target in (SM80, SM90A):
        current = run if target is SM80 else to_gpu(text, target)
        ptx = to_ptx(current, target)
        assert f".target {target.chip}" in ptx
        if find_ptxas(current.lctx.options) is None:
            pytest.skip("ptxas not found")
        result = run_ptxas(ptx, target, current.lctx.options)
        assert result.ok, result.diagnostics


def test_entry_census() -> None:
    """26 entries in 16 files; 24 entries reach ptxas in this slice (14 whole files, and 3 of gemm's 4)."""
    assert len(ENTRIES) == 26
    files = {n for n, _ in ENTRIES}
    blocked_files = {n for n, _ in BLOCKED}
    assert len(files) == 16 and len(files - blocked_files) == 14
    assert len(ENTRIES) - len(BLOCKED) == 24


# ---------------------------------------------------------------------------------------------
# NVIDIA's cuda_tile test chunks and examples: converted, or reported op by op; never a crash


def test_conformance_chunks_convert_or_report(shared: pathlib.Path) -> None:
    paths = [*sorted((shared / "conformance" / "cuda_tile").rglob("*.mlir")),
             *sorted((shared / "kernels" / "nvidia").glob("*.mlir"))]
    converted = reported = 0
    for path in paths:
        text = path.read_text()
        for parsed in parse_text(text, str(path), split=True):
            if parsed.module is None or not parsed.ok:
                continue
            if not any(op.name.startswith("cuda_tile.") for op in parsed.module.walk()):
                continue
            lctx = LoweringContext(SourceText(text, str(path)), CompileOptions(target=SM90A),
                                   DiagnosticSink(stage="tileaa"), cuda_tile_spans(parsed.smap))
            if not convert_cuda_tile_to_tileaa(parsed.module, lctx):
                continue
            ok = convert_tileaa_to_gpu(parsed.module, lctx)
            errors = [d.message for d in lctx.sink.items if d.is_error]
            if not ok:
                assert errors and all(e.startswith("not yet supported by the gpu stage: '") for e in errors), errors
                reported += 1
                continue
            assert errors == []
            assert not [op.name for op in parsed.module.walk() if op.name.startswith(("nv_tileaa.", "func."))]
            parsed.module.verify()
            res = mlir_opt(print_ir(parsed.module))
            assert res.returncode == 0, (path.name, res.stderr)
            converted += 1
    assert converted >= 60 and reported > 0


def test_dim_map_view_reads_tensor_dims_in_tile_order() -> None:
    """attention's transposed K load (partition_view<tile=(1x64x64), dim_map=[0, 2, 1]>)
    converts (tile dimension d covers tensor dimension dim_map[d], cuTile's `order`) and the
    result verifies in mlir-opt; the numbers need a GPU run to check."""
    run = to_gpu(entries(DATA / "attention.mlir")[0])
    assert run.ok, run.errors
    assert ops(run.module, "scf.while") == [] and ops(run.module, "gpu.module")
    assert mlir_opt(print_ir(run.module)).returncode == 0


def test_named_cuda_tile_module_becomes_the_gpu_module_name() -> None:
    text = """cuda_tile.module @kernels_m {
  entry @k(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>) {
    %v = constant <f32: 1.0> : !cuda_tile.tile<128xf32>
    %i = iota : !cuda_tile.tile<128xi32>
    %pp = reshape %p : !cuda_tile.tile<!cuda_tile.ptr<f32>> -> !cuda_tile.tile<1x!cuda_tile.ptr<f32>>
    %pb = broadcast %pp : !cuda_tile.tile<1x!cuda_tile.ptr<f32>> -> !cuda_tile.tile<128x!cuda_tile.ptr<f32>>
    %q = offset %pb, %i : !cuda_tile.tile<128x!cuda_tile.ptr<f32>>, !cuda_tile.tile<128xi32> -> !cuda_tile.tile<128x!cuda_tile.ptr<f32>>
    %t = store_ptr_tko weak %q, %v : !cuda_tile.tile<128x!cuda_tile.ptr<f32>>, !cuda_tile.tile<128xf32> -> !cuda_tile.token
    return
  }
}
"""
    run = to_gpu(text)
    assert run.ok, run.errors
    [gmod] = [op for op in run.module.body.block.ops]
    assert gmod.name == "gpu.module" and 'gpu.module @kernels_m' in print_ir(run.module)
    # offset counts in elements of the pointee (f32): one GEP per slot over f32.
    geps = ops(run.module, "llvm.getelementptr")
    assert geps and all(str(g.properties["elem_type"]) == "f32" for g in geps)
    assert len(ops(run.module, "llvm.store")) == 1  # 128 elements on 128 threads: one slot
    assert mlir_opt(print_ir(run.module)).returncode == 0
