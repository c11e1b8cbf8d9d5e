"""cuda_tile ops: memory family (see docs/frontend.md, "Adding an op").

Tokens, pointer arithmetic, pointer loads/stores and stack allocation here; the view
ops (tensor/partition/strided/gather views and their loads/stores) in memory_views.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Operation
from xdsl.irdl import operand_def, opt_operand_def, opt_prop_def, prop_def, result_def, var_operand_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import memory_syntax as M
from tile_lsp.compiler.dialects.cuda_tile import memory_views
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import UNIT
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, module_ops, tile_op
from tile_lsp.compiler.dialects.cuda_tile.hints import verify_op_hints

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.format import AttrSyntax
    from tile_lsp.compiler.syntax.interfaces import OpState
    from tile_lsp.compiler.verify_context import VerifyContext


@tile_op
class MakeTokenOp(CudaTileOp):
    """Creates a fresh token with no prior memory operations to wait for.

    ```mlir
    %t = make_token : token
    ```
    """

    name = "cuda_tile.make_token"
    result = result_def()
    TILE_FORMAT = "attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS = {"result": M.TOKEN}


@tile_op
class JoinTokensOp(CudaTileOp):
    """Merges several tokens into one that completes once all of them have.

    ```mlir
    %t = join_tokens %t0, %t1 : token
    ```
    """

    name = "cuda_tile.join_tokens"
    tokens = var_operand_def()
    result = result_def()
    TILE_FORMAT = "$tokens attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS = {"tokens": M.TOKEN, "result": M.TOKEN}

    @classmethod
    def infer_types(cls, state: OpState) -> None:
        state.operand_types.setdefault("tokens", [ct.TokenType()] * len(state.operands.get("tokens", [])))

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if len(self.operands) < 2:
            yield OpError("expect two or more tokens")


class _TokenOrderOp(CudaTileOp):
    """An op that only orders memory: an optional token in, a token out (13.4)."""

    token = opt_operand_def()
    result_token = result_def()
    SINCE: ClassVar[str] = "13.4"
    TILE_FORMAT: ClassVar[str] = "(`token` `=` $token^)? attr-dict `->` custom<CudaTileType>(type($result_token))"
    TYPE_CONSTRAINTS: ClassVar[dict[str, C.TypeConstraint]] = {"token": M.TOKEN, "result_token": M.TOKEN}

    @classmethod
    def infer_types(cls, state: OpState) -> None:
        if state.operands.get("token"):
            state.operand_types.setdefault("token", [ct.TokenType()])


@tile_op
class GdcWaitTkoOp(_TokenOrderOp):
    """Grid dependency control: blocks until the grid this one depends on (a programmatic
    dependent launch) has finished, so its writes are visible afterwards. Without such a launch
    it returns at once. PTX `griddepcontrol.wait` (sm_90 and newer).

    ```mlir
    %t1 = gdc_wait_tko token = %t0 -> token
    ```
    """

    name = "cuda_tile.gdc_wait_tko"


@tile_op
class GdcLaunchDependentsTkoOp(_TokenOrderOp):
    """Grid dependency control: lets the grid that depends on this one start launching once
    every block has passed this point (or finished). PTX `griddepcontrol.launch_dependents`
    (sm_90 and newer).

    ```mlir
    %t1 = gdc_launch_dependents_tko token = %t0 -> token
    ```
    """

    name = "cuda_tile.gdc_launch_dependents_tko"


@tile_op
class MemoryFenceAliasTkoOp(CudaTileOp):
    """A proxy fence between accesses to the same memory through different virtual
    addresses (aliases): memory operations ordered before `token` complete before those
    ordered after the result. PTX `fence.proxy.alias`.

    ```mlir
    %t1 = memory_fence_alias_tko %t0
    ```
    """

    name = "cuda_tile.memory_fence_alias_tko"
    token = operand_def()
    result_token = result_def()
    SINCE: ClassVar[str] = "13.4"
    TILE_FORMAT = "$token attr-dict"
    TYPE_CONSTRAINTS = {"token": M.TOKEN, "result_token": M.TOKEN}

    @classmethod
    def infer_types(cls, state: OpState) -> None:
        state.operand_types.setdefault("token", [ct.TokenType()])
        state.result_types.setdefault("result_token", [ct.TokenType()])


@tile_op
class OffsetOp(CudaTileOp):
    """Advances each pointer of a pointer tile by the matching element count.

    ```mlir
    %q = offset %p, %i : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    ```
    """

    name = "cuda_tile.offset"
    ptr = operand_def()
    offset = operand_def()
    result = result_def()
    TILE_FORMAT = (
        "$ptr `,` $offset attr-dict `:` custom<CudaTileType>(type($ptr)) `,` "
        "custom<CudaTileType>(type($offset)) `->` custom<CudaTileType>(type($result))"
    )
    TYPE_CONSTRAINTS = {"ptr": C.PTR_TILE, "offset": C.INT_TILE, "result": C.PTR_TILE}
    TYPE_RULES = (C.AllTypesMatch("result", "ptr"), M.SameOperandsAndResultShape())


class _PtrMemoryOp(CudaTileOp):
    """Pointer loads and stores: ordering/scope keywords, token and hints."""

    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {
        "memory_ordering_semantics": M.ORDERING,
        "memory_scope": M.SCOPE,
        "optimization_hints": M.HINTS,
    }
    KIND: ClassVar[str] = ""
    ORDERINGS: ClassVar[tuple[str, str, str]] = M.LOAD_ORDERINGS
    # the token and result token come last (subclasses declare what comes before)
    token = opt_operand_def()
    result_token = result_def()
    irdl_options = M.SEGMENTED_OPERANDS

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for item in (*M.check_enum_props(self), *verify_op_hints(self, ctx)):
            yield item
            if isinstance(item, OpError):
                return
        if any(M.multicast(v.type) for v in self.operands):  # (multimem_*_view_tko take those)
            yield OpError("multicast pointer is not allowed")
            return
        yield from M.check_memory_model(self, self.KIND, self.ORDERINGS)


@tile_op
class LoadPtrTkoOp(M.OrderedAccess, M.Hinted, _PtrMemoryOp):
    """Loads a tile from a tile of pointers, optionally masked (with a padding value for
    masked-off lanes) and ordered after a token.

    ```mlir
    %v, %t1 = load_ptr_tko weak %ptrs token=%t0 : tile<16xptr<f32>> -> tile<16xf32>, token
    ```
    """

    name = "cuda_tile.load_ptr_tko"
    RESULT_NAMES = ("result", "result_token")
    source = operand_def()
    mask = opt_operand_def()
    paddingValue = opt_operand_def()
    result = result_def()
    TILE_FORMAT = (
        "$memory_ordering_semantics ($memory_scope^)? $source (`,` $mask^)? (`,` $paddingValue^)? "
        "(`token` `` `=` `` $token^)? (`optimization_hints` `=` $optimization_hints^)? attr-dict `:` "
        "custom<CudaTileType>(type($source)) (`,` custom<CudaTileType>(type($mask))^)? "
        "(`,` custom<CudaTileType>(type($paddingValue))^)? `->` custom<CudaTileType>(type($result)) `,` "
        "custom<CudaTileType>(type($result_token))"
    )
    TYPE_CONSTRAINTS = {
        "source": C.PTR_TILE,
        "mask": C.I1_TILE,
        "paddingValue": C.NUMBER_TILE,
        "token": M.TOKEN,
        "result": M.TILE,
        "result_token": M.TOKEN,
    }
    TYPE_RULES = (
        M.TOKEN_OPERAND,
        M.PointerOf("source", "result", "`source` type is expected a pointer type of `result` type"),
        M.ShapeOf("mask", "source", "shape of 'mask' must match the shape of 'source'"),
        M.SameTypeAs("paddingValue", "result", "type of 'paddingValue' must match the type of 'result'"),
    )
    KIND: ClassVar[str] = "load"
    ORDERINGS: ClassVar[tuple[str, str, str]] = M.LOAD_ORDERINGS

    @classmethod
    def infer_types(cls, state: OpState) -> None:
        # `load_ptr_tko weak %p, %pad : tile<8xptr<f32>>, tile<8xf32> -> ...`: one operand after the
        # pointers whose type is not an i1 tile is the padding value (a padding value without a
        # mask, as tileirdisasm prints it); the format alone would take it for the mask.
        if state.operands.get("mask") and not state.operands.get("paddingValue"):
            types = state.operand_types.get("mask") or []
            if types and not (isinstance(types[0], ct.TileType) and types[0].element_type == builtin.i1):
                state.operands["paddingValue"] = state.operands.pop("mask")
                state.operand_types["paddingValue"] = state.operand_types.pop("mask")
                if "mask" in state.spans:
                    state.spans["paddingValue"] = state.spans.pop("mask")


@tile_op
class StorePtrTkoOp(M.OrderedAccess, M.Hinted, _PtrMemoryOp):
    """Stores a tile through a tile of pointers, optionally masked and ordered after a token.

    ```mlir
    %t1 = store_ptr_tko weak %ptrs, %v token=%t0 : tile<16xptr<f32>>, tile<16xf32> -> token
    ```
    """

    name = "cuda_tile.store_ptr_tko"
    destination = operand_def()
    value = operand_def()
    mask = opt_operand_def()
    TILE_FORMAT = (
        "$memory_ordering_semantics ($memory_scope^)? $destination `,` $value (`,` $mask^)? "
        "(`token` `` `=` `` $token^)? (`optimization_hints` `=` $optimization_hints^)? attr-dict `:` "
        "custom<CudaTileType>(type($destination)) `,` custom<CudaTileType>(type($value)) "
        "(`,` custom<CudaTileType>(type($mask))^)? `->` custom<CudaTileType>(type($result_token))"
    )
    TYPE_CONSTRAINTS = {
        "destination": C.PTR_TILE,
        "value": M.TILE,
        "mask": C.I1_TILE,
        "token": M.TOKEN,
        "result_token": M.TOKEN,
    }
    TYPE_RULES = (
        M.TOKEN_OPERAND,
        M.PointerOf("destination", "value", "`destination` type is expected a pointer type of `value` type"),
        M.ShapeOf("destination", "mask", "shape of 'destination' must match the shape of 'mask'"),
    )
    KIND: ClassVar[str] = "store"
    ORDERINGS: ClassVar[tuple[str, str, str]] = M.STORE_ORDERINGS


@tile_op
class AllocaOp(CudaTileOp):
    """Reserves `num_elem` elements of scratch memory (per tile block, or in global memory
    with `global`) and returns a pointer to it.

    ```mlir
    %p = alloca num_elem = 64, alignment = 16 : tile<ptr<f32>>
    ```
    """

    name = "cuda_tile.alloca"
    num_elem = prop_def(builtin.IntegerAttr)
    alignment = prop_def(builtin.IntegerAttr)
    global_ = opt_prop_def(builtin.UnitAttr, prop_name="global")
    result = result_def()
    TILE_FORMAT = (
        "`num_elem` `=` $num_elem `,` `alignment` `=` $alignment (`global` $global^)? attr-dict `:` "
        "custom<CudaTileType>(type($result))"
    )
    ATTR_SYNTAX = {"num_elem": M.I64, "alignment": M.I64, "global": UNIT}
    TYPE_CONSTRAINTS = {"result": M.SCALAR_PTR}
    SINCE = "13.3"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for key in ("num_elem", "alignment"):
            a = self.properties.get(key)
            if not isinstance(a, builtin.IntegerAttr) or a.type != builtin.i64 or a.value.data < 0:
                yield OpError(
                    f"attribute '{key}' failed to satisfy constraint: "
                    "64-bit signless integer attribute whose minimum value is 0"
                )
                return
        align = self.properties["alignment"]
        assert isinstance(align, builtin.IntegerAttr)
        value = align.value.data
        if value & (value - 1) or value == 0:
            yield OpError("'alignment' must be power of two")
            return
        t = self.result.type
        if isinstance(t, ct.TileType) and isinstance(t.element_type, ct.PointerType):
            pointee = t.element_type.pointee
            natural = max(1, ct.bitwidth(pointee) // 8)
            if value < natural:
                yield OpError(
                    f"'alignment' ({value}) must be at least the natural size ({natural} bytes) "
                    f"for element type {M.q(pointee)}"
                )


OPS: list[type[Operation]] = [*module_ops(globals()), *memory_views.OPS]
