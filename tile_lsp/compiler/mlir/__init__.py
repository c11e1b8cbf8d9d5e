"""Upstream MLIR dialects (gpu, nvgpu, nvvm, llvm, arith, scf, cf, math, memref, func, vector)
on xDSL: the context, a parser that records where every op came from, and the printer
used for stage dumps that upstream `mlir-opt` 22 must accept.
"""

from tile_lsp.compiler.mlir import xdsl_fast as _xdsl_fast

_xdsl_fast.install(upstream=False)  # faster op building for every stage (see xdsl_fast.py); upstream
# dialects' patches come with them (`mlir.dialects`, `lowering`): the front end does not load them
