"""Interpreter semantics of memory: pointers, tensor/tiled views, loads and stores with masks
and padding, atomics (applied lane by lane in row-major order), globals, alloca, tokens."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation

import tile_lsp.compiler.interp.numerics as nx
from tile_lsp.compiler.dialects.cuda_tile import memory_syntax as M
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.interp.machine import Interpreter, OpFailure, handles
from tile_lsp.compiler.interp.memory import TensorView, TiledView
from tile_lsp.compiler.interp.ops_arith import result_elem
from tile_lsp.compiler.interp.ops_shape import dense_values

Array = nx.Array
TOKEN = "token"
_PADDING = {"": 0.0, "zero": 0.0, "neg_zero": -0.0, "nan": float("nan"), "pos_inf": float("inf"),
            "neg_inf": float("-inf")}


def _pointee(t: Attribute) -> Attribute:
    elem = ct.element_type(t)
    assert isinstance(elem, ct.PointerType)
    return elem.pointee


@handles("make_token", "join_tokens", "gdc_wait_tko", "gdc_launch_dependents_tko", "memory_fence_alias_tko")
def token(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    # One grid at a time and no aliased mappings here: the grid-dependency and alias fences
    # order nothing the interpreter could observe.
    return [TOKEN]


@handles("offset")
def offset(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    size = np.dtype(nx.np_dtype(_pointee(op.results[0].type))).itemsize
    steps = nx.as_signed(ins[1], ct.element_type(op.operands[1].type))
    return [np.asarray(ins[0], dtype=np.int64) + steps * size]


@handles("get_global")
def get_global(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    ref = op.properties["name"]
    assert isinstance(ref, builtin.SymbolRefAttr)
    name = ref.root_reference.data
    if name not in it.globals:
        g = it.symbols.get(name)
        if g is None or g.name != "cuda_tile.global":
            raise OpFailure(f"no global named '@{name}'")
        t = g.properties["type"]
        data = dense_values(g.properties["value"], ct.element_type(t), ct.shape_of(t))  # type: ignore[arg-type]
        it.globals[name] = it.memory.add("@" + name, data, read_only=g.properties.get("constant") is not None)
    return [np.asarray(it.globals[name], dtype=np.int64)]


@handles("alloca")
def alloca(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    n = op.properties["num_elem"].value.data  # type: ignore[attr-defined]
    size = np.dtype(nx.np_dtype(_pointee(op.results[0].type))).itemsize
    name = f"alloca{it.where(op)}@block{it.state.block_id}"
    return [np.asarray(it.memory.alloc(name, n * size), dtype=np.int64)]


@handles("load_ptr_tko")
def load_ptr(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    elem = result_elem(op)
    mask = None if op.mask is None else it.state.env[op.mask]  # type: ignore[attr-defined]
    pad = 0 if op.paddingValue is None else it.state.env[op.paddingValue]  # type: ignore[attr-defined]
    dtype = nx.np_dtype(elem)
    addrs = np.asarray(ins[0], dtype=np.int64)
    if mask is None:
        return [it.memory.load(addrs, dtype), TOKEN]
    values = it.memory.load(addrs, dtype, mask)
    return [np.where(np.asarray(mask, dtype=np.bool_), values, np.asarray(pad).astype(dtype)).astype(dtype), TOKEN]


@handles("store_ptr_tko")
def store_ptr(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    mask = None if op.mask is None else it.state.env[op.mask]  # type: ignore[attr-defined]
    dtype = nx.np_dtype(_pointee(op.operands[0].type))
    it.memory.store(np.asarray(ins[0], dtype=np.int64), ins[1], dtype, mask)
    return [TOKEN]


# -- views --------------------------------------------------------------------------------------


@handles("make_tensor_view")
def make_tensor_view(it: Interpreter, op: Operation, ins: list[Any]) -> list[TensorView]:
    t = op.results[0].type
    assert isinstance(t, ct.TensorViewType)
    env = it.state.env
    dyn_shape = iter(int(np.asarray(env[v]).astype(np.int64)) for v in op.dynamicShape)  # type: ignore[attr-defined]
    dyn_strides = iter(int(np.asarray(env[v]).astype(np.int64)) for v in op.dynamicStrides)  # type: ignore[attr-defined]
    shape = tuple(next(dyn_shape) if d < 0 else d for d in t.shape)
    strides = tuple(next(dyn_strides) if s < 0 else s for s in t.strides)
    return [TensorView(int(np.asarray(ins[0])), nx.np_dtype(t.element_type), shape, strides)]


@handles("make_partition_view", "make_strided_view", "make_gather_scatter_view")
def make_tiled_view(it: Interpreter, op: Operation, ins: list[Any]) -> list[TiledView]:
    t = op.results[0].type
    tv = ins[0]
    assert isinstance(tv, TensorView)
    if isinstance(t, ct.GatherScatterViewType):
        rank = len(t.tile_shape)
        return [TiledView(tv, t.tile_shape, tuple(range(rank)), t.padding_value.data, "gather_scatter",
                          sparse_dim=t.sparse_dim)]
    if isinstance(t, ct.StridedViewType):
        return [TiledView(tv, t.tile_shape, t.dim_map, t.padding_value.data, "strided", t.traversal_strides)]
    assert isinstance(t, ct.PartitionViewType)
    return [TiledView(tv, t.tile_shape, t.dim_map, t.padding_value.data, "partition")]


def _view_index(it: Interpreter, op: Operation) -> list[Array]:
    return [it.state.env[v] for v in op.index]  # type: ignore[attr-defined]


@handles("load_view_tko")
def load_view(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    view = ins[0]
    assert isinstance(view, TiledView)
    addrs, inside = view.addresses(_view_index(it, op))
    elem = result_elem(op)
    fill = _PADDING[view.padding] if isinstance(elem, builtin.AnyFloat) else 0
    return [it.memory.load(addrs, nx.np_dtype(elem), inside, fill), TOKEN]


@handles("store_view_tko")
def store_view(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    view = ins[1]
    assert isinstance(view, TiledView)
    addrs, inside = view.addresses(_view_index(it, op))
    it.memory.store(addrs, ins[0], view.tensor.dtype, inside)
    return [TOKEN]


@handles("get_tensor_shape", "get_index_space_shape")
def shape_query(it: Interpreter, op: Operation, ins: list[Any]) -> list[Array]:
    view = ins[0]
    if op.name == "cuda_tile.get_index_space_shape":
        assert isinstance(view, TiledView)
        dims = view.index_space()
    else:
        dims = (view.tensor if isinstance(view, TiledView) else view).shape
    return [nx.wrap_int(np.asarray(d, dtype=np.int64), ct.element_type(r.type)) for d, r in zip(dims, op.results)]


# -- atomics ------------------------------------------------------------------------------------


def _apply(mode: str, cur: Array, val: Array, elem: Attribute) -> Array:
    """The new memory value of a read-modify-write."""
    if mode == "xchg":
        return val
    if mode == "addf":
        return nx.round_float(nx.to_f64(cur) + nx.to_f64(val), elem)
    if mode in ("and", "or", "xor"):
        return {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[mode](cur, val)
    read = nx.as_unsigned if mode in ("umax", "umin") else nx.as_signed
    a, b = read(cur, elem), read(val, elem)
    if mode == "add":
        return nx.wrap_int(a + b, elem)
    return nx.wrap_int(np.maximum(a, b) if mode in ("max", "umax") else np.minimum(a, b), elem)


def _atomic(it: Interpreter, addrs: Array, elem: Attribute, mask: Array | None, update: Any) -> Array:
    """Run `update(old values) -> new values` lane by lane (row-major) on live lanes; old values."""
    dtype = nx.np_dtype(elem)
    shape = np.shape(addrs)
    flat = np.asarray(addrs, dtype=np.int64).reshape(-1)
    live = np.ones(flat.size, dtype=np.bool_) if mask is None else np.broadcast_to(mask, shape).reshape(-1)
    lanes = np.nonzero(live)[0]
    old = np.zeros(flat.size, dtype=dtype)
    if np.unique(flat[lanes]).size == lanes.size:  # no two lanes share an address: one vector step
        cur = it.memory.load(flat[lanes], dtype)
        old[lanes] = cur
        it.memory.store(flat[lanes], update(cur, lanes), dtype)
        return old.reshape(shape)
    for k in lanes:
        cur = it.memory.load(flat[k : k + 1], dtype)
        old[k] = cur[0]
        it.memory.store(flat[k : k + 1], update(cur, np.asarray([k])), dtype)
    return old.reshape(shape)


def _flat(x: Any, shape: tuple[int, ...]) -> Array:
    return np.broadcast_to(np.asarray(x), shape).reshape(-1)


def _mode(op: Operation) -> str:
    mode = M.MODE.case(op.properties.get("mode"))
    if mode is None:
        raise OpFailure(f"unknown atomic mode {op.properties.get('mode')}")
    return mode


@handles("atomic_rmw_tko")
def atomic_rmw(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    elem = result_elem(op)
    mode = _mode(op)
    mask = None if op.mask is None else it.state.env[op.mask]  # type: ignore[attr-defined]
    vals = _flat(ins[1], np.shape(ins[0]))
    old = _atomic(it, ins[0], elem, mask, lambda cur, lanes: _apply(mode, cur, vals[lanes], elem))
    return [old, TOKEN]


@handles("atomic_cas_tko")
def atomic_cas(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    elem = result_elem(op)
    mask = None if op.mask is None else it.state.env[op.mask]  # type: ignore[attr-defined]
    shape = np.shape(ins[0])
    cmp, val = _flat(ins[1], shape), _flat(ins[2], shape)
    bits = np.dtype(nx.np_dtype(elem)).itemsize

    def swap(cur: Array, lanes: Array) -> Array:
        ut = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[bits]
        same = np.ascontiguousarray(cur).view(ut) == np.ascontiguousarray(cmp[lanes]).view(ut)
        return np.where(same, val[lanes], cur)

    return [_atomic(it, ins[0], elem, mask, swap), TOKEN]


@handles("atomic_red_view_tko")
def atomic_red_view(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    view = ins[0]
    assert isinstance(view, TiledView)
    elem = ct.element_type(op.value.type)  # type: ignore[attr-defined]
    mode = _mode(op)
    addrs, inside = view.addresses(_view_index(it, op))
    vals = _flat(it.state.env[op.value], addrs.shape)  # type: ignore[attr-defined]
    _atomic(it, addrs, elem, inside, lambda cur, lanes: _apply(mode, cur, vals[lanes], elem))
    return [TOKEN]


# -- multimem (13.5) ----------------------------------------------------------------------------
# The interpreter models one GPU: a multicast range has a single copy, so a load-reduce reads
# it, a reduce combines into it like atomic_red_view_tko, a store writes it.


def _multimem_mode(op: Operation, elem: Attribute) -> str:
    a = op.properties.get("reduction")
    kind = getattr(a, "case", "add")
    return "addf" if kind == "add" and not isinstance(elem, builtin.IntegerType) else kind


@handles("multimem_load_reduce_view_tko")
def multimem_load_reduce(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    return list(load_view(it, op, ins))


@handles("multimem_store_view_tko")
def multimem_store(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    return list(store_view(it, op, [ins[1], ins[0], *ins[2:]]))


@handles("multimem_reduce_view_tko")
def multimem_reduce(it: Interpreter, op: Operation, ins: list[Any]) -> list[Any]:
    view = ins[0]
    assert isinstance(view, TiledView)
    elem = ct.element_type(op.tile.type)  # type: ignore[attr-defined]
    mode = _multimem_mode(op, elem)
    addrs, inside = view.addresses(_view_index(it, op))
    vals = _flat(ins[1], addrs.shape)
    if mode in ("min", "max") and not isinstance(elem, builtin.IntegerType):
        pick = np.fmin if mode == "min" else np.fmax

        def update(cur: Array, lanes: Any) -> Array:
            return nx.round_float(pick(nx.to_f64(cur), nx.to_f64(vals[lanes])), elem)
    else:

        def update(cur: Array, lanes: Any) -> Array:
            return _apply(mode, cur, vals[lanes], elem)

    _atomic(it, addrs, elem, inside, update)
    return [TOKEN]
