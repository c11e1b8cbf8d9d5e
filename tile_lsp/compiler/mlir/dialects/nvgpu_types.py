"""The nvgpu dialect's (MLIR 22) shared part: address-space constants, type printing in MLIR's
spelling, the enums and enum attributes, the types (`!nvgpu.mbarrier.group`, `!nvgpu.tensormap.descriptor`,
`!nvgpu.warpgroup.*`, tokens), and the parse/print/verify helpers the op families
(nvgpu_mma, nvgpu_async, nvgpu_mbarrier, nvgpu_warpgroup, nvgpu_arith) share. `nvgpu.py` is the dialect."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
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
    VectorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
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


def op_error(op: Operation, msg: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {msg}")


def operand_type_error(op: Operation, index: int, what: str, got: Attribute) -> VerifyException:
    return op_error(op, f"operand #{index} must be {what}, but got '{mlir_type_str(got)}'")


def result_type_error(op: Operation, index: int, what: str, got: Attribute) -> VerifyException:
    return op_error(op, f"result #{index} must be {what}, but got '{mlir_type_str(got)}'")


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


class _OneTypeField(ParametrizedAttribute, TypeAttribute):
    """`<key = type>`: a struct of one type parameter of a given kind."""

    FIELD: ClassVar[tuple[str, type[Attribute], str]]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        key, kind, what = cls.FIELD
        got = _parse_struct(parser, {key: parser.parse_type})
        if not isinstance(got.get(key), kind):
            parser.raise_error(f"expected {what} type for '{key}'")
        return (got[key],)

    def print_parameters(self, printer: Printer) -> None:
        key = self.FIELD[0]
        printer.print_string(f"<{key} = ")
        printer.print_attribute(self.parameters[0])
        printer.print_string(">")


@irdl_attr_definition
class WarpgroupMatrixDescriptorType(_OneTypeField):
    name = "nvgpu.warpgroup.descriptor"
    tensor: MemRefType

    FIELD: ClassVar[tuple[str, type[Attribute], str]] = ("tensor", MemRefType, "a memref")


@irdl_attr_definition
class WarpgroupAccumulatorType(_OneTypeField):
    name = "nvgpu.warpgroup.accumulator"
    fragmented: VectorType

    FIELD: ClassVar[tuple[str, type[Attribute], str]] = ("fragmented", VectorType, "a vector")


# ----------------------------------------------------------------------------------------------
# parsing / printing helpers for the ops' custom formats
# ----------------------------------------------------------------------------------------------


def parse_operand_list(parser: Parser) -> list[UnresolvedOperand]:
    """`[` operands `]` (possibly empty)."""
    parser.parse_punctuation("[")
    if parser.parse_optional_punctuation("]") is not None:
        return []
    items = [parser.parse_unresolved_operand()]
    while parser.parse_optional_punctuation(",") is not None:
        items.append(parser.parse_unresolved_operand())
    parser.parse_punctuation("]")
    return items


def resolve_operands(parser: Parser, ops: Sequence[UnresolvedOperand], t: Attribute) -> list[SSAValue]:
    return [parser.resolve_operand(o, t) for o in ops]


def parse_attrs(parser: Parser) -> dict[str, Attribute]:
    d = parser.parse_optional_attr_dict()
    return dict(d)


def print_operand_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("[")
    printer.print_list(values, printer.print_operand)
    printer.print_string("]")


def print_attr_dict(printer: Printer, op: Operation, skip: Sequence[str] = ()) -> None:
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


def build_op(
    cls: type[IRDLOperation],
    operands: Sequence[SSAValue | Sequence[SSAValue]],
    results: Sequence[Attribute],
    attrs: dict[str, Attribute],
) -> IRDLOperation:
    props, rest = _split_props(cls, attrs)
    return cls.build(operands=list(operands), result_types=list(results), properties=props, attributes=rest)


def _opt(values: Sequence[SSAValue]) -> list[SSAValue]:
    return list(values)


IDX = IndexType()
I1 = IntegerType(1)
I16 = IntegerType(16)


def _operand_check(kind: type[Attribute], summary: str) -> Callable[[Operation, int, SSAValue], None]:
    """A check that operand #index is of `kind`, else MLIR 22's type-constraint diagnostic with `summary`."""

    def check(op: Operation, index: int, value: SSAValue) -> None:
        if not isinstance(value.type, kind):
            raise operand_type_error(op, index, summary, value.type)

    return check


check_index = _operand_check(IndexType, "variadic of index")
check_mbarrier_group = _operand_check(MBarrierGroupType, "mbarrier barrier type")
check_tensormap = _operand_check(TensorMapDescriptorType, "TensorMap descriptor")
check_memref = _operand_check(MemRefType, "memref of any type values")
