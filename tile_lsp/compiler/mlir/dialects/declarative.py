"""Declarative custom forms for the ops whose hand-written parsers and printers were all alike.

An op class derives from `FormattedOp` and states its custom form in `FORMAT`, in the words of
MLIR's declarative assembly format (ODS `assemblyFormat`), the subset these ops use:

    `[`, `,`, `to`        a literal (punctuation or keyword)
    $name                 an operand; a variadic one stands between `[` and `]` (`[` $coords `]`)
    type($name)           the type of an operand or result
    attr-dict             the attribute dictionary (properties and attributes, in one)
    (`,` `kw` $name^)?    an optional group: present when its first literal is there; then the rest is required

An operand or result whose type the form does not spell has `Implied(type)` as its constraint.

Why not xDSL's own `assembly_format`: it parses an optional operand inside a started optional group
optionally (`, predicate = :` is accepted, MLIR says "expected SSA operand"), and reads `[...]` lists
and property dictionaries differently from what these ops accepted (and printed) before. This engine
makes exactly the parser calls the hand-written methods made, in their order, so every accepted text
and every parse error (message and position) is the same; verification stays each op's `verify_`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import ClassVar

from typing_extensions import TypeVar
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    InferenceContext,
    IntConstraint,
    IRDLOperation,
    OptionalDef,
    VarOperandDef,
    VerificationContext,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    build_op,
    parse_attrs,
    parse_operand_list,
    print_attr_dict,
)


@dataclass(frozen=True)
class Implied(AttrConstraint):
    """The type an operand or result has when the custom form does not spell it (MLIR's `index`
    barrier ids, `i1` predicates, ...). It checks nothing: verification is the op's own `verify_`."""

    attr: Attribute

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        return None

    def can_infer(self, var_constraint_names: AbstractSet[str]) -> bool:
        return True

    def infer(self, context: InferenceContext) -> Attribute:
        return self.attr

    def mapping_type_vars(self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]) -> Implied:
        return self


# ----------------------------------------------------------------------------------------------
# the format: elements, compiled once per op class
# ----------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"`([^`]*)`|\$(\w+)\^?|type\(\$(\w+)\)|attr-dict|\(|\)\?|\S+")


@dataclass(frozen=True)
class _Literal:
    text: str


@dataclass(frozen=True)
class _Named:
    name: str


class _Operand(_Named):
    """$name."""


class _Type(_Named):
    """type($name)."""


@dataclass(frozen=True)
class _OperandList(_Named):
    """`[` $variadic `]` (none or more), or a bare $variadic (one or more)."""

    bracketed: bool


class _AttrDict:
    """attr-dict."""


@dataclass(frozen=True)
class _Optional:
    anchor: str
    elements: tuple[_Element, ...]


_Element = _Literal | _Operand | _OperandList | _Type | _AttrDict | _Optional


def _compile(text: str, variadic: AbstractSet[str]) -> tuple[_Element, ...]:
    stack: list[list[_Element]] = [[]]
    anchors: list[str] = []
    for m in _TOKEN.finditer(text):
        lit, operand, typed = m.group(1), m.group(2), m.group(3)
        word = m.group(0)
        top = stack[-1]
        if lit is not None:
            top.append(_Literal(lit))
        elif operand is not None:
            if word.endswith("^"):
                anchors.append(operand)
            if operand in variadic:
                bracketed = bool(top) and top[-1] == _Literal("[")
                if bracketed:
                    top.pop()
                top.append(_OperandList(operand, bracketed))
            else:
                top.append(_Operand(operand))
        elif typed is not None:
            top.append(_Type(typed))
        elif word == "attr-dict":
            top.append(_AttrDict())
        elif word == "(":
            stack.append([])
        elif word == ")?":
            group = stack.pop()
            stack[-1].append(_Optional(anchors.pop(), tuple(group)))
        else:
            raise ValueError(f"unknown format element {word!r} in {text!r}")
    assert len(stack) == 1 and not anchors, text
    # the `]` after a `[` $list is the list's own
    out: list[_Element] = []
    for element in stack[0]:
        if element == _Literal("]") and out and isinstance(out[-1], _OperandList) and out[-1].bracketed:
            continue
        out.append(element)
    return tuple(out)


class _Parsed:
    def __init__(self) -> None:
        self.operands: dict[str, UnresolvedOperand | list[UnresolvedOperand]] = {}
        self.types: dict[str, Attribute] = {}
        self.attrs: dict[str, Attribute] = {}


def _parse_literal(parser: Parser, text: str, optional: bool) -> bool:
    if text.isidentifier():
        if optional:
            return parser.parse_optional_keyword(text) is not None
        parser.parse_keyword(text)
        return True
    if optional:
        return parser.parse_optional_punctuation(text) is not None  # type: ignore[arg-type]
    parser.parse_punctuation(text)  # type: ignore[arg-type]
    return True


def _parse(parser: Parser, elements: Sequence[_Element], got: _Parsed) -> None:
    for element in elements:
        if isinstance(element, _Literal):
            _parse_literal(parser, element.text, optional=False)
        elif isinstance(element, _Operand):
            got.operands[element.name] = parser.parse_unresolved_operand()
        elif isinstance(element, _OperandList) and element.bracketed:
            got.operands[element.name] = parse_operand_list(parser)
        elif isinstance(element, _OperandList):
            items = [parser.parse_unresolved_operand()]
            while parser.parse_optional_punctuation(",") is not None:
                items.append(parser.parse_unresolved_operand())
            got.operands[element.name] = items
        elif isinstance(element, _Type):
            got.types[element.name] = parser.parse_type()
        elif isinstance(element, _AttrDict):
            got.attrs = parse_attrs(parser)
        else:
            first = element.elements[0]
            assert isinstance(first, _Literal), "an optional group starts with a literal"
            if _parse_literal(parser, first.text, optional=True):
                _parse(parser, element.elements[1:], got)


class _Spacing:
    """MLIR's spacing of a custom form (OpFormatGen's `shouldEmitSpaceBefore`)."""

    def __init__(self, printer: Printer) -> None:
        self.printer = printer
        self.space = True  # a space may come before the next element
        self.after_punctuation = False

    def literal(self, text: str) -> None:
        if self.space and (
            (len(text) != 1 and text != "->")
            or text[0] not in (">)}]," if self.after_punctuation else "<>(){}[],")
        ):
            self.printer.print_string(" ")
        self.printer.print_string(text)
        self.space = len(text) != 1 or text not in "<({["
        self.after_punctuation = not (text[0] == "_" or text[0].isalpha())

    def element(self) -> None:
        if self.space:
            self.printer.print_string(" ")
        self.space, self.after_punctuation = True, False


def _print(op: FormattedOp, elements: Sequence[_Element], out: _Spacing) -> None:
    printer = out.printer
    for element in elements:
        if isinstance(element, _Literal):
            out.literal(element.text)
        elif isinstance(element, _Operand):
            out.element()
            printer.print_operand(getattr(op, element.name))
        elif isinstance(element, _OperandList):
            if element.bracketed:
                out.literal("[")
                printer.print_list(getattr(op, element.name), printer.print_operand)
                out.literal("]")
            else:
                out.element()
                printer.print_list(getattr(op, element.name), printer.print_operand)
        elif isinstance(element, _Type):
            out.element()
            printer.print_attribute(getattr(op, element.name).type)
        elif isinstance(element, _AttrDict):
            print_attr_dict(printer, op, op.SKIPPED)
            out.space, out.after_punctuation = True, False
        elif getattr(op, element.anchor) is not None:
            _print(op, element.elements, out)


_COMPILED: dict[type, tuple[_Element, ...]] = {}


class FormattedOp(IRDLOperation):
    """An op whose custom form is `FORMAT` (see the module's docstring)."""

    FORMAT: ClassVar[str]
    SKIPPED: ClassVar[tuple[str, ...]] = ()  # not printed in attr-dict (the segment sizes)
    SAME_TYPE: ClassVar[dict[str, str]] = {}  # operand -> the operand or result whose written type it has

    @classmethod
    def _elements(cls) -> tuple[_Element, ...]:
        found = _COMPILED.get(cls)
        if found is None:
            op_def = cls.get_irdl_definition()
            variadic = {n for n, d in op_def.operands if isinstance(d, VarOperandDef) and not isinstance(d, OptionalDef)}
            found = _COMPILED[cls] = _compile(cls.FORMAT, variadic)
        return found

    @classmethod
    def parse(cls, parser: Parser) -> FormattedOp:
        got = _Parsed()
        _parse(parser, cls._elements(), got)
        op_def = cls.get_irdl_definition()

        def type_of(name: str, constr: object) -> Attribute:
            name = cls.SAME_TYPE.get(name, name)
            if name in got.types:
                return got.types[name]
            while not isinstance(constr, Implied):  # (inside xDSL's range and length wrappers)
                inner = getattr(constr, "constraint", None) or getattr(constr, "constr", None)
                assert inner is not None, f"{cls.name}: the type of ${name} is neither written nor implied"
                constr = inner
            return constr.attr

        operands: list[SSAValue | list[SSAValue]] = []
        for name, d in op_def.operands:
            written = got.operands.get(name)
            if isinstance(written, list):
                operands.append([parser.resolve_operand(o, type_of(name, d.constr)) for o in written])
            elif written is None:
                assert isinstance(d, OptionalDef), f"{cls.name}: ${name} is not in the format"
                operands.append([])
            else:
                resolved = parser.resolve_operand(written, type_of(name, d.constr))
                operands.append([resolved] if isinstance(d, OptionalDef) else resolved)
        results = [type_of(name, d.constr) for name, d in op_def.results]
        op = build_op(cls, operands, results, got.attrs)
        assert isinstance(op, FormattedOp)
        return op

    def print(self, printer: Printer) -> None:
        _print(self, self._elements(), _Spacing(printer))
