"""llvm dialect intrinsic ops xDSL lacks, in MLIR 22 syntax (`llvm.intr.X(%a) : (T) -> T`, or
generic-only where upstream has no custom form), and the immediate flags the emitter needs."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl import irdl
from xdsl.dialects import llvm as x
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure


class _IntrinsicBase(irdl.IRDLOperation):
    """`%r = llvm.intr.<name>(%a, %b) : (T, T) -> T`"""

    args = irdl.var_operand_def()
    res = irdl.result_def()
    traits = irdl.traits_def(Pure())
    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "`(` $args `)` attr-dict `:` functional-type($args, $res)"

    def __init__(self, args: Sequence[SSAValue], result_type: Attribute | None = None) -> None:
        super().__init__(operands=[list(args)], result_types=[result_type or args[0].type])


class _FloatIntrinsicBase(_IntrinsicBase):
    fastmathFlags = irdl.opt_prop_def(x.FastMathAttr)


class _GenericIntrinsicBase(irdl.IRDLOperation):
    """Intrinsics MLIR 22 prints only generically: `"llvm.intr.vector.reduce.add"(%v) : (vector<4xi32>) -> i32`."""

    args = irdl.var_operand_def()
    res = irdl.result_def()
    traits = irdl.traits_def(Pure())

    def __init__(self, args: Sequence[SSAValue], result_type: Attribute) -> None:
        super().__init__(operands=[list(args)], result_types=[result_type])


class _ImmFlagIntrinsicBase(irdl.IRDLOperation):
    """Intrinsics with an immediate i1 flag (MLIR 22 prints them only generically)."""

    args = irdl.var_operand_def()
    res = irdl.result_def()
    traits = irdl.traits_def(Pure())

    def __init__(self, args: Sequence[SSAValue], flag: bool = False) -> None:
        super().__init__(
            operands=[list(args)],
            result_types=[args[0].type],
            properties={IMM_FLAGS[self.name]: IntegerAttr(int(flag), IntegerType(1))},
        )


# The immediate flag property of each `_ImmFlagIntrinsicBase` intrinsic.
IMM_FLAGS = {
    "llvm.intr.ctlz": "is_zero_poison",
    "llvm.intr.cttz": "is_zero_poison",
    "llvm.intr.abs": "is_int_min_poison",
}


def _intrinsic(name: str, base: type[irdl.IRDLOperation], **extra: object) -> type[irdl.IRDLOperation]:
    cls_name = "".join(p.capitalize() for p in name.replace(".", "_").split("_")) + "Op"
    body: dict[str, object] = {"name": f"llvm.intr.{name}", "__doc__": f"`llvm.intr.{name}`", **extra}
    return irdl.irdl_op_definition(type(cls_name, (base,), body))


_FLOAT_INTRINSICS = (
    "exp10",
    "log10",
    "round",
    "roundeven",
    "trunc",
    "rint",
    "nearbyint",
    "tan",
    "tanh",
    "maximum",
    "minimum",
    "fmuladd",
    "canonicalize",
    "powi",
    "ldexp",
)
_INT_INTRINSICS = ("smax", "smin", "umax", "umin", "ctpop", "bitreverse", "bswap", "fshl", "fshr")
# (fadd/fmul, which take a start value, are xDSL's; MLIR 22 prints them only generically.)
_REDUCTIONS = ("add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin", "fmax", "fmin", "fmaximum", "fminimum")

EXTRA_INTRINSICS: list[type[irdl.IRDLOperation]] = [
    *(_intrinsic(n, _FloatIntrinsicBase) for n in _FLOAT_INTRINSICS),
    *(_intrinsic(n, _IntrinsicBase) for n in _INT_INTRINSICS),
    *(
        _intrinsic(f"vector.reduce.{n}", _FloatIntrinsicBase if n.startswith("f") else _GenericIntrinsicBase)
        for n in _REDUCTIONS
    ),
    _intrinsic("ctlz", _ImmFlagIntrinsicBase, is_zero_poison=irdl.prop_def(IntegerAttr)),
    _intrinsic("cttz", _ImmFlagIntrinsicBase, is_zero_poison=irdl.prop_def(IntegerAttr)),
    _intrinsic("abs", _ImmFlagIntrinsicBase, is_int_min_poison=irdl.prop_def(IntegerAttr)),
]


@irdl.irdl_op_definition
class AssumeOp(irdl.IRDLOperation):
    """`llvm.intr.assume %cond : i1`"""

    name = "llvm.intr.assume"

    cond = irdl.operand_def(IntegerType(1))
    op_bundle_operands = irdl.var_operand_def()
    op_bundle_sizes = irdl.prop_def(DenseArrayBase.constr(i32), default_value=DenseArrayBase.from_list(i32, ()))
    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)

    def __init__(self, cond: SSAValue) -> None:
        super().__init__(operands=[cond, []], properties={"op_bundle_sizes": DenseArrayBase.from_list(i32, ())})

    @classmethod
    def parse(cls, parser: Parser) -> AssumeOp:
        # MLIR 22: `$cond : type($cond) attr-dict` (the dictionary after the type); a dictionary
        # before the colon, as this parser once printed it, is still read.
        cond = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(cond, parser.parse_type()))
        op.attributes |= attrs | parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_op_attributes(self.attributes)
