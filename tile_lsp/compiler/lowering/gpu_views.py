"""Gather/scatter views in the gpu stage: `make_gather_scatter_view` + `load_view_tko` /
`store_view_tko` through it; and the other shared-memory re-arrangements it shares helpers with:
`pack`/`unpack` (a tile's bits as another element type; i1/i4/f4 packed LSB first) and `cat`.

A gather/scatter view's index at `sparse_dim` is a 1-D tile of tensor coordinates (one per tile
row along that dimension); every other index is the tensor coordinate where the tile starts
(cuTile's `load_advanced_indexing(x, (rows, ct.Slice(start, n)))`). Element c of the tile is
tensor element g with g[sparse] = rows[c[sparse]] and g[d] = index[d] + c[d]; each coordinate is
bounds-checked (out of bounds: the padding value on loads, no write on stores).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatTF32Type, IntegerAttr, IntegerType, TensorType, i8, i32
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.lowering.gpu_core import (
    KernelConverter,
    TensorView,
    TileView,
    Token,
    Unsupported,
    add_offset_term,
    and_guards,
    byte_size,
    check_ordering,
    fence_after,
    fence_before,
    get_attr,
    guarded_load,
    guarded_store,
    num_elements,
    order_by_token,
    padding_value,
    scalar_type,
    split_operands,
    view_element_ptr,
)
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.dialects import llvm_memory
from tile_lsp.compiler.mlir.dialects.nv_tileaa import TileViewType


@dataclass
class GatherView(TileView):
    """A tile view whose rows along `sparse_dim` are picked by an index tile at each access."""

    sparse_dim: int = 0


def make_gather_view(cv: KernelConverter, op: Operation, t: TileViewType) -> GatherView:
    view = cv.get(op.operands[0])
    if not isinstance(view, TensorView):
        raise Unsupported(op, "a gather/scatter view of something that is not a tensor view")
    tile = tuple(d.data for d in t.tile.data)
    sparse = t.sparse_dim.data
    if not 0 <= sparse < len(tile):
        raise Unsupported(op, f"sparse_dim {sparse}")
    return GatherView(tile, view, t.padding.data, tuple(range(len(tile))), sparse)


def _rows(cv: KernelConverter, op: Operation, view: GatherView, rows_value: SSAValue,
          layout: Layout) -> list[SSAValue]:
    """Per slot of `layout`, the tensor coordinate (i64) its element's row has along the sparse
    dimension: rows[c[sparse]], read from the row tile through one shared-memory exchange."""
    got = cv.get(rows_value)
    if isinstance(got, SSAValue):
        return [cv.to_i64(got)] * layout.slots
    base = cv.share(op, rows_value)
    cv.exchange_barrier()
    elem = scalar_type(rows_value.type)
    out = []
    for r in range(layout.slots):
        coords = cv.dst_coords(layout, r, view.tile) if not layout.uniform else [cv.i32c(0)] * len(view.tile)
        # Sign-extended: a negative row is a huge unsigned coordinate, out of bounds (ult).
        out.append(cv.to_i64(cv.read_shared(base, coords[view.sparse_dim], elem)))
    cv.finish_exchange()
    return out


def _access(cv: KernelConverter, view: GatherView, index: list[SSAValue], rows: list[SSAValue],
            layout: Layout, slot: int) -> tuple[SSAValue, SSAValue | None]:
    """(element pointer, in-bounds guard or None) of this thread's `slot`."""
    e = cv.element_index(layout, slot)
    guard = cv.not_ghost(layout, e)
    coords = cv.coords(e, view.tile) if not layout.uniform else [cv.i32c(0)] * len(view.tile)
    offset: SSAValue | None = None
    for d, c in enumerate(coords):
        extent, stride = view.view.shape[d], view.view.strides[d]
        if d == view.sparse_dim:
            coord = rows[slot]
        else:
            coord = cv.v(arith.AddiOp(cv.to_i64(index[d]), cv.to_i64(c, signed=False)))
        guard = and_guards(cv, guard, cv.v(arith.CmpiOp(coord, extent, "ult")))
        offset = add_offset_term(cv, offset, coord, stride)
    return view_element_ptr(cv, view.view, offset), guard


def _operands(cv: KernelConverter, op: Operation, groups: list[list[SSAValue]]
              ) -> tuple[GatherView, list[SSAValue], SSAValue, SSAValue | None]:
    """(view, the scalar indices by dimension (the sparse one left as a placeholder), the row
    tile, token) of a view access's operand groups [view], [indices], [token]."""
    view = cv.get(groups[0][0])
    assert isinstance(view, GatherView)
    indices = groups[1]
    if len(indices) != len(view.tile):
        raise Unsupported(op, "index rank")
    rows = indices[view.sparse_dim]
    scalars = [cv.scalar(op, x) if d != view.sparse_dim else cv.i32c(0) for d, x in enumerate(indices)]
    token = groups[2][0] if len(groups) > 2 and groups[2] else None
    return view, scalars, rows, token


def gather_load(cv: KernelConverter, op: Operation) -> None:
    """load_view_tko through a gather/scatter view."""
    ordered = check_ordering(op)
    view, index, rows_value, token = _operands(cv, op, split_operands(op))
    t = op.results[0].type
    elem = scalar_type(t)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    fence_before(cv, ordered)
    rows = _rows(cv, op, view, rows_value, layout)
    slots = []
    for r in range(layout.slots):
        ptr, guard = _access(cv, view, index, rows, layout, r)
        slots.append(guarded_load(cv, ptr, guard, elem, lambda: padding_value(cv, op, view.padding, elem), ordered))
    cv.values[op.results[0]] = cv.tile(t, slots)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(False)


def scatter_store(cv: KernelConverter, op: Operation) -> None:
    """store_view_tko through a gather/scatter view (rows that repeat: one of the writes wins)."""
    ordered = check_ordering(op)
    groups = split_operands(op)
    value = groups[0][0]
    view, index, rows_value, token = _operands(cv, op, groups[1:])
    layout = cv.layout_of(value.type) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    values = cv.slots(op, value, layout) if not layout.uniform else [cv.scalar(op, value)]
    rows = _rows(cv, op, view, rows_value, layout)
    for r in range(layout.slots):
        ptr, guard = _access(cv, view, index, rows, layout, r)
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_store(cv, values[r], ptr, guard, ordered)
    fence_after(cv, ordered)
    if op.results:
        cv.values[op.results[0]] = Token(True)


def _bits(t: TensorType) -> int:
    """Bits one element of tile type `t` takes in pack/unpack (i1: 1, i4/f4E2M1FN: 4)."""
    e = t.element_type
    if isinstance(e, IntegerType):
        return e.width.data
    if isinstance(e, AnyFloat) and not isinstance(e, FloatTF32Type):
        return e.bitwidth
    return 8 * byte_size(scalar_type(e))


def reinterpret_bytes(cv: KernelConverter, op: Operation) -> None:
    """pack / unpack: the source tile's bits, row-major, read back as the result's elements
    (one shared-memory exchange). Whole-byte types: written as the source type, read as the result
    type. Sub-byte elements (i1, i4, f4E2M1FN) are packed several per byte, element 0 in the
    least significant bits (as NVIDIA's tileiras does): pack writes each element's code as a byte
    and ORs 8/w of them into each result byte; unpack shifts each element's code out of its byte."""
    src = op.operands[0]
    t = op.results[0].type
    if not isinstance(t, TensorType) or not isinstance(src.type, TensorType):
        raise Unsupported(op, "operand shapes")
    src_w, dst_w = _bits(src.type), _bits(t)
    src_bits = src_w * num_elements(src.type.get_shape())
    dst_bits = dst_w * num_elements(t.get_shape())
    if src_bits != dst_bits:
        raise Unsupported(op, f"{src_bits // 8} source bytes for {dst_bits // 8} result bytes")
    if src_w < 8 or dst_w < 8:
        slots = _pack_bits(cv, op, src, t, src_w) if src_w < 8 else _unpack_bits(cv, op, src, t, dst_w)
        cv.values[op.results[0]] = cv.tile(t, slots)
        return
    cv.values[op.results[0]] = cv.tile(t, _read_back(cv, op, src, t, cv.read_shared))


def _read_back(cv: KernelConverter, op: Operation, src: SSAValue, t: TensorType,
               read: Callable[[SSAValue, SSAValue, Attribute], SSAValue]) -> list[SSAValue]:
    """One exchange: `src` goes to shared memory as it is, then each of this thread's slots of
    the result `t` is `read(base, its row-major element index, t's element type)`."""
    base = cv.share(op, src)
    cv.exchange_barrier()
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    elem = scalar_type(t)
    slots = [read(base, cv.real_element_index(layout, r), elem) for r in range(layout.slots)]
    cv.finish_exchange()
    return slots


def _code_byte(cv: KernelConverter, op: Operation, value: SSAValue, width: int) -> SSAValue:
    """The `width`-bit code of a sub-byte register value as an i8 (high bits zero): i1 and i4
    registers zero-extend; a narrow float held in an i8 register keeps its low bits."""
    t = value.type
    if not isinstance(t, IntegerType):
        raise Unsupported(op, f"{t} registers")
    if t.width.data < 8:
        return cv.v(arith.ExtUIOp(value, i8))
    byte = value if t.width.data == 8 else cv.v(arith.TruncIOp(value, i8))
    return cv.v(arith.AndIOp(byte, cv.const((1 << width) - 1, i8)))


def _from_code(cv: KernelConverter, op: Operation, code: SSAValue, width: int, elem: Attribute) -> SSAValue:
    """An i32 whose low `width` bits are an element's code (higher bits: anything) as a register
    of type `elem`: i1 is the low bit, i4 the low nibble, a narrow float in an i8 its masked code."""
    if not isinstance(elem, IntegerType):
        raise Unsupported(op, f"{elem} registers")
    masked = cv.v(arith.AndIOp(code, cv.i32c((1 << width) - 1)))
    if elem.width.data == 1:
        return cv.v(arith.CmpiOp(masked, cv.i32c(0), "ne"))
    if elem.width.data == 32:
        return masked
    return cv.v(arith.TruncIOp(masked, elem) if elem.width.data < 32 else arith.ExtUIOp(masked, elem))


def _pack_bits(cv: KernelConverter, op: Operation, src: SSAValue, t: TensorType, width: int) -> list[SSAValue]:
    """pack of `width`-bit elements into i8: each source element's code goes to shared memory as
    a byte; result byte j is the OR of codes j*(8/w) + k shifted left by k*w."""
    if scalar_type(t) != i8 or 8 % width:
        raise Unsupported(op, f"{width}-bit elements packed into {t.element_type}")
    assert isinstance(src.type, TensorType)
    per = 8 // width
    src_layout = cv.layout_of(src.type) or Layout(1, cv.threads)
    base = cv.smem(i8, num_elements(src.type.get_shape()))
    values = cv.slots(op, src, src_layout) if not src_layout.uniform else [cv.scalar(op, src)]
    for r in range(src_layout.slots):
        e = cv.element_index(src_layout, r)
        ptr = cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], i8, ssa_indices=[e]))
        guarded_store(cv, _code_byte(cv, op, values[r], width), ptr, cv.not_ghost(src_layout, e))
    cv.exchange_barrier()
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    slots = []
    for r in range(layout.slots):
        first = cv.v(arith.MuliOp(cv.real_element_index(layout, r), cv.i32c(per)))
        acc: SSAValue | None = None
        for k in range(per):
            index = first if k == 0 else cv.v(arith.AddiOp(first, cv.i32c(k)))
            code = cv.v(arith.ExtUIOp(cv.read_shared(base, index, i8), i32))
            part = code if k == 0 else cv.v(arith.ShLIOp(code, cv.i32c(k * width)))
            acc = part if acc is None else cv.v(arith.OrIOp(acc, part))
        assert acc is not None
        slots.append(cv.v(arith.TruncIOp(acc, i8)))
    cv.finish_exchange()
    return slots


def _unpack_bits(cv: KernelConverter, op: Operation, src: SSAValue, t: TensorType, width: int) -> list[SSAValue]:
    """unpack into `width`-bit elements: the source goes to shared memory as it is (its bytes,
    little-endian), then element i is bits (i*w) % 8 .. of byte (i*w) / 8."""
    if 8 % width:
        raise Unsupported(op, f"{width}-bit elements")
    per = 8 // width

    def element(base: SSAValue, e: SSAValue, elem: Attribute) -> SSAValue:
        byte_index = cv.v(arith.DivUIOp(e, cv.i32c(per)))
        byte = cv.v(arith.ExtUIOp(cv.read_shared(base, byte_index, i8), i32))
        shift = cv.v(arith.MuliOp(cv.v(arith.RemUIOp(e, cv.i32c(per))), cv.i32c(width)))
        return _from_code(cv, op, cv.v(arith.ShRUIOp(byte, shift)), width, elem)

    return _read_back(cv, op, src, t, element)


def concatenate(cv: KernelConverter, op: Operation) -> None:
    """cat along `dim`: both operands go to shared memory in one exchange; result element c reads
    lhs[c] when c[dim] < lhs extent, else rhs[c - (lhs extent along dim)]."""
    lhs, rhs = op.operands[:2]
    t = op.results[0].type
    dim_attr = get_attr(op, "dim")
    if not isinstance(dim_attr, IntegerAttr) or not all(isinstance(x.type, TensorType) for x in (lhs, rhs)):
        raise Unsupported(op, "operands")
    assert isinstance(lhs.type, TensorType) and isinstance(rhs.type, TensorType) and isinstance(t, TensorType)
    dim = dim_attr.value.data
    lshape, rshape, shape = lhs.type.get_shape(), rhs.type.get_shape(), t.get_shape()
    elem = scalar_type(t)
    bases = [cv.share(op, lhs), cv.share(op, rhs)]
    cv.exchange_barrier()
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    split = cv.i32c(lshape[dim])
    slots = []
    for r in range(layout.slots):
        coords = cv.dst_coords(layout, r, shape)
        in_lhs = cv.v(arith.CmpiOp(coords[dim], split, "ult"))
        # Both reads stay inside their buffers (the coordinate is clamped), then one is chosen.
        left = [*coords[:dim], cv.v(arith.MinUIOp(coords[dim], cv.i32c(lshape[dim] - 1))), *coords[dim + 1:]]
        past = cv.v(arith.SubiOp(cv.v(arith.MaxUIOp(coords[dim], split)), split))
        right = [*coords[:dim], past, *coords[dim + 1:]]
        a = cv.read_shared(bases[0], cv.linear(left, lshape), elem)
        b = cv.read_shared(bases[1], cv.linear(right, rshape), elem)
        slots.append(cv.v(arith.SelectOp(in_lhs, a, b)))
    cv.finish_exchange()
    cv.values[op.results[0]] = cv.tile(t, slots)


__all__ = ["GatherView", "concatenate", "gather_load", "make_gather_view", "reinterpret_bytes", "scatter_store"]
