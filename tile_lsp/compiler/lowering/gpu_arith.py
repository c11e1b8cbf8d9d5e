"""Stage 3 element-wise ops (`tileaa_to_gpu.py`): per register slot, the scalar arith/math op
on each operand's slot value (`ELEMENTWISE`: nv_tileaa mnemonic -> builder), conversions with
their rounding modes, pointer arithmetic, and constants (splat or a constant global).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    FloatTF32Type,
    IntAttr,
    IntegerType,
    TensorType,
    TypeAttribute,
    i1,
    i8,
    i32,
)
from xdsl.dialects.llvm import GEP_USE_SSA_VAL, LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue

from tile_lsp.compiler.dialects.cuda_tile.floats import float_format
from tile_lsp.compiler.dialects.cuda_tile.ops_conversion import is_widening_float
from tile_lsp.compiler.lowering.gpu_convert import convert_f8, f8_format
from tile_lsp.compiler.lowering.gpu_core import (
    KernelConverter,
    Unsupported,
    Value,
    bit_width,
    cast_value,
    create_op,
    get_attr,
    is_unsigned,
    num_elements,
    scalar_type,
    str_attr,
    target_sm,
    tensor_elem,
)
from tile_lsp.compiler.lowering.gpu_rounding import needs_ptx, ptx_float_op
from tile_lsp.compiler.lowering.types import llvm_ptr
from tile_lsp.compiler.mlir.dialects import llvm_memory
from tile_lsp.compiler.mlir.dialects.llvm_ext import InlineAsmOp

# ---------------------------------------------------------------------------------------------
# Element-wise builders: (converter, source op, scalar operands, scalar result type) -> value

Builder = Callable[[KernelConverter, Operation, list[SSAValue], Attribute], SSAValue]


def _fastmath(op: Operation) -> arith.FastMathFlagsAttr | None:
    fm = op.attributes.get("fastmath")
    return fm if isinstance(fm, arith.FastMathFlagsAttr) else None


def elementwise(cv: KernelConverter, op: Operation, build: Builder) -> None:
    """Per register slot: the scalar op on each operand's slot value."""
    result = op.results[0]
    rtype = result.type
    layout = cv.layout_of(rtype)
    if layout is None:
        operands = [cv.scalar(op, x) for x in op.operands]
        cv.values[result] = build(cv, op, operands, rtype)
        return
    assert isinstance(rtype, TensorType)
    per_operand = [cv.slots(op, x, layout) for x in op.operands]
    slots = [build(cv, op, [ops[r] for ops in per_operand], scalar_type(rtype)) for r in range(layout.slots)]
    cv.values[result] = cv.tile(rtype, slots)


def arith_constant(cv: KernelConverter, op: arith.ConstantOp) -> None:
    value = op.value
    t = op.result.type
    if isinstance(t, TensorType):
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise Unsupported(op)
        data = value.get_values()
        if len(set(data)) != 1:
            cv.values[op.result] = dense_constant(cv, value, t)
            return
        scalar = cv.const(data[0], t.element_type)
        layout = cv.layout_of(t)
        assert layout is not None
        cv.values[op.result] = cv.tile(t, [scalar] * layout.slots)
        return
    if isinstance(value, FloatAttr) and scalar_type(t) != t:
        cv.values[op.result] = cv.const(value.value.data, t)
        return
    cv.values[op.result] = cv.v(arith.ConstantOp(value, t))  # type: ignore[arg-type]


def dense_constant(cv: KernelConverter, value: DenseIntOrFPElementsAttr, t: TensorType) -> Value:
    """A tile of distinct constants: a constant global of the module, each thread loading
    the elements it holds (ghost slots read element 0)."""
    elem = scalar_type(t)
    n = num_elements(t.get_shape())
    name = f"__tile_const_{cv.name}_{cv.constants}"
    cv.constants += 1
    fmt = float_format(t.element_type)
    if fmt is not None and f8_format(t) is not None:  # narrow floats: their codes, as i8 bytes
        codes = [fmt.encode(float(x)) for x in value.get_values()]  # type: ignore[arg-type]
        value = DenseIntOrFPElementsAttr.from_list(TensorType(i8, [n]), [c - 256 if c > 127 else c for c in codes])
    glob = llvm.GlobalOp(llvm.LLVMArrayType(IntAttr(n), elem), name, "internal", addr_space=1, constant=True,
                         value=value, alignment=16)
    glob.location = cv.loc or glob.location
    cv.globals.append(glob)
    base = cv.v(llvm.AddressOfOp(name, llvm_ptr(1)))
    layout = cv.layout_of(t)
    assert layout is not None
    slots = []
    for r in range(layout.slots):
        e = cv.real_element_index(layout, r)
        slots.append(cv.read_shared(base, e, elem))
    return cv.tile(t, slots)


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

