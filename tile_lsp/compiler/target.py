"""Compile targets and options: `--gpu-name sm_XX[a]` / `--compute-capability NN`, -O, line info.

A target is required from stage 2 on; `Target.resolve` returns None (and the caller reports
the seed's diagnostic) when neither is given, or when the name is not one of `GPU_NAMES`
(`target_error` says why, listing them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_GPU_NAME = re.compile(r"sm_(\d{2,3})([af]?)$")

# The GPU names a compile can target: those LLVM 22's NVPTX back end knows (another name gets
# one "is not a recognized processor" message per code generation, and the PTX is for no chip)
# and some ptxas of CUDA 12 or 13 takes (sm_70/72 and sm_101 only CUDA 12's, sm_88 and sm_110
# only CUDA 13's: that ptxas says so, once). sm_70 is the oldest our lowering reaches.
GPU_NAMES = (
    "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_90a",
    "sm_100", "sm_100a", "sm_100f", "sm_101", "sm_101a", "sm_101f", "sm_103", "sm_103a", "sm_103f",
    "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f",
)
COMPUTE_CAPABILITIES = tuple(sorted({int(n[3:].rstrip("af")) for n in GPU_NAMES}))

# The PTX ISA version each SM needs at least (LLVM NVPTX `+ptxNN` feature).
_MIN_PTX = ((121, 88), (120, 87), (110, 90), (103, 88), (101, 86), (100, 86), (90, 80), (89, 78), (88, 90), (87, 74),
            (86, 71), (80, 70), (75, 63), (72, 61), (70, 60), (0, 60))
_MIN_PTX_FAMILY = 88  # an `f` (family) target: PTX 8.8 at least


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
        if self.suffix == "f":
            base = max(base, _MIN_PTX_FAMILY)
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
        """The target from a gpu name and/or a compute capability (the name wins on suffix);
        None when neither is given, they disagree, or either is not one we compile for
        (`target_error` says which)."""
        if gpu_name:
            target = Target.parse_gpu_name(gpu_name)
            if target is None or target.chip not in GPU_NAMES:
                return None
            if compute_capability is not None and compute_capability != target.cc:
                return None
            return target
        if compute_capability is not None and compute_capability in COMPUTE_CAPABILITIES:
            return Target(compute_capability)
        return None


def target_error(gpu_name: str | None, compute_capability: int | None, *, gpu_option: str = "--gpu-name",
                 cc_option: str = "--compute-capability") -> str | None:
    """Why `Target.resolve(gpu_name, compute_capability)` has no target for a name or a
    capability not in `GPU_NAMES`, in the words of the options that gave them; None otherwise
    (valid, none given, or the two disagree: the caller words that)."""
    if gpu_name:
        target = Target.parse_gpu_name(gpu_name)
        if target is None or target.chip not in GPU_NAMES:
            return f"invalid {gpu_option} {gpu_name!r}: expected one of {', '.join(GPU_NAMES)}"
        return None
    if compute_capability is not None and compute_capability not in COMPUTE_CAPABILITIES:
        known = ", ".join(str(cc) for cc in COMPUTE_CAPABILITIES)
        return f"invalid {cc_option} {compute_capability}: expected one of {known}"
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
    # Seconds before ptxas (and nvlink) is killed with its process group. Neither in the repr
    # (the per-entry cache's key) nor compared: it does not change what a compile produces, and
    # a timed-out unit is never cached.
    ptxas_timeout: float = field(default=60.0, repr=False, compare=False)
    # The texts of the stages between the source and the emitted one (tileaa, gpu, nvvm, llvm).
    # False when nobody will read them (`tile-lsp compile` without --dump-dir): each costs a
    # printing (forked children, copy-on-write faults in the stages after it) and a line map.
    stage_texts: bool = True
