"""Seed 001's lineinfo/device-debug table in the LLVM IR emitter, through llvmlite and ptxas:
one test per row (off / --lineinfo / --device-debug) checking `!dbg`, DILocalVariable,
DISubprogram (none / minimal / full), `#dbg_value` records after their `llvm.nvvm.move` pin,
the PTX debug sections and the ptxas flags. Each mode is compiled once (module fixture)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tile_lsp.compiler.backend import llvm as backend
from tile_lsp.compiler.backend.llvmir import emit_llvm_ir
from tile_lsp.compiler.backend.llvmir_di import parse_di, source_aliases
from tile_lsp.compiler.backend.ptxas import PtxasResult, find_ptxas, ptx_has_debug, ptxas_command, run_ptxas
from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.debuginfo import translate_debug_info
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.util import parse_ok

SM90A = Target(90, "a")
# A kernel with three debug values (scalar, vector lanes, a typed variable in a lexical block)
# and one declare; the metadata uses aliases the way upstream MLIR prints it.
KERNEL = """#file = #llvm.di_file<"k.py" in "/src">
#float = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "float", sizeInBits = 32, encoding = DW_ATE_float>
#block = #llvm.di_lexical_block<scope = #file, file = #file, line = 7, column = 3>
module {
  llvm.func @k(%x: f32, %v: vector<2xf32>, %p: !llvm.ptr<1>) attributes {nvvm.kernel} {
    %y = llvm.fadd %x, %x : f32
    "debuginfo.value"(%y) {variable = #llvm.di_local_variable<scope = #file, name = "y", file = #file, line = 6>} : (f32) -> ()
    "debuginfo.value"(%v) {variable = #llvm.di_local_variable<scope = #file, name = "v", file = #file, line = 7>} : (vector<2xf32>) -> ()
    %z = llvm.fmul %y, %x : f32
    "debuginfo.value"(%z) {variable = #llvm.di_local_variable<scope = #block, name = "z", file = #file, line = 8, type = #float>} : (f32) -> ()
    %one = llvm.mlir.constant(1 : i32) : i32
    %slot = llvm.alloca %one x f32 : (i32) -> !llvm.ptr
    llvm.store %z, %slot : f32, !llvm.ptr
    "debuginfo.declare"(%slot) {variable = #llvm.di_local_variable<scope = #file, name = "s", file = #file, line = 9, type = #float>} : (!llvm.ptr) -> ()
    %w = llvm.load %slot : !llvm.ptr -> f32
    llvm.store %w, %p : f32, !llvm.ptr<1>
    llvm.return
  }
}
"""
MODES = ("off", "lineinfo", "device_debug")


def _options(mode: str) -> CompileOptions:
    return CompileOptions(SM90A, lineinfo=mode == "lineinfo", device_debug=mode == "device_debug")


@dataclass
class Compiled:
    options: CompileOptions
    ir: str  # straight from the emitter
    optimized: str
    ptx: str
    ptxas: PtxasResult | None  # None without ptxas


def _compile(mode: str, target: Target = SM90A) -> Compiled:
    parsed = parse_ok(KERNEL, "/src/k.mlir")
    assert parsed.module is not None
    options = CompileOptions(target, lineinfo=mode == "lineinfo", device_debug=mode == "device_debug")
    lctx = LoweringContext(parsed.source, options, spans=parsed.spans)
    assert translate_debug_info(parsed.module, lctx), [d.message for d in lctx.sink.items]
    ir = emit_llvm_ir(parsed.module, lctx)
    assert ir is not None and not lctx.sink.items, [d.message for d in lctx.sink.items]
    sink = DiagnosticSink(stage="llvm-ir")
    optimized = backend.optimize(ir, options, sink)  # parses and verifies with llvmlite
    assert not sink.items, [d.message for d in sink.items]
    ptx = backend.emit_ptx(optimized, target, opt_level=options.opt_level)
    result = run_ptxas(ptx, target, options) if find_ptxas(options) is not None else None
    return Compiled(options, ir, optimized, ptx, result)


@pytest.fixture(scope="module")
def compiled() -> dict[str, Compiled]:
    return {mode: _compile(mode) for mode in MODES}


def _body(ir: str) -> list[str]:
    start = ir.index("@k(")
    return [line.strip() for line in ir[start : ir.index("\n}", start)].splitlines()[1:]]


def _nodes(ir: str, kind: str) -> list[str]:
    return re.findall(rf"^!\d+ = (?:distinct )?!{kind}\(.*\)$", ir, re.MULTILINE)


def _node(ir: str, ref: str) -> str:
    found = re.search(rf"^{re.escape(ref)} = (.*)$", ir, re.MULTILINE)
    assert found is not None, ref
    return found.group(1)


def _field(node: str, key: str) -> str:
    """The `key: value` of a metadata node (a `!N` reference, a number or a name)."""
    found = re.search(rf"\b{key}: (\"[^\"]*\"|[^,)]+)", node)
    assert found is not None, (key, node)
    return found.group(1)


def _assembled(result: PtxasResult | None) -> PtxasResult:
    if result is None:
        pytest.skip("ptxas not found")
    assert result.ok, result.diagnostics
    return result


def _debug_strings(ptx: str) -> str:
    """The printable bytes of the PTX `.debug_info` section (names are stored inline)."""
    found = re.search(r"\.section\s+\.debug_info\s*\{(.*?)\n\s*\}", ptx, re.S)
    assert found is not None
    data = [int(b) for b in re.findall(r"\.b8\s+(\d+)", found.group(1))]
    return "".join(chr(b) if 32 <= b < 127 else "\0" for b in data)


# --- the table: one test per row -------------------------------------------------------------


def test_row_off_drops_everything(compiled: dict[str, Compiled]) -> None:
    c = compiled["off"]
    for ir in (c.ir, c.optimized):
        assert "!dbg" not in ir and "#dbg_" not in ir
        assert not _nodes(ir, "DILocalVariable") and not _nodes(ir, "DISubprogram")
        assert "!llvm.dbg.cu" not in ir and "DICompileUnit" not in ir
    assert "llvm.nvvm.move" not in c.ir  # no pins without device debug
    assert ".loc" not in c.ptx and ".section" not in c.ptx and ", debug" not in c.ptx
    result = _assembled(c.ptxas)
    assert "-g" not in result.command.split() and "-lineinfo" not in result.command


def test_row_lineinfo_keeps_locations_only(compiled: dict[str, Compiled]) -> None:
    c = compiled["lineinfo"]
    body = _body(c.ir)
    instructions = [line for line in body if not line.endswith(":")]
    assert all(", !dbg !" in line for line in instructions), body  # every instruction is located
    assert not any("#dbg_" in line or "llvm.nvvm.move" in line for line in body)
    assert not _nodes(c.ir, "DILocalVariable") and not _nodes(c.ir, "DILabel")
    (sp,) = _nodes(c.ir, "DISubprogram")
    assert 'name: "k"' in sp and "line: 5" in sp and "retainedNodes" not in sp  # minimal
    (cu,) = _nodes(c.ir, "DICompileUnit")
    assert "emissionKind: DebugDirectivesOnly" in cu
    assert "!dbg" in c.optimized and "#dbg_" not in c.optimized
    assert ".loc\t" in c.ptx and ".file\t" in c.ptx
    assert ".section\t.debug_info" not in c.ptx and ", debug" not in c.ptx
    result = _assembled(c.ptxas)
    assert "-lineinfo" in result.command.split() and "-g" not in result.command.split()


def test_row_device_debug_emits_variables_and_records(compiled: dict[str, Compiled]) -> None:
    c = compiled["device_debug"]
    body = _body(c.ir)
    # Each #dbg_value reads the pin right before it (seed 001's rewrite shape), in source order.
    records = [i for i, line in enumerate(body) if line.startswith("#dbg_value")]
    assert len(records) == 4  # y, v[0], v[1], z
    for i in records:
        pin = re.match(r"(%v\d+) = call float @llvm\.nvvm\.move\.float\(float %\w+\)", body[i - 1])
        assert pin is not None, body[i - 1]
        assert body[i].startswith(f"#dbg_value(float {pin.group(1)}, !")
    assert re.match(
        r"#dbg_declare\(ptr %v\d+, !\d+, !DIExpression\(\), !\d+\)",
        next(line for line in body if line.startswith("#dbg_declare")),
    )
    y, v0, v1, z = (body[i] for i in records)
    assert y.endswith(", !DIExpression(), " + y.rsplit(", ", 1)[1])
    assert "!DIExpression(DW_OP_LLVM_fragment, 0, 32)" in v0 and "!DIExpression(DW_OP_LLVM_fragment, 32, 32)" in v1
    var_of = {line: line.split(", ")[1] for line in (y, v0, v1, z)}
    assert var_of[v0] == var_of[v1] != var_of[y]  # one variable per source name
    # DILocalVariable per variable, with the attribute's name, file, line and type.
    variables = _nodes(c.ir, "DILocalVariable")
    assert sorted(_field(v, "name") for v in variables) == ['"s"', '"v"', '"y"', '"z"']
    y_var = _node(c.ir, var_of[y])
    assert 'name: "y"' in y_var and "line: 6" in y_var
    assert _node(c.ir, _field(y_var, "type")) == '!DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)'
    assert "DW_TAG_array_type" in _node(c.ir, _field(_node(c.ir, var_of[v0]), "type"))
    assert _node(c.ir, _field(y_var, "file")) == '!DIFile(filename: "k.py", directory: "/src")'
    z_scope = _field(_node(c.ir, var_of[z]), "scope")
    assert _node(c.ir, z_scope).startswith("distinct !DILexicalBlock(")  # the lexical block of #block
    # Full DISubprogram: it retains its variables; the unit is FullDebug.
    (sp,) = _nodes(c.ir, "DISubprogram")
    retained = _node(c.ir, _field(sp, "retainedNodes"))
    assert sorted(retained.strip("!{}").split(", !")) == sorted(
        ref.lstrip("!") for ref in re.findall(r"^(!\d+) = !DILocalVariable", c.ir, re.MULTILINE)
    )
    (cu,) = _nodes(c.ir, "DICompileUnit")
    assert "emissionKind: FullDebug" in cu
    assert all(", !dbg !" in line for line in body if not line.endswith(":") and not line.startswith("#dbg"))


def test_device_debug_survives_the_llvm_pipeline(compiled: dict[str, Compiled]) -> None:
    c = compiled["device_debug"]
    assert backend.effective_opt_level(c.options) == 0  # as nvcc -G: nothing folds the pins away
    body = _body(c.optimized)
    assert sum(line.startswith("#dbg_value(float %v") for line in body) == 4  # not `float poison`
    assert sum("@llvm.nvvm.move.float(" in line for line in body) == 4
    assert len(_nodes(c.optimized, "DILocalVariable")) == 4


def test_device_debug_ptx_has_dwarf_and_ptxas_takes_it_with_g(compiled: dict[str, Compiled]) -> None:
    c = compiled["device_debug"]
    assert re.search(r"^\.target sm_90a, debug$", c.ptx, re.MULTILINE)
    assert ptx_has_debug(c.ptx) and not ptx_has_debug(compiled["lineinfo"].ptx)
    for section in (".debug_loc", ".debug_abbrev", ".debug_info"):  # .debug_loc: the variables' registers
        assert f".section\t{section}" in c.ptx
    names = _debug_strings(c.ptx)
    for name in ("k", "y", "v", "s", "float"):
        assert f"\0{name}\0" in names, name
    # z lives in a lexical block no instruction is in: LLVM's DWARF writer drops such scopes.
    assert ".loc\t" in c.ptx
    result = _assembled(c.ptxas)
    args = result.command.split()
    assert "-g" in args and "-O0" in args and "-lineinfo" not in args  # ptxas: no optimized debugging
    assert result.cubin and "k" in result.kernels


class _PtxIsa70(Target):
    """sm_80 at its own minimum PTX ISA (7.0), as Target emitted before it moved to PTX 8.7 for every chip."""

    @property
    def ptx_version(self) -> int:
        return 70


def test_device_debug_raises_old_ptx_versions_to_7_5() -> None:
    """DWARF sections in PTX need PTX ISA 7.5 (label differences); sm_80 alone would be 7.0."""
    old = _PtxIsa70(80)
    c = _compile("device_debug", old)
    assert re.search(r"^\.version 7\.5$", c.ptx, re.MULTILINE) and ".target sm_80, debug" in c.ptx
    assert _assembled(c.ptxas).cubin
    assert re.search(r"^\.version 7\.0$", _compile("lineinfo", old).ptx, re.MULTILINE)


def test_device_debug_keeps_newer_ptx_versions() -> None:
    target = Target(80)
    assert target.ptx_version >= 75
    want = rf"^\.version {target.ptx_version // 10}\.{target.ptx_version % 10}$"
    c = _compile("device_debug", target)
    assert re.search(want, c.ptx, re.MULTILINE) and ".target sm_80, debug" in c.ptx
    assert _assembled(c.ptxas).cubin


def test_ptxas_flags_per_mode() -> None:
    for mode, expected, absent in (
        ("off", [], ["-g", "-lineinfo"]),
        ("lineinfo", ["-lineinfo", "-O3"], ["-g"]),
        ("device_debug", ["-g", "-O0"], ["-lineinfo", "-O3"]),
    ):
        args = ptxas_command("ptxas", "k.ptx", "k.cubin", SM90A, _options(mode))
        assert all(a in args for a in expected) and not any(a in args for a in absent), (mode, args)
    # PTX generated with debug info is assembled with -g even if the options forgot it.
    args = ptxas_command("ptxas", "k.ptx", "k.cubin", SM90A, CompileOptions(SM90A), debug=True)
    assert "-g" in args and "-O0" in args


def test_codegen_reads_through_the_pins() -> None:
    ir = (
        "  %v1 = call float @llvm.nvvm.move.float(float %v0), !dbg !10\n"
        "    #dbg_value(float %v1, !12, !DIExpression(), !10)\n"
        "  %p = call ptr @llvm.nvvm.move.ptr.p0.p0(ptr %arg2)\n"
        "    #dbg_value(ptr %p, !13, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !10)\n"
        "    #dbg_value(float %other, !14, !DIExpression(), !10)\n"
    )
    out = backend.forward_pins(ir).splitlines()
    assert out[1] == "    #dbg_value(float %v0, !12, !DIExpression(), !10)"
    assert out[3] == "    #dbg_value(ptr %arg2, !13, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !10)"
    assert out[4] == "    #dbg_value(float %other, !14, !DIExpression(), !10)"
    assert out[0] == ir.splitlines()[0]  # the pins stay


def test_emit_ptx_compiles_debug_ir_at_o0(compiled: dict[str, Compiled]) -> None:
    c = compiled["device_debug"]
    assert backend.is_device_debug_ir(c.optimized) and not backend.is_device_debug_ir(compiled["lineinfo"].optimized)
    assert backend.emit_ptx(c.optimized, SM90A, opt_level=3) == c.ptx


# --- the attribute reader ----------------------------------------------------------------------


def test_aliases_and_nested_attributes() -> None:
    aliases = source_aliases(KERNEL)
    assert set(aliases) == {"file", "float", "block"}
    var = parse_di(
        '#llvm.di_local_variable<scope = #block, name = "a\\22b", arg = 2, type = #float, flags = Artificial>', aliases
    )
    assert var is not None and var.text("name") == 'a"b' and var.integer("arg") == 2
    block = var.attr("scope")
    assert block is not None and block.name == "llvm.di_lexical_block" and block.integer("column") == 3
    file = block.attr("file")
    assert file is not None and file.positional == ['"k.py"', 'in "/src"']
    ty = var.attr("type")
    assert ty is not None and ty.text("encoding") == "DW_ATE_float" and ty.integer("sizeInBits") == 32


def _device_debug_ir(body: str) -> tuple[str | None, list[str]]:
    text = (
        "module {\n  llvm.func @k(%x: f32, %i: i32) attributes {nvvm.kernel} {\n" + body + "\n    llvm.return\n  }\n}\n"
    )
    parsed = parse_ok(text)
    assert parsed.module is not None
    lctx = LoweringContext(parsed.source, CompileOptions(SM90A, device_debug=True), spans=parsed.spans)
    ir = emit_llvm_ir(parsed.module, lctx)
    return ir, [d.message for d in lctx.sink.items]


def test_upstream_dbg_ops_expression_flags_and_label() -> None:
    ir, messages = _device_debug_ir(
        '    llvm.intr.dbg.value #llvm.di_local_variable<name = "i", arg = 2, flags = Artificial | ObjectPointer, '
        "alignInBits = 32> #llvm.di_expression<[DW_OP_constu(4), DW_OP_plus, DW_OP_stack_value]> = %i : i32\n"
        '    llvm.intr.dbg.label #llvm.di_label<name = "here", line = 4>'
    )
    assert ir is not None, messages
    import llvmlite.binding as llvm

    llvm.parse_assembly(ir).verify()
    body = _body(ir)
    assert re.fullmatch(
        r"#dbg_value\(i32 %arg1, !\d+, !DIExpression\(DW_OP_constu, 4, DW_OP_plus, DW_OP_stack_value\), !\d+\)",
        body[1],
    )
    assert re.fullmatch(r"#dbg_label\(!\d+, !\d+\)", body[2])
    (var,) = _nodes(ir, "DILocalVariable")
    assert "arg: 2" in var and "flags: DIFlagArtificial | DIFlagObjectPointer" in var and "align: 32" in var
    assert 'DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)' in ir  # type from the value
    (label,) = _nodes(ir, "DILabel")
    assert 'name: "here"' in label and "line: 4" in label


def test_metadata_that_is_not_a_variable_is_a_diagnostic() -> None:
    ir, messages = _device_debug_ir('    llvm.intr.dbg.value #llvm.di_file<"k.py" in "/src"> = %x : f32')
    assert ir is None
    assert messages == ["'llvm.intr.dbg.value' needs a '#llvm.di_local_variable' attribute"]


# --- through the driver ------------------------------------------------------------------------

GPU_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<128xf32, 1>, %s: f32) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<128xf32, 1>
      %r = arith.mulf %v, %s : f32
      "debuginfo.value"(%r) {variable = #llvm.di_local_variable<scope = #llvm.di_file<"k.py" in "/src">, name = "r">} : (f32) -> ()
      memref.store %r, %a[%tid] : memref<128xf32, 1>
      gpu.return
    }
  }
}
"""


def test_driver_device_debug_to_cubin_on_sm_80() -> None:
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText

    if find_ptxas(CompileOptions()) is None:
        pytest.skip("ptxas not found")
    options = CompileOptions(Target(80), device_debug=True)
    result = compile_source(SourceText(GPU_KERNEL, "/src/k.mlir"), options, "cubin")
    assert result.ok, [d.message for d in result.diagnostics]
    ir = result.stage("llvm-ir")
    ptx = result.stage("ptx")
    assert ir is not None and ptx is not None
    pin = re.search(
        r"(%\w+) = call float @llvm\.nvvm\.move\.float\(float %\w+\)[^\n]*\n\s+#dbg_value\(float (%\w+)", ir.text
    )
    assert pin is not None and pin.group(1) == pin.group(2), ir.text
    assert ".target sm_80, debug" in ptx.text and ".section\t.debug_info" in ptx.text
    assert result.ptxas_command is not None and " -g " in result.ptxas_command
    assert "scale" in result.kernels
