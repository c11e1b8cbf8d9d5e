"""Stage 2 `tileaa` (seed 003, ConvertCudaTileToTileAA): every cuda_tile op becomes an
nv_tileaa (or arith/func/builtin) op; values, block arguments and attributes are retyped.

Ops are converted in program order, so every operand is already converted when its user is
and no bridge casts are needed; region ops move their regions over and the walk retypes the
block arguments (reduce/scan combiners bind scalars). Each new op gets the source op's location.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    IntegerAttr,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from tile_lsp.compiler.dialects.builtin_module import BuiltinModuleOp
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import DenseAttr
from tile_lsp.compiler.dialects.cuda_tile.debuginfo import DILocAttr
from tile_lsp.compiler.dialects.cuda_tile.preview import unsupported_message
from tile_lsp.compiler.lowering.common import LoweringContext, check_legal
from tile_lsp.compiler.lowering.gpu_multimem import multicast_target_error
from tile_lsp.compiler.lowering.tile_types import convert_attr, convert_type, dense_elements, scalar_attr
from tile_lsp.compiler.mlir.dialects import nv_tileaa
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import locations as fe_loc
from tile_lsp.compiler.syntax.sourcemap import SourceMap

FAILED = "failed to convert cuda_tile to nv_tileaa"
MISSING_CC = "invalid or missing --compute-capability option"
CC_ATTR = "nv_tileaa.compute_capability"
TARGET_SPEC_ATTR = "nv_tileaa.target_spec"
KERNEL_ATTR = "nv_tileaa.kernel"
HINTS_ATTR = "nv_tileaa.optimization_hints"

# cuda_tile op -> nv_tileaa mnemonic for the one-to-one rewrites (same operands, converted
# types, attributes carried). Ops with their own rewrite are in `_SPECIAL` below.
_RENAMED = {
    "load_ptr_tko": "load",
    "store_ptr_tko": "store",
    "load_view_tko": "load_view",
    "store_view_tko": "store_view",
    "atomic_cas_tko": "atomic_cas",
    "atomic_rmw_tko": "atomic_rmw",
    "atomic_red_view_tko": "atomic_red_view",
    "make_partition_view": "make_tile_view",
    "make_strided_view": "make_tile_view",
    "make_gather_scatter_view": "make_tile_view",
    "mmaf_scaled": "dot_scaled",
    "fpowf": "pow",  # (13.5's name of pow)
    "gdc_wait_tko": "gdc_wait",
    "gdc_launch_dependents_tko": "gdc_launch_dependents",
    "memory_fence_alias_tko": "memory_fence_alias",
    "multimem_load_reduce_view_tko": "multimem_load_reduce_view",
    "multimem_reduce_view_tko": "multimem_reduce_view",
    "multimem_store_view_tko": "multimem_store_view",
}

# Properties whose meaning is positional in cuda_tile; renamed so they read as plain data.
_ATTR_RENAMES = {"operandSegmentSizes": "operand_segments"}


def convert_cuda_tile_to_tileaa(module: ModuleOp, lctx: LoweringContext) -> bool:
    """Stage 2 on `module` in place; False after a diagnostic (the IR is then partly converted)."""
    target = lctx.options.target
    if target is None or target.cc <= 0:
        # At the first entry (what needs a target), else at the module.
        anchor = next((op for op in module.walk() if op.name == "cuda_tile.entry"), module)
        lctx.error(anchor, MISSING_CC, stage="tileaa")
        return False
    for op in module.walk():
        message = multicast_target_error(op, target.cc, target.chip)
        if message is None and op.name == "cuda_tile.preview$call":  # its callee is in a tile library
            message = unsupported_message(op, "compile")
        if message is not None:
            lctx.error(op, message, stage="tileaa")
            return False
    unsupported = _first_fnv8_op(module)
    if unsupported is not None:
        # tileiras 13.5 compiles fnv8E5M3FNU for sm_107 only (not a target of ours); its words.
        lctx.error(unsupported, f"Incompatibility with architecture '{target.chip}': unsupported type 'fnv8E5M3FNU'",
                   stage="tileaa")
        lctx.error(module, FAILED, stage="tileaa")
        return False
    _Converter(lctx).convert_block(module.body.block)
    if isinstance(module.location, UnknownLoc):
        module.location = FileLineColLoc(StringAttr(lctx.source.path or "<input>"), IntAttr(1), IntAttr(1))
    module.attributes[CC_ATTR] = IntegerAttr(target.cc, 32)
    module.attributes[TARGET_SPEC_ATTR] = StringAttr(target.chip)
    if not check_legal(module, lctx, ("cuda_tile.",), message="failed to legalize operation '{name}'"):
        lctx.error(module, FAILED, stage="tileaa")
        return False
    return True


def _has_fnv8(t: Attribute) -> bool:
    if isinstance(t, ct.FloatNV8E5M3FNUType):
        return True
    if isinstance(t, ArrayAttr):
        return any(_has_fnv8(x) for x in t.data)
    return any(isinstance(p, Attribute) and _has_fnv8(p) for p in getattr(t, "parameters", ()))


def _first_fnv8_op(module: ModuleOp) -> Operation | None:
    """The first op (in program order) whose operands, results or properties hold fnv8E5M3FNU."""
    for op in module.walk():
        types = [v.type for v in (*op.operands, *op.results)]
        types += [a for a in op.properties.values()]
        types += [arg.type for r in op.regions for b in r.blocks for arg in b.args]
        if any(_has_fnv8(t) for t in types):
            return op
    return None


def cuda_tile_spans(smap: SourceMap) -> dict[Operation, Span]:
    """Op -> source span from the front end's SourceMap (pass it as `LoweringContext.spans`),
    and the written value names as name hints so stage dumps keep the user's names."""
    for value, name in smap.value_names.items():
        if value.name_hint is None and SSAValue.is_valid_name(name):
            value.name_hint = name
    spans: dict[Operation, Span] = {}
    for op in smap.ops:
        span = smap.op_span(op)
        if span is not None:
            spans[op] = span
    return spans


def source_location(loc: Attribute) -> LocationAttr | None:
    """A front-end location (tile_lsp.*_loc, cuda_tile.di_loc) as a builtin location; None if unknown."""
    if isinstance(loc, (FileLineColLoc, FusedLoc, NameLoc, CallSiteLoc)):
        return loc
    if isinstance(loc, fe_loc.FileLoc):
        return FileLineColLoc(loc.filename, IntAttr(max(loc.line.data, 0)), IntAttr(max(loc.column.data, 0)))
    if isinstance(loc, DILocAttr):
        return source_location(loc.source_loc)
    if isinstance(loc, fe_loc.NameLoc):
        child = source_location(loc.child) or UnknownLoc()
        return NameLoc(loc.desc, child)
    if isinstance(loc, fe_loc.CallSiteLoc):
        callee, caller = source_location(loc.callee), source_location(loc.caller)
        if callee is None or caller is None:
            return callee or caller
        return CallSiteLoc(callee, caller)
    if isinstance(loc, fe_loc.FusedLoc):
        parts = [x for x in (source_location(a) for a in loc.locations.data) if x is not None]
        return FusedLoc(ArrayAttr(parts), NoneAttr()) if parts else None
    return None


class _Converter:
    def __init__(self, lctx: LoweringContext) -> None:
        self.lctx = lctx

    # -- walk ----------------------------------------------------------------------------------

    def convert_block(self, block: Block) -> None:
        for arg in list(block.args):
            new_type = convert_type(arg.type)
            if new_type != arg.type:
                Rewriter.replace_value_with_new_type(arg, new_type)
        for op in list(block.ops):
            current = self.convert_op(op)
            for region in current.regions:
                for inner in region.blocks:
                    self.convert_block(inner)

    def convert_op(self, op: Operation) -> Operation:
        """Replace `op`; returns the op whose regions the walk continues into."""
        if isinstance(op, BuiltinModuleOp):  # the front end's `module {...}` wrapper
            return _module(self, op)
        if not op.name.startswith("cuda_tile."):
            for res in list(op.results):
                new_type = convert_type(res.type)
                if new_type != res.type:
                    Rewriter.replace_value_with_new_type(res, new_type)
            return op
        mnemonic = op.name.removeprefix("cuda_tile.")
        special = _SPECIAL.get(mnemonic)
        if special is not None:
            return special(self, op)
        name = _RENAMED.get(mnemonic, mnemonic)
        if name not in nv_tileaa.OPS:
            return op  # left for the legality check to report
        return self.one_to_one(op, name)

    # -- building ------------------------------------------------------------------------------

    def location(self, op: Operation) -> LocationAttr:
        """Where `op` is in the compiled text (from its span), fused with the location the text
        wrote (`loc(...)`, a `#cuda_tile.di_loc`) translated to builtin locations. The text
        position comes first: diagnostics and the stage maps read the first FileLineColLoc."""
        written = source_location(op.location)
        span = self.lctx.spans.get(op)
        if span is None:
            if written is not None:
                return written
            parent = op.parent_op()
            return parent.location if parent is not None else UnknownLoc()
        line, col = self.lctx.source.line_col(span.start)
        here = FileLineColLoc(StringAttr(self.lctx.source.path or "<input>"), IntAttr(line + 1), IntAttr(col + 1))
        if written is None or written == here:
            return here
        return FusedLoc(ArrayAttr([here, written]), NoneAttr())

    def attributes(self, op: Operation, drop: Sequence[str] = ()) -> dict[str, Attribute]:
        out: dict[str, Attribute] = {}
        for key, value in (*op.properties.items(), *op.attributes.items()):
            if key not in drop:
                out[_ATTR_RENAMES.get(key, key)] = convert_attr(value)
        return out

    def replace(self, op: Operation, new_ops: Sequence[Operation], values: Sequence[SSAValue]) -> None:
        """Insert `new_ops` before `op` (stamped with its location), rewire its results to `values`."""
        loc = self.location(op)
        block = op.parent_block()
        assert block is not None
        for new in new_ops:
            new.location = loc  # nested ops came with moved regions and get their own
            block.insert_op_before(new, op)
        for old, value in zip(op.results, values, strict=True):
            if value.name_hint is None and old.name_hint is not None:
                value.name_hint = old.name_hint
            old.replace_all_uses_with(value)
        block.erase_op(op)

    def tileaa(
        self,
        op: Operation,
        name: str,
        operands: Sequence[SSAValue] | None = None,
        result_types: Sequence[Attribute] | None = None,
        attrs: dict[str, Attribute] | None = None,
    ) -> nv_tileaa.TileAAOp:
        """`nv_tileaa.<name>` built from `op` (its regions move over)."""
        regions = [op.detach_region(r) for r in list(op.regions)]
        return nv_tileaa.op_class(name).make(
            list(op.operands) if operands is None else operands,
            [convert_type(r.type) for r in op.results] if result_types is None else result_types,
            self.attributes(op) if attrs is None else attrs,
            regions,
        )

    def one_to_one(self, op: Operation, name: str, attrs: dict[str, Attribute] | None = None) -> Operation:
        new = self.tileaa(op, name, attrs=attrs)
        self.replace(op, [new], new.results)
        return new


# -- the rewrites with their own shape ---------------------------------------------------------


def _module(cv: _Converter, op: Operation) -> Operation:
    """cuda_tile.module (and the front end's builtin.module wrapper) -> builtin.module."""
    name = op.properties.get("sym_name")
    new = ModuleOp(_detach_body(op), sym_name=name if isinstance(name, StringAttr) else None)
    new.attributes.update({k: convert_attr(v) for k, v in op.attributes.items()})
    cv.replace(op, [new], [])
    return new


def _detach_body(op: Operation) -> Region:
    return op.detach_region(op.regions[0])


def _function(cv: _Converter, op: Operation) -> Operation:
    fn_type = convert_type(op.properties["function_type"])
    name = op.properties["sym_name"]
    assert isinstance(name, StringAttr)
    new = func.FuncOp(name.data, fn_type, _detach_body(op))  # type: ignore[arg-type]
    if op.name == "cuda_tile.entry":
        new.attributes[KERNEL_ATTR] = UnitAttr()
    hints = op.properties.get("optimization_hints")
    if hints is not None:
        converted = convert_attr(hints)
        if getattr(converted, "data", None):
            new.attributes[HINTS_ATTR] = converted
    cv.replace(op, [new], [])
    return new


def _return(cv: _Converter, op: Operation) -> Operation:
    """func.return at the end of a kernel; nv_tileaa.return for an early exit inside a region."""
    if not isinstance(op.parent_op(), func.FuncOp):
        return cv.one_to_one(op, "return")
    new = func.ReturnOp(*op.operands)
    cv.replace(op, [new], [])
    return new


def _constant(cv: _Converter, op: Operation) -> Operation:
    """Scalars: arith.constant; splats: arith.constant + nv_tileaa.splat; else a dense tensor."""
    value = op.properties["value"]
    result_type = op.results[0].type
    assert isinstance(value, DenseAttr) and isinstance(result_type, ct.TileType)
    elem = value.element_type
    values = value.values.data
    if result_type.rank == 0 or value.is_splat or len(values) == 1:
        scalar = arith.ConstantOp(scalar_attr(values[0], elem), elem)  # type: ignore[arg-type]
        if result_type.rank == 0:
            cv.replace(op, [scalar], scalar.results)
            return scalar
        splat = nv_tileaa.op_class("splat").make([scalar.result], [convert_type(result_type)])
        cv.replace(op, [scalar, splat], splat.results)
        return splat
    dense = arith.ConstantOp(dense_elements(value, result_type.shape))  # type: ignore[arg-type]
    cv.replace(op, [dense], dense.results)
    return dense


def _maxi(cv: _Converter, op: Operation) -> Operation:
    """Seed 003's singleton adder: integer max through arith.maxsi / arith.maxui."""
    signedness = convert_attr(op.properties.get("signedness", StringAttr("signed")))
    unsigned = isinstance(signedness, StringAttr) and signedness.data == "unsigned"
    cls = arith.MaxUIOp if unsigned else arith.MaxSIOp
    new = cls(op.operands[0], op.operands[1])
    cv.replace(op, [new], new.results)
    return new


def _make_token(cv: _Converter, op: Operation) -> Operation:
    return cv.one_to_one(op, "create_mem_token")


def _join_tokens(cv: _Converter, op: Operation) -> Operation:
    """Two or more: join_mem_token; one: the token itself; none: a fresh create_mem_token."""
    tokens = list(op.operands)
    if len(tokens) == 1:
        cv.replace(op, [], tokens)
        return op
    if not tokens:
        return cv.one_to_one(op, "create_mem_token")
    return cv.one_to_one(op, "join_mem_token")


def _element_spelling(t: Attribute) -> str:
    elem = t.element_type if isinstance(t, (ct.TileType, TensorType)) else t
    return ct.ELEMENT_TYPE_SPELLING.get(elem, str(elem))


def _mma(cv: _Converter, op: Operation) -> Operation:
    """mmaf/mmai -> nv_tileaa.dot; the input precision comes from the operand element type
    (f32 operands multiply as tf32 on tensor cores, as the seed's example shows)."""
    attrs = cv.attributes(op)
    lhs = _element_spelling(op.operands[0].type)
    attrs["input_precision"] = StringAttr("tf32" if lhs == "f32" else lhs)
    attrs["acc_type"] = StringAttr(_element_spelling(op.operands[2].type))
    return cv.one_to_one(op, "dot", attrs)


def _transcendental(cv: _Converter, op: Operation) -> Operation:
    """Seed 003's transcendental specialists: the nv_tileaa op also gets a `fastmath` flag
    (`afn` for cuda_tile's `rounding<approx>`, else `none`) that picks the fast or the precise
    libdevice variant downstream; a fastmath the source op already has is kept as it is."""
    attrs = cv.attributes(op)
    if "fastmath" not in attrs:
        approx = attrs.get("rounding_mode") == StringAttr("approx")
        attrs["fastmath"] = arith.FastMathFlagsAttr([arith.FastMathFlag.APPROX_FUNC] if approx else "none")
    return cv.one_to_one(op, op.name.removeprefix("cuda_tile."), attrs)


def _offset(cv: _Converter, op: Operation) -> Operation:
    """offset keeps its operands; the pointee type (which `!llvm.ptr` no longer names) rides
    along as `element_type`, the unit the offset counts in."""
    attrs = cv.attributes(op)
    t = op.results[0].type
    elem = t.element_type if isinstance(t, ct.TileType) else t
    if isinstance(elem, ct.PointerType):
        attrs["element_type"] = convert_type(elem.pointee)
    return cv.one_to_one(op, "offset", attrs)


TRANSCENDENTALS = ("exp", "exp2", "log", "log2", "sin", "cos", "tanh")

_SPECIAL: dict[str, Callable[[_Converter, Operation], Operation]] = {
    **{name: _transcendental for name in TRANSCENDENTALS},
    "module": _module,
    "entry": _function,
    "testing$func": _function,
    "return": _return,
    "constant": _constant,
    "maxi": _maxi,
    "make_token": _make_token,
    "join_tokens": _join_tokens,
    "mmaf": _mma,
    "mmai": _mma,
    "offset": _offset,
}

