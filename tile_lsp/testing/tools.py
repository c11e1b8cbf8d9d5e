"""Reference tools the tests and measurement scripts compare against (not needed by the
product): where upstream MLIR 22's `mlir-opt` is."""

from __future__ import annotations

import os
import shutil

MLIR_OPT_CANDIDATES = ("/usr/lib/llvm-22/bin/mlir-opt", "mlir-opt-22", "mlir-opt")


def mlir_opt_path() -> str | None:
    """Upstream `mlir-opt` 22 (apt-get install mlir-22-tools), or None."""
    for cand in MLIR_OPT_CANDIDATES:
        path = cand if os.path.isabs(cand) and os.access(cand, os.X_OK) else shutil.which(cand)
        if path:
            return path
    return None
