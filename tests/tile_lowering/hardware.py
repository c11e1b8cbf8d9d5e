"""The gpu stage's output on a real GPU, where one is usable: the tests that run a kernel on the
SIMT simulator (`run_kernel`) also run it on the GPU and check the GPU's results. Without a GPU
(or with TILE_LSP_TEST_GPU=0) they check the simulator's alone."""

from __future__ import annotations

import ctypes
import functools
import os
from typing import Any

import numpy as np
from interp.gpu import unavailable

from tile_lowering.simt import dtype_of, simulate_kernel
from tile_lowering.stages import Run, to_ptx
from tile_lsp.cli_run import Gpu
from tile_lsp.compiler.backend.ptxas import run_ptxas
from tile_lsp.compiler.diagnostics import DiagnosticSink
from tile_lsp.compiler.lowering.common import LoweringContext

LAUNCHES = [0]  # kernels this test session ran on the GPU (reported at the end)


@functools.cache
def gpu() -> Gpu | None:
    if os.environ.get("TILE_LSP_TEST_GPU") == "0" or unavailable() is not None:
        return None
    return Gpu()


def runs_on_gpu(run: Run) -> bool:
    """Whether this machine's GPU can run code for `run`'s target: its own chip, or an older one
    through the PTX (sm_XXa code only on sm_XX itself)."""
    g = gpu()
    target = run.lctx.options.target
    return g is not None and (target.cc == g.cc or (target.cc < g.cc and target.suffix != "a"))


def on_gpu(run: Run, args: list[Any], grid: tuple[int, int, int] = (1, 1, 1)) -> list[Any]:
    """The one gpu.func of `run` carried on to PTX (on a copy), assembled by ptxas for this GPU
    or, for an older target, compiled by the driver from the PTX; launched on `grid` with `args`
    as simulate_kernel takes them. Returns `args` with each array as it is after."""
    g = gpu()
    assert g is not None
    lctx = run.lctx
    module = run.module.clone()
    copy = Run(LoweringContext(lctx.source, lctx.options, DiagnosticSink(stage="nvvm"), dict(lctx.spans)), module, True)
    [fn] = [op for op in module.walk() if op.name == "gpu.func"]
    entry = (fn.properties.get("sym_name") or fn.attributes["sym_name"]).data  # type: ignore[attr-defined]
    threads = int(fn.properties["known_block_size"].get_values()[0])  # type: ignore[attr-defined]
    params = [a.type for a in fn.regions[0].blocks[0].args]
    ptx = to_ptx(copy, lctx.options.target)
    target = lctx.options.target
    if target.cc == g.cc:
        assembled = run_ptxas(ptx, target, lctx.options, name=entry)
        assert assembled.ok and assembled.cubin is not None, assembled.messages
        image = assembled.cubin
    else:
        image = ptx.encode() + b"\0"
    values: list[Any] = []
    for a, t in zip(args, params, strict=True):
        if isinstance(a, np.ndarray):
            values.append(a)
        else:
            raw = np.asarray(a).astype(dtype_of(t)).tobytes()
            values.append((ctypes.c_uint8 * len(raw)).from_buffer_copy(raw))
    out = g.launch(image, entry, values, grid, threads)
    LAUNCHES[0] += 1
    return [out[i].view(a.dtype).reshape(a.shape) if i in out else a for i, a in enumerate(args)]


def run_kernel(run: Run, args: list[Any], grid: tuple[int, int, int] = (1, 1, 1)) -> list[Any]:
    """simulate_kernel (which fails on a shared-memory race or a failed device assert); where
    this machine's GPU can run `run`'s target, the same launch on the GPU, whose results are
    returned instead of the simulator's."""
    simulated = simulate_kernel(run.module, args, grid)
    return on_gpu(run, args, grid) if runs_on_gpu(run) else simulated

