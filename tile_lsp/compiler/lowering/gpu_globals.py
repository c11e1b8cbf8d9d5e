"""Module-level globals in the gpu stage: `nv_tileaa.global` (cuda_tile's `global`) becomes an
`llvm.mlir.global` in global memory (address space 1) of the kernels' gpu.module, and
`get_global` its address, cast to a generic pointer like every other pointer of a kernel.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.lowering import tileaa_to_gpu as g
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.gpu_convert import f8_format
from tile_lsp.compiler.lowering.types import llvm_ptr


def lower_global(lctx: LoweringContext, op: Operation) -> Operation | None:
    """The llvm.mlir.global of `op`; None after a diagnostic at it."""
    name, t, value = op.attributes.get("sym_name"), op.attributes.get("type"), op.attributes.get("value")
    if not isinstance(name, StringAttr) or not isinstance(t, TensorType):
        lctx.error(op, g.unsupported_message(lctx, op, "a global that is not a tile"))
        return None
    if f8_format(t) is not None or g._narrow_float(t) is not None:
        lctx.error(op, g.unsupported_message(lctx, op, f"a global of {t.element_type}"))
        return None
    elem = g._elem(t)
    count = g._num_elements(t.get_shape())
    dense = _dense(value, TensorType(elem, [count]))
    if dense is None:
        lctx.error(op, g.unsupported_message(lctx, op, "its initial value"))
        return None
    align = op.attributes.get("alignment")
    visibility = op.attributes.get("sym_visibility")
    private = isinstance(visibility, StringAttr) and visibility.data == "private"
    glob = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(count), elem), name.data, "internal" if private else "external",
                         addr_space=1, constant=isinstance(op.attributes.get("constant"), UnitAttr), value=dense,
                         alignment=align.value.data if isinstance(align, IntegerAttr) else None)
    glob.location = op.location
    return glob


def _dense(value: Attribute | None, t: TensorType) -> Attribute | None:
    """The global's initializer as dense elements of the flattened type (a splat is repeated)."""
    count = t.get_shape()[0]
    if isinstance(value, DenseIntOrFPElementsAttr):
        data = list(value.get_values())
        if len(data) == 1:
            data *= count
        if len(data) != count:
            return None
        return DenseIntOrFPElementsAttr.from_list(t, data)  # type: ignore[type-var]
    if isinstance(value, IntegerAttr | FloatAttr):
        return DenseIntOrFPElementsAttr.from_list(t, [value.value.data] * count)  # type: ignore[type-var]
    return None


def get_global(cv: g._KernelConverter, op: Operation) -> None:
    """The global's address (address space 1) as a generic pointer."""
    ref = op.attributes.get("name", op.properties.get("name"))
    if not isinstance(ref, SymbolRefAttr):
        raise g.Unsupported(op, "no global name")
    address = cv.v(llvm.AddressOfOp(ref.root_reference.data, llvm_ptr(1)))
    cv.values[op.results[0]] = cv.v(g._create("llvm.addrspacecast", [address], op.results[0].type))


MAX_ELEMENT_BYTES = 8  # the widest element a pointer tile can point to (i64, f64, pointers)


def alloca(cv: g._KernelConverter, op: Operation) -> None:
    """alloca (private): scratch memory of one tile block, so one CTA-shared buffer per op
    (every thread of the block sees the same memory, as the tile block's one logical thread
    does), its address cast to a generic pointer. nv_tileaa keeps no element type, so the
    buffer takes `num_elem` of the widest elements. `global` scratch (a buffer per tile block
    in global memory, sized by the grid) is not lowered."""
    count, align = g._get(op, "num_elem"), g._get(op, "alignment")
    if "global" in op.attributes or "global" in op.properties:
        raise g.Unsupported(op, "global scratch memory")
    if not isinstance(count, IntegerAttr) or not isinstance(align, IntegerAttr):
        raise g.Unsupported(op, "num_elem and alignment")
    name = f"__tile_alloca_{cv.name}_{len(cv.globals)}"  # (the exchange buffer joins them at the end)
    size = max(1, count.value.data * MAX_ELEMENT_BYTES)
    buffer = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(size), IntegerType(8)), name, "internal", addr_space=3,
                           alignment=max(1, align.value.data))
    buffer.location = op.location
    cv.globals.append(buffer)
    address = cv.v(llvm.AddressOfOp(name, llvm_ptr(3)))
    cv.values[op.results[0]] = cv.v(g._create("llvm.addrspacecast", [address], op.results[0].type))


__all__ = ["alloca", "get_global", "lower_global"]
