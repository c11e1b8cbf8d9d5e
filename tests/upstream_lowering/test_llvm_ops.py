"""llvm dialect ops GPU code needs (llvm_ext.py): each parses MLIR 22 syntax, prints a form
upstream mlir-opt 22 accepts, and means the same thing (mlir-opt's generic form of our print
equals that of the original text)."""

from __future__ import annotations

import re

import pytest

from tile_lsp.compiler.mlir.dialects import llvm_ext
from upstream_lowering.util import mlir_opt, parse_ok, print_ir

_ARGS = (
    "%p: !llvm.ptr<1>, %q: !llvm.ptr<3>, %x: f32, %i: i32, %v: vector<4xf32>, %h: f16, %l: i64, "
    "%b: i1, %v2: vector<4xi32>"
)

# (test id, op lines inside a function with the arguments above)
CASES = [
    ("atomicrmw", "%0 = llvm.atomicrmw add %p, %i monotonic : !llvm.ptr<1>, i32"),
    (
        "atomicrmw_scope_align",
        '%0 = llvm.atomicrmw fadd %q, %x syncscope("block") acq_rel {alignment = 4 : i64} : !llvm.ptr<3>, f32',
    ),
    (
        "atomicrmw_volatile_kinds",
        "%0 = llvm.atomicrmw volatile _xor %p, %i seq_cst : !llvm.ptr<1>, i32\n"
        "%1 = llvm.atomicrmw umax %p, %i acquire : !llvm.ptr<1>, i32\n"
        "%2 = llvm.atomicrmw xchg %p, %i release : !llvm.ptr<1>, i32\n"
        "%3 = llvm.atomicrmw fmax %q, %x monotonic : !llvm.ptr<3>, f32",
    ),
    ("cmpxchg", "%0 = llvm.cmpxchg %p, %i, %i acq_rel monotonic : !llvm.ptr<1>, i32"),
    (
        "cmpxchg_weak_volatile",
        '%0 = llvm.cmpxchg weak volatile %p, %i, %i syncscope("device") seq_cst seq_cst '
        "{alignment = 4 : i64} : !llvm.ptr<1>, i32",
    ),
    ("fence", 'llvm.fence acquire\nllvm.fence syncscope("block") release\nllvm.fence seq_cst'),
    (
        "addrspacecast",
        "%0 = llvm.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr\n"
        "%1 = llvm.addrspacecast %0 : !llvm.ptr to !llvm.ptr<3>",
    ),
    ("fptosi_fptoui", "%0 = llvm.fptosi %x : f32 to i32\n%1 = llvm.fptoui %x : f32 to i64"),
    ("uitofp", "%0 = llvm.uitofp %i : i32 to f32\n%1 = llvm.uitofp nneg %i : i32 to f16"),
    (
        "existing_casts",
        "%0 = llvm.sitofp %i : i32 to f32\n%1 = llvm.fpext %x : f32 to f64\n"
        "%2 = llvm.fptrunc %x : f32 to f16\n%3 = llvm.bitcast %i : i32 to f32",
    ),
    ("extractelement", "%c = llvm.mlir.constant(1 : i32) : i32\n%0 = llvm.extractelement %v[%c : i32] : vector<4xf32>"),
    (
        "poison_freeze",
        "%0 = llvm.mlir.poison : f32\n%1 = llvm.freeze %i : i32\n%2 = llvm.mlir.poison : !llvm.struct<(i32, f32)>",
    ),
    ("inline_asm", 'llvm.inline_asm has_side_effects asm_dialect = att "bar.sync 0;", "" : () -> ()'),
    ("inline_asm_results", '%0 = llvm.inline_asm "add.s32 $0, $1, $2;", "=r,r,r" %i, %i : (i32, i32) -> i32'),
    (
        "inline_asm_all_keywords",
        "%0 = llvm.inline_asm has_side_effects is_align_stack tail_call_kind = <tail> asm_dialect = intel "
        'operand_attrs = [{elementtype = i32}] {tag} "ld.u32 $0, [$1];", "=r,*m" %p : (!llvm.ptr<1>) -> i32',
    ),
    (
        "inline_asm_struct",
        '%0 = llvm.inline_asm has_side_effects "mov.b64 {$0, $1}, $2;", "=r,=r,l" %l '
        ": (i64) -> !llvm.struct<(i32, i32)>",
    ),
    (
        "load_store_flags",
        '%0 = llvm.load volatile %p atomic syncscope("device") acquire invariant '
        "{alignment = 4 : i64} : !llvm.ptr<1> -> i32\n"
        "llvm.store volatile %0, %p atomic release {alignment = 4 : i64, nontemporal} "
        ": i32, !llvm.ptr<1>\n"
        "%1 = llvm.load %q {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>\n"
        "llvm.store %1, %q : vector<4xf32>, !llvm.ptr<3>",
    ),
    (
        "float_intrinsics",
        "%0 = llvm.intr.fma(%x, %x, %x) : (f32, f32, f32) -> f32\n"
        "%1 = llvm.intr.fabs(%x) : (f32) -> f32\n"
        "%2 = llvm.intr.roundeven(%x) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32\n"
        "%3 = llvm.intr.maximum(%x, %x) : (f32, f32) -> f32\n"
        "%4 = llvm.intr.fmuladd(%h, %h, %h) : (f16, f16, f16) -> f16\n"
        "%5 = llvm.intr.powi(%x, %i) : (f32, i32) -> f32\n"
        "%6 = llvm.intr.tanh(%x) : (f32) -> f32",
    ),
    (
        "int_intrinsics",
        "%0 = llvm.intr.smax(%i, %i) : (i32, i32) -> i32\n"
        "%1 = llvm.intr.umin(%l, %l) : (i64, i64) -> i64\n"
        "%2 = llvm.intr.ctpop(%i) : (i32) -> i32\n"
        "%3 = llvm.intr.bitreverse(%i) : (i32) -> i32\n"
        "%4 = llvm.intr.fshl(%i, %i, %i) : (i32, i32, i32) -> i32\n"
        '%5 = "llvm.intr.ctlz"(%i) <{is_zero_poison = false}> : (i32) -> i32\n'
        '%6 = "llvm.intr.abs"(%i) <{is_int_min_poison = true}> : (i32) -> i32',
    ),
    (
        "vector_reductions",
        "%0 = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32\n"
        '%1 = "llvm.intr.vector.reduce.fadd"(%x, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> '
        ": (f32, vector<4xf32>) -> f32\n"
        '%2 = "llvm.intr.vector.reduce.add"(%v2) : (vector<4xi32>) -> i32',
    ),
    ("assume", "llvm.intr.assume %b : i1"),
    ("assume_attrs", "llvm.intr.assume %b : i1 {tag}"),  # MLIR 22: the dictionary after the type
    (
        "alloca_gep",
        "%c = llvm.mlir.constant(1 : i64) : i64\n"
        "%0 = llvm.alloca %c x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr\n"
        "%1 = llvm.getelementptr inbounds %q[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32\n"
        "%2 = llvm.getelementptr %p[0, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.array<4 x f32>",
    ),
    (
        "gep_flags",
        "%0 = llvm.getelementptr inbounds|nuw %p[%l] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32\n"
        "%1 = llvm.getelementptr nusw %q[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8\n"
        "%2 = llvm.getelementptr nuw %p[%i, 1, %i] : (!llvm.ptr<1>, i32, i32) -> !llvm.ptr<1>, "
        "!llvm.struct<(i32, array<4 x f32>)>",
    ),
    ("call_intrinsic", '%0 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32'),
]


def _func(body: str) -> str:
    inner = "\n".join("    " + line for line in body.splitlines())
    return f"module {{\n  llvm.func @f({_ARGS}) {{\n{inner}\n    llvm.return\n  }}\n}}\n"


_SPLIT = "// -----"
_GENERIC: dict[str, str] = {}  # text -> mlir-opt's generic form of it (accepted texts only)


def _generic_batch(texts: list[str]) -> None:
    """One mlir-opt run (--split-input-file) for many texts; fills `_GENERIC` for those it accepts.
    Texts it rejects are left out, so `_generic` reruns them alone for the exact error."""
    todo = sorted({t for t in texts if t not in _GENERIC})
    if not todo:
        return
    res = mlir_opt(f"\n{_SPLIT}\n".join(todo), "--split-input-file", "--mlir-print-op-generic")
    chunks = re.split(rf"^{_SPLIT}$", res.stdout, flags=re.MULTILINE)
    if len(chunks) != len(todo):
        return
    for text, out in zip(todo, chunks, strict=True):
        if out.strip():
            _GENERIC[text] = out.strip() + "\n"


def _generic(text: str) -> str:
    """mlir-opt's generic form of `text` (asserts that mlir-opt accepts it)."""
    if text not in _GENERIC:
        res = mlir_opt(text, "--mlir-print-op-generic")
        assert res.returncode == 0, f"mlir-opt rejected:\n{res.stderr}\n---\n{text}"
        _GENERIC[text] = res.stdout.strip() + "\n"
    return _GENERIC[text]


def assert_mlir_accepts(text: str) -> None:
    _generic(text)


def _printed(text: str, *, generic: bool = False) -> str:
    return print_ir(parse_ok(text).module, generic=generic)  # type: ignore[arg-type]


@pytest.fixture(scope="module", autouse=True)
def _batched_mlir_opt() -> None:
    """Every text the case tests hand to mlir-opt, in one run instead of ~100."""
    texts: list[str] = []
    for _, body in CASES:
        text = _func(body)
        texts += [text, _printed(text), _printed(text, generic=True)]
    _generic_batch(texts)


@pytest.mark.parametrize("body", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_op_round_trips_through_mlir_opt(body: str) -> None:
    text = _func(body)
    printed = print_ir(parse_ok(text).module)  # type: ignore[arg-type]
    assert_mlir_accepts(printed)
    assert _generic(printed) == _generic(text)


def test_switch_round_trip() -> None:
    text = """module {
  llvm.func @f(%i: i32) -> i32 {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    llvm.switch %i : i32, ^bb1 [
      0: ^bb2,
      -3: ^bb3(%i : i32),
      7: ^bb1
    ]
  ^bb1:
    llvm.return %i : i32
  ^bb2:
    llvm.return %c0 : i32
  ^bb3(%z: i32):
    llvm.return %z : i32
  }
}
"""
    module = parse_ok(text).module
    assert module is not None
    switch = next(op for op in module.walk() if isinstance(op, llvm_ext.SwitchOp))
    assert [(v, len(ops)) for v, _, ops in switch.cases()] == [(0, 0), (-3, 1), (7, 0)]
    printed = print_ir(module)
    assert_mlir_accepts(printed)
    assert _generic(printed) == _generic(text)


def test_globals_round_trip() -> None:
    text = """module {
  llvm.mlir.global internal constant @str("hi\\0A\\00") {addr_space = 0 : i32}
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x f32>
  llvm.mlir.global private @g(0 : i32) {addr_space = 1 : i32} : i32
  llvm.func @f() {
    %0 = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %1 = llvm.mlir.addressof @str : !llvm.ptr
    llvm.return
  }
}
"""
    printed = print_ir(parse_ok(text).module)  # type: ignore[arg-type]
    assert_mlir_accepts(printed)
    assert _generic(printed) == _generic(text)


@pytest.mark.parametrize(
    "case",
    [
        "atomicrmw_volatile_kinds",
        "cmpxchg_weak_volatile",
        "fence",
        "extractelement",
        "poison_freeze",
        "inline_asm_all_keywords",
        "assume",
        "int_intrinsics",
        "load_store_flags",
        "uitofp",
        "gep_flags",
        "alloca_gep",
    ],
)
def test_generic_print_is_accepted(case: str) -> None:
    text = _func(dict(CASES)[case])
    printed = print_ir(parse_ok(text).module, generic=True)  # type: ignore[arg-type]
    assert _generic(printed) == _generic(text)


def test_dialect_has_the_gpu_ops() -> None:
    names = {op.name for op in llvm_ext.dialect().operations}
    needed = {
        "llvm.atomicrmw",
        "llvm.cmpxchg",
        "llvm.fence",
        "llvm.addrspacecast",
        "llvm.fptosi",
        "llvm.fptoui",
        "llvm.uitofp",
        "llvm.sitofp",
        "llvm.fpext",
        "llvm.fptrunc",
        "llvm.bitcast",
        "llvm.extractelement",
        "llvm.mlir.poison",
        "llvm.inline_asm",
        "llvm.switch",
        "llvm.freeze",
        "llvm.mlir.global",
        "llvm.mlir.addressof",
        "llvm.alloca",
        "llvm.intr.fma",
        "llvm.intr.fabs",
        "llvm.intr.smax",
        "llvm.intr.ctlz",
        "llvm.call_intrinsic",
        "llvm.load",
        "llvm.store",
    }
    assert needed <= names
    by_name = {op.name: op for op in llvm_ext.dialect().operations}
    assert by_name["llvm.load"] is llvm_ext.LoadOp  # ours replaces xDSL's
    assert by_name["llvm.inline_asm"] is llvm_ext.InlineAsmOp


def test_gep_struct_index_must_be_constant() -> None:
    from tile_lsp.compiler.mlir.context import parse_upstream
    from tile_lsp.compiler.source import SourceText

    text = _func("%0 = llvm.getelementptr %p[0, %i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, !llvm.struct<(i32, f32)>")
    result = parse_upstream(SourceText(text, "t.mlir"))
    assert [d.message for d in result.diagnostics] == ["'llvm.getelementptr' op expected index 1 indexing a struct to be constant"]  # (mlir-opt 22's words)


def test_builders_make_valid_ops() -> None:
    from xdsl.dialects.builtin import IntAttr, IntegerType, f32
    from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
    from xdsl.ir import Block

    block = Block(arg_types=[LLVMPointerType(IntAttr(1)), IntegerType(32), f32])
    ptr, i, x = block.args
    ops = [
        llvm_ext.AtomicRMWOp("add", ptr, i, "monotonic", syncscope="device"),
        llvm_ext.CmpXchgOp(ptr, i, i),
        llvm_ext.FenceOp("acq_rel", "block"),
        llvm_ext.FPToSIOp(x, IntegerType(32)),
        llvm_ext.PoisonOp(f32),
        llvm_ext.InlineAsmOp("mov.u32 $0, %laneid;", "=r", [], [IntegerType(32)], has_side_effects=True),
    ]
    for op in ops:
        op.verify()
    assert ops[0].bin_op_name == "add"
    assert ops[1].res.type == LLVMStructType.from_type_list([IntegerType(32), IntegerType(1)])
