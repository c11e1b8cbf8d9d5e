"""The tile-lsp compiler: front end, dialects and (later) the lowering pipeline.

Editor-agnostic: nothing here imports pygls/lsprotocol or does I/O on its own.
"""
