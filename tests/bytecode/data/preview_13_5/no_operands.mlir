entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0:2 = preview$call @my_func() : () -> (!cuda_tile.tile<f32>, !cuda_tile.token)
  return
}
