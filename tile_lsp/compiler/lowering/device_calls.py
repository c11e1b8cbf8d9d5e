"""CUDA device-runtime calls the nvvm stage emits (seed 000): `cf.assert` -> a guarded
`__assertfail` call, `gpu.printf` -> `vprintf` with a packed argument buffer.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.common import LoweringPattern
from tile_lsp.compiler.lowering.llvm_build import (
    call,
    declare_function,
    emit,
    in_gpu_code,
    inherent,
    int_constant,
    make_op,
    string_global,
)
from tile_lsp.compiler.lowering.types import cast_converted, cast_to, llvm_ptr


def _enclosing_function_name(op: Operation) -> str:
    cur = op.parent_op()
    while cur is not None:
        sym = inherent(cur, "sym_name")
        if cur.name in ("gpu.func", "func.func", "llvm.func") and isinstance(sym, StringAttr):
            return sym.data
        cur = cur.parent_op()
    return "(unknown)"


def _file_line(op: Operation) -> tuple[str, int]:
    loc: Attribute | None = op.location
    while loc is not None and not isinstance(loc, FileLineColLoc):
        loc = getattr(loc, "location", None) or getattr(loc, "callee", None)
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data
    return "(unknown)", 0


# The CUDA runtime's assert hook: (message, file, line, function, charSize), fixed by its ABI.
ASSERTFAIL_ARGS: tuple[Attribute, ...] = (llvm_ptr(), llvm_ptr(), i32, llvm_ptr(), i64)


class LowerAssert(LoweringPattern):
    """`cf.assert %c, "msg"` in device code -> `llvm.cond_br %c, ^cont, ^fail`; ^fail calls
    `__assertfail(msg, file, line, func, 1)` and branches to ^cont."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "cf.assert" or not in_gpu_code(op) or op.parent_block() is None:
            return
        message = op.properties.get("msg")
        text = message.data if isinstance(message, StringAttr) else ""
        file, line = _file_line(op)
        func = _enclosing_function_name(op)
        names = [
            string_global(op, "assert_msg", text),
            string_global(op, "assert_file", file),
            string_global(op, "assert_func", func),
        ]
        if declare_function(op, "__assertfail", ASSERTFAIL_ARGS) is None or any(n is None for n in names):
            return
        cond = cast_to(rewriter, op.operands[0], i1)
        block = op.parent_block()
        assert block is not None
        after = op.next_op
        assert after is not None  # an assert is never a terminator
        cont = block.split_before(after)
        fail = Block()
        region = block.parent
        assert region is not None
        region.insert_block_after(fail, block)
        ptrs = []
        for name in names:
            addr = llvm.AddressOfOp(str(name), llvm_ptr())
            fail.add_op(addr)
            ptrs.append(addr.result)
        line_c = llvm.ConstantOp(IntegerAttr(line, i32), i32)
        size_c = llvm.ConstantOp(IntegerAttr(1, i64), i64)
        fail.add_ops([line_c, size_c])
        fail.add_op(llvm.CallOp("__assertfail", ptrs[0], ptrs[1], line_c.result, ptrs[2], size_c.result))
        fail.add_op(llvm.BrOp(cont))
        for new in fail.ops:
            new.location = op.location
        rewriter.replace(op, llvm.CondBrOp(cond, cont, [], fail, []), [])


def _printf_promote(rewriter: PatternRewriter, value: SSAValue) -> SSAValue | None:
    """C varargs promotion: floats to f64, small integers to i32."""
    converted = cast_converted(rewriter, value)
    if converted is None:
        return None
    t = converted.type
    if isinstance(t, Float16Type | BFloat16Type | Float32Type):
        ext = llvm.FPExtOp(converted, f64)
        rewriter.insert(ext)
        return ext.results[0]
    if isinstance(t, IntegerType) and t.width.data < 32:
        sext = llvm.SExtOp(converted, i32) if t.width.data > 1 else llvm.ZExtOp(converted, i32)
        rewriter.insert(sext)
        return sext.res
    return converted


class LowerPrintf(LoweringPattern):
    """`gpu.printf "fmt", %a, %b` -> `vprintf(@fmt, buffer)` with the promoted arguments stored in
    an alloca'd struct."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.printf":
            return
        fmt = op.properties.get("format")
        name = string_global(op, "printfFormat", fmt.data if isinstance(fmt, StringAttr) else "")
        if name is None or declare_function(op, "vprintf", [llvm_ptr(), llvm_ptr()], i32) is None:
            return
        args: list[SSAValue] = []
        for value in op.operands:
            promoted = _printf_promote(rewriter, value)
            if promoted is None:
                self.lctx.error(op, f"not supported by the nvvm stage: printf argument of type {value.type}")
                rewriter.erase(op)
                return
            args.append(promoted)
        addr = llvm.AddressOfOp(name, llvm_ptr())
        rewriter.insert(addr)
        if args:
            struct = llvm.LLVMStructType.from_type_list([a.type for a in args])
            one = int_constant(rewriter, 1, i64)
            buf = llvm.AllocaOp(one, struct)
            rewriter.insert(buf)
            for index, arg in enumerate(args):
                gep = llvm.GEPOp(buf.res, [0, index], struct)
                rewriter.insert(gep)
                emit(rewriter, make_op("llvm.store", [arg, gep.result], [], _store_props()))
            buffer: SSAValue = buf.res
        else:
            zero = llvm.ZeroOp(result_types=[llvm_ptr()])
            rewriter.insert(zero)
            buffer = zero.res
        call(rewriter, "vprintf", [addr.result, buffer], i32)
        rewriter.erase(op)


def _store_props() -> dict[str, Attribute]:
    return {"ordering": IntegerAttr(0, i64)}


__all__ = ["ASSERTFAIL_ARGS", "LowerAssert", "LowerPrintf"]
