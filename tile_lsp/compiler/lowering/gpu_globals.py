"""Module-level globals in the gpu stage: `nv_tileaa.global` (cuda_tile's `global`) becomes an
`llvm.mlir.global` in global memory (address space 1) of the kernels' gpu.module, and
`get_global` its address, cast to a generic pointer like every other pointer of a kernel.
Scratch memory too: `alloca` is a CTA-shared buffer, `alloca global` a per-CTA buffer from
device-side malloc, freed at the kernel's return.
"""

from __future__ import annotations

import functools

from xdsl.dialects import arith, cf, llvm
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
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.gpu_convert import f8_format
from tile_lsp.compiler.lowering.gpu_core import (
    KernelConverter,
    Unsupported,
    create_op,
    get_attr,
    narrow_float,
    num_elements,
    scalar_type,
    unsupported_message,
)
from tile_lsp.compiler.lowering.types import llvm_ptr
from tile_lsp.compiler.mlir.dialects import gpu, llvm_memory


def lower_global(lctx: LoweringContext, op: Operation) -> Operation | None:
    """The llvm.mlir.global of `op`; None after a diagnostic at it."""
    name, t, value = op.attributes.get("sym_name"), op.attributes.get("type"), op.attributes.get("value")
    if not isinstance(name, StringAttr) or not isinstance(t, TensorType):
        lctx.error(op, unsupported_message(lctx, op, "a global that is not a tile"))
        return None
    if f8_format(t) is not None or narrow_float(t) is not None:
        lctx.error(op, unsupported_message(lctx, op, f"a global of {t.element_type}"))
        return None
    elem = scalar_type(t)
    count = num_elements(t.get_shape())
    dense = _dense(value, TensorType(elem, [count]))
    if dense is None:
        lctx.error(op, unsupported_message(lctx, op, "its initial value"))
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


def get_global(cv: KernelConverter, op: Operation) -> None:
    """The global's address (address space 1) as a generic pointer."""
    ref = op.attributes.get("name", op.properties.get("name"))
    if not isinstance(ref, SymbolRefAttr):
        raise Unsupported(op, "no global name")
    address = cv.v(llvm.AddressOfOp(ref.root_reference.data, llvm_ptr(1)))
    cv.values[op.results[0]] = cv.v(create_op("llvm.addrspacecast", [address], op.results[0].type))


MAX_ELEMENT_BYTES = 8  # the widest element a pointer tile can point to (i64, f64, pointers)


def alloca(cv: KernelConverter, op: Operation) -> None:
    """alloca (private): scratch memory of one tile block, so one CTA-shared buffer per op
    (every thread of the block sees the same memory, as the tile block's one logical thread
    does), its address cast to a generic pointer. nv_tileaa keeps no element type, so the
    buffer takes `num_elem` of the widest elements. `global`: see `_global_alloca`."""
    count, align = get_attr(op, "num_elem"), get_attr(op, "alignment")
    if not isinstance(count, IntegerAttr) or not isinstance(align, IntegerAttr):
        raise Unsupported(op, "num_elem and alignment")
    size = max(1, count.value.data * MAX_ELEMENT_BYTES)
    if "global" in op.attributes or "global" in op.properties:
        _global_alloca(cv, op, size, align.value.data)
        return
    name = f"__tile_alloca_{cv.name}_{len(cv.globals)}"  # (the exchange buffer joins them at the end)
    buffer = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(size), IntegerType(8)), name, "internal", addr_space=3,
                           alignment=max(1, align.value.data))
    buffer.location = op.location
    cv.globals.append(buffer)
    address = cv.v(llvm.AddressOfOp(name, llvm_ptr(3)))
    cv.values[op.results[0]] = cv.v(create_op("llvm.addrspacecast", [address], op.results[0].type))


MALLOC_ALIGNMENT = 16  # what device-side malloc guarantees
HEAP_EXHAUSTED = "alloca global: device-side malloc found no room for the scratch buffer (cudaLimitMallocHeapSize)"


def _global_alloca(cv: KernelConverter, op: Operation, size: int, align: int) -> None:
    """alloca global: one buffer per op and tile block in global memory, from device-side
    `malloc` (a PTX system call, like vprintf). Thread 0 allocates it the first time the op runs
    in the CTA (again in a loop: the same buffer, as private scratch is) and keeps the address in
    a CTA-shared slot, which thread 0 zeroes at the kernel's start; every thread reads it after a
    barrier, rounded up to `alignment`. At the kernel's return, after a barrier, thread 0 frees
    it (`_free_global_scratch`). A malloc that fails is a device assert with `HEAP_EXHAUSTED`."""
    name = f"__tile_scratch_{cv.name}_{len(cv.globals)}"
    slot = llvm.GlobalOp(i64, name, "internal", addr_space=3, alignment=8)
    slot.location = op.location
    cv.globals.append(slot)
    for decl in (_declare("malloc", [i64], llvm_ptr()), _declare("free", [llvm_ptr()], None)):
        if not any(isinstance(o, llvm.FuncOp) and o.sym_name.data == decl.sym_name.data for o in cv.globals):
            cv.globals.append(decl)
    cv.global_scratch.append(name)
    cv.at_top(lambda: cv.when(cv.first_thread(), lambda: cv.emit(llvm_memory.StoreOp(cv.i64c(0), _slot(cv, name)))))
    extra = max(0, align - MALLOC_ALIGNMENT)

    def allocate() -> None:
        held = cv.v(llvm_memory.LoadOp(_slot(cv, name), i64))

        def call_malloc() -> None:
            address = cv.v(llvm.PtrToIntOp(cv.v(llvm.CallOp("malloc", cv.i64c(size + extra), return_type=llvm_ptr())), i64))
            cv.emit(cf.AssertOp(cv.v(arith.CmpiOp(address, cv.i64c(0), "ne")), HEAP_EXHAUSTED))
            cv.emit(llvm_memory.StoreOp(address, _slot(cv, name)))

        cv.when(cv.v(arith.CmpiOp(held, cv.i64c(0), "eq")), call_malloc)

    cv.when(cv.first_thread(), allocate)
    cv.emit(gpu.BarrierOp())
    address = cv.v(llvm_memory.LoadOp(_slot(cv, name), i64))
    if extra:
        address = cv.v(arith.AndIOp(cv.v(arith.AddiOp(address, cv.i64c(align - 1))), cv.i64c(-align)))
    cv.values[op.results[0]] = cv.v(llvm.IntToPtrOp(address))


def free_global_scratch(cv: KernelConverter) -> None:
    """Before the kernel returns: once every thread is done with them (a barrier), thread 0
    frees the global scratch buffers this CTA allocated."""
    if not cv.global_scratch:
        return
    cv.emit(gpu.BarrierOp())

    def free(held: SSAValue) -> None:
        cv.emit(llvm.CallOp("free", cv.v(llvm.IntToPtrOp(held))))

    def free_all() -> None:
        for name in cv.global_scratch:
            held = cv.v(llvm_memory.LoadOp(_slot(cv, name), i64))
            cv.when(cv.v(arith.CmpiOp(held, cv.i64c(0), "ne")), functools.partial(free, held))

    cv.when(cv.first_thread(), free_all)


def _slot(cv: KernelConverter, name: str) -> SSAValue:
    return cv.v(llvm.AddressOfOp(name, llvm_ptr(3)))


def _declare(name: str, inputs: list[Attribute], output: Attribute | None) -> llvm.FuncOp:
    return llvm.FuncOp(name, llvm.LLVMFunctionType(inputs, output), linkage=llvm.LinkageAttr("external"))


__all__ = ["alloca", "free_global_scratch", "get_global", "lower_global"]
