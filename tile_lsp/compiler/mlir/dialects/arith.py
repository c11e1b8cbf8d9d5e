"""The arith dialect: xDSL's ops plus the MLIR 22 ops xDSL 0.74 lacks (`arith.remf`,
`arith.index_castui`), same syntax as upstream."""

from __future__ import annotations

from xdsl.dialects import arith as xarith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure

from tile_lsp.compiler.mlir.dialects.overlay import overlay


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


OPS: list[type[IRDLOperation]] = [RemFOp, IndexCastUIOp]


def dialect() -> Dialect:
    return overlay(xarith.Arith, OPS)


__all__ = ["IndexCastUIOp", "RemFOp", "dialect"]
