entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0:2 = preview$call @"nvshmem tile.put"(%arg0, %arg1) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
  return
}
