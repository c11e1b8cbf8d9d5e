entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0:2 = preview$call @my_func<[42, -7, 0, 1099511627776, 9223372036854775807, -9223372036854775808]>(%arg0, %arg1) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
  return
}
