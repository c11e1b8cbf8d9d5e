"""String literals are read and printed as MLIR does (its lexer's escapes; llvm::printEscapedString):
a quote prints as `\\22`, a backslash doubled, every byte of the UTF-8 value that is not printable
ASCII as two hex digits, and hex escapes read back as bytes (`\\C3\\A9` is one "é"). Before, `"`
printed as `\\"`, non-ASCII and DEL as themselves, and `\\C3\\A9` read as two characters, "Ã©"."""

from __future__ import annotations

import pytest

from tests.bytecode.helpers import find_tool, run_tool
from tile_lsp.compiler.bytecode.writer import write_bytecode
from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.syntax.attributes import escape, unescape
from tile_lsp.compiler.syntax.printer import Printer

DISASM = find_tool("tileirdisasm")
VALUE = 'a"b\n\\c\té~\x7f\x00z'


@pytest.mark.parametrize(
    ("value", "printed"),
    [("plain text", '"plain text"'), (VALUE, '"a\\22b\\0A\\\\c\\09\\C3\\A9~\\7F\\00z"'), ("\U0001f600", '"\\F0\\9F\\98\\80"')],
)
def test_escape_and_unescape(value: str, printed: str) -> None:
    assert escape(value) == printed
    assert unescape(printed) == value


def test_the_other_spellings_mlir_reads() -> None:
    assert unescape('"q\\"x\\n\\t\\\\"') == 'q"x\n\t\\'
    assert unescape('"\\zz\\4"') == "\\zz\\4"  # not an escape: kept as written


def test_bytes_that_are_not_utf8_print_back_as_they_came() -> None:
    assert escape(unescape('"\\FF\\80"')) == '"\\FF\\80"'


def _module(value_text: str) -> str:
    return f'cuda_tile.module @m {{\n  entry @k() {{\n    print {value_text}\n    return\n  }}\n}}\n'


def test_print_round_trips_in_mlir_spelling() -> None:
    [result] = parse_text(_module(escape(VALUE)))
    assert result.module is not None and result.ok, [d.message for d in result.diagnostics]
    assert escape(VALUE) in Printer().module_text(result.module)


@pytest.mark.skipif(DISASM is None, reason="tileirdisasm not found (pip install nvidia-cuda-tileiras)")
def test_our_printout_is_tileirdisasms(tmp_path) -> None:
    [result] = parse_text(_module(escape(VALUE)))
    assert result.module is not None
    data, diags = write_bytecode(result.module)
    assert data is not None, [d.message for d in diags]
    path = tmp_path / "strings.tileirbc"
    path.write_bytes(data)
    res = run_tool(DISASM, str(path))
    assert res.returncode == 0, res.stderr
    # (tileirdisasm prints print's token result; the string is the same bytes either way)
    assert escape(VALUE) in res.stdout
