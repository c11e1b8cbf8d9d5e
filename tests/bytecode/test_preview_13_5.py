"""The 13.5 SIMT preview's `preview$call` (issue 28), as cuTile 1.7 users' bytecode carries it.

The modules in data/preview_13_5 were encoded by cuTile Python 1.7's own bytecode encoder
(`scripts/gen_preview_13_5.py`; its `.mlir`, `.g.mlir` and `.err` files are tileirdisasm 13.5's
output with `--preview=simt`). Checked: our reader's IR prints as tileirdisasm's text does (both
through our printer), the text parses and prints back unchanged, our writer's bytes read back to
the same IR (and, where tileirdisasm is found, NVIDIA reads them to the same text), the header's
preview flag, the reader's and verifier's words for what NVIDIA refuses, and a diagnostic at the
op (not a crash) where lowering or the interpreter meet the call, whose callee lives in a tile
library tile-lsp cannot see.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from tests.bytecode.helpers import ROOT, canonical, find_tool, run_tool, text_ir
from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode.reader import decode, read_bytecode
from tile_lsp.compiler.bytecode.writer import needed_version, write_bytecode
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.syntax.printer import Printer

DATA = pathlib.Path(__file__).parent / "data" / "preview_13_5"
VALID = sorted(p.stem for p in DATA.glob("*.mlir") if not p.stem.endswith(".g"))
DISASM = find_tool("tileirdisasm")
needs_disasm = pytest.mark.skipif(DISASM is None, reason="tileirdisasm not found (pip install nvidia-cuda-tileiras)")
NO_TILELIB = "an extern function of the SIMT preview that lives in an NVIDIA tile library"


def _bytes(name: str) -> bytes:
    return (DATA / f"{name}.tileirbc").read_bytes()


def test_data_present() -> None:
    assert len(VALID) >= 10 and (DATA / "debug_info.g.mlir").is_file()


@pytest.mark.parametrize("name", VALID)
def test_reader_matches_tileirdisasm(name: str) -> None:
    data = _bytes(name)
    assert data[10] & 1  # the header's preview flag, as cuTile patches it
    result = read_bytecode(data, f"{name}.tileirbc")
    assert result.module is not None and result.ok, [d.message for d in result.diagnostics]
    decoded = decode(data, locations=False)
    assert decoded.version == F.V13_5
    assert decoded.module is not None
    assert canonical(decoded.module, False) == text_ir((DATA / f"{name}.mlir").read_text(), f"{name}.mlir", False)


def test_reader_matches_tileirdisasm_g() -> None:
    decoded = decode(_bytes("debug_info"), locations=True)
    assert decoded.module is not None
    g = (DATA / "debug_info.g.mlir").read_text()
    assert canonical(decoded.module, True) == text_ir(g, "debug_info.g.mlir", True)


# The one difference from tileirdisasm's text: it writes a quote in a string as \22, we as \".
@pytest.mark.parametrize("name", VALID)
def test_text_prints_as_tileirdisasm(name: str) -> None:
    text = (DATA / f"{name}.mlir").read_text()
    result = parse_text(text, f"{name}.mlir")[0]
    assert result.ok and result.module is not None, [d.message for d in result.diagnostics]
    assert Printer().module_text(result.module).strip() == text.strip()


def test_syntax_samples() -> None:
    """tileirdisasm's spelling of each part (checked against its output when the data was made)."""
    text = {n: (DATA / f"{n}.mlir").read_text() for n in VALID}
    assert "preview$call @my_func(%arg0, %arg1) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>) -> " \
           "(!cuda_tile.tile<f32>, !cuda_tile.token)" in text["plain"]
    assert "preview$call @my_func(%arg0, %arg1) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>) -> ()" in text["no_results"]
    assert "-> !cuda_tile.token\n" in text["token_result_only"]
    assert "@my_func<[42, -7, 0, 1099511627776, 9223372036854775807, -9223372036854775808]>(" in text["const_ints"]
    assert "@my_func<[f32, !cuda_tile.tile<4xi32>, !cuda_tile.token]>(" in text["const_types"]
    assert '@my_func<["hello", "", "a\\0Ab\\\\c"]>(' in text["const_strs"]
    assert "{arg_attrs = [{n = #cuda_tile<preview$expr_int<-3>>, s = #cuda_tile<preview$expr_const_str<\"hi\">>, " \
           "t = #cuda_tile<preview$concrete_type<!cuda_tile.tile<4xi32>>>}, {}], res_attrs = [{}, {}]}" in text["arg_res_attrs"]
    assert 'preview$call @"nvshmem tile.put"(' in text["quoted_callee"]


@pytest.mark.parametrize("name", [*VALID, "debug_info"])
def test_writer_round_trip(name: str) -> None:
    data = _bytes(name)
    module = decode(data).module
    assert module is not None
    assert needed_version(module) == F.V13_5
    ours, diags = write_bytecode(module)
    assert ours is not None, [d.message for d in diags]
    assert ours[10] & 1  # the preview flag
    again = decode(ours)
    assert again.module is not None, [d.message for d in again.diagnostics]
    assert canonical(again.module, True) == canonical(decode(data).module, True)  # type: ignore[arg-type]
    assert write_bytecode(again.module)[0] == ours  # our bytes are stable


@needs_disasm
@pytest.mark.parametrize("name", VALID)
def test_tileirdisasm_reads_what_we_write(name: str, tmp_path: pathlib.Path) -> None:
    ours, diags = write_bytecode(decode(_bytes(name)).module)  # type: ignore[arg-type]
    assert ours is not None, [d.message for d in diags]
    path = tmp_path / f"{name}.tileirbc"
    path.write_bytes(ours)
    assert DISASM is not None
    done = run_tool(DISASM, "--preview=simt", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (DATA / f"{name}.mlir").read_text()


def test_text_to_bytecode_sets_the_flag_and_needs_13_5() -> None:
    text = (DATA / "const_mixed.mlir").read_text()
    module = parse_text(text, "const_mixed.mlir")[0].module
    assert module is not None
    data, diags = write_bytecode(module)
    assert data is not None and data[8:10] == bytes([13, 5]) and data[10] & 1, [d.message for d in diags]
    old, diags = write_bytecode(module, version=F.V13_4)
    assert old is None
    assert any("13.5" in d.message for d in diags), [d.message for d in diags]
    plain = parse_text("entry @k() {\n  return\n}\n", "k.mlir")[0].module
    assert plain is not None
    data, _ = write_bytecode(plain, version=F.V13_5)
    assert data is not None and not data[10] & 1  # no preview content: no flag


# -- what NVIDIA refuses, in its words ----------------------------------------------------------


@pytest.mark.parametrize(
    "name, message",
    [
        ("no_header_flag", "malformed bytecode: encountered public-preview opcode 16386 but the header does not "
                           "advertise preview content"),
        ("flag_at_13_4", "public-preview bytecode at version 13.4.1 is not readable; preview content is only valid "
                         "at the current version 13.5"),
        ("const_arg_not_preview", "'cuda_tile.preview$call' op attribute 'const_args' failed to satisfy constraint: "
                                  "array of symbolic expression attribute values"),
        ("res_attrs_not_dicts", "'cuda_tile.preview$call' op attribute 'res_attrs' failed to satisfy constraint: "
                                "Array of dictionary attributes"),
    ],
)
def test_refused_in_nvidias_words(name: str, message: str) -> None:
    assert message in (DATA / f"{name}.err").read_text()  # what tileirdisasm said
    result = read_bytecode(_bytes(name), f"{name}.tileirbc")
    errors = [d.message for d in result.diagnostics if d.is_error]
    assert len(errors) == 1 and message in errors[0], errors


def test_preview_attribute_without_the_flag_is_refused() -> None:
    data = bytearray(_bytes("const_ints"))
    data[10] &= ~1
    errors = [d.message for d in read_bytecode(bytes(data)).diagnostics]
    assert len(errors) == 1 and "does not advertise preview content" in errors[0], errors


def test_other_preview_opcodes_stay_unsupported() -> None:
    data = bytearray(_bytes("plain"))
    at = data.index(bytes([0x82, 0x80, 0x01]))  # the varint of 0x4002
    data[at : at + 3] = bytes([0x81, 0x80, 0x01])  # 0x4001
    errors = [d.message for d in read_bytecode(bytes(data)).diagnostics]
    assert len(errors) == 1 and "opcode 16385 is in the SIMT preview's range" in errors[0], errors


# -- lowering, the interpreter, the CLI: a diagnostic at the op ---------------------------------

_TEXT = (DATA / "const_mixed.mlir").read_text()
_CALL_LINE = next(i for i, line in enumerate(_TEXT.splitlines()) if "preview$call" in line)


def test_lowering_stops_at_the_call() -> None:
    from tile_lsp.compiler.entry_cache import compile_source
    from tile_lsp.compiler.source import SourceText
    from tile_lsp.compiler.target import CompileOptions, Target

    source = SourceText(_TEXT, "const_mixed.mlir")
    result = compile_source(source, CompileOptions(target=Target(90)), "ptx", cache=False)
    errors = [d for d in result.diagnostics if d.is_error]
    assert errors, "lowering a preview$call must fail"
    first = errors[0]
    assert NO_TILELIB in first.message and "@my_func" in first.message and "compile" in first.message
    assert source.line_col(first.span.start)[0] == _CALL_LINE


def test_interpreter_stops_at_the_call() -> None:
    from tile_lsp.compiler.interp.launch import run_text
    from tile_lsp.compiler.interp.machine import Unsupported

    with pytest.raises(Unsupported, match=rf"t.mlir:{_CALL_LINE + 1}:\d+: .*{NO_TILELIB}.*cannot run this call"):
        run_text(_TEXT, "kern", [1.5, 2], path="t.mlir")


def test_cli_on_bytecode(tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, TILE_LSP_DAEMON="0")

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "tile_lsp", *args], capture_output=True, text=True, cwd=ROOT,
                              env=env, timeout=120)

    path = str(DATA / "const_mixed.tileirbc")
    assert cli("check", path).returncode == 0
    opt = cli("opt", path)
    assert opt.returncode == 0 and 'preview$call @my_func<[3, i32, "mode"]>(' in opt.stdout, opt.stderr
    done = cli("compile", path, "--gpu-name", "sm_90a", "--emit", "ptx", "-o", str(tmp_path / "k.ptx"))
    assert done.returncode == 1
    assert NO_TILELIB in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_hover_and_completion() -> None:
    from tile_lsp.compiler.document import analyze
    from tile_lsp.features import hover
    from tile_lsp.features.completion_ops import op_table

    offset = _TEXT.index("preview$call") + 3
    found = hover.hover(analyze(_TEXT), offset)
    assert found is not None
    text = found[0]
    assert text.startswith("**cuda_tile.preview$call**\n\nCalls an extern function of an NVIDIA tile library")
    assert "- `callee = @my_func`: the extern function called; it is defined in an NVIDIA tile library" in text
    assert "- `const_args = [#cuda_tile<preview$expr_int<3>>, #cuda_tile<preview$concrete_type<i32>>, " \
           "#cuda_tile<preview$expr_const_str<\"mode\">>]`: compile-time arguments" in text
    entry = next(e for e in op_table() if e.name == "cuda_tile.preview$call")
    assert entry.has_results and "tile library" in entry.summary


def test_text_forms_and_verifier() -> None:
    """The other spellings MLIR accepts (dotted attributes, const_args/arg_attrs in the attr-dict,
    the generic form), and the verifier's words on them as on bytecode."""
    call = ": (!cuda_tile.tile<f32>) -> !cuda_tile.token"
    text = (
        "entry @kern(%a: tile<f32>) {\n"
        f"  %0 = preview$call @f(%a) {{const_args = [1 : i32]}} {call}\n"
        f"  %1 = preview$call @f(%a) {{const_args = [#cuda_tile.preview$expr_int<5>, "
        f"#cuda_tile<preview$expr_const_str<\"a\">>]}} {call}\n"
        f"  %2 = preview$call @f<[]>(%a) {call}\n"
        f"  %3 = preview$call @f(%a) {{arg_attrs = [1]}} {call}\n"
        f"  %4 = \"cuda_tile.preview$call\"(%a) <{{callee = @f}}> {call}\n"
        "  return\n}\n"
    )
    result = parse_text(text, "t.mlir")[0]
    assert result.module is not None
    errors = [(result.source.line_col(d.span.start)[0], d.message) for d in result.diagnostics]
    assert errors == [
        (1, "'cuda_tile.preview$call' op attribute 'const_args' failed to satisfy constraint: "
            "array of symbolic expression attribute values"),
        (4, "'cuda_tile.preview$call' op attribute 'arg_attrs' failed to satisfy constraint: Array of dictionary attributes"),
    ]
    printed = Printer().module_text(result.module).splitlines()
    assert f'%1 = preview$call @f<[5, "a"]>(%a) {call}' in printed[2]
    assert printed[3].endswith(f"= preview$call @f(%a) {call}") and printed[5].endswith(f"= preview$call @f(%a) {call}")
