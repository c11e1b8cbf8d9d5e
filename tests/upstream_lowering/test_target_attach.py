"""AttachNVVMTarget (seed 001): attribute sources, the target fields, each libNVVM flag's
condition, idempotency, and the verbatim missing-capability diagnostic."""

from __future__ import annotations

import io
import re

from xdsl.dialects.builtin import ArrayAttr
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.lowering.target_attach import MISSING_CC, attach_nvvm_target, gpu_modules
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from upstream_lowering.util import mlir_opt, parse_ok, print_ir


def _module(attrs: str = "") -> str:
    attr_dict = f" attributes {{{attrs}}}" if attrs else ""
    return (
        "module attributes {gpu.container_module} {\n"
        f"  gpu.module @kernels{attr_dict} {{\n"
        "    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {\n"
        "      llvm.return\n"
        "    }\n"
        "  }\n"
        "}\n"
    )


def _attach(text: str, **options: object) -> tuple[Operation, LoweringContext, bool]:
    parsed = parse_ok(text)
    assert parsed.module is not None
    lctx = LoweringContext(SourceText(text, "t.mlir"), CompileOptions(**options), spans=parsed.spans)  # type: ignore[arg-type]
    ok = attach_nvvm_target(parsed.module, lctx)
    return parsed.module, lctx, ok


def _targets(module: Operation) -> list[Attribute]:
    gm = gpu_modules(module)[0]
    targets = gm.properties.get("targets") or gm.attributes.get("targets")
    assert isinstance(targets, ArrayAttr)
    return list(targets.data)


def _text(attr: Attribute) -> str:
    out = io.StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def _field(attr: Attribute, name: str) -> str | None:
    m = re.search(rf"\b{name} = (\"[^\"]*\"|\d+|\{{[^}}]*\}})", _text(attr))
    return m.group(1) if m else None


def _flags(attr: Attribute) -> str:
    return _field(attr, "flags") or ""


def test_chip_from_compute_capability_attr() -> None:
    module, _, ok = _attach(_module("nv_tileaa.compute_capability = 90 : i32"))
    assert ok
    (target,) = _targets(module)
    assert _text(target).startswith("#nvvm.target<")
    assert _field(target, "chip") == '"sm_90"'


def test_compute_capability_keeps_suffix_of_matching_option() -> None:
    module, _, _ = _attach(_module("nv_tileaa.compute_capability = 90 : i32"), target=Target(90, "a"))
    assert _field(_targets(module)[0], "chip") == '"sm_90a"'


def test_chip_from_target_spec_when_no_capability() -> None:
    module, _, ok = _attach(_module('nv_tileaa.target_spec = "sm_80"'))
    assert ok and _field(_targets(module)[0], "chip") == '"sm_80"'


def test_capability_wins_over_target_spec() -> None:
    module, _, _ = _attach(_module('nv_tileaa.compute_capability = 89 : i32, nv_tileaa.target_spec = "sm_80"'))
    assert _field(_targets(module)[0], "chip") == '"sm_89"'


def test_option_target_is_the_last_source() -> None:
    module, _, ok = _attach(_module(), target=Target(100, "a"))
    assert ok and _field(_targets(module)[0], "chip") == '"sm_100a"'


def test_missing_capability_is_the_verbatim_diagnostic_at_the_gpu_module() -> None:
    text = _module()
    module, lctx, ok = _attach(text)
    assert not ok
    (diag,) = lctx.sink.items
    assert diag.message == "failed to get compute capability." == MISSING_CC
    line, _ = lctx.source.line_col(diag.span.start)
    assert lctx.source.line_text(line).lstrip().startswith("gpu.module @kernels")
    gm = gpu_modules(module)[0]
    assert "targets" not in gm.properties and "targets" not in gm.attributes


def test_fixed_fields_triple_features_and_no_link() -> None:
    module, _, _ = _attach(_module(), target=Target(90, "a"))
    target = _targets(module)[0]
    assert _field(target, "triple") in (None, '"nvptx64-nvidia-cuda"')
    assert _field(target, "features") in (None, '""')
    assert "link" not in _text(target)


def test_optimization_level_comes_from_the_options() -> None:
    for level in (0, 1, 3):
        module, _, _ = _attach(_module(), target=Target(90), opt_level=level)
        assert _field(_targets(module)[0], "O") in ((str(level),) if level != 2 else ("2", None))


def test_flag_g_only_with_device_debug() -> None:
    module, _, _ = _attach(_module(), target=Target(90), device_debug=True)
    assert '"-g"' in _flags(_targets(module)[0])
    module, _, _ = _attach(_module(), target=Target(90), lineinfo=True)
    assert '"-g"' not in _flags(_targets(module)[0])


def test_flag_xopt_always() -> None:
    for debug in (False, True):
        module, _, _ = _attach(_module(), target=Target(90), device_debug=debug)
        assert '"-Xopt"' in _flags(_targets(module)[0])


def test_flag_unroll_threshold_always() -> None:
    module, _, _ = _attach(_module(), target=Target(80))
    assert '"-pragma-unroll-threshold=9900000"' in _flags(_targets(module)[0])


def test_flag_fma0_always() -> None:
    module, _, _ = _attach(_module(), target=Target(80))
    assert '"-fma=0"' in _flags(_targets(module)[0])


def test_flag_nvgpucomp_only_when_enabled() -> None:
    module, _, _ = _attach(_module(), target=Target(90))
    assert "libNVVMUseNVGpuComp" not in _flags(_targets(module)[0])
    module, _, _ = _attach(_module(), target=Target(90), libnvvm_use_nvgpucomp=True)
    assert "libNVVMUseNVGpuComp = true" in _flags(_targets(module)[0])
    module, _, _ = _attach(_module("nv_tileaa.libnvvm_use_nvgpucomp = true"), target=Target(90))
    assert "libNVVMUseNVGpuComp = true" in _flags(_targets(module)[0])


def test_rerunning_overwrites_never_appends() -> None:
    text = _module()
    parsed = parse_ok(text)
    assert parsed.module is not None
    source = SourceText(text, "t.mlir")
    attach_nvvm_target(parsed.module, LoweringContext(source, CompileOptions(target=Target(80))))
    attach_nvvm_target(parsed.module, LoweringContext(source, CompileOptions(target=Target(90, "a"))))
    targets = _targets(parsed.module)
    assert len(targets) == 1 and _field(targets[0], "chip") == '"sm_90a"'
    assert print_ir(parsed.module).count("#nvvm.target") == 1


def test_mlir_opt_accepts_the_target_and_reads_its_fields() -> None:
    module, _, _ = _attach(_module(), target=Target(90, "a"), device_debug=True, libnvvm_use_nvgpucomp=True)
    text = print_ir(module)
    res = mlir_opt(text)
    assert res.returncode == 0, res.stderr
    canonical = res.stdout
    m = re.search(r"gpu\.module @kernels \[(#nvvm\.target<.*?>)\]", canonical)
    assert m is not None, canonical
    assert 'chip = "sm_90a"' in m.group(1) and "O = 3" in m.group(1)
    assert '{"-Xopt", "-fma=0", "-g", "-pragma-unroll-threshold=9900000", libNVVMUseNVGpuComp = true}' in m.group(1)
