"""Element types as NumPy dtypes, and IEEE rounding of exact results to any cuda_tile float.

Float results are computed in f64 (plus, for directed rounding, the sign of the error) and
rounded once to the element type in the op's rounding mode, with optional flush-to-zero.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute

from tile_lsp.compiler.dialects.cuda_tile import floats
from tile_lsp.compiler.dialects.cuda_tile import types as ct

Array = np.ndarray[Any, Any]

_FLOATS: dict[type[Attribute], Any] = {
    builtin.Float16Type: np.dtype(np.float16),
    builtin.BFloat16Type: np.dtype(ml_dtypes.bfloat16),
    builtin.Float32Type: np.dtype(np.float32),
    builtin.FloatTF32Type: np.dtype(np.float32),  # tf32 values live in f32 words, rounded to 10 mantissa bits
    builtin.Float64Type: np.dtype(np.float64),
    builtin.Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    builtin.Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    builtin.Float8E8M0FNUType: np.dtype(ml_dtypes.float8_e8m0fnu),
    builtin.Float4E2M1FNType: np.dtype(ml_dtypes.float4_e2m1fn),
}
_INTS = {1: np.dtype(np.bool_), 4: np.dtype(np.int8), 8: np.dtype(np.int8), 16: np.dtype(np.int16),
         32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# Formats whose conversions saturate (PTX only has `cvt.rn.satfinite` for them).
_SATURATING = (builtin.Float8E4M3FNType, builtin.Float8E5M2Type, builtin.Float4E2M1FNType)
ROUNDING_MODES = ("nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full", "nearest_away")


def np_dtype(elem: Attribute) -> Any:
    """Storage dtype of an element type (pointers are 64-bit virtual addresses; fnv8E5M3FNU,
    which neither NumPy nor ml_dtypes has, its 8-bit codes)."""
    if isinstance(elem, builtin.IntegerType):
        return _INTS[elem.width.data]
    if is_codes(elem):
        return np.dtype(np.uint8)
    if isinstance(elem, ct.PointerType):
        return np.dtype(np.int64)
    dt = _FLOATS.get(type(elem))
    if dt is None:
        raise TypeError(f"no NumPy dtype for element type {elem}")
    return dt


def is_codes(elem: Attribute) -> bool:
    """Element types held as their bit codes (uint8): fnv8E5M3FNU."""
    return isinstance(elem, ct.FloatNV8E5M3FNUType)


_E5M3 = floats.F8E5M3FNU
_E5M3_MAX = _E5M3.decode(_E5M3.max_bits())
_E5M3_DECODE = np.array([_E5M3.decode(c) for c in range(256)], dtype=np.float64)


def _encode_codes(x: Array) -> Array:
    """f64 -> fnv8E5M3FNU codes: nearest even, finite values past the largest saturate (as the
    other 8-bit formats do here: PTX's satfinite), negatives and NaN are NaN (0xFF), -0 is 0."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        clipped = np.where(x > _E5M3_MAX, _E5M3_MAX, x)
    flat = [_E5M3.encode(float(v)) for v in clipped.reshape(-1)]
    return np.asarray(flat, dtype=np.uint8).reshape(x.shape)


def float_values(x: Array, elem: Attribute) -> Array:
    """The values of a float tile as f64 (fnv8E5M3FNU decoded from its codes)."""
    if is_codes(elem):
        return _E5M3_DECODE[np.asarray(x, dtype=np.uint8)]
    return to_f64(x)


def is_tf32(elem: Attribute) -> bool:
    return isinstance(elem, builtin.FloatTF32Type)


def int_width(elem: Attribute) -> int:
    assert isinstance(elem, builtin.IntegerType)
    return elem.width.data


# -- integers ------------------------------------------------------------------------


def as_signed(x: Array, elem: Attribute) -> Array:
    """Values of an integer tile read as signed, widened to int64 (i1 true is -1)."""
    if int_width(elem) == 1:
        return -np.asarray(x).astype(np.int64)
    return np.asarray(x).astype(np.int64)


def as_unsigned(x: Array, elem: Attribute) -> Array:
    """Values of an integer tile read as unsigned, widened to uint64."""
    w = int_width(elem)
    if w == 1:
        return np.asarray(x).astype(np.uint64)
    return np.asarray(x).astype(np.int64).astype(np.uint64) & np.uint64((1 << w) - 1 if w < 64 else (1 << 64) - 1)


def wrap_int(x: Array, elem: Attribute) -> Array:
    """Two's-complement wraparound of a wide integer array to the element width."""
    w = int_width(elem)
    x = np.asarray(x)
    if w == 1:
        return (x.astype(np.int64) & 1).astype(np.bool_)
    if w < 8:  # i4: the low w bits, sign-extended into the int8 that holds it
        sign = 1 << (w - 1)
        return (((x.astype(np.int64) & ((1 << w) - 1)) ^ sign) - sign).astype(_INTS[w])
    if x.dtype == np.uint64:
        x = x.view(np.int64)
    return x.astype(np.int64).astype(_INTS[w])


# -- floats ----------------------------------------------------------------------------


def to_f64(x: Array) -> Array:
    return np.asarray(x).astype(np.float64)


def _tf32_nearest(x32: Array) -> Array:
    """f32 -> tf32 (10 mantissa bits), round to nearest even, in f32 words."""
    bits = np.asarray(x32, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0xFFF + ((bits >> 13) & 1)) & 0xFFFFE000
    out = rounded.astype(np.uint32).view(np.float32)
    keep = ~np.isfinite(np.asarray(x32, dtype=np.float32))
    return np.where(keep, x32, out).astype(np.float32)


def _round_to_odd_f32(x: Array) -> Array:
    """f64 -> f32 rounding to odd: a second rounding to any format of <= 22 bits is then exact."""
    t = x.astype(np.float32)
    back = t.astype(np.float64)
    inexact = np.isfinite(x) & np.isfinite(back) & (back != x)
    toward_zero = np.where(np.abs(back) > np.abs(x), _step(t, -np.sign(x)), t)
    odd = (toward_zero.view(np.uint32) | np.uint32(1)).view(np.float32)
    return np.where(inexact, odd, t)


def _step(x: Array, direction: Array) -> Array:
    """One ulp from `x` toward +inf (direction > 0) or -inf (< 0), in x's own format."""
    x = np.asarray(x)
    size = x.dtype.itemsize
    ut = _UINT_OF_SIZE[size]
    bits = x.view(ut).astype(np.uint64)
    sign_bit = np.uint64(1) << np.uint64(size * 8 - 1)
    fx = x.astype(np.float64)
    up = direction > 0
    away = (up & (fx > 0)) | (~up & (fx < 0))
    out = np.where(away, bits + np.uint64(1), bits - np.uint64(1))
    out = np.where(fx == 0, np.where(up, np.uint64(1), sign_bit | np.uint64(1)), out)
    res = out.astype(ut).view(x.dtype)
    return np.where(direction == 0, x, res)


def _nearest(x: Array, elem: Attribute) -> Array:
    if isinstance(elem, builtin.Float64Type):
        return x.astype(np.float64)
    if isinstance(elem, builtin.Float32Type):
        return x.astype(np.float32)
    if isinstance(elem, builtin.FloatTF32Type):
        return _tf32_nearest(x.astype(np.float32))
    if isinstance(elem, builtin.Float16Type):
        return x.astype(np.float16)
    dt = np_dtype(elem)
    if isinstance(elem, _SATURATING):
        big = float(ml_dtypes.finfo(dt).max)
        x = np.clip(x, -big, big)
    return _round_to_odd_f32(x).astype(dt)


def round_float(x: Array, elem: Attribute, mode: str = "nearest_even", err: Array | None = None,
                ftz: bool = False) -> Array:
    """Round f64 values to `elem` in `mode`; `err` is the sign of (exact - x) when x is inexact."""
    x = np.asarray(x, dtype=np.float64)
    if err is not None and not isinstance(elem, builtin.Float64Type):
        x = _sticky(x, err)
    if is_codes(elem):  # nearest even: the only mode ftof takes to it
        return _encode_codes(x)
    if mode == "nearest_away":
        t = _nearest_away(x, elem)
        return np.asarray(flush(t, elem) if ftz else t)
    t = _nearest(x, elem)
    if mode in ("zero", "negative_inf", "positive_inf"):
        t64 = t.astype(np.float64)
        d = np.sign(x - t64)
        if err is not None:
            d = np.where(d == 0, np.sign(err), d)
        d = np.where(np.isnan(d), 0, d)
        if mode == "positive_inf":
            move = np.where(d > 0, 1, 0)
        elif mode == "negative_inf":
            move = np.where(d < 0, -1, 0)
        else:  # toward zero: step back when the nearest value overshot the exact one
            move = np.where((t64 > 0) & (d < 0), -1, np.where((t64 < 0) & (d > 0), 1, 0))
        if np.any(move):
            t = _tf32_step(t, move) if is_tf32(elem) else _step(t, move)
    if ftz:
        t = flush(t, elem)
    return np.asarray(t)


def _nearest_away(x: Array, elem: Attribute) -> Array:
    """Round to nearest, ties away from zero. tf32 as PTX's cvt.rna.tf32.f32 (f32 x rounded
    toward zero first: ftof takes it from f32 only): add half an ulp, clear the low 13 bits."""
    if is_tf32(elem):
        x32 = round_float(x, builtin.Float32Type(), "zero")
        bits = x32.view(np.uint32).astype(np.uint64)
        out = ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32).view(np.float32)
        return np.where(np.isfinite(x32), out, x32).astype(np.float32)
    lo = round_float(x, elem, "zero")
    lo64 = lo.astype(np.float64)
    hi = _step(lo, np.where(np.isfinite(x) & (lo64 != x), np.sign(x), 0))
    hi64 = hi.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        pick = np.isfinite(x) & (lo64 != x) & (np.abs(x - lo64) >= np.abs(hi64 - x))
        nearest = _nearest(x, elem)  # past the largest value both round alike (to inf/NaN/saturated)
    over = np.isfinite(x) & ~np.isfinite(hi64) & ~np.isfinite(nearest.astype(np.float64))
    return np.where(over, nearest, np.where(pick, hi, lo))


def _sticky(x: Array, err: Array) -> Array:
    """Round-to-odd f64 of an exact value x + err: any later rounding to <= 51 bits is correct."""
    inexact = (err != 0) & np.isfinite(x) & np.isfinite(err)
    if not np.any(inexact):
        return x
    overshot = inexact & (np.sign(err) != np.sign(x)) & (x != 0)
    t = np.where(overshot, _step(x, -np.sign(x)), x)
    odd = (np.asarray(t).view(np.uint64) | np.uint64(1)).view(np.float64)
    return np.where(inexact & (t != 0), odd, x)


def _tf32_step(x: Array, direction: Array) -> Array:
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.int64)
    fx = x.astype(np.float64)
    away = ((direction > 0) & (fx >= 0)) | ((direction < 0) & (fx < 0))
    zero = fx == 0
    out = np.where(away, bits + (1 << 13), bits - (1 << 13))
    out = np.where(zero, np.where(direction > 0, 1 << 13, (1 << 31) | (1 << 13)), out)
    return np.where(direction == 0, x, out.astype(np.uint32).view(np.float32))


def flush(x: Array, elem: Attribute) -> Array:
    """Flush subnormals to a zero of the same sign."""
    if not isinstance(elem, builtin.AnyFloat):
        return x
    tiny = float(ml_dtypes.finfo(np_dtype(elem)).smallest_normal)
    x = np.asarray(x)
    fx = x.astype(np.float64)
    sub = (fx != 0) & (np.abs(fx) < tiny)
    if not np.any(sub):
        return x
    return np.where(sub, np.copysign(0.0, fx), fx).astype(x.dtype)


# -- error-free transformations (signs of rounding errors for directed modes) -------------


def two_sum_err(a: Array, b: Array, s: Array) -> Array:
    """(a + b) - s exactly, where s = fl(a + b) (Knuth's TwoSum)."""
    bb = s - a
    return (a - (s - bb)) + (b - bb)


def _split(a: Array) -> tuple[Array, Array]:
    c = a * 134217729.0  # 2**27 + 1 (Veltkamp)
    hi = c - (c - a)
    return hi, a - hi


def two_prod_err(a: Array, b: Array, p: Array) -> Array:
    """a * b - p exactly, where p = fl(a * b) (Dekker's TwoProduct)."""
    ah, al = _split(a)
    bh, bl = _split(b)
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl
