entry @attention_fwd_Kt1_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_A3f16_3l0_4t1_p16_Sf32_I128_I64_I64_B1(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<f16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<f16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<f16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg7 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg14 : tile<ptr<f16>>
  %assume_2 = assume div_by<16>, %arg21 : tile<ptr<f16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7, %assume_8], strides = [%assume_9, %assume_10, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg12 : tile<i32>
  %tview_16 = make_tensor_view %assume_0, shape = [%assume_11, %assume_12, %assume_13], strides = [%assume_14, %assume_15, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32>
  %assume_18 = assume bounded<0, ?>, %arg16 : tile<i32>
  %assume_19 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_20 = assume bounded<0, ?>, %arg18 : tile<i32>
  %assume_21 = assume bounded<0, ?>, %arg19 : tile<i32>
  %tview_22 = make_tensor_view %assume_1, shape = [%assume_17, %assume_18, %assume_19], strides = [%assume_20, %assume_21, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32>
  %assume_24 = assume bounded<0, ?>, %arg23 : tile<i32>
  %assume_25 = assume bounded<0, ?>, %arg24 : tile<i32>
  %assume_26 = assume bounded<0, ?>, %arg25 : tile<i32>
  %assume_27 = assume bounded<0, ?>, %arg26 : tile<i32>
  %tview_28 = make_tensor_view %assume_2, shape = [%assume_23, %assume_24, %assume_25], strides = [%assume_26, %assume_27, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %cst_128_i32 = constant <i32: 128> : tile<i32>
  %cst_64_i32 = constant <i32: 64> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32>
  %cst_f32 = constant <f32: 1.44269502> : tile<f32>
  %1 = mulf %arg28, %cst_f32  : tile<f32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_y_30, %blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xf16>, token
  %reshape = reshape %tile : tile<1x128x64xf16> -> tile<128x64xf16>
  %cst_f32_32 = constant <f32: 0xFF800000> : tile<128x1xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<128x1xf32>
  %cst_0_f32_33 = constant <f32: 0.000000e+00> : tile<128x64xf32>
  %2 = muli %blockId_x, %cst_128_i32 : tile<i32>
  %3 = iota : tile<128xi32>
  %reshape_34 = reshape %3 : tile<128xi32> -> tile<128x1xi32>
  %reshape_35 = reshape %2 : tile<i32> -> tile<1x1xi32>
  %bcast = broadcast %reshape_35 : tile<1x1xi32> -> tile<128x1xi32>
  %4 = addi %bcast, %reshape_34 : tile<128x1xi32>
  %cst_1_i32_36 = constant <i32: 1> : tile<i32>
  %5 = addi %blockId_x, %cst_1_i32_36 : tile<i32>
  %6 = muli %5, %cst_128_i32 : tile<i32>
  %7 = mini %6, %assume_12 signed : tile<i32>
  %8 = divi %7, %cst_64_i32 signed rounding<positive_inf> : tile<i32>
  %cst_0_i32_37 = constant <i32: 0> : tile<i32>
  %cst_1_i32_38 = constant <i32: 1> : tile<i32>
  %cst_0_i32_39 = constant <i32: 0> : tile<i32>
  %pview_40 = make_partition_view %tview_16 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
  %cst_0_f32_41 = constant <f32: 0.000000e+00> : tile<128x64xf32>
  %9 = iota : tile<64xi32>
  %reshape_42 = reshape %9 : tile<64xi32> -> tile<1x64xi32>
  %reshape_43 = reshape %assume_12 : tile<i32> -> tile<1x1xi32>
  %bcast_44 = broadcast %reshape_43 : tile<1x1xi32> -> tile<1x64xi32>
  %bcast_45 = broadcast %4 : tile<128x1xi32> -> tile<128x64xi32>
  %reshape_46 = reshape %1 : tile<f32> -> tile<1x1xf32>
  %bcast_47 = broadcast %reshape_46 : tile<1x1xf32> -> tile<128x64xf32>
  %cst_f32_48 = constant <f32: 0xFF800000> : tile<f32>
  %reshape_49 = reshape %cst_f32_48 : tile<f32> -> tile<1x1xf32>
  %bcast_50 = broadcast %reshape_49 : tile<1x1xf32> -> tile<128x64xf32>
  %cst_0_i32_51 = constant <i32: 0> : tile<i32>
  %pview_52 = make_partition_view %tview_22 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %for:3 = for %loopIdx in (%cst_0_i32_37 to %8, step %cst_1_i32_38) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_33, %iterArg1 = %cst_f32_32, %iterArg2 = %cst_0_f32) -> (tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>) {
    %tile_57, %result_token_58 = load_view_tko weak %pview_40[%blockId_y_30, %cst_0_i32_39, %loopIdx] token = %0 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x64x64xf16>, token
    %reshape_59 = reshape %tile_57 : tile<1x64x64xf16> -> tile<64x64xf16>
    %13 = mmaf %reshape, %reshape_59, %cst_0_f32_41 : tile<128x64xf16>, tile<64x64xf16>, tile<128x64xf32>
    %14 = muli %loopIdx, %cst_64_i32 : tile<i32>
    %reshape_60 = reshape %14 : tile<i32> -> tile<1x1xi32>
    %bcast_61 = broadcast %reshape_60 : tile<1x1xi32> -> tile<1x64xi32>
    %15 = addi %bcast_61, %reshape_42 : tile<1x64xi32>
    %16 = cmpi less_than %15, %bcast_44, signed : tile<1x64xi32> -> tile<1x64xi1>
    %bcast_62 = broadcast %15 : tile<1x64xi32> -> tile<128x64xi32>
    %17 = cmpi less_than_or_equal %bcast_62, %bcast_45, signed : tile<128x64xi32> -> tile<128x64xi1>
    %bcast_63 = broadcast %16 : tile<1x64xi1> -> tile<128x64xi1>
    %18 = andi %bcast_63, %17 : tile<128x64xi1>
    %19 = mulf %13, %bcast_47  : tile<128x64xf32>
    %20 = select %18, %19, %bcast_50 : tile<128x64xi1>, tile<128x64xf32>
    %reduce = reduce %20 dim=1 identities=[0xFF800000 : f32] : tile<128x64xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %30 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %30 : tile<f32>
    }
    %reshape_64 = reshape %reduce : tile<128xf32> -> tile<128x1xf32>
    %21 = maxf %iterArg1, %reshape_64 : tile<128x1xf32>
    %bcast_65 = broadcast %21 : tile<128x1xf32> -> tile<128x64xf32>
    %22 = subf %20, %bcast_65  : tile<128x64xf32>
    %23 = exp2 %22 : tile<128x64xf32>
    %24 = subf %iterArg1, %21  : tile<128x1xf32>
    %25 = exp2 %24 : tile<128x1xf32>
    %reduce_66 = reduce %23 dim=1 identities=[0.000000e+00 : f32] : tile<128x64xf32> -> tile<128xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %30 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %30 : tile<f32>
    }
    %reshape_67 = reshape %reduce_66 : tile<128xf32> -> tile<128x1xf32>
    %26 = fma %iterArg2, %25, %reshape_67  : tile<128x1xf32>
    %tile_68, %result_token_69 = load_view_tko weak %pview_52[%blockId_y_30, %loopIdx, %cst_0_i32_51] token = %0 : partition_view<tile=(1x64x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x64xf16>, token
    %reshape_70 = reshape %tile_68 : tile<1x64x64xf16> -> tile<64x64xf16>
    %27 = ftof %23  : tile<128x64xf32> -> tile<128x64xf16>
    %bcast_71 = broadcast %25 : tile<128x1xf32> -> tile<128x64xf32>
    %28 = mulf %iterArg0, %bcast_71  : tile<128x64xf32>
    %29 = mmaf %27, %reshape_70, %28 : tile<128x64xf16>, tile<64x64xf16>, tile<128x64xf32>
    continue %29, %21, %26 : tile<128x64xf32>, tile<128x1xf32>, tile<128x1xf32>
  }
  %bcast_53 = broadcast %for#2 : tile<128x1xf32> -> tile<128x64xf32>
  %10 = divf %for#0, %bcast_53  : tile<128x64xf32>
  %11 = ftof %10  : tile<128x64xf32> -> tile<128x64xf16>
  %reshape_54 = reshape %11 : tile<128x64xf16> -> tile<1x128x64xf16>
  %cst_0_i32_55 = constant <i32: 0> : tile<i32>
  %pview_56 = make_partition_view %tview_28 : partition_view<tile=(1x128x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %12 = store_view_tko weak %reshape_54, %pview_56[%blockId_y_30, %blockId_x, %cst_0_i32_55] token = %0 : tile<1x128x64xf16>, partition_view<tile=(1x128x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> token
  return
}
entry @attention_fwd_Kt1_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_Sf32_I64_I64_I128_B0(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<bf16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<bf16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<ptr<bf16>>, %arg22: tile<i32>, %arg23: tile<i32>, %arg24: tile<i32>, %arg25: tile<i32>, %arg26: tile<i32>, %arg27: tile<i32>, %arg28: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<16>, %arg7 : tile<ptr<bf16>>
  %assume_1 = assume div_by<16>, %arg14 : tile<ptr<bf16>>
  %assume_2 = assume div_by<16>, %arg21 : tile<ptr<bf16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7, %assume_8], strides = [%assume_9, %assume_10, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg9 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_15 = assume bounded<0, ?>, %arg12 : tile<i32>
  %tview_16 = make_tensor_view %assume_0, shape = [%assume_11, %assume_12, %assume_13], strides = [%assume_14, %assume_15, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32>
  %assume_18 = assume bounded<0, ?>, %arg16 : tile<i32>
  %assume_19 = assume bounded<0, ?>, %arg17 : tile<i32>
  %assume_20 = assume bounded<0, ?>, %arg18 : tile<i32>
  %assume_21 = assume bounded<0, ?>, %arg19 : tile<i32>
  %tview_22 = make_tensor_view %assume_1, shape = [%assume_17, %assume_18, %assume_19], strides = [%assume_20, %assume_21, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32>
  %assume_24 = assume bounded<0, ?>, %arg23 : tile<i32>
  %assume_25 = assume bounded<0, ?>, %arg24 : tile<i32>
  %assume_26 = assume bounded<0, ?>, %arg25 : tile<i32>
  %assume_27 = assume bounded<0, ?>, %arg26 : tile<i32>
  %tview_28 = make_tensor_view %assume_2, shape = [%assume_23, %assume_24, %assume_25], strides = [%assume_26, %assume_27, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]>
  %cst_64_i32 = constant <i32: 64> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32>
  %cst_f32 = constant <f32: 1.44269502> : tile<f32>
  %1 = mulf %arg28, %cst_f32  : tile<f32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_y_30, %blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xbf16>, token
  %reshape = reshape %tile : tile<1x64x128xbf16> -> tile<64x128xbf16>
  %cst_f32_32 = constant <f32: 0xFF800000> : tile<64x1xf32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x1xf32>
  %cst_0_f32_33 = constant <f32: 0.000000e+00> : tile<64x128xf32>
  %2 = divi %assume_12, %cst_64_i32 signed rounding<positive_inf> : tile<i32>
  %cst_0_i32_34 = constant <i32: 0> : tile<i32>
  %cst_1_i32_35 = constant <i32: 1> : tile<i32>
  %cst_0_i32_36 = constant <i32: 0> : tile<i32>
  %pview_37 = make_partition_view %tview_16 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>
  %cst_0_f32_38 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %3 = iota : tile<64xi32>
  %reshape_39 = reshape %3 : tile<64xi32> -> tile<1x64xi32>
  %reshape_40 = reshape %assume_12 : tile<i32> -> tile<1x1xi32>
  %bcast = broadcast %reshape_40 : tile<1x1xi32> -> tile<1x64xi32>
  %reshape_41 = reshape %1 : tile<f32> -> tile<1x1xf32>
  %bcast_42 = broadcast %reshape_41 : tile<1x1xf32> -> tile<64x64xf32>
  %cst_f32_43 = constant <f32: 0xFF800000> : tile<f32>
  %reshape_44 = reshape %cst_f32_43 : tile<f32> -> tile<1x1xf32>
  %bcast_45 = broadcast %reshape_44 : tile<1x1xf32> -> tile<64x64xf32>
  %cst_0_i32_46 = constant <i32: 0> : tile<i32>
  %pview_47 = make_partition_view %tview_22 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %for:3 = for %loopIdx in (%cst_0_i32_34 to %2, step %cst_1_i32_35) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_33, %iterArg1 = %cst_f32_32, %iterArg2 = %cst_0_f32) -> (tile<64x128xf32>, tile<64x1xf32>, tile<64x1xf32>) {
    %tile_52, %result_token_53 = load_view_tko weak %pview_37[%blockId_y_30, %cst_0_i32_36, %loopIdx] token = %0 : partition_view<tile=(1x128x64), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>, dim_map=[0, 2, 1]>, tile<i32> -> tile<1x128x64xbf16>, token
    %reshape_54 = reshape %tile_52 : tile<1x128x64xbf16> -> tile<128x64xbf16>
    %7 = mmaf %reshape, %reshape_54, %cst_0_f32_38 : tile<64x128xbf16>, tile<128x64xbf16>, tile<64x64xf32>
    %8 = muli %loopIdx, %cst_64_i32 : tile<i32>
    %reshape_55 = reshape %8 : tile<i32> -> tile<1x1xi32>
    %bcast_56 = broadcast %reshape_55 : tile<1x1xi32> -> tile<1x64xi32>
    %9 = addi %bcast_56, %reshape_39 : tile<1x64xi32>
    %10 = cmpi less_than %9, %bcast, signed : tile<1x64xi32> -> tile<1x64xi1>
    %11 = mulf %7, %bcast_42  : tile<64x64xf32>
    %bcast_57 = broadcast %10 : tile<1x64xi1> -> tile<64x64xi1>
    %12 = select %bcast_57, %11, %bcast_45 : tile<64x64xi1>, tile<64x64xf32>
    %reduce = reduce %12 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %22 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %22 : tile<f32>
    }
    %reshape_58 = reshape %reduce : tile<64xf32> -> tile<64x1xf32>
    %13 = maxf %iterArg1, %reshape_58 : tile<64x1xf32>
    %bcast_59 = broadcast %13 : tile<64x1xf32> -> tile<64x64xf32>
    %14 = subf %12, %bcast_59  : tile<64x64xf32>
    %15 = exp2 %14 : tile<64x64xf32>
    %16 = subf %iterArg1, %13  : tile<64x1xf32>
    %17 = exp2 %16 : tile<64x1xf32>
    %reduce_60 = reduce %15 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %22 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %22 : tile<f32>
    }
    %reshape_61 = reshape %reduce_60 : tile<64xf32> -> tile<64x1xf32>
    %18 = fma %iterArg2, %17, %reshape_61  : tile<64x1xf32>
    %tile_62, %result_token_63 = load_view_tko weak %pview_47[%blockId_y_30, %loopIdx, %cst_0_i32_46] token = %0 : partition_view<tile=(1x64x128), padding_value = zero, tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x128xbf16>, token
    %reshape_64 = reshape %tile_62 : tile<1x64x128xbf16> -> tile<64x128xbf16>
    %19 = ftof %15  : tile<64x64xf32> -> tile<64x64xbf16>
    %bcast_65 = broadcast %17 : tile<64x1xf32> -> tile<64x128xf32>
    %20 = mulf %iterArg0, %bcast_65  : tile<64x128xf32>
    %21 = mmaf %19, %reshape_64, %20 : tile<64x64xbf16>, tile<64x128xbf16>, tile<64x128xf32>
    continue %21, %13, %18 : tile<64x128xf32>, tile<64x1xf32>, tile<64x1xf32>
  }
  %bcast_48 = broadcast %for#2 : tile<64x1xf32> -> tile<64x128xf32>
  %4 = divf %for#0, %bcast_48  : tile<64x128xf32>
  %5 = ftof %4  : tile<64x128xf32> -> tile<64x128xbf16>
  %reshape_49 = reshape %5 : tile<64x128xbf16> -> tile<1x64x128xbf16>
  %cst_0_i32_50 = constant <i32: 0> : tile<i32>
  %pview_51 = make_partition_view %tview_28 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>
  %6 = store_view_tko weak %reshape_49, %pview_51[%blockId_y_30, %blockId_x, %cst_0_i32_50] token = %0 : tile<1x64x128xbf16>, partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token
  return
}
