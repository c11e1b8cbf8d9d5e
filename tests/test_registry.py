"""The fast op constructor must build exactly what xDSL's own `create` builds."""

from __future__ import annotations

from xdsl.dialects import builtin
from xdsl.ir import Block, Region

from tile_lsp.compiler.dialects import registry
from tile_lsp.compiler.dialects.cuda_tile import types as ct


def test_create_op_matches_xdsl_create():
    cls = registry.op_class("cuda_tile.addi")
    assert cls is not None
    t = ct.tile((4,), builtin.i32)
    block = Block(arg_types=[t, t])
    a, b = block.args
    props: dict = {}
    fast = registry.create_op(cls, [a, b], [t], dict(props), {"x": builtin.UnitAttr()}, [])
    slow = cls.create(operands=[a, b], result_types=[t], properties=dict(props), attributes={"x": builtin.UnitAttr()})
    assert fast.is_structurally_equivalent(slow)
    assert {u.operation for u in a.uses} == {fast, slow}
    assert fast.results[0].op is fast and fast.results[0].index == 0
    assert fast.location == slow.location
    assert list(fast.successors) == list(slow.successors) == []


def test_create_op_attaches_regions_and_defaults():
    cls = registry.op_class("cuda_tile.module")
    assert cls is not None
    region = Region(Block())
    op = registry.create_op(cls, [], [], {"sym_name": builtin.StringAttr("m")}, {}, [region])
    assert op.regions == (region,) and region.parent is op
    assert op.parent is None and op.next_op is None
