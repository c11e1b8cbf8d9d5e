// Ops and encodings the cuTile corpus and NVIDIA's dialect tests leave out of the bytecode
// tests (absi, alloca, cat, get_tensor_shape, make_strided_view, mmaf_scaled, unpack), plus
// optional fields: globals (private/constant/alignment), masks and padding, memory scopes,
// per-op optimization hints, div_by every/along, bounded both ways, same_elements, for's
// unsigned compare, ftz/propagate_nan flags, rounding modes.
cuda_tile.module @more {
  global private constant @lut alignment = 64 <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>
  global @counter <i32: 0> : tile<1xi32>
  entry @more_ops(%p: tile<ptr<f32>>, %n: tile<i64>) optimization_hints=<sm_90 = {num_cta_in_cga = 2, occupancy = 1}> {
    %xi = iota : tile<8xi32>
    %a = constant <f8E4M3FN: 1.0> : tile<128x128xf8E4M3FN>
    %b = constant <f8E4M3FN: -0.5> : tile<128x128xf8E4M3FN>
    %c = constant <f32: 0.0> : tile<128x128xf32>
    %sa = constant <f8E8M0FNU: 1.0> : tile<128x4xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: 2.0> : tile<4x128xf8E8M0FNU>
    %packed = constant <i8: 3> : tile<64xi8>
    %abs = absi %xi : tile<8xi32>
    %buf = alloca num_elem = 64, alignment = 16 : tile<ptr<f32>>
    %c0 = constant <f32: 0.0> : tile<2x4xf32>
    %c1 = constant <f32: [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tile<2x4xf32>
    %cat = cat %c0, %c1 dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>
    %pa = assume div_by<16>, %p : tile<ptr<f32>>
    %xd = assume div_by<4, every 2 along 0>, %xi : tile<8xi32>
    %nb = assume bounded<1, 4096>, %n : tile<i64>
    %xs = assume same_elements<[4]>, %xi : tile<8xi32>
    %tv = make_tensor_view %pa, shape = [%nb, 128], strides = [128, 1] : tile<i64> -> tensor_view<?x128xf32, strides=[128,1]>
    %m, %k = get_tensor_shape %tv : tensor_view<?x128xf32, strides=[128,1]> -> tile<i64>
    %sv = make_strided_view %tv : strided_view<tile=(8x8), traversal_strides=[4,4], padding_value = nan, tensor_view<?x128xf32, strides=[128,1]>>
    %pv = make_partition_view %tv : partition_view<tile=(8x8), padding_value = neg_inf, tensor_view<?x128xf32, strides=[128,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %t, %tok = load_view_tko relaxed device %pv[%bx, %by] optimization_hints = <sm_90 = {latency = 3}> : partition_view<tile=(8x8), padding_value = neg_inf, tensor_view<?x128xf32, strides=[128,1]>>, tile<i32> -> tile<8x8xf32>, token
    %d = mmaf_scaled %a, %b, %c, %sa, %sb : tile<128x128xf8E4M3FN>, tile<128x128xf8E4M3FN>, tile<128x128xf32>, tile<128x4xf8E8M0FNU>, tile<4x128xf8E8M0FNU>
    %u = unpack %packed : tile<64xi8> -> tile<128xf4E2M1FN>
    %mx = maxf %t, %t propagate_nan flush_to_zero : tile<8x8xf32>
    %sq = sqrt %mx rounding<approx> flush_to_zero : tile<8x8xf32>
    %ex = exp %sq rounding<approx> : tile<8x8xf32>
    %g = get_global @lut : tile<ptr<f32>>
    %gp = reshape %g : tile<ptr<f32>> -> tile<1xptr<f32>>
    %gb = broadcast %gp : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %io = iota : tile<4xi32>
    %off = offset %gb, %io : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %mask = constant <i1: [true, false, true, true]> : tile<4xi1>
    %pad = constant <f32: -1.5> : tile<4xf32>
    %lv, %ltok = load_ptr_tko weak %off, %mask, %pad token = %tok : tile<4xptr<f32>>, tile<4xi1>, tile<4xf32> -> tile<4xf32>, token
    %lo = constant <i32: 0> : tile<i32>
    %hi = constant <i32: 10> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %sum = for unsigned %i in (%lo to %hi, step %one) : tile<i32> iter_values(%acc = %lv) -> (tile<4xf32>) {
      %nx = addf %acc, %acc rounding<zero> : tile<4xf32>
      continue %nx : tile<4xf32>
    }
    %st = store_view_tko weak %ex, %pv[%bx, %by] token = %ltok : tile<8x8xf32>, partition_view<tile=(8x8), padding_value = neg_inf, tensor_view<?x128xf32, strides=[128,1]>>, tile<i32> -> token
    return
  }
}
