// A block-wide sum in upstream gpu/arith/memref MLIR, the input the back half of
// tile-lsp's pipeline starts from (stage `nvvm`, see ../shared/design/PIPELINE.md):
//   tile-lsp compile examples/block_sum.mlir --gpu-name sm_90a --emit ptx
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[block] = sum over the block's 128 elements of exp(x[i]), via shared memory.
    gpu.func @block_sum(%x: memref<4096xf32, 1>, %out: memref<32xf32, 1>)
        workgroup(%buf: memref<128xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base = arith.muli %bid, %c128 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<4096xf32, 1>
      %e = math.exp %v : f32
      memref.store %e, %buf[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %is_first = arith.cmpi eq, %tid, %c0 : index
      scf.if %is_first {
        %zero = arith.constant 0.0 : f32
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
          %t = memref.load %buf[%k] : memref<128xf32, #gpu.address_space<workgroup>>
          %acc2 = arith.addf %acc, %t : f32
          scf.yield %acc2 : f32
        }
        memref.store %sum, %out[%bid] : memref<32xf32, 1>
      }
      gpu.return
    }
  }
}
