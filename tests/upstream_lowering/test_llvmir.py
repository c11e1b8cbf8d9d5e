"""The llvm dialect -> LLVM IR emitter (backend/llvmir.py): every instruction shape it writes,
checked in order, and the text parsed + verified by llvmlite (LLVM 22)."""

from __future__ import annotations

import pathlib
import re

import pytest
from xdsl.dialects import builtin
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

from tile_lsp.compiler.backend.llvmir import emit_llvm_ir
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.mlir.dialects import llvm_ext
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.util import parse_ok

DATA = pathlib.Path(__file__).parent / "data"
KERNEL = DATA / "llvmir_kernel.mlir"
SM90A = Target(90, "a")


def emit(text: str, *, path: str = "t.mlir", lineinfo: bool = False) -> tuple[str | None, LoweringContext]:
    parsed = parse_ok(text, path)
    assert parsed.module is not None
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A, lineinfo=lineinfo), spans=parsed.spans)
    return emit_llvm_ir(parsed.module, lctx), lctx


def verified(ir: str | None) -> str:
    import llvmlite.binding as llvm

    assert ir is not None
    module = llvm.parse_assembly(ir)
    module.verify()
    return ir


def body_lines(ir: str, func: str) -> list[str]:
    """Instruction lines of `func` without names and metadata, for order checks."""
    start = ir.index(f"@{func}(")
    end = ir.index("\n}", start)
    lines = []
    for line in ir[start:end].splitlines()[1:]:
        line = re.sub(r", !dbg !\d+", "", line.strip())
        lines.append(line)
    return lines


def assert_in_order(lines: list[str], patterns: list[str]) -> None:
    at = 0
    for pat in patterns:
        while at < len(lines) and not re.search(pat, lines[at]):
            at += 1
        assert at < len(lines), f"{pat!r} not found in order in:\n" + "\n".join(lines)
        at += 1


def kernel_ir(lineinfo: bool = False) -> str:
    ir, lctx = emit(KERNEL.read_text(), path=str(KERNEL), lineinfo=lineinfo)
    assert not lctx.sink.items, [d.message for d in lctx.sink.items]
    return verified(ir)


def test_kernel_header_and_globals() -> None:
    ir = kernel_ir()
    assert 'target triple = "nvptx64-nvidia-cuda"' in ir
    assert 'target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"' in ir
    assert "@smem = internal addrspace(3) global [128 x float] undef, align 16" in ir
    assert '@fmt = internal constant [6 x i8] c"v=%f\\0A\\00"' in ir
    assert "@counter = internal addrspace(1) global i32 0" in ir
    assert "declare float @__nv_expf(float)" in ir
    assert "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()" in ir
    assert "declare float @llvm.fma.f32(float, float, float)" in ir


def test_kernel_is_ptx_kernel_with_launch_bounds() -> None:
    ir = kernel_ir()
    m = re.search(
        r"define ptx_kernel void @axpy\(ptr addrspace\(1\) noalias %arg0, ptr addrspace\(1\) %arg1, "
        r"float %arg2, i32 %arg3\) #(\d+) \{",
        ir,
    )
    assert m is not None, ir
    assert f'attributes #{m.group(1)} = {{ "nvvm.maxntid"="128,1,1" }}' in ir


def test_kernel_instructions_in_order() -> None:
    lines = body_lines(kernel_ir(), "axpy")
    assert_in_order(
        lines,
        [
            r"^bb0:$",
            r"= call i32 @llvm\.nvvm\.read\.ptx\.sreg\.tid\.x\(\)$",
            r"= call i32 @llvm\.nvvm\.read\.ptx\.sreg\.ctaid\.x\(\)$",
            r"= mul i32 %v1, 128$",
            r"= icmp slt i32 %v\d+, %arg3$",
            r"^br i1 %v\d+, label %bb1, label %bb\d+$",
            r"= getelementptr inbounds float, ptr addrspace\(1\) %arg0, i32 %v\d+$",
            r"= load float, ptr addrspace\(1\) %v\d+, align 4$",
            r"= call float @__nv_expf\(float %v\d+\)$",
            r"= getelementptr inbounds \[128 x float\], ptr addrspace\(3\) @smem, i32 0, i32 %v0$",
            r"^store float %v\d+, ptr addrspace\(3\) %v\d+, align 4$",
            r'^call void asm sideeffect "bar\.sync 0;", ""\(\)$',
            r"= and i32 %v\d+, 127$",
            r"= load float, ptr addrspace\(3\) %v\d+, align 4$",
            r"^br label %bb2$",
            r"^bb2:$",
            r"= phi i32 \[ 0, %bb1 \], \[ %v\d+, %bb3 \]$",
            r"= phi float \[ 0x0000000000000000, %bb1 \], \[ %v\d+, %bb3 \]$",
            r"= sitofp i32 %b2_0 to float$",
            r"= call float @llvm\.fma\.f32\(float %v\d+, float %v\d+, float %b2_1\)$",
            r'= atomicrmw fadd ptr addrspace\(1\) %v\d+, float %b2_1 syncscope\("device"\) monotonic, align 4$',
            r"= atomicrmw add ptr addrspace\(1\) @counter, i32 1 monotonic$",
            r"= cmpxchg ptr addrspace\(1\) @counter, i32 %v\d+, i32 0 acq_rel monotonic$",
            r"= extractvalue \{ i32, i1 \} %v\d+, 1$",
            r'^fence syncscope\("device"\) release$',
            r"= insertelement <2 x float> undef, float %b2_1, i32 0$",
            r"= fadd <2 x float> %v\d+, %v\d+$",
            r'= call i32 asm "mov\.u32 \$0, %laneid;", "=r"\(\)$',
            r"= and i1 %v\d+, %v\d+$",
            r"= extractelement <2 x float> %v\d+, i32 0$",
            r"= fpext float %v\d+ to double$",
            r"= alloca \{ double \}, i64 1, align 8$",
            r"= insertvalue \{ double \} undef, double %v\d+, 0$",
            r"^store \{ double \} %v\d+, ptr %v\d+$",
            r"= call i32 @vprintf\(ptr @fmt, ptr %v\d+\)$",
            r"^ret void$",
        ],
    )


def test_top_level_llvm_module_and_switch() -> None:
    text = """module {
  llvm.func @pick(%i: i32, %a: f32, %b: f32) -> f32 {
    llvm.switch %i : i32, ^bb2 [
      0: ^bb1(%b : f32),
      -1: ^bb2
    ]
  ^bb1(%r: f32):
    llvm.return %r : f32
  ^bb2:
    %z = llvm.mlir.constant(1.5 : f32) : f32
    llvm.return %z : f32
  }
}
"""
    ir, lctx = emit(text)
    assert not lctx.sink.items
    assert body_lines(verified(ir), "pick") == [
        "bb0:",
        "switch i32 %arg0, label %bb2 [ i32 0, label %bb1 i32 -1, label %bb2 ]",
        "bb1:",
        "%b1_0 = phi float [ %arg2, %bb0 ]",
        "ret float %b1_0",
        "bb2:",
        "ret float 0x3FF8000000000000",
    ]


def test_same_block_twice_with_different_values_is_a_diagnostic() -> None:
    text = """module {
  llvm.func @pick(%c: i1, %a: f32, %b: f32) -> f32 {
    llvm.cond_br %c, ^bb1(%a : f32), ^bb1(%b : f32)
  ^bb1(%r: f32):
    llvm.return %r : f32
  }
}
"""
    ir, lctx = emit(text)
    assert ir is None
    assert [d.message for d in lctx.sink.items] == ["a branch passes different values to the same block twice"]


def test_constants_are_exact() -> None:
    text = """module {
  llvm.func @c(%p: !llvm.ptr<1>) {
    %a = llvm.mlir.constant(0.1 : f32) : f32
    %b = llvm.mlir.constant(-2.5 : f16) : f16
    %c = llvm.mlir.constant(3.0 : bf16) : bf16
    %d = llvm.mlir.constant(0.1 : f64) : f64
    %e = llvm.mlir.constant(dense<[1.0, 2.0]> : vector<2xf32>) : vector<2xf32>
    %f = llvm.mlir.constant(-1 : i8) : i8
    %g = llvm.mlir.constant(true) : i1
    llvm.store %a, %p : f32, !llvm.ptr<1>
    llvm.store %b, %p : f16, !llvm.ptr<1>
    llvm.store %c, %p : bf16, !llvm.ptr<1>
    llvm.store %d, %p : f64, !llvm.ptr<1>
    llvm.store %e, %p : vector<2xf32>, !llvm.ptr<1>
    llvm.store %f, %p : i8, !llvm.ptr<1>
    llvm.store %g, %p : i1, !llvm.ptr<1>
    llvm.return
  }
}
"""
    ir, _ = emit(text)
    assert body_lines(verified(ir), "c")[1:8] == [
        "store float 0x3FB99999A0000000, ptr addrspace(1) %arg0",
        "store half 0xHC100, ptr addrspace(1) %arg0",
        "store bfloat 0xR4040, ptr addrspace(1) %arg0",
        "store double 0x3FB999999999999A, ptr addrspace(1) %arg0",
        "store <2 x float> <float 0x3FF0000000000000, float 0x4000000000000000>, ptr addrspace(1) %arg0",
        "store i8 -1, ptr addrspace(1) %arg0",
        "store i1 true, ptr addrspace(1) %arg0",
    ]


def test_memory_flags_and_casts() -> None:
    text = """module {
  llvm.func @m(%p: !llvm.ptr<1>, %x: f32, %i: i32) {
    %0 = llvm.load volatile %p atomic syncscope("block") acquire {alignment = 4 : i64} : !llvm.ptr<1> -> i32
    llvm.store %0, %p atomic release {alignment = 4 : i64, nontemporal} : i32, !llvm.ptr<1>
    %1 = llvm.cmpxchg weak volatile %p, %i, %0 syncscope("block") seq_cst acquire : !llvm.ptr<1>, i32
    %2 = llvm.atomicrmw _or %p, %i release : !llvm.ptr<1>, i32
    %3 = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr
    %4 = llvm.fptoui %x : f32 to i16
    %5 = llvm.uitofp nneg %i : i32 to f32
    %6 = llvm.trunc %i overflow<nsw> : i32 to i8
    %7 = llvm.add %i, %i overflow<nsw, nuw> : i32
    %8 = llvm.freeze %i : i32
    llvm.fence syncscope("block") acq_rel
    llvm.return
  }
}
"""
    ir, _ = emit(text)
    assert body_lines(verified(ir), "m")[1:13] == [
        '%v0 = load atomic volatile i32, ptr addrspace(1) %arg0 syncscope("block") acquire, align 4',
        "store atomic i32 %v0, ptr addrspace(1) %arg0 release, align 4, !nontemporal !0",
        '%v1 = cmpxchg weak volatile ptr addrspace(1) %arg0, i32 %arg2, i32 %v0 syncscope("block") seq_cst acquire',
        "%v2 = atomicrmw or ptr addrspace(1) %arg0, i32 %arg2 release",
        "%v3 = addrspacecast ptr addrspace(1) %arg0 to ptr",
        "%v4 = fptoui float %arg1 to i16",
        "%v5 = uitofp nneg i32 %arg2 to float",
        "%v6 = trunc nsw i32 %arg2 to i8",
        "%v7 = add nuw nsw i32 %arg2, %arg2",
        "%v8 = freeze i32 %arg2",
        'fence syncscope("block") acq_rel',
        "ret void",
    ]


def test_intrinsic_ops_get_mangled_names() -> None:
    text = """module {
  llvm.func @i(%x: f32, %h: vector<2xf16>, %n: i32, %v: vector<4xf32>) {
    %0 = llvm.intr.fabs(%h) : (vector<2xf16>) -> vector<2xf16>
    %1 = llvm.intr.powi(%x, %n) : (f32, i32) -> f32
    %2 = "llvm.intr.ctlz"(%n) <{is_zero_poison = true}> : (i32) -> i32
    %3 = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32
    %4 = llvm.intr.smax(%n, %n) : (i32, i32) -> i32
    %5 = llvm.intr.sqrt(%x) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
    llvm.return
  }
}
"""
    ir, _ = emit(text)
    assert body_lines(verified(ir), "i")[1:7] == [
        "%v0 = call <2 x half> @llvm.fabs.v2f16(<2 x half> %arg1)",
        "%v1 = call float @llvm.powi.f32.i32(float %arg0, i32 %arg2)",
        "%v2 = call i32 @llvm.ctlz.i32(i32 %arg2, i1 true)",
        "%v3 = call float @llvm.vector.reduce.fmax.v4f32(<4 x float> %arg3)",
        "%v4 = call i32 @llvm.smax.i32(i32 %arg2, i32 %arg2)",
        "%v5 = call afn float @llvm.sqrt.f32(float %arg0)",
    ]


def test_inline_asm_shapes() -> None:
    text = """module {
  llvm.func @a(%p: !llvm.ptr<1>, %l: i64) -> i32 {
    %0 = llvm.inline_asm has_side_effects "mov.b64 {$0, $1}, $2;", "=r,=r,l" %l : (i64) -> !llvm.struct<(i32, i32)>
    %1 = llvm.extractvalue %0[0] : !llvm.struct<(i32, i32)>
    llvm.inline_asm has_side_effects "st.global.u32 [$0], $1;", "l,r" %p, %1 : (!llvm.ptr<1>, i32) -> ()
    llvm.return %1 : i32
  }
}
"""
    ir, _ = emit(text)
    assert body_lines(verified(ir), "a")[1:4] == [
        '%v0 = call { i32, i32 } asm sideeffect "mov.b64 {$0, $1}, $2;", "=r,=r,l"(i64 %arg1)',
        "%v1 = extractvalue { i32, i32 } %v0, 0",
        'call void asm sideeffect "st.global.u32 [$0], $1;", "l,r"(ptr addrspace(1) %arg0, i32 %v1)',
    ]


def test_launch_bounds_attributes() -> None:
    text = """module {
  llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 2, 1>, nvvm.minctasm = 4 : i32,
                             nvvm.maxnreg = 32 : i32} {
    llvm.return
  }
  llvm.func @g() attributes {gpu.kernel, gpu.known_block_size = array<i32: 32, 1, 1>} {
    llvm.return
  }
}
"""
    ir = verified(emit(text)[0])
    assert "define ptx_kernel void @k() #0 {" in ir
    assert 'attributes #0 = { "nvvm.reqntid"="64,2,1" "nvvm.minctasm"="4" "nvvm.maxnreg"="32" }' in ir
    # like mlir-translate: gpu.known_block_size is no launch bound (convert-gpu-to-nvvm adds nvvm.maxntid)
    assert "define ptx_kernel void @g() {" in ir


def test_unknown_op_is_a_diagnostic_at_the_op() -> None:
    text = """module {
  llvm.func @u(%x: f32) -> f32 {
    %0 = "foo.bar"(%x) : (f32) -> f32
    llvm.return %0 : f32
  }
}
"""
    ir, lctx = emit(text)
    assert ir is None
    [diag] = lctx.sink.items
    assert diag.message == "cannot translate 'foo.bar' to LLVM IR"
    assert lctx.source.line_col(diag.span.start) == (2, 4)
    assert diag.stage == "llvm-ir"


def test_intrinsic_with_two_signatures_is_a_diagnostic() -> None:
    text = """module {
  llvm.func @u(%x: f32, %i: i32) {
    %0 = llvm.call_intrinsic "llvm.nvvm.foo"(%x) : (f32) -> f32
    %1 = llvm.call_intrinsic "llvm.nvvm.foo"(%i) : (i32) -> i32
    llvm.return
  }
}
"""
    ir, lctx = emit(text)
    assert ir is None
    assert "is used with two signatures" in lctx.sink.items[0].message
    assert lctx.source.line_col(lctx.sink.items[0].span.start) == (3, 4)


def test_lineinfo_metadata() -> None:
    ir = kernel_ir(lineinfo=True)
    assert re.search(
        r"!\d+ = distinct !DICompileUnit\(language: DW_LANG_C_plus_plus, file: !\d+, "
        r'producer: "tile-lsp", isOptimized: true, runtimeVersion: 0, '
        r"emissionKind: DebugDirectivesOnly\)",
        ir,
    )
    assert f'!DIFile(filename: "llvmir_kernel.mlir", directory: "{KERNEL.parent}")' in ir
    assert re.search(r'distinct !DISubprogram\(name: "axpy", .*line: 11, .*DISPFlagDefinition', ir)
    assert re.search(r"!\{i32 2, !\"Debug Info Version\", i32 3\}", ir)
    # each instruction carries the line its op was written on
    m = re.search(r"call float @__nv_expf\(float %v\d+\), !dbg !(\d+)", ir)
    assert m is not None
    assert re.search(rf"^!{m.group(1)} = !DILocation\(line: 22, column: 7, scope: !\d+\)$", ir, re.M)
    no_debug = kernel_ir()
    assert "!dbg" not in no_debug and "DICompileUnit" not in no_debug


def test_locations_unwrap_name_fused_and_callsite() -> None:
    text = """module {
  llvm.func @k(%x: f32) -> f32 {
    %0 = llvm.fadd %x, %x : f32
    %1 = llvm.fmul %0, %0 : f32
    %2 = llvm.fsub %1, %1 : f32
    %3 = llvm.fdiv %2, %2 : f32
    llvm.return %3 : f32
  }
}
"""
    parsed = parse_ok(text, "t.mlir")
    assert parsed.module is not None
    ops = [op for op in parsed.module.walk() if op.name in ("llvm.fadd", "llvm.fmul", "llvm.fsub", "llvm.fdiv")]

    def at(line: int, col: int, path: str = "src.py") -> FileLineColLoc:
        return FileLineColLoc(StringAttr(path), IntAttr(line), IntAttr(col))

    ops[0].location = builtin.NameLoc(StringAttr("v"), at(10, 2))
    ops[1].location = builtin.FusedLoc([builtin.UnknownLoc(), at(11, 3)], builtin.NoneAttr())
    ops[2].location = builtin.CallSiteLoc(at(30, 5, "lib.py"), at(12, 4))
    ops[3].location = builtin.UnknownLoc()
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A, lineinfo=True), spans=parsed.spans)
    ir = verified(emit_llvm_ir(parsed.module, lctx))
    locs = dict(re.findall(r"^(!\d+) = (.*)$", ir, re.M))

    def loc_of(opcode: str) -> str:
        m = re.search(rf"= {opcode} float .*, !dbg (!\d+)", ir)
        assert m is not None
        return locs[m.group(1)]

    assert re.fullmatch(r"!DILocation\(line: 10, column: 2, scope: !\d+\)", loc_of("fadd"))
    assert re.fullmatch(r"!DILocation\(line: 11, column: 3, scope: !\d+\)", loc_of("fmul"))
    inlined = re.fullmatch(r"!DILocation\(line: 30, column: 5, scope: (!\d+), inlinedAt: (!\d+)\)", loc_of("fsub"))
    assert inlined is not None
    assert 'name: "inlined"' in locs[inlined.group(1)] and "line: 30" in locs[inlined.group(1)]
    assert re.fullmatch(r"!DILocation\(line: 12, column: 4, scope: !\d+\)", locs[inlined.group(2)])
    assert re.search(r"= fdiv float %v\d+, %v\d+$", ir, re.M)  # UnknownLoc: untracked, no !dbg
    assert '!DIFile(filename: "lib.py", directory: "")' in ir


@pytest.mark.parametrize(
    "bad",
    [
        "llvm.func @f(%x: !llvm.ptr<1>) {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n"
        '  "llvm.intr.masked.store"(%0, %x, %0) : (i32, !llvm.ptr<1>, i32) -> ()\n'
        "  llvm.return\n}"
    ],
)
def test_never_raises(bad: str) -> None:
    from tile_lsp.compiler.mlir.context import parse_upstream

    parsed = parse_upstream(SourceText(f"module {{\n{bad}\n}}\n", "t.mlir"), verify=False)
    if parsed.module is None:
        return
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A), spans=parsed.spans)
    assert emit_llvm_ir(parsed.module, lctx) is None
    assert lctx.sink.has_errors


def test_line_map_points_at_ops() -> None:
    from tile_lsp.compiler.backend.llvmir import emit_llvm_ir_mapped

    parsed = parse_ok(KERNEL.read_text(), str(KERNEL))
    assert parsed.module is not None
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A), spans=parsed.spans)
    emitted = emit_llvm_ir_mapped(parsed.module, lctx)
    assert emitted is not None
    lines = emitted.text.splitlines()
    assert len(lines) == len(emitted.line_ops)
    cmpxchg = next(op for op in parsed.module.walk() if op.name == "llvm.cmpxchg")
    [at] = emitted.lines_of(cmpxchg)
    assert "= cmpxchg ptr addrspace(1) @counter" in lines[at]
    smem = next(op for op in parsed.module.walk() if op.name == "llvm.mlir.global")
    assert emitted.lines_of(smem) == [next(i for i, t in enumerate(lines) if t.startswith("@smem = "))]


def test_argument_and_function_attributes() -> None:
    text = """module {
  llvm.func @k(%p: !llvm.ptr<1> {llvm.align = 16 : i64, llvm.noalias, llvm.readonly},
               %q: !llvm.ptr {nvvm.grid_constant}) attributes {nvvm.kernel,
                                                               passthrough = ["noinline", ["frame-pointer", "all"]]} {
    llvm.intr.dbg.value #llvm.di_local_variable<name = "p"> = %p : !llvm.ptr<1>
    llvm.return
  }
  llvm.func internal @helper(%x: i32) -> i32 {
    llvm.return %x : i32
  }
}
"""
    ir = verified(emit(text)[0])
    assert (
        "define ptx_kernel void @k(ptr addrspace(1) align 16 noalias readonly %arg0, "
        'ptr "nvvm.grid_constant" %arg1) #0 {'
    ) in ir
    assert 'attributes #0 = { noinline "frame-pointer"="all" }' in ir
    assert body_lines(ir, "k") == ["bb0:", "ret void"]  # debug-variable intrinsics are not line info
    assert "define internal i32 @helper(i32 %arg0) {" in ir


def test_unlocated_call_to_a_local_function_gets_line_zero() -> None:
    text = """module {
  llvm.func @callee() {
    llvm.return
  }
  llvm.func @caller() {
    llvm.call @callee() : () -> ()
    llvm.return
  }
}
"""
    parsed = parse_ok(text, "t.mlir")
    assert parsed.module is not None
    call = next(op for op in parsed.module.walk() if op.name == "llvm.call")
    call.location = builtin.UnknownLoc()
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A, lineinfo=True), spans=parsed.spans)
    ir = verified(emit_llvm_ir(parsed.module, lctx))  # LLVM's verifier insists on a !dbg here
    m = re.search(r"call void @callee\(\), !dbg (!\d+)", ir)
    assert m is not None
    assert re.search(rf"^{m.group(1)} = !DILocation\(line: 0, scope: !\d+\)$", ir, re.M)


def _intrinsic_signature(name: str) -> tuple[str, str] | None:
    """(operands, type) of a use of llvm.intr.<name> for the all-intrinsics test."""
    ternary = {"fma", "fmuladd"}
    binary_f = {"copysign", "maximum", "maxnum", "minimum", "minnum", "pow"}
    if name in ternary:
        return "%x, %x, %x", "(f32, f32, f32) -> f32"
    if name in binary_f:
        return "%x, %x", "(f32, f32) -> f32"
    if name in ("powi", "ldexp"):
        return "%x, %i", "(f32, i32) -> f32"
    if name in ("fshl", "fshr"):
        return "%i, %i, %i", "(i32, i32, i32) -> i32"
    if name in ("smax", "smin", "umax", "umin"):
        return "%i, %i", "(i32, i32) -> i32"
    if name in ("ctpop", "bitreverse", "bswap", "ctlz", "cttz", "abs"):
        return "%i", "(i32) -> i32"
    if name in ("vector.reduce.fadd", "vector.reduce.fmul"):
        return "%x, %v", "(f32, vector<4xf32>) -> f32"
    if name.startswith("vector.reduce.f"):
        return "%v", "(vector<4xf32>) -> f32"
    if name.startswith("vector.reduce."):
        return "%w", "(vector<4xi32>) -> i32"
    if name in ("assume", "masked.store", "stacksave", "stackrestore") or name.startswith("dbg."):
        return None  # dbg.*: debug records, not calls (tests/upstream_lowering/test_debug_emission.py)
    return "%x", "(f32) -> f32"


_INTRINSICS = sorted(
    op.name.removeprefix("llvm.intr.")
    for op in llvm_ext.dialect().operations
    if op.name.startswith("llvm.intr.") and _intrinsic_signature(op.name.removeprefix("llvm.intr.")) is not None
)


@pytest.mark.parametrize("name", _INTRINSICS)
def test_every_intrinsic_op_is_a_valid_llvm_intrinsic(name: str) -> None:
    signature = _intrinsic_signature(name)
    assert signature is not None
    operands, ftype = signature
    text = f"""module {{
  llvm.func @f(%x: f32, %i: i32, %v: vector<4xf32>, %w: vector<4xi32>) {{
    %0 = "llvm.intr.{name}"({operands}) : {ftype}
    llvm.return
  }}
}}
"""
    from tile_lsp.compiler.mlir.context import parse_upstream

    parsed = parse_upstream(SourceText(text, "t.mlir"), verify=False)
    assert parsed.module is not None, [d.message for d in parsed.diagnostics]
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A), spans=parsed.spans)
    ir = verified(emit_llvm_ir(parsed.module, lctx))  # LLVM checks the intrinsic's name and signature
    assert re.search(rf"call (\w+ )?\S+ @llvm\.{re.escape(name)}\.", ir)


def test_function_attributes_match_mlir_translate() -> None:
    import os
    import shutil
    import subprocess

    translate = shutil.which("mlir-translate") or "/usr/lib/llvm-22/bin/mlir-translate"
    if not os.access(translate, os.X_OK):
        pytest.skip("mlir-translate 22 is not installed")
    text = """module {
  llvm.func @k() attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.cluster_max_blocks = 8 : i32,
                             nvvm.minctasm = 2 : i32, nvvm.maxnreg = 32 : i32, nvvm.reqntid = array<i32: 128, 1, 1>,
                             nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.blocksareclusters} {
    llvm.return
  }
}
"""
    ref = subprocess.run([translate, "--mlir-to-llvmir"], input=text, capture_output=True, text=True, timeout=60)
    assert ref.returncode == 0, ref.stderr
    ours = verified(emit(text)[0])

    def fn_attrs(ir: str) -> tuple[str, set[str]]:
        define = re.search(r"^define .*$", ir, re.M)
        group = re.search(r"^attributes #0 = \{ (.*) \}$", ir, re.M)
        assert define is not None and group is not None
        return re.sub(r" #0 \{$", "", define.group(0)), set(re.findall(r'"[^"]+"(?:="[^"]*")?', group.group(1)))

    assert fn_attrs(ours) == fn_attrs(ref.stdout)


# Nested builtin.modules: mlir-translate 22 skips them (only the top module's own ops are translated,
# so `@inner` vanishes without a word); our emitter splices them into the one LLVM module instead.
NESTED = """module {
  llvm.mlir.global private @shmem() {addr_space = 3 : i32} : !llvm.array<0 x f16>
  llvm.func @outer() {
    llvm.return
  }
  module @mymodule {
    llvm.mlir.global private @shmem() {addr_space = 3 : i32} : !llvm.array<0 x f16>
    llvm.func @inner() -> !llvm.ptr<3> {
      %0 = llvm.mlir.addressof @shmem : !llvm.ptr<3>
      llvm.return %0 : !llvm.ptr<3>
    }
    module @deeper {
      llvm.func @deepest() attributes {nvvm.kernel} {
        llvm.return
      }
    }
  }
}
"""


def test_nested_modules_are_flattened_in_order() -> None:
    ir = verified(emit(NESTED)[0])
    # the top module's @shmem is private and unused in its scope: dead, left out; the nested one is used
    assert re.findall(r"^@\w+ = .*$", ir, re.M) == ["@shmem = private addrspace(3) global [0 x half] undef"]
    assert re.findall(r"^define .*?@(\w+)\(", ir, re.M) == ["outer", "inner", "deepest"]
    assert_in_order(body_lines(ir, "inner"), [r"ret ptr addrspace\(3\) @shmem"])
    assert "define ptx_kernel void @deepest()" in ir


def test_mlir_translate_skips_nested_modules() -> None:
    """The reference behaviour the flattening departs from (documented in llvmir_scopes.py)."""
    import os
    import subprocess

    translate = "/usr/lib/llvm-22/bin/mlir-translate"
    if not os.access(translate, os.X_OK):
        pytest.skip("mlir-translate 22 is not installed")
    ref = subprocess.run([translate, "--mlir-to-llvmir"], input=NESTED, capture_output=True, text=True, timeout=60)
    assert ref.returncode == 0, ref.stderr
    assert "define void @outer()" in ref.stdout
    assert "@inner" not in ref.stdout and "@deepest" not in ref.stdout


def test_nested_module_symbol_clash_is_a_diagnostic() -> None:
    text = """module {
  llvm.func @f() {
    llvm.return
  }
  module @m {
    llvm.func @f() {
      llvm.return
    }
  }
}
"""
    ir, lctx = emit(text)
    assert ir is None
    [diag] = lctx.sink.items
    assert diag.message == (
        "'@f' is defined in module @m and in the top module: nested builtin.modules are flattened into one "
        "LLVM module (mlir-translate skips them); rename one of them"
    )
    assert lctx.source.line_col(diag.span.start) == (5, 4)
    assert diag.stage == "llvm-ir"


def test_nested_module_same_declaration_is_kept_once() -> None:
    text = """module {
  llvm.func @ext(i32) -> i32
  llvm.func @a(%x: i32) -> i32 {
    %0 = llvm.call @ext(%x) : (i32) -> i32
    llvm.return %0 : i32
  }
  module @m {
    llvm.func @ext(i32) -> i32
    llvm.func @b(%x: i32) -> i32 {
      %0 = llvm.call @ext(%x) : (i32) -> i32
      llvm.return %0 : i32
    }
  }
}
"""
    ir = verified(emit(text)[0])
    assert ir.count("declare i32 @ext(i32)") == 1
    assert re.findall(r"^define .*?@(\w+)\(", ir, re.M) == ["a", "b"]
