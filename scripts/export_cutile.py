"""Export the cuTile kernels in tests/data/cutile/kernels to Tile IR bytecode + text.

Needs `pip install cuda-tile nvidia-cuda-tileiras` (no GPU); then `python scripts/export_cutile.py`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from cuda.tile.compilation import export_kernel

REPO = Path(__file__).resolve().parents[1]
# Kept relative to REPO: cuTile embeds the source path in the bytecode's debug info.
KERNELS = Path("tests/data/cutile/kernels")


def find_tool(name: str) -> str:
    """Locate a binary from the nvidia-cuda-tileiras wheel, falling back to PATH."""
    try:
        from nvidia import cu13  # noqa: PLC0415 (optional wheel)

        for root in cu13.__path__:
            candidate = Path(root) / "bin" / name
            if candidate.is_file():
                return str(candidate)
    except ImportError:
        pass
    found = shutil.which(name)
    if found is None:
        sys.exit(f"{name} not found: pip install nvidia-cuda-tileiras")
    return found


def load_module(path: Path) -> ModuleType:
    # Compiled by hand (not importlib) so code objects keep the repo-relative filename.
    module = ModuleType(path.stem)
    module.__file__ = str(path)
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return module


def run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def disassemble(disasm: str, bytecode: Path, dest: Path, *flags: str) -> int:
    """Write tileirdisasm's text for `bytecode` to `dest`; return its line count."""
    result = run([disasm, *flags, str(bytecode)])
    if result.returncode != 0:
        sys.exit(f"tileirdisasm failed on {bytecode}:\n{result.stderr}")
    dest.write_text(result.stdout)
    return result.stdout.count("\n")


def tileiras_rc(tileiras: str, bytecode: Path, arch: str) -> int:
    """Compile `bytecode` for `arch` with NVIDIA's tileiras; return its exit code."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [tileiras, "--gpu-name", arch, str(bytecode), "-o", f"{tmp}/out.cubin"]
        return run(cmd).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="kernel file stems (default: all)")
    parser.add_argument("--out", type=Path, default=REPO / "tests/data/cutile")
    parser.add_argument(
        "--check",
        action="append",
        default=[],
        metavar="ARCH",
        help="also compile each bytecode with tileiras for ARCH (e.g. sm_90)",
    )
    args = parser.parse_args(argv)

    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(REPO)
    sys.path.insert(0, str(KERNELS))
    sys.dont_write_bytecode = True  # no __pycache__ next to the corpus
    disasm, tileiras = find_tool("tileirdisasm"), find_tool("tileiras")

    sources = sorted(KERNELS.glob("[!_]*.py"))
    if unknown := set(args.names) - {src.stem for src in sources}:
        parser.error(f"unknown kernel(s): {', '.join(sorted(unknown))}")
    failed = 0
    for src in sources:
        if args.names and src.stem not in args.names:
            continue
        module = load_module(src)
        bytecode = out / f"{src.stem}.tileirbc"
        export_kernel(module.KERNEL, module.SIGNATURES, bytecode, output_format="tileir_bytecode", gpu_code=None)
        lines = disassemble(disasm, bytecode, out / f"{src.stem}.mlir")
        disassemble(disasm, bytecode, out / f"{src.stem}.g.mlir", "-g")  # with loc() info
        status = [f"{src.stem}: {lines} lines"]
        for arch in args.check:
            rc = tileiras_rc(tileiras, bytecode, arch)
            failed += rc != 0
            status.append(f"{arch}={'ok' if rc == 0 else f'FAIL(rc={rc})'}")
        print(" ".join(status))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
