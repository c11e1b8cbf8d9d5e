"""cuda_tile attributes: dense constants (`<f32: [1.0, 2.0]>`) and the enum attributes.

Each enum is one `EnumAttr` kind with its case list; `EnumSyntax` spells it inside an
op's custom form (bare keyword or `<case>`), and `#cuda_tile.kind<case>` generically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Data, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.syntax import attributes as attr_syntax
from tile_lsp.compiler.syntax import lexer

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.parser import Parser


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
    """`<f32: [[1.0, 2.0], [3.0, 4.0]]>`: element type, literal shape, flat values."""

    name = "cuda_tile.dense"
    element_type: Attribute
    literal_shape: ct.IntTuple  # shape as written; () for a scalar/splat literal
    values: ScalarTuple

    @property
    def is_splat(self) -> bool:
        v = self.values.data
        return len(v) > 0 and all(x == v[0] or (_isnan(x) and _isnan(v[0])) for x in v)


def _isnan(x: int | float) -> bool:
    return isinstance(x, float) and math.isnan(x)


def parse_dense_literal(p: Parser) -> DenseAttr:
    """`<elemtype: literal>` where literal is a scalar or nested list."""
    p.expect_punct("<")
    from tile_lsp.compiler.syntax.types import parse_type

    elem = parse_type(p)
    p.expect_punct(":")
    is_float = ct.is_float(elem)
    values: list[int | float] = []
    shape = _parse_literal(p, values, is_float, elem)
    p.expect_punct(">")
    return DenseAttr(elem, ct.ints(shape), ScalarTuple(tuple(values)))


def _parse_literal(p: Parser, out: list[int | float], is_float: bool, elem: Attribute) -> list[int]:
    if p.at_punct("["):
        start = p.span()
        p.advance()
        shapes: list[list[int]] = []
        if not p.at_punct("]"):
            while True:
                shapes.append(_parse_literal(p, out, is_float, elem))
                if not p.accept_punct(","):
                    break
        p.expect_punct("]")
        if any(s != shapes[0] for s in shapes):
            if any(len(s) != len(shapes[0]) for s in shapes):
                p.fail("tensor literal is invalid; ranks are not consistent between elements", start)
            p.fail("tensor literal is invalid; shapes are not consistent between elements", start)
        return [len(shapes)] + (shapes[0] if shapes else [])
    out.append(_parse_scalar(p, is_float, elem))
    return []


def _parse_scalar(p: Parser, is_float: bool, elem: Attribute) -> int | float:
    span = p.span()
    neg = p.accept_punct("-")
    k, tok = p.kind, p.tok
    if k == lexer.BARE and tok in ("true", "false"):
        p.advance()
        return 1 if tok == "true" else 0
    if k == lexer.FLOAT:
        if not is_float:
            p.fail("expected integer value")
        p.advance()
        return -float(tok) if neg else float(tok)
    if k == lexer.INT:
        p.advance()
        if is_float:
            if tok.startswith("0x"):
                return attr_syntax.bits_to_float(int(tok, 16), elem)
            return -float(int(tok)) if neg else float(int(tok))
        value = -int(tok, 0) if neg else int(tok, 0)
        width = ct.bitwidth(elem)
        if width and not (-(1 << (width - 1)) <= value < (1 << width)) and width > 1:
            p.fail("integer constant out of range for type", span)
        if width == 1 and value not in (0, 1, -1):
            p.fail("integer constant out of range for type", span)
        return value
    if k == lexer.BARE and tok in ("inf", "nan") and is_float:
        p.advance()
        return (-math.inf if neg else math.inf) if tok == "inf" else math.nan
    p.fail("expected integer value" if not is_float else "expected floating point literal")
    raise AssertionError


def _scalar_str(v: int | float, elem: Attribute) -> str:
    if ct.is_float(elem):
        f = float(v)
        if math.isnan(f) or math.isinf(f):
            return attr_syntax.float_bits_hex(f, elem)
        return attr_syntax.float_str(f)
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
    if not dims:
        dims = [len(values)]
    pos = 0

    def nest(level: int) -> str:
        nonlocal pos
        if level == len(dims):
            s = _scalar_str(values[pos], elem)
            pos += 1
            return s
        return "[" + ", ".join(nest(level + 1) for _ in range(dims[level])) + "]"

    return f"<{type_str(elem)}: {nest(0)}>"


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

    def can_start(self, p: Parser) -> bool:
        if self.bracketed:
            return p.at_punct("<")
        return p.kind in (lexer.BARE, lexer.STRING) and p.tok.strip('"') in self.cases

    def parse(self, p: Parser) -> Attribute:
        if self.bracketed:
            p.expect_punct("<")
        span = p.span()
        if p.kind == lexer.STRING:
            word = p.tok[1:-1]
        elif p.kind == lexer.BARE:
            word = p.tok
        else:
            p.fail(f"expected valid keyword")
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


def _parse_qualified_enum(kind: str):  # type: ignore[no-untyped-def]
    def parse(p: Parser) -> Attribute:
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


def _parse_dense_qualified(p: Parser) -> Attribute:
    return parse_dense_literal(p)


attr_syntax.DIALECT_ATTR_PRINTERS[EnumAttr] = _print_enum
attr_syntax.DIALECT_ATTR_PRINTERS[DenseAttr] = _print_dense
attr_syntax.DIALECT_ATTR_PARSERS["cuda_tile.dense"] = _parse_dense_qualified
