"""`mmaf_scaled` (nv_tileaa `dot_scaled`) in the gpu stage: block-scaled fp8/fp4 matrix multiply,
`acc + (lhs * expand(lhs_scale)) @ (rhs * expand(rhs_scale))`, on the baseline dot's loop.

lhs is MxK (BxMxK batched), lhs_scale Mx(K/S): scale element [m, j] multiplies lhs[m, k] for
the S consecutive k with k // S == j (S = 32 for mxfp8, 16 or 32 for mxfp4, 16 for nvfp4);
rhs_scale (K/S')xN scales rhs's rows the same way. The four operands are shared as their code
bytes (two 128x128 fp8 operands take 32 KiB of shared memory; as f32 they would not fit); in
the K loop each element and its scale are decoded exactly to f32 (gpu_convert.py) and
multiplied (exact unless the product leaves f32's range), and the products are accumulated with
`fma` in f32, as the f32 `mmaf` baseline does.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, TensorType, i8
from xdsl.ir import Operation, SSAValue

from tile_lsp.compiler.lowering.gpu_convert import F8Format, f8_format, f8_to_f32
from tile_lsp.compiler.lowering.gpu_core import KernelConverter, Unsupported, target_sm
from tile_lsp.compiler.lowering.gpu_mma import dot_loop, dot_types


def lower_dot_scaled(cv: KernelConverter, op: Operation) -> None:
    a, b, c, scale_a, scale_b = op.operands[:5]
    ta, tb, tc = dot_types(op, a, b, c)
    tsa, tsb = scale_a.type, scale_b.type
    if not (isinstance(tsa, TensorType) and isinstance(tsb, TensorType)):
        raise Unsupported(op, "scale shapes")
    formats = [f8_format(t) for t in (ta, tb, tsa, tsb)]
    fa, fb, fsa, fsb = formats
    if fa is None or fb is None or fsa is None or fsb is None:
        raise Unsupported(op, "operands or scales that are not fp8, fp4 or e8m0")
    if not isinstance(tc.element_type, Float32Type):
        raise Unsupported(op, f"a {tc.element_type} accumulator")
    sa, sb, ssa, ssb = ta.get_shape(), tb.get_shape(), tsa.get_shape(), tsb.get_shape()
    k_extent = sa[-1]
    block_a, block_b = _block(op, k_extent, ssa[-1]), _block(op, k_extent, ssb[-2])
    bases = [cv.share(op, x) for x in (a, b, scale_a, scale_b)]
    cv.exchange_barrier()
    sm = target_sm(cv)

    def decoded(base: SSAValue, index: SSAValue, fmt: F8Format) -> SSAValue:
        return f8_to_f32(cv.v, cv.read_shared(base, index, i8), fmt, sm)

    def scaled(x: SSAValue, s: SSAValue) -> SSAValue:
        return cv.v(arith.MulfOp(x, s))

    def read_a(batch: list[SSAValue], row: SSAValue, k: SSAValue) -> SSAValue:
        x = decoded(bases[0], cv.linear([*batch, row, k], sa), fa)
        s = decoded(bases[2], cv.linear([*batch, row, _scale_index(cv, k, block_a)], ssa), fsa)
        return scaled(x, s)

    def read_b(batch: list[SSAValue], k: SSAValue, col: SSAValue) -> SSAValue:
        x = decoded(bases[1], cv.linear([*batch, k, col], sb), fb)
        s = decoded(bases[3], cv.linear([*batch, _scale_index(cv, k, block_b), col], ssb), fsb)
        return scaled(x, s)

    cv.values[op.results[0]] = dot_loop(cv, op, c, k_extent, read_a, read_b)


def _block(op: Operation, k_extent: int, scale_extent: int) -> int:
    """How many consecutive K elements one scale covers."""
    if scale_extent <= 0 or k_extent % scale_extent:
        raise Unsupported(op, f"{scale_extent} scales for K = {k_extent}")
    return k_extent // scale_extent


def _scale_index(cv: KernelConverter, k: SSAValue, block: int) -> SSAValue:
    """k // block (a shift: tile extents are powers of two)."""
    if block == 1:
        return k
    if block & (block - 1) == 0:
        return cv.v(arith.ShRUIOp(k, cv.i32c(block.bit_length() - 1)))
    return cv.v(arith.DivUIOp(k, cv.i32c(block)))
