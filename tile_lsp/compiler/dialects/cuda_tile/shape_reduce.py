"""cuda_tile.reduce and cuda_tile.scan: aggregate tiles along one dimension with a
combiner region whose block takes (current, accumulated) 0-d tiles per operand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation
from xdsl.irdl import prop_def, region_def, var_operand_def, var_result_def

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, RawError, VerifyResult, tile_op
from tile_lsp.compiler.dialects.cuda_tile.control_regions import (
    ensure_terminator,
    parse_cuda_type,
    parse_type_list,
    types_text,
)
from tile_lsp.compiler.syntax.attributes import attr_str, parse_arg_def, parse_attr_dict_body, parse_attribute
from tile_lsp.compiler.syntax.interfaces import ArgDef
from tile_lsp.compiler.syntax.types import long_type_str

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext

_HALF_FLOATS = (builtin.Float16Type(), builtin.BFloat16Type())


def _parse_keyword_value(p: SyntaxParser, state: OpState, key: str) -> Attribute:
    state.spans[key] = p.span()
    p.expect_keyword(key)
    p.expect_punct("=")
    return parse_attribute(p)


def _parse_arguments(p: SyntaxParser) -> list[ArgDef]:
    """custom<ArgumentRegion>'s header: `(%a: type, %b: type)`."""
    args: list[ArgDef] = []
    p.expect_punct("(")
    if p.accept_punct(")"):
        return args
    while True:
        if "#" in p.tok:  # `%x#0` is a use, not a name
            p.fail("expected SSA identifier")
        arg = parse_arg_def(p, parse_cuda_type)
        args.append(replace(arg, loc=None))  # (the combiner's arguments keep no location)
        if p.accept_punct(")"):
            return args
        p.expect_punct(",")


def _identity_str(a: Attribute) -> str:
    # Elements of `identities` always carry their type, i64 included.
    if isinstance(a, builtin.IntegerAttr) and a.type != builtin.i1:
        return f"{a.value.data} : {long_type_str(a.type)}"
    return attr_str(a, short_types=True)


class _Aggregate(CudaTileOp):
    """Shared syntax and checks of reduce and scan."""

    DEFAULT_DIALECT: ClassVar[str | None] = "cuda_tile"
    HAS_REVERSE: ClassVar[bool] = False

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        from tile_lsp.compiler.dialects.cuda_tile.ops_control import YieldOp

        state.spans["operands_"] = p.span()
        state.operands["operands_"] = p.parse_value_use_list()
        if p.at_punct("{"):
            state.attributes.update(parse_attr_dict_body(p))
        dim = _parse_keyword_value(p, state, "dim")
        if isinstance(dim, builtin.IntegerAttr):
            dim = builtin.IntegerAttr(dim.value.data, builtin.i32)
        state.properties["dim"] = dim
        if cls.HAS_REVERSE:
            state.properties["reverse"] = _parse_keyword_value(p, state, "reverse")
        state.properties["identities"] = _parse_keyword_value(p, state, "identities")
        p.expect_punct(":")
        state.operand_types["operands_"] = parse_type_list(p)
        p.expect_punct("->")
        state.result_types["results_"] = parse_type_list(p)
        args = _parse_arguments(p)
        p.default_dialect.append("cuda_tile")
        try:
            body = p.parse_region(args)
        finally:
            p.default_dialect.pop()
        ensure_terminator(body, lambda: registry.create_op(YieldOp, [], [], {}, {}, []))
        state.regions["body"] = [body]

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, _Aggregate)
        out = " " + ", ".join(pr.value_name(v) for v in op.operands)
        attrs = pr.attr_dict(op, elided={"dim", "reverse", "identities"})
        if attrs:
            out += " " + attrs
        dim = op.properties["dim"]
        out += f" dim={dim.value.data if isinstance(dim, builtin.IntegerAttr) else attr_str(dim)}"
        if cls.HAS_REVERSE:
            out += f" reverse={attr_str(op.properties['reverse'])}"
        identities = op.properties["identities"]
        if isinstance(identities, builtin.ArrayAttr):
            out += " identities=[" + ", ".join(_identity_str(a) for a in identities.data) + "]"
        else:
            out += " identities=" + attr_str(identities)
        out += " : " + ", ".join(pr.type(v.type) for v in op.operands)
        out += " -> " + ", ".join(pr.type(r.type) for r in op.results)
        block = op.regions[0].blocks.first
        args = list(block.args) if block is not None else []
        header = ", ".join(f"{pr.value_name(a)}: {pr.type(a.type)}" for a in args)
        pr.default_dialect.append("cuda_tile")
        try:
            region = pr.region_text(op.regions[0], print_entry_args=False)
        finally:
            pr.default_dialect.pop()
        # NVIDIA prints the combiner header on its own line, at the op's indentation.
        return f"{out} \n{pr.indent_unit * pr.depth}({header}) {region}"

    def expected_results(self) -> list[Attribute] | None:
        return [v.type for v in self.operands]

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        err = self._check_operands() or self._check_region()
        if err is not None:
            yield err

    def _check_operands(self) -> OpError | RawError | None:
        operands = list(self.operands)
        identities = self.properties.get("identities")
        items = identities.data if isinstance(identities, builtin.ArrayAttr) else ()
        dim_attr = self.properties.get("dim")
        dim = dim_attr.value.data if isinstance(dim_attr, builtin.IntegerAttr) else 0
        if dim < 0:
            return OpError(
                "attribute 'dim' failed to satisfy constraint: 32-bit signless integer attribute whose value is "
                "non-negative"
            )
        if not operands:
            return OpError("expect at least 1 operand")
        if len(operands) != len(self.results):
            return OpError("expect same number of operands and results")
        if len(items) != len(operands):
            return OpError(
                f"expect identities to match the number of operands but got: {len(operands)} operands and "
                f"{len(items)} identities"
            )
        for i, (v, ident) in enumerate(zip(operands, items)):
            if not isinstance(v.type, ct.TileType):
                return OpError(f"expected TileType for operand at index {i} but got: '{long_type_str(v.type)}'")
            elem = v.type.element_type
            ident_type = getattr(ident, "type", None)
            if ident_type != elem and not (elem in _HALF_FLOATS and ident_type in _HALF_FLOATS):
                shown = long_type_str(ident_type) if isinstance(ident_type, Attribute) else "none"
                return OpError(
                    f"expect same type for operand at index: {i} and identity at index: {i} but got: "
                    f"'{long_type_str(elem)}' and '{shown}'"
                )
        rank = operands[0].type.rank if isinstance(operands[0].type, ct.TileType) else 0
        if not 0 <= dim < rank:
            return OpError(f"dimension ({dim}) is out of bound [0, {rank})")
        shapes = {ct.shape_of(v.type) for v in operands}
        if len(shapes) > 1:
            return OpError("requires the same shape for all operands")
        want = self.expected_results()
        got = [r.type for r in self.results]
        if self.HAS_REVERSE:  # scan: each result has its operand's type (NVIDIA's words; reduce infers them)
            for i, (v, r) in enumerate(zip(operands, self.results)):
                if v.type != r.type:
                    return OpError(f"expect same type for operand at index: {i} and result at index: {i}")
        elif want is not None and want != got:
            return OpError(
                f"inferred type(s) {types_text(want)} are incompatible with return type(s) of operation "
                f"{types_text(got)}"
            )
        return None

    def _check_region(self) -> OpError | None:
        n = len(self.operands)
        block = self.regions[0].blocks.first
        if block is None or block.first_op is None:
            return OpError("expect non-empty block")
        args = list(block.args)
        if len(args) != 2 * n:
            return OpError(f"expect {2 * n} block arguments but got: {len(args)}")
        for i, a in enumerate(args):
            if not (isinstance(a.type, ct.TileType) and a.type.rank == 0):
                return OpError(f"expect 0-rank tile type at index: {i} but got: '{long_type_str(a.type)}'")
        for i in range(n):
            cur, prev = args[2 * i].type, args[2 * i + 1].type
            assert isinstance(cur, ct.TileType) and isinstance(prev, ct.TileType)
            if cur.element_type != prev.element_type:
                return OpError(
                    f"expect same element type for block argument at index: {2 * i} and {2 * i + 1} but got: "
                    f"'{long_type_str(cur.element_type)}' and '{long_type_str(prev.element_type)}'"
                )
            src = self.operands[i].type
            if ct.element_type(src) != cur.element_type:
                return OpError(
                    f"expect same type for operand at index: {i} and block argument at index: {2 * i} but got: "
                    f"'{long_type_str(ct.element_type(src))}' and '{long_type_str(cur.element_type)}'"
                )
        term = block.last_op
        if term is not None and term.name == "cuda_tile.yield":
            if len(term.operands) != n:
                return OpError(
                    f"expect number of terminators operands ({len(term.operands)}) to match number of operands ({n})"
                )
            for i, v in enumerate(term.operands):
                src = self.operands[i].type
                if not isinstance(v.type, ct.TileType):
                    return OpError(
                        "expected TileType for operand and terminator types but got: "
                        f"'{long_type_str(src)}' and '{long_type_str(v.type)}'"
                    )
                if ct.element_type(src) != v.type.element_type:
                    return OpError(
                        f"expect same type for operand at index: {i} and terminator argument at index: {i} but got: "
                        f"'{long_type_str(ct.element_type(src))}' and '{long_type_str(v.type.element_type)}'"
                    )
        for nested in block.ops:
            if nested.name in _IMPURE:
                return OpError(f"only memory-effect-free operations are allowed inside '{self.name}'", at=nested)
        return None


# Ops with memory effects; NVIDIA allows only pure ops in a combiner.
_IMPURE = frozenset(
    {
        "cuda_tile.print",
        "cuda_tile.print_tko",
        "cuda_tile.assert",
        "cuda_tile.load_ptr_tko",
        "cuda_tile.store_ptr_tko",
        "cuda_tile.load_view_tko",
        "cuda_tile.store_view_tko",
        "cuda_tile.atomic_rmw_tko",
        "cuda_tile.atomic_cas_tko",
        "cuda_tile.atomic_red_view_tko",
        "cuda_tile.gdc_wait_tko",
        "cuda_tile.gdc_launch_dependents_tko",
        "cuda_tile.memory_fence_alias_tko",
        "cuda_tile.multimem_load_reduce_view_tko",
        "cuda_tile.multimem_reduce_view_tko",
        "cuda_tile.multimem_store_view_tko",
        "cuda_tile.alloca",
    }
)


@tile_op
class ReduceOp(_Aggregate):
    """Combines the elements of each operand along `dim` with the combiner region, dropping that dimension.

    ```mlir
    %s = reduce %x dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32>
    (%a: tile<f32>, %b: tile<f32>) {
      %r = addf %a, %b : tile<f32>
      yield %r : tile<f32>
    }
    ```
    """

    name = "cuda_tile.reduce"
    RESULT_NAMES = ("reduce",)
    operands_ = var_operand_def()
    results_ = var_result_def()
    TYPE_CONSTRAINTS = {"operands_": C.ANY_TILE, "results_": C.ANY_TILE}  # (ODS: before the op's checks)
    dim = prop_def(builtin.IntegerAttr)
    identities = prop_def(builtin.ArrayAttr)
    body = region_def()

    def expected_results(self) -> list[Attribute] | None:
        dim = self.dim.value.data
        out: list[Attribute] = []
        for v in self.operands:
            t = v.type
            if not isinstance(t, ct.TileType) or not 0 <= dim < t.rank:
                return None
            out.append(ct.tile(t.shape[:dim] + t.shape[dim + 1 :], t.element_type))
        return out


@tile_op
class ScanOp(_Aggregate):
    """Running (prefix) combination of each operand along `dim`, optionally from the end.

    ```mlir
    %c = scan %x dim=0 reverse=false identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<8xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %r = addf %a, %b : tile<f32>
      yield %r : tile<f32>
    }
    ```
    """

    name = "cuda_tile.scan"
    operands_ = var_operand_def()
    results_ = var_result_def()
    TYPE_CONSTRAINTS = {"operands_": C.ANY_TILE, "results_": C.ANY_TILE}  # (ODS: before the op's checks)
    dim = prop_def(builtin.IntegerAttr)
    reverse = prop_def(Attribute)
    identities = prop_def(builtin.ArrayAttr)
    body = region_def()
    HAS_REVERSE: ClassVar[bool] = True


OPS: list[type[Operation]] = [ReduceOp, ScanOp]
