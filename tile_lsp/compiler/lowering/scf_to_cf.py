"""scf -> blocks and cf branches (the first step of the nvvm stage's std lowering): `scf.for`
becomes header/body/exit blocks, `scf.if` then/else/join blocks, `scf.while` before/after/exit
blocks; the cf branches are lowered to llvm afterwards with everything else.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tile_lsp.compiler.lowering.common import LoweringContext, LoweringPattern
from tile_lsp.compiler.lowering.llvm_build import make_op, op_class


def _split_after(op: Operation, result_types: Sequence[Attribute]) -> Block:
    """Split `op`'s block after `op`; the continuation block gets one argument per result."""
    block = op.parent_block()
    assert block is not None
    after = op.next_op
    assert after is not None
    cont = block.split_before(after, arg_types=list(result_types))
    return cont


def _move_region_blocks(region: Region, before: Block) -> list[Block]:
    blocks = list(region.blocks)
    parent = before.parent
    assert parent is not None
    for b in blocks:
        region.detach_block(b)
        parent.insert_block_before(b, before)
    return blocks


class LowerScf(LoweringPattern):
    """`scf.for` / `scf.if` / `scf.while` -> blocks joined by `cf.br` / `cf.cond_br`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name == "scf.for":
            self._for(op, rewriter)
        elif op.name == "scf.if":
            self._if(op, rewriter)
        elif op.name == "scf.while":
            self._while(op, rewriter)

    @staticmethod
    def _cf(name: str, operands: Sequence[SSAValue], successors: Sequence[Block], sizes: list[int] | None = None
            ) -> Operation:

        cls = op_class(name)
        props: dict[str, Attribute] = {}
        if sizes is not None:
            props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
        return cls.create(operands=list(operands), successors=list(successors), properties=props)

    def _for(self, op: Operation, rewriter: PatternRewriter) -> None:
        lb, ub, step, *inits = op.operands
        cont = _split_after(op, [r.type for r in op.results])
        body = op.regions[0].blocks.first
        assert body is not None
        header = Block(arg_types=[a.type for a in body.args])
        parent = cont.parent
        assert parent is not None
        parent.insert_block_before(header, cont)
        blocks = _move_region_blocks(op.regions[0], cont)
        # header: compare the induction variable with the bound.
        unsigned = "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes
        cmp = make_op("arith.cmpi", [header.args[0], ub], [IntegerType(1)],
                      {"predicate": IntegerAttr(6 if unsigned else 2, i64)})
        header.add_op(cmp)
        header.add_op(self._cf("cf.cond_br", [cmp.results[0], *header.args, *header.args[1:]],
                               [body, cont], [1, len(header.args), len(header.args) - 1]))
        for block in blocks:
            term = block.last_op
            if term is not None and term.name == "scf.yield":
                nxt = make_op("arith.addi", [body.args[0], step], [body.args[0].type])
                block.insert_op_before(nxt, term)
                br = self._cf("cf.br", [nxt.results[0], *term.operands], [header])
                block.insert_op_before(br, term)
                rewriter.erase(term)
        rewriter.replace(op, self._cf("cf.br", [lb, *inits], [header]), list(cont.args))

    def _if(self, op: Operation, rewriter: PatternRewriter) -> None:
        cont = _split_after(op, [r.type for r in op.results])
        then_blocks = _move_region_blocks(op.regions[0], cont)
        else_blocks = _move_region_blocks(op.regions[1], cont) if op.regions[1].blocks else []
        for block in [*then_blocks, *else_blocks]:
            term = block.last_op
            if term is not None and term.name == "scf.yield":
                block.insert_op_before(self._cf("cf.br", list(term.operands), [cont]), term)
                rewriter.erase(term)
        else_dest = else_blocks[0] if else_blocks else cont
        br = self._cf("cf.cond_br", [op.operands[0]], [then_blocks[0], else_dest], [1, 0, 0])
        rewriter.replace(op, br, list(cont.args))

    def _while(self, op: Operation, rewriter: PatternRewriter) -> None:
        cont = _split_after(op, [r.type for r in op.results])
        before = _move_region_blocks(op.regions[0], cont)
        after = _move_region_blocks(op.regions[1], cont)
        for block in before:
            term = block.last_op
            if term is not None and term.name == "scf.condition":
                cond, *vals = term.operands
                block.insert_op_before(
                    self._cf("cf.cond_br", [cond, *vals, *vals], [after[0], cont], [1, len(vals), len(vals)]), term)
                rewriter.erase(term)
        for block in after:
            term = block.last_op
            if term is not None and term.name == "scf.yield":
                block.insert_op_before(self._cf("cf.br", list(term.operands), [before[0]]), term)
                rewriter.erase(term)
        rewriter.replace(op, self._cf("cf.br", list(op.operands), [before[0]]), list(cont.args))


def scf_patterns(lctx: LoweringContext) -> list[RewritePattern]:
    """Structured control flow -> cf blocks (run before `std_patterns`)."""
    return [LowerScf(lctx)]


__all__ = ["LowerScf", "scf_patterns"]
