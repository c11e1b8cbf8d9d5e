entry @bmm_bias_relu_Kt1_A3f16_3l0_4t1_p16w_A3f16_3l0_4t1_p16w_A1f16_1t1_p16_A3f16_3l0_4t1_p16w_I64_I64_I32(%arg0: tile<ptr<f16>>, %arg1: tile<i64>, %arg2: tile<i64>, %arg3: tile<i64>, %arg4: tile<i64>, %arg5: tile<i64>, %arg6: tile<i64>, %arg7: tile<ptr<f16>>, %arg8: tile<i64>, %arg9: tile<i64>, %arg10: tile<i64>, %arg11: tile<i64>, %arg12: tile<i64>, %arg13: tile<i64>, %arg14: tile<ptr<f16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<ptr<f16>>, %arg18: tile<i64>, %arg19: tile<i64>, %arg20: tile<i64>, %arg21: tile<i64>, %arg22: tile<i64>, %arg23: tile<i64>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg7 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg14 : tile<ptr<f16>>
  %assume_2 = assume div_by<16>, %arg17 : tile<ptr<f16>>
  %cst_1_i64 = constant <i64: 1> : tile<i64>
  %cst_1_i64_3 = constant <i64: 1> : tile<i64>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i64_4 = constant <i64: 1> : tile<i64>
  %assume_5 = assume bounded<0, ?>, %arg1 : tile<i64>
  %assume_6 = assume bounded<0, ?>, %arg2 : tile<i64>
  %assume_7 = assume bounded<0, ?>, %arg3 : tile<i64>
  %assume_8 = assume bounded<0, ?>, %arg4 : tile<i64>
  %assume_9 = assume bounded<0, ?>, %arg5 : tile<i64>
  %tview = make_tensor_view %assume, shape = [%assume_5, %assume_6, %assume_7], strides = [%assume_8, %assume_9, 1] : tile<i64> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_10 = assume bounded<0, ?>, %arg8 : tile<i64>
  %assume_11 = assume bounded<0, ?>, %arg9 : tile<i64>
  %assume_12 = assume bounded<0, ?>, %arg10 : tile<i64>
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i64>
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i64>
  %tview_15 = make_tensor_view %assume_0, shape = [%assume_10, %assume_11, %assume_12], strides = [%assume_13, %assume_14, 1] : tile<i64> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_16 = assume bounded<0, ?>, %arg15 : tile<i32>
  %tview_17 = make_tensor_view %assume_1, shape = [%assume_16], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_18 = assume bounded<0, ?>, %arg18 : tile<i64>
  %assume_19 = assume bounded<0, ?>, %arg19 : tile<i64>
  %assume_20 = assume bounded<0, ?>, %arg20 : tile<i64>
  %assume_21 = assume bounded<0, ?>, %arg21 : tile<i64>
  %assume_22 = assume bounded<0, ?>, %arg22 : tile<i64>
  %tview_23 = make_tensor_view %assume_2, shape = [%assume_18, %assume_19, %assume_20], strides = [%assume_21, %assume_22, 1] : tile<i64> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_24, %blockId_y_25, %blockId_z_26 = get_tile_block_id : tile<i32>
  %blockId_x_27, %blockId_y_28, %blockId_z_29 = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x64x64xf32>
  %pview = make_partition_view %tview : partition_view<tile=(1x64x32), tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %1:3 = get_index_space_shape %pview : partition_view<tile=(1x64x32), tensor_view<?x?x?xf16, strides=[?,?,1]>> -> tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_30 = constant <i32: 1> : tile<i32>
  %2 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %3 = exti %blockId_y_25 signed : tile<i32> -> tile<i64>
  %pview_31 = make_partition_view %tview : partition_view<tile=(1x64x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %4 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %5 = exti %blockId_z_29 signed : tile<i32> -> tile<i64>
  %pview_32 = make_partition_view %tview_15 : partition_view<tile=(1x32x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %cst_0_f16 = constant <f16: 0.000000e+00> : tile<1x64x64xf16>
  %for = for %loopIdx in (%cst_0_i32 to %1#2, step %cst_1_i32_30) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x64x64xf32>) {
    %14 = exti %loopIdx signed : tile<i32> -> tile<i64>
    %tile_38, %result_token_39 = load_view_tko weak %pview_31[%2, %3, %14] token = %0 : partition_view<tile=(1x64x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i64> -> tile<1x64x32xf16>, token
    %15 = exti %loopIdx signed : tile<i32> -> tile<i64>
    %tile_40, %result_token_41 = load_view_tko weak %pview_32[%4, %15, %5] token = %0 : partition_view<tile=(1x32x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i64> -> tile<1x32x64xf16>, token
    %16 = mmaf %tile_38, %tile_40, %cst_0_f16 : tile<1x64x32xf16>, tile<1x32x64xf16>, tile<1x64x64xf16>
    %17 = ftof %16  : tile<1x64x64xf16> -> tile<1x64x64xf32>
    %18 = addf %iterArg0, %17  : tile<1x64x64xf32>
    continue %18 : tile<1x64x64xf32>
  }
  %pview_33 = make_partition_view %tview_17 : partition_view<tile=(64), tensor_view<?xf16, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview_33[%blockId_z_29] token = %0 : partition_view<tile=(64), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<64xf16>, token
  %6 = ftof %tile  : tile<64xf16> -> tile<64xf32>
  %reshape = reshape %6 : tile<64xf32> -> tile<1x1x64xf32>
  %bcast = broadcast %reshape : tile<1x1x64xf32> -> tile<1x64x64xf32>
  %7 = addf %for, %bcast  : tile<1x64x64xf32>
  %cst_0_f32_34 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_35 = reshape %cst_0_f32_34 : tile<f32> -> tile<1x1x1xf32>
  %bcast_36 = broadcast %reshape_35 : tile<1x1x1xf32> -> tile<1x64x64xf32>
  %8 = maxf %7, %bcast_36 : tile<1x64x64xf32>
  %9 = ftof %8  : tile<1x64x64xf32> -> tile<1x64x64xf16>
  %10 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %11 = exti %blockId_y_25 signed : tile<i32> -> tile<i64>
  %12 = exti %blockId_z_29 signed : tile<i32> -> tile<i64>
  %pview_37 = make_partition_view %tview_23 : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %13 = store_view_tko weak %9, %pview_37[%10, %11, %12] token = %0 : tile<1x64x64xf16>, partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i64> -> token
  return
}
