"""Where the CUDA pieces the back end uses live: ptxas and libdevice.

Searched in order: an explicit path, PATH, CUDA_HOME / CUDA_PATH, /usr/local/cuda, and the
`nvidia-cuda-nvcc` / `nvidia-nvvm` pip wheels (their files sit under site-packages/nvidia/).
libdevice: `$TILE_LSP_LIBDEVICE` when set (that file only), else the CUDA roots, the toolkit
ptxas is in, and the wheels.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import sys
from collections.abc import Iterator


def cuda_roots() -> Iterator[str]:
    """CUDA installation roots, most specific first."""
    for var in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"):
        value = os.environ.get(var)
        if value:
            yield value
    yield "/usr/local/cuda"


def wheel_dirs() -> Iterator[str]:
    """The `nvidia` namespace-package folders of installed CUDA wheels."""
    seen: set[str] = set()
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for entry in sys.path:
        locations.append(os.path.join(entry, "nvidia"))
    for loc in locations:
        real = os.path.realpath(loc)
        if real not in seen and os.path.isdir(real):
            seen.add(real)
            yield real


def find_ptxas_binary(explicit: str | None = None) -> str | None:
    """The ptxas to run, or None."""
    if explicit:  # a path, or a program name on PATH
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        return shutil.which(explicit) if os.sep not in explicit else None
    on_path = shutil.which("ptxas")
    if on_path:
        return on_path
    for root in cuda_roots():
        cand = os.path.join(root, "bin", "ptxas")
        if os.access(cand, os.X_OK):
            return cand
    for base in wheel_dirs():
        for cand in sorted(glob.glob(os.path.join(base, "*", "bin", "ptxas"))):
            if os.access(cand, os.X_OK):
                return cand
    return None


LIBDEVICE_VARIABLE = "TILE_LSP_LIBDEVICE"  # names the libdevice to use (and no other)
LIBDEVICE_HELP = (
    "get a good libdevice with `pip install nvidia-nvvm` (or nvidia-cuda-nvcc), or set CUDA_HOME to a "
    f"CUDA toolkit (it has nvvm/libdevice/libdevice.10.bc), or {LIBDEVICE_VARIABLE} to the file"
)


def find_libdevice() -> str | None:
    """Path of libdevice.10.bc (or another libdevice*.bc), or None. `$TILE_LSP_LIBDEVICE`, when
    set, is the one file used (None when it is not a file: see `libdevice_not_found`)."""
    explicit = os.environ.get(LIBDEVICE_VARIABLE)
    if explicit:
        return explicit if os.path.isfile(explicit) else None
    for folder in _libdevice_folders():
        exact = os.path.join(folder, "libdevice.10.bc")
        if os.path.isfile(exact):
            return exact
        others = sorted(glob.glob(os.path.join(folder, "libdevice*.bc")))
        if others:
            return others[0]
    return None


def _libdevice_folders() -> Iterator[str]:
    """Where libdevice may be, in order (looked at lazily: the first hit ends the search, ~20 us
    where CUDA_HOME or /usr/local/cuda has it; it is looked up on every compile)."""
    for root in cuda_roots():
        yield os.path.join(root, "nvvm", "libdevice")
    ptxas = find_ptxas_binary()
    if ptxas:
        yield os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(ptxas))), "nvvm", "libdevice")
    for base in wheel_dirs():
        yield from sorted(glob.glob(os.path.join(base, "*", "nvvm", "libdevice")))
        yield from sorted(glob.glob(os.path.join(base, "nvvm", "libdevice")))


def libdevice_not_found() -> str:
    """Why `find_libdevice` found none (where it looked) and how to get one, in one sentence."""
    explicit = os.environ.get(LIBDEVICE_VARIABLE)
    if explicit:
        return f"{LIBDEVICE_VARIABLE} names {explicit}, which is not a file; {LIBDEVICE_HELP}"
    roots = ", ".join(os.path.join(r, "nvvm", "libdevice") for r in cuda_roots())
    return f"looked in {roots}, beside ptxas and in the nvidia-* wheels; {LIBDEVICE_HELP}"


# Where trimmed libdevices are kept on disk (`backend.llvm._trimmed_libdevice`), so that a new
# process (a `tile-lsp compile`, a compile daemon's child, a fresh language-server worker) does
# not parse and trim libdevice again for a set of functions seen before; None: memory only. Set
# by the callers that own a cache directory: the compiler reads no environment. (Here, not in
# `llvm`, so that setting it imports neither llvmlite nor xDSL.)
_TRIM_DIRECTORY: str | None = None


def set_trim_directory(directory: str | None) -> None:
    global _TRIM_DIRECTORY
    _TRIM_DIRECTORY = directory


def trim_directory() -> str | None:
    return _TRIM_DIRECTORY
