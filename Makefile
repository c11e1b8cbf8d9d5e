# One-command entry points for a fresh machine (see README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint typecheck unit conformance conformance-upstream bench bench-compile clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Check an example kernel, print it back in NVIDIA's custom form, then compile an
# upstream gpu-dialect kernel through nvvm -> llvm -> LLVM IR -> PTX (-> ptxas if present).
demo: setup
	$(BIN)/tile-lsp check examples/vector_add.mlir && echo "check: no diagnostics"
	$(BIN)/tile-lsp opt examples/vector_add.mlir
	$(BIN)/tile-lsp check examples/broken.mlir || echo "(exit status $$?: errors reported, as expected for broken.mlir)"
	$(BIN)/tile-lsp compile examples/block_sum.mlir --gpu-name sm_90a --emit ptx --dump-dir .tile-lsp/demo
	@echo "stage dumps written to .tile-lsp/demo/"

lint: setup
	$(BIN)/ruff check tile_lsp tests scripts bench

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -q

test: lint typecheck unit

conformance: setup
	$(BIN)/python scripts/conformance.py

# Back half vs upstream MLIR 22 tests (needs mlir-opt 22 and ptxas; see the script's docstring).
conformance-upstream: setup
	$(BIN)/python scripts/conformance_upstream.py

bench: setup
	$(BIN)/python bench/frontend_speed.py

# Back-half compile time per stage for sm_90a (needs llvmlite's NVPTX, ptxas; ../shared for the upstream units).
bench-compile: setup
	$(BIN)/python bench/compile_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
