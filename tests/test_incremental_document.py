"""The keystroke path works from the previous version (issue 30): the line index is spliced
(`SourceText.replaced`), the split re-scans only the touched items (`items.resplit`), the
analysis keeps the untouched items (`analyze(previous=...)`) and the LSP conversion keeps their
converted diagnostics (`protocol.FrontEndDiagnostics`). Each must give exactly what the
whole-text path gives: random edits of real kernels compare the two."""

from __future__ import annotations

import pathlib
import random
from collections.abc import Iterator

import pytest

from tile_lsp import protocol as proto
from tile_lsp import textsync
from tile_lsp.compiler.document import DocumentAnalysis, ItemCache, analyze
from tile_lsp.compiler.items import resplit, split_items
from tile_lsp.compiler.source import SourceText

KERNELS = pathlib.Path(__file__).parent / "data" / "cutile"
# What typing inserts, and what would change how the file splits (alias lines, split markers, a
# second module, the generic form, a lone CR, new items and globals).
BITS = ["x", " ", "\n", "}", "{", "%", "@", "0", "// c", "\nentry", "entry @q() {\n  return\n}\n",
        "global @g <i32: 1> : tile<i32>\n", "#a = 1\n", "!t = ", "module", "cuda_tile.module @m {\n",
        "\r", "// -----", '"cuda_tile.addi"', "cuda_tile.entry @z() {}\n", "testing$func", "\u00e9", "\U0001f600", "\r\n"]


def _texts() -> list[str]:
    kernels = sorted(p for p in KERNELS.glob("*.mlir") if not p.name.endswith(".g.mlir"))
    texts = [p.read_text(encoding="utf-8") for p in kernels]
    bare = "entry @a() {\n  return\n}\nentry @b() {\n  return\n}\n"  # (no module)
    # With debug info (alias items): as tileirdisasm -g writes it, and in a module, aliases after it.
    debug = [(KERNELS / f"{name}.g.mlir").read_text(encoding="utf-8") for name in ("prefix_scan", "gather_scatter")]
    code, defs = debug[0].split("\n#", 1)
    wrapped = "cuda_tile.module @m {\n" + code + "\n} loc(#loc)\n#" + defs
    return [*texts, bare, "\n".join(texts[:3]), *debug, wrapped]


def _random_edit(rng: random.Random, source: SourceText) -> tuple[SourceText, textsync.Edit | None]:
    text = source.text
    a = rng.randint(0, len(text))
    b = min(len(text), a + rng.choice([0, 0, 1, 3, 30, 300]))
    new = "".join(rng.choice(BITS) for _ in range(rng.randint(0, 2)))
    (la, ca), (lb, cb) = source.lsp_position(a), source.lsp_position(b)
    return textsync.apply_source_changes(source, [((la, ca, lb, cb), new)])


def _signature(a: DocumentAnalysis) -> tuple[object, ...]:
    return ([(i.kind, i.start, i.end) for i in a.items], [(d.span, d.message, d.severity, d.related) for d in a.diagnostics])


def test_changes_splice_the_line_index_and_compose_into_one_edit() -> None:
    rng = random.Random(5)
    for _ in range(1000):
        before = "".join(rng.choice("ab\nc\n\r") for _ in range(rng.randint(0, 30)))
        source = SourceText(before)
        source.line_starts()
        source.lsp_lines()
        changes: list[textsync.Change] = []
        text = before
        for _ in range(rng.randint(1, 4)):
            now = SourceText(text)
            a = rng.randint(0, len(text))
            b = rng.randint(a, len(text))
            new = "".join(rng.choice("xy\n") for _ in range(rng.randint(0, 5)))
            changes.append(((*now.lsp_position(a), *now.lsp_position(b)), new))
            text = textsync.apply_changes(text, [changes[-1]])
        after, edit = textsync.apply_source_changes(source, changes)
        assert after.text == text
        assert after.line_starts() == SourceText(text).line_starts()
        assert [after.lsp_position(i) for i in range(len(text) + 1)] == [SourceText(text).lsp_position(i) for i in range(len(text) + 1)]
        assert edit is not None
        start, end, new_end = edit
        assert before[:start] == text[:start] and before[end:] == text[new_end:]


def test_resplit_agrees_with_split_items() -> None:
    rng = random.Random(11)
    texts = [t for t in _texts() if split_items(t) is not None]
    local = 0
    for _ in range(2500):
        source = SourceText(rng.choice(texts))
        old = split_items(source.text)
        assert old is not None
        after, edit = _random_edit(rng, source)
        assert edit is not None
        got = resplit(after.text, source.text, old, edit)
        if got is not None:
            local += 1
            assert got == split_items(after.text), edit
    assert local > 1200  # (most edits are decided locally)


def _edited_analyses(seed: int, documents: int) -> Iterator[DocumentAnalysis]:
    """Analyses from the previous version's, after 5 random edits of each of `documents` texts."""
    rng = random.Random(seed)
    texts = _texts()
    cache = ItemCache()
    for _ in range(documents):
        source = SourceText(rng.choice(texts), "k.mlir")
        previous = analyze(source.text, "k.mlir", cache, source=source)
        for _ in range(5):
            source, edit = _random_edit(rng, source)
            assert edit is not None
            previous = analyze(source.text, "k.mlir", cache, source=source, previous=(previous, edit))
            assert previous.source is source
            yield previous


@pytest.mark.parametrize("seed", [1, 2])
def test_an_analysis_from_the_previous_version_equals_a_fresh_one(seed: int) -> None:
    for got in _edited_analyses(seed, 25):
        assert _signature(got) == _signature(analyze(got.source.text, "k.mlir", ItemCache()))


def test_an_edit_in_one_entry_keeps_every_other_item() -> None:
    entry = "entry @k{n}(%a: tile<f32>) {{\n  %b = addf %a, %a : tile<f32>\n  return\n}}\n"
    text = "cuda_tile.module @m {\n" + "".join(entry.format(n=n) for n in range(200)) + "}\n"
    source = SourceText(text, "m.mlir")
    first = analyze(text, "m.mlir", ItemCache(), source=source)
    at = text.index("%a, %a", text.index("@k100")) + 4
    source, edit = textsync.apply_source_changes(source, [((*source.lsp_position(at), *source.lsp_position(at + 2)), "%x")])
    assert edit is not None
    second = analyze(source.text, "m.mlir", ItemCache(), source=source, previous=(first, edit))
    assert second.reparsed == 1 and second.diagnostics and "%x" in second.diagnostics[0].message
    old = {i.start: i for i in first.items}
    for item in second.items[1:]:
        if item.end <= at:
            assert old[item.start] is item  # the same item, not a copy
        elif item.start > at:
            assert item.result is old[item.start].result  # the same parse (same length: same place)


def test_lsp_diagnostics_converted_item_by_item_are_the_same() -> None:
    converted = proto.FrontEndDiagnostics()
    seen = 0
    for got in _edited_analyses(3, 40):
        for encoding in ("utf-16", "utf-8"):
            proto.set_position_encoding(encoding)
            try:
                mine = [proto.unstructure(d) for d in converted.of("file:///k.mlir", got)]
                direct = [proto.unstructure(proto.diagnostic(got.source, "file:///k.mlir", d)) for d in got.diagnostics]
            finally:
                proto.set_position_encoding(None)
            assert mine == direct
            seen += len(mine)
    assert seen > 100
