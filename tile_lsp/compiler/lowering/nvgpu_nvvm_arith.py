"""nvgpu -> nvvm (stage 4): rcp, packed conversion (cvt_fptrunc, cvt_fpext) and packed f32x2
arithmetic patterns."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    VectorType,
)
from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.nvgpu_nvvm_core import (
    UNSUPPORTED,
    NvgpuPattern,
    extract_elem,
    insert_elem,
    insert_op,
    lower_to,
    poison,
    replace_results,
    rows_to_vector,
    vector_as_array,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng

# ----------------------------------------------------------------------------------------------
# rcp, packed conversion, packed f32x2 arithmetic
# ----------------------------------------------------------------------------------------------


def _map_lanes(rewriter: PatternRewriter, value: SSAValue, fn: Callable[[SSAValue], SSAValue]) -> SSAValue:
    """Apply `fn` to every f32 lane of a 1-D or 2-D vector (2-D via `!llvm.array<R x vector<C>>`)."""
    t = value.type
    assert isinstance(t, VectorType)
    shape = t.get_shape()

    def one_row(row: SSAValue, lanes: int) -> SSAValue:
        out = poison(rewriter, row.type)
        for lane in range(lanes):
            out = insert_elem(rewriter, out, fn(extract_elem(rewriter, row, lane)), lane)
        return out

    if len(shape) == 1:
        return one_row(value, shape[0])
    split = vector_as_array(rewriter, value)
    assert split is not None
    return rows_to_vector(rewriter, [one_row(r, shape[1]) for r in split[1]], t)


class RcpPattern(NvgpuPattern[ng.RcpOp]):
    def rewrite(self, op: ng.RcpOp, rewriter: PatternRewriter) -> bool:
        from tile_lsp.compiler.mlir.dialects import nvvm

        t = op.input.type
        if not isinstance(t, VectorType) or len(t.get_shape()) > 2:
            return self.error(op, UNSUPPORTED.format(what=f"rcp of {ng.mlir_type_str(t)}"))

        def rcp(x: SSAValue) -> SSAValue:
            return insert_op(rewriter, nvvm.RcpApproxFtzF32Op(x)).results[0]

        replace_results(rewriter, op, [_map_lanes(rewriter, op.input, rcp)])
        return True


class CvtFpTruncPattern(NvgpuPattern[ng.CvtFpTruncOp]):
    """vector<2xf32> -> vector<2x{f16,bf16}>: `nvvm.convert.f32x2.to.{f16x2,bf16x2}` (hi = lane 1, lo = lane 0)."""

    def rewrite(self, op: ng.CvtFpTruncOp, rewriter: PatternRewriter) -> bool:
        from tile_lsp.compiler.mlir.dialects import nvvm

        it, rt = op.input.type, op.res.type
        assert isinstance(it, VectorType) and isinstance(rt, VectorType)
        if not isinstance(it.element_type, Float32Type) or not isinstance(rt.element_type, (Float16Type, BFloat16Type)):
            return self.error(
                op, UNSUPPORTED.format(what=f"packed conversion {ng.mlir_type_str(it)} to {ng.mlir_type_str(rt)}")
            )
        lo = extract_elem(rewriter, op.input, 0)
        hi = extract_elem(rewriter, op.input, 1)
        cls = nvvm.ConvertF32x2ToF16x2Op if isinstance(rt.element_type, Float16Type) else nvvm.ConvertF32x2ToBF16x2Op
        return lower_to(rewriter, op, cls(hi, lo, rt))


class CvtFpExtPattern(NvgpuPattern[ng.CvtFpExtOp]):
    """vector<2x{f16,bf16}> -> vector<2xf32>: one `llvm.fpext` on the pair (NVPTX: two cvt.f32.f16)."""

    def rewrite(self, op: ng.CvtFpExtOp, rewriter: PatternRewriter) -> bool:
        it, rt = op.input.type, op.res.type
        assert isinstance(it, VectorType) and isinstance(rt, VectorType)
        if not isinstance(it.element_type, (Float16Type, BFloat16Type)) or not isinstance(rt.element_type, Float32Type):
            return self.error(
                op, UNSUPPORTED.format(what=f"packed conversion {ng.mlir_type_str(it)} to {ng.mlir_type_str(rt)}")
            )
        return lower_to(rewriter, op, llvm.FPExtOp(op.input, rt))


class FmaPackedPattern(NvgpuPattern[ng.FmaPackedF32x2Op]):
    def rewrite(self, op: ng.FmaPackedF32x2Op, rewriter: PatternRewriter) -> bool:
        a, b, c = op.args
        return lower_to(rewriter, op, llvm.FMAOp(a, b, c))


class MulPackedPattern(NvgpuPattern[ng.MulPackedF32x2Op]):
    def rewrite(self, op: ng.MulPackedF32x2Op, rewriter: PatternRewriter) -> bool:
        a, b = op.args
        return lower_to(rewriter, op, llvm.FMulOp(a, b))
