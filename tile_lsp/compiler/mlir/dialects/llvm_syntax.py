"""Shared pieces of the llvm ops' MLIR 22 syntax: atomic orderings, sync scopes, and
properties written inside the attr-dict (as upstream's custom formats do)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

# LLVM's AtomicOrdering numbering (MLIR's `AtomicOrdering` enum; 3 is unused).
ORDERINGS = {"not_atomic": 0, "unordered": 1, "monotonic": 2, "acquire": 4, "release": 5, "acq_rel": 6, "seq_cst": 7}
ORDERING_NAMES = {v: k for k, v in ORDERINGS.items()}
# MLIR's `AtomicBinOp` numbering (keywords as the custom syntax spells them).
ATOMIC_BIN_OPS = (
    "xchg",
    "add",
    "sub",
    "_and",
    "nand",
    "_or",
    "_xor",
    "max",
    "min",
    "umax",
    "umin",
    "fadd",
    "fsub",
    "fmax",
    "fmin",
    "uinc_wrap",
    "udec_wrap",
    "usub_cond",
    "usub_sat",
    "fmaximum",
    "fminimum",
)
# Inline-asm dialects (MLIR's `AsmDialect`).
ASM_DIALECTS = ("att", "intel")


# ---------------------------------------------------------------------------------------
# small parse/print helpers


def parse_ordering(parser: Parser) -> int:
    name = parser.parse_identifier()
    if name not in ORDERINGS:
        parser.raise_error(f"expected an atomic ordering ({', '.join(ORDERINGS)}), got '{name}'")
    return ORDERINGS[name]


def parse_optional_syncscope(parser: Parser) -> StringAttr | None:
    if parser.parse_optional_keyword("syncscope") is None:
        return None
    parser.parse_punctuation("(")
    scope = parser.parse_str_literal()
    parser.parse_punctuation(")")
    return StringAttr(scope)


def print_syncscope(printer: Printer, scope: StringAttr | None) -> None:
    if scope is not None:
        printer.print_string(" syncscope(")
        printer.print_string_literal(scope.data)
        printer.print_string(")")


def take_props(op: IRDLOperation, attrs: dict[str, Attribute]) -> None:
    """Moves entries of a parsed attr-dict that name properties of `op` into its properties."""
    names = type(op).get_irdl_definition().properties
    for key in list(attrs):
        if key in names:
            op.properties[key] = attrs.pop(key)
    op.attributes |= attrs


def print_attr_dict(printer: Printer, op: IRDLOperation, props: Sequence[str]) -> None:
    """Prints the discardable attributes plus the named properties (MLIR's attr-dict)."""
    merged: dict[str, Attribute] = {}
    for name in props:
        value = op.properties.get(name)
        if value is not None:
            merged[name] = value
    merged |= op.attributes
    printer.print_op_attributes(merged)


def print_flags(printer: Printer, op: IRDLOperation, *flags: tuple[str, str]) -> None:
    """` word` for each (unit property, word) whose property `op` has (`volatile`, `weak`, ...)."""
    for field, word in flags:
        if getattr(op, field) is not None:
            printer.print_string(f" {word}")


def unit(flag: bool) -> UnitAttr | None:
    return UnitAttr() if flag else None
