"""nvgpu -> nvvm (stage 4): cp.async (device_async_copy, device_async_create_group, device_async_wait)."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    i32,
)
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.nvgpu_nvvm_core import (
    NvgpuPattern,
    binop,
    const,
    element_ptr,
    insert_op,
    lower_to,
    replace_results,
    to_int,
)
from tile_lsp.compiler.lowering.types import (
    llvm_ptr,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na
from tile_lsp.compiler.mlir.dialects.llvm_ext import (
    AddrSpaceCastOp,
)

# ----------------------------------------------------------------------------------------------
# cp.async (SM80)
# ----------------------------------------------------------------------------------------------


class DeviceAsyncCopyPattern(NvgpuPattern[ng.DeviceAsyncCopyOp]):
    def rewrite(self, op: ng.DeviceAsyncCopyOp, rewriter: PatternRewriter) -> bool:
        dst_t = op.dst.type
        assert isinstance(dst_t, MemRefType)
        dst = element_ptr(rewriter, self.lctx, op, op.dst, op.dstIndices)
        src = element_ptr(rewriter, self.lctx, op, op.src, op.srcIndices)
        if dst is None or src is None:
            return False
        if src.type != llvm_ptr(ng.GLOBAL_AS):
            src = insert_op(rewriter, AddrSpaceCastOp(src, llvm_ptr(ng.GLOBAL_AS))).results[0]
        width = ng.bitwidth(dst_t.element_type)
        size = op.dstElements.value.data * width // 8
        modifier = "cg" if op.bypassL1 is not None and size == 16 else "ca"
        operands = [dst, src]
        if op.srcElements is not None:
            count = to_int(rewriter, op.srcElements)
            bits = binop(rewriter, llvm.MulOp, const(rewriter, width, i32), count)
            operands.append(binop(rewriter, llvm.LShrOp, bits, const(rewriter, 3, i32)))
        props = {"size": IntegerAttr(size, i32), "modifier": na.LoadCacheModifierAttr.of(modifier)}
        insert_op(
            rewriter,
            na.CpAsyncSharedGlobalOp.build(operands=[operands[0], operands[1], operands[2:]], properties=props),
        )
        replace_results(rewriter, op, [const(rewriter, 0, i32)])
        return True


class DeviceAsyncCreateGroupPattern(NvgpuPattern[ng.DeviceAsyncCreateGroupOp]):
    def rewrite(self, op: ng.DeviceAsyncCreateGroupOp, rewriter: PatternRewriter) -> bool:
        insert_op(rewriter, na.CpAsyncCommitGroupOp.create())
        replace_results(rewriter, op, [const(rewriter, 0, i32)])
        return True


class DeviceAsyncWaitPattern(NvgpuPattern[ng.DeviceAsyncWaitOp]):
    def rewrite(self, op: ng.DeviceAsyncWaitOp, rewriter: PatternRewriter) -> bool:
        n = op.numGroups.value.data if op.numGroups is not None else 0
        return lower_to(rewriter, op, na.CpAsyncWaitGroupOp.create(properties={"n": IntegerAttr(n, i32)}))
