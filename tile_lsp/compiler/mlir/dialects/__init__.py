"""Our xDSL definitions of upstream dialects xDSL lacks (nvgpu, nvvm) or models only
partly (gpu custom syntax, missing llvm ops). Syntax follows MLIR 22's assembly formats."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect


def registered() -> list[Callable[[], Dialect]]:
    """Factories of our dialects, registered over xDSL's of the same name."""
    from tile_lsp.compiler.mlir.dialects import arith, gpu, index, llvm_ext, math, memref, nv_tileaa, nvgpu, nvvm

    return [gpu.dialect, nvgpu.dialect, nvvm.dialect, llvm_ext.dialect, nv_tileaa.dialect, memref.dialect, math.dialect,
            arith.dialect, index.dialect]
