"""Shared fixtures: where ../shared is (tests needing it skip cleanly without it)."""

from __future__ import annotations

import os
import pathlib
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = ROOT / "tests" / "data"


@pytest.fixture
def shared() -> pathlib.Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture(autouse=True, scope="session")
def _private_cache_dir() -> object:
    """The per-entry compile cache of every CLI run and language server the tests start goes to
    a fresh directory, not the user's ~/.cache/tile-lsp (and no test sees another run's units)."""
    with tempfile.TemporaryDirectory(prefix="tile-lsp-test-cache-") as tmp:
        old = os.environ.get("XDG_CACHE_HOME")
        os.environ["XDG_CACHE_HOME"] = tmp
        yield tmp
        if old is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = old


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """How many kernels ran on a real GPU (tests that simulate a kernel also run it on one)."""
    import sys

    hardware = sys.modules.get("tile_lowering.hardware")
    if hardware is not None and hardware.LAUNCHES[0]:
        terminalreporter.write_line(f"kernels also run on the GPU: {hardware.LAUNCHES[0]}")


def _slow_tests() -> frozenset[str]:
    listed = ROOT / "tests" / "slow_tests.txt"
    if not listed.is_file():
        return frozenset()
    lines = listed.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def pytest_collection_modifyitems(config, items) -> None:  # type: ignore[no-untyped-def]
    """Mark the tests tests/slow_tests.txt lists (by test function) `slow`: `make test` runs
    the others, `make test-all` everything (scripts/slow_tests.py makes the list)."""
    slow = _slow_tests()
    for item in items:
        if item.nodeid.split("[", 1)[0] in slow:
            item.add_marker(pytest.mark.slow)
