entry @attention_fwd_Kt1_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_Sf32_I128_I64_I64_B1(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<f16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<f16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<f16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc58)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc59)
  %assume_0 = assume div_by<16>, %arg7 : tile<ptr<f16>> loc(#loc60)
  %assume_1 = assume div_by<16>, %arg14 : tile<ptr<f16>> loc(#loc61)
  %assume_2 = assume div_by<16>, %arg21 : tile<ptr<f16>> loc(#loc62)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc58)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc58)
  %cst_1_i32_4 = constant <i32: 1> : tile<i32> loc(#loc58)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc58)
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc58)
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc58)
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc58)
  %assume_9 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc58)
  %assume_10 = assume bounded<0, ?>, %arg5 : tile<i32> loc(#loc58)
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7, %assume_8], strides = [%assume_9, %assume_10, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc58)
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc58)
  %assume_12 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc58)
  %assume_13 = assume bounded<0, ?>, %arg10 : tile<i32> loc(#loc58)
  %assume_14 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc58)
  %assume_15 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc58)
  %tview_16 = make_tensor_view %assume_0, shape = [%assume_11, %assume_12, %assume_13], strides = [%assume_14, %assume_15, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc58)
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32> loc(#loc58)
  %assume_18 = assume bounded<0, ?>, %arg16 : tile<i32> loc(#loc58)
  %assume_19 = assume bounded<0, ?>, %arg17 : tile<i32> loc(#loc58)
  %assume_20 = assume bounded<0, ?>, %arg18 : tile<i32> loc(#loc58)
  %assume_21 = assume bounded<0, ?>, %arg19 : tile<i32> loc(#loc58)
  %tview_22 = make_tensor_view %assume_1, shape = [%assume_17, %assume_18, %assume_19], strides = [%assume_20, %assume_21, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc58)
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32> loc(#loc58)
  %assume_24 = assume bounded<0, ?>, %arg23 : tile<i32> loc(#loc58)
  %assume_25 = assume bounded<0, ?>, %arg24 : tile<i32> loc(#loc58)
  %assume_26 = assume bounded<0, ?>, %arg25 : tile<i32> loc(#loc58)
  %assume_27 = assume bounded<0, ?>, %arg26 : tile<i32> loc(#loc58)
  %tview_28 = make_tensor_view %assume_2, shape = [%assume_23, %assume_24, %assume_25], strides = [%assume_26, %assume_27, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc58)
  %cst_128_i32 = constant <i32: 128> : tile<i32> loc(#loc58)
  %cst_64_i32 = constant <i32: 64> : tile<i32> loc(#loc58)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc63)
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32> loc(#loc64)
  %cst_f32 = constant <f32: 1.44269502> : tile<f32> loc(#loc65)
  %1 = mulf %arg28, %cst_f32  : tile<f32> loc(#loc66)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc67)
  %pview = make_partition_view %tview : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc68)
  %tile, %result_token = load_view_tko weak %pview[%blockId_y_30, %blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xf16>, token loc(#loc68)
  %reshape = reshape %tile : tile<1x128x64xf16> -> tile<128x64xf16> loc(#loc69)
  %cst_f32_32 = constant <f32: 0xFF800000> : tile<128x1xf32> loc(#loc70)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x1xf32> loc(#loc71)
  %cst_0_f32_33 = constant <f32: 0.000000e+00> : tile<128x64xf32> loc(#loc72)
  %2 = muli %blockId_x, %cst_128_i32 : tile<i32> loc(#loc73)
  %3 = iota : tile<128xi32> loc(#loc74)
  %reshape_34 = reshape %3 : tile<128xi32> -> tile<128x1xi32> loc(#loc74)
  %reshape_35 = reshape %2 : tile<i32> -> tile<1x1xi32> loc(#loc73)
  %bcast = broadcast %reshape_35 : tile<1x1xi32> -> tile<128x1xi32> loc(#loc73)
  %4 = addi %bcast, %reshape_34 : tile<128x1xi32> loc(#loc73)
  %cst_1_i32_36 = constant <i32: 1> : tile<i32> loc(#loc75)
  %5 = addi %blockId_x, %cst_1_i32_36 : tile<i32> loc(#loc76)
  %6 = muli %5, %cst_128_i32 : tile<i32> loc(#loc77)
  %7 = mini %6, %assume_12 signed : tile<i32> loc(#loc78)
  %8 = divi %7, %cst_64_i32 signed rounding<positive_inf> : tile<i32> loc(#loc79)
  %cst_0_i32_37 = constant <i32: 0> : tile<i32> loc(#loc80)
  %cst_1_i32_38 = constant <i32: 1> : tile<i32> loc(#loc80)
  %cst_0_i32_39 = constant <i32: 0> : tile<i32> loc(#loc81)
  %pview_40 = make_partition_view %tview_16 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]> loc(#loc82)
  %cst_0_f32_41 = constant <f32: 0.000000e+00> : tile<128x64xf32> loc(#loc83)
  %9 = iota : tile<64xi32> loc(#loc84)
  %reshape_42 = reshape %9 : tile<64xi32> -> tile<1x64xi32> loc(#loc84)
  %reshape_43 = reshape %assume_12 : tile<i32> -> tile<1x1xi32> loc(#loc85)
  %bcast_44 = broadcast %reshape_43 : tile<1x1xi32> -> tile<1x64xi32> loc(#loc85)
  %bcast_45 = broadcast %4 : tile<128x1xi32> -> tile<128x64xi32> loc(#loc86)
  %reshape_46 = reshape %1 : tile<f32> -> tile<1x1xf32> loc(#loc87)
  %bcast_47 = broadcast %reshape_46 : tile<1x1xf32> -> tile<128x64xf32> loc(#loc87)
  %cst_f32_48 = constant <f32: 0xFF800000> : tile<f32> loc(#loc88)
  %reshape_49 = reshape %cst_f32_48 : tile<f32> -> tile<1x1xf32> loc(#loc89)
  %bcast_50 = broadcast %reshape_49 : tile<1x1xf32> -> tile<128x64xf32> loc(#loc89)
  %cst_0_i32_51 = constant <i32: 0> : tile<i32> loc(#loc90)
  %pview_52 = make_partition_view %tview_22 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc91)
  %for:3 = for %loopIdx in (%cst_0_i32_37 to %8, step %cst_1_i32_38) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_33, %iterArg1 = %cst_f32_32, %iterArg2 = %cst_0_f32) -> (tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>) {
    %tile_57, %result_token_58 = load_view_tko weak %pview_40[%blockId_y_30, %cst_0_i32_39, %loopIdx] token = %0 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x64xf16>, token loc(#loc82)
    %reshape_59 = reshape %tile_57 : tile<1x64x64xf16> -> tile<64x64xf16> loc(#loc93)
    %13 = mmaf %reshape, %reshape_59, %cst_0_f32_41 : tile<128x64xf16>, tile<64x64xf16>, tile<128x64xf32> loc(#loc94)
    %14 = muli %loopIdx, %cst_64_i32 : tile<i32> loc(#loc95)
    %reshape_60 = reshape %14 : tile<i32> -> tile<1x1xi32> loc(#loc95)
    %bcast_61 = broadcast %reshape_60 : tile<1x1xi32> -> tile<1x64xi32> loc(#loc95)
    %15 = addi %bcast_61, %reshape_42 : tile<1x64xi32> loc(#loc95)
    %16 = cmpi less_than %15, %bcast_44, signed : tile<1x64xi32> -> tile<1x64xi1> loc(#loc85)
    %bcast_62 = broadcast %15 : tile<1x64xi32> -> tile<128x64xi32> loc(#loc86)
    %17 = cmpi less_than_or_equal %bcast_62, %bcast_45, signed : tile<128x64xi32> -> tile<128x64xi1> loc(#loc86)
    %bcast_63 = broadcast %16 : tile<1x64xi1> -> tile<128x64xi1> loc(#loc96)
    %18 = andi %bcast_63, %17 : tile<128x64xi1> loc(#loc96)
    %19 = mulf %13, %bcast_47  : tile<128x64xf32> loc(#loc87)
    %20 = select %18, %19, %bcast_50 : tile<128x64xi1>, tile<128x64xf32> loc(#loc89)
    %reduce = reduce %20 dim=1 identities=[0xFF800000 : f32] : tile<128x64xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %30 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc97)
      yield %30 : tile<f32> loc(#loc97)
    } loc(#loc97)
    %reshape_64 = reshape %reduce : tile<128xf32> -> tile<128x1xf32> loc(#loc97)
    %21 = maxf %iterArg1, %reshape_64 : tile<128x1xf32> loc(#loc98)
    %bcast_65 = broadcast %21 : tile<128x1xf32> -> tile<128x64xf32> loc(#loc99)
    %22 = subf %20, %bcast_65  : tile<128x64xf32> loc(#loc99)
    %23 = exp2 %22 : tile<128x64xf32> loc(#loc100)
    %24 = subf %iterArg1, %21  : tile<128x1xf32> loc(#loc101)
    %25 = exp2 %24 : tile<128x1xf32> loc(#loc102)
    %reduce_66 = reduce %23 dim=1 identities=[0.000000e+00 : f32] : tile<128x64xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %30 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc103)
      yield %30 : tile<f32> loc(#loc103)
    } loc(#loc103)
    %reshape_67 = reshape %reduce_66 : tile<128xf32> -> tile<128x1xf32> loc(#loc103)
    %26 = fma %iterArg2, %25, %reshape_67  : tile<128x1xf32> loc(#loc104)
    %tile_68, %result_token_69 = load_view_tko weak %pview_52[%blockId_y_30, %loopIdx, %cst_0_i32_51] token = %0 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xf16>, token loc(#loc91)
    %reshape_70 = reshape %tile_68 : tile<1x64x64xf16> -> tile<64x64xf16> loc(#loc105)
    %27 = ftof %23  : tile<128x64xf32> -> tile<128x64xf16> loc(#loc106)
    %bcast_71 = broadcast %25 : tile<128x1xf32> -> tile<128x64xf32> loc(#loc107)
    %28 = mulf %iterArg0, %bcast_71  : tile<128x64xf32> loc(#loc107)
    %29 = mmaf %27, %reshape_70, %28 : tile<128x64xf16>, tile<64x64xf16>, tile<128x64xf32> loc(#loc108)
    continue %29, %21, %26 : tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32> loc(#loc92)
  } loc(#loc92)
  %bcast_53 = broadcast %for#2 : tile<128x1xf32> -> tile<128x64xf32> loc(#loc109)
  %10 = divf %for#0, %bcast_53  : tile<128x64xf32> loc(#loc109)
  %11 = ftof %10  : tile<128x64xf32> -> tile<128x64xf16> loc(#loc110)
  %reshape_54 = reshape %11 : tile<128x64xf16> -> tile<1x128x64xf16> loc(#loc111)
  %cst_0_i32_55 = constant <i32: 0> : tile<i32> loc(#loc112)
  %pview_56 = make_partition_view %tview_28 : partition_view<tile=(1x128x64), tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc113)
  %12 = store_view_tko weak %reshape_54, %pview_56[%blockId_y_30, %blockId_x, %cst_0_i32_55] token = %0 : tile<1x128x64xf16>, partition_view<tile=(1x128x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> token loc(#loc113)
  return loc(#loc56)
} loc(#loc58)
entry @attention_fwd_Kt1_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_Sf32_I64_I64_I128_B0(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<bf16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc114)
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>> loc(#loc115)
  %assume_0 = assume div_by<16>, %arg7 : tile<ptr<bf16>> loc(#loc116)
  %assume_1 = assume div_by<16>, %arg14 : tile<ptr<bf16>> loc(#loc117)
  %assume_2 = assume div_by<16>, %arg21 : tile<ptr<bf16>> loc(#loc118)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc114)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc114)
  %cst_1_i32_4 = constant <i32: 1> : tile<i32> loc(#loc114)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc114)
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc114)
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc114)
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc114)
  %assume_9 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc114)
  %assume_10 = assume bounded<0, ?>, %arg5 : tile<i32> loc(#loc114)
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7, %assume_8], strides = [%assume_9, %assume_10, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]> loc(#loc114)
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc114)
  %assume_12 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc114)
  %assume_13 = assume bounded<0, ?>, %arg10 : tile<i32> loc(#loc114)
  %assume_14 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc114)
  %assume_15 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc114)
  %tview_16 = make_tensor_view %assume_0, shape = [%assume_11, %assume_12, %assume_13], strides = [%assume_14, %assume_15, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]> loc(#loc114)
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32> loc(#loc114)
  %assume_18 = assume bounded<0, ?>, %arg16 : tile<i32> loc(#loc114)
  %assume_19 = assume bounded<0, ?>, %arg17 : tile<i32> loc(#loc114)
  %assume_20 = assume bounded<0, ?>, %arg18 : tile<i32> loc(#loc114)
  %assume_21 = assume bounded<0, ?>, %arg19 : tile<i32> loc(#loc114)
  %tview_22 = make_tensor_view %assume_1, shape = [%assume_17, %assume_18, %assume_19], strides = [%assume_20, %assume_21, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]> loc(#loc114)
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32> loc(#loc114)
  %assume_24 = assume bounded<0, ?>, %arg23 : tile<i32> loc(#loc114)
  %assume_25 = assume bounded<0, ?>, %arg24 : tile<i32> loc(#loc114)
  %assume_26 = assume bounded<0, ?>, %arg25 : tile<i32> loc(#loc114)
  %assume_27 = assume bounded<0, ?>, %arg26 : tile<i32> loc(#loc114)
  %tview_28 = make_tensor_view %assume_2, shape = [%assume_23, %assume_24, %assume_25], strides = [%assume_26, %assume_27, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]> loc(#loc114)
  %cst_64_i32 = constant <i32: 64> : tile<i32> loc(#loc114)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc119)
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32> loc(#loc120)
  %cst_f32 = constant <f32: 1.44269502> : tile<f32> loc(#loc121)
  %1 = mulf %arg28, %cst_f32  : tile<f32> loc(#loc122)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc123)
  %pview = make_partition_view %tview : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>> loc(#loc124)
  %tile, %result_token = load_view_tko weak %pview[%blockId_y_30, %blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xbf16>, token loc(#loc124)
  %reshape = reshape %tile : tile<1x64x128xbf16> -> tile<64x128xbf16> loc(#loc125)
  %cst_f32_32 = constant <f32: 0xFF800000> : tile<64x1xf32> loc(#loc126)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x1xf32> loc(#loc127)
  %cst_0_f32_33 = constant <f32: 0.000000e+00> : tile<64x128xf32> loc(#loc128)
  %2 = divi %assume_12, %cst_64_i32 signed rounding<positive_inf> : tile<i32> loc(#loc129)
  %cst_0_i32_34 = constant <i32: 0> : tile<i32> loc(#loc130)
  %cst_1_i32_35 = constant <i32: 1> : tile<i32> loc(#loc130)
  %cst_0_i32_36 = constant <i32: 0> : tile<i32> loc(#loc131)
  %pview_37 = make_partition_view %tview_16 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]> loc(#loc132)
  %cst_0_f32_38 = constant <f32: 0.000000e+00> : tile<64x64xf32> loc(#loc133)
  %3 = iota : tile<64xi32> loc(#loc134)
  %reshape_39 = reshape %3 : tile<64xi32> -> tile<1x64xi32> loc(#loc134)
  %reshape_40 = reshape %assume_12 : tile<i32> -> tile<1x1xi32> loc(#loc135)
  %bcast = broadcast %reshape_40 : tile<1x1xi32> -> tile<1x64xi32> loc(#loc135)
  %reshape_41 = reshape %1 : tile<f32> -> tile<1x1xf32> loc(#loc136)
  %bcast_42 = broadcast %reshape_41 : tile<1x1xf32> -> tile<64x64xf32> loc(#loc136)
  %cst_f32_43 = constant <f32: 0xFF800000> : tile<f32> loc(#loc137)
  %reshape_44 = reshape %cst_f32_43 : tile<f32> -> tile<1x1xf32> loc(#loc138)
  %bcast_45 = broadcast %reshape_44 : tile<1x1xf32> -> tile<64x64xf32> loc(#loc138)
  %cst_0_i32_46 = constant <i32: 0> : tile<i32> loc(#loc139)
  %pview_47 = make_partition_view %tview_22 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>> loc(#loc140)
  %for:3 = for %loopIdx in (%cst_0_i32_34 to %2, step %cst_1_i32_35) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_33, %iterArg1 = %cst_f32_32, %iterArg2 = %cst_0_f32) -> (tile<64x128xf32>, tile<64x1xf32>, tile<64x1xf32>) {
    %tile_52, %result_token_53 = load_view_tko weak %pview_37[%blockId_y_30, %cst_0_i32_36, %loopIdx] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x128x64xbf16>, token loc(#loc132)
    %reshape_54 = reshape %tile_52 : tile<1x128x64xbf16> -> tile<128x64xbf16> loc(#loc142)
    %7 = mmaf %reshape, %reshape_54, %cst_0_f32_38 : tile<64x128xbf16>, tile<128x64xbf16>, tile<64x64xf32> loc(#loc143)
    %8 = muli %loopIdx, %cst_64_i32 : tile<i32> loc(#loc144)
    %reshape_55 = reshape %8 : tile<i32> -> tile<1x1xi32> loc(#loc144)
    %bcast_56 = broadcast %reshape_55 : tile<1x1xi32> -> tile<1x64xi32> loc(#loc144)
    %9 = addi %bcast_56, %reshape_39 : tile<1x64xi32> loc(#loc144)
    %10 = cmpi less_than %9, %bcast, signed : tile<1x64xi32> -> tile<1x64xi1> loc(#loc135)
    %11 = mulf %7, %bcast_42  : tile<64x64xf32> loc(#loc136)
    %bcast_57 = broadcast %10 : tile<1x64xi1> -> tile<64x64xi1> loc(#loc138)
    %12 = select %bcast_57, %11, %bcast_45 : tile<64x64xi1>, tile<64x64xf32> loc(#loc138)
    %reduce = reduce %12 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %22 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc145)
      yield %22 : tile<f32> loc(#loc145)
    } loc(#loc145)
    %reshape_58 = reshape %reduce : tile<64xf32> -> tile<64x1xf32> loc(#loc145)
    %13 = maxf %iterArg1, %reshape_58 : tile<64x1xf32> loc(#loc146)
    %bcast_59 = broadcast %13 : tile<64x1xf32> -> tile<64x64xf32> loc(#loc147)
    %14 = subf %12, %bcast_59  : tile<64x64xf32> loc(#loc147)
    %15 = exp2 %14 : tile<64x64xf32> loc(#loc148)
    %16 = subf %iterArg1, %13  : tile<64x1xf32> loc(#loc149)
    %17 = exp2 %16 : tile<64x1xf32> loc(#loc150)
    %reduce_60 = reduce %15 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %22 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc151)
      yield %22 : tile<f32> loc(#loc151)
    } loc(#loc151)
    %reshape_61 = reshape %reduce_60 : tile<64xf32> -> tile<64x1xf32> loc(#loc151)
    %18 = fma %iterArg2, %17, %reshape_61  : tile<64x1xf32> loc(#loc152)
    %tile_62, %result_token_63 = load_view_tko weak %pview_47[%blockId_y_30, %loopIdx, %cst_0_i32_46] token = %0 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xbf16>, token loc(#loc140)
    %reshape_64 = reshape %tile_62 : tile<1x64x128xbf16> -> tile<64x128xbf16> loc(#loc153)
    %19 = ftof %15  : tile<64x64xf32> -> tile<64x64xbf16> loc(#loc154)
    %bcast_65 = broadcast %17 : tile<64x1xf32> -> tile<64x128xf32> loc(#loc155)
    %20 = mulf %iterArg0, %bcast_65  : tile<64x128xf32> loc(#loc155)
    %21 = mmaf %19, %reshape_64, %20 : tile<64x64xbf16>, tile<64x128xbf16>, tile<64x128xf32> loc(#loc156)
    continue %21, %13, %18 : tile<64x128xf32>, tile<64x1xf32>, tile<64x1xf32> loc(#loc141)
  } loc(#loc141)
  %bcast_48 = broadcast %for#2 : tile<64x1xf32> -> tile<64x128xf32> loc(#loc157)
  %4 = divf %for#0, %bcast_48  : tile<64x128xf32> loc(#loc157)
  %5 = ftof %4  : tile<64x128xf32> -> tile<64x128xbf16> loc(#loc158)
  %reshape_49 = reshape %5 : tile<64x128xbf16> -> tile<1x64x128xbf16> loc(#loc159)
  %cst_0_i32_50 = constant <i32: 0> : tile<i32> loc(#loc160)
  %pview_51 = make_partition_view %tview_28 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>> loc(#loc161)
  %6 = store_view_tko weak %reshape_49, %pview_51[%blockId_y_30, %blockId_x, %cst_0_i32_50] token = %0 : tile<1x64x128xbf16>, partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token loc(#loc161)
  return loc(#loc56)
} loc(#loc114)
#di_file = #cuda_tile.di_file<"attention.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/attention.py":12:0)
#loc1 = loc("tests/data/cutile/kernels/attention.py":13:4)
#loc2 = loc("tests/data/cutile/kernels/attention.py":14:4)
#loc3 = loc("tests/data/cutile/kernels/attention.py":15:4)
#loc4 = loc("tests/data/cutile/kernels/attention.py":16:4)
#loc5 = loc("tests/data/cutile/kernels/attention.py":23:14)
#loc6 = loc("tests/data/cutile/kernels/attention.py":24:11)
#loc7 = loc("tests/data/cutile/kernels/attention.py":26:26)
#loc8 = loc("tests/data/cutile/kernels/attention.py":26:15)
#loc9 = loc("tests/data/cutile/kernels/attention.py":28:46)
#loc10 = loc("tests/data/cutile/kernels/attention.py":28:13)
#loc11 = loc("tests/data/cutile/kernels/attention.py":29:13)
#loc12 = loc("tests/data/cutile/kernels/attention.py":31:14)
#loc13 = loc("tests/data/cutile/kernels/attention.py":32:14)
#loc14 = loc("tests/data/cutile/kernels/attention.py":33:10)
#loc15 = loc("tests/data/cutile/kernels/attention.py":35:12)
#loc16 = loc("tests/data/cutile/kernels/attention.py":35:32)
#loc17 = loc("tests/data/cutile/kernels/attention.py":37:40)
#loc18 = loc("tests/data/cutile/kernels/attention.py":37:30)
#loc19 = loc("tests/data/cutile/kernels/attention.py":37:29)
#loc20 = loc("tests/data/cutile/kernels/attention.py":37:25)
#loc21 = loc("tests/data/cutile/kernels/attention.py":37:17)
#loc22 = loc("tests/data/cutile/kernels/attention.py":41:13)
#loc23 = loc("tests/data/cutile/kernels/attention.py":44:28)
#loc24 = loc("tests/data/cutile/kernels/attention.py":43:14)
#loc25 = loc("tests/data/cutile/kernels/attention.py":47:37)
#loc26 = loc("tests/data/cutile/kernels/attention.py":48:31)
#loc27 = loc("tests/data/cutile/kernels/attention.py":49:16)
#loc28 = loc("tests/data/cutile/kernels/attention.py":51:29)
#loc29 = loc("tests/data/cutile/kernels/attention.py":52:33)
#loc30 = loc("tests/data/cutile/kernels/attention.py":52:52)
#loc31 = loc("tests/data/cutile/kernels/attention.py":52:17)
#loc32 = loc("tests/data/cutile/kernels/attention.py":58:44)
#loc33 = loc("tests/data/cutile/kernels/attention.py":58:17)
#loc34 = loc("tests/data/cutile/kernels/attention.py":41:4)
#loc35 = loc("tests/data/cutile/kernels/attention.py":46:14)
#loc36 = loc("tests/data/cutile/kernels/attention.py":47:17)
#loc37 = loc("tests/data/cutile/kernels/attention.py":48:17)
#loc38 = loc("tests/data/cutile/kernels/attention.py":51:20)
#loc39 = loc("tests/data/cutile/kernels/attention.py":54:38)
#loc40 = loc("tests/data/cutile/kernels/attention.py":54:18)
#loc41 = loc("tests/data/cutile/kernels/attention.py":55:20)
#loc42 = loc("tests/data/cutile/kernels/attention.py":55:12)
#loc43 = loc("tests/data/cutile/kernels/attention.py":56:29)
#loc44 = loc("tests/data/cutile/kernels/attention.py":56:21)
#loc45 = loc("tests/data/cutile/kernels/attention.py":57:41)
#loc46 = loc("tests/data/cutile/kernels/attention.py":57:18)
#loc47 = loc("tests/data/cutile/kernels/attention.py":59:17)
#loc48 = loc("tests/data/cutile/kernels/attention.py":60:21)
#loc49 = loc("tests/data/cutile/kernels/attention.py":60:52)
#loc50 = loc("tests/data/cutile/kernels/attention.py":60:14)
#loc51 = loc("tests/data/cutile/kernels/attention.py":63:31)
#loc52 = loc("tests/data/cutile/kernels/attention.py":63:21)
#loc53 = loc("tests/data/cutile/kernels/attention.py":63:10)
#loc54 = loc("tests/data/cutile/kernels/attention.py":64:38)
#loc55 = loc("tests/data/cutile/kernels/attention.py":64:4)
#loc56 = loc(unknown)
#loc57 = loc("tests/data/cutile/kernels/attention.py":39:17)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 11, name = "attention_fwd", linkageName = "attention_fwd_Kt1_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_Sf32_I128_I64_I64_B1", compileUnit = #di_compile_unit, scopeLine = 11>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 11, name = "attention_fwd", linkageName = "attention_fwd_Kt1_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_Sf32_I64_I64_I128_B0", compileUnit = #di_compile_unit, scopeLine = 11>
#loc58 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc59 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc60 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc61 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc62 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc63 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc64 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc65 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc66 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc67 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc68 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc69 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc70 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc71 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc72 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc73 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc74 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc75 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc76 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc77 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc78 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc79 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc80 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc81 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc82 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
#loc83 = #cuda_tile.di_loc<#loc25 in #di_subprogram>
#loc84 = #cuda_tile.di_loc<#loc26 in #di_subprogram>
#loc85 = #cuda_tile.di_loc<#loc27 in #di_subprogram>
#loc86 = #cuda_tile.di_loc<#loc28 in #di_subprogram>
#loc87 = #cuda_tile.di_loc<#loc29 in #di_subprogram>
#loc88 = #cuda_tile.di_loc<#loc30 in #di_subprogram>
#loc89 = #cuda_tile.di_loc<#loc31 in #di_subprogram>
#loc90 = #cuda_tile.di_loc<#loc32 in #di_subprogram>
#loc91 = #cuda_tile.di_loc<#loc33 in #di_subprogram>
#loc92 = #cuda_tile.di_loc<#loc34 in #di_subprogram>
#loc93 = #cuda_tile.di_loc<#loc35 in #di_subprogram>
#loc94 = #cuda_tile.di_loc<#loc36 in #di_subprogram>
#loc95 = #cuda_tile.di_loc<#loc37 in #di_subprogram>
#loc96 = #cuda_tile.di_loc<#loc38 in #di_subprogram>
#loc97 = #cuda_tile.di_loc<#loc39 in #di_subprogram>
#loc98 = #cuda_tile.di_loc<#loc40 in #di_subprogram>
#loc99 = #cuda_tile.di_loc<#loc41 in #di_subprogram>
#loc100 = #cuda_tile.di_loc<#loc42 in #di_subprogram>
#loc101 = #cuda_tile.di_loc<#loc43 in #di_subprogram>
#loc102 = #cuda_tile.di_loc<#loc44 in #di_subprogram>
#loc103 = #cuda_tile.di_loc<#loc45 in #di_subprogram>
#loc104 = #cuda_tile.di_loc<#loc46 in #di_subprogram>
#loc105 = #cuda_tile.di_loc<#loc47 in #di_subprogram>
#loc106 = #cuda_tile.di_loc<#loc48 in #di_subprogram>
#loc107 = #cuda_tile.di_loc<#loc49 in #di_subprogram>
#loc108 = #cuda_tile.di_loc<#loc50 in #di_subprogram>
#loc109 = #cuda_tile.di_loc<#loc51 in #di_subprogram>
#loc110 = #cuda_tile.di_loc<#loc52 in #di_subprogram>
#loc111 = #cuda_tile.di_loc<#loc53 in #di_subprogram>
#loc112 = #cuda_tile.di_loc<#loc54 in #di_subprogram>
#loc113 = #cuda_tile.di_loc<#loc55 in #di_subprogram>
#loc114 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc115 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc116 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc117 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc118 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc119 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc120 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc121 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc122 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc123 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc124 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc125 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc126 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc127 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc128 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc129 = #cuda_tile.di_loc<#loc57 in #di_subprogram1>
#loc130 = #cuda_tile.di_loc<#loc22 in #di_subprogram1>
#loc131 = #cuda_tile.di_loc<#loc23 in #di_subprogram1>
#loc132 = #cuda_tile.di_loc<#loc24 in #di_subprogram1>
#loc133 = #cuda_tile.di_loc<#loc25 in #di_subprogram1>
#loc134 = #cuda_tile.di_loc<#loc26 in #di_subprogram1>
#loc135 = #cuda_tile.di_loc<#loc27 in #di_subprogram1>
#loc136 = #cuda_tile.di_loc<#loc29 in #di_subprogram1>
#loc137 = #cuda_tile.di_loc<#loc30 in #di_subprogram1>
#loc138 = #cuda_tile.di_loc<#loc31 in #di_subprogram1>
#loc139 = #cuda_tile.di_loc<#loc32 in #di_subprogram1>
#loc140 = #cuda_tile.di_loc<#loc33 in #di_subprogram1>
#loc141 = #cuda_tile.di_loc<#loc34 in #di_subprogram1>
#loc142 = #cuda_tile.di_loc<#loc35 in #di_subprogram1>
#loc143 = #cuda_tile.di_loc<#loc36 in #di_subprogram1>
#loc144 = #cuda_tile.di_loc<#loc37 in #di_subprogram1>
#loc145 = #cuda_tile.di_loc<#loc39 in #di_subprogram1>
#loc146 = #cuda_tile.di_loc<#loc40 in #di_subprogram1>
#loc147 = #cuda_tile.di_loc<#loc41 in #di_subprogram1>
#loc148 = #cuda_tile.di_loc<#loc42 in #di_subprogram1>
#loc149 = #cuda_tile.di_loc<#loc43 in #di_subprogram1>
#loc150 = #cuda_tile.di_loc<#loc44 in #di_subprogram1>
#loc151 = #cuda_tile.di_loc<#loc45 in #di_subprogram1>
#loc152 = #cuda_tile.di_loc<#loc46 in #di_subprogram1>
#loc153 = #cuda_tile.di_loc<#loc47 in #di_subprogram1>
#loc154 = #cuda_tile.di_loc<#loc48 in #di_subprogram1>
#loc155 = #cuda_tile.di_loc<#loc49 in #di_subprogram1>
#loc156 = #cuda_tile.di_loc<#loc50 in #di_subprogram1>
#loc157 = #cuda_tile.di_loc<#loc51 in #di_subprogram1>
#loc158 = #cuda_tile.di_loc<#loc52 in #di_subprogram1>
#loc159 = #cuda_tile.di_loc<#loc53 in #di_subprogram1>
#loc160 = #cuda_tile.di_loc<#loc54 in #di_subprogram1>
#loc161 = #cuda_tile.di_loc<#loc55 in #di_subprogram1>
