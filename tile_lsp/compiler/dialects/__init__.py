"""xDSL dialect definitions used by tile-lsp: cuda_tile now, lowering dialects later.

Dialects are looked up through `tile_lsp.compiler.dialects.registry`.
"""
