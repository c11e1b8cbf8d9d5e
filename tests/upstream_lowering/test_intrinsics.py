"""Seed 004: NVVM intrinsic lowering on the llvm dialect. Categories: vector decomposition (the
seed's extract / per-lane call / insert order), shuffle lowering, type conversions, barrier
canonicalisation (level 1), the level partition, the iteration limit, and provenance."""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation, SSAValue

from tile_lsp.compiler.lowering.intrinsics import (
    BARRIER,
    BASIC,
    ITERATION_LIMIT,
    IntrinsicCall,
    Rule,
    lower_intrinsics,
)
from upstream_lowering.nvvm_tools import assert_mlir_opt_accepts, emit_ptx, func, parse, printed, to_llvm_ir

C = "llvm.call_intrinsic"
K = "llvm.mlir.constant"
X = "llvm.extractelement"
INS = "llvm.insertelement"
U = "llvm.mlir.undef"


def run(body: str, args: str, level: int, keep: str = "") -> tuple[int, list[tuple[str, str | None]], ModuleOp, str]:
    """Lower `body` at `level`; the ops of the function body in order (calls with their name)."""
    parsed = parse(func(body + ("\n" + keep if keep else ""), args))
    assert parsed.module is not None
    count = lower_intrinsics(parsed.module, None, level)
    ops: list[tuple[str, str | None]] = []
    for op in parsed.module.walk():
        parent = op.parent_op()
        if parent is None or parent.name != "llvm.func" or op.name in ("llvm.return", "llvm.store"):
            continue
        ops.append((op.name, op.intrin.data if isinstance(op, llvm.CallIntrinsicOp) else None))
    return count, ops, parsed.module, printed(parsed)


def valid(text: str, chip: str = "sm_90a") -> None:
    assert_mlir_opt_accepts(text)
    emit_ptx(to_llvm_ir(text), chip)


# --------------------------------------------------------------------------------------------
# Vector decomposition


def test_packed_f16x2_call_decomposes_per_lane_in_seed_order() -> None:
    body = '%r = llvm.call_intrinsic "llvm.nvvm.fmax.f16x2"(%a, %b) : (vector<2xf16>, vector<2xf16>) -> vector<2xf16>'
    count, ops, module, text = run(body, "%a: vector<2xf16>, %b: vector<2xf16>, %o: !llvm.ptr", BASIC,
                                   "llvm.store %r, %o : vector<2xf16>, !llvm.ptr")  # fmt: skip
    assert count == 1
    assert ops == [
        (K, None), (K, None),
        (X, None), (X, None),  # a0, a1
        (X, None), (X, None),  # b0, b1
        (C, "llvm.nvvm.fmax.f16"), (C, "llvm.nvvm.fmax.f16"),
        (U, None), (INS, None), (INS, None),
    ]  # fmt: skip
    calls = [op for op in module.walk() if isinstance(op, llvm.CallIntrinsicOp)]
    extracts = [op for op in module.walk() if op.name == X]
    # lane i of the call takes lane i of a and lane i of b
    assert [list(c.args) for c in calls] == [
        [extracts[0].results[0], extracts[2].results[0]],
        [extracts[1].results[0], extracts[3].results[0]],
    ]
    valid(text, "sm_90a")


def test_wide_scalar_intrinsic_on_vector_becomes_narrow_calls() -> None:
    body = '%r = llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"(%v) : (vector<4xf32>) -> vector<4xf32>'
    count, ops, _, text = run(body, "%v: vector<4xf32>, %o: !llvm.ptr", BASIC,
                              "llvm.store %r, %o : vector<4xf32>, !llvm.ptr")  # fmt: skip
    assert count == 1
    assert ops == [(K, None)] * 4 + [(X, None)] * 4 + [(C, "llvm.nvvm.rcp.approx.ftz.f")] * 4 + [(U, None)] + [
        (INS, None)
    ] * 4
    valid(text)


def test_scalar_operand_is_shared_by_every_lane() -> None:
    body = '%r = llvm.call_intrinsic "llvm.nvvm.fma.rn.f"(%v, %s, %v) : (vector<2xf32>, f32, vector<2xf32>) -> vector<2xf32>'
    _, _, module, text = run(body, "%v: vector<2xf32>, %s: f32, %o: !llvm.ptr", BASIC,
                             "llvm.store %r, %o : vector<2xf32>, !llvm.ptr")  # fmt: skip
    scalar: SSAValue = next(op for op in module.walk() if op.name == "llvm.func").regions[0].blocks[0].args[1]
    calls = [op for op in module.walk() if isinstance(op, llvm.CallIntrinsicOp)]
    assert len(calls) == 2 and all(c.args[1] is scalar for c in calls)
    assert_mlir_opt_accepts(text)


def test_mismatched_lane_counts_are_left_alone() -> None:
    body = '%r = llvm.call_intrinsic "llvm.nvvm.fmax.f"(%a, %b) : (vector<2xf32>, vector<4xf32>) -> vector<2xf32>'
    count, ops, _, _ = run(body, "%a: vector<2xf32>, %b: vector<4xf32>, %o: !llvm.ptr", BASIC,
                           "llvm.store %r, %o : vector<2xf32>, !llvm.ptr")  # fmt: skip
    assert count == 0 and ops == [(C, "llvm.nvvm.fmax.f")]


def test_new_calls_are_lowered_again_in_the_same_run() -> None:
    # vector f2bf16.rn -> two scalar f2bf16.rn calls -> two fptrunc (three rewrites, no call left)
    body = '%r = llvm.call_intrinsic "llvm.nvvm.f2bf16.rn"(%v) : (vector<2xf32>) -> vector<2xbf16>'
    count, ops, _, text = run(body, "%v: vector<2xf32>, %o: !llvm.ptr", BASIC,
                              "llvm.store %r, %o : vector<2xbf16>, !llvm.ptr")  # fmt: skip
    assert count == 3
    assert ops == [(K, None)] * 2 + [(X, None)] * 2 + [("llvm.fptrunc", None)] * 2 + [(U, None)] + [(INS, None)] * 2
    valid(text)


# --------------------------------------------------------------------------------------------
# Shuffle lowering


def test_prmt_with_constant_selector_becomes_shufflevector() -> None:
    body = ('%c = llvm.mlir.constant(20800 : i32) : i32\n'  # 0x5140: bytes a0, b0, a1, b1
            '%r = llvm.call_intrinsic "llvm.nvvm.prmt"(%a, %b, %c) : (i32, i32, i32) -> i32')  # fmt: skip
    count, ops, module, text = run(body, "%a: i32, %b: i32, %o: !llvm.ptr", BASIC, "llvm.store %r, %o : i32, !llvm.ptr")
    assert count == 1
    assert ops == [(K, None), ("llvm.bitcast", None), ("llvm.bitcast", None), ("llvm.shufflevector", None),
                   ("llvm.bitcast", None)]  # fmt: skip
    shuffle = next(op for op in module.walk() if isinstance(op, llvm.ShuffleVectorOp))
    assert list(shuffle.mask.iter_values()) == [0, 4, 1, 5]
    valid(text)


def test_prmt_sign_replicate_or_dynamic_selector_is_kept() -> None:
    body = ('%c = llvm.mlir.constant(34952 : i32) : i32\n'  # 0x8888: sign-replicate mode
            '%r = llvm.call_intrinsic "llvm.nvvm.prmt"(%a, %b, %c) : (i32, i32, i32) -> i32\n'
            '%q = llvm.call_intrinsic "llvm.nvvm.prmt"(%a, %b, %a) : (i32, i32, i32) -> i32')  # fmt: skip
    count, ops, _, _ = run(body, "%a: i32, %b: i32, %o: !llvm.ptr", BASIC,
                           "llvm.store %r, %o : i32, !llvm.ptr\nllvm.store %q, %o : i32, !llvm.ptr")  # fmt: skip
    assert count == 0
    assert ops == [(K, None), (C, "llvm.nvvm.prmt"), (C, "llvm.nvvm.prmt")]


def test_shuffle_by_zero_lanes_is_the_value_itself() -> None:
    body = ('%z = llvm.mlir.constant(0 : i32) : i32\n'
            '%r = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%m, %x, %z, %m) : (i32, f32, i32, i32) -> f32')  # fmt: skip
    count, ops, _, text = run(body, "%m: i32, %x: f32, %o: !llvm.ptr", BASIC, "llvm.store %r, %o : f32, !llvm.ptr")
    assert count == 1
    assert ops == [(K, None)]
    assert "llvm.store %x" in text


# --------------------------------------------------------------------------------------------
# Type conversions


def test_ff2bf16x2_rn_becomes_two_fptrunc_and_packing() -> None:
    body = '%r = llvm.call_intrinsic "llvm.nvvm.ff2bf16x2.rn"(%hi, %lo) : (f32, f32) -> vector<2xbf16>'
    count, ops, module, text = run(body, "%hi: f32, %lo: f32, %o: !llvm.ptr", BASIC,
                                   "llvm.store %r, %o : vector<2xbf16>, !llvm.ptr")  # fmt: skip
    assert count == 1
    assert ops == [("llvm.fptrunc", None), ("llvm.fptrunc", None), (U, None), (K, None), (INS, None), (K, None),
                   (INS, None)]  # fmt: skip
    truncs = [op for op in module.walk() if op.name == "llvm.fptrunc"]
    inserts = [op for op in module.walk() if op.name == INS]
    # lane 0 (low half) is the second operand, lane 1 (high half) the first: cvt.rn.bf16x2.f32 d, a, b
    assert inserts[0].operands[1] is truncs[1].results[0]
    assert inserts[1].operands[1] is truncs[0].results[0]
    valid(text)


def test_scalar_conversions_become_standard_casts() -> None:
    body = ('%a = llvm.call_intrinsic "llvm.nvvm.f2bf16.rn"(%x) : (f32) -> bf16\n'
            '%b = llvm.call_intrinsic "llvm.nvvm.i2f.rn"(%i) : (i32) -> f32\n'
            '%c = llvm.call_intrinsic "llvm.nvvm.ui2f.rn"(%i) : (i32) -> f32\n'
            '%d = llvm.call_intrinsic "llvm.nvvm.d2f.rn"(%y) : (f64) -> f32\n'
            '%e = llvm.call_intrinsic "llvm.nvvm.f2h.rn"(%x) : (f32) -> i16')  # fmt: skip
    keep = "\n".join(f"llvm.store %{v}, %o : {t}, !llvm.ptr" for v, t in
                     (("a", "bf16"), ("b", "f32"), ("c", "f32"), ("d", "f32"), ("e", "i16")))  # fmt: skip
    count, ops, _, text = run(body, "%x: f32, %y: f64, %i: i32, %o: !llvm.ptr", BASIC, keep)
    assert count == 5
    assert ops == [("llvm.fptrunc", None), ("llvm.sitofp", None), ("llvm.uitofp", None), ("llvm.fptrunc", None),
                   ("llvm.fptrunc", None), ("llvm.bitcast", None)]  # fmt: skip
    valid(text)


def test_conversion_with_other_rounding_is_kept() -> None:
    body = '%a = llvm.call_intrinsic "llvm.nvvm.f2bf16.rz"(%x) : (f32) -> bf16'
    count, ops, _, _ = run(body, "%x: f32, %o: !llvm.ptr", BASIC, "llvm.store %a, %o : bf16, !llvm.ptr")
    assert count == 0 and ops == [(C, "llvm.nvvm.f2bf16.rz")]


# --------------------------------------------------------------------------------------------
# Level 1: barriers


def test_level1_canonicalises_old_barrier_spellings() -> None:
    body = ('llvm.call_intrinsic "llvm.nvvm.barrier0"() : () -> ()\n'
            'llvm.call_intrinsic "llvm.nvvm.barrier.n"(%i) : (i32) -> ()\n'
            'llvm.call_intrinsic "llvm.nvvm.barrier"(%i, %n) : (i32, i32) -> ()\n'
            'llvm.call_intrinsic "llvm.nvvm.barrier.sync"(%i) : (i32) -> ()\n'
            'llvm.call_intrinsic "llvm.nvvm.barrier.sync.cnt"(%i, %n) : (i32, i32) -> ()')  # fmt: skip
    count, ops, _, text = run(body, "%i: i32, %n: i32", BARRIER)
    assert count == 5
    assert ops == [
        (K, None), (C, "llvm.nvvm.barrier.cta.sync.aligned.all"),
        (C, "llvm.nvvm.barrier.cta.sync.aligned.all"),
        (C, "llvm.nvvm.barrier.cta.sync.aligned.count"),
        (C, "llvm.nvvm.barrier.cta.sync.all"),
        (C, "llvm.nvvm.barrier.cta.sync.count"),
    ]  # fmt: skip
    valid(text, "sm_70")


def test_level1_barrier_reductions() -> None:
    body = ('%p = llvm.call_intrinsic "llvm.nvvm.barrier0.popc"(%i) : (i32) -> i32\n'
            '%q = llvm.call_intrinsic "llvm.nvvm.barrier0.and"(%i) : (i32) -> i32')  # fmt: skip
    count, ops, _, text = run(body, "%i: i32, %o: !llvm.ptr", BARRIER,
                              "llvm.store %p, %o : i32, !llvm.ptr\nllvm.store %q, %o : i32, !llvm.ptr")  # fmt: skip
    assert count == 2
    assert ops == [
        (K, None), ("llvm.icmp", None), (C, "llvm.nvvm.barrier.cta.red.popc.aligned.all"),
        (K, None), ("llvm.icmp", None), (C, "llvm.nvvm.barrier.cta.red.and.aligned.all"), ("llvm.zext", None),
    ]  # fmt: skip
    valid(text, "sm_70")


def test_levels_partition_the_rules() -> None:
    body = ('llvm.call_intrinsic "llvm.nvvm.barrier0"() : () -> ()\n'
            '%r = llvm.call_intrinsic "llvm.nvvm.f2bf16.rn"(%x) : (f32) -> bf16')  # fmt: skip
    keep = "llvm.store %r, %o : bf16, !llvm.ptr"
    count0, ops0, _, _ = run(body, "%x: f32, %o: !llvm.ptr", BASIC, keep)
    assert count0 == 1 and ops0 == [(C, "llvm.nvvm.barrier0"), ("llvm.fptrunc", None)]
    count1, ops1, _, _ = run(body, "%x: f32, %o: !llvm.ptr", BARRIER, keep)
    assert count1 == 1
    assert ops1 == [(K, None), (C, "llvm.nvvm.barrier.cta.sync.aligned.all"), (C, "llvm.nvvm.f2bf16.rn")]
    assert lower_intrinsics(parse(func("")).module, None, 7) == 0  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Iteration limit and provenance


def test_iteration_limit_is_30_and_stops_runaway_rules() -> None:
    assert ITERATION_LIMIT == 30

    def again(call: IntrinsicCall, emit: object) -> list[SSAValue]:
        new = emit.intrinsic(call.name, call.args, call.result_type)  # type: ignore[attr-defined]
        return list(new.results)

    loop = Rule("self-reproducing", BASIC, "vector", lambda c: c.name == "llvm.nvvm.test.loop", again)
    parsed = parse(func('llvm.call_intrinsic "llvm.nvvm.test.loop"() : () -> ()'))
    assert parsed.module is not None
    assert lower_intrinsics(parsed.module, None, BASIC, rules=[loop]) == ITERATION_LIMIT
    remaining = [op for op in parsed.module.walk() if isinstance(op, llvm.CallIntrinsicOp)]
    assert len(remaining) == 1


def test_replacements_keep_location_and_metadata() -> None:
    body = ('%r = llvm.call_intrinsic "llvm.nvvm.fmax.f16x2"(%a, %a) {tile.src = 7 : i32}'
            ' : (vector<2xf16>, vector<2xf16>) -> vector<2xf16>')  # fmt: skip
    _, _, module, text = run(body, "%a: vector<2xf16>, %o: !llvm.ptr", BASIC,
                             "llvm.store %r, %o : vector<2xf16>, !llvm.ptr")  # fmt: skip
    created: list[Operation] = [op for op in module.walk() if op.name in (K, X, C, U, INS)]
    assert created and all(isinstance(op.location, FileLineColLoc) and op.location.line.data == 2 for op in created)
    calls = [op for op in created if isinstance(op, llvm.CallIntrinsicOp)]
    assert all("tile.src" in c.attributes for c in calls)
    assert_mlir_opt_accepts(text)


def test_non_nvvm_intrinsics_are_untouched() -> None:
    body = '%r = llvm.call_intrinsic "llvm.fabs"(%v) : (vector<2xf32>) -> vector<2xf32>'
    count, ops, _, _ = run(body, "%v: vector<2xf32>, %o: !llvm.ptr", BASIC, "llvm.store %r, %o : vector<2xf32>, !llvm.ptr")
    assert count == 0 and ops == [(C, "llvm.fabs")]
