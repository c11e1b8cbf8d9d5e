"""Base classes of the element-wise arith and math ops: unary and binary, float and integer.

They carry the operand fields, the declarative syntax and the type rules; each concrete
op adds its name, hover documentation and any modifiers of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.ir import Attribute
from xdsl.irdl import operand_def, opt_prop_def, result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile.arith_checks import check_div_sqrt_modifiers, check_ftz, check_rounding
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import IEEE_MODES, OVERFLOW, case_of
from tile_lsp.compiler.dialects.cuda_tile.attrs import UNIT, enum
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, VerifyResult
from tile_lsp.compiler.dialects.cuda_tile.constraints import TypeConstraint, TypeRule

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.format import AttrSyntax
    from tile_lsp.compiler.verify_context import VerifyContext

UNARY_FORMAT = "$source attr-dict `:` custom<CudaTileType>(type($result))"
BINARY_FORMAT = "$lhs `,` $rhs attr-dict `:` custom<CudaTileType>(type($result))"
OVERFLOW_FORMAT = "$lhs `,` $rhs (`overflow` `` $overflow^)? attr-dict `:` custom<CudaTileType>(type($result))"
SIGNED_FORMAT = "$lhs `,` $rhs custom<Signedness>($signedness) attr-dict `:` custom<CudaTileType>(type($result))"


def rounding_format(operands: str, directive: str) -> str:
    """`operands`, the rounding mode as custom<`directive`>, `flush_to_zero` and the result type."""
    return (
        f"{operands} custom<{directive}>($rounding_mode) (`flush_to_zero` $flush_to_zero^)? "
        "attr-dict `:` custom<CudaTileType>(type($result))"
    )


IEEE_FORMAT = rounding_format("$lhs `,` $rhs", "IEEERoundingMode")

NO_OVERFLOW = enum("overflow", "none")


def same_tiles(constraint: TypeConstraint, *names: str) -> dict[str, TypeConstraint]:
    """`constraint` on each of `names` (the operands and result of an element-wise op)."""
    return dict.fromkeys(names, constraint)


class _UnaryOp(CudaTileOp):
    """`op %x : tile<...>`: the result has the operand's type."""

    source = operand_def()
    result = result_def()
    TILE_FORMAT: ClassVar[str | None] = UNARY_FORMAT
    TYPE_RULES: ClassVar[tuple[TypeRule, ...]] = (C.AllTypesMatch("source", "result"),)


class FloatUnaryOp(_UnaryOp):
    """`op %x : tile<...xf32>` over f16/bf16/f32/f64 tiles."""

    TYPE_CONSTRAINTS: ClassVar[dict[str, TypeConstraint]] = same_tiles(C.FLOAT_TILE, "source", "result")


class IntUnaryOp(_UnaryOp):
    """`op %x : tile<...xi32>` over integer tiles."""

    TYPE_CONSTRAINTS: ClassVar[dict[str, TypeConstraint]] = same_tiles(C.INT_TILE, "source", "result")


class _BinaryOp(CudaTileOp):
    """`op %a, %b : tile<...>`: operands and result of one type."""

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    TILE_FORMAT: ClassVar[str | None] = BINARY_FORMAT
    TYPE_RULES: ClassVar[tuple[TypeRule, ...]] = (C.AllTypesMatch("lhs", "rhs", "result"),)


class FloatBinaryOp(_BinaryOp):
    """`op %a, %b : tile<...xf32>` over f16/bf16/f32/f64 tiles."""

    TYPE_CONSTRAINTS: ClassVar[dict[str, TypeConstraint]] = same_tiles(C.FLOAT_TILE, "lhs", "rhs", "result")


class IEEEFloatBinaryOp(FloatBinaryOp):
    """A float binary op with `rounding<mode>` (IEEE modes only) and `flush_to_zero`."""

    rounding_mode = opt_prop_def(Attribute)
    flush_to_zero = opt_prop_def(Attribute)
    TILE_FORMAT: ClassVar[str | None] = IEEE_FORMAT
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {"flush_to_zero": UNIT}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from check_rounding(case_of(self, "rounding_mode", "nearest_even"), IEEE_MODES)
        yield from check_ftz(self)


class ApproxRoundingOp(CudaTileOp):
    """divf and sqrt: a rounding mode among `ROUNDING_MODES` (IEEE's and f32's approximate
    ones) and `flush_to_zero`, checked by NVIDIA's shared divf/sqrt rules."""

    rounding_mode = opt_prop_def(Attribute)
    flush_to_zero = opt_prop_def(Attribute)
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {"flush_to_zero": UNIT}
    ROUNDING_MODES: ClassVar[tuple[str, ...]] = IEEE_MODES

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        mode = case_of(self, "rounding_mode", "nearest_even")
        yield from check_rounding(mode, self.ROUNDING_MODES)
        yield from check_div_sqrt_modifiers(self, mode)


class IntBinaryOp(_BinaryOp):
    """`op %a, %b : tile<...xi32>` over integer tiles."""

    TYPE_CONSTRAINTS: ClassVar[dict[str, TypeConstraint]] = same_tiles(C.INT_TILE, "lhs", "rhs", "result")


class OverflowIntBinaryOp(IntBinaryOp):
    """An integer binary op with an optional `overflow<flag>` promise (default `none`)."""

    overflow = opt_prop_def(Attribute)
    TILE_FORMAT: ClassVar[str | None] = OVERFLOW_FORMAT
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {"overflow": OVERFLOW}
    PROP_DEFAULTS: ClassVar[dict[str, Attribute]] = {"overflow": NO_OVERFLOW}


class SignedIntBinaryOp(IntBinaryOp):
    """An integer binary op whose operands are read as `signed` or `unsigned`."""

    signedness = opt_prop_def(Attribute)
    TILE_FORMAT: ClassVar[str | None] = SIGNED_FORMAT
