"""MLIR-level lowering stages on xDSL (see docs/pipeline.md): gpu/nvgpu -> nvvm
(seed 000), target + debug info (seed 001), nvvm -> llvm (seed 002), intrinsic lowering
(seed 004)."""

from tile_lsp.compiler.mlir import xdsl_fast as _xdsl_fast

_xdsl_fast.install()  # faster op building for every stage (see xdsl_fast.py)
