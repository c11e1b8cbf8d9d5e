"""The arith dialect: xDSL's ops plus the MLIR 22 ops xDSL 0.74 lacks (`arith.remf`,
`arith.index_castui`), and the integer width casts and select on vectors and tensors as MLIR 22
takes them (xDSL's take scalars only); same syntax as upstream."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, MemRefType, Signedness, TensorType, VectorType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
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


# ---------------------------------------------------------------------------------------
# the casts and select on vectors and tensors too (xDSL's take scalars only)


def _element_and_shape(t: Attribute) -> tuple[Attribute, tuple[int, ...] | None]:
    """A type's element type and its shape (None for a scalar)."""
    if isinstance(t, VectorType | TensorType | MemRefType):
        return t.element_type, tuple(t.get_shape())
    return t, None


def _int(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.SIGNLESS


def _float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def _int_or_index(t: Attribute) -> bool:
    return _int(t) or isinstance(t, IndexType)


_INT_LIKE = (_int, "signless-fixed-width-integer-like")
_FLOAT_LIKE = (_float, "floating-point-like")
_INDEX_LIKE = (_int_or_index, "signless-integer-like or memref of signless-integer")
# (the operand's element kind, the result's): a test and MLIR 22's words for it
_Kinds = tuple[tuple[Callable[[Attribute], bool], str], tuple[Callable[[Attribute], bool], str]]


class _ElementwiseCast(IRDLOperation):
    """An arith cast `%x : T to U`, T and U scalars or vectors, tensors (or, for the index
    casts, memrefs) of one shape, as MLIR 22 takes them (xDSL's take scalars only). Checked in
    MLIR's order and words: the operand's element kind, the result's, the shapes, then
    `_compatible` on the two element types."""

    input = operand_def()
    result = result_def()
    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    KINDS: ClassVar[_Kinds] = (_INT_LIKE, _INT_LIKE)

    def __init__(self, op: SSAValue | Operation, target_type: Attribute) -> None:
        super().__init__(operands=[op], result_types=[target_type])

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return True

    def verify_(self) -> None:
        prefix = f"'{self.name}' op "
        (a_elem, a_shape), (b_elem, b_shape) = (_element_and_shape(v.type) for v in (self.input, self.result))
        for kind, v, elem, (ok, words) in (("operand", self.input, a_elem, self.KINDS[0]), ("result", self.result, b_elem, self.KINDS[1])):
            if not ok(elem):
                raise VerifyException(f"{prefix}{kind} #0 must be {words}, but got '{attr_text(v.type)}'")
        if a_shape != b_shape:
            raise VerifyException(f"{prefix}requires the same shape for all operands and results")
        if not self._compatible(a_elem, b_elem):
            raise VerifyException(
                f"{prefix}operand type '{attr_text(self.input.type)}' and result type '{attr_text(self.result.type)}' are cast incompatible"
            )


class _IntWidthCast(_ElementwiseCast):
    """extsi / extui (the result wider) and trunci (narrower)."""

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        assert isinstance(a, IntegerType) and isinstance(b, IntegerType)
        return b.width.data > a.width.data if self.name != "arith.trunci" else b.width.data < a.width.data


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
class SIToFPOp(_ElementwiseCast):
    name = "arith.sitofp"
    KINDS: ClassVar[_Kinds] = (_INT_LIKE, _FLOAT_LIKE)


@irdl_op_definition
class UIToFPOp(_ElementwiseCast):
    name = "arith.uitofp"
    KINDS: ClassVar[_Kinds] = (_INT_LIKE, _FLOAT_LIKE)


@irdl_op_definition
class FPToSIOp(_ElementwiseCast):
    name = "arith.fptosi"
    KINDS: ClassVar[_Kinds] = (_FLOAT_LIKE, _INT_LIKE)


@irdl_op_definition
class FPToUIOp(_ElementwiseCast):
    name = "arith.fptoui"
    KINDS: ClassVar[_Kinds] = (_FLOAT_LIKE, _INT_LIKE)


class _IndexCast(_ElementwiseCast):
    """index_cast / index_castui: an integer to index or back (one side must be index)."""

    KINDS: ClassVar[_Kinds] = (_INDEX_LIKE, _INDEX_LIKE)

    def _compatible(self, a: Attribute, b: Attribute) -> bool:
        return isinstance(a, IndexType) != isinstance(b, IndexType)


@irdl_op_definition
class IndexCastOp(_IndexCast):
    name = "arith.index_cast"


@irdl_op_definition
class IndexCastUIOp(_IndexCast):
    """`arith.index_castui %x : T to U` (zero-extending index cast)."""

    name = "arith.index_castui"


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


OPS: list[type[IRDLOperation]] = [
    RemFOp, IndexCastOp, IndexCastUIOp, ExtSIOp, ExtUIOp, TruncIOp, SIToFPOp, UIToFPOp, FPToSIOp, FPToUIOp, SelectOp,
]


def dialect() -> Dialect:
    return overlay(xarith.Arith, OPS)


__all__ = [
    "ExtSIOp", "ExtUIOp", "FPToSIOp", "FPToUIOp", "IndexCastOp", "IndexCastUIOp", "RemFOp", "SIToFPOp", "SelectOp", "TruncIOp",
    "UIToFPOp", "dialect",
]
