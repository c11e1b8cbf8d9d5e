"""Token-level parsing primitives shared by the op, type and attribute parsers.

`ParseError` is internal control flow: it is caught at recovery points and turned
into a Diagnostic; it never escapes the front end.
"""

from __future__ import annotations

from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.lexer import Tokens


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
        self.i = 0
        self.last = len(tokens.kinds) - 1

    # -- inspection -------------------------------------------------------
    @property
    def kind(self) -> int:
        return self.kinds[self.i]

    @property
    def tok(self) -> str:
        i = self.i
        return self.text[self.starts[i] : self.ends[i]]

    def span(self, i: int | None = None) -> Span:
        j = self.i if i is None else i
        return Span(self.starts[j], self.ends[j])

    def prev_end(self) -> int:
        return self.ends[self.i - 1] if self.i > 0 else self.starts[0]

    def at(self, kind: int, spelling: str | None = None) -> bool:
        i = self.i
        if self.kinds[i] != kind:
            return False
        return spelling is None or self.text[self.starts[i] : self.ends[i]] == spelling

    def at_punct(self, p: str) -> bool:
        i = self.i
        return self.kinds[i] == lexer.PUNCT and self.text[self.starts[i] : self.ends[i]] == p

    def at_keyword(self, kw: str) -> bool:
        i = self.i
        return self.kinds[i] == lexer.BARE and self.text[self.starts[i] : self.ends[i]] == kw

    def peek_punct(self, p: str, ahead: int = 1) -> bool:
        j = min(self.i + ahead, self.last)
        return self.kinds[j] == lexer.PUNCT and self.text[self.starts[j] : self.ends[j]] == p

    # -- consumption ------------------------------------------------------
    def advance(self) -> int:
        i = self.i
        if i < self.last:
            self.i = i + 1
        return i

    def accept_punct(self, p: str) -> bool:
        if self.at_punct(p):
            self.advance()
            return True
        return False

    def accept_keyword(self, kw: str) -> bool:
        if self.at_keyword(kw):
            self.advance()
            return True
        return False

    def expect_punct(self, p: str, what: str | None = None) -> Span:
        if not self.at_punct(p):
            self.fail(f"expected '{p}'" if what is None else f"expected {what}", self.wrong_token_span(), raw=True)
        return self.span(self.advance())

    def expect_keyword(self, kw: str) -> Span:
        if not self.at_keyword(kw):
            self.fail(f"expected '{kw}'", self.wrong_token_span(), raw=True)
        return self.span(self.advance())

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
        neg = self.accept_punct("-")
        if self.kind != lexer.INT:
            self.fail("expected integer value")
        value = lexer.int_value(self.tok)
        self.advance()
        return -value if neg else value

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
