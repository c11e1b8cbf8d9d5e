// Control flow: if / for / loop, their terminators, and the early-exit rules.

cuda_tile.module @structured {
  entry @k(%n: tile<i32>, %flag: tile<i1>) {
    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %fzero = constant <f32: 0.0> : tile<f32>
    // An `if` without results needs no yield; one with results yields in both branches.
    if %flag {
    }
    %sel:2 = if %flag -> (tile<i32>, tile<f32>) {
      yield %one, %fzero : tile<i32>, tile<f32>
    } else {
      yield %zero, %fzero : tile<i32>, tile<f32>
    }
    %sum = for %i in (%zero to %n, step %one) : tile<i32> iter_values(%acc = %zero) -> (tile<i32>) {
      %next = addi %acc, %i : tile<i32>
      if %flag {
        continue %acc : tile<i32>
      }
      continue %next : tile<i32>
    }
    for unsigned %j in (%zero to %n, step %one) : tile<i32> {
    }
    %found:2 = loop iter_values(%k = %zero) : tile<i32> -> tile<i32>, tile<i1> {
      if %flag {
        break %k, %flag : tile<i32>, tile<i1>
      }
      %k1 = addi %k, %one : tile<i32>
      continue %k1 : tile<i32>
    }
    %r = loop : tile<f32> {
      break %fzero : tile<f32>
    }
    loop {
      break
    }
    return
  }
}

// -----

cuda_tile.module @early_return {
  entry @k(%c: tile<i1>) {
    if %c {
      return
    }
    return
  }
}

// -----

// The generic form of an `if` without else has an empty second region.
%c = "cuda_tile.constant"() <{value = #cuda_tile.dense<i1: true>}> : () -> !cuda_tile.tile<i1>
"cuda_tile.if"(%c) ({
  "cuda_tile.yield"() : () -> ()
}, {
}) : (!cuda_tile.tile<i1>) -> ()

// -----

// expected-error @below {{expects parent op to be one of 'cuda_tile.if, cuda_tile.reduce, cuda_tile.scan'}}
cuda_tile.yield

// -----

cuda_tile.module @m {
  entry @k(%c: tile<i1>) {
    if %c {
      // expected-error @below {{'cuda_tile.continue' op can only be nested within a ancestor chain of 'cuda_tile.for', 'cuda_tile.loop', 'cuda_tile.if' operations}}
      continue
    }
    loop {
      %x = constant <i32: 0> : tile<i32>
      for %i in (%x to %x, step %x) : tile<i32> {
        if %c {
          // expected-error @below {{'cuda_tile.break' op can only be nested within a ancestor chain of 'cuda_tile.loop', 'cuda_tile.if' operations}}
          break
        }
      }
    }
    return
  }
}

// -----

cuda_tile.module @m {
  entry @k(%c: tile<i1>, %v: tile<i32>) {
    %r = loop : tile<i32> {
      // expected-error @below {{operand types must correspond to the parent loop result types: ('!cuda_tile.tile<i1>') vs ('!cuda_tile.tile<i32>')}}
      break %c : tile<i1>
    }
    return
  }
}

// -----

cuda_tile.module @m {
  entry @k(%c: tile<i1>, %v: tile<i32>) {
    // expected-error @below {{'cuda_tile.if' op has non-empty return type, must define else branch}}
    %r = if %c -> (tile<i32>) {
      yield %v : tile<i32>
    }
    return
  }
}

// -----

cuda_tile.module @m {
  entry @k(%c: tile<i1>, %v: tile<i32>) {
    %zero = constant <f32: 0.0> : tile<f32>
    // expected-error @below {{`for` is missing a valid terminator. `continue` op should have operand types that match the parent loop return types: ('!cuda_tile.tile<f32>'), but found: ()}}
    %r = for %i in (%v to %v, step %v) : tile<i32> iter_values(%a = %zero) -> (tile<f32>) {
    }
    return
  }
}

// -----

cuda_tile.module @m {
  entry @k(%v: tile<i32>) {
    // expected-error @below {{mismatch in number of loop-carried values and defined values}}
    %r = for %i in (%v to %v, step %v) : tile<i32> iter_values(%a = %v) -> (tile<i32>, tile<i32>) {
    }
    return
  }
}

// -----

cuda_tile.module @m {
  entry @k(%v: tile<i64>, %w: tile<i32>) {
    // expected-error @below {{use of value '%w' expects different type than prior uses: '!cuda_tile.tile<i64>' vs '!cuda_tile.tile<i32>'}}
    for %i in (%v to %w, step %v) : tile<i64> {
    }
    return
  }
}

// -----

cuda_tile.module @m {
  entry @k() {
    // expected-error @below {{expected valid keyword}}
    loop iter_values() : {
    }
    return
  }
}
