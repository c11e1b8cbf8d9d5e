"""How each llvm-dialect op is spelled as LLVM IR instructions (used by `llvmir.py`).

Every function takes the function emitter `f` (an `Emitter`: names, types, the line sink) and the op;
what cannot be spelled raises `Unsupported`, which the emitter turns into a diagnostic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tile_lsp.compiler.backend.llvmir_values import (
    Unsupported,
    address_space,
    cconv_text,
    constant_of,
    dict_list,
    mangle,
    op_name,
    quoted,
    symbol,
    type_text,
)
from tile_lsp.compiler.mlir.dialects import llvm_ext as ext


class Emitter(Protocol):
    """What an op's spelling needs of the emitter of its function (`llvmir.FunctionEmitter`):
    value and block names, type spellings, the line sink, intrinsic calls and metadata nodes."""

    consts: dict[SSAValue, str]  # values spelled inline where they are used (constants)
    block_names: dict[Block, str]

    def val(self, v: SSAValue) -> str: ...

    def ty(self, t: Attribute, op: Operation) -> str: ...

    def typed(self, v: SSAValue, op: Operation) -> str: ...

    def emit_line(self, op: Operation, text: str) -> None: ...

    def result(self, op: Operation, text: str) -> None: ...

    def call(
        self, op: Operation, callee: str, ret: str, args: list[str], arg_types: list[str], flags: str = ""
    ) -> None: ...

    def debug_record(self, op: Operation) -> None: ...

    def metadata(self, node: str) -> int: ...


# Ops that are one LLVM instruction with the same operands (flags aside).
INT_BINARY = {
    "llvm.add": "add",
    "llvm.sub": "sub",
    "llvm.mul": "mul",
    "llvm.udiv": "udiv",
    "llvm.sdiv": "sdiv",
    "llvm.urem": "urem",
    "llvm.srem": "srem",
    "llvm.and": "and",
    "llvm.or": "or",
    "llvm.xor": "xor",
    "llvm.shl": "shl",
    "llvm.lshr": "lshr",
    "llvm.ashr": "ashr",
}
FLOAT_BINARY = {
    "llvm.fadd": "fadd",
    "llvm.fsub": "fsub",
    "llvm.fmul": "fmul",
    "llvm.fdiv": "fdiv",
    "llvm.frem": "frem",
}
CASTS = {
    "llvm.trunc": "trunc",
    "llvm.zext": "zext",
    "llvm.sext": "sext",
    "llvm.fpext": "fpext",
    "llvm.fptrunc": "fptrunc",
    "llvm.sitofp": "sitofp",
    "llvm.uitofp": "uitofp",
    "llvm.fptosi": "fptosi",
    "llvm.fptoui": "fptoui",
    "llvm.bitcast": "bitcast",
    "llvm.inttoptr": "inttoptr",
    "llvm.ptrtoint": "ptrtoint",
    "llvm.addrspacecast": "addrspacecast",
}
_ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
# MLIR FCmpPredicate numbering.
_FCMP: tuple[str, ...] = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord")
_FCMP += ("ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
_FASTMATH_ALL = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")
# Intrinsics whose overload suffix comes from an operand, not from the result.
_SUFFIX_FROM_OPERANDS: dict[str, tuple[int, ...]] = {
    "powi": (-1, 1),
    "ldexp": (-1, 1),
    "stackrestore": (0,),
    "masked.store": (0, 1),
}
_NO_SUFFIX = frozenset({"assume"})


def emit_op(f: Emitter, op: Operation) -> None:
    """Emits the instruction(s) for one op (constants become inline operands)."""
    name = op_name(op)
    const = constant_of(op)
    if const is not None:
        f.consts[op.results[0]] = const
        return
    handler = HANDLERS.get(name)
    if handler is not None:
        handler(f, op)
        return
    if name in INT_BINARY:
        _int_binary(f, op, INT_BINARY[name])
    elif name in FLOAT_BINARY:
        f.result(op, f"{FLOAT_BINARY[name]}{_fastmath(op)} {f.typed(op.operands[0], op)}, {f.val(op.operands[1])}")
    elif name in CASTS:
        flags = ""
        if op.properties.get("nonNeg") is not None:
            flags = " nneg"
        flags += _overflow(op.properties.get("overflowFlags"))
        f.result(op, f"{CASTS[name]}{flags} {f.typed(op.operands[0], op)} to {f.ty(op.results[0].type, op)}")
    elif name.startswith("llvm.intr.dbg."):
        f.debug_record(op)  # a #dbg_* record with --device-debug; dropped otherwise
    elif name.startswith("llvm.intr."):
        _intrinsic_op(f, op, name)
    elif name == "builtin.unrealized_conversion_cast":
        _conversion_cast(f, op)
    else:
        raise Unsupported(op, f"cannot translate '{op_name(op)}' to LLVM IR")


def _int_binary(f: Emitter, op: Operation, opcode: str) -> None:
    flags = _overflow(op.properties.get("overflowFlags"))
    if op.properties.get("isExact") is not None:
        flags += " exact"
    if op.properties.get("isDisjoint") is not None:
        flags += " disjoint"
    f.result(op, f"{opcode}{flags} {f.typed(op.operands[0], op)}, {f.val(op.operands[1])}")


def _conversion_cast(f: Emitter, op: Operation) -> None:
    if len(op.operands) == 1 and len(op.results) == 1:
        src, dst = type_text(op.operands[0].type), type_text(op.results[0].type)
        if src is not None and src == dst:
            f.consts[op.results[0]] = f.val(op.operands[0])
            return
    raise Unsupported(op, "unresolved 'builtin.unrealized_conversion_cast' reached LLVM IR emission")


def _intrinsic_op(f: Emitter, op: Operation, name: str) -> None:
    short = name.removeprefix("llvm.intr.")
    if op.results:
        ret_type = op.results[0].type
    else:
        ret_type = x.LLVMVoidType()
    if short in _NO_SUFFIX:
        suffix_types: list[Attribute] = []
    elif short in _SUFFIX_FROM_OPERANDS:
        suffix_types = [ret_type if i == -1 else op.operands[i].type for i in _SUFFIX_FROM_OPERANDS[short]]
    elif short.startswith("vector.reduce.") or not op.results:
        suffix_types = [op.operands[-1].type] if op.operands else []
    else:
        suffix_types = [ret_type]
    parts = [mangle(t) for t in suffix_types]
    if any(p is None for p in parts):
        raise Unsupported(op, f"cannot name the overload of '{name}' for these types")
    llvm_name = "llvm." + short + "".join(f".{p}" for p in parts)
    args = [f.typed(v, op) for v in op.operands]
    arg_types = [f.ty(v.type, op) for v in op.operands]
    flag = ext.IMM_FLAGS.get(name)
    if flag is not None:
        value = op.properties.get(flag)
        bit = isinstance(value, IntegerAttr) and bool(value.value.data)
        args.append("i1 " + ("true" if bit else "false"))
        arg_types.append("i1")
    if isinstance(op, x.MaskedStoreOp):
        raise Unsupported(op, "'llvm.intr.masked.store' is not supported by the LLVM IR emitter")
    f.call(op, llvm_name, f.ty(ret_type, op), args, arg_types, _fastmath(op))


def _h_icmp(f: Emitter, op: Operation) -> None:
    pred = _ICMP[_int_prop(op, "predicate")]
    f.result(op, f"icmp {pred} {f.typed(op.operands[0], op)}, {f.val(op.operands[1])}")


def _h_fcmp(f: Emitter, op: Operation) -> None:
    pred = _FCMP[_int_prop(op, "predicate")]
    f.result(op, f"fcmp{_fastmath(op)} {pred} {f.typed(op.operands[0], op)}, {f.val(op.operands[1])}")


def _h_fneg(f: Emitter, op: Operation) -> None:
    f.result(op, f"fneg{_fastmath(op)} {f.typed(op.operands[0], op)}")


def _h_select(f: Emitter, op: Operation) -> None:
    c, a, b = op.operands
    f.result(op, f"select{_fastmath(op)} {f.typed(c, op)}, {f.typed(a, op)}, {f.typed(b, op)}")


def _h_freeze(f: Emitter, op: Operation) -> None:
    f.result(op, f"freeze {f.typed(op.operands[0], op)}")


def _sync_order(scope: Attribute | None, ordering: int) -> str:
    text = ""
    if isinstance(scope, StringAttr) and scope.data:
        text += f" syncscope({quoted(scope.data)})"
    return text + f" {ext.ORDERING_NAMES[ordering]}"


def _mem_suffix(f: Emitter, op: Operation) -> str:
    text = ""
    align = op.properties.get("alignment")
    if isinstance(align, IntegerAttr) and align.value.data:
        text += f", align {align.value.data}"
    if op.properties.get("nontemporal") is not None:
        text += f", !nontemporal !{f.metadata('!{i32 1}')}"
    if op.properties.get("invariant") is not None:
        text += f", !invariant.load !{f.metadata('!{}')}"
    return text


def _memory_access(f: Emitter, op: Operation, verb: str, operands: str) -> str:
    """`load`/`store` [atomic] [volatile] `operands` [syncscope and ordering], then the alignment
    and metadata suffix."""
    ordering = _int_prop(op, "ordering")
    head = verb + (" atomic" if ordering else "") + (" volatile" if op.properties.get("volatile_") else "")
    text = f"{head} {operands}"
    if ordering:
        text += _sync_order(op.properties.get("syncscope"), ordering)
    return text + _mem_suffix(f, op)


def _h_load(f: Emitter, op: Operation) -> None:
    assert isinstance(op, ext.LoadOp | x.LoadOp)
    operands = f"{f.ty(op.results[0].type, op)}, {f.typed(op.operands[0], op)}"
    f.result(op, _memory_access(f, op, "load", operands))


def _h_store(f: Emitter, op: Operation) -> None:
    operands = f"{f.typed(op.operands[0], op)}, {f.typed(op.operands[1], op)}"
    f.emit_line(op, _memory_access(f, op, "store", operands))


def _h_gep(f: Emitter, op: Operation) -> None:
    assert isinstance(op, x.GEPOp | ext.GEPOp)
    flags = op.noWrapFlags.value.data if isinstance(op.noWrapFlags, IntegerAttr) else 0
    if op.inbounds is not None:
        flags |= ext.GEP_INBOUNDS
    words = ext.gep_flag_words(flags)
    indices: list[str] = []
    dynamic = iter(op.ssa_indices)
    for raw in op.rawConstantIndices.get_values():
        if raw == -2147483648:
            indices.append(f.typed(next(dynamic), op))
        else:
            indices.append(f"i32 {raw}")
    head = "getelementptr" + "".join(f" {w}" for w in words)
    f.result(op, f"{head} {f.ty(op.elem_type, op)}, {f.typed(op.ptr, op)}" + "".join(f", {i}" for i in indices))


def _h_alloca(f: Emitter, op: Operation) -> None:
    assert isinstance(op, x.AllocaOp)
    text = f"alloca {f.ty(op.elem_type, op)}, {f.typed(op.size, op)}"
    if op.alignment is not None:
        text += f", align {op.alignment.value.data}"
    res_type = op.res.type
    if isinstance(res_type, x.LLVMPointerType) and address_space(res_type):
        text += f", addrspace({address_space(res_type)})"
    f.result(op, text)


def _h_extractvalue(f: Emitter, op: Operation) -> None:
    pos = ", ".join(str(p) for p in _dense(op.properties["position"]))
    f.result(op, f"extractvalue {f.typed(op.operands[0], op)}, {pos}")


def _h_insertvalue(f: Emitter, op: Operation) -> None:
    pos = ", ".join(str(p) for p in _dense(op.properties["position"]))
    f.result(op, f"insertvalue {f.typed(op.operands[0], op)}, {f.typed(op.operands[1], op)}, {pos}")


def _h_extractelement(f: Emitter, op: Operation) -> None:
    f.result(op, f"extractelement {f.typed(op.operands[0], op)}, {f.typed(op.operands[1], op)}")


def _h_insertelement(f: Emitter, op: Operation) -> None:
    assert isinstance(op, x.InsertElementOp)
    f.result(op, f"insertelement {f.typed(op.vector, op)}, {f.typed(op.value, op)}, {f.typed(op.index, op)}")


def _h_shufflevector(f: Emitter, op: Operation) -> None:
    mask = _dense(op.properties["mask"])
    items = ", ".join("i32 poison" if m < 0 else f"i32 {m}" for m in mask)
    f.result(
        op, f"shufflevector {f.typed(op.operands[0], op)}, {f.typed(op.operands[1], op)}, <{len(mask)} x i32> <{items}>"
    )


def _h_atomicrmw(f: Emitter, op: Operation) -> None:
    assert isinstance(op, ext.AtomicRMWOp)
    kind = op.bin_op_name.lstrip("_")
    head = "atomicrmw" + (" volatile" if op.volatile_ is not None else "")
    text = f"{head} {kind} {f.typed(op.ptr, op)}, {f.typed(op.val, op)}"
    f.result(op, text + _sync_order(op.syncscope, op.ordering.value.data) + _mem_suffix(f, op))


def _h_cmpxchg(f: Emitter, op: Operation) -> None:
    assert isinstance(op, ext.CmpXchgOp)
    head = "cmpxchg" + (" weak" if op.weak is not None else "") + (" volatile" if op.volatile_ is not None else "")
    text = f"{head} {f.typed(op.ptr, op)}, {f.typed(op.cmp, op)}, {f.typed(op.val, op)}"
    text += _sync_order(op.syncscope, op.success_ordering.value.data)
    text += f" {ext.ORDERING_NAMES[op.failure_ordering.value.data]}"
    f.result(op, text + _mem_suffix(f, op))


def _h_fence(f: Emitter, op: Operation) -> None:
    assert isinstance(op, ext.FenceOp)
    f.emit_line(op, "fence" + _sync_order(op.syncscope, op.ordering.value.data))


def _h_call(f: Emitter, op: Operation) -> None:
    assert isinstance(op, x.CallOp)
    args = list(op.args)
    if op.callee is None:
        if not args:
            raise Unsupported(op, "indirect call without a callee")
        callee = f.val(args.pop(0))
    else:
        callee = "@" + symbol(op.callee.root_reference.data)
    ret = f.ty(op.returned.type, op) if op.returned is not None else "void"
    fn_type = ""
    if op.var_callee_type is not None:
        fn_type = " " + _fn_type_text(op.var_callee_type, op)
    cconv = cconv_text(op.CConv)
    text = "call" + _fastmath(op) + (f" {cconv}" if cconv else "") + f" {ret}{fn_type} {callee}("
    text += ", ".join(f.typed(a, op) for a in args) + ")"
    if op.returned is not None:
        f.result(op, text)
    else:
        f.emit_line(op, text)


def _h_call_intrinsic(f: Emitter, op: Operation) -> None:
    assert isinstance(op, x.CallIntrinsicOp)
    ret = f.ty(op.ress.type, op) if op.ress is not None else "void"
    args = [f.typed(a, op) for a in op.args]
    f.call(op, op.intrin.data, ret, args, [f.ty(a.type, op) for a in op.args], _fastmath(op))


def _h_inline_asm(f: Emitter, op: Operation) -> None:
    assert isinstance(op, ext.InlineAsmOp | x.InlineAsmOp)
    ret = f.ty(op.res.type, op) if op.res is not None else "void"
    words = ["asm"]
    if op.has_side_effects is not None:
        words.append("sideeffect")
    if op.is_align_stack is not None:
        words.append("alignstack")
    if op.asm_dialect is not None and op.asm_dialect.value.data == 1:
        words.append("inteldialect")
    elem_types = dict_list(op.properties.get("operand_attrs"))
    args: list[str] = []
    for i, v in enumerate(op.operands_):
        extra = ""
        attrs = elem_types[i] if i < len(elem_types) else None
        if attrs is not None and "elementtype" in attrs.data:
            extra = f" elementtype({f.ty(attrs.data['elementtype'], op)})"
        args.append(f"{f.ty(v.type, op)}{extra} {f.val(v)}")
    text = (
        f"call {ret} {' '.join(words)} {quoted(op.asm_string.data)}, {quoted(op.constraints.data)}({', '.join(args)})"
    )
    if op.res is not None:
        f.result(op, text)
    else:
        f.emit_line(op, text)


def _h_return(f: Emitter, op: Operation) -> None:
    f.emit_line(op, f"ret {f.typed(op.operands[0], op)}" if op.operands else "ret void")


def _h_br(f: Emitter, op: Operation) -> None:
    f.emit_line(op, f"br label %{f.block_names[op.successors[0]]}")


def _h_cond_br(f: Emitter, op: Operation) -> None:
    t, e = op.successors
    f.emit_line(op, f"br {f.typed(op.operands[0], op)}, label %{f.block_names[t]}, label %{f.block_names[e]}")


def _h_switch(f: Emitter, op: Operation) -> None:
    assert isinstance(op, ext.SwitchOp)
    vtype = f.ty(op.value.type, op)
    cases = " ".join(f"{vtype} {v}, label %{f.block_names[b]}" for v, b, _ in op.cases())
    f.emit_line(op, f"switch {vtype} {f.val(op.value)}, label %{f.block_names[op.defaultDestination]} [ {cases} ]")


def _h_unreachable(f: Emitter, op: Operation) -> None:
    f.emit_line(op, "unreachable")


HANDLERS: dict[str, Callable[[Emitter, Operation], None]] = {
    "llvm.icmp": _h_icmp,
    "llvm.fcmp": _h_fcmp,
    "llvm.fneg": _h_fneg,
    "llvm.select": _h_select,
    "llvm.freeze": _h_freeze,
    "llvm.load": _h_load,
    "llvm.store": _h_store,
    "llvm.getelementptr": _h_gep,
    "llvm.alloca": _h_alloca,
    "llvm.extractvalue": _h_extractvalue,
    "llvm.insertvalue": _h_insertvalue,
    "llvm.extractelement": _h_extractelement,
    "llvm.insertelement": _h_insertelement,
    "llvm.shufflevector": _h_shufflevector,
    "llvm.atomicrmw": _h_atomicrmw,
    "llvm.cmpxchg": _h_cmpxchg,
    "llvm.fence": _h_fence,
    "llvm.call": _h_call,
    "llvm.call_intrinsic": _h_call_intrinsic,
    "llvm.inline_asm": _h_inline_asm,
    "llvm.return": _h_return,
    "llvm.br": _h_br,
    "llvm.cond_br": _h_cond_br,
    "llvm.switch": _h_switch,
    "llvm.unreachable": _h_unreachable,
}


def _int_prop(op: Operation, name: str) -> int:
    value = op.properties.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else 0


def _dense(value: Attribute) -> list[int]:
    if isinstance(value, DenseArrayBase):
        return [int(v) for v in value.get_values()]
    return []


def _overflow(value: Attribute | None) -> str:
    bits = 0
    if isinstance(value, IntegerAttr):
        bits = value.value.data
    elif isinstance(value, x.OverflowAttr):
        bits = value.to_int()
    return (" nuw" if bits & 2 else "") + (" nsw" if bits & 1 else "")


def _fastmath(op: Operation) -> str:
    value = op.properties.get("fastmathFlags")
    if not isinstance(value, x.FastMathAttr) or not value.data:
        return ""
    flags = {f.value for f in value.data}
    if flags >= set(_FASTMATH_ALL):
        return " fast"
    return "".join(f" {f}" for f in _FASTMATH_ALL if f in flags)


def _fn_type_text(t: x.LLVMFunctionType, op: Operation) -> str:
    parts = [type_text(i) for i in t.inputs.data]
    ret = type_text(t.output)
    if ret is None or any(p is None for p in parts):
        raise Unsupported(op, "callee type cannot be spelled in LLVM IR")
    args = [p for p in parts if p] + (["..."] if t.is_variadic else [])
    return f"({', '.join(args)})"
