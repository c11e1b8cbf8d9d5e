"""NVVM intrinsic lowering on the llvm dialect (seed 004): a worklist rewrite of
`llvm.call_intrinsic "llvm.nvvm.*"` calls into plain llvm ops, bounded by ITERATION_LIMIT.

Level 0 (basic): vector decomposition of vector-typed calls into per-lane scalar calls, shuffle
lowering of pure data reorganisation (`shufflevector`), and type conversions whose semantics
match a standard cast exactly. Level 1 (barrier-aware): old barrier spellings become LLVM 22's
canonical `llvm.nvvm.barrier.cta.*` intrinsics. A call no rule matches is left alone (the NVPTX
backend or a later run may handle it): this pass reports nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import builtin, llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tile_lsp.compiler.lowering.common import LoweringContext, constant_value
from tile_lsp.compiler.mlir.dialects.llvm_ext import ExtractElementOp, UIToFPOp
from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

_CALL_INTRINSIC = llvm.CallIntrinsicOp.name

ITERATION_LIMIT = 30
"""How many rewrites deep one call's lowering may go (new calls a rewrite creates count one deeper)."""

BASIC = 0
BARRIER = 1


class _Emitter:
    """Inserts new ops before the call being lowered, each with the call's location."""

    def __init__(self, call: Operation) -> None:
        self.call = call
        self.created: list[Operation] = []

    def op(self, new: Operation) -> Operation:
        new.location = self.call.location
        Rewriter.insert_op(new, InsertPoint.before(self.call))
        self.created.append(new)
        return new

    def value(self, new: Operation) -> SSAValue:
        return self.op(new).results[0]

    def const(self, value: int, type: IntegerType = i32) -> SSAValue:
        return self.value(llvm.ConstantOp(IntegerAttr(value, type), type))

    def intrinsic(self, name: str, args: Sequence[SSAValue], result: Attribute | None) -> Operation:
        new = llvm.CallIntrinsicOp(name, list(args), [result] if result is not None else [])
        # Metadata (discardable attributes) goes with the call to its replacement calls.
        new.attributes.update(self.call.attributes)
        return self.op(new)


# A rule looks at a call (name, operands, result) and either returns None (no match) or rewrites
# it through the emitter, returning the values that replace the call's results.
RuleFn = Callable[["IntrinsicCall", _Emitter], "list[SSAValue] | None"]


@dataclass(frozen=True)
class IntrinsicCall:
    op: llvm.CallIntrinsicOp

    @property
    def name(self) -> str:
        return self.op.intrin.data

    @property
    def args(self) -> list[SSAValue]:
        return list(self.op.args)

    @property
    def result_type(self) -> Attribute | None:
        return self.op.results[0].type if self.op.results else None


@dataclass(frozen=True)
class Rule:
    """One lowering rule: `matches` is a cheap check (name, types); `rewrite` builds the replacement."""

    name: str
    level: int
    category: str  # "vector", "shuffle", "conversion", "barrier"
    matches: Callable[[IntrinsicCall], bool]
    rewrite: RuleFn


# --------------------------------------------------------------------------------------------
# Level 0: vector decomposition

# Packed NVVM math whose lanes are independent; `<base>.f16x2` has the scalar twin `<base>.f16`.
_PACKED = re.compile(r"llvm\.nvvm\.(fmin|fmax|fma|ex2|abs|neg|add|sub|mul)\b(.*)\.(f16|bf16)x2")
# Scalar NVVM math intrinsics by their element-type suffix (`.f` f32, `.d` f64, ...) and scalar
# conversions (`f2bf16.rn`, `i2f.rz`, ...): one value in, one out, lanes independent.
_SCALAR = re.compile(
    r"llvm\.nvvm\.[a-z0-9_.]+\.(f|d|f16|bf16|ftz\.f)"
    r"|llvm\.nvvm\.(f|d|i|ui|ll|ull)2(f|d|i|ui|ll|ull|bf16|h|tf32)\.(rn|rz|rm|rp|rna)(\.ftz)?(\.relu)?(\.satfinite)?"
)


def _vector_shape(call: IntrinsicCall) -> int | None:
    """Lane count when the result and every vector operand are 1-d vectors of the same length."""
    res = call.result_type
    if not isinstance(res, VectorType) or len(res.get_shape()) != 1:
        return None
    lanes = res.get_shape()[0]
    for arg in call.args:
        if isinstance(arg.type, VectorType) and tuple(arg.type.get_shape()) != (lanes,):
            return None
    return lanes


def _scalar_name(call: IntrinsicCall) -> str | None:
    m = _PACKED.fullmatch(call.name)
    if m is not None:
        return call.name.removesuffix("x2")
    if _SCALAR.fullmatch(call.name) and any(isinstance(a.type, VectorType) for a in call.args):
        return call.name
    return None


def _decomposes(call: IntrinsicCall) -> bool:
    return _vector_shape(call) is not None and _scalar_name(call) is not None


def _decompose(call: IntrinsicCall, emit: _Emitter) -> list[SSAValue] | None:
    lanes = _vector_shape(call)
    narrow = _scalar_name(call)
    result = call.result_type
    if lanes is None or narrow is None or not isinstance(result, VectorType):
        return None
    index = [emit.const(i) for i in range(lanes)]
    per_lane: list[list[SSAValue]] = []
    for arg in call.args:
        if isinstance(arg.type, VectorType):
            per_lane.append([emit.value(ExtractElementOp(arg, index[i])) for i in range(lanes)])
        else:
            per_lane.append([arg] * lanes)
    scalars = [
        emit.intrinsic(narrow, [lane_args[i] for lane_args in per_lane], result.element_type).results[0]
        for i in range(lanes)
    ]
    vec = emit.value(llvm.UndefOp(result))
    for i, scalar in enumerate(scalars):
        vec = emit.value(llvm.InsertElementOp(vec, scalar, index[i]))
    return [vec]


# --------------------------------------------------------------------------------------------
# Level 0: shuffle lowering (pure data reorganisation)


def _prmt_mask(call: IntrinsicCall) -> list[int] | None:
    """`prmt.b32 d, a, b, c` picks byte i of d from the 8 bytes {b, a} by nibble i of c; with no
    sign-replicate bit set that is a byte shuffle."""
    if call.name != "llvm.nvvm.prmt" or len(call.args) != 3 or call.result_type != i32:
        return None
    selector = constant_value(call.args[2])
    if selector is None or selector & 0x8888:
        return None
    return [(selector >> (4 * i)) & 0x7 for i in range(4)]


def _lower_prmt(call: IntrinsicCall, emit: _Emitter) -> list[SSAValue] | None:
    mask = _prmt_mask(call)
    if mask is None:
        return None
    bytes4 = VectorType(IntegerType(8), [4])
    a = emit.value(llvm.BitcastOp(call.args[0], bytes4))
    b = emit.value(llvm.BitcastOp(call.args[1], bytes4))
    shuffled = emit.value(llvm.ShuffleVectorOp(a, b, DenseArrayBase.from_list(i32, mask), bytes4))
    return [emit.value(llvm.BitcastOp(shuffled, i32))]


_SHFL_IDENTITY = re.compile(r"llvm\.nvvm\.shfl\.sync\.(bfly|up|down)\.(i32|f32)")


def _is_shfl_identity(call: IntrinsicCall) -> bool:
    """bfly 0 / up 0 / down 0: every lane reads its own value (the value-only form)."""
    return bool(_SHFL_IDENTITY.fullmatch(call.name)) and len(call.args) == 4 and constant_value(call.args[2]) == 0


def _lower_shfl_identity(call: IntrinsicCall, emit: _Emitter) -> list[SSAValue] | None:
    return [call.args[1]] if _is_shfl_identity(call) else None


# --------------------------------------------------------------------------------------------
# Level 0: type conversions with standard semantics (round-to-nearest-even casts, bit casts)


def _conversion_table() -> dict[str, tuple[type[Attribute], Callable[[SSAValue, Attribute], Operation]]]:
    sitofp = llvm.SIToFPOp
    return {
        "llvm.nvvm.f2bf16.rn": (BFloat16Type, llvm.FPTruncOp),
        "llvm.nvvm.d2f.rn": (Float32Type, llvm.FPTruncOp),
        "llvm.nvvm.i2f.rn": (Float32Type, sitofp),
        "llvm.nvvm.ll2f.rn": (Float32Type, sitofp),
        "llvm.nvvm.i2d.rn": (Float64Type, sitofp),
        "llvm.nvvm.ll2d.rn": (Float64Type, sitofp),
        "llvm.nvvm.ui2f.rn": (Float32Type, UIToFPOp),
        "llvm.nvvm.ull2f.rn": (Float32Type, UIToFPOp),
        "llvm.nvvm.ui2d.rn": (Float64Type, UIToFPOp),
        "llvm.nvvm.ull2d.rn": (Float64Type, UIToFPOp),
        "llvm.nvvm.bitcast.f2i": (IntegerType, llvm.BitcastOp),
        "llvm.nvvm.bitcast.i2f": (Float32Type, llvm.BitcastOp),
        "llvm.nvvm.bitcast.d2ll": (IntegerType, llvm.BitcastOp),
        "llvm.nvvm.bitcast.ll2d": (Float64Type, llvm.BitcastOp),
    }


_CONVERSIONS = _conversion_table()
_PAIR_TO_X2 = {"llvm.nvvm.ff2bf16x2.rn": BFloat16Type, "llvm.nvvm.ff2f16x2.rn": Float16Type}


def _is_conversion(call: IntrinsicCall) -> bool:
    if call.name in _CONVERSIONS:
        want, _ = _CONVERSIONS[call.name]
        return len(call.args) == 1 and isinstance(call.result_type, want)
    if call.name in _PAIR_TO_X2:
        res = call.result_type
        return (len(call.args) == 2 and isinstance(res, VectorType) and tuple(res.get_shape()) == (2,)
                and isinstance(res.element_type, _PAIR_TO_X2[call.name]))  # fmt: skip
    if call.name == "llvm.nvvm.f2h.rn":
        return len(call.args) == 1 and call.result_type == IntegerType(16)
    if call.name == "llvm.nvvm.h2f":
        return len(call.args) == 1 and call.args[0].type == IntegerType(16)
    return False


def _lower_conversion(call: IntrinsicCall, emit: _Emitter) -> list[SSAValue] | None:
    if not _is_conversion(call):
        return None
    result = call.result_type
    assert result is not None
    if call.name in _CONVERSIONS:
        _, make = _CONVERSIONS[call.name]
        return [emit.value(make(call.args[0], result))]
    if call.name in _PAIR_TO_X2:
        # cvt.rn.{b}f16x2.f32 d, a, b: the high half (lane 1) is a, the low half (lane 0) is b.
        assert isinstance(result, VectorType)
        elem = result.element_type
        hi = emit.value(llvm.FPTruncOp(call.args[0], elem))
        lo = emit.value(llvm.FPTruncOp(call.args[1], elem))
        vec = emit.value(llvm.UndefOp(result))
        vec = emit.value(llvm.InsertElementOp(vec, lo, emit.const(0)))
        return [emit.value(llvm.InsertElementOp(vec, hi, emit.const(1)))]
    if call.name == "llvm.nvvm.f2h.rn":
        half = emit.value(llvm.FPTruncOp(call.args[0], Float16Type()))
        return [emit.value(llvm.BitcastOp(half, IntegerType(16)))]
    half = emit.value(llvm.BitcastOp(call.args[0], Float16Type()))  # llvm.nvvm.h2f
    return [emit.value(llvm.FPExtOp(half, Float32Type()))]


# --------------------------------------------------------------------------------------------
# Level 1: barrier canonicalisation (old spellings -> LLVM 22's barrier.cta.*)

_BARRIER_RENAMES: dict[str, tuple[str, int]] = {
    # old name: (canonical name, number of operands the old form takes)
    "llvm.nvvm.barrier0": ("llvm.nvvm.barrier.cta.sync.aligned.all", 0),
    "llvm.nvvm.barrier.n": ("llvm.nvvm.barrier.cta.sync.aligned.all", 1),
    "llvm.nvvm.bar.sync": ("llvm.nvvm.barrier.cta.sync.aligned.all", 1),
    "llvm.nvvm.barrier": ("llvm.nvvm.barrier.cta.sync.aligned.count", 2),
    "llvm.nvvm.barrier.sync": ("llvm.nvvm.barrier.cta.sync.all", 1),
    "llvm.nvvm.barrier.sync.cnt": ("llvm.nvvm.barrier.cta.sync.count", 2),
}
_BARRIER_REDUCTIONS = {"llvm.nvvm.barrier0.popc": "popc", "llvm.nvvm.barrier0.and": "and",
                       "llvm.nvvm.barrier0.or": "or"}  # fmt: skip


def _is_old_barrier(call: IntrinsicCall) -> bool:
    if call.name in _BARRIER_RENAMES:
        return len(call.args) == _BARRIER_RENAMES[call.name][1] and call.result_type is None
    return call.name in _BARRIER_REDUCTIONS and len(call.args) == 1 and call.result_type == i32


def _lower_old_barrier(call: IntrinsicCall, emit: _Emitter) -> list[SSAValue] | None:
    if not _is_old_barrier(call):
        return None
    if call.name in _BARRIER_RENAMES:
        new_name, _ = _BARRIER_RENAMES[call.name]
        args = call.args or [emit.const(0)]
        emit.intrinsic(new_name, args, None)
        return []
    kind = _BARRIER_REDUCTIONS[call.name]
    zero = emit.const(0)
    pred = emit.value(llvm.ICmpOp(call.args[0], zero, IntegerAttr(1, i64)))  # ne
    result: Attribute = i32 if kind == "popc" else i1
    value: SSAValue = emit.intrinsic(f"llvm.nvvm.barrier.cta.red.{kind}.aligned.all", [zero, pred], result).results[0]
    if result == i1:
        value = emit.value(llvm.ZExtOp(value, i32))
    return [value]


RULES: list[Rule] = [
    Rule("vector-decomposition", BASIC, "vector", _decomposes, _decompose),
    Rule("prmt-to-shufflevector", BASIC, "shuffle", lambda c: _prmt_mask(c) is not None, _lower_prmt),
    Rule("shfl-identity", BASIC, "shuffle", _is_shfl_identity, _lower_shfl_identity),
    Rule("standard-conversion", BASIC, "conversion", _is_conversion, _lower_conversion),
    Rule("barrier-canonical", BARRIER, "barrier", _is_old_barrier, _lower_old_barrier),
]


# --------------------------------------------------------------------------------------------
# The rewrite loop


def lower_intrinsics(
    module: builtin.ModuleOp, lctx: LoweringContext | None, level: int, rules: Sequence[Rule] | None = None
) -> int:
    """Lower the llvm.nvvm.* calls of `module` the rules of `level` cover; the number of rewrites.

    Each call is taken from a worklist; the first rule of its level that matches rewrites it, and
    the calls that rewrite creates join the worklist one step deeper. A chain stops at
    ITERATION_LIMIT steps (a safety net against rules that keep producing lowerable calls).
    """
    del lctx  # nothing here is a user error: an unlowered intrinsic is not a failure
    active = [r for r in (RULES if rules is None else rules) if r.level == level]
    if not active:
        return 0
    worklist: list[tuple[llvm.CallIntrinsicOp, int]] = [  # (name compares: no ABC isinstance per op)
        (cast(llvm.CallIntrinsicOp, op), 0) for op in walk_ops(module)
        if op.name == _CALL_INTRINSIC and cast(llvm.CallIntrinsicOp, op).intrin.data.startswith("llvm.nvvm.")
    ]
    worklist.reverse()
    rewrites = 0
    while worklist:
        op, depth = worklist.pop()
        if op.parent is None or depth >= ITERATION_LIMIT:
            continue
        new_calls = _lower_one(op, active)
        if new_calls is None:
            continue
        rewrites += 1
        worklist.extend((c, depth + 1) for c in reversed(new_calls))
    return rewrites


def _lower_one(op: llvm.CallIntrinsicOp, rules: Sequence[Rule]) -> list[llvm.CallIntrinsicOp] | None:
    call = IntrinsicCall(op)
    for rule in rules:
        if not rule.matches(call):
            continue
        emit = _Emitter(op)
        values = rule.rewrite(call, emit)
        if values is None:
            for created in reversed(emit.created):
                created.detach()
                created.erase()
            continue
        for old, new in zip(op.results, values, strict=False):
            old.replace_all_uses_with(new)
        op.detach()
        op.erase()
        return [c for c in emit.created if isinstance(c, llvm.CallIntrinsicOp)]
    return None


__all__ = ["BARRIER", "BASIC", "ITERATION_LIMIT", "RULES", "IntrinsicCall", "Rule", "lower_intrinsics"]
