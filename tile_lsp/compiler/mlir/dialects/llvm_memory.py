"""llvm dialect memory ops in MLIR 22 syntax: atomicrmw, cmpxchg, fence, load/store with
their atomic/volatile/invariant forms, and getelementptr with no-wrap flags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypeVar

from xdsl import irdl
from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.llvm_syntax import (
    ATOMIC_BIN_OPS,
    ORDERING_NAMES,
    ORDERINGS,
    parse_optional_syncscope,
    parse_ordering,
    print_attr_dict,
    print_flags,
    print_syncscope,
    take_props,
    unit,
)
from tile_lsp.compiler.mlir.printing import attr_text
from tile_lsp.compiler.mlir.xdsl_fast import int_attr

_OpT = TypeVar("_OpT", bound=irdl.IRDLOperation)


def _with_props(op: _OpT, attrs: dict[str, Attribute], invariant_group: bool) -> _OpT:
    """`op` given the parsed `invariant_group` keyword and the parsed attr-dict's properties."""
    if invariant_group:
        op.properties["invariantGroup"] = UnitAttr()
    take_props(op, attrs)
    return op


def _parse_trailing_types(parser: Parser, separator: Literal[",", "->"] = ",") -> tuple[dict[str, Attribute], Attribute, Attribute]:
    """`attr-dict : T1 <separator> T2`: the attribute dictionary and the two types."""
    attrs = dict(parser.parse_optional_attr_dict())
    parser.parse_punctuation(":")
    first = parser.parse_type()
    parser.parse_punctuation(separator)
    return attrs, first, parser.parse_type()


def _print_trailing_types(printer: Printer, op: irdl.IRDLOperation, reserved: Sequence[str], first: SSAValue,
                          second: Attribute, separator: str = ",") -> None:
    """`attr-dict : T1, T2` (the inherent `reserved` properties shown in the dictionary)."""
    print_attr_dict(printer, op, reserved)
    printer.print_string(" : ")
    printer.print_attribute(first.type)
    printer.print_string(f"{separator} ")
    printer.print_attribute(second)


def _parse_optional_atomic(parser: Parser) -> tuple[int, StringAttr | None]:
    """`atomic [syncscope("..")] <ordering>` of a load or store: (ordering, syncscope)."""
    if parser.parse_optional_keyword("atomic") is None:
        return 0, None
    scope = parse_optional_syncscope(parser)
    return parse_ordering(parser), scope


def _print_optional_atomic(printer: Printer, ordering: IntegerAttr, syncscope: StringAttr | None) -> None:
    if ordering.value.data:
        printer.print_string(" atomic")
        print_syncscope(printer, syncscope)
        printer.print_string(f" {ORDERING_NAMES[ordering.value.data]}")


@irdl.irdl_op_definition
class AtomicRMWOp(irdl.IRDLOperation):
    """Atomic read-modify-write; the result is the old value.

    ```mlir
    %old = llvm.atomicrmw add %ptr, %v syncscope("block") monotonic : !llvm.ptr<1>, i32
    ```
    """

    name = "llvm.atomicrmw"

    ptr = irdl.operand_def(x.LLVMPointerType)
    val = irdl.operand_def()
    res = irdl.result_def()

    bin_op = irdl.prop_def(IntegerAttr[I64])
    ordering = irdl.prop_def(IntegerAttr[I64])
    syncscope = irdl.opt_prop_def(StringAttr)
    alignment = irdl.opt_prop_def(IntegerAttr[I64])
    volatile_ = irdl.opt_prop_def(UnitAttr)

    def __init__(
        self,
        bin_op: str,
        ptr: SSAValue,
        val: SSAValue,
        ordering: str = "monotonic",
        syncscope: str | None = None,
        alignment: int | None = None,
        volatile: bool = False,
    ) -> None:
        super().__init__(
            operands=[ptr, val],
            result_types=[val.type],
            properties={
                "bin_op": IntegerAttr(ATOMIC_BIN_OPS.index(bin_op), i64),
                "ordering": IntegerAttr(ORDERINGS[ordering], i64),
                "syncscope": StringAttr(syncscope) if syncscope else None,
                "alignment": int_attr(alignment, i64) if alignment else None,
                "volatile_": unit(volatile),
            },
        )

    @property
    def bin_op_name(self) -> str:
        return ATOMIC_BIN_OPS[self.bin_op.value.data]

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        kind = parser.parse_identifier()
        if kind not in ATOMIC_BIN_OPS:
            parser.raise_error(f"expected an atomic operation ({', '.join(ATOMIC_BIN_OPS)}), got '{kind}'")
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        scope = parse_optional_syncscope(parser)
        ordering = parse_ordering(parser)
        attrs, ptr_type, val_type = _parse_trailing_types(parser)
        op = cls(
            kind,
            parser.resolve_operand(ptr, ptr_type),
            parser.resolve_operand(val, val_type),
            ORDERING_NAMES[ordering],
            scope.data if scope else None,
            volatile=volatile,
        )
        take_props(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_flags(printer, self, ("volatile_", "volatile"))
        printer.print_string(f" {self.bin_op_name} ")
        printer.print_operand(self.ptr)
        printer.print_string(", ")
        printer.print_operand(self.val)
        print_syncscope(printer, self.syncscope)
        printer.print_string(f" {ORDERING_NAMES[self.ordering.value.data]}")
        _print_trailing_types(printer, self, ("alignment",), self.ptr, self.val.type)


@irdl.irdl_op_definition
class CmpXchgOp(irdl.IRDLOperation):
    """Atomic compare-and-exchange; the result is `!llvm.struct<(T, i1)>` (old value, success).

    ```mlir
    %r = llvm.cmpxchg %ptr, %cmp, %new acq_rel monotonic : !llvm.ptr<1>, i32
    ```
    """

    name = "llvm.cmpxchg"

    ptr = irdl.operand_def(x.LLVMPointerType)
    cmp = irdl.operand_def()
    val = irdl.operand_def()
    res = irdl.result_def(x.LLVMStructType)

    success_ordering = irdl.prop_def(IntegerAttr[I64])
    failure_ordering = irdl.prop_def(IntegerAttr[I64])
    syncscope = irdl.opt_prop_def(StringAttr)
    alignment = irdl.opt_prop_def(IntegerAttr[I64])
    weak = irdl.opt_prop_def(UnitAttr)
    volatile_ = irdl.opt_prop_def(UnitAttr)

    def __init__(
        self,
        ptr: SSAValue,
        cmp: SSAValue,
        val: SSAValue,
        success: str = "acq_rel",
        failure: str = "monotonic",
        syncscope: str | None = None,
        weak: bool = False,
        volatile: bool = False,
        alignment: int | None = None,
    ) -> None:
        super().__init__(
            operands=[ptr, cmp, val],
            result_types=[x.LLVMStructType.from_type_list([val.type, IntegerType(1)])],
            properties={
                "success_ordering": IntegerAttr(ORDERINGS[success], i64),
                "failure_ordering": IntegerAttr(ORDERINGS[failure], i64),
                "syncscope": StringAttr(syncscope) if syncscope else None,
                "alignment": int_attr(alignment, i64) if alignment else None,
                "weak": unit(weak),
                "volatile_": unit(volatile),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpXchgOp:
        weak = parser.parse_optional_keyword("weak") is not None
        volatile = parser.parse_optional_keyword("volatile") is not None
        ptr = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        cmp = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        scope = parse_optional_syncscope(parser)
        success = parse_ordering(parser)
        failure = parse_ordering(parser)
        attrs, ptr_type, val_type = _parse_trailing_types(parser)
        op = cls(
            parser.resolve_operand(ptr, ptr_type),
            parser.resolve_operand(cmp, val_type),
            parser.resolve_operand(val, val_type),
            ORDERING_NAMES[success],
            ORDERING_NAMES[failure],
            scope.data if scope else None,
            weak,
            volatile,
        )
        take_props(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_flags(printer, self, ("weak", "weak"), ("volatile_", "volatile"))
        printer.print_string(" ")
        printer.print_list((self.ptr, self.cmp, self.val), printer.print_operand)
        print_syncscope(printer, self.syncscope)
        printer.print_string(f" {ORDERING_NAMES[self.success_ordering.value.data]}")
        printer.print_string(f" {ORDERING_NAMES[self.failure_ordering.value.data]}")
        _print_trailing_types(printer, self, ("alignment",), self.ptr, self.val.type)


@irdl.irdl_op_definition
class FenceOp(irdl.IRDLOperation):
    """A memory fence.

    ```mlir
    llvm.fence syncscope("block") acq_rel
    ```
    """

    name = "llvm.fence"

    ordering = irdl.prop_def(IntegerAttr[I64])
    syncscope = irdl.opt_prop_def(StringAttr)

    def __init__(self, ordering: str = "seq_cst", syncscope: str | None = None) -> None:
        super().__init__(
            properties={
                "ordering": IntegerAttr(ORDERINGS[ordering], i64),
                "syncscope": StringAttr(syncscope) if syncscope else None,
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> FenceOp:
        scope = parse_optional_syncscope(parser)
        ordering = parse_ordering(parser)
        attrs = dict(parser.parse_optional_attr_dict())
        op = cls(ORDERING_NAMES[ordering], scope.data if scope else None)
        take_props(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        print_syncscope(printer, self.syncscope)
        printer.print_string(f" {ORDERING_NAMES[self.ordering.value.data]}")
        print_attr_dict(printer, self, ())


class _Access(irdl.IRDLOperation):
    """The properties llvm.load and llvm.store share (MLIR 22's LLVM_MemAccessOpBase)."""

    alignment = irdl.opt_prop_def(IntegerAttr[I64])
    ordering = irdl.prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))
    syncscope = irdl.opt_prop_def(StringAttr)
    volatile_ = irdl.opt_prop_def(UnitAttr)
    nontemporal = irdl.opt_prop_def(UnitAttr)
    invariantGroup = irdl.opt_prop_def(UnitAttr)


@irdl.irdl_op_definition
class LoadOp(_Access):
    """A load (MLIR 22 syntax: `volatile`, `atomic [syncscope(..)] <ordering>`, `invariant`).

    ```mlir
    %v = llvm.load %p atomic syncscope("device") acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    ```
    """

    name = "llvm.load"

    ptr = irdl.operand_def(x.LLVMPointerType)
    dereferenced_value = irdl.result_def()

    invariant = irdl.opt_prop_def(UnitAttr)

    def __init__(
        self,
        ptr: SSAValue | Operation,
        result_type: Attribute,
        alignment: int | None = None,
        ordering: int = 0,
        volatile: bool = False,
        syncscope: str | None = None,
        nontemporal: bool = False,
        invariant: bool = False,
    ) -> None:
        super().__init__(
            operands=[ptr],
            result_types=[result_type],
            properties={
                "ordering": int_attr(ordering, i64),
                "alignment": int_attr(alignment, i64) if alignment else None,
                "volatile_": unit(volatile),
                "syncscope": StringAttr(syncscope) if syncscope else None,
                "nontemporal": unit(nontemporal),
                "invariant": unit(invariant),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        ptr = parser.parse_unresolved_operand()
        ordering, scope = _parse_optional_atomic(parser)
        invariant = parser.parse_optional_keyword("invariant") is not None
        invariant_group = parser.parse_optional_keyword("invariant_group") is not None
        attrs, ptr_type, result_type = _parse_trailing_types(parser, "->")
        op = cls(
            parser.resolve_operand(ptr, ptr_type),
            result_type,
            ordering=ordering,
            volatile=volatile,
            syncscope=scope.data if scope else None,
            invariant=invariant,
        )
        return _with_props(op, attrs, invariant_group)

    def print(self, printer: Printer) -> None:
        print_flags(printer, self, ("volatile_", "volatile"))
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        _print_optional_atomic(printer, self.ordering, self.syncscope)
        print_flags(printer, self, ("invariant", "invariant"), ("invariantGroup", "invariant_group"))
        _print_trailing_types(printer, self, ("alignment", "nontemporal"), self.ptr, self.dereferenced_value.type,
                              " ->")


@irdl.irdl_op_definition
class StoreOp(_Access):
    """A store (MLIR 22 syntax: `volatile`, `atomic [syncscope(..)] <ordering>`).

    ```mlir
    llvm.store %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr<1>
    ```
    """

    name = "llvm.store"

    value = irdl.operand_def()
    ptr = irdl.operand_def(x.LLVMPointerType)

    def __init__(
        self,
        value: SSAValue | Operation,
        ptr: SSAValue | Operation,
        alignment: int | None = None,
        ordering: int = 0,
        volatile: bool = False,
        nontemporal: bool = False,
        syncscope: str | None = None,
    ) -> None:
        super().__init__(
            operands=[value, ptr],
            properties={
                "ordering": int_attr(ordering, i64),
                "alignment": int_attr(alignment, i64) if alignment else None,
                "volatile_": unit(volatile),
                "nontemporal": unit(nontemporal),
                "syncscope": StringAttr(syncscope) if syncscope else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        volatile = parser.parse_optional_keyword("volatile") is not None
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ptr = parser.parse_unresolved_operand()
        ordering, scope = _parse_optional_atomic(parser)
        invariant_group = parser.parse_optional_keyword("invariant_group") is not None
        attrs, value_type, ptr_type = _parse_trailing_types(parser)
        op = cls(
            parser.resolve_operand(value, value_type),
            parser.resolve_operand(ptr, ptr_type),
            ordering=ordering,
            volatile=volatile,
            syncscope=scope.data if scope else None,
        )
        return _with_props(op, attrs, invariant_group)

    def print(self, printer: Printer) -> None:
        print_flags(printer, self, ("volatile_", "volatile"))
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(", ")
        printer.print_operand(self.ptr)
        _print_optional_atomic(printer, self.ordering, self.syncscope)
        print_flags(printer, self, ("invariantGroup", "invariant_group"))
        _print_trailing_types(printer, self, ("alignment", "nontemporal"), self.value, self.ptr.type)


# MLIR's GEPNoWrapFlags bits and the keywords the custom syntax spells them with.
GEP_INBOUNDS_FLAG, GEP_NUSW, GEP_NUW = 1, 2, 4
GEP_INBOUNDS = GEP_INBOUNDS_FLAG | GEP_NUSW


def gep_flag_words(flags: int) -> list[str]:
    """`inbounds` / `nusw` and `nuw`, as MLIR 22 prints them (`inbounds|nuw`)."""
    words = []
    if flags & GEP_INBOUNDS_FLAG:
        words.append("inbounds")
    elif flags & GEP_NUSW:
        words.append("nusw")
    if flags & GEP_NUW:
        words.append("nuw")
    return words


@irdl.irdl_op_definition
class GEPOp(irdl.IRDLOperation):
    """Address arithmetic with MLIR 22's no-wrap flags (in `noWrapFlags`, as upstream keeps them).

    ```mlir
    %p2 = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    ```
    """

    name = "llvm.getelementptr"

    ptr = irdl.operand_def(x.LLVMPointerType)
    ssa_indices = irdl.var_operand_def(IntegerType)
    elem_type = irdl.prop_def()
    noWrapFlags = irdl.prop_def(IntegerAttr, default_value=IntegerAttr(0, 32))
    rawConstantIndices = irdl.prop_def(DenseArrayBase.constr(i32))
    result = irdl.result_def(x.LLVMPointerType)

    traits = irdl.traits_def(NoMemoryEffect())

    def __init__(
        self,
        ptr: SSAValue | Operation,
        indices: Sequence[int],
        pointee_type: Attribute,
        ssa_indices: Sequence[SSAValue | Operation] | None = None,
        result_type: x.LLVMPointerType | None = None,
        inbounds: bool = False,
        no_wrap_flags: int = 0,
    ) -> None:
        flags = no_wrap_flags | (GEP_INBOUNDS if inbounds else 0)
        super().__init__(
            operands=[ptr, list(ssa_indices or [])],
            result_types=[result_type or SSAValue.get(ptr).type],
            properties={
                "rawConstantIndices": DenseArrayBase.from_list(i32, indices),
                "elem_type": pointee_type,
                "noWrapFlags": int_attr(flags, 32),
            },
        )

    @staticmethod
    def from_mixed_indices(
        ptr: SSAValue | Operation,
        indices: Sequence[int | SSAValue | Operation],
        pointee_type: Attribute,
        result_type: x.LLVMPointerType | None = None,
        inbounds: bool = False,
    ) -> GEPOp:
        """Indices as a mix of constants and SSA values (`[0, %i]`)."""
        consts = [i if isinstance(i, int) else x.GEP_USE_SSA_VAL for i in indices]
        values = [SSAValue.get(i) for i in indices if not isinstance(i, int)]
        return GEPOp(ptr, consts, pointee_type, values, result_type, inbounds)

    @property
    def no_wrap_flags(self) -> int:
        return self.noWrapFlags.value.data

    @property
    def inbounds(self) -> UnitAttr | None:
        """xDSL's spelling of the inbounds flag, for code written against xDSL's GEPOp."""
        return UnitAttr() if self.no_wrap_flags & GEP_INBOUNDS_FLAG else None

    def verify_(self) -> None:
        indices = [int(i) for i in self.rawConstantIndices.get_values()]
        dynamic = sum(1 for i in indices if i == x.GEP_USE_SSA_VAL)
        if dynamic != len(self.ssa_indices):
            raise VerifyException(f"expected {dynamic} dynamic indices, got {len(self.ssa_indices)}")
        current: Attribute = self.elem_type  # the first index only offsets the pointer
        for i, idx in enumerate(indices[1:], start=1):
            if isinstance(current, x.LLVMArrayType):
                current = current.type
            elif isinstance(current, VectorType):
                current = current.element_type
            elif isinstance(current, x.LLVMStructType):
                if idx == x.GEP_USE_SSA_VAL:
                    raise VerifyException(f"'{self.name}' op expected index {i} indexing a struct to be constant")
                if not 0 <= idx < len(current.types.data):
                    raise VerifyException(f"'{self.name}' op index {i} indexing a struct is out of bounds")
                current = current.types.data[idx]
            else:  # (mlir-opt 22's words, as the two above)
                raise VerifyException(f"'{self.name}' op type '{attr_text(current)}' cannot be indexed (index #{i})")

    @classmethod
    def parse(cls, parser: Parser) -> GEPOp:
        from xdsl.dialects.utils.dynamic_index_list import parse_dynamic_index_list_without_types

        flags = 0
        while True:
            word = (
                parser.parse_optional_keyword("inbounds")
                or parser.parse_optional_keyword("nusw")
                or parser.parse_optional_keyword("nuw")
            )
            if word is None:
                break
            flags |= {"inbounds": GEP_INBOUNDS, "nusw": GEP_NUSW, "nuw": GEP_NUW}[word]
            if parser.parse_optional_punctuation("|") is None:
                break
        ptr = parser.parse_unresolved_operand()
        ssa_refs, const_indices = parse_dynamic_index_list_without_types(parser, x.GEP_USE_SSA_VAL)
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        parser.parse_punctuation(",")
        elem_type = parser.parse_type()
        resolved = parser.resolve_operands([ptr, *ssa_refs], ftype.inputs.data, parser.pos)
        result_type = ftype.outputs.data[0]
        if not isinstance(result_type, x.LLVMPointerType):
            parser.raise_error("getelementptr must produce an !llvm.ptr")
        op = cls(resolved[0], list(const_indices), elem_type, resolved[1:], result_type, no_wrap_flags=flags)
        take_props(op, attrs)
        return op

    def print(self, printer: Printer) -> None:
        from xdsl.dialects.utils.dynamic_index_list import print_dynamic_index_list

        words = gep_flag_words(self.no_wrap_flags)
        if words:
            printer.print_string(" " + "|".join(words))
        printer.print_string(" ")
        printer.print_operand(self.ptr)
        print_dynamic_index_list(printer, x.GEP_USE_SSA_VAL, self.ssa_indices, self.rawConstantIndices.iter_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([self.ptr.type, *(v.type for v in self.ssa_indices)], [self.result.type])
        printer.print_string(", ")
        printer.print_attribute(self.elem_type)
