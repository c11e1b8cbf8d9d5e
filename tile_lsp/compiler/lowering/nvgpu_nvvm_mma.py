"""nvgpu -> nvvm (stage 4): mma.sync, mma.sp.sync and ldmatrix patterns."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerAttr,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tile_lsp.compiler.lowering.nvgpu_nvvm_core import (
    UNSUPPORTED,
    NvgpuPattern,
    bitcast,
    element_ptr,
    erase_unused_inserts,
    extract_elem,
    extract_value,
    insert_elem,
    insert_op,
    inserted_rows,
    poison,
    replace_results,
    rows_to_vector,
    vector_as_array,
)
from tile_lsp.compiler.mlir.dialects import nvgpu as ng
from tile_lsp.compiler.mlir.dialects import nvvm_arch as na
from tile_lsp.compiler.mlir.dialects.llvm_ext import (
    InlineAsmOp,
)
from tile_lsp.compiler.mlir.xdsl_fast import vector_type

# ----------------------------------------------------------------------------------------------
# mma.sync, mma.sp.sync, ldmatrix
# ----------------------------------------------------------------------------------------------


def _ptx_type(elem: Attribute, tf32: bool) -> str | None:
    name = ng.mlir_type_str(elem)
    if isinstance(elem, Float32Type):
        return "tf32" if tf32 else "f32"
    return {"f16": "f16", "bf16": "bf16", "f64": "f64", "i8": "s8", "i4": "s4", "i32": "s32", "i1": "b1"}.get(name)


def _operand_regs(rewriter: PatternRewriter, value: SSAValue, *, accumulate: bool) -> list[SSAValue] | None:
    """The per-thread registers of an mma operand (MLIR's layout: rows, bitcast to i32 when narrow).
    Rows a `vector.insert` chain wrote are taken as they are: no array round trip to unpack."""
    rows = inserted_rows(value)
    if rows is None:
        split = vector_as_array(rewriter, value)
        if split is None:
            return None
        _, rows = split
    t = value.type
    assert isinstance(t, VectorType)
    elem = t.element_type
    width = ng.bitwidth(elem)
    regs: list[SSAValue] = []
    for row in rows:
        row_t = row.type
        assert isinstance(row_t, VectorType)
        lanes = row_t.get_shape()[0]
        if isinstance(elem, Float16Type) or (isinstance(elem, BFloat16Type) and accumulate):
            regs.append(row)
        elif (width in (4, 8, 16) or (isinstance(elem, Float32Type) and not accumulate)) and width * lanes == 32:
            # bf16 multiplicands travel as i32 (two bf16 per register), as NVVM's mma.sync wants.
            regs.append(bitcast(rewriter, row, i32))
        else:
            regs.extend(extract_elem(rewriter, row, lane) for lane in range(lanes))
    return regs


def _mma_result_struct(c_type: VectorType) -> llvm.LLVMStructType:
    elem = c_type.element_type
    rows, cols = c_type.get_shape()
    if isinstance(elem, (Float16Type, BFloat16Type)):
        return llvm.LLVMStructType.from_type_list([vector_type(elem, (cols,))] * rows)
    return llvm.LLVMStructType.from_type_list([elem] * (rows * cols))


def _unpack_result(rewriter: PatternRewriter, res: SSAValue, c_type: VectorType) -> SSAValue:
    """Struct of fragments -> `!llvm.array<R x vector<C>>` -> the nvgpu result vector type."""
    elem = c_type.element_type
    rows, cols = c_type.get_shape()
    row_t = vector_type(elem, (cols,))
    out_rows: list[SSAValue] = []
    if isinstance(elem, (Float16Type, BFloat16Type)):
        out_rows = [extract_value(rewriter, res, i, row_t) for i in range(rows)]
    else:
        for i in range(rows):
            vec = poison(rewriter, row_t)
            for lane in range(cols):
                vec = insert_elem(rewriter, vec, extract_value(rewriter, res, i * cols + lane, elem), lane)
            out_rows.append(vec)
    return rows_to_vector(rewriter, out_rows, c_type)


class MmaSyncPattern(NvgpuPattern[ng.MmaSyncOp]):
    def rewrite(self, op: ng.MmaSyncOp, rewriter: PatternRewriter) -> bool:
        at, ct = op.matrixA.type, op.matrixC.type
        assert isinstance(at, VectorType) and isinstance(ct, VectorType)
        tf32 = op.tf32Enabled is not None
        ptx_a = _ptx_type(at.element_type, tf32)
        shape = ng.mma_shape(op)
        if ptx_a is None or shape is None:
            return self.error(op, UNSUPPORTED.format(what=f"mma.sync element type {ng.mlir_type_str(at.element_type)}"))
        a = _operand_regs(rewriter, op.matrixA, accumulate=False)
        b = _operand_regs(rewriter, op.matrixB, accumulate=False)
        c = _operand_regs(rewriter, op.matrixC, accumulate=True)
        if a is None or b is None or c is None:
            return self.error(op, UNSUPPORTED.format(what="mma.sync operands that are not 2-D vectors"))
        props: dict[str, Attribute] = {
            "shape": na.MMAShapeAttr.get(*shape),
            "layoutA": na.MMALayoutAttr.get("row"),
            "layoutB": na.MMALayoutAttr.get("col"),
            "multiplicandAPtxType": na.MMATypesAttr.get(ptx_a),
            "multiplicandBPtxType": na.MMATypesAttr.get(ptx_a),
        }
        if ptx_a in ("s8", "s4", "u8", "u4"):
            props["intOverflowBehavior"] = na.MMAIntOverflowAttr.get("satfinite")
        res_t = _mma_result_struct(ct)
        mma = na.MmaSyncOp.build(operands=[a, b, c], result_types=[res_t], properties=props)
        res = insert_op(rewriter, mma).results[0]
        operands = (op.matrixA, op.matrixB, op.matrixC)
        replace_results(rewriter, op, [_unpack_result(rewriter, res, ct)])
        for value in operands:
            erase_unused_inserts(rewriter, value)
        return True


def sparse_mma_asm(
    shape: tuple[int, int, int],
    a_ptx: str,
    c_ptx: str,
    n_a: int,
    n_b: int,
    n_c: int,
    n_d: int,
    selector: int,
    sat: bool,
) -> tuple[str, str]:
    """MLIR's `mma.sp.sync` inline-asm template and constraint string."""
    m, n, k = shape
    regs = iter(range(n_d + n_a + n_b + n_c + 1))

    def group(count: int) -> str:
        return "{" + ",".join(f"${next(regs)}" for _ in range(count)) + "}"

    d = group(n_d)
    a = group(n_a)
    b = group(n_b)
    c = group(n_c)
    meta = f"${next(regs)}"
    satf = ".satfinite" if sat else ""
    asm = f"mma.sp.sync.aligned.m{m}n{n}k{k}.row.col{satf}.{c_ptx}.{a_ptx}.{a_ptx}.{c_ptx} {d},{a},{b},{c},{meta},0x{selector:x};"
    # MLIR 22 binds every fragment (f32 accumulators included) to 32-bit `r` registers.
    constraints = ",".join(["=r"] * n_d + ["r"] * (n_a + n_b + n_c + 1))
    return asm, constraints


class MmaSparseSyncPattern(NvgpuPattern[ng.MmaSparseSyncOp]):
    """`llvm.inline_asm has_side_effects` with MLIR's sparse-MMA template (seed 002)."""

    def rewrite(self, op: ng.MmaSparseSyncOp, rewriter: PatternRewriter) -> bool:
        at, ct = op.matrixA.type, op.matrixC.type
        assert isinstance(at, VectorType) and isinstance(ct, VectorType)
        shape = ng.mma_shape(op)
        a_ptx = _ptx_type(at.element_type, op.tf32Enabled is not None)
        c_ptx = _ptx_type(ct.element_type, False)
        if shape is None or a_ptx is None or c_ptx is None:
            return self.error(
                op, UNSUPPORTED.format(what=f"mma.sp.sync element type {ng.mlir_type_str(at.element_type)}")
            )
        a = _operand_regs(rewriter, op.matrixA, accumulate=False)
        b = _operand_regs(rewriter, op.matrixB, accumulate=False)
        c = _operand_regs(rewriter, op.matrixC, accumulate=True)
        if a is None or b is None or c is None:
            return self.error(op, UNSUPPORTED.format(what="mma.sp.sync operands that are not 2-D vectors"))
        meta = bitcast(rewriter, op.sparseMetadata, i32)
        res_t = _mma_result_struct(ct)
        n_d = len(res_t.types.data)
        sat = a_ptx in ("s8", "s4", "u8", "u4")
        asm, constraints = sparse_mma_asm(shape, a_ptx, c_ptx, len(a), len(b), len(c), n_d, op.selector, sat)
        inline = InlineAsmOp(asm, constraints, [*a, *b, *c, meta], [res_t], asm_dialect=0, has_side_effects=True)
        res = insert_op(rewriter, inline).results[0]
        replace_results(rewriter, op, [_unpack_result(rewriter, res, ct)])
        return True


class LdMatrixPattern(NvgpuPattern[ng.LdMatrixOp]):
    """`nvvm.ldmatrix` (x1 -> i32, x2/x4 -> struct of i32) + extractvalue/bitcast repack."""

    def rewrite(self, op: ng.LdMatrixOp, rewriter: PatternRewriter) -> bool:
        rt = op.res.type
        assert isinstance(rt, VectorType)
        ptr = element_ptr(rewriter, self.lctx, op, op.srcMemref, op.indices)
        if ptr is None:
            return False
        num = op.numTiles.value.data
        res_t: Attribute = i32 if num == 1 else llvm.LLVMStructType.from_type_list([i32] * num)
        layout = "col" if op.transpose.value.data else "row"
        props = {
            "num": IntegerAttr(num, i32),
            "layout": na.MMALayoutAttr.get(layout),
            "shape": na.LdStMatrixShapeAttr.get(8, 8),
            "eltType": na.LdStMatrixEltTypeAttr.get("b16"),
        }
        ld = insert_op(rewriter, na.LdMatrixOp.create(operands=[ptr], result_types=[res_t], properties=props)).results[0]
        rows, cols = rt.get_shape()
        row_t = vector_type(rt.element_type, (cols,))
        out_rows: list[SSAValue] = []
        for i in range(rows):
            word = ld if num == 1 else extract_value(rewriter, ld, i, i32)
            out_rows.append(bitcast(rewriter, word, row_t))
        replace_results(rewriter, op, [rows_to_vector(rewriter, out_rows, rt)])
        return True
