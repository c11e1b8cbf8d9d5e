"""The multimem view ops (13.5) at the gpu stage: each thread's elements of the tile go through
PTX `multimem.ld_reduce` / `multimem.red` / `multimem.st` on the multicast address (inline PTX,
one instruction per element, bounds-guarded like view loads and stores).

A multicast address is one virtual range mapped on several GPUs: a load-reduce reads every
GPU's copy and combines them, a reduce combines into every copy, a store writes every copy.
NVIDIA's tileiras accepts multicast pointers for sm_100, sm_103 and sm_107 only; stage 2 reports
other targets at the op that makes the multicast view (`multicast_target_error`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp

if TYPE_CHECKING:
    from tile_lsp.compiler.lowering.tileaa_to_gpu import _KernelConverter

MULTICAST_TARGETS = (100, 103, 107)
_SCOPES = {"tl_blk": "cta", "device": "gpu", "sys": "sys"}
_ORDERINGS = ("weak", "relaxed", "acquire", "release", "acq_rel")


def multicast_target_error(op: Operation, cc: int, chip: str) -> str | None:
    """NVIDIA's words when `op` makes or takes a multicast pointer and the target has none."""
    if cc in MULTICAST_TARGETS:
        return None
    types = [r.type for r in op.results] + [o.type for o in op.operands]
    if any(_multicast(t) for t in types):
        return f"Incompatibility with architecture '{chip}': multicast pointers require sm_100 or sm_103 or sm_107"
    return None


def _multicast(t: Attribute) -> bool:
    if isinstance(t, ct.TileType):
        t = t.element_type
    return isinstance(t, (ct.PointerType, ct.TensorViewType)) and t.ptr_attr.data == "multicast"


def _ptx_type(elem: Attribute, kind: str) -> tuple[str, str]:
    """(PTX type suffix, register constraint) of one element for `kind` (add/min/.../st)."""
    if isinstance(elem, IntegerType):
        w = elem.width.data
        reg = "r" if w == 32 else "l"
        if kind in ("and", "or", "xor", "st"):
            return f"b{w}", reg
        if kind in ("umin", "umax") or (kind == "add" and w == 64):
            return f"u{w}", reg
        return f"s{w}", reg
    if isinstance(elem, Float32Type):
        return "f32", "f"
    if isinstance(elem, Float64Type):
        return "f64", "d"
    if isinstance(elem, (Float16Type, BFloat16Type)):
        # PTX takes 16-bit floats only as pairs (.f16x2/.bf16x2, 32 bits): one instruction per
        # element would touch its neighbour too.
        raise ValueError(
            f"multimem on {'f16' if isinstance(elem, Float16Type) else 'bf16'} needs element pairs "
            "(PTX .f16x2/.bf16x2), which tile-lsp does not emit yet"
        )
    raise ValueError(f"element type {elem}")


def _semantics(op: Operation) -> str:
    """`.relaxed.sys` etc. (weak: `.weak`, no scope)."""
    from tile_lsp.compiler.lowering.tileaa_to_gpu import _get

    sem = _get(op, "memory_ordering_semantics")
    scope = _get(op, "memory_scope")
    ordering = _ORDERINGS[sem.value.data] if sem is not None else "weak"  # type: ignore[attr-defined]
    if ordering == "weak":
        return ".weak"
    where = ("tl_blk", "device", "sys")[scope.value.data] if scope is not None else "sys"  # type: ignore[attr-defined]
    return f".{ordering}.{_SCOPES[where]}"


def _op_word(op: Operation) -> tuple[str, str]:
    """(PTX .op word, cuda_tile reduction kind): umin/umax are .min/.max on an unsigned type."""
    from tile_lsp.compiler.lowering.tileaa_to_gpu import _get

    a = _get(op, "reduction")  # stage 2 carries cuda_tile enums as their case string
    kind = a.data if isinstance(a, StringAttr) else str(getattr(a, "case", "add"))
    return {"umin": "min", "umax": "max"}.get(kind, kind), kind


def lower_multimem(cv: _KernelConverter, op: Operation) -> None:
    """nv_tileaa.multimem_{load_reduce,reduce,store}_view."""
    from tile_lsp.compiler.lowering.tileaa_to_gpu import (
        Token,
        Unsupported,
        _and,
        _guarded_value,
        _order,
        _split,
        _view_access,
        _view_operands,
    )

    name = op.name.removeprefix("nv_tileaa.")
    groups = _split(op)
    load = name == "multimem_load_reduce_view"
    if load:
        view, index, token = _view_operands(cv, op, groups)
        t = op.results[0].type
        values: list[SSAValue] = []
    else:
        value_v = groups[1][0]
        view, index, token = _view_operands(cv, op, [groups[0], *groups[2:]])
        t = value_v.type
    elem = t.element_type if isinstance(t, TensorType) else t
    word, kind = _op_word(op)
    try:
        ptx_t, reg = _ptx_type(elem, kind if name != "multimem_store_view" else "st")
    except ValueError as exc:
        raise Unsupported(op, str(exc)) from None
    sem = _semantics(op)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    _order(cv, op, token)
    if not load:
        values = cv.slots(op, value_v, layout) if not layout.uniform else [cv.scalar(op, value_v)]
    slots = []
    for r in range(layout.slots):
        ptr, guard = _view_access(cv, op, view, index, layout, r)
        if load:

            def build(p: SSAValue = ptr) -> SSAValue:
                asm = f"multimem.ld_reduce{sem}.global.{word}.{ptx_t} $0, [$1];"
                return cv.v(InlineAsmOp(asm, f"={reg},l", [p], [elem], has_side_effects=True))

            slots.append(_guarded_value(cv, guard, elem, build))
            continue
        if layout.uniform:
            guard = _and(cv, guard, cv.first_thread())
        if name == "multimem_store_view":
            asm = f"multimem.st{sem}.global.{ptx_t} [$0], $1;"
        else:
            asm = f"multimem.red{sem}.global.{word}.{ptx_t} [$0], $1;"
        cv.when(guard, lambda p=ptr, v=values[r], a=asm: cv.emit(  # type: ignore[misc]
            InlineAsmOp(a, f"l,{reg}", [p, v], [], has_side_effects=True)))
    if load:
        cv.values[op.results[0]] = cv.tile(t, slots)
        if len(op.results) > 1:
            cv.values[op.results[1]] = Token(False)
    elif op.results:
        cv.values[op.results[0]] = Token(True)
