"""cuda_tile attributes: dense constants (`<f32: [1.0, 2.0]>`) and the enum attributes.

Each enum is one `EnumAttr` kind with its case list; `EnumSyntax` spells it inside an
op's custom form (bare keyword or `<case>`), and `#cuda_tile.kind<case>` generically.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from tile_lsp.compiler.dialects.cuda_tile import floats
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.syntax import attributes as attr_syntax
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.base import ParseError

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser


@irdl_attr_definition
class ScalarTuple(Data[tuple[int | float, ...]]):
    """Flat row-major element values of a dense constant."""

    name = "cuda_tile.scalars"

    @classmethod
    def parse_parameter(cls, parser):  # type: ignore[no-untyped-def]  # pragma: no cover
        raise NotImplementedError

    def print_parameter(self, printer) -> None:  # type: ignore[no-untyped-def]  # pragma: no cover
        printer.print_string(repr(self.data))


@irdl_attr_definition
class DenseAttr(ParametrizedAttribute):
    """`<f32: [[1.0, 2.0], [3.0, 4.0]]>`: element type, literal shape, flat values.

    Integers are stored sign-extended to the element width (i1 as 0/1), floats already
    rounded to the element format, so equal constants compare equal.
    """

    name = "cuda_tile.dense"
    element_type: Attribute
    literal_shape: ct.IntTuple  # shape as written; () for a scalar/splat literal
    values: ScalarTuple

    @property
    def is_splat(self) -> bool:
        v = self.values.data
        return len(v) > 0 and all(_same(x, v[0]) for x in v)


def _same(a: int | float, b: int | float) -> bool:
    """Bitwise-style equality: NaN equals NaN, 0.0 differs from -0.0 (as MLIR's splat test)."""
    if isinstance(a, float) or isinstance(b, float):
        fa, fb = float(a), float(b)
        if math.isnan(fa) or math.isnan(fb):
            return math.isnan(fa) and math.isnan(fb)
        return fa == fb and math.copysign(1.0, fa) == math.copysign(1.0, fb)
    return a == b


DENSE_ELEMENT_DESC = (
    "i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 "
    "or f8E8M0FNU or f4E2M1FN or fnv8E5M3FNU"
)


def parse_dense_literal(p: SyntaxParser, op_name: str | None = None) -> DenseAttr:
    """`<elemtype: literal>` where literal is a scalar or nested list (NVIDIA's custom parser).

    `op_name` prefixes errors the way MLIR words errors raised inside a custom op parser.
    """
    from tile_lsp.compiler.syntax.types import long_type_str, parse_type

    def err(msg: str) -> str:
        return f"custom op '{op_name}' {msg}" if op_name else msg

    if not p.at_punct("<"):
        p.fail(err("expected '<'"))
    p.advance()
    start = p.span()
    try:
        elem = parse_type(p)
    except ParseError:
        if p.kind == lexer.BARE:  # MLIR reports the unknown mnemonic, then the missing type
            p.sink.error(start, err(f"unknown type: {p.tok}"))
        p.fail(err(f"expect element type to be one of {DENSE_ELEMENT_DESC} values, but got '<<NULL TYPE>>'"), start)
        raise
    if elem not in ct.ELEMENT_TYPE_SPELLING:
        p.fail(err(f"expect element type to be one of {DENSE_ELEMENT_DESC} values, but got '{long_type_str(elem)}'"))
    p.expect_punct(":")
    values: list[int | float] = []
    reader = _ScalarReader(p, elem, err)
    shape = _parse_literal(p, values, reader, err)
    p.expect_punct(">")
    return DenseAttr(elem, ct.ints(shape), ScalarTuple(tuple(values)))


def _parse_literal(p: SyntaxParser, out: list[int | float], reader: _ScalarReader, err: Callable[[str], str]) -> list[int]:
    """A scalar (shape []) or `[...]`; every element of a list must have the same shape."""
    if not p.accept_punct("["):
        out.append(reader.read())
        return []
    return p.nested("literal lists", _parse_list, p, out, reader, err)


def _parse_list(p: SyntaxParser, out: list[int | float], reader: _ScalarReader, err: Callable[[str], str]) -> list[int]:
    first: list[int] | None = None
    count = 0
    while True:
        shape = _parse_literal(p, out, reader, err)
        count += 1
        if first is None:
            first = shape
        elif shape != first:
            p.fail(err("tensor literal is invalid; ranks are not consistent between elements"))
        if not p.accept_punct(","):
            break
    p.expect_punct("]")
    return [count, *(first or [])]


class _ScalarReader:
    """Reads one element literal for the element type (MLIR parseInteger / parseFloat rules)."""

    def __init__(self, p: SyntaxParser, elem: Attribute, err: Callable[[str], str]):
        self.p = p
        self.elem = elem
        self.err = err
        self.fmt = floats.float_format(elem)
        self.width = ct.bitwidth(elem) if self.fmt is None else 0

    def read(self) -> int | float:
        return self._float() if self.fmt is not None else self._int()

    def _int(self) -> int:
        p, err, width = self.p, self.err, self.width
        start = p.i  # spans are built only for errors: this runs once per element
        kind, tok = p.kind, p.tok
        if kind == lexer.BARE and tok in ("true", "false"):
            if width != 1:
                p.fail(err("expected integer value"), p.span(start))
            p.advance()
            return 1 if tok == "true" else 0
        neg = kind == lexer.PUNCT and tok == "-"
        if neg:
            p.advance()
            kind, tok = p.kind, p.tok
        if kind != lexer.INT:
            p.fail(err("expected integer value"), p.span(start))
        p.advance()
        try:
            value = lexer.int_value(tok)
        except lexer.IntegerTooLong:  # (past any width: not converted)
            value = 1 << 64
        value = -value if neg else value
        if not -(1 << 63) <= value < (1 << 63):
            p.fail(err("integer value too large"), p.span(start))
        if width < 64 and not -(1 << (width - 1)) <= value < (1 << width):
            p.fail(err("integer constant out of range for type"), p.span(start))
        if width == 1:
            return 1 if value else 0
        value &= (1 << width) - 1  # stored bits, read back as signed
        return value - (1 << width) if value >> (width - 1) else value

    def _float(self) -> float:
        p, err, fmt = self.p, self.err, self.fmt
        assert fmt is not None
        start = p.i
        kind, tok = p.kind, p.tok
        neg = kind == lexer.PUNCT and tok == "-"
        if neg:
            p.advance()
            kind, tok = p.kind, p.tok
        if kind == lexer.FLOAT:
            p.advance()
            return floats.round_to(-float(tok) if neg else float(tok), fmt)
        if kind == lexer.INT:
            if not tok.startswith("0x"):
                raise ParseError(
                    p.span(),
                    err("unexpected decimal integer literal for a floating point value"),
                    ((p.span(), "add a trailing dot to make the literal a float"),),
                )
            if neg:
                p.fail(err("hexadecimal float literal should not have a leading minus"), p.span(start))
            bits = p.int_token(message=err("hexadecimal float constant out of range for type"))
            if bits.bit_length() > fmt.width:
                p.fail(err("hexadecimal float constant out of range for type"))
            p.advance()
            return floats.from_bits(bits, fmt)
        p.fail(err("expected floating point literal"))
        raise AssertionError


def _scalar_str(v: int | float, elem: Attribute) -> str:
    fmt = floats.float_format(elem)
    if fmt is not None:
        return floats.format_float(float(v), fmt)
    if elem == builtin.i1:
        return "true" if v else "false"
    return str(int(v))


def dense_literal_str(a: DenseAttr, shape: Sequence[int] | None = None) -> str:
    """`<f32: [1.0, 2.0]>` with splats collapsed to one scalar, as NVIDIA prints."""
    from tile_lsp.compiler.syntax.types import type_str

    elem = a.element_type
    values = a.values.data
    if a.is_splat or not values:
        body = _scalar_str(values[0], elem) if values else "[]"
        return f"<{type_str(elem)}: {body}>"
    dims = list(shape) if shape is not None else list(a.literal_shape.data)
    if not dims or _product(dims) != len(values):
        dims = list(a.literal_shape.data) or [len(values)]
    pos = 0

    def nest(level: int) -> str:
        nonlocal pos
        if level == len(dims):
            s = _scalar_str(values[pos], elem)
            pos += 1
            return s
        return "[" + ", ".join(nest(level + 1) for _ in range(dims[level])) + "]"

    return f"<{type_str(elem)}: {nest(0)}>"


def _product(dims: Sequence[int]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


# -- enums ---------------------------------------------------------------------


@irdl_attr_definition
class EnumAttr(ParametrizedAttribute):
    """A cuda_tile enum value: `kind` names the enum (rounding, ...), `value` the case."""

    name = "cuda_tile.enum"
    kind: builtin.StringAttr
    value: builtin.StringAttr

    @property
    def case(self) -> str:
        return self.value.data


@cache  # attributes are immutable; building one through xDSL costs more than the lookup
def enum(kind: str, value: str) -> EnumAttr:
    return EnumAttr(builtin.StringAttr(kind), builtin.StringAttr(value))


class EnumSyntax:
    """Spelling of an enum in a custom form: `case`, `<case>`, or `"case"`."""

    def __init__(self, kind: str, cases: Sequence[str], bracketed: bool = False, what: str | None = None):
        self.kind = kind
        self.cases = tuple(cases)
        self.bracketed = bracketed
        self.what = what or kind
        ENUM_KINDS.setdefault(kind, self)

    def can_start(self, p: SyntaxParser) -> bool:
        if self.bracketed:
            return p.at_punct("<")
        return p.kind in (lexer.BARE, lexer.STRING) and p.tok.strip('"') in self.cases

    def parse(self, p: SyntaxParser) -> Attribute:
        if self.bracketed:
            p.expect_punct("<")
        span = p.span()
        if p.kind == lexer.STRING:
            word = p.tok[1:-1]
        elif p.kind == lexer.BARE:
            word = p.tok
        else:
            p.fail("expected valid keyword")
            raise AssertionError
        if word not in self.cases:
            p.fail(
                f"expected {self.what} to be one of: {{{', '.join(repr(c) for c in self.cases)}}}",
                span,
            )
        p.advance()
        if self.bracketed:
            p.expect_punct(">")
        return enum(self.kind, word)

    def print(self, a: Attribute) -> str:
        case = a.case if isinstance(a, EnumAttr) else str(a)
        return f"<{case}>" if self.bracketed else case


ENUM_KINDS: dict[str, EnumSyntax] = {}


class UnitSyntax:
    """A unit attribute inside an optional group: the group's keyword is its whole spelling."""

    def can_start(self, p: SyntaxParser) -> bool:
        return False

    def parse(self, p: SyntaxParser) -> Attribute:
        return builtin.UnitAttr()

    def print(self, a: Attribute) -> str:
        return ""


UNIT = UnitSyntax()


class IntAttrSyntax:
    """A typed integer attribute written as a bare integer (its type is the attribute's)."""

    def __init__(self, width: int):
        self.type = builtin.IntegerType(width)

    def can_start(self, p: SyntaxParser) -> bool:
        return p.kind == lexer.INT or p.at_punct("-")

    def parse(self, p: SyntaxParser) -> Attribute:
        return builtin.IntegerAttr(p.parse_int_literal(), self.type)

    def print(self, a: Attribute) -> str:
        return str(a.value.data) if isinstance(a, builtin.IntegerAttr) else str(a)


def _parse_qualified_enum(kind: str):  # type: ignore[no-untyped-def]
    def parse(p: SyntaxParser) -> Attribute:
        syntax = ENUM_KINDS[kind]
        p.expect_punct("<")
        word, span = p.expect_bare("enum case")
        if word not in syntax.cases:
            p.fail(f"expected {syntax.what} to be one of: {{{', '.join(repr(c) for c in syntax.cases)}}}", span)
        p.expect_punct(">")
        return enum(kind, word)

    return parse


def register_enum_spellings() -> None:
    """Make `#cuda_tile.<kind><case>` parse and print for every registered enum."""
    for kind in ENUM_KINDS:
        attr_syntax.DIALECT_ATTR_PARSERS[f"cuda_tile.{kind}"] = _parse_qualified_enum(kind)


def _print_enum(a: Attribute) -> str:
    assert isinstance(a, EnumAttr)
    return f"#cuda_tile.{a.kind.data}<{a.value.data}>"


def _print_dense(a: Attribute) -> str:
    assert isinstance(a, DenseAttr)
    return "#cuda_tile.dense" + dense_literal_str(a)


def _parse_dense_qualified(p: SyntaxParser) -> Attribute:
    return parse_dense_literal(p)


attr_syntax.DIALECT_ATTR_PRINTERS[EnumAttr] = _print_enum
attr_syntax.DIALECT_ATTR_PRINTERS[DenseAttr] = _print_dense
attr_syntax.DIALECT_ATTR_PARSERS["cuda_tile.dense"] = _parse_dense_qualified


def parse_mlir_dense(p: SyntaxParser) -> Attribute:
    """MLIR's builtin `dense<[1.0, 2.0]> : tensor<2xf32>`, as generic-form printers write a
    constant's value; becomes a DenseAttr. Anything else stays verbatim (OpaqueAttr)."""
    from tile_lsp.compiler.syntax.types import parse_dims_and_element

    start_i = p.i
    p.advance()  # dense
    close = p.matching_close(p.i)
    if close < 0 or p.texts[close + 1] != ":" or p.texts[close + 2] != "tensor":
        p.i = start_i
        return _opaque(p)
    literal_i = p.i
    p.i = close + 3
    p.expect_punct("<")
    dims, elem = parse_dims_and_element(p, allow_dynamic=False)
    p.expect_punct(">")
    end_i = p.i
    if elem not in ct.ELEMENT_TYPE_SPELLING:
        p.i = start_i
        return _opaque(p)
    p.i = literal_i + 1
    values: list[int | float] = []
    if p.kind == lexer.STRING:  # hex blob form: not modelled
        p.i = start_i
        return _opaque(p)
    reader = _ScalarReader(p, elem, lambda m: m)
    shape = _parse_literal(p, values, reader, lambda m: m)
    if p.i != close:
        p.fail("expected '>'")
    p.i = end_i
    if not shape and len(values) == 1 and dims:  # a splat written as one scalar
        shape = []
    return DenseAttr(elem, ct.ints(shape or ([len(values)] if len(values) > 1 else [])), ScalarTuple(tuple(values)))


def _opaque(p: SyntaxParser) -> Attribute:
    start = p.starts[p.i]
    p.advance()
    p.skip_balanced()
    if p.accept_punct(":"):
        from tile_lsp.compiler.syntax.types import parse_type

        parse_type(p)
    from tile_lsp.compiler.syntax.types import OpaqueAttr

    return OpaqueAttr(p.text[start : p.ends[p.i - 1]])


attr_syntax.BUILTIN_ATTR_PARSERS["dense"] = parse_mlir_dense

