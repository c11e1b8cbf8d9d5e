"""Tests of the upstream lowering: the gpu/nvgpu/nvvm/llvm dialects as MLIR 22 has them, stages 4-8
(nvvm, llvm, LLVM IR, PTX, cubin), the backend and the printing of stage texts."""
