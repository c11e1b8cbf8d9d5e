"""The dialects of this package that `mlir.context.upstream_context()` registers over
xDSL's of the same name."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect

from tile_lsp.compiler.mlir.dialects import arith, gpu, index, llvm_ext, math, memref, nv_tileaa, nvgpu, nvvm


def registered() -> list[Callable[[], Dialect]]:
    """Factories of our dialects, registered over xDSL's of the same name."""
    return [gpu.dialect, nvgpu.dialect, nvvm.dialect, llvm_ext.dialect, nv_tileaa.dialect, memref.dialect, math.dialect,
            arith.dialect, index.dialect]
