"""Whether this machine can launch kernels (cuda-bindings + a driver + a device)."""

from __future__ import annotations

import functools


@functools.cache
def unavailable() -> str | None:
    """None when a GPU is usable, else why not."""
    try:
        from cuda.bindings import driver
    except ImportError:
        return "cuda-bindings is not installed"
    try:
        (err,) = driver.cuInit(0)
        if err != driver.CUresult.CUDA_SUCCESS:
            return f"cuInit: {err}"
        err, count = driver.cuDeviceGetCount()
    except Exception as exc:  # no libcuda
        return f"no CUDA driver: {exc}"
    return None if err == driver.CUresult.CUDA_SUCCESS and count else "no CUDA device"
