"""nvgpu ops (MLIR 22): mbarrier and TMA (`tma.async.load/store`, descriptors, prefetch, fence)
and MLIR's `verifyTmaDescriptorWithMemref`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    MemRefType,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    I1,
    I16,
    IDX,
    MAX_TMA_DIM,
    MAX_TMA_RANK,
    MBarrierGroupType,
    TensorMapDescriptorType,
    bitwidth,
    build_op,
    check_mbarrier_group,
    check_memref,
    check_tensormap,
    is_shared_space,
    mlir_type_str,
    operand_type_error,
    parse_attrs,
    parse_operand_list,
    print_attr_dict,
    print_operand_list,
    resolve_operands,
    result_type_error,
)

# ----------------------------------------------------------------------------------------------
# ops: mbarrier
# ----------------------------------------------------------------------------------------------


def _parse_barrier_ref(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    bar = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    mid = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return bar, mid


def _parse_predicate(parser: Parser) -> UnresolvedOperand | None:
    if parser.parse_optional_punctuation(",") is None:
        return None
    parser.parse_keyword("predicate")
    parser.parse_punctuation("=")
    return parser.parse_unresolved_operand()


def _print_barrier_ref(printer: Printer, bar: SSAValue, mid: SSAValue) -> None:
    printer.print_string(" ")
    printer.print_operand(bar)
    printer.print_string("[")
    printer.print_operand(mid)
    printer.print_string("]")


def _print_predicate(printer: Printer, pred: SSAValue | None) -> None:
    if pred is not None:
        printer.print_string(", predicate = ")
        printer.print_operand(pred)


class _MBarrierOp(IRDLOperation):
    """Shared verifier of the mbarrier family: the barrier operand's type constraint, verbatim."""

    BARRIER_INDEX: ClassVar[int] = 0

    def barrier_value(self) -> SSAValue:
        return self.operands[self.BARRIER_INDEX]

    def verify_(self) -> None:
        check_mbarrier_group(self, self.BARRIER_INDEX, self.barrier_value())


@irdl_op_definition
class MBarrierCreateOp(IRDLOperation):
    name = "nvgpu.mbarrier.create"
    barriers = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierCreateOp:
        attrs = parse_attrs(parser)
        parser.parse_punctuation("->")
        t = parser.parse_type()
        op = build_op(cls, [], [t], attrs)
        assert isinstance(op, MBarrierCreateOp)
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self)
        printer.print_string(" -> ")
        printer.print_attribute(self.barriers.type)

    def verify_(self) -> None:
        if not isinstance(self.barriers.type, MBarrierGroupType):
            raise result_type_error(self, 0, "mbarrier barrier type", self.barriers.type)


@irdl_op_definition
class MBarrierInitOp(_MBarrierOp):
    """`nvgpu.mbarrier.init %b[%id], %count (, predicate = %p)? : !nvgpu.mbarrier.group<..>`."""

    name = "nvgpu.mbarrier.init"
    barriers = operand_def()
    count = operand_def()
    mbarId = operand_def()
    predicate = opt_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierInitOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        count = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = build_op(
            cls,
            [
                parser.resolve_operand(bar, t),
                parser.resolve_operand(count, IDX),
                parser.resolve_operand(mid, IDX),
                [parser.resolve_operand(pred, I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, MBarrierInitOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.count)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)


@irdl_op_definition
class MBarrierTestWaitOp(_MBarrierOp):
    name = "nvgpu.mbarrier.test.wait"
    barriers = operand_def()
    token = operand_def()
    mbarId = operand_def()
    waitComplete = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierTestWaitOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        tok = parser.parse_unresolved_operand()
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation(",")
        tt = parser.parse_type()
        op = build_op(
            cls,
            [parser.resolve_operand(bar, t), parser.resolve_operand(tok, tt), parser.resolve_operand(mid, IDX)],
            [I1],
            attrs,
        )
        assert isinstance(op, MBarrierTestWaitOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.token)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(", ")
        printer.print_attribute(self.token.type)


@irdl_op_definition
class MBarrierArriveOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive"
    barriers = operand_def()
    mbarId = operand_def()
    token = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierArriveOp:
        bar, mid = _parse_barrier_ref(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        tt = parser.parse_type()
        op = build_op(cls, [parser.resolve_operand(bar, t), parser.resolve_operand(mid, IDX)], [tt], attrs)
        assert isinstance(op, MBarrierArriveOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.token.type)


@irdl_op_definition
class MBarrierArriveNoCompleteOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive.nocomplete"
    barriers = operand_def()
    mbarId = operand_def()
    count = operand_def()
    token = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierArriveNoCompleteOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        count = parser.parse_unresolved_operand()
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        tt = parser.parse_type()
        op = build_op(
            cls,
            [parser.resolve_operand(bar, t), parser.resolve_operand(mid, IDX), parser.resolve_operand(count, IDX)],
            [tt],
            attrs,
        )
        assert isinstance(op, MBarrierArriveNoCompleteOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.count)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.token.type)


@irdl_op_definition
class MBarrierArriveExpectTxOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive.expect_tx"
    barriers = operand_def()
    txcount = operand_def()
    mbarId = operand_def()
    predicate = opt_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierArriveExpectTxOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        tx = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = build_op(
            cls,
            [
                parser.resolve_operand(bar, t),
                parser.resolve_operand(tx, IDX),
                parser.resolve_operand(mid, IDX),
                [parser.resolve_operand(pred, I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, MBarrierArriveExpectTxOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.txcount)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)


@irdl_op_definition
class MBarrierTryWaitParityOp(_MBarrierOp):
    name = "nvgpu.mbarrier.try_wait.parity"
    barriers = operand_def()
    phaseParity = operand_def()
    ticks = operand_def()
    mbarId = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierTryWaitParityOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        phase = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ticks = parser.parse_unresolved_operand()
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = build_op(
            cls,
            [
                parser.resolve_operand(bar, t),
                parser.resolve_operand(phase, I1),
                parser.resolve_operand(ticks, IDX),
                parser.resolve_operand(mid, IDX),
            ],
            [],
            attrs,
        )
        assert isinstance(op, MBarrierTryWaitParityOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.phaseParity)
        printer.print_string(", ")
        printer.print_operand(self.ticks)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)


# ----------------------------------------------------------------------------------------------
# ops: TMA
# ----------------------------------------------------------------------------------------------


def verify_tma_descriptor(op: Operation, desc: TensorMapDescriptorType, memref: Attribute | None = None) -> None:
    """MLIR 22's `verifyTmaDescriptorWithMemref` (messages as mlir-opt 22 prints them)."""
    dm = desc.tensor
    if desc.field("interleave") != "none":
        raise VerifyException("Interleave options are not supported yet.")
    if not is_shared_space(dm.memory_space):
        raise VerifyException(
            "the tensor map descriptor has incorrect address space, it must be shared memory address space."
        )
    shape = dm.get_shape()
    if any(d < 0 for d in shape):
        raise VerifyException("the tensor map descriptor must be static shaped")
    for d in shape:
        if d <= 0 or d > MAX_TMA_DIM:
            raise VerifyException(
                f"the tensor map descriptor must have dimensions between 1 and {MAX_TMA_DIM} but it is {d}"
            )
    swizzle = desc.field("swizzle")
    if len(shape) > 1 and swizzle != "none":
        last = bitwidth(dm.element_type) * shape[-1] // 8
        want = {"swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}[swizzle]
        if last != want:
            raise VerifyException(
                f"the tensormap descriptor must have last dimension of {want} bytes but it is {last} bytes"
            )
    if memref is None:
        return
    if not isinstance(memref, MemRefType):
        return
    if dm.element_type != memref.element_type:
        raise VerifyException("the element type of tensor map descriptor and memref must be same")
    if not is_shared_space(memref.memory_space):
        raise VerifyException(
            "the destination memref has incorrect address space, it must be shared memory address space."
        )
    if any(d < 0 for d in memref.get_shape()):
        raise VerifyException("the destination memref must be static shaped")
    if len(memref.get_shape()) != len(shape):
        raise VerifyException("the shape of tensor map descriptor and memref must have same rank")
    if tuple(memref.get_shape()) != tuple(shape):
        raise VerifyException(
            f"memref and tensor map shapes mismatch '{mlir_type_str(dm)}' != '{mlir_type_str(memref)}'"
        )


def _verify_coords(op: Operation, coords: Sequence[SSAValue], desc: TensorMapDescriptorType) -> None:
    if len(coords) > MAX_TMA_RANK:
        raise VerifyException(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
    if len(coords) != len(desc.tensor.get_shape()):
        raise VerifyException("number of coordinates do not match with the rank of tensor descriptor map.")


@irdl_op_definition
class TmaAsyncLoadOp(IRDLOperation):
    """`nvgpu.tma.async.load %desc[%c..], %bar[%id] to %dst (multicast_mask = %m)? (, predicate = %p)? : T, B -> M`."""

    name = "nvgpu.tma.async.load"
    dst = operand_def()
    barriers = operand_def()
    tensorMapDescriptor = operand_def()
    coordinates = var_operand_def()
    mbarId = operand_def()
    multicastMask = opt_operand_def()
    predicate = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TmaAsyncLoadOp:
        desc = parser.parse_unresolved_operand()
        coords = parse_operand_list(parser)
        parser.parse_punctuation(",")
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        mask = None
        if parser.parse_optional_keyword("multicast_mask") is not None:
            parser.parse_punctuation("=")
            mask = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        dt = parser.parse_type()
        parser.parse_punctuation(",")
        bt = parser.parse_type()
        parser.parse_punctuation("->")
        mt = parser.parse_type()
        op = build_op(
            cls,
            [
                parser.resolve_operand(dst, mt),
                parser.resolve_operand(bar, bt),
                parser.resolve_operand(desc, dt),
                resolve_operands(parser, coords, IDX),
                parser.resolve_operand(mid, IDX),
                [parser.resolve_operand(mask, I16)] if mask else [],
                [parser.resolve_operand(pred, I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, TmaAsyncLoadOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        print_operand_list(printer, self.coordinates)
        printer.print_string(",")
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        if self.multicastMask is not None:
            printer.print_string(" multicast_mask = ")
            printer.print_operand(self.multicastMask)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self, ("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.tensorMapDescriptor.type)
        printer.print_string(", ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        check_memref(self, 0, self.dst)
        check_mbarrier_group(self, 1, self.barriers)
        check_tensormap(self, 2, self.tensorMapDescriptor)
        desc = self.tensorMapDescriptor.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_tma_descriptor(self, desc, self.dst.type)
        _verify_coords(self, self.coordinates, desc)


@irdl_op_definition
class TmaAsyncStoreOp(IRDLOperation):
    """`nvgpu.tma.async.store %src to %desc[%c..] (, predicate = %p)? : M -> T`."""

    name = "nvgpu.tma.async.store"
    src = operand_def()
    tensorMapDescriptor = operand_def()
    coordinates = var_operand_def()
    predicate = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TmaAsyncStoreOp:
        src = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        desc = parser.parse_unresolved_operand()
        coords = parse_operand_list(parser)
        pred = _parse_predicate(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_punctuation("->")
        dt = parser.parse_type()
        op = build_op(
            cls,
            [
                parser.resolve_operand(src, st),
                parser.resolve_operand(desc, dt),
                resolve_operands(parser, coords, IDX),
                [parser.resolve_operand(pred, I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, TmaAsyncStoreOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(" to ")
        printer.print_operand(self.tensorMapDescriptor)
        print_operand_list(printer, self.coordinates)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self, ("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.tensorMapDescriptor.type)

    def verify_(self) -> None:
        check_memref(self, 0, self.src)
        check_tensormap(self, 1, self.tensorMapDescriptor)
        desc = self.tensorMapDescriptor.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_tma_descriptor(self, desc, self.src.type)
        _verify_coords(self, self.coordinates, desc)


@irdl_op_definition
class TmaCreateDescriptorOp(IRDLOperation):
    """`nvgpu.tma.create.descriptor %t box[%d..] : memref<*xT> -> !nvgpu.tensormap.descriptor<..>`."""

    name = "nvgpu.tma.create.descriptor"
    tensor = operand_def()
    boxDimensions = var_operand_def()
    tensorMap = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> TmaCreateDescriptorOp:
        t = parser.parse_unresolved_operand()
        parser.parse_keyword("box")
        dims = parse_operand_list(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        tt = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        op = build_op(cls, [parser.resolve_operand(t, tt), resolve_operands(parser, dims, IDX)], [rt], attrs)
        assert isinstance(op, TmaCreateDescriptorOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        printer.print_string(" box")
        print_operand_list(printer, self.boxDimensions)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.tensorMap.type)

    def verify_(self) -> None:
        if not isinstance(self.tensor.type, UnrankedMemRefType):
            raise operand_type_error(self, 0, "unranked.memref of any type values", self.tensor.type)
        if not isinstance(self.tensorMap.type, TensorMapDescriptorType):
            raise result_type_error(self, 0, "TensorMap descriptor", self.tensorMap.type)
        if len(self.boxDimensions) > MAX_TMA_RANK:
            raise VerifyException(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
        verify_tma_descriptor(self, self.tensorMap.type)


class _TmaDescOnlyOp(IRDLOperation):
    def verify_(self) -> None:
        check_tensormap(self, 0, self.operands[0])


@irdl_op_definition
class TmaPrefetchOp(_TmaDescOnlyOp):
    name = "nvgpu.tma.prefetch.descriptor"
    tensorMapDescriptor = operand_def()
    predicate = opt_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> TmaPrefetchOp:
        d = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = build_op(cls, [parser.resolve_operand(d, t), [parser.resolve_operand(pred, I1)] if pred else []], [], attrs)
        assert isinstance(op, TmaPrefetchOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        _print_predicate(printer, self.predicate)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensorMapDescriptor.type)


@irdl_op_definition
class TmaFenceOp(_TmaDescOnlyOp):
    name = "nvgpu.tma.fence.descriptor"
    tensorMapDescriptor = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> TmaFenceOp:
        d = parser.parse_unresolved_operand()
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = build_op(cls, [parser.resolve_operand(d, t)], [], attrs)
        assert isinstance(op, TmaFenceOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensorMapDescriptor.type)
