// Memory, view, token, atomic and mma ops: syntax, round trips and NVIDIA's checks.

cuda_tile.module @memory {
  testing$func @f(%base: tile<ptr<f32>>, %n: tile<i64>, %c: tile<i32>, %idx: tile<8xi32>,
                  %ptrs: tile<16xptr<f32>>, %mask: tile<16xi1>, %v: tile<16xf32>, %iptrs: tile<16xptr<i32>>, %iv: tile<16xi32>) {
    %t0 = make_token : token
    %tv = make_tensor_view %base, shape = [%n, 16], strides = [16, 1] : tile<i64> -> tensor_view<?x16xf32, strides=[16,1]>
    %pv = make_partition_view %tv : partition_view<tile=(8x16), padding_value = nan, tensor_view<?x16xf32, strides=[16,1]>, dim_map=[1, 0]>
    %sv = make_strided_view %tv : strided_view<tile=(8x16), traversal_strides=[4,16], tensor_view<?x16xf32, strides=[16,1]>>
    %gv = make_gather_scatter_view %tv : gather_scatter_view<tile=(8x16), tensor_view<?x16xf32, strides=[16,1]>, sparse_dim=0>
    %a, %ta = load_view_tko weak %sv[%c, %c] token = %t0 : strided_view<tile=(8x16), traversal_strides=[4,16], tensor_view<?x16xf32, strides=[16,1]>>, tile<i32> -> tile<8x16xf32>, token
    %b, %tb = load_view_tko relaxed device %gv[%idx, %c] optimization_hints = <sm_100 = {latency = 3}> : gather_scatter_view<tile=(8x16), tensor_view<?x16xf32, strides=[16,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> tile<8x16xf32>, token
    %tc = store_view_tko release tl_blk %a, %gv[%idx, %c] attributes {note = "x"} : tile<8x16xf32>, gather_scatter_view<tile=(8x16), tensor_view<?x16xf32, strides=[16,1]>, sparse_dim=0>, tile<8xi32>, tile<i32> -> token
    %td = atomic_red_view_tko relaxed device %sv[%c, %c], addf, %b token = %tc : tile<8x16xf32>, strided_view<tile=(8x16), traversal_strides=[4,16], tensor_view<?x16xf32, strides=[16,1]>>, tile<i32> -> token
    %x, %tx = load_ptr_tko acquire sys %ptrs, %mask, %v token=%td : tile<16xptr<f32>>, tile<16xi1>, tile<16xf32> -> tile<16xf32>, token
    %ty = store_ptr_tko weak %ptrs, %x, %mask : tile<16xptr<f32>>, tile<16xf32>, tile<16xi1> -> token
    %old, %tz = atomic_cas_tko acq_rel device %iptrs, %iv, %iv, %mask token=%ty : tile<16xptr<i32>>, tile<16xi32>, tile<16xi1> -> tile<16xi32>, token
    %sum, %tw = atomic_rmw_tko release sys %ptrs, xchg, %x : tile<16xptr<f32>>, tile<16xf32> -> tile<16xf32>, token
    %all = join_tokens %ta, %tb, %tz, %tw : token
    %q = offset %ptrs, %iv : tile<16xptr<f32>>, tile<16xi32> -> tile<16xptr<f32>>
    %scratch = alloca num_elem = 32, alignment = 8 global : tile<ptr<f32>>
  }

  testing$func @mma(%a: tile<2x64x64xf4E2M1FN>, %acc: tile<2x64x64xf32>, %sa: tile<2x64x4xf8E4M3FN>, %sb: tile<2x4x64xf8E4M3FN>,
                    %i: tile<4x8xi8>, %j: tile<8x2xi8>, %k: tile<4x2xi32>, %h: tile<4x8xf16>, %g: tile<8x2xf16>, %e: tile<4x2xf16>) {
    %0 = mmaf_scaled %a, %a, %acc, %sa, %sb : tile<2x64x64xf4E2M1FN>, tile<2x64x64xf4E2M1FN>, tile<2x64x64xf32>, tile<2x64x4xf8E4M3FN>, tile<2x4x64xf8E4M3FN>
    %1 = mmai %i, %j, %k unsigned signed : tile<4x8xi8>, tile<8x2xi8>, tile<4x2xi32>
    %2 = mmaf %h, %g, %e : tile<4x8xf16>, tile<8x2xf16>, tile<4x2xf16>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%base: tile<ptr<f32>>, %n: tile<i64>) {
    // expected-error @below {{expected shape declaration to contain 2 elements due to tensor_view type, but 1 were provided}}
    %tv = make_tensor_view %base, shape = [%n], strides = [16, 1] : tile<i64> -> tensor_view<?x16xf32, strides=[16,1]>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%base: tile<ptr<f32>>) {
    // expected-error @below {{input stride dimension 0 does not match tensor_view type (expected 16, got 8)}}
    %tv = make_tensor_view %base, shape = [4, 16], strides = [8, 1] : tensor_view<4x16xf32, strides=[16,1]>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%base: tile<ptr<f32>>) {
    // expected-error @below {{expected either integer or SSA value}}
    %tv = make_tensor_view %base, shape = [4, ?], strides = [16, 1] : tensor_view<4x16xf32, strides=[16,1]>
  }
}

// -----

cuda_tile.module @m {
  // expected-error @below {{expected 2 traversal strides, got 1}}
  testing$func @f(%sv: strided_view<tile=(8x16), traversal_strides=[4], tensor_view<64x16xf32, strides=[16,1]>>) {
  }
}

// -----

cuda_tile.module @m {
  // expected-error @below {{gather dimension is outside of tensor view dimensions, expected strictly less than 2, got 2}}
  testing$func @f(%gv: gather_scatter_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>, sparse_dim=2>) {
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%gv: gather_scatter_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>, sparse_dim=0>, %idx: tile<4xi32>, %c: tile<i32>) {
    // expected-error @below {{expected gather/scatter index size (4) to match tile shape at gather/scatter dimension 0 (8)}}
    %a, %t = load_view_tko weak %gv[%idx, %c] : gather_scatter_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>, sparse_dim=0>, tile<4xi32>, tile<i32> -> tile<8x16xf32>, token
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%pv: partition_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>>, %c: tile<i32>, %d: tile<i64>) {
    // expected-error @below {{expected index type 1 to be the same as other index types ('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'}}
    %a, %t = load_view_tko weak %pv[%c, %d] : partition_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>>, tile<i32>, tile<i64> -> tile<8x16xf32>, token
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%pv: partition_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>>, %c: tile<i32>) {
    // expected-error @below {{expected tile type to be '!cuda_tile.tile<8x16xf32>' (based on view type), got '!cuda_tile.tile<8x8xf32>'}}
    %a, %t = load_view_tko weak %pv[%c, %c] : partition_view<tile=(8x16), tensor_view<64x16xf32, strides=[16,1]>>, tile<i32> -> tile<8x8xf32>, token
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%p: tile<16xptr<i32>>, %v: tile<16xi32>) {
    // expected-error @below {{expected string or keyword containing one of the following enum values for attribute 'memory_scope' [tl_blk, device, sys]}}
    %o, %t = atomic_rmw_tko relaxed %p, add, %v : tile<16xptr<i32>>, tile<16xi32> -> tile<16xi32>, token
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%p: tile<16xptr<f32>>, %v: tile<16xf32>) {
    // expected-error @below {{'umax' works only with integers i32 and i64}}
    %o, %t = atomic_rmw_tko relaxed device %p, umax, %v : tile<16xptr<f32>>, tile<16xf32> -> tile<16xf32>, token
  }
}

// -----

cuda_tile.module @m {
  entry @f() {
    // expected-error @below {{op result #0 must be 0D tile of Pointer type values, but got '!cuda_tile.tile<4xptr<f32>>'}}
    %0 = alloca num_elem = 64, alignment = 16 : tile<4xptr<f32>>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%a: tile<128x128xf8E4M3FN>, %b: tile<128x128xf4E2M1FN>, %acc: tile<128x128xf32>, %s: tile<128x4xf8E8M0FNU>, %t: tile<4x128xf8E8M0FNU>) {
    // expected-error @below {{op failed to verify that all of {lhs, rhs} have the same element type}}
    %0 = mmaf_scaled %a, %b, %acc, %s, %t : tile<128x128xf8E4M3FN>, tile<128x128xf4E2M1FN>, tile<128x128xf32>, tile<128x4xf8E8M0FNU>, tile<4x128xf8E8M0FNU>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%a: tile<4x8xi8>, %b: tile<8x2xi8>, %c: tile<4x2xi32>) {
    // expected-error @below {{expected signedness to be one of: {'signed', 'unsigned'}}}
    %0 = mmai %a, %b, %c signed maybe : tile<4x8xi8>, tile<8x2xi8>, tile<4x2xi32>
  }
}
