"""The server's own text synchronisation (tile_lsp/textsync.py) and LSP position conversion
(SourceText's lsp_* methods) against the obviously right reference model in text_model.py:
thousands of random edits of text full of every character Python's `str.splitlines` breaks at
(LSP breaks only at \\n, \\r\\n and a lone \\r) and of characters of 2, 3 and 4 UTF-8 bytes and
2 UTF-16 units, at positions in range, past line ends, past the last line and inside characters."""

from __future__ import annotations

import random

import pytest
import text_model

from tile_lsp import textsync
from tile_lsp.compiler.source import SourceText

BREAKS = ["\n", "\r\n", "\r", "\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
WIDE = ["\U0001f600", "\U0001f9ea", "é", "€", "\u4e2d", "\ud800"]  # emoji (2 UTF-16 units), 2/3-byte, a lone surrogate
PLAIN = ["a", "b", "%x", " = ", "addf", "//", " ", "\t", "<", ">"]
EDITS = 3000


def _piece(rng: random.Random, n: int) -> str:
    pool = BREAKS * 2 + WIDE + PLAIN * 2
    return "".join(rng.choice(pool) for _ in range(n))


def _position(rng: random.Random, text: str, encoding: str) -> tuple[int, int]:
    """A random position: mostly a real one (any character boundary, maybe inside a character),
    sometimes past the end of its line or past the last line."""
    table = text_model.lines(text)
    roll = rng.random()
    if roll < 0.05:
        return len(table) + rng.randint(0, 3), rng.randint(0, 5)
    line = rng.randrange(len(table))
    width = sum(text_model.units(ch, encoding) for ch in table[line][1])
    if roll < 0.15:
        return line, width + rng.randint(1, 4)
    return line, rng.randint(0, width)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_random_edits_match_the_reference_model(encoding: str):
    rng = random.Random(f"textsync-{encoding}")
    text = _piece(rng, 200)
    for step in range(EDITS):
        if rng.random() < 0.01:
            change: tuple[tuple[int, int, int, int] | None, str] = (None, _piece(rng, rng.randint(0, 80)))
        else:
            a, b = _position(rng, text, encoding), _position(rng, text, encoding)
            if rng.random() < 0.9:
                a, b = min(a, b), max(a, b)  # sometimes reversed: taken the other way round
            new = _piece(rng, rng.choice([0, 0, 1, 1, 2, 5, 20])) if len(text) < 600 else ""
            change = ((a[0], a[1], b[0], b[1]), new)
        expected = text_model.apply(text, change, encoding)
        got = textsync.apply_changes(text, [change], encoding)
        assert got == expected, (step, text, change)
        text = got


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_several_changes_of_one_notification_apply_in_order(encoding: str):
    rng = random.Random(f"batch-{encoding}")
    text = _piece(rng, 150)
    for _ in range(300):
        changes: list[tuple[tuple[int, int, int, int] | None, str]] = []
        model = text
        for _ in range(rng.randint(1, 4)):  # each change's range is in the text the previous left
            a, b = sorted([_position(rng, model, encoding), _position(rng, model, encoding)])
            change = ((a[0], a[1], b[0], b[1]), _piece(rng, rng.randint(0, 6)) if len(model) < 500 else "")
            changes.append(change)
            model = text_model.apply(model, change, encoding)
        text = textsync.apply_changes(text, changes, encoding)
        assert text == model


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8", "utf-32"])
def test_positions_and_offsets_match_the_reference_model(encoding: str):
    rng = random.Random(f"positions-{encoding}")
    for _ in range(60):
        text = _piece(rng, rng.randint(0, 120))
        source = SourceText(text)
        for offset in range(len(text) + 1):
            assert source.lsp_position(offset, encoding) == text_model.position_of(text, offset, encoding), (text, offset)
        for _ in range(40):
            line, character = _position(rng, text, encoding)
            assert source.lsp_offset(line, character, encoding) == text_model.offset_of(text, line, character, encoding)


def test_utf16_is_the_default_and_line_col_utf16_is_lsp():
    text = "a\fb\rc\U0001f600d\u2028e\r\nf"
    source = SourceText(text)
    at = text.index("d")
    assert source.line_col_utf16(at) == text_model.position_of(text, at) == (1, 3)
    assert source.offset_utf16(1, 3) == at
    assert source.offset_utf16(1, 2) == text.index("\U0001f600")  # inside the pair: before it
    assert textsync.apply_changes(text, [((1, 3, 1, 4), "D")]) == text.replace("d", "D")
