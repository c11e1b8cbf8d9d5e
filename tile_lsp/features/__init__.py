"""Language features over a DocumentAnalysis: plain data in, plain data out.

No LSP types here: `tile_lsp/protocol.py` converts, `tile_lsp/facade.py` answers each request with them.
"""
