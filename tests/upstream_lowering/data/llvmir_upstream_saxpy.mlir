// upstream mlir-opt 22 output for a gpu.func saxpy kernel (--convert-scf-to-cf --convert-gpu-to-nvvm=
// use-bare-ptr-memref-call-conv=1 --convert-nvvm-to-llvm --reconcile-unrealized-casts), with the remaining
// nvvm ops written as the llvm.call_intrinsic our nvvm -> llvm stage produces.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @__nv_fmaf(f32, f32, f32) -> f32
    llvm.func @saxpy(%arg0: f32, %arg1: !llvm.ptr, %arg2: !llvm.ptr) attributes {gpu.kernel, gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
      %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %1 = llvm.insertvalue %arg2, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %2 = llvm.insertvalue %arg2, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %3 = llvm.mlir.constant(0 : index) : i64
      %4 = llvm.insertvalue %3, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %5 = llvm.mlir.constant(1024 : index) : i64
      %6 = llvm.insertvalue %5, %4[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %7 = llvm.mlir.constant(1 : index) : i64
      %8 = llvm.insertvalue %7, %6[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %9 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %10 = llvm.insertvalue %arg1, %9[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %11 = llvm.insertvalue %arg1, %10[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %12 = llvm.mlir.constant(0 : index) : i64
      %13 = llvm.insertvalue %12, %11[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %14 = llvm.mlir.constant(1024 : index) : i64
      %15 = llvm.insertvalue %14, %13[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %16 = llvm.mlir.constant(1 : index) : i64
      %17 = llvm.insertvalue %16, %15[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %18 = llvm.mlir.constant(1 : index) : i64
      %19 = llvm.mlir.constant(4 : index) : i64
      %20 = llvm.mlir.constant(0 : index) : i64
      %21 = llvm.mlir.constant(32 : i32) : i32
      %22 = llvm.mlir.constant(1 : i32) : i32
      %23 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
      %24 = llvm.sext %23 : i32 to i64
      %25 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
      %26 = llvm.sext %25 : i32 to i64
      %27 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ntid.x"() : () -> i32
      %28 = llvm.sext %27 : i32 to i64
      %29 = llvm.mul %26, %28 : i64
      %30 = llvm.add %29, %24 : i64
      %31 = llvm.extractvalue %17[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %32 = llvm.getelementptr inbounds|nuw %31[%30] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %33 = llvm.load %32 : !llvm.ptr -> f32
      %34 = llvm.extractvalue %8[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %35 = llvm.getelementptr inbounds|nuw %34[%30] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %36 = llvm.load %35 : !llvm.ptr -> f32
      %37 = llvm.call @__nv_expf(%33) : (f32) -> f32
      %38 = llvm.call @__nv_fmaf(%arg0, %37, %36) : (f32, f32, f32) -> f32
      %39 = llvm.intr.maximum(%38, %36) : (f32, f32) -> f32
      %40 = llvm.fcmp "olt" %39, %arg0 : f32
      %41 = llvm.select %40, %39, %arg0 : i1, f32
      %42 = llvm.mlir.constant(1 : i32) : i32
      %43 = llvm.mlir.constant(-1 : i32) : i32
      %44 = llvm.mlir.constant(32 : i32) : i32
      %45 = llvm.sub %44, %21 : i32
      %46 = llvm.lshr %43, %45 : i32
      %47 = llvm.sub %21, %42 : i32
      %48 = llvm.call_intrinsic "llvm.nvvm.shfl.sync.bfly.f32"(%46, %41, %22, %47) : (i32, f32, i32, i32) -> f32
      llvm.br ^bb1(%20, %48 : i64, f32)
    ^bb1(%49: i64, %50: f32):  // 2 preds: ^bb0, ^bb2
      %51 = llvm.icmp "slt" %49, %19 : i64
      llvm.cond_br %51, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %52 = llvm.trunc %49 : i64 to i32
      %53 = llvm.sitofp %52 : i32 to f32
      %54 = llvm.fadd %50, %53 : f32
      %55 = llvm.add %49, %18 : i64
      llvm.br ^bb1(%55, %54 : i64, f32)
    ^bb3:  // pred: ^bb1
      llvm.call_intrinsic "llvm.nvvm.barrier.cta.sync.aligned.all"(%42) : (i32) -> ()
      %56 = llvm.extractvalue %8[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %57 = llvm.getelementptr %56[%30] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %58 = llvm.atomicrmw fadd %57, %50 acq_rel : !llvm.ptr, f32
      %59 = llvm.extractvalue %8[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %60 = llvm.getelementptr inbounds|nuw %59[%30] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %50, %60 : f32, !llvm.ptr
      llvm.return
    }
  }
}

