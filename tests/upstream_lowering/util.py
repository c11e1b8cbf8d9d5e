"""Helpers for back-half tests: parse upstream text, run upstream mlir-opt 22 (skips if absent)."""

from __future__ import annotations

import re
import subprocess

import pytest

from tile_lsp.compiler.mlir.context import UpstreamParse, parse_upstream, print_ir
from tile_lsp.compiler.source import SourceText
from tile_lsp.testing.tools import mlir_opt_path

SPLIT = "// -----"
# (tool, text, args) -> the tool's result: a lone run's, or a batch run's for a text the batch accepted.
_MEMO: dict[tuple[str, str, tuple[str, ...]], subprocess.CompletedProcess[str]] = {}
# (tool, text, args) a batch run rejected (its chunk printed nothing); `accepted` answers from it.
_REJECTED: set[tuple[str, str, tuple[str, ...]]] = set()


def run_memo(tool: str, text: str, args: tuple[str, ...], timeout: int = 60) -> subprocess.CompletedProcess[str]:
    """`tool *args` on `text`, once per process (the tools are deterministic)."""
    key = (tool, text, args)
    if key not in _MEMO:
        _MEMO[key] = subprocess.run([tool, *args], input=text, capture_output=True, text=True, timeout=timeout)
    return _MEMO[key]


def run_batch(tool: str, texts: list[str], args: tuple[str, ...], marker: str = SPLIT) -> None:
    """One `tool --split-input-file` run for many texts; memoises the output of each text it accepts.

    A text it rejects (no output for its chunk) is left out, so `run_memo` reruns it alone and the
    caller sees the tool's exact messages and exit status for it."""
    todo = list(dict.fromkeys(t for t in texts if (tool, t, args) not in _MEMO and SPLIT not in t))
    if len(todo) < 2:
        return
    joined = f"\n{SPLIT}\n".join(todo)
    try:
        res = subprocess.run([tool, "--split-input-file", f"--output-split-marker={marker}", *args], input=joined,
                             capture_output=True, text=True, timeout=60 + 2 * len(todo))  # fmt: skip
    except subprocess.TimeoutExpired:
        return  # every text reruns alone
    # The output is each chunk's lone-run output, joined by the marker line.
    chunks = re.split(rf"^{re.escape(marker)}\n", res.stdout, flags=re.MULTILINE)
    if len(chunks) != len(todo):
        return
    for text, out in zip(todo, chunks, strict=True):
        if out.strip():
            _MEMO[(tool, text, args)] = subprocess.CompletedProcess([tool, *args], 0, out, "")
        else:
            _REJECTED.add((tool, text, args))


def accepted(tool: str, text: str, args: tuple[str, ...]) -> bool:
    """Whether `tool *args` succeeds on `text`: from a batch run when one saw it, else a lone run.
    Only for callers that need the verdict, not the messages."""
    if (tool, text, args) in _REJECTED:
        return False
    return run_memo(tool, text, args).returncode == 0


def _mlir_opt_or_skip() -> str:
    path = mlir_opt_path()
    if path is None:
        pytest.skip("mlir-opt 22 is not installed (apt-get install mlir-22-tools)")
    return path


def mlir_opt(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run upstream mlir-opt 22 on `text` (skips the test when it is not installed); memoised, and
    answered from `mlir_opt_batch` when an earlier batch accepted `text`."""
    return run_memo(_mlir_opt_or_skip(), text, args)


def mlir_opt_ok(text: str, *args: str) -> bool:
    """Whether mlir-opt 22 succeeds on `text` (a batch's verdict when `mlir_opt_batch` saw it)."""
    return accepted(_mlir_opt_or_skip(), text, args)


def mlir_opt_batch(texts: list[str], *args: str) -> None:
    """Prefetch `mlir_opt(text, *args)` for every text in one mlir-opt run (see `run_batch`)."""
    path = mlir_opt_path()
    if path is not None:
        run_batch(path, texts, args)


def assert_mlir_accepts(text: str) -> None:
    res = mlir_opt(text)
    assert res.returncode == 0, f"mlir-opt rejected:\n{res.stderr}\n---\n{text}"


def parse_ok(text: str, path: str = "t.mlir") -> UpstreamParse:
    result = parse_upstream(SourceText(text, path))
    assert result.module is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    return result


def op_names(text_or_module: object, prefix: tuple[str, ...] = ("nvvm.", "llvm.")) -> list[str]:
    """Op names in walk order that start with one of `prefix` (module or printed text)."""
    from xdsl.ir import Operation

    if isinstance(text_or_module, Operation):
        return [op.name for op in text_or_module.walk() if op.name.startswith(prefix)]
    raise TypeError("pass an op")


__all__ = ["assert_mlir_accepts", "mlir_opt", "mlir_opt_batch", "mlir_opt_ok", "mlir_opt_path", "op_names", "parse_ok", "print_ir"]
