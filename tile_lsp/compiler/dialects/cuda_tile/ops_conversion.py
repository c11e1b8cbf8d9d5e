"""cuda_tile ops: conversions between element types (bit casts, int/float widths, pointers).

Each op class carries its syntax, type constraints and NVIDIA-worded checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, opt_prop_def, result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.arith_base import NO_OVERFLOW
from tile_lsp.compiler.dialects.cuda_tile.arith_checks import CONV_FLOAT_TILE, I64_TILE, ShapesMatch
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import OVERFLOW, case_of
from tile_lsp.compiler.dialects.cuda_tile.attrs import UNIT
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, module_ops, tile_op
from tile_lsp.compiler.dialects.cuda_tile.constraints import TypeConstraint, TypeRule
from tile_lsp.compiler.dialects.cuda_tile.floats import float_format
from tile_lsp.compiler.syntax.types import long_type_str

if TYPE_CHECKING:
    from tile_lsp.compiler.verify_context import VerifyContext

CAST_FORMAT = "$source attr-dict `:` custom<CudaTileType>(type($source)) `->` custom<CudaTileType>(type($result))"
F8E8M0FNU = C.F8E8M0FNU

# exti/trunci also accept i4, which has no entry in the shared element-type spellings.
_WIDTH_CAST_INTS = (*C.INTS, builtin.IntegerType(4))
WIDTH_CAST_TILE = TypeConstraint(
    "tile of i1 or i8 or i16 or i32 or i64 or i4 values",
    lambda t: isinstance(t, ct.TileType) and t.element_type in _WIDTH_CAST_INTS,
)


def _mlir_width(t: Attribute) -> int:
    """Bit width as MLIR's getIntOrFloatBitWidth reports it (tf32 counts 19 bits)."""
    return 19 if isinstance(t, builtin.FloatTF32Type) else ct.bitwidth(t)


def _int_width(t: Attribute) -> int:
    e = ct.element_type(t)
    return e.width.data if isinstance(e, builtin.IntegerType) else 0


class _CastOp(CudaTileOp):
    source = operand_def()
    result = result_def()
    TILE_FORMAT: ClassVar[str | None] = CAST_FORMAT
    TYPE_RULES: ClassVar[tuple[TypeRule, ...]] = (ShapesMatch(("source", "result"), "source, result"),)


def _from_to_format(modifiers: str) -> str:
    """The format of a conversion with `modifiers` between its operand and its attr-dict."""
    return f"$from_ {modifiers} attr-dict `:` custom<CudaTileType>(type($from_)) `->` custom<CudaTileType>(type($to))"


class _FromToOp(CudaTileOp):
    from_ = operand_def()
    to = result_def()
    TYPE_RULES: ClassVar[tuple[TypeRule, ...]] = (ShapesMatch(("from_", "to"), "from, to"),)


@tile_op
class BitcastOp(_CastOp):
    """Reinterprets the bits of each element as another number type of the same width.

    ```mlir
    %r = bitcast %x : tile<8xi32> -> tile<8xf32>
    ```
    """

    name = "cuda_tile.bitcast"
    TYPE_CONSTRAINTS = {"source": C.NUMBER_TILE, "result": C.NUMBER_TILE}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        src, res = self.source.type, self.result.type
        w1, w2 = _mlir_width(ct.element_type(src)), _mlir_width(ct.element_type(res))
        if w1 != w2:
            yield OpError(
                f"types must be equal width, cannot convert '{long_type_str(src)}' of width {w1} "
                f"to type '{long_type_str(res)}' of width {w2}"
            )


@tile_op
class IntToPtrOp(_CastOp):
    """Turns each i64 address into a pointer.

    ```mlir
    %p = int_to_ptr %addr : tile<8xi64> -> tile<8xptr<f32>>
    ```
    """

    name = "cuda_tile.int_to_ptr"
    TYPE_CONSTRAINTS = {"source": I64_TILE, "result": C.PTR_TILE}


@tile_op
class PtrToIntOp(_CastOp):
    """Turns each pointer into its i64 address.

    ```mlir
    %addr = ptr_to_int %p : tile<8xptr<f32>> -> tile<8xi64>
    ```
    """

    name = "cuda_tile.ptr_to_int"
    TYPE_CONSTRAINTS = {"source": C.PTR_TILE, "result": I64_TILE}


@tile_op
class PtrToPtrOp(_CastOp):
    """Changes the pointee type of each pointer without touching the address.

    ```mlir
    %q = ptr_to_ptr %p : tile<8xptr<f32>> -> tile<8xptr<i8>>
    ```
    """

    name = "cuda_tile.ptr_to_ptr"
    TYPE_CONSTRAINTS = {"source": C.PTR_TILE, "result": C.PTR_TILE}


class _WidthCastOp(_FromToOp):
    """exti and trunci: between integer tiles (i4 among them) of different widths."""

    TYPE_CONSTRAINTS: ClassVar[dict[str, TypeConstraint]] = {"from_": WIDTH_CAST_TILE, "to": WIDTH_CAST_TILE}


@tile_op
class ExtIOp(_WidthCastOp):
    """Widens each integer: sign-extends when `signed`, zero-extends when `unsigned`.

    ```mlir
    %w = exti %x signed : tile<8xi16> -> tile<8xi32>
    ```
    """

    name = "cuda_tile.exti"
    signedness = opt_prop_def(Attribute)
    TILE_FORMAT = _from_to_format("custom<Signedness>($signedness)")

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if _int_width(self.to.type) <= _int_width(self.from_.type):
            yield OpError("extending to smaller or identical integer")


@tile_op
class TruncIOp(_WidthCastOp):
    """Narrows each integer by dropping its high bits.

    ```mlir
    %n = trunci %x : tile<8xi32> -> tile<8xi8>
    ```
    """

    name = "cuda_tile.trunci"
    overflow = opt_prop_def(Attribute)
    TILE_FORMAT = _from_to_format("(`overflow` `` $overflow^)?")
    ATTR_SYNTAX = {"overflow": OVERFLOW}
    PROP_DEFAULTS = {"overflow": NO_OVERFLOW}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if _int_width(self.to.type) >= _int_width(self.from_.type):
            yield OpError("truncating to larger or identical integer")


# ftof's rounding modes (NVIDIA's 13.5 verifier, probed over every pair of float types):
# conversions to a format below 16 bits round to nearest even only (f8E8M0FNU: only `zero` or
# `positive_inf`); among the standard types, f32 -> tf32 and f64 -> f32 have their own lists,
# another conversion that can lose range or precision ("narrowing": APFloat's isRepresentableBy
# fails) takes `nearest_even` or `zero`, and a widening one any IEEE mode.
_LOW_PRECISION = (C.F8E4M3FN, C.F8E5M2, C.F4E2M1FN, C.F8E5M3FNU)
_FTOF_IEEE = ("nearest_even", "zero", "negative_inf", "positive_inf", "nearest_away")


def _semantics(t: Attribute) -> tuple[int, int, int]:
    """(max exponent, min normal exponent, precision) of a float type, as APFloat's fltSemantics."""
    fmt = float_format(t)
    assert fmt is not None
    emax = (1 << fmt.exp_bits) - 1 - fmt.bias
    if fmt.kind in ("ieee", "e8m0"):  # the all-ones exponent is inf/NaN (e8m0: NaN)
        emax -= 1
    emin = -fmt.bias if fmt.kind == "e8m0" else 1 - fmt.bias
    return emax, emin, fmt.precision


def is_widening_float(src: Attribute, dst: Attribute) -> bool:
    """Every value of `src` is one of `dst` (APFloat::isRepresentableBy)."""
    smax, smin, sp = _semantics(src)
    dmax, dmin, dp = _semantics(dst)
    return smax <= dmax and smin >= dmin and sp <= dp


def ftof_rounding_error(src: Attribute, dst: Attribute, mode: str) -> str | None:
    """NVIDIA's message for rounding mode `mode` on ftof from element type `src` to `dst`."""
    if dst == F8E8M0FNU:
        if mode in ("zero", "positive_inf"):
            return None
        return "invalid rounding mode specified for conversion to f8E8M0FNU. Only 'zero' and 'positive_inf' are supported"
    if dst in _LOW_PRECISION:
        if mode == "nearest_even":
            return None
        return "invalid rounding mode specified for conversion to low-precision type. Only 'nearest_even' is supported"
    if (src, dst) == (C.F32, C.TF32):
        if mode in ("nearest_even", "zero", "nearest_away"):
            return None
        return (
            "invalid rounding mode specified for conversion from f32 to tf32. "
            "Only 'nearest_even', 'zero', and 'nearest_away' are supported"
        )
    if (src, dst) == (C.F64, C.F32):
        if mode in ("nearest_even", "zero", "negative_inf", "positive_inf"):
            return None
        return (
            "invalid rounding mode specified for conversion from f64 to f32. "
            "Only 'nearest_even', 'zero', 'negative_inf', and 'positive_inf' are supported"
        )
    if is_widening_float(src, dst):
        if mode in _FTOF_IEEE:
            return None
        return (
            "invalid rounding mode specified for widening conversion. Only IEEE float rounding modes are "
            "supported: 'nearest_even', 'zero', 'negative_inf', 'positive_inf', 'nearest_away'"
        )
    if mode in ("nearest_even", "zero"):
        return None
    return (
        "invalid rounding mode specified. Only 'nearest_even' and 'zero' are supported for narrowing "
        "conversions to standard types"
    )


@tile_op
class FToFOp(_FromToOp):
    """Converts each float to another float type, rounding as `rounding<mode>` says (default
    nearest even; to f8E8M0FNU only `zero`/`positive_inf`, to other formats below 16 bits only
    nearest even).

    ```mlir
    %h = ftof %x : tile<8xf32> -> tile<8xf16>
    %z = ftof %x rounding<zero> : tile<8xf32> -> tile<8xbf16>
    ```
    """

    name = "cuda_tile.ftof"
    rounding_mode = opt_prop_def(Attribute)
    TILE_FORMAT = _from_to_format("custom<FToFRoundingMode>($rounding_mode)")
    TYPE_CONSTRAINTS = {"from_": CONV_FLOAT_TILE, "to": CONV_FLOAT_TILE}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if self.from_.type == self.to.type:
            yield OpError("converting tiles must not be a no-op")
            return
        mode = case_of(self, "rounding_mode", "nearest_even")
        problem = ftof_rounding_error(ct.element_type(self.from_.type), ct.element_type(self.to.type), mode)
        if problem is not None:
            yield OpError(problem)


@tile_op
class FToIOp(_FromToOp):
    """Converts each float to an integer, rounding toward zero. `saturating` (13.4+): a value
    past the integer's range becomes its largest or smallest value, NaN becomes 0.

    ```mlir
    %i = ftoi %x signed : tile<8xf32> -> tile<8xi32>
    %s = ftoi %x signed saturating : tile<8xf32> -> tile<8xi8>
    ```
    """

    name = "cuda_tile.ftoi"
    signedness = opt_prop_def(Attribute)
    rounding_mode = opt_prop_def(Attribute)
    saturating = opt_prop_def(UnitAttr)
    TILE_FORMAT = _from_to_format(
        "custom<Signedness>($signedness) custom<IntegerRoundingMode>($rounding_mode) (`saturating` $saturating^)?"
    )
    ATTR_SYNTAX = {"saturating": UNIT}
    TYPE_CONSTRAINTS = {"from_": CONV_FLOAT_TILE, "to": C.INT_TILE}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if case_of(self, "rounding_mode", "nearest_int_to_zero") != "nearest_int_to_zero":
            yield OpError("invalid rounding mode specified. Only 'nearest_int_to_zero' is supported")


@tile_op
class IToFOp(_FromToOp):
    """Converts each integer to the nearest float value.

    ```mlir
    %f = itof %x unsigned : tile<8xi32> -> tile<8xf32>
    ```
    """

    name = "cuda_tile.itof"
    signedness = opt_prop_def(Attribute)
    rounding_mode = opt_prop_def(Attribute)
    TILE_FORMAT = _from_to_format("custom<Signedness>($signedness) custom<IEEERoundingMode>($rounding_mode)")
    TYPE_CONSTRAINTS = {"from_": C.INT_TILE, "to": CONV_FLOAT_TILE}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if ct.element_type(self.to.type) == F8E8M0FNU:
            yield OpError(
                "integer to f8E8M0FNU conversion is not supported, please first convert to another float type"
            )
        elif case_of(self, "rounding_mode", "nearest_even") != "nearest_even":
            yield OpError("invalid rounding mode specified. Only 'nearest_even' is supported")


OPS: list[type[Operation]] = module_ops(globals())
