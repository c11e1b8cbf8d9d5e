"""Floats narrower than 16 bits in the gpu stage: fp8 (f8E4M3FN, f8E5M2), fp4 (f4E2M1FN) and the
scale format e8m0 (f8E8M0FNU). A value lives in an i8 register (and, except fp4, a byte of memory)
holding its code (fp4: in the low nibble); conversions to and from f32 are written once, as a
formula over `F8Ops`.

`IRBuilderOps` evaluates the formula by emitting arith ops (sm_80 and older have no fp8 cvt);
`HostOps` evaluates the same formula on Python ints and numpy float32, so the tests check the
emitted code bit for bit on the host. On sm_89+ `f8_to_f32`/`f32_to_f8` emit PTX's
`cvt.rn.f16x2.e4m3x2` / `cvt.rn.satfinite.e4m3x2.f32` (and the e5m2 forms) instead. Both round
to nearest even and saturate to the largest finite value (NaN stays NaN), as the hardware does.
fp4 and e8m0 always take the formula: it rounds as the reference interpreter (ml_dtypes) does,
which PTX's fp4 cvt (sm_100a only) and e8m0 cvt (no round-to-nearest mode) do not.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    TensorType,
    i8,
    i16,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp

V = TypeVar("V")
F = TypeVar("F")


@dataclass(frozen=True)
class F8Format:
    """A float of at most 8 bits: a sign bit (unless unsigned), `exp_bits`, `man_bits`; `ieee`:
    it has infinities; `width`: bits of its code; `hardware_sm`: the first sm with a PTX cvt to
    and from it that this stage uses (0: none, always the formula)."""

    name: str  # PTX's spelling: e4m3 / e5m2 / e2m1 / ue8m0
    exp_bits: int
    man_bits: int
    bias: int
    ieee: bool
    max_finite: float
    width: int = 8
    signed: bool = True
    hardware_sm: int = 0

    @property
    def shift(self) -> int:
        """Bit distance between this format's mantissa and f32's."""
        return 23 - self.man_bits

    @property
    def sign_bit(self) -> int:
        return 1 << (self.width - 1) if self.signed else 0

    @property
    def nan_code(self) -> int | None:
        """The code a NaN becomes (of either sign: the sign bit is added), None: no NaN."""
        if not self.signed:
            return (1 << self.width) - 1
        return None if self.width < 8 else 0x7F

    @property
    def label(self) -> str:
        """How diagnostics name the format: fp8 (e4m3), fp4 (e2m1), e8m0."""
        return "e8m0" if not self.signed else f"fp{self.width} ({self.name})"


HARDWARE_CVT_SM = 89  # cvt with e4m3x2/e5m2x2 operands: PTX 7.8, sm_89+
E4M3FN = F8Format("e4m3", 4, 3, 7, False, 448.0, hardware_sm=HARDWARE_CVT_SM)
E5M2 = F8Format("e5m2", 5, 2, 15, True, 57344.0, hardware_sm=HARDWARE_CVT_SM)
E2M1 = F8Format("e2m1", 2, 1, 1, False, 6.0, width=4)
E8M0 = F8Format("ue8m0", 8, 0, 127, False, 2.0**127, signed=False)
E8M0_MODES = ("zero", "positive_inf")  # the rounding modes of ftof to e8m0 (cuda_tile's verifier)
F8_FORMATS: dict[type[Attribute], F8Format] = {Float8E4M3FNType: E4M3FN, Float8E5M2Type: E5M2,
                                               Float4E2M1FNType: E2M1, Float8E8M0FNUType: E8M0}


def f8_format(t: Attribute) -> F8Format | None:
    """The narrow float format (fp8, fp4, e8m0) of a scalar or tile type, if it is one."""
    if type(t) is TensorType:
        t = t.element_type
    return F8_FORMATS.get(type(t))


def storage_type(t: Attribute) -> Attribute:
    """What a narrow float element is in registers (and memory, but for fp4): its code's byte."""
    return i8 if f8_format(t) is not None else t


def _f32_bits(value: float) -> int:
    return int(struct.unpack("<I", struct.pack("<f", value))[0])


# ---------------------------------------------------------------------------------------------
# The formulas


class F8Ops(Protocol[V, F]):
    """What the formulas need: i32 values `V` and f32 values `F`."""

    def c(self, value: int) -> V: ...
    def fc(self, value: float) -> F: ...
    def andi(self, a: V, b: V) -> V: ...
    def ori(self, a: V, b: V) -> V: ...
    def shl(self, a: V, n: int) -> V: ...
    def shr(self, a: V, n: int) -> V: ...
    def add(self, a: V, b: V) -> V: ...
    def sub(self, a: V, b: V) -> V: ...
    def select_ult(self, a: V, b: V, then: V, other: V) -> V: ...
    def select_eq(self, a: V, b: V, then: V, other: V) -> V: ...
    def to_bits(self, x: F) -> V: ...
    def from_bits(self, x: V) -> F: ...
    def uitofp(self, x: V) -> F: ...
    def fmul(self, a: F, b: F) -> F: ...
    def fadd(self, a: F, b: F) -> F: ...


def decode_formula(o: F8Ops[V, F], x: V, fmt: F8Format) -> F:
    """Code `x` (an i32 holding the byte; fp4: its low nibble) -> its f32 value, exactly."""
    if not fmt.signed:  # e8m0: 2^(x - 127); code 0 is f32's subnormal 2^-127, 0xFF is NaN
        e = o.andi(x, o.c(0xFF))
        mag = o.select_eq(e, o.c(0), o.c(0x00400000), o.shl(e, 23))
        return o.from_bits(o.select_eq(e, o.c(0xFF), o.c(0x7FC00000), mag))
    sign = o.shl(o.andi(x, o.c(fmt.sign_bit)), 32 - fmt.width)
    a = o.andi(x, o.c(fmt.sign_bit - 1))
    normal = o.add(o.shl(a, fmt.shift), o.c((127 - fmt.bias) << 23))
    subnormal = o.to_bits(o.fmul(o.uitofp(a), o.fc(2.0 ** (1 - fmt.bias - fmt.man_bits))))
    mag = o.select_ult(a, o.c(1 << fmt.man_bits), subnormal, normal)
    top = ((1 << fmt.exp_bits) - 1) << fmt.man_bits  # exponent all ones
    if fmt.ieee:  # inf, and NaN (any mantissa) as f32's quiet NaN
        mag = o.select_ult(o.c(top), a, o.c(0x7FC00000), mag)
        mag = o.select_eq(a, o.c(top), o.c(0x7F800000), mag)
    elif fmt.nan_code is not None:  # only S.1111.111 is NaN
        mag = o.select_eq(a, o.c(fmt.nan_code), o.c(0x7FC00000), mag)
    return o.from_bits(o.ori(mag, sign))


def encode_formula(o: F8Ops[V, F], x: F, fmt: F8Format, mode: str = "nearest_even") -> V:
    """f32 value `x` -> code (an i32 in 0..2^width-1): round to nearest even, saturate to the
    largest finite value (infinities too), NaN -> S.1111111. fp4 has no NaN: a NaN becomes a
    zero of the opposite sign (as ml_dtypes converts it). e8m0 (`encode_e8m0_formula`) takes
    `mode` zero or positive_inf, the only ones ftof to it allows; other formats nearest_even.
    Raises ValueError for any other mode."""
    if not fmt.signed and mode in E8M0_MODES:
        return encode_e8m0_formula(o, x, mode == "positive_inf")
    if not fmt.signed or mode not in ("", "nearest_even"):
        raise ValueError(f"rounding mode '{mode}' to {fmt.label}")
    bits = o.to_bits(x)
    sign = o.andi(o.shr(bits, 32 - fmt.width), o.c(fmt.sign_bit))
    ab = o.andi(bits, o.c(0x7FFFFFFF))
    max_bits = _f32_bits(fmt.max_finite)
    clamped = o.select_ult(o.c(max_bits), ab, o.c(max_bits), ab)  # (NaN handled last)
    # Normal: round the f32 mantissa to man_bits (ties to even), then rebias.
    half = o.add(o.c((1 << (fmt.shift - 1)) - 1), o.andi(o.shr(clamped, fmt.shift), o.c(1)))
    normal = o.sub(o.shr(o.add(clamped, half), fmt.shift), o.c((127 - fmt.bias) << fmt.man_bits))
    # Subnormal: adding 2^k, whose ulp is the subnormal step, rounds to it (ties to even).
    k = 23 + 1 - fmt.bias - fmt.man_bits
    magic = o.fc(2.0**k)
    subnormal = o.sub(o.to_bits(o.fadd(o.from_bits(clamped), magic)), o.c(_f32_bits(2.0**k)))
    code = o.select_ult(clamped, o.c(_f32_bits(2.0 ** (1 - fmt.bias))), subnormal, normal)
    if fmt.nan_code is None:
        return o.select_ult(o.c(0x7F800000), ab, o.sub(o.c(fmt.sign_bit), sign), o.ori(code, sign))
    code = o.select_ult(o.c(0x7F800000), ab, o.c(fmt.nan_code), code)
    return o.ori(code, sign)


def encode_e8m0_formula(o: F8Ops[V, F], x: F, round_up: bool) -> V:
    """f32 value `x` -> e8m0 code, rounded to the power of two below (`round_up`: above), as the
    reference interpreter does: zero, negatives, infinities, NaN and what passes 2^127 (rounding
    down: from 1.5 * 2^127 on, where rounding to nearest would) are NaN (0xFF); rounding down,
    a value below 2^-127 (no zero: the smallest code) is NaN too. f32 subnormals hold 2^-127."""
    bits = o.to_bits(x)
    e = o.shr(bits, 23)
    if round_up:  # one code more when a mantissa bit is set (254 + 1: NaN)
        normal = o.add(e, o.select_eq(o.andi(bits, o.c(0x7FFFFF)), o.c(0), o.c(0), o.c(1)))
        subnormal = o.select_ult(o.c(0x400000), bits, o.c(1), o.c(0))
    else:
        normal = o.select_ult(bits, o.c(0x7F400000), e, o.c(0xFF))
        subnormal = o.select_ult(bits, o.c(0x400000), o.c(0xFF), o.c(0))
    code = o.select_ult(bits, o.c(0x800000), subnormal, normal)
    # 1 <= bits <= largest finite: positive, not zero, not inf/NaN (negatives are >= 2^31).
    return o.select_ult(o.sub(bits, o.c(1)), o.c(0x7F7FFFFF), code, o.c(0xFF))


# ---------------------------------------------------------------------------------------------
# Evaluating them: on the host (tests), and as emitted ops


class HostOps:
    """The formulas on Python ints (i32, wrapping) and numpy float32 (IEEE, no FTZ)."""

    def __init__(self) -> None:
        import numpy as np

        self.np = np

    def c(self, value: int) -> int:
        return value & 0xFFFFFFFF

    def fc(self, value: float) -> Any:
        return self.np.float32(value)

    def andi(self, a: int, b: int) -> int:
        return a & b

    def ori(self, a: int, b: int) -> int:
        return a | b

    def shl(self, a: int, n: int) -> int:
        return (a << n) & 0xFFFFFFFF

    def shr(self, a: int, n: int) -> int:
        return a >> n

    def add(self, a: int, b: int) -> int:
        return (a + b) & 0xFFFFFFFF

    def sub(self, a: int, b: int) -> int:
        return (a - b) & 0xFFFFFFFF

    def select_ult(self, a: int, b: int, then: int, other: int) -> int:
        return then if a < b else other

    def select_eq(self, a: int, b: int, then: int, other: int) -> int:
        return then if a == b else other

    def to_bits(self, x: Any) -> int:
        return int(self.np.array([x], dtype=self.np.float32).view(self.np.uint32)[0])

    def from_bits(self, x: int) -> Any:
        return self.np.array([x], dtype=self.np.uint32).view(self.np.float32)[0]

    def uitofp(self, x: int) -> Any:
        return self.np.float32(x)

    def fmul(self, a: Any, b: Any) -> Any:
        return self.np.float32(a) * self.np.float32(b)

    def fadd(self, a: Any, b: Any) -> Any:
        return self.np.float32(a) + self.np.float32(b)


class IRBuilderOps:
    """The formulas as arith ops on i32 / f32, emitted through `emit` (the converter's `v`)."""

    def __init__(self, emit: Callable[[Operation], SSAValue]) -> None:
        self.v = emit

    def c(self, value: int) -> SSAValue:
        value &= 0xFFFFFFFF
        return self.v(arith.ConstantOp(IntegerAttr(value - (1 << 32) if value >= 1 << 31 else value, i32)))

    def fc(self, value: float) -> SSAValue:
        return self.v(arith.ConstantOp(FloatAttr(value, Float32Type())))

    def andi(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(arith.AndIOp(a, b))

    def ori(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(arith.OrIOp(a, b))

    def shl(self, a: SSAValue, n: int) -> SSAValue:
        return self.v(arith.ShLIOp(a, self.c(n)))

    def shr(self, a: SSAValue, n: int) -> SSAValue:
        return self.v(arith.ShRUIOp(a, self.c(n)))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(arith.AddiOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(arith.SubiOp(a, b))

    def select_ult(self, a: SSAValue, b: SSAValue, then: SSAValue, other: SSAValue) -> SSAValue:
        return self.v(arith.SelectOp(self.v(arith.CmpiOp(a, b, "ult")), then, other))

    def select_eq(self, a: SSAValue, b: SSAValue, then: SSAValue, other: SSAValue) -> SSAValue:
        return self.v(arith.SelectOp(self.v(arith.CmpiOp(a, b, "eq")), then, other))

    def to_bits(self, x: SSAValue) -> SSAValue:
        return self.v(arith.BitcastOp(x, i32))

    def from_bits(self, x: SSAValue) -> SSAValue:
        return self.v(arith.BitcastOp(x, Float32Type()))

    def uitofp(self, x: SSAValue) -> SSAValue:
        return self.v(arith.UIToFPOp(x, Float32Type()))

    def fmul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(arith.MulfOp(a, b))

    def fadd(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(arith.AddfOp(a, b))


def decode_host(code: int, fmt: F8Format) -> float:
    """The formula's f32 value of `code`, evaluated on the host."""
    return float(decode_formula(HostOps(), code & 0xFF, fmt))


def encode_host(value: float, fmt: F8Format, mode: str = "nearest_even") -> int:
    """The formula's code of f32 `value`, evaluated on the host."""
    ops = HostOps()
    return encode_formula(ops, ops.fc(value), fmt, mode) & 0xFF


# ---------------------------------------------------------------------------------------------
# Emitting conversions


def f8_to_f32(emit: Callable[[Operation], SSAValue], code: SSAValue, fmt: F8Format, sm: int) -> SSAValue:
    """The f32 value of code byte `code` (an i8)."""
    if fmt.hardware_sm and sm >= fmt.hardware_sm:
        wide = emit(arith.ExtUIOp(code, i16))
        pair = emit(InlineAsmOp(f"cvt.rn.f16x2.{fmt.name}x2 $0, $1;", "=r,h", [wide], [i32]))
        half = emit(arith.BitcastOp(emit(arith.TruncIOp(pair, i16)), Float16Type()))
        return emit(arith.ExtFOp(half, Float32Type()))
    return decode_formula(IRBuilderOps(emit), emit(arith.ExtUIOp(code, i32)), fmt)


def f32_to_f8(emit: Callable[[Operation], SSAValue], value: SSAValue, fmt: F8Format, sm: int,
              mode: str = "nearest_even") -> SSAValue:
    """The code byte (an i8) of f32 `value`: nearest even, saturating (e8m0: rounded by `mode`,
    see its formula). Raises ValueError for a mode the format does not take."""
    if fmt.hardware_sm and sm >= fmt.hardware_sm and mode in ("", "nearest_even"):
        zero = emit(arith.ConstantOp(FloatAttr(0.0, Float32Type())))
        pair = emit(InlineAsmOp(f"cvt.rn.satfinite.{fmt.name}x2.f32 $0, $1, $2;", "=h,f,f", [zero, value], [i16]))
        return emit(arith.TruncIOp(pair, i8))
    code = encode_formula(IRBuilderOps(emit), value, fmt, mode)
    return emit(arith.TruncIOp(code, i8))


def convert_f8(emit: Callable[[Operation], SSAValue], value: SSAValue, dst: Attribute, src_fmt: F8Format | None,
               dst_fmt: F8Format | None, sm: int, mode: str = "nearest_even") -> SSAValue:
    """ftof where the source or the result is a narrow float (`value`: an i8 code byte, or a
    float of another width; `dst`: the result's float type). Through f32, which holds every
    narrow float value exactly and every f16/bf16 value too; an f64 source is rounded to f32 by
    rounding to odd, so that rounding it again to the narrow format is the correct rounding of
    the f64 value (as the reference interpreter rounds). `mode`: the rounding to `dst_fmt`
    (`encode_formula`)."""
    if src_fmt is not None and src_fmt == dst_fmt:
        return value
    x = f8_to_f32(emit, value, src_fmt, sm) if src_fmt is not None else value
    if dst_fmt is not None:
        x = _f64_to_f32_odd(emit, x) if isinstance(x.type, Float64Type) else _to_float(emit, x, Float32Type())
        return f32_to_f8(emit, x, dst_fmt, sm, mode)
    return _to_float(emit, x, dst)


def _f64_to_f32_odd(emit: Callable[[Operation], SSAValue], x: SSAValue) -> SSAValue:
    """f64 `x` rounded to f32 toward zero, its last bit set when that was inexact (finite
    results only: an overflow stays infinite, NaN stays NaN)."""
    x32 = emit(arith.TruncFOp(x, Float32Type()))
    back = emit(arith.ExtFOp(x32, Float64Type()))
    o = IRBuilderOps(emit)
    bits = o.to_bits(x32)
    finite = emit(arith.CmpiOp(o.andi(bits, o.c(0x7FFFFFFF)), o.c(0x7F800000), "ult"))
    inexact = emit(arith.AndIOp(emit(arith.CmpfOp(back, x, "one")), finite))
    negative = emit(arith.CmpfOp(x, emit(arith.ConstantOp(FloatAttr(0.0, Float64Type()))), "olt"))
    overshot = emit(arith.SelectOp(negative, emit(arith.CmpfOp(back, x, "olt")), emit(arith.CmpfOp(back, x, "ogt"))))
    toward_zero = emit(arith.SelectOp(overshot, o.sub(bits, o.c(1)), bits))
    return o.from_bits(emit(arith.SelectOp(inexact, o.ori(toward_zero, o.c(1)), bits)))


def _to_float(emit: Callable[[Operation], SSAValue], x: SSAValue, t: Attribute) -> SSAValue:
    width: dict[type[Attribute], int] = {Float16Type: 16, BFloat16Type: 16, Float32Type: 32, Float64Type: 64}
    have, want = width.get(type(x.type), 0), width.get(type(t), 0)
    if x.type == t:
        return x
    if have == want:  # f16 <-> bf16
        return emit(arith.TruncFOp(emit(arith.ExtFOp(x, Float32Type())), t))
    return emit(arith.ExtFOp(x, t) if want > have else arith.TruncFOp(x, t))


__all__ = ["convert_f8", "E2M1", "E4M3FN", "E5M2", "E8M0", "E8M0_MODES", "F8Format", "decode_host", "encode_host", "f8_format",
           "f8_to_f32", "f32_to_f8", "storage_type"]
