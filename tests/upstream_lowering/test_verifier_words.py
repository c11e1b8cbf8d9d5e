"""The upstream front end's first error is mlir-opt 22's, same line:col and words, on the cases of
scripts/verifier_survey.py it matches (mlir-opt 22 runs live; skipped where it is missing), and
the checks added for xDSL's missing verifiers leave valid MLIR 22 alone."""

from __future__ import annotations

import importlib.util
import pathlib
import re
import sys

import pytest

from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.upstream import analyze_upstream

from .util import mlir_opt

_SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "verifier_survey.py"
_spec = importlib.util.spec_from_file_location("verifier_survey", _SCRIPT)
assert _spec is not None and _spec.loader is not None
survey = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("verifier_survey", survey)  # (its dataclass looks its module up)
_spec.loader.exec_module(survey)
CASES = dict(survey.CASES)

# The survey's cases where tile-lsp says what mlir-opt 22 says, where it says it.
MATCHING = [
    "arith.addi_type_mismatch", "arith.addi_generic_mismatch", "arith.addi_on_float", "arith.addf_on_int", "arith.mulf_result_mismatch", "arith.constant_float_for_int", "arith.constant_type_mismatch", "arith.constant_int_for_float", "arith.cmpi_bad_predicate", "arith.cmpi_on_float", "arith.cmpf_bad_predicate", "arith.cmpi_generic_result", "arith.index_cast_int_int", "arith.index_cast_float", "arith.select_cond_type", "arith.select_cond_shape", "arith.extsi_vector_shape", "arith.extui_vector_narrower", "arith.trunci_vector_to_float", "arith.select_generic_mismatch", "arith.extsi_narrower", "arith.extui_same", "arith.trunci_wider", "arith.extf_narrower", "arith.truncf_wider", "arith.sitofp_to_int", "arith.bitcast_width", "arith.addi_vector_shape", "arith.constant_string", "arith.subi_generic_mismatch", "arith.divf_on_int", "arith.maxsi_on_float", "arith.fptosi_to_float", "arith.trunci_same", "arith.extf_same", "arith.cmpf_on_int", "arith.cmpi_bad_predicate_2",
    "func.return_count", "func.return_type", "func.return_extra", "func.call_undefined", "func.call_arg_count", "func.call_arg_type", "func.call_result_type", "func.missing_terminator", "func.redefined_symbol", "func.return_outside", "func.arg_count_mismatch", "func.call_result_count", "func.return_type_second", "func.return_in_scf_for",
    "scf.for_mixed_bounds", "scf.for_float_bounds", "scf.for_yield_count", "scf.for_yield_type", "scf.if_results_no_else", "scf.if_cond_type", "scf.if_yield_type", "scf.yield_outside", "scf.while_cond_type", "scf.while_yield_count", "scf.for_iter_count", "scf.for_step_type", "scf.for_yield_type_2", "scf.if_yield_type_else",
    "cf.br_arg_count", "cf.br_arg_type", "cf.cond_br_cond_type", "cf.cond_br_arg_count", "cf.br_undefined_block", "cf.assert_type", "cf.switch_case_count", "cf.terminator_mid_block", "cf.cond_br_arg_type", "cf.br_extra_arg",
    "vector.extract_out_of_range", "vector.extract_too_many", "vector.insert_out_of_range", "vector.broadcast_incompatible", "vector.broadcast_elem_type", "vector.fma_shape", "vector.load_index_count", "vector.reduction_kind", "vector.extract_2d_out_of_range", "vector.insert_2d_out_of_range", "vector.broadcast_2d",
    "math.sqrt_on_int", "math.absi_on_float", "math.unknown_op", "math.powf_mismatch", "math.fma_mismatch", "math.ctlz_on_float", "math.exp_on_int", "math.cos_generic_mismatch",
    "memref.load_index_count", "memref.store_index_count", "memref.store_value_type", "memref.load_index_type", "memref.load_result_type", "memref.alloc_dyn_count", "memref.dim_type", "memref.store_extra_index", "memref.load_generic_index_type",
    "builtin.undefined_value", "builtin.redefined_value", "builtin.wrong_type_use", "builtin.bare_op", "builtin.missing_colon_type", "builtin.block_arg_redef", "builtin.use_before_def_dominance", "builtin.result_count_mismatch", "builtin.dominance_nested", "builtin.undefined_in_nested", "builtin.redefined_in_second_func", "builtin.missing_colon_in_call",
    "llvm.func_no_terminator", "llvm.return_type", "llvm.add_type_mismatch", "llvm.call_undefined", "llvm.icmp_bad_predicate", "llvm.fadd_mismatch", "llvm.fcmp_bad_predicate", "llvm.return_type_f",
    "gpu.func_no_terminator", "gpu.func_outside_module", "gpu.return_in_func", "gpu.barrier_result", "gpu.thread_id_bad_dim", "gpu.block_id_bad_dim", "gpu.return_in_module_func", "gpu.no_terminator_multi",
]

_ERROR = re.compile(r"^[^\n]*?:(\d+):(\d+): error: (.*)$", re.M)


def _ours(text: str) -> tuple[int, int, str] | None:
    source = SourceText(text, "case.mlir")
    errors = [d for d in analyze_upstream(source).diagnostics if d.is_error]
    if not errors:
        return None
    line, col = source.line_col(errors[0].span.start)
    return line + 1, col + 1, errors[0].message.strip()


@pytest.mark.parametrize("name", MATCHING)
def test_first_error_is_mlir_opt_22s(name: str) -> None:
    text = CASES[name]
    res = mlir_opt(text)
    assert res.returncode != 0, f"mlir-opt 22 accepts case {name}"
    m = _ERROR.search(res.stderr)
    assert m is not None, res.stderr
    assert _ours(text) == (int(m[1]), int(m[2]), m[3].strip())


F = "func.func @f"
# Valid MLIR 22 next to the added checks: none of them may call these wrong.
VALID = {
    "br_args": f"{F}(%a: i32) {{\n  cf.br ^bb1(%a : i32)\n^bb1(%x: i32):\n  return\n}}\n",
    "cond_br_args": f"{F}(%c: i1, %a: i32) {{\n  cf.cond_br %c, ^bb1(%a : i32), ^bb2\n^bb1(%x: i32):\n  return\n^bb2:\n  return\n}}\n",
    "extf_truncf": f"{F}(%a: f16, %b: vector<4xf64>) {{\n  %0 = arith.extf %a : f16 to f32\n  %1 = arith.truncf %b : vector<4xf64> to vector<4xf32>\n  return\n}}\n",
    "if_else_yields": f"{F}(%c: i1, %x: f32) -> f32 {{\n  %r = scf.if %c -> (f32) {{\n    scf.yield %x : f32\n  }} else {{\n    scf.yield %x : f32\n  }}\n  return %r : f32\n}}\n",
    "if_without_results": f"{F}(%c: i1) {{\n  scf.if %c {{\n  }}\n  return\n}}\n",
    "while": f"{F}(%x: f32, %c: i1) {{\n  %r = scf.while (%a = %x) : (f32) -> f32 {{\n    scf.condition(%c) %a : f32\n  }} do {{\n  ^bb0(%b: f32):\n    scf.yield %b : f32\n  }}\n  return\n}}\n",
    "gpu_kernel": "gpu.module @m {\n  gpu.func @k(%a: i32) kernel {\n    gpu.return\n  }\n}\n",
    "extract_insert": f"{F}(%v: vector<4x8xf32>, %s: f32, %i: index) {{\n  %0 = vector.extract %v[3, 7] : f32 from vector<4x8xf32>\n  %1 = vector.extract %v[%i, 0] : f32 from vector<4x8xf32>\n  %2 = vector.insert %s, %v[0, 7] : f32 into vector<4x8xf32>\n  %3 = vector.extract %v[-1, 0] : f32 from vector<4x8xf32>\n  return\n}}\n",
    "broadcast": f"{F}(%v: vector<1x4xf32>, %s: f32) {{\n  %0 = vector.broadcast %v : vector<1x4xf32> to vector<3x2x4xf32>\n  %1 = vector.broadcast %s : f32 to vector<4xf32>\n  return\n}}\n",
    "llvm_return": "llvm.func @f(%a: i32) -> i32 {\n  llvm.return %a : i32\n}\nllvm.func @g() {\n  llvm.return\n}\n",
    "dominance_across_regions": f"{F}(%lb: index, %x: f32) {{\n  %0 = arith.addf %x, %x : f32\n  scf.for %i = %lb to %lb step %lb {{\n    %1 = arith.addf %0, %0 : f32\n  }}\n  cf.br ^bb1\n^bb1:\n  %2 = arith.addf %0, %x : f32\n  return\n}}\n",
    "vector_width_casts_and_select": f"{F}(%a: vector<4xi32>, %c: vector<4xi1>, %t: tensor<2xi16>, %b: i1) {{\n  %0 = arith.extsi %a : vector<4xi32> to vector<4xi64>\n  %1 = arith.extui %a : vector<4xi32> to vector<4xi64>\n  %2 = arith.trunci %a : vector<4xi32> to vector<4xi8>\n  %3 = arith.extsi %t : tensor<2xi16> to tensor<2xi32>\n  %4 = arith.select %c, %a, %a : vector<4xi1>, vector<4xi32>\n  %5 = arith.select %b, %a, %a : vector<4xi32>\n  %6 = \"arith.select\"(%c, %a, %a) : (vector<4xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>\n  return\n}}\n",
    "vector_int_float_index_casts": f"{F}(%a: vector<4xi32>, %x: vector<4xf32>, %m: memref<4xi32>) {{\n  %0 = arith.sitofp %a : vector<4xi32> to vector<4xf32>\n  %1 = arith.uitofp %a : vector<4xi32> to vector<4xf32>\n  %2 = arith.fptosi %x : vector<4xf32> to vector<4xi32>\n  %3 = arith.fptoui %x : vector<4xf32> to vector<4xi32>\n  %4 = arith.index_cast %a : vector<4xi32> to vector<4xindex>\n  %5 = arith.index_castui %a : vector<4xi32> to vector<4xindex>\n  %6 = arith.index_cast %m : memref<4xi32> to memref<4xindex>\n  return\n}}\n",
    "graph_region_module": "module {\n  func.func @g() {\n    call @h() : () -> ()\n    return\n  }\n  func.func private @h()\n}\n",
}


@pytest.mark.parametrize("name", sorted(VALID))
def test_added_checks_accept_valid_mlir22(name: str) -> None:
    text = VALID[name]
    res = mlir_opt(text)
    assert res.returncode == 0, res.stderr
    assert _ours(text) is None
