"""The nvvm dialect in MLIR 22 syntax: special registers, barriers, warp collectives, fences,
conversions and prefetch; attributes (enums, `#nvvm.target`) live in nvvm_attrs.py and the
architecture families (mbarrier, TMA, WGMMA, mma, ldmatrix, cp.async) in nvvm_arch.py.

```mlir
%tid = nvvm.read.ptx.sreg.tid.x : i32
nvvm.barrier0
%v = nvvm.shfl.sync bfly %mask, %x, %off, %clamp : f32 -> f32
```
"""

from __future__ import annotations

from xdsl import irdl
from xdsl.dialects.builtin import (
    I16,
    I32,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    f32,
    i1,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    SSAValue,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tile_lsp.compiler.mlir.dialects.nvvm_attrs import (
    BarrierReduction,
    BarrierReductionAttr,
    ConstantRangeAttr,
    FPRoundingMode,
    FPRoundingModeAttr,
    GridDepAction,
    GridDepActionAttr,
    MatchSyncKind,
    MatchSyncKindAttr,
    MemScopeKind,
    MemScopeKindAttr,
    NVVMTargetAttr,
    PrefetchCacheLevel,
    PrefetchCacheLevelAttr,
    ProxyKind,
    ProxyKindAttr,
    ReduxKind,
    ReduxKindAttr,
    SaturationMode,
    SaturationModeAttr,
    SetMaxRegisterAction,
    SetMaxRegisterActionAttr,
    SharedSpace,
    SharedSpaceAttr,
    ShflKind,
    ShflKindAttr,
    VoteSyncKind,
    VoteSyncKindAttr,
)

# --------------------------------------------------------------------------------------------
# Special registers


class SpecialRegisterOp(irdl.IRDLOperation):
    """Base of `nvvm.read.ptx.sreg.*`: `(range <i32, lo, hi>)? attr-dict : type`."""

    res = irdl.result_def()
    range = irdl.opt_prop_def(ConstantRangeAttr)

    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "(`range` $range^)? attr-dict `:` type($res)"

    def __init__(self, result_type: Attribute = i32) -> None:
        super().__init__(result_types=[result_type])


_SREG_NAMES = (
    "laneid", "warpsize", "warpid", "nwarpid", "smid", "nsmid", "gridid",
    "lanemask.eq", "lanemask.le", "lanemask.lt", "lanemask.ge", "lanemask.gt",
    *(f"{reg}.{axis}" for reg in ("tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid",
                                  "cluster.ctaid", "cluster.nctaid") for axis in "xyz"),
    "cluster.ctarank", "cluster.nctarank",
    "clock", "clock64", "globaltimer", "globaltimer.lo",
    *(f"envreg{i}" for i in range(32)),
)  # fmt: skip


def _sreg_class(reg: str) -> type[SpecialRegisterOp]:
    title = "".join(part.capitalize() for part in reg.split("."))
    cls = type(
        f"Read{title}Op",
        (SpecialRegisterOp,),
        {"name": f"nvvm.read.ptx.sreg.{reg}", "__doc__": f"Reads %{reg}: `nvvm.read.ptx.sreg.{reg} : i32`."},
    )
    return irdl.irdl_op_definition(cls)


SPECIAL_REGISTER_OPS: dict[str, type[SpecialRegisterOp]] = {
    f"nvvm.read.ptx.sreg.{reg}": _sreg_class(reg) for reg in _SREG_NAMES
}


# --------------------------------------------------------------------------------------------
# Barriers and cluster barriers


class _NoOperandOp(irdl.IRDLOperation):
    """Ops written as just their name plus an attribute dictionary."""

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl.irdl_op_definition
class Barrier0Op(_NoOperandOp):
    """CTA barrier 0 (`bar.sync 0`): `nvvm.barrier0`."""

    name = "nvvm.barrier0"


@irdl.irdl_op_definition
class BarrierOp(irdl.IRDLOperation):
    """Aligned CTA barrier: `nvvm.barrier id = %id number_of_threads = %n`."""

    name = "nvvm.barrier"

    barrierId = irdl.opt_operand_def(i32)
    numberOfThreads = irdl.opt_operand_def(i32)
    reductionPredicate = irdl.opt_operand_def(i32)
    reductionOp = irdl.opt_prop_def(BarrierReductionAttr)
    res = irdl.opt_result_def(i32)

    irdl_options = (irdl.AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        "(`id` `=` $barrierId^)? (`number_of_threads` `=` $numberOfThreads^)?"
        " (qualified($reductionOp)^ $reductionPredicate)? (`->` type($res)^)? attr-dict"
    )

    def __init__(self, barrier_id: SSAValue | None = None, number_of_threads: SSAValue | None = None) -> None:
        super().__init__(
            operands=[
                [barrier_id] if barrier_id is not None else [],
                [number_of_threads] if number_of_threads is not None else [],
                [],
            ],
            result_types=[[]],
        )


@irdl.irdl_op_definition
class BarrierArriveOp(irdl.IRDLOperation):
    """`bar.arrive`: `nvvm.barrier.arrive id = %id number_of_threads = %n`."""

    name = "nvvm.barrier.arrive"

    barrierId = irdl.opt_operand_def(i32)
    numberOfThreads = irdl.operand_def(i32)

    assembly_format = "(`id` `=` $barrierId^)? `number_of_threads` `=` $numberOfThreads attr-dict"

    def __init__(self, number_of_threads: SSAValue, barrier_id: SSAValue | None = None) -> None:
        super().__init__(operands=[[barrier_id] if barrier_id is not None else [], number_of_threads])


@irdl.irdl_op_definition
class SyncWarpOp(irdl.IRDLOperation):
    """`bar.warp.sync`: `nvvm.bar.warp.sync %mask : i32`."""

    name = "nvvm.bar.warp.sync"

    mask = irdl.operand_def()

    assembly_format = "$mask attr-dict `:` type($mask)"

    def __init__(self, mask: SSAValue) -> None:
        super().__init__(operands=[mask])


class _AlignedOp(irdl.IRDLOperation):
    aligned = irdl.opt_prop_def(UnitAttr)

    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, aligned: bool = False) -> None:
        super().__init__(properties={"aligned": UnitAttr()} if aligned else {})


@irdl.irdl_op_definition
class ClusterArriveOp(_AlignedOp):
    """`barrier.cluster.arrive`: `nvvm.cluster.arrive {aligned}`."""

    name = "nvvm.cluster.arrive"


@irdl.irdl_op_definition
class ClusterArriveRelaxedOp(_AlignedOp):
    """`barrier.cluster.arrive.relaxed`: `nvvm.cluster.arrive.relaxed`."""

    name = "nvvm.cluster.arrive.relaxed"


@irdl.irdl_op_definition
class ClusterWaitOp(_AlignedOp):
    """`barrier.cluster.wait`: `nvvm.cluster.wait`."""

    name = "nvvm.cluster.wait"


# --------------------------------------------------------------------------------------------
# Fences


@irdl.irdl_op_definition
class FenceScClusterOp(_NoOperandOp):
    """`fence.sc.cluster`."""

    name = "nvvm.fence.sc.cluster"


@irdl.irdl_op_definition
class FenceMbarrierInitOp(_NoOperandOp):
    """`fence.mbarrier_init.release.cluster`: `nvvm.fence.mbarrier.init`."""

    name = "nvvm.fence.mbarrier.init"


@irdl.irdl_op_definition
class FenceProxyOp(irdl.IRDLOperation):
    """`fence.proxy.<kind>`: `nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = ...}`."""

    name = "nvvm.fence.proxy"

    kind = irdl.prop_def(ProxyKindAttr)
    space = irdl.opt_prop_def(SharedSpaceAttr)

    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, kind: ProxyKind, space: SharedSpace | None = None) -> None:
        props: dict[str, Attribute] = {"kind": ProxyKindAttr(kind)}
        if space is not None:
            props["space"] = SharedSpaceAttr(space)
        super().__init__(properties=props)

    def verify_(self) -> None:
        if self.kind.data == ProxyKind.ASYNC_SHARED and self.space is None:
            raise VerifyException("async_shared fence requires space attribute")


@irdl.irdl_op_definition
class FenceProxyAcquireOp(irdl.IRDLOperation):
    """`nvvm.fence.proxy.acquire <cta> %addr, %size` (generic -> tensormap proxy)."""

    name = "nvvm.fence.proxy.acquire"

    scope = irdl.prop_def(MemScopeKindAttr)
    addr = irdl.operand_def(LLVMPointerType())
    size = irdl.operand_def(i32)
    fromProxy = irdl.opt_prop_def(ProxyKindAttr)
    toProxy = irdl.opt_prop_def(ProxyKindAttr)

    assembly_format = (
        "$scope $addr `,` $size (`from_proxy` `=` $fromProxy^)? (`to_proxy` `=` $toProxy^)? attr-dict"
    )


@irdl.irdl_op_definition
class FenceProxyReleaseOp(irdl.IRDLOperation):
    """`nvvm.fence.proxy.release <cta>` (generic -> tensormap proxy)."""

    name = "nvvm.fence.proxy.release"

    scope = irdl.prop_def(MemScopeKindAttr)
    fromProxy = irdl.opt_prop_def(ProxyKindAttr)
    toProxy = irdl.opt_prop_def(ProxyKindAttr)

    assembly_format = "$scope (`from_proxy` `=` $fromProxy^)? (`to_proxy` `=` $toProxy^)? attr-dict"


@irdl.irdl_op_definition
class MembarOp(irdl.IRDLOperation):
    """`membar.<scope>` / `fence.sc.<scope>`: `nvvm.memory.barrier <cta>`."""

    name = "nvvm.memory.barrier"

    scope = irdl.prop_def(MemScopeKindAttr)

    assembly_format = "$scope attr-dict"


# --------------------------------------------------------------------------------------------
# Warp collectives


@irdl.irdl_op_definition
class ShflOp(irdl.IRDLOperation):
    """`shfl.sync`: `nvvm.shfl.sync bfly %mask, %val, %offset, %clamp : f32 -> f32`."""

    name = "nvvm.shfl.sync"

    thread_mask = irdl.operand_def(i32)
    val = irdl.operand_def()
    offset = irdl.operand_def(i32)
    mask_and_clamp = irdl.operand_def(i32)
    kind = irdl.prop_def(ShflKindAttr)
    return_value_and_is_valid = irdl.opt_prop_def(UnitAttr)
    res = irdl.result_def()

    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = (
        "$kind $thread_mask `,` $val `,` $offset `,` $mask_and_clamp attr-dict `:` type($val) `->` type($res)"
    )

    def __init__(
        self,
        kind: ShflKind,
        thread_mask: SSAValue,
        val: SSAValue,
        offset: SSAValue,
        mask_and_clamp: SSAValue,
        result_type: Attribute | None = None,
        with_valid: bool = False,
    ) -> None:
        props: dict[str, Attribute] = {"kind": ShflKindAttr(kind)}
        if with_valid:
            props["return_value_and_is_valid"] = UnitAttr()
        if result_type is None:
            result_type = LLVMStructType.from_type_list([val.type, i1]) if with_valid else val.type
        super().__init__(
            operands=[thread_mask, val, offset, mask_and_clamp], properties=props, result_types=[result_type]
        )

    def verify_(self) -> None:
        if self.return_value_and_is_valid is not None and not isinstance(self.res.type, LLVMStructType):
            raise VerifyException("expected return type to be a two-element struct")


@irdl.irdl_op_definition
class VoteSyncOp(irdl.IRDLOperation):
    """`vote.sync`: `nvvm.vote.sync ballot %mask, %pred -> i32`."""

    name = "nvvm.vote.sync"

    mask = irdl.operand_def(i32)
    pred = irdl.operand_def(i1)
    kind = irdl.prop_def(VoteSyncKindAttr)
    res = irdl.result_def()

    assembly_format = "$kind $mask `,` $pred attr-dict `->` type($res)"

    def __init__(self, kind: VoteSyncKind, mask: SSAValue, pred: SSAValue) -> None:
        super().__init__(
            operands=[mask, pred],
            properties={"kind": VoteSyncKindAttr(kind)},
            result_types=[i32 if kind == VoteSyncKind.BALLOT else i1],
        )

    def verify_(self) -> None:
        want = i32 if self.kind.data == VoteSyncKind.BALLOT else i1
        if self.res.type != want:
            raise VerifyException(f"vote.sync '{self.kind.data.value}' returns {want}")


@irdl.irdl_op_definition
class ElectSyncOp(irdl.IRDLOperation):
    """`elect.sync`: `%p = nvvm.elect.sync -> i1` (membermask defaults to all lanes)."""

    name = "nvvm.elect.sync"

    membermask = irdl.opt_operand_def(i32)
    pred = irdl.result_def(i1)

    assembly_format = "($membermask^)? attr-dict `->` type(results)"

    def __init__(self, membermask: SSAValue | None = None) -> None:
        super().__init__(operands=[[membermask] if membermask is not None else []], result_types=[i1])


@irdl.irdl_op_definition
class ReduxOp(irdl.IRDLOperation):
    """`redux.sync` (sm_80): `nvvm.redux.sync add %val, %mask : i32 -> i32`."""

    name = "nvvm.redux.sync"

    val = irdl.operand_def()
    mask_and_clamp = irdl.operand_def(i32)
    kind = irdl.prop_def(ReduxKindAttr)
    abs = irdl.opt_prop_def(BoolAttr)
    nan = irdl.opt_prop_def(BoolAttr)
    res = irdl.result_def()

    irdl_options = (irdl.ParsePropInAttrDict(),)
    assembly_format = "$kind $val `,` $mask_and_clamp attr-dict `:` type($val) `->` type($res)"

    def __init__(self, kind: ReduxKind, val: SSAValue, mask_and_clamp: SSAValue) -> None:
        super().__init__(
            operands=[val, mask_and_clamp], properties={"kind": ReduxKindAttr(kind)}, result_types=[val.type]
        )


@irdl.irdl_op_definition
class MatchSyncOp(irdl.IRDLOperation):
    """`match.{any,all}.sync`: `nvvm.match.sync any %mask, %val : i32 -> i32`."""

    name = "nvvm.match.sync"

    thread_mask = irdl.operand_def(i32)
    val = irdl.operand_def()
    kind = irdl.prop_def(MatchSyncKindAttr)
    res = irdl.result_def()

    assembly_format = "$kind $thread_mask `,` $val attr-dict `:` type($val) `->` type($res)"


# --------------------------------------------------------------------------------------------
# Arithmetic, conversions, misc


@irdl.irdl_op_definition
class RcpApproxFtzF32Op(irdl.IRDLOperation):
    """`rcp.approx.ftz.f32`: `nvvm.rcp.approx.ftz.f %x : f32`."""

    name = "nvvm.rcp.approx.ftz.f"

    arg = irdl.operand_def(f32)
    res = irdl.result_def(f32)

    assembly_format = "$arg attr-dict `:` type($res)"

    def __init__(self, arg: SSAValue) -> None:
        super().__init__(operands=[arg], result_types=[arg.type])


class _CvtModes(irdl.IRDLOperation):
    rnd = irdl.opt_prop_def(FPRoundingModeAttr)
    sat = irdl.opt_prop_def(SaturationModeAttr)
    relu = irdl.opt_prop_def(BoolAttr)

    irdl_options = (irdl.ParsePropInAttrDict(),)

    def rounding(self) -> FPRoundingMode:
        return self.rnd.data if self.rnd is not None else FPRoundingMode.NONE

    def saturation(self) -> SaturationMode:
        return self.sat.data if self.sat is not None else SaturationMode.NONE

    def has_relu(self) -> bool:
        return self.relu is not None and bool(self.relu.value.data)

    def _modes(self, rnd: FPRoundingMode | None, sat: SaturationMode | None, relu: bool) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {}
        if rnd is not None:
            props["rnd"] = FPRoundingModeAttr(rnd)
        if sat is not None:
            props["sat"] = SaturationModeAttr(sat)
        if relu:
            props["relu"] = IntegerAttr(1, IntegerType(1))
        return props


@irdl.irdl_op_definition
class ConvertFloatToTF32Op(_CvtModes):
    """`cvt.<rnd>.tf32.f32`: `%r = nvvm.convert.float.to.tf32 %x {rnd = #nvvm.fp_rnd_mode<rn>}`."""

    name = "nvvm.convert.float.to.tf32"

    src = irdl.operand_def(f32)
    res = irdl.result_def(i32)

    assembly_format = "$src attr-dict"


class _ConvertF32x2Op(_CvtModes):
    src_hi = irdl.operand_def(f32)
    src_lo = irdl.operand_def(f32)
    dst = irdl.result_def(VectorType)

    assembly_format = "$src_hi `,` $src_lo attr-dict `:` type($dst)"

    def __init__(
        self,
        src_hi: SSAValue,
        src_lo: SSAValue,
        result_type: Attribute,
        rnd: FPRoundingMode | None = FPRoundingMode.RN,
        sat: SaturationMode | None = None,
        relu: bool = False,
    ) -> None:
        super().__init__(
            operands=[src_hi, src_lo], result_types=[result_type], properties=self._modes(rnd, sat, relu)
        )


@irdl.irdl_op_definition
class ConvertF32x2ToF16x2Op(_ConvertF32x2Op):
    """`cvt.rn.f16x2.f32`: `%r = nvvm.convert.f32x2.to.f16x2 %hi, %lo {rnd = ...} : vector<2xf16>`."""

    name = "nvvm.convert.f32x2.to.f16x2"


@irdl.irdl_op_definition
class ConvertF32x2ToBF16x2Op(_ConvertF32x2Op):
    """`cvt.rn.bf16x2.f32`: `%r = nvvm.convert.f32x2.to.bf16x2 %hi, %lo {rnd = ...} : vector<2xbf16>`."""

    name = "nvvm.convert.f32x2.to.bf16x2"


@irdl.irdl_op_definition
class ConvertF32x2ToF8x2Op(_CvtModes):
    """`cvt.rn.satfinite.e4m3x2.f32`: `nvvm.convert.f32x2.to.f8x2 %a, %b {...} : i16 (f8E4M3FN)`."""

    name = "nvvm.convert.f32x2.to.f8x2"

    a = irdl.operand_def(f32)
    b = irdl.operand_def(f32)
    dstTy = irdl.prop_def()
    dst = irdl.result_def()

    assembly_format = "$a `,` $b attr-dict `:` type($dst) `(` $dstTy `)`"

    def __init__(self, a: SSAValue, b: SSAValue, result_type: Attribute, dst_ty: Attribute,
                 rnd: FPRoundingMode | None = FPRoundingMode.RN,
                 sat: SaturationMode | None = SaturationMode.SATFINITE, relu: bool = False) -> None:  # fmt: skip
        props = self._modes(rnd, sat, relu)
        props["dstTy"] = dst_ty
        super().__init__(operands=[a, b], result_types=[result_type], properties=props)


@irdl.irdl_op_definition
class PrefetchOp(irdl.IRDLOperation):
    """`prefetch[.tensormap]`: `nvvm.prefetch level = L2, %p : !llvm.ptr<1>` / `nvvm.prefetch tensormap, %p : !llvm.ptr`."""

    name = "nvvm.prefetch"

    addr = irdl.operand_def(LLVMPointerType)
    predicate = irdl.opt_operand_def(i1)
    cacheLevel = irdl.opt_prop_def(PrefetchCacheLevelAttr)
    tensormap = irdl.opt_prop_def(UnitAttr)
    uniform = irdl.opt_prop_def(UnitAttr)
    in_param_space = irdl.opt_prop_def(UnitAttr)
    evictPriority = irdl.opt_prop_def(irdl.AnyAttr())

    irdl_options = (irdl.ParsePropInAttrDict(),)

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("level") is not None:
            parser.parse_punctuation("=")
            if parser.parse_optional_keyword("uniform") is not None:
                props["uniform"] = UnitAttr()
            props["cacheLevel"] = PrefetchCacheLevelAttr(parser.parse_str_enum(PrefetchCacheLevel))
            if parser.parse_optional_punctuation(",") is not None and parser.parse_optional_keyword(
                "evict_priority"
            ):
                parser.parse_punctuation("=")
                props["evictPriority"] = parser.parse_attribute()
                parser.parse_punctuation(",")
        elif parser.parse_optional_keyword("tensormap") is not None:
            props["tensormap"] = UnitAttr()
            if parser.parse_optional_keyword("in_param_space") is not None:
                props["in_param_space"] = UnitAttr()
            parser.parse_punctuation(",")
        addr = parser.parse_unresolved_operand()
        pred = None
        if parser.parse_optional_punctuation(",") is not None:
            parser.parse_keyword("predicate")
            parser.parse_punctuation("=")
            pred = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operands = [parser.resolve_operand(addr, parser.parse_type())]
        if pred is not None:
            parser.parse_punctuation(",")
            operands.append(parser.resolve_operand(pred, parser.parse_type()))
        return cls.create(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.cacheLevel is not None:
            printer.print_string(" level = ")
            if self.uniform is not None:
                printer.print_string("uniform ")
            printer.print_string(self.cacheLevel.data.value)
            if self.evictPriority is not None:
                printer.print_string(", evict_priority = ")
                printer.print_attribute(self.evictPriority)
        elif self.tensormap is not None:
            printer.print_string(" tensormap")
            if self.in_param_space is not None:
                printer.print_string(" in_param_space")
        printer.print_string(", " if self.cacheLevel is not None or self.tensormap is not None else " ")
        printer.print_operand(self.addr)
        if self.predicate is not None:
            printer.print_string(", predicate = ")
            printer.print_operand(self.predicate)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.addr.type)
        if self.predicate is not None:
            printer.print_string(", ")
            printer.print_attribute(self.predicate.type)


@irdl.irdl_op_definition
class NanosleepOp(irdl.IRDLOperation):
    """`nanosleep.u32`: `nvvm.nanosleep %ns`."""

    name = "nvvm.nanosleep"

    duration = irdl.operand_def(i32)

    assembly_format = "$duration attr-dict"


@irdl.irdl_op_definition
class MapaOp(irdl.IRDLOperation):
    """`mapa`: address of the same variable in another CTA of the cluster."""

    name = "nvvm.mapa"

    a = irdl.operand_def(LLVMPointerType)
    b = irdl.operand_def(i32)
    res = irdl.result_def(LLVMPointerType)

    assembly_format = "$a `,` $b attr-dict `:` type($a) `->` type($res)"


@irdl.irdl_op_definition
class ExitOp(_NoOperandOp):
    """`exit`: `nvvm.exit`."""

    name = "nvvm.exit"


@irdl.irdl_op_definition
class BreakpointOp(_NoOperandOp):
    """`brkpt`: `nvvm.breakpoint`."""

    name = "nvvm.breakpoint"


@irdl.irdl_op_definition
class SetMaxRegisterOp(irdl.IRDLOperation):
    """`setmaxnreg` (sm_90a): `nvvm.setmaxregister increase 232`."""

    name = "nvvm.setmaxregister"

    action = irdl.prop_def(SetMaxRegisterActionAttr)
    regCount = irdl.prop_def(IntegerAttr[I32])

    assembly_format = "$action $regCount attr-dict"


@irdl.irdl_op_definition
class GridDepControlOp(irdl.IRDLOperation):
    """`griddepcontrol.{wait,launch_dependents}` (sm_90): `nvvm.griddepcontrol wait`."""

    name = "nvvm.griddepcontrol"

    kind = irdl.prop_def(GridDepActionAttr)

    assembly_format = "$kind attr-dict"


@irdl.irdl_op_definition
class PMEventOp(irdl.IRDLOperation):
    """`pmevent`: `nvvm.pmevent id = 10` / `nvvm.pmevent mask = 4`."""

    name = "nvvm.pmevent"

    eventId = irdl.opt_prop_def(IntegerAttr[I32])
    maskedEventId = irdl.opt_prop_def(IntegerAttr[I16])

    assembly_format = "attr-dict (`id` `=` $eventId^)? (`mask` `=` $maskedEventId^)?"

    def verify_(self) -> None:
        if (self.eventId is None) == (self.maskedEventId is None):
            raise VerifyException("exactly one of id or mask must be given")


OPS: list[type[Operation]] = [
    *SPECIAL_REGISTER_OPS.values(),
    Barrier0Op,
    BarrierOp,
    BarrierArriveOp,
    SyncWarpOp,
    ClusterArriveOp,
    ClusterArriveRelaxedOp,
    ClusterWaitOp,
    FenceScClusterOp,
    FenceMbarrierInitOp,
    FenceProxyOp,
    FenceProxyAcquireOp,
    FenceProxyReleaseOp,
    MembarOp,
    ShflOp,
    VoteSyncOp,
    ElectSyncOp,
    ReduxOp,
    MatchSyncOp,
    RcpApproxFtzF32Op,
    ConvertFloatToTF32Op,
    ConvertF32x2ToF16x2Op,
    ConvertF32x2ToBF16x2Op,
    ConvertF32x2ToF8x2Op,
    PrefetchOp,
    NanosleepOp,
    MapaOp,
    ExitOp,
    BreakpointOp,
    SetMaxRegisterOp,
    GridDepControlOp,
    PMEventOp,
]
ATTRS: list[type[Attribute]] = [
    ShflKindAttr,
    VoteSyncKindAttr,
    ReduxKindAttr,
    MatchSyncKindAttr,
    PrefetchCacheLevelAttr,
    SetMaxRegisterActionAttr,
    ProxyKindAttr,
    SharedSpaceAttr,
    MemScopeKindAttr,
    FPRoundingModeAttr,
    SaturationModeAttr,
    BarrierReductionAttr,
    GridDepActionAttr,
    ConstantRangeAttr,
    NVVMTargetAttr,
]


def dialect() -> Dialect:
    """nvvm = the core ops here plus the architecture families of nvvm_arch.py (ours win on a clash)."""
    from tile_lsp.compiler.mlir.dialects import nvvm_arch

    ops: dict[str, type[Operation]] = {op.name: op for op in nvvm_arch.OPS}
    ops.update({op.name: op for op in OPS})
    attrs: dict[str, type[Attribute]] = {a.name: a for a in nvvm_arch.ATTRS}
    attrs.update({a.name: a for a in ATTRS})
    return Dialect("nvvm", list(ops.values()), list(attrs.values()))


# The attribute classes are defined in nvvm_attrs.py and re-exported here.
__all__ = [
    "ATTRS",
    "Barrier0Op",
    "BarrierArriveOp",
    "BarrierOp",
    "BarrierReduction",
    "BarrierReductionAttr",
    "BreakpointOp",
    "ClusterArriveOp",
    "ClusterArriveRelaxedOp",
    "ClusterWaitOp",
    "ConstantRangeAttr",
    "ConvertF32x2ToBF16x2Op",
    "ConvertF32x2ToF16x2Op",
    "ConvertF32x2ToF8x2Op",
    "ConvertFloatToTF32Op",
    "ElectSyncOp",
    "ExitOp",
    "FPRoundingMode",
    "FPRoundingModeAttr",
    "FenceMbarrierInitOp",
    "FenceProxyAcquireOp",
    "FenceProxyOp",
    "FenceProxyReleaseOp",
    "FenceScClusterOp",
    "GridDepAction",
    "GridDepActionAttr",
    "GridDepControlOp",
    "MapaOp",
    "MatchSyncKind",
    "MatchSyncKindAttr",
    "MatchSyncOp",
    "MemScopeKind",
    "MemScopeKindAttr",
    "MembarOp",
    "NVVMTargetAttr",
    "NanosleepOp",
    "OPS",
    "PMEventOp",
    "PrefetchCacheLevel",
    "PrefetchCacheLevelAttr",
    "PrefetchOp",
    "ProxyKind",
    "ProxyKindAttr",
    "RcpApproxFtzF32Op",
    "ReduxKind",
    "ReduxKindAttr",
    "ReduxOp",
    "SPECIAL_REGISTER_OPS",
    "SaturationMode",
    "SaturationModeAttr",
    "SetMaxRegisterAction",
    "SetMaxRegisterActionAttr",
    "SetMaxRegisterOp",
    "SharedSpace",
    "SharedSpaceAttr",
    "ShflKind",
    "ShflKindAttr",
    "ShflOp",
    "SpecialRegisterOp",
    "SyncWarpOp",
    "VoteSyncKind",
    "VoteSyncKindAttr",
    "VoteSyncOp",
    "_AlignedOp",
    "_ConvertF32x2Op",
    "_NoOperandOp",
    "dialect",
]
