"""The multimem view ops (13.5) at the gpu stage: each thread's elements of the tile go through
PTX `multimem.ld_reduce` / `multimem.red` / `multimem.st` on the multicast address (inline PTX,
one instruction per element, bounds-guarded like view loads and stores).

f16 and bf16 go by pairs: ptxas (CUDA 13.0, sm_90 to sm_103a) takes no 16-bit multimem access,
only `.f16x2`/`.bf16x2` (one b32) or `.v2/.v4/.v8.f16` (b16 each), so two adjacent elements of
a row of the tile are one b32 access at the even one's address. That address must be 4-byte
aligned: the view's base and its dynamic strides are taken to be (as NVIDIA's code takes them), a
static odd stride is reported (tileiras emits misaligned pairs there). Where a thread holds
contiguous vectors (layout vector >= 2) its slots r, r+1 are the pair; with vectors of 1, lanes
2k and 2k+1 of a warp hold it in the same slot and the even lane makes the access, its partner's
value and bounds test coming by `shfl.xor 1` (and its half of a load going back the same way).
A load-reduce add accumulates in f32 (`.acc::f32`, NVIDIA's `LDGMC.E.HPADD.F16x2`). A pair
whose second element is past the view's end (an odd innermost extent): a load-reduce reads the
whole word and keeps its first half, a reduce adds -0.0 to the element past the end (x + -0.0
is x), a store cannot write one half: a static odd extent is reported, a dynamic one traps at
run time where that pair is stored (NVIDIA writes the element past the end).

A multicast address is one virtual range mapped on several GPUs: a load-reduce reads every
GPU's copy and combines them, a reduce combines into every copy, a store writes every copy.
NVIDIA's tileiras accepts multicast pointers for sm_100, sm_103 and sm_107 only; stage 2 reports
other targets at the op that makes the multicast view (`multicast_target_error`).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i1,
    i16,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.lowering.gpu_core import (
    KernelConverter,
    TileView,
    Token,
    Unsupported,
    and_guards,
    get_attr,
    guarded_value,
    inbounds_dims,
    order_by_token,
    padding_value,
    split_operands,
    view_access,
    view_operands,
)
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.dialects import gpu
from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp

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
    raise ValueError(f"element type {elem}")


def _semantics(op: Operation) -> str:
    """`.relaxed.sys` etc. (weak: `.weak`, no scope)."""
    sem = get_attr(op, "memory_ordering_semantics")
    scope = get_attr(op, "memory_scope")
    ordering = _ORDERINGS[sem.value.data] if sem is not None else "weak"  # type: ignore[attr-defined]
    if ordering == "weak":
        return ".weak"
    where = ("tl_blk", "device", "sys")[scope.value.data] if scope is not None else "sys"  # type: ignore[attr-defined]
    return f".{ordering}.{_SCOPES[where]}"


def _op_word(op: Operation) -> tuple[str, str]:
    """(PTX .op word, cuda_tile reduction kind): umin/umax are .min/.max on an unsigned type."""
    a = get_attr(op, "reduction")  # stage 2 carries cuda_tile enums as their case string
    kind = a.data if isinstance(a, StringAttr) else str(getattr(a, "case", "add"))
    return {"umin": "min", "umax": "max"}.get(kind, kind), kind


def lower_multimem(cv: KernelConverter, op: Operation) -> None:
    """nv_tileaa.multimem_{load_reduce,reduce,store}_view."""
    name = op.name.removeprefix("nv_tileaa.")
    groups = split_operands(op)
    load = name == "multimem_load_reduce_view"
    if load:
        view, index, token = view_operands(cv, op, groups)
        t = op.results[0].type
        values: list[SSAValue] = []
    else:
        value_v = groups[1][0]
        view, index, token = view_operands(cv, op, [groups[0], *groups[2:]])
        t = value_v.type
    elem = t.element_type if isinstance(t, TensorType) else t
    word, kind = _op_word(op)
    if isinstance(elem, (Float16Type, BFloat16Type)):
        _lower_pairs(cv, op, view, index, token, t, None if load else value_v, word)
        return
    try:
        ptx_t, reg = _ptx_type(elem, kind if name != "multimem_store_view" else "st")
    except ValueError as exc:
        raise Unsupported(op, str(exc)) from None
    sem = _semantics(op)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    if not load:
        values = cv.slots(op, value_v, layout) if not layout.uniform else [cv.scalar(op, value_v)]
    slots = []
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r)
        if load:

            def build(p: SSAValue = ptr) -> SSAValue:
                asm = f"multimem.ld_reduce{sem}.global.{word}.{ptx_t} $0, [$1];"
                return cv.v(InlineAsmOp(asm, f"={reg},l", [p], [elem], has_side_effects=True))

            slots.append(guarded_value(cv, guard, elem, build))
            continue
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        if name == "multimem_store_view":
            asm = f"multimem.st{sem}.global.{ptx_t} [$0], $1;"
        else:
            asm = f"multimem.red{sem}.global.{word}.{ptx_t} [$0], $1;"
        cv.when(guard, lambda p=ptr, v=values[r], a=asm: cv.emit(  # type: ignore[misc]
            InlineAsmOp(a, f"l,{reg}", [p, v], [], has_side_effects=True)))
    _bind_results(cv, op, t, slots, load)


def _bind_results(cv: KernelConverter, op: Operation, t: Attribute, slots: list[SSAValue], load: bool) -> None:
    """A load-reduce's tile and token, or a reduce's or store's token."""
    if load:
        cv.values[op.results[0]] = cv.tile(t, slots)
        if len(op.results) > 1:
            cv.values[op.results[1]] = Token(False)
    elif op.results:
        cv.values[op.results[0]] = Token(True)


# -- f16 / bf16: pairs ----------------------------------------------------------------------------

_NEG_ZERO_BITS = 0x8000  # -0.0 in f16 and in bf16: x + -0.0 == x for every x


def _static_int(value: SSAValue) -> int | None:
    """The value of an i64 extent or stride when it is a constant, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return int(owner.value.value.data)
    return None


def _pair_checks(op: Operation, view: TileView, layout: Layout | None, ename: str, what: str) -> bool:
    """Raise Unsupported where the tile's elements cannot go by aligned pairs; whether the view's
    innermost dimension may end inside a pair (its extent is not known even)."""
    pairs = f"PTX multimem takes {ename} only as pairs (.{ename}x2)"
    if layout is None or layout.uniform:
        raise Unsupported(op, f"{what} of one {ename} element: {pairs}")
    inner = len(view.tile) - 1
    if view.tile[inner] % 2:
        raise Unsupported(op, f"{what} of {ename}: {pairs}, and the tile's innermost dimension "
                              f"({view.tile[inner]}) is odd")
    dim = view.dim_map[inner]
    if _static_int(view.view.strides[dim]) != 1:
        raise Unsupported(op, f"{what} of {ename}: {pairs} of elements adjacent in memory, and the "
                              f"stride of view dimension {dim} (the tile's innermost) is not 1")
    for d, stride in enumerate(view.view.strides):
        s = _static_int(stride)
        if d != dim and s is not None and s % 2:
            raise Unsupported(op, f"{what} of {ename}: {pairs} at 4-byte aligned addresses, and the "
                                  f"stride of view dimension {d} is odd ({s})")
    if layout.vector == 1 and layout.threads % 2:
        raise Unsupported(op, f"{what} of {ename} on {layout.threads} threads (an odd count)")
    if inner in inbounds_dims(op):
        return False  # the tile lies inside the view there: its pairs too
    extent = _static_int(view.view.shape[dim])
    return extent is None or extent % 2 == 1


def _to_bits(cv: KernelConverter, value: SSAValue) -> SSAValue:
    """A 16-bit float as the low half of an i32."""
    return cv.v(arith.ExtUIOp(cv.v(arith.BitcastOp(value, i16)), i32))


def _pack(cv: KernelConverter, lo: SSAValue, hi: SSAValue) -> SSAValue:
    """Two i32 holding 16 bits each -> lo | hi << 16 (the b32 of an .f16x2 pair)."""
    return cv.v(arith.OrIOp(lo, cv.v(arith.ShLIOp(hi, cv.i32c(16)))))


def _half(cv: KernelConverter, word: SSAValue, high: bool, elem: Attribute) -> SSAValue:
    """One element of a b32 pair."""
    if high:
        word = cv.v(arith.ShRUIOp(word, cv.i32c(16)))
    return cv.v(arith.BitcastOp(cv.v(arith.TruncIOp(word, i16)), elem))


def _partner(cv: KernelConverter, value: SSAValue) -> SSAValue:
    """The i32 `value` of the lane whose id differs in bit 0 (`shfl.sync.bfly 1`, the whole warp)."""
    return cv.v(gpu.ShuffleOp("xor", value, cv.i32c(1), cv.i32c(32)))


def _select(cv: KernelConverter, cond: SSAValue | None, a: SSAValue, b: SSAValue) -> SSAValue:
    return a if cond is None else cv.v(arith.SelectOp(cond, a, b))


def _lower_pairs(cv: KernelConverter, op: Operation, view: TileView, index: list[SSAValue],
                 token: SSAValue | None, t: Attribute, value_v: SSAValue | None, word: str) -> None:
    """A multimem op on f16/bf16: each aligned pair of adjacent elements is one b32 access."""
    name = op.name.removeprefix("nv_tileaa.")
    elem = t.element_type if isinstance(t, TensorType) else t
    ename = "f16" if isinstance(elem, Float16Type) else "bf16"
    layout = cv.layout_of(t)
    ragged = _pair_checks(op, view, layout, ename, name.replace("_view", "_view_tko"))
    assert layout is not None
    sem = _semantics(op)
    load, store = name == "multimem_load_reduce_view", name == "multimem_store_view"
    extent = _static_int(view.view.shape[view.dim_map[-1]])
    if store and ragged and extent is not None:
        raise Unsupported(op, f"multimem_store_view_tko of {ename}: PTX multimem takes {ename} only as pairs "
                              f"(.{ename}x2), and the view's innermost extent ({extent}) is odd: its last "
                              "element cannot be stored without the one past it")
    if load:
        acc = ".acc::f32" if word == "add" else ""  # what NVIDIA's tileiras emits (HPADD)
        asm = f"multimem.ld_reduce{sem}.global.{word}{acc}.{ename}x2 $0, [$1];"
    elif store:
        asm = f"multimem.st{sem}.global.{ename}x2 [$0], $1;"
    else:
        asm = f"multimem.red{sem}.global.{word}.{ename}x2 [$0], $1;"
    order_by_token(cv, op, token)
    values: list[SSAValue] = []
    if value_v is not None:
        values = cv.slots(op, value_v, layout)
    padding = padding_value(cv, op, view.padding, elem) if load else None
    lanes = layout.vector == 1  # a pair is two lanes' (same slot), not two slots of one lane
    even: SSAValue | None = None
    if lanes:
        even = cv.v(arith.CmpiOp(cv.v(arith.AndIOp(cv.thread_times(1), cv.i32c(1))), cv.i32c(0), "eq"))

    def access(ptr: SSAValue, active: SSAValue | None, packed: SSAValue | None,
               second_in: SSAValue | None) -> SSAValue | None:
        """The pair's instruction under `active`; `second_in`: whether its second element is in
        bounds (None: it is wherever the first is)."""
        if load:
            return guarded_value(cv, active, i32, lambda: cv.v(InlineAsmOp(asm, "=r,l", [ptr], [i32], has_side_effects=True)))
        assert packed is not None
        if second_in is not None and store:
            outside = cv.v(arith.XOrIOp(second_in, cv.const(1, i1)))
            cv.when(and_guards(cv, active, outside), lambda: cv.emit(InlineAsmOp("trap;", "", [], [], has_side_effects=True)))
        cv.when(active, lambda: cv.emit(InlineAsmOp(asm, "l,r", [ptr, packed], [], has_side_effects=True)))
        return None

    slots: list[SSAValue] = []
    if not lanes:
        for r in range(0, layout.slots, 2):
            ptr, guard = view_access(cv, op, view, index, layout, r)
            second_in = view_access(cv, op, view, index, layout, r + 1)[1] if ragged else None
            packed = None
            if values:
                hi = _to_bits(cv, values[r + 1])
                if second_in is not None and not store:
                    hi = _select(cv, second_in, hi, cv.i32c(_NEG_ZERO_BITS))
                packed = _pack(cv, _to_bits(cv, values[r]), hi)
            got = access(ptr, guard, packed, second_in)
            if got is not None:
                assert padding is not None
                slots.append(_select(cv, guard, _half(cv, got, False, elem), padding))
                slots.append(_select(cv, second_in if second_in is not None else guard, _half(cv, got, True, elem), padding))
    else:
        for r in range(layout.slots):
            ptr, guard = view_access(cv, op, view, index, layout, r)
            active = and_guards(cv, even, guard)
            second_in = None
            if ragged and guard is not None:
                second_in = cv.v(arith.CmpiOp(_partner(cv, cv.v(arith.ExtUIOp(guard, i32))), cv.i32c(0), "ne"))
            packed = None
            if values:
                hi = _partner(cv, _to_bits(cv, values[r]))
                if second_in is not None and not store:
                    hi = _select(cv, second_in, hi, cv.i32c(_NEG_ZERO_BITS))
                packed = _pack(cv, _to_bits(cv, values[r]), hi)
            got = access(ptr, active, packed, second_in)
            if got is not None:
                assert padding is not None and even is not None
                mine = _select(cv, even, _half(cv, got, False, elem), _half(cv, _partner(cv, got), True, elem))
                slots.append(_select(cv, guard, mine, padding))
    _bind_results(cv, op, t, slots, load)
