"""Stage 3 fast path for `nv_tileaa.dot` on f16/bf16/tf32 (sm_80+): tensor-core `mma.sync`
(m16n8k16; tf32 m16n8k8) fed by `ldmatrix` from shared memory, the K loop one `scf.for`. fp8
operands (e4m3fn/e5m2, also one of each) are decoded to f16, exactly, and take the f16 path.

The shape of the emitted code (visible in the `gpu` stage dump):

1. The accumulators start from `c`: a uniform `c` is splat into them; otherwise c's elements go
   from its baseline `Layout` into the mma fragments through shared memory, in passes of a few
   16-row blocks (so a 128x256 f32 tile needs no 128 KiB buffer).
2. A (MxK) and B (KxN) go from their layouts into the kernel's shared buffer, row-major with the
   16-byte chunks of each row XOR-swizzled (`swizzled_index`) so that the eight row addresses of
   one `ldmatrix` hit eight different bank groups without padding (tf32: B as B^T, since
   `.trans` only moves 16-bit elements). One barrier.
3. The W = T/32 warps form a `wm x wn` grid; warp (wi, wj) owns C rows [wi*WM, (wi+1)*WM) and
   columns [wj*WN, (wj+1)*WN), i.e. `mt x nt` tiles of 16x8. One `scf.for` over K in steps of
   16 (tf32: 8) carries the accumulators (`vector<2x2xacc>`); its body loads A tiles with
   `nvvm.ldmatrix` x4 and pairs of B tiles with `nvvm.ldmatrix` x4 `.trans`, then issues one
   `mma.sync` per tile (`nvgpu.mma.sync` for f16 and tf32; bf16 needs `nvvm.mma.sync`, see
   `_Mma.nvgpu`). ldmatrix is the nvvm op because the shared buffer is an llvm global (one
   buffer for every exchange of the kernel), and nvgpu.ldmatrix takes a memref.
4. The accumulators go back into the result's baseline `Layout`, pass by pass as in 1.

`mma_fragment_*` are the PTX ISA fragment maps (thread lane, register) -> (row, col) these steps
rely on; the unit tests check them against the ISA tables and against `ldmatrix`'s maps.

`lower_dot` (the handler of `dot`) tries this path and otherwise runs the baseline: a and b
through shared memory, each thread accumulating its elements of c over K (`dot_loop`, which
`gpu_scaled.py` uses too).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    FloatTF32Type,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.lowering.gpu_convert import F8Format, convert_f8, f8_format
from tile_lsp.compiler.lowering.gpu_core import (
    Dist,
    KernelConverter,
    Unsupported,
    Value,
    bit_width,
    create_op,
    scalar_type,
    str_attr,
    target_sm,
)
from tile_lsp.compiler.lowering.layout import Layout
from tile_lsp.compiler.mlir.dialects import llvm_memory
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na
from tile_lsp.compiler.mlir.xdsl_fast import int_attr, shared, vector_type

WARP = 32
MMA_M, MMA_N, MMA_K = 16, 8, 16
MAX_STATIC_SHARED = 48 * 1024
C_PASS_BYTES = 16 * 1024  # shared memory one pass of the C write-back may use beyond A and B's


# ---------------------------------------------------------------------------------------------
# The PTX ISA maps (pure functions, checked by the unit tests)


def mma_fragment_a(lane: int, reg: int, half: int) -> tuple[int, int]:
    """m16n8k16 A (16x16, f16/bf16): (row, col) of element `half` of 32-bit register `reg`."""
    g, c = lane // 4, lane % 4
    return g + 8 * (reg % 2), 2 * c + half + 8 * (reg // 2)


def mma_fragment_b(lane: int, reg: int, half: int) -> tuple[int, int]:
    """m16n8k16 B (16x8, f16/bf16): (k, n) of element `half` of register `reg`."""
    g, c = lane // 4, lane % 4
    return 2 * c + half + 8 * reg, g


def mma_fragment_c(lane: int, index: int) -> tuple[int, int]:
    """m16n8 C/D (16x8, f32 or f16): (row, col) of accumulator element `index` (0..3);
    `vector<2x2>` row h = index // 2 holds elements 2h and 2h+1."""
    g, c = lane // 4, lane % 4
    return g + 8 * (index // 2), 2 * c + index % 2


def ldmatrix_element(lane: int, matrix: int, half: int, trans: bool) -> tuple[int, int]:
    """`ldmatrix .m8n8 .b16`: (row, col), within 8x8 matrix `matrix`, of element `half` of the
    register `matrix` that `lane` receives (rows are the 16-byte lines whose addresses lanes
    8*matrix .. 8*matrix+7 give)."""
    g, c = lane // 4, lane % 4
    if trans:
        return 2 * c + half, g
    return g, 2 * c + half


def ldmatrix_row_address(lane: int) -> tuple[int, int]:
    """The (row, col) of a 16x16 block whose 8-element line `lane` addresses for an x4 load:
    matrix lane // 8 is block quadrant (rows (m % 2) * 8, cols (m // 2) * 8)."""
    return lane % 16, 8 * (lane // 16)


def swizzle_params(row_elems: int, chunk_elems: int = 8) -> tuple[int, int]:
    """(s, m) of the XOR swizzle of a row of `row_elems` elements, `chunk_elems` of them per
    16 bytes: chunk' = chunk ^ ((row // s) % m). Eight consecutive rows then start in eight
    different 16-byte bank groups; (1, 1) (no swizzle) unless the row holds a power-of-two
    number of 16-byte chunks."""
    chunks = row_elems // chunk_elems
    if chunks < 2 or chunks & (chunks - 1):
        return 1, 1
    return max(1, 8 // chunks), min(chunks, 8)


def swizzled_index(row: int, col: int, row_elems: int, chunk_elems: int = 8) -> int:
    """Element offset of (row, col) in a swizzled row-major buffer with rows of `row_elems`."""
    s, m = swizzle_params(row_elems, chunk_elems)
    chunk = (col // chunk_elems) ^ ((row // s) % m)
    return row * row_elems + chunk * chunk_elems + col % chunk_elems


def mma_fragment_a_tf32(lane: int, reg: int) -> tuple[int, int]:
    """m16n8k8 A (16x8, tf32): (row, col) of register `reg` (0..3)."""
    g, c = lane // 4, lane % 4
    return g + 8 * (reg % 2), c + 4 * (reg // 2)


def mma_fragment_b_tf32(lane: int, reg: int) -> tuple[int, int]:
    """m16n8k8 B (8x8, tf32): (k, n) of register `reg` (0..1)."""
    g, c = lane // 4, lane % 4
    return c + 4 * reg, g


# ---------------------------------------------------------------------------------------------
# The plan: whether the fast path applies, and its tiling


@dataclass(frozen=True)
class MmaPlan:
    m: int
    n: int
    k: int
    wm: int  # warp grid rows
    wn: int  # warp grid columns
    passes: tuple[tuple[int, ...], ...]  # m-tile indices (within a warp) written back per pass
    tf32: bool = False  # m16n8k8 on f32 registers; B is staged transposed (N x K)

    @property
    def k_step(self) -> int:
        return 8 if self.tf32 else MMA_K

    @property
    def chunk(self) -> int:
        """Elements per 16 bytes of the staged inputs."""
        return 4 if self.tf32 else 8

    @property
    def warp_m(self) -> int:
        return self.m // self.wm

    @property
    def warp_n(self) -> int:
        return self.n // self.wn

    @property
    def mt(self) -> int:
        return self.warp_m // MMA_M

    @property
    def nt(self) -> int:
        return self.warp_n // MMA_N


def _mma_shape_attr(shape: tuple[int, ...]) -> ArrayAttr[IntegerAttr]:
    """nvgpu.mma.sync's `mmaShape` array, shared (one per shape)."""
    return shared(("nvgpu-mma-shape", shape), lambda: ArrayAttr([int_attr(x, i64) for x in shape]))


def _matrix_shape(t: Attribute) -> tuple[int, int] | None:
    """(rows, cols) of a 2-D tile, or of a 3-D tile with batch 1 (same layout)."""
    if not isinstance(t, TensorType):
        return None
    shape = t.get_shape()
    if len(shape) == 3 and shape[0] == 1:
        shape = shape[1:]
    if len(shape) != 2:
        return None
    return shape[0], shape[1]


def plan_mma(a_t: Attribute, b_t: Attribute, c_t: Attribute, threads: int, cc: int) -> MmaPlan | None:
    """The tiling of `dot(a, b, c)` on `threads` threads, or None when the fast path does not
    apply (target below sm_80, element types, shapes, or a layout it cannot read back)."""
    if cc < 80 or threads % WARP:
        return None
    sa, sb, sc = _matrix_shape(a_t), _matrix_shape(b_t), _matrix_shape(c_t)
    if sa is None or sb is None or sc is None:
        return None
    ea, eb, ec = scalar_type(a_t), scalar_type(b_t), scalar_type(c_t)
    tf32 = all(isinstance(t, TensorType) and isinstance(t.element_type, FloatTF32Type) for t in (a_t, b_t))
    if not (tf32 or isinstance(ea, (Float16Type, BFloat16Type))) or ea != eb:
        return None
    if not (isinstance(ec, Float32Type) or (isinstance(ec, Float16Type) and isinstance(ea, Float16Type))):
        return None
    (m, k), (k2, n) = sa, sb
    in_bytes = 4 if tf32 else 2
    if k != k2 or sc != (m, n) or m % MMA_M or n % MMA_N or k % (8 if tf32 else MMA_K):
        return None
    if in_bytes * (m * k + k * n) > MAX_STATIC_SHARED:
        return None
    warps = threads // WARP
    best: tuple[int, int, int] | None = None
    for wm in range(1, warps + 1):
        if warps % wm:
            continue
        wn = warps // wm
        if m % (MMA_M * wm) or n % ((16 if tf32 else MMA_N) * wn):  # tf32: B tiles in pairs
            continue
        loads = m // wm // MMA_M + -(-(n // wn) // 16)  # ldmatrix x4 per K step
        if best is None or loads < best[0]:
            best = (loads, wm, wn)
    if best is None:
        return None
    _, wm, wn = best
    c_layout = Layout.for_shape((m, n), threads)
    if c_layout.has_ghosts or c_layout.uniform or n % c_layout.vector:
        return None
    mt = m // wm // MMA_M
    # Every vector of C's layout must lie, over all threads, in one 16-row block of C.
    for r in range(0, c_layout.slots, c_layout.vector):
        first = c_layout.element(0, r) // n
        last = c_layout.element(threads - 1, r) // n
        if first // MMA_M != last // MMA_M:
            return None
    row_bytes = n * _byte_width(ec)
    budget = max(C_PASS_BYTES, in_bytes * (m * k + k * n))
    per_pass = max(1, min(mt, budget // (wm * MMA_M * row_bytes)))
    passes = tuple(tuple(range(p, min(mt, p + per_pass))) for p in range(0, mt, per_pass))
    if wm * MMA_M * len(passes[0]) * row_bytes > MAX_STATIC_SHARED:
        return None
    return MmaPlan(m, n, k, wm, wn, passes, tf32)


def _byte_width(t: Attribute) -> int:
    return 2 if isinstance(t, (Float16Type, BFloat16Type)) else 4


# ---------------------------------------------------------------------------------------------
# Emission


def lower_dot_mma(cv: KernelConverter, op: Operation) -> bool:
    """`dot` through mma.sync when `plan_mma` allows it; False (nothing emitted) otherwise.
    fp8 operands (e4m3fn, e5m2, or one of each) are decoded to f16 first, which holds every
    value of both formats exactly, and take the f16 path: the products are exact in the f32
    (or f16) accumulator as with the baseline's decode + fma."""
    a, b, c = op.operands[:3]
    target = cv.lctx.options.target
    cc = target.cc if target is not None else 0
    fa, fb = f8_format(a.type), f8_format(b.type)
    fp8 = fa is not None and fb is not None
    a_t, b_t = (_as_f16(a.type), _as_f16(b.type)) if fp8 else (a.type, b.type)
    plan = plan_mma(a_t, b_t, c.type, cv.threads, cc)
    if plan is None:
        return False
    va, vb = cv.get(a), cv.get(b)
    if not isinstance(va, Dist) or not isinstance(vb, Dist) or va.layout.has_ghosts or vb.layout.has_ghosts:
        return False
    if fa is not None and fb is not None:
        va, vb = _decoded(cv, va, fa, cc), _decoded(cv, vb, fb, cc)
    _Mma(cv, op, plan, Float16Type() if fp8 else None).emit(va, vb)
    return True


def _as_f16(t: Attribute) -> Attribute:
    assert isinstance(t, TensorType)
    return TensorType(Float16Type(), t.get_shape())


def _decoded(cv: KernelConverter, value: Dist, fmt: F8Format, cc: int) -> Dist:
    """The fp8 bytes of `value` as f16 values (same layout)."""
    return Dist(value.layout, value.shape, [convert_f8(cv.v, x, Float16Type(), fmt, None, cc) for x in value.slots])


class _Mma:
    def __init__(self, cv: KernelConverter, op: Operation, plan: MmaPlan, in_elem: Attribute | None = None) -> None:
        self.cv, self.op, self.plan = cv, op, plan
        self.in_elem = in_elem or scalar_type(op.operands[0].type)  # (fp8 operands: f16, see lower_dot_mma)
        self.acc = scalar_type(op.operands[2].type)

    def c(self, value: int) -> SSAValue:
        return self.cv.i32c(value)

    def bin(self, cls: Callable[[SSAValue, SSAValue], Operation], x: SSAValue, y: SSAValue | int) -> SSAValue:
        return self.cv.v(cls(x, self.c(y) if isinstance(y, int) else y))

    def emit(self, va: Dist, vb: Dist) -> None:
        cv, p = self.cv, self.plan
        c_t = self.op.operands[2].type
        layout = cv.layout_of(c_t)
        assert layout is not None
        got = cv.get(self.op.operands[2])
        if isinstance(got, Dist) and len(set(got.slots)) == 1:  # a splat constant
            got = got.slots[0]
        # The accumulators start from c: a uniform c directly, else c's elements move into the
        # fragments through shared memory (pass by pass, before A and B take the buffer).
        accs: list[list[SSAValue]]
        if isinstance(got, SSAValue):
            splat = self.splat_acc(got)
            accs = [[splat] * p.nt for _ in range(p.mt)]
        else:
            values = cv.slots(self.op, self.op.operands[2], layout)
            accs = [[values[0]] * p.nt for _ in range(p.mt)]  # each replaced by fragments_from
            for tiles in p.passes:
                self.fragments_from(layout, values, tiles, accs)
        base_a = cv.smem(self.in_elem, p.m * p.k)
        base_b = cv.smem(self.in_elem, p.k * p.n)
        self.stage(va, base_a, p.k)
        if p.tf32:
            self.stage_transposed(vb, base_b)
        else:
            self.stage(vb, base_b, p.n)
        cv.exchange_barrier()
        accs = self.k_loop(base_a, base_b, accs)
        cv.finish_exchange()
        slots: list[SSAValue | None] = [None] * layout.slots
        for tiles in p.passes:
            self.write_back(accs, tiles, layout, slots)
        assert all(s is not None for s in slots)
        cv.values[self.op.results[0]] = cv.tile(self.op.results[0].type, [s for s in slots if s is not None])

    # -- 2. staging --------------------------------------------------------------------------

    @property
    def chunk_shift(self) -> int:
        return self.plan.chunk.bit_length() - 1

    def swizzled(self, row: SSAValue, col: SSAValue, row_elems: int) -> SSAValue:
        """`swizzled_index` in i32 arithmetic."""
        s, m = swizzle_params(row_elems, self.plan.chunk)
        chunk = self.bin(arith.ShRUIOp, col, self.chunk_shift)
        if m > 1:
            sel = row if s == 1 else self.bin(arith.ShRUIOp, row, s.bit_length() - 1)
            chunk = self.bin(arith.XOrIOp, chunk, self.bin(arith.AndIOp, sel, m - 1))
        within = self.bin(arith.AndIOp, col, self.plan.chunk - 1)
        line = self.bin(arith.AddiOp, self.bin(arith.MuliOp, row, row_elems), self.bin(arith.ShLIOp, chunk, self.chunk_shift))
        return self.bin(arith.AddiOp, line, within)

    def stage(self, value: Dist, base: SSAValue, row_elems: int) -> None:
        """This thread's elements of a row-major matrix, one vector store per layout vector.
        Vector j + P starts P*T*V elements after vector j; when T*V is a whole number of rows
        and P of those steps a multiple of the swizzle period (s * m rows), its index is vector
        j's plus P*T*V, so only the first P vectors compute an index."""
        cv, layout = self.cv, value.layout
        v = layout.vector
        step = layout.threads * v
        s, m = swizzle_params(row_elems, self.plan.chunk)
        period = layout.slots // v
        if step % row_elems == 0:
            rows = step // row_elems
            period = next(q for q in range(1, 9) if (q * rows) % (s * m) == 0)
        first: list[SSAValue] = []
        for r in range(0, layout.slots, v):
            j = r // v
            if j < period:
                e = cv.element_index(layout, r)
                row = self.bin(arith.DivUIOp, e, row_elems)
                col = self.bin(arith.RemUIOp, e, row_elems)
                first.append(self.swizzled(row, col, row_elems))
                index = first[-1]
            else:
                index = self.bin(arith.AddiOp, first[j % period], (j - j % period) * step)
            ptr = cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], self.in_elem, ssa_indices=[index]))
            parts = value.slots[r : r + v]
            cv.emit(llvm_memory.StoreOp(parts[0] if v == 1 else self.vector_of(parts), ptr))

    def stage_transposed(self, value: Dist, base: SSAValue) -> None:
        """B (K x N) as B^T (N x K, swizzled rows of K): ldmatrix without .trans then gives
        tf32 B fragments (32-bit elements, which .trans cannot move)."""
        cv, p, layout = self.cv, self.plan, value.layout
        for r in range(layout.slots):
            e = cv.element_index(layout, r)
            k, n = self.bin(arith.DivUIOp, e, p.n), self.bin(arith.RemUIOp, e, p.n)
            ptr = cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], self.in_elem, ssa_indices=[self.swizzled(n, k, p.k)]))
            cv.emit(llvm_memory.StoreOp(value.slots[r], ptr))

    def vector_of(self, parts: Sequence[SSAValue]) -> SSAValue:
        """A 1-D vector of `parts` (poison + vector.insert per lane)."""
        t = vector_type(parts[0].type, (len(parts),))
        vec = self.cv.v(create_op("ub.poison", [], t))
        for q, x in enumerate(parts):
            vec = self.cv.v(create_op("vector.insert", [x, vec], t, {"static_position": DenseArrayBase.from_list(i64, [q])}))
        return vec

    # -- 3. the K loop -----------------------------------------------------------------------

    def k_loop(self, base_a: SSAValue, base_b: SSAValue, accs: list[list[SSAValue]]) -> list[list[SSAValue]]:
        cv, p = self.cv, self.plan
        tid = cv.thread_times(1)
        lane = self.bin(arith.AndIOp, tid, WARP - 1)
        warp = self.bin(arith.ShRUIOp, tid, 5)
        wi = self.bin(arith.DivUIOp, warp, p.wn)
        wj = self.bin(arith.RemUIOp, warp, p.wn)
        lrow = self.bin(arith.AndIOp, lane, 15)  # ldmatrix_row_address
        hi = self.bin(arith.ShRUIOp, lane, 4)
        # Every 16x16 block starts at a row that is a multiple of 16, and s * m divides 16
        # (swizzle_params), so the swizzle of row (block row + lrow) is that of lrow.
        sw_a = self.swizzle_term(lrow, p.k)
        sw_b = sw_a if p.tf32 else self.swizzle_term(lrow, p.n)
        a_rows = []
        for i in range(p.mt):
            row = self.bin(arith.AddiOp, self.bin(arith.MuliOp, wi, p.warp_m), self.bin(arith.AddiOp, lrow, MMA_M * i))
            a_rows.append(self.bin(arith.MuliOp, row, p.k))
        b_cols = []  # f16/bf16: swizzled column of the n-tile pair; tf32: line of B^T row
        for jj in range(-(-p.nt // 2)):
            if p.tf32:
                row = self.bin(arith.AddiOp, self.bin(arith.MuliOp, wj, p.warp_n), self.bin(arith.AddiOp, lrow, 16 * jj))
                b_cols.append(self.bin(arith.MuliOp, row, p.k))
                continue
            chunk = self.bin(arith.AddiOp, self.bin(arith.MuliOp, wj, p.warp_n // 8), self.bin(arith.AddiOp, hi, 2 * jj))
            b_cols.append(self.bin(arith.ShLIOp, self.bin(arith.XOrIOp, chunk, sw_b), 3))
        inits = [tile for row in accs for tile in row]
        body = Block(arg_types=[i32, *([self.acc_vec] * (p.mt * p.nt))])
        outer = cv.block
        cv.block = body
        k = body.args[0]
        shift = self.chunk_shift
        a_chunk = self.bin(arith.ShLIOp, self.bin(arith.XOrIOp, self.bin(arith.AddiOp, self.bin(arith.ShRUIOp, k, shift), hi), sw_a), shift)
        a_frags = [self.ldmatrix(base_a, self.bin(arith.AddiOp, a_rows[i], a_chunk), 4, False) for i in range(p.mt)]
        b_frags: list[list[SSAValue]] = []
        if p.tf32:  # B^T is addressed like A; matrices: (n-lo, k-lo), (n-hi, k-lo), (n-lo, k-hi), (n-hi, k-hi)
            for line in b_cols:
                regs = self.ldmatrix(base_b, self.bin(arith.AddiOp, line, a_chunk), 4, False)
                b_frags.extend([[regs[0], regs[2]], [regs[1], regs[3]]])
        else:
            b_line = self.bin(arith.MuliOp, self.bin(arith.AddiOp, k, lrow), p.n)
            for jj, col in enumerate(b_cols):
                count = 4 if 2 * jj + 1 < p.nt else 2
                regs = self.ldmatrix(base_b, self.bin(arith.AddiOp, b_line, col), count, True)
                b_frags.extend(regs[h : h + 2] for h in range(0, count, 2))
        if self.nvgpu:
            lanes = 1 if p.tf32 else 2
            a_frags = [[self.pack(regs, vector_type(self.in_elem, (4, lanes)))] for regs in a_frags]
            b_frags = [[self.pack(regs, vector_type(self.in_elem, (2, lanes)))] for regs in b_frags]
        new_accs = [self.mma(a_frags[i], b_frags[j], body.args[1 + i * p.nt + j])
                    for i in range(p.mt) for j in range(p.nt)]
        cv.emit(scf.YieldOp(*new_accs))
        cv.block = outer
        loop = cv.emit(scf.ForOp(self.c(0), self.c(p.k), self.c(p.k_step), inits, Region(body)))
        res: list[SSAValue] = list(loop.results)
        return [res[i * p.nt : (i + 1) * p.nt] for i in range(p.mt)]

    @property
    def nvgpu(self) -> bool:
        """f16 goes through nvgpu.mma.sync; MLIR 22's nvgpu.mma.sync cannot lower bf16 ("failed
        to deduce operand PTX types"), so bf16 uses nvvm.mma.sync on the 32-bit registers."""
        return isinstance(self.in_elem, Float16Type) or self.plan.tf32

    def mma(self, a: list[SSAValue], b: list[SSAValue], acc: SSAValue) -> SSAValue:
        """One m16n8k16 on `vector<2x2xacc>` accumulators (bf16 too: as vectors, LLVM keeps the K
        loop rolled, as scalars it unrolled it and spilled)."""
        cv = self.cv
        shape = (MMA_M, MMA_N, self.plan.k_step)
        if self.nvgpu:
            props: dict[str, Attribute] = {"mmaShape": _mma_shape_attr(shape)}
            if self.plan.tf32:
                props["tf32Enabled"] = UnitAttr()
            mma = ng.MmaSyncOp.build(operands=[a[0], b[0], acc], result_types=[self.acc_vec], properties=props)
            return cv.v(mma)
        ptx = na.MMATypesAttr.get("bf16")
        props = {
            "shape": na.MMAShapeAttr.get(*shape), "layoutA": na.MMALayoutAttr.get("row"),
            "layoutB": na.MMALayoutAttr.get("col"), "multiplicandAPtxType": ptx, "multiplicandBPtxType": ptx}
        c = [cv.v(create_op("vector.extract", [acc], self.acc, {"static_position": DenseArrayBase.from_list(i64, [h, q])}))
             for h in range(2) for q in range(2)]
        res_t = llvm.LLVMStructType.from_type_list([self.acc] * 4)
        res = cv.v(na.MmaSyncOp.build(operands=[a, b, c], result_types=[res_t], properties=props))
        vec = cv.v(create_op("ub.poison", [], self.acc_vec))
        for q in range(4):
            d = cv.v(create_op("llvm.extractvalue", [res], self.acc, {"position": DenseArrayBase.from_list(i64, [q])}))
            vec = cv.v(create_op("vector.insert", [d, vec], self.acc_vec,
                                 {"static_position": DenseArrayBase.from_list(i64, [q // 2, q % 2])}))
        return vec

    def acc_pair(self, acc: SSAValue, h: int) -> SSAValue:
        """`vector<2xacc>` of accumulator row h (mma_fragment_c elements 2h, 2h+1)."""
        return self.cv.v(create_op("vector.extract", [acc], vector_type(self.acc, (2,)),
                                   {"static_position": DenseArrayBase.from_list(i64, [h])}))

    @property
    def acc_vec(self) -> VectorType:
        return vector_type(self.acc, (2, 2))

    def swizzle_term(self, lrow: SSAValue, row_elems: int) -> SSAValue:
        s, m = swizzle_params(row_elems, self.plan.chunk)
        if m == 1:
            return self.c(0)
        sel = lrow if s == 1 else self.bin(arith.ShRUIOp, lrow, s.bit_length() - 1)
        return self.bin(arith.AndIOp, sel, m - 1)

    def splat_acc(self, value: SSAValue) -> SSAValue:
        """The accumulator of a tile whose every element is `value`."""
        vec = self.cv.v(create_op("ub.poison", [], self.acc_vec))
        for h in range(2):
            for q in range(2):
                vec = self.cv.v(create_op("vector.insert", [value, vec], self.acc_vec,
                                          {"static_position": DenseArrayBase.from_list(i64, [h, q])}))
        return vec

    def ldmatrix(self, base: SSAValue, index: SSAValue, count: int, trans: bool) -> list[SSAValue]:
        """`count` 32-bit registers of an `ldmatrix .x{count}` at element `index` of `base`."""
        cv = self.cv
        ptr = cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], self.in_elem, ssa_indices=[index]))
        res_t: Attribute = i32 if count == 1 else llvm.LLVMStructType.from_type_list([i32] * count)
        props = {"num": IntegerAttr(count, i32), "layout": na.MMALayoutAttr.get("col" if trans else "row"),
                 "shape": na.LdStMatrixShapeAttr.get(8, 8), "eltType": na.LdStMatrixEltTypeAttr.get("b16")}
        ld = cv.v(na.LdMatrixOp.create(operands=[ptr], result_types=[res_t], properties=props))
        if count == 1:
            return [ld]
        return [cv.v(create_op("llvm.extractvalue", [ld], i32, {"position": DenseArrayBase.from_list(i64, [i])}))
                for i in range(count)]

    def pack(self, regs: Sequence[SSAValue], t: VectorType) -> SSAValue:
        """32-bit registers -> the `vector<Rx2xf16>` (tf32: `vector<Rx1xf32>`) operand
        nvgpu.mma.sync takes."""
        cv = self.cv
        row_t = vector_type(self.in_elem, (t.get_shape()[1],))
        vec = cv.v(create_op("ub.poison", [], t))
        for i, reg in enumerate(regs):
            pair = cv.v(create_op("llvm.bitcast", [reg], row_t))
            vec = cv.v(create_op("vector.insert", [pair, vec], t, {"static_position": DenseArrayBase.from_list(i64, [i])}))
        return vec

    # -- 1. and 4. C between the baseline layout and the mma fragments ---------------------
    #
    # Both directions go through a compact buffer per pass: warp row wi's m-tile i (16 rows of C)
    # is block wi * len(tiles) + tiles.index(i); every vector of C's layout lies in one 16-row
    # block for all threads (plan_mma), so a thread finds its vector at a constant shift.

    def fragment_lines(self, tiles: tuple[int, ...]) -> tuple[SSAValue, list[SSAValue]]:
        """(column of this thread's first fragment element, buffer index of its row g + 8h in
        block of tile position pos, as a list over (pos, h)) - mma_fragment_c."""
        p = self.plan
        tid = self.cv.thread_times(1)
        lane = self.bin(arith.AndIOp, tid, WARP - 1)
        warp = self.bin(arith.ShRUIOp, tid, 5)
        wi = self.bin(arith.DivUIOp, warp, p.wn)
        wj = self.bin(arith.RemUIOp, warp, p.wn)
        g = self.bin(arith.ShRUIOp, lane, 2)
        col0 = self.bin(arith.AddiOp, self.bin(arith.MuliOp, wj, p.warp_n),
                        self.bin(arith.ShLIOp, self.bin(arith.AndIOp, lane, 3), 1))
        lines = []
        for pos in range(len(tiles)):
            block = self.bin(arith.AddiOp, self.bin(arith.MuliOp, wi, len(tiles)), pos)
            for h in range(2):
                row = self.bin(arith.AddiOp, self.bin(arith.MuliOp, block, MMA_M), self.bin(arith.AddiOp, g, 8 * h))
                lines.append(self.bin(arith.AddiOp, self.bin(arith.MuliOp, row, p.n), col0))
        return col0, lines

    def layout_vectors(self, layout: Layout, tiles: tuple[int, ...]) -> list[tuple[int, SSAValue]]:
        """(first slot, buffer index) of each vector of C's layout that lies in this pass."""
        p = self.plan
        out = []
        for r in range(0, layout.slots, layout.vector):
            mblk = layout.element(0, r) // p.n // MMA_M
            wi_blk, i = divmod(mblk, p.mt)
            if i not in tiles:
                continue
            shift = (wi_blk * len(tiles) + tiles.index(i) - mblk) * MMA_M * p.n
            e = self.cv.element_index(layout, r)
            out.append((r, e if shift == 0 else self.bin(arith.AddiOp, e, shift)))
        return out

    def ptr(self, base: SSAValue, index: SSAValue) -> SSAValue:
        return self.cv.v(llvm_memory.GEPOp(base, [GEP_USE_SSA_VAL], self.acc, ssa_indices=[index]))

    def fragments_from(self, layout: Layout, values: list[SSAValue], tiles: tuple[int, ...],
                       accs: list[list[SSAValue]]) -> None:
        """One pass of `c` (baseline layout) -> the accumulators of m-tiles `tiles`."""
        cv, p = self.cv, self.plan
        base = cv.smem(self.acc, p.wm * len(tiles) * MMA_M * p.n)
        v = layout.vector
        for r, index in self.layout_vectors(layout, tiles):
            parts = values[r : r + v]
            cv.emit(llvm_memory.StoreOp(parts[0] if v == 1 else self.vector_of(parts), self.ptr(base, index)))
        cv.exchange_barrier()
        _, lines = self.fragment_lines(tiles)
        pair_t = vector_type(self.acc, (2,))
        for pos, i in enumerate(tiles):
            for j in range(p.nt):
                pairs = [cv.v(llvm_memory.LoadOp(self.ptr(base, self.bin(arith.AddiOp, lines[2 * pos + h], MMA_N * j)), pair_t))
                         for h in range(2)]
                accs[i][j] = self.acc_from_pairs(pairs)
        cv.finish_exchange()

    def acc_from_pairs(self, pairs: list[SSAValue]) -> SSAValue:
        vec = self.cv.v(create_op("ub.poison", [], self.acc_vec))
        for h, pair in enumerate(pairs):
            vec = self.cv.v(create_op("vector.insert", [pair, vec], self.acc_vec,
                                      {"static_position": DenseArrayBase.from_list(i64, [h])}))
        return vec

    def write_back(self, accs: list[list[SSAValue]], tiles: tuple[int, ...], layout: Layout,
                   slots: list[SSAValue | None]) -> None:
        """One pass of the accumulators of m-tiles `tiles` -> the result's baseline layout."""
        cv, p = self.cv, self.plan
        base = cv.smem(self.acc, p.wm * len(tiles) * MMA_M * p.n)
        _, lines = self.fragment_lines(tiles)
        for pos, i in enumerate(tiles):
            for h in range(2):  # mma_fragment_c: vector row h is row g + 8h
                for j in range(p.nt):
                    ptr = self.ptr(base, self.bin(arith.AddiOp, lines[2 * pos + h], MMA_N * j))
                    cv.emit(llvm_memory.StoreOp(self.acc_pair(accs[i][j], h), ptr))
        cv.exchange_barrier()
        v = layout.vector
        for r, index in self.layout_vectors(layout, tiles):
            ptr = self.ptr(base, index)
            if v == 1:
                slots[r] = cv.v(llvm_memory.LoadOp(ptr, self.acc))
                continue
            vec = cv.v(llvm_memory.LoadOp(ptr, vector_type(self.acc, (v,))))
            for q in range(v):
                slots[r + q] = cv.v(create_op("vector.extract", [vec], self.acc,
                                              {"static_position": DenseArrayBase.from_list(i64, [q])}))
        cv.finish_exchange()



# ---------------------------------------------------------------------------------------------
# The baseline, through shared memory (the handler falls back to it)


def lower_dot(cv: KernelConverter, op: Operation) -> None:
    """`a (MxK) * b (KxN) + c (MxN)` (optionally with a leading batch dimension), baseline:
    a and b go through shared memory; each thread accumulates its elements of c over K in the
    accumulator type (inputs converted to it first). f16/bf16/tf32 and fp8 on sm_80+ take the
    mma.sync fast path (`gpu_mma.py`) when its shapes allow."""

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


__all__ = ["DotRead", "dot_loop", "dot_types", "lower_dot", "MmaPlan", "ldmatrix_element", "ldmatrix_row_address", "lower_dot_mma", "mma_fragment_a",
           "mma_fragment_b", "mma_fragment_c", "plan_mma", "swizzle_params", "swizzled_index"]
