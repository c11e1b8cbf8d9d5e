"""Common-subexpression elimination (lowering/cse.py): what dominates is merged, what does not is
kept, constants go to the function's top; the pipeline's cuda_tile runs get smaller stage texts
and the same kernel resources."""

from __future__ import annotations

import pathlib

import pytest

from tile_lsp.compiler.entry_cache import compile_source
from tile_lsp.compiler.lowering import cse
from tile_lsp.compiler.mlir.context import parse_upstream, print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target
from tile_lsp.testing.tools import mlir_opt_path

KERNEL = pathlib.Path(__file__).resolve().parents[1] / "data" / "cutile" / "layernorm.mlir"

TEXT = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: i32, %b: i32, %p: !llvm.ptr<1>, %c: i1) kernel {
      %x1 = arith.addi %a, %b : i32
      %x2 = arith.addi %a, %b : i32
      %y1 = arith.muli %a, %b : i32
      %y2 = arith.muli %b, %a : i32
      %q1 = arith.muli %x1, %x1 : i32
      %q2 = arith.muli %x2, %x2 : i32
      llvm.store %q1, %p : i32, !llvm.ptr<1>
      llvm.store %q2, %p : i32, !llvm.ptr<1>
      llvm.store %y1, %p : i32, !llvm.ptr<1>
      llvm.store %y2, %p : i32, !llvm.ptr<1>
      scf.if %c {
        %x3 = arith.addi %a, %b : i32
        %k1 = arith.constant 7 : i32
        %z1 = arith.subi %x3, %k1 : i32
        llvm.store %z1, %p : i32, !llvm.ptr<1>
      } else {
        %k2 = arith.constant 7 : i32
        %z2 = arith.subi %a, %k2 : i32
        llvm.store %z2, %p : i32, !llvm.ptr<1>
      }
      %z3 = arith.subi %a, %b : i32
      %w1 = llvm.load %p : !llvm.ptr<1> -> i32
      %w2 = llvm.load %p : !llvm.ptr<1> -> i32
      %s = arith.addi %w1, %w2 : i32
      llvm.store %s, %p : i32, !llvm.ptr<1>
      llvm.store %z3, %p : i32, !llvm.ptr<1>
      gpu.return
    }
  }
}
"""


def _names(text: str, name: str) -> int:
    return sum(1 for line in text.splitlines() if f"= {name} " in line)


def test_dominating_copies_merge_and_the_rest_stays() -> None:
    parsed = parse_upstream(SourceText(TEXT, "k.mlir"))
    assert parsed.ok and parsed.module is not None, parsed.diagnostics
    removed = cse.eliminate_common_subexpressions(parsed.module)
    out = print_ir(parsed.module)
    # addi %a,%b x3 -> 1 (the copy in the `then` region is dominated), and then %x2*%x2 is
    # %x1*%x1; %a*%b and %b*%a stay (no commutativity assumed); the two constants 7 -> 1 at the
    # top; loads (memory effects) are never merged.
    assert removed == 4, out
    assert _names(out, "arith.addi") == 2  # %a+%b and %w1+%w2
    assert _names(out, "arith.muli") == 3
    assert _names(out, "arith.constant") == 1
    assert _names(out, "llvm.load") == 2
    body = out.splitlines()
    first_op = next(i for i, line in enumerate(body) if " = " in line)
    assert "arith.constant 7" in body[first_op]  # hoisted to the entry block's top
    assert _names(out, "arith.subi") == 3  # %x-7, %a-7 and %a-%b: all different
    opt = mlir_opt_path()
    if opt is None:
        pytest.skip("mlir-opt 22 not installed")
    import subprocess

    res = subprocess.run([opt, "--verify-diagnostics"], input=out, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr


def test_values_of_sibling_regions_are_not_shared() -> None:
    text = TEXT.replace("%z2 = arith.subi %a, %k2", "%z2 = arith.addi %a, %b")
    parsed = parse_upstream(SourceText(text, "k.mlir"))
    assert parsed.ok and parsed.module is not None
    cse.eliminate_common_subexpressions(parsed.module)
    out = print_ir(parsed.module)
    # The outer %x1 dominates both branches: both copies go; nothing of `then` is used in `else`.
    assert _names(out, "arith.addi") == 2, out


def test_cuda_tile_stage_texts_shrink_and_resources_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    options = CompileOptions(target=Target.parse_gpu_name("sm_90a"))
    source = SourceText(KERNEL.read_text(), str(KERNEL))
    merged = compile_source(source, options, "ptx", cache=False)
    monkeypatch.setattr(cse, "eliminate_common_subexpressions", lambda *args, **kwargs: 0)
    plain = compile_source(source, options, "ptx", cache=False)
    assert merged.ok and plain.ok
    for stage in ("gpu", "nvvm", "llvm"):
        a, b = merged.stage(stage), plain.stage(stage)
        assert a is not None and b is not None
        assert len(a.text.splitlines()) < 0.9 * len(b.text.splitlines()), stage
    if merged.kernels:  # ptxas ran: the same registers and spills
        assert {k: (v.registers, v.spill_stores) for k, v in merged.kernels.items()} == {
            k: (v.registers, v.spill_stores) for k, v in plain.kernels.items()
        }
