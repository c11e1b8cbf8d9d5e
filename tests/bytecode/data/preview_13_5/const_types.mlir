entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0:2 = preview$call @my_func<[f32, !cuda_tile.tile<4xi32>, !cuda_tile.token]>(%arg0, %arg1) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
  return
}
