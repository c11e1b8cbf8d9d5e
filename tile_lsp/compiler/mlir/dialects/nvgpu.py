"""The nvgpu dialect in MLIR 22 syntax: types, enum attributes, ops and verifiers.

Assembly formats and verifier diagnostics follow MLIR 22 (`NVGPUOps.td`, `NVGPUDialect.cpp`):
diagnostics are MLIR's own wording so `expected-error` annotations of upstream tests match.
Three ops are tile-lsp extensions the back half consumes (no upstream counterpart):
`nvgpu.cvt_fptrunc`, `nvgpu.cvt_fpext`, `nvgpu.fma.packed.f32x2`, `nvgpu.mul.packed.f32x2`.
Operand types are checked in the verifiers (not by IRDL constraints) so the messages are MLIR's.

The dialect is this module (`dialect()`, `OPS`, `ATTRS`); its parts live by family, each re-exported
here: nvgpu_types.py (constants, enums, attributes, types, shared helpers), nvgpu_mma.py (ldmatrix,
mma.sync, mma.sp.sync), nvgpu_async.py (cp.async), nvgpu_mbarrier.py (mbarrier, TMA),
nvgpu_warpgroup.py (WGMMA), nvgpu_arith.py (rcp and the extensions).
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Attribute, Dialect, Operation

from tile_lsp.compiler.mlir.dialects.nvgpu_arith import (
    CvtFpExtOp,
    CvtFpTruncOp,
    FmaPackedF32x2Op,
    MulPackedF32x2Op,
    RcpOp,
)
from tile_lsp.compiler.mlir.dialects.nvgpu_async import (
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
)
from tile_lsp.compiler.mlir.dialects.nvgpu_mbarrier import (
    MBarrierArriveExpectTxOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveOp,
    MBarrierCreateOp,
    MBarrierInitOp,
    MBarrierTestWaitOp,
    MBarrierTryWaitParityOp,
    TmaAsyncLoadOp,
    TmaAsyncStoreOp,
    TmaCreateDescriptorOp,
    TmaFenceOp,
    TmaPrefetchOp,
    verify_tma_descriptor,
)
from tile_lsp.compiler.mlir.dialects.nvgpu_mma import (
    LdMatrixOp,
    MmaSparseSyncOp,
    MmaSyncOp,
    mma_shape,
    verify_mma_sync,
)
from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    GLOBAL_AS,
    INTERLEAVE_INDEX,
    L2PROMO_INDEX,
    MAX_TMA_DIM,
    MAX_TMA_RANK,
    OOB_INDEX,
    SHARED_AS,
    SWIZZLE_INDEX,
    WARP_SIZE,
    WGMMA_M,
    DeviceAsyncTokenType,
    MBarrierGroupType,
    MBarrierTokenType,
    RcpRoundingMode,
    RcpRoundingModeAttr,
    TensorMapDescriptorType,
    TensorMapInterleaveAttr,
    TensorMapInterleaveKind,
    TensorMapL2PromoAttr,
    TensorMapL2PromoKind,
    TensorMapOOBAttr,
    TensorMapOOBKind,
    TensorMapSwizzleAttr,
    TensorMapSwizzleKind,
    WarpgroupAccumulatorType,
    WarpgroupMatrixDescriptorType,
    address_space,
    bitwidth,
    is_shared_space,
    last_dim_unit_stride,
    memref_strides,
    mlir_type_str,
)
from tile_lsp.compiler.mlir.dialects.nvgpu_warpgroup import (
    WarpgroupGenerateDescriptorOp,
    WarpgroupMmaInitAccumulatorOp,
    WarpgroupMmaOp,
    WarpgroupMmaStoreOp,
    allowed_size_n,
)

MBARRIER_OPS: tuple[type[Operation], ...] = (
    MBarrierInitOp,
    MBarrierTestWaitOp,
    MBarrierArriveOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierTryWaitParityOp,
)

OPS: list[type[Operation]] = [
    LdMatrixOp,
    MmaSyncOp,
    MmaSparseSyncOp,
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
    MBarrierCreateOp,
    *MBARRIER_OPS,
    TmaAsyncLoadOp,
    TmaAsyncStoreOp,
    TmaCreateDescriptorOp,
    TmaPrefetchOp,
    TmaFenceOp,
    WarpgroupGenerateDescriptorOp,
    WarpgroupMmaOp,
    WarpgroupMmaStoreOp,
    WarpgroupMmaInitAccumulatorOp,
    RcpOp,
    CvtFpTruncOp,
    CvtFpExtOp,
    FmaPackedF32x2Op,
    MulPackedF32x2Op,
]

ATTRS: list[type[Attribute]] = [
    DeviceAsyncTokenType,
    MBarrierTokenType,
    MBarrierGroupType,
    TensorMapDescriptorType,
    WarpgroupMatrixDescriptorType,
    WarpgroupAccumulatorType,
    TensorMapSwizzleAttr,
    TensorMapL2PromoAttr,
    TensorMapOOBAttr,
    TensorMapInterleaveAttr,
    RcpRoundingModeAttr,
]


__all__ = [
    "ATTRS",
    "CvtFpExtOp",
    "CvtFpTruncOp",
    "DeviceAsyncCopyOp",
    "DeviceAsyncCreateGroupOp",
    "DeviceAsyncTokenType",
    "DeviceAsyncWaitOp",
    "FmaPackedF32x2Op",
    "GLOBAL_AS",
    "INTERLEAVE_INDEX",
    "L2PROMO_INDEX",
    "LdMatrixOp",
    "MAX_TMA_DIM",
    "MAX_TMA_RANK",
    "MBARRIER_OPS",
    "MBarrierArriveExpectTxOp",
    "MBarrierArriveNoCompleteOp",
    "MBarrierArriveOp",
    "MBarrierCreateOp",
    "MBarrierGroupType",
    "MBarrierInitOp",
    "MBarrierTestWaitOp",
    "MBarrierTokenType",
    "MBarrierTryWaitParityOp",
    "MmaSparseSyncOp",
    "MmaSyncOp",
    "MulPackedF32x2Op",
    "OOB_INDEX",
    "OPS",
    "RcpOp",
    "RcpRoundingMode",
    "RcpRoundingModeAttr",
    "SHARED_AS",
    "SWIZZLE_INDEX",
    "TensorMapDescriptorType",
    "TensorMapInterleaveAttr",
    "TensorMapInterleaveKind",
    "TensorMapL2PromoAttr",
    "TensorMapL2PromoKind",
    "TensorMapOOBAttr",
    "TensorMapOOBKind",
    "TensorMapSwizzleAttr",
    "TensorMapSwizzleKind",
    "TmaAsyncLoadOp",
    "TmaAsyncStoreOp",
    "TmaCreateDescriptorOp",
    "TmaFenceOp",
    "TmaPrefetchOp",
    "WARP_SIZE",
    "WGMMA_M",
    "WarpgroupAccumulatorType",
    "WarpgroupGenerateDescriptorOp",
    "WarpgroupMatrixDescriptorType",
    "WarpgroupMmaInitAccumulatorOp",
    "WarpgroupMmaOp",
    "WarpgroupMmaStoreOp",
    "address_space",
    "allowed_size_n",
    "bitwidth",
    "dialect",
    "i32",
    "i64",
    "is_shared_space",
    "last_dim_unit_stride",
    "memref_strides",
    "mlir_type_str",
    "mma_shape",
    "verify_mma_sync",
    "verify_tma_descriptor",
]


def dialect() -> Dialect:
    return Dialect("nvgpu", OPS, ATTRS)
