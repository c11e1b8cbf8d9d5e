"""Stage 3 structured control flow (`tileaa_to_gpu.py`): `for` -> scf.for, `if` -> scf.if,
`loop` -> scf.while, with loop-carried tiles as flattened slot values (all of it uniform), and
early exits (`continue`/`break` inside nested ifs, a `return` inside an if or a loop) as exit
states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.lowering.gpu_core import (
    Failed,
    KernelConverter,
    Token,
    Unsupported,
    Value,
    unsupported_message,
    zero_value,
)

# -- structured control flow ------------------------------------------------------------------


def _writes_memory(op: Operation) -> bool:
    return any(o.name in _WRITERS for o in op.walk())


_WRITERS = ("nv_tileaa.store", "nv_tileaa.store_view", "nv_tileaa.atomic_cas", "nv_tileaa.atomic_rmw",
            "nv_tileaa.atomic_red_view", "nv_tileaa.multimem_reduce_view", "nv_tileaa.multimem_store_view")


def region_body(cv: KernelConverter, op: Operation, region: Region, args: Sequence[Value], into: Block,
                terminator: str) -> None:
    """Converts `region`'s one block into `into` (its arguments already mapped to `args`); the
    `nv_tileaa.<terminator>` at its end becomes scf.yield of the flattened values."""
    if len(region.blocks) != 1:
        raise Unsupported(op, "a region with several blocks")
    old = region.blocks[0]
    body_ops = list(old.ops)
    last = body_ops[-1] if body_ops else None
    if last is None or last.name != f"nv_tileaa.{terminator}":
        raise Unsupported(last or op, "a region that does not end in " + terminator)
    for o, n in zip(old.args, args, strict=True):
        cv.values[o] = n
    outer, loc = cv.block, cv.loc
    cv.block = into
    try:
        for inner in body_ops[:-1]:
            cv.convert_one(inner)
        cv.loc = last.location
        if any(isinstance(cv.values.get(x), Failed) for x in last.operands):
            cv.failed = True
            return
        flat: list[SSAValue] = []
        for x in last.operands:
            flat.extend(cv.flatten(last, x))
        cv.emit(scf.YieldOp(*flat))
    finally:
        cv.block, cv.loc = outer, loc


# -- early exits: `continue` / `break` inside nested ifs, and `loop` --------------------------
#
# A region that may leave early computes an *exit state*: [kind, yielded..., next..., result...]
# where kind is 0 (fell through to its `yield`), 1 (`continue` with the next iteration's values)
# or 2 (`break` with the loop's results). An `if` whose regions may leave becomes an scf.if that
# returns its state, and the ops after it run inside `scf.if kind == 0`. All of it is uniform.
#
# A `return` inside a loop (the cuda_tile verifier rejects it, cuTile rewrites it into a flag,
# but stage 3 does not rely on that) is kind 3 in the loop's frame: it ends the loop (scf.while:
# the condition fails; scf.for: a loop-carried kind makes the remaining iterations skip their
# body), the loop hands its kind out, and the ops after the loop run under `scf.if` as after an
# early-exit `if`, with kind 3 in an enclosing loop's frame and 2 (leave) in the kernel's.

_EXITS = ("nv_tileaa.continue", "nv_tileaa.break", "nv_tileaa.return")
_LOOPS = ("nv_tileaa.for", "nv_tileaa.loop")
_RETURN = 3


def may_return(op: Operation) -> bool:
    """Whether a loop `op` holds an `nv_tileaa.return` (at any depth)."""
    return op.name in _LOOPS and any(inner.name == "nv_tileaa.return" for inner in op.walk())


def has_early_exit(op: Operation) -> bool:
    """Whether a region of `op` holds a continue/break that is not its own last op, or a loop
    that may return."""
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if inner.name in _EXITS and inner is not block.last_op:
                    return True
                if inner.name in _EXITS and op.name == "nv_tileaa.if":
                    return True
                if inner.name == "nv_tileaa.if" and has_early_exit(inner):
                    return True
                if may_return(inner):
                    return True
    return False


@dataclass
class _Frame:
    """The loop that early exits leave: its iteration types and result types (nv_tileaa)."""

    op: Operation
    iter_types: list[Attribute]
    result_types: list[Attribute]
    flat_iter: list[Attribute]
    flat_results: list[Attribute]


def _zeros(cv: KernelConverter, types: Sequence[Attribute]) -> list[SSAValue]:
    return [zero_value(cv, t) for t in types]


def _flat_all(cv: KernelConverter, op: Operation, values: Sequence[SSAValue]) -> list[SSAValue]:
    flat: list[SSAValue] = []
    for x in values:
        flat.extend(cv.flatten(op, x))
    return flat


def _exit_seq(cv: KernelConverter, ops: list[Operation], frame: _Frame, yield_types: list[Attribute]) -> list[SSAValue]:
    """Convert `ops` (a region's ops, terminator included) into cv.block; returns the state."""
    for i, op in enumerate(ops):
        if op.name in ("nv_tileaa.return", "func.return"):  # (kind 2 leaves the kernel: frame is the func)
            if op.operands:
                raise Unsupported(op, "a kernel returns no values")
            code = 0 if op.name == "func.return" else 2 if frame.op.name == "func.func" else _RETURN
            return [cv.i32c(code), *_zeros(cv, yield_types), *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
        if op.name in ("nv_tileaa.continue", "nv_tileaa.break", "nv_tileaa.yield"):
            vals = _flat_all(cv, op, list(op.operands))
            if op.name == "nv_tileaa.yield":
                return [cv.i32c(0), *vals, *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
            if op.name == "nv_tileaa.continue":
                return [cv.i32c(1), *_zeros(cv, yield_types), *vals, *_zeros(cv, frame.flat_results)]
            if frame.op.name != "nv_tileaa.loop":
                raise Unsupported(op, "break out of a for loop")
            return [cv.i32c(2), *_zeros(cv, yield_types), *_zeros(cv, frame.flat_iter), *vals]
        state: list[SSAValue] | None = None
        if op.name == "nv_tileaa.if" and has_early_exit(op):
            cv.loc = op.location
            state = _exit_if(cv, op, frame)
        elif may_return(op):
            cv.loc = op.location
            kind = _returning_loop(cv, op)
            returned = cv.v(arith.CmpiOp(kind, cv.i32c(_RETURN), "eq"))
            leave = cv.i32c(2 if frame.op.name == "func.func" else _RETURN)
            state = [cv.v(arith.SelectOp(returned, leave, cv.i32c(0))),
                     *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
        if state is not None:
            kind = state[0]
            fall = cv.v(arith.CmpiOp(kind, cv.i32c(0), "eq"))
            outer = cv.block
            then_block, else_block = Block(), Block()
            cv.block = then_block
            rest = _exit_seq(cv, ops[i + 1:], frame, yield_types)
            cv.emit(scf.YieldOp(*rest))
            cv.block = else_block
            cv.emit(scf.YieldOp(kind, *_zeros(cv, yield_types), *state[1:]))
            cv.block = outer
            types = [i32, *yield_types, *frame.flat_iter, *frame.flat_results]
            guarded = cv.emit(scf.IfOp(fall, types, Region(then_block), Region(else_block)))
            return list(guarded.results)
        cv.convert_one(op)
        if cv.failed and any(isinstance(cv.values.get(r), Failed) for r in op.results):
            raise Unsupported(op, "an op before an early exit could not be converted")
    raise Unsupported(frame.op, "a region without a terminator")


def early_return_body(cv: KernelConverter, fn: func.FuncOp, body: Block) -> None:
    """A kernel body with a `return` inside an `if`: the ops after such an if run under
    `scf.if kind == 0` (the exit state of the loops above, with the kernel as the frame)."""
    try:
        _exit_seq(cv, list(body.ops), _Frame(fn, [], [], [], []), [])
    except Unsupported as exc:
        cv.lctx.error(exc.op, unsupported_message(cv.lctx, exc.op, exc.detail))
        cv.failed = True
        return
    cv.loc = body.last_op.location if body.last_op is not None else fn.location
    cv.kernel_return()


def _exit_if(cv: KernelConverter, op: Operation, frame: _Frame) -> list[SSAValue]:
    """An if whose regions may leave the loop: scf.if returning [kind, results..., next...,
    loop results...]; binds the if's results; returns [kind, next..., loop results...]."""
    cond = cv.scalar(op, op.operands[0])
    types, flat_types = _result_types(cv, op)
    blocks = []
    outer, loc = cv.block, cv.loc
    for region in (*op.regions[:2], *([Region()] * (2 - len(op.regions)))):
        block = Block()
        cv.block = block
        ops = list(region.blocks[0].ops) if region.blocks else []
        if not ops:
            ops = []
            state = [cv.i32c(0), *_zeros(cv, flat_types), *_zeros(cv, frame.flat_iter), *_zeros(cv, frame.flat_results)]
        else:
            state = _exit_seq(cv, ops, frame, flat_types)
        cv.emit(scf.YieldOp(*state))
        blocks.append(block)
    cv.block, cv.loc = outer, loc
    result_types = [i32, *flat_types, *frame.flat_iter, *frame.flat_results]
    new = cv.emit(scf.IfOp(cond, result_types, Region(blocks[0]), Region(blocks[1])))
    results = list(new.results)
    n = len(flat_types)
    for new_res, old_res in zip(cv.unflatten(types, results[1 : 1 + n], _writes_memory(op)), op.results, strict=True):
        cv.values[old_res] = new_res
    return [results[0], *results[1 + n:]]


def _returning_loop(cv: KernelConverter, op: Operation) -> SSAValue:
    """A `for`/`loop` that holds a `return`: converted, its results bound; gives the i32 kind it
    ended with (`_RETURN` when the kernel is to return)."""
    kind = _loop_or_for(cv, op, returns=True)
    assert kind is not None
    return kind


def _loop_or_for(cv: KernelConverter, op: Operation, *, returns: bool) -> SSAValue | None:
    if op.name == "nv_tileaa.loop":
        return _while(cv, op, returns)
    return _scf_for(cv, op, returns)


def _loop(cv: KernelConverter, op: Operation) -> None:
    _check_no_return(op)
    _while(cv, op, False)


def _check_no_return(op: Operation) -> None:
    """A loop that may return is converted by `_exit_seq`, which guards what follows it; one
    reached otherwise would drop the return: refuse it."""
    if may_return(op):
        raise Unsupported(op, "a return from inside a loop here")


def _while(cv: KernelConverter, op: Operation, returns: bool) -> SSAValue | None:
    """`loop` -> scf.while: the before region runs the body and computes its exit state; the
    loop goes on while the kind is not `break` (nor `_RETURN` when `returns`). scf.condition
    carries the next iteration's values and the results side by side (the after region passes
    the first on, the loop's results are the second), then, when `returns`, the kind."""
    inits = list(op.operands)
    iter_types = [x.type for x in inits]
    result_types = [r.type for r in op.results]
    flat_iter: list[Attribute] = []
    for t in iter_types:
        flat_iter.extend(cv.flat_types(op, t))
    flat_results: list[Attribute] = []
    for t in result_types:
        flat_results.extend(cv.flat_types(op, t))
    frame = _Frame(op, iter_types, result_types, flat_iter, flat_results)
    flat_inits = _flat_all(cv, op, inits)
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise Unsupported(op, "loop body")
    old = op.regions[0].blocks[0]
    before = Block(arg_types=flat_iter)
    dirty = _writes_memory(op)
    for o, value in zip(old.args, cv.unflatten(iter_types, list(before.args), dirty), strict=True):
        cv.values[o] = value
    outer, loc = cv.block, cv.loc
    cv.block = before
    extra = [i32] if returns else []
    try:
        state = _exit_seq(cv, list(old.ops), frame, [])
        kind = state[0]
        n = len(flat_iter)
        nexts, outs = state[1 : 1 + n], state[1 + n :]
        going = cv.v(arith.CmpiOp(kind, cv.i32c(2), "ult" if returns else "ne"))  # kinds 0, 1 go on
        cv.emit(scf.ConditionOp(going, *nexts, *outs, *([kind] if returns else [])))
    finally:
        cv.block, cv.loc = outer, loc
    after = Block(arg_types=[*flat_iter, *flat_results, *extra])
    after.add_op(scf.YieldOp(*after.args[: len(flat_iter)]))
    loop = cv.emit(scf.WhileOp(flat_inits, [*flat_iter, *flat_results, *extra], Region(before), Region(after)))
    outs_new = list(loop.results)[len(flat_iter): len(flat_iter) + len(flat_results)]
    for new_res, old_res in zip(cv.unflatten(result_types, outs_new, dirty), op.results, strict=True):
        cv.values[old_res] = new_res
    return loop.results[-1] if returns else None


def _for(cv: KernelConverter, op: Operation) -> None:
    _check_no_return(op)
    _scf_for(cv, op, False)


def _scf_for(cv: KernelConverter, op: Operation, returns: bool) -> SSAValue | None:
    """`for` -> scf.for. When `returns`, an i32 kind is carried too: once an iteration ends
    with `_RETURN`, the following iterations skip their body (`scf.if kind != _RETURN`) and pass
    the values on; the loop gives that kind back."""
    lb, ub, step = (cv.scalar(op, x) for x in op.operands[:3])
    inits = list(op.operands[3:])
    flat_inits: list[SSAValue] = []
    for x in inits:
        flat_inits.extend(cv.flatten(op, x))
    types = [x.type for x in inits]
    flat_types: list[Attribute] = []
    for t in types:
        flat_types.extend(cv.flat_types(op, t))
    writes = _writes_memory(op)
    token_dirty = writes or any(isinstance(tok := cv.get(x), Token) and tok.after_write for x in inits)
    n = len(flat_types)
    body = Block(arg_types=[lb.type, *flat_types, *([i32] if returns else [])])
    iv = body.args[0]
    structured = [iv, *cv.unflatten(types, list(body.args[1 : 1 + n]), token_dirty)]
    if has_early_exit(op):
        frame = _Frame(op, types, types, flat_types, flat_types)
        old = op.regions[0].blocks[0]
        for o, value in zip(old.args, structured, strict=True):
            cv.values[o] = value
        outer, loc = cv.block, cv.loc
        cv.block = body
        try:
            if returns:
                live = cv.v(arith.CmpiOp(body.args[-1], cv.i32c(_RETURN), "ne"))
                run_block = Block()
                cv.block = run_block
                state = _exit_seq(cv, list(old.ops), frame, [])
                cv.emit(scf.YieldOp(*state[1 : 1 + n], state[0]))
                cv.block = body
                skip = Region(Block([scf.YieldOp(*body.args[1:])]))
                ran = cv.emit(scf.IfOp(live, [*flat_types, i32], Region(run_block), skip))
                cv.emit(scf.YieldOp(*ran.results))
            else:
                state = _exit_seq(cv, list(old.ops), frame, [])
                cv.emit(scf.YieldOp(*state[1 : 1 + n]))
        finally:
            cv.block, cv.loc = outer, loc
    else:
        region_body(cv, op, op.regions[0], structured, body, "continue")
    inits_all = [*flat_inits, *([cv.i32c(0)] if returns else [])]
    loop = cast(scf.ForOp, cv.emit(scf.ForOp(lb, ub, step, inits_all, Region(body))))
    results = list(loop.results)
    for new_res, old_res in zip(cv.unflatten(types, results[:n], token_dirty), op.results, strict=True):
        cv.values[old_res] = new_res
    return results[-1] if returns else None


def _result_types(cv: KernelConverter, op: Operation) -> tuple[list[Attribute], list[Attribute]]:
    """The op's result types, and the per-slot types they are carried as."""
    types = [r.type for r in op.results]
    return types, [flat for t in types for flat in cv.flat_types(op, t)]


def _if(cv: KernelConverter, op: Operation) -> None:
    cond = cv.scalar(op, op.operands[0])
    types, flat_types = _result_types(cv, op)
    blocks = []
    for region in op.regions[:2]:
        block = Block()
        if not region.blocks:
            block.add_op(scf.YieldOp())
        else:
            region_body(cv, op, region, [], block, "yield")
        blocks.append(block)
    while len(blocks) < 2:
        blocks.append(Block([scf.YieldOp()]))
    new = cv.emit(scf.IfOp(cond, flat_types, Region(blocks[0]), Region(blocks[1])))
    dirty = _writes_memory(op)
    for new_res, old_res in zip(cv.unflatten(types, list(new.results), dirty), op.results, strict=True):
        cv.values[old_res] = new_res



HANDLERS: dict[str, Callable[[KernelConverter, Operation], None]] = {
    "for": _for,
    "if": _if,
    "loop": _loop,
}
