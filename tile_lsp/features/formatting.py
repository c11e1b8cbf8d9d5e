"""Formatting: re-indent and normalise spacing of the original tokens (the printer would drop comments).

The result is offered only if it has the same tokens and the same comments and, for texts up to
IR_CHECK_LIMIT, the same IR. The parser reads nothing but the lexer's tokens, so the same token
texts already mean the same IR; the IR check (a second parse and two generic printouts, ~80% of
the time) is a guard against formatter bugs where it costs little: a 2 MB file formats in ~1/5
of the time without it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field

from tile_lsp.compiler import limits
from tile_lsp.compiler.document import Stopped
from tile_lsp.compiler.frontend import SPLIT_MARKER, parse_chunk, split_chunks
from tile_lsp.compiler.items import split_items
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.lexer import Tokens, tokenize
from tile_lsp.compiler.syntax.printer import Printer
from tile_lsp.compiler.textio import BOM

_CHECK_EVERY = 4096  # lines laid out between two looks at `cancelled`
IR_CHECK_LIMIT = 256 << 10  # bytes: above, the result is checked by its tokens and comments only
INDENT = "  "  # one region nesting level, as NVIDIA prints
CONTINUATION = 4  # extra columns for a wrapped line that sat left of its statement
_OPEN = {"(": ")", "[": "]", "{": "}", "<": ">"}
_CLOSE = {v: k for k, v in _OPEN.items()}
_NO_SPACE_BEFORE = frozenset(",)]>")
_NO_SPACE_AFTER = frozenset("([<")


class _Unsafe(Exception):
    """The text has something the formatter will not touch (unbalanced brackets, odd tokens)."""


@dataclass
class _Line:
    """One source line: its tokens (indices), the spacing it had, its comment, its indentation."""

    tokens: list[int] = field(default_factory=list)
    spaced: list[bool] = field(default_factory=list)  # whitespace before each token but the first
    comment: str | None = None
    comment_gap: int = 1  # columns between the code and a trailing comment
    indent: int = 0  # original indentation width (tabs count 4)

    @property
    def blank(self) -> bool:
        return not self.tokens and self.comment is None


def too_big_to_format(text: str, max_size: int = limits.MAX_FILE_SIZE) -> str | None:
    """Why a text over `max_size` bytes (tileLsp.maxFileSize) is not formatted, or None.
    Formatting parses the file once (twice, and prints it, up to IR_CHECK_LIMIT): ~2 s a MB."""
    if len(text) * 4 <= max_size or (size := limits.size_of(text)) <= max_size:
        return None
    return f"{limits.too_big(size, max_size, 'formatting')}: not formatted; raise tileLsp.maxFileSize to format it"


def format_text(text: str, max_size: int | None = None, cancelled: Callable[[], bool] | None = None) -> str | None:
    """The formatted text, or None when it cannot be formatted safely (leave it unchanged) or
    the text is over `max_size` bytes (see `too_big_to_format`). `cancelled` is asked before
    each item's parse and every few thousand lines: True stops with `Stopped`."""
    if max_size is not None and too_big_to_format(text, max_size) is not None:
        return None
    if text.startswith(BOM):  # an editor's byte-order mark stays where it is
        rest = format_text(text[1:], cancelled=cancelled)
        return None if rest is None else BOM + rest
    check_ir = len(text) <= IR_CHECK_LIMIT
    before = _ir_text(text, check_ir, cancelled=cancelled)
    if before is None:
        return None
    toks = tokenize(text)
    try:
        lines = _lines(toks)
        out = _Layout(toks, before.op_starts, before.tops, cancelled).run(lines)
    except _Unsafe:
        return None
    eol = "\r\n" if "\r\n" in text else "\n"
    result = eol.join(out) + eol if out else ""
    if result == text:
        return result
    return result if _same(toks, result, before if check_ir else None, cancelled) else None


# -- reading the original lines ----------------------------------------------------------


def _lines(toks: Tokens) -> list[_Line]:
    """The text cut into lines of tokens and comments (tokens never span lines)."""
    text = toks.text
    lines: list[_Line] = []
    cur: _Line | None = None
    prev_end = 0
    for i in range(len(toks.kinds) - 1):
        if toks.kinds[i] == lexer.ERROR or "\n" in toks.texts[i]:
            raise _Unsafe
        gap = text[prev_end : toks.starts[i]]
        if cur is not None and "\n" not in gap:
            cur.tokens.append(i)
            cur.spaced.append(bool(gap))
        else:
            indent = _gap_lines(gap, lines, first=cur is None)
            cur = _Line(tokens=[i], indent=indent)
            lines.append(cur)
        prev_end = toks.ends[i]
    _gap_lines(text[prev_end:] + "\n", lines, first=not lines)
    return lines


def _gap_lines(gap: str, lines: list[_Line], first: bool) -> int:
    """Add the comment/blank lines inside `gap` (the trivia between two tokens on different
    lines); attach a trailing comment to the last line; return the next line's indentation."""
    parts = gap.split("\n")
    if not first:
        tail = parts.pop(0)
        if tail.strip():
            lines[-1].comment = tail.strip()
            lines[-1].comment_gap = _width(tail)
    for part in parts[:-1]:
        stripped = part.strip()
        lines.append(_Line(comment=stripped or None, indent=_width(part)))
    return _width(parts[-1])


def _width(indent: str) -> int:
    return len(indent.expandtabs(4)) - len(indent.expandtabs(4).lstrip())


# -- laying lines out ----------------------------------------------------------------------


class _Layout:
    """Walks the lines once, keeping the bracket stack; decides indentation and spacing."""

    def __init__(self, toks: Tokens, op_starts: set[int], top_spans: list[Span], cancelled: Callable[[], bool] | None = None):
        self.t = toks
        self.cancelled = cancelled
        self.op_starts = op_starts
        self.top_spans = sorted(top_spans)  # (top-level ops do not overlap: one bisect per line)
        self.top_starts = [s.start for s in self.top_spans]
        self.stack: list[str] = []
        self.angles = 0  # open `<` in the stack: inside types/attributes spacing is kept as written
        self.ref = (0, 0)  # (original, new) indentation of the last statement line

    def run(self, lines: list[_Line]) -> list[str]:
        out: list[str] = []
        for n, line in enumerate(lines):
            if self.cancelled is not None and n % _CHECK_EVERY == 0 and self.cancelled():
                raise Stopped()
            if line.blank:
                if out and out[-1]:
                    out.append("")
                continue
            out.append(self.line(line))
        while out and not out[-1]:
            out.pop()
        if self.stack:
            raise _Unsafe
        return out

    def line(self, line: _Line) -> str:
        indent = " " * self.indent(line)
        if not line.tokens:
            return indent + (line.comment or "")
        body = self.code(line)
        if line.comment is None:
            return indent + body
        gap = "  " if line.comment_gap >= 2 else " "  # `%x = op  // note` keeps its two spaces
        return indent + body + gap + line.comment

    def indent(self, line: _Line) -> int:
        """Region nesting for statements; wrapped lines keep their offset from the statement."""
        level = self.stack.count("{")
        first = self.t.texts[line.tokens[0]] if line.tokens else ""
        if line.tokens and not self.continues(line.tokens[0]):
            if first == "}" or self.is_label(line):
                level -= 1
            new = len(INDENT) * max(level, 0)
            self.ref = (line.indent, new)
            return new
        if not line.tokens and (not self.stack or self.stack[-1] == "{"):
            return len(INDENT) * level  # a comment between statements
        offset = line.indent - self.ref[0]
        if offset < 0:  # wrapped left of its own statement: no alignment worth keeping
            offset = 0 if first in _CLOSE else CONTINUATION
        return self.ref[1] + offset  # NVIDIA wraps `reduce`'s region arguments at offset 0

    def continues(self, i: int) -> bool:
        """Whether the line starting at token i wraps an op begun on an earlier line."""
        if self.stack and self.stack[-1] != "{":
            return True
        start = self.t.starts[i]
        if start in self.op_starts or self.t.texts[i] == "}" or self.t.kinds[i] == lexer.BLOCK:
            return False
        k = bisect.bisect_left(self.top_starts, start) - 1  # the last top-level op starting before
        return k >= 0 and start < self.top_spans[k].end

    def is_label(self, line: _Line) -> bool:
        t = self.t
        return t.kinds[line.tokens[0]] == lexer.BLOCK and t.texts[line.tokens[-1]] == ":"

    def code(self, line: _Line) -> str:
        t = self.t
        parts: list[str] = []
        label = t.kinds[line.tokens[0]] == lexer.BLOCK
        for n, i in enumerate(line.tokens):
            if n:
                parts.append(self.space(i, line.spaced[n - 1], label))
            parts.append(t.texts[i])
            self.track(t.texts[i])
        return "".join(parts)

    def track(self, tok: str) -> None:
        if tok in _OPEN:
            self.stack.append(tok)
            self.angles += tok == "<"
        elif tok in _CLOSE:
            if not self.stack or self.stack.pop() != _CLOSE[tok]:
                raise _Unsafe
            self.angles -= tok == ">"

    def space(self, i: int, spaced: bool, label: bool) -> str:
        """The gap before token i (same line as token i-1), by MLIR's spacing."""
        t = self.t
        prev, nxt = t.texts[i - 1], t.texts[i]
        keep = " " if spaced else ""
        if nxt in _NO_SPACE_BEFORE or prev in _NO_SPACE_AFTER:
            return ""
        if self.angles:
            return keep  # `tile<4x8xf32>`, `strides=[?,1]`, `<f32: 1.0>`: as written
        if prev in (",", "->", "}") or nxt in ("->", "{"):
            return " "  # `a, b`, `x -> y`, `} else {`, `@m {`
        if (prev == "=" and self.result_eq(i - 1)) or (nxt == "=" and self.result_eq(i)):
            return " "
        if ":" in (prev, nxt):
            return self.colon_space(i, keep, label)
        return keep

    def result_eq(self, i: int) -> bool:
        """`%x = op`, `%x:2 = op`, `iter_values(%a = %b)`: `=` right after a value."""
        t = self.t
        if t.kinds[i - 1] == lexer.VALUE:
            return True
        return i >= 3 and t.kinds[i - 1] == lexer.INT and t.texts[i - 2] == ":" and t.kinds[i - 3] == lexer.VALUE

    def colon_space(self, i: int, keep: str, label: bool) -> str:
        t = self.t
        at = i if t.texts[i] == ":" else i - 1  # the colon's index
        after_value = t.kinds[at - 1] == lexer.VALUE
        if self.stack and self.stack[-1] in "([":
            if after_value:  # `(%arg0: tile<f32>)`
                return "" if at == i else " "
            return keep  # `loc("file":1:2)`, `[0.0 : f32]`
        if label or (after_value and t.kinds[at + 1] == lexer.INT):
            return keep  # `^bb0(...):`, `%for:2 = ...`
        return " "


# -- safety ----------------------------------------------------------------------------------


@dataclass
class _Parsed:
    """A text's pieces (its items, or its `// -----` chunks, or the whole text) with the
    generic printout of each ("" unless printed), its op start offsets and top-level op spans."""

    pieces: list[str]
    printed: list[str]
    op_starts: set[int]
    tops: list[Span]

    def ir(self) -> str:
        return "\n// -----\n".join(self.printed)


def _ir_text(
    text: str, printed_ir: bool = True, *, cancelled: Callable[[], bool] | None = None, known: _Parsed | None = None
) -> _Parsed | None:
    """The text parsed piece by piece (None when any piece has a parse error). A module's items
    (tile_lsp/compiler/items.py) are parsed one by one, as the analysis does, so `cancelled`
    (asked before each parse) can stop a big file's work early; a piece whose text is one of
    `known`'s is not parsed again, its printout is known's (its op starts are not needed then:
    `known` is only given for the check of a result)."""
    split = split_items(text)
    if split is not None and any(kind == "alias" for kind, _, _ in split[0]):
        split = None  # (the items need the aliases to parse: the whole text at once)
    if split is None:  # the whole text, or each `// -----` chunk: spans are the text's own
        source = SourceText(text)
        chunks = split_chunks(text) if SPLIT_MARKER.search(text) else [Span(0, len(text))]
        return _parse_pieces(text, [(c.start, c.end, source, c, 0) for c in chunks], printed_ir, cancelled, known)
    items, body = split
    pieces = []
    if body is not None:  # the module header, closed as the analysis closes it (its `shell`)
        header = text[: body[0]] + "}"
        pieces.append((0, body[0], SourceText(header), Span(0, len(header)), 0))
    for _, start, end in items:
        piece = text[start:end]
        pieces.append((start, end, SourceText(piece), Span(0, len(piece)), start))
    parsed = _parse_pieces(text, pieces, printed_ir, cancelled, known)
    if parsed is not None and body is not None and parsed.tops:
        # One top-level op: the module, up to its closing brace (the header piece ends at `{`).
        parsed.tops = [Span(parsed.tops[0].start, body[1] + 1)]
    return parsed


def _parse_pieces(
    text: str,
    pieces: list[tuple[int, int, SourceText, Span, int]],
    printed_ir: bool,
    cancelled: Callable[[], bool] | None,
    known: _Parsed | None,
) -> _Parsed | None:
    """Each (start, end, source, span, shift) parsed: `span` of `source` is text[start:end] (or,
    for a module header, that text closed by a brace); `shift` moves its spans into the text."""
    seen = dict(zip(known.pieces, known.printed)) if known is not None else {}
    out = _Parsed([], [], set(), [])
    for start, end, source, span, shift in pieces:
        piece = text[start:end]
        out.pieces.append(piece)
        if piece in seen:
            out.printed.append(seen[piece])
            continue
        if cancelled is not None and cancelled():
            raise Stopped()
        result = parse_chunk(source, span, verify=False)
        if result.module is None or not result.ok:
            return None
        out.printed.append(Printer(generic=True).module_text(result.module) if printed_ir else "")
        out.op_starts.update(info.span.start + shift for info in result.smap.ops.values())
        out.tops.extend(_shifted(result.smap.ops[op].span, shift) for op in result.module.ops if op in result.smap.ops)
    return out


def _shifted(span: Span, by: int) -> Span:
    return Span(span.start + by, span.end + by)


def _same(a: Tokens, after: str, before: _Parsed | None, cancelled: Callable[[], bool] | None) -> bool:
    """Same tokens, same comments, same IR (when `before` is given): anything else means the
    formatter went wrong. Pieces of `after` whose text did not change are not parsed again."""
    b = tokenize(after)
    if a.texts != b.texts or _comments(a) != _comments(b):
        return False
    if before is None:
        return True
    again = _ir_text(after, cancelled=cancelled, known=before)
    return again is not None and again.ir() == before.ir()


def _comments(toks: Tokens) -> list[str]:
    """Every `//` comment, in order (trailing whitespace is not part of it)."""
    out: list[str] = []
    text, pos = toks.text, 0
    for start, end in zip(toks.starts, toks.ends):
        for part in text[pos:start].split("\n"):
            at = part.find("//")
            if at >= 0:
                out.append(part[at:].rstrip())
        pos = end
    return out
