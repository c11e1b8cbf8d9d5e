"""Declarative op syntax: an MLIR assemblyFormat-style string, interpreted both ways.

An op class sets `TILE_FORMAT = "$lhs `,` $rhs attr-dict `:` custom<CudaTileType>(type($result))"`;
`op_syntax` compiles it once into elements that parse into an OpState and print an op.
Ops whose syntax no format can express define `parse_custom`/`print_custom` instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import parse_attr_dict_body, parse_attribute
from tile_lsp.compiler.syntax.types import expect_function_type, parse_type

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter


class AttrSyntax(Protocol):
    """How one attribute is spelled inside an op's custom form."""

    def can_start(self, p: SyntaxParser) -> bool: ...
    def parse(self, p: SyntaxParser) -> Attribute: ...
    def print(self, a: Attribute) -> str: ...


class GenericAttrSyntax:
    """Fallback: any attribute in generic spelling."""

    def can_start(self, p: SyntaxParser) -> bool:
        return p.kind not in (lexer.EOF_, lexer.PUNCT) or p.tok in ("[", "{", "-")

    def parse(self, p: SyntaxParser) -> Attribute:
        return parse_attribute(p)

    def print(self, a: Attribute) -> str:
        from tile_lsp.compiler.syntax.attributes import attr_str

        return attr_str(a, short_types=True)


GENERIC_ATTR = GenericAttrSyntax()

# custom<Name>(...) directives: name -> (parse, print). Registered by dialect modules.
CustomParse = Callable[["SyntaxParser", "OpState", list[str]], None]
CustomPrint = Callable[["SyntaxPrinter", Operation, list[str]], str]
CUSTOM_DIRECTIVES: dict[str, tuple[CustomParse, CustomPrint]] = {}


# -- format elements -----------------------------------------------------------


@dataclass
class Lit:
    text: str


@dataclass
class Var:
    name: str
    kind: str  # operand | attr | region | result


@dataclass
class TypeDir:
    targets: list[str]  # operand/result names, or "operands"/"results"


@dataclass
class Custom:
    name: str
    args: list[str]  # raw argument spellings: "$x", "type($x)", "ref($x)"


@dataclass
class AttrDict:
    with_keyword: bool


@dataclass
class FunctionalType:
    inputs: str
    outputs: str


@dataclass
class Optional_:
    elements: list[Any]
    anchor: str
    else_elements: list[Any] = field(default_factory=list)


_FORMAT_TOKEN = re.compile(
    r"\s*(?:(`[^`]*`)|(\$[A-Za-z_]\w*\^?)|(attr-dict-with-keyword|attr-dict|functional-type|type|custom|qualified|ref|operands|results|regions)|(<[A-Za-z_]\w*>)|([(),?:^]))"
)


def compile_format(fmt: str, fields: registry.OpFields) -> list[Any]:
    """Compile a format string into element objects."""
    tokens = [m for m in _FORMAT_TOKEN.finditer(fmt) if m.group(0).strip()]
    spell = [m.group(0).strip() for m in tokens]
    operand_names = {n for n, _ in fields.operands}
    result_names = {n for n, _ in fields.results}
    region_names = {n for n, _ in fields.regions}
    pos = 0

    def var(tok: str) -> Var:
        name = tok[1:].rstrip("^")
        if name in operand_names:
            return Var(name, "operand")
        if name in result_names:
            return Var(name, "result")
        if name in region_names:
            return Var(name, "region")
        return Var(name, "attr")

    def args_until_close() -> list[str]:
        nonlocal pos
        out: list[str] = []
        cur = ""
        depth = 0
        while True:
            t = spell[pos]
            pos += 1
            if t == "(":
                depth += 1
                cur += t
            elif t == ")":
                if depth == 0:
                    if cur:
                        out.append(cur)
                    return out
                depth -= 1
                cur += t
            elif t == "," and depth == 0:
                out.append(cur)
                cur = ""
            else:
                cur += t

    def seq(stop: set[str]) -> list[Any]:
        nonlocal pos
        out: list[Any] = []
        while pos < len(spell) and spell[pos] not in stop:
            t = spell[pos]
            pos += 1
            if t.startswith("`"):
                out.append(Lit(t[1:-1]))
            elif t.startswith("$"):
                v = var(t)
                if t.endswith("^"):
                    out.append(("anchor", v))
                else:
                    out.append(v)
            elif t in ("attr-dict", "attr-dict-with-keyword"):
                out.append(AttrDict(t == "attr-dict-with-keyword"))
            elif t in ("type", "qualified"):
                assert spell[pos] == "("
                pos += 1
                inner = args_until_close()
                if t == "qualified":
                    out.append(var(inner[0]))
                else:
                    out.append(TypeDir([a.lstrip("$") for a in inner]))
            elif t == "functional-type":
                pos += 1
                a = args_until_close()
                out.append(FunctionalType(a[0].lstrip("$"), a[1].lstrip("$")))
            elif t == "custom":
                name = spell[pos][1:-1]
                pos += 2  # <Name> (
                out.append(Custom(name, args_until_close()))
            elif t == "(":
                inner = seq({")"})
                pos += 1  # )
                else_inner: list[Any] = []
                if pos < len(spell) and spell[pos] == ":":
                    pos += 2  # : (
                    else_inner = seq({")"})
                    pos += 1
                assert spell[pos] == "?", f"bad optional group in {fmt!r}"
                pos += 1
                anchor = ""
                flat: list[Any] = []
                for e in inner:
                    if isinstance(e, tuple):
                        anchor = e[1].name
                        flat.append(e[1])
                    else:
                        flat.append(e)
                if not anchor:
                    anchor = _first_anchor(flat)
                out.append(Optional_(flat, anchor, else_inner))
            elif t in ("operands", "results", "regions"):
                out.append(Var(t, t))
            elif t == "^":
                # An anchor on a custom directive (`custom<X>(type($m))^`): the group's
                # anchor is then found by _first_anchor.
                continue
            else:
                raise ValueError(f"unexpected {t!r} in format {fmt!r}")
        return out

    elements = seq(set())
    return [e[1] if isinstance(e, tuple) else e for e in elements]


def _first_anchor(elements: list[Any]) -> str:
    for e in elements:
        if isinstance(e, Var):
            return e.name
        if isinstance(e, TypeDir):
            return e.targets[0]
        if isinstance(e, Custom):
            return e.args[0].lstrip("$").removeprefix("type(").rstrip(")").lstrip("$")
    return ""


# -- the per-op syntax ---------------------------------------------------------


class OpSyntax:
    """Parse/print for one op class, from its format or its custom hooks."""

    def __init__(self, cls: type[Operation]):
        self.cls = cls
        self.fields = registry.op_fields(cls)
        self.attr_syntax: dict[str, AttrSyntax] = getattr(cls, "ATTR_SYNTAX", {})
        fmt = getattr(cls, "TILE_FORMAT", None)
        self.custom_parse = getattr(cls, "parse_custom", None)
        self.custom_print = getattr(cls, "print_custom", None)
        self.elements = compile_format(fmt, self.fields) if fmt is not None else None
        self.arity = dict(self.fields.operands)
        self.arity.update(self.fields.results)
        self.arity.update(self.fields.regions)
        self.steps = self._compile_steps(self.elements) if self.elements is not None else None

    def parse(self, p: SyntaxParser, state: OpState) -> None:
        if self.custom_parse is not None:
            self.custom_parse(p, state)
        elif self.steps is not None:
            for step in self.steps:
                step(p, state)
        else:
            p.fail(f"'{state.name}' has no custom assembly form; use the generic form")

    def print(self, pr: SyntaxPrinter, op: Operation) -> str:
        if self.custom_print is not None:
            return str(self.custom_print(pr, op))
        assert self.elements is not None
        return _FormatPrinter(self, pr, op).run(self.elements)

    # parsing ------------------------------------------------------------------
    def _compile_steps(self, elements: list[Any]) -> list[Callable[[SyntaxParser, OpState], None]]:
        """One closure per top-level element, specialised for the common cases; this is
        the per-op hot path, so it avoids re-dispatching on element kinds every time."""
        steps: list[Callable[[SyntaxParser, OpState], None]] = []
        for e in elements:
            if isinstance(e, Lit):
                if e.text:
                    steps.append(_literal_step(e.text))
            elif isinstance(e, Var) and e.kind == "operand" and self.arity[e.name] == "single":
                steps.append(_single_operand_step(e.name))
            elif isinstance(e, Custom):
                parse, _ = CUSTOM_DIRECTIVES[e.name]
                steps.append(_custom_step(parse, e.args))
            elif isinstance(e, AttrDict) and not e.with_keyword:
                steps.append(_attr_dict_step)
            else:
                steps.append(self._element_step(e))
        return steps

    def _element_step(self, e: Any) -> Callable[[SyntaxParser, OpState], None]:
        return lambda p, state: self._parse_element(p, state, e)

    def _parse_elements(self, p: SyntaxParser, state: OpState, elements: list[Any]) -> None:
        for e in elements:
            self._parse_element(p, state, e)

    def _parse_element(self, p: SyntaxParser, state: OpState, e: Any) -> None:
        if isinstance(e, Lit):
            t = e.text
            if not t:
                return
            if p.texts[p.i] == t:  # the common case, keyword or punctuation alike
                p.advance()
            elif t[0].isalpha() or t[0] == "_":
                p.expect_keyword(t)
            else:
                p.expect_punct(t)
        elif isinstance(e, Var):
            self._parse_var(p, state, e)
        elif isinstance(e, TypeDir):
            for target in e.targets:
                self._parse_types_for(p, state, target)
        elif isinstance(e, Custom):
            parse, _ = CUSTOM_DIRECTIVES[e.name]
            parse(p, state, e.args)
        elif isinstance(e, AttrDict):
            if e.with_keyword:
                if p.accept_keyword("attributes"):
                    state.attributes.update(parse_attr_dict_body(p))
            elif p.at_punct("{"):
                state.attributes.update(parse_attr_dict_body(p))
        elif isinstance(e, FunctionalType):
            ftype = expect_function_type(p)
            self._assign_types(state, e.inputs, list(ftype.inputs.data))
            self._assign_types(state, e.outputs, list(ftype.outputs.data))
        elif isinstance(e, Optional_):
            if self._optional_present(p, e.elements[0]):
                self._parse_elements(p, state, e.elements)
            elif e.else_elements:
                self._parse_elements(p, state, e.else_elements)

    def _assign_types(self, state: OpState, target: str, types: list[Attribute]) -> None:
        if target == "operands":
            # Distribute in order; only meaningful when all are single/variadic-last.
            pos = 0
            for n, _ in self.fields.operands:
                cnt = len(state.operands.get(n, []))
                state.operand_types[n] = types[pos : pos + cnt]
                pos += cnt
        elif target == "results":
            for n, arity in self.fields.results:
                state.result_types[n] = types if arity == "variadic" else types[:1]
        elif target in dict(self.fields.results):
            state.result_types[target] = types
        else:
            state.operand_types[target] = types

    def _optional_present(self, p: SyntaxParser, first: Any) -> bool:
        if isinstance(first, Lit):
            t = first.text
            if t[0].isalpha() or t[0] == "_":
                return p.at_keyword(t)
            return p.at_punct(t)
        if isinstance(first, Var):
            if first.kind == "operand":
                return p.kind == lexer.VALUE
            if first.kind == "region":
                return p.at_punct("{")
            return self.attr_syntax.get(first.name, GENERIC_ATTR).can_start(p)
        if isinstance(first, TypeDir):
            return p.kind in (lexer.BARE, lexer.BANG)
        if isinstance(first, Custom):
            return p.kind != lexer.EOF_
        return False

    def _parse_var(self, p: SyntaxParser, state: OpState, v: Var) -> None:
        if v.kind == "operand":
            arity = self.arity[v.name]
            start = p.span()
            if arity == "single":
                state.operands[v.name] = [p.parse_value_use()]
            elif arity == "optional":
                state.operands[v.name] = [p.parse_value_use()] if p.kind == lexer.VALUE else []
            else:
                state.operands[v.name] = p.parse_value_use_list()
            state.spans[v.name] = start
        elif v.kind == "attr":
            state.spans[v.name] = p.span()
            syntax = self.attr_syntax.get(v.name, GENERIC_ATTR)
            state.properties[v.name] = syntax.parse(p)
        elif v.kind == "region":
            state.regions.setdefault(v.name, []).append(p.parse_region())
        elif v.kind == "operands":
            uses = p.parse_value_use_list()
            # Assign in declaration order (formats using `operands` have no optionals).
            pos = 0
            for n, arity in self.fields.operands:
                take = 1 if arity == "single" else len(uses) - pos
                state.operands[n] = uses[pos : pos + take]
                pos += take
        else:
            p.fail(f"unsupported format element ${v.name}")

    def _parse_types_for(self, p: SyntaxParser, state: OpState, target: str) -> None:
        if target in ("operands", "results"):
            types = _parse_type_list(p)
            self._assign_types(state, target, types)
            return
        arity = self.arity.get(target, "single")
        if arity == "single":
            types = [parse_type(p)]
        else:
            types = _parse_type_list(p)
        self._assign_types(state, target, types)


def _literal_step(text: str) -> Callable[[SyntaxParser, OpState], None]:
    keyword = text[0].isalpha() or text[0] == "_"

    def step(p: SyntaxParser, state: OpState) -> None:
        if p.texts[p.i] == text:
            p.advance()
        elif keyword:
            p.expect_keyword(text)
        else:
            p.expect_punct(text)

    return step


def _single_operand_step(name: str) -> Callable[[SyntaxParser, OpState], None]:
    def step(p: SyntaxParser, state: OpState) -> None:
        use = p.parse_value_use()
        state.operands[name] = [use]
        state.spans[name] = use.span

    return step


def _custom_step(parse: CustomParse, args: list[str]) -> Callable[[SyntaxParser, OpState], None]:
    return lambda p, state: parse(p, state, args)


def _attr_dict_step(p: SyntaxParser, state: OpState) -> None:
    if p.texts[p.i] == "{":
        state.attributes.update(parse_attr_dict_body(p))


def _parse_type_list(p: SyntaxParser) -> list[Attribute]:
    out: list[Attribute] = []
    if p.kind not in (lexer.BARE, lexer.BANG) and not p.at_punct("("):
        return out
    out.append(parse_type(p))
    while p.at_punct(",") and p.kinds[p.i + 1] in (lexer.BARE, lexer.BANG):
        p.advance()
        out.append(parse_type(p))
    return out


# -- printing ------------------------------------------------------------------


class _FormatPrinter:
    """MLIR's spacing rules for declarative formats."""

    def __init__(self, syntax: OpSyntax, pr: SyntaxPrinter, op: Operation):
        self.s = syntax
        self.pr = pr
        self.op = op
        self.out: list[str] = []
        self.emit_space = True
        self.last_punct = False

    def run(self, elements: list[Any]) -> str:
        for e in elements:
            self.element(e)
        return "".join(self.out)

    def lit(self, text: str) -> None:
        if not text:
            self.emit_space = False
            self.last_punct = True
            return
        if self.emit_space and _space_before(text, self.last_punct):
            self.out.append(" ")
        self.out.append(text)
        self.emit_space = len(text) != 1 or text not in "<({["
        self.last_punct = text[0] != "_" and not text[0].isalpha()

    def chunk(self, text: str) -> None:
        if text:
            if self.emit_space:
                self.out.append(" ")
            self.out.append(text)
        self.emit_space = True
        self.last_punct = False

    def element(self, e: Any) -> None:
        op, pr = self.op, self.pr
        if isinstance(e, Lit):
            self.lit(e.text)
        elif isinstance(e, Var):
            if e.kind in ("operand", "operands"):
                values = _operand_group(op, self.s, e.name)
                self.chunk(", ".join(pr.value_name(v) for v in values))
            elif e.kind == "attr":
                # Not `or`: some attributes (IntegerAttr 0) are falsy.
                a = op.properties.get(e.name)
                if a is None:
                    a = op.attributes.get(e.name)
                if a is not None:
                    if isinstance(a, builtin.UnitAttr):
                        self.emit_space = True
                        return
                    self.chunk(self.s.attr_syntax.get(e.name, GENERIC_ATTR).print(a))
            elif e.kind == "region":
                for r in _region_group(op, self.s, e.name):
                    self.chunk(pr.region_text(r))
        elif isinstance(e, TypeDir):
            types: list[Attribute] = []
            for t in e.targets:
                types.extend(_types_of(op, self.s, t))
            self.chunk(", ".join(pr.type(t) for t in types))
        elif isinstance(e, Custom):
            _, printer = CUSTOM_DIRECTIVES[e.name]
            self.chunk(printer(pr, op, e.args))
        elif isinstance(e, AttrDict):
            text = pr.attr_dict(op, elided=_elided(self.s, op))
            if text:
                if e.with_keyword:
                    self.chunk("attributes " + text)
                else:
                    self.chunk(text)
        elif isinstance(e, FunctionalType):
            ins = _types_of(op, self.s, e.inputs)
            outs = _types_of(op, self.s, e.outputs)
            out = ", ".join(pr.type(t) for t in outs)
            self.chunk(f"({', '.join(pr.type(t) for t in ins)}) -> " + (out if len(outs) == 1 else f"({out})"))
        elif isinstance(e, Optional_):
            if _present(op, self.s, e.anchor):
                for x in e.elements:
                    self.element(x)
            else:
                for x in e.else_elements:
                    self.element(x)


def _space_before(text: str, last_punct: bool) -> bool:
    if len(text) != 1 and text != "->":
        return True
    if last_punct:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


def _elided(s: OpSyntax, op: Operation) -> set[str]:
    names: set[str] = set(s.fields.props)
    names.add("operandSegmentSizes")
    # Properties an op spells in its attribute dictionary, unless they hold their default.
    defaults = getattr(type(op), "PROP_DEFAULTS", {})
    for name in getattr(type(op), "DICT_PROPS", ()):
        if op.properties.get(name, defaults.get(name)) != defaults.get(name):
            names.discard(name)
    return names


def _operand_group(op: Operation, s: OpSyntax, name: str) -> list[Any]:
    if name == "operands":
        return list(op.operands)
    return list(getattr(op, name) if s.arity.get(name) == "variadic" else _as_list(getattr(op, name)))


def _region_group(op: Operation, s: OpSyntax, name: str) -> list[Any]:
    r = getattr(op, name)
    return list(r) if isinstance(r, list | tuple) else [r]


def _as_list(x: Any) -> list[Any]:
    return [] if x is None else [x]


def _types_of(op: Operation, s: OpSyntax, name: str) -> list[Attribute]:
    if name == "operands":
        return [v.type for v in op.operands]
    if name == "results":
        return [r.type for r in op.results]
    values = getattr(op, name)
    if isinstance(values, list | tuple):
        return [v.type for v in values]
    return [] if values is None else [values.type]


def _present(op: Operation, s: OpSyntax, anchor: str) -> bool:
    arity = s.arity.get(anchor)
    if arity is not None:
        x = getattr(op, anchor)
        if isinstance(x, list | tuple):
            return len(x) > 0
        return x is not None
    a = op.properties.get(anchor)
    if a is None:
        a = op.attributes.get(anchor)
    if a is None:
        return False
    default = getattr(op.__class__, "PROP_DEFAULTS", {}).get(anchor)
    return default is None or a != default


@cache
def op_syntax(cls: type[Operation]) -> OpSyntax:
    """An op class's syntax, compiled once per class."""
    return OpSyntax(cls)
