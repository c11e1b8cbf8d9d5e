"""Writer: corpus round trips (write, read back, same printed IR) at every version that can
hold the kernel; NVIDIA's tileirdisasm reads what we write back to the same IR (skipped when
tileirdisasm is absent); .mlir text -> bytecode carries the .mlir lines as debug info."""

from __future__ import annotations

import pathlib

import pytest

from tests.bytecode.helpers import CORPUS, CUTILE, canonical, corpus_bytes, find_tool, run_tool, text_ir
from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode.reader import decode
from tile_lsp.compiler.bytecode.writer import needed_version, write_bytecode
from tile_lsp.compiler.frontend import parse_text

# The oldest version each corpus kernel can be written as (its ops/types; see writer._needs).
NEEDS_13_3 = {"column_sum", "index_select"}  # atomic_red_view_tko, make_gather_scatter_view
NEEDS_13_2 = {"debug_print"}  # print_tko's token
NEEDS_13_4 = {"pdl_powi_insert"}  # gdc_*_tko, fpowi, insert, inbounds


def _oldest(name: str) -> int:
    if name in NEEDS_13_4:
        return F.V13_4
    return F.V13_3 if name in NEEDS_13_3 else F.V13_2 if name in NEEDS_13_2 else F.V13_1


@pytest.mark.parametrize("name", CORPUS)
def test_round_trip_every_version(name: str) -> None:
    data = corpus_bytes(name)
    module = decode(data).module
    assert module is not None
    want = canonical(decode(data).module, True)
    assert needed_version(module) == _oldest(name)
    for version in F.VERSIONS:
        out, diags = write_bytecode(module, version=version)
        if version < _oldest(name):
            assert out is None and diags and "needs Tile IR bytecode" in diags[0].message
            continue
        assert out is not None, [d.message for d in diags]
        back = decode(out)
        assert back.module is not None, [d.message for d in back.diagnostics]
        assert back.version == version
        assert canonical(back.module, True) == want, f"{name} at {F.version_str(version)}"


def test_default_version_is_the_newest_needed() -> None:
    module = decode(corpus_bytes("vector_add")).module
    out, _ = write_bytecode(module)
    assert out is not None and out[8:10] == bytes([13, 1])
    module = decode(corpus_bytes("index_select")).module
    out, _ = write_bytecode(module)
    assert out is not None and out[8:10] == bytes([13, 3])


def test_writes_ir_that_fails_verification() -> None:
    text = (
        "cuda_tile.module @m {\n  entry @bad() {\n    %c = constant <i32: 1> : tile<i32>\n"
        "    %e = exti %c signed : tile<i32> -> tile<i16>\n    return\n  }\n}\n"
    )
    parsed = parse_text(text, "bad.mlir")[0]
    assert not parsed.ok
    out, diags = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    assert out is not None and not diags
    back = decode(out)
    assert back.module is not None
    ops = [op.name for op in back.module.walk()]
    assert "cuda_tile.exti" in ops


def test_mlir_positions_become_debug_info() -> None:
    from tile_lsp.compiler.dialects.cuda_tile.debuginfo import di_loc_of

    path = str(CUTILE / "vector_add.mlir")
    parsed = parse_text((CUTILE / "vector_add.mlir").read_text(), path)[0]
    out, diags = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    assert out is not None and not diags
    module = decode(out).module
    lines = {}
    for op in module.walk():
        loc = di_loc_of(op.location)
        if loc is not None and op.name == "cuda_tile.fma" and op.name not in lines:
            lines[op.name] = (loc.source_loc.filename.data, loc.source_loc.line.data, loc.source_loc.column.data)
    assert lines["cuda_tile.fma"] == (path, 22, 3)  # the first entry's fma: line 22 of vector_add.mlir


def test_unencodable_is_a_diagnostic() -> None:
    module = decode(corpus_bytes("vector_add")).module
    out, diags = write_bytecode(module, version=999)
    assert out is None and "unsupported bytecode version" in diags[0].message


DISASM = find_tool("tileirdisasm")


@pytest.mark.skipif(DISASM is None, reason="tileirdisasm not found (pip install nvidia-cuda-tileiras)")
@pytest.mark.parametrize("name", CORPUS)
def test_tileirdisasm_reads_what_we_write(name: str, tmp_path) -> None:
    data = corpus_bytes(name)
    want = canonical(decode(data).module, True)
    for version in sorted({_oldest(name), F.V13_4, F.V13_5}):
        out, diags = write_bytecode(decode(data).module, version=version)
        assert out is not None, [d.message for d in diags]
        path = tmp_path / f"{name}-{version}.tileirbc"
        path.write_bytes(out)
        res = run_tool(DISASM, "-g", str(path))
        assert res.returncode == 0, res.stderr[-2000:]
        assert text_ir(res.stdout, f"{name}.g.mlir", True) == want, f"{name} at {F.version_str(version)}"


@pytest.mark.skipif(DISASM is None, reason="tileirdisasm not found (pip install nvidia-cuda-tileiras)")
def test_tileirdisasm_points_at_mlir_lines(tmp_path) -> None:
    text = (
        "cuda_tile.module @m {\n  entry @bad() {\n    %c = constant <i32: 1> : tile<i32>\n\n"
        "    %e = exti %c signed : tile<i32> -> tile<i16>\n    return\n  }\n}\n"
    )
    parsed = parse_text(text, "bad.mlir")[0]
    out, _ = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    path = tmp_path / "bad.tileirbc"
    path.write_bytes(out)
    res = run_tool(DISASM, str(path))
    assert res.returncode != 0
    assert 'loc("bad.mlir":5:5)' in res.stderr and "extending to smaller or identical integer" in res.stderr


def test_convert_helpers_round_trip() -> None:
    from tile_lsp.compiler.bytecode.convert import bytecode_to_text, text_to_bytecode

    text, diags, _ = bytecode_to_text(corpus_bytes("row_softmax"), "row_softmax.tileirbc")
    assert text is not None and not diags
    assert 'loc("tests/data/cutile/kernels/row_softmax.py"' in text
    data, diags, _ = text_to_bytecode(text, "row_softmax.mlir", version=F.V13_4)
    assert data is not None and not diags
    assert canonical(decode(data).module, True) == canonical(decode(corpus_bytes("row_softmax")).module, True)
    bad, diags, _ = bytecode_to_text(corpus_bytes("row_softmax")[:100], "cut.tileirbc")
    assert bad is None and "byte offset" in diags[0].message


MORE_OPS = pathlib.Path(__file__).parent / "data" / "more_ops.mlir"


def _more_ops():
    from xdsl.dialects import builtin

    from tile_lsp.compiler.bytecode.writer import _items

    parsed = parse_text(MORE_OPS.read_text(), str(MORE_OPS))[0]
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    module = parsed.module
    items = list(_items(parsed.module))
    want_module = parse_text(MORE_OPS.read_text(), str(MORE_OPS))[0].module
    want_items = list(_items(want_module))
    for op in want_items:
        op.detach()
    return parsed, module, canonical(builtin.ModuleOp(want_items), False), items


def test_more_ops_round_trip() -> None:
    parsed, module, want, _ = _more_ops()
    assert needed_version(module) == F.V13_3
    for version in (F.V13_3, F.V13_4, F.V13_5):
        out, diags = write_bytecode(module, version=version, source=parsed.source, smap=parsed.smap)
        assert out is not None and not diags, [d.message for d in diags]
        back = decode(out)
        assert back.module is not None, [d.message for d in back.diagnostics]
        assert canonical(back.module, False) == want, F.version_str(version)


@pytest.mark.skipif(DISASM is None, reason="tileirdisasm not found (pip install nvidia-cuda-tileiras)")
def test_more_ops_through_tileirdisasm(tmp_path) -> None:
    parsed, module, want, _ = _more_ops()
    for version in (F.V13_3, F.V13_5):
        out, _ = write_bytecode(module, version=version, source=parsed.source, smap=parsed.smap)
        path = tmp_path / f"more-{version}.tileirbc"
        path.write_bytes(out)
        res = run_tool(DISASM, str(path))
        assert res.returncode == 0, res.stderr[-2000:]
        assert text_ir(res.stdout, "more_ops.mlir", False) == want


TILEIRAS = find_tool("tileiras")


@pytest.mark.skipif(TILEIRAS is None, reason="tileiras not found (pip install nvidia-cuda-tileiras)")
@pytest.mark.parametrize("name", ["vector_add", "row_softmax"])
def test_tileiras_compiles_what_we_write(name: str, tmp_path) -> None:
    """NVIDIA's compiler takes our bytes (from the .mlir text, debug info = its lines) for sm_90."""
    path = CUTILE / f"{name}.mlir"
    parsed = parse_text(path.read_text(), str(path))[0]
    out, diags = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    assert out is not None and not diags
    bc = tmp_path / f"{name}.tileirbc"
    bc.write_bytes(out)
    res = run_tool(TILEIRAS, "--gpu-name", "sm_90", str(bc), "-o", str(tmp_path / f"{name}.cubin"), timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    assert (tmp_path / f"{name}.cubin").stat().st_size > 0


@pytest.mark.parametrize("name", ["vector_add", "gelu_dropout", "attention"])
def test_g_mlir_text_locations_survive(name: str) -> None:
    """Text with tileirdisasm -g's locations (di_loc, call sites, unknown) -> bytes -> the same."""
    path = CUTILE / f"{name}.g.mlir"
    parsed = parse_text(path.read_text(), str(path))[0]
    want = canonical(parse_text(path.read_text(), str(path))[0].module, True)
    out, diags = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    assert out is not None and not diags
    assert canonical(decode(out).module, True) == want


def test_bare_file_locations_join_the_entry_scope() -> None:
    from tile_lsp.compiler.dialects.cuda_tile.debuginfo import di_loc_of

    text = 'entry @k() {\n  %c = constant <i32: 1> : tile<i32> loc("k.py":3:5)\n  return\n}\n'
    parsed = parse_text(text, "k.mlir")[0]
    assert parsed.ok, [d.message for d in parsed.diagnostics]
    out, _ = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    module = decode(out).module
    const = next(op for op in module.walk() if op.name == "cuda_tile.constant")
    ret = next(op for op in module.walk() if op.name == "cuda_tile.return")
    loc = di_loc_of(const.location)
    assert (loc.source_loc.filename.data, loc.source_loc.line.data) == ("k.py", 3)
    assert di_loc_of(ret.location).source_loc.filename.data == "k.mlir"  # from the text position
    assert loc.scope == di_loc_of(ret.location).scope


def test_unencodable_constants_and_writer_bugs_are_diagnostics(monkeypatch) -> None:
    """A float literal in an integer constant (mutants of real kernels made `<f32: inf>` an i32
    constant: the writer raised OverflowError) is an error at the op; any other exception in
    the writer is an internal-error diagnostic, never a crash of `opt` or the server."""
    from tile_lsp.compiler.bytecode import writer
    from tile_lsp.compiler.bytecode.convert import text_to_bytecode

    for literal in ("<f32: 1.5>", "<f32: 0x7F800000>"):
        text = f"entry @k() {{\n  %c = constant {literal} : tile<i32>\n  return\n}}\n"
        data, diags, _ = text_to_bytecode(text, "k.mlir")
        messages = [d.message for d in diags]
        if data is None:
            assert any("cannot write bytecode: 'cuda_tile.constant'" in m for m in messages), messages
    monkeypatch.setattr(writer._Writer, "write", lambda self, module: 1 / 0)
    data, diags, _ = text_to_bytecode((CUTILE / "vector_add.mlir").read_text(), "vector_add.mlir")
    assert data is None and "internal error in the Tile IR bytecode writer" in diags[-1].message
