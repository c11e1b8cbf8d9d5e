"""Offsets, lines and UTF-16 columns of SourceText (what every diagnostic range stands on)."""

from __future__ import annotations

from tile_lsp.compiler.source import SourceText


def test_line_col_round_trip():
    src = SourceText("ab\ncd\n\nxyz")
    for offset in range(len(src.text) + 1):
        line, col = src.line_col(offset)
        assert src.offset(line, col) == offset


def test_utf16_columns_count_astral_characters_twice():
    src = SourceText("// \U0001f600 smile\n%x = y")
    end_of_emoji = src.text.index(" smile")
    assert src.line_col(end_of_emoji) == (0, 4)
    assert src.line_col_utf16(end_of_emoji) == (0, 5)
    assert src.line_col_utf16(src.text.index("%x")) == (1, 0)


def test_offset_clamps_past_the_end():
    src = SourceText("one\ntwo")
    assert src.offset(5, 0) == len(src.text)
    assert src.offset(0, 99) == 3
