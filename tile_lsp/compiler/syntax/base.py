"""Token-level parsing primitives shared by the op, type and attribute parsers.

`ParseError` is internal control flow: it is caught at recovery points and turned
into a Diagnostic; it never escapes the front end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.lexer import Tokens

# Types, attributes, locations and literal lists inside one another: deeper nesting is a
# diagnostic at the construct that goes one level too deep, not an exhausted Python stack.
MAX_NESTING = 32

T = TypeVar("T")


class ParseError(Exception):
    """A syntax error at a span; carries optional notes as (span, text)."""

    def __init__(self, span: Span, message: str, notes: tuple[tuple[Span, str], ...] = ()):
        super().__init__(message)
        self.span = span
        self.message = message
        self.notes = notes
        self.op_prefixed = False  # set once a custom op parser has claimed the error


class TokenCursor:
    """Index-based walk over a Tokens stream with MLIR-style expect/accept helpers."""

    def __init__(self, tokens: Tokens):
        self.tokens = tokens
        self.text = tokens.text
        self.kinds = tokens.kinds
        self.starts = tokens.starts
        self.ends = tokens.ends
        self.texts = tokens.texts
        self.i = 0
        self.last = len(tokens.kinds) - 1
        self.depth = 0  # how many recursive constructs (`nest`) the cursor is inside

    def nest(self, what: str) -> None:
        """Enter one more level of a recursive construct (`what`: "types", "attributes", ...);
        the caller leaves it with `self.depth -= 1` in a `finally`."""
        if self.depth >= MAX_NESTING:
            self.fail(f"{what} are nested more than {MAX_NESTING} levels deep", raw=True)
        self.depth += 1

    def nested(self, what: str, parse: Callable[..., T], *args: object) -> T:
        """`parse(*args)` one level deeper in a recursive construct (see `nest`)."""
        self.nest(what)
        try:
            return parse(*args)
        finally:
            self.depth -= 1

    def comma_list(self, parse_item: Callable[[], T], close: str) -> list[T]:
        """After an opening bracket: the items `parse_item` reads, separated by commas, up to
        the closing `close` (which may come at once, for no items)."""
        items: list[T] = []
        if not self.accept_punct(close):
            items.append(parse_item())
            while self.accept_punct(","):
                items.append(parse_item())
            self.expect_punct(close)
        return items

    # -- inspection -------------------------------------------------------
    @property
    def kind(self) -> int:
        return self.kinds[self.i]

    @property
    def tok(self) -> str:
        return self.texts[self.i]

    def span(self, i: int | None = None) -> Span:
        j = self.i if i is None else i
        return Span(self.starts[j], self.ends[j])

    def prev_end(self) -> int:
        return self.ends[self.i - 1] if self.i > 0 else self.starts[0]

    def at(self, kind: int, spelling: str | None = None) -> bool:
        i = self.i
        if self.kinds[i] != kind:
            return False
        return spelling is None or self.texts[i] == spelling

    # Spellings identify punctuation and keywords on their own: no other token kind can
    # spell `(` or `tile` (strings keep their quotes, values their `%`).
    def at_punct(self, p: str) -> bool:
        return self.texts[self.i] == p

    def at_keyword(self, kw: str) -> bool:
        return self.texts[self.i] == kw

    def peek_punct(self, p: str, ahead: int = 1) -> bool:
        return self.texts[min(self.i + ahead, self.last)] == p

    # -- consumption ------------------------------------------------------
    def advance(self) -> int:
        i = self.i
        if i < self.last:
            self.i = i + 1
        return i

    def accept_punct(self, p: str) -> bool:
        i = self.i
        if self.texts[i] == p and i < self.last:
            self.i = i + 1
            return True
        return False

    # A keyword is taken by its spelling alone, as punctuation is (see at_punct).
    accept_keyword = accept_punct

    def expect_punct(self, p: str, what: str | None = None) -> None:
        i = self.i
        if self.texts[i] != p:
            self.fail(f"expected '{p}'" if what is None else f"expected {what}", self.wrong_token_span(), raw=True)
        if i < self.last:
            self.i = i + 1

    expect_keyword = expect_punct

    def wrong_token_span(self) -> Span | None:
        """Where MLIR reports a missing token: after the previous token when the
        current one starts a new line (emitWrongTokenError), else at the token."""
        i = self.i
        if i == 0 or "\n" not in self.text[self.ends[i - 1] : self.starts[i]]:
            return None
        end = self.ends[i - 1]
        return Span(end, end)

    def expect_bare(self, what: str = "identifier") -> tuple[str, Span]:
        if self.kind != lexer.BARE:
            self.fail(f"expected {what}")
        i = self.advance()
        return self.text[self.starts[i] : self.ends[i]], Span(self.starts[i], self.ends[i])

    def fail(self, message: str, span: Span | None = None, raw: bool = False) -> None:
        """Raise a ParseError at the current token (or `span`); `raw` errors (MLIR's
        token errors) never get a `custom op '...'` prefix."""
        if span is None:
            span = self.span()
            if self.kind == lexer.EOF_:
                # Point at the end of the last real token, like MLIR does.
                end = self.prev_end()
                span = Span(end, end)
        err = ParseError(span, message)
        err.op_prefixed = raw
        raise err

    def parse_int_literal(self) -> int:
        """An optionally negative integer that must fit in int64 (MLIR's parseInteger<int64_t>
        and its wording)."""
        neg = self.accept_punct("-")
        if self.kind != lexer.INT:
            self.fail("expected integer value")
        value = self.int_token(message="integer value too large")
        value = -value if neg else value
        if not -(1 << 63) <= value < (1 << 63):
            self.fail("integer value too large")
        self.advance()
        return value

    def int_token(self, i: int | None = None, message: str = "integer literal is too large") -> int:
        """The value of the INT token at `i` (default: the current one); one too long for any
        integer type is a ParseError at it with `message` (never Python's int-string limit)."""
        j = self.i if i is None else i
        try:
            return lexer.int_value(self.texts[j])
        except lexer.IntegerTooLong:
            err = ParseError(Span(self.starts[j], self.ends[j]), message)
            raise err from None

    def skip_balanced(self) -> None:
        """Skip one token, or a whole bracketed group if it opens one."""
        opener = self.tok if self.kind == lexer.PUNCT else ""
        closers = {"(": ")", "[": "]", "{": "}", "<": ">"}
        if opener not in closers:
            self.advance()
            return
        depth = 0
        while self.kind != lexer.EOF_:
            t = self.tok if self.kind == lexer.PUNCT else ""
            if t in ("(", "[", "{", "<"):
                depth += 1
            elif t in (")", "]", "}", ">"):
                depth -= 1
            self.advance()
            if depth == 0:
                return
