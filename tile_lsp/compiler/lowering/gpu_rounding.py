"""Float ops whose rounding mode or flush-to-zero arith cannot say: one PTX instruction each
(`add.rz.f32`, `fma.rm.ftz.f32`, `max.ftz.NaN.f32`, `ex2.approx.ftz.f32`, ...) as inline asm.

Only used when the op asks for more than arith gives (round to nearest even, subnormals kept):
everything else stays arith/math, which LLVM optimizes.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp

DIRECTED = {"zero": "rz", "negative_inf": "rm", "positive_inf": "rp"}
_ROUNDED = {"add": 2, "sub": 2, "mul": 2, "div": 2, "fma": 3, "sqrt": 1}  # PTX op -> operand count


def needs_ptx(mode: str, ftz: bool) -> bool:
    """Whether an op with rounding `mode` and flush-to-zero `ftz` needs `ptx_float_op`."""
    return ftz or mode in DIRECTED


def ptx_float_op(emit: Callable[[Operation], SSAValue], ptx_op: str, args: list[SSAValue], t: Attribute,
                 mode: str, ftz: bool, propagate_nan: bool = False) -> SSAValue:
    """`ptx_op` (add/sub/mul/div/fma/sqrt, max/min, ex2/rsqrt) on f32/f64 `args` with the rounding
    and ftz asked for. Raises ValueError with the reason when PTX has no such instruction."""
    if isinstance(t, Float32Type):
        suffix, reg = "f32", "f"
    elif isinstance(t, Float64Type) and not ftz:
        suffix, reg = "f64", "d"
    else:
        raise ValueError(f"rounding mode '{mode or 'nearest_even'}'{' with flush_to_zero' if ftz else ''} on {t}")
    parts = [ptx_op]
    if ptx_op in _ROUNDED:
        if ptx_op in ("div",) and mode in ("approx", "full"):
            parts.append(mode)
        else:
            parts.append(DIRECTED.get(mode, "rn"))
    elif ptx_op in ("ex2", "rsqrt"):
        parts.append("approx")
        if suffix != "f32":
            raise ValueError(f"{ptx_op} with flush_to_zero on {t}")
    elif ptx_op not in ("max", "min") or mode:
        raise ValueError(f"rounding mode '{mode}' on {ptx_op}")
    if ftz:
        parts.append("ftz")
    if propagate_nan:
        parts.append("NaN")
    parts.append(suffix)
    operands = ", ".join(f"${i + 1}" for i in range(len(args)))
    template = f"{'.'.join(parts)} $0, {operands};"
    constraints = ",".join([f"={reg}", *([reg] * len(args))])
    return emit(InlineAsmOp(template, constraints, args, [t]))


__all__ = ["DIRECTED", "needs_ptx", "ptx_float_op"]
