"""Optimization hints: NVIDIA's printed form, warnings by default, errors on request."""

from __future__ import annotations

from tile_lsp.compiler.frontend import parse_chunk
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.syntax.printer import Printer


def _entry(hints: str) -> str:
    return f"cuda_tile.module @m {{\n  entry @k() optimization_hints={hints} {{\n    return\n  }}\n}}\n"


def test_hints_print_sorted_without_types() -> None:
    result = parse_chunk(SourceText(_entry("<sm_120={occupancy=2, num_cta_in_cga=2}, sm_100={num_cta_in_cga=2}>")))
    assert result.ok
    out = Printer().module_text(result.module)  # type: ignore[arg-type]
    assert "optimization_hints=<sm_100 = {num_cta_in_cga = 2}, sm_120 = {num_cta_in_cga = 2, occupancy = 2}> {" in out
    generic = Printer(generic=True).module_text(result.module)  # type: ignore[arg-type]
    assert "optimization_hints = #cuda_tile.optimization_hints<sm_100" in generic


def test_empty_hints_are_not_printed() -> None:
    result = parse_chunk(SourceText(_entry("<>")))
    assert "optimization_hints" not in Printer().module_text(result.module)  # type: ignore[arg-type]


def test_bad_hints_warn_and_error_only_when_asked() -> None:
    text = _entry("<sm_100={num_cta_in_cga=7, latency=2}>")
    diags = parse_chunk(SourceText(text)).diagnostics
    assert [(d.severity.value, d.message) for d in diags] == [
        ("warning", "expected power-of-two ≤ 16 for sm_100.num_cta_in_cga"),
        ("warning", "latency is not known hint for current Operation"),
    ]
    strict = parse_chunk(SourceText(text), options={"hints_errors": True}).diagnostics
    assert [d.message for d in strict if d.is_error] == ["'cuda_tile.entry' op Optimization hints verification failed"]
    quiet = parse_chunk(SourceText(text), options={"hints_warnings": False}).diagnostics
    assert quiet == []


def test_hint_entries_must_be_dictionaries() -> None:
    errors = [d.message for d in parse_chunk(SourceText(_entry("<sm_100=2>"))).diagnostics]
    assert errors == [
        "custom op 'cuda_tile.entry' expected dictionary attribute for optimization_hints entry `sm_100` got value=2 : i64"
    ]
