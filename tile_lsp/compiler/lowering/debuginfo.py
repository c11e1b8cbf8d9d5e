"""TranslateDebugInfo (seed 001): debug-value ops become `llvm.intr.dbg.*` with an
`llvm.nvvm.move` pin (device debug), or go away (line info only / no debug info).

Sources it rewrites: the internal `debuginfo.value` / `debuginfo.declare` ops (operand 0 = the
value or address; `variable` = `#llvm.di_local_variable`, optional `expression` =
`#llvm.di_expression`), and upstream `llvm.intr.dbg.value/declare/label` already in the input.
Locations are never touched: the LLVM IR emitter turns them into `!dbg` when line info or device
debug is on.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMArrayType, LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.lowering.common import LoweringContext, op_name
from tile_lsp.compiler.mlir.context import attr_text as _type_text
from tile_lsp.compiler.mlir.dialects.llvm_debug import DbgDeclareOp, DbgValueOp, is_empty_expression
from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

SOURCE_VALUE = "debuginfo.value"
SOURCE_DECLARE = "debuginfo.declare"
LLVM_VALUE = "llvm.intr.dbg.value"
LLVM_DECLARE = "llvm.intr.dbg.declare"
LLVM_LABEL = "llvm.intr.dbg.label"
DEBUG_OPS = (SOURCE_VALUE, SOURCE_DECLARE, LLVM_VALUE, LLVM_DECLARE, LLVM_LABEL)
PIN_PREFIX = "llvm.nvvm.move."


def debug_mode(lctx: LoweringContext) -> str:
    """Seed 001's table rows: "full" (device debug), "lineinfo", or "none"."""
    if lctx.options.device_debug:
        return "full"
    return "lineinfo" if lctx.options.lineinfo else "none"


def translate_debug_info(module: builtin.ModuleOp, lctx: LoweringContext) -> bool:
    """Apply the row of the lineinfo/device-debug table the options select; False after errors."""
    ops = [op for op in walk_ops(module) if op_name(op) in DEBUG_OPS]
    if debug_mode(lctx) != "full":
        # Without device debug no variable is tracked: every debug-value op goes, locations stay.
        for op in ops:
            _erase(op)
        return True
    ok = True
    for op in ops:
        ok &= _lower_full(op, lctx)
    return ok


def _lower_full(op: Operation, lctx: LoweringContext) -> bool:
    name = op_name(op)
    if name == LLVM_LABEL:
        return True
    if not op.operands:
        lctx.error(op, f"unresolved debug metadata: '{name}' has no value operand")
        return False
    var = _attr(op, "variable", "varInfo")
    if var is None:
        lctx.error(op, f"unresolved debug metadata: '{name}' has no local variable to describe")
        return False
    expr = _attr(op, "expression", "locationExpr")
    value = op.operands[0]
    if name in (SOURCE_DECLARE, LLVM_DECLARE):
        # An address, not a value: the alloca it names keeps it alive, so no pin is needed.
        if name == SOURCE_DECLARE:
            _replace(op, [DbgDeclareOp(value, var, expr)])
        return True
    if name == LLVM_VALUE and _is_pin(value):
        return True  # already in the seed's shape (idempotent)
    leaves = _leaves(value.type)
    if leaves is None:
        lctx.error(op, f"unsupported debug value type '{_type_text(value.type)}'")
        return False
    new_ops: list[Operation] = []
    aggregate = not (len(leaves) == 1 and not leaves[0].path)
    for leaf in leaves:
        source = _extract(value, leaf, new_ops)
        pinned = _pin(source, new_ops)
        leaf_expr = _with_fragment(expr, leaf.offset, leaf.bits) if aggregate else expr
        new_ops.append(DbgValueOp(pinned, var, leaf_expr))
    _replace(op, new_ops)
    return True


@dataclass(frozen=True)
class _Leaf:
    """One scalar inside a debugged value: how to reach it, its type, and its bit range."""

    path: tuple[tuple[str, int], ...]  # ("elem", i) for vectors, ("field", i) for structs/arrays
    type: Attribute
    offset: int
    bits: int


def _leaves(ty: Attribute, offset: int = 0, path: tuple[tuple[str, int], ...] = ()) -> list[_Leaf] | None:
    """The scalar leaves of `ty` in memory order, or None if some leaf cannot be pinned."""
    if isinstance(ty, VectorType):
        if len(ty.get_shape()) != 1 or ty.get_num_scalable_dims():
            return None
        elem = ty.get_element_type()
        bits = _scalar_bits(elem)
        if bits is None or path:
            return None  # a vector inside an aggregate would need two extraction kinds chained
        return [_Leaf((("elem", i),), elem, offset + i * bits, bits) for i in range(ty.get_shape()[0])]
    if isinstance(ty, LLVMStructType):
        out: list[_Leaf] = []
        at = offset
        for i, field in enumerate(ty.types.data):
            align = _align_bits(field)
            size = _size_bits(field)
            if align is None or size is None:
                return None
            at = (at + align - 1) // align * align
            sub = _leaves(field, at, (*path, ("field", i)))
            if sub is None:
                return None
            out.extend(sub)
            at += size
        return out
    if isinstance(ty, LLVMArrayType):
        size = _size_bits(ty.type)
        if size is None:
            return None
        out = []
        for i in range(ty.size.data):
            sub = _leaves(ty.type, offset + i * size, (*path, ("field", i)))
            if sub is None:
                return None
            out.extend(sub)
        return out
    bits = _scalar_bits(ty)
    if bits is None:
        return None
    return [_Leaf(path, ty, offset, bits)]


def _scalar_bits(ty: Attribute) -> int | None:
    """Width of a scalar the backend can pin (i16/i32/i64, half/bf16 via i16, f32, f64, ptr)."""
    if isinstance(ty, IntegerType):
        return ty.width.data if ty.width.data in (16, 32, 64) else None
    if isinstance(ty, (Float16Type, BFloat16Type, Float32Type, Float64Type)):
        return ty.bitwidth
    return 64 if isinstance(ty, LLVMPointerType) else None


def _size_bits(ty: Attribute) -> int | None:
    if isinstance(ty, (LLVMStructType, LLVMArrayType, VectorType)):
        leaves = _leaves(ty)
        if leaves is None:
            return None
        end = max((leaf.offset + leaf.bits for leaf in leaves), default=0)
        align = _align_bits(ty) or 8
        return (end + align - 1) // align * align
    return _scalar_bits(ty)


def _align_bits(ty: Attribute) -> int | None:
    if isinstance(ty, LLVMStructType):
        aligns = [_align_bits(f) for f in ty.types.data]
        return None if None in aligns else max([8, *(a for a in aligns if a is not None)])
    if isinstance(ty, LLVMArrayType):
        return _align_bits(ty.type)
    return _scalar_bits(ty)


def _extract(value: SSAValue, leaf: _Leaf, new_ops: list[Operation]) -> SSAValue:
    if not leaf.path:
        return value
    kind = leaf.path[0][0]
    if kind == "elem":
        index = _make("llvm.mlir.constant", [], [i32], {"value": IntegerAttr(leaf.path[0][1], i32)})
        extract = _make("llvm.extractelement", [value, index.results[0]], [leaf.type], {})
        new_ops.extend([index, extract])
        return extract.results[0]
    position = DenseArrayBase.from_list(i64, [i for _, i in leaf.path])
    extract = _make("llvm.extractvalue", [value], [leaf.type], {"position": position})
    new_ops.append(extract)
    return extract.results[0]


def _pin(value: SSAValue, new_ops: list[Operation]) -> SSAValue:
    """`llvm.nvvm.move.<t>`: an opaque identity the optimizer cannot fold the value through."""
    ty = value.type
    if isinstance(ty, (Float16Type, BFloat16Type)):
        # No half-precision move intrinsic: pin the bits through the i16 surrogate.
        cast = _make("llvm.bitcast", [value], [IntegerType(16)], {})
        new_ops.append(cast)
        value, ty = cast.results[0], IntegerType(16)
    call = _make(
        "llvm.call_intrinsic",
        [value],
        [ty],
        {
            "intrin": StringAttr(PIN_PREFIX + _pin_suffix(ty)),
            "op_bundle_sizes": DenseArrayBase.from_list(i32, []),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 0]),
        },
    )
    new_ops.append(call)
    return call.results[0]


def _pin_suffix(ty: Attribute) -> str:
    if isinstance(ty, Float32Type):
        return "float"
    if isinstance(ty, Float64Type):
        return "double"
    if isinstance(ty, LLVMPointerType):
        return "ptr"
    assert isinstance(ty, IntegerType)
    return f"i{ty.width.data}"


def _is_pin(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, Operation) or op_name(owner) != "llvm.call_intrinsic":
        return False
    intrin = owner.properties.get("intrin") or owner.attributes.get("intrin")
    return isinstance(intrin, StringAttr) and intrin.data.startswith(PIN_PREFIX)


def _with_fragment(expr: Attribute | None, offset: int, bits: int) -> Attribute:
    """`expr` followed by `DW_OP_LLVM_fragment(offset, bits)` (opaque `#llvm.di_expression`)."""
    ops: list[str] = []
    if expr is not None and not is_empty_expression(expr) and isinstance(expr, builtin.UnregisteredAttr):
        body = expr.value.data.strip()
        if body.startswith("[") and body.endswith("]"):
            ops = [p.strip() for p in _split_top(body[1:-1]) if p.strip()]
    ops.append(f"DW_OP_LLVM_fragment({offset}, {bits})")
    return _di_expression("[" + ", ".join(ops) + "]")


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch in "(<[" and 1 or 0
        depth -= ch in ")>]" and 1 or 0
        cur += ch
    parts.append(cur)
    return parts


def _di_expression(body: str) -> Attribute:
    cls = builtin.UnregisteredAttr.with_name_and_type("llvm.di_expression", False)
    return cls(StringAttr("llvm.di_expression"), builtin.IntAttr(0), builtin.IntAttr(0), StringAttr(body))


def _attr(op: Operation, *names: str) -> Attribute | None:
    for name in names:
        found = op.properties.get(name) or op.attributes.get(name)
        if found is not None:
            return found
    return None


def _make(name: str, operands: list[SSAValue], result_types: list[Attribute], props: dict[str, Attribute]) -> Operation:
    """An op by name through the shared context (our definition if registered, else generic)."""
    from tile_lsp.compiler.mlir.context import upstream_context

    cls = upstream_context().get_optional_op(name)
    assert cls is not None  # the context allows unregistered ops
    return cls.create(operands=operands, result_types=result_types, properties=props)


def _replace(op: Operation, new_ops: list[Operation]) -> None:
    block = op.parent_block()
    assert block is not None
    for new in new_ops:
        new.location = op.location
    block.insert_ops_before(new_ops, op)
    _erase(op)


def _erase(op: Operation) -> None:
    for result in op.results:
        if result.uses:
            return  # something still reads it; leave it rather than break dataflow
    op.detach()
    op.erase()
