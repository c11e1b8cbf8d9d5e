"""nvgpu ops (MLIR 22): cp.async (`device_async_copy`, `device_async_create_group`, `device_async_wait`)."""

from __future__ import annotations

from typing import ClassVar

from xdsl import irdl
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    UnitAttr,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.declarative import FormattedOp, Implied
from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    IDX,
    DeviceAsyncTokenType,
    bitwidth,
    build_op,
    check_memref,
    is_shared_space,
    last_dim_unit_stride,
    mlir_type_str,
    op_error,
    operand_type_error,
    parse_attrs,
    parse_operand_list,
    print_attr_dict,
    print_operand_list,
    resolve_operands,
)

# ----------------------------------------------------------------------------------------------
# ops: cp.async (device_async_*)
# ----------------------------------------------------------------------------------------------


@irdl.irdl_op_definition
class DeviceAsyncCopyOp(irdl.IRDLOperation):
    """`nvgpu.device_async_copy %src[..], %dst[..], N (, %srcElements)? {bypassL1}? : memref to memref`."""

    name = "nvgpu.device_async_copy"
    dst = irdl.operand_def()
    dstIndices = irdl.var_operand_def()
    src = irdl.operand_def()
    srcIndices = irdl.var_operand_def()
    srcElements = irdl.opt_operand_def()
    dstElements = irdl.prop_def(IntegerAttr)
    bypassL1 = irdl.opt_prop_def(UnitAttr)
    asyncToken = irdl.result_def()
    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> DeviceAsyncCopyOp:
        src = parser.parse_unresolved_operand()
        src_idx = parse_operand_list(parser)
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        dst_idx = parse_operand_list(parser)
        parser.parse_punctuation(",")
        n = parser.parse_integer()
        src_el = []
        if parser.parse_optional_punctuation(",") is not None:
            src_el = [parser.parse_unresolved_operand()]
        attrs = parse_attrs(parser)
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_keyword("to")
        dt = parser.parse_type()
        attrs["dstElements"] = IntegerAttr(n, IndexType())
        op = build_op(
            cls,
            [
                parser.resolve_operand(dst, dt),
                resolve_operands(parser, dst_idx, IDX),
                parser.resolve_operand(src, st),
                resolve_operands(parser, src_idx, IDX),
                resolve_operands(parser, src_el, IDX),
            ],
            [DeviceAsyncTokenType()],
            attrs,
        )
        assert isinstance(op, DeviceAsyncCopyOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        print_operand_list(printer, self.srcIndices)
        printer.print_string(", ")
        printer.print_operand(self.dst)
        print_operand_list(printer, self.dstIndices)
        printer.print_string(f", {self.dstElements.value.data}")
        if self.srcElements is not None:
            printer.print_string(", ")
            printer.print_operand(self.srcElements)
        print_attr_dict(printer, self, ("dstElements", "operandSegmentSizes"))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        check_memref(self, 0, self.dst)
        check_memref(self, 1 + len(self.dstIndices), self.src)
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        if not last_dim_unit_stride(src):
            raise VerifyException("source memref most minor dim must have unit stride")
        if not last_dim_unit_stride(dst):
            raise VerifyException("destination memref most minor dim must have unit stride")
        if not is_shared_space(dst.memory_space):
            raise VerifyException(
                "destination memref must have a memory space attribute of IntegerAttr(3) or "
                "gpu::AddressSpaceAttr(Workgroup)"
            )
        if dst.element_type != src.element_type:
            raise VerifyException("source and destination must have the same element type")
        if len(src.get_shape()) != len(self.srcIndices):
            raise op_error(self, f"expected {len(src.get_shape())} source indices, got {len(self.srcIndices)}")
        if len(dst.get_shape()) != len(self.dstIndices):
            raise op_error(self, f"expected {len(dst.get_shape())} destination indices, got {len(self.dstIndices)}")
        n = self.dstElements.value.data
        width = bitwidth(dst.element_type)
        size = width * n // 8
        if size not in (4, 8, 16):
            msg = f"Requested copy elements is {n} with width {width}. But copy elements could be one of "
            if width and 32 // width > 0:
                msg += f"{32 // width}, "
            if width and 64 // width > 0:
                msg += f"{64 // width}, "
            if width and 128 // width > 0:
                msg += f"{128 // width}."
            raise VerifyException(msg)
        if self.bypassL1 is not None and size != 16:
            req = 16 * 8 // width
            raise op_error(
                self,
                f"bypassL1 does not satify alignment for '{mlir_type_str(dst)}' with destination element {n}. "
                f"Unset bypassL1, or set destination element to {req}",
            )


@irdl.irdl_op_definition
class DeviceAsyncCreateGroupOp(FormattedOp):
    name = "nvgpu.device_async_create_group"
    inputTokens = irdl.var_operand_def(Implied(DeviceAsyncTokenType()))
    asyncToken = irdl.result_def(Implied(DeviceAsyncTokenType()))
    FORMAT: ClassVar[str] = "$inputTokens attr-dict"

    def verify_(self) -> None:
        for i, tok in enumerate(self.inputTokens):
            if not isinstance(tok.type, DeviceAsyncTokenType):
                raise operand_type_error(self, i, "variadic of device async token type", tok.type)


@irdl.irdl_op_definition
class DeviceAsyncWaitOp(FormattedOp):
    name = "nvgpu.device_async_wait"
    asyncDependencies = irdl.operand_def(Implied(DeviceAsyncTokenType()))
    numGroups = irdl.opt_prop_def(IntegerAttr)
    FORMAT: ClassVar[str] = "$asyncDependencies attr-dict"

    def verify_(self) -> None:
        if not isinstance(self.asyncDependencies.type, DeviceAsyncTokenType):
            raise operand_type_error(self, 0, "device async token type", self.asyncDependencies.type)
