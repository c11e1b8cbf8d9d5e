"""MLIR tokenizer: one compiled regex, output as parallel arrays (kind, start, end).

Pre-tokenizing the whole text is the fastest way to lex in CPython; the parser
then walks the arrays by index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Token kinds (small ints; compared in the parser's hot loops). Each kind is also the
# number of its capture group in _TOKEN_RE, so the lexer reads it off `lastindex`.
EOF_ = 0
BARE = 1  # bare identifier / keyword: cuda_tile.addf, tile, x4xf32
VALUE = 2  # %name, %0, %name#1
BLOCK = 3  # ^bb0
SYMBOL = 4  # @name, @"name"
HASH = 5  # #dialect.attr / #alias
BANG = 6  # !dialect.type / !alias
FLOAT = 7
INT = 8
STRING = 9
PUNCT = 10  # ( ) { } [ ] < > , : = ? * + - -> :: ...
ERROR = 11  # a character no token starts with, or an unterminated string

KIND_NAMES = {
    EOF_: "end of file",
    BARE: "identifier",
    VALUE: "SSA value",
    BLOCK: "block name",
    SYMBOL: "symbol",
    HASH: "attribute",
    BANG: "type",
    INT: "integer",
    FLOAT: "float",
    STRING: "string",
    PUNCT: "punctuation",
    ERROR: "invalid character",
}

_TOKEN_RE = re.compile(
    r"""
    (?:\s+|//[^\n\r]*)*+                              # trivia, skipped (possessive: never re-lexed)
    (?:
      ([A-Za-z_][\w$.]*)                            # 1 BARE
    | (%[A-Za-z_$.\-0-9][\w$.\-]*(?:\#\d+)?)          # 2 VALUE
    | (\^[\w$.\-]+)                                  # 3 BLOCK
    | (@(?:[\w$.\-]+|"(?:[^"\\\n]|\\.)*"))            # 4 SYMBOL
    | (\#[A-Za-z_][\w$.]*)                          # 5 HASH
    | (![A-Za-z_][\w$.]*)                           # 6 BANG
    | (\d+\.\d*(?:[eE][-+]?\d+)?)                    # 7 FLOAT
    | (0x[0-9a-fA-F]+|\d+)                          # 8 INT
    | ("(?:[^"\\\n]|\\.)*")                          # 9 STRING
    | (->|::|\.\.\.|[()\[\]{}<>,:=?*+\-|])            # 10 PUNCT
    | ("[^\n]*|\S)                                  # 11 ERROR (unterminated string too)
    | \Z                                            # only trivia left
    )
    """,
    re.VERBOSE | re.DOTALL | re.ASCII,  # MLIR's identifiers, digits and spaces are ASCII
)


@dataclass(slots=True)
class Tokens:
    """The token stream of one text: parallel lists plus the text itself."""

    text: str
    kinds: list[int]
    starts: list[int]
    ends: list[int]
    texts: list[str]  # each token's spelling, so comparisons need no slicing

    def spelling(self, i: int) -> str:
        return self.texts[i]


# Significant digits an integer literal may have: far more than any integer type holds (2**128
# has 39 decimal digits), far fewer than Python's int-string conversion limit (4,300) and its
# quadratic cost.
MAX_INT_DIGITS = 100


class IntegerTooLong(ValueError):
    """An integer literal with more than MAX_INT_DIGITS significant digits."""


def int_value(tok: str) -> int:
    """Value of an INT token (or a digit string): `0x` hex, else decimal (leading zeros allowed,
    as in MLIR); IntegerTooLong past MAX_INT_DIGITS significant digits."""
    hex_ = tok.startswith(("0x", "0X"))
    digits = tok[2:] if hex_ else tok
    if len(digits) > MAX_INT_DIGITS and len(digits.lstrip("0")) > MAX_INT_DIGITS:
        raise IntegerTooLong(tok[:20] + "...")
    return int(digits, 16) if hex_ else int(digits)


def tokenize(text: str, start: int = 0, end: int | None = None) -> Tokens:
    """Tokenize text[start:end]; offsets stay relative to the whole text."""
    stop = len(text) if end is None else end
    if start == 0 and text.startswith("\ufeff"):
        start = 1  # a byte-order mark at the start of the text is not a token (textio.blank_bom)
    kinds: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    texts: list[str] = []
    pos = start
    add_kind, add_start, add_end, add_text = kinds.append, starts.append, ends.append, texts.append
    for m in _TOKEN_RE.finditer(text, start, stop):
        k = m.lastindex
        if k is None:  # only trivia left
            pos = m.end()
            break
        s, e = m.span(k)
        add_kind(k)
        add_start(s)
        add_end(e)
        add_text(m.group(k))
        pos = e
    # The EOF token sits after trailing trivia.
    kinds.append(EOF_)
    starts.append(max(pos, stop) if pos >= stop else stop)
    ends.append(stop)
    texts.append("")
    return Tokens(text, kinds, starts, ends, texts)
