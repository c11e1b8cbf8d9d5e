"""Parsing and printing of generic MLIR attributes (attr-dicts, properties, generic form).

Dialect attributes register a parser for their `#dialect.mnemonic` spelling; any
attribute nobody models is kept verbatim as an OpaqueAttr.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, TypeAttribute

from tile_lsp.compiler.dialects.cuda_tile import floats
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.interfaces import ArgDef
from tile_lsp.compiler.syntax.types import OpaqueAttr, parse_type, type_str

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser

# `#cuda_tile.foo` -> parser called with the cursor after the HASH token.
DIALECT_ATTR_PARSERS: dict[str, Callable[[SyntaxParser], Attribute]] = {}
# Builtin attribute keywords a dialect models (`dense` -> cuda_tile's DenseAttr); the
# parser is called with the cursor at the keyword.
BUILTIN_ATTR_PARSERS: dict[str, Callable[[SyntaxParser], Attribute]] = {}
# Builtin attributes spelled `keyword(...)`, called with the cursor at the keyword: `loc`
# (syntax/locations.py registers it; the parser imports it, so it is there for every parse).
CALL_ATTR_PARSERS: dict[str, Callable[[SyntaxParser], Attribute]] = {}
# Attribute class -> printer of its full `#dialect.foo<...>` spelling.
DIALECT_ATTR_PRINTERS: dict[type[Attribute], Callable[[Attribute], str]] = {}


def _float_from_bits(bits: int, t: Attribute) -> float:
    fmt = floats.float_format(t)
    return floats.from_bits(bits, fmt) if fmt is not None else float(bits)


def parse_arg_def(
    p: SyntaxParser,
    parse_arg_type: Callable[[SyntaxParser], Attribute] = parse_type,
    message: str = "expected SSA identifier",
    attr_dict: bool = True,
) -> ArgDef:
    """`%name : type [{attrs}] [loc(...)]`, an argument of a region header (the attributes,
    where allowed, are read and dropped); `message` when it does not start with a value name."""
    if p.kind != lexer.VALUE:
        p.fail(message)
    name, span = p.tok, p.span()
    p.advance()
    p.expect_punct(":")
    t = parse_arg_type(p)
    if attr_dict and p.at_punct("{"):
        parse_attr_dict_body(p)
    loc = p.parse_location() if p.at_keyword("loc") else None
    return ArgDef(name, t, span, loc)


def parse_attribute(p: SyntaxParser) -> Attribute:
    """Parse any attribute value at the cursor."""
    return p.nested("attributes", _parse_attribute, p)


def _parse_attribute(p: SyntaxParser) -> Attribute:
    k = p.kind
    tok = p.tok
    if k == lexer.INT or (k == lexer.PUNCT and tok == "-") or k == lexer.FLOAT:
        return _parse_number(p)
    if k == lexer.STRING:
        p.advance()
        return builtin.StringAttr(unescape(tok))
    if k == lexer.BARE:
        if tok in ("true", "false"):
            p.advance()
            return builtin.IntegerAttr(1 if tok == "true" else 0, builtin.i1)
        if tok == "unit":
            p.advance()
            return builtin.UnitAttr()
        if tok == "array" and p.peek_punct("<"):
            return _parse_dense_array(p)
        if p.peek_punct("(") and tok in CALL_ATTR_PARSERS:
            return CALL_ATTR_PARSERS[tok](p)
        handler = BUILTIN_ATTR_PARSERS.get(tok)
        if handler is not None and p.peek_punct("<"):
            return handler(p)
        if tok in ("dense", "dense_resource", "sparse", "affine_map", "affine_set", "strided", "distinct"):
            return _parse_opaque(p)
        return parse_type(p)
    if k == lexer.PUNCT:
        if tok == "[":
            p.advance()
            return builtin.ArrayAttr(p.comma_list(lambda: parse_attribute(p), "]"))
        if tok == "{":
            return builtin.DictionaryAttr(parse_attr_dict_body(p))
        if tok == "(":
            return parse_type(p)
    if k == lexer.SYMBOL:
        return _parse_symbol_ref(p)
    if k == lexer.BANG:
        return parse_type(p)
    if k == lexer.HASH:
        alias = p.attr_aliases.get(tok)
        if alias is not None:
            p.advance()
            return alias
        mnemonic = tok[1:]
        handler = DIALECT_ATTR_PARSERS.get(mnemonic)
        if handler is None and ("." in mnemonic or mnemonic == "cuda_tile"):
            # Dialects register their attribute parsers when loaded; aliases come first.
            from tile_lsp.compiler.dialects import registry

            registry.op_class("")
            handler = DIALECT_ATTR_PARSERS.get(mnemonic)
        if handler is not None:
            p.advance()
            return handler(p)
        return _parse_opaque(p)
    p.fail("expected attribute value")
    raise AssertionError


_HEX = frozenset("0123456789abcdefABCDEF")


def unescape(tok: str) -> str:
    """A string literal's value, as MLIR's lexer reads it: `\\n`, `\\t`, `\\"`, `\\\\` and two hex
    digits (a byte: `\\C3\\A9` is one "é", the value being UTF-8; bytes that are not UTF-8 are
    kept as surrogate escapes, so they print back as they came)."""
    body = tok[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in "nt\"\\":
                out += {"n": b"\n", "t": b"\t", '"': b'"', "\\": b"\\"}[n]
                i += 2
                continue
            if i + 2 < len(body) and n in _HEX and body[i + 2] in _HEX:
                out.append(int(body[i + 1 : i + 3], 16))
                i += 3
                continue
        out += _utf8(c)
        i += 1
    return out.decode("utf-8", "surrogateescape")


def _utf8(c: str) -> bytes:
    try:
        return c.encode("utf-8", "surrogateescape")  # (a byte a file held that is not UTF-8)
    except UnicodeEncodeError:  # a lone surrogate from an editor's text
        return "\ufffd".encode()


def escape(s: str) -> str:
    """A string literal as MLIR prints it (llvm::printEscapedString): printable ASCII as itself,
    `\\` doubled, and every other byte of the UTF-8 value, `"` included, as two hex digits
    (`"a\\22b\\0A\\C3\\A9"`: what tileirdisasm and mlir-opt print)."""
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return '"' + s + '"'
    out: list[str] = []
    for b in b"".join(_utf8(c) for c in s):
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b <= 0x7E and b != 0x22:
            out.append(chr(b))
        else:
            out.append(f"\\{b:02X}")
    return '"' + "".join(out) + '"'


def _parse_symbol_ref(p: SyntaxParser) -> builtin.SymbolRefAttr:
    root = symbol_name(p.tok)
    p.advance()
    nested: list[str] = []
    while p.at_punct("::"):
        p.advance()
        if p.kind != lexer.SYMBOL:
            p.fail("expected symbol reference")
        nested.append(symbol_name(p.tok))
        p.advance()
    return builtin.SymbolRefAttr(root, nested)


def symbol_name(tok: str) -> str:
    body = tok[1:]
    return unescape(body) if body.startswith('"') else body


def _parse_number(p: SyntaxParser) -> Attribute:
    neg = p.accept_punct("-")
    k = p.kind
    tok = p.tok
    if k == lexer.FLOAT:
        p.advance()
        value = -float(tok) if neg else float(tok)
        ftype: Attribute = builtin.f64
        if p.accept_punct(":"):
            start = p.span()
            ftype = parse_type(p)
            if not isinstance(ftype, builtin.AnyFloat):  # xDSL would raise on a non-float type
                p.fail("floating point value not valid for specified type", start)
        return builtin.FloatAttr(value, ftype)  # type: ignore[call-overload]
    if k != lexer.INT:
        p.fail("expected integer value")
    literal = p.span()
    ivalue = p.int_token(message="integer constant out of range for attribute")
    p.advance()
    if neg:
        ivalue = -ivalue
    if p.accept_punct(":"):
        t = parse_type(p)
        if isinstance(t, builtin.AnyFloat):
            if tok.startswith("0x"):
                fmt = floats.float_format(t)
                if neg:
                    p.fail("hexadecimal float literal should not have a leading minus", literal)
                if fmt is not None and ivalue.bit_length() > fmt.width:
                    p.fail("hexadecimal float constant out of range for type", literal)
                return builtin.FloatAttr(_float_from_bits(ivalue, t), t)
            return builtin.FloatAttr(float(ivalue), t)
        if isinstance(t, builtin.IntegerType | builtin.IndexType):
            _check_int_range(p, ivalue, t, literal)
            return builtin.IntegerAttr(ivalue, t, truncate_bits=True)  # type: ignore[call-arg]
        _check_int_range(p, ivalue, builtin.i64, literal)
        return builtin.IntegerAttr(ivalue, builtin.i64)
    _check_int_range(p, ivalue, builtin.i64, literal)
    return builtin.IntegerAttr(ivalue, builtin.i64)


def _check_int_range(p: SyntaxParser, value: int, t: Attribute, literal: Span) -> None:
    """MLIR's rule for an integer attribute of type `t`: the literal must fit in its width
    (signless: negative values as signed, others up to 2**width - 1; unsigned: no sign)."""
    width = t.width.data if isinstance(t, builtin.IntegerType) else 64
    unsigned = isinstance(t, builtin.IntegerType) and t.signedness.data == builtin.Signedness.UNSIGNED
    signed = isinstance(t, builtin.IntegerType) and t.signedness.data == builtin.Signedness.SIGNED
    low = 0 if unsigned or width == 0 else -(1 << (width - 1))
    high = (1 << (width - 1)) if signed else (1 << width)
    if not low <= value < high:
        p.fail("integer constant out of range for attribute", literal)




def _parse_dense_array(p: SyntaxParser) -> Attribute:
    p.advance()  # array
    p.expect_punct("<")
    elem_span = p.span()
    elem = parse_type(p)
    if not isinstance(elem, builtin.IntegerType | builtin.AnyFloat):
        p.fail(f"expected integer or float type, got: {type_str(elem)}", Span(elem_span.start, p.prev_end()))
    values: list[int | float] = []
    if p.accept_punct(":"):
        while True:
            start = p.starts[p.i]
            if elem == builtin.i1 and p.kind == lexer.BARE and p.tok in ("true", "false"):
                values.append(1 if p.tok == "true" else 0)  # MLIR prints i1 arrays as true/false
                p.advance()
                if not p.accept_punct(","):
                    break
                continue
            a = _parse_number(p)
            value = a.value.data  # type: ignore[attr-defined]
            if isinstance(elem, builtin.IntegerType):
                if not isinstance(value, int):
                    p.fail("expected integer elements", Span(start, p.prev_end()))
                _check_int_range(p, value, elem, Span(start, p.prev_end()))
            values.append(value)
            if not p.accept_punct(","):
                break
    p.expect_punct(">")
    if isinstance(elem, builtin.IntegerType):
        return builtin.DenseArrayBase.from_list(elem, [int(v) for v in values])
    return builtin.DenseArrayBase.from_list(elem, [float(v) for v in values])  # type: ignore[call-overload]


def _parse_opaque(p: SyntaxParser) -> OpaqueAttr:
    start = p.starts[p.i]
    p.advance()
    if p.at_punct("<") and p.starts[p.i] == p.ends[p.i - 1]:
        p.skip_balanced()
    return OpaqueAttr(p.text[start : p.ends[p.i - 1]])


def parse_attr_dict_body(p: SyntaxParser) -> dict[str, Attribute]:
    """`{a = 1, b}`: the cursor is at `{`."""
    p.expect_punct("{")
    out: dict[str, Attribute] = {}
    if p.accept_punct("}"):
        return out
    while True:
        if p.kind == lexer.STRING:
            key = unescape(p.tok)
            p.advance()
        elif p.kind == lexer.BARE:
            key = p.tok
            p.advance()
        else:
            p.fail("expected attribute name")
        if p.accept_punct("="):
            out[key] = parse_attribute(p)
        else:
            out[key] = builtin.UnitAttr()
        if p.accept_punct("}"):
            return out
        p.expect_punct(",")


# -- printing ---------------------------------------------------------------






def attr_str(a: Attribute, short_types: bool = False) -> str:
    """Generic spelling of an attribute value."""
    printer = DIALECT_ATTR_PRINTERS.get(type(a))
    if printer is not None:
        return printer(a)
    if isinstance(a, OpaqueAttr):
        return a.data
    if isinstance(a, builtin.StringAttr):
        return escape(a.data)
    if isinstance(a, builtin.UnitAttr):
        return "unit"
    if isinstance(a, builtin.IntegerAttr):
        t = a.type
        if t == builtin.i1:
            return "true" if a.value.data else "false"
        if t == builtin.i64:
            return str(a.value.data)
        return f"{a.value.data} : {type_str(t)}"
    if isinstance(a, builtin.FloatAttr):
        fmt = floats.float_format(a.type) or floats.F64
        return f"{floats.format_float(a.value.data, fmt)} : {type_str(a.type)}"
    if isinstance(a, builtin.ArrayAttr):
        return "[" + ", ".join(attr_str(x, short_types) for x in a.data) + "]"
    if isinstance(a, builtin.DictionaryAttr):
        return dict_str(a.data, short_types)
    if isinstance(a, builtin.DenseArrayBase):
        values = a.get_values()
        et = a.elt_type
        if not values:
            return f"array<{type_str(et)}>"
        body = ", ".join(
            ("true" if v else "false") if et == builtin.i1 else str(v) for v in values
        )
        return f"array<{type_str(et)}: {body}>"
    if isinstance(a, builtin.SymbolRefAttr):
        return "@" + _sym(a.root_reference.data) + "".join("::@" + _sym(n.data) for n in a.nested_references.data)
    if isinstance(a, TypeAttribute):
        return type_str(a, short=short_types)
    return str(a)


def _sym(name: str) -> str:
    ok = name and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c in "_$.-" for c in name)
    return name if ok else escape(name)


def dict_str(d: Mapping[str, Attribute] | Sequence[tuple[str, Attribute]], short_types: bool = False) -> str:
    items = d.items() if isinstance(d, Mapping) else d
    parts = []
    for k, v in items:
        key = k if _sym(k) == k else escape(k)
        parts.append(key if isinstance(v, builtin.UnitAttr) else f"{key} = {attr_str(v, short_types)}")
    return "{" + ", ".join(parts) + "}"
