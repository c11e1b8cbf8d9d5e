"""Stage 3 for NVIDIA's test functions (`testing$func`, a `func.func` without `nv_tileaa.kernel`):
their calling convention, so every op of the dialect tests can be lowered and checked by ptxas.

A test function becomes a `gpu.func` *kernel* like an entry (one CTA of `block_size` threads),
not a device `.func`: ptxas in whole-program mode (how the back half runs it) only parses a
`.func` nothing calls and makes no code for it, so it would accept far more than it checks; a
kernel is compiled to SASS (and gets resource usage), has a known block size, which the tile
layouts depend on, and can be launched as it is.

ABI, argument by argument, in order:
- a rank-0 tile (`tile<i32>`, `tile<ptr<f32>>`, ...): by value, as an entry's arguments;
- a tile of rank >= 1: one `!llvm.ptr<1>` (global) to the whole tile, row-major and densely
  packed (each element at the stride of its LLVM store size: i1/i4, fp8 and e8m0 take one
  byte, and so does fp4, its code in the low nibble, unlike fp4 memory, packed two per byte);
  every thread loads its register slots of the layout the stage picks for that tile type (no
  bounds checks: the whole tile is there); a tile too large for registers stays there and is
  only copied from it (gpu_streamed.py);
- a token: nothing;
- a `tensor_view`: its base `!llvm.ptr`, then one i64 per dynamic (`?`) dimension, then one
  i64 per dynamic stride; a `partition_view` (of a tensor_view): the same for its tensor_view;
- each result (tiles of any rank; tokens take none) is stored through one more `!llvm.ptr<1>`
  appended after the arguments, in the same layout (a rank-0 result: thread 0 stores it).
Other view kinds are reported as `not yet supported by the gpu stage` at the function.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType, i64
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tile_lsp.compiler.lowering.gpu_core import (
    KernelConverter,
    TensorView,
    TileView,
    Token,
    Unsupported,
    Value,
    guarded_load,
    guarded_store,
    narrow_float,
    scalar_type,
    unsupported_message,
    zero_value,
)
from tile_lsp.compiler.lowering.gpu_streamed import streamed_argument
from tile_lsp.compiler.lowering.types import llvm_ptr
from tile_lsp.compiler.mlir.dialects import llvm_memory
from tile_lsp.compiler.mlir.dialects.nv_tileaa import MemTokenType, TensorViewType, TileViewType

GLOBAL = 1  # address space of the memory a tile argument or result is passed in


def _view_types(t: TensorViewType) -> list[Attribute]:
    dynamic = sum(1 for d in t.shape.data if d.data < 0) + sum(1 for s in t.strides.data if s.data < 0)
    return [llvm_ptr(), *([i64] * dynamic)]


def _argument_types(t: Attribute) -> list[Attribute] | str:
    """What one argument of nv_tileaa type `t` is passed as; a reason when it cannot be."""
    if isinstance(t, MemTokenType):
        return []
    if isinstance(t, TensorType):
        return [llvm_ptr(GLOBAL)]
    if isinstance(t, TensorViewType):
        return _view_types(t)
    if isinstance(t, TileViewType):
        if t.kind.data != "partition":
            return f"an argument of type {t} ({t.kind.data} views)"
        return _view_types(t.tensor_view)
    return [t]


def testing_signature(cv: KernelConverter, fn: func.FuncOp) -> list[Attribute] | None:
    """The kernel parameters of test function `fn` (module docstring); None after a diagnostic
    at `fn` when an argument or result cannot be passed."""
    params: list[Attribute] = []
    ftype = fn.function_type
    for t in ftype.inputs.data:
        if (narrow := narrow_float(t)) is not None:
            got: list[Attribute] | str = f"an argument of {narrow} values"
        else:
            got = _argument_types(t)  # (a tile too large for registers stays in memory: Streamed)
        if isinstance(got, str):
            cv.lctx.error(fn, unsupported_message(cv.lctx, fn, got))
            return None
        params += got
    for t in ftype.outputs.data:
        if isinstance(t, (TensorViewType, TileViewType)) or narrow_float(t) is not None or cv.too_large(t):
            cv.lctx.error(fn, unsupported_message(cv.lctx, fn, f"a result of type {t}"))
            return None
        if not isinstance(t, MemTokenType):
            params.append(llvm_ptr(GLOBAL))
    return params


def bind_testing_arguments(cv: KernelConverter, fn: func.FuncOp, old: Block) -> None:
    """Give each argument of the test function's body its per-thread value from the kernel's
    parameters (tiles loaded into their slots); the result pointers go to `cv.result_ptrs`."""
    params = iter(cv.entry.args)
    for a in old.args:
        t = a.type
        if isinstance(t, MemTokenType):
            cv.values[a] = Token(False)
            continue
        first = next(params)
        if a.name_hint:
            first.name_hint = a.name_hint
        if isinstance(t, TensorType) and cv.too_large(t):
            cv.values[a] = streamed_argument(cv, first, t)
        elif isinstance(t, TensorType):
            cv.values[a] = load_tile(cv, first, t)
        elif isinstance(t, (TensorViewType, TileViewType)):
            tv = t.tensor_view if isinstance(t, TileViewType) else t
            shape = [next(params) if d.data < 0 else cv.i64c(d.data) for d in tv.shape.data]
            strides = [next(params) if s.data < 0 else cv.i64c(s.data) for s in tv.strides.data]
            view = TensorView(first, scalar_type(tv.element_type), shape, strides)
            if isinstance(t, TileViewType):
                rank = len(t.tile.data)
                dim_map = tuple(d.data for d in t.dim_map.data) or tuple(range(rank))
                cv.values[a] = TileView(tuple(d.data for d in t.tile.data), view, t.padding.data, dim_map)
            else:
                cv.values[a] = view
        else:
            cv.values[a] = first
    cv.result_ptrs = list(params)


def _element_ptr(cv: KernelConverter, base: SSAValue, index: SSAValue, elem: Attribute) -> SSAValue:
    return cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], elem, ssa_indices=[index]))


def load_tile(cv: KernelConverter, base: SSAValue, t: TensorType) -> Value:
    """The converted value of a whole row-major tile of type `t` at `base`: each thread loads
    the elements of its slots (a ghost slot, past the tile's end, loads nothing)."""
    elem = scalar_type(t)
    layout = cv.layout_of(t)
    assert layout is not None
    slots = []
    for r in range(1 if layout.uniform else layout.slots):
        e = cv.element_index(layout, r)
        guard = cv.not_ghost(layout, e)
        slots.append(guarded_load(cv, _element_ptr(cv, base, e, elem), guard, elem, lambda: zero_value(cv, elem)))
    return cv.tile(t, slots)


def store_results(cv: KernelConverter, op: Operation) -> None:
    """`func.return` with values in a test function: each non-token value is stored whole,
    row-major, through its result pointer (rank 0 and one-element tiles: by thread 0)."""
    values = [v for v in op.operands if not isinstance(v.type, MemTokenType)]
    if len(values) != len(cv.result_ptrs):
        raise Unsupported(op, "a kernel returns no values")
    for value, base in zip(values, cv.result_ptrs, strict=True):
        t = value.type
        elem = scalar_type(t)
        layout = cv.layout_of(t)
        if layout is None or layout.uniform:
            first = cv.first_thread()
            guarded_store(cv, cv.scalar(op, value), _element_ptr(cv, base, cv.i32c(0), elem), first)
            continue
        slots = cv.slots(op, value, layout)
        for r in range(layout.slots):
            e = cv.element_index(layout, r)
            guarded_store(cv, slots[r], _element_ptr(cv, base, e, elem), cv.not_ghost(layout, e))
    cv.kernel_return()

