"""nvgpu -> nvvm (stage 4), the part its op families share: the nvgpu types' conversion (registered
into the shared converter when this module is imported), the small llvm builders and `NvgpuPattern`,
the base of the patterns (nvgpu_nvvm_mbarrier, nvgpu_nvvm_warpgroup, nvgpu_nvvm_mma, nvgpu_nvvm_async,
nvgpu_nvvm_arith). `nvgpu_to_nvvm.py` is the entry point."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar, cast, get_args, get_origin

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.common import LoweringContext, LoweringPattern
from tile_lsp.compiler.lowering.types import (
    cast_to,
    llvm_ptr,
    memref_element_ptr,
    memref_unsupported,
    register_type_conversion,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects.llvm_ext import (
    ExtractElementOp,
    PoisonOp,
)
from tile_lsp.compiler.mlir.xdsl_fast import int_attr, shared, vector_type

UNSUPPORTED = "not supported by the nvvm stage: {what}"

# ----------------------------------------------------------------------------------------------
# type conversion of the nvgpu types (registered into the shared converter)
# ----------------------------------------------------------------------------------------------


def accumulator_struct(t: ng.WarpgroupAccumulatorType) -> Attribute:
    """`!llvm.struct<(struct<(f32 x N/2)> x M/64)>`: per 64-row tile, the thread's fragment."""
    shape = t.fragmented.get_shape()
    elem = t.fragmented.element_type
    inner = llvm.LLVMStructType.from_type_list([elem] * (shape[1] // 2))
    return llvm.LLVMStructType.from_type_list([inner] * max(1, shape[0] // ng.WGMMA_M))


def convert_nvgpu_type(t: Attribute) -> Attribute | None:
    if isinstance(t, ng.MBarrierGroupType):
        return llvm_ptr(ng.SHARED_AS) if ng.is_shared_space(t.memorySpace) else None
    if isinstance(t, ng.MBarrierTokenType):
        return i64
    if isinstance(t, ng.DeviceAsyncTokenType):
        return i32
    if isinstance(t, ng.TensorMapDescriptorType):
        return llvm_ptr()
    if isinstance(t, ng.WarpgroupMatrixDescriptorType):
        return i64
    if isinstance(t, ng.WarpgroupAccumulatorType):
        return accumulator_struct(t)
    return None


register_type_conversion(convert_nvgpu_type)


# ----------------------------------------------------------------------------------------------
# small builders
# ----------------------------------------------------------------------------------------------


def insert_op(rewriter: PatternRewriter, op: Operation) -> Operation:
    rewriter.insert(op)
    return op


class _RewriteConstants:
    """The constants `const` made during the latest rewrite: (block, value, type) -> op."""

    rewriter: PatternRewriter | None = None
    op: Operation | None = None
    made: dict[tuple[Block, int, IntegerType], Operation] = {}


def const(rewriter: PatternRewriter, value: int, t: IntegerType = i64) -> SSAValue:
    return insert_op(rewriter, llvm.ConstantOp(int_attr(value, t), t)).results[0]


def reused_const(rewriter: PatternRewriter, value: int, t: IntegerType = i64) -> SSAValue:
    """`const`, but within one rewrite a constant already made in the same block is reused (it
    was inserted earlier at a point before this one, so it dominates). Only for rewrites whose
    constants upstream's op-by-op comparison does not look at (the WGMMA store's thousands)."""
    current = rewriter._current_operation  # pyright: ignore[reportPrivateUsage]
    seen = _RewriteConstants
    if seen.rewriter is not rewriter or seen.op is not current:
        seen.rewriter, seen.op, seen.made = rewriter, current, {}
    block = rewriter.insertion_point.block
    key = (block, value, t)
    made = seen.made.get(key)
    if made is None or made.parent is not block:
        made = seen.made[key] = insert_op(rewriter, llvm.ConstantOp(IntegerAttr(value, t), t))
    return made.results[0]


def binop(
    rewriter: PatternRewriter, cls: Callable[[SSAValue, SSAValue], Operation], a: SSAValue, b: SSAValue
) -> SSAValue:
    return insert_op(rewriter, cls(a, b)).results[0]


def llvm_array(n: int, t: Attribute) -> llvm.LLVMArrayType:
    """`!llvm.array<n x t>`, shared."""
    return shared(("llvm-array", n, t), lambda: llvm.LLVMArrayType(IntAttr(n), t))


def to_int(rewriter: PatternRewriter, value: SSAValue, t: IntegerType = i32) -> SSAValue:
    """An index/integer value as `t` (index -> i64 cast, then trunc/zext)."""
    if isinstance(value.type, IndexType):
        value = cast_to(rewriter, value, i64)
    vt = value.type
    if not isinstance(vt, IntegerType) or vt.width.data == t.width.data:
        return value
    if vt.width.data > t.width.data:
        return insert_op(rewriter, llvm.TruncOp(value, t)).results[0]
    return insert_op(rewriter, llvm.ZExtOp(value, t)).results[0]


def extract_value(rewriter: PatternRewriter, container: SSAValue, index: int, t: Attribute) -> SSAValue:
    op = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [index]), container, t)
    return insert_op(rewriter, op).results[0]


def insert_value(rewriter: PatternRewriter, container: SSAValue, value: SSAValue, index: int) -> SSAValue:
    op = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [index]), container, value)
    return insert_op(rewriter, op).results[0]


def bitcast(rewriter: PatternRewriter, value: SSAValue, t: Attribute) -> SSAValue:
    if value.type == t:
        return value
    owner = value.owner
    if isinstance(owner, llvm.BitcastOp) and owner.arg.type == t:  # a bitcast back: the original
        return owner.arg
    return insert_op(rewriter, llvm.BitcastOp(value, t)).results[0]


def poison(rewriter: PatternRewriter, t: Attribute) -> SSAValue:
    return insert_op(rewriter, PoisonOp(t)).results[0]


def vector_as_array(rewriter: PatternRewriter, value: SSAValue) -> tuple[SSAValue, list[SSAValue]] | None:
    """A 2-D `vector<RxCxT>` as `!llvm.array<R x vector<CxT>>` and its R rows (extractvalue)."""
    t = value.type
    if not isinstance(t, VectorType) or len(t.get_shape()) != 2:
        return None
    rows, cols = t.get_shape()
    row_t = vector_type(t.element_type, (cols,))
    arr_t = llvm_array(rows, row_t)
    arr = cast_to(rewriter, value, arr_t)
    return arr, [extract_value(rewriter, arr, i, row_t) for i in range(rows)]


def inserted_rows(value: SSAValue) -> list[SSAValue] | None:
    """The R rows of a 2-D `vector<RxCxT>` that a chain of `vector.insert`s at static positions
    [0] .. [R-1] wrote whole (the gpu stage packs mma operands so): the rows themselves, without
    the array round trip of `vector_as_array`. None when some row is not written that way."""
    t = value.type
    if not isinstance(t, VectorType) or len(t.get_shape()) != 2:
        return None
    count, cols = t.get_shape()
    row_t = vector_type(t.element_type, (cols,))
    rows: list[SSAValue | None] = [None] * count
    left = count
    current = value
    while left:
        op = current.owner
        if not isinstance(op, vector.InsertOp) or op.dynamic_position or op.source.type != row_t:
            return None
        position = op.static_position.get_values()
        if len(position) != 1 or not 0 <= position[0] < count:
            return None
        if rows[position[0]] is None:  # the last insert at a position is the one that counts
            rows[position[0]] = op.source
            left -= 1
        current = op.dest
    return cast(list[SSAValue], rows)


def erase_unused_inserts(rewriter: PatternRewriter, value: SSAValue) -> None:
    """Erase the `vector.insert` chain ending in `value` as far as nothing else reads it (the
    operand chains `inserted_rows` looked through, once their last mma is lowered)."""
    op = value.owner
    while isinstance(op, vector.InsertOp) and not op.result.uses:
        dest = op.dest
        rewriter.erase(op)
        op = dest.owner


def rows_to_vector(rewriter: PatternRewriter, rows: Sequence[SSAValue], t: VectorType) -> SSAValue:
    """Repack 1-D rows into `!llvm.array<R x vector<C>>` and cast back to the 2-D vector type `t`."""
    shape = t.get_shape()
    row_t = vector_type(t.element_type, (shape[1],))
    arr_t = llvm_array(shape[0], row_t)
    acc = poison(rewriter, arr_t)
    for i, row in enumerate(rows):
        acc = insert_value(rewriter, acc, row, i)
    return cast_to(rewriter, acc, t)


def extract_elem(rewriter: PatternRewriter, vec: SSAValue, lane: int) -> SSAValue:
    return insert_op(rewriter, ExtractElementOp(vec, const(rewriter, lane))).results[0]


def insert_elem(rewriter: PatternRewriter, vec: SSAValue, value: SSAValue, lane: int) -> SSAValue:
    return insert_op(rewriter, llvm.InsertElementOp(vec, value, const(rewriter, lane))).results[0]


def base_ptr(rewriter: PatternRewriter, lctx: LoweringContext, op: Operation, memref: SSAValue) -> SSAValue | None:
    """The bare pointer of `memref` (offset applied); a diagnostic when the memref is unsupported."""
    t = memref.type
    if not isinstance(t, MemRefType):
        lctx.error(op, UNSUPPORTED.format(what=f"operand of type {ng.mlir_type_str(t)}"))
        return None
    why = memref_unsupported(t)
    if why is not None:
        lctx.error(op, UNSUPPORTED.format(what=why))
        return None
    ptr = memref_element_ptr(rewriter, memref, [])
    if ptr is None:
        lctx.error(op, UNSUPPORTED.format(what=ng.mlir_type_str(t)))
    return ptr


def element_ptr(
    rewriter: PatternRewriter, lctx: LoweringContext, op: Operation, memref: SSAValue, indices: Sequence[SSAValue]
) -> SSAValue | None:
    t = memref.type
    if not isinstance(t, MemRefType) or memref_unsupported(t) is not None:
        why = memref_unsupported(t) if isinstance(t, MemRefType) else ng.mlir_type_str(t)
        lctx.error(op, UNSUPPORTED.format(what=why))
        return None
    ptr = memref_element_ptr(rewriter, memref, list(indices))
    if ptr is None:
        lctx.error(op, UNSUPPORTED.format(what=ng.mlir_type_str(t)))
    return ptr


def replace_results(rewriter: PatternRewriter, op: Operation, values: Sequence[SSAValue]) -> None:
    """Replace `op`'s results by `values`, bridging type changes with unrealized casts."""
    bridged = [cast_to(rewriter, v, r.type) for v, r in zip(values, op.results)]
    rewriter.replace(op, [], bridged)


def lower_to(rewriter: PatternRewriter, op: Operation, new: Operation) -> bool:
    """Insert `new` in the place of `op`: its first result (bridged to the type of `op`'s) replaces
    `op`'s, or, when it has none, `op` is erased. True: the rewrite is done."""
    insert_op(rewriter, new)
    if new.results:
        replace_results(rewriter, op, [new.results[0]])
    else:
        rewriter.erase(op)
    return True


OpT = TypeVar("OpT", bound=Operation)


class NvgpuPattern(LoweringPattern, Generic[OpT]):
    """One nvgpu root op, `ROOT`: the type argument of a subclass's `NvgpuPattern[...]` base (or set
    by the subclass); `rewrite` returns False when it reported a diagnostic (op left in place)."""

    ROOT: type[Operation] = Operation

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            origin, args = get_origin(base), get_args(base)
            if isinstance(origin, type) and issubclass(origin, NvgpuPattern) and args and isinstance(args[0], type):
                cls.ROOT = args[0]

    def __init__(self, lctx: LoweringContext) -> None:
        super().__init__(lctx)
        self.reported: set[int] = set()

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if type(op) is not self.ROOT or id(op) in self.reported:
            return
        try:
            done = self.rewrite(cast(OpT, op), rewriter)
        except Exception as exc:  # never crash the pipeline: every failure is a diagnostic
            self.lctx.error(op, f"internal error lowering '{op.name}': {exc}")
            done = False
        if not done:
            self.reported.add(id(op))

    def rewrite(self, op: OpT, rewriter: PatternRewriter) -> bool:
        raise NotImplementedError

    def error(self, op: Operation, msg: str) -> bool:
        self.lctx.error(op, msg)
        return False
