"""Real-tool checks for llvm-stage tests: mlir-translate 22 must know every intrinsic we emit, and
LLVM's NVPTX backend (llvmlite, in a child process: a bad intrinsic aborts LLVM) must select it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from tile_lsp.compiler.lowering.common import LoweringContext
from tile_lsp.compiler.mlir.context import UpstreamParse, parse_upstream, print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.compiler.target import CompileOptions, Target

MLIR_TRANSLATE_CANDIDATES = ("/usr/lib/llvm-22/bin/mlir-translate", "mlir-translate-22", "mlir-translate")
PTXAS_CANDIDATES = ("ptxas", "/usr/local/bin/ptxas", "/usr/local/cuda/bin/ptxas")


def _tool(candidates: tuple[str, ...]) -> str | None:
    for cand in candidates:
        path = cand if os.path.isabs(cand) and os.access(cand, os.X_OK) else shutil.which(cand)
        if path:
            return path
    return None


def assert_mlir_opt_accepts(text: str) -> None:
    """mlir-opt 22 parses and verifies `text` (util.assert_mlir_accepts passes an option 22 lacks)."""
    from upstream_lowering.util import mlir_opt

    res = mlir_opt(text)
    assert res.returncode == 0, f"mlir-opt rejected:\n{res.stderr}\n---\n{text}"


def to_llvm_ir(mlir_text: str) -> str:
    """mlir-translate --mlir-to-llvmir (skips without it); fails on an unknown intrinsic name.
    Memoised, and answered from `to_llvm_ir_batch` when an earlier batch translated the text."""
    from upstream_lowering.util import run_memo

    path = _tool(MLIR_TRANSLATE_CANDIDATES)
    if path is None:
        pytest.skip("mlir-translate 22 is not installed")
    res = run_memo(path, mlir_text, ("--mlir-to-llvmir",))
    assert res.returncode == 0, f"mlir-translate rejected:\n{res.stderr}\n---\n{mlir_text}"
    return res.stdout


def to_llvm_ir_batch(mlir_texts: list[str]) -> None:
    """Prefetch `to_llvm_ir` for many texts in one mlir-translate run (rejected ones rerun alone)."""
    from upstream_lowering.util import run_batch

    path = _tool(MLIR_TRANSLATE_CANDIDATES)
    if path is not None:
        run_batch(path, mlir_texts, ("--mlir-to-llvmir",), marker="; -----")


_EMIT = textwrap.dedent(
    """
    import sys
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    mod = llvm.parse_assembly(sys.stdin.read())
    mod.triple = "nvptx64-nvidia-cuda"
    mod.verify()
    tm = llvm.Target.from_triple("nvptx64-nvidia-cuda").create_target_machine(cpu=sys.argv[1], features=sys.argv[2])
    sys.stdout.write(tm.emit_assembly(mod))
    """
)


# One child for many modules: reads a JSON list of [ir, chip, features], writes one JSON line per
# module as soon as it is done ({"ptx": ...} or {"error": ...}); an LLVM abort ends the child early.
_EMIT_MANY = textwrap.dedent(
    """
    import json
    import sys
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    for ir, chip, features in json.load(sys.stdin):
        try:
            mod = llvm.parse_assembly(ir)
            mod.triple = "nvptx64-nvidia-cuda"
            mod.verify()
            target = llvm.Target.from_triple("nvptx64-nvidia-cuda")
            tm = target.create_target_machine(cpu=chip, features=features)
            out = {"ptx": tm.emit_assembly(mod)}
        except Exception as exc:
            out = {"error": repr(exc)}
        sys.stdout.write(json.dumps(out) + "\\n")
        sys.stdout.flush()
    """
)
# (ir, chip, features) -> PTX, for modules a batch child emitted without error.
_PTX: dict[tuple[str, str, str], str] = {}


def emit_ptx_batch(items: list[tuple[str, str, str]]) -> None:
    """Prefetch `emit_ptx(ir, chip, features)` for many modules with one llvmlite child (instead of
    one child each). A module that fails or aborts the child is left out: `emit_ptx` reruns it alone
    and reports the backend's own message; the modules after an abort go to a fresh child."""
    import json

    if importlib.util.find_spec("llvmlite") is None:
        return
    todo = list(dict.fromkeys(item for item in items if item not in _PTX))
    while len(todo) > 1:
        try:
            res = subprocess.run([sys.executable, "-c", _EMIT_MANY], input=json.dumps(todo), capture_output=True,
                                 text=True, timeout=120 + 10 * len(todo))  # fmt: skip
        except subprocess.TimeoutExpired:
            return  # the rest are emitted one by one
        lines = [line for line in res.stdout.splitlines() if line.strip()]
        for item, line in zip(todo, lines, strict=False):
            out = json.loads(line)
            if "ptx" in out:
                _PTX[item] = out["ptx"]
        if res.returncode == 0:
            return
        todo = todo[len(lines) + 1 :]  # skip the module the child died on


def emit_ptx(llvm_ir: str, chip: str = "sm_90a", features: str = "+ptx86") -> str:
    """PTX from LLVM IR with llvmlite's NVPTX backend; every llvm.nvvm.* call must be selected.
    Answered from `emit_ptx_batch` when an earlier batch emitted the module."""
    pytest.importorskip("llvmlite")
    ptx = _PTX.get((llvm_ir, chip, features))
    if ptx is None:
        res = subprocess.run([sys.executable, "-c", _EMIT, chip, features], input=llvm_ir, capture_output=True,
                             text=True, timeout=120)  # fmt: skip
        assert res.returncode == 0, f"NVPTX backend failed ({chip}):\n{res.stderr[-2000:]}\n---\n{llvm_ir}"
        ptx = res.stdout
    assert ".extern .func" not in ptx or "llvm.nvvm." not in ptx, ptx
    return ptx


def run_ptxas(ptx: str, chip: str) -> subprocess.CompletedProcess[str]:
    path = _tool(PTXAS_CANDIDATES)
    if path is None:
        pytest.skip("ptxas is not installed")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.ptx")
        with open(src, "w") as fh:
            fh.write(ptx)
        return subprocess.run([path, f"-arch={chip}", src, "-o", os.path.join(tmp, "t.cubin")],
                              capture_output=True, text=True, timeout=120)  # fmt: skip


def lctx_for(parsed: UpstreamParse, chip: str | None) -> LoweringContext:
    target = Target.parse_gpu_name(chip) if chip else None
    return LoweringContext(parsed.source, CompileOptions(target=target), spans=parsed.spans)


def parse(text: str, path: str = "t.mlir") -> UpstreamParse:
    parsed = parse_upstream(SourceText(text, path))
    assert parsed.module is not None and parsed.ok, [d.message for d in parsed.diagnostics]
    return parsed


def func(body: str, args: str = "") -> str:
    """An llvm.func around `body` lines (the llvm stage's input shape)."""
    lines = "\n".join("    " + line for line in textwrap.dedent(body).strip().splitlines())
    return f"llvm.func @k({args}) {{\n{lines}\n    llvm.return\n}}\n"


def printed(parsed: UpstreamParse) -> str:
    assert parsed.module is not None
    return print_ir(parsed.module)
