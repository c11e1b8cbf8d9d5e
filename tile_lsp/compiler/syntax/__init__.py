"""Textual syntax of MLIR as the cuda_tile tools write it: lexer, parser, printer.

The parser is hand-written for speed and error recovery; it builds xDSL IR.
"""
