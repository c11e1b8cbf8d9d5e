// partition_view type checks (NVIDIA's PartitionViewType::verify runs when the type is parsed).

cuda_tile.module @ok {
  testing$func @f(%a: !cuda_tile.partition_view<tile=(2x4), padding_value = nan, tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>) {
    return
  }
}

// -----

cuda_tile.module @not_pow2 {
  // expected-error @below {{tile shape dimensions must have power of two length but got [3]}}
  testing$func @f(%a: !cuda_tile.partition_view<tile=(3), tensor_view<16xf32, strides=[1]>>) {
    return
  }
}

// -----

cuda_tile.module @dup_dim_map {
  // expected-error @below {{target dimension 0 mapped at least twice (for tile dimensions 0 and 1)}}
  testing$func @f(%a: !cuda_tile.partition_view<tile=(2x2), tensor_view<16x16xf32, strides=[16,1]>, dim_map=[0, 0]>) {
    return
  }
}

// -----

cuda_tile.module @int_nan_padding {
  // expected-error @below {{padding_value nan can only be used with floating point element types, got 'i32'}}
  testing$func @f(%a: !cuda_tile.partition_view<tile=(2), padding_value = nan, tensor_view<16xi32, strides=[1]>>) {
    return
  }
}

// -----

cuda_tile.module @rank_mismatch {
  // expected-error @below {{expected tensor_view rank and tile rank to match, got tensor_view of rank 2 and tiles of rank 1}}
  testing$func @f(%a: !cuda_tile.partition_view<tile=(2), tensor_view<16x16xf32, strides=[16,1]>>) {
    return
  }
}
