"""Our xDSL definitions of upstream dialects xDSL lacks (nvgpu, nvvm) or models only
partly (gpu custom syntax, missing llvm ops). Syntax follows MLIR 22's assembly formats.

`registry.registered()` lists the dialects that `mlir.context.upstream_context()` registers
over xDSL's; this package itself imports none of its modules (xDSL's arith, for `xdsl_fast`).
"""

from tile_lsp.compiler.mlir import xdsl_fast as _xdsl_fast

_xdsl_fast.install()  # with the upstream dialects' patches (xdsl_fast.py): xDSL's arith is imported
