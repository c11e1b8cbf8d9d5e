// 13.5: inbounds flags on atomic_red_view_tko.
cuda_tile.module @ops_13_5 {
  entry @ops_13_5(%p: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf32, strides=[64,1]>
    %pv = make_partition_view %tv : partition_view<tile=(16x64), tensor_view<128x64xf32, strides=[64,1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %v = constant <f32: 1.0> : tile<16x64xf32>
    %t0 = make_token : token
    %t = atomic_red_view_tko relaxed device %pv[%c0, %c0], addf, %v token = %t0 inbounds = [true, false] : tile<16x64xf32>, partition_view<tile=(16x64), tensor_view<128x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }
}
