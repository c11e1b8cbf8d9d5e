"""cuda_tile shape ops: broadcast, reshape, permute, cat, extract, iota, pack/unpack,
tile-block ids, tensor/index-space shape queries; reduce and scan come from shape_reduce.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, prop_def, result_def, var_operand_def, var_result_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import shape_reduce
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import IntAttrSyntax
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, module_ops, tile_op
from tile_lsp.compiler.dialects.cuda_tile.control_regions import is_tile_view, parse_cuda_type
from tile_lsp.compiler.syntax.types import long_type_str

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext

I32_SCALAR = ct.tile((), builtin.i32)
INDEX_RESULTS = C.variadic(C.SCALAR_INT)
I32_INDICES = C.variadic(C.SCALAR_I32)
# pack/unpack also move sub-byte integers (i4), which ANY_TILE's element list lacks.
ANY_ELEMENT_TILE = C.TypeConstraint("tile of any type values", lambda t: isinstance(t, ct.TileType))
UNARY_FORMAT = "$source attr-dict `:` custom<CudaTileType>(type($source)) `->` custom<CudaTileType>(type($result))"


class SameOperandsAndResultElementType(C.TypeRule):
    """MLIR's trait of that name (element type of a tile, or the type itself)."""

    def verify(self, op: Operation) -> str | None:
        elems = [ct.element_type(v.type) for v in (*op.operands, *op.results)]
        if any(e != elems[0] for e in elems):
            return "requires the same element type for all operands and results"
        return None


class DenseI32ArraySyntax:
    """`[1, 0]` inside an op's custom form; `array<i32: 1, 0>` generically."""

    def can_start(self, p: SyntaxParser) -> bool:
        return p.at_punct("[")

    def parse(self, p: SyntaxParser) -> Attribute:
        p.expect_punct("[")
        values = p.comma_list(p.parse_int_literal, "]")
        return builtin.DenseArrayBase.from_list(builtin.i32, values)

    def print(self, a: Attribute) -> str:
        values = a.get_values() if isinstance(a, builtin.DenseArrayBase) else ()
        return "[" + ", ".join(str(v) for v in values) + "]"


def _dims(shape: tuple[int, ...]) -> str:
    return ", ".join(str(d) for d in shape)


class _UnaryShapeOp(CudaTileOp):
    """`op %source : type -> type`: one tile in, one out, the same element type."""

    source = operand_def()
    result = result_def()
    TILE_FORMAT: ClassVar[str | None] = UNARY_FORMAT
    TYPE_CONSTRAINTS: ClassVar[dict[str, C.TypeConstraint]] = {"source": C.ANY_TILE, "result": C.ANY_TILE}


@tile_op
class BroadcastOp(_UnaryShapeOp):
    """Stretches size-1 dimensions of a tile to the (same-rank) result shape.

    ```mlir
    %b = broadcast %row : tile<1x64xf32> -> tile<32x64xf32>
    ```
    """

    name = "cuda_tile.broadcast"
    RESULT_NAMES = ("bcast",)
    TYPE_RULES = (SameOperandsAndResultElementType(), C.SameRank("source", "result"))

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        src, res = ct.shape_of(self.source.type), ct.shape_of(self.result.type)
        if any(s != r and s != 1 for s, r in zip(src, res)):
            yield OpError(
                "expects the shape of source tile to be compatible with that of the result tile, "
                f"but got: {_dims(src)} and {_dims(res)}"
            )


@tile_op
class ReshapeOp(_UnaryShapeOp):
    """Reinterprets a tile's elements (row-major) with a new shape of the same element count.

    ```mlir
    %r = reshape %t : tile<4x8xf32> -> tile<32xf32>
    ```
    """

    name = "cuda_tile.reshape"
    RESULT_NAMES = ("reshape",)
    TYPE_RULES = (SameOperandsAndResultElementType(),)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        src, res = self.source.type, self.result.type
        if isinstance(src, ct.TileType) and isinstance(res, ct.TileType) and src.num_elements != res.num_elements:
            yield OpError("expected source tile and result tile to have the same number of elements")


@tile_op
class PermuteOp(CudaTileOp):
    """Reorders a tile's dimensions: result dim i is source dim `permutation[i]`.

    ```mlir
    %t = permute %x [1, 0] : tile<4x8xf32> -> tile<8x4xf32>
    ```
    """

    name = "cuda_tile.permute"
    source = operand_def()
    permutation = prop_def(builtin.DenseArrayBase)
    result = result_def()
    TILE_FORMAT = (
        "$source $permutation attr-dict `:` custom<CudaTileType>(type($source)) `->` "
        "custom<CudaTileType>(type($result))"
    )
    ATTR_SYNTAX = {"permutation": DenseI32ArraySyntax()}
    TYPE_CONSTRAINTS = {"source": C.ANY_TILE, "result": C.ANY_TILE}
    TYPE_RULES = (C.SameElementType("source", "result"), C.SameRank("source", "result"))

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        src, res = ct.shape_of(self.source.type), ct.shape_of(self.result.type)
        perm = self.permutation.get_values()
        rank = len(src)
        if rank < 2:
            yield OpError(f"expects at least rank 2, but got: {rank}")
            return
        if len(perm) != rank:
            yield OpError(f"expect permutation size ({len(perm)}) to equal the rank of the source ({rank})")
            return
        for i, p in enumerate(perm):
            if not 0 <= int(p) < rank:
                yield OpError(f"permutation element at index {i} ({p}) is out of bound [0, {rank})")
                return
        if len(set(perm)) != len(perm):
            yield OpError("expect permutation elements to be unique")
            return
        for i, p in enumerate(perm):
            if res[i] != src[int(p)]:
                yield OpError(f"result shape invalid at index {i}, expected: {src[int(p)]}, but got: {res[i]}")
                return


@tile_op
class CatOp(CudaTileOp):
    """Concatenates two tiles along dimension `dim`.

    ```mlir
    %c = cat %a, %b dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>
    ```
    """

    name = "cuda_tile.cat"
    lhs = operand_def()
    rhs = operand_def()
    dim = prop_def(builtin.IntegerAttr)
    result = result_def()
    TILE_FORMAT = (
        "$lhs `,` $rhs `dim` `=` $dim attr-dict `:` custom<CudaTileType>(type($lhs)) `,` "
        "custom<CudaTileType>(type($rhs)) `->` custom<CudaTileType>(type($result))"
    )
    ATTR_SYNTAX = {"dim": IntAttrSyntax(64)}
    TYPE_CONSTRAINTS = {"lhs": C.ANY_TILE, "rhs": C.ANY_TILE, "result": C.ANY_TILE}
    TYPE_RULES = (C.SameRank("lhs", "rhs", "result"), C.SameElementType("lhs", "rhs", "result"))

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        lhs, rhs, res = ct.shape_of(self.lhs.type), ct.shape_of(self.rhs.type), ct.shape_of(self.result.type)
        dim = self.dim.value.data
        rank = len(lhs)
        if not 0 <= dim < rank:
            yield OpError(f"expect dim to be [0, {rank}), but got: {dim}")
            return
        if lhs[dim] + rhs[dim] != res[dim]:
            yield OpError(f"invalid concat at position {dim}, expected: {lhs[dim] + rhs[dim]} but got: {res[dim]}")
            return
        for side, shape in (("lhs", lhs), ("rhs", rhs)):
            for i in range(rank):
                if i != dim and shape[i] != res[i]:
                    yield OpError(
                        f"expect {side} and result shapes to match at non-concat position {i}, "
                        f"expected: {shape[i]} but got: {res[i]}"
                    )
                    return


def _i32_indices(state: OpState) -> None:
    state.operand_types.setdefault("indices", [I32_SCALAR] * len(state.operands.get("indices", [])))


def _block_errors(
    op: Operation, whole: tuple[str, Attribute], block: tuple[str, Attribute], n_indices: int
) -> VerifyResult:
    """extract/insert: `whole` split into `block`-shaped pieces, one index per dimension (NVIDIA's
    checks, worded with its operand names: element types, index count, divisibility)."""
    (whole_name, whole_t), (block_name, block_t) = whole, block
    if ct.element_type(whole_t) != ct.element_type(block_t):
        yield OpError("source and result element type do not match")
        return
    big, small = ct.shape_of(whole_t), ct.shape_of(block_t)
    if n_indices != len(big):
        yield OpError(f"expected {len(big)} indices, but got {n_indices}")
        return
    for i, (b, s) in enumerate(zip(big, small)):
        if s <= 0 or b % s:
            yield OpError(
                f"{whole_name} dimension {i} size ({b}) must be evenly divisible by {block_name} dimension {i} size ({s})"
            )
            return


class _BlockIndexedOp(CudaTileOp):
    """extract and insert: a tile split into blocks, the block at i32 block index `indices`
    (after the tile operands), and the result."""

    indices = var_operand_def()
    result = result_def()

    @classmethod
    def infer_types(cls, state: OpState) -> None:
        _i32_indices(state)


@tile_op
class ExtractOp(_BlockIndexedOp):
    """Takes the sub-tile at block index `indices` of a source tile split into result-shaped pieces.

    ```mlir
    %s = extract %t[%i, %j] : tile<32x8xf32> -> tile<4x2xf32>
    ```
    """

    name = "cuda_tile.extract"
    source = operand_def()
    TILE_FORMAT = (
        "$source `[` $indices `]` attr-dict `:` custom<CudaTileType>(type($source)) `->` "
        "custom<CudaTileType>(type($result))"
    )
    TYPE_CONSTRAINTS = {"source": C.ANY_TILE, "indices": I32_INDICES, "result": C.ANY_TILE}
    TYPE_RULES = (C.SameRank("source", "result"),)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from _block_errors(self, ("source", self.source.type), ("result", self.result.type), len(self.indices))


@tile_op
class InsertOp(_BlockIndexedOp):
    """The inverse of `extract` (13.4): a copy of `destination` whose block at block index
    `indices` (the destination split into source-shaped pieces) is replaced by `source`.

    ```mlir
    %r = insert %s, %t[%i, %j] : tile<4x2xf32>, tile<32x8xf32>
    ```
    """

    name = "cuda_tile.insert"
    source = operand_def()
    destination = operand_def()
    SINCE = "13.4"
    TILE_FORMAT = (
        "$source `,` $destination `[` $indices `]` attr-dict `:` custom<CudaTileType>(type($source)) `,` "
        "custom<CudaTileType>(type($destination))"
    )
    TYPE_CONSTRAINTS = {"source": C.ANY_TILE, "destination": C.ANY_TILE, "indices": I32_INDICES, "result": C.ANY_TILE}
    TYPE_RULES = (C.AllTypesMatch("destination", "result"),)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        # NVIDIA words these against the result (the destination's type).
        src, res = self.source.type, self.result.type
        if ct.element_type(src) == ct.element_type(res) and len(ct.shape_of(src)) != len(ct.shape_of(res)):
            yield OpError("source and result must have the same rank")
            return
        yield from _block_errors(self, ("result", res), ("source", src), len(self.indices))


@tile_op
class IotaOp(CudaTileOp):
    """A 1-d integer tile holding 0, 1, 2, ... up to its length minus one.

    ```mlir
    %i = iota : tile<128xi32>
    ```
    """

    name = "cuda_tile.iota"
    result = result_def()
    TILE_FORMAT = "attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS = {"result": C.INT_TILE}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        t = self.result.type
        assert isinstance(t, ct.TileType)
        if t.rank != 1:
            yield OpError("expects result type to be 1-d tile")
            return
        width = ct.bitwidth(t.element_type)
        if width < 64 and t.num_elements > (1 << width):
            yield OpError(
                f"the number of elements {t.num_elements} exceeds the maximum value of element type "
                f"'{long_type_str(t.element_type)}'"
            )


class _PackLike(CudaTileOp):
    """pack/unpack: rank-1 byte reinterpretation between narrow and wide element types."""

    source = operand_def()
    result = result_def()
    TILE_FORMAT: ClassVar[str | None] = UNARY_FORMAT
    TYPE_CONSTRAINTS: ClassVar[dict[str, C.TypeConstraint]] = {"source": ANY_ELEMENT_TILE, "result": ANY_ELEMENT_TILE}
    TYPE_RULES: ClassVar[tuple[C.TypeRule, ...]] = (C.SameRank("source", "result"),)
    SINCE: ClassVar[str] = "13.3"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        src, res = self.operands[0].type, self.results[0].type
        if not (isinstance(src, ct.TileType) and isinstance(res, ct.TileType)):
            return
        if src.rank != 1 or res.rank != 1:
            yield OpError("expects source and result to be rank-1 tiles")
            return
        sbytes = src.num_elements * ct.bitwidth(src.element_type) // 8
        rbytes = res.num_elements * ct.bitwidth(res.element_type) // 8
        if sbytes != rbytes:
            yield OpError(
                "expects source and result to have the same size in bytes, but got source tile size "
                f"{sbytes} bytes and result tile size {rbytes} bytes"
            )
            return
        if ct.bitwidth(src.element_type) == ct.bitwidth(res.element_type):
            yield OpError("expects source and result to have different element type widths")


@tile_op
class PackOp(_PackLike):
    """Packs a rank-1 tile of any element type into its raw bytes (an i8 tile).

    ```mlir
    %b = pack %x : tile<64xf32> -> tile<256xi8>
    ```
    """

    name = "cuda_tile.pack"


@tile_op
class UnpackOp(_PackLike):
    """Reinterprets a rank-1 i8 tile's bytes as elements of another (narrower or wider) type.

    ```mlir
    %x = unpack %b : tile<64xi8> -> tile<128xf4E2M1FN>
    ```
    """

    name = "cuda_tile.unpack"


def _grid_axes(
    prefix: str,
) -> tuple[tuple[str, ...], str, dict[str, C.TypeConstraint], tuple[C.TypeRule, ...]]:
    """RESULT_NAMES, TILE_FORMAT, TYPE_CONSTRAINTS and TYPE_RULES of an op with one i32 scalar
    result per grid axis, `<prefix>_x`, `_y` and `_z`."""
    names = (f"{prefix}_x", f"{prefix}_y", f"{prefix}_z")
    return (
        names,
        f"attr-dict `:` custom<CudaTileType>(type(${names[0]}))",
        dict.fromkeys(names, C.SCALAR_I32),
        (C.AllTypesMatch(*names),),
    )


@tile_op
class GetTileBlockIdOp(CudaTileOp):
    """The x, y, z coordinates of the executing tile block in the launch grid.

    ```mlir
    %x, %y, %z = get_tile_block_id : tile<i32>
    ```
    """

    name = "cuda_tile.get_tile_block_id"
    blockId_x = result_def()
    blockId_y = result_def()
    blockId_z = result_def()
    RESULT_NAMES, TILE_FORMAT, TYPE_CONSTRAINTS, TYPE_RULES = _grid_axes("blockId")


@tile_op
class GetNumTileBlocksOp(CudaTileOp):
    """The launch grid's size in tile blocks along x, y and z.

    ```mlir
    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
    ```
    """

    name = "cuda_tile.get_num_tile_blocks"
    gridSize_x = result_def()
    gridSize_y = result_def()
    gridSize_z = result_def()
    RESULT_NAMES, TILE_FORMAT, TYPE_CONSTRAINTS, TYPE_RULES = _grid_axes("gridSize")


class _ShapeQuery(CudaTileOp):
    """`%s:N = op %src : src-type -> result-type`: one scalar result per indexed dimension."""

    WRONG_SOURCE: ClassVar[str] = ""
    RANK_WORDS: ClassVar[str] = ""

    @classmethod
    def source_rank(cls, t: Attribute) -> int | None:
        raise NotImplementedError

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        state.spans["src"] = p.span()
        state.operands["src"] = [p.parse_value_use()]
        p.expect_punct(":")
        start = p.span()
        src = parse_cuda_type(p)
        rank = cls.source_rank(src)
        if rank is None:
            p.fail(f"{cls.WRONG_SOURCE}, got '{long_type_str(src)}'", start)
            raise AssertionError
        p.expect_punct("->")
        t = parse_cuda_type(p)
        state.operand_types["src"] = [src]
        state.result_types["result"] = [t] * rank

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        src = op.operands[0]
        result = pr.type(op.results[0].type) if op.results else "tile<i32>"
        return f" {pr.value_name(src)} : {pr.type(src.type)} -> {result}"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        rank = self.source_rank(self.operands[0].type)
        if rank is not None and rank != len(self.results):
            yield OpError(f"expected {rank} results due to {self.RANK_WORDS}, but got {len(self.results)}")


@tile_op
class GetTensorShapeOp(_ShapeQuery):
    """The dimension sizes of a tensor_view as scalar integer tiles, one per dimension.

    ```mlir
    %m, %n = get_tensor_shape %tv : tensor_view<?x?xf32, strides=[?,1]> -> tile<i64>
    ```
    """

    name = "cuda_tile.get_tensor_shape"
    src = operand_def()
    result = var_result_def()
    TYPE_CONSTRAINTS = {"src": C.TENSOR_VIEW, "result": INDEX_RESULTS}
    WRONG_SOURCE: ClassVar[str] = "expected tensor_view"
    RANK_WORDS: ClassVar[str] = "tensor rank"

    @classmethod
    def source_rank(cls, t: Attribute) -> int | None:
        return t.rank if isinstance(t, ct.TensorViewType) else None


@tile_op
class GetIndexSpaceShapeOp(_ShapeQuery):
    """How many tiles a tile view holds along each of its index dimensions.

    ```mlir
    %i, %j = get_index_space_shape %pv : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    ```
    """

    name = "cuda_tile.get_index_space_shape"
    src = operand_def()
    result = var_result_def()
    TYPE_CONSTRAINTS = {"result": INDEX_RESULTS}
    WRONG_SOURCE: ClassVar[str] = "expected tile view"
    RANK_WORDS: ClassVar[str] = "view index space rank"

    @classmethod
    def source_rank(cls, t: Attribute) -> int | None:
        if isinstance(t, ct.PartitionViewType):
            return len(t.tile_shape)
        if is_tile_view(t):
            rank = getattr(t, "view_index_rank", None)
            return rank if isinstance(rank, int) else None
        return None


OPS: list[type[Operation]] = [*module_ops(globals()), *shape_reduce.OPS]
