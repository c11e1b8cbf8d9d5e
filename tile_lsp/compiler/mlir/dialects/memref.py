"""The memref dialect: xDSL's ops, with MLIR 22's custom syntax where xDSL has none.

Overrides (same op names and property names as xDSL's, so passes written against xDSL keep
working): `memref.global` (`"private" constant @g : memref<..> = dense<..> {alignment = 64 : i64}`,
`= uninitialized`, or no initializer for a declaration), `memref.cast`,
`memref.memory_space_cast`, `memref.copy`, `memref.rank`; `memref.load` and `memref.store`
verified in MLIR 22's words.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl import irdl
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryAllocEffect, MemoryReadEffect, MemoryWriteEffect, NoMemoryEffect, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.overlay import overlay
from tile_lsp.compiler.mlir.printing import attr_text

_ANY_MEMREF = irdl.base(MemRefType) | irdl.base(UnrankedMemRefType)


@irdl.irdl_op_definition
class GlobalOp(irdl.IRDLOperation):
    """`memref.global ("vis")? (constant)? @name : memref<..> (= uninitialized | = <attr>)? attr-dict`.

    No initializer = an external declaration (`initial_value` absent)."""

    name = "memref.global"

    sym_name = irdl.prop_def(SymbolNameConstraint())
    sym_visibility = irdl.opt_prop_def(StringAttr)
    type = irdl.prop_def(MemRefType)
    initial_value = irdl.opt_prop_def(irdl.base(UnitAttr) | irdl.base(DenseIntOrFPElementsAttr))
    constant = irdl.opt_prop_def(UnitAttr)
    alignment = irdl.opt_prop_def(IntegerAttr)

    traits = irdl.traits_def(SymbolOpInterface(), MemoryAllocEffect())

    def verify_(self) -> None:
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or value & (value - 1):
                raise VerifyException(f"alignment attribute value {value} is not a power of 2")

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        visibility = parser.parse_optional_str_literal()
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        props["type"] = parser.parse_type()
        if parser.parse_optional_punctuation("=") is not None:
            t = props["type"]
            if parser.parse_optional_keyword("uninitialized") is not None:
                props["initial_value"] = UnitAttr()
            elif isinstance(t, MemRefType) and parser.parse_optional_keyword("dense") is not None:
                tensor = TensorType(t.get_element_type(), t.get_shape())
                props["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(tensor)  # type: ignore[arg-type]
            else:
                props["initial_value"] = parser.parse_attribute()
        attrs = dict(parser.parse_optional_attr_dict())
        for key in ("alignment", "sym_visibility", "constant", "initial_value"):
            if key in attrs:
                props[key] = attrs.pop(key)
        op = cls.create(properties=props, attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" ")
            printer.print_attribute(self.sym_visibility)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(f" @{self.sym_name.data} : ")
        printer.print_attribute(self.type)
        if isinstance(self.initial_value, UnitAttr):
            printer.print_string(" = uninitialized")
        elif self.initial_value is not None:
            # upstream writes the initializer without its (implied) tensor type
            text = attr_text(self.initial_value)
            printer.print_string(" = " + text.rsplit(" : ", 1)[0] if text.endswith(">") else " = " + text)
        extra = dict(self.attributes)
        if self.alignment is not None:
            extra["alignment"] = self.alignment
        printer.print_op_attributes(extra)


class _Cast(irdl.IRDLOperation):
    """`memref.<cast> %m attr-dict : T to U`: a memref seen as another memref type."""

    source = irdl.operand_def(_ANY_MEMREF)
    dest = irdl.result_def(_ANY_MEMREF)
    traits = irdl.traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"


@irdl.irdl_op_definition
class CastOp(_Cast):
    name = "memref.cast"

    @staticmethod
    def get(source: object, type: MemRefType | UnrankedMemRefType) -> CastOp:
        return CastOp.build(operands=[source], result_types=[type])  # type: ignore[list-item]


@irdl.irdl_op_definition
class MemorySpaceCastOp(_Cast):
    name = "memref.memory_space_cast"


@irdl.irdl_op_definition
class CopyOp(irdl.IRDLOperation):
    name = "memref.copy"
    source = irdl.operand_def(_ANY_MEMREF)
    target = irdl.operand_def(_ANY_MEMREF)
    traits = irdl.traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$source `,` $target attr-dict `:` type($source) `to` type($target)"


@irdl.irdl_op_definition
class RankOp(irdl.IRDLOperation):
    name = "memref.rank"
    memref = irdl.operand_def(_ANY_MEMREF)
    rank = irdl.result_def(IndexType)
    traits = irdl.traits_def(NoMemoryEffect())
    assembly_format = "$memref attr-dict `:` type($memref)"


def _index_count(op: LoadOp | StoreOp, words: str) -> None:
    """MLIR 22's check of the index count (xDSL's raises a plain Exception, in other words)."""
    memref_type = op.memref.type
    if not isinstance(memref_type, MemRefType):
        raise VerifyException("expected a memreftype")
    rank = memref_type.get_num_dims()
    if rank != len(op.indices):
        raise VerifyException(f"'{op.name}' op " + words.format(rank=rank, got=len(op.indices)))


@irdl.irdl_op_definition
class LoadOp(irdl.IRDLOperation):
    """xDSL's `memref.load` (same syntax and properties), verified in MLIR 22's words."""

    name = "memref.load"
    T: ClassVar = irdl.VarConstraint("T", irdl.AnyAttr())
    nontemporal = irdl.opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    memref = irdl.operand_def(MemRefType.constr(T))
    indices = irdl.var_operand_def(IndexType())
    res = irdl.result_def(T)
    traits = irdl.traits_def(MemoryReadEffect())
    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "$memref `[` $indices `]` attr-dict `:` type($memref)"

    def verify_(self) -> None:
        _index_count(self, "incorrect number of indices for load, expected {rank} but got {got}")


@irdl.irdl_op_definition
class StoreOp(irdl.IRDLOperation):
    """xDSL's `memref.store` (same syntax and properties), verified in MLIR 22's words."""

    name = "memref.store"
    T: ClassVar = irdl.VarConstraint("T", irdl.AnyAttr())
    nontemporal = irdl.opt_prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    value = irdl.operand_def(T)
    memref = irdl.operand_def(MemRefType.constr(T))
    indices = irdl.var_operand_def(IndexType())
    traits = irdl.traits_def(MemoryWriteEffect())
    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)"

    def verify_(self) -> None:
        _index_count(self, "store index operand count not equal to memref rank")


OPS: list[type[irdl.IRDLOperation]] = [GlobalOp, CastOp, MemorySpaceCastOp, CopyOp, RankOp, LoadOp, StoreOp]


def dialect() -> Dialect:
    """xDSL's memref dialect with the ops above replacing xDSL's of the same name."""
    return overlay(xmemref.MemRef, OPS)


__all__ = ["CastOp", "CopyOp", "GlobalOp", "LoadOp", "MemorySpaceCastOp", "RankOp", "StoreOp", "dialect"]
