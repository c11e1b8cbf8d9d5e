"""Our own lit-style cases in tests/lit: `// expected-error` lines must be hit with their
text, and chunks without annotations must parse, verify and round-trip.
"""

from __future__ import annotations

import pathlib

import pytest

from tile_lsp.testing.lit import check_file

LIT = pathlib.Path(__file__).parent / "lit"


@pytest.mark.parametrize("path", sorted(LIT.glob("*.mlir")), ids=lambda p: p.name)
def test_lit_file(path: pathlib.Path):
    outcomes = check_file(path.read_text(encoding="utf-8"), str(path))
    problems = []
    for oc in outcomes:
        for e, line_hit, text_hit in zip(oc.expectations, oc.hit_line, oc.hit_text):
            if not text_hit:
                problems.append(f"line {e.line + 1}: expected {e.kind} {e.text!r} ({'wrong text' if line_hit else 'missing'})")
        if oc.valid and not oc.roundtrip_ok:
            problems.append(oc.failure)
    assert not problems, "\n".join(problems)
