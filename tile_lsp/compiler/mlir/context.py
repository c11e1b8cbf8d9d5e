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
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

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
        self.first_uses: dict[str, int] = {}  # an undefined value's name -> its first use (chunk offset)
        self.prev_end = 0  # end of the token before the current one (where MLIR reports `expected`)

    def resolve_operand(self, operand, type):  # type: ignore[no-untyped-def]
        name = operand.operand_name
        if name not in self.ssa_values and name not in self.first_uses:
            self.first_uses[name] = operand.span.start
        return super().resolve_operand(operand, type)

    def _consume_token(self, expected_kind=None):  # type: ignore[no-untyped-def]
        tok = super()._consume_token(expected_kind)
        self.prev_end = self._last_end = tok.span.end
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

    def _wrong_terminator(self, message: str) -> tuple[int, int, str] | None:
        """`'scf.for' terminates with operation func.return instead of scf.yield`: mlir-opt 22
        reports the terminator's own parent rule (HasParent), at the terminator's name."""
        from xdsl.traits import HasParent

        m = _WRONG_TERMINATOR.fullmatch(message)
        inner = next((o for o in reversed(self.spans) if m is not None and o.name == m[1]), None)
        trait = inner.get_trait(HasParent) if inner is not None else None
        if inner is None or trait is None:
            return None
        start = self.spans[inner].start - self._base
        named = _OP_NAME_AT.match(self.lexer.input.content, start)
        if named is None:
            return None
        parents = sorted(t.name for t in trait.op_types)
        rule = f"'{parents[0]}'" if len(parents) == 1 else f"to be one of '{', '.join(parents)}'"
        return named.start(1), named.end(1), f"'{inner.name}' op expects parent op {rule}"

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except ParseError as exc:  # a custom form's own parse error where MLIR's words differ
            text = self.lexer.input.content
            named = _OP_NAME_AT.match(text, start)
            words = _custom_syntax_words(named[1], exc.msg) if named is not None else None
            if named is None or words is None:
                raise
            if words[1]:  # (MLIR reports it at the op's name)
                self.raise_error(words[0], named.start(1), named.end(1))
            raise ParseError(exc.span, words[0]) from None
        except (VerifyException, ValueError) as exc:  # a custom form's op xDSL refused to
            # build (or an enum keyword it does not know): MLIR's words, at MLIR's place
            text = self.lexer.input.content
            named = _OP_NAME_AT.match(text, start)
            if named is None:
                raise
            placed = _custom_parse_place(named[1], str(exc), text, named.end(1)) or self._wrong_terminator(str(exc))
            if placed is not None:
                self.raise_error(placed[2], placed[0], placed[1])
            built = _custom_parse_words(named[1], str(exc))
            if built is None:
                raise
            self.raise_error(built, named.start(1), named.end(1))
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
        where, words = _parse_error_words(exc, parser, source.text, span.start, Span(start, min(end, len(source.text))))
        sink.error(where, words)
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


_WRONG_TERMINATOR = re.compile(r"'[\w.]+' terminates with operation ([\w.]+) instead of [\w.]+")
_OP_NAME_AT = re.compile(r'(?:%[\w$.#:]+(?:\s*,\s*%[\w$.#:]+)*\s*=\s*)?"?([A-Za-z_][\w$]*(?:\.[\w$]+)+)')
_DECIMAL_LITERAL = re.compile(r"(-?[ \t]*)(\d+)(?![\w.])")  # (0x... is not: `0` then `x`)
_TYPE_CLASH = re.compile(r"operand is used with type (.+), but has been previously used or defined with type (.+)", re.S)


def _mlir_words(message: str, where: str) -> str:
    """xDSL's parse errors in mlir-opt 22's words where they differ (`where`: the text at the
    error, here the value's name)."""
    clash = _TYPE_CLASH.fullmatch(message)
    if clash is not None:
        return f"use of value '{where}' expects different type than prior uses: '{clash[1]}' vs '{clash[2]}'"
    return _XDSL_WORDS.get(message, message)


def _parse_error_words(exc: ParseError, parser: _TrackingParser, text: str, base: int, at: Span) -> tuple[Span, str]:
    """Where and in what words mlir-opt 22 reports the parse error xDSL raised as `exc` (`at`:
    where xDSL put it, in `text`; `base`: the chunk's offset)."""
    from xdsl.utils.exceptions import MultipleSpansParseError

    message = exc.msg
    undefined = _UNDEFINED_VALUES.fullmatch(message)
    if undefined is not None:  # at the first use of the first value never defined
        uses = [parser.first_uses[n[1:]] for n in undefined[1].split(", ") if n[1:] in parser.first_uses]
        if uses:
            first = base + min(uses)
            return Span(first, first + 1), "use of undeclared SSA value name"
    if isinstance(exc, MultipleSpansParseError) and message.startswith("region ends with missing block declarations"):
        refs = [ref.start for ref, _ in exc.refs]
        if refs:
            first = base + min(refs)
            return Span(first, first + 1), "reference to an undefined block"
    m = _REDEFINED_VALUE.fullmatch(message)
    if m is not None:
        after = text[at.end : at.end + 1]
        if after == ":":  # a block's argument (`(%a: i32, %a: i32)`)
            return at, f"region entry argument '%{m[1]}' is already in use"
        return at, f"redefinition of SSA value '%{m[1]}'"
    m = _BIND_COUNT.fullmatch(message)
    if m is not None:
        return at, f"operation defines {m[1]} results but was provided {m[2]} to bind"
    m = _EXPECTED_TOKEN.fullmatch(message)
    if m is not None:  # MLIR's parseToken: after the last token when the wrong one starts a line
        line_start = text.rfind("\n", 0, at.start) + 1
        if not text[line_start : at.start].strip() and parser.prev_end > 0:
            prev = base + parser.prev_end
            return Span(prev, prev + 1), f"expected {m[1]}"
        return at, f"expected {m[1]}"
    return at, _mlir_words(message, text[at.start : at.end])


_UNDEFINED_VALUES = re.compile(r"values used but not defined: \[(.*)\]")
_REDEFINED_VALUE = re.compile(r"SSA value %([\w$.]+) is already defined")
_BIND_COUNT = re.compile(r"Operation has (\d+) results, but was given (\d+) to bind\.")
_EXPECTED_TOKEN = re.compile(r"Expected ('.+')")


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
    order = {op: i for i, op in enumerate(result.module.walk())}  # (pre-order: a block's ops in order)
    for op in order:
        try:
            op.verify_()
        except VerifyException as exc:  # (in MLIR's words: "'name' op " first where MLIR's is
            # an emitOpError, without where it is an emitError)
            redefined = _REDEFINED_SYMBOL.fullmatch(str(exc))
            if redefined is not None:
                second = _second_definition(op, redefined[1])
                if second is not None:
                    sink.error(_name_span(second, result), f"redefinition of symbol named '{redefined[1]}'")
                    continue
            at = _name_span(op, result)
            sink.error(at, _verify_words(op, str(exc), generic=result.source.text[at.start : at.start + 1] == '"'))
        except Exception as exc:  # verifier crash: still a diagnostic, never a dead server
            sink.error(_name_span(op, result), f"verifier failed: {exc}")
        else:
            try:
                missing = _missing_check(op, order)
            except Exception:  # (a check of ours must never take the document down)
                missing = None
            if missing is not None:
                sink.error(_name_span(op, result), missing)
        if op.name in _NEEDS_TERMINATOR:
            last = _unterminated(op)
            if last is not None:  # mlir-opt 22's words, at the block's last op
                sink.error(_name_span(last, result), f"block with no terminator, has {_generic(last, _mlir_value_names(op))}")


_REDEFINED_SYMBOL = re.compile(r'Redefinition of symbol "(.+)"')


def _second_definition(table: Operation, name: str) -> Operation | None:
    """The second op directly in `table` that defines symbol `name` (where MLIR reports it)."""
    seen = 0
    for region in table.regions:
        for block in region.blocks:
            for op in block.ops:
                sym = op.attributes.get("sym_name") or op.properties.get("sym_name")
                if isinstance(sym, StringAttr) and sym.data == name:
                    seen += 1
                    if seen == 2:
                        return op
    return None


def _name_span(op: Operation, result: UpstreamParse) -> Span:
    """Where MLIR places an op's errors: its name (`%0 = memref.load ...` at `memref.load`; the
    quoted name of the generic form), else the op's span."""
    at = op_span(op, result.source, result.spans)
    text = result.source.text
    name_at = text.find(op.name, at.start, at.end)
    if name_at < 0:  # written without its dialect (`call @g()`, `return` in a func.func)
        short = op.name.split(".", 1)[-1]
        bare = re.compile(rf"(?<![\w$.%^@#]){re.escape(short)}(?![\w$.])").search(text, at.start, at.end)
        return at if bare is None else Span(bare.start(), bare.end())
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


def _mlir_value_names(scope: Operation) -> dict[SSAValue, str]:
    """The names MLIR's printer gives the values in `scope` (an op isolated from above, as a
    function): entry block arguments `arg0`, `arg1`... across its regions, every other value
    `0`, `1`... in order, a region's ops before the regions nested in them."""
    names: dict[SSAValue, str] = {}
    next_arg = next_value = 0
    todo: list[Region] = list(reversed(scope.regions))
    while todo:
        region = todo.pop()
        nested: list[Region] = []
        for block in region.blocks:
            for arg in block.args:
                if block is region.first_block:
                    names[arg] = f"arg{next_arg}"
                    next_arg += 1
                else:
                    names[arg] = str(next_value)
                    next_value += 1
            for inner in block.ops:
                if inner.results:
                    first = next_value
                    next_value += 1
                    for i, res in enumerate(inner.results):
                        names[res] = str(first) if len(inner.results) == 1 else f"{first}#{i}"
                nested.extend(inner.regions)
        todo.extend(reversed(nested))
    return names


def _generic(op: Operation, names: dict[SSAValue, str] | None = None) -> str:
    """`op` in MLIR's generic form on one line, its regions left out (`names`: its values')."""
    import io

    from xdsl.printer import Printer

    out = io.StringIO()
    try:
        printer = Printer(stream=out, print_generic_format=True)
        if names:
            printer._ssa_values.update(names)  # noqa: SLF001 (xDSL has no public way to seed names)
        printer.print_op(op)
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


# ---- xDSL's verifier words in mlir-opt 22's (see scripts/verifier_survey.py)

_CONSTRAINT_FAIL = re.compile(r"(operand|result) '(\w+)' at positions? (\d+)(?: to (\d+))? does not verify:\n(.*)", re.S)
_UNEXPECTED = re.compile(r"(?:Unexpected attribute (.+)|Expected attribute .+ but got (.+)|(.+) should be of base attribute \w+)", re.S)
_VAR_CLASH = re.compile(r"attribute (.+) expected from variable '\w+', but got (.+)", re.S)
_PARENT = re.compile(r"'([\w.]+)' expects parent op (to be one of )?(.+)", re.S)
# MLIR's sentences for an op whose type variable xDSL reports broken (AllTypesMatch and the like);
# the rest (arith, math, llvm) have SameOperandsAndResultType.
_SAME_TYPE_WORDS = {
    "vector.fma": "failed to verify that all of {lhs, rhs, acc, result} have same type",
    "memref.load": "failed to verify that result type matches element type of 'memref'",
    "memref.store": "failed to verify that type of 'value' matches element type of 'memref'",
    "arith.constant": "failed to verify that all of {value, result} have same type",
    "scf.for": "failed to verify that all of {lowerBound, upperBound, step} have same type",
}
_ARITH_CASTS = frozenset(
    "arith." + n
    for n in ("extsi", "extui", "extf", "trunci", "truncf", "bitcast", "index_cast", "index_castui", "sitofp", "uitofp", "fptosi", "fptoui")
)


def _same_type_words(op: Operation) -> str:
    """MLIR's sentence for a broken type variable of `op`: SameOperandsAndResultType where every
    operand and result shares one, else AllTypesMatch over the ones that do."""
    from xdsl.irdl import constraints as c

    try:
        defs = type(op).get_irdl_definition()  # type: ignore[attr-defined]
    except Exception:
        return "requires the same type for all operands and results"
    groups: dict[str, list[str]] = {}
    fields = [*defs.operands, *defs.results]
    for field_name, d in fields:
        constr = d.constr
        while isinstance(constr, c.RangeLengthConstraint | c.RangeOf):
            constr = constr.constraint if isinstance(constr, c.RangeLengthConstraint) else constr.constr
        if isinstance(constr, c.VarConstraint):
            groups.setdefault(constr.name, []).append(field_name)
    if len(groups) == 1:
        names = next(iter(groups.values()))
        if len(names) < len(fields):
            return f"failed to verify that all of {{{', '.join(names)}}} have same type"
    return "requires the same type for all operands and results"


def _constraint_words(constr: object, variadic: bool, dialect: str) -> str | None:
    """MLIR's ODS description of the type constraint xDSL's `constr` stands for, or None."""
    from xdsl.dialects.builtin import Float32Type, IndexType, IntegerType, TensorType, VectorType
    from xdsl.irdl import constraints as c

    while True:
        if isinstance(constr, c.RangeLengthConstraint):
            constr = constr.constraint
        elif isinstance(constr, c.RangeOf):
            constr = constr.constr
        elif isinstance(constr, c.VarConstraint):
            constr = constr.constraint
        else:
            break
    if isinstance(constr, c.EqAttrConstraint):
        if constr.attr == IndexType():
            return "variadic of index" if variadic else "index"
        if constr.attr == IntegerType(1) and dialect == "arith":
            return "bool-like"
        return None
    if isinstance(constr, c.BaseAttr) and constr.attr is IntegerType and dialect == "arith":
        return "signless-fixed-width-integer-like"
    if not isinstance(constr, c.AnyOf):
        return None
    bases: set[type] = set()
    for sub in constr.attr_constrs:
        if isinstance(sub, c.BaseAttr):
            bases.add(sub.attr)
        elif isinstance(sub, c.ParamAttrConstraint):
            bases.add(sub.base_attr)
    shaped = VectorType in bases or TensorType in bases
    if Float32Type in bases:
        return "floating-point-like"
    if IntegerType in bases and IndexType in bases:
        return "signless-integer-like" if shaped else "signless integer or index"
    if IntegerType in bases and shaped:
        return "signless integer or fixed-length vector of signless integer" if dialect == "llvm" else None
    return None


def _def_words(op_name: str, kind: str, field_name: str) -> str | None:
    """MLIR's words for the type constraint of operand/result `field_name` of `op_name`."""
    from xdsl.irdl import VarOperandDef, VarResultDef

    op_type = upstream_context().get_optional_op(op_name)
    if op_type is None:
        return None
    try:
        defs = op_type.get_irdl_definition()  # type: ignore[attr-defined]
    except Exception:
        return None
    for name, d in defs.operands if kind == "operand" else defs.results:
        if name == field_name:
            variadic = isinstance(d, VarOperandDef | VarResultDef)
            words = _constraint_words(d.constr, variadic, op_name.split(".")[0])
            if words == "signless integer or index" and op_name in ("arith.index_cast", "arith.index_castui"):
                return "signless-integer-like or memref of signless-integer"
            return words
    return None


def _first_rejecting(op_name: str, attr_text: str) -> tuple[str, int, str, str] | None:
    """For a custom form xDSL refused with `Unexpected attribute X`: (kind, position, words) of the
    first operand (then result) of `op_name` whose constraint does not take X."""
    from xdsl.utils.exceptions import VerifyException

    op_type = upstream_context().get_optional_op(op_name)
    if op_type is None:
        return None
    try:
        defs = op_type.get_irdl_definition()  # type: ignore[attr-defined]
        attr = Parser(upstream_context(), attr_text).parse_type()
    except Exception:
        return None
    from xdsl.irdl import VerificationContext

    for kind, items in (("operand", defs.operands), ("result", defs.results)):
        for pos, (name, d) in enumerate(items):
            constr = d.constr
            try:
                inner = constr
                from xdsl.irdl import constraints as c

                while isinstance(inner, c.RangeLengthConstraint | c.RangeOf):
                    inner = inner.constraint if isinstance(inner, c.RangeLengthConstraint) else inner.constr
                if isinstance(inner, c.VarConstraint):
                    inner = inner.constraint
                inner.verify(attr, VerificationContext())  # type: ignore[union-attr]
            except VerifyException:
                words = _def_words(op_name, kind, name)
                return (kind, pos, words, name) if words is not None else None
            except Exception:
                return None
    return None


def _custom_parse_words(op_name: str, message: str) -> str | None:
    """mlir-opt 22's words for a VerifyException xDSL raised while building `op_name` from its
    custom form (where MLIR's verifier runs on the built op), or None to keep xDSL's."""
    m = _UNEXPECTED.fullmatch(message)
    if m is not None and op_name == "arith.constant":  # (no type: the value is the wrong kind)
        return "'arith.constant' op value must be an integer, float, or elements attribute"
    if m is not None:
        got = m[1] or m[2] or m[3]
        found = _first_rejecting(op_name, got)
        if found is not None and not _overstates(found[2], got):
            kind, pos, words, field_name = found
            if op_name in _TYPED_BY_PARSER:  # (its format resolves `type($lhs)`: the parser checks)
                return f"custom op '{op_name}' '{field_name}' must be {words}, but got '{got}'"
            return f"'{op_name}' op {kind} #{pos} must be {words}, but got '{got}'"
    return None


# Ops whose assembly format reads an operand's type with `type($x)`: MLIR checks its constraint
# while parsing (`custom op 'arith.cmpi' 'lhs' must be ...`), not in the verifier.
_TYPED_BY_PARSER = frozenset({"arith.cmpi", "arith.cmpf"})
_PREDICATES = {
    "arith.cmpi": "eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge",
    "arith.cmpf": "false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true",
}


def _custom_parse_place(op_name: str, message: str, text: str, name_end: int) -> tuple[int, int, str] | None:
    """(start, end, words) of a custom-form failure MLIR reports at a token of the op, not its name."""
    enum = _enum_place(op_name, message, text, name_end)
    if enum is not None:
        return enum
    m = re.fullmatch(r"Unknown comparison mnemonic: (\w+)", message)
    if m is not None and op_name in _PREDICATES:
        at = re.compile(rf"\b{re.escape(m[1])}\b").search(text, name_end)
        if at is not None:
            words = f"custom op '{op_name}' expected string or keyword containing one of the following enum values for attribute 'predicate' [{_PREDICATES[op_name]}]"
            return at.start(), at.end(), words
    return None


_ENUM_WORDS = {  # op -> (xDSL's enum class, MLIR's sentence after "custom op '<op>' ", the quote before the word or "")
    "vector.reduction": ("CombiningKindFlag", "expected ::mlir::vector::CombiningKind to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, maximumf, minimumf", ""),
    "llvm.icmp": ("ICmpPredicateFlag", "'{0}' is an incorrect value of the 'predicate' attribute", '"'),
    "llvm.fcmp": ("FCmpPredicateFlag", "'{0}' is an incorrect value of the 'predicate' attribute", '"'),
}
_NOT_VALID_ENUM = re.compile(r"'(\w+)' is not a valid (\w+)")
_GPU_DIMENSION = "Expected `x`, `y`, or `z`."


def _enum_place(op_name: str, message: str, text: str, name_end: int) -> tuple[int, int, str] | None:
    """An enum keyword xDSL's Python enum refused (`'foo' is not a valid CombiningKindFlag`), in
    mlir-opt 22's words at its place: the word, or the quoted string holding it."""
    m = _NOT_VALID_ENUM.fullmatch(message)
    known = _ENUM_WORDS.get(op_name)
    if m is None or known is None or m[2] != known[0]:
        return None
    word = re.compile(rf"\b{re.escape(m[1])}\b").search(text, name_end)
    if word is None:
        return None
    at = word.start()
    before = text.rfind(known[2], name_end, at) if known[2] else -1
    if before >= 0 and not text[before + 1 : at].strip():
        at = before
    return at, word.end(), f"custom op '{op_name}' " + known[1].format(m[1])


def _custom_syntax_words(op_name: str, message: str) -> tuple[str, bool] | None:
    """mlir-opt 22's words for a ParseError of `op_name`'s custom parser, and whether MLIR puts
    it at the op's name (else where xDSL does); None to keep xDSL's."""
    if message == _GPU_DIMENSION:
        return f"custom op '{op_name}' expected ::mlir::gpu::Dimension to be one of: x, y, z", False
    if op_name == "scf.for" and re.fullmatch(r"expected \d+ operand types but had \d+", message):
        return "custom op 'scf.for' mismatch in number of loop-carried values and defined values", True
    return None


def _overstates(words: str, bad: str) -> bool:
    """Whether MLIR's constraint `words` takes the type `bad` that xDSL's narrower one refused
    (xDSL's arith casts take no vector of integers): then the sentence would be false."""
    if words != "signless-fixed-width-integer-like":
        return False
    try:
        t = Parser(upstream_context(), bad).parse_type()
    except Exception:
        return True
    return isinstance(getattr(t, "element_type", None), builtin.IntegerType)


def _types(values: object) -> list[str]:
    return [attr_text(v.type) for v in values]  # type: ignore[attr-defined]


def _verify_words(op: Operation, message: str, generic: bool = False) -> str:
    """An xDSL verifier's `message` for `op` in mlir-opt 22's words where a rule knows them
    (`generic`: the op is written in the generic form, where MLIR's parser checks no type)."""
    name = op.name
    prefix = f"'{name}' op "
    m = _CONSTRAINT_FAIL.fullmatch(message)
    if m is not None:
        kind, field_name, pos, inner = m[1], m[2], int(m[3]), m[5].strip()
        got = _UNEXPECTED.fullmatch(inner)
        if got is not None:
            bad = got[1] or got[2] or got[3]
            if m[4] is not None:  # a variadic group: MLIR names the first value that fails
                values = op.operands if kind == "operand" else op.results
                pos = next((i for i in range(pos, int(m[4]) + 1) if i < len(values) and attr_text(values[i].type) == bad), pos)
            words = _def_words(name, kind, field_name)
            if words is not None and _overstates(words, bad):
                words = None
            if words is not None and name in _TYPED_BY_PARSER and kind == "operand" and not generic:
                return f"custom op '{name}' '{field_name}' must be {words}, but got '{bad}'"
            if words is not None:
                return f"{prefix}{kind} #{pos} must be {words}, but got '{bad}'"
        message = inner
    if _VAR_CLASH.fullmatch(message) is not None:
        return prefix + (_SAME_TYPE_WORDS.get(name) or _same_type_words(op))
    xdsl_op = type(op).__module__.startswith("xdsl.")  # (our dialects' verifiers already say what MLIR's say)
    if xdsl_op and name in _ARITH_CASTS and op.operands and op.results and not message.startswith(prefix + "operand #"):
        return f"{prefix}operand type '{attr_text(op.operands[0].type)}' and result type '{attr_text(op.results[0].type)}' are cast incompatible"
    m = _PARENT.fullmatch(message)
    if m is not None and m[1] == name:
        if m[2]:
            parents = sorted(p.strip().strip("'") for p in m[3].split(","))
            return f"{prefix}expects parent op to be one of '{', '.join(parents)}'"
        return f"{prefix}expects parent op {m[3]}"
    m = re.fullmatch(r"Expected (\d+) results?, but got \d+", message)  # (IRDL's, for every dialect)
    if m is not None:
        n = int(m[1])
        return f"{prefix}requires {'zero results' if n == 0 else 'one result' if n == 1 else f'{n} results'}"
    if not xdsl_op:
        return message  # (emitError or not)
    special = _special_words(op, message)
    if special is not None:
        return special
    if message[:1].islower() and not message.startswith("'"):
        return prefix + message  # (MLIR's verifiers emitOpError: the op's name first)
    return message


def _special_words(op: Operation, message: str) -> str | None:  # noqa: C901 (a table of sentences)
    name = op.name
    prefix = f"'{name}' op "
    if message.startswith("Expected arguments to have the same types as the function output types"):
        func = op.parent_op()
        ftype = getattr(func, "function_type", None)
        sym = getattr(func, "sym_name", None)
        if ftype is None or sym is None:
            return None
        outs = list(ftype.outputs)
        if len(outs) != len(op.operands):
            return f"{prefix}has {len(op.operands)} operands, but enclosing function (@{sym.data}) returns {len(outs)}"
        for i, (v, t) in enumerate(zip(op.operands, outs, strict=True)):
            if v.type != t:
                return f"type of return operand {i} ('{attr_text(v.type)}') doesn't match function result type ('{attr_text(t)}') in function @{sym.data}"
        return None
    m = re.fullmatch(r"'@([\w$.]+)' could not be found in symbol table", message)
    if m is not None:
        what = "a valid function" if name.startswith("func.") else "a symbol in the current scope"
        return f"{prefix}'{m[1]}' does not reference {what}"
    m = re.fullmatch(r"operand type mismatch: expected operand type (.+), but provided (.+) for operand number (\d+)", message)
    if m is not None:
        return f"{prefix}operand type mismatch: expected operand type '{m[1]}', but provided '{m[2]}' for operand number {m[3]}"
    m = re.fullmatch(r"result type mismatch: expected result type .+, but provided .+ for result number (\d+)", message)
    if m is not None:
        return f"{prefix}result type mismatch at index {m[1]}"
    if message.startswith("Expected entry block arguments to have the same types as the function input types"):
        ftype = getattr(op, "function_type", None)
        if ftype is None or not op.regions or op.regions[0].first_block is None:
            return None
        args = op.regions[0].first_block.args
        ins = list(ftype.inputs)
        if len(args) != len(ins):
            return f"{prefix}entry block must have {len(ins)} arguments to match function signature"
        for i, (a, t) in enumerate(zip(args, ins, strict=True)):
            if a.type != t:
                return f"{prefix}type of entry block argument #{i}({attr_text(a.type)}) must match the type of the corresponding argument in function signature({attr_text(t)})"
        return None
    m = re.match(r"scf\.yield expected (\d+) args, but got (\d+)", message)
    if m is not None:
        return f"{prefix}along control flow edge from Operation scf.yield to Region #0: region branch point has {m[2]} operands, but region successor needs {m[1]} inputs"
    m = re.match(r"Expected yield arg #(\d+) to be (.+), but got (.+?)\. scf\.yield", message)
    if m is not None:
        return f"{prefix}{m[1]}-th region iter_arg and {m[1]}-th yielded value have different type: '{m[2]}' != '{m[3]}'"
    if message.startswith("op dimension operand count does not equal memref dynamic dimension count"):
        mtype = op.results[0].type if op.results else None
        shape = getattr(mtype, "shape", None)
        if shape is None:
            return None
        from xdsl.dialects.builtin import DYNAMIC_INDEX

        dynamic = sum(1 for d in shape.data if d.data in (-1, DYNAMIC_INDEX))
        sizes = getattr(op, "dynamic_sizes", ())
        return f"{prefix}incorrect number of dynamic sizes, has {len(sizes)}, expected {dynamic}"
    if message == "Expected an index for each dimension." and op.operands:
        base = op.operands[0].type if name == "vector.load" else op.operands[1].type if len(op.operands) > 1 else None
        rank = len(getattr(base, "shape", ()))
        return f"{prefix}requires {rank} indices"
    if re.fullmatch(r"Expected position attribute rank \(\d+\) to match source vector rank \(\d+\)\.", message):
        return f"{prefix}expected position attribute of rank no greater than vector rank"
    if message == "Source operand and result vector must have the same element type.":
        return f"{prefix}failed to verify that source operand and result have same element type"
    m = re.fullmatch(r"number of case values should match number of case blocks \((\d+)\)", message)
    if m is not None:
        values = getattr(op, "case_values", None)
        count = len(values.get_values()) if values is not None else 0
        return f"{prefix}number of case values ({count}) should match number of case destinations ({m[1]})"
    if re.fullmatch(r"'[\w.]+' must be the last operation in its parent block", message) and op.successors:
        return "operation with block successors must terminate its parent block"
    return None


# ---- mlir-opt 22's checks that xDSL's verifiers leave out (run once an op's own verifier passed)


def _element(t: Attribute) -> Attribute:
    return getattr(t, "element_type", t)


def _float_width(t: Attribute) -> int | None:
    width = getattr(_element(t), "bitwidth", None)
    return width if isinstance(width, int) and isinstance(_element(t), builtin.AnyFloat) else None


def _missing_check(op: Operation, order: dict[Operation, int]) -> str | None:  # noqa: C901 (one rule per op family)
    """The first error mlir-opt 22's verifier reports on `op` that xDSL's does not, or None
    (`order`: each op's place in a pre-order walk of the module)."""
    name = op.name
    prefix = f"'{name}' op "
    if op.successors:
        groups: list[list[SSAValue]] | None = None
        if name == "cf.br":
            groups = [list(op.operands)]
        elif name == "cf.cond_br" and len(op.successors) == 2:
            groups = [list(op.then_arguments), list(op.else_arguments)]  # type: ignore[attr-defined]
        for i, (block, values) in enumerate(zip(op.successors, groups or (), strict=False)):
            if len(values) != len(block.args):
                return f"branch has {len(values)} operands for successor #{i}, but target block has {len(block.args)}"
            for j, (v, a) in enumerate(zip(values, block.args, strict=True)):
                if v.type != a.type:
                    return f"type mismatch for bb argument #{j} of successor #{i}"
    if name in ("arith.extf", "arith.truncf") and op.operands and op.results:
        src, dst = _float_width(op.operands[0].type), _float_width(op.results[0].type)
        if src is not None and dst is not None and (src >= dst if name == "arith.extf" else src <= dst):
            return f"{prefix}operand type '{attr_text(op.operands[0].type)}' and result type '{attr_text(op.results[0].type)}' are cast incompatible"
    if name == "scf.if" and op.results:
        then_region, else_region = op.regions[0], op.regions[1]
        if else_region.first_block is None:
            return f"{prefix}must have an else block if defining values"
        for region in (then_region, else_region):
            body = region.first_block
            last = body.last_op if body is not None else None
            if last is None or last.name != "scf.yield" or len(last.operands) != len(op.results):
                continue
            for i, (v, r) in enumerate(zip(last.operands, op.results, strict=True)):
                if v.type != r.type:
                    return (f"{prefix}along control flow edge from Operation scf.yield to parent: successor operand type "
                            f"#{i} '{attr_text(v.type)}' should match successor input type #{i} '{attr_text(r.type)}'")  # fmt: skip
    if name == "scf.while" and len(op.regions) == 2:
        before, after = op.regions[0].first_block, op.regions[1].first_block
        last = after.last_op if after is not None else None
        if before is not None and last is not None and last.name == "scf.yield" and len(last.operands) != len(before.args):
            return (f"{prefix}along control flow edge from Operation scf.yield to Region #0: region branch point has "
                    f"{len(last.operands)} operands, but region successor needs {len(before.args)} inputs")  # fmt: skip
    parent = op.parent_op()
    if name in _PARENT_OF and parent is not None and parent.name != _PARENT_OF[name]:
        return f"{prefix}expects parent op '{_PARENT_OF[name]}'"
    if name == "vector.shape_cast" and op.operands and op.results:
        src_type, dst_type = op.operands[0].type, op.results[0].type
        if isinstance(src_type, builtin.VectorType) and isinstance(dst_type, builtin.VectorType):
            n_src, n_dst = src_type.element_count(), dst_type.element_count()
            if n_src != n_dst:
                return f"{prefix}has different number of elements at source ({n_src}) and result ({n_dst})"
    if name in ("vector.extract", "vector.insert"):
        vec = op.operands[0].type if name == "vector.extract" else op.operands[1].type if len(op.operands) > 1 else None
        position = getattr(op, "static_position", None)
        if isinstance(vec, builtin.VectorType) and position is not None:
            from xdsl.dialects.builtin import DYNAMIC_INDEX

            shape = vec.get_shape()
            for i, p in enumerate(position.get_values()):
                if i < len(shape) and p not in (DYNAMIC_INDEX, -1) and not 0 <= p < shape[i]:
                    what = "vector dimension or poison (-1)" if name == "vector.extract" else "dest vector dimension"
                    return f"{prefix}expected position attribute #{i + 1} to be a non-negative integer smaller than the corresponding {what}"
    if name == "vector.broadcast" and op.operands and op.results:
        from_type, to_type = op.operands[0].type, op.results[0].type
        if isinstance(from_type, builtin.VectorType) and isinstance(to_type, builtin.VectorType):
            s, d = from_type.get_shape(), to_type.get_shape()
            if len(s) <= len(d):
                for from_dim, to_dim in zip(reversed(s), reversed(d), strict=False):
                    if from_dim != 1 and from_dim != to_dim:
                        return f"{prefix}dimension mismatch ({from_dim} vs. {to_dim})"
    if name == "llvm.return" and len(op.operands) == 1 and parent is not None and parent.name == "llvm.func":
        ftype = getattr(parent, "function_type", None)
        output = getattr(ftype, "output", None)
        if output is not None and not isinstance(output, llvm_void_type()) and output != op.operands[0].type:
            return f"{prefix}mismatching result types"
    return _dominance(op, order)


# Ops MLIR 22 allows only directly in one parent (HasParent) that xDSL does not check.
_PARENT_OF = {"gpu.return": "gpu.func", "gpu.func": "gpu.module"}
# Ops whose regions are graph regions (no dominance inside).
_GRAPH_REGIONS = frozenset({"builtin.module", "gpu.module"})


def llvm_void_type() -> type:
    from xdsl.dialects.llvm import LLVMVoidType

    return LLVMVoidType


def _dominance(op: Operation, order: dict[Operation, int]) -> str | None:
    """mlir-opt 22's error for an operand defined later in the same block (or in a block around
    it) than its use, in a region with dominance (`order`: a pre-order walk's places, in which the
    ops of one block stand in their order)."""
    from xdsl.dialects.builtin import UnregisteredOp
    from xdsl.ir import OpResult

    for i, v in enumerate(op.operands):
        if not isinstance(v, OpResult):
            continue
        definer = v.op
        block = definer.parent_block()
        holder = block.parent_op() if block is not None else None
        if block is None or holder is None or holder.name in _GRAPH_REGIONS or isinstance(holder, UnregisteredOp):
            continue
        user: Operation | None = op
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        if user is None:
            continue
        if user is definer or order[user] < order[definer]:
            return f"operand #{i} does not dominate this use"
    return None
