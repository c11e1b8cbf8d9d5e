"""Shared fixtures: where ../shared is (tests needing it skip cleanly without it)."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = ROOT / "tests" / "data"


@pytest.fixture
def shared() -> pathlib.Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
