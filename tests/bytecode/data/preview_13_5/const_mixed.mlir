entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0 = make_token : token
  %1:2 = preview$call @my_func<[3, i32, "mode"]>(%arg0, %arg1, %0) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>, !cuda_tile.token) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
  return
}
