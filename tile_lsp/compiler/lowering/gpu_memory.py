"""Stage 3 memory ops (`tileaa_to_gpu.py`): tensor and partition views, their bounds-checked
loads and masked stores (ordered ones as atomics with fences), pointer-tile loads and stores,
atomics, memory tokens, fences and grid-dependency control, and assert/print.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, cf
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    Float32Type,
    IntegerAttr,
    IntegerType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.lowering.gpu_convert import convert_f8, f8_format
from tile_lsp.compiler.lowering.gpu_core import (
    Dist,
    KernelConverter,
    TensorView,
    ThreadBase,
    TileView,
    Token,
    Unsupported,
    and_guards,
    atomic_params,
    cast_value,
    check_ordering,
    create_op,
    fence_after,
    fence_before,
    get_attr,
    guarded_load,
    guarded_store,
    guarded_value,
    order_by_token,
    padding_value,
    scalar_type,
    split_operands,
    str_attr,
    target_sm,
    tile_origin,
    view_access,
    view_operands,
)
from tile_lsp.compiler.lowering.gpu_views import GatherView, gather_load, make_gather_view, scatter_store
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.dialects import gpu, llvm_memory, nvvm
from tile_lsp.compiler.mlir.dialects.nv_tileaa import TensorViewType, TileViewType


def _grid_dependency(action: str) -> Callable[[KernelConverter, Operation], None]:
    """griddepcontrol.wait / .launch_dependents (sm_90+); below sm_90 there is no dependent
    launch to wait for or release, so nothing is emitted and the op says so."""

    def lower(cv: KernelConverter, op: Operation) -> None:
        sm = target_sm(cv)
        if sm >= 90:
            cv.emit(nvvm.GridDepControlOp.create(properties={"kind": nvvm.GridDepActionAttr(nvvm.GridDepAction(action))}))
        else:
            cv.lctx.warning(op, f"griddepcontrol.{action} needs sm_90 or newer; on sm_{sm} this op does nothing")
        cv.values[op.results[0]] = _token_through(cv, op)

    return lower


def _token_through(cv: KernelConverter, op: Operation) -> Token:
    """The result token of an ordering-only op: after a write when its operand token was."""
    got = cv.get(op.operands[0]) if op.operands else None
    return Token(isinstance(got, Token) and got.after_write)


def _fence_alias(cv: KernelConverter, op: Operation) -> None:
    cv.emit(nvvm.FenceProxyOp(nvvm.ProxyKind.ALIAS))
    cv.values[op.results[0]] = _token_through(cv, op)


def _create_token(cv: KernelConverter, op: Operation) -> None:
    cv.values[op.results[0]] = Token(False)


def _join_tokens(cv: KernelConverter, op: Operation) -> None:
    after = any(isinstance(t := cv.get(x), Token) and t.after_write for x in op.operands)
    cv.values[op.results[0]] = Token(after)


def _make_tensor_view(cv: KernelConverter, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, TensorViewType)
    base_ops, shape_ops, stride_ops = (split_operands(op) + [[], [], []])[:3]
    base = cv.scalar(op, base_ops[0])
    dyn_shape = iter([cv.to_i64(cv.scalar(op, x)) for x in shape_ops])
    dyn_strides = iter([cv.to_i64(cv.scalar(op, x)) for x in stride_ops])
    shape = [next(dyn_shape) if d.data < 0 else cv.i64c(d.data) for d in t.shape.data]
    strides = [next(dyn_strides) if s.data < 0 else cv.i64c(s.data) for s in t.strides.data]
    cv.values[op.results[0]] = TensorView(base, scalar_type(t.element_type), shape, strides)


def _make_tile_view(cv: KernelConverter, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, TileViewType)
    if t.kind.data == "gather_scatter":
        cv.values[op.results[0]] = make_gather_view(cv, op, t)
        return
    if t.kind.data != "partition":
        raise Unsupported(op, f"{t.kind.data} views")
    rank = len(t.tile.data)
    dim_map = tuple(d.data for d in t.dim_map.data) or tuple(range(rank))
    if sorted(dim_map) != list(range(rank)):
        raise Unsupported(op, "a dim_map that is not a permutation")
    view = cv.get(op.operands[0])
    assert isinstance(view, TensorView)
    cv.values[op.results[0]] = TileView(tuple(d.data for d in t.tile.data), view, t.padding.data, dim_map)


def _get_tensor_shape(cv: KernelConverter, op: Operation) -> None:
    view = cv.get(op.operands[0])
    if isinstance(view, TileView):
        view = view.view
    assert isinstance(view, TensorView)
    for res, extent in zip(op.results, view.shape, strict=False):
        cv.values[res] = cast_value(cv, "arith.trunci", extent, res.type) if res.type != i64 else extent


def _get_index_space_shape(cv: KernelConverter, op: Operation) -> None:
    view = cv.get(op.operands[0])
    if not isinstance(view, TileView):
        raise Unsupported(op)
    for res, tensor_dim, tile in zip(op.results, view.dim_map, view.tile, strict=False):
        extent = view.view.shape[tensor_dim]
        t = cv.i64c(tile)
        count = cv.v(arith.DivUIOp(cv.v(arith.AddiOp(extent, cv.i64c(tile - 1))), t))
        cv.values[res] = cast_value(cv, "arith.trunci", count, res.type) if res.type != i64 else count


def _load_view(cv: KernelConverter, op: Operation) -> None:
    if isinstance(cv.get(op.operands[0]), GatherView):
        gather_load(cv, op)
        return
    ordered = check_ordering(op)
    view, index, token = view_operands(cv, op, split_operands(op))
    t = op.results[0].type
    elem = scalar_type(t)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    fence_before(cv, ordered)
    slots = []
    origin = tile_origin(cv, view, index)
    vectors: dict[int, tuple[list[SSAValue], SSAValue | None]] = {}
    based: list[ThreadBase] = []
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r, origin, vectors, based)
        slots.append(guarded_load(cv, ptr, guard, elem, lambda: padding_value(cv, op, view.padding, elem), ordered))
    cv.values[op.results[0]] = cv.tile(t, slots)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(False)


def _store_view(cv: KernelConverter, op: Operation) -> None:
    if len(op.operands) > 1 and isinstance(cv.get(op.operands[1]), GatherView):
        scatter_store(cv, op)
        return
    ordered = check_ordering(op)
    groups = split_operands(op)
    value = groups[0][0]
    view, index, token = view_operands(cv, op, groups[1:])
    t = value.type
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    values = cv.slots(op, value, layout) if not layout.uniform else [cv.scalar(op, value)]
    origin = tile_origin(cv, view, index)
    vectors: dict[int, tuple[list[SSAValue], SSAValue | None]] = {}
    based: list[ThreadBase] = []
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r, origin, vectors, based)
        if layout.uniform:  # one element: thread 0 writes it
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_store(cv, values[r], ptr, guard, ordered)
    fence_after(cv, ordered)
    if op.results:
        cv.values[op.results[0]] = Token(True)


def _ptr_tile(cv: KernelConverter, op: Operation, ptr_type: Attribute) -> Layout:
    return cv.layout_of(ptr_type) or Layout(1, cv.threads)


def _load_ptr(cv: KernelConverter, op: Operation) -> None:
    ordered = check_ordering(op)
    ptrs, mask, padding, token = (split_operands(op) + [[], [], [], []])[:4]
    t = op.results[0].type
    elem = scalar_type(t)
    layout = _ptr_tile(cv, op, ptrs[0].type)
    order_by_token(cv, op, token[0] if token else None)
    fence_before(cv, ordered)
    p = cv.slots(op, ptrs[0], layout)
    m = cv.slots(op, mask[0], layout) if mask else None
    pad = cv.slots(op, padding[0], layout) if padding else None
    slots = []
    for r in range(layout.slots):
        guard = m[r] if m is not None else None
        guard = and_guards(cv, guard, cv.not_ghost(layout, cv.element_index(layout, r)))
        fallback: Callable[[], SSAValue] = (
            (lambda r=r: pad[r]) if pad is not None else (lambda: padding_value(cv, op, "", elem)))  # type: ignore[misc]
        slots.append(guarded_load(cv, p[r], guard, elem, fallback, ordered))
    cv.values[op.results[0]] = cv.tile(t, slots)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(False)


def _store_ptr(cv: KernelConverter, op: Operation) -> None:
    ordered = check_ordering(op)
    ptrs, values, mask, token = (split_operands(op) + [[], [], [], []])[:4]
    layout = _ptr_tile(cv, op, ptrs[0].type)
    order_by_token(cv, op, token[0] if token else None)
    p = cv.slots(op, ptrs[0], layout)
    v = cv.slots(op, values[0], layout)
    m = cv.slots(op, mask[0], layout) if mask else None
    for r in range(layout.slots):
        guard = m[r] if m is not None else None
        guard = and_guards(cv, guard, cv.not_ghost(layout, cv.element_index(layout, r)))
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_store(cv, v[r], p[r], guard, ordered)
    fence_after(cv, ordered)
    if op.results:
        cv.values[op.results[0]] = Token(True)
# -- atomics ---------------------------------------------------------------------------------

# cuda_tile's atomic modes by their i32 value (memory_syntax.RMW_MODES); cmpxchg's failure
# ordering per ordering.
_CAS_FAILURE = {"monotonic": "monotonic", "acquire": "acquire", "release": "monotonic", "acq_rel": "acquire"}
_RMW_MODES = ("_and", "_or", "_xor", "add", "fadd", "max", "min", "umax", "umin", "xchg")


def _rmw_kind(op: Operation, elem: Attribute) -> str:
    mode = get_attr(op, "mode")
    index = mode.value.data if isinstance(mode, IntegerAttr) else -1
    if not 0 <= index < len(_RMW_MODES):
        raise Unsupported(op, "atomic mode")
    kind = _RMW_MODES[index]
    if isinstance(elem, AnyFloat) and kind not in ("fadd", "xchg"):
        raise Unsupported(op, f"atomic mode '{kind}' on {elem}")
    return kind


def _atomic_slots(cv: KernelConverter, op: Operation, ptr_value: SSAValue, elem: Attribute,
                  mask: list[SSAValue], token: list[SSAValue],
                  build: Callable[[SSAValue, int], SSAValue]) -> None:
    """One atomic per element of the pointer tile; a one-element (uniform) atomic happens once
    per tile block, in thread 0, and its old value reaches every thread through shared memory."""
    order_by_token(cv, op, token[0] if token else None)
    layout = cv.layout_of(ptr_value.type) or Layout(1, cv.threads)
    ptrs = cv.slots(op, ptr_value, layout)
    masks = cv.slots(op, mask[0], layout) if mask else None
    results = []
    for r in range(layout.slots):
        guard = masks[r] if masks is not None else None
        guard = and_guards(cv, guard, cv.not_ghost(layout, cv.element_index(layout, r)))
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        results.append(guarded_value(cv, guard, elem, lambda r=r: build(ptrs[r], r)))  # type: ignore[misc]
    if layout.uniform and op.results and op.results[0].uses:
        base = cv.smem(elem, 1)
        first = cv.first_thread()
        guarded_store(cv, results[0], base, first)
        cv.exchange_barrier()
        results = [cv.v(llvm_memory.LoadOp(base, elem))]
        cv.finish_exchange()
    if op.results:
        cv.values[op.results[0]] = cv.tile(op.results[0].type, results)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(True)


def _atomic_rmw(cv: KernelConverter, op: Operation) -> None:
    ptrs, values, mask, token = (split_operands(op) + [[], [], [], []])[:4]
    t = op.results[0].type
    elem = scalar_type(t)
    kind = _rmw_kind(op, elem)
    ordering, scope = atomic_params(op)
    layout = cv.layout_of(ptrs[0].type) or Layout(1, cv.threads)
    vals = cv.slots(op, values[0], layout)
    _atomic_slots(cv, op, ptrs[0], elem, mask, token,
                  lambda p, r: cv.v(llvm_memory.AtomicRMWOp(kind, p, vals[r], ordering, scope)))


def _atomic_cas(cv: KernelConverter, op: Operation) -> None:
    ptrs, cmps, values, mask, token = (split_operands(op) + [[], [], [], [], []])[:5]
    t = op.results[0].type
    elem = scalar_type(t)
    ordering, scope = atomic_params(op)
    layout = cv.layout_of(ptrs[0].type) or Layout(1, cv.threads)
    expected, vals = cv.slots(op, cmps[0], layout), cv.slots(op, values[0], layout)

    # LLVM's cmpxchg takes integers and pointers only: a float CAS compares its bit pattern.
    word = IntegerType(elem.bitwidth) if isinstance(elem, AnyFloat) else elem

    def build(p: SSAValue, r: int) -> SSAValue:
        old, new = ((cv.v(arith.BitcastOp(x, word)) for x in (expected[r], vals[r])) if word != elem
                    else (expected[r], vals[r]))
        pair = cv.v(llvm_memory.CmpXchgOp(p, old, new, ordering, _CAS_FAILURE[ordering], scope))
        got = cv.v(create_op("llvm.extractvalue", [pair], word, {"position": DenseArrayBase.from_list(i64, [0])}))
        return cv.v(arith.BitcastOp(got, elem)) if word != elem else got

    _atomic_slots(cv, op, ptrs[0], elem, mask, token, build)


def _atomic_red_view(cv: KernelConverter, op: Operation) -> None:
    """Element-wise atomic reduction of a tile into a partition view (bounds-checked)."""
    groups = split_operands(op)
    if len(groups) < 3 or len(groups[2]) != 1:
        raise Unsupported(op, "operands")
    view, index, _ = view_operands(cv, op, groups[:2])
    token = groups[3][0] if len(groups) > 3 and groups[3] else None
    value = groups[2][0]
    t = value.type
    elem = scalar_type(t)
    kind = _rmw_kind(op, elem)
    ordering, scope = atomic_params(op)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    values = cv.slots(op, value, layout) if not layout.uniform else [cv.scalar(op, value)]
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r)
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_value(cv, guard, elem,
                      lambda p=ptr, r=r: cv.v(llvm_memory.AtomicRMWOp(kind, p, values[r], ordering, scope)))  # type: ignore[misc]
    if op.results:
        cv.values[op.results[0]] = Token(True)


def _assert(cv: KernelConverter, op: Operation) -> None:
    """cf.assert on the AND of this thread's elements (each thread checks what it holds)."""
    cond = op.operands[0]
    layout = cv.layout_of(cond.type)
    if layout is None:
        ok = cv.scalar(op, cond)
    else:
        values = cv.slots(op, cond, layout)
        ok = values[0]
        for r in range(1, layout.slots):
            e = cv.element_index(layout, r)
            ghost = cv.not_ghost(layout, e)
            v = values[r] if ghost is None else cv.v(arith.OrIOp(values[r], cv.v(arith.XOrIOp(ghost, cv.const(1, i1)))))
            ok = cv.v(arith.AndIOp(ok, v))
    message = str_attr(op, "message", "assertion failed")
    cv.emit(cf.AssertOp(ok, message))


def _print(cv: KernelConverter, op: Operation) -> None:
    """Formatted print as gpu.printf: of uniform values once per tile block (thread 0); with tile
    arguments once per element (each thread prints the elements it holds, in no set order)."""
    groups = split_operands(op) if op.name.endswith("_tko") else [list(op.operands)]
    args = groups[0]
    token = groups[1][0] if len(groups) > 1 and groups[1] else None
    order_by_token(cv, op, token)
    fmt = str_attr(op, "str")
    layouts = {d.layout for x in args if isinstance(d := cv.get(x), Dist)}
    if len(layouts) > 1:
        raise Unsupported(op, "tile arguments with different element counts")

    def printed(x: SSAValue, value: SSAValue) -> SSAValue:  # narrow floats: their f32 value
        narrow = f8_format(x.type)
        return value if narrow is None else convert_f8(cv.v, value, Float32Type(), narrow, None, target_sm(cv))

    if layouts:  # tiles: the format once per element, by the thread that holds it
        [layout] = layouts
        per_arg = [cv.slots(op, x, layout) for x in args]
        for r in range(layout.slots):
            guard = cv.not_ghost(layout, cv.element_index(layout, r))
            _printf_if(cv, guard, fmt, [printed(x, vals[r]) for x, vals in zip(args, per_arg, strict=True)])
    else:  # uniform values: once per tile block, by thread 0
        values = [printed(x, cv.scalar(op, x)) for x in args]
        _printf_if(cv, cv.first_thread(), fmt, values)
    if op.results:
        cv.values[op.results[0]] = Token(False)


def _printf_if(cv: KernelConverter, guard: SSAValue | None, fmt: str, values: list[SSAValue]) -> None:
    cv.when(guard, lambda: cv.emit(gpu.PrintfOp(fmt, values)))



HANDLERS: dict[str, Callable[[KernelConverter, Operation], None]] = {
    "create_mem_token": _create_token,
    "join_mem_token": _join_tokens,
    "make_tensor_view": _make_tensor_view,
    "make_tile_view": _make_tile_view,
    "get_tensor_shape": _get_tensor_shape,
    "get_index_space_shape": _get_index_space_shape,
    "load_view": _load_view,
    "store_view": _store_view,
    "load": _load_ptr,
    "store": _store_ptr,
    "gdc_wait": _grid_dependency("wait"),
    "gdc_launch_dependents": _grid_dependency("launch_dependents"),
    "memory_fence_alias": _fence_alias,
    "assert": _assert,
    "print": _print,
    "print_tko": _print,
    "atomic_rmw": _atomic_rmw,
    "atomic_cas": _atomic_cas,
    "atomic_red_view": _atomic_red_view,
}
