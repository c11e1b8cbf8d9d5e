"""gpu -> nvvm + llvm (seed 000, "GPU Dialect Lowering"): index queries, barrier, cf.assert,
printf, libdevice math, gpu.func/gpu.return and dynamic shared memory. One pattern per source op.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tile_lsp.compiler.lowering.all_reduce import COMBINERS, LowerAllReduce
from tile_lsp.compiler.lowering.common import LoweringContext, LoweringPattern
from tile_lsp.compiler.lowering.device_calls import ASSERTFAIL_ARGS, LowerAssert, LowerPrintf
from tile_lsp.compiler.lowering.libdevice_math import LIBDEVICE, LowerLibdeviceMath, LowerSincos, libdevice_callee
from tile_lsp.compiler.lowering.llvm_build import (
    emit,
    in_gpu_code,
    inherent,
    int_constant,
    make_op,
    read_sreg,
    symbol_scope,
)
from tile_lsp.compiler.lowering.types import (
    address_space,
    cast_converted,
    cast_to,
    convert_type,
    llvm_ptr,
    memref_array_type,
)

# gpu index query -> NVVM special register (seed table; the {x,y,z} suffix is the op's dimension).
SREG_BY_OP: dict[str, str] = {
    "gpu.thread_id": "tid",
    "gpu.block_id": "ctaid",
    "gpu.block_dim": "ntid",
    "gpu.grid_dim": "nctaid",
    "gpu.cluster_id": "clusterid",
    "gpu.cluster_dim": "nclusterid",
    "gpu.cluster_block_id": "cluster.ctaid",
    "gpu.cluster_dim_blocks": "cluster.nctaid",
}
SREG_SCALAR: dict[str, str] = {"gpu.subgroup_size": "warpsize", "gpu.lane_id": "laneid"}


# Queries that count from 0 (an index) vs. from 1 (a size): how a bound becomes a range.
_INDEX_QUERIES = {"gpu.thread_id", "gpu.block_id", "gpu.cluster_id", "gpu.cluster_block_id", "gpu.lane_id"}
# Which launch-size attribute of the enclosing gpu.func bounds a query.
_KNOWN_SIZE = {"gpu.thread_id": "known_block_size", "gpu.block_dim": "known_block_size",
               "gpu.block_id": "known_grid_size", "gpu.grid_dim": "known_grid_size"}
_DIM_INDEX = {"x": 0, "y": 1, "z": 2}


def _query_range(op: Operation) -> tuple[int, int] | None:
    """The value range of an index query: from `upper_bound`, else the kernel's known launch
    sizes, else 32 lanes for `gpu.lane_id` (as upstream's lowering does)."""
    bound = op.properties.get("upper_bound")
    size: int | None = int(bound.value.data) if isinstance(bound, IntegerAttr) else None
    if size is None and op.name in _KNOWN_SIZE:
        func = op.parent_op()
        while func is not None and func.name != "gpu.func":
            func = func.parent_op()
        known = inherent(func, _KNOWN_SIZE[op.name]) if func is not None else None
        if isinstance(known, DenseArrayBase):
            values = known.get_values()
            dim = _DIM_INDEX.get(_dimension(op), 0)
            if dim < len(values):
                size = int(values[dim])
                if op.name not in _INDEX_QUERIES:
                    return (size, size + 1)
    if size is None:
        return (0, 32) if op.name == "gpu.lane_id" else None
    return (0, size) if op.name in _INDEX_QUERIES else (1, size + 1)


def _to_index(rewriter: PatternRewriter, value: SSAValue) -> SSAValue:
    """i32 -> index as the seed writes it: `arith.index_cast %r : i32 to index`."""
    cast = arith.IndexCastOp(value, IndexType())
    rewriter.insert(cast)
    return cast.result


def _dimension(op: Operation) -> str:
    dim = op.properties.get("dimension")
    data = getattr(dim, "data", "x")
    return str(getattr(data, "value", data))


class LowerIndexQuery(RewritePattern):
    """`gpu.thread_id x` (and the other eight queries) -> `nvvm.read.ptx.sreg.tid.x` + index_cast."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name in SREG_BY_OP:
            reg = f"{SREG_BY_OP[op.name]}.{_dimension(op)}"
        elif op.name in SREG_SCALAR:
            reg = SREG_SCALAR[op.name]
        elif op.name == "gpu.global_id":
            self._global_id(op, rewriter)
            return
        else:
            return
        rewriter.replace(op, [], [_to_index(rewriter, read_sreg(rewriter, reg, _query_range(op)))])

    @staticmethod
    def _global_id(op: Operation, rewriter: PatternRewriter) -> None:
        dim = _dimension(op)
        tid = read_sreg(rewriter, f"tid.{dim}")
        ctaid = read_sreg(rewriter, f"ctaid.{dim}")
        ntid = read_sreg(rewriter, f"ntid.{dim}")
        mul = llvm.MulOp(ctaid, ntid)
        rewriter.insert(mul)
        add = llvm.AddOp(mul.res, tid)
        rewriter.insert(add)
        rewriter.replace(op, [], [_to_index(rewriter, add.res)])


class LowerBarrier(RewritePattern):
    """`gpu.barrier` -> `nvvm.barrier0` (the aligned CTA barrier; no control flow)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.barrier":
            return
        rewriter.replace(op, make_op("nvvm.barrier0"), [])


def _known_block_size(op: Operation) -> Attribute | None:
    for key in ("known_block_size", "gpu.known_block_size", "nvvm.reqntid", "nvvm.maxntid"):
        attr = inherent(op, key)
        if isinstance(attr, DenseArrayBase):
            return attr
    return None


class LowerGpuFunc(LoweringPattern):
    """`gpu.func` -> `llvm.func` (bare-pointer memref arguments); kernels keep `gpu.kernel` and get
    `nvvm.kernel`; `known_block_size` becomes `nvvm.maxntid`. Workgroup attributions become
    addrspace-3 globals, private ones allocas."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.func":
            return
        from tile_lsp.compiler.lowering.std_to_llvm import convert_function

        ftype = op.properties["function_type"]
        n_inputs = len(ftype.inputs.data)  # type: ignore[attr-defined]
        wg = inherent(op, "workgroup_attributions")
        n_wg = int(wg.value.data) if isinstance(wg, IntegerAttr) else 0
        block = op.regions[0].blocks.first
        has_attributions = block is not None and len(block.args) > n_inputs
        if has_attributions and block is not None and not self._attributions(op, block, n_inputs, n_wg, rewriter):
            return
        attrs: dict[str, Attribute] = {}
        for key, value in (*op.properties.items(), *op.attributes.items()):
            if key in ("workgroup_attributions", "sym_name", "function_type", "arg_attrs", "res_attrs",
                       "workgroup_attrib_attrs", "private_attrib_attrs", "kernel"):
                continue
            attrs[key] = value
        for key in ("known_block_size", "known_grid_size"):
            if key in attrs:
                attrs[f"gpu.{key}"] = attrs.pop(key)
        is_kernel = "gpu.kernel" in op.attributes or "kernel" in op.properties
        if is_kernel:
            attrs["gpu.kernel"] = UnitAttr()
            attrs["nvvm.kernel"] = UnitAttr()
            bounds = _known_block_size(op)
            if bounds is not None:
                attrs["gpu.known_block_size"] = attrs.get("gpu.known_block_size", bounds)
                attrs.setdefault("nvvm.maxntid", bounds)
        convert_function(op, rewriter, self.lctx, attrs)

    def _attributions(
        self, op: Operation, block: Block, n_inputs: int, n_wg: int, rewriter: PatternRewriter
    ) -> bool:
        """Replace the attribution arguments: workgroup -> `llvm.mlir.global` in addrspace 3."""
        entry_first = block.first_op
        func_name = str(getattr(inherent(op, "sym_name"), "data", "func"))
        for index, arg in enumerate(list(block.args[n_inputs:])):
            t = arg.type
            if not isinstance(t, MemRefType) or convert_type(t) is None:
                self.lctx.error(op, f"not supported by the nvvm stage: attribution of type {t}")
                return False
            array = memref_array_type(t)
            if array is None:
                return False
            if index < n_wg:
                name = f"__wg_{func_name}_{index}"
                scope = symbol_scope(op)
                if scope is None:
                    return False
                glob = llvm.GlobalOp(array, name, "internal", addr_space=3)
                glob.properties["alignment"] = IntegerAttr(16, i64)
                top = scope.regions[0].blocks.first
                assert top is not None
                top.insert_op_before(glob, op)
                addr = llvm.AddressOfOp(name, llvm_ptr(3))
                value: SSAValue = addr.result
                new_ops: list[Operation] = [addr]
            else:
                one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
                alloca = llvm.AllocaOp(one.result, array, alignment=16)
                value = alloca.res
                new_ops = [one, alloca]
                space = address_space(t.memory_space) or 0
                if space:
                    space_cast = make_op("llvm.addrspacecast", [value], [llvm_ptr(space)])
                    new_ops.append(space_cast)
                    value = space_cast.results[0]
            cast = make_op("builtin.unrealized_conversion_cast", [value], [t])
            new_ops.append(cast)
            for new in new_ops:
                new.location = op.location
                if entry_first is None:
                    block.add_op(new)
                else:
                    block.insert_op_before(new, entry_first)
            arg.replace_all_uses_with(cast.results[0])
        for arg in list(block.args[n_inputs:])[::-1]:
            block.erase_arg(arg)
        op.attributes.pop("workgroup_attributions", None)
        op.properties.pop("workgroup_attributions", None)
        return True


class LowerGpuReturn(RewritePattern):
    """`gpu.return` -> `llvm.return`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.return":
            return
        from tile_lsp.compiler.lowering.std_to_llvm import pack_results

        if any(convert_type(v.type) is None for v in op.operands):
            return
        values = [cast_converted(rewriter, v) for v in op.operands]
        packed = pack_results(rewriter, [v for v in values if v is not None])
        rewriter.replace(op, llvm.ReturnOp(packed) if packed is not None else llvm.ReturnOp(), [])


class LowerDynamicSharedMemory(RewritePattern):
    """`gpu.dynamic_shared_memory` -> address of a zero-sized `!llvm.array<0 x i8>` global in addrspace 3."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.dynamic_shared_memory":
            return
        scope = symbol_scope(op)
        if scope is None:
            return
        name = "__dynamic_shmem__0"
        top = scope.regions[0].blocks.first
        assert top is not None
        exists = any(
            isinstance(o, llvm.GlobalOp) and o.sym_name.data == name for o in top.ops
        )
        if not exists:
            glob = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(0), IntegerType(8)), name, "external", addr_space=3)
            glob.properties["alignment"] = IntegerAttr(16, i64)
            top.insert_op_before(glob, top.first_op) if top.first_op else top.add_op(glob)
        addr = llvm.AddressOfOp(name, llvm_ptr(3))
        rewriter.insert(addr)
        value = cast_to(rewriter, addr.result, op.results[0].type)
        rewriter.replace(op, [], [value])


# gpu.shuffle mode -> (nvvm.shfl.sync kind, whether the clamp is `32 - width` instead of `width - 1`).
SHUFFLE_KINDS = {"xor": ("bfly", False), "up": ("up", True), "down": ("down", False), "idx": ("idx", False)}


class LowerShuffle(RewritePattern):
    """`gpu.shuffle <mode> %v, %offset, %width : T` (32-bit T) -> `nvvm.shfl.sync` returning
    (value, valid): active mask `-1 >> (32 - width)`, clamp `width - 1` (`32 - width` for up)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.shuffle" or len(op.operands) != 3:
            return
        value, offset, width = op.operands
        if _bit_width(value.type) != 32 or offset.type != i32 or width.type != i32:
            return
        from tile_lsp.compiler.mlir.dialects import nvvm

        mode = str(getattr(op.properties["mode"], "data", "xor"))
        kind, up = SHUFFLE_KINDS[getattr(getattr(op.properties["mode"], "data", None), "value", mode)]
        one = int_constant(rewriter, 1, i32)
        minus_one = int_constant(rewriter, -1, i32)
        thirty_two = int_constant(rewriter, 32, i32)
        lanes = llvm.SubOp(thirty_two, width)
        rewriter.insert(lanes)
        mask = llvm.LShrOp(minus_one, lanes.res)
        rewriter.insert(mask)
        if up:
            clamp = lanes.res
        else:
            sub = llvm.SubOp(width, one)
            rewriter.insert(sub)
            clamp = sub.res
        if not op.results[1].uses:
            # the validity bit is unused: plain `shfl.sync` (as upstream)
            plain = nvvm.ShflOp(nvvm.ShflKind(kind), mask.res, value, offset, clamp)
            rewriter.insert(plain)
            rewriter.replace(op, [], [plain.res, int_constant(rewriter, 1, i1)])
            return
        shfl = nvvm.ShflOp(nvvm.ShflKind(kind), mask.res, value, offset, clamp, with_valid=True)
        rewriter.insert(shfl)
        struct = shfl.res.type
        val = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), shfl.res, value.type)
        ok = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), shfl.res, i1)
        del struct
        rewriter.insert(val)
        rewriter.insert(ok)
        rewriter.replace(op, [], [val.res, ok.res])


# gpu reduction kind -> nvvm.redux.sync kind (i32 only), as upstream's has-redux lowering.
REDUX_KINDS = {"add": "add", "and": "and", "or": "or", "xor": "xor", "minsi": "min", "maxsi": "max",
               "minui": "umin", "maxui": "umax"}
REDUX_MIN_SM = 80


class LowerSubgroupReduce(RewritePattern):
    """`gpu.subgroup_reduce <kind> %v [cluster(size = N)] : (T) -> T` for 32-bit scalars.

    On sm_80+ a `uniform` i32 reduction without a cluster with kind add/and/or/xor/min/max becomes
    one `nvvm.redux.sync <kind> %v, %mask(-1)` (upstream's has-redux path). Otherwise a butterfly of
    `nvvm.shfl.sync bfly` (offsets N/2 .. 1, full mask, clamp 31), each step combined with the
    kind's arith op; every lane ends with the reduced value."""

    def __init__(self, lctx: LoweringContext | None = None) -> None:
        self.lctx = lctx

    def _redux(self, op: Operation, kind_name: str, rewriter: PatternRewriter) -> bool:
        value = op.operands[0]
        target = self.lctx.options.target if self.lctx is not None else None
        if (target is None or target.cc < REDUX_MIN_SM or op.properties.get("uniform") is None
                or op.properties.get("cluster_size") is not None or kind_name not in REDUX_KINDS
                or value.type != i32):
            return False
        from tile_lsp.compiler.mlir.dialects import nvvm
        from tile_lsp.compiler.mlir.dialects.nvvm_attrs import ReduxKind

        mask = int_constant(rewriter, -1, i32)
        redux = nvvm.ReduxOp(ReduxKind(REDUX_KINDS[kind_name]), value, mask)
        rewriter.insert(redux)
        rewriter.replace(op, [], [redux.res])
        return True

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name != "gpu.subgroup_reduce" or len(op.operands) != 1:
            return
        value = op.operands[0]
        width = _bit_width(value.type)
        kind = op.properties.get("op")
        kind_name = str(getattr(getattr(kind, "data", None), "value", ""))
        if self._redux(op, kind_name, rewriter):
            return
        combiners = COMBINERS.get(kind_name)
        if width != 32 or combiners is None:
            return
        combine = combiners[1] if isinstance(value.type, Float32Type) else combiners[0]
        size_attr = op.properties.get("cluster_size")
        size = int(size_attr.value.data) if isinstance(size_attr, IntegerAttr) else 32
        stride = op.properties.get("cluster_stride")
        if combine is None or size & (size - 1) or size > 32 or (
                isinstance(stride, IntegerAttr) and stride.value.data != 1):
            return
        from tile_lsp.compiler.mlir.dialects import nvvm

        mask = int_constant(rewriter, -1, i32)
        clamp = int_constant(rewriter, 31, i32)
        acc: SSAValue = value
        offset = size // 2
        while offset >= 1:
            shfl = nvvm.ShflOp(nvvm.ShflKind("bfly"), mask, acc, int_constant(rewriter, offset, i32), clamp)
            rewriter.insert(shfl)
            acc = emit(rewriter, make_op(combine, [acc, shfl.res], [value.type])).results[0]
            offset //= 2
        rewriter.replace(op, [], [acc])


class LowerSubgroupCounts(RewritePattern):
    """`gpu.subgroup_id` = linear thread id / 32 and `gpu.num_subgroups` = ceil(threads / 32),
    from the tid/ntid special registers (warps are 32 lanes on every NVIDIA target)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name not in ("gpu.subgroup_id", "gpu.num_subgroups"):
            return
        nx, ny, nz = (read_sreg(rewriter, f"ntid.{d}") for d in "xyz")
        if op.name == "gpu.subgroup_id":
            tx, ty, tz = (read_sreg(rewriter, f"tid.{d}") for d in "xyz")
            linear = _mad(rewriter, _mad(rewriter, tz, ny, ty), nx, tx)
            shift = llvm.LShrOp(linear, int_constant(rewriter, 5, i32))
        else:
            xy = llvm.MulOp(nx, ny)
            rewriter.insert(xy)
            threads = _mad(rewriter, xy.res, nz, int_constant(rewriter, 31, i32))
            shift = llvm.LShrOp(threads, int_constant(rewriter, 5, i32))
        rewriter.insert(shift)
        rewriter.replace(op, [], [_to_index(rewriter, shift.res)])


def _mad(rewriter: PatternRewriter, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
    """a * b + c in i32."""
    mul = llvm.MulOp(a, b)
    rewriter.insert(mul)
    add = llvm.AddOp(mul.res, c)
    rewriter.insert(add)
    return add.res


def _bit_width(t: Attribute) -> int | None:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, Float32Type):
        return 32
    return None


def gpu_patterns(lctx: LoweringContext) -> list[RewritePattern]:
    """The gpu -> nvvm patterns (seed 000 GPU table), for `apply_patterns`."""
    return [
        LowerIndexQuery(),
        LowerBarrier(),
        LowerAssert(lctx),
        LowerPrintf(lctx),
        LowerLibdeviceMath(lctx),
        LowerSincos(),
        LowerDynamicSharedMemory(),
        LowerShuffle(),
        LowerSubgroupReduce(lctx),
        LowerAllReduce(lctx),
        LowerSubgroupCounts(),
    ]


def gpu_function_patterns(lctx: LoweringContext) -> list[RewritePattern]:
    """gpu.func / gpu.return -> llvm (run with the std patterns, after the body is lowered)."""
    return [LowerGpuFunc(lctx), LowerGpuReturn()]


__all__ = [
    "ASSERTFAIL_ARGS",
    "LIBDEVICE",
    "SREG_BY_OP",
    "SREG_SCALAR",
    "gpu_function_patterns",
    "gpu_patterns",
    "in_gpu_code",
    "libdevice_callee",
]
