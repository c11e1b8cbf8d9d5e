"""xdsl_fast's op-building paths agree with xDSL's own, case by case, including the errors."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, builtin, llvm, scf
from xdsl.dialects.builtin import i1, i32
from xdsl.ir import Block, Region
from xdsl.irdl import operations as irdl_ops
from xdsl.irdl.operations import VarIRConstruct

from tile_lsp.compiler.mlir import xdsl_fast

_DEST, _OTHER = Block(arg_types=[i32]), Block()


def _args():
    block = Block(arg_types=[i32, i32, i1])
    return block, block.args


def test_installed_by_the_compiler_packages() -> None:
    import tile_lsp.compiler.lowering  # noqa: F401

    assert irdl_ops.irdl_build_arg_list is xdsl_fast.build_arg_list
    assert irdl_ops.irdl_build_operations_arg is xdsl_fast.build_operations_arg
    assert irdl_ops.irdl_op_init is xdsl_fast.op_init


@pytest.mark.parametrize(
    "args",
    [
        lambda a: [a[0], a[1]],
        lambda a: [[a[0]], a[1]],  # a one-element list for a single definition
        lambda a: [a[0]],  # too few
        lambda a: [None, a[1]],  # None for a non-optional definition
        lambda a: [(a[0], a[1]), a[1]],  # a sequence for a single definition
    ],
)
def test_build_arg_list_matches_xdsl(args) -> None:
    _, values = _args()
    defs = arith.AddiOp.get_irdl_definition().operands
    given = args(values)

    def run(fn):
        try:
            return fn(VarIRConstruct.OPERAND, given, defs, "prefix: ")
        except ValueError as exc:
            return ("error", str(exc))

    assert run(xdsl_fast.build_arg_list) == run(xdsl_fast.ORIGINAL_BUILD_ARG_LIST)


def test_variadic_and_optional_definitions_still_build() -> None:
    block, (a, b, c) = _args()
    ops = [
        arith.AddiOp(a, b),
        arith.SelectOp(c, a, b),
        scf.YieldOp(a, b),
        scf.YieldOp(),
        llvm.CallOp("f", a, b, return_type=i32),
        llvm.CallOp("g", return_type=None),
        scf.IfOp(c, [i32], Region(Block([scf.YieldOp(a)])), Region(Block([scf.YieldOp(b)]))),
    ]
    for op in ops:
        block.add_op(op)
        if not isinstance(op, llvm.CallOp):  # (its verifier wants a symbol table around it)
            op.verify()
    assert [len(op.operands) for op in ops] == [2, 3, 2, 0, 2, 0, 1]
    assert [len(op.results) for op in ops] == [1, 1, 0, 0, 1, 0, 1]
    assert ops[0].location == builtin.UNKNOWN_LOC


def _built_by(init, make):  # type: ignore[no-untyped-def]
    """What `make()` builds with `init` as irdl_op_init: its parts, or the error it raised."""
    saved = irdl_ops.irdl_op_init
    irdl_ops.irdl_op_init = init
    try:
        op = make()
    except (ValueError, TypeError) as exc:
        return ("error", type(exc).__name__, str(exc))
    finally:
        irdl_ops.irdl_op_init = saved
    return (
        op.name,
        list(op.operands),
        [r.type for r in op.results],
        dict(op.properties),
        dict(op.attributes),
        len(op.regions),
        list(op.successors),
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda a, b, c, op: arith.AddiOp(a, b),
        lambda a, b, c, op: arith.AddiOp(op, b),  # an op for its result
        lambda a, b, c, op: arith.AddiOp(a, b, overflow_flags=arith.IntegerOverflowAttr("nsw")),
        lambda a, b, c, op: arith.SelectOp(c, a, b),
        lambda a, b, c, op: arith.ConstantOp.from_int_and_width(7, 32),
        lambda a, b, c, op: arith.CmpiOp(a, b, "slt"),
        lambda a, b, c, op: llvm.CallOp("f", a, b, return_type=i32),  # variadic operands
        lambda a, b, c, op: llvm.CallOp("g", return_type=None),
        lambda a, b, c, op: scf.YieldOp(a, b),
        lambda a, b, c, op: scf.IfOp(c, [i32], Region(Block([scf.YieldOp(a)])), Region(Block([scf.YieldOp(b)]))),
        lambda a, b, c, op: llvm.GEPOp(a, [0], i32, pointer_type=llvm.LLVMPointerType()),
        lambda a, b, c, op: arith.AddiOp.create(operands=[a, b], result_types=[i32]),
        lambda a, b, c, op: arith.AddiOp.build(operands=[a, None], result_types=[i32]),  # an error
        lambda a, b, c, op: arith.AddiOp.build(operands=[a], result_types=[i32]),  # too few
        lambda a, b, c, op: scf.YieldOp(),  # an empty variadic
        lambda a, b, c, op: scf.YieldOp.build(operands=[(a, b)]),  # a tuple
        lambda a, b, c, op: scf.YieldOp.build(operands=[[a, op]]),  # an op among the values
        lambda a, b, c, op: llvm.CallIntrinsicOp("llvm.nvvm.x", [a, b], [i32]),  # operand segment sizes
        lambda a, b, c, op: llvm.CallIntrinsicOp("llvm.nvvm.y", [], []),
        lambda a, b, c, op: llvm.CallOp("h", a, return_type=None),  # an optional result left out
        lambda a, b, c, op: llvm.CallOp.build(operands=[[a], []], result_types=[[i32, i32]]),  # two for an optional
        lambda a, b, c, op: arith.AddiOp.build(operands=[[a], b], result_types=[i32]),  # a list for a single
        lambda a, b, c, op: llvm.BrOp(_DEST, a, b),  # a successor
        lambda a, b, c, op: llvm.CondBrOp(c, _DEST, [a], _OTHER, []),  # two, and operand segment sizes
        lambda a, b, c, op: llvm.BrOp.build(operands=[[a]], successors=[[_DEST, _OTHER]]),  # two for one
    ],
)
def test_op_init_builds_what_xdsl_builds(make) -> None:
    block, (a, b, c) = _args()
    first = arith.AddiOp(a, b)
    block.add_op(first)
    fast = _built_by(xdsl_fast.op_init, lambda: make(a, b, c, first))
    slow = _built_by(xdsl_fast.ORIGINAL_OP_INIT, lambda: make(a, b, c, first))
    assert fast == slow


def test_build_operations_arg_matches_xdsl() -> None:
    block, (a, b, _) = _args()
    op = arith.AddiOp(a, b)
    block.add_op(op)
    for given in (None, a, op, [a, op], (b,)):
        assert xdsl_fast.build_operations_arg(given) == xdsl_fast.ORIGINAL_BUILD_OPERATIONS_ARG(given)


def test_shared_attributes_equal_fresh_ones() -> None:
    from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, f32, i64

    assert xdsl_fast.int_type(32) is xdsl_fast.int_type(32) == IntegerType(32)
    assert xdsl_fast.int_attr(7, 32) is xdsl_fast.int_attr(7, i32) == IntegerAttr(7, 32)
    assert xdsl_fast.int_attr(-1, i64) == IntegerAttr(-1, i64) != xdsl_fast.int_attr(1, i64)
    sizes = DenseArrayBase.from_list(i32, [1, 0, 2])
    assert DenseArrayBase.from_list(i32, (1, 0, 2)) is sizes
    assert sizes == xdsl_fast.ORIGINAL_DENSE_FROM_LIST(i32, [1, 0, 2])
    floats = DenseArrayBase.from_list(f32, [1.0, 2.5])  # not shared, still right
    assert floats == xdsl_fast.ORIGINAL_DENSE_FROM_LIST(f32, [1.0, 2.5]) and list(floats.iter_values()) == [1.0, 2.5]


def test_attribute_hashes_are_computed_once_and_stay_equal() -> None:
    """Every attribute class gets a memoized hash: the same value as the generated one, equal for
    equal attributes, and not pickled (string hashes differ between processes)."""
    import pickle

    import tile_lsp.compiler.lowering  # noqa: F401  (installs it)

    assert getattr(builtin.VectorType.__hash__, "tile_lsp_cached", False)
    xdsl_fast.cache_attribute_hashes()  # (classes of dialects imported since)
    assert xdsl_fast.cache_attribute_hashes() == 0  # idempotent: nothing left to change
    a = builtin.VectorType(builtin.f32, [4, 8])
    b = builtin.VectorType(builtin.f32, [4, 8])
    first = hash(a)
    assert "_tile_lsp_hash" in a.__dict__ and hash(a) == first == hash(b)
    assert a == b and {a: 1}[b] == 1
    assert hash(builtin.VectorType(builtin.f32, [8, 4])) != first or builtin.VectorType(builtin.f32, [8, 4]) != a
    copy = pickle.loads(pickle.dumps(a))
    assert "_tile_lsp_hash" not in copy.__dict__ and copy == a and hash(copy) == first


def test_op_init_takes_the_short_way_for_plain_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    block, (a, b, c) = _args()

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("xDSL's own irdl_op_init was called")

    monkeypatch.setattr(xdsl_fast, "ORIGINAL_OP_INIT", refuse)
    monkeypatch.setattr(irdl_ops, "irdl_op_init", xdsl_fast.op_init)
    for op in (arith.AddiOp(a, b), arith.SelectOp(c, a, b), arith.CmpiOp(a, b, "slt"), llvm.ZExtOp(c, i32)):
        block.add_op(op)
        op.verify()
    for op in (scf.YieldOp(a, b), scf.YieldOp(), llvm.CallIntrinsicOp("llvm.nvvm.x", [a, b], [i32])):
        block.add_op(op)  # variadic operands, segment sizes: the short way too
        op.verify()
    dest = Block(arg_types=[i32])
    branch = llvm.BrOp(dest, a)  # successors too, each block knowing its use
    assert list(branch.successors) == [dest] and [use.operation for use in dest.uses] == [branch]
    branch.successors = []
    assert not list(dest.uses)
    with pytest.raises(AssertionError, match="own irdl_op_init"):
        scf.IfOp(c, [i32], Region(Block([scf.YieldOp(a)])), Region(Block([scf.YieldOp(b)])))  # regions: xDSL's way


def test_walk_ops_is_xdsl_walk_as_a_list() -> None:
    block, (a, b, c) = _args()
    inner = Region(Block([arith.AddiOp(a, b), scf.YieldOp(a)]))
    nested_if = scf.IfOp(c, [i32], inner, Region(Block([scf.YieldOp(b)])))
    outer = scf.IfOp(c, [i32], Region(Block([nested_if, scf.YieldOp(nested_if.results[0])])), Region(Block([scf.YieldOp(a)])))
    for op in (arith.AddiOp(a, b), outer, arith.SelectOp(c, a, b)):
        block.add_op(op)
    for root in (outer, nested_if, block.first_op, builtin.ModuleOp([])):
        assert root is not None
        assert xdsl_fast.walk_ops(root) == list(root.walk())
    assert len(xdsl_fast.walk_ops(outer)) == 7


def _operation_parts(op):  # type: ignore[no-untyped-def]
    return (
        (type(op).__name__, op.name),  # (UnregisteredOp.with_name makes a class per call)
        list(op.operands),
        [(use.operation, use.index) for use in op._operand_uses],
        [(r.type, r.op is op, r.index, r.first_use, r.name_hint) for r in op.results],
        dict(op.properties),
        dict(op.attributes),
        op.location,
        list(op.successors),
        len(op.regions),
        op.parent,
    )


@pytest.mark.parametrize(
    "make",
    [
        lambda a, b, c: arith.AddiOp(a, b),  # a property with a default (overflowFlags)
        lambda a, b, c: arith.AddiOp(
            a, b, overflow=arith.IntegerOverflowAttr(frozenset([arith.IntegerOverflowFlag.NSW]))
        ),
        lambda a, b, c: arith.ConstantOp.from_int_and_width(7, 32),  # no operands
        lambda a, b, c: arith.SelectOp(c, a, a),  # one value used twice
        lambda a, b, c: llvm.CallOp("f", a, b, return_type=i32),
        lambda a, b, c: scf.YieldOp(),  # nothing at all
        lambda a, b, c: scf.IfOp(c, [i32], Region(Block([scf.YieldOp(a)])), Region(Block([scf.YieldOp(b)]))),
        lambda a, b, c: builtin.UnregisteredOp.with_name("my.op").create(operands=[a], result_types=[i32]),
        lambda a, b, c: arith.AddiOp.create(operands=[a, b], result_types=[i32], attributes={"x": builtin.UnitAttr()}),
    ],
)
def test_operation_init_builds_what_xdsl_builds(make) -> None:
    """The same fields, and the operands' use lists in the same order (add_use prepends)."""
    from xdsl.ir import Operation

    def build(init):  # type: ignore[no-untyped-def]
        _, (a, b, c) = _args()
        saved = Operation.__init__
        Operation.__init__ = init
        try:
            op = make(a, b, c)
        finally:
            Operation.__init__ = saved
        chains = [[(u.operation is op, u.index) for u in v.uses] for v in (a, b, c)]
        return _operation_parts(op)[:1] + _operation_parts(op)[3:], [len(op.operands), op.operand_types], chains

    assert build(xdsl_fast.operation_init) == build(xdsl_fast.ORIGINAL_OPERATION_INIT)


def test_operation_init_is_installed_and_takes_values_in_use_order() -> None:
    from xdsl.ir import Operation

    import tile_lsp.compiler.lowering  # noqa: F401

    assert Operation.__init__ is xdsl_fast.operation_init
    _, (a, b, _) = _args()
    first = arith.AddiOp(a, b)
    second = arith.AddiOp(b, a)
    assert [(u.operation, u.index) for u in a.uses] == [(second, 1), (first, 0)]
    assert [(u.operation, u.index) for u in b.uses] == [(second, 0), (first, 1)]
    second.erase()
    assert [(u.operation, u.index) for u in a.uses] == [(first, 0)]


def test_values_getitem_matches_xdsl() -> None:
    from xdsl.ir.core import SSAValues

    _, values = _args()
    seq = SSAValues(values)
    for idx in (0, 2, -1, slice(1, None), slice(None, None, -1), True):
        fast, slow = xdsl_fast.values_getitem(seq, idx), xdsl_fast.ORIGINAL_VALUES_GETITEM(seq, idx)
        assert fast == slow and type(fast) is type(slow)
    for bad in (3, -4):
        with pytest.raises(IndexError):
            xdsl_fast.values_getitem(seq, bad)


def test_operation_init_keeps_the_implicit_builder_working() -> None:
    """xDSL's ImplicitBuilder adds each op built inside it to its block (through the
    Operation.__post_init__ it swaps in); scf.for's parser relies on it for the implied yield."""
    from xdsl.builder import ImplicitBuilder
    from xdsl.ir import Operation

    import tile_lsp.compiler.lowering  # noqa: F401

    assert Operation.__init__ is xdsl_fast.operation_init
    block, (a, b, _) = _args()
    with ImplicitBuilder(block):
        added = arith.AddiOp(a, b)
        yielded = scf.YieldOp.create()
    assert list(block.ops) == [added, yielded]


def _replace_with(replace, name_old: str | None, name_new: str | None):  # type: ignore[no-untyped-def]
    """Replace `a` by `b` where `a` is used twice by one op and once by another, and `b`
    already has a use: operands, every use list's order, and the name hint carried over."""
    _, (a, b, c) = _args()
    a.name_hint, b.name_hint = name_old, name_new
    twice = arith.AddiOp(a, a)
    other = arith.SubiOp(c, a)
    keeps = arith.MuliOp(b, c)
    replace(a, b)
    return (
        [[id(v) for v in op.operands] for op in (twice, other, keeps)],
        [[(id(u.operation), u.index) for u in v.uses] for v in (a, b, c)],
        a.first_use is None,
        b.name_hint,
        [id(x) for x in (a, b, c)],
    ), (a, b, c, twice, other, keeps)


@pytest.mark.parametrize("names", [(None, None), ("x", None), ("x", "y"), (None, "y")])
def test_replace_all_uses_with_matches_xdsl(names) -> None:
    from xdsl.ir import SSAValue

    import tile_lsp.compiler.lowering  # noqa: F401

    assert SSAValue.replace_all_uses_with is xdsl_fast.replace_all_uses_with

    def shape(replace):  # type: ignore[no-untyped-def]
        facts, (a, b, c, *ops) = _replace_with(replace, *names)
        where = {id(v): k for k, v in zip("abc", (a, b, c), strict=True)} | {id(o): i for i, o in enumerate(ops)}
        operands, uses, cleared, hint, _ = facts
        return ([[where[v] for v in row] for row in operands], [[(where[o], i) for o, i in row] for row in uses],
                cleared, hint)

    fast = shape(xdsl_fast.replace_all_uses_with)
    assert fast == shape(xdsl_fast.ORIGINAL_REPLACE_ALL_USES_WITH)
    assert fast[0] == [["b", "b"], ["c", "b"], ["b", "c"]]
    _, (a, b, *_) = _replace_with(xdsl_fast.replace_all_uses_with, *names)
    xdsl_fast.replace_all_uses_with(b, b)  # onto itself: nothing changes
    assert len(list(b.uses)) == 4


def test_attribute_post_init_checks_each_kind_once_and_still_rejects() -> None:
    from xdsl.ir import Attribute

    import tile_lsp.compiler.lowering  # noqa: F401

    assert Attribute.__post_init__ is xdsl_fast.attribute_post_init
    assert builtin.IntegerAttr(3, i32) == builtin.IntegerAttr(3, i32)
    assert builtin.IntegerAttr in xdsl_fast._CHECKED_KINDS

    class Neither(Attribute):  # neither Data nor ParametrizedAttribute: refused, every time
        name = "test.neither"

    for _ in range(2):
        with pytest.raises(TypeError, match="Data or ParametrizedAttribute"):
            Neither()
    assert Neither not in xdsl_fast._CHECKED_KINDS
    with pytest.raises(Exception) as fast_error:  # the verifier still runs (a width too small for 300)
        builtin.IntegerAttr(300, builtin.i8)
    with pytest.raises(Exception) as slow_error:
        saved = Attribute.__post_init__
        Attribute.__post_init__ = xdsl_fast.ORIGINAL_ATTRIBUTE_POST_INIT
        try:
            builtin.IntegerAttr(300, builtin.i8)
        finally:
            Attribute.__post_init__ = saved
    assert str(fast_error.value) == str(slow_error.value)


def test_ssavalue_get_matches_xdsl() -> None:
    from xdsl.ir import SSAValue

    import tile_lsp.compiler.lowering  # noqa: F401

    assert SSAValue.get is xdsl_fast.ssavalue_get
    block, (a, b, flag) = _args()
    add = arith.AddiOp(a, b)
    for arg, kind in ((a, None), (add.result, None), (add, None), (a, builtin.IntegerType), (flag, builtin.IntegerType)):
        options = {} if kind is None else {"type": kind}
        assert xdsl_fast.ssavalue_get(arg, **options) is xdsl_fast.ORIGINAL_SSAVALUE_GET(arg, **options)
    def outcome(get, arg, options):  # type: ignore[no-untyped-def]
        try:
            return "value", get(arg, **options)
        except Exception as exc:  # noqa: BLE001 (the same error is what is compared)
            return type(exc), str(exc)

    for bad, options in ((a, {"type": builtin.Float32Type}), (scf.YieldOp(), {}), (3, {})):
        fast = outcome(xdsl_fast.ssavalue_get, bad, options)
        assert fast == outcome(xdsl_fast.ORIGINAL_SSAVALUE_GET, bad, options)
    assert outcome(xdsl_fast.ssavalue_get, a, {"type": builtin.Float32Type})[0] is ValueError


def test_attach_op_refuses_what_xdsl_refuses() -> None:
    from xdsl.ir import Block

    import tile_lsp.compiler.lowering  # noqa: F401

    assert Block._attach_op is xdsl_fast.attach_op
    block, (a, b, _) = _args()
    add = arith.AddiOp(a, b)
    block.add_op(add)
    assert add.parent is block
    inner = Block()
    outer = scf.ExecuteRegionOp([], Region(inner))
    for target, op, expected in ((Block(), add, "already attached"),
                                 (inner, outer, "contained in the operation")):  # (an op into its own region)
        messages = []
        for attach in (xdsl_fast.attach_op, xdsl_fast.ORIGINAL_ATTACH_OP):
            with pytest.raises(ValueError, match=expected) as error:
                attach(target, op)
            messages.append(str(error.value))
        assert messages[0] == messages[1]
    assert outer.parent is None and add.parent is block


@pytest.mark.parametrize("predicate", ["eq", "ult", "uge", 3, "bogus", 11])  # (11: xDSL builds it too)
def test_cmpi_init_builds_what_xdsl_builds(predicate) -> None:
    from xdsl.dialects.builtin import i64

    import tile_lsp.compiler.lowering  # noqa: F401 (installs the upstream dialects' patches)

    block, (a, b, c) = _args()
    assert arith.CmpiOp.__init__ is xdsl_fast.cmpi_init

    def parts(init):  # type: ignore[no-untyped-def]
        op = arith.CmpiOp.__new__(arith.CmpiOp)
        try:
            init(op, a, b, predicate)
        except Exception as exc:  # (xDSL's VerifyException for an unknown mnemonic)
            return ("error", type(exc).__name__, str(exc))
        return (op.name, list(op.operands), [r.type for r in op.results], dict(op.properties), dict(op.attributes))

    fast, slow = parts(xdsl_fast.cmpi_init), parts(xdsl_fast.ORIGINAL_CMPI_INIT)
    assert fast == slow
    if predicate == "bogus":
        assert fast[0] == "error"
    else:
        assert fast[3]["predicate"].type == i64
    with pytest.raises(TypeError, match="same type"):  # mismatched operands, as xDSL says
        arith.CmpiOp(a, c, "eq")


def test_shared_vector_types_and_strings_equal_fresh_ones() -> None:
    from xdsl.dialects.builtin import StringAttr, VectorType, f16

    assert xdsl_fast.vector_type(f16, [2, 2]) is xdsl_fast.vector_type(f16, (2, 2)) == VectorType(f16, [2, 2])
    assert xdsl_fast.vector_type(f16, (2,)) != xdsl_fast.vector_type(f16, (2, 1))
    assert xdsl_fast.string_attr("llvm.nvvm.x") is xdsl_fast.string_attr("llvm.nvvm.x") == StringAttr("llvm.nvvm.x")
    built: list[int] = []

    def build() -> StringAttr:
        built.append(1)
        return StringAttr("made once")

    first = xdsl_fast.shared(("test-shared", 1), build)
    assert xdsl_fast.shared(("test-shared", 1), build) is first and len(built) == 1
    assert xdsl_fast.shared(("test-shared", 2), build) is not first and len(built) == 2
