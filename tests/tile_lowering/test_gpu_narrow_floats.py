"""fp4 (f4E2M1FN) and e8m0 (f8E8M0FNU) in the gpu stage, and `mmaf_scaled` on them and on fp8.

Values of both live in i8 registers holding their code (gpu_convert.py); the conversion formulas
are checked on the host against the reference interpreter's rounding (ml_dtypes), then the
emitted code on the SIMT simulator (simt.py) against the interpreter, and ptxas takes it for
sm_80, sm_90a and sm_100a. fp4 in memory (packed two per byte) stays refused, at the op.
"""

from __future__ import annotations

import math
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tile_lowering.hardware import run_kernel
from tile_lowering.stages import SM80, SM90A, Run, ops, to_gpu
from tile_lsp.compiler.backend.cuda_tools import find_ptxas_binary
from tile_lsp.compiler.dialects.cuda_tile import floats
from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.interp import numerics
from tile_lsp.compiler.interp.launch import bind, entry_params, load_module
from tile_lsp.compiler.lowering.gpu_convert import (
    E2M1,
    E4M3FN,
    E5M2,
    E8M0,
    F8Format,
    decode_formula,
    decode_host,
    encode_formula,
    encode_host,
)
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

SM100A = Target(100, "a")
TARGETS = {"sm_80": SM80, "sm_90a": SM90A, "sm_100a": SM100A}
F4, E8 = np.dtype(ml_dtypes.float4_e2m1fn), np.dtype(ml_dtypes.float8_e8m0fnu)
# format -> (front-end format, ml_dtypes dtype, cuda_tile element type spelling)
FORMATS: dict[F8Format, tuple[floats.FloatFormat, Any, str]] = {
    E2M1: (floats.F4E2M1FN, F4, "f4E2M1FN"),
    E8M0: (floats.F8E8M0FNU, E8, "f8E8M0FNU"),
    E4M3FN: (floats.F8E4M3FN, np.dtype(ml_dtypes.float8_e4m3fn), "f8E4M3FN"),
    E5M2: (floats.F8E5M2, np.dtype(ml_dtypes.float8_e5m2), "f8E5M2"),
}


def _element_type(fmt: F8Format) -> Any:
    from xdsl.dialects.builtin import Float4E2M1FNType, Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType

    return {E2M1: Float4E2M1FNType, E8M0: Float8E8M0FNUType, E4M3FN: Float8E4M3FNType, E5M2: Float8E5M2Type}[fmt]()


# ---------------------------------------------------------------------------------------------
# The formulas on the host


class ArrayOps:
    """The formulas on numpy uint32 / float32 arrays: HostOps, vectorized (IEEE, no FTZ)."""

    def c(self, value: int) -> Any:
        return np.uint32(value & 0xFFFFFFFF)

    def fc(self, value: float) -> Any:
        return np.float32(value)

    def andi(self, a: Any, b: Any) -> Any:
        return np.bitwise_and(a, b, dtype=np.uint32)

    def ori(self, a: Any, b: Any) -> Any:
        return np.bitwise_or(a, b, dtype=np.uint32)

    def shl(self, a: Any, n: int) -> Any:
        return np.left_shift(np.asarray(a, np.uint32), np.uint32(n), dtype=np.uint32)

    def shr(self, a: Any, n: int) -> Any:
        return np.right_shift(np.asarray(a, np.uint32), np.uint32(n), dtype=np.uint32)

    def add(self, a: Any, b: Any) -> Any:
        return np.add(a, b, dtype=np.uint32)

    def sub(self, a: Any, b: Any) -> Any:
        return np.subtract(a, b, dtype=np.uint32)

    def select_ult(self, a: Any, b: Any, then: Any, other: Any) -> Any:
        return np.where(np.asarray(a, np.uint32) < np.asarray(b, np.uint32), then, other).astype(np.uint32)

    def select_eq(self, a: Any, b: Any, then: Any, other: Any) -> Any:
        return np.where(np.asarray(a, np.uint32) == np.asarray(b, np.uint32), then, other).astype(np.uint32)

    def to_bits(self, x: Any) -> Any:
        return np.asarray(x, np.float32).view(np.uint32)

    def from_bits(self, x: Any) -> Any:
        return np.asarray(x, np.uint32).view(np.float32)

    def uitofp(self, x: Any) -> Any:
        return np.asarray(x, np.uint32).astype(np.float32)

    def fmul(self, a: Any, b: Any) -> Any:
        return np.multiply(a, b, dtype=np.float32)

    def fadd(self, a: Any, b: Any) -> Any:
        return np.add(a, b, dtype=np.float32)


def _same_bits(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Elementwise: the same f32 (NaN matches any NaN; -0.0 only -0.0)."""
    g, w = np.asarray(got, np.float32), np.asarray(want, np.float32)
    return (g.view(np.uint32) == w.view(np.uint32)) | (np.isnan(g) & np.isnan(w))


@pytest.mark.parametrize("fmt", [E2M1, E8M0], ids=["e2m1", "e8m0"])
def test_decode_is_exact_on_every_code(fmt: F8Format) -> None:
    ref, dtype, _ = FORMATS[fmt]
    n = 1 << fmt.width
    codes = np.arange(n, dtype=np.uint32)
    theirs = codes.astype(np.uint8).view(dtype).astype(np.float32)  # what the interpreter holds
    assert np.flatnonzero(~_same_bits(decode_formula(ArrayOps(), codes, fmt), theirs)).tolist() == []
    front_end = np.array([ref.decode(c) for c in range(n)], np.float32)
    assert np.flatnonzero(~_same_bits(theirs, front_end)).tolist() == []
    if fmt is E2M1:
        assert [decode_host(c, fmt) for c in (0, 1, 7, 9, 15)] == [0.0, 0.5, 6.0, -0.5, -6.0]
        assert math.copysign(1.0, decode_host(8, fmt)) == -1.0
    else:
        assert decode_host(0, E8M0) == 2.0**-127 and decode_host(254, E8M0) == 2.0**127
        assert math.isnan(decode_host(255, E8M0))


def _samples() -> np.ndarray:
    """f32 bit patterns: every exponent with the mantissas around every rounding position (the
    ties of every format, its subnormals' too), both signs, the specials, and random bits."""
    mantissas = {0, 1, 2, 0x7FFFFF, 0x7FFFFE}
    for j in range(23):
        t = 1 << j
        mantissas |= {t - 1, t, t + 1, 3 * t - 1 & 0x7FFFFF, 3 * t & 0x7FFFFF, 3 * t + 1 & 0x7FFFFF}
    structured = [(e << 23) | m for e in range(256) for m in mantissas]
    rng = np.random.default_rng(7)
    bits = np.concatenate([np.array(structured, np.uint32), rng.integers(0, 1 << 32, 1 << 18, dtype=np.uint32)])
    return np.concatenate([bits, bits | np.uint32(0x80000000)])


ROUNDINGS = [(E2M1, "nearest_even"), (E8M0, "zero"), (E8M0, "positive_inf"), (E4M3FN, "nearest_even"),
             (E5M2, "nearest_even")]


@pytest.mark.parametrize(("fmt", "mode"), ROUNDINGS, ids=["e2m1", "e8m0-zero", "e8m0-positive_inf", "e4m3fn", "e5m2"])
def test_encode_rounds_as_the_interpreter(fmt: F8Format, mode: str) -> None:
    """On ~700k f32 inputs (ties of every format, subnormals, huge values, inf, NaN of both
    signs): the formula's code is the interpreter's (`round_float`: ml_dtypes after saturating,
    then the directed modes' step). fp4 and e8m0 were also checked on all 2^32 f32 inputs once."""
    x = _samples().view(np.float32)
    with np.errstate(all="ignore"):
        want = numerics.round_float(x.astype(np.float64), _element_type(fmt), mode).view(np.uint8)
        got = encode_formula(ArrayOps(), x, fmt, mode).astype(np.uint8)
    same = got == want
    if fmt is E5M2:  # its NaN payloads differ (0x7F, the hardware's, vs 0x7E): any NaN is NaN
        dtype = FORMATS[fmt][1]
        same |= np.isnan(got.view(dtype).astype(np.float32)) & np.isnan(want.view(dtype).astype(np.float32))
    bad = np.flatnonzero(~same)
    assert [(hex(int(x.view(np.uint32)[i])), int(got[i]), int(want[i])) for i in bad[:5]] == []


def test_encode_special_values() -> None:
    # fp4: nearest even, saturating; NaN (no fp4 NaN) becomes a zero of the opposite sign.
    assert [encode_host(v, E2M1) for v in (0.25, 0.75, 1.25, 2.5, 5.0, 5.5, 7.0, math.inf, -math.inf)] == \
        [0, 2, 2, 4, 6, 7, 7, 7, 15]
    assert (encode_host(math.nan, E2M1), encode_host(-math.nan, E2M1), encode_host(-0.0, E2M1)) == (8, 0, 8)
    # e8m0: the power of two below / above; zero, negatives, inf, NaN and overflow are NaN.
    values = (1.0, 1.5, 1.4, 3.0, 0.75, 2.0**127, 1.2 * 2.0**127, 2.0**-127, 1.5 * 2.0**-127)
    assert [encode_host(v, E8M0, "zero") for v in values] == [127, 127, 127, 128, 126, 254, 254, 0, 0]
    assert [encode_host(v, E8M0, "positive_inf") for v in values] == [127, 128, 128, 129, 127, 254, 255, 0, 1]
    for mode in ("zero", "positive_inf"):
        assert {encode_host(v, E8M0, mode) for v in (0.0, -0.0, -1.0, math.inf, math.nan, 1.5 * 2.0**127)} == {255}
    # (the interpreter's rounding down, past its nearest code: what is below 2^-127 is NaN)
    assert (encode_host(1e-45, E8M0, "zero"), encode_host(1e-45, E8M0, "positive_inf")) == (255, 0)
    with pytest.raises(ValueError, match="rounding mode 'nearest_even' to e8m0"):
        encode_host(1.0, E8M0)


@pytest.mark.parametrize(("fmt", "mode"), ROUNDINGS[:3], ids=["e2m1", "e8m0-zero", "e8m0-positive_inf"])
def test_every_code_round_trips(fmt: F8Format, mode: str) -> None:
    ref = FORMATS[fmt][0]
    assert [c for c in range(1 << fmt.width) if encode_host(ref.decode(c), fmt, mode) != c] == []


# ---------------------------------------------------------------------------------------------
# The emitted code: SIMT simulator against the interpreter


def simulate(run: Run, args: list[Any]) -> list[Any]:
    return run_kernel(run, args)


def interpret(text: str, args: list[Any]) -> list[Any]:
    interp = load_module(text, "input.mlir")
    [name] = [op.properties["sym_name"].data for op in interp.module.walk()  # type: ignore[attr-defined]
              if op.name == "cuda_tile.entry"]
    launch = bind(entry_params(interp, name), [a.copy() if isinstance(a, np.ndarray) else a for a in args],
                  interp.memory)
    interp.run(name, launch.values, (1, 1, 1))
    return [interp.memory.array(launch.arrays[i]) if i in launch.arrays else a for i, a in enumerate(args)]


def _ptrs(name: str, elem: str, n: int) -> str:
    """`%<name>_p`: a tile<n x ptr<elem>> of the n consecutive elements at argument %name."""
    return (f"    %{name}_1 = reshape %{name} : tile<ptr<{elem}>> -> tile<1xptr<{elem}>>\n"
            f"    %{name}_b = broadcast %{name}_1 : tile<1xptr<{elem}>> -> tile<{n}xptr<{elem}>>\n"
            f"    %{name}_p = offset %{name}_b, %i : tile<{n}xptr<{elem}>>, tile<{n}xi32> -> tile<{n}xptr<{elem}>>\n")


def _load(name: str, elem: str, n: int) -> str:
    return (_ptrs(name, elem, n) +
            f"    %{name}_v, %{name}_t = load_ptr_tko weak %{name}_p : tile<{n}xptr<{elem}>> -> tile<{n}x{elem}>, token\n")


def _store(name: str, elem: str, n: int, value: str) -> str:
    return (_ptrs(name, elem, n) +
            f"    %{name}_t = store_ptr_tko weak %{name}_p, {value} : tile<{n}xptr<{elem}>>, tile<{n}x{elem}> -> token\n")


N = 256


def _ftof(dst: str, src: str, a: str, b: str, mode: str = "") -> str:
    rounding = f" rounding<{mode}>" if mode else ""
    return f"    {dst} = ftof {src}{rounding} : tile<{N}x{a}> -> tile<{N}x{b}>\n"


CONVERSIONS = ("cuda_tile.module @m {\n  entry @conv(%x: tile<ptr<f32>>, %d: tile<ptr<f64>>, %e: tile<ptr<f8E8M0FNU>>, "
               "%y4: tile<ptr<f32>>, %y8: tile<ptr<f32>>, %h4: tile<ptr<f16>>, %g8: tile<ptr<f64>>, "
               "%b8: tile<ptr<bf16>>, %q: tile<ptr<f8E4M3FN>>, %e2: tile<ptr<f8E8M0FNU>>) {\n"
               f"    %i = iota : tile<{N}xi32>\n"
               + _load("x", "f32", N) + _load("d", "f64", N) + _load("e", "f8E8M0FNU", N)
               + _ftof("%a4", "%x_v", "f32", "f4E2M1FN") + _ftof("%r4", "%a4", "f4E2M1FN", "f32")
               + _store("y4", "f32", N, "%r4")
               + _ftof("%a8", "%x_v", "f32", "f8E8M0FNU", "positive_inf") + _ftof("%r8", "%a8", "f8E8M0FNU", "f32")
               + _store("y8", "f32", N, "%r8")
               + _ftof("%c4", "%d_v", "f64", "f4E2M1FN") + _ftof("%k4", "%c4", "f4E2M1FN", "f16")
               + _store("h4", "f16", N, "%k4")
               + _ftof("%c8", "%d_v", "f64", "f8E8M0FNU", "zero") + _ftof("%k8", "%c8", "f8E8M0FNU", "f64")
               + _store("g8", "f64", N, "%k8")
               + _ftof("%m8", "%e_v", "f8E8M0FNU", "bf16") + _store("b8", "bf16", N, "%m8")
               + _ftof("%f8", "%a4", "f4E2M1FN", "f8E4M3FN") + _store("q", "f8E4M3FN", N, "%f8")
               + _store("e2", "f8E8M0FNU", N, "%a8")
               + "    return\n  }\n}\n")


def _conversion_inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    special = [0.0, -0.0, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, -5.0, 5.5, 6.0, -6.0, 7.0, 100.0, 3e38,
               math.inf, -math.inf, math.nan, -math.nan, 1e-40, 2.0**-127, 1.5 * 2.0**-127, 1e-45, 1.5, 3.0,
               -1.0, 2.0**127, 1.5 * 2.0**127, 0.3, 0.26, 0.24]
    rng = np.random.default_rng(11)
    x = np.concatenate([np.array(special, np.float32), rng.standard_normal(N - len(special)).astype(np.float32) * 4])
    ties = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 1.5, 3.0, 0.75 * 2.0**-100, 1.5 * 2.0**100]
    near = [t + s * t * 2.0**-40 for t in ties for s in (-1, 1)]  # not f32 values: rounding to odd keeps the side
    d = np.concatenate([np.array(near + [1e300, -1e300, 1e-300, math.nan], np.float64),
                        rng.standard_normal(N - len(near) - 4) * 8])
    e = rng.integers(0, 256, N).astype(np.uint8).view(E8)
    return x, d, e


def test_conversions_match_the_interpreter_on_the_simulator() -> None:
    """f32 / f64 -> fp4 / e8m0 -> f32 / f16 / f64 / bf16 / fp8, e8m0 loads and stores: bit for bit
    (sm_80: fp8 by the formula too; fp4 and e8m0 take the formula on every target)."""
    x, d, e = _conversion_inputs()
    outs = [np.zeros(N, t) for t in (np.float32, np.float32, np.float16, np.float64, ml_dtypes.bfloat16,
                                     ml_dtypes.float8_e4m3fn, E8)]
    args = [x, d, e, *outs]
    run = to_gpu(CONVERSIONS, SM80)
    assert run.ok, run.errors
    got, want = simulate(run, args), interpret(CONVERSIONS, args)
    for i in range(3, len(args)):
        g, w = got[i].view(np.uint8), want[i].view(np.uint8)
        assert np.array_equal(g, w), (i, np.flatnonzero(g != w)[:8])
    # The interpreter's values are what the formats say, not zeros by accident.
    assert got[3][:8].tolist() == [0.0, -0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0]
    # e8m0 rounding up 1e-40, 2^-127, 1.5 * 2^-127, 1e-45 (f32 subnormals)
    assert got[4][20:24].tolist() == [2.0**-127, 2.0**-127, 2.0**-126, 2.0**-127]


def test_constants_print_and_ftof_of_fp4_and_e8m0_lower_to_codes() -> None:
    run = to_gpu(CONSTANTS_AND_PRINT, SM80)
    assert run.ok, run.errors
    printed = print_ir_text(run)
    assert "f4E2M1FN" not in printed and "f8E8M0FNU" not in printed  # all i8 codes by now
    assert len(ops(run.module, "gpu.printf")) == 2


def print_ir_text(run: Run) -> str:
    from tile_lsp.compiler.mlir.context import print_ir

    return print_ir(run.module)


CONSTANTS_AND_PRINT = """cuda_tile.module @m {
  testing$func @consts(%s: !cuda_tile.tile<4xf8E8M0FNU>) -> (!cuda_tile.tile<2x2xf32>, !cuda_tile.tile<4xf32>, !cuda_tile.tile<4xf4E2M1FN>, !cuda_tile.tile<4xf8E8M0FNU>) {
    %cf4 = constant <f4E2M1FN: [[1.0, -2.0], [0.5, 6.0]]> : !cuda_tile.tile<2x2xf4E2M1FN>
    %splat = constant <f4E2M1FN: -1.5> : !cuda_tile.tile<4xf4E2M1FN>
    %ce8 = constant <f8E8M0FNU: [1.0, 0.25, 1024.0, 2.0]> : !cuda_tile.tile<4xf8E8M0FNU>
    %t = print_tko "%f", %cf4 : tile<2x2xf4E2M1FN> -> !cuda_tile.token
    %t2 = print_tko "%f %f", %ce8, %s : tile<4xf8E8M0FNU>, tile<4xf8E8M0FNU> -> !cuda_tile.token
    %w = ftof %cf4 : tile<2x2xf4E2M1FN> -> tile<2x2xf32>
    %s32 = ftof %s : tile<4xf8E8M0FNU> -> tile<4xf32>
    %c32 = ftof %ce8 : tile<4xf8E8M0FNU> -> tile<4xf32>
    %p = mulf %s32, %c32 : tile<4xf32>
    %h = ftof %splat : tile<4xf4E2M1FN> -> tile<4xf16>
    %back = ftof %h : tile<4xf16> -> tile<4xf4E2M1FN>
    %sel = constant <i1: [true, false, true, false]> : tile<4xi1>
    %m = select %sel, %s, %ce8 : tile<4xi1>, tile<4xf8E8M0FNU>
    return %w, %p, %back, %m : tile<2x2xf32>, tile<4xf32>, tile<4xf4E2M1FN>, tile<4xf8E8M0FNU>
  }
}
"""


def test_fp4_and_e8m0_test_function_arguments_and_results_are_bytes() -> None:
    """Our test ABI: one byte per element (fp4: its code); constants (dense and splat) as codes."""
    run = to_gpu(CONSTANTS_AND_PRINT, SM80)
    s = np.array([1.0, 2.0, 0.5, 8.0], np.float32).astype(E8)
    _, w, p, back, m = simulate(run, [s, np.zeros((2, 2), np.float32), np.zeros(4, np.float32),
                                      np.zeros(4, np.uint8), np.zeros(4, E8)])
    assert w.tolist() == [[1.0, -2.0], [0.5, 6.0]]
    assert p.tolist() == [1.0, 0.5, 512.0, 16.0]
    assert back.tolist() == [0xB] * 4  # -1.5 (through f16)
    assert m.astype(np.float32).tolist() == [1.0, 0.25, 0.5, 2.0]


def test_print_of_fp4_and_e8m0_tiles_prints_their_values() -> None:
    from tile_lowering.simt import Memory, Simulator

    run = to_gpu(CONSTANTS_AND_PRINT, SM80)
    [fn] = ops(run.module, "gpu.func")
    mem = Memory()
    s = np.array([1.0, 2.0, 0.5, 8.0], np.float32).astype(E8)
    args = [s.view(np.uint8), *(np.zeros(n, np.uint8) for n in (16, 16, 4, 4))]
    sim = Simulator(run.module, int(fn.properties["known_block_size"].get_values()[0]), mem)  # type: ignore[attr-defined]
    sim.launch(fn, [mem.put(a) for a in args], (1, 1, 1))
    assert sorted(v for f, [v] in (p for p in sim.printed if p[0] == "%f")) == [-2.0, 0.5, 1.0, 6.0]
    pairs = sorted(tuple(vs) for f, vs in sim.printed if f == "%f %f")
    assert pairs == [(0.25, 2.0), (1.0, 1.0), (2.0, 8.0), (1024.0, 0.5)]


@pytest.mark.parametrize("gpu_name", list(TARGETS))
def test_constants_ftof_and_print_reach_ptxas(gpu_name: str) -> None:
    _needs_ptxas()
    result = compile_source(SourceText(CONSTANTS_AND_PRINT, "k.mlir"), CompileOptions(TARGETS[gpu_name],
                            ptxas=find_ptxas_binary()), "cubin", cache=False)
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.stage("cubin") is not None and "consts" in result.kernels


def test_conversions_reach_ptxas_on_sm100a() -> None:
    _needs_ptxas()
    result = compile_source(SourceText(CONVERSIONS, "k.mlir"), CompileOptions(SM100A, ptxas=find_ptxas_binary()),
                            "cubin", cache=False)
    assert result.ok, [d.message for d in result.diagnostics]


def _needs_ptxas() -> None:
    if find_ptxas_binary() is None:
        pytest.skip("ptxas not found")


# ---------------------------------------------------------------------------------------------
# mmaf_scaled


def mmaf_scaled(lhs: str, scale: str, shape: tuple[int, ...], scale_k: int) -> str:
    """An entry: c += (a * expand(sa)) @ (b * expand(sb)); a, b of type `lhs` (fp4 operands are
    loaded as f32 and converted: fp4 memory is not lowered), scales of type `scale`."""
    *batch, m, k, n = shape
    pre = "".join(f"{x}x" for x in batch)
    zeros = ", ".join(["%c0"] * (len(batch) + 2))
    dims = {"a": (m, k), "b": (k, n), "c": (m, n), "sa": (m, scale_k), "sb": (scale_k, n)}
    elems = {"a": lhs, "b": lhs, "c": "f32", "sa": scale, "sb": scale}
    memory = {x: ("f32" if t == "f4E2M1FN" else t) for x, t in elems.items()}
    lines = [f"  entry @mm({', '.join(f'%{x}: tile<ptr<{memory[x]}>>' for x in dims)}) {{",
             "    %c0 = constant <i32: 0> : tile<i32>"]
    tiles = {}
    for x, (r, c) in dims.items():
        shape_ = [*batch, r, c]
        strides = [r * c] * len(batch) + [c, 1]
        tv = f"tensor_view<{pre}{r}x{c}x{memory[x]}, strides=[{','.join(map(str, strides))}]>"
        pv = f"partition_view<tile=({pre}{r}x{c}), {tv}>"
        tile_t = f"tile<{pre}{r}x{c}x{memory[x]}>"
        lines += [f"    %t{x} = make_tensor_view %{x}, shape = [{', '.join(map(str, shape_))}], "
                  f"strides = [{', '.join(map(str, strides))}] : {tv}",
                  f"    %p{x} = make_partition_view %t{x} : {pv}",
                  f"    %v{x}, %k{x} = load_view_tko weak %p{x}[{zeros}] : {pv}, tile<i32> -> {tile_t}, token"]
        tiles[x] = (f"%v{x}", tile_t, pv)
        if memory[x] != elems[x]:
            lines.append(f"    %w{x} = ftof %v{x} : {tile_t} -> tile<{pre}{r}x{c}x{elems[x]}>")
            tiles[x] = (f"%w{x}", f"tile<{pre}{r}x{c}x{elems[x]}>", pv)
    names = [tiles[x][0] for x in ("a", "b", "c", "sa", "sb")]
    types = [tiles[x][1] for x in ("a", "b", "c", "sa", "sb")]
    _, c_tile, c_view = tiles["c"]
    lines += [f"    %r = mmaf_scaled {', '.join(names)} : {', '.join(types)}",
              f"    %st = store_view_tko weak %r, %pc[{zeros}] : {c_tile}, {c_view}, tile<i32> -> token",
              "    return", "  }"]
    return "cuda_tile.module @m {\n" + "\n".join(lines) + "\n}\n"


# (operand, scale, shape, scale columns): mxfp8 (block 32), mxfp4 (blocks 32 and 16), nvfp4 (16).
SCALED = [("f8E4M3FN", "f8E8M0FNU", (16, 64, 16), 2), ("f8E5M2", "f8E8M0FNU", (16, 64, 8), 2),
          ("f4E2M1FN", "f8E8M0FNU", (16, 64, 16), 2), ("f4E2M1FN", "f8E8M0FNU", (8, 32, 16), 2),
          ("f4E2M1FN", "f8E4M3FN", (16, 64, 16), 4), ("f4E2M1FN", "f8E8M0FNU", (2, 16, 32, 8), 1),
          ("f4E2M1FN", "f8E4M3FN", (2, 8, 32, 16), 2)]
SCALED_IDS = ["mxfp8-e4m3", "mxfp8-e5m2", "mxfp4", "mxfp4-vec16", "nvfp4", "mxfp4-batched", "nvfp4-batched"]
_NP = {"f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn), "f8E5M2": np.dtype(ml_dtypes.float8_e5m2), "f8E8M0FNU": E8,
       "f4E2M1FN": np.dtype(np.float32)}


def _scaled_inputs(lhs: str, scale: str, shape: tuple[int, ...], scale_k: int) -> list[np.ndarray]:
    """Values whose f32 sums are exact (so any order of summation gives the interpreter's
    result): operands on a 1/4 grid (fp4: every code), scales 2^-2..2^2 or e4m3 in 0.5..2."""
    *batch, m, k, n = shape
    rng = np.random.default_rng(5)

    def operand(rows: int, cols: int) -> np.ndarray:
        if lhs == "f4E2M1FN":
            return rng.integers(0, 16, (*batch, rows, cols)).astype(np.uint8).view(F4).astype(np.float32)
        return (rng.integers(-16, 17, (*batch, rows, cols)) / 4).astype(_NP[lhs])

    def scales(rows: int, cols: int) -> np.ndarray:
        if scale == "f8E8M0FNU":
            return rng.integers(125, 130, (*batch, rows, cols)).astype(np.uint8).view(E8)
        return rng.choice([0.5, 0.75, 1.0, 1.5, 2.0], (*batch, rows, cols)).astype(_NP[scale])

    c = (rng.integers(-64, 64, (*batch, m, n)) / 8).astype(np.float32)
    return [operand(m, k), operand(k, n), c, scales(m, scale_k), scales(scale_k, n)]


@pytest.mark.parametrize(("lhs", "scale", "shape", "scale_k"), SCALED, ids=SCALED_IDS)
def test_mmaf_scaled_matches_the_interpreter_on_the_simulator(lhs: str, scale: str, shape: tuple[int, ...],
                                                              scale_k: int) -> None:
    text = mmaf_scaled(lhs, scale, shape, scale_k)
    args = _scaled_inputs(lhs, scale, shape, scale_k)
    run = to_gpu(text, SM80 if lhs != "f8E4M3FN" else SM90A)  # fp8 decoded by the formula, and by cvt
    assert run.ok, run.errors
    got, want = simulate(run, args)[2], interpret(text, args)[2]
    np.testing.assert_array_equal(got, want)
    a, b, c, sa, sb = (x.astype(np.float64) for x in args)
    unscaled = (c + a @ b).astype(np.float32)
    assert not np.array_equal(got, unscaled)  # the scales were applied (per block of K)
    by_block = c + (a * np.repeat(sa, a.shape[-1] // sa.shape[-1], -1)) @ (b * np.repeat(sb, b.shape[-2] // sb.shape[-2], -2))
    np.testing.assert_array_equal(got, by_block.astype(np.float32))


SCALED_TESTING_FUNC = """cuda_tile.module @m {
  testing$func @scaled(%lhs: !cuda_tile.tile<16x32xf4E2M1FN>, %rhs: !cuda_tile.tile<32x8xf4E2M1FN>, %acc: !cuda_tile.tile<16x8xf32>, %ls: !cuda_tile.tile<16x2xSCALE>, %rs: !cuda_tile.tile<2x8xSCALE>) -> !cuda_tile.tile<16x8xf32> {
    %0 = mmaf_scaled %lhs, %rhs, %acc, %ls, %rs : !cuda_tile.tile<16x32xf4E2M1FN>, !cuda_tile.tile<32x8xf4E2M1FN>, !cuda_tile.tile<16x8xf32>, !cuda_tile.tile<16x2xSCALE>, !cuda_tile.tile<2x8xSCALE>
    return %0 : !cuda_tile.tile<16x8xf32>
  }
}
"""


@pytest.mark.parametrize("scale", ["f8E8M0FNU", "f8E4M3FN"])
def test_mmaf_scaled_test_function_takes_fp4_codes_as_bytes(scale: str) -> None:
    """The ABI of testing$func: an fp4 tile argument is one code byte per element."""
    text = SCALED_TESTING_FUNC.replace("SCALE", scale)
    run = to_gpu(text, SM80)
    assert run.ok, run.errors
    a, b, c, sa, sb = _scaled_inputs("f4E2M1FN", scale, (16, 32, 8), 2)
    codes_a, codes_b = a.astype(F4).view(np.uint8), b.astype(F4).view(np.uint8)
    got = simulate(run, [codes_a, codes_b, c, sa, sb, np.zeros((16, 8), np.float32)])[5]
    f64 = [x.astype(np.float64) for x in (a, b, c, sa, sb)]
    want = f64[2] + (f64[0] * np.repeat(f64[3], 16, -1)) @ (f64[1] * np.repeat(f64[4], 16, -2))
    np.testing.assert_array_equal(got, want.astype(np.float32))


@pytest.mark.parametrize("gpu_name", list(TARGETS))
@pytest.mark.parametrize(("lhs", "scale", "shape", "scale_k"), [SCALED[i] for i in (0, 1, 2, 4)],
                         ids=[SCALED_IDS[i] for i in (0, 1, 2, 4)])
def test_mmaf_scaled_reaches_ptxas(gpu_name: str, lhs: str, scale: str, shape: tuple[int, ...], scale_k: int) -> None:
    _needs_ptxas()
    text = mmaf_scaled(lhs, scale, shape, scale_k)
    result = compile_source(SourceText(text, "k.mlir"), CompileOptions(TARGETS[gpu_name], ptxas=find_ptxas_binary()),
                            "cubin", cache=False)
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.stage("cubin") is not None and "mm" in result.kernels


# ---------------------------------------------------------------------------------------------
# What stays refused: fp4 in memory


FP4_MEMORY = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f4E2M1FN>>, %q: tile<ptr<f32>>) {
    %i = iota : tile<64xi32>
    %pp = reshape %p : tile<ptr<f4E2M1FN>> -> tile<1xptr<f4E2M1FN>>
    %pb = broadcast %pp : tile<1xptr<f4E2M1FN>> -> tile<64xptr<f4E2M1FN>>
    %ptrs = offset %pb, %i : tile<64xptr<f4E2M1FN>>, tile<64xi32> -> tile<64xptr<f4E2M1FN>>
    %v, %t = load_ptr_tko weak %ptrs : tile<64xptr<f4E2M1FN>> -> tile<64xf4E2M1FN>, token
    %c0 = constant <i32: 0> : tile<i32>
    %tv = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf4E2M1FN, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<64xf4E2M1FN, strides=[1]>>
    %w, %t2 = load_view_tko weak %pv[%c0] : partition_view<tile=(64), tensor_view<64xf4E2M1FN, strides=[1]>>, tile<i32> -> tile<64xf4E2M1FN>, token
    return
  }
}
"""


def test_fp4_in_memory_is_refused_at_the_op_but_views_of_it_are_made() -> None:
    run = to_gpu(FP4_MEMORY, SM90A)
    assert not run.ok
    lines = FP4_MEMORY.splitlines()
    where = {d.message: run.lctx.source.line_col(d.span.start)[0] for d in run.lctx.sink.items if d.is_error}
    detail = "f4E2M1FN in memory (packed two per byte)"
    assert where == {
        f"not yet supported by the gpu stage: 'cuda_tile.offset' ({detail})":
            next(i for i, x in enumerate(lines) if "= offset" in x),
        f"not yet supported by the gpu stage: 'cuda_tile.load_view_tko' (nv_tileaa.load_view: {detail})":
            next(i for i, x in enumerate(lines) if "load_view_tko" in x),
    }  # (the pointer load uses the refused offset: no second diagnostic for one cause)
    views_only = "\n".join(x for x in lines if "load_view_tko" not in x)
    assert to_gpu(views_only.replace("%v, %t = load_ptr_tko", "// ").replace(
        "%ptrs = offset", "// "), SM90A).ok


def test_fp4_pointer_load_is_refused_at_the_load() -> None:
    text = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f4E2M1FN>>) {
    %pp = reshape %p : tile<ptr<f4E2M1FN>> -> tile<1xptr<f4E2M1FN>>
    %pb = broadcast %pp : tile<1xptr<f4E2M1FN>> -> tile<2xptr<f4E2M1FN>>
    %v, %t = load_ptr_tko weak %pb : tile<2xptr<f4E2M1FN>> -> tile<2xf4E2M1FN>, token
    return
  }
}
"""
    run = to_gpu(text, SM80)
    [message] = run.errors
    assert message == ("not yet supported by the gpu stage: 'cuda_tile.load_ptr_tko' "
                       "(nv_tileaa.load: f4E2M1FN in memory (packed two per byte))")


def test_e8m0_loads_and_stores_are_bytes() -> None:
    """(e8m0 memory is a byte per element, like fp8: loads and stores of it lower.)"""
    x, d, e = _conversion_inputs()
    run = to_gpu(CONVERSIONS, SM80)
    got = simulate(run, [x, d, e, *[np.zeros(N, t) for t in (np.float32, np.float32, np.float16, np.float64,
                                                              ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, E8)]])
    with np.errstate(all="ignore"):
        up = numerics.round_float(x.astype(np.float64), _element_type(E8M0), "positive_inf")
    assert np.array_equal(got[9].view(np.uint8), up.view(np.uint8))
    assert np.array_equal(got[7].view(np.uint8), e.astype(ml_dtypes.bfloat16).view(np.uint8))
    loads = [str(op.results[0].type) for op in ops(run.module, "llvm.load")]
    assert loads.count("i8") == 2  # the e8m0 input, a byte per element (2 slots per thread)


def padded_load(elem: str, padding: str) -> str:
    """100 elements loaded as a 128-element tile (28 padded), stored to a 128-element buffer."""
    tv = f"tensor_view<100x{elem}, strides=[1]>"
    pv = f"partition_view<tile=(128), padding_value = {padding}, {tv}>"
    out_tv = f"tensor_view<128x{elem}, strides=[1]>"
    out_pv = f"partition_view<tile=(128), {out_tv}>"
    return f"""cuda_tile.module @m {{
  entry @pad(%x: tile<ptr<{elem}>>, %y: tile<ptr<{elem}>>) {{
    %c0 = constant <i32: 0> : tile<i32>
    %tx = make_tensor_view %x, shape = [100], strides = [1] : {tv}
    %px = make_partition_view %tx : {pv}
    %v, %t = load_view_tko weak %px[%c0] : {pv}, tile<i32> -> tile<128x{elem}>, token
    %ty = make_tensor_view %y, shape = [128], strides = [1] : {out_tv}
    %py = make_partition_view %ty : {out_pv}
    %t2 = store_view_tko weak %v, %py[%c0] : tile<128x{elem}>, {out_pv}, tile<i32> -> token
    return
  }}
}}
"""


@pytest.mark.parametrize(("elem", "padding"), [("f8E8M0FNU", "zero"), ("f8E8M0FNU", "neg_inf"), ("f8E4M3FN", "nan"),
                                               ("f8E5M2", "neg_inf"), ("f8E4M3FN", "neg_zero")])
def test_padding_of_narrow_float_loads_is_the_interpreters(elem: str, padding: str) -> None:
    """The padding value's code (e8m0 has no zero: its padding is NaN, as the interpreter's)."""
    text = padded_load(elem, padding)
    x = np.arange(100).astype(np.uint8).view(_NP[elem])
    args = [x, np.zeros(128, _NP[elem])]
    run = to_gpu(text, SM80)
    assert run.ok, run.errors
    got, want = simulate(run, args)[1].view(np.uint8), interpret(text, args)[1].view(np.uint8)
    assert np.array_equal(got, want), (got[96:], want[96:])
    assert np.array_equal(got[:100], x.view(np.uint8))
