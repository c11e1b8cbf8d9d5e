"""Differential test of the gpu stage: every cuTile corpus entry run by the reference
interpreter (tile_lsp.compiler.interp) and, lowered to stage 3, by the SIMT simulator (simt.py),
on the same inputs; every array argument must agree within its dtype's tolerance."""

from __future__ import annotations

import functools
import io
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from interp.cutile_cases import CASES, F8, F16, Case, gemm

from tile_lowering.simt import Memory, Simulator, dtype_of
from tile_lowering.stages import DATA, SM80, SM90A, Run, entries, ops, to_gpu
from tile_lsp.compiler.interp.launch import bind, entry_params, find_entry, load_module
from tile_lsp.compiler.target import Target


@functools.cache
def _entry_text(file: str, prefix: str) -> str:
    [text] = [t for t in entries(DATA / f"{file}.mlir") if t.startswith(f"entry @{prefix}")]
    return text


@dataclass
class Outcome:
    interp: dict[int, np.ndarray]  # argument number -> final array
    sim: dict[int, np.ndarray]
    races: list[str]
    printed: int
    seconds: float


def run_both(case: Case, target: Target, seed: int = 0, lower: Callable[[str, Target], Run] = to_gpu) -> Outcome:
    args, grid, _ = case.build(np.random.default_rng(seed))
    interp = load_module(_entry_text(case.file, case.entry), f"{case.file}.mlir")
    interp.stdout = io.StringIO()
    entry = find_entry(interp, case.entry).properties["sym_name"].data  # type: ignore[attr-defined]
    params = entry_params(interp, entry)
    launch = bind(params, [a.copy() if isinstance(a, np.ndarray) and a.ndim else a for a in args], interp.memory)
    interp.run(entry, launch.values, grid)
    want = {i: interp.memory.array(name) for i, name in launch.arrays.items()}

    start = time.perf_counter()
    run = lower(_entry_text(case.file, case.entry), target)
    assert run.ok, run.errors
    [fn] = ops(run.module, "gpu.func")
    threads = int(fn.properties["known_block_size"].get_values()[0])  # type: ignore[attr-defined]
    mem = Memory()
    sim = Simulator(run.module, threads, mem)
    values: list[Any] = list(launch.values)
    where: dict[int, tuple[int, np.ndarray]] = {}
    for p, i in launch.pointer_params.items():
        where[i] = (mem.put(args[i]), args[i])
        values[p] = where[i][0]
    for p, a in enumerate(fn.regions[0].blocks[0].args):
        if p not in launch.pointer_params:
            values[p] = np.asarray(values[p]).astype(dtype_of(a.type))
    sim.launch(fn, values, tuple(grid))  # type: ignore[arg-type]
    got = {i: mem.get(addr, a.size, a.dtype).reshape(a.shape) for i, (addr, a) in where.items()}
    assert not sim.assert_failures, sim.assert_failures
    return Outcome(want, got, mem.races, len(sim.printed), time.perf_counter() - start)


# The fp8 gemm runs its dot as scalar fma loops in the simulator (slow): a smaller problem than
# cutile_cases' (one CTA, K = 64), at sm_90a (hardware cvt, inline PTX) and sm_80 (the formula).
_F8_SMALL = Case("gemm", "gemm_Kt1_A2f8m3fn", gemm(F8, F16, 100, 90, 64, 128, 128, 1.6e-2))
_TARGETS = {"sm_90a": SM90A, "sm_80": SM80}
_PARAMS = [pytest.param(c, "sm_90a", id=c.id) for c in CASES if "f8" not in c.entry] + [
    pytest.param(_F8_SMALL, t, id=f"{_F8_SMALL.id}-small-{t}") for t in _TARGETS]

# Allowed error, in units of the output dtype's epsilon times the array's largest magnitude:
# accumulations (dot, reduce, scan, atomics on floats) run in another order on the gpu path.
_EPS_BOUND = 16.0


def errors(want: np.ndarray, got: np.ndarray) -> tuple[float, float]:
    """(max abs error, max abs error / largest finite |want|); NaNs and infinities must match."""
    w, g = want.astype(np.float64), got.astype(np.float64)
    assert (np.isnan(w) == np.isnan(g)).all(), "NaN positions differ"
    with np.errstate(invalid="ignore"):
        d = np.where((w == g) | np.isnan(w), 0.0, np.abs(w - g))
    abs_err = float(d.max()) if d.size else 0.0
    finite = np.abs(w[np.isfinite(w)])
    scale = float(finite.max()) if finite.size else 0.0
    return abs_err, abs_err / scale if scale else abs_err


def check(out: Outcome) -> dict[int, tuple[float, float]]:
    measured = {}
    for i, want in out.interp.items():
        got = out.sim[i]
        assert got.dtype == want.dtype and got.shape == want.shape
        if want.dtype.kind in "iub":
            np.testing.assert_array_equal(got, want, err_msg=f"array argument {i}")
            measured[i] = (0.0, 0.0)
            continue
        abs_err, rel_err = errors(want, got)
        eps = float(ml_dtypes.finfo(want.dtype).eps)
        assert rel_err <= _EPS_BOUND * eps, f"array argument {i} ({want.dtype}): max error {abs_err:.3g} " \
            f"= {rel_err / eps:.1f} eps of the largest magnitude"
        measured[i] = (abs_err, rel_err)
    return measured


@pytest.mark.parametrize(("case", "target"), _PARAMS)
def test_gpu_stage_matches_the_interpreter(case: Case, target: str) -> None:
    out = run_both(case, _TARGETS[target])
    check(out)
    cross = [r for r in out.races if not r.startswith("intra-warp")]
    assert not cross, cross[:3]
    assert not out.races, out.races[:3]
    if case.file == "debug_print":
        assert out.printed > 0


def _tf32_ties(rng: np.random.Generator) -> tuple[list[Any], tuple[int, int, int], Any]:
    """f32 gemm inputs that sit exactly halfway between two tf32 values (low 13 bits 0x1000),
    with both parities of the last kept bit: ftof to tf32 must round them to even."""
    def ties(shape: tuple[int, ...]) -> np.ndarray:
        bits = rng.uniform(0.5, 2.0, shape).astype(np.float32).view(np.uint32)
        return ((bits & np.uint32(0xFFFFE000)) | np.uint32(0x1000)).view(np.float32)
    a, b = ties((64, 40)), ties((40, 64))
    return [a, b, np.zeros((64, 64), np.float32)], (1, 1, 1), None


def test_tf32_conversion_rounds_ties_to_even() -> None:
    """Regression: the gpu stage rounded f32 -> tf32 ties away from zero (fixed in `_ftof`)."""
    check(run_both(Case("gemm", "gemm_Kt1_A2f32", _tf32_ties), SM80))


def test_race_detector_sees_missing_barriers() -> None:
    """Lockstep execution cannot miss a barrier; the shared-memory race detector does."""
    def without_barriers(text: str, target: Target) -> Run:
        run = to_gpu(text, target)
        for op in ops(run.module, "gpu.barrier"):
            op.detach()
            op.erase()
        return run

    [case] = [c for c in CASES if c.entry == "transpose_Kt1_A2f32"]
    out = run_both(case, SM90A, lower=without_barriers)
    check(out)  # the numbers still agree ...
    assert any(r.startswith("cross-warp") for r in out.races)  # ... but the races are seen


def test_a_miscompile_is_caught() -> None:
    """The comparison is not vacuous: swapping the operands of one subf of the gpu-stage
    row_softmax (x - max becomes max - x) makes it fail."""
    def mutated(text: str, target: Target) -> Run:
        run = to_gpu(text, target)
        sub = ops(run.module, "arith.subf")[0]
        a, b = sub.operands
        sub.operands = (b, a)
        return run

    [case] = [c for c in CASES if c.entry == "row_softmax_Kt1_A2f32"]
    with pytest.raises(AssertionError, match="max error|NaN"):
        check(run_both(case, SM90A, lower=mutated))
