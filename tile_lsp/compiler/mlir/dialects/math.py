"""The math dialect: xDSL's ops plus the MLIR 22 ops xDSL 0.74 lacks (`math.erfc`,
`math.sincos`, `math.clampf`, the fp classification ops `math.isinf` / `isnan` / `isfinite` /
`isnormal`), with upstream's syntax (`$operand (fastmath<..>)? attr-dict : type`)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import math as xmath
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import VectorType, i1
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.overlay import overlay


@irdl_op_definition
class ErfcOp(xmath.FloatingPointLikeUnaryMathOperation):
    name = "math.erfc"
    traits = traits_def(Pure())


class _FastMathOp(IRDLOperation):
    """A pure op on float-likes with MLIR's `fastmath` property (default `none`); `T` ties operand and
    result types where a subclass uses it."""

    T: ClassVar = VarConstraint("T", xmath.floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    traits = traits_def(Pure())


@irdl_op_definition
class ClampFOp(_FastMathOp):
    """`math.clampf %x to [%lo, %hi] (fastmath<..>)? : T`."""

    name = "math.clampf"
    value = operand_def(_FastMathOp.T)
    min = operand_def(_FastMathOp.T)
    max = operand_def(_FastMathOp.T)
    result = result_def(_FastMathOp.T)
    assembly_format = "$value `to` ` ` `[` $min `,` $max `]` (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


class _FPClassOp(_FastMathOp):
    """`math.isX %x attr-dict : T` -> i1 (or a vector of i1 of T's shape); fastmath in the attr-dict."""

    operand = operand_def(xmath.floatingPointLike)
    result = result_def()

    def verify_(self) -> None:
        t = self.operand.type
        expected: Attribute = VectorType(i1, t.get_shape()) if isinstance(t, VectorType) else i1
        if self.result.type != expected:
            raise VerifyException(f"'{self.name}' result must be {expected}")

    @classmethod
    def parse(cls, parser: Parser) -> _FPClassOp:
        operand = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("fastmath") is not None:
            props["fastmath"] = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attrs = dict(parser.parse_optional_attr_dict())
        if "fastmath" in attrs:
            props["fastmath"] = attrs.pop("fastmath")
        parser.parse_punctuation(":")
        t = parser.parse_type()
        result: Attribute = VectorType(i1, t.get_shape()) if isinstance(t, VectorType) else i1
        return cls.create(operands=[parser.resolve_operand(operand, t)], result_types=[result],
                          properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        extra = dict(self.attributes)
        if self.fastmath != FastMathFlagsAttr("none"):
            extra["fastmath"] = self.fastmath
        printer.print_op_attributes(extra)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)


@irdl_op_definition
class IsInfOp(_FPClassOp):
    name = "math.isinf"


@irdl_op_definition
class IsNanOp(_FPClassOp):
    name = "math.isnan"


@irdl_op_definition
class IsFiniteOp(_FPClassOp):
    name = "math.isfinite"


@irdl_op_definition
class IsNormalOp(_FPClassOp):
    name = "math.isnormal"


@irdl_op_definition
class SincosOp(_FastMathOp):
    """`%s, %c = math.sincos %x (fastmath<..>)? attr-dict : T`."""

    name = "math.sincos"
    operand = operand_def(_FastMathOp.T)
    sin = result_def(_FastMathOp.T)
    cos = result_def(_FastMathOp.T)
    assembly_format = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($operand)"


OPS: list[type[IRDLOperation]] = [ErfcOp, ClampFOp, IsInfOp, IsNanOp, IsFiniteOp, IsNormalOp, SincosOp]


def dialect() -> Dialect:
    return overlay(xmath.Math, OPS)


__all__ = ["ClampFOp", "ErfcOp", "IsFiniteOp", "IsInfOp", "IsNanOp", "IsNormalOp", "SincosOp", "dialect"]
