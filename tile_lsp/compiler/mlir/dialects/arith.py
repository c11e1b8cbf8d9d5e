"""The arith dialect: xDSL's ops plus the MLIR 22 ops xDSL 0.74 lacks (`arith.remf`,
`arith.index_castui`), and the integer width casts and select on vectors and tensors as MLIR 22
takes them (xDSL's take scalars only); same syntax as upstream."""

from __future__ import annotations

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, TensorType, VectorType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.overlay import overlay
from tile_lsp.compiler.mlir.printing import attr_text


@irdl_op_definition
class RemFOp(xarith.FloatingPointLikeBinaryOperation):
    """`arith.remf %a, %b (fastmath<..>)? : T` (C fmod semantics)."""

    name = "arith.remf"
    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui %x : T to U` (zero-extending index cast)."""

    name = "arith.index_castui"
    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"


# ---------------------------------------------------------------------------------------
# integer width casts and select on vectors and tensors too (xDSL's take scalars only)


def _element_and_shape(t: Attribute) -> tuple[Attribute, tuple[int, ...] | None]:
    """A type's element type and its shape (None for a scalar)."""
    if isinstance(t, VectorType | TensorType):
        return t.element_type, tuple(t.get_shape())
    return t, None


class _IntWidthCast(IRDLOperation):
    """`arith.extsi|extui|trunci %x : T to U`: T and U signless integers, or vectors or tensors
    of them of one shape; the result wider (ext) or narrower (trunc). Checked in MLIR 22's order
    and words: the operand's type, the result's, the shapes, then the widths."""

    input = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, op: SSAValue | Operation, target_type: Attribute) -> None:
        super().__init__(operands=[op], result_types=[target_type])

    def verify_(self) -> None:
        prefix = f"'{self.name}' op "
        (a_elem, a_shape), (b_elem, b_shape) = (_element_and_shape(v.type) for v in (self.input, self.result))
        for kind, v, elem in (("operand", self.input, a_elem), ("result", self.result, b_elem)):
            if not isinstance(elem, IntegerType) or elem.signedness.data != Signedness.SIGNLESS:
                raise VerifyException(f"{prefix}{kind} #0 must be signless-fixed-width-integer-like, but got '{attr_text(v.type)}'")
        assert isinstance(a_elem, IntegerType) and isinstance(b_elem, IntegerType)
        if a_shape != b_shape:
            raise VerifyException(f"{prefix}requires the same shape for all operands and results")
        wider = self.name != "arith.trunci"
        if not (b_elem.width.data > a_elem.width.data if wider else b_elem.width.data < a_elem.width.data):
            raise VerifyException(
                f"{prefix}operand type '{attr_text(self.input.type)}' and result type '{attr_text(self.result.type)}' are cast incompatible"
            )


@irdl_op_definition
class ExtSIOp(_IntWidthCast):
    name = "arith.extsi"


@irdl_op_definition
class ExtUIOp(_IntWidthCast):
    name = "arith.extui"


@irdl_op_definition
class TruncIOp(_IntWidthCast):
    name = "arith.trunci"


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`arith.select %c, %a, %b : T`, or `: C, T` where the condition is a vector or tensor of
    i1 of T's shape (one lane chosen per element)."""

    name = "arith.select"
    cond = operand_def()
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, cond: SSAValue | Operation, lhs: SSAValue | Operation, rhs: SSAValue | Operation) -> None:
        super().__init__(operands=[cond, lhs, rhs], result_types=[SSAValue.get(lhs).type])

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        if parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        cond_type, t = (IntegerType(1), types[0]) if len(types) == 1 else (types[0], types[1])
        op = cls(*(parser.resolve_operand(n, ty) for n, ty in zip(names, (cond_type, t, t), strict=True)))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != IntegerType(1):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        prefix = "'arith.select' op "
        elem, shape = _element_and_shape(self.cond.type)
        if elem != IntegerType(1):
            raise VerifyException(f"{prefix}operand #0 must be bool-like, but got '{attr_text(self.cond.type)}'")
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException(f"{prefix}failed to verify that all of {{true_value, false_value, result}} have same type")
        if shape is not None and shape != _element_and_shape(self.result.type)[1]:
            raise VerifyException(f"{prefix}failed to verify that condition is signless i1 or has matching shape")


OPS: list[type[IRDLOperation]] = [RemFOp, IndexCastUIOp, ExtSIOp, ExtUIOp, TruncIOp, SelectOp]


def dialect() -> Dialect:
    return overlay(xarith.Arith, OPS)


__all__ = ["ExtSIOp", "ExtUIOp", "IndexCastUIOp", "RemFOp", "SelectOp", "TruncIOp", "dialect"]
