// The same shape of kernel with two mistakes: a typo'd value name and a type mismatch.
cuda_tile.module @examples {
  entry @broken(%a: tile<ptr<f32>>) {
    %x = constant <f32: 1.0> : tile<4xf32>
    %y = constant <f16: 2.0> : tile<4xf16>
    %sum = addf %x, %yy : tile<4xf32>
    %bad = addf %x, %y : tile<4xf32>
    return
  }
  entry @still_fine() {
    %c = constant <i32: 7> : tile<i32>
    return
  }
}
