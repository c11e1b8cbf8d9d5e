"""cuda_tile ops: element-wise float math (rounding to integers, trig, exp/log, roots, pow).

Each op class carries its syntax, type constraints and NVIDIA-worded checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, opt_prop_def, result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile.arith_base import ApproxRoundingOp, FloatUnaryOp, rounding_format
from tile_lsp.compiler.dialects.cuda_tile.arith_checks import (
    RanksMatch,
    check_approx,
    check_ftz,
    check_rounding,
)
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import IEEE_MODES, case_of
from tile_lsp.compiler.dialects.cuda_tile.attrs import UNIT
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, VerifyResult, module_ops, tile_op

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.format import AttrSyntax
    from tile_lsp.compiler.verify_context import VerifyContext


class _ApproxUnaryOp(FloatUnaryOp):
    """A float unary op with `rounding<approx|full>` (default full); each names its own directive."""

    rounding_mode = opt_prop_def(Attribute)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        mode = case_of(self, "rounding_mode", "full")
        yield from check_rounding(mode, ("approx", "full"))
        yield from check_approx(self, mode == "approx")


class _FtzUnaryOp(FloatUnaryOp):
    """A float unary op with an optional `flush_to_zero`."""

    flush_to_zero = opt_prop_def(Attribute)
    TILE_FORMAT: ClassVar[str | None] = (
        "$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))"
    )
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {"flush_to_zero": UNIT}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from check_ftz(self)


@tile_op
class CeilOp(FloatUnaryOp):
    """Rounds each float element up to the nearest integral value.

    ```mlir
    %r = ceil %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.ceil"


@tile_op
class FloorOp(FloatUnaryOp):
    """Rounds each float element down to the nearest integral value.

    ```mlir
    %r = floor %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.floor"


@tile_op
class CosOp(FloatUnaryOp):
    """Cosine of each element (radians).

    ```mlir
    %r = cos %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.cos"


@tile_op
class CosHOp(FloatUnaryOp):
    """Hyperbolic cosine of each element.

    ```mlir
    %r = cosh %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.cosh"


@tile_op
class SinOp(FloatUnaryOp):
    """Sine of each element (radians).

    ```mlir
    %r = sin %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.sin"


@tile_op
class SinHOp(FloatUnaryOp):
    """Hyperbolic sine of each element.

    ```mlir
    %r = sinh %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.sinh"


@tile_op
class TanOp(FloatUnaryOp):
    """Tangent of each element (radians).

    ```mlir
    %r = tan %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.tan"


@tile_op
class TanHOp(_ApproxUnaryOp):
    """Hyperbolic tangent of each element; `rounding<approx>` trades accuracy for speed on f32.

    ```mlir
    %r = tanh %x rounding<approx> : tile<8xf32>
    ```
    """

    name = "cuda_tile.tanh"
    TILE_FORMAT = "$source custom<TanHOpRoundingMode>($rounding_mode) attr-dict `:` custom<CudaTileType>(type($result))"


@tile_op
class ExpOp(_ApproxUnaryOp):
    """Natural exponential `e^x` of each element; `rounding<approx>` is a fast f32 variant.

    ```mlir
    %r = exp %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.exp"
    TILE_FORMAT = "$source custom<ExpOpRoundingMode>($rounding_mode) attr-dict `:` custom<CudaTileType>(type($result))"


@tile_op
class Exp2Op(_FtzUnaryOp):
    """Two raised to the power of each element.

    ```mlir
    %r = exp2 %x flush_to_zero : tile<8xf32>
    ```
    """

    name = "cuda_tile.exp2"


@tile_op
class LogOp(FloatUnaryOp):
    """Natural logarithm of each element.

    ```mlir
    %r = log %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.log"


@tile_op
class Log2Op(FloatUnaryOp):
    """Base-2 logarithm of each element.

    ```mlir
    %r = log2 %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.log2"


@tile_op
class SqrtOp(ApproxRoundingOp, FloatUnaryOp):
    """Square root of each element, IEEE-rounded or (f32 only) `rounding<approx>`.

    ```mlir
    %r = sqrt %x rounding<approx> : tile<8xf32>
    ```
    """

    name = "cuda_tile.sqrt"
    TILE_FORMAT = rounding_format("$source", "SqrtOpRoundingMode")
    ROUNDING_MODES: ClassVar[tuple[str, ...]] = (*IEEE_MODES, "approx")


@tile_op
class RsqrtOp(_FtzUnaryOp):
    """Reciprocal square root `1 / sqrt(x)` of each element.

    ```mlir
    %r = rsqrt %x : tile<8xf32>
    ```
    """

    name = "cuda_tile.rsqrt"


class _PowOp(CudaTileOp):
    """`pow` (13.1-13.3) and `fpowf` (its 13.5 name): the same fields, syntax and opcode.
    `fpowi` has the fields too, with an integer exponent: its own syntax and type rules."""

    source = operand_def()
    exponent = operand_def()
    result = result_def()
    TILE_FORMAT: ClassVar[str] = "$source `,` $exponent attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS: ClassVar[dict[str, C.TypeConstraint]] = {
        "source": C.FLOAT_TILE,
        "exponent": C.FLOAT_TILE,
        "result": C.FLOAT_TILE,
    }
    TYPE_RULES: ClassVar[tuple[C.TypeRule, ...]] = (
        C.AllTypesMatch("result", "source", "exponent"),
        RanksMatch(("source", "exponent", "result")),
    )


@tile_op
class PowOp(_PowOp):
    """Raises each `source` element to the matching `exponent` element (Tile IR 13.5 calls
    this op `fpowf`).

    ```mlir
    %r = pow %base, %exp : tile<8xf32>
    ```
    """

    name = "cuda_tile.pow"


@tile_op
class FPowFOp(_PowOp):
    """Raises each `source` element to the matching float `exponent` element; `fpowf` is the
    13.5 name of `pow` (the same op and opcode: tileirdisasm 13.5 prints every `pow` so).

    ```mlir
    %r = fpowf %base, %exp : tile<8xf32>
    ```
    """

    name = "cuda_tile.fpowf"
    SINCE = "13.1"


POWI_EXPONENT = C.tile_of(builtin.i1, builtin.i8, builtin.i16, builtin.i32)


@tile_op
class FPowIOp(_PowOp):
    """Raises each float `source` element to the matching integer `exponent` element (13.4):
    repeated multiplication rather than `pow`'s exp/log, exact for small powers, and defined
    for a negative base.

    ```mlir
    %r = fpowi %base, %n : tile<8xf32>, tile<8xi32>
    ```
    """

    name = "cuda_tile.fpowi"
    SINCE = "13.4"
    TILE_FORMAT = (
        "$source `,` $exponent attr-dict `:` custom<CudaTileType>(type($source)) `,` custom<CudaTileType>(type($exponent))"
    )
    TYPE_CONSTRAINTS = {"source": C.FLOAT_TILE, "exponent": POWI_EXPONENT, "result": C.FLOAT_TILE}
    TYPE_RULES = (C.AllTypesMatch("result", "source"), C.SameShape("source", "exponent"))


@tile_op
class Atan2Op(CudaTileOp):
    """Four-quadrant arc tangent of `x / y` per element; the signs pick the quadrant.

    ```mlir
    %r = atan2 %x, %y : tile<8xf32>
    ```
    """

    name = "cuda_tile.atan2"
    x = operand_def()
    y = operand_def()
    result = result_def()
    SINCE = "13.2"
    TILE_FORMAT = "$x `,` $y attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS = {"x": C.FLOAT_TILE, "y": C.FLOAT_TILE, "result": C.FLOAT_TILE}
    TYPE_RULES = (C.AllTypesMatch("x", "y", "result"),)


OPS: list[type[Operation]] = module_ops(globals())
