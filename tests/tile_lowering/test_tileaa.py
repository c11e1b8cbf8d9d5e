"""Stage 2 `tileaa` (seed 003): cuda_tile -> nv_tileaa rewrite shapes, type conversions, token
joins, diagnostics, provenance, and every exported cuTile kernel converting cleanly.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    FileLineColLoc,
    FusedLoc,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnregisteredOp,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Operation

from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.tile_to_tileaa import (
    FAILED,
    MISSING_CC,
    convert_cuda_tile_to_tileaa,
    cuda_tile_spans,
)
from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
from tile_lsp.compiler.mlir.dialects.nv_tileaa import MemTokenType, TensorViewType, TileViewType
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile"
KERNELS = sorted(DATA.glob("*.mlir"))
SM90A = Target(90, "a")


class Lowered:
    def __init__(
        self, text: str, target: Target | None = SM90A, prepare: Callable[[ModuleOp], None] | None = None
    ) -> None:
        [parsed] = parse_text(text, "input.mlir")
        assert parsed.module is not None and parsed.ok, [d.message for d in parsed.diagnostics]
        if prepare is not None:
            prepare(parsed.module)
        self.source = SourceText(text, "input.mlir")
        self.module: ModuleOp = parsed.module
        self.lctx = LoweringContext(self.source, CompileOptions(target=target), DiagnosticSink(stage="tileaa"),
                                    cuda_tile_spans(parsed.smap))
        self.ok = convert_cuda_tile_to_tileaa(self.module, self.lctx)
        self.messages = [d.message for d in self.lctx.sink.items]

    def ops(self, name: str) -> list[Operation]:
        return [op for op in self.module.walk() if op.name == name]

    def one(self, name: str) -> Operation:
        [op] = self.ops(name)
        return op

    def names(self) -> list[str]:
        """Op names of the function bodies, in order (the module and func ops left out)."""
        return [op.name for op in self.module.walk() if op.name not in ("builtin.module", "func.func")]


def func_text(args: str, body: str) -> str:
    return f"cuda_tile.module @m {{\n  testing$func @f({args}) {{\n{body}\n    return\n  }}\n}}\n"


def assert_clean(low: Lowered) -> None:
    assert low.ok and low.messages == []
    assert not [op.name for op in low.module.walk() if op.name.startswith("cuda_tile.")]
    low.module.verify()


def test_trunci_keeps_operand_and_retypes_result() -> None:
    low = Lowered(func_text("%wide: !cuda_tile.tile<128xi32>",
                            "    %narrow = trunci %wide : tile<128xi32> -> tile<128xi8>"))
    assert_clean(low)
    assert low.names() == ["nv_tileaa.trunci", "func.return"]
    op = low.one("nv_tileaa.trunci")
    fn = low.one("func.func")
    assert isinstance(fn, func.FuncOp)
    assert op.operands[0] is fn.body.block.args[0]  # the operand SSA value is kept
    assert op.operands[0].type == TensorType(IntegerAttr(0, 32).type, [128])
    assert op.results[0].type == TensorType(IntegerAttr(0, 8).type, [128])
    assert "nv_tileaa.trunci %wide : (tensor<128xi32>) -> tensor<128xi8>" in print_ir(low.module)


def test_fma_carries_fastmath_verbatim() -> None:
    low = Lowered(func_text(
        "%a: !cuda_tile.tile<8x64xf32>, %b: !cuda_tile.tile<8x64xf32>, %c: !cuda_tile.tile<8x64xf32>",
        "    %r = fma %a, %b, %c rounding<nearest_even> {fastmath = #arith.fastmath<contract>} : tile<8x64xf32>"))
    assert_clean(low)
    op = low.one("nv_tileaa.fma")
    fm = op.attributes["fastmath"]
    assert isinstance(fm, arith.FastMathFlagsAttr) and fm == arith.FastMathFlagsAttr([arith.FastMathFlag.ALLOW_CONTRACT])
    assert [v.type for v in (*op.operands, *op.results)] == [TensorType(op.results[0].type.element_type, [8, 64])] * 4  # type: ignore[attr-defined]
    assert "fastmath = #arith.fastmath<contract>" in print_ir(low.module)
    assert ": tensor<8x64xf32>" in print_ir(low.module)


def test_transcendentals_get_a_fastmath_flag() -> None:
    low = Lowered(func_text("%x: !cuda_tile.tile<8xf32>", """    %a = tanh %x rounding<approx> : tile<8xf32>
    %b = sin %a : tile<8xf32>
    %c = exp2 %b {fastmath = #arith.fastmath<fast>} : tile<8xf32>"""))
    assert_clean(low)
    assert low.names() == ["nv_tileaa.tanh", "nv_tileaa.sin", "nv_tileaa.exp2", "func.return"]
    flags = [low.one(n).attributes["fastmath"] for n in ("nv_tileaa.tanh", "nv_tileaa.sin", "nv_tileaa.exp2")]
    assert flags == [
        arith.FastMathFlagsAttr([arith.FastMathFlag.APPROX_FUNC]),
        arith.FastMathFlagsAttr("none"),
        arith.FastMathFlagsAttr("fast"),
    ]
    text = print_ir(low.module)
    assert "#arith.fastmath<afn>" in text and "#arith.fastmath<none>" in text and "#arith.fastmath<fast>" in text


REDUCE = """    %sum = reduce %values dim=1 identities=[0.000000e+00 : f32] : tile<8x64xf32> -> tile<8xf32>
    (%acc: tile<f32>, %val: tile<f32>) {
      %s = addf %acc, %val : tile<f32>
      yield %s : tile<f32>
    }"""

SCAN = """    %prefix = scan %values dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<8x64xf32> -> tile<8x64xf32>
    (%acc: tile<f32>, %elem: tile<f32>) {
      %s = addf %acc, %elem : tile<f32>
      yield %s : tile<f32>
    }"""


@pytest.mark.parametrize(("body", "op_name", "result_shape"), [(REDUCE, "reduce", [8]), (SCAN, "scan", [8, 64])])
def test_reduce_and_scan_retype_region_block_arguments(body: str, op_name: str, result_shape: list[int]) -> None:
    low = Lowered(func_text("%values: !cuda_tile.tile<8x64xf32>", body))
    assert_clean(low)
    assert low.names() == [f"nv_tileaa.{op_name}", "nv_tileaa.addf", "nv_tileaa.yield", "func.return"]
    op = low.one(f"nv_tileaa.{op_name}")
    f32 = op.operands[0].type.element_type  # type: ignore[attr-defined]
    assert op.operands[0].type == TensorType(f32, [8, 64])
    assert op.results[0].type == TensorType(f32, result_shape)
    block = op.regions[0].block
    assert [a.type for a in block.args] == [f32, f32]  # !cuda_tile.tile<f32> -> f32
    add, yld = list(block.ops)
    assert list(add.operands) == list(block.args) and add.results[0].type == f32
    assert yld.operands[0] is add.results[0]
    assert op.attributes["dim"] == IntegerAttr(1, 32)
    if op_name == "scan":
        assert "reverse" in op.attributes  # carried verbatim


TOKENS = "%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>"


def test_join_of_three_tokens_becomes_join_mem_token() -> None:
    low = Lowered(func_text(TOKENS, """    %t0 = make_token : token
    %t1 = make_token : token
    %t2 = make_token : token
    %t = join_tokens %t0, %t1, %t2 : token"""))
    assert_clean(low)
    assert low.names() == ["nv_tileaa.create_mem_token"] * 3 + ["nv_tileaa.join_mem_token", "func.return"]
    join = low.one("nv_tileaa.join_mem_token")
    makes = low.ops("nv_tileaa.create_mem_token")
    assert list(join.operands) == [m.results[0] for m in makes]
    assert join.results[0].type == MemTokenType()
    assert "nv_tileaa.join_mem_token %t0, %t1, %t2 : !nv_tileaa.mem_token" in print_ir(low.module)


def join_with(tokens: int, after: str) -> Lowered:
    """A join of `tokens` (1 or 0) operands: the front end's verifier wants two or more, so the
    join is rebuilt with fewer after parsing, as IR from bytecode or a canonicalizer can have it."""
    text = func_text(TOKENS, f"""    %t0 = make_token : token
    %t1 = make_token : token
    %t = join_tokens %t0, %t1 : token
{after}""")

    def shrink(module: ModuleOp) -> None:
        join = next(op for op in module.walk() if op.name == "cuda_tile.join_tokens")
        fewer = type(join).create(operands=list(join.operands)[:tokens], result_types=[join.results[0].type])
        block = join.parent_block()
        assert block is not None
        block.insert_op_before(fewer, join)
        join.results[0].replace_all_uses_with(fewer.results[0])
        block.erase_op(join)

    return Lowered(text, prepare=shrink)


def test_singleton_join_passes_the_token_through() -> None:
    low = join_with(1, "    %v, %t2 = load_ptr_tko weak %p token=%t : tile<!cuda_tile.ptr<f32>> -> tile<f32>, token")
    assert_clean(low)
    assert low.names() == ["nv_tileaa.create_mem_token"] * 2 + ["nv_tileaa.load", "func.return"]
    load = low.one("nv_tileaa.load")
    assert load.operands[-1] is low.ops("nv_tileaa.create_mem_token")[0].results[0]
    assert load.operands[0].type == LLVMPointerType()
    assert [r.type for r in load.results] == [load.results[0].type, MemTokenType()]


def test_empty_join_becomes_create_mem_token() -> None:
    low = join_with(0, "    %v, %t2 = load_ptr_tko weak %p token=%t : tile<!cuda_tile.ptr<f32>> -> tile<f32>, token")
    assert_clean(low)
    assert low.names() == ["nv_tileaa.create_mem_token"] * 3 + ["nv_tileaa.load", "func.return"]
    fresh = low.ops("nv_tileaa.create_mem_token")[2]
    assert not fresh.operands
    assert low.one("nv_tileaa.load").operands[-1] is fresh.results[0]


MMA = [
    ("mmaf %a, %b, %c : tile<4x8xf16>, tile<8x16xf16>, tile<4x16xf32>", "f16", "f16", "f32", "f16"),
    ("mmaf %a, %b, %c : tile<4x8xf32>, tile<8x16xf32>, tile<4x16xf32>", "f32", "f32", "f32", "tf32"),
    ("mmai %a, %b, %c signed signed : tile<4x8xi8>, tile<8x16xi8>, tile<4x16xi32>", "i8", "i8", "i32", "i8"),
]


@pytest.mark.parametrize(("line", "lt", "rt", "ct", "precision"), MMA)
def test_mmaf_and_mmai_become_dot(line: str, lt: str, rt: str, ct: str, precision: str) -> None:
    args = f"%a: !cuda_tile.tile<4x8x{lt}>, %b: !cuda_tile.tile<8x16x{rt}>, %c: !cuda_tile.tile<4x16x{ct}>"
    low = Lowered(func_text(args, f"    %d = {line}"))
    assert_clean(low)
    assert low.names() == ["nv_tileaa.dot", "func.return"]
    dot = low.one("nv_tileaa.dot")
    fn = low.one("func.func")
    assert isinstance(fn, func.FuncOp)
    assert list(dot.operands) == list(fn.body.block.args)
    assert dot.attributes["input_precision"] == StringAttr(precision)
    assert dot.attributes["acc_type"] == StringAttr(ct)
    assert f"tensor<4x16x{ct}>" in print_ir(dot)


def test_constants_become_arith_constant_and_splat() -> None:
    low = Lowered(func_text(TOKENS, """    %s = constant <i32: 7> : tile<i32>
    %z = constant <f32: 0.0> : tile<4x4xf32>
    %d = constant <i32: [1, 2, 3, 4]> : tile<4xi32>"""))
    assert_clean(low)
    assert low.names() == ["arith.constant", "arith.constant", "nv_tileaa.splat", "arith.constant", "func.return"]
    text = print_ir(low.module)
    assert "arith.constant 7 : i32" in text
    assert "nv_tileaa.splat %" in text and "(f32) -> tensor<4x4xf32>" in text
    assert "arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>" in text


def test_maxi_goes_through_arith() -> None:
    low = Lowered(func_text("%a: !cuda_tile.tile<4xi32>, %b: !cuda_tile.tile<4xi32>",
                            "    %m = maxi %a, %b signed : tile<4xi32>\n    %u = maxi %a, %b unsigned : tile<4xi32>"))
    assert_clean(low)
    assert low.names() == ["arith.maxsi", "arith.maxui", "func.return"]


def test_views_and_pointers_are_retyped() -> None:
    low = Lowered(func_text("%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>, %n: !cuda_tile.tile<i32>", """    %tv = make_tensor_view %p, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %pv = make_partition_view %tv : partition_view<tile=(16x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>"""))
    assert_clean(low)
    assert low.names() == ["nv_tileaa.make_tensor_view", "nv_tileaa.make_tile_view", "func.return"]
    tv = low.one("nv_tileaa.make_tensor_view").results[0].type
    pv = low.one("nv_tileaa.make_tile_view").results[0].type
    assert isinstance(tv, TensorViewType) and [d.data for d in tv.shape.data] == [-1, 64]
    assert isinstance(pv, TileViewType) and pv.kind.data == "partition" and pv.padding.data == "zero"
    assert "!nv_tileaa.tile_view<partition, tile = [16, 64], padding = zero, !nv_tileaa.tensor_view<?x64xf32, strides = [64, 1]>>" in print_ir(low.module)


def test_early_return_in_a_region_becomes_nv_tileaa_return() -> None:
    low = Lowered(func_text("%c: !cuda_tile.tile<i1>", """    if %c {
      return
    }"""))
    assert_clean(low)
    assert low.names() == ["nv_tileaa.if", "nv_tileaa.return", "func.return"]


def test_missing_target_is_the_seed_diagnostic() -> None:
    low = Lowered(func_text("%a: !cuda_tile.tile<4xi32>", "    %n = negi %a : tile<4xi32>"), target=None)
    assert not low.ok
    assert low.messages == [MISSING_CC] == ["invalid or missing --compute-capability option"]
    assert low.ops("cuda_tile.negi")  # nothing was rewritten


def test_residual_cuda_tile_op_fails_the_stage_and_is_named_at_the_op() -> None:
    text = func_text("%a: !cuda_tile.tile<4xi32>", "    %n = negi %a : tile<4xi32>")
    [parsed] = parse_text(text, "input.mlir")
    assert parsed.module is not None
    # An op of a newer Tile IR than this converter knows (xDSL keeps it unregistered).
    negi = next(op for op in parsed.module.walk() if op.name == "cuda_tile.negi")
    future = UnregisteredOp.with_name("cuda_tile.frobnicate").create()
    block = negi.parent_block()
    assert block is not None
    block.insert_op_after(future, negi)
    spans = cuda_tile_spans(parsed.smap)
    spans[future] = spans[negi]
    lctx = LoweringContext(SourceText(text, "input.mlir"), CompileOptions(target=SM90A), DiagnosticSink(stage="tileaa"), spans)
    assert not convert_cuda_tile_to_tileaa(parsed.module, lctx)
    items = lctx.sink.items
    assert [d.message for d in items] == ["failed to legalize operation 'cuda_tile.frobnicate'", FAILED]
    assert FAILED == "failed to convert cuda_tile to nv_tileaa"
    assert text[items[0].span.start:].startswith("%n = negi")  # at the op (it borrowed negi's span)


def test_compute_capability_is_recorded_on_the_module() -> None:
    low = Lowered(func_text("%a: !cuda_tile.tile<4xi32>", "    %n = negi %a : tile<4xi32>"), target=Target(100, "a"))
    assert_clean(low)
    assert low.module.attributes["nv_tileaa.compute_capability"] == IntegerAttr(100, 32)
    assert low.module.attributes["nv_tileaa.target_spec"] == StringAttr("sm_100a")


def test_every_new_op_points_at_its_source_line() -> None:
    text = func_text("%a: !cuda_tile.tile<4xi32>", "    %n = negi %a : tile<4xi32>\n    %m = absi %n : tile<4xi32>")
    low = Lowered(text)
    assert_clean(low)
    lines = text.splitlines()
    for name, word in (("nv_tileaa.negi", "negi"), ("nv_tileaa.absi", "absi"), ("func.func", "testing$func")):
        loc = low.one(name).location
        assert isinstance(loc, FileLineColLoc) and loc.filename.data == "input.mlir"
        assert word in lines[loc.line.data - 1]


def round_trip(module: ModuleOp, locations: bool) -> None:
    text = print_ir(module, locations=locations)
    again = parse_upstream(SourceText(text, "dump.mlir"))
    assert again.ok, [d.message for d in again.diagnostics]
    assert again.module is not None
    assert print_ir(again.module, locations=locations) == text


def test_dialect_syntax_round_trips() -> None:
    text = """builtin.module {
  func.func @k(%a: tensor<8x64xf32>, %t0: !nv_tileaa.mem_token) {
    %r = nv_tileaa.fma %a, %a, %a {fastmath = #arith.fastmath<contract>} : tensor<8x64xf32>
    %s = nv_tileaa.reduce %r {dim = 1 : i32} : (tensor<8x64xf32>) -> tensor<8xf32> {
    ^bb0(%acc: f32, %val: f32):
      %x = nv_tileaa.addf %acc, %val : f32
      nv_tileaa.yield %x : f32
    }
    %t = nv_tileaa.join_mem_token %t0, %t0 : !nv_tileaa.mem_token
    %c = nv_tileaa.create_mem_token : () -> !nv_tileaa.mem_token
    nv_tileaa.loop : () -> () {
      nv_tileaa.break
    }
    func.return
  }
}
"""
    parsed = parse_upstream(SourceText(text, "t.mlir"))
    assert parsed.ok and parsed.module is not None
    assert print_ir(parsed.module) == text
    round_trip(parsed.module, locations=True)


@pytest.mark.parametrize("path", KERNELS, ids=[p.name for p in KERNELS])
def test_kernel_converts_completely(path: pathlib.Path) -> None:
    low = Lowered(path.read_text())
    assert_clean(low)
    assert any(op.name.startswith("nv_tileaa.") for op in low.module.walk())
    for op in low.module.walk():
        if op is low.module:
            continue
        loc = op.location
        first = loc.locations.data[0] if isinstance(loc, FusedLoc) else loc
        assert isinstance(first, FileLineColLoc) and first.filename.data == "input.mlir", (op.name, loc)
    round_trip(low.module, locations=False)
    round_trip(low.module, locations=True)


def test_kernel_count() -> None:
    assert len(KERNELS) >= 32  # 16 kernels, each also in its debug-info (.g) variant


def test_nvidia_examples_convert(shared: pathlib.Path) -> None:
    converted = 0
    for path in sorted((shared / "kernels" / "nvidia").glob("*.mlir")):
        [parsed] = parse_text(path.read_text(), str(path))
        if parsed.module is None or not parsed.ok:
            continue  # documentation snippets that are not valid on their own
        low = Lowered(path.read_text())
        assert_clean(low)
        converted += 1
    assert converted >= 10


def test_conformance_programs_convert(shared: pathlib.Path) -> None:
    """Every valid chunk of NVIDIA's cuda_tile tests (all ops of the dialect) converts, verifies
    and prints as text that parses back to the same text (locations included)."""
    converted = 0
    for path in sorted((shared / "conformance" / "cuda_tile").rglob("*.mlir")):
        text = path.read_text()
        for parsed in parse_text(text, str(path), split=True):
            if parsed.module is None or not parsed.ok:
                continue  # the negative cases
            if not any(op.name.startswith("cuda_tile.") for op in parsed.module.walk()):
                continue
            lctx = LoweringContext(SourceText(text, str(path)), CompileOptions(target=SM90A),
                                   DiagnosticSink(stage="tileaa"), cuda_tile_spans(parsed.smap))
            assert convert_cuda_tile_to_tileaa(parsed.module, lctx), (path.name, [d.message for d in lctx.sink.items])
            parsed.module.verify()
            round_trip(parsed.module, locations=True)
            converted += 1
    assert converted >= 100
