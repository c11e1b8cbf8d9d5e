"""The 13.5 SIMT preview as cuTile Python 1.7 emits it: `preview$call` and its constant arguments.

cuTile's optional `cuda.tile_preview` package turns a foreign call into one op that calls an
extern function of an NVIDIA tile library (a `.tilelib` that `tileiras --preview=simt -l` links);
the callee is not in the module. The spelling is tileirdisasm 13.5's:

```mlir
%r:2 = preview$call @callee<[3, i32, "mode"]>(%a, %t) : (!cuda_tile.tile<f32>, !cuda_tile.token) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
```

The constant arguments (`<[...]>`, absent when there are none) are symbolic-expression
attributes: an integer (`#cuda_tile<preview$expr_int<3>>`), a type
(`#cuda_tile<preview$concrete_type<i32>>`) or a string (`#cuda_tile<preview$expr_const_str<"mode">>`);
inside `<[...]>` they are written bare. `arg_attrs`/`res_attrs` (arrays of dictionaries) go in
the attr-dict. The rest of the preview (`preview$func`, `preview$extern_impl`, the other
expression attributes) is not modelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, opt_prop_def, prop_def, var_operand_def, var_result_def

from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, tile_op
from tile_lsp.compiler.syntax import attributes as attr_syntax
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import (
    attr_str,
    escape,
    parse_attr_dict_body,
    parse_attribute,
    symbol_name,
    unescape,
)
from tile_lsp.compiler.syntax.types import expect_function_type, long_type_str, parse_type

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext


@irdl_attr_definition
class PreviewExprIntAttr(ParametrizedAttribute):
    """`#cuda_tile<preview$expr_int<N>>`: a 64-bit signed integer constant argument."""

    name = "cuda_tile.preview$expr_int"
    value: builtin.IntAttr


@irdl_attr_definition
class PreviewConcreteTypeAttr(ParametrizedAttribute):
    """`#cuda_tile<preview$concrete_type<T>>`: a type as a constant argument."""

    name = "cuda_tile.preview$concrete_type"
    type: Attribute


@irdl_attr_definition
class PreviewExprConstStrAttr(ParametrizedAttribute):
    """`#cuda_tile<preview$expr_const_str<"s">>`: a string constant argument."""

    name = "cuda_tile.preview$expr_const_str"
    value: builtin.StringAttr


PREVIEW_ATTRS = (PreviewExprIntAttr, PreviewConcreteTypeAttr, PreviewExprConstStrAttr)
_INT64 = (-(1 << 63), (1 << 63) - 1)


def expr_int(v: int) -> PreviewExprIntAttr:
    return PreviewExprIntAttr(builtin.IntAttr(v))


def concrete_type(t: Attribute) -> PreviewConcreteTypeAttr:
    return PreviewConcreteTypeAttr(t)


def const_str(s: str) -> PreviewExprConstStrAttr:
    return PreviewExprConstStrAttr(builtin.StringAttr(s))


def _int_literal(p: SyntaxParser) -> int:
    start = p.span()
    neg = p.accept_punct("-")
    if p.kind != lexer.INT:
        p.fail("expected integer value")
    v = int(p.tok, 0)
    p.advance()
    v = -v if neg else v
    if not _INT64[0] <= v <= _INT64[1]:
        from tile_lsp.compiler.syntax.base import ParseError

        raise ParseError(start, "integer constant out of range for attribute")
    return v


def _bare_const(a: Attribute) -> str:
    """A constant argument as it is written inside `<[...]>`."""
    if isinstance(a, PreviewExprIntAttr):
        return str(a.value.data)
    if isinstance(a, PreviewConcreteTypeAttr):
        return long_type_str(a.type)
    if isinstance(a, PreviewExprConstStrAttr):
        return escape(a.value.data)
    return attr_str(a)


def _qualified(a: Attribute) -> str:
    if isinstance(a, PreviewExprIntAttr):
        body = f"preview$expr_int<{a.value.data}>"
    elif isinstance(a, PreviewConcreteTypeAttr):
        body = f"preview$concrete_type<{long_type_str(a.type)}>"
    else:
        assert isinstance(a, PreviewExprConstStrAttr)
        body = f"preview$expr_const_str<{escape(a.value.data)}>"
    return f"#cuda_tile<{body}>"


def _parse_bare_const(p: SyntaxParser) -> Attribute:
    if p.kind == lexer.INT or (p.kind == lexer.PUNCT and p.tok == "-"):
        return expr_int(_int_literal(p))
    if p.kind == lexer.STRING:
        s = unescape(p.tok)
        p.advance()
        return const_str(s)
    if p.kind == lexer.HASH:
        return parse_attribute(p)
    if p.kind in (lexer.BARE, lexer.BANG):
        return concrete_type(parse_type(p))
    p.fail("expected a constant argument (an integer, a type or a string)")
    raise AssertionError


def _parse_mnemonic_body(p: SyntaxParser, mnemonic: str) -> Attribute:
    """The `<...>` of `preview$expr_int` & co. (the cursor is at its `<`)."""
    p.expect_punct("<")
    a: Attribute
    if mnemonic == "preview$expr_int":
        a = expr_int(_int_literal(p))
    elif mnemonic == "preview$concrete_type":
        a = concrete_type(parse_type(p))
    elif mnemonic == "preview$expr_const_str":
        if p.kind != lexer.STRING:
            p.fail("expected string")
        a = const_str(unescape(p.tok))
        p.advance()
    else:  # pragma: no cover - callers check the mnemonic
        p.fail(f"unknown attribute '{mnemonic}'")
        raise AssertionError
    p.expect_punct(">")
    return a


_MNEMONICS = ("preview$expr_int", "preview$concrete_type", "preview$expr_const_str")


def _parse_dialect_form(p: SyntaxParser) -> Attribute:
    """`#cuda_tile<preview$expr_int<1>>` (the cursor is after `#cuda_tile`)."""
    p.expect_punct("<")
    if p.kind != lexer.BARE or p.tok not in _MNEMONICS:
        p.fail("expected a cuda_tile attribute: preview$expr_int, preview$concrete_type or preview$expr_const_str")
    mnemonic = p.tok
    p.advance()
    a = _parse_mnemonic_body(p, mnemonic)
    p.expect_punct(">")
    return a


def _dotted(mnemonic: str):  # type: ignore[no-untyped-def]
    def parse(p: SyntaxParser) -> Attribute:
        return _parse_mnemonic_body(p, mnemonic)

    return parse


attr_syntax.DIALECT_ATTR_PARSERS["cuda_tile"] = _parse_dialect_form
for _m in _MNEMONICS:
    attr_syntax.DIALECT_ATTR_PARSERS[f"cuda_tile.{_m}"] = _dotted(_m)
for _cls in PREVIEW_ATTRS:
    attr_syntax.DIALECT_ATTR_PRINTERS[_cls] = _qualified

# tileirdisasm's words (NVIDIA's ODS constraint summaries).
CONST_ARGS_ERROR = "attribute 'const_args' failed to satisfy constraint: array of symbolic expression attribute values"
DICT_ARRAY_ERROR = "attribute '{}' failed to satisfy constraint: Array of dictionary attributes"
# Lowering and the interpreter stop at the op with this (the callee is compiled code in a tile library).
NO_TILELIB = (
    "calls @{callee}, an extern function of the SIMT preview that lives in an NVIDIA tile library "
    "(linked by `tileiras --preview=simt -l <library>.tilelib`); tile-lsp cannot see tile libraries, "
    "so it cannot {what} this call"
)


def unsupported_message(op: Operation, what: str) -> str:
    callee = op.properties.get("callee")
    name = attr_str(callee)[1:] if isinstance(callee, builtin.SymbolRefAttr) else "?"
    return f"'{op.name}' " + NO_TILELIB.format(callee=name, what=what)


@tile_op
class PreviewCallOp(CudaTileOp):
    """Calls an extern function of an NVIDIA tile library (13.5 SIMT preview, cuTile's foreign calls).

    The callee is not in this module: it is compiled code in a `.tilelib` that
    `tileiras --preview=simt -l` links. Operands are tiles and, usually last, a token that orders
    the call against memory ops; results are tiles and a token. `<[...]>` holds constant
    arguments (integers, types, strings) the library specialises the callee on. Bytecode with
    this op is 13.5 with the header's preview flag set.

    ```mlir
    %r:2 = preview$call @my_func<[4, f32]>(%x, %t) : (!cuda_tile.tile<f32>, !cuda_tile.token) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
    ```
    """

    name = "cuda_tile.preview$call"
    args = var_operand_def()
    results_ = var_result_def()
    callee = prop_def(builtin.SymbolRefAttr)
    const_args = prop_def(builtin.ArrayAttr, default_value=builtin.ArrayAttr([]))  # `<[...]>`, elided when empty
    arg_attrs = opt_prop_def(builtin.ArrayAttr)
    res_attrs = opt_prop_def(builtin.ArrayAttr)
    SINCE = "13.5"

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        if p.kind != lexer.SYMBOL:
            p.fail("expected valid '@'-identifier for symbol name")
        name = symbol_name(p.tok)
        state.spans["@" + name] = p.span()
        p.advance()
        state.properties["callee"] = builtin.SymbolRefAttr(name)
        if p.accept_punct("<"):
            p.expect_punct("[")
            consts = p.comma_list(lambda: _parse_bare_const(p), "]")
            p.expect_punct(">")
            state.properties["const_args"] = builtin.ArrayAttr(consts)
        state.spans["args"] = p.span()
        p.expect_punct("(")
        refs = p.parse_value_use_list()
        p.expect_punct(")")
        state.operands["args"] = refs
        if p.at_punct("{"):
            state.attributes.update(parse_attr_dict_body(p))
        p.expect_punct(":")
        ftype = expect_function_type(p)
        state.operand_types["args"] = list(ftype.inputs.data)
        state.result_types["results_"] = list(ftype.outputs.data)

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, PreviewCallOp)
        out = " " + attr_str(op.callee)
        consts = op.const_args.data
        if consts:
            out += "<[" + ", ".join(_bare_const(a) for a in consts) + "]>"
        out += "(" + ", ".join(pr.value_name(v) for v in op.args) + ")"
        text = pr.attr_dict(op, elided={"callee", "const_args"})
        if text:
            out += " " + text
        ftype = builtin.FunctionType.from_lists([v.type for v in op.args], [r.type for r in op.results])
        return out + " : " + long_type_str(ftype)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if not all(isinstance(a, PREVIEW_ATTRS) for a in self.const_args.data):
            yield OpError(CONST_ARGS_ERROR)
            return
        for key in ("arg_attrs", "res_attrs"):
            a = self.properties.get(key)
            if a is not None and not all(isinstance(d, builtin.DictionaryAttr) for d in a.data):  # type: ignore[attr-defined]
                yield OpError(DICT_ARRAY_ERROR.format(key))
                return


OPS: list[type[Operation]] = [PreviewCallOp]
