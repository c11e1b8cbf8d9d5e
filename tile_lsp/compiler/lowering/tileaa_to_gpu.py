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
token comes from a store), return. The conversion state and the helpers every op family
shares are `gpu_core.py`'s (`KernelConverter`). Modules of their own: `gpu_convert.py` (fp8, fp4, e8m0 in
i8 registers, conversions), `gpu_scaled.py` (mmaf_scaled), `gpu_views.py` (gather/scatter views,
pack/unpack), `gpu_globals.py` (globals), `gpu_rounding.py` (directed rounding, flush-to-zero).
Every other op is reported at the op as `not yet supported by the gpu stage: '<op>'` (naming
the cuda_tile op it came from when stage 2 renamed it), and the module is then left as it was.

The conversion walks each kernel in program order and builds the new body next to the old
one, so no op is half-converted; every op it creates gets the location of its source op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, cf, func, llvm, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float4E2M1FNType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FloatTF32Type,
    FunctionType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    TypeAttribute,
    UnitAttr,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.llvm import GEP_USE_SSA_VAL, LLVMPointerType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler import cancel
from tile_lsp.compiler.dialects.cuda_tile.floats import float_format
from tile_lsp.compiler.dialects.cuda_tile.ops_conversion import is_widening_float
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.gpu_convert import F8Format, convert_f8, f8_format
from tile_lsp.compiler.lowering.gpu_core import (
    UNSUPPORTED,
    Dist,
    Failed,
    KernelConverter,
    Streamed,
    TensorView,
    ThreadBase,
    TileView,
    Token,
    Unsupported,
    Value,
    and_guards,
    atomic_params,
    bit_width,
    cast_value,
    check_ordering,
    create_op,
    fence_after,
    fence_before,
    get_attr,
    guarded_load,
    guarded_store,
    guarded_value,
    is_unsigned,
    narrow_float,
    num_elements,
    order_by_token,
    padding_value,
    scalar_type,
    slot_deltas,
    split_operands,
    str_attr,
    target_sm,
    tensor_elem,
    tile_origin,
    unsupported_message,
    view_access,
    view_operands,
    zero_value,
)
from tile_lsp.compiler.lowering.gpu_rounding import needs_ptx, ptx_float_op
from tile_lsp.compiler.lowering.layout import DEFAULT_THREADS, Layout
from tile_lsp.compiler.lowering.types import llvm_ptr
from tile_lsp.compiler.mlir.dialects import gpu, llvm_memory, nvvm
from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp
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
    from tile_lsp.compiler.lowering.gpu_mma import plan_mma

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
            from tile_lsp.compiler.lowering.gpu_globals import lower_global

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
    dispatch (`_HANDLERS`)."""

    def kernel_return(self) -> None:
        """`gpu.return`, after freeing the CTA's global scratch (gpu_globals.py)."""
        if self.global_scratch:
            from tile_lsp.compiler.lowering.gpu_globals import free_global_scratch

            free_global_scratch(self)
        self.emit(gpu.ReturnOp())

    # -- kernel --------------------------------------------------------------------------------

    def convert(self, fn: func.FuncOp) -> gpu.FuncOp | None:
        from tile_lsp.compiler.lowering import gpu_testing

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
                from tile_lsp.compiler.lowering.gpu_streamed import convert_huge

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
                    self.elementwise(op, ELEMENTWISE[mnemonic])
                    return
                raise Unsupported(op)
            handler(self, op)
            return
        if name == "arith.constant":
            self.arith_constant(cast(arith.ConstantOp, op))
            return
        if name in ARITH_ELEMENTWISE:
            self.elementwise(op, same_op(name))
            return
        if name == "func.return":
            if op.operands:
                from tile_lsp.compiler.lowering.gpu_testing import store_results

                store_results(self, op)  # a testing$func's results (an entry has none)
                return
            self.kernel_return()
            return
        raise Unsupported(op)

    # -- simple ops ----------------------------------------------------------------------------

    def arith_constant(self, op: arith.ConstantOp) -> None:
        value = op.value
        t = op.result.type
        if isinstance(t, TensorType):
            if not isinstance(value, DenseIntOrFPElementsAttr):
                raise Unsupported(op)
            data = value.get_values()
            if len(set(data)) != 1:
                self.values[op.result] = self.dense_constant(value, t)
                return
            scalar = self.const(data[0], t.element_type)
            layout = self.layout_of(t)
            assert layout is not None
            self.values[op.result] = self.tile(t, [scalar] * layout.slots)
            return
        if isinstance(value, FloatAttr) and scalar_type(t) != t:
            self.values[op.result] = self.const(value.value.data, t)
            return
        self.values[op.result] = self.v(arith.ConstantOp(value, t))  # type: ignore[arg-type]

    def dense_constant(self, value: DenseIntOrFPElementsAttr, t: TensorType) -> Value:
        """A tile of distinct constants: a constant global of the module, each thread loading
        the elements it holds (ghost slots read element 0)."""
        elem = scalar_type(t)
        n = num_elements(t.get_shape())
        name = f"__tile_const_{self.name}_{self.constants}"
        self.constants += 1
        fmt = float_format(t.element_type)
        if fmt is not None and f8_format(t) is not None:  # narrow floats: their codes, as i8 bytes
            codes = [fmt.encode(float(x)) for x in value.get_values()]  # type: ignore[arg-type]
            value = DenseIntOrFPElementsAttr.from_list(TensorType(i8, [n]), [c - 256 if c > 127 else c for c in codes])
        glob = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(n), elem), name, "internal", addr_space=1, constant=True,
                             value=value, alignment=16)
        glob.location = self.loc or glob.location
        self.globals.append(glob)
        base = self.v(llvm.AddressOfOp(name, llvm_ptr(1)))
        layout = self.layout_of(t)
        assert layout is not None
        slots = []
        for r in range(layout.slots):
            e = self.element_index(layout, r)
            guard = self.not_ghost(layout, e)
            if guard is not None:
                e = self.v(arith.SelectOp(guard, e, self.i32c(0)))
            slots.append(self.read_shared(base, e, elem))
        return self.tile(t, slots)

    def elementwise(self, op: Operation, build: Callable[[KernelConverter, Operation, list[SSAValue], Attribute], SSAValue]) -> None:
        """Per register slot: the scalar op on each operand's slot value."""
        result = op.results[0]
        rtype = result.type
        layout = self.layout_of(rtype)
        if layout is None:
            operands = [self.scalar(op, x) for x in op.operands]
            self.values[result] = build(self, op, operands, rtype)
            return
        assert isinstance(rtype, TensorType)
        per_operand = [self.slots(op, x, layout) for x in op.operands]
        slots = [build(self, op, [ops[r] for ops in per_operand], scalar_type(rtype)) for r in range(layout.slots)]
        self.values[result] = self.tile(rtype, slots)


# ---------------------------------------------------------------------------------------------
# Element-wise builders: (converter, source op, scalar operands, scalar result type) -> value

Builder = Callable[[KernelConverter, Operation, list[SSAValue], Attribute], SSAValue]


def _fastmath(op: Operation) -> arith.FastMathFlagsAttr | None:
    fm = op.attributes.get("fastmath")
    return fm if isinstance(fm, arith.FastMathFlagsAttr) else None


def _op(name: str, *, signed: str | None = None, float_op: bool = False) -> Builder:
    """`name` (or `signed` when the op's signedness is signed) with the operands as they are."""

    def build(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
        chosen = signed if signed is not None and not is_unsigned(op) else name
        props: dict[str, Attribute] = {}
        if float_op and (fm := _fastmath(op)) is not None:
            props["fastmath"] = fm
        mode, ftz = str_attr(op, "rounding_mode"), get_attr(op, "flush_to_zero") is not None
        if float_op and needs_ptx(mode, ftz):  # what arith cannot say: one PTX instruction
            try:
                return ptx_float_op(cv.v, _PTX_FLOAT_OPS.get(chosen, chosen), args, t, mode, ftz)
            except ValueError as exc:
                raise Unsupported(op, str(exc)) from None
        _check_rounding(op)
        return cv.v(create_op(chosen, args, t, props))

    return build


_PTX_FLOAT_OPS = {"arith.addf": "add", "arith.subf": "sub", "arith.mulf": "mul", "arith.divf": "div",
                  "math.fma": "fma", "math.sqrt": "sqrt", "math.exp2": "ex2", "math.rsqrt": "rsqrt"}


def same_op(name: str) -> Builder:
    def build(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
        return cv.v(create_op(name, args, t, dict(op.properties)))

    return build


_ROUNDINGS_OK = ("", "nearest_even", "approx", "full")


def _check_rounding(op: Operation) -> None:
    mode = str_attr(op, "rounding_mode")
    if mode not in _ROUNDINGS_OK:
        raise Unsupported(op, f"rounding mode '{mode}'")


def _fpowi(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    """`math.fpowi` (libdevice `__nv_powif`/`__nv_powi`) with the exponent sign-extended to i32."""
    base, n = args
    if n.type != i32:
        n = cast_value(cv, "arith.extsi", n, i32)
    return cv.v(create_op("math.fpowi", [base, n], t))

def _negi(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cv.v(arith.SubiOp(cv.const(0, t), args[0]))


def _absi(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cv.v(create_op("math.absi", args, t))


def _mulhii(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    """High half of the double-width product, unsigned (tileiras lowers mulhii to mulhiui)."""
    assert isinstance(t, IntegerType)
    width = t.width.data
    wide_t = IntegerType(2 * width)
    a, b = (cast_value(cv, "arith.extui", x, wide_t) for x in args)
    wide = cv.v(arith.ShRUIOp(cv.v(arith.MuliOp(a, b)), cv.const(width, wide_t)))
    return cast_value(cv, "arith.trunci", wide, t)


def _negf(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cv.v(arith.NegfOp(args[0]))


def _maxmin_f(kind: str) -> Builder:
    def build(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
        nan = get_attr(op, "propagate_nan")
        if get_attr(op, "flush_to_zero") is not None:
            try:
                return ptx_float_op(cv.v, kind, args, t, "", True, propagate_nan=nan is not None)
            except ValueError as exc:
                raise Unsupported(op, str(exc)) from None
        name = f"arith.{kind}imumf" if nan is not None else f"arith.{kind}numf"
        fm = _fastmath(op)
        return cv.v(create_op(name, args, t, {"fastmath": fm} if fm is not None else None))

    return build


def _divi(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    """Integer division; rounding toward -inf / +inf from the truncated quotient."""
    rounding = str_attr(op, "rounding", "zero")
    a, b = args
    if is_unsigned(op):
        q = cv.v(arith.DivUIOp(a, b))
        if rounding == "positive_inf":
            r = cv.v(arith.RemUIOp(a, b))
            nz = cv.v(arith.CmpiOp(r, cv.const(0, t), "ne"))
            return cv.v(arith.AddiOp(q, cast_value(cv, "arith.extui", nz, t) if t != i1 else nz))
        return q
    q = cv.v(arith.DivSIOp(a, b))
    if rounding == "zero":
        return q
    r = cv.v(arith.RemSIOp(a, b))
    zero = cv.const(0, t)
    nz = cv.v(arith.CmpiOp(r, zero, "ne"))
    signs_differ = cv.v(arith.XOrIOp(cv.v(arith.CmpiOp(r, zero, "slt")), cv.v(arith.CmpiOp(b, zero, "slt"))))
    if rounding == "negative_inf":
        fix = cv.v(arith.AndIOp(nz, signs_differ))
        return cv.v(arith.SubiOp(q, cast_value(cv, "arith.extui", fix, t) if t != i1 else fix))
    if rounding == "positive_inf":
        same = cv.v(arith.XOrIOp(signs_differ, cv.const(1, i1)))
        fix = cv.v(arith.AndIOp(nz, same))
        return cv.v(arith.AddiOp(q, cast_value(cv, "arith.extui", fix, t) if t != i1 else fix))
    raise Unsupported(op, f"rounding '{rounding}'")


_CMPI = {"equal": ("eq", "eq"), "not_equal": ("ne", "ne"), "less_than": ("slt", "ult"),
         "less_than_or_equal": ("sle", "ule"), "greater_than": ("sgt", "ugt"),
         "greater_than_or_equal": ("sge", "uge")}
_CMPF = {"equal": "eq", "not_equal": "ne", "less_than": "lt", "less_than_or_equal": "le",
         "greater_than": "gt", "greater_than_or_equal": "ge"}


def _cmpi(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    pred = _CMPI.get(str_attr(op, "comparison_predicate"))
    if pred is None:
        raise Unsupported(op, f"predicate '{str_attr(op, 'comparison_predicate')}'")
    return cv.v(arith.CmpiOp(args[0], args[1], pred[1] if is_unsigned(op) else pred[0]))


def _cmpf(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    pred = _CMPF.get(str_attr(op, "comparison_predicate"))
    if pred is None:
        raise Unsupported(op, f"predicate '{str_attr(op, 'comparison_predicate')}'")
    ordered = str_attr(op, "comparison_ordering", "ordered") != "unordered"
    return cv.v(arith.CmpfOp(args[0], args[1], ("o" if ordered else "u") + pred))


def _select(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cv.v(arith.SelectOp(args[0], args[1], args[2]))


_CVT_MODES = {"zero": "rz", "negative_inf": "rm", "positive_inf": "rp"}


def _is_widening(op: Operation) -> bool:
    src, dst = (tensor_elem(v.type) for v in (op.operands[0], op.results[0]))
    try:
        return is_widening_float(src, dst)
    except AssertionError:  # not a cuda_tile float type
        return False


def _ptx_cvt(cv: KernelConverter, op: Operation, x: SSAValue, t: Attribute, mode: str) -> SSAValue:
    """`cvt.rz/.rm/.rp` of f32/f64 `x` to f16, bf16 or f32 (inline PTX; bf16 from f64 needs sm_90)."""
    out_t: Attribute
    if isinstance(t, Float32Type) and isinstance(x.type, Float64Type):
        dst, out_reg, out_t = "f32", "=f", t
    elif isinstance(t, (Float16Type, BFloat16Type)) and isinstance(x.type, (Float32Type, Float64Type)):
        dst, out_reg, out_t = ("f16" if isinstance(t, Float16Type) else "bf16"), "=h", IntegerType(16)
        if dst == "bf16" and isinstance(x.type, Float64Type) and target_sm(cv) < 90:
            x = _ptx_cvt(cv, op, x, Float32Type(), mode)  # toward zero twice is toward zero once
    else:
        raise Unsupported(op, f"rounding mode '{mode}' from {x.type} to {t}")
    src, in_reg = ("f64", "d") if isinstance(x.type, Float64Type) else ("f32", "f")
    r = cv.v(InlineAsmOp(f"cvt.{_CVT_MODES[mode]}.{dst}.{src} $0, $1;", f"{out_reg},{in_reg}", [x], [out_t]))
    return r if out_t == t else cv.v(arith.BitcastOp(r, t))


def _directed_ftof(cv: KernelConverter, op: Operation, x: SSAValue, t: Attribute, mode: str) -> SSAValue:
    """A narrowing ftof to a standard type in `zero`/`negative_inf`/`positive_inf`/`nearest_away`
    (the modes NVIDIA's verifier lets through: to f16/bf16 and from f64 to tf32 only `zero`)."""
    src_f8 = f8_format(op.operands[0].type)
    if src_f8 is not None:  # e8m0 -> f16/bf16/f32/tf32: its f32 value is exact
        x = convert_f8(cv.v, x, Float32Type(), src_f8, None, target_sm(cv))
    if isinstance(x.type, (Float16Type, BFloat16Type)):  # f16 <-> bf16: through f32 (exact)
        x = cast_value(cv, "arith.extf", x, Float32Type())
    to_tf32 = isinstance(tensor_elem(op.results[0].type), FloatTF32Type)
    if not to_tf32:
        if x.type == t:  # e8m0 -> f32 (exact)
            return x
        return _ptx_cvt(cv, op, x, t, mode)
    if isinstance(x.type, Float64Type):
        if mode != "zero":
            raise Unsupported(op, f"rounding mode '{mode}' from f64 to tf32")
        x = _ptx_cvt(cv, op, x, Float32Type(), mode)
    if mode not in ("zero", "nearest_away"):
        raise Unsupported(op, f"rounding mode '{mode}' to tf32")
    # tf32 keeps 10 of f32's 23 mantissa bits: toward zero clears the rest; nearest, ties away
    # adds half an ulp first (PTX cvt.rna.tf32.f32). Inf and NaN stay as they are.
    bits = cv.v(arith.BitcastOp(x, i32))
    up = cv.v(arith.AddiOp(bits, cv.i32c(0x1000))) if mode == "nearest_away" else bits
    rounded = cv.v(arith.AndIOp(up, cv.i32c(0xFFFFE000)))
    exponent = cv.v(arith.AndIOp(bits, cv.i32c(0x7F800000)))
    special = cv.v(arith.CmpiOp(exponent, cv.i32c(0x7F800000), "eq"))
    return cv.v(arith.BitcastOp(cv.v(arith.SelectOp(special, bits, rounded)), Float32Type()))


def _ftof(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    src_f8, dst_f8 = f8_format(op.operands[0].type), f8_format(op.results[0].type)
    mode = str_attr(op, "rounding_mode", "nearest_even") or "nearest_even"
    if mode in ("zero", "negative_inf", "positive_inf", "nearest_away") and dst_f8 is None:
        if not _is_widening(op):
            return _directed_ftof(cv, op, args[0], t, mode)
        mode = "nearest_even"  # a widening conversion is exact in every mode
    if src_f8 is not None or dst_f8 is not None:  # (to e8m0 only rounding down or up)
        try:
            return convert_f8(cv.v, args[0], tensor_elem(op.results[0].type), src_f8, dst_f8, target_sm(cv),
                              str_attr(op, "rounding_mode", "nearest_even") if dst_f8 is not None else "nearest_even")
        except ValueError as exc:
            raise Unsupported(op, str(exc)) from None
    if mode != "nearest_even":
        _check_rounding(op)
    src = args[0].type
    if isinstance(op.results[0].type, FloatTF32Type) or isinstance(tensor_elem(op.results[0].type), FloatTF32Type):
        if src != Float32Type():
            raise Unsupported(op, f"{src} to tf32")
        # ftof rounds to nearest even (the only mode it takes) at tf32's 10 mantissa bits: add
        # half an ulp less one plus the lowest kept bit, clear the rest; Inf and NaN stay as they are.
        bits = cv.v(arith.BitcastOp(args[0], i32))
        odd = cv.v(arith.AndIOp(cv.v(arith.ShRUIOp(bits, cv.i32c(13))), cv.i32c(1)))
        half = cv.v(arith.AddiOp(cv.i32c(0xFFF), odd))
        rounded = cv.v(arith.AndIOp(cv.v(arith.AddiOp(bits, half)), cv.i32c(0xFFFFE000)))
        exponent = cv.v(arith.AndIOp(bits, cv.i32c(0x7F800000)))
        special = cv.v(arith.CmpiOp(exponent, cv.i32c(0x7F800000), "eq"))
        return cv.v(arith.BitcastOp(cv.v(arith.SelectOp(special, bits, rounded)), Float32Type()))
    if src == t:
        return args[0]
    if bit_width(t) == bit_width(src) and isinstance(src, AnyFloat) and isinstance(t, AnyFloat):
        wide = cast_value(cv, "arith.extf", args[0], Float32Type())  # f16 <-> bf16 through f32
        return cast_value(cv, "arith.truncf", wide, t)
    if bit_width(t) > bit_width(src):
        return cv.v(arith.ExtFOp(args[0], t))
    if bit_width(t) < bit_width(src):
        return cv.v(arith.TruncFOp(args[0], t))
    raise Unsupported(op, f"{src} to {t}")


def _exti(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    if args[0].type == i1 or is_unsigned(op):
        return cast_value(cv, "arith.extui", args[0], t)
    return cast_value(cv, "arith.extsi", args[0], t)


def _trunci(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cast_value(cv, "arith.trunci", args[0], t)


def _ftoi(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    mode = str_attr(op, "rounding_mode")
    if mode not in ("", "zero", "nearest_int_to_zero"):  # fptosi/fptoui truncate
        raise Unsupported(op, f"rounding mode '{mode}'")
    x = args[0]
    if (fmt := f8_format(op.operands[0].type)) is not None:  # fp8: its f32 value (exact)
        x = convert_f8(cv.v, x, Float32Type(), fmt, None, target_sm(cv))
    if "saturating" not in op.properties and "saturating" not in op.attributes:
        return cast_value(cv, "arith.fptoui" if is_unsigned(op) else "arith.fptosi", x, t)
    return _saturating_ftoi(cv, x, t, is_unsigned(op))


def _saturating_ftoi(cv: KernelConverter, x: SSAValue, t: Attribute, unsigned: bool) -> SSAValue:
    """ftoi `saturating`: toward zero, a value past the integer's range is its largest or smallest
    value, NaN is 0. fptosi/fptoui only see in-range values (LLVM: poison past them; PTX's cvt.rzi
    to s8/u8 goes through 16 bits and would wrap)."""
    if isinstance(x.type, (Float16Type, BFloat16Type)):
        x = cast_value(cv, "arith.extf", x, Float32Type())  # exact; the bounds below are then representable
    w = bit_width(t)
    lo_value, hi_value = (0, (1 << w) - 1) if unsigned else (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    big = cv.v(arith.CmpfOp(x, cv.const(float(hi_value + 1), x.type), "oge"))  # 2^w or 2^(w-1): exact
    small = cv.v(arith.CmpfOp(x, cv.const(0.0 if unsigned else float(lo_value), x.type), "olt"))
    nan = cv.v(arith.CmpfOp(x, x, "uno"))
    out = cv.v(arith.OrIOp(cv.v(arith.OrIOp(big, small)), nan))
    safe = cv.v(arith.SelectOp(out, cv.const(0.0, x.type), x))
    r = cast_value(cv, "arith.fptoui" if unsigned else "arith.fptosi", safe, t)
    r = cv.v(arith.SelectOp(big, cv.const(hi_value, t), r))
    r = cv.v(arith.SelectOp(small, cv.const(lo_value, t), r))
    return cv.v(arith.SelectOp(nan, cv.const(0, t), r))


def _itof(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    _check_rounding(op)
    unsigned = is_unsigned(op) or args[0].type == i1
    if (fmt := f8_format(op.results[0].type)) is not None:  # fp8: through f32
        wide = cast_value(cv, "arith.uitofp" if unsigned else "arith.sitofp", args[0], Float32Type())
        return convert_f8(cv.v, wide, t, None, fmt, target_sm(cv))
    return cast_value(cv, "arith.uitofp" if unsigned else "arith.sitofp", args[0], t)


def _bitcast(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    if isinstance(t, LLVMPointerType) or isinstance(args[0].type, LLVMPointerType):
        raise Unsupported(op, "pointer bitcast")
    if bit_width(t) < bit_width(args[0].type):  # fp4 (its code in an i8) -> i4
        return cast_value(cv, "arith.trunci", args[0], t)
    if bit_width(t) > bit_width(args[0].type):  # i4 -> fp4's code byte
        return cast_value(cv, "arith.extui", args[0], t)
    return cv.v(arith.BitcastOp(args[0], t))


def _ptr_to_int(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cv.v(create_op("llvm.ptrtoint", args, t))


def _int_to_ptr(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return cv.v(create_op("llvm.inttoptr", args, t))


def _ptr_to_ptr(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    return args[0]


def _offset(cv: KernelConverter, op: Operation, args: list[SSAValue], t: Attribute) -> SSAValue:
    elem = op.attributes.get("element_type")
    if not isinstance(elem, TypeAttribute):
        raise Unsupported(op, "unknown pointee type")
    off = cv.to_i64(args[1])
    return cv.v(llvm_memory.GEPOp(args[0], [GEP_USE_SSA_VAL], scalar_type(elem), ssa_indices=[off]))


ELEMENTWISE: dict[str, Builder] = {
    "addi": _op("arith.addi"), "subi": _op("arith.subi"), "muli": _op("arith.muli"),
    "andi": _op("arith.andi"), "ori": _op("arith.ori"), "xori": _op("arith.xori"),
    "shli": _op("arith.shli"), "shri": _op("arith.shrui", signed="arith.shrsi"),
    "remi": _op("arith.remui", signed="arith.remsi"), "mini": _op("arith.minui", signed="arith.minsi"),
    "divi": _divi, "negi": _negi, "absi": _absi, "mulhii": _mulhii,
    "addf": _op("arith.addf", float_op=True), "subf": _op("arith.subf", float_op=True),
    "mulf": _op("arith.mulf", float_op=True), "divf": _op("arith.divf", float_op=True),
    "remf": _op("arith.remf", float_op=True), "negf": _negf, "absf": _op("math.absf", float_op=True),
    "maxf": _maxmin_f("max"), "minf": _maxmin_f("min"), "fma": _op("math.fma", float_op=True),
    "cmpi": _cmpi, "cmpf": _cmpf, "select": _select,
    **{m: _op(f"math.{m}", float_op=True) for m in (
        "ceil", "floor", "cos", "cosh", "sin", "sinh", "tan", "tanh", "exp", "exp2", "log", "log2",
        "sqrt", "rsqrt", "atan2")},
    "pow": _op("math.powf", float_op=True),
    "fpowi": _fpowi,
    "ftof": _ftof, "exti": _exti, "trunci": _trunci, "ftoi": _ftoi, "itof": _itof, "bitcast": _bitcast,
    "ptr_to_int": _ptr_to_int, "int_to_ptr": _int_to_ptr, "ptr_to_ptr": _ptr_to_ptr, "offset": _offset,
}
# arith ops stage 2 leaves in place (seed 003's singleton adders), on tiles or scalars.
ARITH_ELEMENTWISE = ("arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui")


# ---------------------------------------------------------------------------------------------
# Ops with their own shape


def _passthrough(cv: KernelConverter, op: Operation) -> None:
    """assume (the predicate is a hint only), reshape (row-major: the layout depends only on the
    element count), ptr_to_ptr."""
    src = cv.get(op.operands[0])
    if isinstance(src, Dist):
        t = op.results[0].type
        assert isinstance(t, TensorType)
        src = Dist(src.layout, tuple(t.get_shape()), src.slots)
    cv.values[op.results[0]] = src


def _splat(cv: KernelConverter, op: Operation) -> None:
    scalar = cv.scalar(op, op.operands[0])
    t = op.results[0].type
    layout = cv.layout_of(t)
    cv.values[op.results[0]] = cv.tile(t, [scalar] * (layout.slots if layout else 1))


def _broadcast(cv: KernelConverter, op: Operation) -> None:
    """One element: a splat in every thread; else a shared-memory exchange in which size-1
    source dimensions read coordinate 0."""
    src = cv.get(op.operands[0])
    t = op.results[0].type
    layout = cv.layout_of(t)
    if isinstance(src, SSAValue):
        cv.values[op.results[0]] = cv.tile(t, [src] * (layout.slots if layout else 1))
        return
    src_t = op.operands[0].type
    assert isinstance(src_t, TensorType)
    src_shape = src_t.get_shape()
    zero = cv.i32c(0)
    cv.values[op.results[0]] = cv.gather(
        op, op.operands[0], t, lambda c: [x if d != 1 else zero for x, d in zip(c, src_shape, strict=True)])


def _permute(cv: KernelConverter, op: Operation) -> None:
    """Result dimension i is source dimension perm[i]."""
    perm_attr = get_attr(op, "permutation")
    if not isinstance(perm_attr, DenseArrayBase):
        raise Unsupported(op, "no permutation")
    perm = [int(x) for x in perm_attr.get_values()]

    def source(c: list[SSAValue]) -> list[SSAValue]:
        out = list(c)
        for i, p in enumerate(perm):
            out[p] = c[i]
        return out

    if isinstance(cv.get(op.operands[0]), SSAValue):
        _passthrough(cv, op)
        return
    cv.values[op.results[0]] = cv.gather(op, op.operands[0], op.results[0].type, source)


def _extract(cv: KernelConverter, op: Operation) -> None:
    """The result-shaped piece at block index `indices`: source coordinate = index * extent + c."""
    src, *indices = op.operands
    t = op.results[0].type
    dst_shape = t.get_shape() if isinstance(t, TensorType) else ()
    idx = [cv.scalar(op, x) for x in indices]
    if len(idx) != len(dst_shape):
        raise Unsupported(op, "index rank")
    if isinstance(cv.get(src), SSAValue):
        cv.values[op.results[0]] = cv.get(src)
        return

    def source(c: list[SSAValue]) -> list[SSAValue]:
        return [cv.v(arith.AddiOp(cv.v(arith.MuliOp(i, cv.i32c(d))), x)) for i, d, x in zip(idx, dst_shape, c, strict=True)]

    if not dst_shape or num_elements(dst_shape) == 1:
        zero = cv.i32c(0)
        cv.values[op.results[0]] = cv.gather(op, src, t, lambda c: source([zero] * len(dst_shape)))
        return
    cv.values[op.results[0]] = cv.gather(op, src, t, source)


def _insert(cv: KernelConverter, op: Operation) -> None:
    """`destination` with its block at `indices` (source-shaped pieces) replaced by `source`:
    the source goes through shared memory; each thread keeps its destination element unless its
    coordinates c fall in the block, where it reads source element c - index * extent."""
    src, dst, *indices = op.operands
    t = op.results[0].type
    shape = t.get_shape() if isinstance(t, TensorType) else ()
    st = src.type
    sshape = st.get_shape() if isinstance(st, TensorType) else ()
    idx = [cv.scalar(op, x) for x in indices]
    if len(idx) != len(shape) or len(sshape) != len(shape):
        raise Unsupported(op, "index rank")
    if tuple(sshape) == tuple(shape):  # one block: the source is the result
        cv.values[op.results[0]] = cv.get(src)
        return
    layout = cv.layout_of(t)
    assert layout is not None
    keep = cv.slots(op, dst, layout) if not layout.uniform else [cv.scalar(op, dst)]
    elem = scalar_type(t)
    base = cv.share(op, src)
    cv.exchange_barrier()
    starts = [cv.v(arith.MuliOp(i, cv.i32c(n))) for i, n in zip(idx, sshape, strict=True)]
    slots = []
    for r in range(len(keep)):
        coords = cv.dst_coords(layout, r, shape)
        local = [cv.v(arith.SubiOp(c, s0)) for c, s0 in zip(coords, starts, strict=True)]
        inside: SSAValue | None = None
        for x, n in zip(local, sshape, strict=True):
            ok = cv.v(arith.CmpiOp(x, cv.i32c(n), "ult"))  # 0 <= x < n (negative wraps high)
            inside = ok if inside is None else cv.v(arith.AndIOp(inside, ok))
        assert inside is not None
        at = cv.v(arith.SelectOp(inside, cv.linear(local, sshape), cv.i32c(0)))
        slots.append(cv.v(arith.SelectOp(inside, cv.read_shared(base, at, elem), keep[r])))
    cv.finish_exchange()
    cv.values[op.results[0]] = cv.tile(t, slots)


def _grid_dependency(action: str) -> Callable[[KernelConverter, Operation], None]:
    """griddepcontrol.wait / .launch_dependents (sm_90+); below sm_90 there is no dependent
    launch to wait for or release, so nothing is emitted and the op says so."""

    def lower(cv: KernelConverter, op: Operation) -> None:
        sm = target_sm(cv)
        if sm >= 90:
            cv.emit(nvvm.GridDepControlOp.create(properties={"kind": nvvm.GridDepActionAttr(nvvm.GridDepAction(action))}))
        else:
            cv.lctx.warning(op, f"griddepcontrol.{action} needs sm_90 or newer; on sm_{sm} this op does nothing")
        cv.values[op.results[0]] = _token_through(cv, op)

    return lower


def _token_through(cv: KernelConverter, op: Operation) -> Token:
    """The result token of an ordering-only op: after a write when its operand token was."""
    got = cv.get(op.operands[0]) if op.operands else None
    return Token(isinstance(got, Token) and got.after_write)


def _fence_alias(cv: KernelConverter, op: Operation) -> None:
    cv.emit(nvvm.FenceProxyOp(nvvm.ProxyKind.ALIAS))
    cv.values[op.results[0]] = _token_through(cv, op)


def lower_dot(cv: KernelConverter, op: Operation) -> None:
    """`a (MxK) * b (KxN) + c (MxN)` (optionally with a leading batch dimension), baseline:
    a and b go through shared memory; each thread accumulates its elements of c over K in the
    accumulator type (inputs converted to it first). f16/bf16/tf32 and fp8 on sm_80+ take the
    mma.sync fast path (`gpu_mma.py`) when its shapes allow."""
    from tile_lsp.compiler.lowering.gpu_mma import lower_dot_mma

    if lower_dot_mma(cv, op):
        return
    a, b, c = op.operands[:3]
    ta, tb, tc = dot_types(op, a, b, c)
    sa, sb = ta.get_shape(), tb.get_shape()
    acc = scalar_type(tc)
    base_a = cv.share(op, a)
    base_b = cv.share(op, b)
    cv.exchange_barrier()

    def read_a(batch: list[SSAValue], row: SSAValue, k: SSAValue) -> SSAValue:
        return _to_acc(cv, op, cv.read_shared(base_a, cv.linear([*batch, row, k], sa), scalar_type(ta)), acc, ta)

    def read_b(batch: list[SSAValue], k: SSAValue, col: SSAValue) -> SSAValue:
        return _to_acc(cv, op, cv.read_shared(base_b, cv.linear([*batch, k, col], sb), scalar_type(tb)), acc, tb)

    cv.values[op.results[0]] = dot_loop(cv, op, c, sa[-1], read_a, read_b)


def dot_types(op: Operation, a: SSAValue, b: SSAValue, c: SSAValue) -> tuple[TensorType, TensorType, TensorType]:
    """The tile types of a dot's a (MxK), b (KxN), c (MxN), all of rank 2 or all of rank 3."""
    ta, tb, tc = a.type, b.type, c.type
    if not (isinstance(ta, TensorType) and isinstance(tb, TensorType) and isinstance(tc, TensorType)):
        raise Unsupported(op, "operand shapes")
    if len(ta.get_shape()) not in (2, 3) or not len(ta.get_shape()) == len(tb.get_shape()) == len(tc.get_shape()):
        raise Unsupported(op, "operand ranks")
    return ta, tb, tc


DotRead = Callable[[list[SSAValue], SSAValue, SSAValue], SSAValue]


def dot_loop(cv: KernelConverter, op: Operation, c: SSAValue, k_extent: int, read_a: DotRead,
             read_b: DotRead) -> Value:
    """The baseline dot's loop: `c + sum over k < k_extent of read_a(batch, row, k) *
    read_b(batch, k, col)` for each of this thread's elements of c, in c's element type (the
    readers return values of it, from operands already shared; an operand element is read
    once per vector of c's layout that shares its row). Ends the caller's exchange."""
    tc = c.type
    assert isinstance(tc, TensorType)
    sc = tc.get_shape()
    acc = scalar_type(tc)
    layout = cv.layout_of(tc)
    assert layout is not None
    init = cv.slots(op, c, layout) if not layout.uniform else [cv.scalar(op, c)]
    # One loop over K carries all of this thread's accumulators; a thread's vector of V
    # consecutive elements shares its row when V divides the row length, so a[row, k] is read
    # once per vector.
    share_rows = not layout.uniform and sc[-1] % layout.vector == 0
    coords: list[list[SSAValue]] = []
    for r in range(layout.slots):
        if share_rows and r % layout.vector:
            first = coords[r - r % layout.vector]
            coords.append([*first[:-1], cv.v(arith.AddiOp(first[-1], cv.i32c(r % layout.vector)))])
        else:
            coords.append(cv.dst_coords(layout, r, sc))
    body = Block(arg_types=[i32, *([acc] * layout.slots)])
    outer = cv.block
    cv.block = body
    k = body.args[0]
    a_cache: dict[int, SSAValue] = {}
    new_accs = []
    for r in range(layout.slots):
        batch, row, col = coords[r][:-2], coords[r][-2], coords[r][-1]
        key = r - r % layout.vector if share_rows else r
        if key not in a_cache:
            a_cache[key] = read_a(batch, row, k)
        y = read_b(batch, k, col)
        current = body.args[1 + r]
        if isinstance(acc, AnyFloat):
            new_accs.append(cv.v(create_op("math.fma", [a_cache[key], y, current], acc)))
        else:
            new_accs.append(cv.v(arith.AddiOp(current, cv.v(arith.MuliOp(a_cache[key], y)))))
    cv.emit(scf.YieldOp(*new_accs))
    cv.block = outer
    loop = cv.emit(scf.ForOp(cv.i32c(0), cv.i32c(k_extent), cv.i32c(1), init, Region(body)))
    slots: list[SSAValue] = list(loop.results)
    cv.finish_exchange()
    return cv.tile(tc, slots)


def _to_acc(cv: KernelConverter, op: Operation, x: SSAValue, acc: Attribute, source: Attribute) -> SSAValue:
    """An element `x` of the operand of type `source`, in the accumulator type. fp8 elements
    arrive as their bytes and are decoded by their own operand's format (so e4m3fn x e5m2,
    which the cuda_tile verifier rejects for mmaf, would still decode each side right)."""
    t = x.type
    fmt = f8_format(source)
    if fmt is not None and isinstance(acc, AnyFloat):
        return convert_f8(cv.v, x, acc, fmt, None, target_sm(cv))
    if t == acc:
        return x
    if isinstance(acc, AnyFloat) and isinstance(t, AnyFloat):
        if bit_width(t) < bit_width(acc):
            return cv.v(arith.ExtFOp(x, acc))
        raise Unsupported(op, f"{t} inputs with a {acc} accumulator")
    if isinstance(acc, IntegerType) and isinstance(t, IntegerType):
        signed = str_attr(op, "signedness_lhs", "signed") != "unsigned"
        return cv.v(arith.ExtSIOp(x, acc) if signed else arith.ExtUIOp(x, acc))
    raise Unsupported(op, f"{t} inputs with a {acc} accumulator")


def _identities(op: Operation) -> list[Attribute]:
    ids = get_attr(op, "identities")
    return list(ids.data) if isinstance(ids, ArrayAttr) else []


def _combine_loop(cv: KernelConverter, op: Operation, bases: list[SSAValue], elems: list[Attribute],
                  lb: SSAValue, ub: SSAValue, index_of: Callable[[SSAValue], SSAValue],
                  identities: list[Attribute]) -> list[SSAValue]:
    """`acc = identities; for k in [lb, ub): acc = combiner(acc, src[index_of(k)])`, the
    combiner region inlined in the loop body (region arguments: lhs0, rhs0, lhs1, rhs1, ...)."""
    inits = []
    for ident, elem in zip(identities, elems, strict=True):
        if not isinstance(ident, (IntegerAttr, FloatAttr)):
            raise Unsupported(op, "identity value")
        inits.append(cv.v(arith.ConstantOp(ident, elem)))  # type: ignore[arg-type]
    body = Block(arg_types=[i32, *elems])
    outer = cv.block
    cv.block = body
    index = index_of(body.args[0])
    vals = [cv.read_shared(b, index, e) for b, e in zip(bases, elems, strict=True)]
    cv.block = outer
    args: list[Value] = []
    for acc, val in zip(body.args[1:], vals, strict=True):
        args.extend([acc, val])
    region_body(cv, op, op.regions[0], args, body, "yield")
    one = cv.i32c(1)
    loop = cv.emit(scf.ForOp(lb, ub, one, inits, Region(body)))
    return list(loop.results)


def _reduce_scan_inputs(cv: KernelConverter, op: Operation) -> tuple[int, list[int], list[Attribute], list[Attribute]]:
    dim_attr = get_attr(op, "dim")
    if not isinstance(dim_attr, IntegerAttr):
        raise Unsupported(op, "no dim")
    src_t = op.operands[0].type
    src_shape = list(src_t.get_shape()) if isinstance(src_t, TensorType) else []
    elems = [scalar_type(x.type) for x in op.operands]
    identities = _identities(op)
    if len(identities) != len(elems) or not src_shape:
        raise Unsupported(op, "identities")
    return dim_attr.value.data, src_shape, elems, identities


def lower_reduce(cv: KernelConverter, op: Operation) -> None:
    """Through shared memory: every thread combines, in order, the K source elements along
    `dim` that each of its result elements reduces (baseline). Simple commutative combiners on
    32-bit values take the warp-shuffle fast path (`gpu_reduce.py`) when the layout allows."""
    from tile_lsp.compiler.lowering.gpu_reduce import lower_reduce_shuffle

    if lower_reduce_shuffle(cv, op):
        return
    dim, src_shape, elems, identities = _reduce_scan_inputs(cv, op)
    bases = [cv.share(op, x) for x in op.operands]
    cv.exchange_barrier()
    t0 = op.results[0].type
    dst_shape = t0.get_shape() if isinstance(t0, TensorType) else ()
    layout = cv.layout_of(t0) or Layout(1, cv.threads)
    per_result: list[list[SSAValue]] = [[] for _ in op.results]
    kept = [d for i, d in enumerate(src_shape) if i != dim]
    for r in range(layout.slots):
        coords = cv.dst_coords(layout, r, dst_shape)
        if len(dst_shape) == len(src_shape):  # keep-dims form (a size-1 dim at `dim`)
            coords = [c for i, c in enumerate(coords) if i != dim]
        elif len(coords) != len(kept):
            if num_elements(dst_shape) == num_elements(kept):
                coords = cv.coords(cv.linear(coords, dst_shape), kept) if kept else []
            else:
                raise Unsupported(op, "result shape")

        def index_of(k: SSAValue, coords: list[SSAValue] = coords) -> SSAValue:
            full = list(coords)
            full.insert(dim, k)
            return cv.linear(full, src_shape)

        outs = _combine_loop(cv, op, bases, elems, cv.i32c(0), cv.i32c(src_shape[dim]), index_of, identities)
        for i, v in enumerate(outs):
            per_result[i].append(v)
    cv.finish_exchange()
    for res, slots in zip(op.results, per_result, strict=True):
        cv.values[res] = cv.tile(res.type, slots)


def lower_scan(cv: KernelConverter, op: Operation) -> None:
    """Inclusive prefix scan along `dim` through shared memory: element c combines source
    elements 0..c along `dim` in order (K-1 down to c when `reverse`). A forward scan of one
    row with a simple combiner takes the warp-shuffle fast path (`gpu_reduce.py`)."""
    from tile_lsp.compiler.lowering.gpu_reduce import lower_scan_shuffle

    if lower_scan_shuffle(cv, op):
        return
    dim, src_shape, elems, identities = _reduce_scan_inputs(cv, op)
    rev = get_attr(op, "reverse")
    reverse = isinstance(rev, IntegerAttr) and bool(rev.value.data)
    bases = [cv.share(op, x) for x in op.operands]
    cv.exchange_barrier()
    layout = cv.layout_of(op.results[0].type) or Layout(1, cv.threads)
    per_result: list[list[SSAValue]] = [[] for _ in op.results]
    for r in range(layout.slots):
        coords = cv.dst_coords(layout, r, src_shape)

        def index_of(k: SSAValue, coords: list[SSAValue] = coords, extent: int = src_shape[dim]) -> SSAValue:
            full = list(coords)
            # Reverse scans combine from the last element down: step k reads K-1-k.
            full[dim] = cv.v(arith.SubiOp(cv.i32c(extent - 1), k)) if reverse else k
            return cv.linear(full, src_shape)

        if reverse:  # elements K-1 down to c: K - c steps
            ub = cv.v(arith.SubiOp(cv.i32c(src_shape[dim]), coords[dim]))
        else:  # elements 0 up to c
            ub = cv.v(arith.AddiOp(coords[dim], cv.i32c(1)))
        outs = _combine_loop(cv, op, bases, elems, cv.i32c(0), ub, index_of, identities)
        for i, v in enumerate(outs):
            per_result[i].append(v)
    cv.finish_exchange()
    for res, slots in zip(op.results, per_result, strict=True):
        cv.values[res] = cv.tile(res.type, slots)


def _assert(cv: KernelConverter, op: Operation) -> None:
    """cf.assert on the AND of this thread's elements (each thread checks what it holds)."""
    cond = op.operands[0]
    layout = cv.layout_of(cond.type)
    if layout is None:
        ok = cv.scalar(op, cond)
    else:
        values = cv.slots(op, cond, layout)
        ok = values[0]
        for r in range(1, layout.slots):
            e = cv.element_index(layout, r)
            ghost = cv.not_ghost(layout, e)
            v = values[r] if ghost is None else cv.v(arith.OrIOp(values[r], cv.v(arith.XOrIOp(ghost, cv.const(1, i1)))))
            ok = cv.v(arith.AndIOp(ok, v))
    message = str_attr(op, "message", "assertion failed")
    cv.emit(cf.AssertOp(ok, message))


def _print(cv: KernelConverter, op: Operation) -> None:
    """Formatted print as gpu.printf: of uniform values once per tile block (thread 0); with tile
    arguments once per element (each thread prints the elements it holds, in no set order)."""
    groups = split_operands(op) if op.name.endswith("_tko") else [list(op.operands)]
    args = groups[0]
    token = groups[1][0] if len(groups) > 1 and groups[1] else None
    order_by_token(cv, op, token)
    fmt = str_attr(op, "str")
    layouts = {d.layout for x in args if isinstance(d := cv.get(x), Dist)}
    if len(layouts) > 1:
        raise Unsupported(op, "tile arguments with different element counts")

    def printed(x: SSAValue, value: SSAValue) -> SSAValue:  # narrow floats: their f32 value
        narrow = f8_format(x.type)
        return value if narrow is None else convert_f8(cv.v, value, Float32Type(), narrow, None, target_sm(cv))

    if layouts:  # tiles: the format once per element, by the thread that holds it
        [layout] = layouts
        per_arg = [cv.slots(op, x, layout) for x in args]
        for r in range(layout.slots):
            guard = cv.not_ghost(layout, cv.element_index(layout, r))
            _printf_if(cv, guard, fmt, [printed(x, vals[r]) for x, vals in zip(args, per_arg, strict=True)])
    else:  # uniform values: once per tile block, by thread 0
        values = [printed(x, cv.scalar(op, x)) for x in args]
        _printf_if(cv, cv.first_thread(), fmt, values)
    if op.results:
        cv.values[op.results[0]] = Token(False)


def _printf_if(cv: KernelConverter, guard: SSAValue | None, fmt: str, values: list[SSAValue]) -> None:
    cv.when(guard, lambda: cv.emit(gpu.PrintfOp(fmt, values)))


def _iota(cv: KernelConverter, op: Operation) -> None:
    t = op.results[0].type
    layout = cv.layout_of(t)
    if layout is None or not isinstance(t, TensorType) or not isinstance(t.element_type, IntegerType):
        raise Unsupported(op)
    elem = t.element_type
    slots = []
    for r in range(layout.slots):
        index = cv.element_index(layout, r)
        if elem.width.data < 32:
            index = cv.v(arith.TruncIOp(index, elem))
        elif elem.width.data > 32:
            index = cv.v(arith.ExtUIOp(index, elem))
        slots.append(index)
    cv.values[op.results[0]] = cv.tile(t, slots)


def _block_query(cls: type[gpu.BlockIdOp] | type[gpu.GridDimOp]) -> Callable[[KernelConverter, Operation], None]:
    def convert(cv: KernelConverter, op: Operation) -> None:
        for dim, res in zip("xyz", op.results, strict=False):
            value = cv.v(cls(dim))
            cv.values[res] = cv.v(arith.IndexCastOp(value, res.type))

    return convert


def _create_token(cv: KernelConverter, op: Operation) -> None:
    cv.values[op.results[0]] = Token(False)


def _join_tokens(cv: KernelConverter, op: Operation) -> None:
    after = any(isinstance(t := cv.get(x), Token) and t.after_write for x in op.operands)
    cv.values[op.results[0]] = Token(after)


def _make_tensor_view(cv: KernelConverter, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, TensorViewType)
    base_ops, shape_ops, stride_ops = (split_operands(op) + [[], [], []])[:3]
    base = cv.scalar(op, base_ops[0])
    dyn_shape = iter([cv.to_i64(cv.scalar(op, x)) for x in shape_ops])
    dyn_strides = iter([cv.to_i64(cv.scalar(op, x)) for x in stride_ops])
    shape = [next(dyn_shape) if d.data < 0 else cv.i64c(d.data) for d in t.shape.data]
    strides = [next(dyn_strides) if s.data < 0 else cv.i64c(s.data) for s in t.strides.data]
    cv.values[op.results[0]] = TensorView(base, scalar_type(t.element_type), shape, strides)


def _make_tile_view(cv: KernelConverter, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, TileViewType)
    if t.kind.data == "gather_scatter":
        from tile_lsp.compiler.lowering.gpu_views import make_gather_view

        cv.values[op.results[0]] = make_gather_view(cv, op, t)
        return
    if t.kind.data != "partition":
        raise Unsupported(op, f"{t.kind.data} views")
    rank = len(t.tile.data)
    dim_map = tuple(d.data for d in t.dim_map.data) or tuple(range(rank))
    if sorted(dim_map) != list(range(rank)):
        raise Unsupported(op, "a dim_map that is not a permutation")
    view = cv.get(op.operands[0])
    assert isinstance(view, TensorView)
    cv.values[op.results[0]] = TileView(tuple(d.data for d in t.tile.data), view, t.padding.data, dim_map)


def _get_tensor_shape(cv: KernelConverter, op: Operation) -> None:
    view = cv.get(op.operands[0])
    if isinstance(view, TileView):
        view = view.view
    assert isinstance(view, TensorView)
    for res, extent in zip(op.results, view.shape, strict=False):
        cv.values[res] = cast_value(cv, "arith.trunci", extent, res.type) if res.type != i64 else extent


def _get_index_space_shape(cv: KernelConverter, op: Operation) -> None:
    view = cv.get(op.operands[0])
    if not isinstance(view, TileView):
        raise Unsupported(op)
    for res, tensor_dim, tile in zip(op.results, view.dim_map, view.tile, strict=False):
        extent = view.view.shape[tensor_dim]
        t = cv.i64c(tile)
        count = cv.v(arith.DivUIOp(cv.v(arith.AddiOp(extent, cv.i64c(tile - 1))), t))
        cv.values[res] = cast_value(cv, "arith.trunci", count, res.type) if res.type != i64 else count


def _load_view(cv: KernelConverter, op: Operation) -> None:
    from tile_lsp.compiler.lowering.gpu_views import GatherView, gather_load

    if isinstance(cv.get(op.operands[0]), GatherView):
        gather_load(cv, op)
        return
    ordered = check_ordering(op)
    view, index, token = view_operands(cv, op, split_operands(op))
    t = op.results[0].type
    elem = scalar_type(t)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    fence_before(cv, ordered)
    slots = []
    origin = tile_origin(cv, view, index)
    vectors: dict[int, tuple[list[SSAValue], SSAValue | None]] = {}
    based: list[ThreadBase] = []
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r, origin, vectors, based)
        slots.append(guarded_load(cv, ptr, guard, elem, lambda: padding_value(cv, op, view.padding, elem), ordered))
    cv.values[op.results[0]] = cv.tile(t, slots)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(False)


def _store_view(cv: KernelConverter, op: Operation) -> None:
    from tile_lsp.compiler.lowering.gpu_views import GatherView, scatter_store

    if len(op.operands) > 1 and isinstance(cv.get(op.operands[1]), GatherView):
        scatter_store(cv, op)
        return
    ordered = check_ordering(op)
    groups = split_operands(op)
    value = groups[0][0]
    view, index, token = view_operands(cv, op, groups[1:])
    t = value.type
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    values = cv.slots(op, value, layout) if not layout.uniform else [cv.scalar(op, value)]
    origin = tile_origin(cv, view, index)
    vectors: dict[int, tuple[list[SSAValue], SSAValue | None]] = {}
    based: list[ThreadBase] = []
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r, origin, vectors, based)
        if layout.uniform:  # one element: thread 0 writes it
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_store(cv, values[r], ptr, guard, ordered)
    fence_after(cv, ordered)
    if op.results:
        cv.values[op.results[0]] = Token(True)


def _ptr_tile(cv: KernelConverter, op: Operation, ptr_type: Attribute) -> Layout:
    return cv.layout_of(ptr_type) or Layout(1, cv.threads)


def _load_ptr(cv: KernelConverter, op: Operation) -> None:
    ordered = check_ordering(op)
    ptrs, mask, padding, token = (split_operands(op) + [[], [], [], []])[:4]
    t = op.results[0].type
    elem = scalar_type(t)
    layout = _ptr_tile(cv, op, ptrs[0].type)
    order_by_token(cv, op, token[0] if token else None)
    fence_before(cv, ordered)
    p = cv.slots(op, ptrs[0], layout)
    m = cv.slots(op, mask[0], layout) if mask else None
    pad = cv.slots(op, padding[0], layout) if padding else None
    slots = []
    for r in range(layout.slots):
        guard = m[r] if m is not None else None
        guard = and_guards(cv, guard, cv.not_ghost(layout, cv.element_index(layout, r)))
        fallback: Callable[[], SSAValue] = (
            (lambda r=r: pad[r]) if pad is not None else (lambda: padding_value(cv, op, "", elem)))  # type: ignore[misc]
        slots.append(guarded_load(cv, p[r], guard, elem, fallback, ordered))
    cv.values[op.results[0]] = cv.tile(t, slots)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(False)


def _store_ptr(cv: KernelConverter, op: Operation) -> None:
    ordered = check_ordering(op)
    ptrs, values, mask, token = (split_operands(op) + [[], [], [], []])[:4]
    layout = _ptr_tile(cv, op, ptrs[0].type)
    order_by_token(cv, op, token[0] if token else None)
    p = cv.slots(op, ptrs[0], layout)
    v = cv.slots(op, values[0], layout)
    m = cv.slots(op, mask[0], layout) if mask else None
    for r in range(layout.slots):
        guard = m[r] if m is not None else None
        guard = and_guards(cv, guard, cv.not_ghost(layout, cv.element_index(layout, r)))
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_store(cv, v[r], p[r], guard, ordered)
    fence_after(cv, ordered)
    if op.results:
        cv.values[op.results[0]] = Token(True)
_CAS_FAILURE = {"monotonic": "monotonic", "acquire": "acquire", "release": "monotonic", "acq_rel": "acquire"}
_RMW_MODES = ("_and", "_or", "_xor", "add", "fadd", "max", "min", "umax", "umin", "xchg")


def _rmw_kind(op: Operation, elem: Attribute) -> str:
    mode = get_attr(op, "mode")
    index = mode.value.data if isinstance(mode, IntegerAttr) else -1
    if not 0 <= index < len(_RMW_MODES):
        raise Unsupported(op, "atomic mode")
    kind = _RMW_MODES[index]
    if isinstance(elem, AnyFloat) and kind not in ("fadd", "xchg"):
        raise Unsupported(op, f"atomic mode '{kind}' on {elem}")
    return kind


def _atomic_slots(cv: KernelConverter, op: Operation, ptr_value: SSAValue, elem: Attribute,
                  mask: list[SSAValue], token: list[SSAValue],
                  build: Callable[[SSAValue, int], SSAValue]) -> None:
    """One atomic per element of the pointer tile; a one-element (uniform) atomic happens once
    per tile block, in thread 0, and its old value reaches every thread through shared memory."""
    order_by_token(cv, op, token[0] if token else None)
    layout = cv.layout_of(ptr_value.type) or Layout(1, cv.threads)
    ptrs = cv.slots(op, ptr_value, layout)
    masks = cv.slots(op, mask[0], layout) if mask else None
    results = []
    for r in range(layout.slots):
        guard = masks[r] if masks is not None else None
        guard = and_guards(cv, guard, cv.not_ghost(layout, cv.element_index(layout, r)))
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        results.append(guarded_value(cv, guard, elem, lambda r=r: build(ptrs[r], r)))  # type: ignore[misc]
    if layout.uniform and op.results and op.results[0].uses:
        base = cv.smem(elem, 1)
        first = cv.first_thread()
        guarded_store(cv, results[0], base, first)
        cv.exchange_barrier()
        results = [cv.v(llvm_memory.LoadOp(base, elem))]
        cv.finish_exchange()
    if op.results:
        cv.values[op.results[0]] = cv.tile(op.results[0].type, results)
    if len(op.results) > 1:
        cv.values[op.results[1]] = Token(True)


def _atomic_rmw(cv: KernelConverter, op: Operation) -> None:
    ptrs, values, mask, token = (split_operands(op) + [[], [], [], []])[:4]
    t = op.results[0].type
    elem = scalar_type(t)
    kind = _rmw_kind(op, elem)
    ordering, scope = atomic_params(op)
    layout = cv.layout_of(ptrs[0].type) or Layout(1, cv.threads)
    vals = cv.slots(op, values[0], layout)
    _atomic_slots(cv, op, ptrs[0], elem, mask, token,
                  lambda p, r: cv.v(llvm_memory.AtomicRMWOp(kind, p, vals[r], ordering, scope)))


def _atomic_cas(cv: KernelConverter, op: Operation) -> None:
    ptrs, cmps, values, mask, token = (split_operands(op) + [[], [], [], [], []])[:5]
    t = op.results[0].type
    elem = scalar_type(t)
    ordering, scope = atomic_params(op)
    layout = cv.layout_of(ptrs[0].type) or Layout(1, cv.threads)
    expected, vals = cv.slots(op, cmps[0], layout), cv.slots(op, values[0], layout)

    # LLVM's cmpxchg takes integers and pointers only: a float CAS compares its bit pattern.
    word = IntegerType(elem.bitwidth) if isinstance(elem, AnyFloat) else elem

    def build(p: SSAValue, r: int) -> SSAValue:
        old, new = ((cv.v(arith.BitcastOp(x, word)) for x in (expected[r], vals[r])) if word != elem
                    else (expected[r], vals[r]))
        pair = cv.v(llvm_memory.CmpXchgOp(p, old, new, ordering, _CAS_FAILURE[ordering], scope))
        got = cv.v(create_op("llvm.extractvalue", [pair], word, {"position": DenseArrayBase.from_list(i64, [0])}))
        return cv.v(arith.BitcastOp(got, elem)) if word != elem else got

    _atomic_slots(cv, op, ptrs[0], elem, mask, token, build)


def _atomic_red_view(cv: KernelConverter, op: Operation) -> None:
    """Element-wise atomic reduction of a tile into a partition view (bounds-checked)."""
    groups = split_operands(op)
    if len(groups) < 3 or len(groups[2]) != 1:
        raise Unsupported(op, "operands")
    view, index, _ = view_operands(cv, op, groups[:2])
    token = groups[3][0] if len(groups) > 3 and groups[3] else None
    value = groups[2][0]
    t = value.type
    elem = scalar_type(t)
    kind = _rmw_kind(op, elem)
    ordering, scope = atomic_params(op)
    layout = cv.layout_of(t) or Layout(1, cv.threads)
    order_by_token(cv, op, token)
    values = cv.slots(op, value, layout) if not layout.uniform else [cv.scalar(op, value)]
    for r in range(layout.slots):
        ptr, guard = view_access(cv, op, view, index, layout, r)
        if layout.uniform:
            guard = and_guards(cv, guard, cv.first_thread())
        guarded_value(cv, guard, elem,
                      lambda p=ptr, r=r: cv.v(llvm_memory.AtomicRMWOp(kind, p, values[r], ordering, scope)))  # type: ignore[misc]
    if op.results:
        cv.values[op.results[0]] = Token(True)


# -- structured control flow ------------------------------------------------------------------


def _writes_memory(op: Operation) -> bool:
    return any(o.name in _WRITERS for o in op.walk())


_WRITERS = ("nv_tileaa.store", "nv_tileaa.store_view", "nv_tileaa.atomic_cas", "nv_tileaa.atomic_rmw",
            "nv_tileaa.atomic_red_view", "nv_tileaa.multimem_reduce_view", "nv_tileaa.multimem_store_view")


def region_body(cv: KernelConverter, op: Operation, region: Region, args: Sequence[Value], into: Block,
                terminator: str) -> None:
    """Converts `region`'s one block into `into` (its arguments already mapped to `args`); the
    `nv_tileaa.<terminator>` at its end becomes scf.yield of the flattened values."""
    if len(region.blocks) != 1:
        raise Unsupported(op, "a region with several blocks")
    old = region.blocks[0]
    body_ops = list(old.ops)
    last = body_ops[-1] if body_ops else None
    if last is None or last.name != f"nv_tileaa.{terminator}":
        raise Unsupported(last or op, "a region that does not end in " + terminator)
    for o, n in zip(old.args, args, strict=True):
        cv.values[o] = n
    outer, loc = cv.block, cv.loc
    cv.block = into
    try:
        for inner in body_ops[:-1]:
            cv.convert_one(inner)
        cv.loc = last.location
        if any(isinstance(cv.values.get(x), Failed) for x in last.operands):
            cv.failed = True
            return
        flat: list[SSAValue] = []
        for x in last.operands:
            flat.extend(cv.flatten(last, x))
        cv.emit(scf.YieldOp(*flat))
    finally:
        cv.block, cv.loc = outer, loc


# -- early exits: `continue` / `break` inside nested ifs, and `loop` --------------------------
#
# A region that may leave early computes an *exit state*: [kind, yielded..., next..., result...]
# where kind is 0 (fell through to its `yield`), 1 (`continue` with the next iteration's values)
# or 2 (`break` with the loop's results). An `if` whose regions may leave becomes an scf.if that
# returns its state, and the ops after it run inside `scf.if kind == 0`. All of it is uniform.
#
# A `return` inside a loop (the cuda_tile verifier rejects it, cuTile rewrites it into a flag,
# but stage 3 does not rely on that) is kind 3 in the loop's frame: it ends the loop (scf.while:
# the condition fails; scf.for: a loop-carried kind makes the remaining iterations skip their
# body), the loop hands its kind out, and the ops after the loop run under `scf.if` as after an
# early-exit `if`, with kind 3 in an enclosing loop's frame and 2 (leave) in the kernel's.

_EXITS = ("nv_tileaa.continue", "nv_tileaa.break", "nv_tileaa.return")
_LOOPS = ("nv_tileaa.for", "nv_tileaa.loop")
_RETURN = 3


def may_return(op: Operation) -> bool:
    """Whether a loop `op` holds an `nv_tileaa.return` (at any depth)."""
    return op.name in _LOOPS and any(inner.name == "nv_tileaa.return" for inner in op.walk())


def has_early_exit(op: Operation) -> bool:
    """Whether a region of `op` holds a continue/break that is not its own last op, or a loop
    that may return."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if inner.name in _EXITS and inner is not block.last_op:
                    return True
                if inner.name in _EXITS and op.name == "nv_tileaa.if":
                    return True
                if inner.name == "nv_tileaa.if" and has_early_exit(inner):
                    return True
                if may_return(inner):
                    return True
    return False


@dataclass
class _Frame:
    """The loop that early exits leave: its iteration types and result types (nv_tileaa)."""

    op: Operation
    iter_types: list[Attribute]
    result_types: list[Attribute]
    flat_iter: list[Attribute]
    flat_results: list[Attribute]


def _zeros(cv: KernelConverter, types: Sequence[Attribute]) -> list[SSAValue]:
    return [zero_value(cv, t) for t in types]


def _flat_all(cv: KernelConverter, op: Operation, values: Sequence[SSAValue]) -> list[SSAValue]:
    flat: list[SSAValue] = []
    for x in values:
        flat.extend(cv.flatten(op, x))
    return flat


def _exit_seq(cv: KernelConverter, ops: list[Operation], frame: _Frame, yield_types: list[Attribute]) -> list[SSAValue]:
    """Convert `ops` (a region's ops, terminator included) into cv.block; returns the state."""
    for i, op in enumerate(ops):
        if op.name in ("nv_tileaa.return", "func.return"):  # (kind 2 leaves the kernel: frame is the func)
            if op.operands:
                raise Unsupported(op, "a kernel returns no values")
            code = 0 if op.name == "func.return" else 2 if frame.op.name == "func.func" else _RETURN
            return [cv.i32c(code), *_zeros(cv, yield_types), *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
        if op.name in ("nv_tileaa.continue", "nv_tileaa.break", "nv_tileaa.yield"):
            vals = _flat_all(cv, op, list(op.operands))
            if op.name == "nv_tileaa.yield":
                return [cv.i32c(0), *vals, *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
            if op.name == "nv_tileaa.continue":
                return [cv.i32c(1), *_zeros(cv, yield_types), *vals, *_zeros(cv, frame.flat_results)]
            if frame.op.name != "nv_tileaa.loop":
                raise Unsupported(op, "break out of a for loop")
            return [cv.i32c(2), *_zeros(cv, yield_types), *_zeros(cv, frame.flat_iter), *vals]
        state: list[SSAValue] | None = None
        if op.name == "nv_tileaa.if" and has_early_exit(op):
            cv.loc = op.location
            state = _exit_if(cv, op, frame)
        elif may_return(op):
            cv.loc = op.location
            kind = _returning_loop(cv, op)
            returned = cv.v(arith.CmpiOp(kind, cv.i32c(_RETURN), "eq"))
            leave = cv.i32c(2 if frame.op.name == "func.func" else _RETURN)
            state = [cv.v(arith.SelectOp(returned, leave, cv.i32c(0))),
                     *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
        if state is not None:
            kind = state[0]
            fall = cv.v(arith.CmpiOp(kind, cv.i32c(0), "eq"))
            outer = cv.block
            then_block, else_block = Block(), Block()
            cv.block = then_block
            rest = _exit_seq(cv, ops[i + 1:], frame, yield_types)
            cv.emit(scf.YieldOp(*rest))
            cv.block = else_block
            cv.emit(scf.YieldOp(kind, *_zeros(cv, yield_types), *state[1:]))
            cv.block = outer
            types = [i32, *yield_types, *frame.flat_iter, *frame.flat_results]
            guarded = cv.emit(scf.IfOp(fall, types, Region(then_block), Region(else_block)))
            return list(guarded.results)
        cv.convert_one(op)
        if cv.failed and any(isinstance(cv.values.get(r), Failed) for r in op.results):
            raise Unsupported(op, "an op before an early exit could not be converted")
    raise Unsupported(frame.op, "a region without a terminator")


def early_return_body(cv: KernelConverter, fn: func.FuncOp, body: Block) -> None:
    """A kernel body with a `return` inside an `if`: the ops after such an if run under
    `scf.if kind == 0` (the exit state of the loops above, with the kernel as the frame)."""
    try:
        _exit_seq(cv, list(body.ops), _Frame(fn, [], [], [], []), [])
    except Unsupported as exc:
        cv.lctx.error(exc.op, unsupported_message(cv.lctx, exc.op, exc.detail))
        cv.failed = True
        return
    cv.loc = body.last_op.location if body.last_op is not None else fn.location
    cv.kernel_return()


def _exit_if(cv: KernelConverter, op: Operation, frame: _Frame) -> list[SSAValue]:
    """An if whose regions may leave the loop: scf.if returning [kind, results..., next...,
    loop results...]; binds the if's results; returns [kind, next..., loop results...]."""
    cond = cv.scalar(op, op.operands[0])
    types = [r.type for r in op.results]
    flat_types: list[Attribute] = []
    for t in types:
        flat_types.extend(cv.flat_types(op, t))
    blocks = []
    outer, loc = cv.block, cv.loc
    for region in (*op.regions[:2], *([Region()] * (2 - len(op.regions)))):
        block = Block()
        cv.block = block
        ops = list(region.blocks[0].ops) if region.blocks else []
        if not ops:
            ops = []
            state = [cv.i32c(0), *_zeros(cv, flat_types), *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
        else:
            state = _exit_seq(cv, ops, frame, flat_types)
        cv.emit(scf.YieldOp(*state))
        blocks.append(block)
    cv.block, cv.loc = outer, loc
    result_types = [i32, *flat_types, *frame.flat_iter, *frame.flat_results]
    new = cv.emit(scf.IfOp(cond, result_types, Region(blocks[0]), Region(blocks[1])))
    results = list(new.results)
    n = len(flat_types)
    for new_res, old_res in zip(cv.unflatten(types, results[1 : 1 + n], _writes_memory(op)), op.results, strict=True):
        cv.values[old_res] = new_res
    return [results[0], *results[1 + n:]]


def _returning_loop(cv: KernelConverter, op: Operation) -> SSAValue:
    """A `for`/`loop` that holds a `return`: converted, its results bound; gives the i32 kind it
    ended with (`_RETURN` when the kernel is to return)."""
    kind = _loop_or_for(cv, op, returns=True)
    assert kind is not None
    return kind


def _loop_or_for(cv: KernelConverter, op: Operation, *, returns: bool) -> SSAValue | None:
    if op.name == "nv_tileaa.loop":
        return _while(cv, op, returns)
    return _scf_for(cv, op, returns)


def _loop(cv: KernelConverter, op: Operation) -> None:
    _check_no_return(op)
    _while(cv, op, False)


def _check_no_return(op: Operation) -> None:
    """A loop that may return is converted by `_exit_seq`, which guards what follows it; one
    reached otherwise would drop the return: refuse it."""
    if may_return(op):
        raise Unsupported(op, "a return from inside a loop here")


def _while(cv: KernelConverter, op: Operation, returns: bool) -> SSAValue | None:
    """`loop` -> scf.while: the before region runs the body and computes its exit state; the
    loop goes on while the kind is not `break` (nor `_RETURN` when `returns`). scf.condition
    carries the next iteration's values and the results side by side (the after region passes
    the first on, the loop's results are the second), then, when `returns`, the kind."""
    inits = list(op.operands)
    iter_types = [x.type for x in inits]
    result_types = [r.type for r in op.results]
    flat_iter: list[Attribute] = []
    for t in iter_types:
        flat_iter.extend(cv.flat_types(op, t))
    flat_results: list[Attribute] = []
    for t in result_types:
        flat_results.extend(cv.flat_types(op, t))
    frame = _Frame(op, iter_types, result_types, flat_iter, flat_results)
    flat_inits = _flat_all(cv, op, inits)
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise Unsupported(op, "loop body")
    old = op.regions[0].blocks[0]
    before = Block(arg_types=flat_iter)
    dirty = _writes_memory(op)
    for o, value in zip(old.args, cv.unflatten(iter_types, list(before.args), dirty), strict=True):
        cv.values[o] = value
    outer, loc = cv.block, cv.loc
    cv.block = before
    extra = [i32] if returns else []
    try:
        state = _exit_seq(cv, list(old.ops), frame, [])
        kind = state[0]
        n = len(flat_iter)
        nexts, outs = state[1 : 1 + n], state[1 + n :]
        going = cv.v(arith.CmpiOp(kind, cv.i32c(2), "ult" if returns else "ne"))  # kinds 0, 1 go on
        cv.emit(scf.ConditionOp(going, *nexts, *outs, *([kind] if returns else [])))
    finally:
        cv.block, cv.loc = outer, loc
    after = Block(arg_types=[*flat_iter, *flat_results, *extra])
    after.add_op(scf.YieldOp(*after.args[: len(flat_iter)]))
    loop = cv.emit(scf.WhileOp(flat_inits, [*flat_iter, *flat_results, *extra], Region(before), Region(after)))
    outs_new = list(loop.results)[len(flat_iter): len(flat_iter) + len(flat_results)]
    for new_res, old_res in zip(cv.unflatten(result_types, outs_new, dirty), op.results, strict=True):
        cv.values[old_res] = new_res
    return loop.results[-1] if returns else None


def _for(cv: KernelConverter, op: Operation) -> None:
    _check_no_return(op)
    _scf_for(cv, op, False)


def _scf_for(cv: KernelConverter, op: Operation, returns: bool) -> SSAValue | None:
    """`for` -> scf.for. When `returns`, an i32 kind is carried too: once an iteration ends
    with `_RETURN`, the following iterations skip their body (`scf.if kind != _RETURN`) and pass
    the values on; the loop gives that kind back."""
    lb, ub, step = (cv.scalar(op, x) for x in op.operands[:3])
    inits = list(op.operands[3:])
    flat_inits: list[SSAValue] = []
    for x in inits:
        flat_inits.extend(cv.flatten(op, x))
    types = [x.type for x in inits]
    flat_types: list[Attribute] = []
    for t in types:
        flat_types.extend(cv.flat_types(op, t))
    writes = _writes_memory(op)
    token_dirty = writes or any(isinstance(tok := cv.get(x), Token) and tok.after_write for x in inits)
    n = len(flat_types)
    body = Block(arg_types=[lb.type, *flat_types, *([i32] if returns else [])])
    iv = body.args[0]
    structured = [iv, *cv.unflatten(types, list(body.args[1 : 1 + n]), token_dirty)]
    if has_early_exit(op):
        frame = _Frame(op, types, types, flat_types, flat_types)
        old = op.regions[0].blocks[0]
        for o, value in zip(old.args, structured, strict=True):
            cv.values[o] = value
        outer, loc = cv.block, cv.loc
        cv.block = body
        try:
            if returns:
                live = cv.v(arith.CmpiOp(body.args[-1], cv.i32c(_RETURN), "ne"))
                run_block = Block()
                cv.block = run_block
                state = _exit_seq(cv, list(old.ops), frame, [])
                cv.emit(scf.YieldOp(*state[1 : 1 + n], state[0]))
                cv.block = body
                skip = Region(Block([scf.YieldOp(*body.args[1:])]))
                ran = cv.emit(scf.IfOp(live, [*flat_types, i32], Region(run_block), skip))
                cv.emit(scf.YieldOp(*ran.results))
            else:
                state = _exit_seq(cv, list(old.ops), frame, [])
                cv.emit(scf.YieldOp(*state[1 : 1 + n]))
        finally:
            cv.block, cv.loc = outer, loc
    else:
        region_body(cv, op, op.regions[0], structured, body, "continue")
    inits_all = [*flat_inits, *([cv.i32c(0)] if returns else [])]
    loop = cast(scf.ForOp, cv.emit(scf.ForOp(lb, ub, step, inits_all, Region(body))))
    results = list(loop.results)
    for new_res, old_res in zip(cv.unflatten(types, results[:n], token_dirty), op.results, strict=True):
        cv.values[old_res] = new_res
    return results[-1] if returns else None


def _if(cv: KernelConverter, op: Operation) -> None:
    cond = cv.scalar(op, op.operands[0])
    types = [r.type for r in op.results]
    flat_types: list[Attribute] = []
    for t in types:
        flat_types.extend(cv.flat_types(op, t))
    blocks = []
    for region in op.regions[:2]:
        block = Block()
        if not region.blocks:
            block.add_op(scf.YieldOp())
        else:
            region_body(cv, op, region, [], block, "yield")
        blocks.append(block)
    while len(blocks) < 2:
        blocks.append(Block([scf.YieldOp()]))
    new = cv.emit(scf.IfOp(cond, flat_types, Region(blocks[0]), Region(blocks[1])))
    dirty = _writes_memory(op)
    for new_res, old_res in zip(cv.unflatten(types, list(new.results), dirty), op.results, strict=True):
        cv.values[old_res] = new_res


_HANDLERS: dict[str, Callable[[KernelConverter, Operation], None]] = {
    "assume": _passthrough,
    "reshape": _passthrough,
    "splat": _splat,
    "broadcast": _broadcast,
    "iota": _iota,
    "get_tile_block_id": _block_query(gpu.BlockIdOp),
    "get_num_tile_blocks": _block_query(gpu.GridDimOp),
    "create_mem_token": _create_token,
    "join_mem_token": _join_tokens,
    "make_tensor_view": _make_tensor_view,
    "make_tile_view": _make_tile_view,
    "get_tensor_shape": _get_tensor_shape,
    "get_index_space_shape": _get_index_space_shape,
    "load_view": _load_view,
    "store_view": _store_view,
    "load": _load_ptr,
    "store": _store_ptr,
    "for": _for,
    "if": _if,
    "permute": _permute,
    "extract": _extract,
    "insert": _insert,
    "gdc_wait": _grid_dependency("wait"),
    "gdc_launch_dependents": _grid_dependency("launch_dependents"),
    "memory_fence_alias": _fence_alias,
    "multimem_load_reduce_view": lambda cv, op: _multimem().lower_multimem(cv, op),
    "multimem_reduce_view": lambda cv, op: _multimem().lower_multimem(cv, op),
    "multimem_store_view": lambda cv, op: _multimem().lower_multimem(cv, op),
    "reduce": lower_reduce,
    "scan": lower_scan,
    "assert": _assert,
    "print": _print,
    "print_tko": _print,
    "atomic_rmw": _atomic_rmw,
    "atomic_cas": _atomic_cas,
    "atomic_red_view": _atomic_red_view,
    "dot": lower_dot,
    "dot_scaled": lambda cv, op: _scaled().lower_dot_scaled(cv, op),
    "loop": _loop,
    "get_global": lambda cv, op: _get_global(cv, op),
    "alloca": lambda cv, op: _alloca(cv, op),
    "pack": lambda cv, op: _views().reinterpret_bytes(cv, op),
    "unpack": lambda cv, op: _views().reinterpret_bytes(cv, op),
    "cat": lambda cv, op: _views().concatenate(cv, op),
}


def _huge_operand(cv: KernelConverter, op: Operation) -> Streamed | None:
    return next((got for x in op.operands if isinstance(got := cv.values.get(x), Streamed)), None)


def _get_global(cv: KernelConverter, op: Operation) -> None:
    from tile_lsp.compiler.lowering.gpu_globals import get_global

    get_global(cv, op)


def _alloca(cv: KernelConverter, op: Operation) -> None:
    from tile_lsp.compiler.lowering.gpu_globals import alloca

    alloca(cv, op)


def _multimem():  # type: ignore[no-untyped-def]
    """gpu_multimem.py, imported on first use: it builds on this module."""
    from tile_lsp.compiler.lowering import gpu_multimem

    return gpu_multimem


def _scaled():  # type: ignore[no-untyped-def]
    """gpu_scaled.py (mmaf_scaled), imported on first use: it builds on this module."""
    from tile_lsp.compiler.lowering import gpu_scaled

    return gpu_scaled


def _views():  # type: ignore[no-untyped-def]
    """gpu_views.py (gather/scatter views, pack/unpack), imported on first use: it builds on
    this module."""
    from tile_lsp.compiler.lowering import gpu_views

    return gpu_views


__all__ = ["UNSUPPORTED", "Dist", "Layout", "Streamed", "TensorView", "TileView", "Token", "convert_tileaa_to_gpu",
           "slot_deltas"]
