"""Pointers, views, padding, masks, atomics, reduce/scan regions, control flow, print/assert,
and the errors a user sees (with the op's line:col)."""

from __future__ import annotations

import numpy as np
import pytest

from interp.util import evaluate, value
from tile_lsp.compiler.interp import HANDLERS, InterpError

PTR8 = """
  %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
  %pb = broadcast %p1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
  %off = iota : tile<8xi32>
  %ptrs = offset %pb, %off : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
"""


def test_masked_pointer_load_uses_the_padding_value_and_masked_store_skips():
    data = np.arange(8, dtype=np.float32)
    body = PTR8 + """
  %m = constant <i1: [1, 0, 1, 0, 1, 0, 1, 0]> : tile<8xi1>
  %pad = constant <f32: -1.0> : tile<8xf32>
  %r, %t = load_ptr_tko weak %ptrs, %m, %pad : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
  %v = constant <f32: 9.0> : tile<8xf32>
  %t2 = store_ptr_tko weak %ptrs, %v, %m : tile<8xptr<f32>>, tile<8xf32>, tile<8xi1> -> token
"""
    run = evaluate("%p: tile<ptr<f32>>", body, data)
    assert run.named("r").tolist() == [0, -1, 2, -1, 4, -1, 6, -1]
    assert run.array(0).tolist() == [9, 1, 9, 3, 9, 5, 9, 7]


def test_out_of_bounds_pointer_access_is_an_error_at_the_op():
    with pytest.raises(InterpError) as exc:
        evaluate("%p: tile<ptr<f32>>", PTR8 + "  %r, %t = load_ptr_tko weak %ptrs : tile<8xptr<f32>> -> tile<8xf32>, token",
                 np.zeros(4, np.float32))
    assert str(exc.value) == ("test.mlir:8:3: 'cuda_tile.load_ptr_tko': load from buffer 'arg0' byte 16: "
                              "out of bounds (buffer size 16 bytes)")


VIEW = """
  %tv = make_tensor_view %p, shape = [%n, 8], strides = [8, 1] : tile<i32> -> tensor_view<?x8xf32, strides=[8,1]>
  %pv = make_partition_view %tv : partition_view<tile=(4x4), padding_value = {pad}, tensor_view<?x8xf32, strides=[8,1]>{dim_map}>
  %i = constant <i32: {i}> : tile<i32>
  %j = constant <i32: {j}> : tile<i32>
  %r, %t = load_view_tko weak %pv[%i, %j] : partition_view<tile=(4x4), padding_value = {pad}, tensor_view<?x8xf32, strides=[8,1]>{dim_map}>, tile<i32> -> tile<4x4xf32>, token
"""


def test_partition_view_load_pads_out_of_bounds_elements():
    x = np.arange(6 * 8, dtype=np.float32).reshape(6, 8)
    r = value("%p: tile<ptr<f32>>, %n: tile<i32>", VIEW.format(pad="nan", dim_map="", i=1, j=1), x, np.int32(6))
    assert r[:2].tolist() == x[4:6, 4:8].tolist() and np.isnan(r[2:]).all()
    r = value("%p: tile<ptr<f32>>, %n: tile<i32>", VIEW.format(pad="neg_inf", dim_map="", i=1, j=0), x, np.int32(6))
    assert (r[2:] == -np.inf).all()


def test_dim_map_transposes_the_tile():
    x = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    r = value("%p: tile<ptr<f32>>, %n: tile<i32>", VIEW.format(pad="zero", dim_map=", dim_map=[1, 0]", i=1, j=0), x,
              np.int32(8))
    # tile dim 0 walks tensor dim 1 (tile index 1 -> columns 4..7), tile dim 1 walks rows 0..3
    assert r.tolist() == x[0:4, 4:8].T.tolist()


def test_store_view_skips_out_of_bounds_and_index_space_counts_partial_tiles():
    x = np.zeros((6, 8), np.float32)
    body = """
  %tv = make_tensor_view %p, shape = [%n, 8], strides = [8, 1] : tile<i32> -> tensor_view<?x8xf32, strides=[8,1]>
  %pv = make_partition_view %tv : partition_view<tile=(4x4), tensor_view<?x8xf32, strides=[8,1]>>
  %a, %b = get_index_space_shape %pv : partition_view<tile=(4x4), tensor_view<?x8xf32, strides=[8,1]>> -> tile<i32>
  %s0, %s1 = get_tensor_shape %tv : tensor_view<?x8xf32, strides=[8,1]> -> tile<i64>
  %one = constant <i32: 1> : tile<i32>
  %v = constant <f32: 5.0> : tile<4x4xf32>
  %t = store_view_tko weak %v, %pv[%one, %one] : tile<4x4xf32>, partition_view<tile=(4x4), tensor_view<?x8xf32, strides=[8,1]>>, tile<i32> -> token
"""
    run = evaluate("%p: tile<ptr<f32>>, %n: tile<i32>", body, x, np.int32(6))
    want = np.zeros((6, 8))
    want[4:6, 4:8] = 5
    assert run.array(0).tolist() == want.tolist()
    assert (run.named("a"), run.named("b"), run.named("s0"), run.named("s1")) == (2, 2, 6, 8)


def test_atomics_apply_lane_by_lane_in_order():
    counter = np.zeros(1, np.int32)
    body = """
  %p1 = reshape %p : tile<ptr<i32>> -> tile<1xptr<i32>>
  %ptrs = broadcast %p1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
  %one = constant <i32: [1, 2, 3, 4]> : tile<4xi32>
  %old, %t = atomic_rmw_tko relaxed device %ptrs, add, %one : tile<4xptr<i32>>, tile<4xi32> -> tile<4xi32>, token
  %cmp = constant <i32: [10, 99, 10, 10]> : tile<4xi32>
  %new = constant <i32: [-5, -6, -7, -8]> : tile<4xi32>
  %seen, %t2 = atomic_cas_tko relaxed device %ptrs, %cmp, %new : tile<4xptr<i32>>, tile<4xi32> -> tile<4xi32>, token
"""
    run = evaluate("%p: tile<ptr<i32>>", body, counter)
    # the adds see 0, 1, 3, 6 (-> 10); CAS lane 0 swaps 10 for -5, the others then see -5 and fail
    assert run.named("old").tolist() == [0, 1, 3, 6]
    assert run.named("seen").tolist() == [10, -5, -5, -5] and run.array(0).tolist() == [-5]
    # blocks run in order: block 1 adds 10 (-> 5, no swap), block 2 adds 10 (-> 15)
    assert evaluate("%p: tile<ptr<i32>>", body, counter, grid=(3, 1, 1)).array(0).tolist() == [15]


def test_atomic_rmw_modes_and_float_add():
    body = """
  %p1 = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
  %ptrs = broadcast %p1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
  %v = constant <f32: [0.5, 0.25, 0.125, 1.0e8]> : tile<4xf32>
  %old, %t = atomic_rmw_tko relaxed device %ptrs, addf, %v : tile<4xptr<f32>>, tile<4xf32> -> tile<4xf32>, token
"""
    run = evaluate("%p: tile<ptr<f32>>", body, np.ones(1, np.float32))
    assert run.named("old").tolist() == [1.0, 1.5, 1.75, 1.875]
    assert run.array(0).tolist() == [np.float32(1.875) + np.float32(1e8)]


def test_reduce_and_scan_run_their_combiner_region():
    x = np.arange(1, 9, dtype=np.int32)
    body = """
  %r = reduce %x dim=0 identities=[1 : i32] : tile<8xi32> -> tile<i32>
  (%a: tile<i32>, %b: tile<i32>) {
    %m = muli %a, %b : tile<i32>
    yield %m : tile<i32>
  }
  %s = scan %x dim=0 reverse=true identities=[0 : i32] : tile<8xi32> -> tile<8xi32>
  (%a: tile<i32>, %b: tile<i32>) {
    %m = addi %a, %b : tile<i32>
    yield %m : tile<i32>
  }
"""
    run = evaluate("%x: tile<8xi32>", body, x)
    assert run.named("r") == 40320
    assert run.named("s").tolist() == np.cumsum(x[::-1])[::-1].tolist()


def test_loops_break_continue_and_if_results():
    body = """
  %c0 = constant <i32: 0> : tile<i32>
  %c1 = constant <i32: 1> : tile<i32>
  %c10 = constant <i32: 10> : tile<i32>
  %sum = for %iv in (%c0 to %c10, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
    %odd = andi %iv, %c1 : tile<i32>
    %is_odd = cmpi equal %odd, %c1, signed : tile<i32> -> tile<i1>
    %next = if %is_odd -> (tile<i32>) {
      yield %acc : tile<i32>
    } else {
      %a = addi %acc, %iv : tile<i32>
      yield %a : tile<i32>
    }
    continue %next : tile<i32>
  }
  %r = loop iter_values(%i = %c0) : tile<i32> -> tile<i32> {
    %done = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
    if %done {
      break %i : tile<i32>
    }
    %j = addi %i, %c1 : tile<i32>
    continue %j : tile<i32>
  }
"""
    run = evaluate("%n: tile<i32>", body, np.int32(7))
    assert run.named("sum") == 0 + 2 + 4 + 6 + 8 and run.named("r") == 7


def test_print_formats_tiles_and_assert_reports_the_op():
    body = """
  %b, %y, %z = get_tile_block_id : tile<i32>
  %t = print_tko "block %d: %5.2f %x%%\\0A", %b, %x, %b : tile<i32>, tile<2xf32>, tile<i32> -> token
"""
    run = evaluate("%x: tile<2xf32>", body, np.array([1.5, -2.25], np.float32), grid=(2, 1, 1))
    assert run.interp.stdout.getvalue() == "block 0: [ 1.50, -2.25] 0%\nblock 1: [ 1.50, -2.25] 1%\n"
    with pytest.raises(InterpError) as exc:
        evaluate("%x: tile<2xi1>", '  assert %x, "must hold" : tile<2xi1>', np.array([True, False]))
    assert str(exc.value) == "test.mlir:3:3: assertion failed in tile block (0, 0, 0) at element (1,): must hold"


def test_an_unsupported_op_names_itself_and_its_location(monkeypatch):
    monkeypatch.delitem(HANDLERS, "cuda_tile.iota")
    with pytest.raises(InterpError) as exc:
        evaluate("", "  %r = iota : tile<8xi32>")
    assert str(exc.value) == "test.mlir:3:3: op 'cuda_tile.iota' is not supported by the interpreter"


def test_globals_and_alloca():
    text_globals = """
  %g = get_global @table : tile<ptr<i32>>
  %r, %t = load_ptr_tko weak %g : tile<ptr<i32>> -> tile<i32>, token
"""
    from interp.util import module
    from tile_lsp.compiler.interp.launch import load_module

    src = module("", text_globals).replace("cuda_tile.module @m {", "cuda_tile.module @m {\n  global @table <i32: [42, 7]> : tile<2xi32>")
    interp = load_module(src, "g.mlir")
    interp.run("k", [])
    assert interp.value_named("r") == 42


def test_strided_view_tiles_step_by_the_traversal_strides():
    x = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    body = """
  %tv = make_tensor_view %p, shape = [8, 8], strides = [8, 1] : tensor_view<8x8xf32, strides=[8,1]>
  %sv = make_strided_view %tv : strided_view<tile=(4x4), traversal_strides=[2,3], tensor_view<8x8xf32, strides=[8,1]>>
  %one = constant <i32: 1> : tile<i32>
  %r, %t = load_view_tko weak %sv[%one, %one] : strided_view<tile=(4x4), traversal_strides=[2,3], tensor_view<8x8xf32, strides=[8,1]>>, tile<i32> -> tile<4x4xf32>, token
"""
    assert value("%p: tile<ptr<f32>>", body, x).tolist() == x[2:6, 3:7].tolist()  # origin (1*2, 1*3)
    edge = value("%p: tile<ptr<f32>>", body.replace("<i32: 1>", "<i32: 3>"), x)  # origin (6, 9): all outside
    assert not edge.any()
