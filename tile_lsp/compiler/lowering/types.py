"""The back half's one type converter (builtin/memref -> llvm) and the value helpers that go with it.

Memrefs lower to BARE POINTERS: a statically shaped memref with an identity (or static strided)
layout becomes `!llvm.ptr<AS>`; an element address is one GEP over the row-major linearised
index. `index` is i64. Values whose type changes are bridged with
`builtin.unrealized_conversion_cast` and `reconcile_casts` folds the bridges away at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

_CAST = UnrealizedConversionCastOp.name

TypeHook = Callable[[Attribute], Attribute | None]

# Conversions other lowerings add for their own types (e.g. nvgpu's barrier/descriptor types).
_HOOKS: list[TypeHook] = []

_GPU_ADDRESS_SPACES = {"global": 1, "workgroup": 3, "private": 5}


def register_type_conversion(hook: TypeHook) -> None:
    """Add a conversion tried before the built-in rules (idempotent per hook)."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)
        _CONVERTED.clear()


def address_space(memory_space: Attribute) -> int | None:
    """The LLVM address space of a memref memory space (None = not understood)."""
    if isinstance(memory_space, NoneAttr):
        return 0
    if isinstance(memory_space, IntegerAttr):
        return int(memory_space.value.data)
    if isinstance(memory_space, IntAttr):
        return memory_space.data
    name = getattr(memory_space, "name", "")
    if name == "gpu.address_space":
        value = getattr(memory_space, "data", None)
        return _GPU_ADDRESS_SPACES.get(str(getattr(value, "value", value)))
    if name in ("nvvm.memory_space", "nvgpu.memory_space"):
        return None
    return None


def memref_unsupported(t: MemRefType[Attribute]) -> str | None:
    """Why `t` cannot be a bare pointer, or None when it can."""
    if any(d < 0 for d in t.get_shape()):
        return f"dynamically shaped memref {t}"
    if address_space(t.memory_space) is None:
        return f"memref memory space {t.memory_space}"
    if _layout(t) is None:
        return f"memref layout {t.layout}"
    if convert_type(t.get_element_type()) is None:
        return f"memref element type {t.get_element_type()}"
    return None


def _layout(t: MemRefType[Attribute]) -> tuple[list[int], int] | None:
    """(strides, offset) of `t` when all static; row-major for the identity layout."""
    shape = list(t.get_shape())
    if isinstance(t.layout, NoneAttr):
        strides = [1] * len(shape)
        for i in range(len(shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * max(shape[i + 1], 1)
        return strides, 0
    if isinstance(t.layout, StridedLayoutAttr):
        strides_ = t.layout.get_strides()
        offset = t.layout.get_offset()
        if any(s is None for s in strides_) or offset is None:
            return None
        return [int(s) for s in strides_ if s is not None], int(offset)
    strides_opt = t.layout.get_strides() if hasattr(t.layout, "get_strides") else None
    if strides_opt is None or any(s is None for s in strides_opt):
        return None
    return [int(s) for s in strides_opt if s is not None], 0


# convert_type's answers (types are immutable values); a new hook forgets them.
_CONVERTED: dict[Attribute, Attribute | None] = {}
_MISSING = object()


def convert_type(t: Attribute) -> Attribute | None:
    """The llvm-dialect type of `t` (None = cannot be converted)."""
    try:
        found = _CONVERTED.get(t, _MISSING)
    except TypeError:  # an unhashable type: no memo
        return _convert_type(t)
    if found is _MISSING:
        found = _CONVERTED[t] = _convert_type(t)
        if len(_CONVERTED) > 4096:  # bounded: a long-lived server sees many shapes
            _CONVERTED.clear()
    return found  # type: ignore[return-value]


def memref_array_type(t: Attribute | None) -> llvm.LLVMArrayType | None:
    """The `!llvm.array<N x elem>` that holds a statically shaped memref of type `t` (an alloca,
    a global, a workgroup attribution): None when `t` is not a memref type `convert_type`
    converts, or its element type is not one."""
    if not isinstance(t, MemRefType) or convert_type(t) is None:
        return None
    elem = convert_type(t.get_element_type())
    if elem is None:
        return None
    count = 1
    for d in t.get_shape():
        count *= d
    return llvm.LLVMArrayType(IntAttr(count), elem)


def _convert_type(t: Attribute) -> Attribute | None:
    for hook in _HOOKS:
        converted = hook(t)
        if converted is not None:
            return converted
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, IntegerType | AnyFloat):
        return t
    if isinstance(t, VectorType):
        if t.get_num_dims() == 0 or t.get_num_scalable_dims():
            return None
        elem = convert_type(t.get_element_type())
        if not isinstance(elem, IntegerType | AnyFloat):
            return None
        shape = list(t.get_shape())
        # n-D vectors are nested arrays of 1-D vectors, like upstream's LLVM type converter
        result: Attribute = VectorType(elem, shape[-1:])
        for dim in reversed(shape[:-1]):
            result = llvm.LLVMArrayType(IntAttr(dim), result)
        return result
    if isinstance(t, MemRefType):
        if any(d < 0 for d in t.get_shape()) or _layout(t) is None:
            return None
        space = address_space(t.memory_space)
        if space is None:
            return None
        return llvm_ptr(space)
    if t.name.startswith("llvm."):
        return t
    return None


def llvm_ptr(space: int = 0) -> llvm.LLVMPointerType:
    """`!llvm.ptr` (space 0) or `!llvm.ptr<space>`."""
    return llvm.LLVMPointerType(IntAttr(space)) if space else llvm.LLVMPointerType()


def _insert(rewriter: PatternRewriter, op: Operation) -> Operation:
    rewriter.insert(op)
    return op


def cast_to(rewriter: PatternRewriter, value: SSAValue, type: Attribute) -> SSAValue:
    """`value` as `type`: itself when it already is, else an unrealized_conversion_cast of it."""
    if value.type == type:
        return value
    op, res = UnrealizedConversionCastOp.cast_one(value, type)
    _insert(rewriter, op)
    return res


def cast_converted(rewriter: PatternRewriter, value: SSAValue) -> SSAValue | None:
    """`value` cast to its converted type (None when the type has no conversion)."""
    target = convert_type(value.type)
    if target is None:
        return None
    return cast_to(rewriter, value, target)


def replace_with(rewriter: PatternRewriter, op: Operation, new: Operation) -> None:
    """Insert `new` and replace `op`'s results with `new`'s (cast back to the old types)."""
    rewriter.insert(new)
    values = [cast_to(rewriter, n, o.type) for n, o in zip(new.results, op.results, strict=True)]
    rewriter.replace(op, [], values)


def constant(rewriter: PatternRewriter, value: int, type: IntegerType = i64) -> SSAValue:
    """An `llvm.mlir.constant` of an integer type."""
    op = llvm.ConstantOp(IntegerAttr(value, type), type)
    _insert(rewriter, op)
    return op.result


def _as_i64(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
    value = cast_to(rewriter, value, i64) if isinstance(value.type, IndexType) else value
    if isinstance(value.type, IntegerType) and value.type.width.data < 64:
        ext = llvm.SExtOp(value, i64)
        _insert(rewriter, ext)
        return ext.res
    return value


def _constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name in ("arith.constant", "llvm.mlir.constant"):
        attr = owner.properties.get("value")
        attr = attr if attr is not None else owner.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return int(attr.value.data)
    if isinstance(owner, UnrealizedConversionCastOp) and len(owner.inputs) == 1:
        return _constant_index(owner.inputs[0])
    return None


def memref_element_ptr(rewriter: PatternRewriter, memref_value: SSAValue, indices: Sequence[SSAValue]) -> SSAValue | None:
    """Pointer to `memref_value[indices]` (one GEP over the linearised index); None = unsupported memref.

    Constant indices fold into the GEP's constant index; the rest are scaled by the static strides
    with llvm.mul/llvm.add in i64.
    """
    t = memref_value.type
    if not isinstance(t, MemRefType) or memref_unsupported(t) is not None:
        return None
    layout = _layout(t)
    space = address_space(t.memory_space)
    elem = convert_type(t.get_element_type())
    if layout is None or space is None or elem is None:
        return None
    strides, offset = layout
    ptr_type = llvm_ptr(space)
    base = cast_to(rewriter, memref_value, ptr_type)
    const_part = offset
    dynamic: SSAValue | None = None
    for index, stride in zip(indices, strides, strict=False):
        known = _constant_index(index)
        if known is not None:
            const_part += known * stride
            continue
        term = _as_i64(rewriter, index)
        if stride != 1:
            mul = llvm.MulOp(term, constant(rewriter, stride))
            _insert(rewriter, mul)
            term = mul.res
        if dynamic is None:
            dynamic = term
        else:
            add = llvm.AddOp(dynamic, term)
            _insert(rewriter, add)
            dynamic = add.res
    if dynamic is None:
        if const_part == 0:
            return base
        gep = llvm.GEPOp(base, [const_part], elem, result_type=ptr_type)
    else:
        if const_part:
            add = llvm.AddOp(dynamic, constant(rewriter, const_part))
            _insert(rewriter, add)
            dynamic = add.res
        gep = llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], elem, ssa_indices=[dynamic], result_type=ptr_type)
    _insert(rewriter, gep)
    return gep.result


def reconcile_casts(module: ModuleOp | Operation) -> None:
    """Fold unrealized_conversion_cast chains: A->A casts and A->B->A round trips disappear; dead casts go.
    (Folding makes no new casts: the rounds go over the casts found in one walk.)"""
    # (a name compare: no ABC isinstance per op)
    casts = [cast(UnrealizedConversionCastOp, op) for op in walk_ops(module) if op.name == _CAST]
    changed = True
    while changed:
        changed = False
        for op in casts:
            if op.parent is None:
                continue
            if len(op.inputs) != 1 or len(op.outputs) != 1:
                continue
            source = op.inputs[0]
            result = op.outputs[0]
            if not result.uses:
                op.detach()
                op.erase()
                changed = True
                continue
            if source.type == result.type:
                result.replace_all_uses_with(source)
                changed = True
                continue
            producer = source.owner
            if (
                isinstance(producer, UnrealizedConversionCastOp)
                and len(producer.inputs) == 1
                and len(producer.outputs) == 1
            ):
                origin = producer.inputs[0]
                if origin.type == result.type:
                    result.replace_all_uses_with(origin)
                else:
                    op.operands = [origin]
                changed = True


__all__ = [
    "address_space",
    "cast_converted",
    "cast_to",
    "constant",
    "convert_type",
    "llvm_ptr",
    "memref_array_type",
    "memref_element_ptr",
    "memref_unsupported",
    "reconcile_casts",
    "register_type_conversion",
    "replace_with",
]
