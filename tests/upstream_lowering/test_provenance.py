"""Provenance (docs/pipeline.md): every line of the nvvm, llvm, llvm-ir and ptx stage texts maps back
to the source op it was lowered from, and each source line to the stage lines lowered from it."""

from __future__ import annotations

import pathlib

import pytest

from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.pipeline import CompileResult
from tile_lsp.compiler.provenance import strip_llvm_debug, strip_ptx_debug
from tile_lsp.compiler.source import SourceText, Span
from tile_lsp.compiler.target import CompileOptions, Target

# Source lines (0-based): 2 func, 3 thread_id, 4 block_id, 5 constant, 6 muli, 7 addi,
# 8 load x, 9 load y, 10 mulf, 11 addf, 12 store, 13 return.
AXPY = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%x: memref<256xf32, 1>, %y: memref<256xf32, 1>, %a: f32) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c128 = arith.constant 128 : index
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %xv = memref.load %x[%i] : memref<256xf32, 1>
      %yv = memref.load %y[%i] : memref<256xf32, 1>
      %ax = arith.mulf %a, %xv : f32
      %r = arith.addf %ax, %yv : f32
      memref.store %r, %y[%i] : memref<256xf32, 1>
      gpu.return
    }
  }
}
"""
TID, MULF = 3, 10

# Every line of the MLIR stages, in order: (what the line holds, the source line it maps to).
MLIR_LINES = [
    ("builtin.module", 0),
    ("gpu.module @kernels", 1),
    ("llvm.func @axpy(", 2),
    ("sreg.tid.x", 3),
    ("%tid = llvm.sext", 3),
    ("sreg.ctaid.x", 4),
    ("%bid = llvm.sext", 4),
    ("llvm.mlir.constant(128)", 5),
    ("%base = llvm.mul %bid", 6),
    ("%i = llvm.add %base, %tid", 7),
    ("llvm.getelementptr %x[%i]", 8),
    ("%xv = llvm.load", 8),
    ("llvm.getelementptr %y[%i]", 9),
    ("%yv = llvm.load", 9),
    ("%ax = llvm.fmul %a, %xv", 10),
    ("%r = llvm.fadd %ax, %yv", 11),
    ("llvm.getelementptr %y[%i]", 12),
    ("llvm.store %r", 12),
    ("llvm.return", 13),
    ("    }", 2),
    ("  }", 1),
    ("}", 0),
]
# The located lines of the optimized LLVM IR, in order.
LLVM_IR_LINES = [
    ("define ptx_kernel void @axpy(", 2),
    ("call i32 @llvm.nvvm.read.ptx.sreg.tid.x()", 3),
    ("zext nneg i32 %v0", 3),
    ("call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()", 4),
    ("zext nneg i32 %v2", 4),
    ("shl nuw nsw i64 %v3, 7", 6),  # muli by 128
    ("add nuw nsw i64 %v5, %v1", 7),
    ("getelementptr float, ptr addrspace(1) %arg0", 8),
    ("load float", 8),
    ("getelementptr float, ptr addrspace(1) %arg1", 9),
    ("load float", 9),
    ("fmul float %arg2", 10),
    ("fadd float", 11),
    ("store float", 12),
    ("ret void", 13),
]
# The located PTX instructions but the parameter loads, in order.
PTX_LINES = [
    ("mov.u32 \t%r1, %tid.x;", 3),
    ("cvt.u64.u32", 3),
    ("mov.u32 \t%r3, %ctaid.x;", 4),
    ("mul.wide.u32", 6),
    ("add.s64", 7),
    ("shl.b64", 8),
    ("add.s64", 8),
    ("ld.global.b32", 8),
    ("add.s64", 9),
    ("ld.global.b32", 9),
    ("mul.rn.f32", 10),
    ("add.rn.f32", 11),
    ("st.global.b32", 12),
    ("ret;", 13),
]


def _compile(text: str = AXPY, path: str = "axpy.mlir", **options: object) -> CompileResult:
    opts = CompileOptions(target=Target(90, "a"), **options)  # type: ignore[arg-type]
    result = compile_source(SourceText(text, path), opts, "ptx")
    assert result.ok, [d.message for d in result.diagnostics]
    return result


@pytest.fixture(scope="module")
def axpy() -> CompileResult:
    return _compile()


def _located(result: CompileResult, stage: str) -> list[tuple[str, int]]:
    out = result.stage(stage)
    assert out is not None
    lines = out.text.splitlines()
    refs = result.stage_lines(stage)
    assert len(refs) == len(lines)
    return [(" ".join(lines[i].split()), ref.line) for i, ref in enumerate(refs) if ref is not None]


def _matches(got: list[tuple[str, int]], want: list[tuple[str, int]]) -> None:
    assert len(got) == len(want), got
    for (text, line), (needle, src) in zip(got, want, strict=True):
        assert " ".join(needle.split()) in text and line == src, (text, line, needle, src)


@pytest.mark.parametrize("stage", ["nvvm", "llvm"])
def test_every_mlir_line_maps_to_its_source_op(axpy: CompileResult, stage: str) -> None:
    out = axpy.stage(stage)
    assert out is not None and "loc(" not in out.text  # the shown text stays readable
    assert len(out.text.splitlines()) == len(MLIR_LINES)
    _matches(_located(axpy, stage), MLIR_LINES)
    if stage == "nvvm":
        assert "nvvm.read.ptx.sreg.tid.x" in out.text.splitlines()[3]


def test_llvm_ir_lines_map_to_source(axpy: CompileResult) -> None:
    _matches(_located(axpy, "llvm-ir"), LLVM_IR_LINES)
    out = axpy.stage("llvm-ir")
    assert out is not None and "!dbg" not in out.text and "DILocation" not in out.text


def test_ptx_instructions_map_to_source(axpy: CompileResult) -> None:
    located = _located(axpy, "ptx")
    params = [item for item in located if item[0].startswith("ld.param")]
    assert len(params) == 3 and all(2 <= line <= 13 for _, line in params)  # `.loc` carries over
    _matches([item for item in located if not item[0].startswith("ld.param")], PTX_LINES)
    out = axpy.stage("ptx")
    assert out is not None and ".loc" not in out.text and ".file" not in out.text
    # Every instruction is located; structure (directives, braces, blanks) is not.
    lines = out.text.splitlines()
    for line, ref in zip(lines, axpy.stage_lines("ptx"), strict=True):
        is_instruction = line.startswith("\t") and line.endswith(";") and not line.lstrip().startswith(".")
        assert (ref is not None) == is_instruction, line


def test_inverse_lists_the_lines_of_a_source_line(axpy: CompileResult) -> None:
    ptx = axpy.stage("ptx")
    assert ptx is not None
    lines = ptx.text.splitlines()
    mov = next(i for i, t in enumerate(lines) if "mov.u32" in t and "%tid.x" in t)
    cvt = next(i for i, t in enumerate(lines) if "cvt.u64.u32" in t)
    back = axpy.source_to_lines("ptx", TID)
    assert mov in back
    assert {i for i in back if "ld.param" not in lines[i]} == {mov, cvt}
    assert axpy.source_to_lines("nvvm", TID) == [3, 4]
    assert axpy.source_to_lines("llvm", TID) == [3, 4]
    ir = axpy.stage("llvm-ir")
    assert ir is not None
    assert [ir.text.splitlines()[i].split("=")[0].strip() for i in axpy.source_to_lines("llvm-ir", TID)] == ["%v0", "%v1"]
    mul = [i for i, t in enumerate(lines) if "mul.rn.f32" in t]
    assert axpy.source_to_lines("ptx", MULF) == mul
    assert axpy.source_to_lines("ptx", 0) == [] and axpy.source_to_lines("ptx", 999) == []


def test_inverse_by_source_range(axpy: CompileResult) -> None:
    start = AXPY.index("%ax = arith.mulf")
    span = Span(start, AXPY.index("\n", start))
    assert axpy.source_to_lines("nvvm", span) == axpy.source_to_lines("nvvm", MULF) == [14]
    assert axpy.source_to_lines("ptx", span) == axpy.source_to_lines("ptx", MULF)
    ref = axpy.stage_lines("nvvm")[14]
    assert ref is not None and ref.path == "axpy.mlir" and (ref.line, ref.column) == (MULF, 6)
    assert ref.span is not None and AXPY[ref.span.start : ref.span.end].startswith("%ax = arith.mulf %a, %xv")


def test_whole_function_lines_map_to_the_function(axpy: CompileResult) -> None:
    nvvm = axpy.stage("nvvm")
    assert nvvm is not None
    func = axpy.source_to_lines("nvvm", 2)
    assert [nvvm.text.splitlines()[i].strip()[:9] for i in func] == ["llvm.func", "}"]


KERNEL_FILE = pathlib.Path(__file__).parent / "data" / "llvmir_kernel.mlir"


@pytest.mark.parametrize("target", [Target(80), Target(90, "a")])
@pytest.mark.parametrize("name", ["axpy", "llvmir_kernel"])
def test_map_changes_no_shown_text(name: str, target: Target) -> None:
    """The line info compiled in for the map is not in the texts shown without --lineinfo: they
    are byte for byte what a compile without a map gives (libdevice calls included)."""
    text, path = (AXPY, "axpy.mlir") if name == "axpy" else (KERNEL_FILE.read_text(), str(KERNEL_FILE))
    source = SourceText(text, path)
    mapped = compile_source(source, CompileOptions(target=target), "cubin")
    plain = compile_source(source, CompileOptions(target=target), "cubin", provenance=False)
    assert mapped.ok and plain.ok, [d.message for d in mapped.diagnostics + plain.diagnostics]
    assert [s.name for s in mapped.stages] == [s.name for s in plain.stages]
    for a, b in zip(mapped.stages, plain.stages, strict=True):
        assert a.text == b.text, a.name
        assert a.data == b.data, a.name
    assert all(ref is None for ref in plain.stage_lines("ptx"))
    assert all(ref is None for ref in plain.stage_lines("nvvm"))
    assert sum(ref is not None for ref in mapped.stage_lines("ptx")) > 10


def test_with_lineinfo_the_shown_ptx_keeps_loc_and_the_map() -> None:
    result = _compile(lineinfo=True)
    ptx = result.stage("ptx")
    assert ptx is not None and "\t.loc\t1 4 7" in ptx.text
    lines = ptx.text.splitlines()
    (mov,) = [i for i, t in enumerate(lines) if "%tid.x" in t]
    assert mov in result.source_to_lines("ptx", TID)
    ir = result.stage("llvm-ir")
    assert ir is not None and "!dbg" in ir.text
    assert [line for _, line in _located(result, "llvm-ir")] == [src for _, src in LLVM_IR_LINES]


def test_stage_lines_of_a_stage_that_did_not_run(axpy: CompileResult) -> None:
    assert axpy.stage_lines("cubin") == [] and axpy.stage_lines("tileaa") == []
    assert axpy.source_to_lines("cubin", TID) == []


def test_strip_ptx_debug_drops_debug_sections_and_labels() -> None:
    ptx = (
        ".version 8.7\n.target sm_90a\n\n.visible .entry k()\n{\n$L__func_begin0:\n\t.loc\t1 3 0\n\n"
        "\tret;\n$L__tmp0:\n$L__func_end0:\n\n}\n"
        "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 107\n.b8 0\n\t}\n\t.file\t1 \"k.mlir\"\n"
    )
    text, kept = strip_ptx_debug(ptx)
    assert text == ".version 8.7\n.target sm_90a\n\n.visible .entry k()\n{\n\n\tret;\n\n}\n"
    original = ptx.splitlines()
    assert [original[i] for i in kept] == text.splitlines()


def test_strip_llvm_debug_renumbers_the_metadata_left() -> None:
    ir = (
        "define void @k() !dbg !4 {\n  ret void, !dbg !7\n}\n\n!llvm.dbg.cu = !{!0}\n"
        "!llvm.module.flags = !{!2, !3}\n!nvvm.annotations = !{!8}\n\n"
        '!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, emissionKind: DebugDirectivesOnly)\n'
        '!1 = !DIFile(filename: "k.mlir", directory: "")\n!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}\n'
        '!3 = !{i32 2, !"Debug Info Version", i32 3}\n!4 = distinct !DISubprogram(name: "k", scope: !1, file: !1, '
        "line: 3, type: !5, unit: !0)\n!5 = !DISubroutineType(types: !6)\n!6 = !{}\n"
        "!7 = !DILocation(line: 4, column: 7, scope: !4)\n!8 = !{ptr @k, !\"kernel\", i32 1}\n"
    )
    text, kept = strip_llvm_debug(ir)
    assert text == (
        "define void @k() {\n  ret void\n}\n\n!llvm.module.flags = !{!0}\n!nvvm.annotations = !{!1}\n\n"
        '!0 = !{i32 4, !"nvvm-reflect-ftz", i32 0}\n!1 = !{ptr @k, !"kernel", i32 1}\n'
    )
    assert kept[:2] == [0, 1]
