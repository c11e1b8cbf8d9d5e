entry @pdl_powi_insert_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_Si32_I256_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %1 = gdc_wait_tko token = %0 -> token
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
  %2 = join_tokens %0, %1 : token
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %2 inbounds = [true] : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %3 = join_tokens %0, %result_token : token
  %reshape = reshape %arg6 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<256xi32>
  %4 = fpowi %tile, %bcast : tile<256xf32>, tile<256xi32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %5 = extract %4[%cst_0_i32] : tile<256xf32> -> tile<64xf32>
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32>
  %reshape_5 = reshape %cst_2_f32 : tile<f32> -> tile<1xf32>
  %bcast_6 = broadcast %reshape_5 : tile<1xf32> -> tile<256xf32>
  %6 = mulf %tile, %bcast_6  : tile<256xf32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %7 = insert %5, %6[%cst_1_i32_7] : tile<64xf32>, tile<256xf32>
  %8 = join_tokens %1, %3 : token
  %9 = gdc_launch_dependents_tko token = %8 -> token
  %pview_8 = make_partition_view %tview_4 : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>
  %10 = join_tokens %0, %9, %1 : token
  %11 = store_view_tko weak %7, %pview_8[%blockId_x] token = %10 inbounds = [true] : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
entry @pdl_powi_insert_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_Si16_I128_I32(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i16>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %1 = gdc_wait_tko token = %0 -> token
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128), tensor_view<?xf16, strides=[1]>>
  %2 = join_tokens %0, %1 : token
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %2 inbounds = [true] : partition_view<tile=(128), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<128xf16>, token
  %3 = join_tokens %0, %result_token : token
  %reshape = reshape %arg6 : tile<i16> -> tile<1xi16>
  %bcast = broadcast %reshape : tile<1xi16> -> tile<128xi16>
  %4 = fpowi %tile, %bcast : tile<128xf16>, tile<128xi16>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %5 = extract %4[%cst_0_i32] : tile<128xf16> -> tile<32xf16>
  %cst_2_f16 = constant <f16: 2.000000e+00> : tile<f16>
  %reshape_5 = reshape %cst_2_f16 : tile<f16> -> tile<1xf16>
  %bcast_6 = broadcast %reshape_5 : tile<1xf16> -> tile<128xf16>
  %6 = mulf %tile, %bcast_6  : tile<128xf16>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %7 = insert %5, %6[%cst_1_i32_7] : tile<32xf16>, tile<128xf16>
  %8 = join_tokens %1, %3 : token
  %9 = gdc_launch_dependents_tko token = %8 -> token
  %pview_8 = make_partition_view %tview_4 : partition_view<tile=(128), tensor_view<?xf16, strides=[1]>>
  %10 = join_tokens %0, %9, %1 : token
  %11 = store_view_tko weak %7, %pview_8[%blockId_x] token = %10 inbounds = [true] : tile<128xf16>, partition_view<tile=(128), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token
  return
}
