"""nvgpu ops (MLIR 22): warpgroup (WGMMA) descriptors, mma, store and accumulator init."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.declarative import FormattedOp
from tile_lsp.compiler.mlir.dialects.nvgpu_mbarrier import verify_tma_descriptor
from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    WGMMA_M,
    TensorMapDescriptorType,
    WarpgroupAccumulatorType,
    WarpgroupMatrixDescriptorType,
    check_memref,
    check_tensormap,
    mlir_type_str,
    op_error,
    operand_type_error,
    result_type_error,
)

# ----------------------------------------------------------------------------------------------
# ops: warpgroup (WGMMA)
# ----------------------------------------------------------------------------------------------


@irdl_op_definition
class WarpgroupGenerateDescriptorOp(FormattedOp):
    name = "nvgpu.warpgroup.generate.descriptor"
    tensor = operand_def()
    tensorMap = operand_def()
    descriptor = result_def()
    FORMAT: ClassVar[str] = (
        "$tensor `,` $tensorMap attr-dict `:` type($tensor) `,` type($tensorMap) `->` type($descriptor)"
    )

    def verify_(self) -> None:
        check_memref(self, 0, self.tensor)
        check_tensormap(self, 1, self.tensorMap)
        desc = self.tensorMap.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_tma_descriptor(self, desc)
        if desc.field("swizzle") != "swizzle_128b":
            raise VerifyException("supports only swizzle_128b is supported for the time being")
        if desc.field("interleave") != "none":
            raise VerifyException("supports only none is supported for the time being")


def _allowed_wgmma_types(d: Attribute, a: Attribute, b: Attribute) -> bool:
    f16, bf16, f32 = Float16Type, BFloat16Type, Float32Type
    fp8 = (Float8E4M3FNType, Float8E5M2Type)
    if isinstance(a, f16) and isinstance(b, f16) and isinstance(d, (f32, f16)):
        return True
    if mlir_type_str(a) == "tf32" and mlir_type_str(b) == "tf32" and isinstance(d, f32):
        return True
    if isinstance(d, IntegerType) and d.width.data == 32:
        for w in (16, 1):
            if isinstance(a, IntegerType) and isinstance(b, IntegerType) and a.width.data == w == b.width.data:
                return True
    if isinstance(a, bf16) and isinstance(b, bf16) and isinstance(d, (f32, f16)):
        return True
    return isinstance(a, fp8) and isinstance(b, fp8) and isinstance(d, (f32, f16))


_ALLOWED_N = [8 * i for i in range(1, 33)]
_ALLOWED_N_SHORT = [8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256]


def allowed_size_n(n: int, a: Attribute) -> bool:
    floats = (BFloat16Type, Float16Type, Float32Type, Float8E4M3FNType, Float8E5M2Type)
    if (isinstance(a, floats) or mlir_type_str(a) == "tf32") and n in _ALLOWED_N:
        return True
    if isinstance(a, IntegerType) and a.width.data in (8, 1):
        return n in _ALLOWED_N_SHORT
    return False


@irdl_op_definition
class WarpgroupMmaOp(FormattedOp):
    """`nvgpu.warpgroup.mma %a, %b, %c {transposeB}? : DA, DB, ACC -> ACC`."""

    name = "nvgpu.warpgroup.mma"
    descriptorA = operand_def()
    descriptorB = operand_def()
    matrixC = operand_def()
    waitGroup = opt_prop_def(IntegerAttr)
    transposeA = opt_prop_def(UnitAttr)
    transposeB = opt_prop_def(UnitAttr)
    matrixD = result_def()
    FORMAT: ClassVar[str] = (
        "$descriptorA `,` $descriptorB `,` $matrixC attr-dict"
        " `:` type($descriptorA) `,` type($descriptorB) `,` type($matrixC) `->` type($matrixD)"
    )

    @property
    def wait_group(self) -> int:
        return self.waitGroup.value.data if self.waitGroup is not None else 1

    def verify_(self) -> None:
        for i, v in enumerate((self.descriptorA, self.descriptorB)):
            if not isinstance(v.type, WarpgroupMatrixDescriptorType):
                raise operand_type_error(self, i, "Warpgroup matrix descriptor type", v.type)
        for i, t in ((2, self.matrixC.type), (-1, self.matrixD.type)):
            if not isinstance(t, WarpgroupAccumulatorType):
                if i < 0:
                    raise result_type_error(self, 0, "", t)
                raise operand_type_error(self, i, "", t)
        if self.transposeA is not None and self.transposeB is None:
            raise op_error(
                self, "supports non-transpose A (Row Major) and transpose B (Column Major) for the time being "
            )
        a = self.descriptorA.type.tensor  # type: ignore[attr-defined]
        b = self.descriptorB.type.tensor  # type: ignore[attr-defined]
        c = self.matrixC.type.fragmented  # type: ignore[attr-defined]
        d = self.matrixD.type.fragmented  # type: ignore[attr-defined]
        if c != d:
            raise op_error(self, "type of matrix C and matrix D must be the same")
        sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()
        if len(sa) != 2 or len(sb) != 2 or len(sc) != 2 or len(d.get_shape()) != 2:
            raise op_error(self, "has matrices A, B, C and D, they must be 2 dimensional")
        if sa[1] != sb[0]:
            raise op_error(self, f"2nd dim matrix-A ({sa[1]})!= 1st dim matrix-B ({sb[0]} )")
        if sa[0] != sc[0]:
            raise op_error(self, f"1st dim matrix-A ( {sa[0]} )!= 1st dim matrix-C ( {sc[0]} )")
        if sb[1] != sc[1]:
            raise op_error(self, f"2nd dim matrix-B ( {sb[1]} ) != 2nd dim matrix-C ( {sc[1]} )")
        et_c, et_a, et_b = c.element_type, a.element_type, b.element_type
        if not _allowed_wgmma_types(et_c, et_a, et_b):
            raise op_error(
                self,
                f"'{mlir_type_str(et_c)}' += '{mlir_type_str(et_a)}' * '{mlir_type_str(et_b)}', it is not supported.",
            )
        if not allowed_size_n(sb[1], et_a):
            raise op_error(self, f"has input type '{mlir_type_str(b)}' n is set to {sb[1]}, it is not supported")
        if not isinstance(et_c, Float32Type) and not isinstance(et_a, (Float16Type, BFloat16Type)):
            raise op_error(
                self,
                f"hit a limitation: '{mlir_type_str(et_c)}' += '{mlir_type_str(et_a)}' * '{mlir_type_str(et_b)}', "
                "it is not supported yet",
            )


@irdl_op_definition
class WarpgroupMmaStoreOp(FormattedOp):
    name = "nvgpu.warpgroup.mma.store"
    matrixD = operand_def()
    dstMemref = operand_def()
    FORMAT: ClassVar[str] = "$matrixD `,` $dstMemref attr-dict `:` type($matrixD) `to` type($dstMemref)"

    def verify_(self) -> None:
        if not isinstance(self.matrixD.type, WarpgroupAccumulatorType):
            raise operand_type_error(self, 0, "", self.matrixD.type)
        check_memref(self, 1, self.dstMemref)
        v = self.matrixD.type.fragmented
        m = self.dstMemref.type
        assert isinstance(m, MemRefType)
        if not isinstance(v.element_type, Float32Type):
            raise op_error(self, "hit a limitation: only f32 results for the time being")
        vs, ms = v.get_shape(), m.get_shape()
        if len(ms) < 2 or vs[0] != ms[0] or vs[1] != ms[1]:
            raise op_error(
                self,
                f"results ['{mlir_type_str(v)}'][{vs[1]}] values. However, destination memref[{ms[0]}][{ms[1] if len(ms) > 1 else ''}]"
                "  does not have same size as results",
            )


@irdl_op_definition
class WarpgroupMmaInitAccumulatorOp(FormattedOp):
    name = "nvgpu.warpgroup.mma.init.accumulator"
    matrixC = result_def()
    FORMAT: ClassVar[str] = "attr-dict `->` type($matrixC)"

    def verify_(self) -> None:
        t = self.matrixC.type
        if not isinstance(t, WarpgroupAccumulatorType):
            raise result_type_error(self, 0, "", t)
        shape = t.fragmented.get_shape()
        elem = t.fragmented.element_type
        if len(shape) != 2 or shape[0] % WGMMA_M or not allowed_size_n(shape[1], elem):
            raise op_error(
                self,
                f"has type '{mlir_type_str(t.fragmented)}'. It does not fit into warp-group level (wgmma) matrix "
                "multiplication instruction (or not supported yet)",
            )
