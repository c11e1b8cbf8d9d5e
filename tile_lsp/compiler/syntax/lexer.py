"""MLIR tokenizer: one compiled regex, output as parallel arrays (kind, start, end).

Pre-tokenizing the whole text is the fastest way to lex in CPython; the parser
then walks the arrays by index.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Token kinds (small ints; compared in the parser's hot loops).
EOF_ = 0
BARE = 1  # bare identifier / keyword: cuda_tile.addf, tile, x4xf32
VALUE = 2  # %name, %0, %name#1
BLOCK = 3  # ^bb0
SYMBOL = 4  # @name, @"name"
HASH = 5  # #dialect.attr / #alias
BANG = 6  # !dialect.type / !alias
INT = 7
FLOAT = 8
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

_ID = r"[A-Za-z_$.\-0-9]"
_TOKEN_RE = re.compile(
    r"""
    (?:\s+|//[^\n]*)*                               # trivia, skipped
    (?:
      (?P<bare>[A-Za-z_][\w$.]*)
    | (?P<value>%[A-Za-z_$.\-0-9][\w$.\-]*(?:\#\d+)?)
    | (?P<punct>->|::|\.\.\.|[()\[\]{}<>,:=?*+\-|])
    | (?P<float>\d+\.\d*(?:[eE][-+]?\d+)?)
    | (?P<int>0x[0-9a-fA-F]+|\d+)
    | (?P<string>"(?:[^"\\\n]|\\.)*")
    | (?P<block>\^[\w$.\-]+)
    | (?P<symbol>@(?:[\w$.\-]+|"(?:[^"\\\n]|\\.)*"))
    | (?P<hash>\#[A-Za-z_][\w$.]*)
    | (?P<bang>![A-Za-z_][\w$.]*)
    | (?P<error>"[^\n]*|\S)
    )
    """,
    re.VERBOSE | re.DOTALL,
)
_GROUP_KIND = {
    "bare": BARE,
    "value": VALUE,
    "punct": PUNCT,
    "float": FLOAT,
    "int": INT,
    "string": STRING,
    "block": BLOCK,
    "symbol": SYMBOL,
    "hash": HASH,
    "bang": BANG,
    "error": ERROR,
}
_TRAILING_TRIVIA = re.compile(r"(?:\s+|//[^\n]*)*\Z")


@dataclass(slots=True)
class Tokens:
    """The token stream of one text: parallel lists plus the text itself."""

    text: str
    kinds: list[int]
    starts: list[int]
    ends: list[int]

    def spelling(self, i: int) -> str:
        return self.text[self.starts[i] : self.ends[i]]


def tokenize(text: str, start: int = 0, end: int | None = None) -> Tokens:
    """Tokenize text[start:end]; offsets stay relative to the whole text."""
    stop = len(text) if end is None else end
    kinds: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    group_kind = _GROUP_KIND
    pos = start
    for m in _TOKEN_RE.finditer(text, start, stop):
        group = m.lastgroup
        if group is None:  # only trivia left
            pos = m.end()
            break
        kinds.append(group_kind[group])
        s, e = m.span(group)
        starts.append(s)
        ends.append(e)
        pos = e
    # The EOF token sits after trailing trivia.
    kinds.append(EOF_)
    starts.append(max(pos, stop) if pos >= stop else stop)
    ends.append(stop)
    return Tokens(text, kinds, starts, ends)
