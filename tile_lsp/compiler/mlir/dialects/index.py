"""The index dialect (xDSL 0.74 has none): MLIR 22's ops with upstream syntax.

`index.add %a, %b`, ..., `index.constant 42`, `index.bool.constant true`,
`index.cmp slt(%a, %b)`, `index.casts %x : i32 to index`, `index.castu ...`, `index.sizeof`.
The `index.cmp` predicate is the property `pred` (`CmpPredicateAttr`, `#index<cmp_predicate slt>`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import I1, IndexType, IntegerAttr, IntegerType, i1
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.str_enum import StrEnum


class CmpPredicate(StrEnum):
    EQ = "eq"
    NE = "ne"
    SLT = "slt"
    SLE = "sle"
    SGT = "sgt"
    SGE = "sge"
    ULT = "ult"
    ULE = "ule"
    UGT = "ugt"
    UGE = "uge"


CMP_PREDICATES = tuple(p.value for p in CmpPredicate)


@irdl_attr_definition
class CmpPredicateAttr(EnumAttribute[CmpPredicate], SpacedOpaqueSyntaxAttribute):
    """`#index<cmp_predicate slt>`: MLIR 22's IndexCmpPredicateAttr (bare `slt` in `index.cmp`)."""

    name = "index.cmp_predicate"


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


class _Constant(IRDLOperation):
    """Base of `index.constant 42` and `index.bool.constant true` (`attr-dict $value`)."""

    traits = traits_def(Pure())
    assembly_format = "attr-dict $value"


@irdl_op_definition
class ConstantOp(_Constant):
    """`index.constant 42`."""

    name = "index.constant"
    value = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)


@irdl_op_definition
class BoolConstantOp(_Constant):
    """`index.bool.constant true`."""

    name = "index.bool.constant"
    value = prop_def(IntegerAttr[I1])
    result = result_def(i1)


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`index.cmp slt(%a, %b)`."""

    name = "index.cmp"
    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    pred = prop_def(CmpPredicateAttr)
    result = result_def(i1)
    traits = traits_def(Pure())
    assembly_format = "$pred `(` $lhs `,` $rhs `)` attr-dict"


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
    return Dialect("index", OPS, [CmpPredicateAttr])


__all__ = ["CMP_PREDICATES", "CmpPredicateAttr", "BoolConstantOp", "CastSOp", "CastUOp", "CmpOp", "ConstantOp", "SizeOfOp", "dialect"]
