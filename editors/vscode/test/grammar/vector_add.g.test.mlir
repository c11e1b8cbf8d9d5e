// SYNTAX TEST "source.cuda-tile" "vector_add.g.mlir.src (real kernel; scopes from test/grammar/gen_tests.py)"
entry @vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f32>) optimization_hints=<default = {}> {
// <----- storage.type.function.cuda-tile
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ entity.name.function.symbol.cuda-tile
//                                                                         ^^^^^ variable.other.value.cuda-tile
//                                                                                ^^^^ support.type.cuda-tile
//                                                                                     ^^^ support.type.cuda-tile
//                                                                                         ^^^ storage.type.element.cuda-tile
//                                                                                                ^^^^^ variable.other.value.cuda-tile
//                                                                                                       ^^^^ support.type.cuda-tile
//                                                                                                            ^^^ storage.type.element.cuda-tile
//                                                                                                                  ^^^^^ variable.other.value.cuda-tile
//                                                                                                                         ^^^^ support.type.cuda-tile
//                                                                                                                              ^^^ storage.type.element.cuda-tile
//                                                                                                                                    ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                           ^^^^ support.type.cuda-tile
//                                                                                                                                                ^^^ support.type.cuda-tile
//                                                                                                                                                    ^^^ storage.type.element.cuda-tile
//                                                                                                                                                           ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                  ^^^^ support.type.cuda-tile
//                                                                                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                             ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                    ^^^^ support.type.cuda-tile
//                                                                                                                                                                                         ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                               ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                      ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                           ^^^ support.type.cuda-tile
//                                                                                                                                                                                                               ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                      ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                             ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                        ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                               ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                    ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                          ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                                 ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                      ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                            ^^^^^^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                                                                                                                                ^^^^^^^ entity.other.attribute-name.cuda-tile
  %0 = make_token : token loc(#loc10)
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^ support.function.op.cuda-tile
//                  ^^^^^ support.type.cuda-tile
//                        ^^^ keyword.other.location.cuda-tile
//                            ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc11)
//^^^^^^^ variable.other.value.cuda-tile
//          ^^^^^^ support.function.op.cuda-tile
//                        ^^ constant.numeric.integer.cuda-tile
//                             ^^^^^ variable.other.value.cuda-tile
//                                     ^^^^ support.type.cuda-tile
//                                          ^^^ support.type.cuda-tile
//                                              ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>> loc(#loc12)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
//                                                      ^^^ keyword.other.location.cuda-tile
//                                                          ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f32>> loc(#loc13)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
//                                                      ^^^ keyword.other.location.cuda-tile
//                                                          ^^^^^^ constant.other.attribute.alias.cuda-tile
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc10)
//^^^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^^^ support.function.op.cuda-tile
//                       ^^^ storage.type.element.cuda-tile
//                            ^ constant.numeric.integer.cuda-tile
//                                 ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
//                                           ^^^ keyword.other.location.cuda-tile
//                                               ^^^^^^ constant.other.attribute.alias.cuda-tile
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc10)
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
//                                             ^^^ keyword.other.location.cuda-tile
//                                                 ^^^^^^ constant.other.attribute.alias.cuda-tile
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc10)
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
//                                             ^^^ keyword.other.location.cuda-tile
//                                                 ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc10)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc10)
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                          ^^^^^^^ variable.other.value.cuda-tile
//                                   ^^^^^ entity.other.attribute-name.cuda-tile
//                                            ^^^^^^^^^ variable.other.value.cuda-tile
//                                                        ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                   ^ constant.numeric.integer.cuda-tile
//                                                                        ^^^^ support.type.cuda-tile
//                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                     ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                 ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                  ^ keyword.operator.shape.cuda-tile
//                                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                        ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                 ^ constant.numeric.integer.cuda-tile
//                                                                                                                     ^^^ keyword.other.location.cuda-tile
//                                                                                                                         ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc10)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc10)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                            ^^^^^^^^^ variable.other.value.cuda-tile
//                                       ^^^^^ entity.other.attribute-name.cuda-tile
//                                                ^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                       ^ constant.numeric.integer.cuda-tile
//                                                                            ^^^^ support.type.cuda-tile
//                                                                                 ^^^ storage.type.element.cuda-tile
//                                                                                         ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                     ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                      ^ keyword.operator.shape.cuda-tile
//                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                     ^ constant.numeric.integer.cuda-tile
//                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc10)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc10)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                            ^^^^^^^^^ variable.other.value.cuda-tile
//                                       ^^^^^ entity.other.attribute-name.cuda-tile
//                                                ^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                       ^ constant.numeric.integer.cuda-tile
//                                                                            ^^^^ support.type.cuda-tile
//                                                                                 ^^^ storage.type.element.cuda-tile
//                                                                                         ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                     ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                      ^ keyword.operator.shape.cuda-tile
//                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                     ^ constant.numeric.integer.cuda-tile
//                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc14)
//^^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^^^ variable.other.value.cuda-tile
//                                     ^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                         ^^^^ support.type.cuda-tile
//                                                              ^^^ storage.type.element.cuda-tile
//                                                                   ^^^ keyword.other.location.cuda-tile
//                                                                       ^^^^^^ constant.other.attribute.alias.cuda-tile
  %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc15)
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                             ^^^^^^ variable.other.value.cuda-tile
//                                      ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                     ^^^^ entity.other.attribute-name.cuda-tile
//                                                           ^^^^ constant.numeric.integer.cuda-tile
//                                                                  ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                        ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                    ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                     ^ keyword.operator.shape.cuda-tile
//                                                                                                      ^^^ storage.type.element.cuda-tile
//                                                                                                           ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                    ^ constant.numeric.integer.cuda-tile
//                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token loc(#loc15)
//^^^^^ variable.other.value.cuda-tile
//       ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                       ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                          ^^^^^^ variable.other.value.cuda-tile
//                                                 ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                             ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                     ^^ variable.other.value.cuda-tile
//                                                                          ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                               ^^^^ constant.numeric.integer.cuda-tile
//                                                                                                      ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                            ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                                        ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                                               ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                                                                                                              ^^^^ support.type.cuda-tile
//                                                                                                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                           ^^^^ support.type.cuda-tile
//                                                                                                                                                                                ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                                                    ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                                                     ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                           ^^^^^ support.type.cuda-tile
//                                                                                                                                                                                                 ^^^ keyword.other.location.cuda-tile
//                                                                                                                                                                                                     ^^^^^^ constant.other.attribute.alias.cuda-tile
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc16)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                               ^^^^^^^^ variable.other.value.cuda-tile
//                                          ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                               ^^^^ constant.numeric.integer.cuda-tile
//                                                                      ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                            ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                        ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                               ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                                                                             ^^^ keyword.other.location.cuda-tile
//                                                                                                                                 ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token loc(#loc16)
//^^^^^^^^ variable.other.value.cuda-tile
//          ^^^^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                             ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                ^^^^^^^^ variable.other.value.cuda-tile
//                                                         ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                                     ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                             ^^ variable.other.value.cuda-tile
//                                                                                  ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                 ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                       ^^^^ constant.numeric.integer.cuda-tile
//                                                                                                              ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                    ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                                                ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                                                 ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                       ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                ^ constant.numeric.integer.cuda-tile
//                                                                                                                                                                      ^^^^ support.type.cuda-tile
//                                                                                                                                                                           ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                   ^^^^ support.type.cuda-tile
//                                                                                                                                                                                        ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                                                            ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                   ^^^^^ support.type.cuda-tile
//                                                                                                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %reshape = reshape %arg9 : tile<f32> -> tile<1xf32> loc(#loc17)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
//                                        ^^^^ support.type.cuda-tile
//                                             ^ constant.numeric.integer.dimension.cuda-tile
//                                              ^ keyword.operator.shape.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %bcast = broadcast %reshape : tile<1xf32> -> tile<1024xf32> loc(#loc17)
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^^^^ variable.other.value.cuda-tile
//                              ^^^^ support.type.cuda-tile
//                                   ^ constant.numeric.integer.dimension.cuda-tile
//                                    ^ keyword.operator.shape.cuda-tile
//                                     ^^^ storage.type.element.cuda-tile
//                                             ^^^^ support.type.cuda-tile
//                                                  ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                      ^ keyword.operator.shape.cuda-tile
//                                                       ^^^ storage.type.element.cuda-tile
//                                                            ^^^ keyword.other.location.cuda-tile
//                                                                ^^^^^^ constant.other.attribute.alias.cuda-tile
  %1 = fma %bcast, %tile, %tile_10  : tile<1024xf32> loc(#loc17)
//^^ variable.other.value.cuda-tile
//     ^^^ support.function.op.cuda-tile
//         ^^^^^^ variable.other.value.cuda-tile
//                 ^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^ variable.other.value.cuda-tile
//                                    ^^^^ support.type.cuda-tile
//                                         ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                             ^ keyword.operator.shape.cuda-tile
//                                              ^^^ storage.type.element.cuda-tile
//                                                   ^^^ keyword.other.location.cuda-tile
//                                                       ^^^^^^ constant.other.attribute.alias.cuda-tile
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>> loc(#loc18)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                ^^^^^^^^ variable.other.value.cuda-tile
//                                           ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                          ^^^^ entity.other.attribute-name.cuda-tile
//                                                                ^^^^ constant.numeric.integer.cuda-tile
//                                                                       ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                   ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                    ^ keyword.operator.shape.cuda-tile
//                                                                                     ^^^ storage.type.element.cuda-tile
//                                                                                          ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                   ^ constant.numeric.integer.cuda-tile
//                                                                                                        ^^^ keyword.other.location.cuda-tile
//                                                                                                            ^^^^^^ constant.other.attribute.alias.cuda-tile
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc18)
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                         ^^ variable.other.value.cuda-tile
//                             ^^^^^^^^^ variable.other.value.cuda-tile
//                                       ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                   ^^^^^ entity.other.attribute-name.cuda-tile
//                                                           ^^ variable.other.value.cuda-tile
//                                                                ^^^^ support.type.cuda-tile
//                                                                     ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                               ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                     ^^^^ constant.numeric.integer.cuda-tile
//                                                                                                            ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                        ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                               ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                                                                                              ^^^^ support.type.cuda-tile
//                                                                                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                                                                           ^^^^^ support.type.cuda-tile
//                                                                                                                                                                 ^^^ keyword.other.location.cuda-tile
//                                                                                                                                                                     ^^^^^^ constant.other.attribute.alias.cuda-tile
  return loc(#loc9)
//^^^^^^ keyword.control.op.cuda-tile
//       ^^^ keyword.other.location.cuda-tile
//           ^^^^^ constant.other.attribute.alias.cuda-tile
} loc(#loc10)
//^^^ keyword.other.location.cuda-tile
//    ^^^^^^ constant.other.attribute.alias.cuda-tile
entry @vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_Sf16_I2048(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f16>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f16>) optimization_hints=<default = {}> {
// <----- storage.type.function.cuda-tile
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ entity.name.function.symbol.cuda-tile
//                                                                         ^^^^^ variable.other.value.cuda-tile
//                                                                                ^^^^ support.type.cuda-tile
//                                                                                     ^^^ support.type.cuda-tile
//                                                                                         ^^^ storage.type.element.cuda-tile
//                                                                                                ^^^^^ variable.other.value.cuda-tile
//                                                                                                       ^^^^ support.type.cuda-tile
//                                                                                                            ^^^ storage.type.element.cuda-tile
//                                                                                                                  ^^^^^ variable.other.value.cuda-tile
//                                                                                                                         ^^^^ support.type.cuda-tile
//                                                                                                                              ^^^ storage.type.element.cuda-tile
//                                                                                                                                    ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                           ^^^^ support.type.cuda-tile
//                                                                                                                                                ^^^ support.type.cuda-tile
//                                                                                                                                                    ^^^ storage.type.element.cuda-tile
//                                                                                                                                                           ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                  ^^^^ support.type.cuda-tile
//                                                                                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                             ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                    ^^^^ support.type.cuda-tile
//                                                                                                                                                                                         ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                               ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                      ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                           ^^^ support.type.cuda-tile
//                                                                                                                                                                                                               ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                      ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                             ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                        ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                               ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                    ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                          ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                                 ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                      ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                            ^^^^^^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                                                                                                                                ^^^^^^^ entity.other.attribute-name.cuda-tile
  %0 = make_token : token loc(#loc19)
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^ support.function.op.cuda-tile
//                  ^^^^^ support.type.cuda-tile
//                        ^^^ keyword.other.location.cuda-tile
//                            ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc20)
//^^^^^^^ variable.other.value.cuda-tile
//          ^^^^^^ support.function.op.cuda-tile
//                        ^^ constant.numeric.integer.cuda-tile
//                             ^^^^^ variable.other.value.cuda-tile
//                                     ^^^^ support.type.cuda-tile
//                                          ^^^ support.type.cuda-tile
//                                              ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f16>> loc(#loc21)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
//                                                      ^^^ keyword.other.location.cuda-tile
//                                                          ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f16>> loc(#loc22)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
//                                                      ^^^ keyword.other.location.cuda-tile
//                                                          ^^^^^^ constant.other.attribute.alias.cuda-tile
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc19)
//^^^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^^^ support.function.op.cuda-tile
//                       ^^^ storage.type.element.cuda-tile
//                            ^ constant.numeric.integer.cuda-tile
//                                 ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
//                                           ^^^ keyword.other.location.cuda-tile
//                                               ^^^^^^ constant.other.attribute.alias.cuda-tile
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc19)
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
//                                             ^^^ keyword.other.location.cuda-tile
//                                                 ^^^^^^ constant.other.attribute.alias.cuda-tile
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc19)
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
//                                             ^^^ keyword.other.location.cuda-tile
//                                                 ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc19)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc19)
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                          ^^^^^^^ variable.other.value.cuda-tile
//                                   ^^^^^ entity.other.attribute-name.cuda-tile
//                                            ^^^^^^^^^ variable.other.value.cuda-tile
//                                                        ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                   ^ constant.numeric.integer.cuda-tile
//                                                                        ^^^^ support.type.cuda-tile
//                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                     ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                 ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                  ^ keyword.operator.shape.cuda-tile
//                                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                        ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                 ^ constant.numeric.integer.cuda-tile
//                                                                                                                     ^^^ keyword.other.location.cuda-tile
//                                                                                                                         ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc19)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc19)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                            ^^^^^^^^^ variable.other.value.cuda-tile
//                                       ^^^^^ entity.other.attribute-name.cuda-tile
//                                                ^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                       ^ constant.numeric.integer.cuda-tile
//                                                                            ^^^^ support.type.cuda-tile
//                                                                                 ^^^ storage.type.element.cuda-tile
//                                                                                         ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                     ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                      ^ keyword.operator.shape.cuda-tile
//                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                     ^ constant.numeric.integer.cuda-tile
//                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc19)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc19)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                            ^^^^^^^^^ variable.other.value.cuda-tile
//                                       ^^^^^ entity.other.attribute-name.cuda-tile
//                                                ^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                       ^ constant.numeric.integer.cuda-tile
//                                                                            ^^^^ support.type.cuda-tile
//                                                                                 ^^^ storage.type.element.cuda-tile
//                                                                                         ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                     ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                      ^ keyword.operator.shape.cuda-tile
//                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                     ^ constant.numeric.integer.cuda-tile
//                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc23)
//^^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^^^ variable.other.value.cuda-tile
//                                     ^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                         ^^^^ support.type.cuda-tile
//                                                              ^^^ storage.type.element.cuda-tile
//                                                                   ^^^ keyword.other.location.cuda-tile
//                                                                       ^^^^^^ constant.other.attribute.alias.cuda-tile
  %pview = make_partition_view %tview : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>> loc(#loc24)
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                             ^^^^^^ variable.other.value.cuda-tile
//                                      ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                     ^^^^ entity.other.attribute-name.cuda-tile
//                                                           ^^^^ constant.numeric.integer.cuda-tile
//                                                                  ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                        ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                    ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                     ^ keyword.operator.shape.cuda-tile
//                                                                                                      ^^^ storage.type.element.cuda-tile
//                                                                                                           ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                    ^ constant.numeric.integer.cuda-tile
//                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<2048xf16>, token loc(#loc24)
//^^^^^ variable.other.value.cuda-tile
//       ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                       ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                          ^^^^^^ variable.other.value.cuda-tile
//                                                 ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                             ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                     ^^ variable.other.value.cuda-tile
//                                                                          ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                               ^^^^ constant.numeric.integer.cuda-tile
//                                                                                                      ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                            ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                                        ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                                               ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                                                                                                              ^^^^ support.type.cuda-tile
//                                                                                                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                           ^^^^ support.type.cuda-tile
//                                                                                                                                                                                ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                                                    ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                                                     ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                           ^^^^^ support.type.cuda-tile
//                                                                                                                                                                                                 ^^^ keyword.other.location.cuda-tile
//                                                                                                                                                                                                     ^^^^^^ constant.other.attribute.alias.cuda-tile
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>> loc(#loc25)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                               ^^^^^^^^ variable.other.value.cuda-tile
//                                          ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                               ^^^^ constant.numeric.integer.cuda-tile
//                                                                      ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                            ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                        ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                               ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                                                                             ^^^ keyword.other.location.cuda-tile
//                                                                                                                                 ^^^^^^ constant.other.attribute.alias.cuda-tile
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<2048xf16>, token loc(#loc25)
//^^^^^^^^ variable.other.value.cuda-tile
//          ^^^^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                             ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                ^^^^^^^^ variable.other.value.cuda-tile
//                                                         ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                                     ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                             ^^ variable.other.value.cuda-tile
//                                                                                  ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                 ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                       ^^^^ constant.numeric.integer.cuda-tile
//                                                                                                              ^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                    ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                                                ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                                                 ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                       ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                ^ constant.numeric.integer.cuda-tile
//                                                                                                                                                                      ^^^^ support.type.cuda-tile
//                                                                                                                                                                           ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                   ^^^^ support.type.cuda-tile
//                                                                                                                                                                                        ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                                                            ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                   ^^^^^ support.type.cuda-tile
//                                                                                                                                                                                                         ^^^ keyword.other.location.cuda-tile
//                                                                                                                                                                                                             ^^^^^^ constant.other.attribute.alias.cuda-tile
  %reshape = reshape %arg9 : tile<f16> -> tile<1xf16> loc(#loc26)
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
//                                        ^^^^ support.type.cuda-tile
//                                             ^ constant.numeric.integer.dimension.cuda-tile
//                                              ^ keyword.operator.shape.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
//                                                    ^^^ keyword.other.location.cuda-tile
//                                                        ^^^^^^ constant.other.attribute.alias.cuda-tile
  %bcast = broadcast %reshape : tile<1xf16> -> tile<2048xf16> loc(#loc26)
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^^^^ variable.other.value.cuda-tile
//                              ^^^^ support.type.cuda-tile
//                                   ^ constant.numeric.integer.dimension.cuda-tile
//                                    ^ keyword.operator.shape.cuda-tile
//                                     ^^^ storage.type.element.cuda-tile
//                                             ^^^^ support.type.cuda-tile
//                                                  ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                      ^ keyword.operator.shape.cuda-tile
//                                                       ^^^ storage.type.element.cuda-tile
//                                                            ^^^ keyword.other.location.cuda-tile
//                                                                ^^^^^^ constant.other.attribute.alias.cuda-tile
  %1 = fma %bcast, %tile, %tile_10  : tile<2048xf16> loc(#loc26)
//^^ variable.other.value.cuda-tile
//     ^^^ support.function.op.cuda-tile
//         ^^^^^^ variable.other.value.cuda-tile
//                 ^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^ variable.other.value.cuda-tile
//                                    ^^^^ support.type.cuda-tile
//                                         ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                             ^ keyword.operator.shape.cuda-tile
//                                              ^^^ storage.type.element.cuda-tile
//                                                   ^^^ keyword.other.location.cuda-tile
//                                                       ^^^^^^ constant.other.attribute.alias.cuda-tile
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(2048), tensor_view<?xf16, strides=[1]>> loc(#loc27)
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                ^^^^^^^^ variable.other.value.cuda-tile
//                                           ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                          ^^^^ entity.other.attribute-name.cuda-tile
//                                                                ^^^^ constant.numeric.integer.cuda-tile
//                                                                       ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                   ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                    ^ keyword.operator.shape.cuda-tile
//                                                                                     ^^^ storage.type.element.cuda-tile
//                                                                                          ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                   ^ constant.numeric.integer.cuda-tile
//                                                                                                        ^^^ keyword.other.location.cuda-tile
//                                                                                                            ^^^^^^ constant.other.attribute.alias.cuda-tile
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<2048xf16>, partition_view<tile=(2048), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token loc(#loc27)
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                         ^^ variable.other.value.cuda-tile
//                             ^^^^^^^^^ variable.other.value.cuda-tile
//                                       ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                   ^^^^^ entity.other.attribute-name.cuda-tile
//                                                           ^^ variable.other.value.cuda-tile
//                                                                ^^^^ support.type.cuda-tile
//                                                                     ^^^^ constant.numeric.integer.dimension.cuda-tile
//                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                               ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                     ^^^^ constant.numeric.integer.cuda-tile
//                                                                                                            ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                        ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                         ^ keyword.operator.shape.cuda-tile
//                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                               ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                                                                                              ^^^^ support.type.cuda-tile
//                                                                                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                                                                           ^^^^^ support.type.cuda-tile
//                                                                                                                                                                 ^^^ keyword.other.location.cuda-tile
//                                                                                                                                                                     ^^^^^^ constant.other.attribute.alias.cuda-tile
  return loc(#loc9)
//^^^^^^ keyword.control.op.cuda-tile
//       ^^^ keyword.other.location.cuda-tile
//           ^^^^^ constant.other.attribute.alias.cuda-tile
} loc(#loc19)
//^^^ keyword.other.location.cuda-tile
//    ^^^^^^ constant.other.attribute.alias.cuda-tile
#di_file = #cuda_tile.di_file<"vector_add.py" in "tests/data/cutile/kernels">
// <-------- constant.other.attribute.alias.cuda-tile
//          ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                    ^^^^^^^ support.other.attribute.cuda-tile
//                            ^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
#loc = loc("tests/data/cutile/kernels/vector_add.py":8:0)
// <---- constant.other.attribute.alias.cuda-tile
//     ^^^ keyword.other.location.cuda-tile
//         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                   ^ constant.numeric.integer.cuda-tile
//                                                     ^ constant.numeric.integer.cuda-tile
#loc1 = loc("tests/data/cutile/kernels/vector_add.py":8:15)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^ constant.numeric.integer.cuda-tile
//                                                      ^^ constant.numeric.integer.cuda-tile
#loc2 = loc("tests/data/cutile/kernels/vector_add.py":8:18)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^ constant.numeric.integer.cuda-tile
//                                                      ^^ constant.numeric.integer.cuda-tile
#loc3 = loc("tests/data/cutile/kernels/vector_add.py":8:21)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^ constant.numeric.integer.cuda-tile
//                                                      ^^ constant.numeric.integer.cuda-tile
#loc4 = loc("tests/data/cutile/kernels/vector_add.py":9:10)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^ constant.numeric.integer.cuda-tile
//                                                      ^^ constant.numeric.integer.cuda-tile
#loc5 = loc("tests/data/cutile/kernels/vector_add.py":10:8)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^^ constant.numeric.integer.cuda-tile
//                                                       ^ constant.numeric.integer.cuda-tile
#loc6 = loc("tests/data/cutile/kernels/vector_add.py":11:8)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^^ constant.numeric.integer.cuda-tile
//                                                       ^ constant.numeric.integer.cuda-tile
#loc7 = loc("tests/data/cutile/kernels/vector_add.py":12:35)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^^ constant.numeric.integer.cuda-tile
//                                                       ^^ constant.numeric.integer.cuda-tile
#loc8 = loc("tests/data/cutile/kernels/vector_add.py":12:4)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                    ^^ constant.numeric.integer.cuda-tile
//                                                       ^ constant.numeric.integer.cuda-tile
#loc9 = loc(unknown)
// <----- constant.other.attribute.alias.cuda-tile
//      ^^^ keyword.other.location.cuda-tile
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
// <---------------- constant.other.attribute.alias.cuda-tile
//                  ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                            ^^^^^^^^^^^^^^^ support.other.attribute.cuda-tile
//                                            ^^^^ entity.other.attribute-name.cuda-tile
//                                                   ^^^^^^^^ constant.other.attribute.alias.cuda-tile
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "vector_add", linkageName = "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024", compileUnit = #di_compile_unit, scopeLine = 7>
// <-------------- constant.other.attribute.alias.cuda-tile
//                ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                          ^^^^^^^^^^^^^ support.other.attribute.cuda-tile
//                                        ^^^^ entity.other.attribute-name.cuda-tile
//                                               ^^^^^^^^ constant.other.attribute.alias.cuda-tile
//                                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                                ^ constant.numeric.integer.cuda-tile
//                                                                   ^^^^ entity.other.attribute-name.cuda-tile
//                                                                          ^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                                                        ^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                                                                                                                                             ^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                           ^^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
//                                                                                                                                                                                                             ^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                                                         ^ constant.numeric.integer.cuda-tile
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "vector_add", linkageName = "vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_Sf16_I2048", compileUnit = #di_compile_unit, scopeLine = 7>
// <--------------- constant.other.attribute.alias.cuda-tile
//                 ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                           ^^^^^^^^^^^^^ support.other.attribute.cuda-tile
//                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                ^^^^^^^^ constant.other.attribute.alias.cuda-tile
//                                                          ^^^^ entity.other.attribute-name.cuda-tile
//                                                                 ^ constant.numeric.integer.cuda-tile
//                                                                    ^^^^ entity.other.attribute-name.cuda-tile
//                                                                           ^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                                                         ^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.quoted.double.cuda-tile
//                                                                                                                                                                              ^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                            ^^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
//                                                                                                                                                                                                              ^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                                                          ^ constant.numeric.integer.cuda-tile
#loc10 = #cuda_tile.di_loc<#loc in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^ constant.other.attribute.alias.cuda-tile
//                                 ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc11 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc12 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc13 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc14 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc15 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc16 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc17 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc18 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc19 = #cuda_tile.di_loc<#loc in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^ constant.other.attribute.alias.cuda-tile
//                                 ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc20 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc21 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc22 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc23 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc24 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc25 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc26 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
#loc27 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
// <------ constant.other.attribute.alias.cuda-tile
//        ^^^^^^^^^ entity.name.namespace.dialect.cuda-tile
//                  ^^^^^^ support.other.attribute.cuda-tile
//                         ^^^^^ constant.other.attribute.alias.cuda-tile
//                                  ^^^^^^^^^^^^^^^ constant.other.attribute.alias.cuda-tile
