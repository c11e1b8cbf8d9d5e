"""Interpreter semantics of the element-wise arithmetic ops: integer (wraparound, signedness,
division rounding), float (rounding modes, flush-to-zero, NaN rules), comparisons, select."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Attribute, Operation

import tile_lsp.compiler.interp.numerics as nx
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import case_of
from tile_lsp.compiler.interp.machine import Interpreter, handles

Array = nx.Array


def result_elem(op: Operation, i: int = 0) -> Attribute:
    return ct.element_type(op.results[i].type)


def operand_elem(op: Operation, i: int = 0) -> Attribute:
    return ct.element_type(op.operands[i].type)


def ftz(op: Operation) -> bool:
    return op.properties.get("flush_to_zero") is not None


def float_inputs(op: Operation, ins: list[Any]) -> list[Array]:
    elem = operand_elem(op)
    vals = [nx.to_f64(v) for v in ins]
    return [nx.to_f64(nx.flush(v, elem)) for v in vals] if ftz(op) else vals


# -- floats --------------------------------------------------------------------------------


@handles("addf", "subf", "mulf", "divf")
def float_binary(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    a, b = float_inputs(op, ins)
    if op.name == "cuda_tile.subf":
        b = -b
    if op.name in ("cuda_tile.addf", "cuda_tile.subf"):
        hi = a + b
        err = nx.two_sum_err(a, b, hi)
    elif op.name == "cuda_tile.mulf":
        hi = a * b
        err = nx.two_prod_err(a, b, hi)
    else:
        hi = a / b
        err = _div_err(a, b, hi)
    mode = case_of(op, "rounding_mode", "nearest_even")
    return [nx.round_float(hi, result_elem(op), mode, err, ftz(op))]


def _div_err(a: Array, b: Array, q: Array) -> Array:
    """Sign of a/b - q: the sign of the remainder a - q*b, times the sign of b."""
    p = q * b
    rem = (a - p) - nx.two_prod_err(q, b, p)
    return np.where(np.isfinite(rem), np.sign(rem) * np.sign(b), 0.0)


@handles("fma")
def fma(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    a, b, c = float_inputs(op, ins)
    p = a * b
    pe = nx.two_prod_err(a, b, p)
    s = p + c
    se = nx.two_sum_err(p, c, s)
    hi = s + (pe + se)
    err = (s - hi) + (pe + se)
    # An infinite (or NaN) product or sum has no error terms: the plain result is the answer
    # (inf * x + y = inf, inf - inf = NaN), which the error terms would turn into NaN.
    exact = np.isfinite(p) & np.isfinite(s) & np.isfinite(hi)
    hi = np.where(exact, hi, s)
    mode = case_of(op, "rounding_mode", "nearest_even")
    return [nx.round_float(hi, result_elem(op), mode, np.where(exact & np.isfinite(err), err, 0.0), ftz(op))]


@handles("remf")
def remf(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    a, b = float_inputs(op, ins)
    return [nx.round_float(np.fmod(a, b), result_elem(op))]


@handles("maxf", "minf")
def min_max_f(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """IEEE maxNum/minNum (a NaN loses) unless `propagate_nan`; +0 > -0."""
    a, b = float_inputs(op, ins)
    is_max = op.name == "cuda_tile.maxf"
    if op.properties.get("propagate_nan") is not None:
        r = np.maximum(a, b) if is_max else np.minimum(a, b)
    else:
        r = np.fmax(a, b) if is_max else np.fmin(a, b)
    both_zero = (a == 0) & (b == 0)
    neg = (np.signbit(a) & np.signbit(b)) if is_max else (np.signbit(a) | np.signbit(b))
    r = np.where(both_zero, np.where(neg, -0.0, 0.0), r)
    return [nx.round_float(r, result_elem(op), ftz=ftz(op))]


@handles("absf", "negf")
def abs_neg_f(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    x = nx.to_f64(ins[0])
    return [nx.round_float(np.abs(x) if op.name == "cuda_tile.absf" else -x, result_elem(op))]


_CMP = {
    "equal": np.equal, "not_equal": np.not_equal, "less_than": np.less,
    "less_than_or_equal": np.less_equal, "greater_than": np.greater, "greater_than_or_equal": np.greater_equal,
}


@handles("cmpf")
def cmpf(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    a, b = nx.to_f64(ins[0]), nx.to_f64(ins[1])
    pred = case_of(op, "comparison_predicate", "equal")
    nan = np.isnan(a) | np.isnan(b)
    r = _CMP[pred](a, b)
    if case_of(op, "comparison_ordering", "ordered") == "unordered":
        r = r | nan
    else:
        r = r & ~nan
    return [np.asarray(r, dtype=np.bool_)]


@handles("cmpi")
def cmpi(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    elem = operand_elem(op)
    read = nx.as_unsigned if case_of(op, "signedness", "signed") == "unsigned" else nx.as_signed
    r = _CMP[case_of(op, "comparison_predicate", "equal")](read(ins[0], elem), read(ins[1], elem))
    return [np.asarray(r, dtype=np.bool_)]


@handles("select")
def select(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    cond, a, b = ins
    return [np.asarray(np.where(np.asarray(cond, dtype=np.bool_), a, b)).astype(np.asarray(a).dtype)]


# -- integers ------------------------------------------------------------------------------


def _unsigned(op: Operation) -> bool:
    return case_of(op, "signedness", "signed") == "unsigned"


@handles("addi", "subi", "muli")
def int_arith(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    elem = result_elem(op)
    a, b = nx.as_signed(ins[0], elem), nx.as_signed(ins[1], elem)
    r = a + b if op.name == "cuda_tile.addi" else a - b if op.name == "cuda_tile.subi" else a * b
    return [nx.wrap_int(r, elem)]


@handles("negi", "absi")
def int_unary(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    elem = result_elem(op)
    a = nx.as_signed(ins[0], elem)
    return [nx.wrap_int(-a if op.name == "cuda_tile.negi" else np.abs(a), elem)]


@handles("andi", "ori", "xori")
def bitwise(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    fn = {"cuda_tile.andi": np.bitwise_and, "cuda_tile.ori": np.bitwise_or, "cuda_tile.xori": np.bitwise_xor}
    return [np.asarray(fn[op.name](ins[0], ins[1]))]


@handles("shli", "shri")
def shifts(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Shift amounts >= the bit width give 0 (or all sign bits for a signed right shift)."""
    elem = result_elem(op)
    w = nx.int_width(elem)
    amount = nx.as_unsigned(ins[1], elem)
    big = amount >= np.uint64(w)
    amt = np.minimum(amount, np.uint64(63))
    if op.name == "cuda_tile.shli":
        r = np.where(big, np.uint64(0), nx.as_unsigned(ins[0], elem) << amt)
    elif _unsigned(op):
        r = np.where(big, np.uint64(0), nx.as_unsigned(ins[0], elem) >> amt)
    else:
        r = nx.as_signed(ins[0], elem) >> amt.astype(np.int64)
    return [nx.wrap_int(r, elem)]


@handles("mulhii")
def mulhi(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """High half of the unsigned 2N-bit product."""
    elem = result_elem(op)
    w = nx.int_width(elem)
    a, b = nx.as_unsigned(ins[0], elem), nx.as_unsigned(ins[1], elem)
    if w <= 32:
        return [nx.wrap_int((a * b) >> np.uint64(w), elem)]
    wide = np.frompyfunc(lambda x, y: (int(x) * int(y)) >> 64, 2, 1)(a, b)
    return [nx.wrap_int(np.asarray(wide, dtype=object).astype(np.uint64), elem)]


@handles("divi", "remi")
def div_rem(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Division rounds toward zero, +inf or -inf; x/0 gives all ones and x%0 gives x (as PTX)."""
    elem = result_elem(op)
    unsigned = _unsigned(op)
    read = nx.as_unsigned if unsigned else nx.as_signed
    a, b = read(ins[0], elem), read(ins[1], elem)
    zero = b == 0
    safe = np.where(zero, 1, b).astype(b.dtype)
    floor = a // safe
    rem = a - floor * safe
    exact = rem == 0
    mode = case_of(op, "rounding", "zero")
    if unsigned:
        q = floor + np.where(exact | (mode != "positive_inf"), 0, 1).astype(np.uint64)
    elif mode == "negative_inf":
        q = floor
    elif mode == "positive_inf":
        q = floor + np.where(exact, 0, 1)
    else:
        q = floor + np.where(exact | ((a < 0) == (safe < 0)), 0, 1)
    if op.name == "cuda_tile.remi":
        trunc = floor + (0 if unsigned else np.where(exact | ((a < 0) == (safe < 0)), 0, 1))
        return [nx.wrap_int(np.where(zero, a, a - trunc * safe), elem)]
    ones = np.uint64((1 << 64) - 1) if unsigned else -1
    return [nx.wrap_int(np.where(zero, ones, q), elem)]


@handles("maxi", "mini")
def min_max_i(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    elem = result_elem(op)
    read = nx.as_unsigned if _unsigned(op) else nx.as_signed
    a, b = read(ins[0], elem), read(ins[1], elem)
    return [nx.wrap_int(np.maximum(a, b) if op.name == "cuda_tile.maxi" else np.minimum(a, b), elem)]
