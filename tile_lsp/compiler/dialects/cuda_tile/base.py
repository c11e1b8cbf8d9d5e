"""Base class of cuda_tile ops: syntax, type constraints and verifier hooks in one place.

Subclasses declare `TILE_FORMAT` (or parse_custom/print_custom), `TYPE_CONSTRAINTS`,
`TYPE_RULES` and optionally `verify_tile`, which yields NVIDIA-worded messages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeVar

from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition

from tile_lsp.compiler.dialects.cuda_tile.constraints import TypeConstraint, TypeRule

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.format import AttrSyntax
    from tile_lsp.compiler.verify_context import VerifyContext


@dataclass(frozen=True)
class OpError:
    """A verifier message MLIR prefixes with `'<op name>' op `; `notes` point at other ops."""

    message: str
    notes: tuple[tuple[Operation, str], ...] = ()
    at: Operation | None = None  # reported at (and named after) this op instead, e.g. a nested one


@dataclass(frozen=True)
class RawError:
    """A verifier message emitted without the op prefix (emitError)."""

    message: str


@dataclass(frozen=True)
class Warning_:
    message: str


VerifyResult = Iterator[OpError | RawError | Warning_]


class CudaTileOp(IRDLOperation):
    """Common behaviour of every cuda_tile op."""

    TILE_FORMAT: ClassVar[str | None] = None
    TYPE_CONSTRAINTS: ClassVar[dict[str, TypeConstraint]] = {}
    TYPE_RULES: ClassVar[tuple[TypeRule, ...]] = ()
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {}
    PROP_DEFAULTS: ClassVar[dict[str, Attribute]] = {}
    DICT_PROPS: ClassVar[tuple[str, ...]] = ()  # properties printed in the attr-dict (unless default)
    DEFAULT_DIALECT: ClassVar[str | None] = None
    ISOLATED: ClassVar[bool] = False
    SINCE: ClassVar[str] = "13.1"
    # Default result names (MLIR's getAsmResultNames) for results the user left unnamed;
    # with several results, each is printed under its own name instead of `%x:N`.
    RESULT_NAMES: ClassVar[tuple[str, ...]] = ()

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        """NVIDIA's op-specific checks; yields nothing when the op is valid."""
        return iter(())


_META_KEYS = (
    "TILE_FORMAT",
    "TYPE_CONSTRAINTS",
    "TYPE_RULES",
    "ATTR_SYNTAX",
    "PROP_DEFAULTS",
    "DICT_PROPS",
    "DEFAULT_DIALECT",
    "ISOLATED",
    "SINCE",
    "RESULT_NAMES",
)

_OpT = TypeVar("_OpT", bound=type[IRDLOperation])


def module_ops(namespace: dict[str, object]) -> list[type[Operation]]:
    """The op classes a module defines (pass its `globals()`), in the order it defines them.

    Ops are the IRDL classes with their own `name`: abstract bases and imported ops are left out.
    """
    module = namespace["__name__"]
    return [
        v
        for v in namespace.values()
        if isinstance(v, type)
        and issubclass(v, IRDLOperation)
        and v.__module__ == module
        and isinstance(v.__dict__.get("name"), str)
    ]


def tile_op(cls: _OpT) -> _OpT:
    """`irdl_op_definition` that also accepts our plain (unannotated) metadata fields."""
    meta = {k: cls.__dict__[k] for k in _META_KEYS if k in cls.__dict__}
    for k in meta:
        delattr(cls, k)
    new = irdl_op_definition(cls)
    for k, v in meta.items():
        setattr(new, k, v)
    return new  # type: ignore[return-value]
