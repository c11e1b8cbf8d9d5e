"""Export tests/data/cutile/kernels/*.py to Tile IR bytecode (.tileirbc) and cuda_tile text (.mlir).

Needs `pip install cuda-tile nvidia-cuda-tileiras` (no GPU); run `python scripts/export_cutile.py`.
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
        import nvidia.cu13 as cu13

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="kernel file stems (default: all)")
    parser.add_argument("--out", type=Path, default=REPO / "tests/data/cutile")
    parser.add_argument("--check", action="append", default=[], metavar="ARCH",
                        help="also compile each bytecode with tileiras for ARCH (e.g. sm_90)")
    parser.add_argument("-g", "--debug-info", action="store_true",
                        help="also write <name>.g.mlir with loc() debug info")
    args = parser.parse_args(argv)

    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    os.chdir(REPO)
    sys.path.insert(0, str(KERNELS))
    disasm, tileiras = find_tool("tileirdisasm"), find_tool("tileiras")

    failed = 0
    scratch = Path(tempfile.mkdtemp(prefix="export_cutile_"))
    for src in sorted(KERNELS.glob("[!_]*.py")):
        if args.names and src.stem not in args.names:
            continue
        module = load_module(src)
        bytecode = out / f"{src.stem}.tileirbc"
        export_kernel(module.KERNEL, module.SIGNATURES, bytecode,
                      output_format="tileir_bytecode", gpu_code=None)
        lines = disassemble(disasm, bytecode, out / f"{src.stem}.mlir")
        if args.debug_info:
            disassemble(disasm, bytecode, out / f"{src.stem}.g.mlir", "-g")
        status = [f"{src.stem}: {lines} lines"]
        for arch in args.check:
            result = run([tileiras, "--gpu-name", arch, str(bytecode), "-o", str(scratch / "out.cubin")])
            ok = result.returncode == 0
            failed += not ok
            status.append(f"{arch}={'ok' if ok else f'FAIL(rc={result.returncode})'}")
        print(" ".join(status))
    shutil.rmtree(scratch)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
