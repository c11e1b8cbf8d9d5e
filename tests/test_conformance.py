"""NVIDIA's own cuda_tile dialect tests (../shared/conformance/cuda_tile) as the spec.

Asserts the rates the project promises; `scripts/conformance.py --failures` lists misses.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from conformance import collect, summarize  # noqa: E402


def test_conformance_rates(shared):
    summary = summarize(collect(shared / "conformance" / "cuda_tile"))
    assert summary["valid_chunks"] >= 100
    assert summary["valid_rate"] >= 0.98, summary
    assert summary["line_rate"] >= 0.95, summary
    assert summary["text_rate"] >= 0.80, summary
