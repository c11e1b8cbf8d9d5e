// A hand-written llvm-dialect kernel exercising what the back half emits: special-register
// intrinsics, GEPs on global and shared pointers, atomics, cmpxchg, fences, inline PTX,
// globals, a loop with block arguments (phis), vectors, structs and a libdevice call.
module {
  gpu.module @kernels {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<128 x f32>
    llvm.mlir.global internal constant @fmt("v=%f\0A\00") {addr_space = 0 : i32}
    llvm.mlir.global internal @counter(0 : i32) {addr_space = 1 : i32} : i32
    llvm.func @__nv_expf(f32) -> f32
    llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
    llvm.func @axpy(%x: !llvm.ptr<1> {llvm.noalias}, %y: !llvm.ptr<1>, %a: f32, %n: i32) attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
      %tid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i32
      %ctaid = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %base = llvm.mul %ctaid, %c128 : i32
      %i = llvm.add %base, %tid : i32
      %inb = llvm.icmp "slt" %i, %n : i32
      llvm.cond_br %inb, ^body, ^exit
    ^body:
      %px = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %vx = llvm.load %px {alignment = 4 : i64} : !llvm.ptr<1> -> f32
      %e = llvm.call @__nv_expf(%vx) : (f32) -> f32
      %sm = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %ps = llvm.getelementptr inbounds %sm[0, %tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<128 x f32>
      llvm.store %e, %ps {alignment = 4 : i64} : f32, !llvm.ptr<3>
      llvm.inline_asm has_side_effects asm_dialect = att "bar.sync 0;", "" : () -> ()
      %c1 = llvm.mlir.constant(1 : i32) : i32
      %t1 = llvm.add %tid, %c1 : i32
      %c127 = llvm.mlir.constant(127 : i32) : i32
      %t2 = llvm.and %t1, %c127 : i32
      %ps2 = llvm.getelementptr inbounds %sm[0, %t2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<128 x f32>
      %nb = llvm.load %ps2 {alignment = 4 : i64} : !llvm.ptr<3> -> f32
      %c0f = llvm.mlir.constant(0.0 : f32) : f32
      %c0 = llvm.mlir.constant(0 : i32) : i32
      %c4 = llvm.mlir.constant(4 : i32) : i32
      llvm.br ^loop(%c0, %c0f : i32, f32)
    ^loop(%k: i32, %acc: f32):
      %more = llvm.icmp "slt" %k, %c4 : i32
      llvm.cond_br %more, ^step, ^done
    ^step:
      %kf = llvm.sitofp %k : i32 to f32
      %t = llvm.fmul %kf, %a : f32
      %acc2 = llvm.intr.fma(%t, %nb, %acc) : (f32, f32, f32) -> f32
      %k2 = llvm.add %k, %c1 : i32
      llvm.br ^loop(%k2, %acc2 : i32, f32)
    ^done:
      %py = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %old = llvm.atomicrmw fadd %py, %acc syncscope("device") monotonic {alignment = 4 : i64} : !llvm.ptr<1>, f32
      %cnt = llvm.mlir.addressof @counter : !llvm.ptr<1>
      %prev = llvm.atomicrmw add %cnt, %c1 monotonic : !llvm.ptr<1>, i32
      %pair = llvm.cmpxchg %cnt, %prev, %c0 acq_rel monotonic : !llvm.ptr<1>, i32
      %won = llvm.extractvalue %pair[1] : !llvm.struct<(i32, i1)>
      llvm.fence syncscope("device") release
      %u = llvm.mlir.undef : vector<2xf32>
      %v0 = llvm.insertelement %acc, %u[%c0 : i32] : vector<2xf32>
      %v1 = llvm.insertelement %old, %v0[%c1 : i32] : vector<2xf32>
      %vs = llvm.fadd %v1, %v1 : vector<2xf32>
      %lane = llvm.inline_asm "mov.u32 $0, %laneid;", "=r" : () -> i32
      %l0 = llvm.icmp "eq" %lane, %c0 : i32
      %both = llvm.and %l0, %won : i1
      llvm.cond_br %both, ^print, ^exit
    ^print:
      %s0 = llvm.extractelement %vs[%c0 : i32] : vector<2xf32>
      %d = llvm.fpext %s0 : f32 to f64
      %one = llvm.mlir.constant(1 : i64) : i64
      %buf = llvm.alloca %one x !llvm.struct<(f64)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
      %u2 = llvm.mlir.undef : !llvm.struct<(f64)>
      %st = llvm.insertvalue %d, %u2[0] : !llvm.struct<(f64)>
      llvm.store %st, %buf : !llvm.struct<(f64)>, !llvm.ptr
      %f = llvm.mlir.addressof @fmt : !llvm.ptr
      %r = llvm.call @vprintf(%f, %buf) : (!llvm.ptr, !llvm.ptr) -> i32
      llvm.br ^exit
    ^exit:
      llvm.return
    }
  }
}
