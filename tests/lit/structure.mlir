// Module-level items: globals, get_global, constants.

cuda_tile.module @globals {
  global constant @lut <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>
  global private @counter alignment = 64 <i32: 0> : tile<1xi32>
  entry @k() {
    %p = get_global @lut : tile<ptr<f32>>
    %c = get_global @counter : tile<ptr<i32>>
    return
  }
}

// -----

cuda_tile.module @bad_global_ref {
  entry @k() {
    // expected-error @below {{'cuda_tile.get_global' op 'missing' does not reference a valid global}}
    %p = get_global @missing : tile<ptr<f32>>
    return
  }
}

// -----

cuda_tile.module @constants {
  entry @k() {
    %s = constant <f32: 0.5> : tile<4x4xf32>
    %v = constant <i16: [1, 2, 3, 4]> : tile<4xi16>
    %b = constant <i1: [true, false]> : tile<2xi1>
    return
  }
}

// -----

cuda_tile.module @bad_literal {
  entry @k() {
    // expected-error @below {{tensor literal is invalid; ranks are not consistent between elements}}
    %v = constant <i32: [[1, 2], 3]> : tile<2x2xi32>
    return
  }
}
