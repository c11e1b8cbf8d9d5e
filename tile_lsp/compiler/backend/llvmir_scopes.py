"""Nested `builtin.module`s for the LLVM IR emitter.

`mlir-translate --mlir-to-llvmir` translates only the top module's own ops: a nested
`module @m { ... }` is skipped without a word, so functions in it never reach LLVM IR.
A device compiler that drops the user's kernels silently is worse than one that compiles them,
so the emitter flattens nested builtin.modules into the one LLVM module it writes. Each nested
module is its own symbol scope in MLIR, so a name defined in two scopes needs a decision:

- a private/internal definition nothing in its own scope refers to is dead: it is dropped;
- bodiless declarations of the same function type are the same external symbol: one is kept;
- anything else is a diagnostic at the later definition (no renaming behind the user's back).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.dialects import builtin
from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation

_LOCAL_LINKAGES = ("private", "internal")


@dataclass
class Scope:
    """The ops of one module (nested modules excluded) and its name, for messages."""

    module: Operation | None
    ops: list[Operation] = field(default_factory=list)

    @property
    def label(self) -> str:
        if self.module is None:
            return "the top module"
        name = self.module.properties.get("sym_name") or self.module.attributes.get("sym_name")
        return f"module @{name.data}" if isinstance(name, StringAttr) else "an unnamed nested module"


@dataclass
class Flattened:
    ops: list[Operation]
    conflicts: list[tuple[Operation, str]]  # (op, message) for the emitter's diagnostics


def is_nested_module(op: Operation) -> bool:
    return isinstance(op, builtin.ModuleOp)


def flatten_modules(ops: Iterable[Operation]) -> Flattened:
    """`ops` (one module's top-level ops) with nested builtin.modules spliced in, in order."""
    ops = list(ops)
    if not any(is_nested_module(op) for op in ops):
        return Flattened(ops, [])
    scopes: list[Scope] = []
    ordered: list[tuple[Operation, Scope]] = []
    _collect(ops, Scope(None), scopes, ordered)
    by_name: dict[str, list[tuple[Operation, Scope]]] = {}
    for op, scope in ordered:
        name = _sym_name(op)
        if name is not None:
            by_name.setdefault(name, []).append((op, scope))
    dropped: set[int] = set()
    conflicts: list[tuple[Operation, str]] = []
    for name, defs in by_name.items():
        if len(defs) < 2:
            continue
        live = [(op, scope) for op, scope in defs if not _dead(op, name, scope)]
        dropped.update(id(op) for op, _ in defs if all(op is not o for o, _ in live))
        kept = live[:1]
        for op, scope in live[1:]:
            first, first_scope = kept[0]
            if _same_declaration(first, op):
                dropped.add(id(op))
                continue
            conflicts.append(
                (
                    op,
                    f"'@{name}' is defined in {scope.label} and in {first_scope.label}: nested builtin.modules "
                    "are flattened into one LLVM module (mlir-translate skips them); rename one of them",
                )
            )
        if not live:  # every definition is dead: keep the first, LLVM drops it anyway
            dropped.discard(id(defs[0][0]))
    return Flattened([op for op, _ in ordered if id(op) not in dropped], conflicts)


def _collect(ops: list[Operation], scope: Scope, scopes: list[Scope], ordered: list[tuple[Operation, Scope]]) -> None:
    scopes.append(scope)
    for op in ops:
        if isinstance(op, builtin.ModuleOp):
            _collect(list(op.ops), Scope(op), scopes, ordered)
            continue
        scope.ops.append(op)
        ordered.append((op, scope))


def _sym_name(op: Operation) -> str | None:
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def _linkage(op: Operation) -> str:
    if isinstance(op, x.GlobalOp | x.FuncOp) and op.linkage is not None:
        return op.linkage.linkage.data
    return "external"


def _dead(op: Operation, name: str, scope: Scope) -> bool:
    """A definition only its own scope can see, and nobody there uses."""
    return _linkage(op) in _LOCAL_LINKAGES and not any(_refers_to(o, name) for o in scope.ops if o is not op)


def _refers_to(root: Operation, name: str) -> bool:
    for op in root.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if _mentions(attr, name):
                return True
    return False


def _mentions(attr: Attribute, name: str) -> bool:
    if isinstance(attr, SymbolRefAttr):
        return attr.root_reference.data == name
    if isinstance(attr, builtin.ArrayAttr):
        return any(_mentions(a, name) for a in attr.data)
    if isinstance(attr, builtin.DictionaryAttr):
        return any(_mentions(a, name) for a in attr.data.values())
    return False


def _same_declaration(a: Operation, b: Operation) -> bool:
    return (
        isinstance(a, x.FuncOp)
        and isinstance(b, x.FuncOp)
        and not a.body.blocks
        and not b.body.blocks
        and a.function_type == b.function_type
    )


__all__ = ["Flattened", "flatten_modules", "is_nested_module"]
