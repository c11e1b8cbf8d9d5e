entry @vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32>
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
  %reshape = reshape %arg9 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<1024xf32>
  %1 = fma %bcast, %tile, %tile_10  : tile<1024xf32>
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
entry @vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_Sf16_I2048(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f16>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f16>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32>
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<2048xf16>, token
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<2048xf16>, token
  %reshape = reshape %arg9 : tile<f16> -> tile<1xf16>
  %bcast = broadcast %reshape : tile<1xf16> -> tile<2048xf16>
  %1 = fma %bcast, %tile, %tile_10  : tile<2048xf16>
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(2048), tensor_view<?xf16, strides=[1]>>
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<2048xf16>, partition_view<tile=(2048), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token
  return
}
