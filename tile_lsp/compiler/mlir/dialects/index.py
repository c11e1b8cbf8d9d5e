"""The index dialect (xDSL 0.74 has none): MLIR 22's ops with upstream syntax.

`index.add %a, %b`, ..., `index.constant 42`, `index.bool.constant true`,
`index.cmp slt(%a, %b)`, `index.casts %x : i32 to index`, `index.castu ...`, `index.sizeof`.
The `index.cmp` predicate is kept as the property `pred` (a StringAttr holding the keyword).
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, StringAttr, i1
from xdsl.ir import Dialect, Operation
from xdsl.irdl import (
    IRDLOperation,
    base,
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

CMP_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


class _Binary(IRDLOperation):
    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict"


def _binary(op_name: str) -> type[IRDLOperation]:
    cls = type(f"Index_{op_name.replace('.', '_')}", (_Binary,), {"name": f"index.{op_name}"})
    return irdl_op_definition(cls)


BINARY = [_binary(n) for n in ("add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs", "rems",
                               "remu", "maxs", "maxu", "mins", "minu", "shl", "shrs", "shru", "and", "or", "xor")]


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`index.constant 42`."""

    name = "index.constant"
    value = prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attrs = dict(parser.parse_optional_attr_dict())
        value = parser.parse_integer()
        return cls.create(properties={"value": IntegerAttr(value, IndexType())}, result_types=[IndexType()],
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" {self.value.value.data}")


@irdl_op_definition
class BoolConstantOp(IRDLOperation):
    """`index.bool.constant true`."""

    name = "index.bool.constant"
    value = prop_def(IntegerAttr)
    result = result_def(i1)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> BoolConstantOp:
        attrs = dict(parser.parse_optional_attr_dict())
        value = parser.parse_boolean()
        return cls.create(properties={"value": BoolAttr(value, i1)}, result_types=[i1], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" true" if self.value.value.data else " false")


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`index.cmp slt(%a, %b)`."""

    name = "index.cmp"
    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    pred = prop_def(StringAttr)
    result = result_def(i1)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        if self.pred.data not in CMP_PREDICATES:
            raise VerifyException(f"unknown index.cmp predicate '{self.pred.data}'")

    @classmethod
    def parse(cls, parser: Parser) -> CmpOp:
        pred = parser.parse_identifier()
        parser.parse_punctuation("(")
        lhs = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        parser.parse_punctuation(",")
        rhs = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        parser.parse_punctuation(")")
        attrs = dict(parser.parse_optional_attr_dict())
        return cls.create(operands=[lhs, rhs], result_types=[i1], properties={"pred": StringAttr(pred)},
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.pred.data}(")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)


class _Cast(IRDLOperation):
    input = operand_def(base(IntegerType) | base(IndexType))
    output = result_def(base(IntegerType) | base(IndexType))
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"


@irdl_op_definition
class CastSOp(_Cast):
    name = "index.casts"


@irdl_op_definition
class CastUOp(_Cast):
    name = "index.castu"


@irdl_op_definition
class SizeOfOp(IRDLOperation):
    name = "index.sizeof"
    result = result_def(IndexType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict"


OPS: list[type[Operation]] = [*BINARY, ConstantOp, BoolConstantOp, CmpOp, CastSOp, CastUOp, SizeOfOp]


def dialect() -> Dialect:
    return Dialect("index", OPS, [])


__all__ = ["CMP_PREDICATES", "BoolConstantOp", "CastSOp", "CastUOp", "CmpOp", "ConstantOp", "SizeOfOp", "dialect"]
