// SYNTAX TEST "source.cuda-tile" "control_flow.mlir.src (real kernel; scopes from test/grammar/gen_tests.py)"
entry @searchsorted_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_Sf32_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<f32>) optimization_hints=<default = {}> {
// <----- storage.type.function.cuda-tile
//    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ entity.name.function.symbol.cuda-tile
//                                                                                       ^^^^^ variable.other.value.cuda-tile
//                                                                                              ^^^^ support.type.cuda-tile
//                                                                                                   ^^^ support.type.cuda-tile
//                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                              ^^^^^ variable.other.value.cuda-tile
//                                                                                                                     ^^^^ support.type.cuda-tile
//                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                                ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                       ^^^^ support.type.cuda-tile
//                                                                                                                                            ^^^ storage.type.element.cuda-tile
//                                                                                                                                                  ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                         ^^^^ support.type.cuda-tile
//                                                                                                                                                              ^^^ support.type.cuda-tile
//                                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                         ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                ^^^^ support.type.cuda-tile
//                                                                                                                                                                                     ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                           ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                  ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                       ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                             ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                    ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                         ^^^ support.type.cuda-tile
//                                                                                                                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                    ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                           ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                      ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                             ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                        ^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                                               ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                                    ^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                                        ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                                               ^^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                                                                       ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                                                            ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                                                                  ^^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                                                                                          ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                                                                               ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                                                                                     ^^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                                                                                                                                                                                                             ^^^^ support.type.cuda-tile
//                                                                                                                                                                                                                                                                                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                                                                                                                                                                                                        ^^^^^^^^^^^^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                                                                                                                                                                                                                                                            ^^^^^^^ entity.other.attribute-name.cuda-tile
  %0 = make_token : token
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^ support.function.op.cuda-tile
//                  ^^^^^ support.type.cuda-tile
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
//^^^^^^^ variable.other.value.cuda-tile
//          ^^^^^^ support.function.op.cuda-tile
//                        ^^ constant.numeric.integer.cuda-tile
//                             ^^^^^ variable.other.value.cuda-tile
//                                     ^^^^ support.type.cuda-tile
//                                          ^^^ support.type.cuda-tile
//                                              ^^^ storage.type.element.cuda-tile
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
  %assume_2 = assume div_by<16>, %arg9 : tile<ptr<i32>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                          ^^ constant.numeric.integer.cuda-tile
//                               ^^^^^ variable.other.value.cuda-tile
//                                       ^^^^ support.type.cuda-tile
//                                            ^^^ support.type.cuda-tile
//                                                ^^^ storage.type.element.cuda-tile
  %cst_1_i32 = constant <i32: 1> : tile<i32>
//^^^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^^^ support.function.op.cuda-tile
//                       ^^^ storage.type.element.cuda-tile
//                            ^ constant.numeric.integer.cuda-tile
//                                 ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
//^^^^^^^^^^^^ variable.other.value.cuda-tile
//               ^^^^^^^^ support.function.op.cuda-tile
//                         ^^^ storage.type.element.cuda-tile
//                              ^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
  %false = constant <i1: false> : tile<i1>
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^ support.function.op.cuda-tile
//                   ^^ storage.type.element.cuda-tile
//                                ^^^^ support.type.cuda-tile
//                                     ^^ storage.type.element.cuda-tile
  %true = constant <i1: true> : tile<i1>
//^^^^^ variable.other.value.cuda-tile
//        ^^^^^^^^ support.function.op.cuda-tile
//                  ^^ storage.type.element.cuda-tile
//                              ^^^^ support.type.cuda-tile
//                                   ^^ storage.type.element.cuda-tile
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
  %tview = make_tensor_view %assume, shape = [%assume_6], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
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
  %assume_7 = assume bounded<0, ?>, %arg4 : tile<i32>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
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
  %assume_9 = assume bounded<0, ?>, %arg7 : tile<i32>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^ support.function.op.cuda-tile
//                           ^ constant.numeric.integer.cuda-tile
//                                  ^^^^^ variable.other.value.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
  %tview_10 = make_tensor_view %assume_1, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                             ^^^^^^^^^ variable.other.value.cuda-tile
//                                        ^^^^^ entity.other.attribute-name.cuda-tile
//                                                 ^^^^^^^^^ variable.other.value.cuda-tile
//                                                             ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                        ^ constant.numeric.integer.cuda-tile
//                                                                             ^^^^ support.type.cuda-tile
//                                                                                  ^^^ storage.type.element.cuda-tile
//                                                                                          ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                      ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                       ^ keyword.operator.shape.cuda-tile
//                                                                                                        ^^^ storage.type.element.cuda-tile
//                                                                                                             ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                      ^ constant.numeric.integer.cuda-tile
  %assume_11 = assume bounded<0, ?>, %arg10 : tile<i32>
//^^^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^ support.function.op.cuda-tile
//                            ^ constant.numeric.integer.cuda-tile
//                                   ^^^^^^ variable.other.value.cuda-tile
//                                            ^^^^ support.type.cuda-tile
//                                                 ^^^ storage.type.element.cuda-tile
  %tview_12 = make_tensor_view %assume_2, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                             ^^^^^^^^^ variable.other.value.cuda-tile
//                                        ^^^^^ entity.other.attribute-name.cuda-tile
//                                                 ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                              ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                         ^ constant.numeric.integer.cuda-tile
//                                                                              ^^^^ support.type.cuda-tile
//                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                           ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                       ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                        ^ keyword.operator.shape.cuda-tile
//                                                                                                         ^^^ storage.type.element.cuda-tile
//                                                                                                              ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                       ^ constant.numeric.integer.cuda-tile
  %cst_64_i32 = constant <i32: 64> : tile<i32>
//^^^^^^^^^^^ variable.other.value.cuda-tile
//              ^^^^^^^^ support.function.op.cuda-tile
//                        ^^^ storage.type.element.cuda-tile
//                             ^^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
//^^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^^^ variable.other.value.cuda-tile
//                                     ^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                         ^^^^ support.type.cuda-tile
//                                                              ^^^ storage.type.element.cuda-tile
  %pview = make_partition_view %tview_8 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
//^^^^^^ variable.other.value.cuda-tile
//         ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                             ^^^^^^^^ variable.other.value.cuda-tile
//                                        ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                       ^^^^ entity.other.attribute-name.cuda-tile
//                                                             ^ constant.numeric.integer.cuda-tile
//                                                                 ^^^^^^^^^^^ support.type.cuda-tile
//                                                                             ^ constant.language.dynamic-dimension.cuda-tile
//                                                                              ^ keyword.operator.shape.cuda-tile
//                                                                               ^^^ storage.type.element.cuda-tile
//                                                                                    ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                             ^ constant.numeric.integer.cuda-tile
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token
//^^^^^ variable.other.value.cuda-tile
//       ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                       ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                          ^^^^^^ variable.other.value.cuda-tile
//                                                 ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                             ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                     ^^ variable.other.value.cuda-tile
//                                                                          ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                         ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                               ^ constant.numeric.integer.cuda-tile
//                                                                                                   ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                               ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                ^ keyword.operator.shape.cuda-tile
//                                                                                                                 ^^^ storage.type.element.cuda-tile
//                                                                                                                      ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                               ^ constant.numeric.integer.cuda-tile
//                                                                                                                                     ^^^^ support.type.cuda-tile
//                                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                                                  ^^^^ support.type.cuda-tile
//                                                                                                                                                       ^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                        ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                         ^^^ storage.type.element.cuda-tile
//                                                                                                                                                               ^^^^^ support.type.cuda-tile
  %reshape = reshape %tile : tile<1xf32> -> tile<f32>
//^^^^^^^^ variable.other.value.cuda-tile
//           ^^^^^^^ support.function.op.cuda-tile
//                   ^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                ^ constant.numeric.integer.dimension.cuda-tile
//                                 ^ keyword.operator.shape.cuda-tile
//                                  ^^^ storage.type.element.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^^^ storage.type.element.cuda-tile
  %cst_0_i32 = constant <i32: 0> : tile<i32>
//^^^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^^^ support.function.op.cuda-tile
//                       ^^^ storage.type.element.cuda-tile
//                            ^ constant.numeric.integer.cuda-tile
//                                 ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
  %cst_2_i32 = constant <i32: 2> : tile<i32>
//^^^^^^^^^^ variable.other.value.cuda-tile
//             ^^^^^^^^ support.function.op.cuda-tile
//                       ^^^ storage.type.element.cuda-tile
//                            ^ constant.numeric.integer.cuda-tile
//                                 ^^^^ support.type.cuda-tile
//                                      ^^^ storage.type.element.cuda-tile
  %pview_13 = make_partition_view %tview : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                ^^^^^^ variable.other.value.cuda-tile
//                                         ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                        ^^^^ entity.other.attribute-name.cuda-tile
//                                                              ^ constant.numeric.integer.cuda-tile
//                                                                  ^^^^^^^^^^^ support.type.cuda-tile
//                                                                              ^ constant.language.dynamic-dimension.cuda-tile
//                                                                               ^ keyword.operator.shape.cuda-tile
//                                                                                ^^^ storage.type.element.cuda-tile
//                                                                                     ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                              ^ constant.numeric.integer.cuda-tile
  %1:2 = loop iter_values(%arg13 = %assume_6, %arg14 = %cst_0_i32) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
//^^ variable.other.value.cuda-tile
//       ^^^^ keyword.control.op.cuda-tile
//                        ^^^^^^ variable.other.value.cuda-tile
//                                 ^^^^^^^^^ variable.other.value.cuda-tile
//                                            ^^^^^^ variable.other.value.cuda-tile
//                                                     ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                                   ^^^^ support.type.cuda-tile
//                                                                        ^^^ storage.type.element.cuda-tile
//                                                                              ^^^^ support.type.cuda-tile
//                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                           ^^^^ support.type.cuda-tile
//                                                                                                ^^^ storage.type.element.cuda-tile
//                                                                                                      ^^^^ support.type.cuda-tile
//                                                                                                           ^^^ storage.type.element.cuda-tile
    %4 = cmpi less_than %arg14, %arg13, signed : tile<i32> -> tile<i1>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//                      ^^^^^^ variable.other.value.cuda-tile
//                              ^^^^^^ variable.other.value.cuda-tile
//                                               ^^^^ support.type.cuda-tile
//                                                    ^^^ storage.type.element.cuda-tile
//                                                            ^^^^ support.type.cuda-tile
//                                                                 ^^ storage.type.element.cuda-tile
    if %4 {
//  ^^ keyword.control.op.cuda-tile
//     ^^ variable.other.value.cuda-tile
    } else {
      break %arg13, %arg14 : tile<i32>, tile<i32>
//    ^^^^^ keyword.control.op.cuda-tile
//          ^^^^^^ variable.other.value.cuda-tile
//                  ^^^^^^ variable.other.value.cuda-tile
//                           ^^^^ support.type.cuda-tile
//                                ^^^ storage.type.element.cuda-tile
//                                      ^^^^ support.type.cuda-tile
//                                           ^^^ storage.type.element.cuda-tile
    }
    %5 = addi %arg14, %arg13 : tile<i32>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//            ^^^^^^ variable.other.value.cuda-tile
//                    ^^^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                  ^^^ storage.type.element.cuda-tile
    %6 = divi %5, %cst_2_i32 signed rounding<negative_inf> : tile<i32>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//            ^^ variable.other.value.cuda-tile
//                ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                           ^^^^ support.type.cuda-tile
//                                                                ^^^ storage.type.element.cuda-tile
    %tile_21, %result_token_22 = load_view_tko weak %pview_13[%6] token = %0 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token
//  ^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                               ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                  ^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^ variable.other.value.cuda-tile
//                                                                ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                        ^^ variable.other.value.cuda-tile
//                                                                             ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                            ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                  ^ constant.numeric.integer.cuda-tile
//                                                                                                      ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                  ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                   ^ keyword.operator.shape.cuda-tile
//                                                                                                                    ^^^ storage.type.element.cuda-tile
//                                                                                                                         ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                  ^ constant.numeric.integer.cuda-tile
//                                                                                                                                        ^^^^ support.type.cuda-tile
//                                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                                     ^^^^ support.type.cuda-tile
//                                                                                                                                                          ^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                           ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                            ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                  ^^^^^ support.type.cuda-tile
    %reshape_23 = reshape %tile_21 : tile<1xf32> -> tile<f32>
//  ^^^^^^^^^^^ variable.other.value.cuda-tile
//                ^^^^^^^ support.function.op.cuda-tile
//                        ^^^^^^^^ variable.other.value.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^ constant.numeric.integer.dimension.cuda-tile
//                                         ^ keyword.operator.shape.cuda-tile
//                                          ^^^ storage.type.element.cuda-tile
//                                                  ^^^^ support.type.cuda-tile
//                                                       ^^^ storage.type.element.cuda-tile
    %7 = cmpf less_than ordered %reshape_23, %reshape : tile<f32> -> tile<i1>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//                              ^^^^^^^^^^^ variable.other.value.cuda-tile
//                                           ^^^^^^^^ variable.other.value.cuda-tile
//                                                      ^^^^ support.type.cuda-tile
//                                                           ^^^ storage.type.element.cuda-tile
//                                                                   ^^^^ support.type.cuda-tile
//                                                                        ^^ storage.type.element.cuda-tile
    %8:2 = if %7 -> (tile<i32>, tile<i32>) {
//  ^^ variable.other.value.cuda-tile
//         ^^ keyword.control.op.cuda-tile
//            ^^ variable.other.value.cuda-tile
//                   ^^^^ support.type.cuda-tile
//                        ^^^ storage.type.element.cuda-tile
//                              ^^^^ support.type.cuda-tile
//                                   ^^^ storage.type.element.cuda-tile
      %cst_1_i32_24 = constant <i32: 1> : tile<i32>
//    ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                    ^^^^^^^^ support.function.op.cuda-tile
//                              ^^^ storage.type.element.cuda-tile
//                                   ^ constant.numeric.integer.cuda-tile
//                                        ^^^^ support.type.cuda-tile
//                                             ^^^ storage.type.element.cuda-tile
      %9 = addi %6, %cst_1_i32_24 : tile<i32>
//    ^^ variable.other.value.cuda-tile
//         ^^^^ support.function.op.cuda-tile
//              ^^ variable.other.value.cuda-tile
//                  ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                                  ^^^^ support.type.cuda-tile
//                                       ^^^ storage.type.element.cuda-tile
      yield %arg13, %9 : tile<i32>, tile<i32>
//    ^^^^^ keyword.control.op.cuda-tile
//          ^^^^^^ variable.other.value.cuda-tile
//                  ^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ storage.type.element.cuda-tile
//                                  ^^^^ support.type.cuda-tile
//                                       ^^^ storage.type.element.cuda-tile
    } else {
      yield %6, %arg14 : tile<i32>, tile<i32>
//    ^^^^^ keyword.control.op.cuda-tile
//          ^^ variable.other.value.cuda-tile
//              ^^^^^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ storage.type.element.cuda-tile
//                                  ^^^^ support.type.cuda-tile
//                                       ^^^ storage.type.element.cuda-tile
    }
    continue %8#0, %8#1 : tile<i32>, tile<i32>
//  ^^^^^^^^ keyword.control.op.cuda-tile
//           ^^ variable.other.value.cuda-tile
//                 ^^ variable.other.value.cuda-tile
//                        ^^^^ support.type.cuda-tile
//                             ^^^ storage.type.element.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
  }
  %reshape_14 = reshape %1#1 : tile<i32> -> tile<1xi32>
//^^^^^^^^^^^ variable.other.value.cuda-tile
//              ^^^^^^^ support.function.op.cuda-tile
//                      ^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                  ^^^ storage.type.element.cuda-tile
//                                          ^^^^ support.type.cuda-tile
//                                               ^ constant.numeric.integer.dimension.cuda-tile
//                                                ^ keyword.operator.shape.cuda-tile
//                                                 ^^^ storage.type.element.cuda-tile
  %pview_15 = make_partition_view %tview_10 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                ^^^^^^^^^ variable.other.value.cuda-tile
//                                            ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                           ^^^^ entity.other.attribute-name.cuda-tile
//                                                                 ^ constant.numeric.integer.cuda-tile
//                                                                     ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                 ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                  ^ keyword.operator.shape.cuda-tile
//                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                        ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                 ^ constant.numeric.integer.cuda-tile
  %2 = store_view_tko weak %reshape_14, %pview_15[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                         ^^^^^^^^^^^ variable.other.value.cuda-tile
//                                      ^^^^^^^^^ variable.other.value.cuda-tile
//                                                ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                    ^^ variable.other.value.cuda-tile
//                                                                         ^^^^ support.type.cuda-tile
//                                                                              ^ constant.numeric.integer.dimension.cuda-tile
//                                                                               ^ keyword.operator.shape.cuda-tile
//                                                                                ^^^ storage.type.element.cuda-tile
//                                                                                      ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                     ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                           ^ constant.numeric.integer.cuda-tile
//                                                                                                               ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                           ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                            ^ keyword.operator.shape.cuda-tile
//                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                  ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                           ^ constant.numeric.integer.cuda-tile
//                                                                                                                                                 ^^^^ support.type.cuda-tile
//                                                                                                                                                      ^^^ storage.type.element.cuda-tile
//                                                                                                                                                              ^^^^^ support.type.cuda-tile
  %cst_-1_i32 = constant <i32: -1> : tile<i32>
//^^^^^^^^^^^ variable.other.value.cuda-tile
//              ^^^^^^^^ support.function.op.cuda-tile
//                        ^^^ storage.type.element.cuda-tile
//                             ^^ constant.numeric.integer.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^^^ storage.type.element.cuda-tile
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
//^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                ^^^^^^^^ support.function.op.cuda-tile
//                          ^^^ storage.type.element.cuda-tile
//                               ^ constant.numeric.integer.cuda-tile
//                                    ^^^^ support.type.cuda-tile
//                                         ^^^ storage.type.element.cuda-tile
  %cst_1_i32_17 = constant <i32: 1> : tile<i32>
//^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                ^^^^^^^^ support.function.op.cuda-tile
//                          ^^^ storage.type.element.cuda-tile
//                               ^ constant.numeric.integer.cuda-tile
//                                    ^^^^ support.type.cuda-tile
//                                         ^^^ storage.type.element.cuda-tile
  %pview_18 = make_partition_view %tview : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                ^^^^^^ variable.other.value.cuda-tile
//                                         ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                        ^^^^ entity.other.attribute-name.cuda-tile
//                                                              ^ constant.numeric.integer.cuda-tile
//                                                                  ^^^^^^^^^^^ support.type.cuda-tile
//                                                                              ^ constant.language.dynamic-dimension.cuda-tile
//                                                                               ^ keyword.operator.shape.cuda-tile
//                                                                                ^^^ storage.type.element.cuda-tile
//                                                                                     ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                              ^ constant.numeric.integer.cuda-tile
  %for:2 = for %loopIdx in (%cst_0_i32_16 to %cst_64_i32, step %cst_1_i32_17) : tile<i32> iter_values(%iterArg0 = %cst_-1_i32, %iterArg1 = %false) -> (tile<i32>, tile<i1>) {
//^^^^ variable.other.value.cuda-tile
//         ^^^ keyword.control.op.cuda-tile
//             ^^^^^^^^ variable.other.value.cuda-tile
//                          ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                                           ^^^^^^^^^^^ variable.other.value.cuda-tile
//                                                             ^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                                                                              ^^^^ support.type.cuda-tile
//                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                                    ^^^^^^^^^ variable.other.value.cuda-tile
//                                                                                                                ^^^^^^^^^^^ variable.other.value.cuda-tile
//                                                                                                                             ^^^^^^^^^ variable.other.value.cuda-tile
//                                                                                                                                         ^^^^^^ variable.other.value.cuda-tile
//                                                                                                                                                     ^^^^ support.type.cuda-tile
//                                                                                                                                                          ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                ^^^^ support.type.cuda-tile
//                                                                                                                                                                     ^^ storage.type.element.cuda-tile
    if %iterArg1 {
//  ^^ keyword.control.op.cuda-tile
//     ^^^^^^^^^ variable.other.value.cuda-tile
      continue %iterArg0, %iterArg1 : tile<i32>, tile<i1>
//    ^^^^^^^^ keyword.control.op.cuda-tile
//             ^^^^^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^^ variable.other.value.cuda-tile
//                                    ^^^^ support.type.cuda-tile
//                                         ^^^ storage.type.element.cuda-tile
//                                               ^^^^ support.type.cuda-tile
//                                                    ^^ storage.type.element.cuda-tile
    } else {
    }
    %4 = addi %1#1, %loopIdx : tile<i32>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//            ^^ variable.other.value.cuda-tile
//                  ^^^^^^^^ variable.other.value.cuda-tile
//                             ^^^^ support.type.cuda-tile
//                                  ^^^ storage.type.element.cuda-tile
    %5 = cmpi greater_than_or_equal %4, %assume_6, signed : tile<i32> -> tile<i1>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//                                  ^^ variable.other.value.cuda-tile
//                                      ^^^^^^^^^ variable.other.value.cuda-tile
//                                                          ^^^^ support.type.cuda-tile
//                                                               ^^^ storage.type.element.cuda-tile
//                                                                       ^^^^ support.type.cuda-tile
//                                                                            ^^ storage.type.element.cuda-tile
    if %5 {
//  ^^ keyword.control.op.cuda-tile
//     ^^ variable.other.value.cuda-tile
      continue %iterArg0, %true : tile<i32>, tile<i1>
//    ^^^^^^^^ keyword.control.op.cuda-tile
//             ^^^^^^^^^ variable.other.value.cuda-tile
//                        ^^^^^ variable.other.value.cuda-tile
//                                ^^^^ support.type.cuda-tile
//                                     ^^^ storage.type.element.cuda-tile
//                                           ^^^^ support.type.cuda-tile
//                                                ^^ storage.type.element.cuda-tile
    } else {
    }
    %tile_21, %result_token_22 = load_view_tko weak %pview_18[%4] token = %0 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token
//  ^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^ variable.other.value.cuda-tile
//                               ^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                                  ^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^ variable.other.value.cuda-tile
//                                                                ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                        ^^ variable.other.value.cuda-tile
//                                                                             ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                            ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                  ^ constant.numeric.integer.cuda-tile
//                                                                                                      ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                  ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                   ^ keyword.operator.shape.cuda-tile
//                                                                                                                    ^^^ storage.type.element.cuda-tile
//                                                                                                                         ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                  ^ constant.numeric.integer.cuda-tile
//                                                                                                                                        ^^^^ support.type.cuda-tile
//                                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                                     ^^^^ support.type.cuda-tile
//                                                                                                                                                          ^ constant.numeric.integer.dimension.cuda-tile
//                                                                                                                                                           ^ keyword.operator.shape.cuda-tile
//                                                                                                                                                            ^^^ storage.type.element.cuda-tile
//                                                                                                                                                                  ^^^^^ support.type.cuda-tile
    %reshape_23 = reshape %tile_21 : tile<1xf32> -> tile<f32>
//  ^^^^^^^^^^^ variable.other.value.cuda-tile
//                ^^^^^^^ support.function.op.cuda-tile
//                        ^^^^^^^^ variable.other.value.cuda-tile
//                                   ^^^^ support.type.cuda-tile
//                                        ^ constant.numeric.integer.dimension.cuda-tile
//                                         ^ keyword.operator.shape.cuda-tile
//                                          ^^^ storage.type.element.cuda-tile
//                                                  ^^^^ support.type.cuda-tile
//                                                       ^^^ storage.type.element.cuda-tile
    %6 = subf %reshape_23, %reshape  : tile<f32>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//            ^^^^^^^^^^^ variable.other.value.cuda-tile
//                         ^^^^^^^^ variable.other.value.cuda-tile
//                                     ^^^^ support.type.cuda-tile
//                                          ^^^ storage.type.element.cuda-tile
    %7 = cmpf less_than_or_equal ordered %6, %arg12 : tile<f32> -> tile<i1>
//  ^^ variable.other.value.cuda-tile
//       ^^^^ support.function.op.cuda-tile
//                                       ^^ variable.other.value.cuda-tile
//                                           ^^^^^^ variable.other.value.cuda-tile
//                                                    ^^^^ support.type.cuda-tile
//                                                         ^^^ storage.type.element.cuda-tile
//                                                                 ^^^^ support.type.cuda-tile
//                                                                      ^^ storage.type.element.cuda-tile
    if %7 {
//  ^^ keyword.control.op.cuda-tile
//     ^^ variable.other.value.cuda-tile
      continue %iterArg0, %iterArg1 : tile<i32>, tile<i1>
//    ^^^^^^^^ keyword.control.op.cuda-tile
//             ^^^^^^^^^ variable.other.value.cuda-tile
//                        ^^^^^^^^^ variable.other.value.cuda-tile
//                                    ^^^^ support.type.cuda-tile
//                                         ^^^ storage.type.element.cuda-tile
//                                               ^^^^ support.type.cuda-tile
//                                                    ^^ storage.type.element.cuda-tile
    } else {
    }
    continue %4, %true : tile<i32>, tile<i1>
//  ^^^^^^^^ keyword.control.op.cuda-tile
//           ^^ variable.other.value.cuda-tile
//               ^^^^^ variable.other.value.cuda-tile
//                       ^^^^ support.type.cuda-tile
//                            ^^^ storage.type.element.cuda-tile
//                                  ^^^^ support.type.cuda-tile
//                                       ^^ storage.type.element.cuda-tile
  }
  %reshape_19 = reshape %for#0 : tile<i32> -> tile<1xi32>
//^^^^^^^^^^^ variable.other.value.cuda-tile
//              ^^^^^^^ support.function.op.cuda-tile
//                      ^^^^ variable.other.value.cuda-tile
//                               ^^^^ support.type.cuda-tile
//                                    ^^^ storage.type.element.cuda-tile
//                                            ^^^^ support.type.cuda-tile
//                                                 ^ constant.numeric.integer.dimension.cuda-tile
//                                                  ^ keyword.operator.shape.cuda-tile
//                                                   ^^^ storage.type.element.cuda-tile
  %pview_20 = make_partition_view %tview_12 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
//^^^^^^^^^ variable.other.value.cuda-tile
//            ^^^^^^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                                ^^^^^^^^^ variable.other.value.cuda-tile
//                                            ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                           ^^^^ entity.other.attribute-name.cuda-tile
//                                                                 ^ constant.numeric.integer.cuda-tile
//                                                                     ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                 ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                  ^ keyword.operator.shape.cuda-tile
//                                                                                   ^^^ storage.type.element.cuda-tile
//                                                                                        ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                 ^ constant.numeric.integer.cuda-tile
  %3 = store_view_tko weak %reshape_19, %pview_20[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
//^^ variable.other.value.cuda-tile
//     ^^^^^^^^^^^^^^ support.function.op.cuda-tile
//                         ^^^^^^^^^^^ variable.other.value.cuda-tile
//                                      ^^^^^^^^^ variable.other.value.cuda-tile
//                                                ^^^^^^^^^^ variable.other.value.cuda-tile
//                                                            ^^^^^ entity.other.attribute-name.cuda-tile
//                                                                    ^^ variable.other.value.cuda-tile
//                                                                         ^^^^ support.type.cuda-tile
//                                                                              ^ constant.numeric.integer.dimension.cuda-tile
//                                                                               ^ keyword.operator.shape.cuda-tile
//                                                                                ^^^ storage.type.element.cuda-tile
//                                                                                      ^^^^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                     ^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                           ^ constant.numeric.integer.cuda-tile
//                                                                                                               ^^^^^^^^^^^ support.type.cuda-tile
//                                                                                                                           ^ constant.language.dynamic-dimension.cuda-tile
//                                                                                                                            ^ keyword.operator.shape.cuda-tile
//                                                                                                                             ^^^ storage.type.element.cuda-tile
//                                                                                                                                  ^^^^^^^ entity.other.attribute-name.cuda-tile
//                                                                                                                                           ^ constant.numeric.integer.cuda-tile
//                                                                                                                                                 ^^^^ support.type.cuda-tile
//                                                                                                                                                      ^^^ storage.type.element.cuda-tile
//                                                                                                                                                              ^^^^^ support.type.cuda-tile
  return
//^^^^^^ keyword.control.op.cuda-tile
}
