"""The llvm dialect's debug intrinsics (`llvm.intr.dbg.value/declare/label`) in MLIR 22 syntax;
the `#llvm.di_*` metadata they carry stays opaque (parsed and printed as written).
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer


def is_empty_expression(attr: Attribute | None) -> bool:
    """`#llvm.di_expression<>` (no operations): MLIR omits it from the custom form."""
    if attr is None:
        return True
    if isinstance(attr, builtin.UnregisteredAttr):
        return attr.attr_name.data == "llvm.di_expression" and attr.value.data.strip() in ("", "[]")
    return False


class _VariableIntrinsic(IRDLOperation):
    """Shared shape: `<op> #var [#expr] = %operand : type attr-dict`."""

    operand = operand_def()
    varInfo = prop_def(Attribute)
    locationExpr = opt_prop_def(Attribute)

    def __init__(self, operand: SSAValue, var: Attribute, expr: Attribute | None = None) -> None:
        props: dict[str, Attribute] = {"varInfo": var}
        if expr is not None and not is_empty_expression(expr):
            props["locationExpr"] = expr
        super().__init__(operands=[operand], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        var = parser.parse_attribute()
        expr = None
        if parser.parse_optional_punctuation("=") is None:
            expr = parser.parse_attribute()
            parser.parse_punctuation("=")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ty = parser.parse_type()
        attrs = parser.parse_optional_attr_dict()
        op = cls(parser.resolve_operand(operand, ty), var, expr)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.varInfo)
        if self.locationExpr is not None and not is_empty_expression(self.locationExpr):
            printer.print_string(" ")
            printer.print_attribute(self.locationExpr)
        printer.print_string(" = ")
        printer.print_operand(self.operand)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class DbgValueOp(_VariableIntrinsic):
    """The value of a source variable: `llvm.intr.dbg.value #var = %v : f32`."""

    name = "llvm.intr.dbg.value"


@irdl_op_definition
class DbgDeclareOp(_VariableIntrinsic):
    """The address of a source variable: `llvm.intr.dbg.declare #var = %p : !llvm.ptr`."""

    name = "llvm.intr.dbg.declare"


@irdl_op_definition
class DbgLabelOp(IRDLOperation):
    """A source label: `llvm.intr.dbg.label #di_label`."""

    name = "llvm.intr.dbg.label"

    label = prop_def(Attribute)
    assembly_format = "$label attr-dict"

    def __init__(self, label: Attribute) -> None:
        super().__init__(properties={"label": label})


OPS: list[type[Operation]] = [DbgValueOp, DbgDeclareOp, DbgLabelOp]
