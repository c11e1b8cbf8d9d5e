"""Op lookup by name, and the per-class facts the parser and printer need (their compiled
syntax: syntax/format.py's `op_syntax`).

Dialect modules are imported on first lookup, so importing the compiler stays cheap.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence
from functools import cache
from typing import Any

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue
from xdsl.ir.core import SSAValues, Use
from xdsl.irdl import IRDLOperation
from xdsl.irdl.operations import (
    OptionalDef,
    OptOperandDef,
    OptPropertyDef,
    OptRegionDef,
    OptResultDef,
    VarOperandDef,
    VarRegionDef,
    VarResultDef,
)

# Modules that define ops; each exposes `OPS: list[type[Operation]]`.
DIALECT_MODULES = (
    "tile_lsp.compiler.dialects.builtin_module",
    "tile_lsp.compiler.dialects.cuda_tile.dialect",
)

_OPS: dict[str, type[Operation]] = {}
_loaded = False
_load_lock = threading.Lock()


def _load() -> None:
    global _loaded
    if _loaded:
        return
    with _load_lock:  # the language server parses on worker threads
        if _loaded:
            return
        for mod_name in DIALECT_MODULES:
            mod = importlib.import_module(mod_name)
            for cls in mod.OPS:
                _OPS[cls.name] = cls
        _loaded = True


def op_class(name: str) -> type[Operation] | None:
    _load()
    return _OPS.get(name)


def all_ops() -> dict[str, type[Operation]]:
    _load()
    return dict(_OPS)


def is_isolated(cls: type[Operation] | None) -> bool:
    return bool(cls is not None and getattr(cls, "ISOLATED", False))


def default_dialect(cls: type[Operation] | None) -> str | None:
    if cls is None:
        return None
    return getattr(cls, "DEFAULT_DIALECT", None)


@cache
def op_fields(cls: type[Operation]) -> OpFields:
    return OpFields(cls)


def is_inherent(cls: type[Operation], key: str) -> bool:
    return key in op_fields(cls).props


class OpFields:
    """Operand/result/region/property names and arities of an IRDL op class."""

    def __init__(self, cls: type[Operation]):
        self.operands: list[tuple[str, str]] = []  # (name, "single"|"optional"|"variadic")
        self.results: list[tuple[str, str]] = []
        self.regions: list[tuple[str, str]] = []
        self.props: set[str] = set()
        self.required_props: tuple[str, ...] = ()
        self.counts: tuple[tuple[str, int, bool], ...] = ()
        self.segmented = False
        if not (isinstance(cls, type) and issubclass(cls, IRDLOperation)):
            return
        d = cls.get_irdl_definition()
        for name, od in d.operands:
            self.operands.append((name, _arity(od, OptOperandDef, VarOperandDef)))
        for name, rd in d.results:
            self.results.append((name, _arity(rd, OptResultDef, VarResultDef)))
        for name, gd in d.regions:
            self.regions.append((name, _arity(gd, OptRegionDef, VarRegionDef)))
        self.props = set(d.properties)
        self.required_props = tuple(sorted(n for n, pd in d.properties.items() if not isinstance(pd, OptPropertyDef)))
        # (what, number of single groups, any optional/variadic group) for the count checks
        self.counts = tuple(
            (what, sum(1 for _, a in groups if a == "single"), any(a != "single" for _, a in groups))
            for what, groups in (("operands", self.operands), ("results", self.results), ("regions", self.regions))
        )
        names = {type(o).__name__ for o in d.options}
        self.segmented = "AttrSizedOperandSegments" in names


def structure_error(op: Operation) -> str | None:
    """MLIR's count checks, for a generic-form op whose shape does not fit its class.

    Such an op must be neither verified further nor printed in custom form (its
    accessors would fail).
    """
    cls = type(op)
    if not (isinstance(cls, type) and issubclass(cls, IRDLOperation)):
        return None
    fields = op_fields(cls)
    for (what, fixed, flexible), have in zip(fields.counts, (len(op.operands), len(op.results), len(op.regions))):
        if flexible:
            if have < fixed:
                return f"expected {fixed} or more {what}, but found {have}"
        elif have != fixed:
            return f"expected {fixed} {what}, but found {have}"
    if fields.segmented:
        sizes = op.properties.get("operandSegmentSizes")
        values = sizes.get_values() if isinstance(sizes, builtin.DenseArrayBase) else None
        if values is None or len(values) != len(fields.operands) or sum(values) != len(op.operands):
            return "operand count does not match the sizes in attribute 'operandSegmentSizes'"
    props = op.properties
    for name in fields.required_props:
        if name not in props and name not in getattr(cls, "PROP_DEFAULTS", {}):
            return f"requires attribute '{name}'"
    return None


def _arity(d: Any, opt: type, var: type) -> str:
    if isinstance(d, opt):
        return "optional"
    if isinstance(d, var):
        return "variadic"
    return "single"


def create_op(
    cls: type[Operation],
    operands: Sequence[SSAValue],
    result_types: Sequence[Attribute],
    properties: dict[str, Attribute],
    attributes: dict[str, Attribute],
    regions: Sequence[Region],
) -> Operation:
    """Create an op without running IRDL verification (our verifier runs later).

    Equivalent to `cls.create(...)` (a test checks that) but skips the generic work
    xDSL's constructor does for successors and locations: op creation is a large
    share of parse time. The caller hands over ownership of `properties`/`attributes`.
    """
    op = cls.__new__(cls)
    if operands:
        values = SSAValues(operands)
        uses = tuple(Use(op, i) for i in range(len(values)))
        for value, use in zip(values, uses):
            value.add_use(use)
        op._operands = values
        op._operand_uses = uses
    if result_types:
        op.results = SSAValues(OpResult(t, op, i) for i, t in enumerate(result_types))
    for name, default in _prop_defaults(cls):
        if name not in properties:
            properties[name] = default
    op.properties = properties
    op.attributes = attributes
    op.location = builtin.UNKNOWN_LOC
    for region in regions:
        op.add_region(region)
    return op


@cache
def _prop_defaults(cls: type[Operation]) -> tuple[tuple[str, Attribute], ...]:
    """IRDL default values of required properties (xDSL's __post_init__ fills them in)."""
    if not (isinstance(cls, type) and issubclass(cls, IRDLOperation)):
        return ()
    out = []
    for name, prop in cls.get_irdl_definition().properties.items():
        if not isinstance(prop, OptionalDef) and prop.default_value is not None:
            out.append((name, prop.default_value))
    return tuple(out)


def segment_sizes(sizes: Sequence[int]) -> builtin.DenseArrayBase:
    return _segment_sizes(tuple(sizes))


@cache
def _segment_sizes(sizes: tuple[int, ...]) -> builtin.DenseArrayBase:
    # Few distinct size tuples occur and building the attribute is slow: share them.
    return builtin.DenseArrayBase.from_list(builtin.i32, list(sizes))
