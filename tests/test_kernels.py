"""Real kernels: every cuTile-generated kernel in tests/data/cutile and every valid
NVIDIA example in ../shared/kernels/nvidia parses, verifies and round-trips.
"""

from __future__ import annotations

import pathlib

import pytest

from tile_lsp.testing.lit import check_file

DATA = pathlib.Path(__file__).parent / "data" / "cutile"
SHARED_KERNELS = pathlib.Path(__file__).resolve().parents[2] / "shared" / "kernels" / "nvidia"

# Ops.td examples that are wrong as written (see the issue-2 note for why).
KNOWN_INVALID_EXAMPLES: dict[str, str] = {
    # The combiner's first block argument is written `tile<2xf32>`; reduce combiners take
    # rank-0 tiles of the element type, and the body then adds it to a `tile<f32>`.
    "L3929-3938_reduce": "combiner argument %input_arg declared tile<2xf32>, must be tile<f32>",
}


def _assert_roundtrips(path: pathlib.Path) -> None:
    (outcome,) = check_file(path.read_text(encoding="utf-8"), str(path), split=False)
    assert outcome.valid and outcome.roundtrip_ok, outcome.failure


@pytest.mark.parametrize("path", sorted(DATA.glob("*.mlir")), ids=lambda p: p.name)
def test_cutile_kernel_roundtrips(path: pathlib.Path):
    _assert_roundtrips(path)


def test_cutile_corpus_is_present():
    names = {p.name.split(".")[0] for p in DATA.glob("*.mlir")}
    assert {"vector_add", "row_softmax", "layernorm", "gemm", "attention", "prefix_scan", "atomics", "gather_scatter"} <= names


def _shared_kernels() -> list[pathlib.Path]:
    return sorted(SHARED_KERNELS.glob("*.mlir")) if SHARED_KERNELS.is_dir() else []


@pytest.mark.parametrize("path", _shared_kernels(), ids=lambda p: p.name.split("__")[-1])
def test_nvidia_example_kernel(path: pathlib.Path):
    reason = next((why for key, why in KNOWN_INVALID_EXAMPLES.items() if key in path.name), None)
    if reason is not None:
        (outcome,) = check_file(path.read_text(encoding="utf-8"), str(path), split=False)
        assert not outcome.roundtrip_ok, f"now valid; drop it from KNOWN_INVALID_EXAMPLES ({reason})"
        return
    _assert_roundtrips(path)


def _normalise(text: str) -> list[str]:
    # tileirdisasm leaves trailing blanks and doubled spaces in a few headers.
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(
    "path", sorted(p for p in DATA.glob("*.mlir") if not p.name.endswith(".g.mlir")), ids=lambda p: p.name
)
def test_opt_reproduces_nvidias_printer(path: pathlib.Path):
    """`tile-lsp opt` on tileirdisasm output gives the same text back: names, numbering,
    spelling of every op and type (whitespace aside)."""
    from tile_lsp.compiler.frontend import parse_text
    from tile_lsp.compiler.syntax.printer import Printer

    text = path.read_text(encoding="utf-8")
    (result,) = parse_text(text, str(path))
    assert result.module is not None and result.ok
    assert _normalise(Printer().module_text(result.module)) == _normalise(text)
