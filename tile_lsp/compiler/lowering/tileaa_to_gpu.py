"""Stage 3 `gpu` (tile to threads), first slice: nv_tileaa kernels -> one `gpu.module` of
`gpu.func ... kernel` functions in per-thread SIMT code (gpu, arith, scf, math, llvm ops).

One tile block is one CTA of T threads (`known_block_size = array<i32: T, 1, 1>`). A shaped
tile becomes, in every thread, one scalar SSA value per register slot of its `Layout`
(`layout.py`); a one-element tile is uniform (one scalar, the same in every thread); `scf.for`
and `scf.if` stay uniform, so their tiles travel as flattened slot values.

Covered: block ids and grid dims, constants and splats, element-wise arith/math, compares,
selects, conversions, iota, reshape, broadcast of one-element tiles, tensor/partition views
with bounds-checked loads (padding value) and masked stores, pointer tiles (offset, masked
load/store), `for`/`if` with loop-carried tiles, tokens (a CTA barrier before an access whose
token comes from a store), return. This module is the entry point and the op dispatch
(`_HANDLERS`); the conversion state and the helpers every op family shares are `gpu_core.py`'s
(`KernelConverter`), and the handlers are by family, built on the core (never on this module):
`gpu_arith.py` (element-wise ops, constants), `gpu_shape.py`, `gpu_memory.py` (views, loads,
stores, atomics, tokens, print), `gpu_control.py` (for/if/loop, early exits), `gpu_reduce.py`,
`gpu_mma.py` (dot), `gpu_scaled.py` (mmaf_scaled), `gpu_views.py` (gather/scatter views,
pack/unpack), `gpu_multimem.py`, `gpu_globals.py` (globals), `gpu_streamed.py`, `gpu_testing.py`;
`gpu_convert.py` (fp8, fp4, e8m0 in i8 registers, conversions) and `gpu_rounding.py` (directed
rounding, flush-to-zero) build scalar code.
Every other op is reported at the op as `not yet supported by the gpu stage: '<op>'` (naming
the cuda_tile op it came from when stage 2 renamed it), and the module is then left as it was.

The conversion walks each kernel in program order and builds the new body next to the old
one, so no op is half-converted; every op it creates gets the location of its source op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import (
    Float4E2M1FNType,
    FunctionType,
    IntAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation

from tile_lsp.compiler import cancel
from tile_lsp.compiler.lowering import gpu_control, gpu_memory, gpu_shape, gpu_testing
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.gpu_arith import ARITH_ELEMENTWISE, ELEMENTWISE, arith_constant, elementwise, same_op
from tile_lsp.compiler.lowering.gpu_control import early_return_body, has_early_exit, may_return
from tile_lsp.compiler.lowering.gpu_convert import F8Format, f8_format
from tile_lsp.compiler.lowering.gpu_core import (
    UNSUPPORTED,
    Dist,
    Failed,
    KernelConverter,
    Streamed,
    TensorView,
    TileView,
    Token,
    Unsupported,
    narrow_float,
    num_elements,
    slot_deltas,
    tensor_elem,
    unsupported_message,
)
from tile_lsp.compiler.lowering.gpu_globals import alloca, free_global_scratch, get_global, lower_global
from tile_lsp.compiler.lowering.gpu_mma import lower_dot, plan_mma
from tile_lsp.compiler.lowering.gpu_multimem import lower_multimem
from tile_lsp.compiler.lowering.gpu_reduce import lower_reduce, lower_scan
from tile_lsp.compiler.lowering.gpu_scaled import lower_dot_scaled
from tile_lsp.compiler.lowering.gpu_streamed import convert_huge
from tile_lsp.compiler.lowering.gpu_testing import store_results
from tile_lsp.compiler.lowering.gpu_views import concatenate, reinterpret_bytes
from tile_lsp.compiler.lowering.layout import DEFAULT_THREADS, Layout
from tile_lsp.compiler.mlir.dialects import gpu
from tile_lsp.compiler.mlir.dialects.nv_tileaa import MemTokenType, TensorViewType, TileViewType
from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

KERNEL_ATTR = "nv_tileaa.kernel"
MODULE_ATTRS = ("nv_tileaa.compute_capability", "nv_tileaa.target_spec", "nv_tileaa.libnvvm_use_nvgpucomp")
DEFAULT_MODULE_NAME = "kernels"


def _f8_in(op: Operation) -> F8Format | None:
    """The narrow float format (fp8, fp4, e8m0) of one of `op`'s operand or result tiles, if any."""
    return next((f for v in (*op.operands, *op.results) if (f := f8_format(v.type)) is not None), None)


# Ops that only move narrow-float codes or convert them (everything else would compute on the bytes).
_F8_OK = ("load_view", "store_view", "load", "store", "ftof", "ftoi", "itof", "dot", "dot_scaled", "bitcast",
          "reshape", "permute", "broadcast", "extract", "splat", "select", "for", "if", "loop", "yield", "continue",
          "break", "assume", "cat", "pack", "unpack", "print", "print_tko")
_F8_MOVES = ("arith.constant", "func.return")  # (a testing$func's results are stored as their codes)
# Ops that access memory through their tiles' element type: fp4 there is packed two per byte
# (NVIDIA's layout), which a register per element does not give.
_MEMORY_OPS = ("load_view", "store_view", "load", "store", "atomic_rmw", "atomic_cas", "atomic_red_view", "offset")


def _f4_in_memory(op: Operation) -> bool:
    """Whether `op` reads, writes or addresses fp4 elements of memory."""
    if op.name.removeprefix("nv_tileaa.") not in _MEMORY_OPS:
        return False
    elem = op.attributes.get("element_type")  # offset: the pointee type
    return isinstance(elem, Float4E2M1FNType) or any(
        isinstance(tensor_elem(v.type), Float4E2M1FNType) for v in (*op.operands, *op.results))


# ---------------------------------------------------------------------------------------------
# Entry point


MAX_THREADS = 512
SLOTS_TARGET = 16  # register slots per thread the block size aims for (per tile value)


def block_size(kernel: Operation, cc: int = 0) -> int:
    """Threads per CTA for a kernel: 128, doubled (up to 512) while its largest tile would need
    more than 16 register slots per thread. Per-thread code (and so compile time and register
    pressure) scales with the slots: gemm's 128x128 tiles take 512 threads, 32 slots each. A
    `dot` the mma.sync fast path takes at fewer threads but not at these keeps that many (the
    fast path needs each vector of C's layout in one 16-row block: attention's 128x64 -> 256)."""
    largest = 1
    dots: list[Operation] = []
    for op in walk_ops(kernel):
        if op.name == "nv_tileaa.dot":
            dots.append(op)
        for v in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            if isinstance(v.type, TensorType):
                largest = max(largest, num_elements(v.type.get_shape()))
    threads = DEFAULT_THREADS
    while threads < MAX_THREADS and largest > SLOTS_TARGET * threads:
        threads *= 2

    def loses_mma(t: int) -> bool:
        for d in dots:
            a, b, c = (v.type for v in d.operands[:3])
            if plan_mma(a, b, c, t, cc) is None and plan_mma(a, b, c, t // 2, cc) is not None:
                return True
        return False

    while threads > DEFAULT_THREADS and loses_mma(threads):
        threads //= 2
    return threads


def convert_tileaa_to_gpu(module: ModuleOp, lctx: LoweringContext, threads: int | None = None) -> bool:
    """Stage 3 on `module` in place: the `nv_tileaa.kernel` func.funcs of each builtin.module
    (the top one, or the one a `cuda_tile.module @name` became) become `gpu.func` kernels of one
    `gpu.module` in the top module, named like the module that held them (test functions too,
    with the ABI of gpu_testing.py; a module of globals only gets a gpu.module of its globals); `threads` per CTA, or
    per kernel `block_size(kernel)` when None. False after diagnostics; the module is then
    unchanged."""
    ok = True
    groups: dict[ModuleOp, list[tuple[func.FuncOp, gpu.FuncOp, list[Operation]]]] = {}
    module_globals: dict[ModuleOp, list[tuple[Operation, Operation]]] = {}  # (nv_tileaa.global, llvm global)
    for op in walk_ops(module):
        if op.name.startswith("nv_tileaa.") and not isinstance(op.parent_op(), func.FuncOp | ModuleOp):
            continue  # inside a kernel: the kernel's conversion reports it
        if op.name == "nv_tileaa.global" and isinstance(holder := op.parent_op(), ModuleOp):
            lowered = lower_global(lctx, op)
            ok = ok and lowered is not None
            if lowered is not None:
                module_globals.setdefault(holder, []).append((op, lowered))
            continue
        if op.name.startswith("nv_tileaa.") or (op.name.startswith("func.") and not isinstance(op, func.FuncOp)
                                                 and isinstance(op.parent_op(), ModuleOp)):
            if not isinstance(op.parent_op(), func.FuncOp):
                lctx.error(op, unsupported_message(lctx, op))
                ok = False
            continue
        if not isinstance(op, func.FuncOp):
            continue
        parent = op.parent_op()
        if not isinstance(parent, ModuleOp):  # (entries and testing$funcs are a module's)
            lctx.error(op, UNSUPPORTED.format(name="func.func") + " (a function that is not in a module)")
            ok = False
            continue
        target = lctx.options.target
        cv = _StageConverter(lctx, threads or block_size(op, target.cc if target is not None else 0))
        new = cv.convert(op)
        if new is None:
            ok = False
        else:
            groups.setdefault(parent, []).append((op, new, cv.globals))
    for holder in module_globals:
        groups.setdefault(holder, [])  # a module of globals only: a gpu.module of just them
    if not ok:
        return False
    for parent, kernels in groups.items():
        name = parent.sym_name.data if parent.sym_name is not None else DEFAULT_MODULE_NAME
        gmod = gpu.ModuleOp(name)
        gmod.location = parent.location
        for key in MODULE_ATTRS:
            value = _module_attr(parent, key)
            if value is not None:
                gmod.attributes[key] = value
        # The gpu.module goes into the top module (where the later stages look for it), in the
        # place of the module that held the kernels when that one is left empty.
        anchor: Operation = kernels[0][0] if kernels else module_globals[parent][0][0]
        while anchor.parent_op() is not module and anchor.parent_op() is not None:
            anchor = cast(Operation, anchor.parent_op())
        module.body.block.insert_op_before(gmod, anchor)
        for old_global, lowered in module_globals.get(parent, []):
            gmod.body.block.add_op(lowered)
            parent.body.block.erase_op(old_global)
        declared: set[str] = set()
        for _, _, buffers in kernels:
            for buffer in buffers:
                if isinstance(buffer, llvm.FuncOp):  # (malloc/free: declared once per module)
                    if buffer.sym_name.data in declared:
                        continue
                    declared.add(buffer.sym_name.data)
                gmod.body.block.add_op(buffer)
        for _, new, _ in kernels:
            gmod.body.block.add_op(new)
        for fn, _, _ in kernels:
            parent.body.block.erase_op(fn)
        while parent is not module and not list(parent.body.block.ops):
            outer = parent.parent_op()
            parent.detach()
            parent.erase()
            if not isinstance(outer, ModuleOp):
                break
            parent = outer
    module.attributes["gpu.container_module"] = UnitAttr()
    return True


def _module_attr(op: Operation | None, key: str) -> Attribute | None:
    """`key` on `op` or the nearest enclosing op that has it (stage 2 marks the top module)."""
    while op is not None:
        if key in op.attributes:
            return op.attributes[key]
        op = op.parent_op()
    return None


# ---------------------------------------------------------------------------------------------
# One kernel


class _StageConverter(KernelConverter):
    """One kernel's conversion: the core's state and building blocks (`gpu_core.py`) and the op
    dispatch (`_HANDLERS`, by op family)."""

    def kernel_return(self) -> None:
        """`gpu.return`, after freeing the CTA's global scratch (gpu_globals.py)."""
        if self.global_scratch:
            free_global_scratch(self)
        self.emit(gpu.ReturnOp())

    # -- kernel --------------------------------------------------------------------------------

    def convert(self, fn: func.FuncOp) -> gpu.FuncOp | None:
        ftype = fn.function_type
        testing = KERNEL_ATTR not in fn.attributes  # a testing$func: its own ABI (gpu_testing.py)
        params: list[Attribute] | None = list(ftype.inputs.data)
        if testing:
            params = gpu_testing.testing_signature(self, fn)
        for t in ftype.inputs.data if not testing else ():
            if isinstance(t, (TensorType, TensorViewType, TileViewType, MemTokenType)):
                self.lctx.error(fn, UNSUPPORTED.format(name="func.func") + f" (an entry argument of type {t})")
                return None
        if params is None:
            return None
        new = gpu.FuncOp(fn.sym_name.data, FunctionType.from_lists(params, []), kernel=True,
                         known_block_size=[self.threads, 1, 1])
        new.location = fn.location
        self.name = fn.sym_name.data
        self.entry = new.body.blocks[0]
        self.block = self.entry
        self.loc = fn.location
        old = fn.body.blocks[0]
        for a, b in zip(old.args, self.entry.args, strict=True) if not testing else ():
            self.values[a] = b
            if a.name_hint:
                b.name_hint = a.name_hint
        tid = self.v(gpu.ThreadIdOp("x", self.threads))
        tid32 = self.v(arith.IndexCastOp(tid, i32))
        tid32.name_hint = "tid"
        self.tid_anchor = tid32.owner  # type: ignore[assignment]
        self.tid_times[1] = tid32
        if testing:
            gpu_testing.bind_testing_arguments(self, fn, old)
        if any(o.name == "nv_tileaa.if" and has_early_exit(o) for o in old.ops):
            early_return_body(self, fn, old)
        else:
            self.convert_ops(old)
        if self.smem_bytes:
            glob = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(self.smem_bytes), IntegerType(8)), self.smem_name,
                                 "internal", addr_space=3, alignment=16)
            glob.location = fn.location
            self.globals.append(glob)
        return None if self.failed else new

    def convert_ops(self, block: Block) -> None:
        fn = block.parent_op()
        if isinstance(fn, func.FuncOp) and any(may_return(o) for o in block.ops):
            early_return_body(self, fn, block)  # a loop that may return: what follows it is guarded
            return
        for op in block.ops:
            cancel.checkpoint()
            self.convert_one(op)

    def convert_one(self, op: Operation) -> None:
        """Convert `op`; an op this slice cannot lower is reported and its results marked failed
        (ops using them are skipped quietly: one diagnostic per cause)."""
        if any(isinstance(self.values.get(x), Failed) for x in op.operands):
            self.fail(op)
            return
        self.loc = op.location
        try:
            narrow = next((n for v in (*op.operands, *op.results) if (n := narrow_float(v.type))), None)
            if narrow is not None:
                raise Unsupported(op, f"{narrow} values")
            if _huge_operand(self, op) is not None or any(self.too_large(v.type) for v in op.results):
                convert_huge(self, op)  # a copy or a dead load, else reported
                return
            f8 = _f8_in(op)
            if f8 is not None and op.name.removeprefix("nv_tileaa.") not in _F8_OK and op.name not in _F8_MOVES:
                raise Unsupported(op, f"arithmetic on {f8.label} values: convert them with ftof first")
            if _f4_in_memory(op):
                raise Unsupported(op, "f4E2M1FN in memory (packed two per byte)")
            self.convert_op(op)
            self.note_layout(op)
        except Unsupported as exc:
            self.lctx.error(exc.op, unsupported_message(self.lctx, exc.op, exc.detail))
            self.fail(op)
        except Exception as exc:  # a bug of this stage: a diagnostic at the op, never a crash
            self.lctx.error(op, f"internal error in the gpu stage at '{op.name}': {type(exc).__name__}: {exc}")
            self.fail(op)

    def note_layout(self, op: Operation) -> None:
        """Record the layout of `op`'s first distributed result at its source op (hover)."""
        for res in op.results:
            value = self.values.get(res)
            if isinstance(value, Dist):
                self.lctx.note_layout(op, value.layout.describe(value.shape))
                return

    def fail(self, op: Operation) -> None:
        self.failed = True
        for res in op.results:
            self.values[res] = Failed()

    def convert_op(self, op: Operation) -> None:
        name = op.name
        if name.startswith("nv_tileaa."):
            mnemonic = name.removeprefix("nv_tileaa.")
            handler = _HANDLERS.get(mnemonic)
            if handler is None:
                if mnemonic in ELEMENTWISE:
                    elementwise(self, op, ELEMENTWISE[mnemonic])
                    return
                raise Unsupported(op)
            handler(self, op)
            return
        if name == "arith.constant":
            arith_constant(self, cast(arith.ConstantOp, op))
            return
        if name in ARITH_ELEMENTWISE:
            elementwise(self, op, same_op(name))
            return
        if name == "func.return":
            if op.operands:
                store_results(self, op)  # a testing$func's results (an entry has none)
                return
            self.kernel_return()
            return
        raise Unsupported(op)


def _huge_operand(cv: _StageConverter, op: Operation) -> Streamed | None:
    return next((got for x in op.operands if isinstance(got := cv.values.get(x), Streamed)), None)


# The op dispatch: nv_tileaa mnemonic -> its handler, by op family (element-wise ops are
# `gpu_arith.ELEMENTWISE`'s).
_HANDLERS: dict[str, Callable[[KernelConverter, Operation], None]] = {
    **gpu_shape.HANDLERS,
    **gpu_memory.HANDLERS,
    **gpu_control.HANDLERS,
    "reduce": lower_reduce,
    "scan": lower_scan,
    "dot": lower_dot,
    "dot_scaled": lower_dot_scaled,
    "multimem_load_reduce_view": lower_multimem,
    "multimem_reduce_view": lower_multimem,
    "multimem_store_view": lower_multimem,
    "get_global": get_global,
    "alloca": alloca,
    "pack": reinterpret_bytes,
    "unpack": reinterpret_bytes,
    "cat": concatenate,
}


__all__ = ["UNSUPPORTED", "Dist", "Layout", "Streamed", "TensorView", "TileView", "Token", "block_size",
           "convert_tileaa_to_gpu", "slot_deltas"]
