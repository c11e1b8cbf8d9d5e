"""nvvm ops of the architecture families (mbarrier, TMA, fences, WGMMA, mma.sync, ldmatrix, cp.async,
rcp, packed conversions) in MLIR 22 syntax; gathered into the nvvm dialect by nvvm.py.

Names, operand orders, operand-segment layouts and property names are MLIR 22's (checked against
mlir-opt 22's generic printing). Ops print in the generic form (`"nvvm.x"(...) <{...}> : ...`),
which mlir-opt 22 accepts; their custom forms as written in upstream tests are parsed.

MLIR 22 dropped the `.shared` mbarrier op names (the shared variant is selected by an
`!llvm.ptr<3>` barrier operand); the legacy names are still parsed (`LEGACY_SHARED_MBARRIER`) and
lowered, but lowering emits the MLIR 22 names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self, TypeVar, cast

from xdsl import irdl
from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, StringAttr, UnitAttr, i32, i64
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from tile_lsp.compiler.mlir.xdsl_fast import shared

# ----------------------------------------------------------------------------------------------
# attributes
# ----------------------------------------------------------------------------------------------


class _NvvmEnumAttr(ParametrizedAttribute):
    """`#nvvm.<mnemonic><value>`: an MLIR EnumAttr with the default `<$value>` format."""

    VALUES: ClassVar[tuple[str, ...]] = ()
    value: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        word = parser.parse_identifier()
        if cls.VALUES and word not in cls.VALUES:
            parser.raise_error(f"expected one of: {', '.join(cls.VALUES)}")
        parser.parse_punctuation(">")
        return (StringAttr(word),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")

    @classmethod
    def get(cls, value: str) -> _NvvmEnumAttr:
        return shared((cls, value), lambda: cls(StringAttr(value)))  # (the same few values, asked per op)

    @property
    def data(self) -> str:
        return self.value.data


@irdl.irdl_attr_definition
class MMALayoutAttr(_NvvmEnumAttr):
    name = "nvvm.mma_layout"
    VALUES: ClassVar[tuple[str, ...]] = ("row", "col")


@irdl.irdl_attr_definition
class MMATypesAttr(_NvvmEnumAttr):
    name = "nvvm.mma_type"
    VALUES: ClassVar[tuple[str, ...]] = (
        "f16",
        "f32",
        "tf32",
        "bf16",
        "s8",
        "u8",
        "s32",
        "s4",
        "u4",
        "b1",
        "f64",
        "e4m3",
        "e5m2",
    )


@irdl.irdl_attr_definition
class MMAIntOverflowAttr(_NvvmEnumAttr):
    name = "nvvm.mma_int_overflow"
    VALUES: ClassVar[tuple[str, ...]] = ("satfinite", "wrapped")


@irdl.irdl_attr_definition
class MMAB1OpAttr(_NvvmEnumAttr):
    name = "nvvm.mma_b1op"
    VALUES: ClassVar[tuple[str, ...]] = ("none", "xor_popc", "and_popc")


@irdl.irdl_attr_definition
class WGMMATypesAttr(_NvvmEnumAttr):
    name = "nvvm.wgmma_type"
    VALUES: ClassVar[tuple[str, ...]] = ("f16", "tf32", "u8", "s8", "b1", "bf16", "e4m3", "e5m2", "f32", "s32")


@irdl.irdl_attr_definition
class WGMMAScaleInAttr(_NvvmEnumAttr):
    name = "nvvm.wgmma_scale_in"
    VALUES: ClassVar[tuple[str, ...]] = ("one", "neg")


@irdl.irdl_attr_definition
class WGMMAScaleOutAttr(_NvvmEnumAttr):
    name = "nvvm.wgmma_scale_out"
    VALUES: ClassVar[tuple[str, ...]] = ("zero", "one")


@irdl.irdl_attr_definition
class TMALoadModeAttr(_NvvmEnumAttr):
    name = "nvvm.tma_load_mode"
    VALUES: ClassVar[tuple[str, ...]] = ("tile", "im2col", "im2col_w", "im2col_w_128", "tile_gather4")


@irdl.irdl_attr_definition
class TMAStoreModeAttr(_NvvmEnumAttr):
    name = "nvvm.tma_store_mode"
    VALUES: ClassVar[tuple[str, ...]] = ("tile", "im2col", "tile_scatter4")


@irdl.irdl_attr_definition
class LdStMatrixEltTypeAttr(_NvvmEnumAttr):
    name = "nvvm.ld_st_matrix_elt_type"
    VALUES: ClassVar[tuple[str, ...]] = ("b16", "b8", "b8x16.b6x16_p32", "b8x16.b4x16_p64")


class LoadCacheModifierKind(StrEnum):
    CA = "ca"
    CG = "cg"
    CS = "cs"
    LU = "lu"
    CV = "cv"


@irdl.irdl_attr_definition
class LoadCacheModifierAttr(EnumAttribute[LoadCacheModifierKind], SpacedOpaqueSyntaxAttribute):
    """`#nvvm<load_cache_modifier ca>` (MLIR prints this enum in the dialect's opaque form)."""

    name = "nvvm.load_cache_modifier"

    @classmethod
    def of(cls, value: str) -> LoadCacheModifierAttr:
        return cls(LoadCacheModifierKind(value))


class _KeyedIntsAttr(ParametrizedAttribute):
    """`<m = 16, n = 8, ...>`: i32 parameters `FIELDS`, written `key = value`; a key left out is `DEFAULT`."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    DEFAULT: ClassVar[int] = 0

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        vals: dict[str, int] = {}
        parser.parse_punctuation("<")
        while True:
            key = parser.parse_identifier()
            parser.parse_punctuation("=")
            vals[key] = parser.parse_integer()
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation(">")
        return tuple(IntegerAttr(vals.get(k, cls.DEFAULT), i32) for k in cls.FIELDS)

    def print_parameters(self, printer: Printer) -> None:
        values = (cast(IntegerAttr, p).value.data for p in self.parameters)
        printer.print_string("<" + ", ".join(f"{k} = {v}" for k, v in zip(self.FIELDS, values)) + ">")

    @classmethod
    def get(cls, *values: int) -> Self:
        return shared((cls, *values), lambda: cls(*(IntegerAttr(v, i32) for v in values)))


@irdl.irdl_attr_definition
class MMAShapeAttr(_KeyedIntsAttr):
    """`#nvvm.shape<m = 16, n = 8, k = 16>`."""

    name = "nvvm.shape"
    FIELDS: ClassVar[tuple[str, ...]] = ("m", "n", "k")
    m: IntegerAttr
    n: IntegerAttr
    k: IntegerAttr


@irdl.irdl_attr_definition
class LdStMatrixShapeAttr(_KeyedIntsAttr):
    """`#nvvm.ld_st_matrix_shape<m = 8, n = 8>`."""

    name = "nvvm.ld_st_matrix_shape"
    FIELDS: ClassVar[tuple[str, ...]] = ("m", "n")
    DEFAULT: ClassVar[int] = 8
    m: IntegerAttr
    n: IntegerAttr


# ----------------------------------------------------------------------------------------------
# small parsing helpers for the custom forms
# ----------------------------------------------------------------------------------------------


def _operands(parser: Parser) -> list[UnresolvedOperand]:
    vals: list[UnresolvedOperand] = []
    first = parser.parse_optional_unresolved_operand()
    if first is None:
        return vals
    vals.append(first)
    while parser.parse_optional_punctuation(",") is not None:
        nxt = parser.parse_optional_unresolved_operand()
        if nxt is None:
            break
        vals.append(nxt)
    return vals


def _types(parser: Parser) -> list[Attribute]:
    ts: list[Attribute] = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        ts.append(parser.parse_type())
    return ts


def _bracket_list(parser: Parser) -> list[UnresolvedOperand]:
    parser.parse_punctuation("[")
    vals = _operands(parser)
    parser.parse_punctuation("]")
    return vals


def _split(cls: type[irdl.IRDLOperation], attrs: dict[str, Attribute]) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    names = set(cls.get_irdl_definition().properties)
    props = {k: v for k, v in attrs.items() if k in names}
    rest = {k: v for k, v in attrs.items() if k not in names}
    return props, rest


_OpT = TypeVar("_OpT", bound=irdl.IRDLOperation)


def _make(
    cls: type[_OpT],
    operands: Sequence[SSAValue | Sequence[SSAValue]],
    results: Sequence[Attribute | Sequence[Attribute]],
    attrs: dict[str, Attribute],
) -> _OpT:
    props, rest = _split(cls, attrs)
    return cls.build(operands=list(operands), result_types=list(results), properties=props, attributes=rest)


def _simple_parse(cls: type[_OpT], parser: Parser, *, result: bool) -> _OpT:
    """`%a, %b (, predicate = %p)? attr-dict : T1, T2 (-> R)?` into a single variadic operand group."""
    vals = _operands(parser)
    pred: UnresolvedOperand | None = None
    if parser.parse_optional_keyword("predicate") is not None:
        parser.parse_punctuation("=")
        pred = parser.parse_unresolved_operand()
    attrs = dict(parser.parse_optional_attr_dict())
    ts: list[Attribute] = []
    if vals or pred is not None:
        parser.parse_punctuation(":")
        ts = _types(parser)
    rt: list[Attribute] = []
    if parser.parse_optional_punctuation("->") is not None:
        rt = [parser.parse_type()]
    elif result:
        rt = [ts[-1]] if ts else []
    allv = vals + ([pred] if pred is not None else [])
    if len(ts) < len(allv):
        ts = ts + [IntegerType(1)] * (len(allv) - len(ts))
    resolved = [parser.resolve_operand(v, t) for v, t in zip(allv, ts)]
    from xdsl.irdl import OptResultDef

    res_defs = cls.get_irdl_definition().results
    if res_defs and isinstance(res_defs[0][1], OptResultDef):
        return _make(cls, [resolved], [rt], attrs)
    return _make(cls, [resolved], rt, attrs)


class _Generic(irdl.IRDLOperation):
    """Base of ops parsed with `_simple_parse` (one variadic operand group `args`)."""

    HAS_RESULT: ClassVar[bool] = False

    @classmethod
    def parse(cls, parser: Parser) -> _Generic:
        return _simple_parse(cls, parser, result=cls.HAS_RESULT)


# ----------------------------------------------------------------------------------------------
# mbarrier
# ----------------------------------------------------------------------------------------------


def ptr_type(space: int = 0) -> LLVMPointerType:
    """`!llvm.ptr<space>` (`!llvm.ptr` for the generic space 0)."""
    return LLVMPointerType(IntAttr(space)) if space else LLVMPointerType()


def ptr_space(t: Attribute) -> int | None:
    if isinstance(t, LLVMPointerType):
        return t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
    return None


def _ptr_space(v: SSAValue) -> int | None:
    return ptr_space(v.type)


class _MBarrier(_Generic):
    """Barrier operand first; generic pointer or `!llvm.ptr<3>` (shared variant)."""

    args = irdl.var_operand_def()
    res = irdl.opt_result_def()
    SHARED_ONLY: ClassVar[bool] = False

    def verify_(self) -> None:
        if not self.args:
            raise VerifyException(f"'{self.name}' op requires a barrier operand")
        space = _ptr_space(self.args[0])
        if space is None:
            raise VerifyException(
                f"'{self.name}' op operand #0 must be LLVM pointer type, but got '{self.args[0].type}'"
            )
        if self.SHARED_ONLY and space != 3:
            raise VerifyException(
                f"'{self.name}' op operand #0 must be LLVM pointer in address space 3, but got '{self.args[0].type}'"
            )

    @property
    def barrier(self) -> SSAValue:
        return self.args[0]


@irdl.irdl_op_definition
class MBarrierInitOp(_MBarrier):
    """`nvvm.mbarrier.init %bar, %count (, predicate = %p)? : !llvm.ptr<3>, i32 (, i1)?`."""

    name = "nvvm.mbarrier.init"


@irdl.irdl_op_definition
class MBarrierInvalOp(_MBarrier):
    name = "nvvm.mbarrier.inval"


class _MBarrierWithScope(_MBarrier):
    relaxed = irdl.opt_prop_def(Attribute)
    scope = irdl.opt_prop_def(Attribute)


@irdl.irdl_op_definition
class MBarrierArriveOp(_MBarrierWithScope):
    name = "nvvm.mbarrier.arrive"
    HAS_RESULT: ClassVar[bool] = True


@irdl.irdl_op_definition
class MBarrierArriveNocompleteOp(_MBarrier):
    name = "nvvm.mbarrier.arrive.nocomplete"
    HAS_RESULT: ClassVar[bool] = True


@irdl.irdl_op_definition
class MBarrierArriveExpectTxOp(_MBarrierWithScope):
    name = "nvvm.mbarrier.arrive.expect_tx"


@irdl.irdl_op_definition
class MBarrierTestWaitOp(_MBarrierWithScope):
    name = "nvvm.mbarrier.test.wait"
    HAS_RESULT: ClassVar[bool] = True


@irdl.irdl_op_definition
class MBarrierTryWaitParityOp(_MBarrier):
    name = "nvvm.mbarrier.try_wait.parity"


# Legacy (pre-MLIR 22) shared-memory names: parsed and lowered; never emitted.
LEGACY_SHARED_MBARRIER: dict[str, str] = {
    "nvvm.mbarrier.init.shared": "nvvm.mbarrier.init",
    "nvvm.mbarrier.inval.shared": "nvvm.mbarrier.inval",
    "nvvm.mbarrier.arrive.shared": "nvvm.mbarrier.arrive",
    "nvvm.mbarrier.arrive.nocomplete.shared": "nvvm.mbarrier.arrive.nocomplete",
    "nvvm.mbarrier.arrive.expect_tx.shared": "nvvm.mbarrier.arrive.expect_tx",
    "nvvm.mbarrier.test.wait.shared": "nvvm.mbarrier.test.wait",
    "nvvm.mbarrier.try_wait.parity.shared": "nvvm.mbarrier.try_wait.parity",
}


def _legacy_shared(legacy: str, modern: type[_MBarrier]) -> type[_MBarrier]:
    """The `.shared` twin of `modern`: a `!llvm.ptr<3>` barrier only, no scope properties."""
    attrs = {"name": legacy, "HAS_RESULT": modern.HAS_RESULT, "SHARED_ONLY": True, "__module__": __name__,
             "__annotations__": {"HAS_RESULT": "ClassVar[bool]", "SHARED_ONLY": "ClassVar[bool]"}}
    return irdl.irdl_op_definition(type(modern.__name__.removesuffix("Op") + "SharedOp", (_MBarrier,), attrs))


_MODERN_MBARRIER: list[type[_MBarrier]] = [
    MBarrierInitOp, MBarrierInvalOp, MBarrierArriveOp, MBarrierArriveNocompleteOp, MBarrierArriveExpectTxOp,
    MBarrierTestWaitOp, MBarrierTryWaitParityOp,
]
LEGACY_SHARED_OPS: list[type[_MBarrier]] = [
    _legacy_shared(legacy, next(m for m in _MODERN_MBARRIER if m.name == modern))
    for legacy, modern in LEGACY_SHARED_MBARRIER.items()
]


# ----------------------------------------------------------------------------------------------
# fences, prefetch, zero-operand sync ops
# ----------------------------------------------------------------------------------------------


class _NoOperands(irdl.IRDLOperation):
    @classmethod
    def parse(cls, parser: Parser) -> _NoOperands:
        attrs = dict(parser.parse_optional_attr_dict())
        return _make(cls, [], [], attrs)


@irdl.irdl_op_definition
class WgmmaFenceAlignedOp(_NoOperands):
    name = "nvvm.wgmma.fence.aligned"


@irdl.irdl_op_definition
class WgmmaCommitGroupSyncAlignedOp(_NoOperands):
    name = "nvvm.wgmma.commit.group.sync.aligned"


@irdl.irdl_op_definition
class CpAsyncCommitGroupOp(_NoOperands):
    name = "nvvm.cp.async.commit.group"


@irdl.irdl_op_definition
class CpAsyncBulkCommitGroupOp(_NoOperands):
    name = "nvvm.cp.async.bulk.commit.group"


class _WaitN(irdl.IRDLOperation):
    """`nvvm.<op> N` with an integer property."""

    PROP: ClassVar[str] = "n"
    PROP_TYPE: ClassVar[IntegerType] = i32

    @classmethod
    def parse(cls, parser: Parser) -> _WaitN:
        n = parser.parse_integer()
        attrs = dict(parser.parse_optional_attr_dict())
        attrs[cls.PROP] = IntegerAttr(n, cls.PROP_TYPE)
        return _make(cls, [], [], attrs)

    def count(self) -> int:
        attr = self.properties.get(self.PROP)
        return attr.value.data if isinstance(attr, IntegerAttr) else 0


@irdl.irdl_op_definition
class WgmmaWaitGroupSyncOp(_WaitN):
    name = "nvvm.wgmma.wait.group.sync.aligned"
    PROP: ClassVar[str] = "group"
    PROP_TYPE: ClassVar[IntegerType] = i64
    group = irdl.prop_def(IntegerAttr)


@irdl.irdl_op_definition
class CpAsyncWaitGroupOp(_WaitN):
    name = "nvvm.cp.async.wait.group"
    n = irdl.prop_def(IntegerAttr)


@irdl.irdl_op_definition
class CpAsyncBulkWaitGroupOp(_WaitN):
    name = "nvvm.cp.async.bulk.wait_group"
    group = irdl.prop_def(IntegerAttr)
    read = irdl.opt_prop_def(UnitAttr)
    PROP: ClassVar[str] = "group"


# ----------------------------------------------------------------------------------------------
# TMA bulk tensor copies
# ----------------------------------------------------------------------------------------------


def _parse_optional_named(parser: Parser, word: str) -> UnresolvedOperand | None:
    if parser.parse_optional_keyword(word) is None:
        return None
    parser.parse_punctuation("=")
    return parser.parse_unresolved_operand()


@irdl.irdl_op_definition
class CpAsyncBulkTensorSharedClusterGlobalOp(irdl.IRDLOperation):
    """Global -> shared::cluster TMA load. Segments (MLIR 22): dstMem, tmaDescriptor, coordinates, mbar,
    im2colOffsets, multicastMask, l2CacheHint, predicate."""

    name = "nvvm.cp.async.bulk.tensor.shared.cluster.global"
    dstMem = irdl.operand_def()
    tmaDescriptor = irdl.operand_def()
    coordinates = irdl.var_operand_def()
    mbar = irdl.operand_def()
    im2colOffsets = irdl.var_operand_def()
    multicastMask = irdl.opt_operand_def()
    l2CacheHint = irdl.opt_operand_def()
    predicate = irdl.opt_operand_def()
    mode = irdl.opt_prop_def(Attribute)
    isCTAOnly = irdl.opt_prop_def(Attribute)
    group = irdl.opt_prop_def(Attribute)
    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncBulkTensorSharedClusterGlobalOp:
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        desc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        bar = parser.parse_unresolved_operand()
        parser.parse_optional_punctuation(",")
        parser.parse_keyword("box")
        coords = _bracket_list(parser)
        im2col: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("im2col") is not None:
            im2col = _bracket_list(parser)
        mask = _parse_optional_named(parser, "multicast_mask")
        hint = _parse_optional_named(parser, "l2_cache_hint")
        pred = _parse_optional_named(parser, "predicate")
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        ts = _types(parser)
        i16 = IntegerType(16)
        return _make(
            cls,
            [
                parser.resolve_operand(dst, ts[0]),
                parser.resolve_operand(desc, ts[1] if len(ts) > 1 else LLVMPointerType()),
                [parser.resolve_operand(c, i32) for c in coords],
                parser.resolve_operand(bar, ptr_type(3)),
                [parser.resolve_operand(c, i16) for c in im2col],
                [parser.resolve_operand(mask, i16)] if mask else [],
                [parser.resolve_operand(hint, i64)] if hint else [],
                [parser.resolve_operand(pred, IntegerType(1))] if pred else [],
            ],
            [],
            {"mode": TMALoadModeAttr.get("tile"), "isCTAOnly": IntegerAttr(0, 1), **attrs},
        )

    def verify_(self) -> None:
        if not 1 <= len(self.coordinates) <= 5:
            raise VerifyException(f"'{self.name}' op expects coordinates between 1 to 5 dimension")


@irdl.irdl_op_definition
class CpAsyncBulkTensorGlobalSharedCtaOp(irdl.IRDLOperation):
    """Shared::cta -> global TMA store. Segments: tmaDescriptor, srcMem, coordinates, l2CacheHint, predicate."""

    name = "nvvm.cp.async.bulk.tensor.global.shared.cta"
    tmaDescriptor = irdl.operand_def()
    srcMem = irdl.operand_def()
    coordinates = irdl.var_operand_def()
    l2CacheHint = irdl.opt_operand_def()
    predicate = irdl.opt_operand_def()
    mode = irdl.opt_prop_def(Attribute)
    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncBulkTensorGlobalSharedCtaOp:
        desc = parser.parse_unresolved_operand()
        parser.parse_optional_punctuation(",")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("box")
        coords = _bracket_list(parser)
        hint = _parse_optional_named(parser, "l2_cache_hint")
        pred = None
        if parser.parse_optional_punctuation(",") is not None:
            pred = _parse_optional_named(parser, "predicate")
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        ts = _types(parser)
        return _make(
            cls,
            [
                parser.resolve_operand(desc, ts[0]),
                parser.resolve_operand(src, ts[1] if len(ts) > 1 else ptr_type(3)),
                [parser.resolve_operand(c, i32) for c in coords],
                [parser.resolve_operand(hint, i64)] if hint else [],
                [parser.resolve_operand(pred, IntegerType(1))] if pred else [],
            ],
            [],
            {"mode": TMAStoreModeAttr.get("tile"), **attrs},
        )


@irdl.irdl_op_definition
class CpAsyncBulkTensorPrefetchOp(irdl.IRDLOperation):
    """TMA prefetch of a tensor tile into L2. Segments: tmaDescriptor, coordinates, im2colOffsets, l2CacheHint."""

    name = "nvvm.cp.async.bulk.tensor.prefetch"
    tmaDescriptor = irdl.operand_def()
    coordinates = irdl.var_operand_def()
    im2colOffsets = irdl.var_operand_def()
    l2CacheHint = irdl.opt_operand_def()
    mode = irdl.opt_prop_def(Attribute)
    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)


# ----------------------------------------------------------------------------------------------
# WGMMA, mma.sync, ldmatrix
# ----------------------------------------------------------------------------------------------


@irdl.irdl_op_definition
class WgmmaMmaAsyncOp(irdl.IRDLOperation):
    """Generic operand order (MLIR 22): inouts (accumulator struct), descriptorA, descriptorB."""

    name = "nvvm.wgmma.mma_async"
    inouts = irdl.operand_def()
    descriptorA = irdl.operand_def()
    descriptorB = irdl.operand_def()
    res = irdl.result_def()
    shape = irdl.prop_def(Attribute)
    typeA = irdl.prop_def(Attribute)
    typeB = irdl.prop_def(Attribute)
    typeD = irdl.prop_def(Attribute)
    scaleD = irdl.prop_def(Attribute)
    scaleA = irdl.prop_def(Attribute)
    scaleB = irdl.prop_def(Attribute)
    layoutA = irdl.prop_def(Attribute)
    layoutB = irdl.prop_def(Attribute)
    satfinite = irdl.opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> WgmmaMmaAsyncOp:
        """`%da, %db, %acc, <m = .., n = .., k = ..>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>],
        B[<f16>, <one>, <row>] : T -> T` (MLIR 22). Also read: the older test form with the accumulator
        inside D and spelled-out attributes, `%da, %db, #nvvm.shape<..>, D [%acc, #nvvm.wgmma_scale_out<zero>
        (, <satfinite>)?], A [<f16>, #nvvm.wgmma_scale_in<neg>, <col>], B [..] : T -> T` (typeD from T)."""
        da = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        db = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_optional_unresolved_operand()
        if acc is not None:
            parser.parse_punctuation(",")
        shape: Sequence[Attribute]
        if parser._current_token.text.startswith("#"):  # the spelled-out `#nvvm.shape<...>`
            written = parser.parse_attribute()
            if not isinstance(written, MMAShapeAttr):
                parser.raise_error("expected #nvvm.shape<m = .., n = .., k = ..>")
            shape = (written.m, written.n, written.k)
        else:
            shape = MMAShapeAttr.parse_parameters(parser)
        vals: dict[str, list[str]] = {}
        for _ in range(3):
            parser.parse_punctuation(",")
            which = parser.parse_identifier()
            parser.parse_punctuation("[")
            items: list[str] = []
            while True:
                operand = parser.parse_optional_unresolved_operand()
                if operand is not None:
                    acc = operand
                elif parser.parse_optional_punctuation("<") is not None:
                    items.append(parser.parse_identifier())
                    parser.parse_punctuation(">")
                else:
                    attr = parser.parse_attribute()
                    items.append(str(getattr(attr, "data", attr)))
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation("]")
            vals[which] = items
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        at = parser.parse_type()
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        if acc is None:
            parser.raise_error("expected the accumulator operand")
        d, a, b = vals.get("D", []), vals.get("A", []), vals.get("B", [])
        if not d or d[0] not in WGMMATypesAttr.VALUES:
            d = [_wgmma_result_type(rt), *d]
        if len(a) < 3 or len(b) < 3:
            parser.raise_error("expected A[type, scale, layout] and B[type, scale, layout]")
        attrs.update(
            {
                "shape": MMAShapeAttr.new(tuple(shape)),
                "typeD": WGMMATypesAttr.get(d[0]),
                "scaleD": WGMMAScaleOutAttr.get(d[1] if len(d) > 1 else "one"),
                "satfinite": MMAIntOverflowAttr.get(d[2] if len(d) > 2 else "wrapped"),
                "typeA": WGMMATypesAttr.get(a[0]),
                "scaleA": WGMMAScaleInAttr.get(a[1]),
                "layoutA": MMALayoutAttr.get(a[2]),
                "typeB": WGMMATypesAttr.get(b[0]),
                "scaleB": WGMMAScaleInAttr.get(b[1]),
                "layoutB": MMALayoutAttr.get(b[2]),
            }
        )
        assert acc is not None
        return _make(
            cls,
            [parser.resolve_operand(acc, at), parser.resolve_operand(da, i64), parser.resolve_operand(db, i64)],
            [rt],
            attrs,
        )


def _wgmma_result_type(t: Attribute) -> str:
    """The wgmma accumulator type keyword implied by the result struct's element type."""
    from xdsl.dialects.builtin import Float16Type
    from xdsl.dialects.llvm import LLVMStructType

    elem = t.types.data[0] if isinstance(t, LLVMStructType) and t.types.data else t
    if isinstance(elem, IntegerType):
        return "s32"
    if isinstance(elem, Float16Type):
        return "f16"
    return "f32"


def infer_mma_ptx_type(t: Attribute) -> str | None:
    """The PTX multiplicand type MLIR infers from an mma.sync operand type (None = must be explicit)."""
    from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, VectorType

    elem = t.element_type if isinstance(t, VectorType) else t
    if isinstance(elem, Float16Type):
        return "f16"
    if isinstance(elem, BFloat16Type):
        return "bf16"
    if isinstance(elem, Float64Type):
        return "f64"
    if isinstance(elem, Float32Type):
        return "tf32"
    return None


@irdl.irdl_op_definition
class MmaSyncOp(irdl.IRDLOperation):
    """`nvvm.mma.sync A[..] B[..] C[..] {attrs} : (tA, tB, tC) -> !llvm.struct<..>`."""

    name = "nvvm.mma.sync"
    operandA = irdl.var_operand_def()
    operandB = irdl.var_operand_def()
    operandC = irdl.var_operand_def()
    res = irdl.result_def()
    shape = irdl.prop_def(Attribute)
    layoutA = irdl.prop_def(Attribute)
    layoutB = irdl.prop_def(Attribute)
    b1Op = irdl.opt_prop_def(Attribute)
    intOverflowBehavior = irdl.opt_prop_def(Attribute)
    multiplicandAPtxType = irdl.opt_prop_def(Attribute)
    multiplicandBPtxType = irdl.opt_prop_def(Attribute)
    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> MmaSyncOp:
        groups: list[list[UnresolvedOperand]] = []
        for letter in "ABC":
            parser.parse_keyword(letter)
            groups.append(_bracket_list(parser))
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        ts = _types(parser)
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        ops = [[parser.resolve_operand(v, t) for v in g] for g, t in zip(groups, ts)]
        for key, t in (("multiplicandAPtxType", ts[0]), ("multiplicandBPtxType", ts[1] if len(ts) > 1 else ts[0])):
            inferred = infer_mma_ptx_type(t)
            if key not in attrs and inferred is not None:
                attrs[key] = MMATypesAttr.get(inferred)
        return _make(cls, ops, [rt], attrs)


@irdl.irdl_op_definition
class LdMatrixOp(irdl.IRDLOperation):
    """`nvvm.ldmatrix %p {num = 4 : i32, layout = #nvvm.mma_layout<row>, ...} : (!llvm.ptr<3>) -> T`."""

    name = "nvvm.ldmatrix"
    ptr = irdl.operand_def()
    res = irdl.result_def()
    num = irdl.prop_def(IntegerAttr)
    layout = irdl.prop_def(Attribute)
    shape = irdl.opt_prop_def(Attribute)
    eltType = irdl.opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> LdMatrixOp:
        p = parser.parse_unresolved_operand()
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        pt = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        rt = parser.parse_type()
        attrs.setdefault("shape", LdStMatrixShapeAttr.get(8, 8))
        attrs.setdefault("eltType", LdStMatrixEltTypeAttr.get("b16"))
        return _make(cls, [parser.resolve_operand(p, pt)], [rt], attrs)


@irdl.irdl_op_definition
class StMatrixOp(irdl.IRDLOperation):
    """`nvvm.stmatrix %p, %r0, ... {layout = .., shape = .., eltType = ..} : !llvm.ptr<3>, i32, ...`."""

    name = "nvvm.stmatrix"
    ptr = irdl.operand_def()
    sources = irdl.var_operand_def()
    layout = irdl.prop_def(Attribute)
    shape = irdl.opt_prop_def(Attribute)
    eltType = irdl.opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> StMatrixOp:
        vals = _operands(parser)
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        ts = _types(parser)
        attrs.setdefault("shape", LdStMatrixShapeAttr.get(8, 8))
        attrs.setdefault("eltType", LdStMatrixEltTypeAttr.get("b16"))
        resolved = [parser.resolve_operand(v, t) for v, t in zip(vals, ts)]
        return _make(cls, [resolved[0], resolved[1:]], [], attrs)


# ----------------------------------------------------------------------------------------------
# cp.async (SM80), rcp, conversions
# ----------------------------------------------------------------------------------------------


@irdl.irdl_op_definition
class CpAsyncSharedGlobalOp(irdl.IRDLOperation):
    """`nvvm.cp.async.shared.global %dst, %src, 16, cache = ca (, %cpSize)? : !llvm.ptr<3>, !llvm.ptr<1> (, i32)?`."""

    name = "nvvm.cp.async.shared.global"
    dst = irdl.operand_def()
    src = irdl.operand_def()
    cpSize = irdl.opt_operand_def()
    size = irdl.prop_def(IntegerAttr)
    modifier = irdl.prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> CpAsyncSharedGlobalOp:
        d = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        s = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        n = parser.parse_integer()
        parser.parse_punctuation(",")
        parser.parse_keyword("cache")
        parser.parse_punctuation("=")
        mod = parser.parse_identifier()
        size_op = None
        if parser.parse_optional_punctuation(",") is not None:
            size_op = parser.parse_unresolved_operand()
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        ts = _types(parser)
        attrs["size"] = IntegerAttr(n, i32)
        attrs["modifier"] = LoadCacheModifierAttr.of(mod)
        return _make(
            cls,
            [
                parser.resolve_operand(d, ts[0]),
                parser.resolve_operand(s, ts[1]),
                [parser.resolve_operand(size_op, i32)] if size_op else [],
            ],
            [],
            attrs,
        )


@irdl.irdl_op_definition
class CpAsyncMBarrierArriveOp(_Generic):
    """`nvvm.cp.async.mbarrier.arrive %bar : !llvm.ptr<3>` (noinc as a unit property)."""

    name = "nvvm.cp.async.mbarrier.arrive"
    args = irdl.var_operand_def()
    noinc = irdl.opt_prop_def(Attribute)


class _ConvertX2(irdl.IRDLOperation):
    """Packed conversions: `%r = nvvm.convert.f32x2.to.f16x2 %hi, %lo {rnd = ..} : vector<2xf16>` etc."""

    args = irdl.var_operand_def()
    dst = irdl.result_def()
    rnd = irdl.opt_prop_def(Attribute)
    sat = irdl.opt_prop_def(Attribute)
    relu = irdl.opt_prop_def(Attribute)
    srcType = irdl.opt_prop_def(Attribute)
    dstTy = irdl.opt_prop_def(Attribute)
    randomBits = irdl.opt_prop_def(Attribute)

    @classmethod
    def parse(cls, parser: Parser) -> _ConvertX2:
        vals = _operands(parser)
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        ts = _types(parser)
        if parser.parse_optional_punctuation("->") is not None:
            rt: Attribute = parser.parse_type()
            in_types = ts
        else:
            rt = ts[-1]
            in_types = [ts[0]] * len(vals) if len(ts) == 1 else ts[:-1]
        from xdsl.dialects.builtin import Float32Type

        if len(ts) == 1 and cls.name.startswith("nvvm.convert.f32x2"):
            in_types = [Float32Type()] * len(vals)
        return _make(cls, [[parser.resolve_operand(v, t) for v, t in zip(vals, in_types)]], [rt], attrs)


@irdl.irdl_op_definition
class ConvertF16x2ToF8x2Op(_ConvertX2):
    name = "nvvm.convert.f16x2.to.f8x2"


@irdl.irdl_op_definition
class ConvertF8x2ToF16x2Op(_ConvertX2):
    name = "nvvm.convert.f8x2.to.f16x2"


@irdl.irdl_op_definition
class ConvertF8x2ToBF16x2Op(_ConvertX2):
    name = "nvvm.convert.f8x2.to.bf16x2"


OPS: list[type[Operation]] = [
    *_MODERN_MBARRIER,
    *LEGACY_SHARED_OPS,
    CpAsyncBulkTensorSharedClusterGlobalOp,
    CpAsyncBulkTensorGlobalSharedCtaOp,
    CpAsyncBulkTensorPrefetchOp,
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    WgmmaFenceAlignedOp,
    WgmmaMmaAsyncOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaWaitGroupSyncOp,
    MmaSyncOp,
    LdMatrixOp,
    StMatrixOp,
    CpAsyncSharedGlobalOp,
    CpAsyncCommitGroupOp,
    CpAsyncWaitGroupOp,
    CpAsyncMBarrierArriveOp,
    ConvertF16x2ToF8x2Op,
    ConvertF8x2ToF16x2Op,
    ConvertF8x2ToBF16x2Op,
]

ATTRS: list[type[Attribute]] = [
    MMALayoutAttr,
    MMATypesAttr,
    MMAIntOverflowAttr,
    MMAB1OpAttr,
    WGMMATypesAttr,
    WGMMAScaleInAttr,
    WGMMAScaleOutAttr,
    TMALoadModeAttr,
    TMAStoreModeAttr,
    LdStMatrixEltTypeAttr,
    LoadCacheModifierAttr,
    MMAShapeAttr,
    LdStMatrixShapeAttr,
]
