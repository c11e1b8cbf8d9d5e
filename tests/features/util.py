"""Pure feature tests: `check(source_with_cursor, expected, feature)` analyses the source with
the cursor marker removed and compares `feature(analysis, offset)` with `expected`.

The cursor is `$0` where the source has one, else its only `|`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tile_lsp.compiler.document import DocumentAnalysis, analyze


def split_cursor(source_with_cursor: str) -> tuple[str, int]:
    """(text without the marker, the cursor's offset)."""
    marker = "$0" if "$0" in source_with_cursor else "|"
    assert source_with_cursor.count(marker) == 1, f"exactly one cursor marker {marker!r} expected"
    offset = source_with_cursor.index(marker)
    return source_with_cursor.replace(marker, "", 1), offset


def check(source_with_cursor: str, expected: Any, feature: Callable[[DocumentAnalysis, int], Any]) -> Any:
    """Run `feature` at the cursor and assert it returns `expected`; returns the result."""
    text, offset = split_cursor(source_with_cursor)
    got = feature(analyze(text), offset)
    assert got == expected, f"at offset {offset}:\n  got      {got!r}\n  expected {expected!r}"
    return got
