"""Interpreter semantics of constants, shape ops, grid queries, reduce/scan (the combiner
region runs vectorized over all pairs at once) and the mma family."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

import tile_lsp.compiler.interp.numerics as nx
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.arith_syntax import case_of
from tile_lsp.compiler.dialects.cuda_tile.attrs import DenseAttr
from tile_lsp.compiler.interp.machine import Interpreter, OpFailure, handles
from tile_lsp.compiler.interp.ops_arith import operand_elem, result_elem

Array = nx.Array


def dense_values(attr: DenseAttr, elem: Attribute, shape: tuple[int, ...]) -> Array:
    """A dense constant as an array of `shape` (splats broadcast)."""
    values = attr.values.data
    if ct.is_float(elem):
        flat = nx.round_float(np.asarray(values, dtype=np.float64), elem)
    else:
        flat = nx.wrap_int(np.asarray([int(v) for v in values], dtype=np.int64), elem)
    if flat.size == 1:
        return np.broadcast_to(flat.reshape(()), shape).copy()
    return flat.reshape(shape)


def scalar_attr(attr: Attribute, elem: Attribute) -> Array:
    """An identity attribute (`0.0 : f32`, `-1 : i32`) as a 0-d array of `elem`."""
    value = getattr(getattr(attr, "value", None), "data", None)
    if value is None:
        raise OpFailure(f"unsupported identity attribute {attr}")
    if isinstance(elem, builtin.AnyFloat):
        return nx.round_float(np.asarray(float(value)), elem)
    return nx.wrap_int(np.asarray(int(value)), elem)


@handles("constant")
def constant(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    t = op.results[0].type
    attr = op.properties["value"]
    assert isinstance(attr, DenseAttr)
    return [dense_values(attr, ct.element_type(t), ct.shape_of(t))]


@handles("assume")
def assume(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    return [ins[0]]


@handles("broadcast")
def broadcast(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    return [np.broadcast_to(ins[0], ct.shape_of(op.results[0].type)).copy()]


@handles("reshape")
def reshape(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    return [np.reshape(ins[0], ct.shape_of(op.results[0].type))]


@handles("permute")
def permute(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    perm = op.properties["permutation"]
    assert isinstance(perm, builtin.DenseArrayBase)
    return [np.ascontiguousarray(np.transpose(ins[0], tuple(int(p) for p in perm.get_values())))]


@handles("cat")
def cat(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    dim = op.properties["dim"]
    assert isinstance(dim, builtin.IntegerAttr)
    return [np.concatenate([ins[0], ins[1]], axis=dim.value.data)]


@handles("extract")
def extract(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    shape = ct.shape_of(op.results[0].type)
    src = np.asarray(ins[0])
    index = [int(np.asarray(i).astype(np.int64)) for i in ins[1:]]
    for d, (i, n) in enumerate(zip(index, shape)):
        if not 0 <= i * n < src.shape[d]:
            raise OpFailure(f"index {i} of dimension {d} is out of range (source {src.shape}, result {shape})")
    return [src[tuple(slice(i * n, (i + 1) * n) for i, n in zip(index, shape))].copy()]


@handles("insert")
def insert(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    src, out = np.asarray(ins[0]), np.array(ins[1], copy=True)
    index = [int(np.asarray(i).astype(np.int64)) for i in ins[2:]]
    for d, (i, n) in enumerate(zip(index, src.shape)):
        if not 0 <= i * n < out.shape[d]:
            raise OpFailure(f"index {i} of dimension {d} is out of range (destination {out.shape}, source {src.shape})")
    out[tuple(slice(i * n, (i + 1) * n) for i, n in zip(index, src.shape))] = src
    return [out]


@handles("iota")
def iota(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    t = op.results[0].type
    return [nx.wrap_int(np.arange(ct.shape_of(t)[0], dtype=np.int64), ct.element_type(t))]


def _to_bytes(x: Array, elem: Attribute) -> Array:
    """A rank-1 tile as its bytes, row-major. Elements narrower than a byte (i1, i4, f4E2M1FN) are
    packed several per byte, element 0 in the least significant bits (NVIDIA's tileiras: bit i of
    a byte is i1 element i, the low nibble is 4-bit element 0); wider ones are little-endian."""
    width = ct.bitwidth(elem)
    flat = np.ascontiguousarray(np.asarray(x).reshape(-1))
    if width >= 8:
        return flat.view(np.uint8)
    if 8 % width or flat.size * width % 8:
        raise OpFailure(f"cannot pack {flat.size} elements of {width} bits into whole bytes")
    per = 8 // width
    codes = flat.view(np.uint8).astype(np.uint8) & np.uint8((1 << width) - 1)
    shifts = (np.arange(per, dtype=np.uint8) * width).astype(np.uint8)
    return np.bitwise_or.reduce(codes.reshape(-1, per) << shifts, axis=1).astype(np.uint8)


def _from_bytes(raw: Array, elem: Attribute) -> Array:
    """The inverse of `_to_bytes`: bytes read back as elements of `elem` (i4 sign-extended into
    its int8 storage, i1 as bool, f4E2M1FN as its code)."""
    width = ct.bitwidth(elem)
    if width >= 8:
        if raw.size * 8 % width:
            raise OpFailure(f"{raw.size} bytes are not a whole number of {width}-bit elements")
        return raw.view(nx.np_dtype(elem)).copy()
    if 8 % width:
        raise OpFailure(f"cannot unpack {width}-bit elements from bytes")
    per = 8 // width
    shifts = (np.arange(per, dtype=np.uint8) * width).astype(np.uint8)
    codes = ((raw.reshape(-1, 1) >> shifts) & np.uint8((1 << width) - 1)).reshape(-1).astype(np.uint8)
    if width == 1:
        return codes.astype(np.bool_)
    if isinstance(elem, builtin.IntegerType):
        return ((codes.astype(np.int16) ^ (1 << (width - 1))) - (1 << (width - 1))).astype(nx.np_dtype(elem))
    return codes.view(nx.np_dtype(elem)).copy()


@handles("pack", "unpack")
def pack(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Reinterpret a rank-1 tile's bits as another element type (sub-byte elements packed LSB
    first, see `_to_bytes`)."""
    return [_from_bytes(_to_bytes(ins[0], operand_elem(op)), result_elem(op))]


@handles("get_tile_block_id", "get_num_tile_blocks")
def grid_query(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    values = it.state.block_id if op.name == "cuda_tile.get_tile_block_id" else it.state.grid
    elem = result_elem(op)
    return [nx.wrap_int(np.asarray(v, dtype=np.int64), elem) for v in values]


# -- reduce and scan ---------------------------------------------------------------------------


def _identities(op: Operation) -> list[Array]:
    ids = op.properties["identities"]
    assert isinstance(ids, builtin.ArrayAttr)
    return [scalar_attr(a, ct.element_type(v.type)) for a, v in zip(ids.data, op.operands)]


def _combine(it: Interpreter, op: Operation, lhs: list[Array], rhs: list[Array]) -> list[Array]:
    args = [x for pair in zip(lhs, rhs) for x in pair]
    out = it.call_region(op.regions[0], args)
    return [np.asarray(o).astype(np.asarray(x).dtype) for o, x in zip(out, lhs)]


@handles("reduce")
def reduce(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Pairwise tree over `dim` (neighbours combine, left operand first), identity-padded."""
    dim = op.properties["dim"].value.data  # type: ignore[attr-defined]
    ids = _identities(op)
    vals = [np.moveaxis(np.asarray(x), dim, -1) for x in ins]
    while vals[0].shape[-1] > 1:
        if vals[0].shape[-1] % 2:
            vals = [np.concatenate([v, np.broadcast_to(i, (*v.shape[:-1], 1))], axis=-1) for v, i in zip(vals, ids)]
        vals = _combine(it, op, [v[..., 0::2] for v in vals], [v[..., 1::2] for v in vals])
    if vals[0].shape[-1] == 0:
        return [np.broadcast_to(i, v.shape[:-1]).copy() for v, i in zip(vals, ids)]
    return [np.array(v[..., 0]) for v in vals]


@handles("scan")
def scan(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Inclusive scan along `dim` (Hillis-Steele: log2(n) vectorized combiner runs)."""
    dim = op.properties["dim"].value.data  # type: ignore[attr-defined]
    reverse = op.properties.get("reverse")
    rev = isinstance(reverse, builtin.IntegerAttr) and bool(reverse.value.data)
    ids = _identities(op)
    vals = [np.moveaxis(np.asarray(x), dim, -1) for x in ins]
    if rev:
        vals = [v[..., ::-1] for v in vals]
    n = vals[0].shape[-1]
    step = 1
    while step < n:
        shifted = [np.concatenate([np.broadcast_to(i, (*v.shape[:-1], step)), v[..., :-step]], axis=-1)
                   for v, i in zip(vals, ids)]
        new = _combine(it, op, shifted, vals)
        keep = np.arange(n) >= step
        vals = [np.where(keep, a, b) for a, b in zip(new, vals)]
        step *= 2
    if rev:
        vals = [v[..., ::-1] for v in vals]
    return [np.ascontiguousarray(np.moveaxis(v, -1, dim)) for v in vals]


# -- mma ------------------------------------------------------------------------------------------


@handles("mmaf")
def mmaf(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """acc + lhs @ rhs with exact products, summed in f64, rounded once to the acc type."""
    a, b, c = (nx.to_f64(x) for x in ins)
    return [nx.round_float(c + np.matmul(a, b), result_elem(op))]


@handles("mmai")
def mmai(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """i8 x i8 products summed into the i32 accumulator with wraparound."""
    ea, eb = operand_elem(op, 0), operand_elem(op, 1)
    ra = nx.as_unsigned if case_of(op, "signedness_lhs", "signed") == "unsigned" else nx.as_signed
    rb = nx.as_unsigned if case_of(op, "signedness_rhs", "signed") == "unsigned" else nx.as_signed
    a, b = ra(ins[0], ea).astype(np.int64), rb(ins[1], eb).astype(np.int64)
    acc = nx.as_signed(ins[2], operand_elem(op, 2))
    return [nx.wrap_int(acc + np.matmul(a, b), result_elem(op))]


@handles("mmaf_scaled")
def mmaf_scaled(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    """Each K block of lhs/rhs is multiplied by its scale before the product."""
    a, b, c, sa, sb = (nx.float_values(x, operand_elem(op, i)) for i, x in enumerate(ins))
    fa = a.shape[-1] // sa.shape[-1]
    fb = b.shape[-2] // sb.shape[-2]
    a = a * np.repeat(sa, fa, axis=-1)
    b = b * np.repeat(sb, fb, axis=-2)
    return [nx.round_float(c + np.matmul(a, b), result_elem(op))]
