"""Constructs the gpu stage used to refuse (`not yet supported by the gpu stage`), now lowered:

- ordered loads/stores of i1 tiles (an atomic access of the byte), and orderings beyond what a
  plain LLVM atomic load/store can carry (acq_rel: a `fence.acq_rel` plus `ld.acquire` /
  `st.release`, per the PTX memory model);
- `return` inside `for`/`loop` bodies (a loop-carried kind; what follows the loop is guarded);
- `mmaf` on fp8 operands of two formats (each operand decoded by its own format).

The cuda_tile verifier rejects the last two and acq_rel on a load/store (as NVIDIA's own
conformance tests do; cuTile rewrites a `return` in a loop into a flag), so those tests bring
the construct to stage 3 by lowering an equivalent valid kernel and changing the nv_tileaa IR
(or, for `return`, by lowering past the verifier's one message). Checks: the PTX instructions,
ptxas for sm_80/sm_90a/sm_100a, mlir-opt 22 on the nvvm stage, and numbers from the SIMT
simulator (simt.py) against the reference interpreter or NumPy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from upstream_lowering.util import mlir_opt
from xdsl.dialects.builtin import Float8E5M2Type, IntegerAttr, ModuleOp, TensorType, i32
from xdsl.rewriter import Rewriter

from tile_lowering.hardware import run_kernel
from tile_lowering.stages import SM80, SM90A, Run, ops
from tile_lsp.compiler.backend.ptxas import run_ptxas
from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.interp.launch import bind, entry_params, load_module
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.tile_to_tileaa import convert_cuda_tile_to_tileaa, cuda_tile_spans
from tile_lsp.compiler.lowering.tileaa_to_gpu import convert_tileaa_to_gpu
from tile_lsp.compiler.mlir.context import print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

SM100A = Target(100, "a")
TARGETS = {"sm_80": SM80, "sm_90a": SM90A, "sm_100a": SM100A}
RETURN_IN_LOOP = "'cuda_tile.return' op expects parent op to be one of 'cuda_tile.entry, cuda_tile.testing$func'"


def lower(text: str, target: Target, *, verifier: tuple[str, ...] = (),
          mutate: Callable[[ModuleOp], None] | None = None) -> Run:
    """Stages 1-3 on `text`: the verifier must report exactly `verifier` (a construct cuda_tile
    rejects still parses and reaches stage 2); `mutate` edits the nv_tileaa module before stage 3."""
    [parsed] = parse_text(text, "input.mlir")
    assert parsed.module is not None
    assert tuple(d.message for d in parsed.diagnostics) == verifier
    lctx = LoweringContext(SourceText(text, "input.mlir"), CompileOptions(target=target),
                           DiagnosticSink(stage="tileaa"), cuda_tile_spans(parsed.smap))
    assert convert_cuda_tile_to_tileaa(parsed.module, lctx), [d.message for d in lctx.sink.items]
    if mutate is not None:
        mutate(parsed.module)
    lctx.sink.stage = "gpu"
    run = Run(lctx, parsed.module, convert_tileaa_to_gpu(parsed.module, lctx))
    assert run.ok, run.errors
    return run


def back_half(run: Run, target: Target) -> tuple[str, str]:
    """(nvvm stage text, PTX) of a stage-3 run, stage by stage as the pipeline goes; ptxas must
    accept the PTX for `target`."""
    from tile_lsp.compiler.backend import llvm as llvm_backend
    from tile_lsp.compiler.backend import llvmir
    from tile_lsp.compiler.lowering import debuginfo, intrinsics, nvvm_to_llvm, target_attach, to_nvvm

    m, lctx = run.module, run.lctx
    assert to_nvvm.convert_to_nvvm(m, lctx), run.errors
    assert target_attach.attach_nvvm_target(m, lctx), run.errors
    assert debuginfo.translate_debug_info(m, lctx), run.errors
    nvvm = print_ir(m)
    assert nvvm_to_llvm.convert_nvvm_to_llvm(m, lctx) and not lctx.sink.has_errors, run.errors
    for level in (0, 1):
        intrinsics.lower_intrinsics(m, lctx, level)
    ir = llvmir.emit_llvm_ir(m, lctx)
    assert ir is not None and not lctx.sink.has_errors, run.errors
    optimized = llvm_backend.optimize(ir, lctx.options, lctx.sink)
    ptx = llvm_backend.emit_ptx(optimized, target, opt_level=lctx.options.opt_level, sink=lctx.sink)
    assert ptx and not lctx.sink.has_errors, run.errors
    assembled = run_ptxas(ptx, target, lctx.options)
    assert assembled.ok, assembled.output
    return nvvm, ptx


def simulate(run: Run, args: list[Any], grid: tuple[int, int, int] = (1, 1, 1)) -> list[Any]:
    """Runs the kernel on the SIMT simulator; returns `args` with each array as it is after."""
    return run_kernel(run, args, grid)


def interpret(text: str, args: list[Any], grid: tuple[int, int, int] = (1, 1, 1)) -> list[Any]:
    """The reference interpreter on the same arguments (arrays as they are after)."""
    interp = load_module(text, "input.mlir")
    [name] = [op.properties["sym_name"].data for op in interp.module.walk()  # type: ignore[attr-defined]
              if op.name == "cuda_tile.entry"]
    launch = bind(entry_params(interp, name), [a.copy() if isinstance(a, np.ndarray) else a for a in args],
                  interp.memory)
    interp.run(name, launch.values, grid)
    return [interp.memory.array(launch.arrays[i]) if i in launch.arrays else a for i, a in enumerate(args)]


# ---------------------------------------------------------------------------------------------
# 1. Memory ordering

ORDERED_I1 = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<i1>>, %q: tile<ptr<i1>>, %r: tile<ptr<i1>>) {
    %i = iota : tile<128xi32>
    %true = constant <i1: true> : tile<128xi1>
    %c0 = constant <i32: 0> : tile<i32>
    %pp = reshape %p : tile<ptr<i1>> -> tile<1xptr<i1>>
    %pb = broadcast %pp : tile<1xptr<i1>> -> tile<128xptr<i1>>
    %ptrs = offset %pb, %i : tile<128xptr<i1>>, tile<128xi32> -> tile<128xptr<i1>>
    %v, %t = load_ptr_tko acquire device %ptrs : tile<128xptr<i1>> -> tile<128xi1>, token
    %qq = reshape %q : tile<ptr<i1>> -> tile<1xptr<i1>>
    %qb = broadcast %qq : tile<1xptr<i1>> -> tile<128xptr<i1>>
    %qptrs = offset %qb, %i : tile<128xptr<i1>>, tile<128xi32> -> tile<128xptr<i1>>
    %w = xori %v, %true : tile<128xi1>
    %t2 = store_ptr_tko release tl_blk %qptrs, %w token = %t : tile<128xptr<i1>>, tile<128xi1> -> token
    %rv = make_tensor_view %r, shape = [128], strides = [1] : tensor_view<128xi1, strides=[1]>
    %rp = make_partition_view %rv : partition_view<tile=(128), tensor_view<128xi1, strides=[1]>>
    %t3 = store_view_tko relaxed device %v, %rp[%c0] token = %t2 : tile<128xi1>, partition_view<tile=(128), tensor_view<128xi1, strides=[1]>>, tile<i32> -> token
    %u, %t4 = load_view_tko relaxed device %rp[%c0] token = %t3 : partition_view<tile=(128), tensor_view<128xi1, strides=[1]>>, tile<i32> -> tile<128xi1>, token
    %nu = xori %u, %true : tile<128xi1>
    %t5 = store_ptr_tko weak %ptrs, %nu token = %t4 : tile<128xptr<i1>>, tile<128xi1> -> token
    return
  }
}
"""


@pytest.mark.parametrize("target", list(TARGETS))
def test_ordered_i1_access_is_an_atomic_byte_access(target: str) -> None:
    result = compile_source(SourceText(ORDERED_I1, "k.mlir"), CompileOptions(target=TARGETS[target]), emit="cubin")
    assert result.ok, [d.message for d in result.diagnostics]
    assert "k" in result.kernels  # ptxas assembled it
    ptx = result.stage("ptx").text  # type: ignore[union-attr]
    assert "ld.acquire.gpu.global.b8" in ptx and "st.release.cta.global.b8" in ptx
    assert "st.relaxed.gpu.global.b8" in ptx and "ld.relaxed.gpu.global.b8" in ptx
    nvvm = result.stage("nvvm").text  # type: ignore[union-attr]
    assert 'atomic syncscope("device") acquire' in nvvm and ": !llvm.ptr -> i8" in nvvm
    assert mlir_opt(nvvm).returncode == 0


def test_ordered_i1_access_matches_the_interpreter() -> None:
    run = lower(ORDERED_I1, SM90A)
    rng = np.random.default_rng(1)
    args = [rng.random(128) < 0.5, np.zeros(128, np.bool_), np.zeros(128, np.bool_)]
    got, want = simulate(run, args), interpret(ORDERED_I1, args)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(got[1], ~args[0])  # not vacuous: q = not p, r = p, p = not p
    np.testing.assert_array_equal(got[2], args[0])


ORDERED_F32 = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %q: tile<ptr<f32>>) {
    %i = iota : tile<128xi32>
    %pp = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %pp : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %ptrs = offset %pb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %v, %t = load_ptr_tko acquire device %ptrs : tile<128xptr<f32>> -> tile<128xf32>, token
    %qq = reshape %q : tile<ptr<f32>> -> tile<1xptr<f32>>
    %qb = broadcast %qq : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %qptrs = offset %qb, %i : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %w = addf %v, %v : tile<128xf32>
    %t2 = store_ptr_tko release tl_blk %qptrs, %w token = %t : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
"""
_ACQ_REL = 4  # memory_syntax.ORDERINGS.index("acq_rel")


def _acq_rel(module: ModuleOp) -> None:
    """The load and the store become acq_rel (cuda_tile's verifier admits it on neither)."""
    changed = [op for op in module.walk() if op.name in ("nv_tileaa.load", "nv_tileaa.store")]
    assert len(changed) == 2
    for op in changed:
        op.attributes["memory_ordering_semantics"] = IntegerAttr(_ACQ_REL, i32)


@pytest.mark.parametrize("target", list(TARGETS))
def test_acq_rel_load_and_store_are_fenced_acquire_and_release(target: str) -> None:
    """acq_rel load = fence.acq_rel + ld.acquire; acq_rel store = st.release + fence.acq_rel,
    each fence once per op (not per element), at the op's scope."""
    run = lower(ORDERED_F32, TARGETS[target], mutate=_acq_rel)
    nvvm, ptx = back_half(run, TARGETS[target])
    assert mlir_opt(nvvm).returncode == 0
    lines = [x.strip() for x in ptx.splitlines()]
    fences = [i for i, x in enumerate(lines) if x.startswith("fence.")]
    [load] = [i for i, x in enumerate(lines) if x.startswith("ld.acquire.gpu.global")]
    [store] = [i for i, x in enumerate(lines) if x.startswith("st.release.cta.global")]
    assert [lines[i] for i in fences] == ["fence.acq_rel.gpu;", "fence.acq_rel.cta;"]
    assert fences[0] < load < store < fences[1]


def test_acq_rel_access_matches_numpy() -> None:
    run = lower(ORDERED_F32, SM90A, mutate=_acq_rel)
    p = np.random.default_rng(2).standard_normal(128).astype(np.float32)
    _, q = simulate(run, [p, np.zeros(128, np.float32)])
    np.testing.assert_array_equal(q, p + p)


# ---------------------------------------------------------------------------------------------
# 2. `return` inside loops

RETURN_IN_FOR = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c8 = constant <i32: 8> : tile<i32>
    %c15 = constant <i32: 15> : tile<i32>
    %s = for %iv in (%c0 to %c8, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %done = cmpi greater_than_or_equal %iv, %n, signed : tile<i32> -> tile<i1>
      if %done {
        return
      }
      %q = offset %p, %iv : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
      %t = store_ptr_tko weak %q, %iv : tile<ptr<i32>>, tile<i32> -> token
      %acc2 = addi %acc, %iv : tile<i32>
      continue %acc2 : tile<i32>
    }
    %q15 = offset %p, %c15 : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
    %t2 = store_ptr_tko weak %q15, %s : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
"""


def _return_in_for(n: int) -> np.ndarray:
    out = np.full(16, -1, np.int32)
    acc = 0
    for iv in range(8):
        if iv >= n:
            return out
        out[iv] = iv
        acc += iv
    out[15] = acc
    return out


RETURN_IN_NESTED_LOOP = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<i32>>, %n: tile<i32>) {
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %c5 = constant <i32: 5> : tile<i32>
    %c20 = constant <i32: 20> : tile<i32>
    %c31 = constant <i32: 31> : tile<i32>
    %c99 = constant <i32: 99> : tile<i32>
    for %o in (%c0 to %c3, step %c1) : tile<i32> {
      %base = muli %o, %c5 : tile<i32>
      %r = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {
        %idx = addi %base, %i : tile<i32>
        %stop = cmpi greater_than_or_equal %idx, %n, signed : tile<i32> -> tile<i1>
        if %stop {
          return
        }
        %brk = cmpi equal %i, %c4, signed : tile<i32> -> tile<i1>
        if %brk {
          break %i : tile<i32>
        }
        %q = offset %p, %idx : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
        %t = store_ptr_tko weak %q, %idx : tile<ptr<i32>>, tile<i32> -> token
        %i2 = addi %i, %c1 : tile<i32>
        continue %i2 : tile<i32>
      }
      %at = addi %c20, %o : tile<i32>
      %qr = offset %p, %at : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
      %t2 = store_ptr_tko weak %qr, %r : tile<ptr<i32>>, tile<i32> -> token
      continue
    }
    %q31 = offset %p, %c31 : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
    %t3 = store_ptr_tko weak %q31, %c99 : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}
"""


def _return_in_nested_loop(n: int) -> np.ndarray:
    out = np.full(32, -1, np.int32)
    for o in range(3):
        i = 0
        while True:
            idx = o * 5 + i
            if idx >= n:
                return out
            if i == 4:
                break
            out[idx] = idx
            i += 1
        out[20 + o] = i
    out[31] = 99
    return out


@pytest.mark.parametrize(("text", "reference", "size"), [(RETURN_IN_FOR, _return_in_for, 16),
                                                         (RETURN_IN_NESTED_LOOP, _return_in_nested_loop, 32)],
                         ids=["for", "loop-in-for"])
def test_return_inside_a_loop_leaves_the_kernel(text: str, reference: Callable[[int], np.ndarray],
                                                 size: int) -> None:
    """The rest of the loop and everything after it is skipped once `return` runs; nothing
    changes when it does not (n past the end)."""
    run = lower(text, SM90A, verifier=(RETURN_IN_LOOP,))
    for n in (0, 3, 7, 12, 100):
        [got, _] = simulate(run, [np.full(size, -1, np.int32), n])
        np.testing.assert_array_equal(got, reference(n), err_msg=f"n = {n}")
    assert len(ops(run.module, "gpu.return")) == 1


@pytest.mark.parametrize("target", list(TARGETS))
def test_return_inside_a_loop_reaches_ptxas(target: str) -> None:
    run = lower(RETURN_IN_NESTED_LOOP, TARGETS[target], verifier=(RETURN_IN_LOOP,))
    assert ops(run.module, "scf.while") and ops(run.module, "scf.for")
    nvvm, ptx = back_half(run, TARGETS[target])
    assert mlir_opt(nvvm).returncode == 0
    assert ".entry k" in ptx


CUTILE_RETURN_IN_LOOP = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %o: tile<ptr<f32>>) {
    %tok = make_token : token
    %false = constant <i1: false> : tile<i1>
    %true = constant <i1: true> : tile<i1>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c8 = constant <i32: 8> : tile<i32>
    %three = constant <f32: 3.0> : tile<f32>
    %zero = constant <f32: 0.0> : tile<f32>
    %tv = make_tensor_view %p, shape = [8], strides = [1] : tensor_view<8xf32, strides=[1]>
    %ov = make_tensor_view %o, shape = [9], strides = [1] : tensor_view<9xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<8xf32, strides=[1]>>
    %opv = make_partition_view %ov : partition_view<tile=(1), tensor_view<9xf32, strides=[1]>>
    %f:2 = for %i in (%c0 to %c8, step %c1) : tile<i32> iter_values(%ret = %false, %t = %tok) -> (tile<i1>, token) {
      if %ret {
        continue %ret, %t : tile<i1>, token
      }
      %x, %t1 = load_view_tko weak %pv[%i] token = %tok : partition_view<tile=(1), tensor_view<8xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token
      %xs = reshape %x : tile<1xf32> -> tile<f32>
      %big = cmpf greater_than ordered %xs, %three : tile<f32> -> tile<i1>
      if %big {
        continue %true, %t : tile<i1>, token
      }
      %t2 = store_view_tko weak %x, %opv[%i] token = %tok : tile<1xf32>, partition_view<tile=(1), tensor_view<9xf32, strides=[1]>>, tile<i32> -> token
      %t3 = join_tokens %t, %t2 : token
      continue %ret, %t3 : tile<i1>, token
    }
    if %f#0 {
      return
    }
    %z = reshape %zero : tile<f32> -> tile<1xf32>
    %t4 = store_view_tko weak %z, %opv[%c8] token = %f#1 : tile<1xf32>, partition_view<tile=(1), tensor_view<9xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
"""


@pytest.mark.parametrize("stop", [2, 8], ids=["returns", "runs-through"])
def test_cutile_form_of_return_in_a_loop_matches_the_interpreter(stop: int) -> None:
    """What cuTile writes for a Python `return` inside a `for` (a loop-carried flag, `continue`,
    then `if flag { return }` after the loop; exported from cuda-tile 1.7)."""
    run = lower(CUTILE_RETURN_IN_LOOP, SM90A)
    x = np.arange(8, dtype=np.float32) * 0.25
    if stop < 8:
        x[stop] = 7.0
    args = [x, np.full(9, -1.0, np.float32)]
    got, want = simulate(run, args), interpret(CUTILE_RETURN_IN_LOOP, args)
    np.testing.assert_array_equal(got[1], want[1])
    assert (got[1][8] == -1.0) == (stop < 8)


# ---------------------------------------------------------------------------------------------
# 3. mmaf on fp8 operands of two formats

def mmaf_fp8(m: int, k: int, n: int) -> str:
    """c (f32, m x n) += a (m x k) * b (k x n), both e4m3fn (one tile each)."""
    a, b, c = f"{m}x{k}", f"{k}x{n}", f"{m}x{n}"
    ta, tb, tc = (f"tensor_view<{a}xf8E4M3FN, strides=[{k},1]>", f"tensor_view<{b}xf8E4M3FN, strides=[{n},1]>",
                  f"tensor_view<{c}xf32, strides=[{n},1]>")
    pa, pb, pc = (f"partition_view<tile=({a}), {ta}>", f"partition_view<tile=({b}), {tb}>",
                  f"partition_view<tile=({c}), {tc}>")
    return f"""cuda_tile.module @m {{
  entry @mm(%a: tile<ptr<f8E4M3FN>>, %b: tile<ptr<f8E4M3FN>>, %c: tile<ptr<f32>>) {{
    %c0 = constant <i32: 0> : tile<i32>
    %ta = make_tensor_view %a, shape = [{m}, {k}], strides = [{k}, 1] : {ta}
    %tb = make_tensor_view %b, shape = [{k}, {n}], strides = [{n}, 1] : {tb}
    %tc = make_tensor_view %c, shape = [{m}, {n}], strides = [{n}, 1] : {tc}
    %pa = make_partition_view %ta : {pa}
    %pb = make_partition_view %tb : {pb}
    %pc = make_partition_view %tc : {pc}
    %x, %t0 = load_view_tko weak %pa[%c0, %c0] : {pa}, tile<i32> -> tile<{a}xf8E4M3FN>, token
    %y, %t1 = load_view_tko weak %pb[%c0, %c0] : {pb}, tile<i32> -> tile<{b}xf8E4M3FN>, token
    %acc, %t2 = load_view_tko weak %pc[%c0, %c0] : {pc}, tile<i32> -> tile<{c}xf32>, token
    %r = mmaf %x, %y, %acc : tile<{a}xf8E4M3FN>, tile<{b}xf8E4M3FN>, tile<{c}xf32>
    %t3 = store_view_tko weak %r, %pc[%c0, %c0] : tile<{c}xf32>, {pc}, tile<i32> -> token
    return
  }}
}}
"""


# (m, k, n): a shape the mma.sync fast path takes (fp8 decoded to f16) and one it does not.
MMA_SHAPE, BASELINE_SHAPE = (32, 32, 32), (16, 32, 16)


def _rhs_e5m2(module: ModuleOp) -> None:
    """mmaf's right operand becomes e5m2 (its bytes in memory are e5m2's); cuda_tile's verifier
    rejects mixed formats (conformance `mma_mixed_f8`)."""
    [dot] = [op for op in module.walk() if op.name == "nv_tileaa.dot"]
    rhs = dot.operands[1]
    assert isinstance(rhs.type, TensorType)
    Rewriter.replace_value_with_new_type(rhs, TensorType(Float8E5M2Type(), rhs.type.get_shape()))


@pytest.mark.parametrize("shape", [MMA_SHAPE, BASELINE_SHAPE], ids=["mma-sync", "baseline"])
@pytest.mark.parametrize("mixed", [True, False], ids=["e4m3fn-x-e5m2", "e4m3fn-x-e4m3fn"])
def test_fp8_mmaf_decodes_each_operand_by_its_format_on_the_simulator(shape: tuple[int, int, int],
                                                                      mixed: bool) -> None:
    m, k, n = shape
    rng = np.random.default_rng(3)
    a = rng.uniform(-4, 4, (m, k)).astype(ml_dtypes.float8_e4m3fn)
    b = rng.uniform(-4, 4, (k, n)).astype(ml_dtypes.float8_e5m2 if mixed else ml_dtypes.float8_e4m3fn)
    c = rng.uniform(-1, 1, (m, n)).astype(np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64) + c
    if mixed:
        as_e4m3 = a.astype(np.float64) @ b.view(ml_dtypes.float8_e4m3fn).astype(np.float64) + c
        assert np.nanmax(np.abs(as_e4m3 - want)) > 1.0  # decoding b as e4m3fn would be far off
    for target in (SM90A, SM80):  # hardware cvt (inline PTX) and the software formula
        run = lower(mmaf_fp8(m, k, n), target, mutate=_rhs_e5m2 if mixed else None)
        assert bool(ops(run.module, "nvgpu.mma.sync")) == (shape == MMA_SHAPE)
        [_, _, got] = simulate(run, [a, b, c.copy()])
        err = float(np.abs(got - want).max())
        assert err <= 1e-6 * float(np.abs(want).max()), err  # f32 sums in another order


@pytest.mark.parametrize("target", list(TARGETS))
@pytest.mark.parametrize("shape", [MMA_SHAPE, BASELINE_SHAPE], ids=["mma-sync", "baseline"])
def test_mixed_fp8_mmaf_reaches_ptxas(target: str, shape: tuple[int, int, int]) -> None:
    run = lower(mmaf_fp8(*shape), TARGETS[target], mutate=_rhs_e5m2)
    nvvm, ptx = back_half(run, TARGETS[target])
    assert mlir_opt(nvvm).returncode == 0
    if TARGETS[target].cc >= 89:
        assert "cvt.rn.f16x2.e4m3x2" in ptx and "cvt.rn.f16x2.e5m2x2" in ptx
    assert ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx) == (shape == MMA_SHAPE)
