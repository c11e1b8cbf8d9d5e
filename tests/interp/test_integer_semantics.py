"""Integer ops: wraparound, signedness, division rounding, shifts, widening and narrowing."""

from __future__ import annotations

import numpy as np
import pytest

from interp.util import value

I32x4 = "%a: tile<4xi32>, %b: tile<4xi32>"
A = np.array([7, -7, 7, -7], np.int32)
B = np.array([2, 2, -2, -2], np.int32)


@pytest.mark.parametrize(("rounding", "want"), [
    ("", [3, -3, -3, 3]),
    (" rounding<zero>", [3, -3, -3, 3]),
    (" rounding<negative_inf>", [3, -4, -4, 3]),
    (" rounding<positive_inf>", [4, -3, -3, 4]),
])
def test_divi_rounding_of_negative_numbers(rounding, want):
    r = value(I32x4, f"%r = divi %a, %b signed{rounding} : tile<4xi32>", A, B)
    assert r.tolist() == want


def test_divi_unsigned_reads_bits_as_unsigned():
    a = np.array([-1, 7, 7, 9], np.int32)
    b = np.array([2, 2, 2, 3], np.int32)
    assert value(I32x4, "%r = divi %a, %b unsigned : tile<4xi32>", a, b).tolist() == [2147483647, 3, 3, 3]
    up = value(I32x4, "%r = divi %a, %b unsigned rounding<positive_inf> : tile<4xi32>", a, b)
    assert up.tolist() == [-2147483648, 4, 4, 3]  # 0xFFFFFFFF / 2 rounded up = 0x80000000


def test_divi_by_zero_and_overflow():
    a = np.array([5, -5, -2**31, 0], np.int32)
    b = np.array([0, 0, -1, 0], np.int32)
    assert value(I32x4, "%r = divi %a, %b signed : tile<4xi32>", a, b).tolist() == [-1, -1, -2**31, -1]
    assert value(I32x4, "%r = remi %a, %b signed : tile<4xi32>", a, b).tolist() == [5, -5, 0, 0]


def test_remi_takes_the_sign_of_the_dividend():
    assert value(I32x4, "%r = remi %a, %b signed : tile<4xi32>", A, B).tolist() == [1, -1, 1, -1]
    u = value(I32x4, "%r = remi %a, %b unsigned : tile<4xi32>", A, B)
    assert u.tolist() == [1, 1, 7, -7]  # 0xFFFFFFF9 % 2 = 1, 0xFFFFFFF9 % 0xFFFFFFFE = itself


def test_add_mul_wrap_around():
    assert value("%a: tile<2xi8>, %b: tile<2xi8>", "%r = addi %a, %b : tile<2xi8>",
                 np.array([127, -128], np.int8), np.array([1, -1], np.int8)).tolist() == [-128, 127]
    assert value("%a: tile<2xi32>", "%r = muli %a, %a : tile<2xi32>",
                 np.array([65536, 46341], np.int32)).tolist() == [0, (46341 * 46341) - 2**32]
    big = np.array([2**62, -(2**63)], np.int64)
    assert value("%a: tile<2xi64>", "%r = addi %a, %a : tile<2xi64>", big).tolist() == [-(2**63), 0]
    assert value("%a: tile<2xi32>", "%r = negi %a : tile<2xi32>", np.array([-2**31, 5], np.int32)).tolist() == [-2**31, -5]


def test_i1_arithmetic_is_modulo_two():
    t = np.array([True, True, False, False])
    f = np.array([True, False, True, False])
    assert value("%a: tile<4xi1>, %b: tile<4xi1>", "%r = addi %a, %b : tile<4xi1>", t, f).tolist() == [False, True, True, False]
    assert value("%a: tile<4xi1>, %b: tile<4xi1>", "%r = muli %a, %b : tile<4xi1>", t, f).tolist() == [True, False, False, False]


def test_shifts_signed_unsigned_and_oversized():
    a = np.array([-8, -8, 1, -1], np.int32)
    n = np.array([1, 40, 33, 31], np.int32)
    assert value(I32x4, "%r = shri %a, %b signed : tile<4xi32>", a, n).tolist() == [-4, -1, 0, -1]
    assert value(I32x4, "%r = shri %a, %b unsigned : tile<4xi32>", a, n).tolist() == [2147483644, 0, 0, 1]
    assert value(I32x4, "%r = shli %a, %b : tile<4xi32>", a, n).tolist() == [-16, 0, 0, -2**31]


def test_compare_min_max_signedness():
    a = np.array([-1, 1, -5, 3], np.int32)
    b = np.array([1, -1, -5, 2], np.int32)
    lt = "cmpi less_than %a, %b, {} : tile<4xi32> -> tile<4xi1>"
    assert value(I32x4, "%r = " + lt.format("signed"), a, b).tolist() == [True, False, False, False]
    assert value(I32x4, "%r = " + lt.format("unsigned"), a, b).tolist() == [False, True, False, False]
    assert value(I32x4, "%r = maxi %a, %b unsigned : tile<4xi32>", a, b).tolist() == [-1, -1, -5, 3]
    assert value(I32x4, "%r = mini %a, %b signed : tile<4xi32>", a, b).tolist() == [-1, -1, -5, 2]


def test_extend_truncate_and_mulhi():
    a = np.array([-1, 127], np.int8)
    assert value("%a: tile<2xi8>", "%r = exti %a signed : tile<2xi8> -> tile<2xi32>", a).tolist() == [-1, 127]
    assert value("%a: tile<2xi8>", "%r = exti %a unsigned : tile<2xi8> -> tile<2xi32>", a).tolist() == [255, 127]
    w = np.array([0x1FF, 0x180], np.int32)
    assert value("%a: tile<2xi32>", "%r = trunci %a : tile<2xi32> -> tile<2xi8>", w).tolist() == [-1, -128]
    x = np.array([-1, 1 << 20], np.int32)
    y = np.array([2, 1 << 20], np.int32)
    assert value("%a: tile<2xi32>, %b: tile<2xi32>", "%r = mulhii %a, %b : tile<2xi32>", x, y).tolist() == [1, 256]
    x64 = np.array([-1, 3], np.int64)
    assert value("%a: tile<2xi64>, %b: tile<2xi64>", "%r = mulhii %a, %b : tile<2xi64>", x64, x64).tolist() == [-2, 0]


def test_mmai_accumulates_i8_products_in_i32():
    a = np.full((2, 4), -128, np.int8)
    b = np.full((4, 2), 127, np.int8)
    acc = np.full((2, 2), 7, np.int32)
    body = "%r = mmai %a, %b, %c signed {} : tile<2x4xi8>, tile<4x2xi8>, tile<2x2xi32>"
    params = "%a: tile<2x4xi8>, %b: tile<4x2xi8>, %c: tile<2x2xi32>"
    assert value(params, body.format("signed"), a, b, acc).tolist() == [[7 - 4 * 128 * 127] * 2] * 2
    assert value(params, "%r = mmai %a, %b, %c unsigned unsigned : tile<2x4xi8>, tile<4x2xi8>, tile<2x2xi32>",
                 a, b, acc).tolist() == [[7 + 4 * 128 * 127] * 2] * 2
