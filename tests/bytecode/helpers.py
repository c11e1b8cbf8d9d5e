"""Shared helpers of the bytecode tests: the corpus, canonical printing, NVIDIA's tools."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

from xdsl.dialects import builtin

from tile_lsp.compiler.frontend import parse_text
from tile_lsp.compiler.syntax.printer import Printer

ROOT = pathlib.Path(__file__).resolve().parents[2]
CUTILE = ROOT / "tests" / "data" / "cutile"
CORPUS = sorted(p.stem for p in CUTILE.glob("*.tileirbc"))


def canonical(module: builtin.ModuleOp, locations: bool) -> str:
    """The project's printer on `module` with SSA names dropped (tileirdisasm picks its own
    names) and, unless `locations`, the op locations too."""
    for op in module.walk():
        for v in op.results:
            v.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for a in block.args:
                    a.name_hint = None
        if not locations:
            op.location = builtin.UNKNOWN_LOC
    return Printer().module_text(module)


def text_ir(text: str, path: str, locations: bool) -> str:
    """What `tile-lsp opt` makes of a text (parse + verify + print), canonicalized."""
    results = parse_text(text, path)
    assert len(results) == 1 and results[0].module is not None, [d.message for d in results[0].diagnostics]
    assert results[0].ok, [d.message for d in results[0].diagnostics]
    return canonical(results[0].module, locations)


def corpus_bytes(name: str) -> bytes:
    return (CUTILE / f"{name}.tileirbc").read_bytes()


def find_tool(name: str) -> str | None:
    """NVIDIA's tileirdisasm/tileiras: $TILEIRDISASM/$TILEIRAS, PATH, or the nvidia-cuda-tileiras
    wheel of this interpreter (pyproject's test extra, which `make setup` installs)."""
    env = os.environ.get(name.upper())
    if env and os.access(env, os.X_OK):
        return env
    found = shutil.which(name)
    if found:
        return found
    try:
        from nvidia import cu13  # type: ignore[import-not-found]  # noqa: PLC0415

        for root in cu13.__path__:
            cand = pathlib.Path(root) / "bin" / name
            if cand.is_file() and os.access(cand, os.X_OK):
                return str(cand)
    except ImportError:
        pass
    return None


def run_tool(tool: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=timeout, check=False)
