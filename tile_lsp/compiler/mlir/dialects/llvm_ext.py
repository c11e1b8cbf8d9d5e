"""The llvm dialect: xDSL's ops plus those GPU code needs (atomics, fences, casts, poison,
intrinsics, switch), and MLIR 22's syntax for inline_asm / load / store where xDSL differs.

Every op here parses the form upstream `mlir-opt` 22 prints and prints a form it accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParamAttrConstraint,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoMemoryEffect, Pure

from tile_lsp.compiler.mlir.dialects import llvm_debug
from tile_lsp.compiler.mlir.dialects.llvm_intrinsics import EXTRA_INTRINSICS, IMM_FLAGS, AssumeOp
from tile_lsp.compiler.mlir.dialects.llvm_memory import (
    GEP_INBOUNDS,
    GEP_INBOUNDS_FLAG,
    GEP_NUSW,
    GEP_NUW,
    AtomicRMWOp,
    CmpXchgOp,
    FenceOp,
    GEPOp,
    LoadOp,
    StoreOp,
    gep_flag_words,
)
from tile_lsp.compiler.mlir.dialects.llvm_syntax import (
    ASM_DIALECTS,
    ATOMIC_BIN_OPS,
    ORDERING_NAMES,
    ORDERINGS,
    print_attr_dict,
    print_flags,
    take_props,
    unit,
)

# ---------------------------------------------------------------------------------------
# casts, vectors, constants


@irdl_op_definition
class AddrSpaceCastOp(x.GenericCastOp):
    """`%g = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr`"""

    name = "llvm.addrspacecast"


@irdl_op_definition
class FPToSIOp(x.GenericCastOp):
    """`%i = llvm.fptosi %f : f32 to i32`"""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(x.GenericCastOp):
    """`%i = llvm.fptoui %f : f32 to i32`"""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(IRDLOperation):
    """`%f = llvm.uitofp [nneg] %i : i32 to f32`"""

    name = "llvm.uitofp"

    arg = operand_def()
    result = result_def()
    nonNeg = opt_prop_def(UnitAttr)

    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "(`nneg` $nonNeg^)? $arg attr-dict `:` type($arg) `to` type($result)"

    def __init__(self, val: SSAValue | Operation, res_type: Attribute) -> None:
        super().__init__(operands=[val], result_types=[res_type])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`%e = llvm.extractelement %v[%i : i32] : vector<4xf32>`"""

    name = "llvm.extractelement"

    T: ClassVar = VarConstraint("T", AnyAttr())
    vector = operand_def(ParamAttrConstraint(VectorType, (T, AnyAttr(), AnyAttr())))
    position = operand_def(IntegerType)
    res = result_def(T)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)"

    def __init__(self, vector: SSAValue, position: SSAValue) -> None:
        vtype = vector.type
        assert isinstance(vtype, VectorType)
        super().__init__(operands=[vector, position], result_types=[vtype.element_type])


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`%p = llvm.mlir.poison : f32`"""

    name = "llvm.mlir.poison"

    res = result_def()
    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, res_type: Attribute) -> None:
        super().__init__(result_types=[res_type])


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """`%f = llvm.freeze %v : i32`"""

    name = "llvm.freeze"

    T: ClassVar = VarConstraint("T", AnyAttr())
    val = operand_def(T)
    res = result_def(T)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$val attr-dict `:` type($val)"

    def __init__(self, val: SSAValue) -> None:
        super().__init__(operands=[val], result_types=[val.type])


# ---------------------------------------------------------------------------------------
# inline assembly (MLIR 22 keyword order; attr-dict before the strings)


@irdl_op_definition
class InlineAsmOp(IRDLOperation):
    """Inline PTX.

    ```mlir
    %r = llvm.inline_asm has_side_effects asm_dialect = att "mov.u32 $0, %laneid;", "=r" : () -> i32
    ```
    """

    name = "llvm.inline_asm"

    operands_ = var_operand_def()
    res = opt_result_def()

    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    asm_dialect = opt_prop_def(IntegerAttr[I64])
    has_side_effects = opt_prop_def(UnitAttr)
    is_align_stack = opt_prop_def(UnitAttr)
    tail_call_kind = opt_prop_def(x.TailCallKindAttr)
    operand_attrs = opt_prop_def(ArrayAttr)

    def __init__(
        self,
        asm_string: str,
        constraints: str,
        operands: Sequence[SSAValue | Operation],
        res_types: Sequence[Attribute] | None = None,
        asm_dialect: int | None = None,
        has_side_effects: bool = False,
        is_align_stack: bool = False,
        tail_call_kind: x.TailCallKindAttr | None = None,
    ) -> None:
        super().__init__(
            operands=[operands],
            result_types=[list(res_types or [])],
            properties={
                "asm_string": StringAttr(asm_string),
                "constraints": StringAttr(constraints),
                "asm_dialect": IntegerAttr(asm_dialect, i64) if asm_dialect is not None else None,
                "has_side_effects": unit(has_side_effects),
                "is_align_stack": unit(is_align_stack),
                "tail_call_kind": tail_call_kind,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> InlineAsmOp:
        side_effects = parser.parse_optional_keyword("has_side_effects") is not None
        align_stack = parser.parse_optional_keyword("is_align_stack") is not None
        tail: x.TailCallKindAttr | None = None
        if parser.parse_optional_keyword("tail_call_kind") is not None:
            parser.parse_punctuation("=")
            parser.parse_punctuation("<")
            tail = x.TailCallKindAttr(parser.parse_str_enum(x.TailCallKind))
            parser.parse_punctuation(">")
        dialect: int | None = None
        if parser.parse_optional_keyword("asm_dialect") is not None:
            parser.parse_punctuation("=")
            name = parser.parse_identifier()
            if name not in ASM_DIALECTS:
                parser.raise_error("expected one of 'att', 'intel' after 'asm_dialect ='")
            dialect = ASM_DIALECTS.index(name)
        operand_attrs: Attribute | None = None
        if parser.parse_optional_keyword("operand_attrs") is not None:
            parser.parse_punctuation("=")
            operand_attrs = parser.parse_attribute()
        attrs = dict(parser.parse_optional_attr_dict())
        asm = parser.parse_str_literal()
        parser.parse_punctuation(",")
        constraints = parser.parse_str_literal()
        pos = parser.pos
        unresolved: list[UnresolvedOperand] = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        op = cls(
            asm,
            constraints,
            parser.resolve_operands(unresolved, ftype.inputs.data, pos),
            ftype.outputs.data,
            dialect,
            side_effects,
            align_stack,
            tail,
        )
        if operand_attrs is not None:
            op.properties["operand_attrs"] = operand_attrs
        take_props(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_flags(printer, self, ("has_side_effects", "has_side_effects"), ("is_align_stack", "is_align_stack"))
        if self.tail_call_kind is not None and self.tail_call_kind.data != x.TailCallKind.NONE:
            printer.print_string(f" tail_call_kind = <{self.tail_call_kind.data.value}>")
        if self.asm_dialect is not None:
            printer.print_string(f" asm_dialect = {ASM_DIALECTS[self.asm_dialect.value.data]}")
        if self.operand_attrs is not None:
            printer.print_string(" operand_attrs = ")
            printer.print_attribute(self.operand_attrs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_string_literal(self.asm_string.data)
        printer.print_string(", ")
        printer.print_string_literal(self.constraints.data)
        if self.operands_:
            printer.print_string(" ")
            printer.print_list(self.operands_, printer.print_operand)
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in self.operands_], [self.res.type] if self.res else [])


# ---------------------------------------------------------------------------------------
# control flow


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """A multi-way branch.

    ```mlir
    llvm.switch %v : i32, ^default [
      0: ^bb1,
      1: ^bb2(%x : i32)
    ]
    ```
    """

    name = "llvm.switch"

    value = operand_def(IntegerType)
    defaultOperands = var_operand_def()
    caseOperands = var_operand_def()
    case_values = opt_prop_def(DenseIntOrFPElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))
    branch_weights = opt_prop_def(DenseArrayBase.constr(i32))

    defaultDestination = successor_def()
    caseDestinations = var_successor_def()

    traits = traits_def(IsTerminator(), Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        value: SSAValue,
        default: Block,
        default_operands: Sequence[SSAValue],
        cases: Sequence[tuple[int, Block, Sequence[SSAValue]]],
    ) -> None:
        vtype = value.type
        assert isinstance(vtype, IntegerType)
        flat = [v for _, _, ops in cases for v in ops]
        props: dict[str, Attribute] = {
            "case_operand_segments": DenseArrayBase.from_list(i32, [len(ops) for _, _, ops in cases]),
        }
        if cases:
            props["case_values"] = DenseIntOrFPElementsAttr.from_list(
                VectorType(vtype, [len(cases)]), [c for c, _, _ in cases]
            )
        super().__init__(
            operands=[value, list(default_operands), flat],
            properties=props,
            successors=[default, [b for _, b, _ in cases]],
        )

    def cases(self) -> list[tuple[int, Block, list[SSAValue]]]:
        """(value, destination, operands) per case."""
        values: list[int] = []
        if self.case_values is not None:
            values = [int(v) for v in self.case_values.get_values()]
        sizes = self.case_operand_segments.get_values()
        out: list[tuple[int, Block, list[SSAValue]]] = []
        at = 0
        for value, dest, size in zip(values, self.caseDestinations, sizes, strict=False):
            out.append((value, dest, list(self.caseOperands[at : at + size])))
            at += size
        return out

    @staticmethod
    def _parse_dest(parser: Parser) -> tuple[Block, list[SSAValue]]:
        block = parser.parse_successor()
        operands: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            operands = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        return block, operands

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        vtype = parser.parse_type()
        value = parser.resolve_operand(unresolved, vtype)
        parser.parse_punctuation(",")
        default, default_ops = cls._parse_dest(parser)
        cases: list[tuple[int, Block, Sequence[SSAValue]]] = []

        def parse_case() -> None:
            negative = parser.parse_optional_punctuation("-") is not None
            number = parser.parse_integer(allow_negative=False)
            parser.parse_punctuation(":")
            block, ops = cls._parse_dest(parser)
            cases.append((-number if negative else number, block, ops))

        parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_case)
        attrs = dict(parser.parse_optional_attr_dict())
        op = cls(value, default, default_ops, cases)
        take_props(op, attrs)
        return op

    @staticmethod
    def _print_dest(printer: Printer, block: Block, operands: Sequence[SSAValue]) -> None:
        printer.print_block_name(block)
        if operands:
            printer.print_string("(")
            printer.print_list(operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([o.type for o in operands], printer.print_attribute)
            printer.print_string(")")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        self._print_dest(printer, self.defaultDestination, list(self.defaultOperands))
        printer.print_string(" [")
        for i, (value, dest, ops) in enumerate(self.cases()):
            printer.print_string("," if i else "")
            printer.print_string(f"\n  {value}: ")
            self._print_dest(printer, dest, ops)
        printer.print_string("\n]")
        print_attr_dict(printer, self, ("branch_weights",))


# xDSL's ops we replace (same name) and the ones we add.
_OVERRIDES: list[type[IRDLOperation]] = [LoadOp, StoreOp, InlineAsmOp, GEPOp]
_ADDED: list[type[Operation]] = [
    AtomicRMWOp,
    CmpXchgOp,
    FenceOp,
    AddrSpaceCastOp,
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
    ExtractElementOp,
    PoisonOp,
    FreezeOp,
    SwitchOp,
    AssumeOp,
    *EXTRA_INTRINSICS,
    *llvm_debug.OPS,  # llvm.intr.dbg.value/declare/label (seed 001 device debug)
]


def op_classes() -> list[type[Operation]]:
    """Every llvm op class the back half knows: xDSL's, with ours replacing same-named ones."""
    by_name: dict[str, type[Operation]] = {}
    for op in (*x.LLVM.operations, *_OVERRIDES, *_ADDED):
        by_name[op.name] = op
    return list(by_name.values())


def dialect() -> Dialect:
    """xDSL's llvm dialect with the ops above added or replacing xDSL's."""
    return Dialect("llvm", op_classes(), list(x.LLVM.attributes))


__all__ = [
    "ASM_DIALECTS",
    "ATOMIC_BIN_OPS",
    "EXTRA_INTRINSICS",
    "GEP_INBOUNDS",
    "GEP_INBOUNDS_FLAG",
    "GEP_NUSW",
    "GEP_NUW",
    "IMM_FLAGS",
    "ORDERINGS",
    "ORDERING_NAMES",
    "AddrSpaceCastOp",
    "AssumeOp",
    "AtomicRMWOp",
    "CmpXchgOp",
    "ExtractElementOp",
    "FPToSIOp",
    "FPToUIOp",
    "FenceOp",
    "FreezeOp",
    "GEPOp",
    "InlineAsmOp",
    "LoadOp",
    "PoisonOp",
    "StoreOp",
    "SwitchOp",
    "UIToFPOp",
    "dialect",
    "gep_flag_words",
    "op_classes",
]
