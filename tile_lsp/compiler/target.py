"""Compile targets and options: `--gpu-name sm_XX[a]` / `--compute-capability NN`, -O, line info.

A target is required from stage 2 on; `Target.resolve` returns None (and the caller reports
the seed's diagnostic) when neither is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GPU_NAME = re.compile(r"sm_(\d{2,3})([af]?)$")

# The PTX ISA version each SM needs at least (LLVM NVPTX `+ptxNN` feature).
_MIN_PTX = ((120, 87), (110, 90), (103, 88), (101, 86), (100, 86), (90, 80), (89, 78), (87, 74), (86, 71), (80, 70),
            (75, 63), (72, 61), (70, 60), (0, 60))


@dataclass(frozen=True)
class Target:
    """One GPU target: compute capability (major*10+minor) and the arch-specific suffix."""

    cc: int
    suffix: str = ""  # "a" (arch-specific, e.g. sm_90a) or "f" (family) or ""

    @property
    def chip(self) -> str:
        return f"sm_{self.cc}{self.suffix}"

    @property
    def ptx_version(self) -> int:
        """PTX ISA version (x10) we emit: PTX 8.7, or the chip's minimum if that is newer.

        Not the chip's minimum: LLVM 22 needs newer PTX for instructions older chips have
        (sparse mma.sp on sm_80 needs 7.1, the tensormap proxy fences on sm_90 need 8.3), and
        CUDA 13's ptxas, which assembles what we emit, reads PTX 8.7 for every chip."""
        base = next(v for sm, v in _MIN_PTX if self.cc >= sm)
        return max(base, 87)

    @property
    def ptx_feature(self) -> str:
        return f"+ptx{self.ptx_version}"

    @staticmethod
    def parse_gpu_name(name: str) -> Target | None:
        m = _GPU_NAME.match(name.strip())
        if m is None:
            return None
        return Target(int(m.group(1)), m.group(2))

    @staticmethod
    def resolve(gpu_name: str | None = None, compute_capability: int | None = None) -> Target | None:
        """The target from a gpu name and/or a compute capability (the name wins on suffix)."""
        if gpu_name:
            target = Target.parse_gpu_name(gpu_name)
            if target is None:
                return None
            if compute_capability is not None and compute_capability != target.cc:
                return None
            return target
        if compute_capability is not None and compute_capability > 0:
            return Target(compute_capability)
        return None


@dataclass(frozen=True)
class CompileOptions:
    """Everything that changes what a compile produces (a cache key)."""

    target: Target | None = None
    opt_level: int = 3
    lineinfo: bool = False
    device_debug: bool = False
    libnvvm_use_nvgpucomp: bool = False
    ptxas: str | None = None  # path; None = search (PATH, CUDA_HOME, nvidia-cuda-nvcc wheel)
    ptxas_timeout: float = 60.0
    # The texts of the stages between the source and the emitted one (tileaa, gpu, nvvm, llvm).
    # False when nobody will read them (`tile-lsp compile` without --dump-dir): each costs a
    # printing (forked children, copy-on-write faults in the stages after it) and a line map.
    stage_texts: bool = True
