"""cuda_tile ops: atomic family (see docs/frontend.md, "Adding an op").

Compare-and-swap and read-modify-write through pointer tiles, and the view-based
atomic reduction; all token-ordered with explicit ordering and scope keywords.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.ir import Attribute, Operation
from xdsl.irdl import operand_def, opt_operand_def, opt_prop_def, prop_def, result_def, var_operand_def

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import memory_syntax as M
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, VerifyResult, tile_op

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.format import AttrSyntax
    from tile_lsp.compiler.verify_context import VerifyContext

ATOMIC_ORDERINGS = ("relaxed", "acquire", "release", "acq_rel")
ADDF_TYPES = (C.F16, C.BF16, C.F32, C.F64)


def check_mode(mode: str, elem: Attribute) -> VerifyResult:
    """Which element types each read-modify-write mode accepts."""
    if mode in M.INT_RMW_MODES:
        if elem not in (C.I32, C.I64):
            yield OpError(f"'{mode}' works only with integers i32 and i64")
    elif mode == "addf":
        if elem not in ADDF_TYPES:
            yield OpError("'addf' works only with floats f16, bf16, f32, and f64")
    elif mode == "xchg" and (not (ct.is_int(elem) or ct.is_float(elem)) or M.int_width(elem) not in (32, 64)):
        yield OpError("'xchg' works only with integers or float of 32 or 64 bitwidth")


def check_atomic_ordering(op: Operation) -> VerifyResult:
    if M.ordering_of(op) not in ATOMIC_ORDERINGS:
        yield OpError("memory ordering semantics must be one of: relaxed, acquire, release, acq_rel")


def _pointee(t: Attribute) -> Attribute | None:
    if isinstance(t, ct.TileType) and isinstance(t.element_type, ct.PointerType):
        return t.element_type.pointee
    return None


class _AtomicOp(CudaTileOp):
    """The atomics: the token and result token come last (subclasses declare what comes before)."""

    token = opt_operand_def()
    result_token = result_def()
    irdl_options = M.SEGMENTED_OPERANDS
    ATTR_SYNTAX: ClassVar[dict[str, AttrSyntax]] = {
        "memory_ordering_semantics": M.ORDERING,
        "memory_scope": M.SCOPE,
        "mode": M.MODE,
        "inbounds": M.BOOL_LIST,
    }


def _ptr_atomic_format(operands: str, value: str) -> str:
    """The format of atomic_cas/rmw_tko: `operands` after the pointers, `value` typed."""
    return (
        f"$memory_ordering_semantics $memory_scope $pointers `,` {operands} (`,` $mask^)? "
        "(`token` `` `=` `` $token^)? attr-dict `:` custom<CudaTileType>(type($pointers)) `,` "
        f"custom<CudaTileType>(type(${value})) (`,` custom<CudaTileType>(type($mask))^)? `->` "
        "custom<CudaTileType>(type($result)) `,` custom<CudaTileType>(type($result_token))"
    )


class _PtrAtomicOp(_AtomicOp):
    """atomic_cas/rmw_tko: through a pointer tile, with an optional mask and token; the old
    values and a token out. Subclasses declare the operands up to the mask."""

    RESULT_NAMES: ClassVar[tuple[str, ...]] = ("result", "result_token")
    mask = opt_operand_def()
    result = result_def()
    VALUE: ClassVar[str] = "val"  # the operand whose element type the pointees must be
    WORD: ClassVar[str] = "atomic_cas"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from M.check_enum_props(self)
        (ptrs,), (val,), mask = M.types_of(self, "pointers"), M.types_of(self, self.VALUE), M.types_of(self, "mask")
        if M.multicast(ptrs):
            yield OpError(f"multicast pointer is not supported for {self.WORD}")
            return
        pointee = _pointee(ptrs)
        elem = ct.element_type(val)
        if pointee is None:
            return
        if pointee != elem:
            yield OpError(
                f"expected pointee type ({M.q(pointee)}) to match element type of '{self.VALUE}' ({M.q(elem)})"
            )
            return
        for err in self.check_values(elem, mask, val):
            yield err
            return
        yield from check_atomic_ordering(self)

    def check_values(self, elem: Attribute, mask: list[Attribute], val: Attribute) -> VerifyResult:
        """The op's own checks once the pointees match `elem`; the first error ends the verifier."""
        return iter(())


_PTR_ATOMIC_TAIL_TYPES = {"mask": C.I1_TILE, "token": M.TOKEN, "result": M.TILE, "result_token": M.TOKEN}


@tile_op
class AtomicCASTkoOp(_PtrAtomicOp):
    """Atomically replaces each element equal to `cmp` with `val` and returns the old
    values; lanes may be masked off.

    ```mlir
    %old, %t = atomic_cas_tko relaxed device %ptrs, %cmp, %val : tile<8xptr<i32>>, tile<8xi32> -> tile<8xi32>, token
    ```
    """

    name = "cuda_tile.atomic_cas_tko"
    memory_ordering_semantics = prop_def(Attribute)
    memory_scope = prop_def(Attribute)
    pointers = operand_def()
    cmp = operand_def()
    val = operand_def()
    TILE_FORMAT = _ptr_atomic_format("$cmp `,` $val", "val")
    TYPE_CONSTRAINTS = {"pointers": C.PTR_TILE, "cmp": M.TILE, "val": M.TILE, **_PTR_ATOMIC_TAIL_TYPES}
    TYPE_RULES = (
        M.TOKEN_OPERAND,
        C.SameShape("pointers", "cmp", "val", "result"),
        C.AllTypesMatch("cmp", "val", "result"),
    )

    def check_values(self, elem: Attribute, mask: list[Attribute], val: Attribute) -> VerifyResult:
        if not (ct.is_int(elem) or ct.is_float(elem)) or M.int_width(elem) not in (32, 64):
            yield OpError("expect only float or integer types with 32 or 64 bit")
        elif mask and ct.shape_of(mask[0]) != ct.shape_of(val):
            yield OpError("failed to verify that all of {pointers, val, cmp and mask} have same shape")


@tile_op
class AtomicRMWTkoOp(_PtrAtomicOp):
    """Atomically combines each pointed-to element with `arg` (add, max, xchg, ...) and
    returns the old values; lanes may be masked off.

    ```mlir
    %old, %t = atomic_rmw_tko relaxed device %ptrs, addf, %v : tile<8xptr<f32>>, tile<8xf32> -> tile<8xf32>, token
    ```
    """

    name = "cuda_tile.atomic_rmw_tko"
    memory_ordering_semantics = prop_def(Attribute)
    memory_scope = prop_def(Attribute)
    pointers = operand_def()
    mode = prop_def(Attribute)
    arg = operand_def()
    TILE_FORMAT = _ptr_atomic_format("$mode `,` $arg", "arg")
    TYPE_CONSTRAINTS = {"pointers": C.PTR_TILE, "arg": M.TILE, **_PTR_ATOMIC_TAIL_TYPES}
    TYPE_RULES = (M.TOKEN_OPERAND, C.SameShape("pointers", "arg", "result"), C.AllTypesMatch("arg", "result"))
    VALUE: ClassVar[str] = "arg"
    WORD: ClassVar[str] = "atomic_rmw"

    def check_values(self, elem: Attribute, mask: list[Attribute], val: Attribute) -> VerifyResult:
        if mask and ct.shape_of(mask[0]) != ct.shape_of(val):
            yield OpError("failed to verify that all of {pointers, arg, mask} have same shape")
            return
        yield from check_mode(M.mode_of(self) or "", elem)


@tile_op
class AtomicRedViewTkoOp(_AtomicOp):
    """Atomically reduces a tile into the view tile at the given coordinates (no old
    values are returned); only relaxed ordering at tile-block or device scope.

    ```mlir
    %t = atomic_red_view_tko relaxed device %pv[%i, %j], addf, %v : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<128x128xf32, strides=[128,1]>>, tile<i32> -> token
    ```
    """

    name = "cuda_tile.atomic_red_view_tko"
    memory_ordering_semantics = prop_def(Attribute)
    memory_scope = prop_def(Attribute)
    view = operand_def()
    index = var_operand_def()
    mode = prop_def(Attribute)
    value = operand_def()
    inbounds = opt_prop_def(Attribute)
    TILE_FORMAT = (
        "$memory_ordering_semantics $memory_scope $view `[` $index `]` `,` $mode `,` $value "
        "(`token` `=` $token^)? (`inbounds` `=` $inbounds^)? attr-dict `:` custom<CudaTileType>(type($value)) `,` "
        "custom<CudaTileType>(type($view)) `,` custom<CudaTileTypeSplat>(type($index), ref($index)) `->` "
        "custom<CudaTileType>(type($result_token))"
    )
    TYPE_CONSTRAINTS = {
        "view": M.TILE_VIEW,
        "index": C.variadic(C.INT_TILE),
        "value": M.TILE,
        "token": M.TOKEN,
        "result_token": M.TOKEN,
    }
    TYPE_RULES = (M.TOKEN_OPERAND,)
    SINCE = "13.3"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from M.check_enum_props(self)
        (view,) = M.types_of(self, "view")
        if isinstance(view, ct.GatherScatterViewType):
            yield OpError("gather_scatter_view is not supported; use partition_view instead")
            return
        if getattr(view, "padding_value", None) is not None and view.padding_value.data:  # type: ignore[attr-defined]
            yield OpError("views with padding_value are not supported for atomic reductions")
            return
        if M.ordering_of(self) != "relaxed":
            yield OpError("only 'relaxed' memory ordering is supported for view-based atomic reductions")
            return
        scope = M.scope_of(self)
        if scope == "sys":
            yield OpError(
                "memory scope 'sys' is not supported for view-based atomic reductions; "
                "use 'tl_blk' or 'device' for TMA compatibility"
            )
            return
        mode = M.mode_of(self) or ""
        if mode == "xchg":
            yield OpError("atomic_red_view_tko op cannot use xchg operation")
            return
        if not ct.is_tile_view(view):
            return
        rank = ct.view_index_rank(view)
        indices = M.types_of(self, "index")
        for err in M.check_inbounds(self, len(indices)):  # (NVIDIA checks it before the index count)
            yield err
            return
        if len(indices) != rank:
            yield OpError(f"expected {rank} index operand(s) for view with tile rank {rank}, got {len(indices)}")
            return
        for i, t in enumerate(indices):
            if ct.shape_of(t):
                yield OpError(f"index operand {i} must be a scalar tile (rank 0), got shape {M.dims(ct.shape_of(t))}")
                return
        (value,) = M.types_of(self, "value")
        view_elem = view.tensor_view.element_type  # type: ignore[attr-defined]
        elem = ct.element_type(value)
        if view_elem != elem:
            yield OpError(f"view element type ({M.q(view_elem)}) must match value element type ({M.q(elem)})")
            return
        tile_shape = view.tile_shape  # type: ignore[attr-defined]
        if tuple(tile_shape) != ct.shape_of(value):
            yield OpError(
                f"view tile shape {M.dims(tile_shape)} must match value shape {M.dims(ct.shape_of(value))} "
                "for element-wise atomic operations"
            )
            return
        yield from check_mode(mode, elem)


OPS: list[type[Operation]] = [AtomicCASTkoOp, AtomicRMWTkoOp, AtomicRedViewTkoOp]
