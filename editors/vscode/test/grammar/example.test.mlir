// SYNTAX TEST "source.cuda-tile" "example.mlir.src (real kernel; scopes from test/grammar/gen_tests.py)"
// A small cuda_tile kernel: c[i] = a[i] + b[i] over 128-element tiles.
// <------------ comment.line.double-slash.cuda-tile
cuda_tile.module @examples {
// <---------------- keyword.other.module.cuda-tile
//               ^^^^^^^^^ entity.name.namespace.symbol.cuda-tile
  entry @vector_add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>) {
//^^^^^ storage.type.function.cuda-tile
//      ^^^^^^^^^^^ entity.name.function.symbol.cuda-tile
//                  ^^ variable.other.value.cuda-tile
//                      ^^^^ support.type.cuda-tile
//                           ^^^ support.type.cuda-tile
//                               ^^^ storage.type.element.cuda-tile
//                                      ^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ support.type.cuda-tile
//                                                   ^^^ storage.type.element.cuda-tile
//                                                          ^^ variable.other.value.cuda-tile
//                                                              ^^^^ support.type.cuda-tile
//                                                                   ^^^ support.type.cuda-tile
//                                                                       ^^^ storage.type.element.cuda-tile
    %bid, %unused_y, %unused_z = get_tile_block_id : tile<i32>
//  ^^^^ variable.other.value.cuda-tile
//        ^^^^^^^^^ variable.other.value.cuda-tile
//                   ^^^^^^^^^ variable.other.value.cuda-tile
//                               ^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                   ^^^^ support.type.cuda-tile
//                                                        ^^^ storage.type.element.cuda-tile
    %c128 = constant <i32: 128> : tile<i32>
//  ^^^^^ variable.other.value.cuda-tile
//          ^^^^^^^^ support.function.op.cuda-tile
//                    ^^^ storage.type.element.cuda-tile
//                         ^^^ constant.numeric.integer.cuda-tile
//                                ^^^^ support.type.cuda-tile
//                                     ^^^ storage.type.element.cuda-tile
    %base = muli %bid, %c128 : tile<i32>
//  ^^^^^ variable.other.value.cuda-tile
//          ^^^^ support.function.op.cuda-tile
//               ^^^^ variable.other.value.cuda-tile
//                     ^^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                  ^^^ storage.type.element.cuda-tile
    %base_1d = reshape %base : tile<i32> -> tile<1xi32>
//  ^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^^ support.function.op.cuda-tile
//                     ^^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                  ^^^ storage.type.element.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^ constant.numeric.integer.dimension.cuda-tile
//                                                ^ keyword.operator.shape.cuda-tile
//                                                 ^^^ storage.type.element.cuda-tile
    %base_v = broadcast %base_1d : tile<1xi32> -> tile<128xi32>
//  ^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^ support.function.op.cuda-tile
//                      ^^^^^^^^ variable.other.value.cuda-tile
//                                 ^^^^ support.type.cuda-tile
//                                      ^ constant.numeric.integer.dimension.cuda-tile
//                                       ^ keyword.operator.shape.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
//                                                ^^^^ support.type.cuda-tile
//                                                     ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                        ^ keyword.operator.shape.cuda-tile
//                                                         ^^^ storage.type.element.cuda-tile
    %lane = iota : tile<128xi32>
//  ^^^^^ variable.other.value.cuda-tile
//          ^^^^ support.function.op.cuda-tile
//                 ^^^^ support.type.cuda-tile
//                      ^^^ constant.numeric.integer.dimension.cuda-tile
//                         ^ keyword.operator.shape.cuda-tile
//                          ^^^ storage.type.element.cuda-tile
    %idx = addi %base_v, %lane : tile<128xi32>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^ support.function.op.cuda-tile
//              ^^^^^^^ variable.other.value.cuda-tile
//                       ^^^^^ variable.other.value.cuda-tile
//                               ^^^^ support.type.cuda-tile
//                                    ^^^ constant.numeric.integer.dimension.cuda-tile
//                                       ^ keyword.operator.shape.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
    %a_1d = reshape %a : tile<ptr<f32>> -> tile<1xptr<f32>>
//  ^^^^^ variable.other.value.cuda-tile
//          ^^^^^^^ support.function.op.cuda-tile
//                  ^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ support.type.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
//                                         ^^^^ support.type.cuda-tile
//                                                    ^^^ storage.type.element.cuda-tile
    %a_v = broadcast %a_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
//                                               ^^^^ support.type.cuda-tile
//                                                            ^^^ storage.type.element.cuda-tile
    %a_p = offset %a_v, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^^^ support.function.op.cuda-tile
//                ^^^^ variable.other.value.cuda-tile
//                      ^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                          ^^^ storage.type.element.cuda-tile
//                                                 ^^^^ support.type.cuda-tile
//                                                      ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                         ^ keyword.operator.shape.cuda-tile
//                                                          ^^^ storage.type.element.cuda-tile
//                                                                  ^^^^ support.type.cuda-tile
//                                                                               ^^^ storage.type.element.cuda-tile
    %b_1d = reshape %b : tile<ptr<f32>> -> tile<1xptr<f32>>
//  ^^^^^ variable.other.value.cuda-tile
//          ^^^^^^^ support.function.op.cuda-tile
//                  ^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ support.type.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
//                                         ^^^^ support.type.cuda-tile
//                                                    ^^^ storage.type.element.cuda-tile
    %b_v = broadcast %b_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
//                                               ^^^^ support.type.cuda-tile
//                                                            ^^^ storage.type.element.cuda-tile
    %b_p = offset %b_v, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^^^ support.function.op.cuda-tile
//                ^^^^ variable.other.value.cuda-tile
//                      ^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                          ^^^ storage.type.element.cuda-tile
//                                                 ^^^^ support.type.cuda-tile
//                                                      ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                         ^ keyword.operator.shape.cuda-tile
//                                                          ^^^ storage.type.element.cuda-tile
//                                                                  ^^^^ support.type.cuda-tile
//                                                                               ^^^ storage.type.element.cuda-tile
    %c_1d = reshape %c : tile<ptr<f32>> -> tile<1xptr<f32>>
//  ^^^^^ variable.other.value.cuda-tile
//          ^^^^^^^ support.function.op.cuda-tile
//                  ^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ support.type.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
//                                         ^^^^ support.type.cuda-tile
//                                                    ^^^ storage.type.element.cuda-tile
    %c_v = broadcast %c_1d : tile<1xptr<f32>> -> tile<128xptr<f32>>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
//                                               ^^^^ support.type.cuda-tile
//                                                            ^^^ storage.type.element.cuda-tile
    %c_p = offset %c_v, %idx : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^^^ support.function.op.cuda-tile
//                ^^^^ variable.other.value.cuda-tile
//                      ^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                          ^^^ storage.type.element.cuda-tile
//                                                 ^^^^ support.type.cuda-tile
//                                                      ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                         ^ keyword.operator.shape.cuda-tile
//                                                          ^^^ storage.type.element.cuda-tile
//                                                                  ^^^^ support.type.cuda-tile
//                                                                               ^^^ storage.type.element.cuda-tile
    %x, %t0 = load_ptr_tko weak %a_p : tile<128xptr<f32>> -> tile<128xf32>, token
//  ^^ variable.other.value.cuda-tile
//      ^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^ support.function.op.cuda-tile
//                              ^^^^ variable.other.value.cuda-tile
//                                     ^^^^ support.type.cuda-tile
//                                                  ^^^ storage.type.element.cuda-tile
//                                                           ^^^^ support.type.cuda-tile
//                                                                ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                   ^ keyword.operator.shape.cuda-tile
//                                                                    ^^^ storage.type.element.cuda-tile
//                                                                          ^^^^^ support.type.cuda-tile
    %y, %t1 = load_ptr_tko weak %b_p : tile<128xptr<f32>> -> tile<128xf32>, token
//  ^^ variable.other.value.cuda-tile
//      ^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^ support.function.op.cuda-tile
//                              ^^^^ variable.other.value.cuda-tile
//                                     ^^^^ support.type.cuda-tile
//                                                  ^^^ storage.type.element.cuda-tile
//                                                           ^^^^ support.type.cuda-tile
//                                                                ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                   ^ keyword.operator.shape.cuda-tile
//                                                                    ^^^ storage.type.element.cuda-tile
//                                                                          ^^^^^ support.type.cuda-tile
    %sum = addf %x, %y : tile<128xf32>
//  ^^^^ variable.other.value.cuda-tile
//         ^^^^ support.function.op.cuda-tile
//              ^^ variable.other.value.cuda-tile
//                  ^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ constant.numeric.integer.dimension.cuda-tile
//                               ^ keyword.operator.shape.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
    %t2 = store_ptr_tko weak %c_p, %sum : tile<128xptr<f32>>, tile<128xf32> -> token
//  ^^^ variable.other.value.cuda-tile
//        ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                           ^^^^ variable.other.value.cuda-tile
//                                 ^^^^ variable.other.value.cuda-tile
//                                        ^^^^ support.type.cuda-tile
//                                                     ^^^ storage.type.element.cuda-tile
//                                                            ^^^^ support.type.cuda-tile
//                                                                 ^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                    ^ keyword.operator.shape.cuda-tile
//                                                                     ^^^ storage.type.element.cuda-tile
//                                                                             ^^^^^ support.type.cuda-tile
    return
//  ^^^^^^ keyword.control.op.cuda-tile
  }
}
