// 13.5: pointer attributes (<none> since 13.4, <unicast>/<multicast> since 13.5), make_tensor_view
// with its source type spelled, and the multimem view ops over a multicast view; reductions other
// than add are spelled in the attribute dictionary.
cuda_tile.module @multimem_13_5 {
  entry @multimem_13_5(%p: tile<ptr<i32, <multicast>>>, %q: tile<ptr<f32, <multicast>>>, %u: tile<ptr<f32, <unicast>>>, %n: tile<ptr<f32, <none>>>, %k: tile<i64>) {
    %tv = make_tensor_view %p, shape = [%k], strides = [1] : tile<ptr<i32, <multicast>>>, tile<i64> -> tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %fv = make_tensor_view %q, shape = [1024], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
    %fpv = make_partition_view %fv : partition_view<tile=(64), tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
    %uv = make_tensor_view %u, shape = [1024], strides = [1] : tile<ptr<f32, <unicast>>> -> tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>
    %nv = make_tensor_view %n, shape = [1024], strides = [1] : tile<ptr<f32, <none>>> -> tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<none>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %t0 = make_token : token
    %a, %ta = multimem_load_reduce_view_tko relaxed sys %pv[%c0] token = %t0 inbounds = [true] attributes {reduction = #cuda_tile.multimem_reduction_kind<umax>} : partition_view<tile=(64), tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32>, token -> tile<64xi32>, token
    %tb = multimem_reduce_view_tko release device %pv, %a[%c1] token = %ta attributes {reduction = #cuda_tile.multimem_reduction_kind<xor>} : partition_view<tile=(64), tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xi32>, tile<i32>, token -> token
    %f, %tf = multimem_load_reduce_view_tko weak %fpv[%c0] : partition_view<tile=(64), tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32> -> tile<64xf32>, token
    %tg = multimem_reduce_view_tko relaxed tl_blk %fpv, %f[%c1] : partition_view<tile=(64), tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32> -> token
    %th = multimem_store_view_tko release sys %fpv, %f[%c0] token = %tg : partition_view<tile=(64), tensor_view<1024xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token
    %ti = multimem_store_view_tko weak %pv, %a[%c0] inbounds = [true] : partition_view<tile=(64), tensor_view<?xi32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xi32>, tile<i32> -> token
    return
  }
}
