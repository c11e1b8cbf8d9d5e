"""The shape the code map promises (ARCHITECTURE.md): no import cycles, the protocol layer thin,
no module too big to read. These fail when a change breaks the layering, not on style."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "scripts" / "import_cycles.py")
assert _spec is not None and _spec.loader is not None
import_cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(import_cycles)


def test_no_import_cycles_even_through_imports_inside_functions() -> None:
    known = import_cycles.modules(ROOT)
    graph = {name: import_cycles.imports(name, path, known, False) for name, path in known.items()}
    assert import_cycles.cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles.cycles(graph) == [["a", "b", "c"]]


def test_the_server_is_protocol_glue_and_no_module_is_over_1200_lines() -> None:
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in (ROOT / "tile_lsp").rglob("*.py")}
    assert sizes["tile_lsp/server.py"] < 400
    assert {path: n for path, n in sizes.items() if n > 1200} == {}
