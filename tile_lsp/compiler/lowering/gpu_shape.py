"""Stage 3 ops with their own shape (`tileaa_to_gpu.py`): assume/reshape, splat, broadcast,
permute, extract, insert (layout changes go through the shared-memory exchange,
`KernelConverter.gather`), iota and the tile block queries.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerType,
    TensorType,
)
from xdsl.ir import Operation, SSAValue

from tile_lsp.compiler.lowering.gpu_core import Dist, KernelConverter, Unsupported, get_attr, num_elements, scalar_type
from tile_lsp.compiler.mlir.dialects import gpu

# ---------------------------------------------------------------------------------------------
# Ops with their own shape


def _passthrough(cv: KernelConverter, op: Operation) -> None:
    """assume (the predicate is a hint only), reshape (row-major: the layout depends only on the
    element count), ptr_to_ptr."""
    src = cv.get(op.operands[0])
    if isinstance(src, Dist):
        t = op.results[0].type
        assert isinstance(t, TensorType)
        src = Dist(src.layout, tuple(t.get_shape()), src.slots)
    cv.values[op.results[0]] = src


def _splat(cv: KernelConverter, op: Operation) -> None:
    scalar = cv.scalar(op, op.operands[0])
    t = op.results[0].type
    layout = cv.layout_of(t)
    cv.values[op.results[0]] = cv.tile(t, [scalar] * (layout.slots if layout else 1))


def _broadcast(cv: KernelConverter, op: Operation) -> None:
    """One element: a splat in every thread; else a shared-memory exchange in which size-1
    source dimensions read coordinate 0."""
    src = cv.get(op.operands[0])
    t = op.results[0].type
    layout = cv.layout_of(t)
    if isinstance(src, SSAValue):
        cv.values[op.results[0]] = cv.tile(t, [src] * (layout.slots if layout else 1))
        return
    src_t = op.operands[0].type
    assert isinstance(src_t, TensorType)
    src_shape = src_t.get_shape()
    zero = cv.i32c(0)
    cv.values[op.results[0]] = cv.gather(
        op, op.operands[0], t, lambda c: [x if d != 1 else zero for x, d in zip(c, src_shape, strict=True)])


def _permute(cv: KernelConverter, op: Operation) -> None:
    """Result dimension i is source dimension perm[i]."""
    perm_attr = get_attr(op, "permutation")
    if not isinstance(perm_attr, DenseArrayBase):
        raise Unsupported(op, "no permutation")
    perm = [int(x) for x in perm_attr.get_values()]

    def source(c: list[SSAValue]) -> list[SSAValue]:
        out = list(c)
        for i, p in enumerate(perm):
            out[p] = c[i]
        return out

    if isinstance(cv.get(op.operands[0]), SSAValue):
        _passthrough(cv, op)
        return
    cv.values[op.results[0]] = cv.gather(op, op.operands[0], op.results[0].type, source)


def _extract(cv: KernelConverter, op: Operation) -> None:
    """The result-shaped piece at block index `indices`: source coordinate = index * extent + c."""
    src, *indices = op.operands
    t = op.results[0].type
    dst_shape = t.get_shape() if isinstance(t, TensorType) else ()
    idx = [cv.scalar(op, x) for x in indices]
    if len(idx) != len(dst_shape):
        raise Unsupported(op, "index rank")
    if isinstance(cv.get(src), SSAValue):
        cv.values[op.results[0]] = cv.get(src)
        return

    def source(c: list[SSAValue]) -> list[SSAValue]:
        return [cv.v(arith.AddiOp(cv.v(arith.MuliOp(i, cv.i32c(d))), x)) for i, d, x in zip(idx, dst_shape, c, strict=True)]

    if not dst_shape or num_elements(dst_shape) == 1:
        zero = cv.i32c(0)
        cv.values[op.results[0]] = cv.gather(op, src, t, lambda c: source([zero] * len(dst_shape)))
        return
    cv.values[op.results[0]] = cv.gather(op, src, t, source)


def _insert(cv: KernelConverter, op: Operation) -> None:
    """`destination` with its block at `indices` (source-shaped pieces) replaced by `source`:
    the source goes through shared memory; each thread keeps its destination element unless its
    coordinates c fall in the block, where it reads source element c - index * extent."""
    src, dst, *indices = op.operands
    t = op.results[0].type
    shape = t.get_shape() if isinstance(t, TensorType) else ()
    st = src.type
    sshape = st.get_shape() if isinstance(st, TensorType) else ()
    idx = [cv.scalar(op, x) for x in indices]
    if len(idx) != len(shape) or len(sshape) != len(shape):
        raise Unsupported(op, "index rank")
    if tuple(sshape) == tuple(shape):  # one block: the source is the result
        cv.values[op.results[0]] = cv.get(src)
        return
    layout = cv.layout_of(t)
    assert layout is not None
    keep = cv.slots(op, dst, layout) if not layout.uniform else [cv.scalar(op, dst)]
    elem = scalar_type(t)
    base = cv.share(op, src)
    cv.exchange_barrier()
    starts = [cv.v(arith.MuliOp(i, cv.i32c(n))) for i, n in zip(idx, sshape, strict=True)]
    slots = []
    for r in range(len(keep)):
        coords = cv.dst_coords(layout, r, shape)
        local = [cv.v(arith.SubiOp(c, s0)) for c, s0 in zip(coords, starts, strict=True)]
        inside: SSAValue | None = None
        for x, n in zip(local, sshape, strict=True):
            ok = cv.v(arith.CmpiOp(x, cv.i32c(n), "ult"))  # 0 <= x < n (negative wraps high)
            inside = ok if inside is None else cv.v(arith.AndIOp(inside, ok))
        assert inside is not None
        at = cv.v(arith.SelectOp(inside, cv.linear(local, sshape), cv.i32c(0)))
        slots.append(cv.v(arith.SelectOp(inside, cv.read_shared(base, at, elem), keep[r])))
    cv.finish_exchange()
    cv.values[op.results[0]] = cv.tile(t, slots)


def _iota(cv: KernelConverter, op: Operation) -> None:
    t = op.results[0].type
    layout = cv.layout_of(t)
    if layout is None or not isinstance(t, TensorType) or not isinstance(t.element_type, IntegerType):
        raise Unsupported(op)
    elem = t.element_type
    slots = []
    for r in range(layout.slots):
        index = cv.element_index(layout, r)
        if elem.width.data < 32:
            index = cv.v(arith.TruncIOp(index, elem))
        elif elem.width.data > 32:
            index = cv.v(arith.ExtUIOp(index, elem))
        slots.append(index)
    cv.values[op.results[0]] = cv.tile(t, slots)


def _block_query(cls: type[gpu.BlockIdOp] | type[gpu.GridDimOp]) -> Callable[[KernelConverter, Operation], None]:
    def convert(cv: KernelConverter, op: Operation) -> None:
        for dim, res in zip("xyz", op.results, strict=False):
            value = cv.v(cls(dim))
            cv.values[res] = cv.v(arith.IndexCastOp(value, res.type))

    return convert



HANDLERS: dict[str, Callable[[KernelConverter, Operation], None]] = {
    "assume": _passthrough,
    "reshape": _passthrough,
    "splat": _splat,
    "broadcast": _broadcast,
    "iota": _iota,
    "get_tile_block_id": _block_query(gpu.BlockIdOp),
    "get_num_tile_blocks": _block_query(gpu.GridDimOp),
    "permute": _permute,
    "extract": _extract,
    "insert": _insert,
}
