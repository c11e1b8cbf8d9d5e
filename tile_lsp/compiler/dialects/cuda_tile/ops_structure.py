"""Structural cuda_tile ops: module, entry, global, get_global, constant, return.

These have hand-written syntax (symbols, signatures, dense literals) that no
declarative format expresses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import (
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
)

from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import debuginfo
from tile_lsp.compiler.dialects.cuda_tile import hints as hints_mod
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.attrs import DenseAttr, dense_literal_str, parse_dense_literal
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, RawError, VerifyResult, tile_op
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import attr_str, dict_str, parse_arg_def, parse_attr_dict_body, symbol_name
from tile_lsp.compiler.syntax.interfaces import ArgDef
from tile_lsp.compiler.syntax.locations import location_suffix
from tile_lsp.compiler.syntax.types import parse_type, type_str

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext


def parse_symbol_def(p: SyntaxParser, state: OpState) -> None:
    if p.kind != lexer.SYMBOL:
        p.fail("expected valid '@'-identifier for symbol name")
    state.properties["sym_name"] = builtin.StringAttr(symbol_name(p.tok))
    state.symbol_span = p.span()
    p.advance()


def _sym(op: Operation) -> str:
    name = op.properties["sym_name"]
    assert isinstance(name, builtin.StringAttr)
    return attr_str(builtin.SymbolRefAttr(name.data))


@tile_op
class ModuleOp(CudaTileOp):
    """A compilation unit holding globals and entry kernels.

    ```mlir
    cuda_tile.module @kernels {
      entry @k() { return }
    }
    ```
    """

    name = "cuda_tile.module"
    sym_name = prop_def(builtin.StringAttr)
    body = region_def()
    DEFAULT_DIALECT: ClassVar[str | None] = "cuda_tile"
    ISOLATED = True

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        parse_symbol_def(p, state)
        if p.accept_keyword("attributes"):
            state.attributes.update(parse_attr_dict_body(p))
        p.default_dialect.append("cuda_tile")
        try:
            state.regions["body"] = [p.parse_region(isolated=True)]
        finally:
            p.default_dialect.pop()

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        attrs = f" attributes {dict_str(op.attributes)}" if op.attributes else ""
        pr.default_dialect.append("cuda_tile")
        try:
            body = pr.region_text(op.regions[0])
        finally:
            pr.default_dialect.pop()
        return f" {_sym(op)}{attrs} {body}"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if self.regions[0].blocks and len(self.regions[0].blocks) != 1:
            yield OpError("expects a single block region")
        debuginfo.verify_module_items(self, ctx, (FunctionLike,))


class FunctionLike(CudaTileOp):
    """Shared fields and syntax of entry and the test-only function op."""

    sym_name = prop_def(builtin.StringAttr)
    function_type = prop_def(builtin.FunctionType)
    optimization_hints = opt_prop_def(Attribute)
    body = region_def()
    ISOLATED: ClassVar[bool] = True
    DEFAULT_DIALECT: ClassVar[str | None] = "cuda_tile"

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        parse_symbol_def(p, state)
        args: list[ArgDef] = []
        p.expect_punct("(")
        if not p.accept_punct(")"):
            while True:
                args.append(parse_arg_def(p))
                if p.accept_punct(")"):
                    break
                p.expect_punct(",")
        outputs: list[Attribute] = []
        if p.accept_punct("->"):
            if p.accept_punct("("):
                outputs = p.comma_list(lambda: parse_type(p), ")")
            else:
                outputs.append(parse_type(p))
        state.properties["function_type"] = builtin.FunctionType.from_lists([a.type for a in args], outputs)
        if p.at_keyword("optimization_hints"):
            state.spans["optimization_hints"] = p.span()
            p.advance()
            p.expect_punct("=")
            from tile_lsp.compiler.dialects.cuda_tile.hints import parse_hints_body

            state.properties["optimization_hints"] = parse_hints_body(p)
        if p.accept_keyword("attributes"):
            state.attributes.update(parse_attr_dict_body(p))
        body = p.parse_region(args, isolated=True)
        _ensure_return(body)
        state.regions["body"] = [body]
        if p.at_punct("{"):  # NVIDIA's printer puts the attr-dict after the body
            state.attributes.update(parse_attr_dict_body(p))

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        ftype = op.properties["function_type"]
        assert isinstance(ftype, builtin.FunctionType)
        block = op.regions[0].blocks.first
        arg_list = []
        if block is not None:
            arg_list = [f"{pr.value_name(a)}: {pr.type(a.type)}{location_suffix(pr, a.location)}" for a in block.args]
        outs = [pr.type(t) for t in ftype.outputs.data]
        result = ""
        if outs:
            result = " -> " + (outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")")
        hints = op.properties.get("optimization_hints")
        hint_text = ""
        if hints is not None and not hints_mod.is_empty(hints):  # `<>` is not printed
            hint_text = " optimization_hints=" + hints_mod.hints_body_str(hints)
        attrs = f" attributes {dict_str(op.attributes)}" if op.attributes else ""
        body = pr.region_text(op.regions[0], print_entry_args=False)
        return f" {_sym(op)}({', '.join(arg_list)}){result}{hint_text}{attrs} {body}"


    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        if len(self.regions[0].blocks) != 1:
            yield OpError("region #0 ('body') failed to verify constraint: region with 1 blocks")


def _ensure_return(body: Region) -> None:
    """The body's terminator is implicit in the custom form, as MLIR's SingleBlockImplicitTerminator."""
    block = body.blocks.first
    if block is not None and not isinstance(block.last_op, ReturnOp):
        block.add_op(ReturnOp.create())


@tile_op
class EntryOp(FunctionLike):
    """A kernel: the function the host launches over a grid of tile blocks.

    ```mlir
    entry @add(%a: tile<ptr<f32>>) { return }
    ```
    """

    name = "cuda_tile.entry"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from super().verify_tile(ctx)
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, ModuleOp | builtin.ModuleOp):
            yield OpError("expects parent op 'cuda_tile.module'")
        ftype = self.properties["function_type"]
        assert isinstance(ftype, builtin.FunctionType)
        if ftype.outputs.data:
            yield OpError("entry op must not return values")
        if any(isinstance(t, ct.TileType) and t.rank != 0 for t in ftype.inputs.data):
            yield OpError("entry op must have scalar types (rank 0 !cuda_tile.tile)")
        yield from debuginfo.verify_function(self)
        yield from hints_mod.verify_op_hints(self, ctx)
        debuginfo.verify_function_body(self, ctx)


@tile_op
class TestingFuncOp(FunctionLike):
    """A test-only function (`testing$func`) used by NVIDIA's dialect tests.

    ```mlir
    testing$func @f(%x: tile<f32>) { return }
    ```
    """

    name = "cuda_tile.testing$func"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        yield from super().verify_tile(ctx)
        yield from debuginfo.verify_function(self)
        debuginfo.verify_function_body(self, ctx)


@tile_op
class ReturnOp(CudaTileOp):
    """Ends an entry (or test function), optionally returning values.

    ```mlir
    return
    ```
    """

    name = "cuda_tile.return"
    operands_ = var_operand_def()
    TILE_FORMAT = "attr-dict ($operands_^ `:` custom<CudaTileType>(type($operands_)))?"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        parent = self.parent_op()
        while parent is not None and parent.name == "cuda_tile.if":  # early return from an `if`
            parent = parent.parent_op()
        if isinstance(parent, FunctionLike):
            ftype = parent.properties["function_type"]
            assert isinstance(ftype, builtin.FunctionType)
            want = list(ftype.outputs.data)
            got = [v.type for v in self.operands]
            fname = parent.properties["sym_name"]
            assert isinstance(fname, builtin.StringAttr)
            if len(want) != len(got):
                yield OpError(f"has {len(got)} operands, but enclosing function (@{fname.data}) returns {len(want)}")
                return
            for i, (w, g) in enumerate(zip(want, got)):
                if w != g:
                    yield RawError(
                        f"type of return operand {i} ('{type_str(g, False)}') doesn't match function result "
                        f"type ('{type_str(w, False)}') in function @{fname.data}"
                    )
                    return
        elif parent is not None:
            yield OpError("expects parent op to be one of 'cuda_tile.entry, cuda_tile.testing$func'")


VISIBILITIES = ("public", "private", "nested")


@tile_op
class GlobalOp(CudaTileOp):
    """A module-level variable in global memory, initialised from a dense literal.

    ```mlir
    global private constant @lut alignment = 128 <f32: [1.0, 2.0]> : tile<2xf32>
    ```
    """

    name = "cuda_tile.global"
    sym_name = prop_def(builtin.StringAttr)
    sym_visibility = opt_prop_def(builtin.StringAttr)
    constant = opt_prop_def(builtin.UnitAttr)
    alignment = opt_prop_def(builtin.IntegerAttr)
    value = prop_def(DenseAttr)
    type = prop_def(Attribute)

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        if p.kind == lexer.BARE and p.tok in VISIBILITIES:
            state.properties["sym_visibility"] = builtin.StringAttr(p.tok)
            p.advance()
        if p.accept_keyword("constant"):
            state.properties["constant"] = builtin.UnitAttr()
        parse_symbol_def(p, state)
        if p.accept_keyword("alignment"):
            p.expect_punct("=")
            state.properties["alignment"] = builtin.IntegerAttr(p.parse_int_literal(), builtin.i64)
        state.spans["value"] = p.span()
        state.properties["value"] = parse_dense_literal(p, state.name)
        if p.at_punct("{"):
            state.attributes.update(parse_attr_dict_body(p))
        p.expect_punct(":")
        state.spans["type"] = p.span()
        state.properties["type"] = parse_type(p)

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        parts = [""]
        vis = op.properties.get("sym_visibility")
        if isinstance(vis, builtin.StringAttr) and vis.data != "public":
            parts.append(vis.data)
        if "constant" in op.properties:
            parts.append("constant")
        parts.append(_sym(op))
        align = op.properties.get("alignment")
        if isinstance(align, builtin.IntegerAttr):
            parts.append(f"alignment = {align.value.data}")
        t = op.properties["type"]
        value = op.properties["value"]
        assert isinstance(value, DenseAttr)
        parts.append(dense_literal_str(value, ct.shape_of(t)))
        if op.attributes:
            parts.append(dict_str(op.attributes))
        parts.append(":")
        parts.append(pr.type(t))
        return " ".join(parts)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        t = self.properties["type"]
        value = self.properties["value"]
        assert isinstance(value, DenseAttr)
        yield from check_dense_against(value, t, self.name)
        if isinstance(t, ct.TileType) and t.rank != 1:
            yield OpError("type must have rank 1")


def check_dense_against(value: DenseAttr, t: Attribute, op_name: str) -> VerifyResult:
    """NVIDIA's custom parser checks of a dense literal against the tile type after `:`."""
    if not isinstance(t, ct.TileType):
        return
    prefix = f"custom op '{op_name}' "
    if value.element_type != t.element_type:
        yield RawError(
            f"{prefix}mismatch between the element type: '{type_str(value.element_type)}' "
            f"and the tile element type '{type_str(t.element_type)}'"
        )
        return
    literal = value.literal_shape.data
    if literal and literal != t.shape:  # a scalar literal is a splat of any shape
        yield RawError(
            f"{prefix}inferred shape of elements literal ([{', '.join(map(str, literal))}]) "
            f"does not match type ([{', '.join(map(str, t.shape))}])"
        )


@tile_op
class GetGlobalOp(CudaTileOp):
    """Returns a pointer (rank-0 tile of ptr) to a module-level global.

    ```mlir
    %p = get_global @lut : tile<ptr<f32>>
    ```
    """

    name = "cuda_tile.get_global"
    name_ = prop_def(builtin.SymbolRefAttr, prop_name="name")
    result = result_def()
    TILE_FORMAT = "custom<SymbolRef>($name) attr-dict `:` custom<CudaTileType>(type($result))"
    TYPE_CONSTRAINTS = {"result": C.tile_of(ptr=True, rank=0)}

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        ref = self.properties["name"]
        assert isinstance(ref, builtin.SymbolRefAttr)
        target = ctx.symbols.get(ref.root_reference.data)
        if not isinstance(target, GlobalOp):
            yield OpError(f"'{ref.root_reference.data}' does not reference a valid global")
            return
        t = self.result.type
        gtype = target.properties["type"]
        elem = ct.element_type(gtype)
        assert isinstance(t, ct.TileType) and isinstance(t.element_type, ct.PointerType)
        if t.element_type.pointee != elem:
            yield OpError(
                f"pointee type of result type '{type_str(t.element_type, False)}' does not match type "
                f"'{type_str(elem)}' of the global @{ref.root_reference.data}"
            )


@tile_op
class ConstantOp(CudaTileOp):
    """Materialises a tile from a dense literal.

    ```mlir
    %c = constant <f32: [1.0, 2.0]> : tile<2xf32>
    ```
    """

    name = "cuda_tile.constant"
    value = prop_def(DenseAttr)
    result = result_def()
    TYPE_CONSTRAINTS = {"result": C.NUMBER_TILE}

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        state.spans["value"] = p.span()
        state.properties["value"] = parse_dense_literal(p, state.name)
        p.expect_punct(":")
        start = p.span()
        t = parse_type(p)
        if not isinstance(t, ct.TileType):
            from tile_lsp.compiler.syntax.types import long_type_str

            p.fail(
                f"custom op 'cuda_tile.constant' result #0 must be {C.NUMBER_TILE.description}, "
                f"but got '{long_type_str(t)}'",
                start,
            )
        state.result_types["result"] = [t]
        if p.at_punct("{"):  # `custom<Dense...>(...) attr-dict`: the dict follows the type
            state.attributes.update(parse_attr_dict_body(p))

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        value = op.properties["value"]
        assert isinstance(value, DenseAttr)
        t = op.results[0].type
        attrs = f" {dict_str(op.attributes)}" if op.attributes else ""
        return f" {dense_literal_str(value, ct.shape_of(t))} : {pr.type(t)}{attrs}"

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        value = self.properties["value"]
        assert isinstance(value, DenseAttr)
        yield from check_dense_against(value, self.result.type, self.name)



OPS: list[type[Operation]] = [ModuleOp, EntryOp, TestingFuncOp, ReturnOp, GlobalOp, GetGlobalOp, ConstantOp]
