"""Float ops: rounding modes, flush-to-zero, NaN rules of maxf/minf, conversions to narrow
formats (bf16, f16, tf32, fp8), fma's single rounding, mma accumulation precision."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from interp.util import value

F32x4 = "%a: tile<4xf32>, %b: tile<4xf32>"
NAN = float("nan")


def f32(*xs: float) -> np.ndarray:
    return np.array(xs, np.float32)


def test_maxf_minf_nan_rules():
    a, b = f32(NAN, 1.0, -0.0, 2.0), f32(1.0, NAN, 0.0, 3.0)
    mx = value(F32x4, "%r = maxf %a, %b : tile<4xf32>", a, b)
    assert mx.tolist() == [1.0, 1.0, 0.0, 3.0] and not np.signbit(mx[2])
    mn = value(F32x4, "%r = minf %a, %b : tile<4xf32>", a, b)
    assert mn.tolist() == [1.0, 1.0, 0.0, 2.0] and np.signbit(mn[2])
    p = value(F32x4, "%r = maxf %a, %b propagate_nan : tile<4xf32>", a, b)
    assert np.isnan(p[:2]).all() and p[3] == 3.0
    p = value(F32x4, "%r = minf %a, %b propagate_nan : tile<4xf32>", a, b)
    assert np.isnan(p[:2]).all() and p[3] == 2.0


@pytest.mark.parametrize(("mode", "up", "down"), [
    ("nearest_even", 1.0, -1.0),
    ("zero", 1.0, -1.0),
    ("positive_inf", 1.0 + 2**-23, -1.0),
    ("negative_inf", 1.0, -1.0 - 2**-23),
])
def test_addf_rounding_modes(mode, up, down):
    a = f32(1.0, -1.0, 1.0, 0.5)
    b = f32(2**-30, -(2**-30), 0.0, 0.25)
    r = value(F32x4, f"%r = addf %a, %b rounding<{mode}> : tile<4xf32>", a, b)
    assert r.tolist() == [up, down, 1.0, 0.75]


def test_divf_directed_modes_bracket_the_quotient():
    a, b = f32(1.0, -2.0, 1.0, 6.0), f32(3.0, 3.0, 10.0, 3.0)
    lo = value(F32x4, "%r = divf %a, %b rounding<negative_inf> : tile<4xf32>", a, b)
    hi = value(F32x4, "%r = divf %a, %b rounding<positive_inf> : tile<4xf32>", a, b)
    zero = value(F32x4, "%r = divf %a, %b rounding<zero> : tile<4xf32>", a, b)
    exact = np.array([1 / 3, -2 / 3, 0.1, 2.0])
    assert (lo.astype(np.float64) <= exact).all() and (hi.astype(np.float64) >= exact).all()
    assert np.nextafter(lo[0], np.float32(1)) == hi[0] and lo[3] == hi[3] == 2.0
    assert zero.tolist() == [lo[0], hi[1], lo[2], 2.0]


def test_sqrt_directed_rounding():
    x = f32(2.0, 4.0)
    params = "%a: tile<2xf32>"
    hi = value(params, "%r = sqrt %a rounding<positive_inf> : tile<2xf32>", x)
    lo = value(params, "%r = sqrt %a rounding<negative_inf> : tile<2xf32>", x)
    assert np.nextafter(lo[0], np.float32(2)) == hi[0] and lo[1] == hi[1] == 2.0


def test_flush_to_zero_inputs_and_outputs():
    tiny = np.float32(1e-40)  # subnormal in f32
    a, b = f32(tiny, 1.0, 1e-20, -tiny), f32(1.0, tiny, 1e-20, 1.0)
    plain = value(F32x4, "%r = mulf %a, %b : tile<4xf32>", a, b)
    assert plain[0] == tiny and plain[2] > 0
    ftz = value(F32x4, "%r = mulf %a, %b flush_to_zero : tile<4xf32>", a, b)
    assert ftz.tolist() == [0.0, 0.0, 0.0, 0.0] and np.signbit(ftz[3])


def test_fma_rounds_once():
    x = np.float32(1 + 2**-12)
    params = "%a: tile<1xf32>, %b: tile<1xf32>, %c: tile<1xf32>"
    r = value(params, "%r = fma %a, %b, %c : tile<1xf32>", f32(x), f32(x), f32(-1.0))
    assert r[0] == np.float32(2**-11 + 2**-24)
    m = value(params, "%m = mulf %a, %b : tile<1xf32>\n%r = addf %m, %c : tile<1xf32>", f32(x), f32(x), f32(-1.0))
    assert m[0] == np.float32(2**-11)


def test_fma_with_infinities_and_nan():
    """No error terms for an infinite product or sum: inf*x+y = inf, inf*1 + -inf = NaN, and a
    product that overflows f32 stays inf (IEEE fma, as the GPU computes it)."""
    params = "%a: tile<4xf32>, %b: tile<4xf32>, %c: tile<4xf32>"
    inf = np.float32(np.inf)
    r = value(params, "%r = fma %a, %b, %c : tile<4xf32>", f32(inf, 1.75, inf, 3e38), f32(1.75, -inf, 1.0, 10.0),
              f32(0.19, 2.0, -inf, 0.0))
    assert r[0] == inf and r[1] == -inf and np.isnan(r[2]) and r[3] == inf


def _ftof(src: np.ndarray, to: str, mode: str = "") -> np.ndarray:
    n = src.size
    return value(f"%a: tile<{n}xf32>", f"%r = ftof %a{mode} : tile<{n}xf32> -> tile<{n}x{to}>", src)


def test_fp8_rounding_and_saturation():
    r = _ftof(f32(0.3, 17.0, 1000.0, -1e30, NAN, 19.0, 2.0**-10, 0.0), "f8E4M3FN")
    assert r.dtype == ml_dtypes.float8_e4m3fn
    got = r.astype(np.float32)
    assert got[:4].tolist() == [0.3125, 16.0, 448.0, -448.0]  # 17 ties to even (16); overflow saturates
    assert np.isnan(got[4]) and got[5] == 20.0  # 19 is halfway between 18 and 20: even mantissa wins
    assert got[6] == 0.0 and got[7] == 0.0  # 2**-10 is half the smallest subnormal: ties to zero
    e5 = _ftof(f32(0.3, 1e6, 5.0, 9.0), "f8E5M2").astype(np.float32)
    assert e5.tolist() == [0.3125, 57344.0, 5.0, 8.0]


def test_bf16_f16_tf32_ties_to_even():
    b = _ftof(f32(1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -(1 + 2**-8)), "bf16").astype(np.float32)
    assert b.tolist() == [1.0, 1 + 2**-6, 1 + 2**-7, -1.0]
    h = _ftof(f32(1 + 2**-11, 70000.0, 65519.0, 65520.0), "f16").astype(np.float32)
    assert h.tolist() == [1.0, np.inf, 65504.0, np.inf]
    t = _ftof(f32(1 + 2**-11, 1 + 3 * 2**-11), "tf32")
    assert t.tolist() == [1.0, 1 + 2**-9]


def test_ftoi_truncates_and_saturates_itof_unsigned():
    r = value("%a: tile<4xf32>", "%r = ftoi %a signed : tile<4xf32> -> tile<4xi32>", f32(1e10, -1e10, NAN, -2.7))
    assert r.tolist() == [2**31 - 1, -(2**31), 0, -2]
    u = value("%a: tile<2xf32>", "%r = ftoi %a unsigned : tile<2xf32> -> tile<2xi8>", f32(-3.0, 300.0))
    assert u.astype(np.uint8).tolist() == [0, 255]
    i = value("%a: tile<2xi32>", "%r = itof %a unsigned : tile<2xi32> -> tile<2xf32>", np.array([-1, 3], np.int32))
    assert i.tolist() == [4294967296.0, 3.0]


def test_cmpf_ordered_and_unordered():
    a, b = f32(NAN, 1.0, 2.0, NAN), f32(1.0, 1.0, 1.0, NAN)
    o = value(F32x4, "%r = cmpf not_equal ordered %a, %b : tile<4xf32> -> tile<4xi1>", a, b)
    u = value(F32x4, "%r = cmpf not_equal unordered %a, %b : tile<4xf32> -> tile<4xi1>", a, b)
    assert o.tolist() == [False, False, True, False] and u.tolist() == [True, False, True, True]


def test_mmaf_accumulates_in_the_acc_type():
    # 4096 products of 2**-12 sum to exactly 1.0 in f32, but each f16 partial sum would stall at 2**-1
    # once the addend is below half an ulp; the acc type (f32) keeps full precision.
    k = 64
    a = np.full((1, k), 2**-6, np.float16)
    b = np.full((k, 1), 2**-6, np.float16)
    params = f"%a: tile<1x{k}xf16>, %b: tile<{k}x1xf16>, %c: tile<1x1xf32>"
    r = value(params, f"%r = mmaf %a, %b, %c : tile<1x{k}xf16>, tile<{k}x1xf16>, tile<1x1xf32>",
              a, b, np.full((1, 1), 1024.0, np.float32))
    assert r.dtype == np.float32 and r[0, 0] == np.float32(1024.0 + 2**-6)
    params16 = f"%a: tile<1x{k}xf16>, %b: tile<{k}x1xf16>, %c: tile<1x1xf16>"
    r16 = value(params16, f"%r = mmaf %a, %b, %c : tile<1x{k}xf16>, tile<{k}x1xf16>, tile<1x1xf16>",
                a, b, np.full((1, 1), 1024.0, np.float16))
    assert r16.dtype == np.float16 and r16[0, 0] == 1024.0  # 1024 + 2**-6 rounds back in f16


def test_tf32_and_fp8_mma_inputs_are_exact_products():
    a = np.array([[1.5, -2.0]], ml_dtypes.float8_e4m3fn)
    b = np.array([[448.0], [0.125]], ml_dtypes.float8_e4m3fn)
    params = "%a: tile<1x2xf8E4M3FN>, %b: tile<2x1xf8E4M3FN>, %c: tile<1x1xf32>"
    r = value(params, "%r = mmaf %a, %b, %c : tile<1x2xf8E4M3FN>, tile<2x1xf8E4M3FN>, tile<1x1xf32>",
              a, b, np.zeros((1, 1), np.float32))
    assert r[0, 0] == 1.5 * 448 - 0.25


def test_math_ops_round_to_the_element_type():
    x = np.array([0.5, 1.0, 2.0, 3.0], ml_dtypes.bfloat16)
    r = value("%a: tile<4xbf16>", "%r = exp %a : tile<4xbf16>", x)
    assert r.dtype == ml_dtypes.bfloat16
    assert r.astype(np.float64).tolist() == np.exp([0.5, 1.0, 2.0, 3.0]).astype(ml_dtypes.bfloat16).astype(np.float64).tolist()
    y = value("%a: tile<2xf32>, %b: tile<2xf32>", "%r = atan2 %a, %b : tile<2xf32>", f32(1.0, -1.0), f32(-1.0, -1.0))
    assert y.tolist() == f32(np.arctan2(1.0, -1.0), np.arctan2(-1.0, -1.0)).tolist()
