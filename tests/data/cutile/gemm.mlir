entry @gemm_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I64_I8(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %cst_8_i32 = constant <i32: 8> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %3 = muli %cst_8_i32, %2#1 : tile<i32>
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32>
  %5 = muli %4, %cst_8_i32 : tile<i32>
  %6 = subi %1#0, %5 : tile<i32>
  %7 = mini %6, %cst_8_i32 signed : tile<i32>
  %8 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %11 = xori %9, %10 : tile<i1>
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %13 = andi %11, %12 : tile<i1>
  %14 = addi %8, %3 : tile<i32>
  %15 = select %13, %14, %8 : tile<i1>, tile<i32>
  %16 = remi %15, %7 signed : tile<i32>
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %19 = xori %17, %18 : tile<i1>
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %21 = andi %19, %20 : tile<i1>
  %22 = addi %16, %7 : tile<i32>
  %23 = select %21, %22, %16 : tile<i1>, tile<i32>
  %24 = addi %5, %23 : tile<i32>
  %25 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32_17 = constant <i32: 0> : tile<i32>
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %28 = xori %26, %27 : tile<i1>
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %30 = andi %28, %29 : tile<i1>
  %31 = addi %25, %3 : tile<i32>
  %32 = select %30, %31, %25 : tile<i1>, tile<i32>
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pview_18 = make_partition_view %tview : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>>
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_19 = constant <i32: 0> : tile<i32>
  %cst_1_i32_20 = constant <i32: 1> : tile<i32>
  %pview_21 = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x64xf16>, token
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token
    %37 = mmaf %tile, %tile_24, %iterArg0 : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32>
    continue %37 : tile<128x128xf32>
  }
  %35 = ftof %for  : tile<128x128xf32> -> tile<128x128xf16>
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
  %36 = store_view_tko weak %35, %pview_23[%24, %33] token = %0 : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  return
}
entry @gemm_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I128_I256_I64_I8(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %cst_8_i32 = constant <i32: 8> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview_14 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %3 = muli %cst_8_i32, %2#1 : tile<i32>
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32>
  %5 = muli %4, %cst_8_i32 : tile<i32>
  %6 = subi %1#0, %5 : tile<i32>
  %7 = mini %6, %cst_8_i32 signed : tile<i32>
  %8 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %11 = xori %9, %10 : tile<i1>
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %13 = andi %11, %12 : tile<i1>
  %14 = addi %8, %3 : tile<i32>
  %15 = select %13, %14, %8 : tile<i1>, tile<i32>
  %16 = remi %15, %7 signed : tile<i32>
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %19 = xori %17, %18 : tile<i1>
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %21 = andi %19, %20 : tile<i1>
  %22 = addi %16, %7 : tile<i32>
  %23 = select %21, %22, %16 : tile<i1>, tile<i32>
  %24 = addi %5, %23 : tile<i32>
  %25 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32_17 = constant <i32: 0> : tile<i32>
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %28 = xori %26, %27 : tile<i1>
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %30 = andi %28, %29 : tile<i1>
  %31 = addi %25, %3 : tile<i32>
  %32 = select %30, %31, %25 : tile<i1>, tile<i32>
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x256xf32>
  %pview_18 = make_partition_view %tview : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>>
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_19 = constant <i32: 0> : tile<i32>
  %cst_1_i32_20 = constant <i32: 1> : tile<i32>
  %pview_21 = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x256xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x256xbf16>, token
    %36 = mmaf %tile, %tile_24, %iterArg0 : tile<128x64xbf16>, tile<64x256xbf16>, tile<128x256xf32>
    continue %36 : tile<128x256xf32>
  }
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>
  %35 = store_view_tko weak %for, %pview_23[%24, %33] token = %0 : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
entry @gemm_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I64_I32_I4(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %cst_4_i32 = constant <i32: 4> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %3 = muli %cst_4_i32, %2#1 : tile<i32>
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32>
  %5 = muli %4, %cst_4_i32 : tile<i32>
  %6 = subi %1#0, %5 : tile<i32>
  %7 = mini %6, %cst_4_i32 signed : tile<i32>
  %8 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %11 = xori %9, %10 : tile<i1>
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %13 = andi %11, %12 : tile<i1>
  %14 = addi %8, %3 : tile<i32>
  %15 = select %13, %14, %8 : tile<i1>, tile<i32>
  %16 = remi %15, %7 signed : tile<i32>
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %19 = xori %17, %18 : tile<i1>
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %21 = andi %19, %20 : tile<i1>
  %22 = addi %16, %7 : tile<i32>
  %23 = select %21, %22, %16 : tile<i1>, tile<i32>
  %24 = addi %5, %23 : tile<i32>
  %25 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32_17 = constant <i32: 0> : tile<i32>
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %28 = xori %26, %27 : tile<i1>
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %30 = andi %28, %29 : tile<i1>
  %31 = addi %25, %3 : tile<i32>
  %32 = select %30, %31, %25 : tile<i1>, tile<i32>
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %pview_18 = make_partition_view %tview : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>>
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_19 = constant <i32: 0> : tile<i32>
  %cst_1_i32_20 = constant <i32: 1> : tile<i32>
  %pview_21 = make_partition_view %tview : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x32xf32>, token
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x64xf32>, token
    %36 = ftof %tile  : tile<64x32xf32> -> tile<64x32xtf32>
    %37 = ftof %tile_24  : tile<32x64xf32> -> tile<32x64xtf32>
    %38 = mmaf %36, %37, %iterArg0 : tile<64x32xtf32>, tile<32x64xtf32>, tile<64x64xf32>
    continue %38 : tile<64x64xf32>
  }
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
  %35 = store_view_tko weak %for, %pview_23[%24, %33] token = %0 : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  return
}
entry @gemm_Kt1_A2f8m3fn_1l0_2t1_p16_A2f8m3fn_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I128_I8(%arg0: tile<ptr<f8E4M3FN>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f8E4M3FN>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f8E4M3FN>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f8E4M3FN>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %cst_8_i32 = constant <i32: 8> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %3 = muli %cst_8_i32, %2#1 : tile<i32>
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32>
  %5 = muli %4, %cst_8_i32 : tile<i32>
  %6 = subi %1#0, %5 : tile<i32>
  %7 = mini %6, %cst_8_i32 signed : tile<i32>
  %8 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %11 = xori %9, %10 : tile<i1>
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %13 = andi %11, %12 : tile<i1>
  %14 = addi %8, %3 : tile<i32>
  %15 = select %13, %14, %8 : tile<i1>, tile<i32>
  %16 = remi %15, %7 signed : tile<i32>
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %19 = xori %17, %18 : tile<i1>
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1>
  %21 = andi %19, %20 : tile<i1>
  %22 = addi %16, %7 : tile<i32>
  %23 = select %21, %22, %16 : tile<i1>, tile<i32>
  %24 = addi %5, %23 : tile<i32>
  %25 = remi %blockId_x, %3 signed : tile<i32>
  %cst_0_i32_17 = constant <i32: 0> : tile<i32>
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %28 = xori %26, %27 : tile<i1>
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1>
  %30 = andi %28, %29 : tile<i1>
  %31 = addi %25, %3 : tile<i32>
  %32 = select %30, %31, %25 : tile<i1>, tile<i32>
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32>
  %pview_18 = make_partition_view %tview : partition_view<tile=(128x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(128x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>> -> tile<i32>
  %cst_0_i32_19 = constant <i32: 0> : tile<i32>
  %cst_1_i32_20 = constant <i32: 1> : tile<i32>
  %pview_21 = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<128x128xf8E4M3FN>, token
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<128x128xf8E4M3FN>, token
    %37 = mmaf %tile, %tile_24, %iterArg0 : tile<128x128xf8E4M3FN>, tile<128x128xf8E4M3FN>, tile<128x128xf32>
    continue %37 : tile<128x128xf32>
  }
  %35 = ftof %for  : tile<128x128xf32> -> tile<128x128xf16>
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>
  %36 = store_view_tko weak %35, %pview_23[%24, %33] token = %0 : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  return
}
