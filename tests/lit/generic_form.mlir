// The generic op form, as `cuda-tile-opt -mlir-print-op-generic` writes it: builtin
// `dense<...> : tensor<...>` values, properties in `<{...}>`, regions in `({...})`.

"cuda_tile.module"() <{sym_name = "m"}> ({
  "cuda_tile.global"() <{sym_name = "g", type = !cuda_tile.tile<2xf32>, value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> ()
  "cuda_tile.entry"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "cuda_tile.constant"() <{value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>}> : () -> !cuda_tile.tile<2x2xf32>
    %1 = "cuda_tile.constant"() <{value = dense<7> : tensor<4xi32>}> : () -> !cuda_tile.tile<4xi32>
    %2 = "cuda_tile.addf"(%0, %0) : (!cuda_tile.tile<2x2xf32>, !cuda_tile.tile<2x2xf32>) -> !cuda_tile.tile<2x2xf32>
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

// -----

"cuda_tile.module"() <{sym_name = "m"}> ({
  "cuda_tile.entry"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "cuda_tile.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> !cuda_tile.tile<4xf32>
    // expected-error @below {{'cuda_tile.addf' op expected 2 operands, but found 1}}
    %1 = "cuda_tile.addf"(%0) : (!cuda_tile.tile<4xf32>) -> !cuda_tile.tile<4xf32>
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
