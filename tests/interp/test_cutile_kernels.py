"""Differential tests: every cuTile corpus entry, interpreter vs an independent NumPy reference."""

from __future__ import annotations

import functools
import io

import numpy as np
import pytest
from conftest import DATA

from interp.cutile_cases import CASES, Case
from tile_lsp.compiler.interp import Interpreter
from tile_lsp.compiler.interp.launch import bind, entry_params, find_entry, load_module
from tile_lsp.compiler.interp.memory import GlobalMemory


@functools.cache
def _text(stem: str) -> str:
    return (DATA / "cutile" / f"{stem}.mlir").read_text()


def run_case(case: Case, seed: int = 0) -> dict[str, tuple[float, float]]:
    interp = load_module(_text(case.file), f"{case.file}.mlir")
    interp.stdout = io.StringIO()
    entry = find_entry(interp, case.entry).properties["sym_name"].data  # type: ignore[attr-defined]
    args, grid, check = case.build(np.random.default_rng(seed))
    interp.memory = GlobalMemory()
    launch = bind(entry_params(interp, entry), args, interp.memory)
    interp.run(entry, launch.values, grid)
    return check(_Result(interp, launch))


class _Result:
    def __init__(self, interp: Interpreter, launch):  # type: ignore[no-untyped-def]
        self.interp, self.launch = interp, launch

    def array(self, i: int) -> np.ndarray:
        return self.interp.memory.array(self.launch.arrays[i])


def test_every_corpus_entry_has_a_case():
    import re

    entries = set()
    for path in (DATA / "cutile").glob("*.mlir"):
        if not path.name.endswith(".g.mlir"):
            entries.update(re.findall(r"^entry @(\w+)", path.read_text(), re.M))
    covered = {e for e in entries for c in CASES if e.startswith(c.entry)}
    assert len(entries) == 28  # (26 + pdl_powi_insert's two)
    assert covered == entries


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_kernel_matches_numpy(case: Case):
    errors = run_case(case)
    for name, (measured, bound) in errors.items():
        assert measured <= bound, f"{case.id} {name}: max error {measured:.3g} > {bound:.3g}"
