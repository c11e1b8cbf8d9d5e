entry @gemm_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I64_I8(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc29)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc30)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>> loc(#loc31)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>> loc(#loc32)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc29)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc29)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc29)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc29)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc29)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc29)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc29)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc29)
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc29)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc29)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc29)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc29)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc29)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc29)
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc29)
  %cst_8_i32 = constant <i32: 8> : tile<i32> loc(#loc29)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc33)
  %pview = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc34)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc34)
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc35)
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc35)
  %3 = muli %cst_8_i32, %2#1 : tile<i32> loc(#loc36)
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32> loc(#loc37)
  %5 = muli %4, %cst_8_i32 : tile<i32> loc(#loc38)
  %6 = subi %1#0, %5 : tile<i32> loc(#loc39)
  %7 = mini %6, %cst_8_i32 signed : tile<i32> loc(#loc40)
  %8 = remi %blockId_x, %3 signed : tile<i32> loc(#loc41)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc41)
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc41)
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc41)
  %11 = xori %9, %10 : tile<i1> loc(#loc41)
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc41)
  %13 = andi %11, %12 : tile<i1> loc(#loc41)
  %14 = addi %8, %3 : tile<i32> loc(#loc41)
  %15 = select %13, %14, %8 : tile<i1>, tile<i32> loc(#loc41)
  %16 = remi %15, %7 signed : tile<i32> loc(#loc42)
  %cst_0_i32_16 = constant <i32: 0> : tile<i32> loc(#loc42)
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc42)
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc42)
  %19 = xori %17, %18 : tile<i1> loc(#loc42)
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc42)
  %21 = andi %19, %20 : tile<i1> loc(#loc42)
  %22 = addi %16, %7 : tile<i32> loc(#loc42)
  %23 = select %21, %22, %16 : tile<i1>, tile<i32> loc(#loc42)
  %24 = addi %5, %23 : tile<i32> loc(#loc43)
  %25 = remi %blockId_x, %3 signed : tile<i32> loc(#loc44)
  %cst_0_i32_17 = constant <i32: 0> : tile<i32> loc(#loc44)
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc44)
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc44)
  %28 = xori %26, %27 : tile<i1> loc(#loc44)
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc44)
  %30 = andi %28, %29 : tile<i1> loc(#loc44)
  %31 = addi %25, %3 : tile<i32> loc(#loc44)
  %32 = select %30, %31, %25 : tile<i1>, tile<i32> loc(#loc44)
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32> loc(#loc45)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32> loc(#loc46)
  %pview_18 = make_partition_view %tview : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc47)
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(128x64), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc47)
  %cst_0_i32_19 = constant <i32: 0> : tile<i32> loc(#loc48)
  %cst_1_i32_20 = constant <i32: 1> : tile<i32> loc(#loc48)
  %pview_21 = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc49)
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc50)
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<128x64xf16>, token loc(#loc49)
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token loc(#loc50)
    %37 = mmaf %tile, %tile_24, %iterArg0 : tile<128x64xf16>, tile<64x128xf16>, tile<128x128xf32> loc(#loc52)
    continue %37 : tile<128x128xf32> loc(#loc51)
  } loc(#loc51)
  %35 = ftof %for  : tile<128x128xf32> -> tile<128x128xf16> loc(#loc53)
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc54)
  %36 = store_view_tko weak %35, %pview_23[%24, %33] token = %0 : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token loc(#loc54)
  return loc(#loc26)
} loc(#loc29)
entry @gemm_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I128_I256_I64_I8(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc55)
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>> loc(#loc56)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>> loc(#loc57)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>> loc(#loc58)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc55)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc55)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc55)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc55)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc55)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc55)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]> loc(#loc55)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc55)
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc55)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc55)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]> loc(#loc55)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc55)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc55)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc55)
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc55)
  %cst_8_i32 = constant <i32: 8> : tile<i32> loc(#loc55)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc59)
  %pview = make_partition_view %tview_14 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc60)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc60)
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc61)
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc61)
  %3 = muli %cst_8_i32, %2#1 : tile<i32> loc(#loc62)
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32> loc(#loc63)
  %5 = muli %4, %cst_8_i32 : tile<i32> loc(#loc64)
  %6 = subi %1#0, %5 : tile<i32> loc(#loc65)
  %7 = mini %6, %cst_8_i32 signed : tile<i32> loc(#loc66)
  %8 = remi %blockId_x, %3 signed : tile<i32> loc(#loc67)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc67)
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc67)
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc67)
  %11 = xori %9, %10 : tile<i1> loc(#loc67)
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc67)
  %13 = andi %11, %12 : tile<i1> loc(#loc67)
  %14 = addi %8, %3 : tile<i32> loc(#loc67)
  %15 = select %13, %14, %8 : tile<i1>, tile<i32> loc(#loc67)
  %16 = remi %15, %7 signed : tile<i32> loc(#loc68)
  %cst_0_i32_16 = constant <i32: 0> : tile<i32> loc(#loc68)
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc68)
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc68)
  %19 = xori %17, %18 : tile<i1> loc(#loc68)
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc68)
  %21 = andi %19, %20 : tile<i1> loc(#loc68)
  %22 = addi %16, %7 : tile<i32> loc(#loc68)
  %23 = select %21, %22, %16 : tile<i1>, tile<i32> loc(#loc68)
  %24 = addi %5, %23 : tile<i32> loc(#loc69)
  %25 = remi %blockId_x, %3 signed : tile<i32> loc(#loc70)
  %cst_0_i32_17 = constant <i32: 0> : tile<i32> loc(#loc70)
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc70)
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc70)
  %28 = xori %26, %27 : tile<i1> loc(#loc70)
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc70)
  %30 = andi %28, %29 : tile<i1> loc(#loc70)
  %31 = addi %25, %3 : tile<i32> loc(#loc70)
  %32 = select %30, %31, %25 : tile<i1>, tile<i32> loc(#loc70)
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32> loc(#loc71)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x256xf32> loc(#loc72)
  %pview_18 = make_partition_view %tview : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc73)
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(128x64), tensor_view<?x?xbf16, strides=[?,1]>> -> tile<i32> loc(#loc73)
  %cst_0_i32_19 = constant <i32: 0> : tile<i32> loc(#loc74)
  %cst_1_i32_20 = constant <i32: 1> : tile<i32> loc(#loc74)
  %pview_21 = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc75)
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc76)
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x256xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token loc(#loc75)
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(64x256), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<64x256xbf16>, token loc(#loc76)
    %36 = mmaf %tile, %tile_24, %iterArg0 : tile<128x64xbf16>, tile<64x256xbf16>, tile<128x256xf32> loc(#loc78)
    continue %36 : tile<128x256xf32> loc(#loc77)
  } loc(#loc77)
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc79)
  %35 = store_view_tko weak %for, %pview_23[%24, %33] token = %0 : tile<128x256xf32>, partition_view<tile=(128x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc79)
  return loc(#loc26)
} loc(#loc55)
entry @gemm_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I64_I32_I4(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc80)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc81)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc82)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>> loc(#loc83)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc80)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc80)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc80)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc80)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc80)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc80)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc80)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc80)
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc80)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc80)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc80)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc80)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc80)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc80)
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc80)
  %cst_4_i32 = constant <i32: 4> : tile<i32> loc(#loc80)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc84)
  %pview = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc85)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc85)
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc86)
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc86)
  %3 = muli %cst_4_i32, %2#1 : tile<i32> loc(#loc87)
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32> loc(#loc88)
  %5 = muli %4, %cst_4_i32 : tile<i32> loc(#loc89)
  %6 = subi %1#0, %5 : tile<i32> loc(#loc90)
  %7 = mini %6, %cst_4_i32 signed : tile<i32> loc(#loc91)
  %8 = remi %blockId_x, %3 signed : tile<i32> loc(#loc92)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc92)
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc92)
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc92)
  %11 = xori %9, %10 : tile<i1> loc(#loc92)
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc92)
  %13 = andi %11, %12 : tile<i1> loc(#loc92)
  %14 = addi %8, %3 : tile<i32> loc(#loc92)
  %15 = select %13, %14, %8 : tile<i1>, tile<i32> loc(#loc92)
  %16 = remi %15, %7 signed : tile<i32> loc(#loc93)
  %cst_0_i32_16 = constant <i32: 0> : tile<i32> loc(#loc93)
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc93)
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc93)
  %19 = xori %17, %18 : tile<i1> loc(#loc93)
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc93)
  %21 = andi %19, %20 : tile<i1> loc(#loc93)
  %22 = addi %16, %7 : tile<i32> loc(#loc93)
  %23 = select %21, %22, %16 : tile<i1>, tile<i32> loc(#loc93)
  %24 = addi %5, %23 : tile<i32> loc(#loc94)
  %25 = remi %blockId_x, %3 signed : tile<i32> loc(#loc95)
  %cst_0_i32_17 = constant <i32: 0> : tile<i32> loc(#loc95)
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc95)
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc95)
  %28 = xori %26, %27 : tile<i1> loc(#loc95)
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc95)
  %30 = andi %28, %29 : tile<i1> loc(#loc95)
  %31 = addi %25, %3 : tile<i32> loc(#loc95)
  %32 = select %30, %31, %25 : tile<i1>, tile<i32> loc(#loc95)
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32> loc(#loc96)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32> loc(#loc97)
  %pview_18 = make_partition_view %tview : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc98)
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(64x32), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc98)
  %cst_0_i32_19 = constant <i32: 0> : tile<i32> loc(#loc99)
  %cst_1_i32_20 = constant <i32: 1> : tile<i32> loc(#loc99)
  %pview_21 = make_partition_view %tview : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc100)
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc101)
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x32xf32>, token loc(#loc100)
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x64xf32>, token loc(#loc101)
    %36 = ftof %tile  : tile<64x32xf32> -> tile<64x32xtf32> loc(#loc103)
    %37 = ftof %tile_24  : tile<32x64xf32> -> tile<32x64xtf32> loc(#loc104)
    %38 = mmaf %36, %37, %iterArg0 : tile<64x32xtf32>, tile<32x64xtf32>, tile<64x64xf32> loc(#loc105)
    continue %38 : tile<64x64xf32> loc(#loc102)
  } loc(#loc102)
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc106)
  %35 = store_view_tko weak %for, %pview_23[%24, %33] token = %0 : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc106)
  return loc(#loc26)
} loc(#loc80)
entry @gemm_Kt1_A2f8m3fn_1l0_2t1_p16_A2f8m3fn_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I128_I8(%arg0: tile<ptr<f8E4M3FN>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f8E4M3FN>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc107)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f8E4M3FN>> loc(#loc108)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f8E4M3FN>> loc(#loc109)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f16>> loc(#loc110)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc107)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc107)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc107)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc107)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc107)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc107)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]> loc(#loc107)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc107)
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc107)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc107)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf8E4M3FN, strides=[?,1]> loc(#loc107)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc107)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc107)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc107)
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc107)
  %cst_8_i32 = constant <i32: 8> : tile<i32> loc(#loc107)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc111)
  %pview = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc112)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc112)
  %pview_15 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc113)
  %2:2 = get_index_space_shape %pview_15 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc113)
  %3 = muli %cst_8_i32, %2#1 : tile<i32> loc(#loc114)
  %4 = divi %blockId_x, %3 signed rounding<negative_inf> : tile<i32> loc(#loc115)
  %5 = muli %4, %cst_8_i32 : tile<i32> loc(#loc116)
  %6 = subi %1#0, %5 : tile<i32> loc(#loc117)
  %7 = mini %6, %cst_8_i32 signed : tile<i32> loc(#loc118)
  %8 = remi %blockId_x, %3 signed : tile<i32> loc(#loc119)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc119)
  %9 = cmpi less_than %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc119)
  %10 = cmpi less_than %3, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc119)
  %11 = xori %9, %10 : tile<i1> loc(#loc119)
  %12 = cmpi not_equal %8, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc119)
  %13 = andi %11, %12 : tile<i1> loc(#loc119)
  %14 = addi %8, %3 : tile<i32> loc(#loc119)
  %15 = select %13, %14, %8 : tile<i1>, tile<i32> loc(#loc119)
  %16 = remi %15, %7 signed : tile<i32> loc(#loc120)
  %cst_0_i32_16 = constant <i32: 0> : tile<i32> loc(#loc120)
  %17 = cmpi less_than %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc120)
  %18 = cmpi less_than %7, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc120)
  %19 = xori %17, %18 : tile<i1> loc(#loc120)
  %20 = cmpi not_equal %16, %cst_0_i32_16, signed : tile<i32> -> tile<i1> loc(#loc120)
  %21 = andi %19, %20 : tile<i1> loc(#loc120)
  %22 = addi %16, %7 : tile<i32> loc(#loc120)
  %23 = select %21, %22, %16 : tile<i1>, tile<i32> loc(#loc120)
  %24 = addi %5, %23 : tile<i32> loc(#loc121)
  %25 = remi %blockId_x, %3 signed : tile<i32> loc(#loc122)
  %cst_0_i32_17 = constant <i32: 0> : tile<i32> loc(#loc122)
  %26 = cmpi less_than %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc122)
  %27 = cmpi less_than %3, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc122)
  %28 = xori %26, %27 : tile<i1> loc(#loc122)
  %29 = cmpi not_equal %25, %cst_0_i32_17, signed : tile<i32> -> tile<i1> loc(#loc122)
  %30 = andi %28, %29 : tile<i1> loc(#loc122)
  %31 = addi %25, %3 : tile<i32> loc(#loc122)
  %32 = select %30, %31, %25 : tile<i1>, tile<i32> loc(#loc122)
  %33 = divi %32, %7 signed rounding<negative_inf> : tile<i32> loc(#loc123)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x128xf32> loc(#loc124)
  %pview_18 = make_partition_view %tview : partition_view<tile=(128x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>> loc(#loc125)
  %34:2 = get_index_space_shape %pview_18 : partition_view<tile=(128x128), tensor_view<?x?xf8E4M3FN, strides=[?,1]>> -> tile<i32> loc(#loc125)
  %cst_0_i32_19 = constant <i32: 0> : tile<i32> loc(#loc126)
  %cst_1_i32_20 = constant <i32: 1> : tile<i32> loc(#loc126)
  %pview_21 = make_partition_view %tview : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>> loc(#loc127)
  %pview_22 = make_partition_view %tview_10 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>> loc(#loc128)
  %for = for %loopIdx in (%cst_0_i32_19 to %34#1, step %cst_1_i32_20) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<128x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_21[%24, %loopIdx] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<128x128xf8E4M3FN>, token loc(#loc127)
    %tile_24, %result_token_25 = load_view_tko weak %pview_22[%loopIdx, %33] token = %0 : partition_view<tile=(128x128), padding_value = zero, tensor_view<?x?xf8E4M3FN, strides=[?,1]>>, tile<i32> -> tile<128x128xf8E4M3FN>, token loc(#loc128)
    %37 = mmaf %tile, %tile_24, %iterArg0 : tile<128x128xf8E4M3FN>, tile<128x128xf8E4M3FN>, tile<128x128xf32> loc(#loc130)
    continue %37 : tile<128x128xf32> loc(#loc129)
  } loc(#loc129)
  %35 = ftof %for  : tile<128x128xf32> -> tile<128x128xf16> loc(#loc131)
  %pview_23 = make_partition_view %tview_14 : partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc132)
  %36 = store_view_tko weak %35, %pview_23[%24, %33] token = %0 : tile<128x128xf16>, partition_view<tile=(128x128), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token loc(#loc132)
  return loc(#loc26)
} loc(#loc107)
#di_file = #cuda_tile.di_file<"gemm.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/gemm.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/gemm.py":8:9)
#loc2 = loc("tests/data/cutile/kernels/gemm.py":8:12)
#loc3 = loc("tests/data/cutile/kernels/gemm.py":8:15)
#loc4 = loc("tests/data/cutile/kernels/gemm.py":9:10)
#loc5 = loc("tests/data/cutile/kernels/gemm.py":10:14)
#loc6 = loc("tests/data/cutile/kernels/gemm.py":11:14)
#loc7 = loc("tests/data/cutile/kernels/gemm.py":12:17)
#loc8 = loc("tests/data/cutile/kernels/gemm.py":13:15)
#loc9 = loc("tests/data/cutile/kernels/gemm.py":13:14)
#loc10 = loc("tests/data/cutile/kernels/gemm.py":14:24)
#loc11 = loc("tests/data/cutile/kernels/gemm.py":14:20)
#loc12 = loc("tests/data/cutile/kernels/gemm.py":15:23)
#loc13 = loc("tests/data/cutile/kernels/gemm.py":15:22)
#loc14 = loc("tests/data/cutile/kernels/gemm.py":15:12)
#loc15 = loc("tests/data/cutile/kernels/gemm.py":16:13)
#loc16 = loc("tests/data/cutile/kernels/gemm.py":16:12)
#loc17 = loc("tests/data/cutile/kernels/gemm.py":18:10)
#loc18 = loc("tests/data/cutile/kernels/gemm.py":20:19)
#loc19 = loc("tests/data/cutile/kernels/gemm.py":20:13)
#loc20 = loc("tests/data/cutile/kernels/gemm.py":21:17)
#loc21 = loc("tests/data/cutile/kernels/gemm.py":22:17)
#loc22 = loc("tests/data/cutile/kernels/gemm.py":20:4)
#loc23 = loc("tests/data/cutile/kernels/gemm.py":26:14)
#loc24 = loc("tests/data/cutile/kernels/gemm.py":27:43)
#loc25 = loc("tests/data/cutile/kernels/gemm.py":27:4)
#loc26 = loc(unknown)
#loc27 = loc("tests/data/cutile/kernels/gemm.py":24:21)
#loc28 = loc("tests/data/cutile/kernels/gemm.py":25:21)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "gemm", linkageName = "gemm_Kt1_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I64_I8", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "gemm", linkageName = "gemm_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I128_I256_I64_I8", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram2 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "gemm", linkageName = "gemm_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I64_I32_I4", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram3 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "gemm", linkageName = "gemm_Kt1_A2f8m3fn_1l0_2t1_p16_A2f8m3fn_1l0_2t1_p16_A2f16_1l0_2t1_p16_I128_I128_I128_I8", compileUnit = #di_compile_unit, scopeLine = 7>
#loc29 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc48 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc49 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc50 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc51 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc52 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc53 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
#loc54 = #cuda_tile.di_loc<#loc25 in #di_subprogram>
#loc55 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc56 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc57 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc58 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc59 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc60 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc61 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc62 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc63 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc64 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc65 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc66 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc67 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc68 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc69 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc70 = #cuda_tile.di_loc<#loc15 in #di_subprogram1>
#loc71 = #cuda_tile.di_loc<#loc16 in #di_subprogram1>
#loc72 = #cuda_tile.di_loc<#loc17 in #di_subprogram1>
#loc73 = #cuda_tile.di_loc<#loc18 in #di_subprogram1>
#loc74 = #cuda_tile.di_loc<#loc19 in #di_subprogram1>
#loc75 = #cuda_tile.di_loc<#loc20 in #di_subprogram1>
#loc76 = #cuda_tile.di_loc<#loc21 in #di_subprogram1>
#loc77 = #cuda_tile.di_loc<#loc22 in #di_subprogram1>
#loc78 = #cuda_tile.di_loc<#loc23 in #di_subprogram1>
#loc79 = #cuda_tile.di_loc<#loc25 in #di_subprogram1>
#loc80 = #cuda_tile.di_loc<#loc in #di_subprogram2>
#loc81 = #cuda_tile.di_loc<#loc1 in #di_subprogram2>
#loc82 = #cuda_tile.di_loc<#loc2 in #di_subprogram2>
#loc83 = #cuda_tile.di_loc<#loc3 in #di_subprogram2>
#loc84 = #cuda_tile.di_loc<#loc4 in #di_subprogram2>
#loc85 = #cuda_tile.di_loc<#loc5 in #di_subprogram2>
#loc86 = #cuda_tile.di_loc<#loc6 in #di_subprogram2>
#loc87 = #cuda_tile.di_loc<#loc7 in #di_subprogram2>
#loc88 = #cuda_tile.di_loc<#loc8 in #di_subprogram2>
#loc89 = #cuda_tile.di_loc<#loc9 in #di_subprogram2>
#loc90 = #cuda_tile.di_loc<#loc10 in #di_subprogram2>
#loc91 = #cuda_tile.di_loc<#loc11 in #di_subprogram2>
#loc92 = #cuda_tile.di_loc<#loc12 in #di_subprogram2>
#loc93 = #cuda_tile.di_loc<#loc13 in #di_subprogram2>
#loc94 = #cuda_tile.di_loc<#loc14 in #di_subprogram2>
#loc95 = #cuda_tile.di_loc<#loc15 in #di_subprogram2>
#loc96 = #cuda_tile.di_loc<#loc16 in #di_subprogram2>
#loc97 = #cuda_tile.di_loc<#loc17 in #di_subprogram2>
#loc98 = #cuda_tile.di_loc<#loc18 in #di_subprogram2>
#loc99 = #cuda_tile.di_loc<#loc19 in #di_subprogram2>
#loc100 = #cuda_tile.di_loc<#loc20 in #di_subprogram2>
#loc101 = #cuda_tile.di_loc<#loc21 in #di_subprogram2>
#loc102 = #cuda_tile.di_loc<#loc22 in #di_subprogram2>
#loc103 = #cuda_tile.di_loc<#loc27 in #di_subprogram2>
#loc104 = #cuda_tile.di_loc<#loc28 in #di_subprogram2>
#loc105 = #cuda_tile.di_loc<#loc23 in #di_subprogram2>
#loc106 = #cuda_tile.di_loc<#loc25 in #di_subprogram2>
#loc107 = #cuda_tile.di_loc<#loc in #di_subprogram3>
#loc108 = #cuda_tile.di_loc<#loc1 in #di_subprogram3>
#loc109 = #cuda_tile.di_loc<#loc2 in #di_subprogram3>
#loc110 = #cuda_tile.di_loc<#loc3 in #di_subprogram3>
#loc111 = #cuda_tile.di_loc<#loc4 in #di_subprogram3>
#loc112 = #cuda_tile.di_loc<#loc5 in #di_subprogram3>
#loc113 = #cuda_tile.di_loc<#loc6 in #di_subprogram3>
#loc114 = #cuda_tile.di_loc<#loc7 in #di_subprogram3>
#loc115 = #cuda_tile.di_loc<#loc8 in #di_subprogram3>
#loc116 = #cuda_tile.di_loc<#loc9 in #di_subprogram3>
#loc117 = #cuda_tile.di_loc<#loc10 in #di_subprogram3>
#loc118 = #cuda_tile.di_loc<#loc11 in #di_subprogram3>
#loc119 = #cuda_tile.di_loc<#loc12 in #di_subprogram3>
#loc120 = #cuda_tile.di_loc<#loc13 in #di_subprogram3>
#loc121 = #cuda_tile.di_loc<#loc14 in #di_subprogram3>
#loc122 = #cuda_tile.di_loc<#loc15 in #di_subprogram3>
#loc123 = #cuda_tile.di_loc<#loc16 in #di_subprogram3>
#loc124 = #cuda_tile.di_loc<#loc17 in #di_subprogram3>
#loc125 = #cuda_tile.di_loc<#loc18 in #di_subprogram3>
#loc126 = #cuda_tile.di_loc<#loc19 in #di_subprogram3>
#loc127 = #cuda_tile.di_loc<#loc20 in #di_subprogram3>
#loc128 = #cuda_tile.di_loc<#loc21 in #di_subprogram3>
#loc129 = #cuda_tile.di_loc<#loc22 in #di_subprogram3>
#loc130 = #cuda_tile.di_loc<#loc23 in #di_subprogram3>
#loc131 = #cuda_tile.di_loc<#loc24 in #di_subprogram3>
#loc132 = #cuda_tile.di_loc<#loc25 in #di_subprogram3>
