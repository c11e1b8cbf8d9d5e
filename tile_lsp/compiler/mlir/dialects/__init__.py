"""Our xDSL definitions of upstream dialects xDSL lacks (nvgpu, nvvm) or models only
partly (gpu custom syntax, missing llvm ops). Syntax follows MLIR 22's assembly formats.

`registry.registered()` lists the dialects that `mlir.context.upstream_context()` registers
over xDSL's; this package itself imports none of its modules.
"""
