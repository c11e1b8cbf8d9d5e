"""Bad input is the normal case: each kind of garbage gives a diagnostic, never an exception."""

from __future__ import annotations

from tile_lsp.cli import main
from tile_lsp.compiler.frontend import parse_chunk
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.textio import decode_source

KERNEL = """cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %b = addf %a, %a : tile<f32>
    return
  }
}
"""


def errors(text: str) -> list[tuple[int, int, str]]:
    src = SourceText(text)
    result = parse_chunk(src)
    return [(*src.line_col(d.span.start), d.message) for d in result.diagnostics if d.is_error]


def test_binary_junk_is_one_diagnostic_at_the_first_bad_byte(tmp_path, capsys):
    path = tmp_path / "junk.mlir"
    path.write_bytes(b"cuda_tile.module @m {\n\x00\x01\x02\xff\xfe garbage")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[0].startswith(f"{path}:2:4: error: invalid UTF-8 byte 0xff")
    assert any(line.startswith(f"{path}:2:1: error:") and "binary data" in line for line in out)


def test_invalid_utf8_points_at_the_byte():
    text, diags = decode_source("// caf\u00e9\n".encode() + b"\xc3\x28 rest")
    assert len(diags) == 1
    assert "invalid UTF-8 byte 0xc3" in diags[0].message
    src = SourceText(text)
    assert src.line_col(diags[0].span.start) == (1, 0)


def test_control_bytes_in_text_are_reported_not_crashing():
    errs = errors("cuda_tile.module @m {\x00}")
    assert len(errs) == 1 and "binary data" in errs[0][2]


def test_truncated_file_reports_at_the_end():
    cut = KERNEL[: KERNEL.index("addf") + 8]
    errs = errors(cut)
    assert errs, "a truncated kernel must produce a diagnostic"
    line, _, _ = errs[0]
    assert line == 2


def test_unbalanced_braces():
    errs = errors(KERNEL + "}\n}\n")
    assert any("unexpected '}'" in m for _, _, m in errs)
    errs = errors(KERNEL.rsplit("}", 1)[0])
    assert any("expected '}'" in m for _, _, m in errs)


def test_unknown_op_and_dialect_are_named():
    errs = errors(KERNEL.replace("addf", "addq"))
    assert (2, 9, "custom op 'addq' is unknown (tried 'cuda_tile.addq' as well)") in errs
    errs = errors(KERNEL.replace("addf %a, %a : tile<f32>", "foo.bar %a : tile<f32>"))
    assert any("custom op 'foo.bar' is unknown" in m for _, _, m in errs)


def test_unregistered_generic_op_is_accepted():
    text = KERNEL.replace("addf %a, %a : tile<f32>", '"foo.bar"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>')
    assert errors(text) == []


def test_ten_megabyte_file_parses_and_reports_the_one_error(tmp_path):
    entry = """  testing$func @k{i}(%a: tile<4xf32>, %b: tile<4xf32>) {{
    %s = addf %a, %b : tile<4xf32>
    %p = mulf %s, %s : tile<4xf32>
    %q = subf %p, %a : tile<4xf32>
    return
  }}
"""
    parts = ["cuda_tile.module @big {\n"]
    size = 0
    i = 0
    while size < 10 * 1024 * 1024:
        chunk = entry.format(i=i)
        if i == 5000:
            chunk = chunk.replace("mulf %s, %s", "mulf %s, %nope")
            bad_line = sum(p.count("\n") for p in parts) + 2
        parts.append(chunk)
        size += len(chunk)
        i += 1
    parts.append("}\n")
    text = "".join(parts)
    errs = errors(text)
    assert [(line, msg) for line, _, msg in errs] == [(bad_line, "use of undeclared SSA value name '%nope'")]


def test_deeply_nested_regions_give_a_diagnostic():
    depth = 500
    body = '"t.n"() ({\n' * depth + "}) : () -> ()\n" * depth
    errs = errors(body)
    assert len(errs) == 1 and "nested more than" in errs[0][2]


def test_deeply_nested_attributes_give_a_diagnostic():
    text = '"t.a"() {x = ' + "[" * 5000 + "]" * 5000 + "} : () -> ()"
    errs = errors(text)
    assert len(errs) == 1


def test_every_prefix_of_a_kernel_is_handled():
    # Half-typed text: every truncation point yields diagnostics or a valid module, never a crash.
    # The front end turns its own exceptions into "internal ..." diagnostics, so look for those.
    for cut in range(0, len(KERNEL), 3):
        result = parse_chunk(SourceText(KERNEL[:cut]))
        assert result.module is not None or result.diagnostics, cut
        assert not any("internal" in d.message for d in result.diagnostics), (cut, result.diagnostics)


def test_truncated_real_kernel_never_reparses_or_cascades():
    """Cut a real kernel anywhere: no diagnostic repeats, and no value defined before the
    cut is reported as undeclared (that would mean text was parsed twice)."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).parent / "data" / "cutile" / "attention.mlir").read_text()
    for cut in range(200, len(text), max(1, len(text) // 80)):
        head = text[:cut]
        src = SourceText(head)
        diags = parse_chunk(src).diagnostics
        keys = [(d.span, d.message) for d in diags]
        assert len(keys) == len(set(keys)), (cut, keys)
        defined = set(re.findall(r"(%[\w$.-]+)(?::\d+)?\s*(?:,\s*%[\w$.-]+\s*)*=", head))
        defined |= set(re.findall(r"(%arg\d+):", head))
        for d in diags:
            m = re.match(r"use of undeclared SSA value name '(%[^']+)'", d.message)
            assert not (m and m.group(1) in defined and head.index(m.group(1)) < d.span.start), (cut, d)
