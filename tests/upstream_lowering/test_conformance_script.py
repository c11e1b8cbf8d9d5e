"""scripts/conformance_upstream.py: how op sequences are read from mlir-opt output (no tools needed)."""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "conformance_upstream.py"

# What mlir-opt 22 prints for the same op (nvgpu-to-nvvm.mlir @mma_sp_sync_f16_16816), both forms.
TEMPLATE = "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0,$1},{$2,$3},{$4,$5},{$6,$7},$8,0x0;"
CONSTRAINTS = "=r,=r,r,r,r,r,r,r,r"
TYPES = "(vector<2xf16>, vector<2xf16>, i32) -> !llvm.struct<(vector<2xf16>, vector<2xf16>)>"


def _generic(first_operand: int) -> str:
    ops = ", ".join(f"%{first_operand + k}" for k in range(3))
    return (
        f'    %10 = "llvm.inline_asm"({ops}) <{{asm_dialect = 0 : i64, asm_string = "{TEMPLATE}", '
        f'constraints = "{CONSTRAINTS}", has_side_effects, tail_call_kind = #llvm.tailcallkind<none>}}> : {TYPES}'
    )


CUSTOM = (
    f'    %10 = llvm.inline_asm has_side_effects asm_dialect = att "{TEMPLATE}", "{CONSTRAINTS}" %3, %4, %9 : {TYPES}'
)


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conformance_upstream", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look the module up while the class is built
    spec.loader.exec_module(mod)
    return mod


def _function(body: str) -> str:
    return f'"llvm.func"() <{{sym_name = "f"}}> ({{\n{body}\n}}) : () -> ()\n'


def test_generic_inline_asm_key_is_template_and_constraints(script: ModuleType) -> None:
    assert script.inline_asm_key(_generic(3)) == f"{TEMPLATE} [{CONSTRAINTS}]"


def test_custom_inline_asm_key_equals_generic(script: ModuleType) -> None:
    assert script.inline_asm_key(CUSTOM) == script.inline_asm_key(_generic(3))


def test_ssa_numbering_does_not_matter(script: ModuleType) -> None:
    ours = script.op_sequences(_function(_generic(3)))
    ref = script.op_sequences(_function(_generic(40)))
    assert ours == {"f": [f"inline_asm {TEMPLATE} [{CONSTRAINTS}]"]}
    assert script.sequence_differences(ours, ref) == []


def test_different_constraints_disagree(script: ModuleType) -> None:
    ours = script.op_sequences(_function(_generic(3)))
    ref = script.op_sequences(_function(_generic(3).replace(CONSTRAINTS, "=r,=r,r,r,r,r,r,r,n")))
    diffs = script.sequence_differences(ours, ref)
    assert len(diffs) == 1 and diffs[0].startswith("@f: op 0:")


def test_escaped_newlines_and_tabs_are_whitespace(script: ModuleType) -> None:
    a = script.inline_asm_key(
        '"llvm.inline_asm"(%0) <{asm_string = "{\\0A\\09setp.ne.b32 p, $1, 0;\\0A}", constraints = "=r,r"}>'
    )
    b = script.inline_asm_key('llvm.inline_asm has_side_effects "{ setp.ne.b32 p, $1, 0; }", "=r,r" %0 : (i32) -> i32')
    assert a == b == "{ setp.ne.b32 p, $1, 0; } [=r,r]"
