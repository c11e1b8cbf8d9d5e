"""The cuTile corpus kernels (tests/data/cutile) with small inputs and independent NumPy
references of what each kernel computes (from tests/data/cutile/kernels/*.py).

A case builds host arguments and a grid, and checks the outputs: name -> (max error, bound).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

F16, BF16, F8 = np.float16, ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn
Errors = dict[str, tuple[float, float]]


@dataclass
class Case:
    file: str
    entry: str  # prefix of the mangled entry name
    build: Callable[[np.random.Generator], tuple[list[Any], tuple[int, int, int], Callable[[Any], Errors]]]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.entry}"


def err(got: Any, want: Any, rel: bool = False) -> float:
    g, w = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    d = np.abs(g - w)
    if rel:
        d = d / np.maximum(np.abs(w), 1e-30)
    return float(d.max()) if d.size else 0.0


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def rand(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any, lo: float = -1.0, hi: float = 1.0) -> Any:
    return rng.uniform(lo, hi, shape).astype(dtype)


def f64(x: Any) -> Any:
    return np.asarray(x, dtype=np.float64)


def tf32(x: Any) -> Any:
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0xFFF + ((bits >> 13) & 1)) & 0xFFFFE000).astype(np.uint32).view(np.float32)


# -- the kernels --------------------------------------------------------------------------------------


def vector_add(dtype: Any, n: int, tile: int) -> Callable[..., Any]:
    def build(rng):
        a, b, c = rand(rng, (n,), dtype), rand(rng, (n,), dtype), np.zeros(n, dtype)
        alpha = np.asarray(1.75, dtype=dtype)
        want = (f64(alpha) * f64(a) + f64(b)).astype(dtype)  # fma: one rounding
        return [a, b, c, alpha], (-(-n // tile), 1, 1), lambda r: {"c": (err(r.array(2), want), 0.0)}
    return build


def row_softmax(dtype: Any, rows: int, cols: int, bound: float) -> Callable[..., Any]:
    def build(rng):
        x, y = rand(rng, (rows, cols), dtype, -4, 4), np.zeros((rows, cols), dtype)
        e = np.exp(f64(x) - f64(x).max(axis=1, keepdims=True))
        want = e / e.sum(axis=1, keepdims=True)
        return [x, y], (2, 1, 1), lambda r: {"y": (err(r.array(1), want), bound)}
    return build


def layernorm(rng):
    rows, cols = 3, 700
    x, w, b = rand(rng, (rows, cols), F16), rand(rng, (cols,), F16), rand(rng, (cols,), F16)
    y, mean, rstd = np.zeros((rows, cols), F16), np.zeros(rows, np.float32), np.zeros(rows, np.float32)
    eps = np.float32(1e-5)
    m = f64(x).mean(axis=1)
    s = 1.0 / np.sqrt(((f64(x) - m[:, None]) ** 2).mean(axis=1) + 1e-5)
    want = (f64(x) - m[:, None]) * s[:, None] * f64(w) + f64(b)
    return [x, w, b, y, mean, rstd, eps], (rows, 1, 1), lambda r: {
        "y": (err(r.array(3), want), 4e-3), "mean": (err(r.array(4), m), 1e-6),
        "rstd": (err(r.array(5), s, rel=True), 1e-5)}


def gemm(dtype: Any, out: Any, m: int, n: int, k: int, bm: int, bn: int, bound: float) -> Callable[..., Any]:
    def build(rng):
        a, b = rand(rng, (m, k), dtype), rand(rng, (k, n), dtype)
        c = np.zeros((m, n), out)
        fa, fb = (tf32(a), tf32(b)) if dtype == np.float32 else (a, b)
        want = f64(fa) @ f64(fb)
        grid = (-(-m // bm)) * (-(-n // bn))
        return [a, b, c], (grid, 1, 1), lambda r: {"c": (err(r.array(2), want), bound)}
    return build


def attention(dtype: Any, heads: int, seq: int, dim: int, bm: int, causal: bool, bound: float) -> Callable[..., Any]:
    def build(rng):
        q, k, v = (rand(rng, (heads, seq, dim), dtype) for _ in range(3))
        o = np.zeros((heads, seq, dim), dtype)
        scale = np.float32(1.0 / math.sqrt(dim))
        s = np.einsum("hqd,hkd->hqk", f64(q), f64(k)) * float(scale)
        if causal:
            s = np.where(np.tril(np.ones((seq, seq), dtype=bool)), s, -np.inf)
        p = np.exp(s - s.max(axis=-1, keepdims=True))
        want = np.einsum("hqk,hkd->hqd", p / p.sum(axis=-1, keepdims=True), f64(v))
        return [q, k, v, o, scale], (-(-seq // bm), heads, 1), lambda r: {"o": (err(r.array(3), want), bound)}
    return build


def prefix_scan(dtype: Any, rows: int, cols: int) -> Callable[..., Any]:
    def build(rng):
        x = rand(rng, (rows, cols), np.float32) if dtype == np.float32 else rng.integers(-50, 50, (rows, cols)).astype(dtype)
        sums, peaks = np.zeros((rows, cols), np.float32), np.zeros((rows, cols), np.float32)
        want_sum = np.cumsum(f64(x), axis=1)
        want_max = np.maximum.accumulate(f64(x), axis=1)
        return [x, sums, peaks], (rows, 1, 1), lambda r: {
            "sums": (err(r.array(1), want_sum), 2e-4), "running_max": (err(r.array(2), want_max), 0.0)}
    return build


def histogram(rng):
    n, bins = 2500, 16
    values = rng.integers(-5, 30, n).astype(np.int32)
    hist, gmax = np.zeros(bins, np.int32), np.full(1, -(2**31), np.int32)
    winner, done = np.full(1, -1, np.int32), np.zeros(1, np.int32)
    want = np.bincount(np.clip(values, 0, bins - 1), minlength=bins)

    def check(r):
        return {"bins": (err(r.array(1), want), 0.0), "max": (err(r.array(2), [max(values.max(), 0)]), 0.0),
                # Any block may claim the slot first (the interpreter runs block 0 first; a GPU
                # under compute-sanitizer was seen to let block 2 win).
                "winner": (0.0 if int(r.array(3)[0]) in range(3) else 1.0, 0.0), "done": (err(r.array(4), [1]), 0.0)}
    return [values, hist, gmax, winner, done], (3, 1, 1), check


def gather_scatter(dtype: Any, idx: Any, rows_per_block: int, dim: int) -> Callable[..., Any]:
    def build(rng):
        vocab, n = 50, 40
        table = rand(rng, (vocab, dim), dtype)
        ids = rng.integers(0, vocab, n).astype(idx)
        dest = rng.permutation(n).astype(idx)
        dest[::7] = -1
        out = np.zeros((n, dim), dtype)
        scale = np.float32(0.5)
        want = np.zeros((n, dim))
        live = dest >= 0
        want[dest[live]] = (f64(table[ids[live]].astype(np.float32)) * 0.5).astype(dtype)
        return [table, ids, dest, out, scale], (-(-n // rows_per_block), 1, 1), lambda r: {
            "out": (err(r.array(3), want), 0.0)}
    return build


def transpose(dtype: Any, m: int, n: int, tm: int, tn: int) -> Callable[..., Any]:
    def build(rng):
        x, y = rand(rng, (m, n), dtype), np.zeros((n, m), dtype)
        xb, yb = rand(rng, (2, m, n), dtype), np.zeros((2, n, m), dtype)
        return [x, y, xb, yb], (-(-m // tm), -(-n // tn), 2), lambda r: {
            "y": (err(r.array(1), x.T), 0.0), "yb": (err(r.array(3), np.transpose(xb, (0, 2, 1))), 0.0)}
    return build


def row_argmax(rng):
    rows, cols = 3, 1500
    x = rand(rng, (rows, cols), F16, -100, 100)
    vals, imax, imin = np.zeros(rows, np.float32), np.zeros(rows, np.int32), np.zeros(rows, np.int32)
    return [x, vals, imax, imin], (rows, 1, 1), lambda r: {
        "max": (err(r.array(1), f64(x).max(axis=1)), 0.0), "argmax": (err(r.array(2), x.argmax(axis=1)), 0.0),
        "argmin": (err(r.array(3), x.argmin(axis=1)), 0.0)}


def searchsorted(rng):
    keys = np.sort(rand(rng, (50,), np.float32, 0, 10))
    queries = rand(rng, (10,), np.float32, -1, 11)
    pos, over = np.zeros(10, np.int32), np.zeros(10, np.int32)
    thr = np.float32(1.0)
    want_pos = np.searchsorted(keys, queries, side="left")
    want_over = []
    for p, q in zip(want_pos, queries):
        found = -1
        for step in range(64):
            i = p + step
            if i >= keys.size:
                break
            if keys[i] - q <= thr:
                continue
            found = i
            break
        want_over.append(found)
    return [keys, queries, pos, over, thr], (10, 1, 1), lambda r: {
        "positions": (err(r.array(2), want_pos), 0.0), "first_over": (err(r.array(3), want_over), 0.0)}


def column_sum(dtype: Any, m: int, n: int, bm: int, bn: int, bands: int) -> Callable[..., Any]:
    def build(rng):
        x, out = rand(rng, (m, n), dtype), np.zeros((1, n), np.float32)
        grid = (cdiv(cdiv(m, bm), bands), cdiv(n, bn), 1)
        return [x, out], grid, lambda r: {"out": (err(r.array(1), f64(x).sum(axis=0, keepdims=True)), 2e-5)}
    return build


def index_select(rng):
    src = rand(rng, (30, 100), np.float32)
    ids = rng.integers(0, 30, 20).astype(np.int32)
    dst = np.zeros((20, 100), np.float32)
    return [src, ids, dst], (2, 2, 1), lambda r: {"dst": (err(r.array(2), src[ids] * 2), 0.0)}


def bmm(rng):
    bsz, m, n, k = 2, 70, 70, 40
    a, b, bias = rand(rng, (bsz, m, k), F16), rand(rng, (bsz, k, n), F16), rand(rng, (n,), F16)
    c = np.zeros((bsz, m, n), F16)
    want = np.maximum(f64(a) @ f64(b) + f64(bias), 0.0)
    return [a, b, bias, c], (bsz, 2, 2), lambda r: {"c": (err(r.array(3), want), 1e-2)}


def gelu_dropout(rng):
    n = 1500
    x, y = rand(rng, (n,), BF16, -3, 3), np.zeros(n, BF16)
    seed, keep = np.int32(1234), np.float32(0.8)
    v = f64(x)
    gelu = 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v**3)))
    h = (np.arange(n, dtype=np.uint64) ^ np.uint64(1234)) & np.uint64(0xFFFFFFFF)
    for mult in (0x7FEB352D, 0x846CA68B):
        h = (h ^ (h >> np.uint64(16 if mult == 0x7FEB352D else 15))) * np.uint64(mult) & np.uint64(0xFFFFFFFF)
    h = h ^ (h >> np.uint64(16))
    uniform = (h >> np.uint64(8)).astype(np.float64) / (1 << 24)
    want = np.where(uniform < float(keep), gelu / float(keep), 0.0)
    return [x, y, seed, keep], (2, 1, 1), lambda r: {"y": (err(r.array(1), want), 3e-2)}


def debug_print(rng):
    x, out = rand(rng, (300,), np.float32, 0, 1), np.zeros(2, np.float32)
    want = [f64(x[:256]).sum(), f64(x[256:]).sum()]
    return [x, out], (2, 1, 1), lambda r: {"out": (err(r.array(1), want), 1e-4)}


def pdl_powi_insert(dtype: Any, exp_dtype: Any, tile: int, sub: int, power: int, bound: float) -> Callable[..., Any]:
    """Per tile: x * 2, with its second `sub`-block replaced by the first `sub` elements of
    x ** power (an integer power); the loads skip the bounds check, so n is a tile multiple."""

    def build(rng):
        n = 3 * tile
        x, y = rand(rng, (n,), dtype, -2, 2), np.zeros(n, dtype)
        v = f64(x).reshape(3, tile)
        want = (v * 2.0).astype(dtype).astype(np.float64)
        want[:, sub : 2 * sub] = (v[:, :sub] ** power).astype(dtype)
        args = [x, y, np.asarray(power, dtype=exp_dtype)]
        return args, (3, 1, 1), lambda r: {"y": (err(r.array(1), want.reshape(-1)), bound)}

    return build


CASES = [
    Case("vector_add", "vector_add_Kt1_A1f32", vector_add(np.float32, 1500, 1024)),
    Case("vector_add", "vector_add_Kt1_A1f16", vector_add(F16, 3000, 2048)),
    Case("row_softmax", "row_softmax_Kt1_A2f32", row_softmax(np.float32, 5, 700, 1e-7)),
    Case("row_softmax", "row_softmax_Kt1_A2bf16", row_softmax(BF16, 3, 1000, 4e-3)),
    Case("layernorm", "layernorm_", layernorm),
    Case("gemm", "gemm_Kt1_A2f16", gemm(F16, F16, 130, 100, 70, 128, 128, 8e-3)),
    Case("gemm", "gemm_Kt1_A2bf16", gemm(BF16, np.float32, 100, 260, 70, 128, 256, 1e-5)),
    Case("gemm", "gemm_Kt1_A2f32", gemm(np.float32, np.float32, 70, 70, 40, 64, 64, 1e-5)),
    Case("gemm", "gemm_Kt1_A2f8m3fn", gemm(F8, F16, 130, 100, 150, 128, 128, 1.6e-2)),
    Case("attention", "attention_fwd_Kt1_A3f16", attention(F16, 2, 150, 64, 128, True, 4e-3)),
    Case("attention", "attention_fwd_Kt1_A3bf16", attention(BF16, 1, 100, 128, 64, False, 2e-2)),
    Case("prefix_scan", "prefix_scan_Kt1_A2f32", prefix_scan(np.float32, 2, 1500)),
    Case("prefix_scan", "prefix_scan_Kt1_A2i32", prefix_scan(np.int32, 2, 300)),
    Case("atomics", "histogram_", histogram),
    Case("gather_scatter", "gather_scatter_Kt1_A2f16", gather_scatter(F16, np.int32, 32, 128)),
    Case("gather_scatter", "gather_scatter_Kt1_A2f32", gather_scatter(np.float32, np.int64, 16, 64)),
    Case("transpose", "transpose_Kt1_A2f32", transpose(np.float32, 100, 40, 64, 32)),
    Case("transpose", "transpose_Kt1_A2bf16", transpose(BF16, 130, 70, 128, 64)),
    Case("argmax", "row_argmax_", row_argmax),
    Case("control_flow", "searchsorted_", searchsorted),
    Case("column_sum", "column_sum_Kt1_A2f16", column_sum(F16, 300, 200, 64, 128, 4)),
    Case("column_sum", "column_sum_Kt1_A2f32", column_sum(np.float32, 600, 300, 32, 256, 16)),
    Case("index_select", "index_select_", index_select),
    Case("bmm", "bmm_bias_relu_", bmm),
    Case("gelu_dropout", "gelu_dropout_", gelu_dropout),
    Case("debug_print", "debug_print_", debug_print),
    Case("pdl_powi_insert", "pdl_powi_insert_Kt1_A1f32", pdl_powi_insert(np.float32, np.int32, 256, 64, 3, 1e-5)),
    Case("pdl_powi_insert", "pdl_powi_insert_Kt1_A1f16", pdl_powi_insert(F16, np.int16, 128, 32, 2, 8e-3)),
]
