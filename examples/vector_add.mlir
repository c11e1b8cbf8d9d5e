// A small cuda_tile kernel: c[i] = a[i] + b[i] over 128-element tiles.
cuda_tile.module @examples {
  entry @vector_add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>) {
    %bid, %unused_y, %unused_z = get_tile_block_id : tile<i32>
    %c128 = constant <i32: 128> : tile<i32>
    %base = muli %bid, %c128 : tile<i32>
    %base_1d = reshape %base : tile<i32> -> tile<1xi32>
    %base_v = broadcast %base_1d : tile<1xi32> -> tile<128xi32>
    %lane = iota : tile<128xi32>
    %idx = addi %base_v, %lane : tile<128xi32>
    %a_1d = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
    %a_v = broadcast %a_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %a_p = offset %a_v, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %b_1d = reshape %b : tile<ptr<f32>> -> tile<1xptr<f32>>
    %b_v = broadcast %b_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %b_p = offset %b_v, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %c_1d = reshape %c : tile<ptr<f32>> -> tile<1xptr<f32>>
    %c_v = broadcast %c_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
    %c_p = offset %c_v, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
    %x, %t0 = load_ptr_tko weak %a_p : tile<128xptr<f32>> -> tile<128xf32>, token
    %y, %t1 = load_ptr_tko weak %b_p : tile<128xptr<f32>> -> tile<128xf32>, token
    %sum = addf %x, %y : tile<128xf32>
    %t2 = store_ptr_tko weak %c_p, %sum : tile<128xptr<f32>>, tile<128xf32> -> token
    return
  }
}
