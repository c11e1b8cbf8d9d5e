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
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.declarative import FormattedOp, Implied
from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    I1,
    I16,
    IDX,
    MAX_TMA_DIM,
    MAX_TMA_RANK,
    MBarrierGroupType,
    TensorMapDescriptorType,
    bitwidth,
    check_mbarrier_group,
    check_memref,
    check_tensormap,
    is_shared_space,
    mlir_type_str,
    operand_type_error,
    result_type_error,
)

# ----------------------------------------------------------------------------------------------
# ops: mbarrier
# ----------------------------------------------------------------------------------------------


_BARRIER_REF = "$barriers `[` $mbarId `]`"
_PREDICATE = "(`,` `predicate` `=` $predicate^)?"


class _MBarrierOp(FormattedOp):
    """Shared verifier of the mbarrier family: the barrier operand's type constraint, verbatim."""

    BARRIER_INDEX: ClassVar[int] = 0

    def barrier_value(self) -> SSAValue:
        return self.operands[self.BARRIER_INDEX]

    def verify_(self) -> None:
        check_mbarrier_group(self, self.BARRIER_INDEX, self.barrier_value())


@irdl_op_definition
class MBarrierCreateOp(FormattedOp):
    name = "nvgpu.mbarrier.create"
    barriers = result_def()
    FORMAT: ClassVar[str] = "attr-dict `->` type($barriers)"

    def verify_(self) -> None:
        if not isinstance(self.barriers.type, MBarrierGroupType):
            raise result_type_error(self, 0, "mbarrier barrier type", self.barriers.type)


@irdl_op_definition
class MBarrierInitOp(_MBarrierOp):
    """`nvgpu.mbarrier.init %b[%id], %count (, predicate = %p)? : !nvgpu.mbarrier.group<..>`."""

    name = "nvgpu.mbarrier.init"
    barriers = operand_def()
    count = operand_def(Implied(IDX))
    mbarId = operand_def(Implied(IDX))
    predicate = opt_operand_def(Implied(I1))
    FORMAT: ClassVar[str] = f"{_BARRIER_REF} `,` $count {_PREDICATE} attr-dict `:` type($barriers)"


@irdl_op_definition
class MBarrierTestWaitOp(_MBarrierOp):
    name = "nvgpu.mbarrier.test.wait"
    barriers = operand_def()
    token = operand_def()
    mbarId = operand_def(Implied(IDX))
    waitComplete = result_def(Implied(I1))
    FORMAT: ClassVar[str] = f"{_BARRIER_REF} `,` $token attr-dict `:` type($barriers) `,` type($token)"


@irdl_op_definition
class MBarrierArriveOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive"
    barriers = operand_def()
    mbarId = operand_def(Implied(IDX))
    token = result_def()
    FORMAT: ClassVar[str] = f"{_BARRIER_REF} attr-dict `:` type($barriers) `->` type($token)"


@irdl_op_definition
class MBarrierArriveNoCompleteOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive.nocomplete"
    barriers = operand_def()
    mbarId = operand_def(Implied(IDX))
    count = operand_def(Implied(IDX))
    token = result_def()
    FORMAT: ClassVar[str] = f"{_BARRIER_REF} `,` $count attr-dict `:` type($barriers) `->` type($token)"


@irdl_op_definition
class MBarrierArriveExpectTxOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive.expect_tx"
    barriers = operand_def()
    txcount = operand_def(Implied(IDX))
    mbarId = operand_def(Implied(IDX))
    predicate = opt_operand_def(Implied(I1))
    FORMAT: ClassVar[str] = f"{_BARRIER_REF} `,` $txcount {_PREDICATE} attr-dict `:` type($barriers)"


@irdl_op_definition
class MBarrierTryWaitParityOp(_MBarrierOp):
    name = "nvgpu.mbarrier.try_wait.parity"
    barriers = operand_def()
    phaseParity = operand_def(Implied(I1))
    ticks = operand_def(Implied(IDX))
    mbarId = operand_def(Implied(IDX))
    FORMAT: ClassVar[str] = f"{_BARRIER_REF} `,` $phaseParity `,` $ticks attr-dict `:` type($barriers)"


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


def _verify_tma_transfer(
    op: Operation, desc_index: int, desc_value: SSAValue, coords: Sequence[SSAValue], memref: SSAValue
) -> None:
    """The descriptor half shared by `tma.async.load` and `tma.async.store`: the descriptor operand's
    type constraint, `verifyTmaDescriptorWithMemref` against the memref, then the coordinate count."""
    check_tensormap(op, desc_index, desc_value)
    desc = desc_value.type
    assert isinstance(desc, TensorMapDescriptorType)
    verify_tma_descriptor(op, desc, memref.type)
    _verify_coords(op, coords, desc)


@irdl_op_definition
class TmaAsyncLoadOp(FormattedOp):
    """`nvgpu.tma.async.load %desc[%c..], %bar[%id] to %dst (multicast_mask = %m)? (, predicate = %p)? : T, B -> M`."""

    name = "nvgpu.tma.async.load"
    dst = operand_def()
    barriers = operand_def()
    tensorMapDescriptor = operand_def()
    coordinates = var_operand_def(Implied(IDX))
    mbarId = operand_def(Implied(IDX))
    multicastMask = opt_operand_def(Implied(I16))
    predicate = opt_operand_def(Implied(I1))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SKIPPED: ClassVar[tuple[str, ...]] = ("operandSegmentSizes",)
    FORMAT: ClassVar[str] = (
        f"$tensorMapDescriptor `[` $coordinates `]` `,` {_BARRIER_REF} `to` $dst"
        f" (`multicast_mask` `=` $multicastMask^)? {_PREDICATE}"
        " attr-dict `:` type($tensorMapDescriptor) `,` type($barriers) `->` type($dst)"
    )

    def verify_(self) -> None:
        check_memref(self, 0, self.dst)
        check_mbarrier_group(self, 1, self.barriers)
        _verify_tma_transfer(self, 2, self.tensorMapDescriptor, self.coordinates, self.dst)


@irdl_op_definition
class TmaAsyncStoreOp(FormattedOp):
    """`nvgpu.tma.async.store %src to %desc[%c..] (, predicate = %p)? : M -> T`."""

    name = "nvgpu.tma.async.store"
    src = operand_def()
    tensorMapDescriptor = operand_def()
    coordinates = var_operand_def(Implied(IDX))
    predicate = opt_operand_def(Implied(I1))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    SKIPPED: ClassVar[tuple[str, ...]] = ("operandSegmentSizes",)
    FORMAT: ClassVar[str] = (
        f"$src `to` $tensorMapDescriptor `[` $coordinates `]` {_PREDICATE}"
        " attr-dict `:` type($src) `->` type($tensorMapDescriptor)"
    )

    def verify_(self) -> None:
        check_memref(self, 0, self.src)
        _verify_tma_transfer(self, 1, self.tensorMapDescriptor, self.coordinates, self.src)


@irdl_op_definition
class TmaCreateDescriptorOp(FormattedOp):
    """`nvgpu.tma.create.descriptor %t box[%d..] : memref<*xT> -> !nvgpu.tensormap.descriptor<..>`."""

    name = "nvgpu.tma.create.descriptor"
    tensor = operand_def()
    boxDimensions = var_operand_def(Implied(IDX))
    tensorMap = result_def()
    FORMAT: ClassVar[str] = "$tensor `box` `[` $boxDimensions `]` attr-dict `:` type($tensor) `->` type($tensorMap)"

    def verify_(self) -> None:
        if not isinstance(self.tensor.type, UnrankedMemRefType):
            raise operand_type_error(self, 0, "unranked.memref of any type values", self.tensor.type)
        if not isinstance(self.tensorMap.type, TensorMapDescriptorType):
            raise result_type_error(self, 0, "TensorMap descriptor", self.tensorMap.type)
        if len(self.boxDimensions) > MAX_TMA_RANK:
            raise VerifyException(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
        verify_tma_descriptor(self, self.tensorMap.type)


class _TmaDescOnlyOp(FormattedOp):
    def verify_(self) -> None:
        check_tensormap(self, 0, self.operands[0])


@irdl_op_definition
class TmaPrefetchOp(_TmaDescOnlyOp):
    name = "nvgpu.tma.prefetch.descriptor"
    tensorMapDescriptor = operand_def()
    predicate = opt_operand_def(Implied(I1))
    FORMAT: ClassVar[str] = f"$tensorMapDescriptor {_PREDICATE} attr-dict `:` type($tensorMapDescriptor)"


@irdl_op_definition
class TmaFenceOp(_TmaDescOnlyOp):
    name = "nvgpu.tma.fence.descriptor"
    tensorMapDescriptor = operand_def()
    FORMAT: ClassVar[str] = "$tensorMapDescriptor attr-dict `:` type($tensorMapDescriptor)"
