"""Parse and print upstream-dialect MLIR with xDSL.

`parse_upstream` never raises for user errors: a parse error becomes one diagnostic at its
span. Every parsed op without an explicit `loc(...)` gets a `FileLineColLoc` of where it was
written, so every later stage can point back at the source (see `op_span`).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from tile_lsp.compiler.diagnostics import Diagnostic, DiagnosticSink
from tile_lsp.compiler.mlir.printing import attr_text as attr_text  # (re-exported: the lowerings' type printer)
from tile_lsp.compiler.source import SourceText, Span

# Dialects taken from xDSL as they are; ours (nvgpu, nvvm, the gpu syntax, extra llvm ops)
# are added on top by `_our_dialects`.
_XDSL_DIALECTS = ("builtin", "arith", "cf", "func", "math", "memref", "scf", "vector", "llvm", "gpu", "index", "ub")


def _our_dialects() -> list[Callable[[], Dialect]]:
    from tile_lsp.compiler.mlir.dialects.registry import registered

    return registered()


@cache
def upstream_context() -> Context:
    """One shared context with every dialect the back half reads or writes."""
    from xdsl.dialects import get_all_dialects

    ctx = Context(allow_unregistered=True)
    available = get_all_dialects()
    ours = {d().name: d for d in _our_dialects()}
    for name in _XDSL_DIALECTS:
        if name in ours:
            continue
        if name in available:
            ctx.register_dialect(name, available[name])
    for name, factory in ours.items():
        ctx.register_dialect(name, factory)
    from tile_lsp.compiler.mlir.xdsl_fast import cache_attribute_hashes

    cache_attribute_hashes()  # (the attribute classes of dialects imported since install())
    return ctx


class _TrackingParser(Parser):
    """xDSL's parser that remembers each op's source range and stamps a location on it."""

    def __init__(self, ctx: Context, text: str, source: SourceText, base: int) -> None:
        super().__init__(ctx, text, source.path or "<input>")
        self._source = source
        self._base = base
        self._last_end = 0
        self.spans: dict[Operation, Span] = {}
        self._file = StringAttr(source.path or "<input>")

    def _consume_token(self, expected_kind=None):  # type: ignore[no-untyped-def]
        tok = super()._consume_token(expected_kind)
        self._last_end = tok.span.end
        return tok

    def parse_optional_builtin_int_or_float_attr(self):  # type: ignore[no-untyped-def]
        """xDSL's, with mlir-opt 22's checks and words: a decimal integer literal is no float
        value (`1 : f32`; a hexadecimal one is the float's bits), and a literal whose type is
        neither an integer nor a float is reported at the literal."""
        start = self._current_token.span.start
        literal = _DECIMAL_LITERAL.match(self.lexer.input.content, start)
        try:
            attr = super().parse_optional_builtin_int_or_float_attr()
        except ParseError as exc:
            if literal is not None and exc.msg == "Invalid type given for integer or float attribute.":
                self.raise_error("integer literal not valid for specified type", literal.start(2), literal.end(2))
            raise
        if literal is not None and isinstance(attr, builtin.FloatAttr):
            self.raise_error("unexpected decimal integer literal for a floating point value", literal.start(2), literal.end(2))
        return attr

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        span = Span(self._base + start, self._base + max(self._last_end, start))
        self.spans[op] = span
        if isinstance(op.location, builtin.UnknownLoc):
            line, col = self._source.line_col(span.start)
            op.location = FileLineColLoc(self._file, IntAttr(line + 1), IntAttr(col + 1))
        return op


@dataclass
class UpstreamParse:
    """The result of parsing one upstream-dialect text (or chunk of it)."""

    source: SourceText
    module: builtin.ModuleOp | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    spans: dict[Operation, Span] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.module is not None and not any(d.is_error for d in self.diagnostics)


def parse_upstream(source: SourceText, span: Span | None = None, verify: bool = True) -> UpstreamParse:
    """Parse `source` (or the chunk `span` of it) as upstream MLIR; verify with xDSL's verifiers."""
    span = span or Span(0, len(source.text))
    sink = DiagnosticSink(stage="mlir")
    parser = _TrackingParser(upstream_context(), source.text[span.start : span.end], source, span.start)
    try:
        module = parser.parse_module()
    except ParseError as exc:
        start = span.start + exc.span.start
        end = span.start + max(exc.span.end, exc.span.start + 1)
        sink.error(Span(start, min(end, len(source.text))), _mlir_words(exc.msg, source.text[start:end]))
        return UpstreamParse(source, None, sink.items, parser.spans)
    except RecursionError:
        at = span.start + parser.pos
        sink.error(Span(at, min(at + 1, len(source.text))), "nesting is too deep to parse here")
        return UpstreamParse(source, None, sink.items, parser.spans)
    except Exception as exc:  # a dialect's custom parser (or an attribute's check) failed
        at = span.start + parser.pos
        where, message = _unplanned_failure(source.text, span.start, at, exc)
        sink.error(where, message)
        return UpstreamParse(source, None, sink.items, parser.spans)
    result = UpstreamParse(source, module, sink.items, parser.spans)
    if verify:
        verify_ops(result, sink)
    return result


_DECIMAL_LITERAL = re.compile(r"(-?[ \t]*)(\d+)(?![\w.])")  # (0x... is not: `0` then `x`)
_TYPE_CLASH = re.compile(r"operand is used with type (.+), but has been previously used or defined with type (.+)", re.S)


def _mlir_words(message: str, where: str) -> str:
    """xDSL's parse errors in mlir-opt 22's words where they differ (`where`: the text at the
    error, here the value's name)."""
    clash = _TYPE_CLASH.fullmatch(message)
    if clash is not None:
        return f"use of value '{where}' expects different type than prior uses: '{clash[1]}' vs '{clash[2]}'"
    return _XDSL_WORDS.get(message, message)


_XDSL_WORDS = {
    "Floating point value is not valid for integer type.": "floating point value not valid for specified type",
}


_OUT_OF_RANGE = re.compile(r"Integer value (-?\d+) is out of range for type")
_INT_LITERAL = re.compile(r"(?<![\w.$#@%])(0x[0-9a-fA-F]+|\d+)(?![\w.])")
_DIGIT_LIMIT = "for integer string conversion"


def _int_value(digits: str) -> int:
    """An integer literal's value: hexadecimal after 0x, else decimal (leading zeros allowed)."""
    return int(digits[2:], 16) if digits[:2] in ("0x", "0X") else int(digits, 10)


def _unplanned_failure(text: str, start: int, at: int, exc: Exception) -> tuple[Span, str]:
    """Where and in what words to report an exception raised while parsing (not a ParseError).
    An integer literal too big for its type (xDSL raises when the attribute is built, once the
    parser has passed the literal, and Python refuses to convert over 4,300 digits) is reported
    at the literal in mlir-opt 22's words; anything else at the parser's place, as it is."""
    span = Span(at, min(at + 1, len(text)))
    message = str(exc)
    wanted: int | None = None
    out_of_range = _OUT_OF_RANGE.match(message)
    if out_of_range is not None:
        wanted = abs(int(out_of_range[1]))
    elif not (isinstance(exc, ValueError) and _DIGIT_LIMIT in message):
        return span, f"cannot parse: {message}"
    literal = None
    for m in _INT_LITERAL.finditer(text, start, at):
        digits = m[1]
        if wanted is None and len(digits) > 4000 or wanted is not None and len(digits) < 4000 and _int_value(digits) == wanted:
            literal = m
    if literal is None:
        return span, "integer constant out of range for attribute"
    before = text[start : literal.start()]
    in_dense = before.rfind("dense<") > max(before.rfind(">"), -1)
    return Span(literal.start(), literal.end()), f"integer constant out of range for {'type' if in_dense else 'attribute'}"


def verify_ops(result: UpstreamParse, sink: DiagnosticSink) -> None:
    """Run each op's own verifier (not the nested ones) and report failures at the op."""
    from xdsl.utils.exceptions import VerifyException

    assert result.module is not None
    for op in result.module.walk():
        try:
            op.verify_()
        except VerifyException as exc:  # (the words are the verifier's: with "'name' op " where
            # MLIR's is an emitOpError, without where it is an emitError)
            sink.error(_name_span(op, result), str(exc))
        except Exception as exc:  # verifier crash: still a diagnostic, never a dead server
            sink.error(_name_span(op, result), f"verifier failed: {exc}")
        if op.name in _NEEDS_TERMINATOR:
            last = _unterminated(op)
            if last is not None:  # mlir-opt 22's words, at the block's last op
                sink.error(_name_span(last, result), f"block with no terminator, has {_generic(last)}")


def _name_span(op: Operation, result: UpstreamParse) -> Span:
    """Where MLIR places an op's errors: its name (`%0 = memref.load ...` at `memref.load`; the
    quoted name of the generic form), else the op's span."""
    at = op_span(op, result.source, result.spans)
    text = result.source.text
    name_at = text.find(op.name, at.start, at.end)
    if name_at < 0:
        return at
    if name_at > 0 and text[name_at - 1] == '"':  # the generic form: at the quote, as MLIR
        return Span(name_at - 1, name_at + len(op.name) + 1)
    return Span(name_at, name_at + len(op.name))


# Function-like ops whose blocks must end in a terminator (no implicit one is added).
_NEEDS_TERMINATOR = frozenset({"func.func", "gpu.func", "llvm.func"})


def _unterminated(op: Operation) -> Operation | None:
    """The last op of a block of `op` that does not end in a terminator (None if all do)."""
    from xdsl.dialects.builtin import UnregisteredOp
    from xdsl.traits import IsTerminator

    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None or isinstance(last, UnregisteredOp) or last.has_trait(IsTerminator):
                continue
            return last
    return None


def _generic(op: Operation) -> str:
    """`op` in MLIR's generic form on one line, its regions left out."""
    import io

    from xdsl.printer import Printer

    out = io.StringIO()
    try:
        Printer(stream=out, print_generic_format=True).print_op(op)
    except Exception:
        return f'"{op.name}"'
    return " ".join(out.getvalue().split())


def op_span(op: Operation, source: SourceText, spans: dict[Operation, Span] | None = None) -> Span:
    """Where `op` (or the source op it was lowered from) is in `source`."""
    if spans is not None and op in spans:
        return spans[op]
    loc: Attribute | None = op.location
    at = location_offset(loc, source)
    if at is None:
        parent = op.parent_op()
        if parent is not None and not isinstance(parent, builtin.ModuleOp):
            return op_span(parent, source, spans)
        return Span(0, min(1, len(source.text)))
    end = source.text.find("\n", at)
    return Span(at, end if end > at else min(at + 1, len(source.text)))


def location_offset(loc: Attribute | None, source: SourceText) -> int | None:
    """Offset of the first FileLineColLoc inside `loc` (fused/callsite/name locs unwrapped)."""
    while loc is not None:
        if isinstance(loc, FileLineColLoc):
            line = loc.line.data - 1
            if line < 0 or line >= len(source.line_starts()):
                return None
            return source.offset(line, max(0, loc.column.data - 1))
        loc = loc.caller if isinstance(loc, builtin.CallSiteLoc) else inner_location(loc)
    return None


def inner_location(loc: Attribute) -> Attribute | None:
    """The location a name location wraps, or a fused location's first; None for other kinds."""
    if isinstance(loc, builtin.NameLoc):
        return loc.location
    if isinstance(loc, builtin.FusedLoc):
        locs = loc.locations
        return locs.data[0] if isinstance(locs, builtin.ArrayAttr) and locs.data else None
    return None


def print_ir(op: Operation, *, generic: bool = False, locations: bool = False) -> str:
    """MLIR text of `op` that `mlir-opt` 22 parses (custom forms only where they match)."""
    out = io.StringIO()
    printer = Printer(stream=out, print_generic_format=generic, print_debuginfo=locations)
    printer.print_op(op)
    out.write("\n")
    return out.getvalue()
