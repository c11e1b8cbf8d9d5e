"""nvgpu -> nvvm + llvm (seed 000, NVGPU table): one RewritePattern per nvgpu op.

Shapes follow the seed and MLIR 22's `-convert-nvgpu-to-nvvm` (names/operand orders of the nvvm
ops are MLIR 22's, so mlir-opt 22 accepts the result):

* mbarrier.*: `nvvm.mbarrier.*` on the barrier's `!llvm.ptr<3>` element address (MLIR 22 selects the
  shared variant by the pointer's address space; the `.shared` op names are gone). A barrier group
  that is not in shared memory is rejected with the verbatim operand-type diagnostic, never cast.
* tma.async.load/store: `nvvm.cp.async.bulk.tensor.shared.cluster.global` /
  `.global.shared.cta`, slots dst, descriptor, coordinates (i32, rank 1-5), barrier, multicast mask,
  (cache hint), predicate; optional slots are present only when the operand is (operand segments;
  the enable flags appear at the LLVM-intrinsic level, see nvvm_to_llvm_arch.py).
* tma.create.descriptor: a 128-byte (16 x i64) stack object written field by field.
* warpgroup.generate.descriptor: folded constant `llvm.or` the 14-bit `llvm.ptrtoint` base.
* warpgroup.mma: fence -> mma_async (xN) -> commit -> wait, in this order.
* ldmatrix: `nvvm.ldmatrix` + extractvalue/bitcast repack; mma.sync: `nvvm.mma.sync` + repack
  (an operand packed by `vector.insert`s, as the gpu stage packs them, gives its rows directly,
  a bitcast i32 its i32: MLIR would fold the same round trip in canonicalization);
  mma.sp.sync: `llvm.inline_asm` with MLIR's sparse template and constraints.
* device_async_*: `nvvm.cp.async.shared.global` / `commit.group` / `wait.group`.
* rcp: scalarised `nvvm.rcp.approx.ftz.f`; cvt_fptrunc: `nvvm.convert.f32x2.to.{f16x2,bf16x2}`;
  cvt_fpext: `llvm.fpext`; fma/mul.packed.f32x2: `llvm.intr.fma` / `llvm.fmul` on vector<2xf32>
  (MLIR 22's nvvm has no packed-f32x2 op; NVPTX selects fma.rn.f32x2 / mul.rn.f32x2 for them).

This module is the entry point (`nvgpu_patterns`, `PATTERNS`); the patterns live by family:
nvgpu_nvvm_core.py (type conversion, builders, `NvgpuPattern`), nvgpu_nvvm_mbarrier.py (mbarrier,
TMA), nvgpu_nvvm_warpgroup.py (WGMMA), nvgpu_nvvm_mma.py (mma.sync, mma.sp.sync, ldmatrix),
nvgpu_nvvm_async.py (cp.async), nvgpu_nvvm_arith.py (rcp, cvt, packed f32x2).
"""

from __future__ import annotations

from xdsl.pattern_rewriter import RewritePattern

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.nvgpu_nvvm_arith import (
    CvtFpExtPattern,
    CvtFpTruncPattern,
    FmaPackedPattern,
    MulPackedPattern,
    RcpPattern,
)
from tile_lsp.compiler.lowering.nvgpu_nvvm_async import (
    DeviceAsyncCopyPattern,
    DeviceAsyncCreateGroupPattern,
    DeviceAsyncWaitPattern,
)
from tile_lsp.compiler.lowering.nvgpu_nvvm_core import (
    NvgpuPattern,
    accumulator_struct,
    convert_nvgpu_type,
)
from tile_lsp.compiler.lowering.nvgpu_nvvm_mbarrier import (
    MBarrierArriveExpectTxPattern,
    MBarrierArriveNoCompletePattern,
    MBarrierArrivePattern,
    MBarrierCreatePattern,
    MBarrierInitPattern,
    MBarrierTestWaitPattern,
    MBarrierTryWaitParityPattern,
    TmaAsyncLoadPattern,
    TmaAsyncStorePattern,
    TmaCreateDescriptorPattern,
    TmaFencePattern,
    TmaPrefetchPattern,
)
from tile_lsp.compiler.lowering.nvgpu_nvvm_mma import (
    LdMatrixPattern,
    MmaSparseSyncPattern,
    MmaSyncPattern,
    sparse_mma_asm,
)
from tile_lsp.compiler.lowering.nvgpu_nvvm_warpgroup import (
    WarpgroupGenerateDescriptorPattern,
    WarpgroupMmaInitAccumulatorPattern,
    WarpgroupMmaPattern,
    WarpgroupMmaStorePattern,
    gmma_descriptor_bits,
)

PATTERNS: tuple[type[NvgpuPattern], ...] = (
    MBarrierCreatePattern,
    MBarrierInitPattern,
    MBarrierArrivePattern,
    MBarrierArriveNoCompletePattern,
    MBarrierArriveExpectTxPattern,
    MBarrierTestWaitPattern,
    MBarrierTryWaitParityPattern,
    TmaAsyncLoadPattern,
    TmaAsyncStorePattern,
    TmaCreateDescriptorPattern,
    TmaPrefetchPattern,
    TmaFencePattern,
    WarpgroupGenerateDescriptorPattern,
    WarpgroupMmaPattern,
    WarpgroupMmaStorePattern,
    WarpgroupMmaInitAccumulatorPattern,
    MmaSyncPattern,
    LdMatrixPattern,
    DeviceAsyncCopyPattern,
    DeviceAsyncCreateGroupPattern,
    DeviceAsyncWaitPattern,
    MmaSparseSyncPattern,
    RcpPattern,
    CvtFpTruncPattern,
    CvtFpExtPattern,
    FmaPackedPattern,
    MulPackedPattern,
)


def nvgpu_patterns(lctx: LoweringContext) -> list[RewritePattern]:
    """One pattern per nvgpu op (seed 000's NVGPU table)."""
    return [p(lctx) for p in PATTERNS]


__all__ = [
    "PATTERNS",
    "accumulator_struct",
    "convert_nvgpu_type",
    "gmma_descriptor_bits",
    "nvgpu_patterns",
    "sparse_mma_asm",
]
