"""Shared pieces of the region-carrying cuda_tile ops: type lists, `%a = %x` lists,
implicit terminators and the loop-carried value checks NVIDIA words once for all loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tile_lsp.compiler.dialects.cuda_tile import types as ct
from tile_lsp.compiler.dialects.cuda_tile.base import OpError
from tile_lsp.compiler.source import Span
from tile_lsp.compiler.syntax import lexer
from tile_lsp.compiler.syntax.interfaces import ArgDef, UseRef
from tile_lsp.compiler.syntax.types import long_type_str, parse_type

if TYPE_CHECKING:
    from tile_lsp.compiler.syntax.interfaces import SyntaxParser

# Ops with MLIR's Terminator trait in this dialect: an explicit one ends a block.
TERMINATOR_NAMES = frozenset({"cuda_tile.yield", "cuda_tile.continue", "cuda_tile.break", "cuda_tile.return"})


def parse_cuda_type(p: SyntaxParser) -> Attribute:
    """One type where NVIDIA's custom<CudaTileType> expects it (bare keyword or `!`)."""
    if p.kind not in (lexer.BARE, lexer.BANG):
        p.fail("expected valid keyword")
    return parse_type(p)


def parse_type_list(p: SyntaxParser) -> list[Attribute]:
    """`t1, t2, ...` with no delimiters (at least one type)."""
    types = [parse_cuda_type(p)]
    while p.accept_punct(","):
        types.append(parse_cuda_type(p))
    return types


def parse_binding_list(p: SyntaxParser) -> tuple[list[tuple[str, Span]], list[UseRef]]:
    """`(%a = %x, %b = %y)`: the region-side names and the outer values bound to them."""
    names: list[tuple[str, Span]] = []
    uses: list[UseRef] = []
    p.expect_punct("(")
    if p.accept_punct(")"):
        return names, uses
    while True:
        if p.kind != lexer.VALUE or "#" in p.tok:
            p.fail("expected SSA identifier")
        names.append((p.tok, p.span()))
        p.advance()
        p.expect_punct("=")
        uses.append(p.parse_value_use())
        if p.accept_punct(")"):
            return names, uses
        p.expect_punct(",")


def region_args(names: Sequence[tuple[str, Span]], types: Sequence[Attribute]) -> list[ArgDef]:
    return [ArgDef(n, t, s) for (n, s), t in zip(names, types)]


def ensure_terminator(region: Region, make: Callable[[], Operation]) -> None:
    """Append the implicit terminator MLIR's custom parsers add to an unterminated block."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks.last
    assert block is not None
    last = block.last_op
    if last is None or last.name not in TERMINATOR_NAMES:
        block.add_op(make())


def is_empty_region(region: Region) -> bool:
    """No blocks, or only empty ones (what a generic `{}` parses to)."""
    return all(b.first_op is None for b in region.blocks)


def types_text(types: Sequence[Attribute]) -> str:
    """A type list as MLIR streams it into a diagnostic: `'t1', 't2'`."""
    return ", ".join(f"'{long_type_str(t)}'" for t in types)


def value_types(values: Sequence[SSAValue]) -> list[Attribute]:
    return [v.type for v in values]


def is_tile_view(t: Attribute) -> bool:
    """partition_view and the other tiled views (everything `*_view` but tensor_view)."""
    name = getattr(t, "name", "")
    return isinstance(t, ct.PartitionViewType) or (
        name.startswith("cuda_tile.") and name.endswith("_view") and name != "cuda_tile.tensor_view"
    )


def view_kind_error(prefix: str, i: int, t: Attribute) -> OpError | None:
    if isinstance(t, ct.TensorViewType):
        return OpError(f"{prefix} {i} is a tensor_view, which is not supported")
    if is_tile_view(t):
        return OpError(f"{prefix} {i} is a tile view, which is not supported")
    return None


def check_loop_values(
    inits: Sequence[SSAValue], iter_args: Sequence[SSAValue], results: Sequence[SSAValue]
) -> OpError | None:
    """NVIDIA's checks of loop-carried values shared by `for` and `loop`."""
    if len(iter_args) != len(inits):
        return OpError(
            f"mismatch in number of region iterator values and loop iterator inits: {len(iter_args)} vs {len(inits)}"
        )
    for i, arg in enumerate(iter_args):
        err = view_kind_error("loop-carried value", i, arg.type)
        if err is not None:
            return err
    for i, (init, arg) in enumerate(zip(inits, iter_args)):
        if init.type != arg.type:
            return OpError(
                f"init value {i} and region iter_value {i} have different type: "
                f"'{long_type_str(init.type)}' != '{long_type_str(arg.type)}'"
            )
    for i, r in enumerate(results):
        err = view_kind_error("result type", i, r.type)
        if err is not None:
            return err
    return None


def check_single_block(op: Operation, region: Region, index: int, name: str) -> OpError | None:
    """SizedRegion<1>: ODS wording when a region does not hold exactly one block."""
    if len(region.blocks) != 1:
        return OpError(f"region #{index} ('{name}') failed to verify constraint: region with 1 blocks")
    return None


def check_terminator(region: Region, allowed: Sequence[str]) -> OpError | None:
    """SingleBlockImplicitTerminator: the block must end with one of `allowed`."""
    block = region.blocks.first
    if block is None:
        return None
    last = block.last_op
    if last is None:
        return OpError("empty block: expect at least a terminator")
    if last.name not in allowed:
        return OpError(f"expects regions to end with '{allowed[0]}', found '{last.name}'")
    return None

