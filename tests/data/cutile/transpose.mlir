entry @transpose_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A3f32_3l0_4t1_p16_A3f32_3l0_4t1_p16_I64_I32(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<ptr<f32>>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<i32>, %arg23: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>>
  %assume_2 = assume div_by<16>, %arg17 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_12 = make_tensor_view %assume_0, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32>
  %assume_16 = assume bounded<0, ?>, %arg14 : tile<i32>
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32>
  %tview_18 = make_tensor_view %assume_1, shape = [%assume_13, %assume_14, %assume_15], strides = [%assume_16, %assume_17, 1] : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]>
  %assume_19 = assume bounded<0, ?>, %arg18 : tile<i32>
  %assume_20 = assume bounded<0, ?>, %arg19 : tile<i32>
  %assume_21 = assume bounded<0, ?>, %arg20 : tile<i32>
  %assume_22 = assume bounded<0, ?>, %arg21 : tile<i32>
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32>
  %tview_24 = make_tensor_view %assume_2, shape = [%assume_19, %assume_20, %assume_21], strides = [%assume_22, %assume_23, 1] : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_25, %blockId_y_26, %blockId_z_27 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x32xf32>, token
  %1 = permute %tile [1, 0] : tile<64x32xf32> -> tile<32x64xf32>
  %pview_28 = make_partition_view %tview_12 : partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>>
  %2 = store_view_tko weak %1, %pview_28[%blockId_y_26, %blockId_x] token = %0 : tile<32x64xf32>, partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32>
  %pview_32 = make_partition_view %tview_18 : partition_view<tile=(1x64x32), tensor_view<?x?x?xf32, strides=[?,?,1]>>
  %tile_33, %result_token_34 = load_view_tko weak %pview_32[%blockId_z_31, %blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(1x64x32), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> tile<1x64x32xf32>, token
  %3 = permute %tile_33 [0, 2, 1] : tile<1x64x32xf32> -> tile<1x32x64xf32>
  %pview_35 = make_partition_view %tview_24 : partition_view<tile=(1x32x64), tensor_view<?x?x?xf32, strides=[?,?,1]>>
  %4 = store_view_tko weak %3, %pview_35[%blockId_z_31, %blockId_y_26, %blockId_x] token = %0 : tile<1x32x64xf32>, partition_view<tile=(1x32x64), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> token
  return
}
entry @transpose_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_I128_I64(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<bf16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<ptr<bf16>>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<i32>, %arg23: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<bf16>>
  %assume_2 = assume div_by<16>, %arg17 : tile<ptr<bf16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_12 = make_tensor_view %assume_0, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32>
  %assume_16 = assume bounded<0, ?>, %arg14 : tile<i32>
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32>
  %tview_18 = make_tensor_view %assume_1, shape = [%assume_13, %assume_14, %assume_15], strides = [%assume_16, %assume_17, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_19 = assume bounded<0, ?>, %arg18 : tile<i32>
  %assume_20 = assume bounded<0, ?>, %arg19 : tile<i32>
  %assume_21 = assume bounded<0, ?>, %arg20 : tile<i32>
  %assume_22 = assume bounded<0, ?>, %arg21 : tile<i32>
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32>
  %tview_24 = make_tensor_view %assume_2, shape = [%assume_19, %assume_20, %assume_21], strides = [%assume_22, %assume_23, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_25, %blockId_y_26, %blockId_z_27 = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
  %1 = permute %tile [1, 0] : tile<128x64xbf16> -> tile<64x128xbf16>
  %pview_28 = make_partition_view %tview_12 : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>>
  %2 = store_view_tko weak %1, %pview_28[%blockId_y_26, %blockId_x] token = %0 : tile<64x128xbf16>, partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32>
  %pview_32 = make_partition_view %tview_18 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %tile_33, %result_token_34 = load_view_tko weak %pview_32[%blockId_z_31, %blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token
  %3 = permute %tile_33 [0, 2, 1] : tile<1x128x64xbf16> -> tile<1x64x128xbf16>
  %pview_35 = make_partition_view %tview_24 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %4 = store_view_tko weak %3, %pview_35[%blockId_z_31, %blockId_y_26, %blockId_x] token = %0 : tile<1x64x128xbf16>, partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
  return
}
