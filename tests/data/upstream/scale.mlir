module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: memref<128xf32, 1>, %s: f32) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %a[%tid] : memref<128xf32, 1>
      %r = arith.mulf %v, %s : f32
      memref.store %r, %a[%tid] : memref<128xf32, 1>
      gpu.return
    }
  }
}
