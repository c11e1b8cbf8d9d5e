"""Upstream-dialect files (gpu/nvgpu/nvvm/llvm) degrade gracefully: no false errors on valid
text, lexical errors reported, value and symbol navigation by tokens."""

from __future__ import annotations

import subprocess

from tile_lsp.compiler.document import analyze
from tile_lsp.features.navigation import definition, references

TEXT = """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0 : memref<4xf32>, %n: index) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %arg0[%tid] : memref<4xf32>
      gpu.return
    }
  }
  func.func @host(%n : index) {
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}
"""


def test_valid_upstream_text_has_no_diagnostics():
    assert analyze(TEXT).diagnostics == []


def test_no_false_errors_on_valid_upstream_chunks(shared):
    """Every chunk without an `expected-error` annotation gets no error (notes for ops
    tile-lsp does not define are fine), unless upstream mlir-opt 22 rejects it too: some
    test files are newer than MLIR 22 (see ../shared/README.md)."""
    from upstream_lowering.util import mlir_opt_path

    from tile_lsp.compiler.frontend import split_chunks

    root = shared / "conformance" / "mlir-upstream"
    files = sorted(root.rglob("*.mlir"))
    assert files
    drift = []
    for f in files:
        text = f.read_text()
        errors = [d for d in analyze(text, str(f)).diagnostics if d.is_error]
        for chunk in split_chunks(text):
            body = text[chunk.start : chunk.end]
            if "expected-error" in body:
                continue
            inside = [d.message for d in errors if chunk.start <= d.span.start < chunk.end]
            if not inside:
                continue
            opt = mlir_opt_path()
            assert opt is not None, (f, inside)
            res = subprocess.run([opt], input=body, capture_output=True, text=True, timeout=60)
            assert res.returncode != 0, (f, inside)  # mlir-opt 22 accepts it: our error is false
            drift.append(f.name)
    # Today: nvvmir.mlir (nvvm.nanosleep), NVGPU/roundtrip.mlir, and the chunks using ops MLIR 22
    # does not have (gpu.ballot, nvvm.membar, nvvm.vote.ballot.sync, nvvm.prefetch.tensormap,
    # nvvm.cp.async.mbarrier.arrive.shared), which get mlir-opt 22's own "custom op '...' is unknown".
    assert len(drift) <= 8, drift


def test_unknown_op_of_a_modelled_dialect_is_mlir_opts_error():
    """An op MLIR 22 does not have is an error in mlir-opt's words at the op name; one it has and
    tile-lsp does not model, or one of a dialect we do not model, stays a note."""
    src = "func.func @f(%a: f32) -> f32 {\n  %0 = math.expp %a : f32\n  return %0 : f32\n}\n"
    [d] = analyze(src).diagnostics
    assert d.is_error and d.message == "custom op 'math.expp' is unknown"
    assert src[d.span.start : d.span.end] == "math.expp"
    generic = src.replace("math.expp %a : f32", '"math.expp"(%a) : (f32) -> f32')
    [g] = analyze(generic).diagnostics
    assert g.message == "unregistered operation 'math.expp' found in dialect ('math') that does not allow unknown operations"
    other = src.replace("math.expp", "rocdl.foo")
    assert [(d.is_error, "does not model 'rocdl.foo'" in d.message) for d in analyze(other).diagnostics] == [(False, True)]


def test_function_block_without_terminator_is_an_error():
    src = (
        "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n    gpu.func @k(%a: f32) kernel {\n"
        "      %0 = arith.addf %a, %a : f32\n    }\n  }\n}\n"
    )
    [d] = [d for d in analyze(src).diagnostics if d.is_error]
    assert d.message.startswith('block with no terminator, has %0 = "arith.addf"')
    assert src[d.span.start : d.span.end] == "arith.addf"  # at the op name, as mlir-opt 22


def test_lexical_errors_are_reported():
    broken = TEXT.replace("gpu.return\n    }", "gpu.return\n", 1)
    diags = analyze(broken).diagnostics
    assert [d.message for d in diags] == ["expected '}'"]


def test_value_navigation_is_per_function():
    doc = analyze(TEXT)
    use = TEXT.index("%arg0[") + 1
    (d,) = definition(doc, use)
    assert TEXT[d.start : d.end] == "%arg0" and d.start == TEXT.index("%arg0 :")
    host_n = TEXT.index("(%n, %n, %n)") + 2
    (hd,) = definition(doc, host_n)
    assert hd.start == TEXT.index("%n : index")
    assert len(references(doc, host_n)) == 7  # the argument and six uses, none from @k
