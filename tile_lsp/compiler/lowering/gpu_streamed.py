"""Stage 3 for tiles too large for registers (more than MAX_SLOTS register slots per thread).

The stage holds a tile as one scalar per register slot, so a 1024x1024x8 tile (65536 slots per
thread at 128 threads) cannot be held at all. Such a tile is lowered only where it never has to
be in registers:

- a test function's tile argument is already whole in global memory (gpu_testing's ABI): it
  becomes a `Streamed` value, the pointer to it;
- `store_view` of a `Streamed` tile copies it with a loop of uniform bounds over chunks of
  `threads` elements: each thread takes its element of the chunk, unravels its index into tile
  coordinates, and stores it where it falls in the view, bounds-checked like any view store;
- `load_view` of such a tile whose tile result nothing uses reads nothing (a load without a
  user has no effect; its token orders nothing either).

Any other op on such a tile is reported at the op as not yet supported.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import TensorType, i64
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Block, Operation, Region, SSAValue

from tile_lsp.compiler.lowering.gpu_core import (
    MAX_SLOTS,
    KernelConverter,
    Streamed,
    Token,
    Unsupported,
    add_offset_term,
    and_guards,
    check_ordering,
    fence_after,
    fence_before,
    guarded_store,
    load_element,
    order_by_token,
    scalar_type,
    split_operands,
    tile_origin,
    view_element_ptr,
    view_operands,
)
from tile_lsp.compiler.mlir.dialects import llvm_memory


def convert_huge(cv: KernelConverter, op: Operation) -> None:
    """`op` touches a tile over MAX_SLOTS slots per thread: the copy or the dead load the module
    docstring names, else `Unsupported` at `op`."""
    if op.name == "nv_tileaa.store_view":
        value = split_operands(op)[0][0]
        got = cv.values.get(value)
        if isinstance(got, Streamed) and not any(isinstance(cv.values.get(x), Streamed) for x in op.operands[1:]):
            _store_streamed(cv, op, got)
            return
    if op.name == "nv_tileaa.load_view" and not op.results[0].uses:
        if len(op.results) > 1:
            cv.values[op.results[1]] = Token(False)
        return
    huge = next((v.type for v in (*op.operands, *op.results) if cv.too_large(v.type)), None)
    raise Unsupported(
        op,
        f"a {huge} tile: more than {MAX_SLOTS} register slots per thread (a tile that large is only "
        "copied from a test function's argument to a view by store_view, or loaded and never used)",
    )


def _store_streamed(cv: KernelConverter, op: Operation, src: Streamed) -> None:
    ordered = check_ordering(op)
    view, index, token = view_operands(cv, op, split_operands(op)[1:])
    if tuple(view.tile) != src.shape:
        raise Unsupported(op, "a tile whose shape is not the view's tile")
    order_by_token(cv, op, token)
    fence_before(cv, ordered)
    origin = tile_origin(cv, view, index)
    count = 1
    for d in src.shape:
        count *= d
    # Tile dimensions are powers of two, so a tile this large is a whole number of chunks.
    assert count % cv.threads == 0
    lane = cv.to_i64(cv.thread_times(1), signed=False)
    body = Block(arg_types=[i64])  # uniform bounds (the stage's control flow is): the chunk start
    outer = cv.block
    cv.block = body
    i = cv.v(arith.AddiOp(body.args[0], lane))
    guard: SSAValue | None = None
    coords: list[SSAValue] = []
    rest = i
    for d in reversed(range(len(src.shape))):  # row-major: the last dimension moves fastest
        extent = cv.i64c(src.shape[d])
        coords.append(cv.v(arith.RemUIOp(rest, extent)) if d else rest)
        if d:
            rest = cv.v(arith.DivUIOp(rest, extent))
    coords.reverse()
    offset: SSAValue | None = None
    for d, c in enumerate(coords):
        dim = view.dim_map[d]
        at = cv.v(arith.AddiOp(origin[d], c))
        guard = and_guards(cv, guard, cv.v(arith.CmpiOp(at, view.view.shape[dim], "ult")))
        offset = add_offset_term(cv, offset, at, view.view.strides[dim])
    assert offset is not None
    element = load_element(cv, cv.v(llvm_memory.GEPOp(src.base, [GEP_USE_SSA_VAL], src.elem, ssa_indices=[i])), src.elem, None)
    target = view_element_ptr(cv, view.view, offset)
    guarded_store(cv, element, target, guard, ordered)
    cv.emit(scf.YieldOp())
    cv.block = outer
    cv.emit(scf.ForOp(cv.i64c(0), cv.i64c(count), cv.i64c(cv.threads), [], Region(body)))
    fence_after(cv, ordered)
    if op.results:
        cv.values[op.results[0]] = Token(True)


def streamed_argument(cv: KernelConverter, base: SSAValue, t: TensorType) -> Streamed:
    """The value of a test function's tile argument of type `t` too large for registers."""
    return Streamed(base, tuple(t.get_shape()), scalar_type(t))


__all__ = ["convert_huge", "streamed_argument"]
