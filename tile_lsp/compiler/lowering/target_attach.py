"""AttachNVVMTarget (seed 001): give every gpu.module one `#nvvm.target` built from the module's
compute capability (or the compile target) and the libNVVM flag dictionary.
"""

from __future__ import annotations

import re

from xdsl.dialects import builtin
from xdsl.dialects.builtin import ArrayAttr, BoolAttr, DictionaryAttr, IntegerAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Operation

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.mlir.xdsl_fast import walk_ops
from tile_lsp.compiler.target import Target

TRIPLE = "nvptx64-nvidia-cuda"
CC_ATTR = "nv_tileaa.compute_capability"
TARGET_SPEC_ATTR = "nv_tileaa.target_spec"
NVGPUCOMP_ATTR = "nv_tileaa.libnvvm_use_nvgpucomp"
MISSING_CC = "failed to get compute capability."

_CHIP = re.compile(r"sm_(\d{2,3})([af]?)$")


def attach_nvvm_target(module: builtin.ModuleOp, lctx: LoweringContext) -> bool:
    """Write `targets = [#nvvm.target<...>]` on every gpu.module; False after a diagnostic."""
    ok = True
    for gpu_module in gpu_modules(module):
        target = module_target(gpu_module, lctx)
        if target is None:
            lctx.error(gpu_module, MISSING_CC)
            ok = False
            continue
        attr = make_target_attr(
            opt_level=max(0, min(3, lctx.options.opt_level)),
            chip=target.chip,
            flags=libnvvm_flags(gpu_module, lctx),
        )
        set_targets(gpu_module, ArrayAttr([attr]))
    return ok


def gpu_modules(module: Operation) -> list[Operation]:
    return [op for op in walk_ops(module) if op.name == "gpu.module"]


def module_target(gpu_module: Operation, lctx: LoweringContext) -> Target | None:
    """The seed's source order: compute_capability, then target_spec, then the compile option."""
    option = lctx.options.target
    cc = gpu_module.attributes.get(CC_ATTR)
    if isinstance(cc, IntegerAttr) and isinstance(cc.value.data, int) and cc.value.data > 0:
        value = cc.value.data
        # The integer drops the arch suffix; the option keeps it when it names the same SM.
        suffix = option.suffix if option is not None and option.cc == value else ""
        return Target(value, suffix)
    spec = gpu_module.attributes.get(TARGET_SPEC_ATTR)
    if isinstance(spec, StringAttr):
        m = _CHIP.match(spec.data.strip())
        if m is not None:
            return Target(int(m.group(1)), m.group(2))
    return option


def libnvvm_flags(gpu_module: Operation, lctx: LoweringContext) -> DictionaryAttr:
    """The libNVVM option dictionary of seed 001 (unit entries are bare flags)."""
    entries: dict[str, Attribute] = {}
    if lctx.options.device_debug:
        entries["-g"] = UnitAttr()
    entries["-Xopt"] = UnitAttr()
    entries["-pragma-unroll-threshold=9900000"] = UnitAttr()
    entries["-fma=0"] = UnitAttr()
    if use_nvgpucomp(gpu_module, lctx):
        entries["libNVVMUseNVGpuComp"] = BoolAttr.from_bool(True)
    # MLIR keeps dictionaries sorted by key; do the same so dumps match mlir-opt's output.
    return DictionaryAttr(dict(sorted(entries.items())))


def use_nvgpucomp(gpu_module: Operation, lctx: LoweringContext) -> bool:
    attr = gpu_module.attributes.get(NVGPUCOMP_ATTR)
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data)
    if isinstance(attr, UnitAttr):
        return True
    return lctx.options.libnvvm_use_nvgpucomp


def make_target_attr(opt_level: int, chip: str, flags: DictionaryAttr | None) -> Attribute:
    """`#nvvm.target<O, triple, chip, features = "", flags>`; no link list (a non-linking target)."""
    from tile_lsp.compiler.mlir.dialects.nvvm import NVVMTargetAttr

    return NVVMTargetAttr.make(O=opt_level, triple=TRIPLE, chip=chip, features="", flags=flags)


def set_targets(gpu_module: Operation, targets: ArrayAttr[Attribute]) -> None:
    """Replace (never append to) the module's target list: property if the op defines one."""
    defines_property = False
    get_def = getattr(type(gpu_module), "get_irdl_definition", None)
    if get_def is not None:
        defines_property = "targets" in get_def().properties
    if defines_property:
        gpu_module.properties["targets"] = targets
        gpu_module.attributes.pop("targets", None)
    else:
        gpu_module.attributes["targets"] = targets
        gpu_module.properties.pop("targets", None)


def existing_target(module: Operation) -> Target | None:
    """The chip of the first `#nvvm.target` already on a gpu.module (for inputs that carry one)."""
    for gpu_module in gpu_modules(module):
        targets = gpu_module.properties.get("targets") or gpu_module.attributes.get("targets")
        if not isinstance(targets, ArrayAttr):
            continue
        for attr in targets.data:
            chip = _chip_of(attr)
            if chip is not None:
                return Target.parse_gpu_name(chip)
    return None


def _chip_of(attr: Attribute) -> str | None:
    from tile_lsp.compiler.mlir.dialects.nvvm import NVVMTargetAttr

    return attr.chip.data if isinstance(attr, NVVMTargetAttr) else None
