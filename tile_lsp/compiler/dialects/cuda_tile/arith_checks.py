"""Checks shared by the arith, math and conversion ops: type constraints, type rules and
the flush_to_zero/approx/full modifier rules, worded as NVIDIA's verifiers word them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import OpError, VerifyResult
from tile_lsp.compiler.syntax.types import type_str

# CudaTile_FloatTileType lists its element types in this order (unlike C.ALL_FLOATS).
CONV_FLOAT_TILE = C.tile_of(
    C.F16, C.BF16, C.F32, C.F64, C.TF32, C.F8E4M3FN, C.F8E5M2, C.F8E8M0FNU, C.F4E2M1FN, C.F8E5M3FNU
)
I64_TILE = C.tile_of(C.I64)
F32 = C.F32


def _types(op: Operation, name: str) -> list[Attribute]:
    x = getattr(op, name)
    if isinstance(x, list | tuple):
        return [v.type for v in x]
    return [] if x is None else [x.type]


@dataclass(frozen=True)
class ShapesMatch(C.TypeRule):
    """AllShapesMatch over fields whose ODS names differ from ours (`from` is `from_` here)."""

    fields: tuple[str, ...]
    label: str

    def verify(self, op: Operation) -> str | None:
        shapes = [ct.shape_of(t) for n in self.fields for t in _types(op, n)]
        if shapes and any(s != shapes[0] for s in shapes):
            return f"failed to verify that all of {{{self.label}}} have same shape"
        return None


@dataclass(frozen=True)
class RanksMatch(C.TypeRule):
    """AllRanksMatch."""

    fields: tuple[str, ...]

    def verify(self, op: Operation) -> str | None:
        ranks = [len(ct.shape_of(t)) for n in self.fields for t in _types(op, n)]
        if ranks and any(r != ranks[0] for r in ranks):
            return f"failed to verify that all of {{{', '.join(self.fields)}}} have same rank"
        return None


@dataclass(frozen=True)
class I1SameShape(C.TypeRule):
    """The comparison result is a tile of i1 shaped like the operand (TypesMatchWith)."""

    operand: str
    result: str

    def verify(self, op: Operation) -> str | None:
        src, res = _types(op, self.operand), _types(op, self.result)
        if src and res and res[0] != ct.tile(ct.shape_of(src[0]), builtin.i1):
            return "failed to verify that Result type has i1 element type and same shape as operands"
        return None


def result_element(op: Operation) -> Attribute:
    return ct.element_type(op.results[0].type)


def check_ftz(op: Operation) -> VerifyResult:
    """flush_to_zero is an f32-only modifier."""
    ty = result_element(op)
    if "flush_to_zero" in op.properties and ty != F32:
        yield OpError(f"flush_to_zero modifier only supported for f32 data type, but got: '{type_str(ty)}'")


def check_approx(op: Operation, approx: bool) -> VerifyResult:
    ty = result_element(op)
    if approx and ty != F32:
        yield OpError(f"approx modifier only supported for f32 data type, but got: '{type_str(ty)}'")


def check_div_sqrt_modifiers(op: Operation, mode: str) -> VerifyResult:
    """NVIDIA's shared divf/sqrt modifier rules (ftz, then approx, then full: f32 only)."""
    ty = result_element(op)
    name = type_str(ty)
    if "flush_to_zero" in op.properties and ty != F32:
        yield OpError(f"flush_to_zero modifier only supported for f32 data type, but got: '{name}'")
    elif mode in ("approx", "full") and ty != F32:
        yield OpError(f"{mode} modifier only supported for f32 data type, but got: '{name}'")


def check_rounding(mode: str, allowed: tuple[str, ...]) -> VerifyResult:
    if mode not in allowed:
        yield OpError(f"invalid rounding mode specified, expect one of [{', '.join(allowed)}]")
