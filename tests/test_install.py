"""Installing like a good citizen: dependency ranges, not exact pins (dev tools stay pinned),
the `nvidia` and `cutile` extras, `make test-bounds` (kept out of `make test`), and
`tile-lsp --version`, which is fast: it imports none of the compiler's heavy dependencies."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import tomllib
from importlib import metadata

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _requirement(spec: str) -> tuple[str, str]:
    m = re.match(r"^([A-Za-z0-9_.-]+)\s*(.*)$", spec)
    assert m is not None, spec
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def test_runtime_dependencies_are_ranges_with_an_upper_bound() -> None:
    deps = dict(_requirement(d) for d in PYPROJECT["project"]["dependencies"])
    assert set(deps) == {"xdsl", "pygls", "lsprotocol", "llvmlite", "numpy", "ml-dtypes"}
    for name, spec in deps.items():
        assert "==" not in spec, f"{name} is pinned exactly: {spec}"
        assert re.search(r">=[0-9]", spec) and re.search(r"<[0-9]", spec), f"{name} needs a lower and an upper bound: {spec}"
    # xDSL and pygls are pre-1.0 / fast moving: one minor release each.
    assert deps["xdsl"] == ">=0.74,<0.76"
    assert deps["pygls"].startswith(">=2.1") and deps["pygls"].endswith("<2.2")


def test_what_is_installed_here_is_in_range() -> None:
    from packaging.requirements import Requirement

    for spec in PYPROJECT["project"]["dependencies"]:
        req = Requirement(spec)
        assert req.specifier.contains(metadata.version(req.name), prereleases=True), (spec, metadata.version(req.name))


def test_dev_tools_stay_pinned_and_the_extras_are_there() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert all("==" in d for d in extras["dev"])
    assert extras["nvidia"] == ["nvidia-cuda-tileiras>=13.5,<14", "nvidia-cuda-nvcc>=13,<14", "nvidia-nvvm>=13,<14",
                                "nvidia-cuda-nvdisasm>=13,<14", "nvidia-cuda-cuobjdump>=13,<14"]
    assert extras["cutile"] == ["cuda-tile>=1.7,<2"]
    assert extras["gpu"]


def test_test_bounds_is_a_target_of_its_own() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^test-bounds:", makefile, re.MULTILINE)
    test_line = re.search(r"^test:(.*)$", makefile, re.MULTILINE)
    assert test_line is not None and "bounds" not in test_line.group(1)  # (it downloads)
    assert "test-bounds" in re.search(r"^\.PHONY:(.*)$", makefile, re.MULTILINE).group(1)  # type: ignore[union-attr]


def test_version_names_the_package_its_dependencies_and_the_tools() -> None:
    done = subprocess.run([sys.executable, "-m", "tile_lsp", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "tile-lsp 0.1.0"
    text = done.stdout
    for dist in ("xdsl", "llvmlite", "numpy", "pygls"):
        assert f"{dist} {metadata.version(dist)}" in text
    assert re.search(r"^ptxas: (/\S+|not found)", text, re.MULTILINE)
    assert re.search(r"^tileiras: (/\S+|not found)", text, re.MULTILINE)


@pytest.mark.parametrize("argv", [["--version"], ["-V"]])
def test_version_is_fast_and_imports_nothing_heavy(argv: list[str]) -> None:
    code = ("import sys, time\nt = time.perf_counter()\nfrom tile_lsp.cli import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit as e:\n    code = e.code\n"
            "heavy = sorted(m for m in ('xdsl', 'llvmlite', 'numpy', 'pygls', 'lsprotocol', 'ml_dtypes') if m in sys.modules)\n"
            "print('RESULT', code, heavy, round(time.perf_counter() - t, 3), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    result = done.stderr.strip().splitlines()[-1].split(" ", 1)[1]
    assert result.startswith("0 [] "), done.stderr
    assert done.stdout.startswith("tile-lsp 0.1.0\n")
