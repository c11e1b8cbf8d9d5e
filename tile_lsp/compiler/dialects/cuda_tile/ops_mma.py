"""cuda_tile ops: matrix multiply-accumulate family (see docs/frontend.md, "Adding an op").

mmaf (floats), mmai (8-bit integers) and mmaf_scaled (block-scaled fp8/fp4), each on
2-D tiles or batched 3-D tiles; the result has the accumulator's type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, opt_prop_def, prop_def, result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import memory_syntax as M
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import UNIT, EnumAttr
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, tile_op

if TYPE_CHECKING:
    from tile_lsp.compiler.verify_context import VerifyContext

MMAF_OPERAND = C.TypeConstraint(
    "mmaf operand tile type of f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 values",
    C.tile_of(C.F16, C.BF16, C.F32, C.F64, C.TF32, C.F8E4M3FN, C.F8E5M2).predicate,
)
MMAF_ACC = C.TypeConstraint(
    "mmaf acc/result tile type of f16 or f32 or f64 values", C.tile_of(C.F16, C.F32, C.F64).predicate
)
MMAI_OPERAND = C.TypeConstraint("mmai operand tile type of i8 values", C.tile_of(C.I8).predicate)
MMAI_ACC = C.TypeConstraint("mmai acc tile type of i32 values", C.tile_of(C.I32).predicate)
MMAI_RESULT = C.TypeConstraint("mmai result tile type of i32 values", C.tile_of(C.I32).predicate)
SCALED_OPERAND = C.TypeConstraint(
    "mmaf_scaled operand tile type of f8E4M3FN or f8E5M2 or f4E2M1FN values",
    C.tile_of(C.F8E4M3FN, C.F8E5M2, C.F4E2M1FN).predicate,
)
SCALED_ACC = C.TypeConstraint("mmaf_scaled result tile type of f32 values", C.tile_of(C.F32).predicate)
SCALED_SCALE = C.TypeConstraint(
    "mmaf_scaled scale tile type of f8E4M3FN or f8E8M0FNU or fnv8E5M3FNU values",
    C.tile_of(C.F8E4M3FN, C.F8E8M0FNU, C.F8E5M3FNU).predicate,
)

# Input element type -> accumulator element types mmaf accepts (NVIDIA's table order).
MMAF_ACCUMULATORS: dict[Attribute, tuple[Attribute, ...]] = {
    C.F8E4M3FN: (C.F16, C.F32),
    C.F8E5M2: (C.F16, C.F32),
    C.F16: (C.F16, C.F32),
    C.BF16: (C.F32,),
    C.TF32: (C.F32,),
    C.F32: (C.F32,),
    C.F64: (C.F64,),
}


def _shape(t: Attribute) -> tuple[int, ...]:
    return ct.shape_of(t)


def _dim_mismatch(
    a: str, a_shape: Sequence[int], i: int, b: str, b_shape: Sequence[int], j: int, lead: str = ""
) -> OpError | None:
    if a_shape[i] == b_shape[j]:
        return None
    return OpError(
        f"{lead}shape error: dim {i} of {a} ({a_shape[i]}) and dim {j} of {b} ({b_shape[j]}) must match, "
        f"but got {a} shape ({M.dims(a_shape)}) and {b} shape ({M.dims(b_shape)})"
    )


def check_mma_shapes(lhs: Attribute, rhs: Attribute, acc: Attribute) -> VerifyResult:
    """M x K times K x N into M x N, with an optional leading batch dimension."""
    ls, rs, accs = _shape(lhs), _shape(rhs), _shape(acc)
    if len(ls) not in (2, 3):
        yield OpError("operands must be 2D or 3D tiles")
        return
    batched = int(len(ls) == 3)
    checks = []
    if batched:
        checks += [("lhs", ls, 0, "rhs", rs, 0, ""), ("lhs", ls, 0, "acc", accs, 0, "")]
    row, col = batched, batched + 1
    # NVIDIA's messages for the M/N/K checks start with a space.
    checks += [
        ("lhs", ls, col, "rhs", rs, row, " "),
        ("lhs", ls, row, "acc", accs, row, " "),
        ("rhs", rs, col, "acc", accs, col, " "),
    ]
    for a, a_shape, i, b, b_shape, j, lead in checks:
        err = _dim_mismatch(a, a_shape, i, b, b_shape, j, lead)
        if err is not None:
            yield err
            return


def _mma_format(after_acc: str, *more: str) -> str:
    """`$lhs, $rhs, $acc`, `after_acc`, the attr-dict and the types of lhs, rhs, acc and `more`."""
    types = " `,` ".join(f"custom<CudaTileType>(type(${n}))" for n in ("lhs", "rhs", "acc", *more))
    return f"$lhs `,` $rhs `,` $acc {after_acc}attr-dict `:` {types}"


class _MmaOp(CudaTileOp):
    """`lhs * rhs + acc` on 2-D or batched 3-D tiles; the result has the accumulator's type."""

    lhs = operand_def()
    rhs = operand_def()
    acc = operand_def()
    result = result_def()
    TYPE_RULES: ClassVar[tuple[C.TypeRule, ...]] = (
        C.AllTypesMatch("acc", "result"),
        C.SameElementType("lhs", "rhs"),
        C.SameRank("lhs", "rhs", "acc"),
    )


@tile_op
class MmaFOp(_MmaOp):
    """Floating-point matrix multiply-accumulate: `lhs * rhs + acc`, optionally with the
    faster, less precise fp8 accumulation (`fast_acc`).

    ```mlir
    %d = mmaf %a, %b, %c : tile<4x8xf16>, tile<8x2xf16>, tile<4x2xf32>
    ```
    """

    name = "cuda_tile.mmaf"
    fast_acc = opt_prop_def(builtin.UnitAttr)
    TILE_FORMAT = _mma_format("(`fast_acc` $fast_acc^)? ")
    ATTR_SYNTAX = {"fast_acc": UNIT}
    TYPE_CONSTRAINTS = {"lhs": MMAF_OPERAND, "rhs": MMAF_OPERAND, "acc": MMAF_ACC, "result": MMAF_ACC}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for err in check_mma_shapes(self.lhs.type, self.rhs.type, self.acc.type):
            yield err
            return
        elem = ct.element_type(self.lhs.type)
        acc = ct.element_type(self.acc.type)
        allowed = MMAF_ACCUMULATORS.get(elem)
        if allowed is None:
            yield OpError(f"unsupported input element type: {M.q(elem)}")
        elif acc not in allowed:
            yield OpError(
                f"unsupported combination of element types. Input type {M.q(elem)} expects accumulator/result "
                f"type to be one of {{{', '.join(M.q(t) for t in allowed)}}}, but got {M.q(acc)}"
            )


@tile_op
class MmaIOp(_MmaOp):
    """Integer matrix multiply-accumulate of i8 tiles into i32, each input read as signed
    or unsigned.

    ```mlir
    %d = mmai %a, %b, %c signed unsigned : tile<4x8xi8>, tile<8x2xi8>, tile<4x2xi32>
    ```
    """

    name = "cuda_tile.mmai"
    signedness_lhs = prop_def(Attribute)
    signedness_rhs = prop_def(Attribute)
    TILE_FORMAT = _mma_format("custom<Signedness>($signedness_lhs) custom<Signedness>($signedness_rhs) ")
    TYPE_CONSTRAINTS = {"lhs": MMAI_OPERAND, "rhs": MMAI_OPERAND, "acc": MMAI_ACC, "result": MMAI_RESULT}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for key in ("signedness_lhs", "signedness_rhs"):
            a = self.properties.get(key)
            if not (isinstance(a, EnumAttr) and a.kind.data == "signedness" and a.case in ("signed", "unsigned")):
                yield OpError(f"attribute '{key}' failed to satisfy constraint: signedness")
                return
        yield from check_mma_shapes(self.lhs.type, self.rhs.type, self.acc.type)


class _BlockScales:
    """mmaf_scaled's scale operands. A mixin after `_MmaOp`, since xDSL takes the fields in
    MRO order (a subclass's own first): so they follow lhs, rhs and acc."""

    lhs_scale = operand_def()
    rhs_scale = operand_def()


@tile_op
class MmaFScaledOp(_MmaOp, _BlockScales):
    """Block-scaled matrix multiply-accumulate: fp8/fp4 inputs, each block of K elements
    multiplied by its own scale, accumulated in f32 (13.3).

    ```mlir
    %d = mmaf_scaled %a, %b, %c, %sa, %sb : tile<128x128xf8E4M3FN>, tile<128x128xf8E4M3FN>, tile<128x128xf32>, tile<128x4xf8E8M0FNU>, tile<4x128xf8E8M0FNU>
    ```
    """

    name = "cuda_tile.mmaf_scaled"
    TILE_FORMAT = _mma_format("`,` $lhs_scale `,` $rhs_scale ", "lhs_scale", "rhs_scale")
    TYPE_CONSTRAINTS = {
        "lhs": SCALED_OPERAND,
        "rhs": SCALED_OPERAND,
        "acc": SCALED_ACC,
        "lhs_scale": SCALED_SCALE,
        "rhs_scale": SCALED_SCALE,
        "result": SCALED_ACC,
    }
    TYPE_RULES = (
        C.AllTypesMatch("acc", "result"),
        C.SameElementType("lhs", "rhs"),
        C.SameElementType("lhs_scale", "rhs_scale"),
        C.SameRank("lhs", "rhs", "acc", "lhs_scale", "rhs_scale"),
    )
    SINCE = "13.3"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        lhs, rhs, acc = self.lhs.type, self.rhs.type, self.acc.type
        for err in check_mma_shapes(lhs, rhs, acc):
            yield err
            return
        ls, rs = _shape(lhs), _shape(rhs)
        lss, rss = _shape(self.lhs_scale.type), _shape(self.rhs_scale.type)
        batched = int(len(ls) == 3)
        row, col = batched, batched + 1
        checks = [("lhs", ls, row, "lhs_scale", lss, row), ("rhs", rs, col, "rhs_scale", rss, col)]
        if batched:
            checks = [("lhs", ls, 0, "lhs_scale", lss, 0), ("rhs", rs, 0, "rhs_scale", rss, 0), *checks]
        checks.append(("lhs_scale", lss, col, "rhs_scale", rss, row))
        for a, a_shape, i, b, b_shape, j in checks:
            mismatch = _dim_mismatch(a, a_shape, i, b, b_shape, j)
            if mismatch is not None:
                yield mismatch
                return
        elem = ct.element_type(lhs)
        scale = ct.element_type(self.lhs_scale.type)
        if scale in (C.F8E4M3FN, C.F8E5M3FNU) and elem != C.F4E2M1FN:
            yield OpError(
                f"unsupported combination of element types. Scale type {M.q(scale)} expects lhs and rhs "
                f"element types to be {M.q(C.F4E2M1FN)}, but got {M.q(elem)}"
            )
            return
        k, scale_k = ls[col], lss[col]
        factor = k // scale_k if scale_k else 0
        allowed: tuple[int, ...]
        if elem == C.F4E2M1FN and scale == C.F8E4M3FN:
            allowed, what = (16,), "f4E2M1FN element type with f8E4M3FN scales"
        elif elem == C.F4E2M1FN:
            allowed, what = (16, 32), f"f4E2M1FN element type with {ct.ELEMENT_TYPE_SPELLING[scale]} scales"
        else:
            allowed, what = (32,), "f8 element type"
        if factor not in allowed or factor * scale_k != k:
            want = " or ".join(str(a) for a in allowed)
            yield OpError(
                f"shape error: {what} requires block scale factor of lhs_scale and rhs_scale to be {want}, "
                f"but got {factor}"
            )


OPS: list[type[Operation]] = [MmaFOp, MmaIOp, MmaFScaledOp]
