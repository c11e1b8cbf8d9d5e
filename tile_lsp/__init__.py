"""tile-lsp: an inspectable toolchain and language server for NVIDIA's CUDA Tile IR.

The compiler lives in `tile_lsp.compiler`; the CLI in `tile_lsp.cli`.
"""

__version__ = "0.1.0"
