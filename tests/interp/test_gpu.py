"""GPU tests: every cuTile corpus entry compiled by our pipeline (`tile-lsp run`'s path: the
cubin ptxas made, or for an older target than this GPU its PTX, which the driver compiles) and
run through the CUDA driver; its outputs must meet the case's own NumPy reference bounds and
agree with the interpreter. Skipped without cuda-bindings, a driver or a device."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from conftest import DATA, ROOT

from interp.cutile_cases import CASES, Case
from interp.gpu import unavailable
from tile_lsp.cli_run import Gpu, HostArg, RunError, resolve_entry, run_cpu, run_gpu

pytestmark = pytest.mark.gpu

# sm_80 runs through the PTX (mma.sync, ldmatrix, cp.async paths); sm_90a is the H100/H200's own.
TARGETS = ("sm_90a", "sm_80")
# Outputs that depend on which block runs first: the case's own check accepts any block.
ORDER_DEPENDENT = {("atomics:histogram_", 3)}


@pytest.fixture(autouse=True)
def _needs_gpu():
    reason = unavailable()
    if reason is not None:
        pytest.skip(f"no GPU: {reason}")


class _Outputs:
    def __init__(self, arrays: dict[int, Any]) -> None:
        self.arrays = arrays

    def array(self, i: int) -> Any:
        return self.arrays[i]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_compiled_kernel_meets_the_reference(case: Case, target: str):
    text = (DATA / "cutile" / f"{case.file}.mlir").read_text()
    path = f"{case.file}.mlir"
    entry = resolve_entry(text, path, case.entry)
    args, grid, check = case.build(np.random.default_rng(0))
    host = [HostArg("", a if isinstance(a, np.ndarray) else np.asarray(a), "") for a in args]
    try:
        gpu = run_gpu(text, path, entry, host, grid, target)
    except RunError as exc:
        if "cannot run on it" in str(exc):
            pytest.skip(str(exc))
        raise
    for name, (measured, bound) in check(_Outputs(gpu)).items():
        assert measured <= bound, f"{name}: max error {measured:.3g} > {bound:.3g}"
    cpu = run_cpu(text, path, entry, host, grid)
    for i, want in cpu.items():
        if (case.id, i) in ORDER_DEPENDENT:
            continue
        got = gpu[i].astype(np.float64)
        ref = want.astype(np.float64)
        assert np.allclose(got, ref, rtol=2e-2, atol=2e-2, equal_nan=True), f"argument {i}"


def test_code_the_gpu_cannot_run_is_refused_and_older_code_goes_through_its_ptx():
    gpu = Gpu()
    with pytest.raises(RunError, match=rf"this GPU is sm_{gpu.cc}: code for sm_{gpu.cc + 10} cannot run on it"):
        gpu.image(f"sm_{gpu.cc + 10}", b"", "")
    assert gpu.image(f"sm_{gpu.cc}a", b"cubin", "ptx") == b"cubin"
    if gpu.cc > 80:
        assert gpu.image("sm_80", b"cubin", "ptx") == b"ptx\0"
        with pytest.raises(RunError, match="cannot run on it"):
            gpu.image("sm_80a", b"", "")


def test_run_compare_on_the_gpu(tmp_path):
    """`tile-lsp run --compare` as a user runs it: the GPU's outputs next to the interpreter's."""
    proc = subprocess.run([sys.executable, "-m", "tile_lsp", "run", str(DATA / "cutile" / "vector_add.mlir"),
                           "--entry", "vector_add_Kt1_A1f32", "--grid", "2", "--compare", "--arg", "f32[1500]",
                           "--arg", "f32[1500]", "--arg", "f32[1500]:zeros", "--arg", "f32=1.5",
                           "--out", str(tmp_path), "--time", "5"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "arg2: max abs err 0 max rel err 0" in proc.stdout.splitlines()
    assert re.search(r"^gpu kernel time: median [0-9.e-]+ ms, min [0-9.e-]+ ms over 5 launches", proc.stdout, re.M)
    gpu, cpu = np.load(tmp_path / "arg2.gpu.npy"), np.load(tmp_path / "arg2.cpu.npy")
    assert gpu.any() and (gpu == cpu).all()


def test_timed_launches_leave_the_first_launchs_outputs():
    text = (DATA / "cutile" / "vector_add.mlir").read_text()
    entry = resolve_entry(text, "vector_add.mlir", "vector_add_Kt1_A1f32")
    a, b = np.arange(4096, dtype=np.float32), np.ones(4096, np.float32)
    host = [HostArg("", x, "") for x in (a, b, np.zeros(4096, np.float32), np.asarray(np.float32(2.0)))]
    timings: list[float] = []
    out = run_gpu(text, "vector_add.mlir", entry, host, (4, 1, 1), "sm_90a", timings, 7)
    assert len(timings) == 7 and all(0 < t < 1000 for t in timings)
    assert (out[2] == 2 * a + b).all()


# NVIDIA's examples (../shared/kernels/nvidia) that run to an end: each on the GPU, every array
# as the interpreter leaves it (those without arguments: the launch must complete).
EXAMPLES = [
    ("example_module", "example_kernel", lambda: [np.arange(128, dtype=np.float32)]),
    ("_store_view_tko", "example", lambda: [np.ones((8192, 128), np.float32)]),
    ("_atomic_red_view_tko", "example", lambda: [np.zeros((8192, 128), np.float32)]),
    ("_make_gather_scatter_view", "example", lambda: [np.zeros(16, np.float32)]),
    ("_atomic_cas_tko", "example", lambda: [np.arange(8, dtype=np.int32)]),
    ("_atomic_rmw_tko", "example_rmw", lambda: [np.zeros(8, np.float32)]),
    *((suffix, "example", list) for suffix in ("_mmaf", "_mmai", "_for", "_if", "_scan", "_pack")),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(("suffix", "entry", "arrays"), EXAMPLES, ids=[e[0].strip("_") for e in EXAMPLES])
def test_nvidia_example_on_the_gpu_matches_the_interpreter(shared, suffix: str, entry: str, arrays: Any, target: str):
    (path,) = (shared / "kernels" / "nvidia").glob(f"*{suffix}.mlir")
    text = path.read_text()
    host = [HostArg("", a, "") for a in arrays()]
    gpu = run_gpu(text, path.name, entry, host, (1, 1, 1), target)
    cpu = run_cpu(text, path.name, entry, host, (1, 1, 1))
    assert sorted(gpu) == sorted(cpu)
    for i, want in cpu.items():
        np.testing.assert_array_equal(gpu[i], want, err_msg=f"argument {i}")
