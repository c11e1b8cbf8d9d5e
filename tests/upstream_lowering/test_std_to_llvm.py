"""arith / scf / cf / memref / func / vector -> llvm in the nvvm stage (bare-pointer memrefs),
checked op by op and in order; every result verifies in mlir-opt 22."""

from __future__ import annotations

import pytest
from xdsl.dialects import llvm

from tile_lsp.compiler.lowering.types import convert_type, memref_unsupported
from upstream_lowering.nvvm_stage import device_func, kernel, lower
from upstream_lowering.util import assert_mlir_accepts


def body_names(low: object, func: str = "f") -> list[str]:
    return [op.name for op in low.func(func).walk()][1:]  # type: ignore[attr-defined, union-attr]


@pytest.mark.parametrize(
    ("src", "dst", "ty"),
    [
        ("arith.addi", "llvm.add", "i32"), ("arith.subi", "llvm.sub", "i64"), ("arith.muli", "llvm.mul", "i32"),
        ("arith.divsi", "llvm.sdiv", "i32"), ("arith.divui", "llvm.udiv", "i32"), ("arith.remsi", "llvm.srem", "i32"),
        ("arith.andi", "llvm.and", "i1"), ("arith.ori", "llvm.or", "i8"), ("arith.xori", "llvm.xor", "i16"),
        ("arith.shli", "llvm.shl", "i32"), ("arith.shrsi", "llvm.ashr", "i32"), ("arith.shrui", "llvm.lshr", "i32"),
        ("arith.maxsi", "llvm.intr.smax", "i32"), ("arith.minui", "llvm.intr.umin", "i32"),
        ("arith.addf", "llvm.fadd", "f32"), ("arith.subf", "llvm.fsub", "f16"), ("arith.mulf", "llvm.fmul", "f64"),
        ("arith.divf", "llvm.fdiv", "f32"), ("arith.maximumf", "llvm.intr.maximum", "f32"),
        ("arith.minnumf", "llvm.intr.minnum", "f32"), ("arith.addi", "llvm.add", "index"),
        ("arith.addf", "llvm.fadd", "vector<4xf32>"),
    ],
)
def test_binary_ops(src: str, dst: str, ty: str) -> None:
    low = lower(device_func(f"    %r = {src} %a, %b : {ty}", f"%a: {ty}, %b: {ty}", ty, "%r"))
    assert low.ok, low.messages()
    assert body_names(low) == [dst, "llvm.return"]
    assert_mlir_accepts(low.text)


@pytest.mark.parametrize(
    ("src", "dst", "a", "b"),
    [
        ("arith.extsi", "llvm.sext", "i8", "i32"), ("arith.extui", "llvm.zext", "i8", "i32"),
        ("arith.trunci", "llvm.trunc", "i64", "i32"), ("arith.extf", "llvm.fpext", "f16", "f32"),
        ("arith.truncf", "llvm.fptrunc", "f32", "bf16"), ("arith.sitofp", "llvm.sitofp", "i32", "f32"),
        ("arith.uitofp", "llvm.uitofp", "i32", "f32"), ("arith.fptosi", "llvm.fptosi", "f32", "i32"),
        ("arith.fptoui", "llvm.fptoui", "f64", "i64"), ("arith.bitcast", "llvm.bitcast", "f32", "i32"),
        ("arith.index_cast", "llvm.sext", "i32", "index"), ("arith.index_cast", "llvm.trunc", "index", "i32"),
    ],
)
def test_casts(src: str, dst: str, a: str, b: str) -> None:
    low = lower(device_func(f"    %r = {src} %x : {a} to {b}", f"%x: {a}", b, "%r"))
    assert low.ok, low.messages()
    assert body_names(low) == [dst, "llvm.return"]
    assert_mlir_accepts(low.text)


def test_index_cast_between_i64_and_index_is_free() -> None:
    low = lower(device_func("    %r = arith.index_cast %x : i64 to index", "%x: i64", "index", "%r"))
    assert low.ok, low.messages()
    assert body_names(low) == ["llvm.return"]


@pytest.mark.parametrize(("op", "pred", "ty", "dst"), [
    ("arith.cmpi", "slt", "i32", "llvm.icmp"), ("arith.cmpi", "uge", "index", "llvm.icmp"),
    ("arith.cmpf", "olt", "f32", "llvm.fcmp"), ("arith.cmpf", "une", "f64", "llvm.fcmp"),
])
def test_compare_keeps_predicate(op: str, pred: str, ty: str, dst: str) -> None:
    low = lower(device_func(f"    %r = {op} {pred}, %a, %b : {ty}", f"%a: {ty}, %b: {ty}", "i1", "%r"))
    assert low.ok, low.messages()
    assert body_names(low) == [dst, "llvm.return"]
    assert f'"{pred}"' in low.text
    assert_mlir_accepts(low.text)


def test_select_constant_negf() -> None:
    low = lower(device_func("    %c = arith.constant 2.5 : f32\n    %i = arith.constant 7 : index\n"
                            "    %n = arith.negf %a : f32\n    %s = arith.select %p, %c, %n : f32",
                            "%a: f32, %p: i1", "f32, index", "%s, %i"))
    assert low.ok, low.messages()
    names = body_names(low)
    assert names[:4] == ["llvm.mlir.constant", "llvm.mlir.constant", "llvm.fneg", "llvm.select"]
    assert "7 : i64" in low.text or "(7)" in low.text
    assert_mlir_accepts(low.text)


def test_scf_for_becomes_header_body_exit_blocks() -> None:
    text = device_func(
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        "    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {\n"
        "      %y = arith.addf %acc, %x : f32\n      scf.yield %y : f32\n    }",
        "%n: index, %x: f32", "f32", "%r")
    low = lower(text)
    assert low.ok, low.messages()
    blocks = list(low.func("f").regions[0].blocks)
    assert len(blocks) == 4
    entry, header, body, exit_ = blocks
    assert entry.last_op.name == "llvm.br" and entry.last_op.successors[0] is header  # type: ignore[union-attr]
    assert [op.name for op in header.ops] == ["llvm.icmp", "llvm.cond_br"]
    assert header.last_op.successors == (body, exit_) or list(header.last_op.successors) == [body, exit_]  # type: ignore[union-attr]
    assert [op.name for op in body.ops] == ["llvm.fadd", "llvm.add", "llvm.br"]
    assert [str(a.type) for a in header.args] == ["i64", "f32"]
    assert [op.name for op in exit_.ops] == ["llvm.return"]
    assert_mlir_accepts(low.text)


def test_scf_if_with_results_and_while() -> None:
    text = device_func(
        "    %r = scf.if %p -> (i32) {\n      scf.yield %a : i32\n    } else {\n"
        "      %b = arith.addi %a, %a : i32\n      scf.yield %b : i32\n    }\n"
        "    %w = scf.while (%v = %r) : (i32) -> i32 {\n"
        "      %c = arith.cmpi slt, %v, %a : i32\n      scf.condition(%c) %v : i32\n"
        "    } do {\n    ^bb0(%v2: i32):\n      %n = arith.addi %v2, %v2 : i32\n      scf.yield %n : i32\n    }",
        "%p: i1, %a: i32", "i32", "%w")
    low = lower(text)
    assert low.ok, low.messages()
    assert not low.names("scf.", "cf.")
    assert low.names("llvm.cond_br") == ["llvm.cond_br", "llvm.cond_br"]
    assert_mlir_accepts(low.text)


def test_memref_load_store_linearise_row_major() -> None:
    low = lower(device_func("    %v = memref.load %m[%i, %j] : memref<4x8xf32, 1>\n"
                            "    memref.store %v, %m[%j, %i] : memref<4x8xf32, 1>",
                            "%m: memref<4x8xf32, 1>, %i: index, %j: index", "f32", "%v"))
    assert low.ok, low.messages()
    names = [n for n in body_names(low) if n != "llvm.mlir.constant"]
    assert names == ["llvm.mul", "llvm.add", "llvm.getelementptr", "llvm.load",
                     "llvm.mul", "llvm.add", "llvm.getelementptr", "llvm.store", "llvm.return"]
    gep = low.ops("llvm.getelementptr")[0]
    assert str(gep.results[0].type) == "!llvm.ptr<1>" and str(gep.properties["elem_type"]) == "f32"
    consts = [op.properties["value"].value.data for op in low.ops("llvm.mlir.constant")]  # type: ignore[attr-defined]
    assert consts == [8, 8]  # the row stride of memref<4x8xf32>
    assert_mlir_accepts(low.text)


def test_memref_constant_index_folds_into_gep() -> None:
    low = lower(device_func("    %c1 = arith.constant 1 : index\n    %c2 = arith.constant 2 : index\n"
                            "    %v = memref.load %m[%c1, %c2] : memref<4x8xf32>", "%m: memref<4x8xf32>", "f32", "%v"))
    assert low.ok, low.messages()
    gep = low.ops("llvm.getelementptr")[0]
    assert list(gep.properties["rawConstantIndices"].get_values()) == [10]  # type: ignore[attr-defined]
    assert_mlir_accepts(low.text)


def test_memref_alloca_global_and_get_global() -> None:
    text = ("gpu.module @m {\n  \"memref.global\"() <{sym_name = \"tbl\", sym_visibility = \"private\", "
            "type = memref<4xf32>, initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, constant}> "
            ": () -> ()\n"
            "  func.func @f(%i: index) -> f32 {\n    %g = memref.get_global @tbl : memref<4xf32>\n"
            "    %a = memref.alloca() : memref<4xf32>\n    %v = memref.load %g[%i] : memref<4xf32>\n"
            "    memref.store %v, %a[%i] : memref<4xf32>\n    %w = memref.load %a[%i] : memref<4xf32>\n"
            "    func.return %w : f32\n  }\n}\n")
    low = lower(text)
    assert low.ok, low.messages()
    glob = [g for g in low.ops("llvm.mlir.global") if g.sym_name.data == "tbl"][0]  # type: ignore[attr-defined, union-attr]
    assert str(glob.global_type) == "!llvm.array<4 x f32>"  # type: ignore[attr-defined, union-attr]
    assert "llvm.alloca" in low.names() and "llvm.mlir.addressof" in low.names()
    assert_mlir_accepts(low.text)


def test_func_call_and_multiple_results() -> None:
    text = ("gpu.module @m {\n  func.func private @g(f32) -> (f32, i32)\n"
            "  func.func @f(%x: f32) -> (f32, i32) {\n    %a, %b = func.call @g(%x) : (f32) -> (f32, i32)\n"
            "    func.return %a, %b : f32, i32\n  }\n}\n")
    low = lower(text)
    assert low.ok, low.messages()
    assert body_names(low) == ["llvm.call", "llvm.extractvalue", "llvm.extractvalue", "llvm.mlir.poison",
                               "llvm.insertvalue", "llvm.insertvalue", "llvm.return"]
    assert_mlir_accepts(low.text)


def test_vector_extract_insert_broadcast() -> None:
    low = lower(device_func("    %b = vector.broadcast %x : f32 to vector<4xf32>\n"
                            "    %i = vector.insert %x, %b [2] : f32 into vector<4xf32>\n"
                            "    %e = vector.extract %i[3] : f32 from vector<4xf32>",
                            "%x: f32", "f32", "%e"))
    assert low.ok, low.messages()
    names = [n for n in body_names(low) if n != "llvm.mlir.constant"]
    assert names == ["llvm.mlir.poison", "llvm.insertelement", "llvm.shufflevector", "llvm.insertelement",
                     "llvm.extractelement", "llvm.return"]
    assert_mlir_accepts(low.text)


def test_kernel_bare_pointer_arguments() -> None:
    low = lower(kernel("", "%a: memref<8xf32>, %b: memref<2x2xi32, #gpu.address_space<global>>, %n: index"))
    assert low.ok, low.messages()
    assert [str(t) for t in low.func("k").function_type.inputs.data] == ["!llvm.ptr", "!llvm.ptr<1>", "i64"]  # type: ignore[attr-defined, union-attr]
    assert_mlir_accepts(low.text)


def test_type_converter_contract() -> None:
    from xdsl.dialects.builtin import IndexType, MemRefType, f32, i64

    assert convert_type(IndexType()) == i64
    assert convert_type(MemRefType(f32, [4, 4])) == llvm.LLVMPointerType()
    assert convert_type(MemRefType(f32, [-1])) is None
    assert memref_unsupported(MemRefType(f32, [-1])) is not None


def test_dynamic_memref_is_reported_at_the_op() -> None:
    low = lower(device_func("    %c0 = arith.constant 0 : index\n    %v = memref.load %m[%c0] : memref<?xf32>",
                            "%m: memref<?xf32>", "f32", "%v"))
    assert not low.ok
    assert any(m.startswith("not supported by the nvvm stage") for m in low.messages())


def test_static_subview_keeps_the_base_pointer_and_offsets_in_the_type() -> None:
    low = lower(device_func(
        "    %s = memref.subview %m[1, 2] [2, 2] [1, 1] : memref<4x8xf32> to memref<2x2xf32, strided<[8, 1], offset: 10>>\n"
        "    %c1 = arith.constant 1 : index\n    %v = memref.load %s[%c1, %c1] : memref<2x2xf32, strided<[8, 1], offset: 10>>",
        "%m: memref<4x8xf32>", "f32", "%v"))
    assert low.ok, low.messages()
    gep = low.ops("llvm.getelementptr")[0]
    assert list(gep.properties["rawConstantIndices"].get_values()) == [19]  # type: ignore[attr-defined]  # 10 + 8 + 1
    assert gep.operands[0] is low.func("f").regions[0].blocks.first.args[0]  # type: ignore[union-attr]
    assert_mlir_accepts(low.text)


def test_ub_poison() -> None:
    low = lower(device_func("    %p = ub.poison : f32", "", "f32", "%p"))
    assert low.ok, low.messages()
    assert body_names(low) == ["llvm.mlir.poison", "llvm.return"]


_CUTILE = __import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "cutile"


@pytest.mark.parametrize("name", ["attention", "layernorm", "control_flow"])
def test_in_place_lowering_and_last_first_scf_leave_the_same_ir(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The nvvm stage's shortcuts change nothing in what it makes: one-to-one ops and branches
    turned into their llvm op in place (`_in_place`, `_branch_in_place`) vs a new op each, and scf ops lowered last first (each
    block split then moves only the ops up to the next, already lowered, one) vs in walk order.
    Every stage text, from nvvm to PTX, is the same."""
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.lowering import common, std_to_llvm, to_nvvm
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    path = _CUTILE / f"{name}.mlir"
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    monkeypatch.setenv("TILE_LSP_JOBS", "1")  # the entries in this process, where the counter is

    def stages() -> dict[str, str]:
        result = compile_source(SourceText(path.read_text(), str(path)), options, "ptx", cache=False)
        assert result.ok, [d.message for d in result.diagnostics]
        return {s.name: s.text for s in result.stages if s.name in ("nvvm", "llvm", "llvm-ir", "ptx")}

    def counting(name: str) -> list[bool]:
        """Each answer of std_to_llvm's shortcut `name` while the compile runs."""
        shortcut, answers = getattr(std_to_llvm, name), []

        def counted(*args: object) -> bool:
            answers.append(shortcut(*args))
            return answers[-1]

        monkeypatch.setattr(std_to_llvm, name, counted)
        return answers

    taken, branches = counting("_in_place"), counting("_branch_in_place")
    fast = stages()
    assert sum(taken) > 10  # the shortcuts were taken (and the slow run below never takes them)
    assert sum(branches) > 2
    assert std_to_llvm.IN_PLACE
    monkeypatch.setattr(std_to_llvm, "IN_PLACE", False)

    def walk_order(*args: object, last_first: bool = False, **kwargs: object) -> None:
        common.apply_patterns_to(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(to_nvvm, "apply_patterns_to", walk_order)
    slow = stages()
    assert set(fast) == {"nvvm", "llvm", "llvm-ir", "ptx"}
    for stage, text in fast.items():
        assert text == slow[stage], stage
