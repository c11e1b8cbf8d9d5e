"""Stage 3 fast paths: mma.sync + ldmatrix for f16/bf16 `dot` (gpu_mma.py) and warp-shuffle
reductions (gpu_reduce.py).

Without a GPU, correctness is checked three ways: the fragment maps the fast path relies on
against rows of the PTX ISA tables; a lockstep SIMT simulator (simt.py) that runs the emitted
`gpu.func` for a whole CTA with the ISA's definitions of ldmatrix / mma.sync / shuffle, compared
with NumPy and with the baseline path on the same kernel; and the stage output of the real
kernels through mlir-opt 22 and ptxas (sm_80, sm_90a).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from upstream_lowering.util import mlir_opt
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
)
from xdsl.ir import Attribute

from tile_lowering.hardware import on_gpu, runs_on_gpu
from tile_lowering.simt import BF16, Memory, Simulator, dtype_of, isa_a_row_col, isa_b_row_col, isa_c_row_col
from tile_lowering.stages import DATA, SM80, SM90A, Run, entries, ops, to_gpu, to_ptx
from tile_lsp.compiler.lowering import gpu_mma, gpu_reduce
from tile_lsp.compiler.lowering.gpu_mma import (
    ldmatrix_element,
    ldmatrix_row_address,
    mma_fragment_a,
    mma_fragment_b,
    mma_fragment_c,
    plan_mma,
    swizzled_index,
)
from tile_lsp.compiler.lowering.gpu_reduce import output_index, plan_reduce
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.context import print_ir
from tile_lsp.compiler.target import Target

# ---------------------------------------------------------------------------------------------
# The fragment maps against the PTX ISA ("Matrix fragments for mma.m16n8k16 with floating point
# type", "Warp-level matrix load instruction: ldmatrix"): groupID = lane >> 2,
# threadID_in_group = lane % 4.


def test_mma_fragment_maps_match_the_ptx_isa() -> None:
    for lane in range(32):
        for i in range(8):  # a_i lives in register i // 2, half i % 2
            assert mma_fragment_a(lane, i // 2, i % 2) == isa_a_row_col(lane, i)
        for i in range(4):
            assert mma_fragment_b(lane, i // 2, i % 2) == isa_b_row_col(lane, i)
            assert mma_fragment_c(lane, i) == isa_c_row_col(lane, i)
    # A few rows of the ISA's figures, literally.
    assert [mma_fragment_a(0, r, 0) for r in range(4)] == [(0, 0), (8, 0), (0, 8), (8, 8)]
    assert mma_fragment_a(5, 0, 1) == (1, 3) and mma_fragment_b(31, 1, 1) == (15, 7)
    assert mma_fragment_c(6, 3) == (9, 5)
    # Every element of each operand is held exactly once per warp.
    assert len({mma_fragment_a(t, r, h) for t in range(32) for r in range(4) for h in range(2)}) == 256
    assert len({mma_fragment_b(t, r, h) for t in range(32) for r in range(2) for h in range(2)}) == 128
    assert len({mma_fragment_c(t, i) for t in range(32) for i in range(4)}) == 128


def test_tf32_fragment_maps_match_the_ptx_isa_and_ldmatrix() -> None:
    """m16n8k8 .tf32: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4); b0 (t, g), b1 (t+4, g).
    ldmatrix (no .trans) of 8 lines of four 32-bit words gives lane l word l % 4 of line l / 4:
    with lines as A rows (x4: lanes 0-15 rows 0-15 at word 0, lanes 16-31 at word 4) that is
    a0..a3; with lines as rows n of B^T, matrices (n 0-7 | 8-15) x (k 0-3 | 4-7) give the b0, b1
    of two n-tiles (registers 0, 2 and 1, 3)."""
    from tile_lsp.compiler.lowering.gpu_mma import mma_fragment_a_tf32, mma_fragment_b_tf32

    for lane in range(32):
        g, t = lane >> 2, lane % 4
        assert [mma_fragment_a_tf32(lane, r) for r in range(4)] == [(g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)]
        assert [mma_fragment_b_tf32(lane, r) for r in range(2)] == [(t, g), (t + 4, g)]
        for m in range(4):
            line_row, line_chunk = ldmatrix_row_address(8 * m + lane // 4)
            word = (line_row, 4 * (line_chunk // 8) + lane % 4)  # (row, 32-bit column)
            assert word == mma_fragment_a_tf32(lane, m)
            tile, reg = m % 2, m // 2  # B^T: row = n (+8 for the second tile), column = k
            bk, bn = mma_fragment_b_tf32(lane, reg)
            assert (word[0], word[1]) == (bn + 8 * tile, bk)


def test_ldmatrix_x4_gives_the_mma_fragments() -> None:
    """A 16x16 block loaded with ldmatrix x4 (lane l addresses line ldmatrix_row_address(l)):
    register m is 8x8 matrix m; without .trans it is A's fragment, with .trans (on a row-major
    K x N block, two n-tiles) B's fragments of n-tiles 0 (registers 0, 1) and 1 (2, 3)."""
    lines = [ldmatrix_row_address(lane) for lane in range(32)]
    for lane, m, half in itertools.product(range(32), range(4), range(2)):
        row, col = ldmatrix_element(lane, m, half, trans=False)
        line_row, line_col = lines[8 * m + row]
        assert (line_row, line_col + col) == mma_fragment_a(lane, m, half)
        k, n = ldmatrix_element(lane, m, half, trans=True)
        line_k, line_n = lines[8 * m + k]
        tile, reg = divmod(m, 2)
        bk, bn = mma_fragment_b(lane, reg, half)
        assert (line_k, line_n + n) == (bk, bn + 8 * tile)


@pytest.mark.parametrize("row_elems", [8, 16, 32, 64, 128, 256])
def test_swizzle_is_a_row_permutation_and_spreads_ldmatrix_lines(row_elems: int) -> None:
    for row in range(32):
        got = sorted(swizzled_index(row, col, row_elems) for col in range(row_elems))
        assert got == list(range(row * row_elems, (row + 1) * row_elems))
    if row_elems >= 16:  # eight consecutive rows, same chunk: eight different 16-byte bank groups
        for base, chunk in itertools.product((0, 16, 40), range(row_elems // 8)):
            groups = {swizzled_index(base + r, chunk * 8, row_elems) * 2 // 16 % 8 for r in range(8)}
            assert len(groups) == 8


def test_mma_plan_shapes_and_fallbacks() -> None:
    from xdsl.dialects.builtin import TensorType

    def t(shape: list[int], elem: Attribute) -> TensorType:
        return TensorType(elem, shape)

    f16, bf16, f32 = Float16Type(), BFloat16Type(), Float32Type()
    plan = plan_mma(t([128, 64], f16), t([64, 64], f16), t([128, 64], f32), 128, 90)
    assert plan is not None and (plan.wm, plan.wn, plan.mt, plan.nt) == (2, 2, 4, 4)
    big = plan_mma(t([128, 64], bf16), t([64, 256], bf16), t([128, 256], f32), 128, 80)
    assert big is not None and len(big.passes) > 1  # C does not fit the buffer at once
    assert plan_mma(t([128, 64], f16), t([64, 64], f16), t([128, 64], f32), 128, 75) is None  # < sm_80
    assert plan_mma(t([64, 32], f32), t([32, 64], f32), t([64, 64], f32), 128, 90) is None  # f32/tf32
    assert plan_mma(t([24, 16], f16), t([16, 8], f16), t([24, 8], f32), 128, 90) is None  # 24 % 16
    assert plan_mma(t([1, 64, 32], f16), t([1, 32, 64], f16), t([1, 64, 64], f16), 128, 80) is not None


def test_reduce_plan_teams_follow_the_layout() -> None:
    # 128x64 f32 on 128 threads, V = 4: a row is 16 consecutive threads' vectors.
    layout = Layout.for_shape((128, 64), 128)
    rows = plan_reduce(layout, (128, 64), 1)
    assert rows is not None and rows.lane_bits == (0, 1, 2, 3) and rows.parts == 1
    assert all(len(c) == 4 for c in rows.classes) and len(rows.classes) == 16
    # Column sums: the same columns recur every 16 threads, in all four warps.
    cols = plan_reduce(layout, (128, 64), 0)
    assert cols is not None and cols.lane_bits == (4,) and (cols.warp_shift, cols.parts) == (5, 4)
    # A whole 1-D tile: every thread and warp takes part.
    flat = plan_reduce(Layout.for_shape((1024,), 128), (1024,), 0)
    assert flat is not None and flat.lane_bits == (0, 1, 2, 3, 4) and flat.parts == 4
    assert output_index(517, (4, 256), 1) == 2 and output_index(517, (4, 256), 0) == 5
    assert plan_reduce(Layout.for_shape((3, 5), 4), (3, 5), 1) is None  # ghosts: baseline


# ---------------------------------------------------------------------------------------------
# Kernels run through the interpreter: fast path vs NumPy vs baseline


def _views(names: list[tuple[str, str, int, int]]) -> str:
    lines = []
    for name, elem, rows, cols in names:
        lines.append(f"  %v{name} = make_tensor_view %{name}, shape = [%r{name}, %c{name}], strides = [%c{name}, 1] : "
                     f"tile<i32> -> tensor_view<?x?x{elem}, strides=[?,1]>")
        lines.append(f"  %p{name} = make_partition_view %v{name} : partition_view<tile=({rows}x{cols}), "
                     f"tensor_view<?x?x{elem}, strides=[?,1]>>")
    return "\n".join(lines)


def _args(names: list[tuple[str, str, int, int]]) -> str:
    return ", ".join(f"%{n}: tile<ptr<{e}>>, %r{n}: tile<i32>, %c{n}: tile<i32>" for n, e, _, _ in names)


def _load(name: str, elem: str, rows: int, cols: int) -> str:
    return (f"  %x{name}, %tok{name} = load_view_tko weak %p{name}[%zero, %zero] token = %tok : "
            f"partition_view<tile=({rows}x{cols}), tensor_view<?x?x{elem}, strides=[?,1]>>, tile<i32> -> "
            f"tile<{rows}x{cols}x{elem}>, token")


def _store(value: str, name: str, elem: str, rows: int, cols: int) -> str:
    return (f"  %st{name} = store_view_tko weak {value}, %p{name}[%zero, %zero] token = %tok : "
            f"tile<{rows}x{cols}x{elem}>, partition_view<tile=({rows}x{cols}), tensor_view<?x?x{elem}, "
            f"strides=[?,1]>>, tile<i32> -> token")


def mma_kernel(m: int, n: int, k: int, elem: str, acc: str) -> str:
    """`o = a @ b + c`; tf32 inputs are loaded as f32 and converted (as cuTile does)."""
    mem = "f32" if elem == "tf32" else elem
    views = [("a", mem, m, k), ("b", mem, k, n), ("c", acc, m, n), ("o", acc, m, n)]
    convert = [f"  %ya = ftof %xa : tile<{m}x{k}xf32> -> tile<{m}x{k}xtf32>",
               f"  %yb = ftof %xb : tile<{k}x{n}xf32> -> tile<{k}x{n}xtf32>"] if elem == "tf32" else []
    x = "%y" if elem == "tf32" else "%x"
    return "\n".join([
        f"entry @mm({_args(views)}) {{",
        "  %tok = make_token : token",
        "  %zero = constant <i32: 0> : tile<i32>",
        "  %one = constant <i32: 1> : tile<i32>",
        _views(views), _load("a", mem, m, k), _load("b", mem, k, n), _load("c", acc, m, n), *convert,
        f"  %r = mmaf {x}a, {x}b, %xc : tile<{m}x{k}x{elem}>, tile<{k}x{n}x{elem}>, tile<{m}x{n}x{acc}>",
        _store("%r", "o", acc, m, n), "  return", "}"])


def reduce_kernel(rows: int, cols: int, dim: int, combiner: str, identity: str) -> str:
    out_rows, out_cols = (rows, 1) if dim == 1 else (1, cols)
    views = [("a", "f32", rows, cols), ("o", "f32", out_rows, out_cols)]
    return "\n".join([
        f"entry @red({_args(views)}) {{",
        "  %tok = make_token : token",
        "  %zero = constant <i32: 0> : tile<i32>",
        "  %one = constant <i32: 1> : tile<i32>",
        _views(views), _load("a", "f32", rows, cols),
        f"  %r = reduce %xa dim={dim} identities=[{identity} : f32] : tile<{rows}x{cols}xf32> -> "
        f"tile<{rows if dim == 1 else cols}xf32>",
        "  (%lhs: tile<f32>, %rhs: tile<f32>) {",
        f"    %s = {combiner} %lhs, %rhs : tile<f32>",
        "    yield %s : tile<f32>",
        "  }",
        f"  %rr = reshape %r : tile<{rows if dim == 1 else cols}xf32> -> tile<{out_rows}x{out_cols}xf32>",
        _store("%rr", "o", "f32", out_rows, out_cols), "  return", "}"])


def simulate(run: Run, arrays: list[tuple[np.ndarray, bool]], out_shape: tuple[int, int], out_t: Attribute) -> np.ndarray:
    """Runs the one kernel of `run` (with the block size it was compiled for) with `arrays`
    (inputs, bf16 flag) and a zeroed output."""
    assert run.ok, run.errors
    mem = Memory()
    [fn] = ops(run.module, "gpu.func")
    threads = int(fn.properties["known_block_size"].get_values()[0])  # type: ignore[attr-defined]
    interp = Simulator(run.module, threads, mem)
    args: list[Any] = []
    for array, bf16 in arrays:
        args += [mem.put(np.ascontiguousarray(array), bf16), array.shape[0], array.shape[1]]
    out = mem.alloc(out_shape[0] * out_shape[1] * 4)
    args += [out, *out_shape]
    interp.run(fn, args)
    simulated = mem.get(out, out_shape[0] * out_shape[1], out_t).reshape(out_shape).astype(np.float64)
    if not runs_on_gpu(run):
        return simulated
    gpu_args: list[Any] = []
    for array, bf16 in arrays:
        gpu_args += [np.ascontiguousarray(array.astype(BF16) if bf16 else array), array.shape[0], array.shape[1]]
    gpu_args += [np.zeros(out_shape, dtype_of(out_t)), *out_shape]
    return np.asarray(on_gpu(run, gpu_args)[-3]).astype(np.float64)


def baseline_only() -> Iterator[None]:
    saved = gpu_mma.lower_dot_mma, gpu_reduce.lower_reduce_shuffle, gpu_reduce.lower_scan_shuffle
    gpu_mma.lower_dot_mma = lambda cv, op: False  # type: ignore[assignment]
    gpu_reduce.lower_reduce_shuffle = lambda cv, op: False  # type: ignore[assignment]
    gpu_reduce.lower_scan_shuffle = lambda cv, op: False  # type: ignore[assignment]
    try:
        yield
    finally:
        gpu_mma.lower_dot_mma, gpu_reduce.lower_reduce_shuffle, gpu_reduce.lower_scan_shuffle = saved


def _names(run: Run) -> set[str]:
    return {op.name for op in run.module.walk()}


@pytest.mark.parametrize(("m", "n", "k", "elem", "acc"), [
    (64, 64, 32, "f16", "f32"), (128, 64, 64, "f16", "f32"), (32, 256, 16, "bf16", "f32"), (64, 32, 32, "f16", "f16"),
    (64, 64, 32, "tf32", "f32"), (32, 128, 16, "tf32", "f32")])
def test_mma_fast_path_matches_numpy_and_the_baseline(m: int, n: int, k: int, elem: str, acc: str) -> None:
    rng = np.random.default_rng(m * n + k)
    a = rng.integers(-4, 5, (m, k)).astype(np.float32) / 4
    b = rng.integers(-4, 5, (k, n)).astype(np.float32) / 4
    c = rng.integers(-8, 9, (m, n)).astype(np.float32)
    acc_np = np.float16 if acc == "f16" else np.float32
    arrays = [(a.astype(np.float16) if elem == "f16" else a, elem == "bf16"),
              (b.astype(np.float16) if elem == "f16" else b, elem == "bf16"), (c.astype(acc_np), False)]
    acc_t = Float16Type() if acc == "f16" else Float32Type()
    text = mma_kernel(m, n, k, elem, acc)
    fast = to_gpu(text, SM80)
    assert {"nvvm.ldmatrix", "scf.for"} <= _names(fast)
    assert ("nvvm.mma.sync" if elem == "bf16" else "nvgpu.mma.sync") in _names(fast)
    got = simulate(fast, arrays, (m, n), acc_t)
    expected = a.astype(np.float64) @ b.astype(np.float64) + c  # small integers / 4: exact
    np.testing.assert_array_equal(got, expected)
    gen = baseline_only()
    next(gen)
    try:
        base = to_gpu(text, SM80)
    finally:
        next(gen, None)
    assert "nvgpu.mma.sync" not in _names(base) and "nvvm.mma.sync" not in _names(base)
    np.testing.assert_array_equal(simulate(base, arrays, (m, n), acc_t), got)
    assert to_gpu(text, Target(75)).ok and "nvgpu.mma.sync" not in _names(to_gpu(text, Target(75)))


@pytest.mark.parametrize(("rows", "cols", "dim", "combiner", "identity", "reference"), [
    (128, 64, 1, "maxf", "0xFF800000", np.max), (128, 64, 1, "addf", "0.000000e+00", np.sum),
    (64, 64, 0, "addf", "0.000000e+00", np.sum), (32, 1024, 1, "minf", "0x7F800000", np.min),
    (16, 8, 1, "addf", "0.000000e+00", np.sum), (64, 128, 0, "maxf", "0xFF800000", np.max)])
def test_shuffle_reduce_matches_numpy_and_the_baseline(rows: int, cols: int, dim: int, combiner: str,
                                                       identity: str, reference: Callable[..., Any]) -> None:
    rng = np.random.default_rng(rows + cols + dim)
    a = rng.integers(-64, 64, (rows, cols)).astype(np.float32)
    text = reduce_kernel(rows, cols, dim, combiner, identity)
    out_shape = (rows, 1) if dim == 1 else (1, cols)
    fast = to_gpu(text, SM80)
    shuffles = ops(fast.module, "gpu.shuffle")
    got = simulate(fast, [(a, False)], out_shape, Float32Type())
    np.testing.assert_array_equal(got, reference(a.astype(np.float64), axis=dim, keepdims=True))
    gen = baseline_only()
    next(gen)
    try:
        base = to_gpu(text, SM80)
    finally:
        next(gen, None)
    assert not ops(base.module, "gpu.shuffle")
    np.testing.assert_array_equal(simulate(base, [(a, False)], out_shape, Float32Type()), got)
    if rows * cols >= 128:  # small tiles (ghost slots) keep the baseline and its scf.for
        assert not ops(fast.module, "scf.for") and ops(base.module, "scf.for")
        assert shuffles or cols >= 128  # 64x128 along 0: whole warps share columns, no lane step


# ---------------------------------------------------------------------------------------------
# The real kernels: the fast paths show in the stage output, which mlir-opt and ptxas accept

REAL = [("gemm", 0), ("gemm", 1), ("gemm", 2), ("attention", 0), ("attention", 1), ("bmm", 0), ("row_softmax", 1),
        ("prefix_scan", 0)]


@pytest.mark.parametrize(("name", "index"), REAL, ids=[f"{n}-{i}" for n, i in REAL])
def test_real_kernels_use_the_fast_paths_and_reach_ptxas(name: str, index: int) -> None:
    from tile_lsp.compiler.backend.cuda_tools import find_libdevice
    from tile_lsp.compiler.backend.ptxas import find_ptxas, run_ptxas

    text = entries(DATA / f"{name}.mlir")[index]
    for target in (SM80, SM90A):
        run = to_gpu(text, target)
        assert run.ok, run.errors
        names = _names(run)
        if name in ("gemm", "attention", "bmm"):
            assert names & {"nvgpu.mma.sync", "nvvm.mma.sync"} and "nvvm.ldmatrix" in names
        if name in ("attention", "row_softmax", "prefix_scan"):
            assert "gpu.shuffle" in names
        res = mlir_opt(print_ir(run.module))
        assert res.returncode == 0, res.stderr
        if find_libdevice() is None:
            pytest.skip("libdevice not found")
        ptx = to_ptx(run, target)
        if find_ptxas(run.lctx.options) is None:
            pytest.skip("ptxas not found")
        result = run_ptxas(ptx, target, run.lctx.options)
        assert result.ok, result.diagnostics


def test_row_shared_exchange_reads_match_numpy() -> None:
    """The exchange (`gather`) reads a source element once per vector of a row: broadcasts of a
    column and of a row, and a transpose, through the interpreter."""
    views = [("a", "f32", 128, 1), ("b", "f32", 1, 64), ("t", "f32", 64, 32), ("o", "f32", 128, 64),
             ("p", "f32", 32, 64)]
    text = "\n".join([
        f"entry @x({_args(views)}) {{",
        "  %tok = make_token : token",
        "  %zero = constant <i32: 0> : tile<i32>",
        _views(views), _load("a", "f32", 128, 1), _load("b", "f32", 1, 64), _load("t", "f32", 64, 32),
        "  %ba = broadcast %xa : tile<128x1xf32> -> tile<128x64xf32>",
        "  %bb = broadcast %xb : tile<1x64xf32> -> tile<128x64xf32>",
        "  %s = addf %ba, %bb : tile<128x64xf32>",
        "  %tt = permute %xt [1, 0] : tile<64x32xf32> -> tile<32x64xf32>",
        _store("%s", "o", "f32", 128, 64), _store("%tt", "p", "f32", 32, 64), "  return", "}"])
    rng = np.random.default_rng(7)
    a, b, t = (rng.integers(-99, 99, s).astype(np.float32) for s in ((128, 1), (1, 64), (64, 32)))
    run = to_gpu(text, SM80)
    assert run.ok, run.errors
    mem = Memory()
    [fn] = ops(run.module, "gpu.func")
    interp = Simulator(run.module, int(fn.properties["known_block_size"].get_values()[0]), mem)  # type: ignore[attr-defined]
    args: list[Any] = []
    for array in (a, b, t):
        args += [mem.put(array), *array.shape]
    out, perm = mem.alloc(128 * 64 * 4), mem.alloc(32 * 64 * 4)
    args += [out, 128, 64, perm, 32, 64]
    interp.run(fn, args)
    np.testing.assert_array_equal(mem.get(out, 128 * 64, Float32Type()).reshape(128, 64), a + b)
    np.testing.assert_array_equal(mem.get(perm, 32 * 64, Float32Type()).reshape(32, 64), t.T)


def scan_kernel(cols: int, combiner: str, identity: str) -> str:
    views = [("a", "f32", 1, cols), ("o", "f32", 1, cols)]
    return "\n".join([
        f"entry @scan({_args(views)}) {{",
        "  %tok = make_token : token",
        "  %zero = constant <i32: 0> : tile<i32>",
        _views(views), _load("a", "f32", 1, cols),
        f"  %r = scan %xa dim=1 reverse=false identities=[{identity} : f32] : tile<1x{cols}xf32> -> tile<1x{cols}xf32>",
        "  (%lhs: tile<f32>, %rhs: tile<f32>) {",
        f"    %s = {combiner} %lhs, %rhs : tile<f32>",
        "    yield %s : tile<f32>",
        "  }",
        _store("%r", "o", "f32", 1, cols), "  return", "}"])


@pytest.mark.parametrize(("cols", "combiner", "identity", "reference"), [
    (1024, "addf", "0.000000e+00", np.cumsum), (256, "maxf", "-3.000000e+38", np.maximum.accumulate),
    (2048, "addf", "0.000000e+00", np.cumsum)])
def test_shuffle_scan_matches_numpy_and_the_baseline(cols: int, combiner: str, identity: str,
                                                     reference: Callable[..., Any]) -> None:
    a = np.random.default_rng(cols).integers(-64, 64, (1, cols)).astype(np.float32)
    text = scan_kernel(cols, combiner, identity)
    fast = to_gpu(text, SM80)
    assert [op.properties["mode"].data.value for op in ops(fast.module, "gpu.shuffle")][:1] == ["up"]  # type: ignore[attr-defined]
    got = simulate(fast, [(a, False)], (1, cols), Float32Type())
    np.testing.assert_array_equal(got, reference(a.astype(np.float64), axis=1))
    gen = baseline_only()
    next(gen)
    try:
        base = to_gpu(text, SM80)
    finally:
        next(gen, None)
    assert not ops(base.module, "gpu.shuffle")
    np.testing.assert_array_equal(simulate(base, [(a, False)], (1, cols), Float32Type()), got)
