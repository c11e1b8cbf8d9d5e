"""The nvvm stage (seed 000): gpu + nvgpu + std dialects -> nvvm + llvm inside the gpu.module,
then the strict legality check (only gpu.module may survive of gpu/nvgpu; no std op survives).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from tile_lsp.compiler.lowering.common import LoweringContext, apply_patterns_to
from tile_lsp.compiler.lowering.gpu_to_nvvm import gpu_function_patterns, gpu_patterns
from tile_lsp.compiler.lowering.nvgpu_to_nvvm import nvgpu_patterns
from tile_lsp.compiler.lowering.scf_to_cf import scf_patterns
from tile_lsp.compiler.lowering.std_to_llvm import UNSUPPORTED, std_patterns
from tile_lsp.compiler.lowering.types import reconcile_casts
from tile_lsp.compiler.mlir.xdsl_fast import walk_ops

# Dialects whose ops must all be gone after this stage (besides gpu.module).
STD_PREFIXES = ("arith.", "scf.", "cf.", "math.", "memref.", "func.", "vector.", "index.", "ub.")
GPU_PREFIXES = ("gpu.", "nvgpu.")
LEGAL_GPU = ("gpu.module",)


# Ops no pattern of this stage rewrites (already in the target dialects): skipped without
# consulting every pattern, which keeps large modules (wgmma accumulators) fast.
_DONE_PREFIXES = ("llvm.", "nvvm.")
_DONE_NAMES = ("builtin.unrealized_conversion_cast",)


def _gpu_pass_names() -> Callable[[str], bool]:
    """The ops the gpu/nvgpu pass's patterns act on: gpu and nvgpu ops, the math (and arith) ops
    libdevice implements, `cf.assert` (-> `__assertfail`)."""
    from tile_lsp.compiler.lowering.libdevice_math import LIBDEVICE, LIBDEVICE_INT, LIBDEVICE_PREDICATES

    names = frozenset({*LIBDEVICE, *LIBDEVICE_PREDICATES, *LIBDEVICE_INT, "math.sincos", "cf.assert"})
    return lambda name: name.startswith(GPU_PREFIXES) or name in names


def _not_lowered(name: str) -> bool:
    return not name.startswith(_DONE_PREFIXES) and name not in _DONE_NAMES and name != "gpu.module"


def _erase_dead(root: Operation) -> None:
    """Erase ops without uses or effects (users before what they use: one reverse walk)."""
    for op in reversed(walk_ops(root)):
        if op is not root and not op.regions and op.parent is not None and is_trivially_dead(op):
            op.detach()
            op.erase()


def device_roots(module: ModuleOp) -> list[Operation]:
    """What this stage lowers: every gpu.module (host code around them is left alone, as
    upstream's pass does), or the whole module when it has none."""
    found = [op for op in walk_ops(module) if op.name == "gpu.module"]
    return found or [module]


def convert_to_nvvm(module: ModuleOp, lctx: LoweringContext) -> bool:
    """Lower `module` in place; False (with diagnostics at the offending ops) when something is left."""
    errors_before = sum(1 for d in lctx.sink.items if d.is_error)
    ok = True
    for root in device_roots(module):
        # A gpu.module has a single-block `body` region just like builtin.module, which is all the
        # pattern walker needs.
        target = cast(ModuleOp, root)
        # The gpu/nvgpu and scf passes touch few ops: only those are visited.
        apply_patterns_to(target, [*gpu_patterns(lctx), *nvgpu_patterns(lctx)], _gpu_pass_names())
        apply_patterns_to(target, scf_patterns(lctx), lambda name: name.startswith("scf."), last_first=True)
        # Every op not yet in llvm/nvvm: once each, in walk order, retried while a round changes
        # something (gpu.func waits for its body); then the dead ones go, as the greedy driver
        # removed them.
        apply_patterns_to(target, [*std_patterns(lctx), *gpu_function_patterns(lctx)], _not_lowered)
        _erase_dead(target)
        reconcile_casts(root)
        ok = check_nvvm_legality(root, lctx) and ok
    errors_after = sum(1 for d in lctx.sink.items if d.is_error)
    return ok and errors_after == errors_before


def check_nvvm_legality(module: Operation, lctx: LoweringContext) -> bool:
    """Every surviving gpu/nvgpu op (but gpu.module) and std op is an error at that op; casts
    that did not fold are reported as unresolved materialisations."""
    ok = True
    for op in walk_ops(module):
        if op is module:
            continue
        name = op.name
        if name.startswith(GPU_PREFIXES) and name not in LEGAL_GPU:
            lctx.error(op, f"failed to legalize operation '{name}'")
            ok = False
        elif name.startswith(STD_PREFIXES):
            lctx.error(op, UNSUPPORTED.format(what=f"'{name}'"))
            ok = False
        elif name == "builtin.unrealized_conversion_cast":
            src = op.operands[0].type if op.operands else None
            dst = op.results[0].type if op.results else None
            owner = op.operands[0].owner if op.operands else None
            # A cast fed by an op that is itself reported is a consequence, not a new error.
            if owner is not None and getattr(owner, "name", "").startswith((*STD_PREFIXES, *GPU_PREFIXES)):
                continue
            if any(u.operation.name.startswith((*STD_PREFIXES, *GPU_PREFIXES)) for r in op.results for u in r.uses):
                continue
            lctx.error(op, f"failed to legalize unresolved materialization from '{src}' to '{dst}'")
            ok = False
    return ok


__all__ = ["check_nvvm_legality", "convert_to_nvvm", "device_roots"]
