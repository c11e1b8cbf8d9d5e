"""nvgpu -> nvvm (stage 4): warpgroup (WGMMA) patterns: generate.descriptor, mma, mma.store,
mma.init.accumulator."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.nvgpu_nvvm_core import (
    UNSUPPORTED,
    NvgpuPattern,
    accumulator_struct,
    base_ptr,
    binop,
    const,
    extract_value,
    insert_op,
    insert_value,
    poison,
    replace_results,
    reused_const,
    to_int,
)
from tile_lsp.compiler.lowering.types import (
    cast_to,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na
from tile_lsp.compiler.mlir.dialects.llvm_ext import (
    StoreOp,
)

EXCLUDE_4_LSB = 4

# ----------------------------------------------------------------------------------------------
# WGMMA
# ----------------------------------------------------------------------------------------------

_SWIZZLE_LAYOUT = {"swizzle_128b": (128, 1), "swizzle_64b": (64, 2), "swizzle_32b": (32, 3), "none": (1, 0)}


def gmma_descriptor_bits(desc_t: ng.TensorMapDescriptorType) -> int:
    """The constant part of the GMMA shared-memory descriptor (everything but the start address)."""
    layout, swizzle = _SWIZZLE_LAYOUT[desc_t.field("swizzle")]
    size_n = desc_t.tensor.get_shape()[0]
    stride = (layout << 3) >> EXCLUDE_4_LSB
    lead = (size_n * layout) >> EXCLUDE_4_LSB
    offset = 0
    return (swizzle << 62) | (offset << 49) | (stride << 32) | (lead << 16)


class WarpgroupGenerateDescriptorPattern(NvgpuPattern[ng.WarpgroupGenerateDescriptorOp]):
    """`%bits = llvm.mlir.constant` (folded fields) `llvm.or` the 14-bit start address from `llvm.ptrtoint`."""

    def rewrite(self, op: ng.WarpgroupGenerateDescriptorOp, rewriter: PatternRewriter) -> bool:
        desc_t = op.tensorMap.type
        assert isinstance(desc_t, ng.TensorMapDescriptorType)
        base = base_ptr(rewriter, self.lctx, op, op.tensor)
        if base is None:
            return False
        bits = gmma_descriptor_bits(desc_t)
        if bits >= 1 << 63:
            bits -= 1 << 64
        folded = const(rewriter, bits)
        addr = insert_op(rewriter, llvm.PtrToIntOp(base, i64)).results[0]
        shl = binop(rewriter, llvm.ShlOp, addr, const(rewriter, 46))
        base14 = binop(rewriter, llvm.LShrOp, shl, const(rewriter, 50))
        desc = binop(rewriter, llvm.OrOp, folded, base14)
        replace_results(rewriter, op, [desc])
        return True


def _wgmma_type(t: Attribute) -> str | None:
    if isinstance(t, Float32Type) or ng.mlir_type_str(t) == "tf32":
        return "tf32"
    return {
        "f16": "f16",
        "bf16": "bf16",
        "f8E4M3FN": "e4m3",
        "f8E5M2": "e5m2",
        "i1": "b1",
        "i8": "s8",
        "ui8": "u8",
    }.get(ng.mlir_type_str(t))


def _wgmma_k(t: Attribute) -> int | None:
    name = ng.mlir_type_str(t)
    if name == "tf32" or isinstance(t, Float32Type):
        return 8
    if name in ("f16", "bf16"):
        return 16
    if name in ("f8E4M3FN", "f8E5M2", "i8", "ui8", "i16"):
        return 32
    if name == "i1":
        return 256
    return None


class WarpgroupMmaPattern(NvgpuPattern[ng.WarpgroupMmaOp]):
    """fence -> mma_async (M/64 x N/n x K/k) -> commit -> wait, in this order."""

    def rewrite(self, op: ng.WarpgroupMmaOp, rewriter: PatternRewriter) -> bool:
        ta = op.descriptorA.type
        tb = op.descriptorB.type
        tc = op.matrixC.type
        assert isinstance(ta, ng.WarpgroupMatrixDescriptorType) and isinstance(tb, ng.WarpgroupMatrixDescriptorType)
        assert isinstance(tc, ng.WarpgroupAccumulatorType)
        a, b = ta.tensor, tb.tensor
        total_m, total_k = a.get_shape()
        total_n = b.get_shape()[1]
        elem_a, elem_b = a.element_type, b.element_type
        wk = _wgmma_k(elem_a)
        type_a, type_b = _wgmma_type(elem_a), _wgmma_type(elem_b)
        type_d = (
            "f32"
            if isinstance(tc.fragmented.element_type, Float32Type)
            else ng.mlir_type_str(tc.fragmented.element_type)
        )
        if wk is None or type_a is None or type_b is None:
            return self.error(op, UNSUPPORTED.format(what=f"wgmma element type {ng.mlir_type_str(elem_a)}"))
        wm, wn = ng.WGMMA_M, total_n
        iter_m, iter_n, iter_k = total_m // wm, total_n // wn, total_k // wk
        desc_a = cast_to(rewriter, op.descriptorA, i64)
        desc_b = cast_to(rewriter, op.descriptorB, i64)
        acc_t = accumulator_struct(tc)
        assert isinstance(acc_t, llvm.LLVMStructType)
        inner_t = acc_t.types.data[0]
        acc = cast_to(rewriter, op.matrixC, acc_t)
        insert_op(rewriter, na.WgmmaFenceAlignedOp.create())
        result = poison(rewriter, acc_t)
        byte_a = max(1, ng.bitwidth(elem_a) // 8)
        byte_b = max(1, ng.bitwidth(elem_b) // 8)
        props: dict[str, Attribute] = {
            "shape": na.MMAShapeAttr.get(wm, wn, wk),
            "typeA": na.WGMMATypesAttr.get(type_a),
            "typeB": na.WGMMATypesAttr.get(type_b),
            "typeD": na.WGMMATypesAttr.get(type_d),
            "scaleD": na.WGMMAScaleOutAttr.get("one"),
            "scaleA": na.WGMMAScaleInAttr.get("one"),
            "scaleB": na.WGMMAScaleInAttr.get("one"),
            "layoutA": na.MMALayoutAttr.get("col" if op.transposeA is not None else "row"),
            "layoutB": na.MMALayoutAttr.get("row" if op.transposeB is not None else "col"),
            "satfinite": na.MMAIntOverflowAttr.get("wrapped"),
        }
        for i in range(iter_m):
            c = extract_value(rewriter, acc, i, inner_t)
            for _j in range(iter_n):
                for k in range(iter_k):
                    inc_a = ((wk * k + total_k * a.get_shape()[1] * i) * byte_a) >> EXCLUDE_4_LSB
                    inc_b = (b.get_shape()[0] * wk * k * byte_b) >> EXCLUDE_4_LSB
                    da = desc_a if not inc_a else binop(rewriter, llvm.AddOp, desc_a, const(rewriter, inc_a))
                    db = desc_b if not inc_b else binop(rewriter, llvm.AddOp, desc_b, const(rewriter, inc_b))
                    mma = na.WgmmaMmaAsyncOp.create(
                        operands=[c, da, db], result_types=[inner_t], properties=dict(props)
                    )
                    c = insert_op(rewriter, mma).results[0]
            result = insert_value(rewriter, result, c, i)
        insert_op(rewriter, na.WgmmaCommitGroupSyncAlignedOp.create())
        insert_op(rewriter, na.WgmmaWaitGroupSyncOp.create(properties={"group": IntegerAttr(op.wait_group, i64)}))
        replace_results(rewriter, op, [result])
        return True


class WarpgroupMmaStorePattern(NvgpuPattern[ng.WarpgroupMmaStoreOp]):
    """Accumulator fragments -> per-thread `llvm.store`s (row = warp*16 + lane/4 (+8), col = 2*(lane%4) + 8j)."""

    def rewrite(self, op: ng.WarpgroupMmaStoreOp, rewriter: PatternRewriter) -> bool:
        acc_type = op.matrixD.type
        dst_t = op.dstMemref.type
        assert isinstance(acc_type, ng.WarpgroupAccumulatorType) and isinstance(dst_t, MemRefType)
        base = base_ptr(rewriter, self.lctx, op, op.dstMemref)
        if base is None:
            return False
        from tile_lsp.compiler.lowering.llvm_build import make_op

        acc_t = accumulator_struct(acc_type)
        assert isinstance(acc_t, llvm.LLVMStructType)
        inner_t = acc_t.types.data[0]
        assert isinstance(inner_t, llvm.LLVMStructType)
        elem = acc_type.fragmented.element_type
        n = acc_type.fragmented.get_shape()[1]
        row_stride = dst_t.get_shape()[1] if len(dst_t.get_shape()) > 1 else 1
        acc = cast_to(rewriter, op.matrixD, acc_t)
        ptr_t = base.type
        assert isinstance(ptr_t, llvm.LLVMPointerType)
        for tile in range(len(acc_t.types.data)):
            frag = extract_value(rewriter, acc, tile, inner_t)
            # thread coordinates (re-derived per 64-row tile, as MLIR 22 does)
            tid = insert_op(rewriter, make_op("nvvm.read.ptx.sreg.tid.x", [], [i32])).results[0]
            warp = reused_const(rewriter, 32, i32)
            lane = binop(rewriter, llvm.URemOp, tid, warp)
            warp_id = binop(rewriter, llvm.UDivOp, tid, warp)
            lane4 = binop(rewriter, llvm.UDivOp, lane, reused_const(rewriter, 4, i32))
            lane4mod = binop(rewriter, llvm.URemOp, lane, reused_const(rewriter, 4, i32))
            col0 = binop(rewriter, llvm.MulOp, lane4mod, reused_const(rewriter, 2, i32))
            warp_rows = binop(rewriter, llvm.MulOp, warp_id, reused_const(rewriter, 16, i32))
            row0 = binop(rewriter, llvm.AddOp, lane4, warp_rows)
            for half in range(2):
                row = binop(rewriter, llvm.AddOp, row0, reused_const(rewriter, tile * ng.WGMMA_M + half * 8, i32))
                row_off = binop(rewriter, llvm.MulOp, to_int(rewriter, row, i64), reused_const(rewriter, row_stride))
                for j in range(n // 8):
                    col = binop(rewriter, llvm.AddOp, col0, reused_const(rewriter, j * 8, i32))
                    lin = binop(rewriter, llvm.AddOp, row_off, to_int(rewriter, col, i64))
                    for e in range(2):
                        idx = half * 2 + j * 4 + e
                        value = extract_value(rewriter, frag, idx, elem)
                        at = lin if e == 0 else binop(rewriter, llvm.AddOp, lin, reused_const(rewriter, 1))
                        gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], elem, ssa_indices=[at], result_type=ptr_t)
                        insert_op(rewriter, StoreOp(value, insert_op(rewriter, gep).results[0]))
        rewriter.erase(op)
        return True


class WarpgroupMmaInitAccumulatorPattern(NvgpuPattern[ng.WarpgroupMmaInitAccumulatorOp]):
    """Poison aggregate with every fragment element set to zero."""

    def rewrite(self, op: ng.WarpgroupMmaInitAccumulatorOp, rewriter: PatternRewriter) -> bool:
        acc_type = op.matrixC.type
        assert isinstance(acc_type, ng.WarpgroupAccumulatorType)
        acc_t = accumulator_struct(acc_type)
        assert isinstance(acc_t, llvm.LLVMStructType)
        inner_t = acc_t.types.data[0]
        assert isinstance(inner_t, llvm.LLVMStructType)
        elem = acc_type.fragmented.element_type
        zero_attr: Attribute = (
            FloatAttr(0.0, elem)  # type: ignore[arg-type]
            if isinstance(elem, (Float16Type, Float32Type, BFloat16Type, Float64Type))
            else IntegerAttr(0, cast(IntegerType, elem))
        )
        zero = insert_op(rewriter, llvm.ConstantOp(zero_attr, elem)).results[0]
        outer = poison(rewriter, acc_t)
        inners: list[SSAValue] = []
        for i in range(len(acc_t.types.data)):
            inner = extract_value(rewriter, outer, i, inner_t)
            for e in range(len(inner_t.types.data)):
                inner = insert_value(rewriter, inner, zero, e)
            inners.append(inner)
        for i, inner in enumerate(inners):
            outer = insert_value(rewriter, outer, inner, i)
        replace_results(rewriter, op, [outer])
        return True
