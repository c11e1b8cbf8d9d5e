"""Interpreter semantics of the math ops (computed in f64, rounded once to the element type)
and of the conversions (ftof/itof/ftoi with rounding and saturation, exti/trunci, bitcast)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Operation

import tile_lsp.compiler.interp.numerics as nx
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import case_of
from tile_lsp.compiler.interp.machine import Interpreter, OpFailure, handles
from tile_lsp.compiler.interp.ops_arith import float_inputs, ftz, operand_elem, result_elem

Array = nx.Array

_UNARY: dict[str, Callable[[Array], Array]] = {
    "ceil": np.ceil, "floor": np.floor, "cos": np.cos, "cosh": np.cosh, "sin": np.sin, "sinh": np.sinh,
    "tan": np.tan, "tanh": np.tanh, "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
}


@handles(*_UNARY)
def unary_math(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    (x,) = float_inputs(op, ins)
    fn = _UNARY[op.name.removeprefix("cuda_tile.")]
    return [nx.round_float(fn(x), result_elem(op), ftz=ftz(op))]


@handles("sqrt")
def sqrt(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    (x,) = float_inputs(op, ins)
    r = np.sqrt(x)
    err = np.where(np.isfinite(r), x - r * r - nx.two_prod_err(r, r, r * r), 0.0)
    return [nx.round_float(r, result_elem(op), case_of(op, "rounding_mode", "nearest_even"), err, ftz(op))]


@handles("pow", "fpowf", "atan2")
def binary_math(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    a, b = nx.to_f64(ins[0]), nx.to_f64(ins[1])
    r = np.arctan2(a, b) if op.name == "cuda_tile.atan2" else np.power(a, b)
    return [nx.round_float(r, result_elem(op))]


@handles("fpowi")
def fpowi(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    base = nx.to_f64(ins[0])
    n = nx.as_signed(ins[1], operand_elem(op, 1)).astype(np.float64)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        r = np.power(base, n)  # an integer exponent: defined for a negative base
    return [nx.round_float(r, result_elem(op))]


# -- conversions -----------------------------------------------------------------------------


@handles("ftof")
def ftof(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    mode = case_of(op, "rounding_mode", "nearest_even")
    return [nx.round_float(nx.float_values(ins[0], operand_elem(op)), result_elem(op), mode)]


@handles("itof")
def itof(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    elem = operand_elem(op)
    unsigned = case_of(op, "signedness", "signed") == "unsigned"
    wide = nx.as_unsigned(ins[0], elem) if unsigned else nx.as_signed(ins[0], elem)
    hi = wide.astype(np.float64)
    # i64 values above 2**53 are inexact in f64; the sign of the error keeps the rounding single.
    back = np.where(np.isfinite(hi), hi, 0).astype(wide.dtype)
    err = np.sign(wide.astype(np.int64) - back.astype(np.int64)) if not unsigned else np.where(
        wide > back, 1.0, np.where(wide < back, -1.0, 0.0))
    return [nx.round_float(hi, result_elem(op), "nearest_even", np.asarray(err, dtype=np.float64))]


@handles("ftoi")
def ftoi(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Round toward zero, saturate to the integer range, NaN -> 0 (PTX cvt.rzi.sat)."""
    elem = result_elem(op)
    w = nx.int_width(elem)
    unsigned = case_of(op, "signedness", "signed") == "unsigned"
    x = np.trunc(nx.float_values(ins[0], operand_elem(op)))
    lo, hi = (0, 2.0**w - 1) if unsigned else (-(2.0 ** (w - 1)), 2.0 ** (w - 1) - 1)
    x = np.where(np.isnan(x), 0.0, x)
    big = x >= 2.0**w if unsigned else x >= 2.0 ** (w - 1)
    x = np.clip(x, lo, hi)
    if unsigned:
        r = np.where(big, np.uint64((1 << w) - 1), np.where(big, 0, x).astype(np.uint64))
    else:
        r = np.where(big, (1 << (w - 1)) - 1, np.where(big, 0, x).astype(np.int64))
    return [nx.wrap_int(r, elem)]


@handles("exti")
def exti(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    elem = operand_elem(op)
    unsigned = case_of(op, "signedness", "signed") == "unsigned"
    wide = nx.as_unsigned(ins[0], elem) if unsigned else nx.as_signed(ins[0], elem)
    return [nx.wrap_int(wide, result_elem(op))]


@handles("trunci")
def trunci(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    return [nx.wrap_int(nx.as_signed(ins[0], operand_elem(op)), result_elem(op))]


@handles("bitcast", "ptr_to_int", "int_to_ptr", "ptr_to_ptr")
def bitcast(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    src, dst = operand_elem(op), result_elem(op)
    x = np.asarray(ins[0])
    if ct.bitwidth(src) == 1 or ct.bitwidth(dst) == 1:
        return [nx.wrap_int(nx.as_unsigned(x, src), dst)]
    out_dtype = nx.np_dtype(dst)
    if x.dtype.itemsize != np.dtype(out_dtype).itemsize:
        raise OpFailure(f"cannot bitcast {x.dtype} to {np.dtype(out_dtype)}")
    return [np.ascontiguousarray(x).view(out_dtype).reshape(x.shape)]
