"""Reader vs NVIDIA's tileirdisasm on the cuTile corpus: our IR from each .tileirbc, printed
by the project's printer, equals `tile-lsp opt` of the .mlir next to it (tileirdisasm's text)
and, with locations, of the .g.mlir (tileirdisasm -g)."""

from __future__ import annotations

import pathlib

import pytest

from tests.bytecode.helpers import CORPUS, CUTILE, canonical, corpus_bytes, text_ir
from tile_lsp.compiler.bytecode import format as F
from tile_lsp.compiler.bytecode import is_bytecode
from tile_lsp.compiler.bytecode.reader import decode, read_bytecode

DATA = pathlib.Path(__file__).parent / "data"


def test_corpus_present() -> None:
    assert len(CORPUS) >= 16


@pytest.mark.parametrize("name", CORPUS)
def test_matches_tileirdisasm(name: str) -> None:
    data = corpus_bytes(name)
    assert is_bytecode(data)
    plain = decode(data, locations=False)
    assert plain.module is not None, [d.message for d in plain.diagnostics]
    assert plain.version == F.V13_4
    assert canonical(plain.module, False) == text_ir((CUTILE / f"{name}.mlir").read_text(), f"{name}.mlir", False)
    located = decode(data, locations=True)
    assert located.module is not None
    g = (CUTILE / f"{name}.g.mlir").read_text()
    assert canonical(located.module, True) == text_ir(g, f"{name}.g.mlir", True)


@pytest.mark.parametrize("name", ["vector_add", "gelu_dropout"])
def test_locations_point_at_python(name: str) -> None:
    from tile_lsp.compiler.dialects.cuda_tile.debuginfo import di_loc_of

    module = decode(corpus_bytes(name)).module
    assert module is not None
    files = set()
    for op in module.walk():
        loc = di_loc_of(op.location)
        if loc is not None:
            files.add(loc.source_loc.filename.data)
            assert loc.source_loc.line.data > 0
    assert files == {f"tests/data/cutile/kernels/{name}.py"}


def test_read_bytecode_verifies_and_is_a_parse_result() -> None:
    result = read_bytecode(corpus_bytes("attention"), "attention.tileirbc")
    assert result.ok, [d.message for d in result.diagnostics]
    assert result.module is not None
    assert len(result.source.text) == len(corpus_bytes("attention"))  # spans are byte offsets


def test_verifier_runs_on_decoded_ir() -> None:
    """An op the verifier rejects, decoded from bytes we write, is reported at its bytes."""
    from tile_lsp.compiler.bytecode.writer import write_bytecode
    from tile_lsp.compiler.frontend import parse_text

    text = (
        "cuda_tile.module @m {\n  entry @bad() {\n    %c = constant <i32: 1> : tile<i32>\n"
        "    %e = exti %c signed : tile<i32> -> tile<i16>\n    return\n  }\n}\n"
    )
    parsed = parse_text(text, "bad.mlir")[0]
    assert not parsed.ok and parsed.module is not None
    data, diags = write_bytecode(parsed.module, source=parsed.source, smap=parsed.smap)
    assert data is not None and not diags
    result = read_bytecode(data, "bad.tileirbc")
    messages = [d.message for d in result.diagnostics]
    assert any("extending to smaller or identical integer" in m for m in messages), messages
    bad = [d for d in result.diagnostics if "extending" in d.message][0]
    assert 0 < bad.span.start < len(data)


@pytest.mark.parametrize(
    ("data", "expect"),
    [
        (b"", "bad magic|truncated magic"),
        (b"\x7fTileIR", "truncated magic"),
        (b"MZ\x90\x00", "bad magic byte"),
        (F.MAGIC + b"\x0d", "expected the minor version"),
        (F.MAGIC + b"\x0d\x09\x00\x00\x00", "unsupported Tile IR bytecode version 13.9.0"),
        (F.MAGIC + b"\x0c\x00\x00\x00\x00", "unsupported Tile IR bytecode version 12.0.0"),
        (F.MAGIC + b"\x0d\x04\x00\x00", "expected a section id"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x09\x00", "unknown section id 9"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x81\xff\xff\xff\x7f\x04", "exceeds the"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x00", "string section is missing"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x00junk", "after the end marker"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x81\x00\x03", "not a power of two"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x81\x00\x02\x00", "must be aligned to a multiple of 4"),
        (F.MAGIC + b"\x0d\x04\x00\x00\x01" + b"\xff" * 11, "longer than 10 bytes"),
    ],
)
def test_malformed_headers(data: bytes, expect: str) -> None:
    import re

    dec = decode(data)
    assert dec.module is None
    assert len(dec.diagnostics) == 1
    d = dec.diagnostics[0]
    assert re.search(expect, d.message), d.message
    assert "byte offset" in d.message and d.stage == "bytecode"
    assert 0 <= d.span.start <= len(data)


OLDER = sorted(str(p.relative_to(DATA)) for p in DATA.glob("v13.*/*.tileirbc"))


@pytest.mark.parametrize("rel", OLDER)
def test_older_versions_match_tileirdisasm(rel: str) -> None:
    path = DATA / rel
    dec = decode(path.read_bytes())
    assert dec.module is not None, [d.message for d in dec.diagnostics]
    assert F.version_str(dec.version) == path.parent.name[1:]
    g = path.with_suffix(".g.mlir").read_text()
    assert canonical(dec.module, True) == text_ir(g, path.name, True)
