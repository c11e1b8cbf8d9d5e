"""Type constraints and type rules of cuda_tile ops, with NVIDIA's wording.

A `TypeConstraint` checks one operand or result and describes itself the way ODS does
("tile of f16 or bf16 or f32 or f64 values"); a type rule (AllTypesMatch, ...) both
infers types a custom form leaves implicit and verifies them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.dialects.cuda_tile import types as ct

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState


@dataclass(frozen=True)
class TypeConstraint:
    """A predicate on a type plus its ODS-style description."""

    description: str
    predicate: Callable[[Attribute], bool]

    def __call__(self, t: Attribute) -> bool:
        return self.predicate(t)


def _names(types: Sequence[Attribute]) -> str:
    return " or ".join(ct.ELEMENT_TYPE_SPELLING[t] for t in types)


def tile_of(*elements: Attribute, rank: int | None = None, ptr: bool = False) -> TypeConstraint:
    """`tile of i1 or i8 values`; `rank=0` gives `0D tile of ...`."""
    allowed = set(elements)
    desc_elems = _names(elements) + (" or Pointer type" if ptr and elements else "Pointer type" if ptr else "")
    prefix = f"{rank}D tile" if rank is not None else "tile"

    def pred(t: Attribute) -> bool:
        if not isinstance(t, ct.TileType):
            return False
        if rank is not None and t.rank != rank:
            return False
        e = t.element_type
        return e in allowed or (ptr and isinstance(e, ct.PointerType))

    return TypeConstraint(f"{prefix} of {desc_elems} values", pred)


def variadic(c: TypeConstraint) -> TypeConstraint:
    """ODS's wording for each operand of a variadic group: `variadic of ...`."""
    return TypeConstraint(f"variadic of {c.description}", c.predicate)


F16, BF16, F32, F64, TF32 = (
    ct.ELEMENT_TYPE_NAMES["f16"],
    ct.ELEMENT_TYPE_NAMES["bf16"],
    ct.ELEMENT_TYPE_NAMES["f32"],
    ct.ELEMENT_TYPE_NAMES["f64"],
    ct.ELEMENT_TYPE_NAMES["tf32"],
)
F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, F8E5M3FNU = (
    ct.ELEMENT_TYPE_NAMES["f8E4M3FN"],
    ct.ELEMENT_TYPE_NAMES["f8E5M2"],
    ct.ELEMENT_TYPE_NAMES["f8E8M0FNU"],
    ct.ELEMENT_TYPE_NAMES["f4E2M1FN"],
    ct.ELEMENT_TYPE_NAMES["fnv8E5M3FNU"],
)
I1, I8, I16, I32, I64 = builtin.i1, builtin.i8, builtin.i16, builtin.i32, builtin.i64

INTS = (I1, I8, I16, I32, I64)
BASE_FLOATS = (F16, BF16, F32, F64)
ALL_FLOATS = (F16, BF16, F32, TF32, F64, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, F8E5M3FNU)
NUMBERS = (I1, I8, I16, I32, I64, F16, BF16, F32, F64, TF32, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN, F8E5M3FNU)

INT_TILE = tile_of(*INTS)
FLOAT_TILE = tile_of(*BASE_FLOATS)
ANY_FLOAT_TILE = tile_of(*ALL_FLOATS)
NUMBER_TILE = tile_of(*NUMBERS)
# ODS's `CudaTile_TileType`: any tile (NVIDIA's words: "Tile type"; select, broadcast, reshape,
# permute, cat, extract take it), whatever its element type
ANY_TILE = TypeConstraint("Tile type", lambda t: isinstance(t, ct.TileType))
PTR_TILE = tile_of(ptr=True)
I1_TILE = tile_of(I1)
SCALAR_I1 = tile_of(I1, rank=0)
SCALAR_INT = tile_of(*INTS, rank=0)
SCALAR_I32 = tile_of(I32, rank=0)
TOKEN = TypeConstraint("cuda_tile.token type", lambda t: isinstance(t, ct.TokenType))
TENSOR_VIEW = TypeConstraint("cuda_tile.tensor_view type", lambda t: isinstance(t, ct.TensorViewType))
ANY_TYPE = TypeConstraint("any type", lambda t: True)


# -- type rules ----------------------------------------------------------------


class TypeRule:
    """Infers missing types while parsing and checks them while verifying."""

    def infer(self, state: OpState) -> None:
        return None

    def verify(self, op: Operation) -> str | None:
        return None


def _get_types(op: Operation, name: str) -> list[Attribute]:
    where = _single_positions(type(op)).get(name)
    if where is not None:  # fast path: index the op instead of IRDL's accessor
        is_result, index = where
        return [(op.results if is_result else op.operands)[index].type]
    x = getattr(op, name)
    if isinstance(x, list | tuple):
        return [v.type for v in x]
    return [] if x is None else [x.type]


@cache
def _single_positions(cls: type[Operation]) -> dict[str, tuple[bool, int]]:
    """Positions of operands/results that precede any optional or variadic group."""
    from tile_lsp.compiler.dialects import registry

    fields = registry.op_fields(cls)
    out: dict[str, tuple[bool, int]] = {}
    for is_result, groups in ((False, fields.operands), (True, fields.results)):
        for index, (name, arity) in enumerate(groups):
            if arity != "single":
                break
            out[name] = (is_result, index)
    return out


@cache
def _result_names(op_name: str) -> frozenset[str]:
    from tile_lsp.compiler.dialects import registry

    cls = registry.op_class(op_name)
    return frozenset(n for n, _ in registry.op_fields(cls).results) if cls else frozenset()


def _set_state_types(state: OpState, name: str, types: list[Attribute], results: frozenset[str] | set[str]) -> None:
    if name in results:
        state.result_types.setdefault(name, types)
    else:
        state.operand_types.setdefault(name, types)


@dataclass(frozen=True)
class AllTypesMatch(TypeRule):
    names: tuple[str, ...]

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    def infer(self, state: OpState) -> None:
        result_types, operand_types = state.result_types, state.operand_types
        known = None
        missing = []
        for n in self.names:
            t = result_types.get(n) or operand_types.get(n)
            if t:
                if known is None:
                    known = t[0]
            elif n not in result_types and n not in operand_types:
                missing.append(n)
        if known is None or not missing:
            return
        results = _result_names(state.name)
        for n in missing:
            count = len(state.operands.get(n, [None])) if n not in results else 1
            _set_state_types(state, n, [known] * count, results)

    def verify(self, op: Operation) -> str | None:
        seen: list[Attribute] = []
        for n in self.names:
            seen.extend(_get_types(op, n))
        if seen and any(t != seen[0] for t in seen):
            return f"failed to verify that all of {{{', '.join(self.names)}}} have same type"
        return None


@dataclass(frozen=True)
class _AllAgree(TypeRule):
    """All of `names` agree on one property of their types (`key`), ODS-worded by `WHAT`."""

    names: tuple[str, ...]
    WHAT: ClassVar[str] = ""

    def __init__(self, *names: str):
        object.__setattr__(self, "names", names)

    @staticmethod
    def key(t: Attribute) -> object:
        raise NotImplementedError

    def verify(self, op: Operation) -> str | None:
        keys = [self.key(t) for n in self.names for t in _get_types(op, n)]
        if keys and any(k != keys[0] for k in keys):
            return f"failed to verify that all of {{{', '.join(self.names)}}} have {self.WHAT}"
        return None


class SameShape(_AllAgree):
    """AllShapesMatch / SameOperandsAndResultShape."""

    WHAT: ClassVar[str] = "same shape"
    key = staticmethod(ct.shape_of)


class SameElementType(_AllAgree):
    WHAT: ClassVar[str] = "the same element type"
    key = staticmethod(ct.element_type)


class SameRank(_AllAgree):
    WHAT: ClassVar[str] = "same rank"

    @staticmethod
    def key(t: Attribute) -> object:
        return len(ct.shape_of(t))
