"""arith / scf / cf / math / memref / func / vector / index -> llvm, with bare-pointer memrefs.

`scf_patterns` turns structured control flow into blocks and `cf` branches first; `std_patterns`
then rewrites every remaining op one-to-one. What cannot be lowered is left in place and the
stage's legality check reports it at the op (never a crash).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tile_lsp.compiler.lowering.common import LoweringContext, LoweringPattern
from tile_lsp.compiler.lowering.llvm_build import (
    emit,
    fastmath_flags,
    inherent,
    int_constant,
    make_op,
    new_func,
    op_class,
)
from tile_lsp.compiler.lowering.types import (
    cast_converted,
    cast_to,
    convert_type,
    replace_with,
)
from tile_lsp.compiler.mlir.xdsl_fast import int_attr, int_type

UNSUPPORTED = "not supported by the nvvm stage: {what}"

# One-to-one ops: source -> llvm op (operands and result converted, same arity).
BINARY: dict[str, str] = {
    "arith.addi": "llvm.add", "arith.subi": "llvm.sub", "arith.muli": "llvm.mul",
    "arith.divsi": "llvm.sdiv", "arith.divui": "llvm.udiv", "arith.remsi": "llvm.srem",
    "arith.remui": "llvm.urem", "arith.andi": "llvm.and", "arith.ori": "llvm.or", "arith.xori": "llvm.xor",
    "arith.shli": "llvm.shl", "arith.shrsi": "llvm.ashr", "arith.shrui": "llvm.lshr",
    "arith.maxsi": "llvm.intr.smax", "arith.minsi": "llvm.intr.smin",
    "arith.maxui": "llvm.intr.umax", "arith.minui": "llvm.intr.umin",
    "arith.addf": "llvm.fadd", "arith.subf": "llvm.fsub", "arith.mulf": "llvm.fmul",
    "arith.divf": "llvm.fdiv", "arith.remf": "llvm.frem",
    "arith.maximumf": "llvm.intr.maximum", "arith.minimumf": "llvm.intr.minimum",
    "arith.maxnumf": "llvm.intr.maxnum", "arith.minnumf": "llvm.intr.minnum",
}
# index ops lower as their arith twins: index.X -> arith.Y.
_INDEX_AS_ARITH = {
    "add": "addi", "sub": "subi", "mul": "muli", "divs": "divsi", "divu": "divui", "rems": "remsi",
    "remu": "remui", "and": "andi", "or": "ori", "xor": "xori", "shl": "shli", "shrs": "shrsi", "shru": "shrui",
    "maxs": "maxsi", "mins": "minsi", "maxu": "maxui", "minu": "minui",
}
BINARY.update({f"index.{name}": BINARY[f"arith.{twin}"] for name, twin in _INDEX_AS_ARITH.items()})
# math ops with an LLVM intrinsic (used outside device code and for types libdevice lacks).
MATH_INTRINSICS: dict[str, str] = {
    "math.absf": "llvm.intr.fabs", "math.sqrt": "llvm.intr.sqrt", "math.fma": "llvm.intr.fma",
    "math.ceil": "llvm.intr.ceil", "math.floor": "llvm.intr.floor", "math.copysign": "llvm.intr.copysign",
    "math.exp": "llvm.intr.exp", "math.exp2": "llvm.intr.exp2", "math.log": "llvm.intr.log",
    "math.log2": "llvm.intr.log2", "math.log10": "llvm.intr.log10", "math.sin": "llvm.intr.sin",
    "math.cos": "llvm.intr.cos", "math.powf": "llvm.intr.pow", "math.round": "llvm.intr.round",
    "math.roundeven": "llvm.intr.roundeven", "math.trunc": "llvm.intr.trunc", "math.tan": "llvm.intr.tan",
    "math.tanh": "llvm.intr.tanh", "math.ctpop": "llvm.intr.ctpop",
}
CASTS: dict[str, str] = {
    "arith.extsi": "llvm.sext", "arith.extui": "llvm.zext", "arith.trunci": "llvm.trunc",
    "arith.extf": "llvm.fpext", "arith.truncf": "llvm.fptrunc", "arith.sitofp": "llvm.sitofp",
    "arith.uitofp": "llvm.uitofp", "arith.fptosi": "llvm.fptosi", "arith.fptoui": "llvm.fptoui",
    "arith.bitcast": "llvm.bitcast",
}
INDEX_CASTS = {"arith.index_cast": True, "arith.index_castui": False, "index.casts": True, "index.castu": False}
# arith/index cmpi predicate names in LLVM's icmp order (arith's numbering is the same).
ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def _width(t: Attribute) -> int | None:
    if isinstance(t, VectorType):
        t = t.get_element_type()
    if isinstance(t, IntegerType):
        return t.width.data
    return None


def convertible(op: Operation) -> bool:
    """Whether every operand and result type of `op` has an llvm type (checked before any rewrite,
    so a pattern that gives up has changed nothing)."""
    return all(convert_type(v.type) is not None for v in (*op.operands, *op.results))


def _converted_operands(rewriter: PatternRewriter, op: Operation) -> list[SSAValue] | None:
    if not convertible(op):
        return None
    values = [cast_converted(rewriter, v) for v in op.operands]
    if any(v is None for v in values):
        return None
    return [v for v in values if v is not None]


_NO_FASTMATH = llvm.FastMathAttr(None)


def _fastmath(op: Operation) -> llvm.FastMathAttr | None:
    names = fastmath_flags(op)
    if not names:
        return None
    order = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")
    if all(f in names for f in order):
        return llvm.FastMathAttr("fast")
    return llvm.FastMathAttr(tuple(llvm.FastMathFlag(f) for f in order if f in names))


def _llvm_properties(cls: type[Operation], op: Operation) -> dict[str, Attribute]:
    """The properties the llvm op `cls` made from `op` carries: no overflow flags, `op`'s fastmath."""
    props = cls.get_irdl_definition().properties if issubclass(cls, IRDLOperation) else {}
    out: dict[str, Attribute] = {}
    if "overflowFlags" in props:
        out["overflowFlags"] = int_attr(0, 32)
    if "fastmathFlags" in props:
        out["fastmathFlags"] = _fastmath(op) or _NO_FASTMATH
    return out


def _in_place(rewriter: PatternRewriter, op: Operation, cls: type[Operation], properties: dict[str, Attribute]) -> bool:
    """Turn `op` itself into a `cls` op with `properties` when nothing else changes: operand and
    result types that are llvm types already (no casts either way), no attributes, regions or
    successors, both plain IRDL op classes. Most ops of the nvvm stage are such one-to-one arith
    ops, and keeping the op object skips building a new one, rewiring every use and erasing the
    old one. The IR is the one `replace_with` would leave (a test compares the two)."""
    if (
        not IN_PLACE
        or op.attributes
        or op.regions
        or op.successors
        or not isinstance(op, IRDLOperation)
        or not issubclass(cls, IRDLOperation)
        or any(convert_type(v.type) != v.type for v in (*op.operands, *op.results))
    ):
        return False
    op.__class__ = cls
    op.properties = properties
    rewriter.handle_operation_modification(op)
    rewriter.has_done_action = True
    return True


# `_in_place` on (False: always build a new op; the test that compares the two sets it).
IN_PLACE = True


class LowerOneToOne(LoweringPattern):
    """Binary arith/index ops, casts and math intrinsics: one llvm op each."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        name = BINARY.get(op.name) or CASTS.get(op.name) or MATH_INTRINSICS.get(op.name)
        if name is None or len(op.results) != 1 or not convertible(op):
            return
        result = convert_type(op.results[0].type)
        if isinstance(result, llvm.LLVMArrayType):
            return  # n-D vector arithmetic is not unrolled: the legality check reports it
        if result is None:
            return
        cls = op_class(name)
        plain = op.name == "arith.uitofp" or op.name == "arith.bitcast"
        properties = {} if plain else _llvm_properties(cls, op)
        if _in_place(rewriter, op, cls, properties):
            return
        operands = _converted_operands(rewriter, op)
        if operands is None:
            return
        replace_with(rewriter, op, make_op(name, operands, [result], properties))


class LowerIndexCast(RewritePattern):
    """`arith.index_cast` (sext/trunc) and `arith.index_castui` (zext/trunc), index = i64."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name not in INDEX_CASTS:
            return
        signed = INDEX_CASTS[op.name]
        result = convert_type(op.results[0].type)
        source_type = convert_type(op.operands[0].type)
        if result is None or source_type is None:
            return
        w_in, w_out = _width(source_type), _width(result)
        if w_in is None or w_out is None:
            return
        operands = _converted_operands(rewriter, op)
        if operands is None:
            return
        src = operands[0]
        if w_in == w_out:
            rewriter.replace(op, [], [cast_to(rewriter, src, op.results[0].type)])
            return
        if w_out > w_in:
            new: Operation = llvm.SExtOp(src, result) if signed else llvm.ZExtOp(src, result)
        else:
            new = llvm.TruncOp(src, result)
        replace_with(rewriter, op, new)


class LowerCompare(RewritePattern):
    """`arith.cmpi` -> `llvm.icmp`, `arith.cmpf` -> `llvm.fcmp` (same predicate numbering)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name not in ("arith.cmpi", "arith.cmpf", "index.cmp") or not convertible(op):
            return
        pred = op.properties.get("predicate")
        if pred is None:
            pred = op.properties.get("pred")  # index.cmp
        if isinstance(pred, IntegerAttr):
            value = int(pred.value.data)
        else:
            text = str(getattr(pred, "data", pred)).split(".")[-1].strip("<> ")
            if text not in ICMP:
                return
            value = ICMP.index(text)
        predicate = cast("IntegerAttr[IntegerType]", int_attr(value, i64))
        properties: dict[str, Attribute] = {"predicate": predicate}
        if op.name == "arith.cmpf":
            properties["fastmathFlags"] = _fastmath(op) or llvm.FastMathAttr(None)
        cls = llvm.FCmpOp if op.name == "arith.cmpf" else llvm.ICmpOp
        if _in_place(rewriter, op, cls, properties):
            return
        operands = _converted_operands(rewriter, op)
        if operands is None:
            return
        new = cls(operands[0], operands[1], predicate)
        new.properties.update(properties)
        replace_with(rewriter, op, new)


class LowerSelectConstant(RewritePattern):
    """`arith.select` -> `llvm.select`; `arith.constant` / `index.constant` -> `llvm.mlir.constant`;
    `arith.negf` -> `llvm.fneg`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name == "arith.select":
            if not convertible(op) or _in_place(rewriter, op, llvm.SelectOp, {}):
                return
            operands = _converted_operands(rewriter, op)
            if operands is not None:
                replace_with(rewriter, op, llvm.SelectOp(*operands))
        elif op.name in ("arith.constant", "index.constant"):
            self._constant(op, rewriter)
        elif op.name == "ub.poison":
            result = convert_type(op.results[0].type)
            if result is not None and not _in_place(rewriter, op, op_class("llvm.mlir.poison"), {}):
                replace_with(rewriter, op, make_op("llvm.mlir.poison", [], [result]))
        elif op.name == "math.absi":
            operands = _converted_operands(rewriter, op)
            if operands is not None:
                replace_with(rewriter, op, make_op("llvm.intr.abs", operands, [operands[0].type],
                                               {"is_int_min_poison": IntegerAttr(0, 1)}))
        elif op.name == "arith.negf":
            operands = _converted_operands(rewriter, op)
            if operands is not None:
                replace_with(rewriter, op, make_op("llvm.fneg", operands, [operands[0].type],
                                               {"fastmathFlags": _fastmath(op) or llvm.FastMathAttr(None)}))

    @staticmethod
    def _constant(op: Operation, rewriter: PatternRewriter) -> None:
        value = inherent(op, "value")
        result = convert_type(op.results[0].type)
        if value is None or result is None:
            return
        if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
            value = IntegerAttr(value.value.data, i64)
        elif isinstance(value, DenseIntOrFPElementsAttr) and isinstance(value.get_element_type(), IndexType):
            shape = value.get_shape() or ()
            value = DenseIntOrFPElementsAttr.from_list(VectorType(i64, shape), [int(v) for v in value.get_values()])
        elif not isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr):
            return
        replace_with(rewriter, op, llvm.ConstantOp(value, result))


# ---------------------------------------------------------------- control flow


def convert_block_args(block: Block) -> bool:
    """Give `block`'s arguments their llvm types (a cast at the block start keeps old uses valid)."""
    for index, arg in enumerate(list(block.args)):
        target = convert_type(arg.type)
        if target is None:
            return False
        if target == arg.type:
            continue
        new_arg = block.insert_arg(target, index)
        cast = make_op("builtin.unrealized_conversion_cast", [new_arg], [arg.type])
        if block.first_op is None:
            block.add_op(cast)
        else:
            block.insert_op_before(cast, block.first_op)
        arg.replace_all_uses_with(cast.results[0])
        block.erase_arg(arg)
    return True


def _branch_args(rewriter: PatternRewriter, block: Block, values: Sequence[SSAValue]) -> list[SSAValue] | None:
    if not convert_block_args(block):
        return None
    return [cast_to(rewriter, v, a.type) for v, a in zip(values, block.args, strict=True)]


def _branch_in_place(rewriter: PatternRewriter, op: Operation, cls: type[Operation], groups: Sequence[Sequence[SSAValue]]) -> bool:
    """Turn the branch `op` itself into the llvm branch `cls` when no operand needs a cast: each
    group of operands (per successor, whose arguments are converted) has its block's argument
    types already, and there is no attribute. Same operands, successors and segment sizes as
    the op the rewrite would build (`_in_place` for branches; a test compares the two)."""
    if not IN_PLACE or op.attributes:
        return False
    for values, block in zip(groups, op.successors, strict=True):
        if any(v.type != a.type for v, a in zip(values, block.args, strict=True)):
            return False
    op.__class__ = cls
    rewriter.handle_operation_modification(op)
    rewriter.has_done_action = True
    return True


class LowerBranches(RewritePattern):
    """`cf.br` / `cf.cond_br` -> `llvm.br` / `llvm.cond_br` (successor arguments converted)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name == "cf.br":
            dest = op.successors[0]
            if convert_block_args(dest) and _branch_in_place(rewriter, op, llvm.BrOp, [list(op.operands)]):
                return
            args = _branch_args(rewriter, dest, list(op.operands))
            if args is not None:
                rewriter.replace(op, llvm.BrOp(dest, *args), [])
        elif op.name == "cf.cond_br":
            sizes = inherent(op, "operandSegmentSizes")
            assert isinstance(sizes, DenseArrayBase)
            _, n_then, _ = sizes.get_values()
            cond = cast_to(rewriter, op.operands[0], int_type(1))
            then_vals = list(op.operands[1 : 1 + n_then])
            else_vals = list(op.operands[1 + n_then :])
            if (
                cond is op.operands[0]
                and convert_block_args(op.successors[0])
                and convert_block_args(op.successors[1])
                and _branch_in_place(rewriter, op, llvm.CondBrOp, [then_vals, else_vals])
            ):
                return
            then_args = _branch_args(rewriter, op.successors[0], then_vals)
            else_args = _branch_args(rewriter, op.successors[1], else_vals)
            if then_args is None or else_args is None:
                return
            rewriter.replace(op, llvm.CondBrOp(cond, op.successors[0], then_args, op.successors[1], else_args), [])


# ---------------------------------------------------------------- func


def _packed_result(types: Sequence[Attribute | None]) -> Attribute | None:
    """The llvm result type of a function returning `types`: none, the one type, or a struct."""
    if not types:
        return None
    if len(types) == 1:
        return types[0]
    return llvm.LLVMStructType.from_type_list([t for t in types if t is not None])


def pack_results(rewriter: PatternRewriter, values: Sequence[SSAValue]) -> SSAValue | None:
    """Several return values as one `!llvm.struct` (poison + insertvalue), as func-to-llvm does."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    struct = _packed_result([v.type for v in values])
    acc = emit(rewriter, make_op("llvm.mlir.poison", [], [struct])).results[0]  # type: ignore[list-item]
    for index, value in enumerate(values):
        ins = llvm.InsertValueOp(DenseArrayBase.from_list(i64, [index]), acc, value)
        rewriter.insert(ins)
        acc = ins.res
    return acc


def convert_function(op: Operation, rewriter: PatternRewriter, lctx: LoweringContext,
                     attrs: dict[str, Attribute]) -> bool:
    """Replace a func.func / gpu.func by an llvm.func with converted argument and result types."""
    ftype = inherent(op, "function_type")
    name = inherent(op, "sym_name")
    inputs = [convert_type(t) for t in ftype.inputs.data]  # type: ignore[union-attr]
    outputs = [convert_type(t) for t in ftype.outputs.data]  # type: ignore[union-attr]
    if any(t is None for t in inputs) or any(t is None for t in outputs):
        bad = [str(t) for t in (*ftype.inputs.data, *ftype.outputs.data) if convert_type(t) is None]  # type: ignore[union-attr]
        lctx.error(op, UNSUPPORTED.format(what=f"function signature type {bad[0]}"))
        return False
    region = op.regions[0]
    for block in region.blocks:
        if not convert_block_args(block):
            lctx.error(op, UNSUPPORTED.format(what="block argument type"))
            return False
    body = rewriter.move_region_contents_to_new_regions(region)
    assert isinstance(name, StringAttr)
    func = new_func(name.data, [t for t in inputs if t is not None], _packed_result(outputs), body, attrs)
    visibility = inherent(op, "sym_visibility")
    if not body.blocks and isinstance(visibility, StringAttr):
        func.properties["linkage"] = llvm.LinkageAttr("external")
    rewriter.replace(op, func, [])
    return True


class LowerFunc(LoweringPattern):
    """`func.func` -> `llvm.func`, `func.return` -> `llvm.return`, `func.call` -> `llvm.call`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name == "func.func":
            keep = {k: v for k, v in op.attributes.items() if k not in ("sym_name", "function_type", "arg_attrs",
                                                                       "res_attrs", "sym_visibility")}
            convert_function(op, rewriter, self.lctx, keep)
        elif op.name == "func.return":
            values = _converted_operands(rewriter, op)
            if values is None:
                return
            packed = pack_results(rewriter, values)
            rewriter.replace(op, llvm.ReturnOp(packed) if packed is not None else llvm.ReturnOp(), [])
        elif op.name == "func.call":
            results = [convert_type(r.type) for r in op.results]
            callee = op.properties.get("callee")
            values = _converted_operands(rewriter, op)
            if values is None or not isinstance(callee, SymbolRefAttr):
                return
            call = llvm.CallOp(callee.root_reference.data, *values, return_type=_packed_result(results))
            if len(results) <= 1:
                replace_with(rewriter, op, call)
                return
            rewriter.insert(call)
            unpacked = []
            for index, (result, t) in enumerate(zip(op.results, results, strict=True)):
                assert t is not None  # checked by _converted_operands' convertible()
                ext = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [index]), call.results[0], t)
                rewriter.insert(ext)
                unpacked.append(cast_to(rewriter, ext.res, result.type))
            rewriter.replace(op, [], unpacked)


# ---------------------------------------------------------------- vector


def _lane(rewriter: PatternRewriter, index: int) -> SSAValue:
    return int_constant(rewriter, index, i64)


class LowerVector(RewritePattern):
    """1-D vector.extract / insert / from_elements / broadcast / splat -> extractelement,
    insertelement and shufflevector."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name == "vector.extract":
            self._extract(op, rewriter)
        elif op.name == "vector.insert":
            self._insert(op, rewriter)
        elif op.name == "vector.from_elements":
            vtype = convert_type(op.results[0].type)
            if not isinstance(vtype, VectorType):
                return
            values = _converted_operands(rewriter, op)
            if values is None:
                return
            acc = emit(rewriter, make_op("llvm.mlir.poison", [], [vtype])).results[0]
            for index, value in enumerate(values):
                ins = llvm.InsertElementOp(acc, value, _lane(rewriter, index))
                rewriter.insert(ins)
                acc = ins.res
            rewriter.replace(op, [], [cast_to(rewriter, acc, op.results[0].type)])
        elif op.name in ("vector.broadcast", "vector.splat"):
            vtype = convert_type(op.results[0].type)
            if not isinstance(vtype, VectorType) or isinstance(op.operands[0].type, VectorType):
                return
            values = _converted_operands(rewriter, op)
            if values is None:
                return
            poison = emit(rewriter, make_op("llvm.mlir.poison", [], [vtype])).results[0]
            ins = llvm.InsertElementOp(poison, values[0], _lane(rewriter, 0))
            rewriter.insert(ins)
            lanes = vtype.get_shape()[0]
            shuf = llvm.ShuffleVectorOp(ins.res, ins.res, DenseArrayBase.from_list(i32, [0] * lanes), vtype)
            replace_with(rewriter, op, shuf)

    @staticmethod
    def _position(op: Operation) -> int | None:
        pos = op.properties.get("static_position")
        if not isinstance(pos, DenseArrayBase):
            return None
        values = pos.get_values()
        if len(values) != 1 or values[0] < 0 or len(op.operands) > (2 if op.name == "vector.insert" else 1):
            return None
        return int(values[0])

    @staticmethod
    def _static_positions(op: Operation) -> list[int] | None:
        pos = op.properties.get("static_position")
        if not isinstance(pos, DenseArrayBase):
            return None
        values = [int(v) for v in pos.get_values()]
        if any(v < 0 for v in values) or len(op.operands) > (2 if op.name == "vector.insert" else 1):
            return None
        return values

    def _nd(self, op: Operation, rewriter: PatternRewriter) -> bool:
        """n-D vectors (nested llvm arrays): extractvalue / insertvalue on the leading positions,
        extractelement / insertelement for a scalar in the innermost vector."""
        is_insert = op.name == "vector.insert"
        vec = op.operands[1] if is_insert else op.operands[0]
        positions = self._static_positions(op)
        arr_t = convert_type(vec.type)
        if positions is None or not isinstance(arr_t, llvm.LLVMArrayType) or not convertible(op):
            return False
        rank = len(vec.type.get_shape())  # type: ignore[attr-defined]
        outer = positions[: rank - 1]
        lane = positions[rank - 1] if len(positions) == rank else None
        agg = cast_converted(rewriter, vec)
        assert agg is not None
        inner_t: Attribute = arr_t
        for _ in outer:
            inner_t = inner_t.type  # type: ignore[attr-defined]
        if not is_insert:
            value = agg
            if outer:
                ext = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, outer), agg, inner_t)
                rewriter.insert(ext)
                value = ext.res
            if lane is not None:
                elem = make_op("llvm.extractelement", [value, _lane(rewriter, lane)], [inner_t.get_element_type()])  # type: ignore[attr-defined]
                rewriter.insert(elem)
                value = elem.results[0]
            rewriter.replace(op, [], [cast_to(rewriter, value, op.results[0].type)])
            return True
        new = cast_converted(rewriter, op.operands[0])
        assert new is not None
        if lane is not None:
            cur: SSAValue = agg
            if outer:
                ext = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, outer), agg, inner_t)
                rewriter.insert(ext)
                cur = ext.res
            ins_el = llvm.InsertElementOp(cur, new, _lane(rewriter, lane))
            rewriter.insert(ins_el)
            new = ins_el.res
        if outer:
            ins = llvm.InsertValueOp(DenseArrayBase.from_list(i64, outer), agg, new)
            rewriter.insert(ins)
            new = ins.res
        rewriter.replace(op, [], [cast_to(rewriter, new, op.results[0].type)])
        return True

    def _extract(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self._nd(op, rewriter):
            return
        pos = self._position(op)
        if pos is None or isinstance(op.results[0].type, VectorType) or not convertible(op):
            return
        src = cast_converted(rewriter, op.operands[0])
        if src is None:
            return
        ext = make_op("llvm.extractelement", [src, _lane(rewriter, pos)], [src.type.get_element_type()])  # type: ignore[attr-defined]
        replace_with(rewriter, op, ext)

    def _insert(self, op: Operation, rewriter: PatternRewriter) -> None:
        if self._nd(op, rewriter):
            return
        pos = self._position(op)
        if pos is None or isinstance(op.operands[0].type, VectorType):
            return
        values = _converted_operands(rewriter, op)
        if values is None:
            return
        replace_with(rewriter, op, llvm.InsertElementOp(values[1], values[0], _lane(rewriter, pos)))


def std_patterns(lctx: LoweringContext) -> list[RewritePattern]:
    """arith/cf/math/memref/func/vector/index -> llvm (after `scf_to_cf.scf_patterns`)."""
    from tile_lsp.compiler.lowering.memref_to_llvm import LowerMemref

    return [
        LowerOneToOne(lctx),
        LowerIndexCast(),
        LowerCompare(),
        LowerSelectConstant(),
        LowerBranches(),
        LowerMemref(lctx),
        LowerFunc(lctx),
        LowerVector(),
    ]


__all__ = [
    "BINARY",
    "CASTS",
    "MATH_INTRINSICS",
    "UNSUPPORTED",
    "convert_block_args",
    "convert_function",
    "std_patterns",
]
