"""The gpu dialect in MLIR 22 syntax: parse what upstream writes, print what mlir-opt 22 accepts,
and print the same text again after a re-parse."""

from __future__ import annotations

import pathlib
import re

import pytest

from tile_lsp.compiler.mlir.context import parse_upstream
from tile_lsp.compiler.source import SourceText, Span
from upstream_lowering.util import assert_mlir_accepts, mlir_opt, mlir_opt_batch, parse_ok, print_ir

KERNEL = """\
gpu.module @kernels [#nvvm.target<chip = "sm_90a">] attributes {foo = "bar"} {
  gpu.func @k(%a: f32, %m: memref<4xf32, #gpu.address_space<global>>, %n: i32)
      workgroup(%w: memref<32xf32, 3>) private(%p: memref<2xf32, 5>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %t2 = gpu.thread_id y upper_bound 32
    %b = gpu.block_id z
    %bd = gpu.block_dim x
    %g = gpu.grid_dim y
    %gi = gpu.global_id x
    %ci = gpu.cluster_id x
    %cd = gpu.cluster_dim y
    %cb = gpu.cluster_block_id z
    %cdb = gpu.cluster_dim_blocks x
    %l = gpu.lane_id
    %l2 = gpu.lane_id upper_bound 16
    %s = gpu.subgroup_size : index
    %sid = gpu.subgroup_id : index
    %ns = gpu.num_subgroups : index
    gpu.barrier
    gpu.printf "a=%f n=%d\\n", %a, %n : f32, i32
    gpu.printf "plain"
    %r, %ok = gpu.shuffle xor %a, %n, %n : f32
    %u, %ok2 = gpu.shuffle up %a, %n, %n : f32
    %sr = gpu.subgroup_reduce add %a uniform : (f32) -> f32
    %sc = gpu.subgroup_reduce maxnumf %a cluster(size = 4, stride = 2) : (f32) -> f32
    %ar = gpu.all_reduce add %a uniform {
    } : (f32) -> f32
    %ar2 = gpu.all_reduce %a {
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      gpu.yield %z : f32
    } : (f32) -> f32
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @helper(%x: f32) -> f32 {
    gpu.return %x : f32
  }
}
"""

HOST = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @launch(%a: f32, %c: index, %i: i32, %t0: !gpu.async.token) {
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%a : f32)
    gpu.launch_func @kernels::@k clusters in (%c, %c, %c) blocks in (%c, %c, %c) threads in (%c, %c, %c) \
dynamic_shared_memory_size %i args(%a : f32)
    gpu.launch_func @kernels::@k blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 args(%a : f32)
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%a : f32)
    return
  }
}
"""


@pytest.mark.parametrize("text", [KERNEL, HOST], ids=["kernel", "host"])
def test_round_trip_is_accepted_and_stable(text: str) -> None:
    printed = print_ir(parse_ok(text).module)  # type: ignore[arg-type]
    assert_mlir_accepts(printed)
    assert print_ir(parse_ok(printed).module) == printed  # type: ignore[arg-type]


def test_custom_forms_print_as_mlir_writes_them() -> None:
    printed = print_ir(parse_ok(KERNEL).module)  # type: ignore[arg-type]
    for line in (
        'gpu.module @kernels [#nvvm.target<chip = "sm_90a">] attributes {foo = "bar"} {',
        "workgroup(%w: memref<32xf32, 3 : i64>) private(%p: memref<2xf32, 5 : i64>) kernel attributes "
        "{known_block_size = array<i32: 128, 1, 1>} {",
        "%t2 = gpu.thread_id y upper_bound 32",
        "%l = gpu.lane_id",
        "%s = gpu.subgroup_size : index",
        'gpu.printf "a=%f n=%d\\0A", %a, %n : f32, i32',
        "%r, %ok = gpu.shuffle xor %a, %n, %n : f32",
        "%sc = gpu.subgroup_reduce maxnumf %a cluster(size = 4, stride = 2) : (f32) -> f32",
        "gpu.return %x : f32",
    ):
        assert line in printed, line


def test_generic_form_is_accepted_too() -> None:
    printed = print_ir(parse_ok(KERNEL).module, generic=True)  # type: ignore[arg-type]
    assert_mlir_accepts(printed)


def test_attribution_arguments_are_counted() -> None:
    module = parse_ok(KERNEL).module
    assert module is not None
    func = next(op for op in module.walk() if op.name == "gpu.func")
    workgroup, private = func.attribution_args()  # type: ignore[attr-defined]
    assert [str(a.type) for a in workgroup] == ["memref<32xf32, 3 : i64>"]
    assert [str(a.type) for a in private] == ["memref<2xf32, 5 : i64>"]
    assert func.is_kernel  # type: ignore[attr-defined]


def test_parse_error_is_a_diagnostic() -> None:
    result = parse_upstream(SourceText("gpu.module @m {\n  gpu.func @k() kernel {\n    %t = gpu.thread_id w\n"
                                       "    gpu.return\n  }\n}\n", "bad.mlir"))
    assert result.module is None and result.diagnostics


def _module_end(text: str, start: int) -> int:
    """End of the `gpu.module` starting at `start`: the first `}` line at its indentation."""
    line_start = text.rfind("\n", 0, start) + 1
    indent = text[line_start:start]
    if text.find("{", start, text.find("\n", start)) == -1:  # one-line module without body
        return text.find("\n", start)
    end = re.compile("^" + re.escape(indent) + r"\}", re.M).search(text, start)
    return end.end() if end else len(text)


def test_upstream_ops_mlir_kernel_modules(shared: pathlib.Path) -> None:
    """Every `gpu.module` of upstream Dialect/GPU/ops.mlir parses and prints what mlir-opt accepts
    (the host-side sparse/mma ops of that file are outside this dialect's scope)."""
    path = shared / "conformance/mlir-upstream/mlir/test/Dialect/GPU/ops.mlir"
    text = path.read_text()
    source = SourceText(text, str(path))
    starts = [m.start(1) for m in re.finditer(r"^\s*(gpu\.module @)", text, re.M)]
    assert len(starts) >= 7
    wrapped = []
    for start in starts:
        result = parse_upstream(source, Span(start, _module_end(text, start)))
        assert result.module is not None and not result.diagnostics, (start, [d.message for d in result.diagnostics])
        wrapped.append("module attributes {gpu.container_module} {\n" + print_ir(result.module) + "}\n")
    mlir_opt_batch(wrapped, "--allow-unregistered-dialect")
    for module in wrapped:
        res = mlir_opt(module, "--allow-unregistered-dialect")
        assert res.returncode == 0, res.stderr


def test_upstream_gpu_to_nvvm_inputs_parse(shared: pathlib.Path) -> None:
    folder = shared / "conformance/mlir-upstream/mlir/test/Conversion/GPUToNVVM"
    parsed = total = 0
    printed = []
    for path in sorted(folder.glob("*.mlir")):
        text = path.read_text()
        source = SourceText(text, str(path))
        starts = [m.start() for m in re.finditer(r"^(gpu\.module|module|func\.func)", text, re.M)] + [len(text)]
        for a, b in zip(starts, starts[1:], strict=False):
            total += 1
            result = parse_upstream(source, Span(a, b))
            if result.module is not None and not result.diagnostics:
                parsed += 1
                printed.append(print_ir(result.module))
    mlir_opt_batch(printed)  # one mlir-opt run; a text it rejects is rerun alone for the message
    for text in printed:
        assert_mlir_accepts(text)
    # The misses use math ops xDSL lacks (erfc, isinf/isnan/isfinite, sincos), the transform
    # dialect, or post-22 syntax (`gpu.barrier scope`).
    assert total >= 63 and parsed >= 55



def test_printf_uses_mlir_22s_comma_after_the_format() -> None:
    text = 'gpu.module @m {\n  gpu.func @k(%a: i32, %b: f32) {\n    gpu.printf "%d %f", %a, %b : i32, f32\n    gpu.return\n  }\n}\n'
    printed = print_ir(parse_ok(text).module)  # type: ignore[arg-type]
    assert 'gpu.printf "%d %f", %a, %b : i32, f32' in printed
    assert_mlir_accepts(printed)
    # The pre-22 spelling without the comma is not MLIR 22 syntax (mlir-opt 22 rejects it too).
    assert parse_upstream(SourceText(text.replace('f", %a', 'f" %a'), "old.mlir")).diagnostics
