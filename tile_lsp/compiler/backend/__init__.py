"""After MLIR: llvm dialect -> LLVM IR text (our emitter), llvmlite (libdevice link, -O,
NVPTX PTX), and ptxas."""
