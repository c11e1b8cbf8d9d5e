"""The nvgpu dialect in MLIR 22 syntax: types, enum attributes, ops and verifiers.

Assembly formats and verifier diagnostics follow MLIR 22 (`NVGPUOps.td`, `NVGPUDialect.cpp`):
diagnostics are MLIR's own wording so `expected-error` annotations of upstream tests match.
Three ops are tile-lsp extensions the back half consumes (no upstream counterpart):
`nvgpu.cvt_fptrunc`, `nvgpu.cvt_fpext`, `nvgpu.fma.packed.f32x2`, `nvgpu.mul.packed.f32x2`.
Operand types are checked in the verifiers (not by IRDL constraints) so the messages are MLIR's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    BoolAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnitAttr,
    UnrankedMemRefType,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tile_lsp.compiler.mlir.printing import attr_text

SHARED_AS = 3
GLOBAL_AS = 1
WARP_SIZE = 32
MAX_TMA_DIM = 256
MAX_TMA_RANK = 5
WGMMA_M = 64

# ----------------------------------------------------------------------------------------------
# helpers: type printing in MLIR's spelling, address spaces, memref strides
# ----------------------------------------------------------------------------------------------


def mlir_type_str(t: Attribute) -> str:
    """`t` printed the way MLIR prints it (xDSL writes `3 : i64` for an integer memory space)."""
    return attr_text(t).replace(" : i64>", ">")


def address_space(attr: Attribute | None) -> int | None:
    """Numeric NVVM address space of a memref memory-space attribute (None = default/generic 0)."""
    if attr is None or isinstance(attr, NoneAttr):
        return 0
    if isinstance(attr, IntegerAttr):
        return int(attr.value.data)
    if isinstance(attr, IntAttr):
        return attr.data
    text = mlir_type_str(attr)
    if text.startswith("#gpu.address_space<"):
        kind = text[len("#gpu.address_space<") : -1].strip()
        return {"global": GLOBAL_AS, "workgroup": SHARED_AS, "private": 5}.get(kind)
    return None


def is_shared_space(attr: Attribute | None) -> bool:
    return address_space(attr) == SHARED_AS and not (attr is None or isinstance(attr, NoneAttr))


def memref_strides(t: MemRefType) -> list[int | None] | None:
    """Element strides of a ranked memref (identity, strided or linear affine layout)."""
    shape = list(t.get_shape())
    layout = t.layout
    if isinstance(layout, NoneAttr):
        strides: list[int | None] = []
        acc = 1
        for dim in reversed(shape):
            strides.insert(0, acc)
            acc *= dim if dim >= 0 else 1
        return strides
    if isinstance(layout, StridedLayoutAttr):
        return [s.data if isinstance(s, IntAttr) else None for s in layout.strides.data]
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        if amap.num_symbols or len(amap.results) != 1:
            return None
        n = amap.num_dims
        try:
            base = amap.eval([0] * n, [])[0]
            return [amap.eval([1 if j == i else 0 for j in range(n)], [])[0] - base for i in range(n)]
        except Exception:
            return None
    return None


def last_dim_unit_stride(t: Attribute) -> bool:
    if not isinstance(t, MemRefType):
        return True
    strides = memref_strides(t)
    return not strides or strides[-1] == 1


def bitwidth(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, (Float16Type, BFloat16Type)):
        return 16
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    if isinstance(t, (Float8E4M3FNType, Float8E5M2Type)):
        return 8
    if isinstance(t, IndexType):
        return 64
    name = mlir_type_str(t)
    if name == "tf32":
        return 32
    return 0


def _op_error(op: Operation, msg: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {msg}")


def _operand_type_error(op: Operation, index: int, what: str, got: Attribute) -> VerifyException:
    return _op_error(op, f"operand #{index} must be {what}, but got '{mlir_type_str(got)}'")


def _result_type_error(op: Operation, index: int, what: str, got: Attribute) -> VerifyException:
    return _op_error(op, f"result #{index} must be {what}, but got '{mlir_type_str(got)}'")


# ----------------------------------------------------------------------------------------------
# enums and attributes
# ----------------------------------------------------------------------------------------------


class TensorMapSwizzleKind(StrEnum):
    NONE = "none"
    SWIZZLE_32B = "swizzle_32b"
    SWIZZLE_64B = "swizzle_64b"
    SWIZZLE_128B = "swizzle_128b"


class TensorMapL2PromoKind(StrEnum):
    NONE = "none"
    L2PROMO_64B = "l2promo_64b"
    L2PROMO_128B = "l2promo_128b"
    L2PROMO_256B = "l2promo_256b"


class TensorMapOOBKind(StrEnum):
    ZERO = "zero"
    NAN = "nan"


class TensorMapInterleaveKind(StrEnum):
    NONE = "none"
    INTERLEAVE_16B = "interleave_16b"
    INTERLEAVE_32B = "interleave_32b"


class RcpRoundingMode(StrEnum):
    APPROX = auto()
    RN = auto()
    RZ = auto()
    RM = auto()
    RP = auto()


SWIZZLE_INDEX = {k: i for i, k in enumerate(TensorMapSwizzleKind)}
L2PROMO_INDEX = {k: i for i, k in enumerate(TensorMapL2PromoKind)}
OOB_INDEX = {k: i for i, k in enumerate(TensorMapOOBKind)}
INTERLEAVE_INDEX = {k: i for i, k in enumerate(TensorMapInterleaveKind)}


@irdl_attr_definition
class TensorMapSwizzleAttr(EnumAttribute[TensorMapSwizzleKind]):
    """`#nvgpu.swizzle<swizzle_128b>`."""

    name = "nvgpu.swizzle"


@irdl_attr_definition
class TensorMapL2PromoAttr(EnumAttribute[TensorMapL2PromoKind]):
    name = "nvgpu.l2promo"


@irdl_attr_definition
class TensorMapOOBAttr(EnumAttribute[TensorMapOOBKind]):
    name = "nvgpu.oob"


@irdl_attr_definition
class TensorMapInterleaveAttr(EnumAttribute[TensorMapInterleaveKind]):
    name = "nvgpu.interleave"


@irdl_attr_definition
class RcpRoundingModeAttr(EnumAttribute[RcpRoundingMode]):
    name = "nvgpu.rcp_rounding_mode"


# ----------------------------------------------------------------------------------------------
# types
# ----------------------------------------------------------------------------------------------


def _parse_struct(parser: AttrParser, fields: dict[str, Callable[[], Attribute]]) -> dict[str, Attribute]:
    """`<name = value, ...>` in any order (MLIR's `struct(params)`)."""
    got: dict[str, Attribute] = {}
    parser.parse_punctuation("<")
    if parser.parse_optional_punctuation(">") is not None:
        return got
    while True:
        key = parser.parse_identifier()
        if key not in fields:
            parser.raise_error(f"expected one of {', '.join(fields)}")
        parser.parse_punctuation("=")
        got[key] = fields[key]()
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(">")
    return got


@irdl_attr_definition
class DeviceAsyncTokenType(ParametrizedAttribute, TypeAttribute):
    name = "nvgpu.device.async.token"


@irdl_attr_definition
class MBarrierTokenType(ParametrizedAttribute, TypeAttribute):
    name = "nvgpu.mbarrier.token"


@irdl_attr_definition
class MBarrierGroupType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = N>`."""

    name = "nvgpu.mbarrier.group"
    memorySpace: Attribute
    num_barriers: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        got = _parse_struct(
            parser,
            {"memorySpace": parser.parse_attribute, "num_barriers": lambda: IntAttr(parser.parse_integer())},
        )
        if "memorySpace" not in got:
            parser.raise_error("struct is missing required parameter: memorySpace")
        return (got["memorySpace"], got.get("num_barriers", IntAttr(1)))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<memorySpace = ")
        printer.print_attribute(self.memorySpace)
        if self.num_barriers.data != 1:
            printer.print_string(f", num_barriers = {self.num_barriers.data}")
        printer.print_string(">")


def _enum_parser(parser: AttrParser, enum: type[StrEnum]) -> Callable[[], Attribute]:
    from xdsl.dialects.builtin import StringAttr

    def parse() -> Attribute:
        return StringAttr(str(parser.parse_str_enum(enum)))

    return parse


@irdl_attr_definition
class TensorMapDescriptorType(ParametrizedAttribute, TypeAttribute):
    """`!nvgpu.tensormap.descriptor<tensor = memref<..>, swizzle = .., l2promo = .., oob = .., interleave = ..>`."""

    name = "nvgpu.tensormap.descriptor"
    tensor: MemRefType
    swizzle: Attribute
    l2promo: Attribute
    oob: Attribute
    interleave: Attribute

    FIELDS: ClassVar[tuple[tuple[str, type[StrEnum]], ...]] = (
        ("swizzle", TensorMapSwizzleKind),
        ("l2promo", TensorMapL2PromoKind),
        ("oob", TensorMapOOBKind),
        ("interleave", TensorMapInterleaveKind),
    )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        fields: dict[str, Callable[[], Attribute]] = {"tensor": parser.parse_type}
        for key, enum in cls.FIELDS:
            fields[key] = _enum_parser(parser, enum)
        got = _parse_struct(parser, fields)
        for key in ("tensor", *(k for k, _ in cls.FIELDS)):
            if key not in got:
                parser.raise_error(f"struct is missing required parameter: {key}")
        if not isinstance(got["tensor"], MemRefType):
            parser.raise_error("expected a memref type for 'tensor'")
        return (got["tensor"], got["swizzle"], got["l2promo"], got["oob"], got["interleave"])

    def field(self, key: str) -> str:
        value = getattr(self, key)
        return str(getattr(value, "data", value))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<tensor = ")
        printer.print_attribute(self.tensor)
        for key, _ in self.FIELDS:
            printer.print_string(f", {key} = {self.field(key)}")
        printer.print_string(">")


@irdl_attr_definition
class WarpgroupMatrixDescriptorType(ParametrizedAttribute, TypeAttribute):
    name = "nvgpu.warpgroup.descriptor"
    tensor: MemRefType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        got = _parse_struct(parser, {"tensor": parser.parse_type})
        if not isinstance(got.get("tensor"), MemRefType):
            parser.raise_error("expected a memref type for 'tensor'")
        return (got["tensor"],)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<tensor = ")
        printer.print_attribute(self.tensor)
        printer.print_string(">")


@irdl_attr_definition
class WarpgroupAccumulatorType(ParametrizedAttribute, TypeAttribute):
    name = "nvgpu.warpgroup.accumulator"
    fragmented: VectorType

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        got = _parse_struct(parser, {"fragmented": parser.parse_type})
        if not isinstance(got.get("fragmented"), VectorType):
            parser.raise_error("expected a vector type for 'fragmented'")
        return (got["fragmented"],)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<fragmented = ")
        printer.print_attribute(self.fragmented)
        printer.print_string(">")


# ----------------------------------------------------------------------------------------------
# parsing / printing helpers for the ops' custom formats
# ----------------------------------------------------------------------------------------------


def _operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`[` operands `]` (possibly empty)."""
    parser.parse_punctuation("[")
    if parser.parse_optional_punctuation("]") is not None:
        return []
    items = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(",") is not None:
        items.append(parser.parse_unresolved_operand())
    parser.parse_punctuation("]")
    return items


def _resolve(parser: Parser, ops: Sequence[UnresolvedOperand], t: Attribute) -> list[SSAValue]:
    return [parser.resolve_operand(o, t) for o in ops]


def _attrs(parser: Parser) -> dict[str, Attribute]:
    d = parser.parse_optional_attr_dict()
    return dict(d)


def _print_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("[")
    printer.print_list(values, printer.print_operand)
    printer.print_string("]")


def _print_attr_dict(printer: Printer, op: Operation, skip: Sequence[str] = ()) -> None:
    d = {k: v for k, v in {**op.properties, **op.attributes}.items() if k not in skip}
    if d:
        printer.print_string(" ")
        printer.print_attr_dict(d)


def _split_props(
    op_cls: type[IRDLOperation], attrs: dict[str, Attribute]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    props: dict[str, Attribute] = {}
    rest: dict[str, Attribute] = {}
    names = set(op_cls.get_irdl_definition().properties)
    for k, v in attrs.items():
        (props if k in names else rest)[k] = v
    return props, rest


def _build(
    cls: type[IRDLOperation],
    operands: Sequence[SSAValue | Sequence[SSAValue]],
    results: Sequence[Attribute],
    attrs: dict[str, Attribute],
) -> IRDLOperation:
    props, rest = _split_props(cls, attrs)
    return cls.build(operands=list(operands), result_types=list(results), properties=props, attributes=rest)


def _opt(values: Sequence[SSAValue]) -> list[SSAValue]:
    return list(values)


_IDX = IndexType()
_I1 = IntegerType(1)
_I16 = IntegerType(16)


def _check_index(op: Operation, index: int, value: SSAValue) -> None:
    if not isinstance(value.type, IndexType):
        raise _operand_type_error(op, index, "variadic of index", value.type)


def _check_mbarrier_group(op: Operation, index: int, value: SSAValue) -> None:
    """MLIR 22's type-constraint diagnostic for the barrier operand (summary 'mbarrier barrier type')."""
    if not isinstance(value.type, MBarrierGroupType):
        raise _operand_type_error(op, index, "mbarrier barrier type", value.type)


def _check_tensormap(op: Operation, index: int, value: SSAValue) -> None:
    if not isinstance(value.type, TensorMapDescriptorType):
        raise _operand_type_error(op, index, "TensorMap descriptor", value.type)


def _check_memref(op: Operation, index: int, value: SSAValue) -> None:
    if not isinstance(value.type, MemRefType):
        raise _operand_type_error(op, index, "memref of any type values", value.type)


# ----------------------------------------------------------------------------------------------
# ops: ldmatrix, mma.sync, mma.sp.sync
# ----------------------------------------------------------------------------------------------


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """`nvgpu.ldmatrix %src[%i, %j] {numTiles = 4 : i32, transpose = false} : memref<..> -> vector<..>`."""

    name = "nvgpu.ldmatrix"
    srcMemref = operand_def()
    indices = var_operand_def()
    transpose = prop_def(BoolAttr)
    numTiles = prop_def(IntegerAttr)
    res = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> LdMatrixOp:
        src = parser.parse_unresolved_operand()
        idx = _operand_list(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(src, st), _resolve(parser, idx, _IDX)], [rt], attrs)
        assert isinstance(op, LdMatrixOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.srcMemref)
        _print_list(printer, self.indices)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.srcMemref.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        st, rt = self.srcMemref.type, self.res.type
        _check_memref(self, 0, self.srcMemref)
        for i, v in enumerate(self.indices):
            _check_index(self, 1 + i, v)
        if not isinstance(rt, VectorType) or not rt.get_shape():
            raise _result_type_error(self, 0, "vector of any type values", rt)
        assert isinstance(st, MemRefType)
        if st.element_type != rt.element_type:
            raise _op_error(self, "failed to verify that srcMemref and res have same element type")
        if not is_shared_space(st.memory_space):
            raise VerifyException(
                "expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or "
                "gpu::AddressSpaceAttr(Workgroup)"
            )
        width = bitwidth(rt.element_type)
        if width > 32 or width == 0:
            raise VerifyException("nvgpu.ldmatrix works for 32b or lower")
        if self.transpose.value.data and width != 16:
            raise VerifyException("nvgpu.ldmatrix transpose works only at 16b granularity")
        shape = rt.get_shape()
        if len(shape) != 2:
            raise VerifyException("results must be 2 dimensional vector")
        if shape[1] != 32 // width:
            raise VerifyException(f"expected vector register shape[1] = {32 // width}")
        if shape[0] != self.numTiles.value.data:
            raise VerifyException("expected vector register shape[0] and numTiles to match")


def _mma_shape(op: Operation) -> tuple[int, int, int] | None:
    shape = op.properties.get("mmaShape")
    if not isinstance(shape, ArrayAttr) or len(shape.data) != 3:
        return None
    vals = [a.value.data for a in shape.data if isinstance(a, IntegerAttr)]
    return (vals[0], vals[1], vals[2]) if len(vals) == 3 else None


def verify_mma_sync(op: Operation, a: SSAValue, b: SSAValue, c: SSAValue, tf32: bool, sparse: bool) -> None:
    """MLIR's `verifyMmaSyncOp`, same checks in the same order, same wording."""
    for i, v in enumerate((a, b, c)):
        if not isinstance(v.type, VectorType) or not v.type.get_shape():
            raise _operand_type_error(op, i, "vector of any type values", v.type)
    at, bt, ct = a.type, b.type, c.type
    assert isinstance(at, VectorType) and isinstance(bt, VectorType) and isinstance(ct, VectorType)
    if at.element_type != bt.element_type:
        raise _op_error(op, "failed to verify that matrixA and matrixB have same element type")
    shape = _mma_shape(op)
    if shape is None:
        raise _op_error(op, "attribute 'mmaShape' failed to satisfy constraint: 64-bit integer array attribute")
    elem = at.element_type
    if sparse and isinstance(elem, Float64Type):
        raise VerifyException("f64 is not supported for sparse mode")
    if isinstance(elem, Float64Type):
        shape_k, num_a, num_b = 4, 1, 1
    elif isinstance(elem, (Float32Type, BFloat16Type, Float16Type)) or (
        isinstance(elem, IntegerType) and elem.width.data in (4, 8)
    ):
        w = bitwidth(elem)
        shape_k, num_a, num_b = 128 // w, 32 // w, 32 // w
    else:
        raise VerifyException(f"expected input data type (i4,i8,f16,bf16,tf32,f64) supported by {op.name}")
    num_c = 2
    m, n, k = shape
    ash, bsh, csh = at.get_shape(), bt.get_shape(), ct.get_shape()

    def prod(s: Sequence[int]) -> int:
        return (s[0] if s else 1) * (s[1] if len(s) > 1 else 1)

    factor = 2 if sparse else 1
    if prod(ash) * WARP_SIZE != m * k // factor:
        raise _op_error(op, f"expected {m * k} warp-wide matrix A elements")
    if prod(bsh) * WARP_SIZE != k * n:
        raise _op_error(op, f"expected {k * n} warp-wide matrix B elements")
    if prod(csh) * WARP_SIZE != m * n:
        raise _op_error(op, f"expected {m * n} warp-wide matrix C elements")
    if tf32 and not isinstance(elem, Float32Type):
        raise _op_error(op, "expected tf32 tensor cores only for F32 operands")
    m_tile, n_tile, k_tile = m // 8, n // 8, k // shape_k
    if len(ash) < 2 or ash[0] != m_tile * k_tile // factor or ash[1] != num_a:
        raise _op_error(op, f"expected matrix A to be shaped ({m_tile * k_tile} x {num_a})")
    if len(bsh) < 2 or bsh[0] != k_tile * n_tile or bsh[1] != num_b:
        raise _op_error(op, f"expected matrix B to be shaped ({k_tile * n_tile} x {num_b})")
    if len(csh) < 2 or csh[0] != m_tile * n_tile or csh[1] != num_c:
        raise _op_error(op, f"expected matrix C to be shaped ({m_tile * n_tile} x {num_c})")


def _parse_abc(parser: Parser) -> list[UnresolvedOperand]:
    parser.parse_punctuation("(")
    vals = [parser.parse_unresolved_operand()]
    for _ in range(2):
        parser.parse_punctuation(",")
        vals.append(parser.parse_unresolved_operand())
    parser.parse_punctuation(")")
    return vals


def _parse_abc_types(parser: Parser) -> tuple[list[Attribute], Attribute]:
    parser.parse_punctuation(":")
    parser.parse_punctuation("(")
    ts: list[Attribute] = [parser.parse_type()]
    for _ in range(2):
        parser.parse_punctuation(",")
        ts.append(parser.parse_type())
    parser.parse_punctuation(")")
    parser.parse_punctuation("->")
    return ts, parser.parse_type()


def _print_abc_types(printer: Printer, vals: Sequence[SSAValue], res: Attribute) -> None:
    printer.print_string(" : (")
    printer.print_list([v.type for v in vals], printer.print_attribute)
    printer.print_string(") -> ")
    printer.print_attribute(res)


@irdl_op_definition
class MmaSyncOp(IRDLOperation):
    """`nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector, vector, vector) -> vector`."""

    name = "nvgpu.mma.sync"
    matrixA = operand_def()
    matrixB = operand_def()
    matrixC = operand_def()
    mmaShape = prop_def(ArrayAttr)
    tf32Enabled = opt_prop_def(UnitAttr)
    res = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MmaSyncOp:
        vals = _parse_abc(parser)
        attrs = _attrs(parser)
        ts, rt = _parse_abc_types(parser)
        ops = [parser.resolve_operand(v, t) for v, t in zip(vals, ts)]
        op = _build(cls, ops, [rt], attrs)
        assert isinstance(op, MmaSyncOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list([self.matrixA, self.matrixB, self.matrixC], printer.print_operand)
        printer.print_string(")")
        _print_attr_dict(printer, self)
        _print_abc_types(printer, [self.matrixA, self.matrixB, self.matrixC], self.res.type)

    def verify_(self) -> None:
        verify_mma_sync(self, self.matrixA, self.matrixB, self.matrixC, self.tf32Enabled is not None, False)


@irdl_op_definition
class MmaSparseSyncOp(IRDLOperation):
    """`nvgpu.mma.sp.sync(%a, %b, %c) metadata(%m) {mmaShape = [..], sparsitySelector = 0 : i32} : (..) -> ..`."""

    name = "nvgpu.mma.sp.sync"
    matrixA = operand_def()
    matrixB = operand_def()
    matrixC = operand_def()
    sparseMetadata = operand_def()
    mmaShape = prop_def(ArrayAttr)
    sparsitySelector = opt_prop_def(IntegerAttr)
    tf32Enabled = opt_prop_def(UnitAttr)
    res = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MmaSparseSyncOp:
        vals = _parse_abc(parser)
        parser.parse_keyword("metadata")
        parser.parse_punctuation("(")
        meta = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        attrs = _attrs(parser)
        ts, rt = _parse_abc_types(parser)
        ops = [parser.resolve_operand(v, t) for v, t in zip(vals, ts)]
        ops.append(parser.resolve_operand(meta, VectorType(_I16, [2])))
        op = _build(cls, ops, [rt], attrs)
        assert isinstance(op, MmaSparseSyncOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list([self.matrixA, self.matrixB, self.matrixC], printer.print_operand)
        printer.print_string(") metadata(")
        printer.print_operand(self.sparseMetadata)
        printer.print_string(")")
        _print_attr_dict(printer, self)
        _print_abc_types(printer, [self.matrixA, self.matrixB, self.matrixC], self.res.type)

    @property
    def selector(self) -> int:
        sel = self.sparsitySelector
        return sel.value.data if sel is not None else 0

    def verify_(self) -> None:
        if self.selector > 1 or self.selector < 0:
            raise _op_error(self, "sparsity selector should be 0 or 1")
        meta = self.sparseMetadata.type
        if meta != VectorType(_I16, [2]):
            raise _operand_type_error(self, 3, "vector of 16-bit signless integer values of length 2", meta)
        verify_mma_sync(self, self.matrixA, self.matrixB, self.matrixC, self.tf32Enabled is not None, True)


# ----------------------------------------------------------------------------------------------
# ops: cp.async (device_async_*)
# ----------------------------------------------------------------------------------------------


@irdl_op_definition
class DeviceAsyncCopyOp(IRDLOperation):
    """`nvgpu.device_async_copy %src[..], %dst[..], N (, %srcElements)? {bypassL1}? : memref to memref`."""

    name = "nvgpu.device_async_copy"
    dst = operand_def()
    dstIndices = var_operand_def()
    src = operand_def()
    srcIndices = var_operand_def()
    srcElements = opt_operand_def()
    dstElements = prop_def(IntegerAttr)
    bypassL1 = opt_prop_def(UnitAttr)
    asyncToken = result_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> DeviceAsyncCopyOp:
        src = parser.parse_unresolved_operand()
        src_idx = _operand_list(parser)
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        dst_idx = _operand_list(parser)
        parser.parse_punctuation(",")
        n = parser.parse_integer()
        src_el = []
        if parser.parse_optional_punctuation(",") is not None:
            src_el = [parser.parse_unresolved_operand()]
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_keyword("to")
        dt = parser.parse_type()
        attrs["dstElements"] = IntegerAttr(n, IndexType())
        op = _build(
            cls,
            [
                parser.resolve_operand(dst, dt),
                _resolve(parser, dst_idx, _IDX),
                parser.resolve_operand(src, st),
                _resolve(parser, src_idx, _IDX),
                _resolve(parser, src_el, _IDX),
            ],
            [DeviceAsyncTokenType()],
            attrs,
        )
        assert isinstance(op, DeviceAsyncCopyOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        _print_list(printer, self.srcIndices)
        printer.print_string(", ")
        printer.print_operand(self.dst)
        _print_list(printer, self.dstIndices)
        printer.print_string(f", {self.dstElements.value.data}")
        if self.srcElements is not None:
            printer.print_string(", ")
            printer.print_operand(self.srcElements)
        _print_attr_dict(printer, self, ("dstElements", "operandSegmentSizes"))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        _check_memref(self, 0, self.dst)
        _check_memref(self, 1 + len(self.dstIndices), self.src)
        src, dst = self.src.type, self.dst.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        if not last_dim_unit_stride(src):
            raise VerifyException("source memref most minor dim must have unit stride")
        if not last_dim_unit_stride(dst):
            raise VerifyException("destination memref most minor dim must have unit stride")
        if not is_shared_space(dst.memory_space):
            raise VerifyException(
                "destination memref must have a memory space attribute of IntegerAttr(3) or "
                "gpu::AddressSpaceAttr(Workgroup)"
            )
        if dst.element_type != src.element_type:
            raise VerifyException("source and destination must have the same element type")
        if len(src.get_shape()) != len(self.srcIndices):
            raise _op_error(self, f"expected {len(src.get_shape())} source indices, got {len(self.srcIndices)}")
        if len(dst.get_shape()) != len(self.dstIndices):
            raise _op_error(self, f"expected {len(dst.get_shape())} destination indices, got {len(self.dstIndices)}")
        n = self.dstElements.value.data
        width = bitwidth(dst.element_type)
        size = width * n // 8
        if size not in (4, 8, 16):
            msg = f"Requested copy elements is {n} with width {width}. But copy elements could be one of "
            if width and 32 // width > 0:
                msg += f"{32 // width}, "
            if width and 64 // width > 0:
                msg += f"{64 // width}, "
            if width and 128 // width > 0:
                msg += f"{128 // width}."
            raise VerifyException(msg)
        if self.bypassL1 is not None and size != 16:
            req = 16 * 8 // width
            raise _op_error(
                self,
                f"bypassL1 does not satify alignment for '{mlir_type_str(dst)}' with destination element {n}. "
                f"Unset bypassL1, or set destination element to {req}",
            )


@irdl_op_definition
class DeviceAsyncCreateGroupOp(IRDLOperation):
    name = "nvgpu.device_async_create_group"
    inputTokens = var_operand_def()
    asyncToken = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> DeviceAsyncCreateGroupOp:
        toks = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(",") is not None:
            toks.append(parser.parse_unresolved_operand())
        attrs = _attrs(parser)
        op = _build(cls, [_resolve(parser, toks, DeviceAsyncTokenType())], [DeviceAsyncTokenType()], attrs)
        assert isinstance(op, DeviceAsyncCreateGroupOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputTokens, printer.print_operand)
        _print_attr_dict(printer, self)

    def verify_(self) -> None:
        for i, tok in enumerate(self.inputTokens):
            if not isinstance(tok.type, DeviceAsyncTokenType):
                raise _operand_type_error(self, i, "variadic of device async token type", tok.type)


@irdl_op_definition
class DeviceAsyncWaitOp(IRDLOperation):
    name = "nvgpu.device_async_wait"
    asyncDependencies = operand_def()
    numGroups = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> DeviceAsyncWaitOp:
        tok = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        op = _build(cls, [parser.resolve_operand(tok, DeviceAsyncTokenType())], [], attrs)
        assert isinstance(op, DeviceAsyncWaitOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.asyncDependencies)
        _print_attr_dict(printer, self)

    def verify_(self) -> None:
        if not isinstance(self.asyncDependencies.type, DeviceAsyncTokenType):
            raise _operand_type_error(self, 0, "device async token type", self.asyncDependencies.type)


# ----------------------------------------------------------------------------------------------
# ops: mbarrier
# ----------------------------------------------------------------------------------------------


def _parse_barrier_ref(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    bar = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    mid = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return bar, mid


def _parse_predicate(parser: Parser) -> UnresolvedOperand | None:
    if parser.parse_optional_punctuation(",") is None:
        return None
    parser.parse_keyword("predicate")
    parser.parse_punctuation("=")
    return parser.parse_unresolved_operand()


def _print_barrier_ref(printer: Printer, bar: SSAValue, mid: SSAValue) -> None:
    printer.print_string(" ")
    printer.print_operand(bar)
    printer.print_string("[")
    printer.print_operand(mid)
    printer.print_string("]")


def _print_predicate(printer: Printer, pred: SSAValue | None) -> None:
    if pred is not None:
        printer.print_string(", predicate = ")
        printer.print_operand(pred)


class _MBarrierOp(IRDLOperation):
    """Shared verifier of the mbarrier family: the barrier operand's type constraint, verbatim."""

    BARRIER_INDEX: ClassVar[int] = 0

    def barrier_value(self) -> SSAValue:
        return self.operands[self.BARRIER_INDEX]

    def verify_(self) -> None:
        _check_mbarrier_group(self, self.BARRIER_INDEX, self.barrier_value())


@irdl_op_definition
class MBarrierCreateOp(IRDLOperation):
    name = "nvgpu.mbarrier.create"
    barriers = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierCreateOp:
        attrs = _attrs(parser)
        parser.parse_punctuation("->")
        t = parser.parse_type()
        op = _build(cls, [], [t], attrs)
        assert isinstance(op, MBarrierCreateOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_attr_dict(printer, self)
        printer.print_string(" -> ")
        printer.print_attribute(self.barriers.type)

    def verify_(self) -> None:
        if not isinstance(self.barriers.type, MBarrierGroupType):
            raise _result_type_error(self, 0, "mbarrier barrier type", self.barriers.type)


@irdl_op_definition
class MBarrierInitOp(_MBarrierOp):
    """`nvgpu.mbarrier.init %b[%id], %count (, predicate = %p)? : !nvgpu.mbarrier.group<..>`."""

    name = "nvgpu.mbarrier.init"
    barriers = operand_def()
    count = operand_def()
    mbarId = operand_def()
    predicate = opt_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierInitOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        count = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(
            cls,
            [
                parser.resolve_operand(bar, t),
                parser.resolve_operand(count, _IDX),
                parser.resolve_operand(mid, _IDX),
                [parser.resolve_operand(pred, _I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, MBarrierInitOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.count)
        _print_predicate(printer, self.predicate)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)


@irdl_op_definition
class MBarrierTestWaitOp(_MBarrierOp):
    name = "nvgpu.mbarrier.test.wait"
    barriers = operand_def()
    token = operand_def()
    mbarId = operand_def()
    waitComplete = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierTestWaitOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        tok = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation(",")
        tt = parser.parse_type()
        op = _build(
            cls,
            [parser.resolve_operand(bar, t), parser.resolve_operand(tok, tt), parser.resolve_operand(mid, _IDX)],
            [_I1],
            attrs,
        )
        assert isinstance(op, MBarrierTestWaitOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.token)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(", ")
        printer.print_attribute(self.token.type)


@irdl_op_definition
class MBarrierArriveOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive"
    barriers = operand_def()
    mbarId = operand_def()
    token = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierArriveOp:
        bar, mid = _parse_barrier_ref(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        tt = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(bar, t), parser.resolve_operand(mid, _IDX)], [tt], attrs)
        assert isinstance(op, MBarrierArriveOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.token.type)


@irdl_op_definition
class MBarrierArriveNoCompleteOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive.nocomplete"
    barriers = operand_def()
    mbarId = operand_def()
    count = operand_def()
    token = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierArriveNoCompleteOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        count = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        parser.parse_punctuation("->")
        tt = parser.parse_type()
        op = _build(
            cls,
            [parser.resolve_operand(bar, t), parser.resolve_operand(mid, _IDX), parser.resolve_operand(count, _IDX)],
            [tt],
            attrs,
        )
        assert isinstance(op, MBarrierArriveNoCompleteOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.count)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.token.type)


@irdl_op_definition
class MBarrierArriveExpectTxOp(_MBarrierOp):
    name = "nvgpu.mbarrier.arrive.expect_tx"
    barriers = operand_def()
    txcount = operand_def()
    mbarId = operand_def()
    predicate = opt_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierArriveExpectTxOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        tx = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(
            cls,
            [
                parser.resolve_operand(bar, t),
                parser.resolve_operand(tx, _IDX),
                parser.resolve_operand(mid, _IDX),
                [parser.resolve_operand(pred, _I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, MBarrierArriveExpectTxOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.txcount)
        _print_predicate(printer, self.predicate)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)


@irdl_op_definition
class MBarrierTryWaitParityOp(_MBarrierOp):
    name = "nvgpu.mbarrier.try_wait.parity"
    barriers = operand_def()
    phaseParity = operand_def()
    ticks = operand_def()
    mbarId = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> MBarrierTryWaitParityOp:
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_punctuation(",")
        phase = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ticks = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(
            cls,
            [
                parser.resolve_operand(bar, t),
                parser.resolve_operand(phase, _I1),
                parser.resolve_operand(ticks, _IDX),
                parser.resolve_operand(mid, _IDX),
            ],
            [],
            attrs,
        )
        assert isinstance(op, MBarrierTryWaitParityOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(", ")
        printer.print_operand(self.phaseParity)
        printer.print_string(", ")
        printer.print_operand(self.ticks)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.barriers.type)


# ----------------------------------------------------------------------------------------------
# ops: TMA
# ----------------------------------------------------------------------------------------------


def verify_tma_descriptor(op: Operation, desc: TensorMapDescriptorType, memref: Attribute | None = None) -> None:
    """MLIR 22's `verifyTmaDescriptorWithMemref` (messages as mlir-opt 22 prints them)."""
    dm = desc.tensor
    if desc.field("interleave") != "none":
        raise VerifyException("Interleave options are not supported yet.")
    if not is_shared_space(dm.memory_space):
        raise VerifyException(
            "the tensor map descriptor has incorrect address space, it must be shared memory address space."
        )
    shape = dm.get_shape()
    if any(d < 0 for d in shape):
        raise VerifyException("the tensor map descriptor must be static shaped")
    for d in shape:
        if d <= 0 or d > MAX_TMA_DIM:
            raise VerifyException(
                f"the tensor map descriptor must have dimensions between 1 and {MAX_TMA_DIM} but it is {d}"
            )
    swizzle = desc.field("swizzle")
    if len(shape) > 1 and swizzle != "none":
        last = bitwidth(dm.element_type) * shape[-1] // 8
        want = {"swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}[swizzle]
        if last != want:
            raise VerifyException(
                f"the tensormap descriptor must have last dimension of {want} bytes but it is {last} bytes"
            )
    if memref is None:
        return
    if not isinstance(memref, MemRefType):
        return
    if dm.element_type != memref.element_type:
        raise VerifyException("the element type of tensor map descriptor and memref must be same")
    if not is_shared_space(memref.memory_space):
        raise VerifyException(
            "the destination memref has incorrect address space, it must be shared memory address space."
        )
    if any(d < 0 for d in memref.get_shape()):
        raise VerifyException("the destination memref must be static shaped")
    if len(memref.get_shape()) != len(shape):
        raise VerifyException("the shape of tensor map descriptor and memref must have same rank")
    if tuple(memref.get_shape()) != tuple(shape):
        raise VerifyException(
            f"memref and tensor map shapes mismatch '{mlir_type_str(dm)}' != '{mlir_type_str(memref)}'"
        )


def _verify_coords(op: Operation, coords: Sequence[SSAValue], desc: TensorMapDescriptorType) -> None:
    if len(coords) > MAX_TMA_RANK:
        raise VerifyException(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
    if len(coords) != len(desc.tensor.get_shape()):
        raise VerifyException("number of coordinates do not match with the rank of tensor descriptor map.")


@irdl_op_definition
class TmaAsyncLoadOp(IRDLOperation):
    """`nvgpu.tma.async.load %desc[%c..], %bar[%id] to %dst (multicast_mask = %m)? (, predicate = %p)? : T, B -> M`."""

    name = "nvgpu.tma.async.load"
    dst = operand_def()
    barriers = operand_def()
    tensorMapDescriptor = operand_def()
    coordinates = var_operand_def()
    mbarId = operand_def()
    multicastMask = opt_operand_def()
    predicate = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TmaAsyncLoadOp:
        desc = parser.parse_unresolved_operand()
        coords = _operand_list(parser)
        parser.parse_punctuation(",")
        bar, mid = _parse_barrier_ref(parser)
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        mask = None
        if parser.parse_optional_keyword("multicast_mask") is not None:
            parser.parse_punctuation("=")
            mask = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        dt = parser.parse_type()
        parser.parse_punctuation(",")
        bt = parser.parse_type()
        parser.parse_punctuation("->")
        mt = parser.parse_type()
        op = _build(
            cls,
            [
                parser.resolve_operand(dst, mt),
                parser.resolve_operand(bar, bt),
                parser.resolve_operand(desc, dt),
                _resolve(parser, coords, _IDX),
                parser.resolve_operand(mid, _IDX),
                [parser.resolve_operand(mask, _I16)] if mask else [],
                [parser.resolve_operand(pred, _I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, TmaAsyncLoadOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        _print_list(printer, self.coordinates)
        printer.print_string(",")
        _print_barrier_ref(printer, self.barriers, self.mbarId)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        if self.multicastMask is not None:
            printer.print_string(" multicast_mask = ")
            printer.print_operand(self.multicastMask)
        _print_predicate(printer, self.predicate)
        _print_attr_dict(printer, self, ("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.tensorMapDescriptor.type)
        printer.print_string(", ")
        printer.print_attribute(self.barriers.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.dst.type)

    def verify_(self) -> None:
        _check_memref(self, 0, self.dst)
        _check_mbarrier_group(self, 1, self.barriers)
        _check_tensormap(self, 2, self.tensorMapDescriptor)
        desc = self.tensorMapDescriptor.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_tma_descriptor(self, desc, self.dst.type)
        _verify_coords(self, self.coordinates, desc)


@irdl_op_definition
class TmaAsyncStoreOp(IRDLOperation):
    """`nvgpu.tma.async.store %src to %desc[%c..] (, predicate = %p)? : M -> T`."""

    name = "nvgpu.tma.async.store"
    src = operand_def()
    tensorMapDescriptor = operand_def()
    coordinates = var_operand_def()
    predicate = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TmaAsyncStoreOp:
        src = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        desc = parser.parse_unresolved_operand()
        coords = _operand_list(parser)
        pred = _parse_predicate(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        st = parser.parse_type()
        parser.parse_punctuation("->")
        dt = parser.parse_type()
        op = _build(
            cls,
            [
                parser.resolve_operand(src, st),
                parser.resolve_operand(desc, dt),
                _resolve(parser, coords, _IDX),
                [parser.resolve_operand(pred, _I1)] if pred else [],
            ],
            [],
            attrs,
        )
        assert isinstance(op, TmaAsyncStoreOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.src)
        printer.print_string(" to ")
        printer.print_operand(self.tensorMapDescriptor)
        _print_list(printer, self.coordinates)
        _print_predicate(printer, self.predicate)
        _print_attr_dict(printer, self, ("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.src.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.tensorMapDescriptor.type)

    def verify_(self) -> None:
        _check_memref(self, 0, self.src)
        _check_tensormap(self, 1, self.tensorMapDescriptor)
        desc = self.tensorMapDescriptor.type
        assert isinstance(desc, TensorMapDescriptorType)
        verify_tma_descriptor(self, desc, self.src.type)
        _verify_coords(self, self.coordinates, desc)


@irdl_op_definition
class TmaCreateDescriptorOp(IRDLOperation):
    """`nvgpu.tma.create.descriptor %t box[%d..] : memref<*xT> -> !nvgpu.tensormap.descriptor<..>`."""

    name = "nvgpu.tma.create.descriptor"
    tensor = operand_def()
    boxDimensions = var_operand_def()
    tensorMap = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> TmaCreateDescriptorOp:
        t = parser.parse_unresolved_operand()
        parser.parse_keyword("box")
        dims = _operand_list(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        tt = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(t, tt), _resolve(parser, dims, _IDX)], [rt], attrs)
        assert isinstance(op, TmaCreateDescriptorOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        printer.print_string(" box")
        _print_list(printer, self.boxDimensions)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.tensorMap.type)

    def verify_(self) -> None:
        if not isinstance(self.tensor.type, UnrankedMemRefType):
            raise _operand_type_error(self, 0, "unranked.memref of any type values", self.tensor.type)
        if not isinstance(self.tensorMap.type, TensorMapDescriptorType):
            raise _result_type_error(self, 0, "TensorMap descriptor", self.tensorMap.type)
        if len(self.boxDimensions) > MAX_TMA_RANK:
            raise VerifyException(f"Maximum {MAX_TMA_RANK} coordinates are supported.")
        verify_tma_descriptor(self, self.tensorMap.type)


class _TmaDescOnlyOp(IRDLOperation):
    def verify_(self) -> None:
        _check_tensormap(self, 0, self.operands[0])


@irdl_op_definition
class TmaPrefetchOp(_TmaDescOnlyOp):
    name = "nvgpu.tma.prefetch.descriptor"
    tensorMapDescriptor = operand_def()
    predicate = opt_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> TmaPrefetchOp:
        d = parser.parse_unresolved_operand()
        pred = _parse_predicate(parser)
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(d, t), [parser.resolve_operand(pred, _I1)] if pred else []], [], attrs)
        assert isinstance(op, TmaPrefetchOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        _print_predicate(printer, self.predicate)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensorMapDescriptor.type)


@irdl_op_definition
class TmaFenceOp(_TmaDescOnlyOp):
    name = "nvgpu.tma.fence.descriptor"
    tensorMapDescriptor = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> TmaFenceOp:
        d = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(d, t)], [], attrs)
        assert isinstance(op, TmaFenceOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensorMapDescriptor)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensorMapDescriptor.type)


# ----------------------------------------------------------------------------------------------
# ops: warpgroup (WGMMA)
# ----------------------------------------------------------------------------------------------


@irdl_op_definition
class WarpgroupGenerateDescriptorOp(IRDLOperation):
    name = "nvgpu.warpgroup.generate.descriptor"
    tensor = operand_def()
    tensorMap = operand_def()
    descriptor = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> WarpgroupGenerateDescriptorOp:
        t = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        m = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        tt = parser.parse_type()
        parser.parse_punctuation(",")
        mt = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(t, tt), parser.resolve_operand(m, mt)], [rt], attrs)
        assert isinstance(op, WarpgroupGenerateDescriptorOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        printer.print_string(", ")
        printer.print_operand(self.tensorMap)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(", ")
        printer.print_attribute(self.tensorMap.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.descriptor.type)

    def verify_(self) -> None:
        _check_memref(self, 0, self.tensor)
        _check_tensormap(self, 1, self.tensorMap)
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
class WarpgroupMmaOp(IRDLOperation):
    """`nvgpu.warpgroup.mma %a, %b, %c {transposeB}? : DA, DB, ACC -> ACC`."""

    name = "nvgpu.warpgroup.mma"
    descriptorA = operand_def()
    descriptorB = operand_def()
    matrixC = operand_def()
    waitGroup = opt_prop_def(IntegerAttr)
    transposeA = opt_prop_def(UnitAttr)
    transposeB = opt_prop_def(UnitAttr)
    matrixD = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> WarpgroupMmaOp:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        at = parser.parse_type()
        parser.parse_punctuation(",")
        bt = parser.parse_type()
        parser.parse_punctuation(",")
        ct = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        op = _build(
            cls,
            [parser.resolve_operand(a, at), parser.resolve_operand(b, bt), parser.resolve_operand(c, ct)],
            [rt],
            attrs,
        )
        assert isinstance(op, WarpgroupMmaOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.descriptorA, self.descriptorB, self.matrixC], printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list([self.descriptorA.type, self.descriptorB.type, self.matrixC.type], printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_attribute(self.matrixD.type)

    @property
    def wait_group(self) -> int:
        return self.waitGroup.value.data if self.waitGroup is not None else 1

    def verify_(self) -> None:
        for i, v in enumerate((self.descriptorA, self.descriptorB)):
            if not isinstance(v.type, WarpgroupMatrixDescriptorType):
                raise _operand_type_error(self, i, "Warpgroup matrix descriptor type", v.type)
        for i, t in ((2, self.matrixC.type), (-1, self.matrixD.type)):
            if not isinstance(t, WarpgroupAccumulatorType):
                if i < 0:
                    raise _result_type_error(self, 0, "", t)
                raise _operand_type_error(self, i, "", t)
        if self.transposeA is not None and self.transposeB is None:
            raise _op_error(
                self, "supports non-transpose A (Row Major) and transpose B (Column Major) for the time being "
            )
        a = self.descriptorA.type.tensor  # type: ignore[attr-defined]
        b = self.descriptorB.type.tensor  # type: ignore[attr-defined]
        c = self.matrixC.type.fragmented  # type: ignore[attr-defined]
        d = self.matrixD.type.fragmented  # type: ignore[attr-defined]
        if c != d:
            raise _op_error(self, "type of matrix C and matrix D must be the same")
        sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()
        if len(sa) != 2 or len(sb) != 2 or len(sc) != 2 or len(d.get_shape()) != 2:
            raise _op_error(self, "has matrices A, B, C and D, they must be 2 dimensional")
        if sa[1] != sb[0]:
            raise _op_error(self, f"2nd dim matrix-A ({sa[1]})!= 1st dim matrix-B ({sb[0]} )")
        if sa[0] != sc[0]:
            raise _op_error(self, f"1st dim matrix-A ( {sa[0]} )!= 1st dim matrix-C ( {sc[0]} )")
        if sb[1] != sc[1]:
            raise _op_error(self, f"2nd dim matrix-B ( {sb[1]} ) != 2nd dim matrix-C ( {sc[1]} )")
        et_c, et_a, et_b = c.element_type, a.element_type, b.element_type
        if not _allowed_wgmma_types(et_c, et_a, et_b):
            raise _op_error(
                self,
                f"'{mlir_type_str(et_c)}' += '{mlir_type_str(et_a)}' * '{mlir_type_str(et_b)}', it is not supported.",
            )
        if not allowed_size_n(sb[1], et_a):
            raise _op_error(self, f"has input type '{mlir_type_str(b)}' n is set to {sb[1]}, it is not supported")
        if not isinstance(et_c, Float32Type) and not isinstance(et_a, (Float16Type, BFloat16Type)):
            raise _op_error(
                self,
                f"hit a limitation: '{mlir_type_str(et_c)}' += '{mlir_type_str(et_a)}' * '{mlir_type_str(et_b)}', "
                "it is not supported yet",
            )


@irdl_op_definition
class WarpgroupMmaStoreOp(IRDLOperation):
    name = "nvgpu.warpgroup.mma.store"
    matrixD = operand_def()
    dstMemref = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> WarpgroupMmaStoreOp:
        d = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        m = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        dt = parser.parse_type()
        parser.parse_keyword("to")
        mt = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(d, dt), parser.resolve_operand(m, mt)], [], attrs)
        assert isinstance(op, WarpgroupMmaStoreOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.matrixD)
        printer.print_string(", ")
        printer.print_operand(self.dstMemref)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.matrixD.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dstMemref.type)

    def verify_(self) -> None:
        if not isinstance(self.matrixD.type, WarpgroupAccumulatorType):
            raise _operand_type_error(self, 0, "", self.matrixD.type)
        _check_memref(self, 1, self.dstMemref)
        v = self.matrixD.type.fragmented
        m = self.dstMemref.type
        assert isinstance(m, MemRefType)
        if not isinstance(v.element_type, Float32Type):
            raise _op_error(self, "hit a limitation: only f32 results for the time being")
        vs, ms = v.get_shape(), m.get_shape()
        if len(ms) < 2 or vs[0] != ms[0] or vs[1] != ms[1]:
            raise _op_error(
                self,
                f"results ['{mlir_type_str(v)}'][{vs[1]}] values. However, destination memref[{ms[0]}][{ms[1] if len(ms) > 1 else ''}]"
                "  does not have same size as results",
            )


@irdl_op_definition
class WarpgroupMmaInitAccumulatorOp(IRDLOperation):
    name = "nvgpu.warpgroup.mma.init.accumulator"
    matrixC = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> WarpgroupMmaInitAccumulatorOp:
        attrs = _attrs(parser)
        parser.parse_punctuation("->")
        t = parser.parse_type()
        op = _build(cls, [], [t], attrs)
        assert isinstance(op, WarpgroupMmaInitAccumulatorOp)
        return op

    def print(self, printer: Printer) -> None:
        _print_attr_dict(printer, self)
        printer.print_string(" -> ")
        printer.print_attribute(self.matrixC.type)

    def verify_(self) -> None:
        t = self.matrixC.type
        if not isinstance(t, WarpgroupAccumulatorType):
            raise _result_type_error(self, 0, "", t)
        shape = t.fragmented.get_shape()
        elem = t.fragmented.element_type
        if len(shape) != 2 or shape[0] % WGMMA_M or not allowed_size_n(shape[1], elem):
            raise _op_error(
                self,
                f"has type '{mlir_type_str(t.fragmented)}'. It does not fit into warp-group level (wgmma) matrix "
                "multiplication instruction (or not supported yet)",
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
        attrs.update(_attrs(parser))
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(v, t)], [t], attrs)
        assert isinstance(op, RcpOp)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        mode = self.rounding.data.value if self.rounding is not None else "approx"
        printer.print_string(f" {{rounding = {mode}{', ftz' if self.ftz is not None else ''}}}")
        _print_attr_dict(printer, self, ("rounding", "ftz"))
        printer.print_string(" : ")
        printer.print_attribute(self.out.type)

    def verify_(self) -> None:
        t = self.input.type
        if not isinstance(t, VectorType) or not isinstance(t.element_type, Float32Type) or not t.get_shape():
            raise _operand_type_error(self, 0, "vector of 32-bit float values", t)
        if self.out.type != t:
            raise _op_error(self, "requires the same type for all operands and results")
        mode = self.rounding.data.value if self.rounding is not None else "approx"
        if mode != "approx" or self.ftz is None:
            raise _op_error(
                self, f"has a limitation. #nvgpu<rcp_rounding_mode {mode}> or non-ftz is not supported yet."
            )


class _UnaryCvt(IRDLOperation):
    """`nvgpu.cvt_fptrunc %v : vector<2xf32> to vector<2xf16>` (tile-lsp extension)."""

    input = operand_def()
    res = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> _UnaryCvt:
        v = parser.parse_unresolved_operand()
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        it = parser.parse_type()
        parser.parse_keyword("to")
        rt = parser.parse_type()
        op = _build(cls, [parser.resolve_operand(v, it)], [rt], attrs)
        assert isinstance(op, _UnaryCvt)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" to ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        for t in (self.input.type, self.res.type):
            if not isinstance(t, VectorType) or t.get_shape() != (2,):
                raise _op_error(self, f"expects 2-element vectors, got '{mlir_type_str(t)}'")


@irdl_op_definition
class CvtFpTruncOp(_UnaryCvt):
    name = "nvgpu.cvt_fptrunc"


@irdl_op_definition
class CvtFpExtOp(_UnaryCvt):
    name = "nvgpu.cvt_fpext"


class _PackedF32x2(IRDLOperation):
    """`nvgpu.fma.packed.f32x2 %a, %b, %c : vector<2xf32>` (tile-lsp extension)."""

    NUM_OPERANDS: ClassVar[int] = 2
    args = var_operand_def()
    res = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> _PackedF32x2:
        vals = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(",") is not None:
            vals.append(parser.parse_unresolved_operand())
        attrs = _attrs(parser)
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = _build(cls, [_resolve(parser, vals, t)], [t], attrs)
        assert isinstance(op, _PackedF32x2)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.args, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        want = VectorType(Float32Type(), [2])
        if len(self.args) != self.NUM_OPERANDS:
            raise _op_error(self, f"expected {self.NUM_OPERANDS} operands, got {len(self.args)}")
        for i, v in enumerate(self.args):
            if v.type != want:
                raise _operand_type_error(self, i, "vector<2xf32>", v.type)
        if self.res.type != want:
            raise _result_type_error(self, 0, "vector<2xf32>", self.res.type)


@irdl_op_definition
class FmaPackedF32x2Op(_PackedF32x2):
    name = "nvgpu.fma.packed.f32x2"
    NUM_OPERANDS: ClassVar[int] = 3


@irdl_op_definition
class MulPackedF32x2Op(_PackedF32x2):
    name = "nvgpu.mul.packed.f32x2"
    NUM_OPERANDS: ClassVar[int] = 2


OPS: list[type[Operation]] = [
    LdMatrixOp,
    MmaSyncOp,
    MmaSparseSyncOp,
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
    MBarrierCreateOp,
    MBarrierInitOp,
    MBarrierTestWaitOp,
    MBarrierArriveOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierTryWaitParityOp,
    TmaAsyncLoadOp,
    TmaAsyncStoreOp,
    TmaCreateDescriptorOp,
    TmaPrefetchOp,
    TmaFenceOp,
    WarpgroupGenerateDescriptorOp,
    WarpgroupMmaOp,
    WarpgroupMmaStoreOp,
    WarpgroupMmaInitAccumulatorOp,
    RcpOp,
    CvtFpTruncOp,
    CvtFpExtOp,
    FmaPackedF32x2Op,
    MulPackedF32x2Op,
]

ATTRS: list[type[Attribute]] = [
    DeviceAsyncTokenType,
    MBarrierTokenType,
    MBarrierGroupType,
    TensorMapDescriptorType,
    WarpgroupMatrixDescriptorType,
    WarpgroupAccumulatorType,
    TensorMapSwizzleAttr,
    TensorMapL2PromoAttr,
    TensorMapOOBAttr,
    TensorMapInterleaveAttr,
    RcpRoundingModeAttr,
]

MBARRIER_OPS: tuple[type[Operation], ...] = (
    MBarrierInitOp,
    MBarrierTestWaitOp,
    MBarrierArriveOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierTryWaitParityOp,
)

__all__ = ["ATTRS", "OPS", "dialect", "i32", "i64"]


def dialect() -> Dialect:
    return Dialect("nvgpu", OPS, ATTRS)
