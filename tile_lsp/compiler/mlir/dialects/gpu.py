"""The gpu dialect: xDSL's ops, with the kernel-side ops redefined in MLIR 22's custom syntax.

Covers what kernels use (`gpu.module`, `gpu.func`, index queries, barrier, printf, shuffle,
subgroup/all reduce, dynamic shared memory) and `gpu.launch_func`; the rest stays xDSL's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import gpu as xgpu
from xdsl.dialects.builtin import (
    I32,
    AnyFloatConstr,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IndexTypeConstr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    EqAttrConstraint,
    IRDLOperation,
    VarConstraint,
    attr_def,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

DimensionAttr = xgpu.DimensionAttr
DimensionEnum = xgpu.DimensionEnum


# ---------------------------------------------------------------- attributes


class AddressSpace(StrEnum):
    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


@irdl_attr_definition
class AddressSpaceAttr(EnumAttribute[AddressSpace]):
    """`#gpu.address_space<workgroup>`: a memref memory space (global = 1, workgroup = 3, private = 5)."""

    name = "gpu.address_space"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AddressSpace:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(AddressSpace)


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    name = "gpu.shuffle_mode"


class ReduceKind(StrEnum):
    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


@irdl_attr_definition
class ReduceKindAttr(EnumAttribute[ReduceKind], SpacedOpaqueSyntaxAttribute):
    """`#gpu<all_reduce_op add>`."""

    name = "gpu.all_reduce_op"


# ---------------------------------------------------------------- helpers


def _print_extra_attrs(printer: Printer, op: Operation, reserved: Sequence[str] = ()) -> None:
    printer.print_op_attributes(op.attributes, reserved_attr_names=reserved)


# ---------------------------------------------------------------- index queries


class _DimQuery(IRDLOperation):
    """Base of `gpu.thread_id x (upper_bound N)?` and its siblings (result: index)."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)
    assembly_format = "$dimension (`upper_bound` $upper_bound^)? attr-dict"

    def __init__(self, dim: DimensionAttr | str, upper_bound: int | None = None):
        if isinstance(dim, str):
            dim = DimensionAttr(DimensionEnum(dim))
        props: dict[str, Attribute | None] = {"dimension": dim}
        if upper_bound is not None:
            props["upper_bound"] = IntegerAttr(upper_bound, IndexType())
        super().__init__(result_types=[IndexType()], properties=props)

    @property
    def dim(self) -> str:
        return str(self.dimension.data.value)


@irdl_op_definition
class ThreadIdOp(_DimQuery):
    """Thread index in the block: `%t = gpu.thread_id x`."""

    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(_DimQuery):
    """Block index in the grid: `%b = gpu.block_id y`."""

    name = "gpu.block_id"


@irdl_op_definition
class BlockDimOp(_DimQuery):
    """Threads per block: `%n = gpu.block_dim x`."""

    name = "gpu.block_dim"


@irdl_op_definition
class GridDimOp(_DimQuery):
    """Blocks per grid: `%n = gpu.grid_dim x`."""

    name = "gpu.grid_dim"


@irdl_op_definition
class GlobalIdOp(_DimQuery):
    """Global thread index: `%g = gpu.global_id x`."""

    name = "gpu.global_id"


@irdl_op_definition
class ClusterIdOp(_DimQuery):
    """Cluster index in the grid: `%c = gpu.cluster_id x`."""

    name = "gpu.cluster_id"


@irdl_op_definition
class ClusterDimOp(_DimQuery):
    """Clusters per grid: `%c = gpu.cluster_dim x`."""

    name = "gpu.cluster_dim"


@irdl_op_definition
class ClusterDimBlocksOp(_DimQuery):
    """Blocks per cluster: `%c = gpu.cluster_dim_blocks x`."""

    name = "gpu.cluster_dim_blocks"


@irdl_op_definition
class ClusterBlockIdOp(_DimQuery):
    """Block index in its cluster: `%c = gpu.cluster_block_id x`."""

    name = "gpu.cluster_block_id"


class _ScalarQuery(IRDLOperation):
    """Base of `gpu.lane_id` (no type) and `gpu.subgroup_size : index` (with type)."""

    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)
    assembly_format = "(`upper_bound` $upper_bound^)? attr-dict `:` type($result)"

    def __init__(self, upper_bound: int | None = None):
        props: dict[str, Attribute | None] = {}
        if upper_bound is not None:
            props["upper_bound"] = IntegerAttr(upper_bound, IndexType())
        super().__init__(result_types=[IndexType()], properties=props)


@irdl_op_definition
class LaneIdOp(_ScalarQuery):
    """Lane in the warp: `%l = gpu.lane_id`."""

    name = "gpu.lane_id"
    assembly_format = "(`upper_bound` $upper_bound^)? attr-dict"


@irdl_op_definition
class SubgroupSizeOp(_ScalarQuery):
    """Warp size: `%s = gpu.subgroup_size : index`."""

    name = "gpu.subgroup_size"


@irdl_op_definition
class SubgroupIdOp(_ScalarQuery):
    """Warp index in the block: `%s = gpu.subgroup_id : index`."""

    name = "gpu.subgroup_id"


@irdl_op_definition
class NumSubgroupsOp(_ScalarQuery):
    """Warps per block: `%s = gpu.num_subgroups : index`."""

    name = "gpu.num_subgroups"


# ---------------------------------------------------------------- structure


@irdl_op_definition
class ModuleOp(IRDLOperation):
    """A device module: `gpu.module @kernels [#nvvm.target<chip = "sm_90a">] { ... }`."""

    name = "gpu.module"

    body = region_def("single_block")
    sym_name = prop_def(StringAttr)
    targets = opt_prop_def(ArrayAttr)
    offloadingHandler = opt_prop_def(AnyAttr())

    traits = traits_def(IsolatedFromAbove(), NoTerminator(), SymbolOpInterface(), SymbolTable())

    def __init__(
        self,
        name: str | StringAttr | SymbolRefAttr,
        body: Region | None = None,
        targets: Sequence[Attribute] | None = None,
    ):
        if isinstance(name, SymbolRefAttr):
            name = name.root_reference
        if isinstance(name, str):
            name = StringAttr(name)
        props: dict[str, Attribute | None] = {"sym_name": name}
        if targets:
            props["targets"] = ArrayAttr(targets)
        super().__init__(properties=props, regions=[body or Region(Block())])

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        name = parser.parse_symbol_name()
        handler = None
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        targets = None
        if parser.parse_optional_punctuation("[") is not None:
            targets = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_attribute)
            parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls(name, region, targets)
        if handler is not None:
            op.properties["offloadingHandler"] = handler
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.offloadingHandler is not None:
            printer.print_string(" <")
            printer.print_attribute(self.offloadingHandler)
            printer.print_string(">")
        if self.targets is not None and self.targets.data:
            printer.print_string(" [")
            printer.print_list(self.targets.data, printer.print_attribute)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


_FUNC_RESERVED = (
    "sym_name",
    "function_type",
    "gpu.kernel",
    "workgroup_attributions",
    "arg_attrs",
    "res_attrs",
    "workgroup_attrib_attrs",
    "private_attrib_attrs",
)


_FUNC_PROPS = ("known_block_size", "known_grid_size", "arg_attrs", "res_attrs",
               "workgroup_attrib_attrs", "private_attrib_attrs")


@irdl_op_definition
class FuncOp(IRDLOperation):
    """A device function or kernel (MLIR 22 syntax):

    ```mlir
    gpu.func @k(%a: memref<4xf32, 1>) workgroup(%w: memref<32xf32, 3>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} { ... gpu.return }
    ```
    Entry-block arguments are the inputs, then `workgroup_attributions` workgroup buffers, then
    the private buffers.
    """

    name = "gpu.func"

    body = region_def()
    sym_name = attr_def(StringAttr)
    function_type = prop_def(FunctionType)
    # Inherent attributes MLIR 22 keeps as properties (written inside `attributes {...}`).
    kernel_ = opt_prop_def(UnitAttr, prop_name="kernel")
    known_block_size_ = opt_prop_def(DenseArrayBase, prop_name="known_block_size")
    known_grid_size_ = opt_prop_def(DenseArrayBase, prop_name="known_grid_size")
    workgroup_attributions_ = opt_attr_def(IntegerAttr, attr_name="workgroup_attributions")
    arg_attrs_ = opt_prop_def(ArrayAttr, prop_name="arg_attrs")
    res_attrs_ = opt_prop_def(ArrayAttr, prop_name="res_attrs")
    workgroup_attrib_attrs_ = opt_prop_def(ArrayAttr, prop_name="workgroup_attrib_attrs")
    private_attrib_attrs_ = opt_prop_def(ArrayAttr, prop_name="private_attrib_attrs")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        function_type: FunctionType | tuple[Sequence[Attribute], Sequence[Attribute]],
        region: Region | None = None,
        kernel: bool | None = None,
        known_block_size: Sequence[int] | None = None,
        known_grid_size: Sequence[int] | None = None,
        workgroup: Sequence[Attribute] = (),
        private: Sequence[Attribute] = (),
    ):
        if isinstance(function_type, tuple):
            function_type = FunctionType.from_lists(*function_type)
        if region is None:
            region = Region(Block(arg_types=[*function_type.inputs.data, *workgroup, *private]))
        super().__init__(
            properties={"function_type": function_type}, attributes={"sym_name": StringAttr(name)}, regions=[region]
        )
        if kernel:
            self.attributes["gpu.kernel"] = UnitAttr()
        if workgroup:
            self.attributes["workgroup_attributions"] = IntegerAttr(len(workgroup), i64)
        if known_block_size is not None:
            self.properties["known_block_size"] = DenseArrayBase.from_list(i32, known_block_size)
        if known_grid_size is not None:
            self.properties["known_grid_size"] = DenseArrayBase.from_list(i32, known_grid_size)

    def inherent(self, name: str) -> Attribute | None:
        found = self.properties.get(name)
        return found if found is not None else self.attributes.get(name)

    @property
    def is_kernel(self) -> bool:
        return "gpu.kernel" in self.attributes or "kernel" in self.properties

    @property
    def kernel(self) -> UnitAttr | None:
        return UnitAttr() if self.is_kernel else None

    @property
    def num_workgroup(self) -> int:
        attr = self.inherent("workgroup_attributions")
        return int(attr.value.data) if isinstance(attr, IntegerAttr) else 0

    @property
    def known_block_size(self) -> DenseArrayBase | None:
        attr = self.inherent("known_block_size")
        return attr if isinstance(attr, DenseArrayBase) else None

    def attribution_args(self) -> tuple[list[BlockArgument], list[BlockArgument]]:
        """(workgroup buffers, private buffers) as entry-block arguments."""
        if not self.body.blocks:
            return [], []
        args = list(self.body.blocks[0].args)
        n_in = len(self.function_type.inputs.data)
        n_wg = self.num_workgroup
        return args[n_in : n_in + n_wg], args[n_in + n_wg :]

    def verify_(self) -> None:
        if not self.body.blocks:
            return
        n_in = len(self.function_type.inputs.data)
        arg_types = self.body.blocks[0].arg_types
        if tuple(arg_types[:n_in]) != tuple(self.function_type.inputs.data):
            raise VerifyException("expected the entry block arguments to match the function input types")
        if self.is_kernel and self.function_type.outputs.data:
            raise VerifyException("expected void return type for kernel function")

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        name = parser.parse_symbol_name().data
        args: list[Parser.Argument] = []
        arg_attrs: list[DictionaryAttr] = []

        def one_arg() -> None:
            arg = parser.parse_argument()
            attrs = parser.parse_optional_dictionary_attr_dict()
            parser.parse_optional_location()
            args.append(arg)
            arg_attrs.append(DictionaryAttr(attrs))

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, one_arg)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    results = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                    parser.parse_punctuation(")")
            else:
                results = [parser.parse_type()]
        workgroup: list[Parser.Argument] = []
        private: list[Parser.Argument] = []
        for keyword, into in (("workgroup", workgroup), ("private", private)):
            if parser.parse_optional_keyword(keyword) is not None:
                into.extend(parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_argument))
        kernel = parser.parse_optional_keyword("kernel") is not None
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region([*args, *workgroup, *private])
        ftype = FunctionType.from_lists([a.type for a in args], results)
        op = cls(name, ftype, region, kernel=kernel)
        if workgroup:
            op.attributes["workgroup_attributions"] = IntegerAttr(len(workgroup), i64)
        if any(d.data for d in arg_attrs):
            op.properties["arg_attrs"] = ArrayAttr(arg_attrs)
        if attrs is not None:
            for key, value in attrs.data.items():
                if key in _FUNC_PROPS:
                    op.properties[key] = value
                else:
                    op.attributes[key] = value
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        block = self.body.blocks[0] if self.body.blocks else None
        n_in = len(self.function_type.inputs.data)
        arg_attrs = self.inherent("arg_attrs")
        printer.print_string("(")
        if block is not None:
            for i, arg in enumerate(block.args[:n_in]):
                if i:
                    printer.print_string(", ")
                printer.print_block_argument(arg)
                if isinstance(arg_attrs, ArrayAttr) and i < len(arg_attrs.data):
                    attr = arg_attrs.data[i]
                    if isinstance(attr, DictionaryAttr) and attr.data:
                        printer.print_string(" ")
                        printer.print_attr_dict(attr.data)
        else:
            printer.print_list(self.function_type.inputs.data, printer.print_attribute)
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        if outputs:
            printer.print_string(" -> ")
            if len(outputs) == 1 and not isinstance(outputs[0], FunctionType):
                printer.print_attribute(outputs[0])
            else:
                printer.print_string("(")
                printer.print_list(outputs, printer.print_attribute)
                printer.print_string(")")
        workgroup, private = self.attribution_args()
        for keyword, values in (("workgroup", workgroup), ("private", private)):
            if values:
                printer.print_string(f" {keyword}(")
                printer.print_list(values, lambda a: printer.print_block_argument(a))  # type: ignore[arg-type]
                printer.print_string(")")
        if self.is_kernel:
            printer.print_string(" kernel")
        shown = {k: v for k, v in self.properties.items() if k in ("known_block_size", "known_grid_size")}
        shown.update(self.attributes)
        printer.print_op_attributes(shown, reserved_attr_names=_FUNC_RESERVED, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


class _Terminator(IRDLOperation):
    """Base of `gpu.return` and `gpu.yield`: `attr-dict ($values^ `:` type($values))?`."""

    values = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, operands: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[operands])


@irdl_op_definition
class ReturnOp(_Terminator):
    """`gpu.return` (with `%v : T` for non-kernel functions)."""

    name = "gpu.return"

    @property
    def args(self) -> Sequence[SSAValue]:
        return self.values


@irdl_op_definition
class YieldOp(_Terminator):
    """`gpu.yield %v : f32` (terminator of all_reduce bodies and warp regions)."""

    name = "gpu.yield"


# ---------------------------------------------------------------- synchronisation and I/O


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """Block-wide barrier: `gpu.barrier`."""

    name = "gpu.barrier"
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """Device printf: `gpu.printf "x=%d y=%f\\n", %x, %y : i32, f32`."""

    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def(base(IntegerType) | IndexTypeConstr | AnyFloatConstr)
    assembly_format = "$format attr-dict (`,` $args^ `:` type($args))?"

    def __init__(self, format: str | StringAttr, args: Sequence[SSAValue | Operation] = ()):
        if isinstance(format, str):
            format = StringAttr(format)
        super().__init__(operands=[args], properties={"format": format})


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """Warp shuffle: `%r, %ok = gpu.shuffle xor %v, %offset, %width : f32`."""

    name = "gpu.shuffle"
    T: ClassVar = VarConstraint("T", AnyAttr())
    mode = prop_def(ShuffleModeAttr)
    value = operand_def(T)
    offset = operand_def(i32)
    width = operand_def(i32)
    shuffleResult = result_def(T)
    valid = result_def(i1)
    assembly_format = "$mode $value `,` $offset `,` $width attr-dict `:` type($value)"

    def __init__(self, mode: str, value: SSAValue, offset: SSAValue, width: SSAValue):
        super().__init__(
            operands=[value, offset, width],
            result_types=[value.type, i1],
            properties={"mode": ShuffleModeAttr(ShuffleMode(mode))},
        )


@irdl_op_definition
class RotateOp(IRDLOperation):
    """Warp rotation: `%r, %ok = gpu.rotate %v, 3, 16 : f32` (offset and width are constants)."""

    name = "gpu.rotate"
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    offset = prop_def(IntegerAttr[I32])
    width = prop_def(IntegerAttr[I32])
    rotateResult = result_def(T)
    valid = result_def(i1)
    assembly_format = "$value `,` $offset `,` $width attr-dict `:` type($value)"


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """The dynamic shared memory buffer: `%m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>`."""

    name = "gpu.dynamic_shared_memory"
    resultMemref = result_def(MemRefType)
    assembly_format = "attr-dict `:` type($resultMemref)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


def _parse_reduce_kind(parser: Parser) -> ReduceKindAttr | None:
    kind = parser.parse_optional_str_enum(ReduceKind)
    return ReduceKindAttr(kind) if kind is not None else None


@irdl_op_definition
class SubgroupReduceOp(IRDLOperation):
    """Warp reduction: `%s = gpu.subgroup_reduce add %v uniform : (f32) -> f32`."""

    name = "gpu.subgroup_reduce"
    T: ClassVar = VarConstraint("T", AnyAttr())
    op = prop_def(ReduceKindAttr)
    value = operand_def(T)
    result = result_def(T)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr[I32])
    cluster_stride = opt_prop_def(IntegerAttr[I32])
    assembly_format = (
        "$op $value (`uniform` $uniform^)?"
        " (`cluster` `(` `size` `=` $cluster_size^ (`,` `stride` `=` $cluster_stride^)? `)`)?"
        " attr-dict `:` functional-type(operands, results)"
    )


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """Block reduction: `%s = gpu.all_reduce add %v uniform {} : (f32) -> f32` (or a region body)."""

    name = "gpu.all_reduce"
    op = opt_prop_def(ReduceKindAttr)
    value = var_operand_def()
    result = var_result_def()
    uniform = opt_prop_def(UnitAttr)
    body = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> AllReduceOp:
        kind = _parse_reduce_kind(parser)
        name = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if kind is not None:
            props["op"] = kind
        if parser.parse_optional_keyword("uniform") is not None:
            props["uniform"] = UnitAttr()
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ftype = parser.parse_function_type()
        operand = parser.resolve_operand(name, ftype.inputs.data[0])
        op = cls.create(operands=[operand], result_types=list(ftype.outputs.data), properties=props, regions=[region])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.op is not None:
            printer.print_string(f" {self.op.data.value}")
        printer.print_string(" ")
        printer.print_list(self.value, printer.print_operand)
        if self.uniform is not None:
            printer.print_string(" uniform")
        printer.print_string(" ")
        printer.print_region(self.body)
        _print_extra_attrs(printer, self)
        printer.print_string(" : (")
        printer.print_list([v.type for v in self.value], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_list([r.type for r in self.result], printer.print_attribute)


# ---------------------------------------------------------------- host side

# MLIR 22's LaunchIndx: the grid, block and cluster sizes of a launch are index, i32 or i64.
_LAUNCH_INDEX = IndexTypeConstr | EqAttrConstraint(i32) | EqAttrConstraint(i64)


@irdl_op_definition
class LaunchFuncOp(IRDLOperation):
    """Host-side launch of a kernel:

    `gpu.launch_func @kernels::@k blocks in (%gx, %gy, %gz) threads in (%bx, %by, %bz) args(%a : f32)`.
    """

    name = "gpu.launch_func"
    asyncDependencies = var_operand_def(xgpu.AsyncTokenType)
    gridSizeX = operand_def(_LAUNCH_INDEX)
    gridSizeY = operand_def(_LAUNCH_INDEX)
    gridSizeZ = operand_def(_LAUNCH_INDEX)
    blockSizeX = operand_def(_LAUNCH_INDEX)
    blockSizeY = operand_def(_LAUNCH_INDEX)
    blockSizeZ = operand_def(_LAUNCH_INDEX)
    clusterSizeX = opt_operand_def(_LAUNCH_INDEX)
    clusterSizeY = opt_operand_def(_LAUNCH_INDEX)
    clusterSizeZ = opt_operand_def(_LAUNCH_INDEX)
    dynamicSharedMemorySize = opt_operand_def(i32)
    kernelOperands = var_operand_def()
    asyncObject = opt_operand_def()
    asyncToken = opt_result_def(xgpu.AsyncTokenType)
    kernel = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> LaunchFuncOp:
        deps: list[SSAValue] = []
        is_async = parser.parse_optional_keyword("async") is not None
        if parser.parse_optional_punctuation("[") is not None and parser.parse_optional_punctuation("]") is None:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation("]")
            deps = [parser.resolve_operand(n, xgpu.AsyncTokenType()) for n in names]
        stream: SSAValue | None = None
        if parser.parse_optional_punctuation("<") is not None:
            name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            stream = parser.resolve_operand(name, parser.parse_type())
            parser.parse_punctuation(">")
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error("expected a kernel symbol")

        def triple(keyword: str) -> list[UnresolvedOperand] | None:
            if parser.parse_optional_keyword(keyword) is None:
                return None
            parser.parse_keyword("in")
            return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)

        clusters = triple("clusters")
        blocks = triple("blocks")
        threads = triple("threads")
        if blocks is None or threads is None:
            parser.raise_error("expected 'blocks in' and 'threads in'")
        dim_type: Attribute = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            dim_type = parser.parse_type()
        smem: SSAValue | None = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            smem = parser.parse_operand(i32)
        args: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:

            def one() -> SSAValue:
                name = parser.parse_unresolved_operand()
                parser.parse_punctuation(":")
                return parser.resolve_operand(name, parser.parse_type())

            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
        attrs = parser.parse_optional_attr_dict()
        res = lambda names: [parser.resolve_operand(n, dim_type) for n in names]  # noqa: E731
        b, t = res(blocks), res(threads)
        c = res(clusters) if clusters is not None else [None, None, None]
        op = cls.create(
            operands=[*deps, *b, *t, *[x for x in c if x is not None], *([smem] if smem else []), *args,
                      *([stream] if stream else [])],
            result_types=[xgpu.AsyncTokenType()] if is_async else [],
            properties={
                "kernel": kernel,
                "operandSegmentSizes": DenseArrayBase.from_list(
                    i32,
                    [len(deps), 1, 1, 1, 1, 1, 1, *([1, 1, 1] if clusters is not None else [0, 0, 0]),
                     1 if smem else 0, len(args), 1 if stream else 0],
                ),
            },
        )
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.asyncToken is not None:
            printer.print_string(" async")
        if self.asyncDependencies:
            printer.print_string(" [")
            printer.print_list(self.asyncDependencies, printer.print_operand)
            printer.print_string("]")
        if self.asyncObject is not None:
            printer.print_string(" <")
            printer.print_operand(self.asyncObject)
            printer.print_string(" : ")
            printer.print_attribute(self.asyncObject.type)
            printer.print_string(">")
        printer.print_string(" ")
        printer.print_attribute(self.kernel)

        def triple(keyword: str, values: Sequence[SSAValue]) -> None:
            printer.print_string(f" {keyword} in (")
            printer.print_list(values, printer.print_operand)
            printer.print_string(")")

        if self.clusterSizeX is not None and self.clusterSizeY is not None and self.clusterSizeZ is not None:
            triple("clusters", [self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ])
        triple("blocks", [self.gridSizeX, self.gridSizeY, self.gridSizeZ])
        triple("threads", [self.blockSizeX, self.blockSizeY, self.blockSizeZ])
        if not isinstance(self.gridSizeX.type, IndexType):
            printer.print_string(" : ")
            printer.print_attribute(self.gridSizeX.type)
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_operand(self.dynamicSharedMemorySize)
        if self.kernelOperands:
            printer.print_string(" args(")
            def typed(value: SSAValue) -> None:
                printer.print_operand(value)
                printer.print_string(" : ")
                printer.print_attribute(value.type)

            printer.print_list(self.kernelOperands, typed)
            printer.print_string(")")
        _print_extra_attrs(printer, self)


# Ops taken from xDSL unchanged (their generic form is MLIR's).
_KEPT: list[type[Operation]] = [
    xgpu.AllocOp,
    xgpu.DeallocOp,
    xgpu.HostRegisterOp,
    xgpu.HostUnregisterOp,
    xgpu.LaunchOp,
    xgpu.MemcpyOp,
    xgpu.SetDefaultDeviceOp,
    xgpu.TerminatorOp,
    xgpu.WaitOp,
]

OPS: list[type[Operation]] = [
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    ClusterDimBlocksOp,
    ClusterBlockIdOp,
    LaneIdOp,
    SubgroupSizeOp,
    SubgroupIdOp,
    NumSubgroupsOp,
    ModuleOp,
    FuncOp,
    ReturnOp,
    YieldOp,
    BarrierOp,
    PrintfOp,
    ShuffleOp,
    RotateOp,
    DynamicSharedMemoryOp,
    SubgroupReduceOp,
    AllReduceOp,
    LaunchFuncOp,
]

ATTRS: list[type[Attribute]] = [AddressSpaceAttr, ShuffleModeAttr, ReduceKindAttr]

# The op classes the gpu -> nvvm lowering dispatches on (name -> class).
DIM_QUERIES: dict[str, type[_DimQuery]] = {
    cls.name: cls
    for cls in (
        ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp, GlobalIdOp, ClusterIdOp, ClusterDimOp,
        ClusterDimBlocksOp, ClusterBlockIdOp,
    )
}


def dialect() -> Dialect:
    xattrs = [a for a in xgpu.GPU.attributes if a.name not in {x.name for x in ATTRS}]
    return Dialect("gpu", [*OPS, *_KEPT], [*ATTRS, *xattrs])


__all__ = [
    "AddressSpaceAttr",
    "AllReduceOp",
    "BarrierOp",
    "DynamicSharedMemoryOp",
    "FuncOp",
    "LaunchFuncOp",
    "ModuleOp",
    "PrintfOp",
    "ReturnOp",
    "ShuffleOp",
    "SubgroupReduceOp",
    "dialect",
]
