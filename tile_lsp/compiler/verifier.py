"""Verification of a parsed module: ODS-style constraints, type rules, op checks.

Unlike MLIR, which stops at the first failure, every failing op is reported (the
first failure of each op, as MLIR would word it).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import Related
from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile.base import CudaTileOp, OpError, RawError, Warning_
from tile_lsp.compiler.dialects.cuda_tile.constraints import TypeConstraint
from tile_lsp.compiler.syntax.types import long_type_str
from tile_lsp.compiler.verify_context import VerifyContext


def verify_ops(ops: Iterable[Operation], ctx: VerifyContext, skip: set[Operation]) -> None:
    """Verify each op (and its nested ops); report each op's first failure."""
    for top in ops:
        for op in top.walk():
            if op in skip or not isinstance(op, CudaTileOp):
                continue
            try:
                verify_op(op, ctx)
            except Exception as exc:  # a verifier bug must not hide other diagnostics
                ctx.sink.error(ctx.span(op), f"internal verifier error on '{op.name}': {exc!r}")


def verify_op(op: CudaTileOp, ctx: VerifyContext) -> None:
    msg = registry.structure_error(op) if ctx.generic_ops is None or op in ctx.generic_ops else None
    if msg is not None:  # the op's own checks assume its declared shape
        ctx.sink.error(ctx.span(op), f"'{op.name}' op {msg}")
        return
    msg = _check_constraints(op)
    if msg is None:
        for rule in op.TYPE_RULES:
            msg = rule.verify(op)
            if msg is not None:
                break
    if msg is not None:
        ctx.sink.error(ctx.span(op), f"'{op.name}' op {msg}")
        return
    for item in op.verify_tile(ctx):
        if isinstance(item, OpError):
            notes = (Related(ctx.span(other), text) for other, text in item.notes)
            where = item.at if item.at is not None else op
            ctx.sink.error(ctx.span(where), f"'{where.name}' op {item.message}", *notes)
            return
        if isinstance(item, RawError):
            ctx.sink.error(ctx.span(op), item.message)
            return
        if isinstance(item, Warning_):
            ctx.sink.warning(ctx.span(op), item.message)


def _check_constraints(op: CudaTileOp) -> str | None:
    plan = _constraint_plan(type(op))
    if plan is None:
        return None
    operand_plan, result_plan = plan
    if operand_plan is None:
        msg = _check_groups(op, "operand", registry.op_fields(type(op)).operands)
    else:
        operands = op.operands
        msg = None
        for index, c in operand_plan:
            t = operands[index].type
            if not c(t):
                msg = f"operand #{index} must be {c.description}, but got '{long_type_str(t)}'"
                break
    if msg is not None:
        return msg
    if result_plan is None:
        return _check_groups(op, "result", registry.op_fields(type(op)).results)
    results = op.results
    for index, c in result_plan:
        t = results[index].type
        if not c(t):
            return f"result #{index} must be {c.description}, but got '{long_type_str(t)}'"
    return None


Plan = list[tuple[int, TypeConstraint]]


@cache
def _constraint_plan(cls: type[CudaTileOp]) -> tuple[Plan | None, Plan | None] | None:
    """Per class: (position, constraint) pairs when every operand (result) is single, so
    checks index the op directly; None for a side with optional or variadic groups."""
    constraints = cls.TYPE_CONSTRAINTS
    if not constraints:
        return None
    fields = registry.op_fields(cls)

    def plan(groups: list[tuple[str, str]]) -> Plan | None:
        if any(arity != "single" for _, arity in groups):
            return None
        return [(i, constraints[name]) for i, (name, _) in enumerate(groups) if name in constraints]

    return plan(fields.operands), plan(fields.results)


def _check_groups(op: CudaTileOp, what: str, groups: list[tuple[str, str]]) -> str | None:
    constraints = op.TYPE_CONSTRAINTS
    index = 0
    for name, arity in groups:
        c = constraints.get(name)
        values = getattr(op, name)
        group = list(values) if isinstance(values, list | tuple) else ([] if values is None else [values])
        for v in group:
            if c is not None and not c(v.type):
                description = c.description
                if arity == "variadic" and not description.startswith("variadic of "):
                    description = f"variadic of {description}"  # (ODS's words for a variadic group's member)
                return f"{what} #{index} must be {description}, but got '{long_type_str(v.type)}'"
            index += 1
    return None
