"""cuda_tile ops: element-wise integer and float arithmetic, bitwise ops, compares, select.

Each op class carries its syntax, type constraints and NVIDIA-worded checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, opt_prop_def, result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.arith_base import (
    NO_OVERFLOW,
    ApproxRoundingOp,
    FloatBinaryOp,
    FloatUnaryOp,
    IEEEFloatBinaryOp,
    IntBinaryOp,
    IntUnaryOp,
    OverflowIntBinaryOp,
    SignedIntBinaryOp,
    rounding_format,
    same_tiles,
)
from tile_lsp.compiler.dialects.cuda_tile.arith_checks import (
    I1SameShape,
    check_ftz,
    check_rounding,
)
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import IEEE_MODES, OVERFLOW, case_of
from tile_lsp.compiler.dialects.cuda_tile.attrs import enum
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, module_ops, tile_op
from tile_lsp.compiler.dialects.cuda_tile.custom import ROUNDING

if TYPE_CHECKING:
    from tile_lsp.compiler.verify_context import VerifyContext


# -- integer arithmetic ------------------------------------------------------------


@tile_op
class AbsIOp(IntUnaryOp):
    """Absolute value of each element; the input is read as signed, the result as unsigned.

    ```mlir
    %r = absi %x : tile<8xi32>
    ```
    """

    name = "cuda_tile.absi"


@tile_op
class NegIOp(IntUnaryOp):
    """Two's-complement negation of each element, optionally promising no signed wrap.

    ```mlir
    %r = negi %x overflow<no_signed_wrap> : tile<8xi32>
    ```
    """

    name = "cuda_tile.negi"
    overflow = opt_prop_def(Attribute)
    TILE_FORMAT = "$source (`overflow` `` $overflow^)? attr-dict `:` custom<CudaTileType>(type($result))"
    ATTR_SYNTAX = {"overflow": OVERFLOW}
    PROP_DEFAULTS = {"overflow": NO_OVERFLOW}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if case_of(self, "overflow", "none") == "no_unsigned_wrap":
            # Negation is a signed operation; an unsigned-wrap promise makes no sense.
            yield OpError("'no_unsigned_wrap' overflow flag is not supported")


@tile_op
class AddIOp(OverflowIntBinaryOp):
    """Wrap-around integer addition of two tiles, element by element.

    ```mlir
    %r = addi %a, %b : tile<8xi32>
    ```
    """

    name = "cuda_tile.addi"


@tile_op
class SubIOp(OverflowIntBinaryOp):
    """Wrap-around integer subtraction `lhs - rhs`, element by element.

    ```mlir
    %r = subi %a, %b overflow<no_signed_wrap> : tile<8xi32>
    ```
    """

    name = "cuda_tile.subi"


@tile_op
class MulIOp(OverflowIntBinaryOp):
    """Low half of the integer product of two tiles, element by element.

    ```mlir
    %r = muli %a, %b : tile<8xi32>
    ```
    """

    name = "cuda_tile.muli"


@tile_op
class ShLIOp(OverflowIntBinaryOp):
    """Shifts each `lhs` element left by the matching `rhs` element, filling with zeros.

    ```mlir
    %r = shli %a, %amount : tile<8xi32>
    ```
    """

    name = "cuda_tile.shli"


@tile_op
class ShRIOp(SignedIntBinaryOp):
    """Shifts each `lhs` element right; `signed` copies the sign bit, `unsigned` shifts in zeros.

    ```mlir
    %r = shri %a, %amount unsigned : tile<8xi32>
    ```
    """

    name = "cuda_tile.shri"


@tile_op
class MulhiIOp(CudaTileOp):
    """High half of the double-width integer product of two tiles, element by element.

    ```mlir
    %hi = mulhii %a, %b : tile<8xi32>
    ```
    """

    name = "cuda_tile.mulhii"
    x = operand_def()
    y = operand_def()
    result = result_def()
    TILE_FORMAT = "$x `,` $y attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS = {"x": C.INT_TILE, "y": C.INT_TILE, "result": C.INT_TILE}
    TYPE_RULES = (C.AllTypesMatch("x", "y", "result"),)


@tile_op
class DivIOp(SignedIntBinaryOp):
    """Integer division; rounds toward zero unless `rounding<negative_inf|positive_inf>` is given.

    ```mlir
    %q = divi %a, %b signed rounding<negative_inf> : tile<8xi32>
    ```
    """

    name = "cuda_tile.divi"
    rounding = opt_prop_def(Attribute)
    TILE_FORMAT = (
        "$lhs `,` $rhs custom<Signedness>($signedness) (`rounding` `` $rounding^)? "
        "attr-dict `:` custom<CudaTileType>(type($result))"
    )
    ATTR_SYNTAX = {"rounding": ROUNDING}
    PROP_DEFAULTS = {"rounding": enum("rounding", "zero")}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        mode = case_of(self, "rounding", "zero")
        yield from check_rounding(mode, ("zero", "negative_inf", "positive_inf"))
        if mode == "negative_inf" and case_of(self, "signedness", "signed") == "unsigned":
            yield OpError("rounding mode 'negative_inf' is not allowed with 'unsigned' flag")


@tile_op
class RemIOp(SignedIntBinaryOp):
    """Integer remainder of `lhs / rhs` (division rounding toward zero), element by element.

    ```mlir
    %r = remi %a, %b signed : tile<8xi32>
    ```
    """

    name = "cuda_tile.remi"
    TYPE_RULES = (C.AllTypesMatch("result", "lhs", "rhs"), C.SameShape("result", "lhs", "rhs"))


@tile_op
class MaxIOp(SignedIntBinaryOp):
    """Larger of two integers, element by element, compared as `signed` or `unsigned`.

    ```mlir
    %r = maxi %a, %b signed : tile<8xi32>
    ```
    """

    name = "cuda_tile.maxi"


@tile_op
class MinIOp(SignedIntBinaryOp):
    """Smaller of two integers, element by element, compared as `signed` or `unsigned`.

    ```mlir
    %r = mini %a, %b unsigned : tile<8xi32>
    ```
    """

    name = "cuda_tile.mini"


# -- bitwise -------------------------------------------------------------------------


@tile_op
class AndIOp(IntBinaryOp):
    """Bitwise AND of two integer tiles.

    ```mlir
    %r = andi %a, %b : tile<8xi1>
    ```
    """

    name = "cuda_tile.andi"


@tile_op
class OrIOp(IntBinaryOp):
    """Bitwise OR of two integer tiles.

    ```mlir
    %r = ori %a, %b : tile<8xi32>
    ```
    """

    name = "cuda_tile.ori"


@tile_op
class XOrIOp(IntBinaryOp):
    """Bitwise exclusive OR of two integer tiles (with all-ones, a bitwise NOT).

    ```mlir
    %r = xori %a, %b : tile<8xi32>
    ```
    """

    name = "cuda_tile.xori"


# -- float arithmetic --------------------------------------------------------------


@tile_op
class AbsFOp(FloatUnaryOp):
    """Absolute value of each float element (clears the sign bit).

    ```mlir
    %r = absf %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.absf"


@tile_op
class NegFOp(FloatUnaryOp):
    """Flips the sign of each float element.

    ```mlir
    %r = negf %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.negf"


@tile_op
class AddFOp(IEEEFloatBinaryOp):
    """Float addition of two tiles, with an optional IEEE rounding mode and f32 flush-to-zero.

    ```mlir
    %r = addf %a, %b rounding<zero> : tile<8xf32>
    ```
    """

    name = "cuda_tile.addf"


@tile_op
class SubFOp(IEEEFloatBinaryOp):
    """Float subtraction `lhs - rhs`, with an optional IEEE rounding mode and f32 flush-to-zero.

    ```mlir
    %r = subf %a, %b : tile<8xf32>
    ```
    """

    name = "cuda_tile.subf"


@tile_op
class MulFOp(IEEEFloatBinaryOp):
    """Float multiplication of two tiles, with an optional IEEE rounding mode and f32 flush-to-zero.

    ```mlir
    %r = mulf %a, %b flush_to_zero : tile<8xf32>
    ```
    """

    name = "cuda_tile.mulf"


@tile_op
class DivFOp(ApproxRoundingOp, FloatBinaryOp):
    """Float division; besides IEEE rounding, f32 allows the `approx` and `full` variants.

    ```mlir
    %q = divf %a, %b rounding<approx> : tile<8xf32>
    ```
    """

    name = "cuda_tile.divf"
    TILE_FORMAT = rounding_format("$lhs `,` $rhs", "DivFOpRoundingMode")
    ROUNDING_MODES: ClassVar[tuple[str, ...]] = (*IEEE_MODES, "approx", "full")


@tile_op
class RemFOp(FloatBinaryOp):
    """Float remainder of `lhs / rhs` with the sign of `lhs` (C `fmod`), element by element.

    ```mlir
    %r = remf %a, %b : tile<8xf32>
    ```
    """

    name = "cuda_tile.remf"


class _FloatMinMaxOp(FloatBinaryOp):
    propagate_nan = opt_prop_def(Attribute)
    flush_to_zero = opt_prop_def(Attribute)
    TILE_FORMAT: ClassVar[str | None] = (
        "$lhs `,` $rhs custom<UnitFlags>($flush_to_zero, $propagate_nan) attr-dict "
        "`:` custom<CudaTileType>(type($result))"
    )

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from check_ftz(self)


@tile_op
class MaxFOp(_FloatMinMaxOp):
    """Larger of two floats per element; `propagate_nan` makes a NaN input win.

    ```mlir
    %r = maxf %a, %b propagate_nan : tile<8xf32>
    ```
    """

    name = "cuda_tile.maxf"


@tile_op
class MinFOp(_FloatMinMaxOp):
    """Smaller of two floats per element; `propagate_nan` makes a NaN input win.

    ```mlir
    %r = minf %a, %b : tile<8xf32>
    ```
    """

    name = "cuda_tile.minf"


@tile_op
class FmaOp(IEEEFloatBinaryOp):
    """Fused multiply-add `lhs * rhs + acc` with a single rounding step.

    ```mlir
    %r = fma %a, %b, %c : tile<8xf32>
    ```
    """

    name = "cuda_tile.fma"
    # all three operands here: xDSL would put the subclass's `acc` before the inherited ones
    lhs = operand_def()
    rhs = operand_def()
    acc = operand_def()
    TILE_FORMAT = rounding_format("$lhs `,` $rhs `,` $acc", "IEEERoundingMode")
    TYPE_CONSTRAINTS = same_tiles(C.FLOAT_TILE, "lhs", "rhs", "acc", "result")
    TYPE_RULES = (C.AllTypesMatch("lhs", "rhs", "acc", "result"),)


# -- comparisons and select --------------------------------------------------------


class _CompareOp(CudaTileOp):
    """cmpi and cmpf: `lhs` and `rhs` of one type, compared element by element into an i1 tile
    of their shape."""

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    TYPE_RULES: ClassVar[tuple[C.TypeRule, ...]] = (C.AllTypesMatch("lhs", "rhs"), I1SameShape("lhs", "result"))


@tile_op
class CmpIOp(_CompareOp):
    """Compares two integer tiles element by element into a tile of i1.

    ```mlir
    %m = cmpi less_than %a, %b, signed : tile<8xi32> -> tile<8xi1>
    ```
    """

    name = "cuda_tile.cmpi"
    comparison_predicate = opt_prop_def(Attribute)
    signedness = opt_prop_def(Attribute)
    TILE_FORMAT = (
        "custom<ComparisonPredicate>($comparison_predicate) $lhs `,` $rhs `,` custom<Signedness>($signedness) "
        "attr-dict `:` custom<CudaTileType>(type($lhs)) `->` custom<CudaTileType>(type($result))"
    )
    TYPE_CONSTRAINTS = {"lhs": C.INT_TILE, "rhs": C.INT_TILE, "result": C.I1_TILE}


@tile_op
class CmpFOp(_CompareOp):
    """Compares two float tiles element by element into a tile of i1; `unordered` is true on NaN.

    ```mlir
    %m = cmpf less_than ordered %a, %b : tile<8xf32> -> tile<8xi1>
    ```
    """

    name = "cuda_tile.cmpf"
    comparison_predicate = opt_prop_def(Attribute)
    comparison_ordering = opt_prop_def(Attribute)
    TILE_FORMAT = (
        "custom<ComparisonPredicate>($comparison_predicate) custom<ComparisonOrdering>($comparison_ordering) "
        "$lhs `,` $rhs attr-dict `:` custom<CudaTileType>(type($lhs)) `->` custom<CudaTileType>(type($result))"
    )
    TYPE_CONSTRAINTS = {"lhs": C.FLOAT_TILE, "rhs": C.FLOAT_TILE, "result": C.I1_TILE}


@tile_op
class SelectOp(CudaTileOp):
    """Picks `val_if_true` where the i1 condition is set and `val_if_false` elsewhere.

    ```mlir
    %r = select %mask, %a, %b : tile<8xi1>, tile<8xf32>
    ```
    """

    name = "cuda_tile.select"
    cond = operand_def()
    val_if_true = operand_def()
    val_if_false = operand_def()
    result = result_def()
    TILE_FORMAT = (
        "$cond `,` $val_if_true `,` $val_if_false attr-dict `:` custom<CudaTileType>(type($cond)) `,` "
        "custom<CudaTileType>(type($result))"
    )
    TYPE_CONSTRAINTS = {
        "cond": C.I1_TILE,
        "val_if_true": C.ANY_TILE,
        "val_if_false": C.ANY_TILE,
        "result": C.ANY_TILE,
    }
    TYPE_RULES = (
        C.AllTypesMatch("val_if_true", "val_if_false", "result"),
        C.SameShape("cond", "val_if_true", "val_if_false", "result"),
    )

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if ct.element_type(self.result.type) == C.F4E2M1FN:
            yield OpError("cannot operate on sub-byte type F4E2M1FN")


OPS: list[type[Operation]] = module_ops(globals())
