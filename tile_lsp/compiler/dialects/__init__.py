"""xDSL dialect definitions used by tile-lsp: cuda_tile now, lowering dialects later.

Dialects are looked up through `tile_lsp.compiler.dialects.registry`.
"""

from tile_lsp.compiler.mlir import xdsl_fast as _xdsl_fast

_xdsl_fast.install(upstream=False)  # faster op building for every stage (see xdsl_fast.py); upstream
# dialects' patches come with them (`mlir.dialects`, `lowering`): the front end does not load them
