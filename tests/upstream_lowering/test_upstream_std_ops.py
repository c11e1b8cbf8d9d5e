"""Upstream syntax xDSL 0.74 lacks (memref.global, math.erfc/sincos/is*, arith.remf, the index
dialect) and what the nvvm stage makes of it; redux / all_reduce lowering; n-D vectors."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import llvm

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.to_nvvm import convert_to_nvvm
from tile_lsp.compiler.lowering.types import convert_type
from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.nvvm_stage import Lowered, device_func, kernel, lower
from upstream_lowering.util import assert_mlir_accepts, parse_ok


def roundtrip(text: str) -> str:
    parsed = parse_upstream(SourceText(text, "t.mlir"))
    assert parsed.module is not None and not parsed.diagnostics, [d.message for d in parsed.diagnostics]
    out = print_ir(parsed.module)
    assert_mlir_accepts(out)
    return out


def lower_at(text: str, cc: int, suffix: str = "") -> Lowered:
    source = SourceText(text, "k.mlir")
    parsed = parse_upstream(source)
    assert parsed.module is not None and not parsed.diagnostics
    lctx = LoweringContext(source, CompileOptions(Target(cc, suffix)), spans=parsed.spans)
    ok = convert_to_nvvm(parsed.module, lctx)
    return Lowered(source, parsed.module, ok, list(lctx.sink.items))


def calls(low: Lowered) -> list[str]:
    return [op.callee.root_reference.data for op in low.ops("llvm.call")]  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("line", [
    'memref.global "private" @a : memref<4xi32>',
    'memref.global "private" constant @b : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64 : i64}',
    "memref.global @c : memref<0xf16, 3> = uninitialized",
    'memref.global "private" @d : memref<2x2xi32> = dense<7>',
])
def test_memref_global_custom_forms(line: str) -> None:
    out = roundtrip(line + "\n")
    assert out.splitlines()[1].strip().startswith("memref.global")
    assert "dense<" not in line or " : tensor<" not in out  # the initializer's type is implied


def test_math_arith_index_ops_xdsl_lacks_parse_and_print_upstream_syntax() -> None:
    out = roundtrip(
        "func.func @f(%a: f32, %b: f64, %i: index, %j: i32, %m: memref<4xf32>) -> (f32, i1) {\n"
        "  %x = math.erfc %a : f32\n  %y = math.isinf %b : f64\n"
        "  %z = math.isnan %a {fastmath = #arith.fastmath<fast>} : f32\n"
        "  %w = math.isfinite %a : f32\n  %n = math.isnormal %a : f32\n"
        "  %s, %c = math.sincos %a fastmath<afn> : f32\n  %q = math.clampf %a to [%a, %a] : f32\n"
        "  %r = arith.remf %a, %a : f32\n  %k = arith.index_castui %j : i32 to index\n"
        "  %i1 = index.add %i, %k\n  %i2 = index.cmp slt(%i, %i1)\n  %i3 = index.constant 42\n"
        "  %i4 = index.casts %j : i32 to index\n  %i5 = index.bool.constant true\n"
        "  %u = memref.cast %m : memref<4xf32> to memref<?xf32>\n  %rk = memref.rank %m : memref<4xf32>\n"
        "  return %x, %y : f32, i1\n}\n")
    for written in ("math.erfc %a : f32", "math.sincos %a fastmath<afn> : f32", "arith.remf %a, %a : f32",
                    "index.cmp slt(%i, %i1)", "index.constant 42", "memref.cast %m : memref<4xf32> to memref<?xf32>"):
        assert written in out


def test_wgmma_older_test_form_parses() -> None:
    text = ("llvm.func @f(%da: i64, %db: i64, %r: !llvm.struct<(f32, f32)>) {\n"
            "  %x = nvvm.wgmma.mma_async %da, %db, #nvvm.shape<m = 64, n = 32, k = 16>,\n"
            "      D [%r, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<neg>, <col>],\n"
            "      B [<f16>, #nvvm.wgmma_scale_in<neg>, <col>] : !llvm.struct<(f32, f32)> -> !llvm.struct<(f32, f32)>\n"
            "  llvm.return\n}\n")
    parsed = parse_upstream(SourceText(text, "w.mlir"))
    assert not parsed.diagnostics, [d.message for d in parsed.diagnostics]
    (op,) = [o for o in parsed.module.walk() if o.name == "nvvm.wgmma.mma_async"]  # type: ignore[union-attr]
    assert str(op.properties["typeD"]) == "#nvvm.wgmma_type<f32>"
    assert str(op.properties["scaleD"]) == "#nvvm.wgmma_scale_out<zero>"
    assert str(op.properties["layoutA"]) == "#nvvm.mma_layout<col>"
    assert op.operands[0].type == op.results[0].type  # the accumulator came from D[...]


# ------------------------------------------------------------------------------- lowering


def test_remf_and_fpclassify_become_libdevice_calls() -> None:
    low = lower(device_func("    %r = arith.remf %a, %a : f32\n    %c = math.isinf %b : f64\n"
                            "    %n = math.isfinite %a : f32", "%a: f32, %b: f64", "f32, i1, i1", "%r, %c, %n"))
    assert low.ok, low.messages()
    assert calls(low) == ["__nv_fmodf", "__nv_isinfd", "__nv_finitef"]
    body = [n for n in low.names("llvm.") if n not in ("llvm.func", "llvm.mlir.constant")]
    assert body[:5] == ["llvm.call", "llvm.call", "llvm.icmp", "llvm.call", "llvm.icmp"]
    assert_mlir_accepts(low.text)


def test_erfc_and_absi_use_libdevice() -> None:
    low = lower(device_func("    %r = math.erfc %a : f64\n    %i = math.absi %j : i32", "%a: f64, %j: i32",
                            "f64, i32", "%r, %i"))
    assert low.ok, low.messages()
    assert calls(low) == ["__nv_erfc", "__nv_abs"]
    assert_mlir_accepts(low.text)


@pytest.mark.parametrize(("ty", "fm", "callee", "ext"), [
    ("f32", "", "__nv_sincosf", False),
    ("f32", " fastmath<afn>", "__nv_fast_sincosf", False),
    ("f64", " fastmath<afn>", "__nv_sincos", False),
    ("f16", "", "__nv_sincosf", True),
])
def test_sincos_allocas_at_entry_then_call_and_loads(ty: str, fm: str, callee: str, ext: bool) -> None:
    low = lower(device_func(f"    %s, %c = math.sincos %a{fm} : {ty}", f"%a: {ty}", f"{ty}, {ty}", "%s, %c"))
    assert low.ok, low.messages()
    names = [op.name for op in low.func("f").walk()][1:]
    names = [n for n in names if n not in ("llvm.mlir.poison", "llvm.insertvalue", "llvm.return")]
    expected = ["llvm.mlir.constant", "llvm.alloca", "llvm.alloca"]
    expected += ["llvm.fpext"] if ext else []
    expected += ["llvm.call", "llvm.load", "llvm.load"]
    expected += ["llvm.fptrunc", "llvm.fptrunc"] if ext else []
    assert names == expected
    assert calls(low) == [callee]
    assert_mlir_accepts(low.text)


def test_index_dialect_lowers_to_i64_llvm_ops() -> None:
    low = lower(device_func("    %s = index.add %a, %b\n    %c = index.cmp ult(%s, %b)\n    %k = index.constant 3\n"
                            "    %m = index.maxs %s, %k", "%a: index, %b: index", "i1, index", "%c, %m"))
    assert low.ok, low.messages()
    body = [n for n in low.names("llvm.") if n not in ("llvm.func", "llvm.return", "llvm.mlir.poison",
                                                       "llvm.insertvalue")]
    assert body == ["llvm.add", "llvm.icmp", "llvm.mlir.constant", "llvm.intr.smax"]
    (cmp,) = low.ops("llvm.icmp")
    assert cmp.properties["predicate"].value.data == 6  # ult
    assert_mlir_accepts(low.text)


REDUX = "    %r = gpu.subgroup_reduce {kind} %v{uniform} : (i32) -> i32"


@pytest.mark.parametrize(("kind", "redux"), [("add", "add"), ("minsi", "min"), ("maxui", "umax"), ("xor", "xor")])
def test_uniform_i32_subgroup_reduce_is_redux_sync_on_sm80_and_newer(kind: str, redux: str) -> None:
    low = lower_at(device_func(REDUX.format(kind=kind, uniform=" uniform"), "%v: i32", "i32", "%r"), 80)
    assert low.ok, low.messages()
    names = [n for n in low.names("nvvm.", "llvm.") if n not in ("llvm.func", "llvm.return")]
    assert names == ["llvm.mlir.constant", "nvvm.redux.sync"]
    (op,) = low.ops("nvvm.redux.sync")
    assert str(op.properties["kind"]).endswith(f"{redux}>")
    assert op.operands[1].owner.properties["value"].value.data == -1  # type: ignore[union-attr]
    assert_mlir_accepts(low.text)


@pytest.mark.parametrize(("cc", "uniform", "kind"), [(75, " uniform", "add"), (90, "", "add"), (90, " uniform", "mul")])
def test_subgroup_reduce_without_redux_keeps_the_butterfly(cc: int, uniform: str, kind: str) -> None:
    low = lower_at(device_func(REDUX.format(kind=kind, uniform=uniform), "%v: i32", "i32", "%r"), cc)
    assert low.ok, low.messages()
    assert low.names("nvvm.") == ["nvvm.shfl.sync"] * 5


def _all_reduce(op: str) -> str:
    return kernel(f"    {op}\n    memref.store %r, %m[%c0] : memref<1xf32>",
                  "%v: f32, %m: memref<1xf32>", "") .replace("    %r", "    %c0 = arith.constant 0 : index\n    %r", 1)


def test_all_reduce_shuffles_within_and_across_warps_through_shared_memory() -> None:
    low = lower(_all_reduce("%r = gpu.all_reduce add %v uniform {} : (f32) -> f32"))
    assert low.ok, low.messages()
    (glob,) = low.ops("llvm.mlir.global")
    assert glob.properties["addr_space"].value.data == 3  # type: ignore[attr-defined]
    assert str(glob.properties["global_type"]) == "!llvm.array<32 x f32>"
    seq = [n for n in low.names("nvvm.", "llvm.fadd", "llvm.store", "llvm.load")
           if not n.startswith("nvvm.read")]
    # partial warp: 5 checked shuffles; full warp: 5 plain ones; store; barrier; the same across warps; barrier
    one_level = ["nvvm.shfl.sync", "llvm.fadd"] * 5 * 2
    assert seq == [*one_level, "llvm.store", "nvvm.barrier0", "llvm.load", *one_level, "llvm.store",
                   "nvvm.barrier0", "llvm.load", "llvm.store"]
    assert low.names("nvvm.read.ptx.sreg") == [f"nvvm.read.ptx.sreg.{r}" for r in
                                                ("ntid.x", "ntid.y", "ntid.z", "tid.x", "tid.y", "tid.z")]
    assert_mlir_accepts(low.text)


def test_all_reduce_region_body_is_inlined() -> None:
    text = kernel("    %r = gpu.all_reduce %v uniform {\n    ^bb(%a : i32, %b : i32):\n"
                  "      %x = arith.xori %a, %b : i32\n      gpu.yield %x : i32\n    } : (i32) -> i32\n"
                  "    %c0 = arith.constant 0 : index\n    memref.store %r, %m[%c0] : memref<1xi32>",
                  "%v: i32, %m: memref<1xi32>")
    low = lower(text)
    assert low.ok, low.messages()
    assert low.names("llvm.xor").count("llvm.xor") == 20
    assert_mlir_accepts(low.text)


def test_non_uniform_all_reduce_is_reported() -> None:
    low = lower(_all_reduce("%r = gpu.all_reduce add %v {} : (f32) -> f32"))
    assert not low.ok
    assert any("gpu.all_reduce without `uniform`" in m for m in low.messages())


def test_nd_vectors_are_arrays_of_1d_vectors() -> None:
    from xdsl.dialects.builtin import IntAttr, VectorType, f16

    assert convert_type(VectorType(f16, [4, 2])) == llvm.LLVMArrayType(IntAttr(4), VectorType(f16, [2]))
    low = lower(device_func("    %r = vector.extract %a[1] : vector<2xf16> from vector<4x2xf16>\n"
                            "    %e = vector.extract %a[2, 1] : f16 from vector<4x2xf16>\n"
                            "    %w = vector.insert %r, %a[0] : vector<2xf16> into vector<4x2xf16>",
                            "%a: vector<4x2xf16>", "vector<2xf16>, f16, vector<4x2xf16>", "%r, %e, %w"))
    assert low.ok, low.messages()
    body = [n for n in low.names("llvm.") if n not in ("llvm.func", "llvm.return", "llvm.mlir.constant",
                                                       "llvm.mlir.poison")]
    assert body[:4] == ["llvm.extractvalue", "llvm.extractvalue", "llvm.extractelement", "llvm.insertvalue"]
    assert_mlir_accepts(low.text)


def test_parse_ok_helper_sees_no_unregistered_ops() -> None:
    parse_ok("func.func @f(%a: f32) -> f32 {\n  %x = math.erfc %a : f32\n  return %x : f32\n}\n")


# Errors whose words and places were xDSL's (issue 29): each first error must be mlir-opt 22's,
# message and line:column (the op's name; a value's use for a type clash).
MLIR_ERROR_CASES = [
    ("%m: memref<4x4xf32>, %i: index", "%0 = memref.load %m[%i] : memref<4x4xf32>"),
    ("%m: memref<4x4xf32>, %i: index, %v: f32", "memref.store %v, %m[%i] : memref<4x4xf32>"),
    ("%m: memref<4xf32>, %i: index", '%0 = "memref.load"(%m, %i, %i) : (memref<4xf32>, index, index) -> f32'),
    ("%a: f32, %b: i32", "%0 = arith.addf %a, %b : f32"),
    ("%p: !llvm.ptr<1>, %i: i32", "%0 = llvm.getelementptr %p[0, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.struct<(i32, f32)>"),
    ("%p: !llvm.ptr<1>", "%0 = llvm.getelementptr %p[0, 5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.struct<(i32, f32)>"),
    ("%p: !llvm.ptr<1>", "%0 = llvm.getelementptr %p[0, 1, 2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, !llvm.struct<(i32, f32)>"),
    # Integer literals too big for their type, in any spelling, and past Python's 4,300 digits.
    ("", "%0 = arith.constant 300 : i8"),
    ("", "%0 = arith.constant -129 : i8"),
    ("", "%0 = arith.constant 0x1FFFFFFFFF : i32"),
    ("", "%0 = arith.constant 0300 : i8"),
    ("", "%0 = arith.constant 99999999999999999999999999999999999999999999 : i64"),
    ("", "%0 = arith.constant 1" + "0" * 5000 + " : i32"),
    ("", "%0 = arith.constant dense<[1, 300]> : tensor<2xi8>"),
    # Literals of the wrong kind for their type.
    ("", "%0 = arith.constant 1 : f32"),
    ("", "%0 = arith.constant -1 : f16"),
    ("", "%0 = arith.constant 1.5 : i32"),
    ("", "%0 = arith.constant 1 : vector<2xf32>"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "body"), MLIR_ERROR_CASES, ids=[body[:48] for _, body in MLIR_ERROR_CASES])
def test_first_error_is_mlir_opts_in_words_and_place(args: str, body: str) -> None:
    from upstream_lowering.util import mlir_opt

    text = f"func.func @f({args}) {{\n  {body}\n  return\n}}\n"
    res = mlir_opt(text)
    theirs = [m[1] for m in re.finditer(r":(\d+:\d+: error: .*)", res.stderr)][:1]
    assert theirs, res.stderr
    source = SourceText(text, "e.mlir")
    diagnostics = parse_upstream(source).diagnostics
    assert diagnostics, "no error"
    line, col = source.line_col(diagnostics[0].span.start)
    assert [f"{line + 1}:{col + 1}: error: {diagnostics[0].message}"] == theirs


BARE_OP_TEXTS = [  # an op name without a dialect: in func.func MLIR tries `func.`, in most ops nothing
    "func.func @f(%a: i32) {\n  %0 = bogus %a : i32\n  return\n}\n",
    "func.func @f() {\n  %0 = arith.constant 1e400 : f32\n  return\n}\n",
    "gpu.module @m {\n  gpu.func @k() kernel {\n    %0 = bogus : i32\n    gpu.return\n  }\n}\n",
    "gpu.module @m {\n  bogus\n}\n",
    "llvm.func @f() {\n  %0 = bogus : i32\n  llvm.return\n}\n",
    "func.func @f(%c: i1) {\n  scf.if %c {\n    bogus\n  }\n  return\n}\n",
    "module {\n  func.func @f() {\n    return\n  }\n  bogus\n}\n",
]


@pytest.mark.parametrize("text", BARE_OP_TEXTS)
def test_an_op_without_a_dialect_is_mlir_opts_error(text: str) -> None:
    from tile_lsp.compiler.upstream import analyze_upstream
    from upstream_lowering.util import mlir_opt

    theirs = [m[1] for m in re.finditer(r":(\d+:\d+: error: .*)", mlir_opt(text).stderr)][:1]
    assert theirs
    source = SourceText(text, "e.mlir")
    diagnostics = [d for d in analyze_upstream(source).diagnostics if d.is_error]
    assert diagnostics, "no error"
    line, col = source.line_col(diagnostics[0].span.start)
    assert [f"{line + 1}:{col + 1}: error: {diagnostics[0].message}"] == theirs


def test_deep_nesting_is_reported_in_words_not_pythons() -> None:
    """Nesting past Python's recursion limit is a diagnostic at the place, not Python's words."""
    text = "func.func @f() {\n  %0 = arith.constant " + "[" * 3000 + "1" + "]" * 3000 + " : i32\n  return\n}\n"
    diagnostics = parse_upstream(SourceText(text, "e.mlir")).diagnostics
    assert [d.message for d in diagnostics] == ["nesting is too deep to parse here"]
    assert 0 < diagnostics[0].span.start < text.index("1]")
