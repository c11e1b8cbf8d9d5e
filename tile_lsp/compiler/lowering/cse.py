"""Common-subexpression elimination of pure ops (as MLIR's `-cse` does for them): an op with the
same name, operands, result types, properties and attributes as one that dominates it is
replaced by that one.

The gpu stage writes per-thread code slot by slot, and each slot recomputes its own index
arithmetic and constants; about a sixth of attention's gpu ops repeat another. Removing them
there makes every later stage (and its dump) smaller. LLVM would fold them anyway, so the PTX
does not change.

Dominance is taken from the structure: an op sees the ops before it in its block, and those of
the blocks around it; in a region of several blocks, the entry block's ops are seen by the
others (the entry dominates them), the other blocks' ops only by their own block. Nothing is
shared across an isolated-from-above op (functions, modules). Constants (pure ops without
operands) are also merged across blocks: the first one moves to the top of its function's entry
block, as MLIR's canonicalizer places them.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Block, Operation

# Ops without memory effects, convergence or side effects, safe to merge.
_PURE_PREFIXES = ("arith.", "math.", "index.")
_PURE_NAMES = frozenset({
    "llvm.mlir.constant", "llvm.mlir.addressof", "llvm.mlir.zero", "llvm.getelementptr", "llvm.add", "llvm.sub",
    "llvm.mul", "llvm.and", "llvm.or", "llvm.xor", "llvm.shl", "llvm.lshr", "llvm.ashr", "llvm.icmp",
    "llvm.zext", "llvm.sext", "llvm.trunc", "llvm.bitcast", "llvm.ptrtoint", "llvm.inttoptr",
    "llvm.extractvalue", "llvm.select", "vector.extract", "gpu.thread_id", "gpu.block_id", "gpu.block_dim",
    "gpu.grid_dim", "gpu.lane_id",
})
_ISOLATED = frozenset({"builtin.module", "gpu.module", "gpu.func", "func.func", "llvm.func"})
_FUNCTIONS = frozenset({"gpu.func", "func.func", "llvm.func"})


def is_pure(op: Operation) -> bool:
    name = op.name
    return not op.regions and bool(op.results) and (name.startswith(_PURE_PREFIXES) or name in _PURE_NAMES)


def _key(op: Operation) -> _Key | None:
    """What makes two pure ops the same: operands by identity (`id`: the values are alive while
    the pass runs; a Python-level `SSAValue.__hash__` per operand was a tenth of the pass).
    None when an attribute is unhashable (never merged)."""
    props = op.properties
    attrs = op.attributes
    results = op.results
    key = (
        op.name,
        tuple(map(id, op.operands)),
        results[0].type if len(results) == 1 else tuple(r.type for r in results),
        tuple(sorted(props.items())) if len(props) > 1 else tuple(props.items()),
        tuple(sorted(attrs.items())) if len(attrs) > 1 else tuple(attrs.items()),
    )
    try:
        return _Key(key)
    except TypeError:  # an unhashable attribute: never merged
        return None


class _Key(tuple):  # type: ignore[type-arg]
    """A key hashed once: (its hash, the key). The tables ask for it two or three times per op,
    and a plain tuple hashes every element again each time. Equal hashes still compare the keys
    (parameterless types, f16 and f32 among them, all hash alike)."""

    __slots__ = ()

    def __new__(cls, key: tuple[object, ...]) -> _Key:
        return tuple.__new__(cls, (hash(key), key))

    def __hash__(self) -> int:  # type: ignore[override]
        return self[0]  # type: ignore[no-any-return]


def eliminate_common_subexpressions(root: Operation, pure: Callable[[Operation], bool] = is_pure) -> int:
    """Merge repeated pure ops under `root` in place; returns how many ops were removed."""
    table: dict[_Key, Operation] = {}
    # The current function's constants (hoisted to its entry block) and the last one placed there.
    constants: dict[_Key, Operation] = {}
    hoist: list[Block | Operation | None] = [None]
    removed = 0

    def place_constant(op: Operation) -> None:
        at = hoist[0]
        if isinstance(at, Block):  # the first one: the top of the entry block
            first = at.first_op
            if first is not op:
                op.detach()
                if first is None:
                    at.add_op(op)
                else:
                    at.insert_op_before(op, first)
        elif isinstance(at, Operation) and at.next_op is not op:
            op.detach()
            block = at.parent_block()
            assert block is not None
            block.insert_op_after(op, at)
        hoist[0] = op

    def visit_block(block: Block) -> list[_Key]:
        nonlocal removed
        added: list[_Key] = []
        for op in list(block.ops):
            if op.regions:
                if op.name in _ISOLATED:
                    saved, saved_constants, saved_hoist = dict(table), dict(constants), hoist[0]
                    table.clear()
                    constants.clear()
                    is_function = op.name in _FUNCTIONS and bool(op.regions[0].blocks)
                    hoist[0] = op.regions[0].blocks[0] if is_function else None
                    visit_regions(op)
                    table.clear()
                    table.update(saved)
                    constants.clear()
                    constants.update(saved_constants)
                    hoist[0] = saved_hoist
                else:
                    visit_regions(op)
                continue
            if not pure(op):
                continue
            key = _key(op)
            if key is None:
                continue
            if not op.operands and hoist[0] is not None:  # a constant: one per function
                found = constants.get(key)
                if found is None:
                    constants[key] = op
                    place_constant(op)
                    continue
            else:
                found = table.get(key)
            if found is None:
                table[key] = op
                added.append(key)
                continue
            for old, new in zip(op.results, found.results, strict=True):
                old.replace_all_uses_with(new)
            op.detach()
            op.drop_all_references()  # (its results are unused now: nothing to erase them for)
            removed += 1
        return added

    def visit_regions(op: Operation) -> None:
        for region in op.regions:
            blocks = list(region.blocks)
            if not blocks:
                continue
            entry_keys = visit_block(blocks[0])
            for block in blocks[1:]:
                for key in visit_block(block):
                    table.pop(key, None)
            for key in entry_keys:
                table.pop(key, None)

    visit_regions(root)
    return removed


__all__ = ["eliminate_common_subexpressions", "is_pure"]
