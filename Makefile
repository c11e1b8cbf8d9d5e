# One-command entry points for a fresh machine (see README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint typecheck unit conformance bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Check an example kernel, then print it back in NVIDIA's custom form.
demo: setup
	$(BIN)/tile-lsp check examples/vector_add.mlir && echo "check: no diagnostics"
	$(BIN)/tile-lsp opt examples/vector_add.mlir
	$(BIN)/tile-lsp check examples/broken.mlir || echo "(exit status $$?: errors reported, as expected for broken.mlir)"

lint: setup
	$(BIN)/ruff check tile_lsp tests scripts bench

typecheck: setup
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest -q

test: lint typecheck unit

conformance: setup
	$(BIN)/python scripts/conformance.py

bench: setup
	$(BIN)/python bench/frontend_speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
