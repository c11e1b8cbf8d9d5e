"""nvgpu ops: `nvgpu.rcp` (MLIR 22) and the tile-lsp extensions the back half consumes
(`nvgpu.cvt_fptrunc`, `nvgpu.cvt_fpext`, `nvgpu.fma.packed.f32x2`, `nvgpu.mul.packed.f32x2`)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    Float32Type,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from tile_lsp.compiler.mlir.dialects.declarative import FormattedOp
from tile_lsp.compiler.mlir.dialects.nvgpu_types import (
    RcpRoundingMode,
    RcpRoundingModeAttr,
    build_op,
    mlir_type_str,
    op_error,
    operand_type_error,
    parse_attrs,
    print_attr_dict,
    result_type_error,
)

# ----------------------------------------------------------------------------------------------
# ops: rcp and the tile-lsp packed extensions
# ----------------------------------------------------------------------------------------------


@irdl_op_definition
class RcpOp(IRDLOperation):
    """`nvgpu.rcp %in {rounding = approx, ftz} : vector<..xf32>`."""

    name = "nvgpu.rcp"
    input = operand_def()
    rounding = opt_prop_def(RcpRoundingModeAttr)
    ftz = opt_prop_def(UnitAttr)
    out = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> RcpOp:
        v = parser.parse_unresolved_operand()
        parser.parse_punctuation("{")
        parser.parse_keyword("rounding")
        parser.parse_punctuation("=")
        mode = parser.parse_str_enum(RcpRoundingMode)
        attrs: dict[str, Attribute] = {"rounding": RcpRoundingModeAttr(mode)}
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("ftz")
            attrs["ftz"] = UnitAttr()
        parser.parse_punctuation("}")
        attrs.update(parse_attrs(parser))
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = build_op(cls, [parser.resolve_operand(v, t)], [t], attrs)
        assert isinstance(op, RcpOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        mode = self.rounding.data.value if self.rounding is not None else "approx"
        printer.print_string(f" {{rounding = {mode}{', ftz' if self.ftz is not None else ''}}}")
        print_attr_dict(printer, self, ("rounding", "ftz"))
        printer.print_string(" : ")
        printer.print_attribute(self.out.type)

    def verify_(self) -> None:
        t = self.input.type
        if not isinstance(t, VectorType) or not isinstance(t.element_type, Float32Type) or not t.get_shape():
            raise operand_type_error(self, 0, "vector of 32-bit float values", t)
        if self.out.type != t:
            raise op_error(self, "requires the same type for all operands and results")
        mode = self.rounding.data.value if self.rounding is not None else "approx"
        if mode != "approx" or self.ftz is None:
            raise op_error(
                self, f"has a limitation. #nvgpu<rcp_rounding_mode {mode}> or non-ftz is not supported yet."
            )


class _UnaryCvt(FormattedOp):
    """`nvgpu.cvt_fptrunc %v : vector<2xf32> to vector<2xf16>` (tile-lsp extension)."""

    input = operand_def()
    res = result_def()
    FORMAT: ClassVar[str] = "$input attr-dict `:` type($input) `to` type($res)"

    def verify_(self) -> None:
        for t in (self.input.type, self.res.type):
            if not isinstance(t, VectorType) or t.get_shape() != (2,):
                raise op_error(self, f"expects 2-element vectors, got '{mlir_type_str(t)}'")


@irdl_op_definition
class CvtFpTruncOp(_UnaryCvt):
    name = "nvgpu.cvt_fptrunc"


@irdl_op_definition
class CvtFpExtOp(_UnaryCvt):
    name = "nvgpu.cvt_fpext"


class _PackedF32x2(FormattedOp):
    """`nvgpu.fma.packed.f32x2 %a, %b, %c : vector<2xf32>` (tile-lsp extension)."""

    NUM_OPERANDS: ClassVar[int] = 2
    args = var_operand_def()
    res = result_def()
    FORMAT: ClassVar[str] = "$args attr-dict `:` type($res)"
    SAME_TYPE: ClassVar[dict[str, str]] = {"args": "res"}

    def verify_(self) -> None:
        want = VectorType(Float32Type(), [2])
        if len(self.args) != self.NUM_OPERANDS:
            raise op_error(self, f"expected {self.NUM_OPERANDS} operands, got {len(self.args)}")
        for i, v in enumerate(self.args):
            if v.type != want:
                raise operand_type_error(self, i, "vector<2xf32>", v.type)
        if self.res.type != want:
            raise result_type_error(self, 0, "vector<2xf32>", self.res.type)


@irdl_op_definition
class FmaPackedF32x2Op(_PackedF32x2):
    name = "nvgpu.fma.packed.f32x2"
    NUM_OPERANDS: ClassVar[int] = 3


@irdl_op_definition
class MulPackedF32x2Op(_PackedF32x2):
    name = "nvgpu.mul.packed.f32x2"
    NUM_OPERANDS: ClassVar[int] = 2
