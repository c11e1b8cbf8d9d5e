"""Upstream-dialect files (gpu/nvgpu/nvvm/llvm) degrade gracefully: no false errors on valid
text, lexical errors reported, value and symbol navigation by tokens."""

from __future__ import annotations

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


def test_every_upstream_conformance_file_is_clean(shared):
    root = shared / "conformance" / "mlir-upstream"
    files = sorted(root.rglob("*.mlir"))
    assert files
    for f in files:
        assert analyze(f.read_text(), str(f)).diagnostics == [], f


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
