"""NVIDIA's own examples (../shared/kernels/nvidia) and every function of its ops.mlir
conformance file, run by the interpreter; skipped when ../shared is missing."""

from __future__ import annotations

import io

import numpy as np
import pytest

from interp.conformance_args import argument
from tile_lsp.compiler.interp import InterpError, supported_ops
from tile_lsp.compiler.interp.launch import bind, entry_params, load_module

STRUCTURE = {"cuda_tile.module", "cuda_tile.entry", "cuda_tile.testing$func", "cuda_tile.global", "builtin.module"}


def _example(shared, suffix: str):  # type: ignore[no-untyped-def]
    (path,) = (shared / "kernels" / "nvidia").glob(f"*{suffix}.mlir")
    interp = load_module(path.read_text(), path.name)
    interp.stdout = io.StringIO()
    interp.max_loop_trips = 50
    return interp


def _run(interp, entry: str, *arrays):  # type: ignore[no-untyped-def]
    launch = bind(entry_params(interp, entry), list(arrays), interp.memory)
    interp.run(entry, launch.values)
    return [interp.memory.array(launch.arrays[i]) for i in range(len(arrays))]


def test_readme_example_prints_the_data(shared):
    it = _example(shared, "example_module")
    _run(it, "example_kernel", np.arange(128, dtype=np.float32))
    lines = it.stdout.getvalue().splitlines()
    assert lines[0] == "Running example module"
    assert lines[1] == "Data: [" + ", ".join(f"{v:f}" for v in range(128)) + "]"


def test_mma_examples_give_zero_products(shared):
    it = _example(shared, "_mmaf")
    it.run("example", [])
    assert it.value_named("0").shape == (4, 2) and not it.value_named("0").any()
    assert it.value_named("1").shape == (2, 4, 2) and it.value_named("1").dtype == np.float32
    it = _example(shared, "_mmai")
    it.run("example", [])
    assert it.value_named("1").dtype == np.int32 and not it.value_named("1").any()


def test_for_if_scan_pack_examples(shared):
    it = _example(shared, "_for")
    it.run("example", [])
    assert it.value_named("results") == 1.0
    it = _example(shared, "_if")
    it.run("example", [])
    assert (it.value_named("x"), it.value_named("y")) == (1.0, 2)
    it = _example(shared, "_scan")
    it.run("example", [])
    assert it.value_named("result").shape == (8, 16) and not it.value_named("result").any()
    it = _example(shared, "_pack")
    it.run("example", [])
    assert it.value_named("0").dtype == np.int8 and it.value_named("0").shape == (128,)


def test_loop_examples_that_never_break_hit_the_trip_limit(shared):
    with pytest.raises(InterpError, match=r"_loop.mlir:\d+:\d+: 'cuda_tile.loop' ran 50 iterations"):
        _example(shared, "2982_loop").run("example", [])
    it = _example(shared, "_break_loop")
    with pytest.raises(InterpError, match=r"break_loop.mlir:19:9: 'cuda_tile.loop' ran 50 iterations"):
        it.run("example", [])


def test_reduce_example_is_rejected_by_the_front_end(shared):
    (path,) = (shared / "kernels" / "nvidia").glob("*_reduce.mlir")
    with pytest.raises(InterpError, match="expect 0-rank tile type"):
        load_module(path.read_text(), path.name)


def test_view_store_and_atomic_reduction_examples(shared):
    ones = np.ones((8192, 128), np.float32)
    (out,) = _run(_example(shared, "_store_view_tko"), "example", ones)
    assert not out[:64].any() and (out[64:] == 1).all()
    (out,) = _run(_example(shared, "_atomic_red_view_tko"), "example", np.zeros((8192, 128), np.float32))
    assert (out[:64, :64] == 1).all() and (out[:64, 64:] == 2).all() and not out[64:].any()
    _run(_example(shared, "_make_gather_scatter_view"), "example", np.zeros(16, np.float32))


def test_atomic_examples(shared):
    it = _example(shared, "_atomic_cas_tko")
    (out,) = _run(it, "example", np.arange(8, dtype=np.int32))
    assert out.tolist() == [7, 6, 5, 4, 3, 2, 1, 0]
    assert it.value_named("0").tolist() == list(range(8))
    assert it.value_named("1")[1::2].tolist() == [6, 4, 2, 0]
    assert it.value_named("2").tolist() == [7, 6, 5, 4, 3, 2, 1, 0]
    it = _example(shared, "_atomic_rmw_tko")
    (out,) = _run(it, "example_rmw", np.zeros(8, np.float32))
    vals = [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    assert out.tolist() == [2 * v for v in vals] and it.value_named("1").tolist() == vals


SKIP = {"load_store_tile_partition": "stores a tile<1024x1024x8xf32> into a 16 GiB tensor view"}


def test_every_op_of_ops_mlir_is_supported(shared):
    path = shared / "conformance" / "cuda_tile" / "Dialect" / "CudaTile" / "ops.mlir"
    interp = load_module(path.read_text(), "ops.mlir")
    used = {op.name for op in interp.module.walk()}
    assert used - supported_ops() - STRUCTURE == set()


def test_every_function_of_ops_mlir_runs(shared):
    path = shared / "conformance" / "cuda_tile" / "Dialect" / "CudaTile" / "ops.mlir"
    interp = load_module(path.read_text(), "ops.mlir")
    interp.stdout = io.StringIO()
    interp.max_loop_trips = 20
    rng = np.random.default_rng(0)
    failures = {}
    ran = 0
    for name in interp.entries():
        if name in SKIP:
            continue
        block = interp.symbols[name].regions[0].blocks.first
        args = [argument(interp.memory, a.type, i, rng) for i, a in enumerate(block.args)]
        try:
            interp.run(name, args)
            ran += 1
        except InterpError as exc:
            failures[name] = str(exc)
    # `test` holds NVIDIA's `loop { continue }` syntax example: it never ends.
    assert failures == {"test": "ops.mlir:127:3: 'cuda_tile.loop' ran 20 iterations without a break"}
    assert ran == len(interp.entries()) - 2
