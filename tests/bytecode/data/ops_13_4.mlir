// Tile IR 13.4 additions (and 13.5's inbounds on atomic_red_view_tko): grid dependency control
// with and without a token, the alias proxy fence, fpowi over every exponent width and float
// type, insert in one and two dimensions, inbounds flags on view loads, stores and reductions.
cuda_tile.module @ops_13_4 {
  entry @ops_13_4(%p: tile<ptr<f32>>, %n: tile<i32>) {
    %t0 = make_token : token
    %w = gdc_wait_tko token = %t0 -> token
    %w2 = gdc_wait_tko -> token
    %l = gdc_launch_dependents_tko -> token
    %l2 = gdc_launch_dependents_tko token = %w -> token
    %fa = memory_fence_alias_tko %l2
    %xi = iota : tile<8xi32>
    %x = itof %xi signed : tile<8xi32> -> tile<8xf32>
    %e = reshape %n : tile<i32> -> tile<1xi32>
    %b = broadcast %e : tile<1xi32> -> tile<8xi32>
    %r32 = fpowi %x, %b : tile<8xf32>, tile<8xi32>
    %b16 = trunci %b : tile<8xi32> -> tile<8xi16>
    %h = ftof %x : tile<8xf32> -> tile<8xf16>
    %r16 = fpowi %h, %b16 : tile<8xf16>, tile<8xi16>
    %b8 = trunci %b : tile<8xi32> -> tile<8xi8>
    %bf = ftof %x : tile<8xf32> -> tile<8xbf16>
    %rbf = fpowi %bf, %b8 : tile<8xbf16>, tile<8xi8>
    %b1 = trunci %b : tile<8xi32> -> tile<8xi1>
    %d = ftof %x : tile<8xf32> -> tile<8xf64>
    %r64 = fpowi %d, %b1 : tile<8xf64>, tile<8xi1>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %s = extract %r32[%c0] : tile<8xf32> -> tile<4xf32>
    %ins = insert %s, %x[%c1] : tile<4xf32>, tile<8xf32>
    %m = constant <f32: 0.0> : tile<8x16xf32>
    %q = constant <f32: 1.0> : tile<2x4xf32>
    %ins2 = insert %q, %m[%c1, %c1] : tile<2x4xf32>, tile<8x16xf32>
    %tv = make_tensor_view %p, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf32, strides=[64,1]>
    %pv = make_partition_view %tv : partition_view<tile=(8x16), tensor_view<128x64xf32, strides=[64,1]>>
    %ld, %lt = load_view_tko weak %pv[%c0, %c1] token = %fa optimization_hints = <sm_100 = {latency = 3}> inbounds = [true, false] : partition_view<tile=(8x16), tensor_view<128x64xf32, strides=[64,1]>>, tile<i32> -> tile<8x16xf32>, token
    %st = store_view_tko weak %ins2, %pv[%c1, %c0] token = %lt inbounds = [true, true] : tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<128x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }
}
