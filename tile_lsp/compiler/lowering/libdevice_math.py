"""`math.*` in device code -> libdevice `__nv_*` calls (seed 000 "Libdevice Math"): the callee
comes from an (op, element type) table, f16/bf16 compute in f32, `afn`/`fast` picks the
`__nv_fast_*` variant where libdevice has one, and 1-D vectors are scalarised lane by lane.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    VectorType,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tile_lsp.compiler.lowering.common import LoweringPattern
from tile_lsp.compiler.lowering.llvm_build import (
    call,
    declare_function,
    emit,
    fastmath_flags,
    in_gpu_code,
    int_constant,
    make_op,
)

# (math op) -> (f32 callee, f64 callee, fast-math f32 callee or None). libdevice names.
LIBDEVICE: dict[str, tuple[str, str, str | None]] = {
    "math.absf": ("__nv_fabsf", "__nv_fabs", None),
    "math.acos": ("__nv_acosf", "__nv_acos", None),
    "math.acosh": ("__nv_acoshf", "__nv_acosh", None),
    "math.asin": ("__nv_asinf", "__nv_asin", None),
    "math.asinh": ("__nv_asinhf", "__nv_asinh", None),
    "math.atan": ("__nv_atanf", "__nv_atan", None),
    "math.atan2": ("__nv_atan2f", "__nv_atan2", None),
    "math.atanh": ("__nv_atanhf", "__nv_atanh", None),
    "math.cbrt": ("__nv_cbrtf", "__nv_cbrt", None),
    "math.ceil": ("__nv_ceilf", "__nv_ceil", None),
    "math.copysign": ("__nv_copysignf", "__nv_copysign", None),
    "math.cos": ("__nv_cosf", "__nv_cos", "__nv_fast_cosf"),
    "math.cosh": ("__nv_coshf", "__nv_cosh", None),
    "math.erf": ("__nv_erff", "__nv_erf", None),
    "math.erfc": ("__nv_erfcf", "__nv_erfc", None),
    "math.exp": ("__nv_expf", "__nv_exp", "__nv_fast_expf"),
    "math.exp2": ("__nv_exp2f", "__nv_exp2", None),
    "math.expm1": ("__nv_expm1f", "__nv_expm1", None),
    "math.floor": ("__nv_floorf", "__nv_floor", None),
    "math.fma": ("__nv_fmaf", "__nv_fma", None),
    "math.log": ("__nv_logf", "__nv_log", "__nv_fast_logf"),
    "math.log10": ("__nv_log10f", "__nv_log10", "__nv_fast_log10f"),
    "math.log1p": ("__nv_log1pf", "__nv_log1p", None),
    "math.log2": ("__nv_log2f", "__nv_log2", "__nv_fast_log2f"),
    "math.powf": ("__nv_powf", "__nv_pow", "__nv_fast_powf"),
    "math.round": ("__nv_roundf", "__nv_round", None),
    "math.roundeven": ("__nv_rintf", "__nv_rint", None),
    "math.rsqrt": ("__nv_rsqrtf", "__nv_rsqrt", None),
    "math.sin": ("__nv_sinf", "__nv_sin", "__nv_fast_sinf"),
    "math.sinh": ("__nv_sinhf", "__nv_sinh", None),
    "math.sqrt": ("__nv_sqrtf", "__nv_sqrt", None),
    "math.tan": ("__nv_tanf", "__nv_tan", "__nv_fast_tanf"),
    "math.tanh": ("__nv_tanhf", "__nv_tanh", None),
    "math.trunc": ("__nv_truncf", "__nv_trunc", None),
    "arith.remf": ("__nv_fmodf", "__nv_fmod", None),
    "math.fpowi": ("__nv_powif", "__nv_powi", None),
}
# libdevice functions that are one LLVM intrinsic NVPTX selects natively: `__nv_fmaf` is
# `llvm.nvvm.fma.rn.f` at nvvm-reflect-ftz 0 (ours), `__nv_fma` `llvm.nvvm.fma.rn.d`, the
# instructions NVPTX selects for `llvm.fma` (fma.rn.f32 / fma.rn.f64). Emitted as `llvm.intr.fma`:
# the same PTX, and an `fma` needs no libdevice (f16/bf16 still go through f32 as above).
AS_INTRINSIC = frozenset({"__nv_fmaf", "__nv_fma"})
# Predicates: libdevice returns i32, the op yields i1 (`!= 0`).
LIBDEVICE_PREDICATES: dict[str, tuple[str, str]] = {
    "math.isfinite": ("__nv_finitef", "__nv_isfinited"),
    "math.isinf": ("__nv_isinff", "__nv_isinfd"),
    "math.isnan": ("__nv_isnanf", "__nv_isnand"),
}


def _fastmath_allows_approx(op: Operation) -> bool:
    return "afn" in fastmath_flags(op)


@dataclass(frozen=True)
class LibdeviceChoice:
    """The callee for one (op, element type), and whether operands go through f32."""

    callee: str
    compute_type: Attribute
    promote: bool


# Integer math: (op) -> {bit width: callee}.
LIBDEVICE_INT: dict[str, dict[int, str]] = {
    "math.absi": {32: "__nv_abs", 64: "__nv_llabs"},
}


def libdevice_callee(op_name: str, element: Attribute, fast: bool) -> LibdeviceChoice | None:
    """Select the libdevice function by (op, element type); f16/bf16 compute in f32."""
    if op_name in LIBDEVICE_INT:
        if not isinstance(element, IntegerType) or element.width.data not in LIBDEVICE_INT[op_name]:
            return None
        return LibdeviceChoice(LIBDEVICE_INT[op_name][element.width.data], element, False)
    if op_name in LIBDEVICE:
        f32_name, f64_name, fast_name = LIBDEVICE[op_name]
    elif op_name in LIBDEVICE_PREDICATES:
        f32_name, f64_name = LIBDEVICE_PREDICATES[op_name]
        fast_name = None
    else:
        return None
    if isinstance(element, Float64Type):
        return LibdeviceChoice(f64_name, f64, False)
    if isinstance(element, Float32Type):
        return LibdeviceChoice(fast_name if fast and fast_name else f32_name, f32, False)
    if isinstance(element, Float16Type | BFloat16Type):
        return LibdeviceChoice(fast_name if fast and fast_name else f32_name, f32, True)
    return None


class LowerLibdeviceMath(LoweringPattern):
    """`math.sqrt %v : vector<4xf32>` -> per-lane `llvm.call @__nv_sqrtf` (lanes extracted first, then
    the calls, then `vector.from_elements`), scalars called directly; f16 via f32."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if (op.name not in LIBDEVICE and op.name not in LIBDEVICE_PREDICATES and op.name not in LIBDEVICE_INT
                or not in_gpu_code(op)):
            return
        if len(op.results) != 1 or not op.operands:
            return
        first = op.operands[0].type
        vtype = first if isinstance(first, VectorType) else None
        element = vtype.get_element_type() if vtype is not None else first
        choice = libdevice_callee(op.name, element, _fastmath_allows_approx(op))
        if choice is None:
            return
        if vtype is not None and (vtype.get_num_dims() != 1 or vtype.get_num_scalable_dims()):
            return
        predicate = op.name in LIBDEVICE_PREDICATES
        arg_types = [choice.compute_type if isinstance(o.type, AnyFloat | VectorType) else o.type for o in op.operands]
        result = i32 if predicate else choice.compute_type
        if choice.callee not in AS_INTRINSIC and declare_function(op, choice.callee, arg_types, result) is None:
            return
        if vtype is None:
            value = self._scalar_call(rewriter, op, list(op.operands), choice, predicate)
            rewriter.replace(op, [], [value])
            return
        lanes = vtype.get_shape()[0]
        extracted: list[list[SSAValue]] = []
        for operand in op.operands:
            if isinstance(operand.type, VectorType):
                per_lane: list[SSAValue] = []
                for lane in range(lanes):
                    ext = vector.ExtractOp(operand, [lane], operand.type.get_element_type())
                    rewriter.insert(ext)
                    per_lane.append(ext.result)
                extracted.append(per_lane)
            else:
                extracted.append([operand] * lanes)
        results = [self._scalar_call(rewriter, op, [ops[lane] for ops in extracted], choice, predicate)
                   for lane in range(lanes)]
        rebuilt = emit(rewriter, make_op("vector.from_elements", results, [op.results[0].type]))
        rewriter.replace(op, [], [rebuilt.results[0]])

    @staticmethod
    def _scalar_call(
        rewriter: PatternRewriter, op: Operation, args: Sequence[SSAValue], choice: LibdeviceChoice, predicate: bool
    ) -> SSAValue:
        ready: list[SSAValue] = []
        for arg in args:
            if choice.promote and isinstance(arg.type, Float16Type | BFloat16Type):
                ext = llvm.FPExtOp(arg, f32)
                rewriter.insert(ext)
                ready.append(ext.results[0])
            else:
                ready.append(arg)
        result_type = i32 if predicate else choice.compute_type
        value: SSAValue
        if choice.callee in AS_INTRINSIC:
            a, b, c = ready
            value = emit(rewriter, llvm.FMAOp(a, b, c)).results[0]
        else:
            value = call(rewriter, choice.callee, ready, result_type).results[0]
        if predicate:
            zero = int_constant(rewriter, 0, i32)
            cmp = llvm.ICmpOp(value, zero, IntegerAttr(1, i64))  # "ne"
            rewriter.insert(cmp)
            return cmp.res
        if choice.promote:
            element = args[0].type
            trunc = llvm.FPTruncOp(value, element)
            rewriter.insert(trunc)
            value = trunc.results[0]
        return value


# math.sincos: libdevice writes both results through pointers (f32 callee, f64 callee, fast f32 callee).
SINCOS = ("__nv_sincosf", "__nv_sincos", "__nv_fast_sincosf")
_FUNCTIONS = ("func.func", "llvm.func", "gpu.func")


class LowerSincos(RewritePattern):
    """`%s, %c = math.sincos %x : T` (scalar) -> two `llvm.alloca`s at the function entry, then
    `llvm.call @__nv_sincos[f](x, sinptr, cosptr)` and two loads (f16/bf16: fpext before,
    fptrunc after); `afn` picks `__nv_fast_sincosf` for f32 and narrower."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "math.sincos" or len(op.results) != 2 or len(op.operands) != 1 or not in_gpu_code(op):
            return
        element = op.operands[0].type
        compute: Attribute
        if isinstance(element, Float64Type):
            callee, compute, promote = SINCOS[1], f64, False
        elif isinstance(element, Float32Type | Float16Type | BFloat16Type):
            callee = SINCOS[2] if _fastmath_allows_approx(op) else SINCOS[0]
            compute, promote = f32, not isinstance(element, Float32Type)
        else:
            return
        func = op.parent_op()
        while func is not None and func.name not in _FUNCTIONS:
            func = func.parent_op()
        if func is None or not func.regions or not func.regions[0].blocks:
            return
        ptr = llvm.LLVMPointerType()
        if declare_function(op, callee, [compute, ptr, ptr], None) is None:
            return
        entry = func.regions[0].blocks[0]
        one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
        allocas = [llvm.AllocaOp(one.result, compute, alignment=8 if compute == f64 else 4) for _ in range(2)]
        anchor = entry.first_op
        while anchor is not None and anchor.name in ("llvm.alloca", "llvm.mlir.constant") and anchor is not op:
            anchor = anchor.next_op  # after earlier entry allocas: keep them in source order
        for new in (one, *allocas):
            new.location = op.location
            if anchor is None:
                entry.add_op(new)
            else:
                entry.insert_op_before(new, anchor)
        value = op.operands[0]
        if promote:
            ext = llvm.FPExtOp(value, f32)
            rewriter.insert(ext)
            value = ext.results[0]
        call(rewriter, callee, [value, allocas[0].res, allocas[1].res], None)
        results: list[SSAValue] = []
        for alloca in allocas:
            load = llvm.LoadOp(alloca.res, compute)
            rewriter.insert(load)
            results.append(load.dereferenced_value)
        if promote:
            truncs = [llvm.FPTruncOp(r, element) for r in results]
            for t in truncs:
                rewriter.insert(t)
            results = [t.results[0] for t in truncs]
        rewriter.replace(op, [], results)


__all__ = [
    "LIBDEVICE",
    "LIBDEVICE_INT",
    "LIBDEVICE_PREDICATES",
    "SINCOS",
    "LibdeviceChoice",
    "LowerLibdeviceMath",
    "LowerSincos",
    "libdevice_callee",
]
