"""The float formats of cuda_tile element types: bits <-> value, rounding, MLIR spelling.

Values are kept as Python floats already rounded to the element format, so a dense
literal prints (and re-parses) exactly like MLIR's APFloat-based printer.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from decimal import Decimal

from xdsl.dialects import builtin
from xdsl.ir import Attribute

from tile_lsp.compiler.dialects.cuda_tile.types import FloatNV8E5M3FNUType


@dataclass(frozen=True, slots=True)
class FloatFormat:
    """A binary float layout. `kind`: ieee (inf+nan), nan_only (E4M3FN), finite (E2M1), e8m0.
    `signed=False`: no sign bit (E5M3FNU; e8m0 is unsigned by its kind): negative values are NaN."""

    exp_bits: int
    man_bits: int
    bias: int
    kind: str = "ieee"
    signed: bool = True

    @property
    def width(self) -> int:
        return (0 if self.kind == "e8m0" or not self.signed else 1) + self.exp_bits + self.man_bits

    @property
    def precision(self) -> int:
        """Significand bits including the implicit one (APFloat's `precision`)."""
        return self.man_bits + 1

    @property
    def sign_bit(self) -> int:
        return 0 if self.kind == "e8m0" or not self.signed else 1 << (self.exp_bits + self.man_bits)

    def nan_bits(self, negative: bool = False) -> int:
        emask = (1 << self.exp_bits) - 1
        if self.kind == "e8m0":
            return emask
        if self.kind == "nan_only":
            bits = (emask << self.man_bits) | ((1 << self.man_bits) - 1)
        elif self.kind == "finite":
            bits = (emask << self.man_bits) | ((1 << self.man_bits) - 1)  # no NaN: saturate
        else:
            bits = (emask << self.man_bits) | (1 << (self.man_bits - 1))
        return bits | (self.sign_bit if negative else 0)

    def max_bits(self) -> int:
        emask = (1 << self.exp_bits) - 1
        mmask = (1 << self.man_bits) - 1
        if self.kind == "ieee":
            return ((emask - 1) << self.man_bits) | mmask
        if self.kind == "nan_only":
            return (emask << self.man_bits) | (mmask - 1)
        if self.kind == "e8m0":
            return emask - 1
        return (emask << self.man_bits) | mmask

    def decode(self, bits: int) -> float:
        man = bits & ((1 << self.man_bits) - 1)
        emask = (1 << self.exp_bits) - 1
        exp = (bits >> self.man_bits) & emask
        if self.kind == "e8m0":
            return math.nan if exp == emask else math.ldexp(1.0, exp - self.bias)
        sign = -1.0 if bits & self.sign_bit else 1.0
        if exp == emask:
            if self.kind == "ieee":
                return sign * math.inf if man == 0 else math.nan
            if self.kind == "nan_only" and man == (1 << self.man_bits) - 1:
                return math.nan
        if exp == 0:
            return sign * math.ldexp(float(man), 1 - self.bias - self.man_bits)
        return sign * math.ldexp(float(man | (1 << self.man_bits)), exp - self.bias - self.man_bits)

    def encode(self, value: float) -> int:
        """Round to nearest, ties to even, as APFloat's conversion does."""
        negative = math.copysign(1.0, value) < 0
        sign = self.sign_bit if negative else 0
        if math.isnan(value):
            return self.nan_bits(negative)
        if (self.kind == "e8m0" or not self.signed) and (negative and value != 0):
            return self.nan_bits()
        a = abs(value)
        if math.isinf(a):
            return self._overflow(sign)
        if a == 0.0:
            return 0 if self.kind == "e8m0" else sign
        _, e = math.frexp(a)
        exp = max(e - 1, 1 - self.bias)  # unbiased exponent of the target (subnormals share emin)
        n = int(round(math.ldexp(a, self.man_bits - exp)))  # ties to even
        if self.kind == "e8m0":
            # No mantissa: the significand rounds to 1 or 2 in log2 steps.
            n = int(round(math.ldexp(a, -exp)))
            biased = exp + self.bias + (1 if n >= 2 else 0)
            if n == 0:
                return 0
            return self._overflow(0) if biased > self.max_bits() else biased
        if n >= 1 << (self.man_bits + 1):
            n >>= 1
            exp += 1
        if n < 1 << self.man_bits:  # subnormal (or rounded to zero)
            return sign | n
        biased = exp + self.bias
        bits = (biased << self.man_bits) | (n - (1 << self.man_bits))
        if bits > self.max_bits():
            return self._overflow(sign)
        return sign | bits

    def _overflow(self, sign: int) -> int:
        if self.kind == "ieee":
            return sign | (((1 << self.exp_bits) - 1) << self.man_bits)
        if self.kind in ("nan_only", "e8m0"):
            return self.nan_bits(bool(sign))
        return sign | self.max_bits()

    def round(self, value: float) -> float:
        return self.decode(self.encode(value))


F16 = FloatFormat(5, 10, 15)
BF16 = FloatFormat(8, 7, 127)
F32 = FloatFormat(8, 23, 127)
TF32 = FloatFormat(8, 10, 127)
F64 = FloatFormat(11, 52, 1023)
F8E4M3FN = FloatFormat(4, 3, 7, "nan_only")
F8E5M2 = FloatFormat(5, 2, 15)
F8E8M0FNU = FloatFormat(8, 0, 127, "e8m0")
F4E2M1FN = FloatFormat(2, 1, 1, "finite")
F8E5M3FNU = FloatFormat(5, 3, 15, "nan_only", signed=False)

_FORMATS: dict[type[Attribute], FloatFormat] = {
    builtin.Float16Type: F16,
    builtin.BFloat16Type: BF16,
    builtin.Float32Type: F32,
    builtin.FloatTF32Type: TF32,
    builtin.Float64Type: F64,
    builtin.Float8E4M3FNType: F8E4M3FN,
    builtin.Float8E5M2Type: F8E5M2,
    builtin.Float8E8M0FNUType: F8E8M0FNU,
    builtin.Float4E2M1FNType: F4E2M1FN,
    FloatNV8E5M3FNUType: F8E5M3FNU,
}


def float_format(t: Attribute) -> FloatFormat | None:
    return _FORMATS.get(type(t))


def round_to(value: float, fmt: FloatFormat) -> float:
    """`value` rounded to the format (overflow -> inf, or NaN/saturation where inf does not exist)."""
    if fmt is F64:
        return value
    if fmt is F32:
        try:
            return struct.unpack("<f", struct.pack("<f", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    return fmt.round(value)


def bits_of(value: float, fmt: FloatFormat) -> int:
    if fmt is F64:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if fmt is F32 and not math.isnan(value):
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return fmt.encode(value)


def from_bits(bits: int, fmt: FloatFormat) -> float:
    if fmt is F64:
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if fmt is F32:
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return fmt.decode(bits)


# -- printing (MLIR's printFloatValue) ------------------------------------------


def format_float(value: float, fmt: FloatFormat) -> str:
    """`1.500000e+00` when that re-reads exactly, else APFloat's shortest form, else hex bits."""
    if math.isfinite(value):
        s = _to_string(value, 6, 0, truncate_zero=False)
        if round_to(float(s), fmt) == value and math.copysign(1.0, float(s)) == math.copysign(1.0, value):
            return s
        s = _to_string(value, 2 + fmt.precision * 59 // 196, 3, truncate_zero=True)
        if "." in s:
            return s
    return "0x" + format(bits_of(value, fmt), "X")


def _to_string(value: float, precision: int, max_padding: int, truncate_zero: bool) -> str:
    """APFloat::toString: `precision` significant digits, half-up on the exact decimal value."""
    neg = math.copysign(1.0, value) < 0
    if value == 0.0:
        body = "0.0E+0" if truncate_zero else "0." + "0" * precision + "e+00"
        return ("-" if neg else "") + body
    _, digits_t, exp = Decimal(abs(value)).as_tuple()  # exact decimal expansion
    digits = "".join(map(str, digits_t))
    assert isinstance(exp, int)
    if len(digits) > precision:
        kept = int(digits[:precision]) + (1 if digits[precision] >= "5" else 0)
        exp += len(digits) - precision
        digits = str(kept)
        if len(digits) > precision:  # 999.. rounded up to 1000..
            digits = digits[:-1]
            exp += 1
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    digits = stripped or "0"
    n = len(digits)
    if max_padding == 0:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > max_padding
    out: list[str] = ["-"] if neg else []
    if scientific:
        e10 = exp + n - 1
        out.append(digits[0])
        out.append(".")
        if n == 1 and truncate_zero:
            out.append("0")
        else:
            out.append(digits[1:])
        if not truncate_zero and precision > n - 1:
            out.append("0" * (precision - n + 1))
        out.append("E" if truncate_zero else "e")
        out.append("+" if e10 >= 0 else "-")
        ed = str(abs(e10))
        if not truncate_zero and len(ed) < 2:
            ed = "0" + ed
        out.append(ed)
        return "".join(out)
    if exp >= 0:
        return "".join(out) + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return "".join(out) + digits[:whole] + "." + digits[whole:]
    return "".join(out) + "0." + "0" * (-whole) + digits
