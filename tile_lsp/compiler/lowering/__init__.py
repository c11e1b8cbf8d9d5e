"""MLIR-level lowering stages on xDSL (see ../shared/design/PIPELINE.md): gpu/nvgpu -> nvvm
(seed 000), target + debug info (seed 001), nvvm -> llvm (seed 002), intrinsic lowering
(seed 004)."""
