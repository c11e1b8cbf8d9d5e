# One-command entry points for a fresh machine (see README.md).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-all lint typecheck unit unit-all conformance conformance-upstream sweep ops-coverage bench bench-compile bench-editor bench-tileiras test-bounds clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# compat: a plain path in a .pth, not setuptools' import hook (which costs every process ~17 ms
	# of imports at start; a CLI run through the compile daemon is ~0.25 s in all)
	$(BIN)/pip install -q -e '.[dev]' --config-settings editable_mode=compat
	# the test extra (NVIDIA's tileirdisasm/tileiras wheel), where it installs: tests needing it skip otherwise
	$(BIN)/pip install -q -e '.[dev,test]' --config-settings editable_mode=compat \
	  || echo "note: nvidia-cuda-tileiras did not install; the tests that compare with tileirdisasm/tileiras will skip"
	touch $(STAMP)

setup: $(STAMP)

# Check an example kernel, print it back in NVIDIA's custom form, compile it through every
# stage (tileaa -> gpu -> nvvm -> llvm -> LLVM IR -> PTX -> ptxas if present), run it on the
# NumPy reference interpreter, then compile an upstream gpu-dialect kernel.
demo: setup
	$(BIN)/tile-lsp check examples/vector_add.mlir && echo "check: no diagnostics"
	$(BIN)/tile-lsp opt examples/vector_add.mlir
	$(BIN)/tile-lsp check examples/broken.mlir || echo "(exit status $$?: errors reported, as expected for broken.mlir)"
	$(BIN)/tile-lsp compile examples/vector_add.mlir --gpu-name sm_90a --emit ptx --dump-dir .tile-lsp/demo
	$(BIN)/tile-lsp run examples/vector_add.mlir --grid 2 --arg 'f32[256]:arange' --arg 'f32[256]:arange' --arg 'f32[256]:zeros'
	$(BIN)/tile-lsp compile examples/block_sum.mlir --gpu-name sm_90a --emit ptx --dump-dir .tile-lsp/demo
	@echo "stage dumps written to .tile-lsp/demo/"

lint: setup
	$(BIN)/ruff check tile_lsp tests scripts bench

typecheck: setup
	$(BIN)/mypy

# The fast inner loop leaves out the tests tests/slow_tests.txt lists (scripts/slow_tests.py);
# CI runs them all (`make test-all`).
unit: setup
	$(BIN)/pytest -q -m "not slow"

unit-all: setup
	$(BIN)/pytest -q

test: lint typecheck unit

test-all: lint typecheck unit-all

conformance: setup
	$(BIN)/python scripts/conformance.py

# Back half vs upstream MLIR 22 tests (needs mlir-opt 22 and ptxas; see the script's docstring).
conformance-upstream: setup
	$(BIN)/python scripts/conformance_upstream.py

# Every cuTile and NVIDIA kernel to a cubin for sm_80/sm_90a/sm_100a, nvvm dumps through mlir-opt 22.
sweep: setup
	$(BIN)/python scripts/kernel_sweep.py --jobs 2

# Which cuda_tile ops of NVIDIA's ops.mlir reach ptxas (sm_80/sm_90a/sm_100a), op by op.
ops-coverage: setup
	$(BIN)/python scripts/ops_coverage.py --jobs 2

bench: setup
	$(BIN)/python bench/frontend_speed.py

# Back-half compile time per stage for sm_90a (needs llvmlite's NVPTX, ptxas; ../shared for the upstream units).
bench-compile: setup
	$(BIN)/python bench/compile_speed.py

# The pipeline in the editor on real kernels: one-entry edit, edit -> result p50/p95, hover/definition under load.
bench-editor: setup
	$(BIN)/python bench/pipeline_editor.py

# Ours vs NVIDIA's tileiras on the cuTile kernels (regs, spills, smem, PTX size, compile time) and
# the per-entry cache target (needs tileiras: --tileiras PATH, PATH, or /tmp/cutile-venv).
bench-tileiras: setup
	$(BIN)/python bench/tileiras_compare.py

# The lowest and the highest numpy, llvmlite and ml_dtypes pyproject.toml allows, each in a
# throwaway venv (the other dependencies as pyproject.toml allows them, the checkout on
# PYTHONPATH, nothing installed into it), running a quick subset of the tests. It downloads:
# not part of `make test`. Override e.g. BOUNDS_LOW='numpy==2.0.2 llvmlite==0.50.0 ml_dtypes==0.5.0'.
BOUNDS_LOW ?= numpy==1.23.5 llvmlite==0.48.0 ml_dtypes==0.5.0 xdsl==0.74.0
BOUNDS_HIGH ?= numpy==2.4.6 llvmlite==0.50.0 ml_dtypes==0.7.0 xdsl==0.75.0
BOUNDS_TESTS ?= tests/test_cli.py tests/test_install.py tests/test_gpu_names.py tests/tile_lowering/test_pipeline_cuda_tile.py tests/upstream_lowering/test_ptx.py tests/interp/test_cli_run.py tests/interp/test_float_semantics.py tests/interp/test_integer_semantics.py
BOUNDS_REQUIREMENTS = $(PY) -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
	print(' '.join(repr(d) for d in p['dependencies'] + [d for d in p['optional-dependencies']['dev'] if d.startswith('pytest')]))"

test-bounds:
	@set -e; for side in low high; do \
	  if [ $$side = low ]; then pins="$(BOUNDS_LOW)"; else pins="$(BOUNDS_HIGH)"; fi; \
	  dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	  echo "== test-bounds $$side: $$pins"; \
	  $(PY) -m venv $$dir/venv; \
	  eval $$dir/venv/bin/pip install -q --disable-pip-version-check $$pins $$($(BOUNDS_REQUIREMENTS)); \
	  $$dir/venv/bin/pip list --format=freeze 2>/dev/null | grep -iE '^(numpy|llvmlite|ml.dtypes|xdsl|pygls|lsprotocol)=='; \
	  PYTHONPATH=$(CURDIR) TILE_LSP_DAEMON=0 $$dir/venv/bin/python -m pytest -q -p no:cacheprovider $(BOUNDS_TESTS); \
	  rm -rf "$$dir"; trap - EXIT; \
	  echo "== test-bounds $$side: passed"; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
