// Shape ops, reduce/scan combiners, assume predicates and debug printing.

cuda_tile.module @shapes {
  testing$func @f(%row: tile<1x8xf32>, %m: tile<4x8xf32>, %v: tile<32xi16>, %tv: tensor_view<?x16xf32, strides=[?,1]>,
                  %pv: partition_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>>, %p: tile<ptr<f32>>) {
    %b = broadcast %row : tile<1x8xf32> -> tile<4x8xf32>
    %flat = reshape %m : tile<4x8xf32> -> tile<32xf32>
    %t = permute %m [1, 0] : tile<4x8xf32> -> tile<8x4xf32>
    %c = cat %m, %b dim = 0 : tile<4x8xf32>, tile<4x8xf32> -> tile<8x8xf32>
    %i0 = constant <i32: 1> : tile<i32>
    %part = extract %m[%i0, %i0] : tile<4x8xf32> -> tile<2x4xf32>
    %iota = iota : tile<16xi8>
    %bytes = pack %v : tile<32xi16> -> tile<64xi8>
    %x, %y, %z = get_tile_block_id : tile<i32>
    %nx, %ny, %nz = get_num_tile_blocks : tile<i32>
    %d:2 = get_tensor_shape %tv : tensor_view<?x16xf32, strides=[?,1]> -> tile<i64>
    %s:2 = get_index_space_shape %pv : partition_view<tile=(4x4), tensor_view<16x16xf32, strides=[16,1]>> -> tile<i32>
    %red:2 = reduce %m, %m dim=1 identities=[0.000000e+00 : f32, 0xFF800000 : f32] : tile<4x8xf32>, tile<4x8xf32> -> tile<4xf32>, tile<4xf32>
    (%a0: tile<f32>, %b0: tile<f32>, %a1: tile<f32>, %b1: tile<f32>) {
      %add = addf %a0, %b0 : tile<f32>
      %max = maxf %a1, %b1 : tile<f32>
      yield %add, %max : tile<f32>, tile<f32>
    }
    %pre = scan %flat dim=0 reverse=true identities=[0.000000e+00 : f32] : tile<32xf32> -> tile<32xf32>
    (%acc: tile<f32>, %e: tile<f32>) {
      %sum = addf %acc, %e : tile<f32>
      yield %sum : tile<f32>
    }
    %pa = assume div_by<16>, %p : tile<ptr<f32>>
    %va = assume bounded<0, ?>, %v : tile<32xi16>
    %vs = assume same_elements<[4]>, %v : tile<32xi16>
    %tok = print_tko "sum=%f at %d\n", %pre, %x : tile<32xf32>, tile<i32> -> token
    %tok2 = print_tko "done" token=%tok -> token
    %ok = constant <i1: true> : tile<4xi1>
    assert %ok, "all good" : tile<4xi1>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%m: tile<4x8xf32>) {
    // expected-error @below {{'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of the result tile, but got: 4, 8 and 2, 8}}
    %b = broadcast %m : tile<4x8xf32> -> tile<2x8xf32>
    // expected-error @below {{'cuda_tile.reshape' op expected source tile and result tile to have the same number of elements}}
    %r = reshape %m : tile<4x8xf32> -> tile<16xf32>
    // expected-error @below {{'cuda_tile.permute' op result shape invalid at index 0, expected: 8, but got: 4}}
    %p = permute %m [1, 0] : tile<4x8xf32> -> tile<4x8xf32>
    // expected-error @below {{'cuda_tile.cat' op invalid concat at position 1, expected: 16 but got: 8}}
    %c = cat %m, %m dim = 1 : tile<4x8xf32>, tile<4x8xf32> -> tile<4x8xf32>
    // expected-error @below {{'cuda_tile.extract' op expected 2 indices, but got 0}}
    %e = extract %m[] : tile<4x8xf32> -> tile<2x4xf32>
    // expected-error @below {{'cuda_tile.iota' op the number of elements 4 exceeds the maximum value of element type 'i1'}}
    %i = iota : tile<4xi1>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%m: tile<4x8xf32>) {
    // expected-error @below {{'cuda_tile.reduce' op inferred type(s) '!cuda_tile.tile<8xf32>' are incompatible with return type(s) of operation '!cuda_tile.tile<4xf32>'}}
    %r = reduce %m dim=0 identities=[0.000000e+00 : f32] : tile<4x8xf32> -> tile<4xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      %s = addf %a, %b : tile<f32>
      yield %s : tile<f32>
    }
    // expected-error @below {{'cuda_tile.scan' op expect 2 block arguments but got: 1}}
    %c = scan %m dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<4x8xf32> -> tile<4x8xf32>
    (%a: tile<f32>) {
      yield %a : tile<f32>
    }
    // expected-error @below {{'cuda_tile.reduce' op expect identities to match the number of operands but got: 1 operands and 2 identities}}
    %d = reduce %m dim=1 identities=[0.000000e+00 : f32, 1.000000e+00 : f32] : tile<4x8xf32> -> tile<4xf32>
    (%a: tile<f32>, %b: tile<f32>) {
      yield %a : tile<f32>
    }
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%v: tile<8xi32>, %f: tile<8xf32>) {
    // expected-error @below {{'cuda_tile.assume' op 'cuda_tile.div_by' divisor must be a power of 2}}
    %a = assume div_by<12>, %v : tile<8xi32>
    // expected-error @below {{'cuda_tile.assume' op 'cuda_tile.bounded' is valid only for tile of integer values}}
    %b = assume bounded<0, 1>, %f : tile<8xf32>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%v: tile<8xi32>) {
    // expected-error @below {{unknown assume predicate attribute: positive (expected 'div_by', 'same_elements', or 'bounded')}}
    %c = assume positive, %v : tile<8xi32>
  }
}

// -----

cuda_tile.module @m {
  testing$func @f(%v: tile<8xi32>) {
    // expected-error @below {{'cuda_tile.print_tko' op incorrect number of operands: expected 2, found 1}}
    %t = print_tko "%d and %d", %v : tile<8xi32> -> token
    // expected-error @below {{'cuda_tile.print_tko' op found unterminated format expression}}
    %u = print_tko "100%", %v : tile<8xi32> -> token
  }
}
