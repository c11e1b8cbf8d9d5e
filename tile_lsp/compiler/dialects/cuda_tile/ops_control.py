"""cuda_tile control flow: if, for, loop and their terminators yield, continue, break.

Also gathers the other control-family modules (assert/print, assume) into `OPS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects import builtin
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    operand_def,
    opt_prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import constraints as C
from tile_lsp.compiler.dialects.cuda_tile import control_assume, control_debug
from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, RawError, VerifyResult, tile_op
from tile_lsp.compiler.dialects.cuda_tile.control_regions import (
    check_loop_values,
    check_single_block,
    check_terminator,
    ensure_terminator,
    is_empty_region,
    parse_binding_list,
    parse_cuda_type,
    parse_type_list,
    region_args,
    types_text,
    value_types,
    view_kind_error,
)
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.attributes import parse_attr_dict_body
from tile_lsp.compiler.syntax.interfaces import ArgDef

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import OpState, SyntaxParser, SyntaxPrinter
    from tile_lsp.compiler.verify_context import VerifyContext

I1_SCALAR = ct.tile((), builtin.i1)


def _trailing_attr_dict(p: SyntaxParser, state: OpState) -> None:
    if p.at_punct("{"):
        state.attributes.update(parse_attr_dict_body(p))


def _attr_suffix(pr: SyntaxPrinter, op: Operation, elided: set[str] | None = None) -> str:
    text = pr.attr_dict(op, elided=elided or set())
    return f" {text}" if text else ""


def _nested_region(p: SyntaxParser, args: list[ArgDef] | None = None) -> Region:
    """A region whose ops default to the cuda_tile dialect (OpAsmOpInterface)."""
    p.default_dialect.append("cuda_tile")
    try:
        return p.parse_region(args or ())
    finally:
        p.default_dialect.pop()


def _region_text(pr: SyntaxPrinter, region: Region) -> str:
    pr.default_dialect.append("cuda_tile")
    try:
        return pr.region_text(region, print_entry_args=False)
    finally:
        pr.default_dialect.pop()


def _new(cls: type[Operation]) -> Operation:
    return registry.create_op(cls, [], [], {}, {}, [])


class _Terminator(CudaTileOp):
    """`kw [%a, %b : t1, t2]`: the shared syntax of yield, continue and break."""

    operands_ = var_operand_def()
    TILE_FORMAT: ClassVar[str | None] = "attr-dict ($operands_^ `:` custom<CudaTileType>(type($operands_)))?"
    PARENTS: ClassVar[tuple[str, ...]] = ()
    IMPLICIT_IN: ClassVar[tuple[str, ...]] = ()  # parents where the printer leaves it out when it has no operands
    LOOPS: ClassVar[tuple[str, ...]] = ()  # for continue/break: the loops an early exit may belong to

    def elide_if_implicit(self) -> bool:
        parent = self.parent_op()
        return not self.operands and parent is not None and parent.name in self.IMPLICIT_IN

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        parent = self.parent_op()
        if parent is not None and parent.name not in self.PARENTS:
            yield OpError(f"expects parent op to be one of '{', '.join(self.PARENTS)}'")
            return
        if not self.LOOPS:
            return
        loop, err = _enclosing_loop(self, self.LOOPS)
        if err is not None:
            yield err
            return
        yield from self.verify_loop_operands(loop)

    def verify_loop_operands(self, loop: Operation | None) -> VerifyResult:
        """Checks of an early exit against `loop` (None: outside any) once its parents are right."""
        return iter(())


def _enclosing_loop(op: Operation, allowed: tuple[str, ...]) -> tuple[Operation | None, OpError | None]:
    """Walk out through `if`s to the loop an early exit belongs to (NVIDIA's ancestor check)."""
    parent = op.parent_op()
    while parent is not None and parent.name == "cuda_tile.if":
        parent = parent.parent_op()
    if parent is None or parent.name in allowed:
        return parent, None
    chain = ", ".join(f"'{n}'" for n in (*allowed, "cuda_tile.if"))
    return None, OpError(
        f"can only be nested within a ancestor chain of {chain} operations",
        ((parent, "see unexpected ancestor operation"),),
    )


@tile_op
class YieldOp(_Terminator):
    """Ends an `if` branch or a reduce/scan combiner, handing values to the parent op.

    ```mlir
    yield %sum : tile<f32>
    ```
    """

    name = "cuda_tile.yield"
    PARENTS: ClassVar[tuple[str, ...]] = ("cuda_tile.if", "cuda_tile.reduce", "cuda_tile.scan")
    IMPLICIT_IN: ClassVar[tuple[str, ...]] = ("cuda_tile.if",)


@tile_op
class ContinueOp(_Terminator):
    """Ends the current iteration of the enclosing `for` or `loop`, passing the next iteration's values.

    ```mlir
    continue %acc : tile<f32>
    ```
    """

    name = "cuda_tile.continue"
    PARENTS: ClassVar[tuple[str, ...]] = ("cuda_tile.for", "cuda_tile.if", "cuda_tile.loop")
    IMPLICIT_IN: ClassVar[tuple[str, ...]] = ("cuda_tile.for", "cuda_tile.loop")
    LOOPS: ClassVar[tuple[str, ...]] = ("cuda_tile.for", "cuda_tile.loop")

    def verify_loop_operands(self, loop: Operation | None) -> VerifyResult:
        if not isinstance(loop, _LoopOp):
            return
        got = value_types(self.operands)
        # a loop's continue passes its iter_values, a for's its results
        kind, what, want = (
            ("loop", "iter_values", value_types(loop.initValues))
            if isinstance(loop, LoopOp)
            else ("for", "return types", value_types(loop.results))
        )
        if want != got:
            yield RawError(
                f"`{kind}` is missing a valid terminator. `continue` op should have operand types that match "
                f"the parent loop {what}: ({types_text(want)}), but found: ({types_text(got)})"
            )


@tile_op
class BreakOp(_Terminator):
    """Leaves the enclosing `loop`; its operands become the loop's results.

    ```mlir
    break %x : tile<i32>
    ```
    """

    name = "cuda_tile.break"
    PARENTS: ClassVar[tuple[str, ...]] = ("cuda_tile.if", "cuda_tile.loop")
    LOOPS: ClassVar[tuple[str, ...]] = ("cuda_tile.loop",)

    def verify_loop_operands(self, loop: Operation | None) -> VerifyResult:
        if loop is not None:
            got = value_types(self.operands)
            want = value_types(loop.results)
            if got != want:
                yield OpError(
                    "operand types must correspond to the parent loop result types: "
                    f"({types_text(got)}) vs ({types_text(want)})"
                )


def _ensure_yield(region: Region) -> None:
    ensure_terminator(region, lambda: _new(YieldOp))


def _ensure_continue(region: Region) -> None:
    ensure_terminator(region, lambda: _new(ContinueOp))


@tile_op
class IfOp(CudaTileOp):
    """Runs the `then` region when the scalar condition holds, else the optional `else` region.

    ```mlir
    %r = if %c -> (tile<i32>) {
      yield %a : tile<i32>
    } else {
      yield %b : tile<i32>
    }
    ```
    """

    name = "cuda_tile.if"
    condition = operand_def()
    results_ = var_result_def()
    thenRegion = region_def()
    elseRegion = region_def()
    DEFAULT_DIALECT = "cuda_tile"
    TYPE_CONSTRAINTS = {"condition": C.SCALAR_I1}

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        state.spans["condition"] = p.span()
        state.operands["condition"] = [p.parse_value_use()]
        state.operand_types["condition"] = [I1_SCALAR]
        types = []
        if p.accept_punct("->"):
            p.expect_punct("(")
            if not p.at_punct(")"):
                types = parse_type_list(p)
            p.expect_punct(")")
        state.result_types["results_"] = types
        then = _nested_region(p)
        _ensure_yield(then)
        other = Region()
        if p.accept_keyword("else"):
            other = _nested_region(p)
            _ensure_yield(other)
        state.regions["thenRegion"] = [then]
        state.regions["elseRegion"] = [other]
        _trailing_attr_dict(p, state)

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, IfOp)
        out = " " + pr.value_name(op.condition)
        if op.results:
            out += " -> (" + ", ".join(pr.type(r.type) for r in op.results) + ")"
        out += " " + _region_text(pr, op.thenRegion)
        if not is_empty_region(op.elseRegion):
            out += " else " + _region_text(pr, op.elseRegion)
        return out + _attr_suffix(pr, op)

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for i, r in enumerate(self.results):
            err = view_kind_error("result type", i, r.type)
            if err is not None:
                yield err
                return
        if is_empty_region(self.thenRegion):
            yield OpError("must define then branch")
            return
        want = value_types(self.results)
        for label, region in (("then", self.thenRegion), ("else", self.elseRegion)):
            block = region.blocks.first
            last = block.last_op if block is not None else None
            if not isinstance(last, YieldOp):
                continue
            got = value_types(last.operands)
            if want and not got:
                yield OpError(f"has return type of {types_text(want)} but {label} branch does not yield anything")
                return
            if not want and got:
                yield OpError(f"does not return a value, but {label} branch yields {types_text(got)}")
                return
            if want != got:
                yield OpError(
                    f"type does not match yield type, {label} branch yields {types_text(got)} "
                    f"but op result type is {types_text(want)}"
                )
                return
        if is_empty_region(self.elseRegion) and want:
            yield OpError("has non-empty return type, must define else branch")
            return
        for index, (name, region) in enumerate((("thenRegion", self.thenRegion), ("elseRegion", self.elseRegion))):
            if index == 1 and is_empty_region(region):
                continue
            err = check_single_block(self, region, index, name) or check_terminator(
                region, ("cuda_tile.yield", "cuda_tile.continue", "cuda_tile.break", "cuda_tile.return")
            )
            if err is not None:
                yield err
                return


class _LoopOp(CudaTileOp):
    """for and loop: loop-carried values in and out, and a single-block body that ends in
    continue (or, in a loop, break)."""

    initValues = var_operand_def()
    resultValues = var_result_def()
    body = region_def()
    DEFAULT_DIALECT: ClassVar[str | None] = "cuda_tile"
    TERMINATORS: ClassVar[tuple[str, ...]] = ("cuda_tile.continue",)
    FIRST_CARRIED: ClassVar[int] = 0  # the first block argument that carries a value

    @staticmethod
    def parse_body(
        p: SyntaxParser, state: OpState, inits: list, iter_types: list, result_types: list, args: list[ArgDef]
    ) -> None:
        """The end of the syntax: the loop-carried operands and results, the body, an attr-dict."""
        state.operands["initValues"] = inits
        state.operand_types["initValues"] = iter_types
        state.result_types["resultValues"] = result_types
        body = _nested_region(p, args)
        _ensure_continue(body)
        state.regions["body"] = [body]
        _trailing_attr_dict(p, state)

    def body_args(self) -> list[BlockArgument]:
        block = self.body.blocks.first
        return list(block.args) if block is not None else []

    @staticmethod
    def iter_values_text(pr: SyntaxPrinter, args: list[BlockArgument], inits: Sequence[SSAValue]) -> str:
        return ", ".join(f"{pr.value_name(a)} = {pr.value_name(v)}" for a, v in zip(args, inits))

    def verify_tile(self, ctx: VerifyContext) -> VerifyResult:
        for item in self.verify_carried_types():
            yield item
            return
        err = check_single_block(self, self.body, 0, "region")
        if err is not None:
            yield err
            return
        block = self.body.blocks.first
        assert block is not None
        for item in self.verify_block_args(block):
            yield item
            return
        err = check_loop_values(
            list(self.initValues), list(block.args[self.FIRST_CARRIED :]), list(self.results)
        ) or check_terminator(self.body, self.TERMINATORS)
        if err is not None:
            yield err

    def verify_carried_types(self) -> VerifyResult:
        """Checks before the body's."""
        return iter(())

    def verify_block_args(self, block: Block) -> VerifyResult:
        """Checks of the block arguments before the loop-carried ones."""
        return iter(())


@tile_op
class ForOp(_LoopOp):
    """Counts an induction variable from `lb` up to (excluding) `ub` by `step`, carrying values between iterations.

    ```mlir
    %s = for %i in (%lb to %ub, step %c1) : tile<i32> iter_values(%acc = %zero) -> (tile<f32>) {
      continue %acc : tile<f32>
    }
    ```
    """

    name = "cuda_tile.for"
    RESULT_NAMES = ("for",)
    lowerBound = operand_def()
    upperBound = operand_def()
    step = operand_def()
    unsignedCmp = opt_prop_def(builtin.UnitAttr)
    TYPE_CONSTRAINTS = {"lowerBound": C.SCALAR_INT, "upperBound": C.SCALAR_INT, "step": C.SCALAR_INT}
    TYPE_RULES = (C.AllTypesMatch("lowerBound", "upperBound", "step"),)
    FIRST_CARRIED: ClassVar[int] = 1

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        if p.at_keyword("unsigned"):
            state.spans["unsignedCmp"] = p.span()
            p.advance()
            state.properties["unsignedCmp"] = builtin.UnitAttr()
        if p.kind != lexer.VALUE or "#" in p.tok:
            p.fail("expected SSA operand")
        iv = (p.tok, p.span())
        p.advance()
        p.expect_keyword("in")
        p.expect_punct("(")
        bounds = [p.parse_value_use()]
        p.expect_keyword("to")
        bounds.append(p.parse_value_use())
        p.expect_punct(",")
        p.expect_keyword("step")
        bounds.append(p.parse_value_use())
        p.expect_punct(")")
        p.expect_punct(":")
        iv_type = parse_cuda_type(p)
        for key, use in zip(("lowerBound", "upperBound", "step"), bounds):
            state.operands[key] = [use]
            state.operand_types[key] = [iv_type]
            state.spans[key] = use.span
        names: list = []
        inits: list = []
        types: list = []
        if p.accept_keyword("iter_values"):
            names, inits = parse_binding_list(p)
            p.expect_punct("->")
            p.expect_punct("(")
            types = parse_type_list(p)
            p.expect_punct(")")
            if len(types) != len(inits):
                p.fail(
                    "mismatch in number of loop-carried values and defined values",
                    state.name_span,
                )
        cls.parse_body(p, state, inits, types, types, [ArgDef(iv[0], iv_type, iv[1]), *region_args(names, types)])

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, ForOp)
        args = op.body_args()
        iv = pr.value_name(args[0]) if args else "%iv"
        out = " unsigned" if "unsignedCmp" in op.properties else ""
        out += (
            f" {iv} in ({pr.value_name(op.lowerBound)} to {pr.value_name(op.upperBound)}, "
            f"step {pr.value_name(op.step)}) : {pr.type(op.lowerBound.type)}"
        )
        if op.initValues:
            out += f" iter_values({cls.iter_values_text(pr, args[1:], op.initValues)}) -> ("
            out += ", ".join(pr.type(r.type) for r in op.results) + ")"
        return out + " " + _region_text(pr, op.body) + _attr_suffix(pr, op, {"unsignedCmp"})

    def verify_carried_types(self) -> VerifyResult:
        if value_types(self.initValues) != value_types(self.results):
            yield OpError("failed to verify that all of {initValues, resultValues} have same type")

    def verify_block_args(self, block: Block) -> VerifyResult:
        if not block.args:
            yield OpError("expected at least one block argument for induction variable")
            return
        iv = block.args[0].type
        if iv != self.lowerBound.type:
            yield OpError(
                "expected induction variable to be same type as bounds and step: "
                f"{types_text([iv])} vs {types_text([self.lowerBound.type])}"
            )


@tile_op
class LoopOp(_LoopOp):
    """Repeats its body until a `break`; `continue` starts the next iteration with new values.

    ```mlir
    %r = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {
      break %i : tile<i32>
    }
    ```
    """

    name = "cuda_tile.loop"
    TERMINATORS: ClassVar[tuple[str, ...]] = ("cuda_tile.continue", "cuda_tile.break")

    @classmethod
    def parse_custom(cls, p: SyntaxParser, state: OpState) -> None:
        names: list = []
        inits: list = []
        iter_types: list = []
        result_types: list = []
        if p.accept_keyword("iter_values"):
            names, inits = parse_binding_list(p)
            p.expect_punct(":")
            iter_types = parse_type_list(p)
            if len(iter_types) != len(inits):
                p.fail("found different number of iter_values and types")
            if p.accept_punct("->"):
                result_types = parse_type_list(p)
        elif p.accept_punct(":"):
            result_types = parse_type_list(p)
        cls.parse_body(p, state, inits, iter_types, result_types, region_args(names, iter_types))

    @classmethod
    def print_custom(cls, pr: SyntaxPrinter, op: Operation) -> str:
        assert isinstance(op, LoopOp)
        args = op.body_args()
        out = ""
        if op.initValues:
            out += f" iter_values({cls.iter_values_text(pr, args, op.initValues)})"
        if op.initValues or op.results:
            out += " :"
        if op.initValues:
            out += " " + ", ".join(pr.type(v.type) for v in op.initValues)
            if op.results:
                out += " ->"
        if op.results:
            out += " " + ", ".join(pr.type(r.type) for r in op.results)
        return out + " " + _region_text(pr, op.body) + _attr_suffix(pr, op)


OPS: list[type[Operation]] = [
    IfOp,
    ForOp,
    LoopOp,
    YieldOp,
    ContinueOp,
    BreakOp,
    *control_debug.OPS,
    *control_assume.OPS,
]
