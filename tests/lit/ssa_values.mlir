// Value-level errors the parser reports, with MLIR's wording.

cuda_tile.module @undeclared {
  entry @k(%a: tile<f32>) {
    %b = constant <f32: 1.0> : tile<f32>
    // expected-error @below {{use of undeclared SSA value name}}
    "t.use"(%nope) : (!cuda_tile.tile<f32>) -> ()
    return
  }
}

// -----

cuda_tile.module @redefinition {
  entry @k(%a: tile<f32>) {
    // expected-note @below {{previously defined here}}
    %b = constant <f32: 1.0> : tile<f32>
    // expected-error @below {{redefinition of SSA value '%b'}}
    %b = constant <f32: 2.0> : tile<f32>
    return
  }
}

// -----

cuda_tile.module @type_mismatch {
  // expected-note @below {{prior use here}}
  entry @k(%a: tile<f32>) {
    // expected-error @below {{use of value '%a' expects different type than prior uses: '!cuda_tile.tile<i32>' vs '!cuda_tile.tile<f32>'}}
    "t.use"(%a) : (!cuda_tile.tile<i32>) -> ()
    return
  }
}

// -----

cuda_tile.module @result_count {
  entry @k() {
    // expected-error @below {{operation defines 1 results but was provided 2 to bind}}
    %x, %y = constant <i32: 1> : tile<i32>
    return
  }
}

// -----

// Forward references inside a region resolve when the definition follows.
cuda_tile.module @valid_generic {
  entry @k(%a: tile<f32>) {
    %r = "t.id"(%a) : (!cuda_tile.tile<f32>) -> !cuda_tile.tile<f32>
    return
  }
}

// -----

cuda_tile.module @use_before_def {
  entry @k(%a: tile<f32>) {
    // expected-error @below {{'cuda_tile.addf' op operand #1 does not dominate this use}}
    %b = addf %a, %later : tile<f32>
    // expected-note @below {{operand defined here}}
    %later = mulf %a, %a : tile<f32>
    return
  }
}
