entry @column_sum_Kt1_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I128_I4(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %cst_4_i32 = constant <i32: 4> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x128xf32>
  %blockId_x_9, %blockId_y_10, %blockId_z_11 = get_tile_block_id : tile<i32>
  %2 = muli %blockId_x_9, %cst_4_i32 : tile<i32>
  %3 = addi %2, %cst_4_i32 : tile<i32>
  %4 = mini %3, %1#0 signed : tile<i32>
  %cst_1_i32_12 = constant <i32: 1> : tile<i32>
  %pview_13 = make_partition_view %tview : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %for = for %loopIdx in (%2 to %4, step %cst_1_i32_12) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_13[%loopIdx, %blockId_y] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token
    %6 = ftof %tile  : tile<64x128xf16> -> tile<64x128xf32>
    %7 = addf %iterArg0, %6  : tile<64x128xf32>
    continue %7 : tile<64x128xf32>
  }
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %reduce = reduce %for dim=0 identities=[0.000000e+00 : f32] : tile<64x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %6 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %6 : tile<f32>
  }
  %reshape = reshape %reduce : tile<128xf32> -> tile<1x128xf32>
  %pview_14 = make_partition_view %tview_8 : partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>
  %5 = atomic_red_view_tko relaxed device %pview_14[%cst_0_i32, %blockId_y], addf, %reshape token = %0 : tile<1x128xf32>, partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
entry @column_sum_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I32_I256_I16(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %cst_16_i32 = constant <i32: 16> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(32x256), tensor_view<?x?xf32, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(32x256), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<32x256xf32>
  %blockId_x_9, %blockId_y_10, %blockId_z_11 = get_tile_block_id : tile<i32>
  %2 = muli %blockId_x_9, %cst_16_i32 : tile<i32>
  %3 = addi %2, %cst_16_i32 : tile<i32>
  %4 = mini %3, %1#0 signed : tile<i32>
  %cst_1_i32_12 = constant <i32: 1> : tile<i32>
  %pview_13 = make_partition_view %tview : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %for = for %loopIdx in (%2 to %4, step %cst_1_i32_12) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<32x256xf32>) {
    %tile, %result_token = load_view_tko weak %pview_13[%loopIdx, %blockId_y] token = %0 : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x256xf32>, token
    %6 = addf %iterArg0, %tile  : tile<32x256xf32>
    continue %6 : tile<32x256xf32>
  }
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %reduce = reduce %for dim=0 identities=[0.000000e+00 : f32] : tile<32x256xf32> -> tile<256xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %6 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %6 : tile<f32>
  }
  %reshape = reshape %reduce : tile<256xf32> -> tile<1x256xf32>
  %pview_14 = make_partition_view %tview_8 : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>
  %5 = atomic_red_view_tko relaxed device %pview_14[%cst_0_i32, %blockId_y], addf, %reshape token = %0 : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
