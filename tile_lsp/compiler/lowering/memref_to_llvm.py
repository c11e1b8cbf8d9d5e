"""memref -> llvm on bare pointers (see `types.py`): load/store through one GEP per access,
alloca, global/get_global, and the view ops (subview/cast) that only change the static layout.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.common import LoweringPattern
from tile_lsp.compiler.lowering.llvm_build import emit, int_constant, make_op
from tile_lsp.compiler.lowering.types import (
    address_space,
    cast_converted,
    cast_to,
    convert_type,
    llvm_ptr,
    memref_array_type,
    memref_element_ptr,
    memref_unsupported,
    replace_with,
)


class LowerMemref(LoweringPattern):
    """memref load/store/alloca/global/get_global/subview/cast on bare pointers."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name == "memref.load":
            memref, *indices = op.operands
            result = convert_type(op.results[0].type)
            if result is None or memref_unsupported(memref.type) is not None:  # type: ignore[arg-type]
                return
            ptr = memref_element_ptr(rewriter, memref, indices)
            if ptr is None:
                return
            replace_with(rewriter, op, make_op("llvm.load", [ptr], [result], {"ordering": IntegerAttr(0, i64)}))
        elif op.name == "memref.store":
            value, memref, *indices = op.operands
            if convert_type(value.type) is None or memref_unsupported(memref.type) is not None:  # type: ignore[arg-type]
                return
            ptr = memref_element_ptr(rewriter, memref, indices)
            converted = cast_converted(rewriter, value)
            if ptr is None or converted is None:
                return
            store = make_op("llvm.store", [converted, ptr], [], {"ordering": IntegerAttr(0, i64)})
            rewriter.replace(op, store, [])
        elif op.name == "memref.alloca":
            self._alloca(op, rewriter)
        elif op.name == "memref.global":
            self._global(op, rewriter)
        elif op.name == "memref.get_global":
            t = op.results[0].type
            ptr_type = convert_type(t)
            sym = op.properties.get("name")
            if not isinstance(ptr_type, llvm.LLVMPointerType) or not isinstance(sym, SymbolRefAttr):
                return
            replace_with(rewriter, op, llvm.AddressOfOp(sym.root_reference.data, ptr_type))
        elif op.name in ("memref.subview", "memref.cast", "memref.reinterpret_cast"):
            src, result = op.operands[0], op.results[0].type
            if op.name == "memref.reinterpret_cast" and len(op.operands) > 1:
                return
            ptr_type = convert_type(result)
            if ptr_type is None or convert_type(src.type) != ptr_type:
                return
            rewriter.replace(op, [], [cast_to(rewriter, cast_to(rewriter, src, ptr_type), result)])
        elif op.name == "memref.assume_alignment":
            rewriter.replace(op, [], list(op.operands[:1]) if op.results else [])

    def _alloca(self, op: Operation, rewriter: PatternRewriter) -> None:
        t = op.results[0].type
        array = memref_array_type(t) if not op.operands else None
        if array is None:
            return
        assert isinstance(t, MemRefType)
        one = int_constant(rewriter, 1, i64)
        align = op.properties.get("alignment")
        alloca = llvm.AllocaOp(one, array,
                               alignment=int(align.value.data) if isinstance(align, IntegerAttr) else 16)
        rewriter.insert(alloca)
        value: SSAValue = alloca.res
        space = address_space(t.memory_space) or 0
        if space:
            value = emit(rewriter, make_op("llvm.addrspacecast", [value], [llvm_ptr(space)])).results[0]
        rewriter.replace(op, [], [cast_to(rewriter, value, t)])

    def _global(self, op: Operation, rewriter: PatternRewriter) -> None:
        t = op.properties.get("type")
        array = memref_array_type(t)
        if array is None:
            return
        assert isinstance(t, MemRefType)
        count = array.size.data
        space = address_space(t.memory_space) or 0
        init = op.properties.get("initial_value")
        value: Attribute | None = None
        if isinstance(init, DenseIntOrFPElementsAttr):
            flat = TensorType(init.get_element_type(), [count])
            value = init if len(t.get_shape()) == 1 else DenseIntOrFPElementsAttr.from_list(flat, init.get_values())
        name = op.properties["sym_name"]
        assert isinstance(name, StringAttr)
        visibility = op.properties.get("sym_visibility")
        linkage = "internal" if isinstance(visibility, StringAttr) and visibility.data == "private" else "external"
        glob = llvm.GlobalOp(array, name, linkage, addr_space=space,
                             constant=op.properties.get("constant") is not None, value=value)
        align = op.properties.get("alignment")
        if isinstance(align, IntegerAttr):
            glob.properties["alignment"] = align
        rewriter.replace(op, glob, [])


__all__ = ["LowerMemref"]
