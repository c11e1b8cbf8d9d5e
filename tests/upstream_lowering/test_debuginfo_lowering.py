"""TranslateDebugInfo (seed 001): one test per row of the lineinfo/device-debug table, the
debuginfo.value rewrite shape (value -> llvm.nvvm.move pin -> llvm.intr.dbg.value), aggregate
leaves with fragments, and the error cases."""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.debuginfo import op_name, translate_debug_info
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions
from upstream_lowering.util import mlir_opt, parse_ok, print_ir

VAR = '#llvm.di_local_variable<scope = #llvm.di_file<"k.py" in "/src">, name = "{name}">'


def _kernel(value_type: str, extra: str = "") -> str:
    var = VAR.format(name="x")
    return (
        "module {\n"
        f"  llvm.func @k(%x: {value_type}) {{\n"
        f'    "debuginfo.value"(%x) {{variable = {var}{extra}}} : ({value_type}) -> ()\n'
        "    llvm.return\n"
        "  }\n"
        "}\n"
    )


def _run(text: str, **options: bool) -> tuple[Operation, LoweringContext, bool]:
    parsed = parse_ok(text)
    assert parsed.module is not None
    lctx = LoweringContext(SourceText(text, "t.mlir"), CompileOptions(**options), spans=parsed.spans)
    ok = translate_debug_info(parsed.module, lctx)
    return parsed.module, lctx, ok


def _body(module: Operation) -> list[Operation]:
    """The ops of @k's body in order, without the terminator."""
    func = next(op for op in module.walk() if op_name(op) == "llvm.func")
    return [op for op in func.walk() if op is not func and op_name(op) != "llvm.return"]


def _intrin(op: Operation) -> str:
    attr = op.properties.get("intrin")
    return getattr(attr, "data", "")


def _expr_text(op: Operation) -> str:
    expr = op.properties.get("locationExpr")
    return "" if expr is None else print_ir_attr(expr)


def print_ir_attr(attr: object) -> str:
    import io

    from xdsl.printer import Printer

    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)  # type: ignore[arg-type]
    return out.getvalue()


def _accepts(module: Operation) -> None:
    text = print_ir(module)
    res = mlir_opt(text)
    assert res.returncode == 0, f"{res.stderr}\n{text}"


# --- the table: one test per row ---------------------------------------------------------------


def test_row_lineinfo_off_device_debug_off_drops_debug_ops() -> None:
    module, lctx, ok = _run(_kernel("f32"))
    assert ok and not lctx.sink.items
    assert _body(module) == []
    _accepts(module)


def test_row_lineinfo_keeps_locations_and_drops_variables() -> None:
    text = _kernel("f32").replace("llvm.return", "%y = llvm.fadd %x, %x : f32\n    llvm.return")
    module, _, ok = _run(text, lineinfo=True)
    assert ok
    body = _body(module)
    assert [op_name(op) for op in body] == ["llvm.fadd"]
    loc = body[0].location
    assert isinstance(loc, FileLineColLoc) and loc.line.data == 4  # the source line stays attached


def test_row_device_debug_pins_the_value_before_dbg_value() -> None:
    module, lctx, ok = _run(_kernel("f32"), device_debug=True)
    assert ok and not lctx.sink.items
    pin, dbg = _body(module)
    assert op_name(pin) == "llvm.call_intrinsic" and _intrin(pin) == "llvm.nvvm.move.float"
    assert op_name(dbg) == "llvm.intr.dbg.value"
    assert dbg.operands[0] is pin.results[0]  # the pin sits between the value and the intrinsic
    assert 'name = "x"' in print_ir_attr(dbg.properties["varInfo"])
    assert isinstance(pin.location, FileLineColLoc) and pin.location.line.data == 3
    _accepts(module)


# --- the rewrite shape per debug type -------------------------------------------------------------


def test_device_debug_integer_and_double_pins() -> None:
    for ty, intrin in (("i16", "llvm.nvvm.move.i16"), ("i32", "llvm.nvvm.move.i32"), ("i64", "llvm.nvvm.move.i64"),
                       ("f64", "llvm.nvvm.move.double"), ("!llvm.ptr", "llvm.nvvm.move.ptr")):
        module, _, ok = _run(_kernel(ty), device_debug=True)
        assert ok
        assert [(op_name(o), _intrin(o)) for o in _body(module)] == [
            ("llvm.call_intrinsic", intrin),
            ("llvm.intr.dbg.value", ""),
        ], ty


def test_device_debug_half_goes_through_the_i16_surrogate() -> None:
    module, _, ok = _run(_kernel("f16"), device_debug=True)
    assert ok
    cast, pin, dbg = _body(module)
    assert op_name(cast) == "llvm.bitcast" and _intrin(pin) == "llvm.nvvm.move.i16"
    assert pin.operands[0] is cast.results[0] and dbg.operands[0] is pin.results[0]
    _accepts(module)


def test_device_debug_vector_one_pin_and_fragment_per_lane() -> None:
    module, _, ok = _run(_kernel("vector<2xf32>"), device_debug=True)
    assert ok
    names = [op_name(op) for op in _body(module)]
    lane = ["llvm.mlir.constant", "llvm.extractelement", "llvm.call_intrinsic", "llvm.intr.dbg.value"]
    assert names == lane + lane
    dbgs = [op for op in _body(module) if op_name(op) == "llvm.intr.dbg.value"]
    assert "DW_OP_LLVM_fragment(0, 32)" in _expr_text(dbgs[0])
    assert "DW_OP_LLVM_fragment(32, 32)" in _expr_text(dbgs[1])
    _accepts(module)


def test_device_debug_struct_fields_at_their_natural_offsets() -> None:
    module, _, ok = _run(_kernel("!llvm.struct<(i32, f64)>"), device_debug=True)
    assert ok
    body = _body(module)
    assert [op_name(op) for op in body] == ["llvm.extractvalue", "llvm.call_intrinsic", "llvm.intr.dbg.value"] * 2
    assert [_intrin(op) for op in body if _intrin(op)] == ["llvm.nvvm.move.i32", "llvm.nvvm.move.double"]
    dbgs = [op for op in body if op_name(op) == "llvm.intr.dbg.value"]
    assert "DW_OP_LLVM_fragment(0, 32)" in _expr_text(dbgs[0])
    assert "DW_OP_LLVM_fragment(64, 64)" in _expr_text(dbgs[1])  # f64 aligned to 64 bits
    _accepts(module)


def test_device_debug_keeps_the_existing_expression_before_the_fragment() -> None:
    module, _, ok = _run(_kernel("vector<2xf32>", ", expression = #llvm.di_expression<[DW_OP_deref]>"), device_debug=True)
    assert ok
    dbg = [op for op in _body(module) if op_name(op) == "llvm.intr.dbg.value"][0]
    assert "[DW_OP_deref, DW_OP_LLVM_fragment(0, 32)]" in _expr_text(dbg)


def test_device_debug_pins_an_upstream_dbg_value_once() -> None:
    var = VAR.format(name="x")
    text = (
        "module {\n  llvm.func @k(%x: f32) {\n"
        f'    "llvm.intr.dbg.value"(%x) <{{varInfo = {var}}}> : (f32) -> ()\n'
        "    llvm.return\n  }\n}\n"
    )
    module, _, ok = _run(text, device_debug=True)
    assert ok
    assert [op_name(op) for op in _body(module)] == ["llvm.call_intrinsic", "llvm.intr.dbg.value"]
    lctx = LoweringContext(SourceText(text, "t.mlir"), CompileOptions(device_debug=True))
    assert translate_debug_info(module, lctx)  # a second run finds the pin and adds nothing
    assert [op_name(op) for op in _body(module)] == ["llvm.call_intrinsic", "llvm.intr.dbg.value"]


def test_device_debug_declare_keeps_its_address_unpinned() -> None:
    var = VAR.format(name="x")
    text = (
        "module {\n  llvm.func @k(%p: !llvm.ptr) {\n"
        f'    "debuginfo.declare"(%p) {{variable = {var}}} : (!llvm.ptr) -> ()\n'
        "    llvm.return\n  }\n}\n"
    )
    module, _, ok = _run(text, device_debug=True)
    assert ok
    (declare,) = _body(module)
    assert op_name(declare) == "llvm.intr.dbg.declare"
    _accepts(module)


# --- errors --------------------------------------------------------------------------------------


def test_unsupported_debug_value_type_is_a_diagnostic() -> None:
    module, lctx, ok = _run(_kernel("i8"), device_debug=True)
    assert not ok
    (diag,) = lctx.sink.items
    assert diag.message == "unsupported debug value type 'i8'"
    assert lctx.source.line_col(diag.span.start)[0] == 2  # at the debuginfo.value line


def test_missing_variable_is_unresolved_metadata() -> None:
    text = (
        "module {\n  llvm.func @k(%x: f32) {\n"
        '    "debuginfo.value"(%x) : (f32) -> ()\n'
        "    llvm.return\n  }\n}\n"
    )
    _, lctx, ok = _run(text, device_debug=True)
    assert not ok
    assert lctx.sink.items[0].message.startswith("unresolved debug metadata")
