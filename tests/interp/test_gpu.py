"""GPU differential tests: our compiled kernel (through the CUDA driver) vs the interpreter.
Skipped without cuda-bindings, a driver or a device."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA

from interp.cutile_cases import CASES, Case
from interp.gpu import unavailable
from tile_lsp.cli_run import HostArg, resolve_entry, run_cpu, run_gpu

pytestmark = pytest.mark.gpu

GPU_CASES = [c for c in CASES if c.id in {
    "vector_add:vector_add_Kt1_A1f32", "vector_add:vector_add_Kt1_A1f16", "row_softmax:row_softmax_Kt1_A2f32",
    "transpose:transpose_Kt1_A2f32", "gemm:gemm_Kt1_A2f16", "layernorm:layernorm_", "prefix_scan:prefix_scan_Kt1_A2f32",
}]


@pytest.fixture(autouse=True)
def _needs_gpu():
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"no GPU: {reason}")


@pytest.mark.parametrize("case", GPU_CASES, ids=[c.id for c in GPU_CASES])
def test_compiled_kernel_matches_the_interpreter(case: Case):
    text = (DATA / "cutile" / f"{case.file}.mlir").read_text()
    path = f"{case.file}.mlir"
    entry = resolve_entry(text, path, case.entry)
    args, grid, _ = case.build(np.random.default_rng(0))
    host = [HostArg("", a if isinstance(a, np.ndarray) else np.asarray(a), "") for a in args]
    cpu = run_cpu(text, path, entry, host, grid)
    gpu = run_gpu(text, path, entry, host, grid, "sm_90a")
    for i, want in cpu.items():
        got = gpu[i].astype(np.float64)
        ref = want.astype(np.float64)
        assert np.allclose(got, ref, rtol=2e-2, atol=2e-2, equal_nan=True), f"argument {i}"
