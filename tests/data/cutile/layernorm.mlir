entry @layernorm_Kt1_A2f16_1l0_2t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_A2f16_1l0_2t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I512(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f16>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<ptr<f32>>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<ptr<f32>>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f16>>
  %assume_2 = assume div_by<16>, %arg11 : tile<ptr<f16>>
  %assume_3 = assume div_by<16>, %arg16 : tile<ptr<f32>>
  %assume_4 = assume div_by<16>, %arg19 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %cst_1_i32_6 = constant <i32: 1> : tile<i32>
  %cst_1_i32_7 = constant <i32: 1> : tile<i32>
  %cst_1_i32_8 = constant <i32: 1> : tile<i32>
  %cst_1_i32_9 = constant <i32: 1> : tile<i32>
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_10, %assume_11], strides = [%assume_12, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_13 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_14 = make_tensor_view %assume_0, shape = [%assume_13], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_15 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_16 = make_tensor_view %assume_1, shape = [%assume_15], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]>
  %assume_17 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_18 = assume bounded<0, ?>, %arg13 : tile<i32>
  %assume_19 = assume bounded<0, ?>, %arg14 : tile<i32>
  %tview_20 = make_tensor_view %assume_2, shape = [%assume_17, %assume_18], strides = [%assume_19, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_21 = assume bounded<0, ?>, %arg17 : tile<i32>
  %tview_22 = make_tensor_view %assume_3, shape = [%assume_21], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_23 = assume bounded<0, ?>, %arg20 : tile<i32>
  %tview_24 = make_tensor_view %assume_4, shape = [%assume_23], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %cst_512_i32 = constant <i32: 512> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x512xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_25 = constant <i32: 1> : tile<i32>
  %pview_26 = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_25) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x512xf32>) {
    %tile, %result_token = load_view_tko weak %pview_26[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x512xf16>, token
    %11 = ftof %tile  : tile<1x512xf16> -> tile<1x512xf32>
    %12 = addf %iterArg0, %11  : tile<1x512xf32>
    continue %12 : tile<1x512xf32>
  }
  %reduce = reduce %for dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %11 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %11 : tile<f32>
  }
  %2 = itof %assume_11 signed  : tile<i32> -> tile<f32>
  %reshape = reshape %2 : tile<f32> -> tile<1xf32>
  %3 = divf %reduce, %reshape  : tile<1xf32>
  %cst_0_f32_27 = constant <f32: 0.000000e+00> : tile<1x512xf32>
  %cst_0_i32_28 = constant <i32: 0> : tile<i32>
  %cst_1_i32_29 = constant <i32: 1> : tile<i32>
  %4 = iota : tile<512xi32>
  %reshape_30 = reshape %assume_11 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape_30 : tile<1xi32> -> tile<512xi32>
  %pview_31 = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %reshape_32 = reshape %3 : tile<1xf32> -> tile<1x1xf32>
  %bcast_33 = broadcast %reshape_32 : tile<1x1xf32> -> tile<1x512xf32>
  %cst_0_f32_34 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_35 = reshape %cst_0_f32_34 : tile<f32> -> tile<1x1xf32>
  %bcast_36 = broadcast %reshape_35 : tile<1x1xf32> -> tile<1x512xf32>
  %for_37 = for %loopIdx in (%cst_0_i32_28 to %1#1, step %cst_1_i32_29) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_27) -> (tile<1x512xf32>) {
    %11 = muli %loopIdx, %cst_512_i32 : tile<i32>
    %reshape_53 = reshape %11 : tile<i32> -> tile<1xi32>
    %bcast_54 = broadcast %reshape_53 : tile<1xi32> -> tile<512xi32>
    %12 = addi %bcast_54, %4 : tile<512xi32>
    %13 = cmpi less_than %12, %bcast, signed : tile<512xi32> -> tile<512xi1>
    %tile, %result_token = load_view_tko weak %pview_31[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x512xf16>, token
    %14 = ftof %tile  : tile<1x512xf16> -> tile<1x512xf32>
    %15 = subf %14, %bcast_33  : tile<1x512xf32>
    %reshape_55 = reshape %13 : tile<512xi1> -> tile<1x512xi1>
    %16 = select %reshape_55, %15, %bcast_36 : tile<1x512xi1>, tile<1x512xf32>
    %17 = fma %16, %16, %iterArg0  : tile<1x512xf32>
    continue %17 : tile<1x512xf32>
  }
  %reduce_38 = reduce %for_37 dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %11 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %11 : tile<f32>
  }
  %5 = itof %assume_11 signed  : tile<i32> -> tile<f32>
  %reshape_39 = reshape %5 : tile<f32> -> tile<1xf32>
  %6 = divf %reduce_38, %reshape_39  : tile<1xf32>
  %reshape_40 = reshape %arg22 : tile<f32> -> tile<1xf32>
  %7 = addf %6, %reshape_40  : tile<1xf32>
  %8 = rsqrt %7 : tile<1xf32>
  %pview_41 = make_partition_view %tview_22 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %9 = store_view_tko weak %3, %pview_41[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  %pview_42 = make_partition_view %tview_24 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %10 = store_view_tko weak %8, %pview_42[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  %cst_0_i32_43 = constant <i32: 0> : tile<i32>
  %cst_1_i32_44 = constant <i32: 1> : tile<i32>
  %pview_45 = make_partition_view %tview_14 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>>
  %pview_46 = make_partition_view %tview_16 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>>
  %pview_47 = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>
  %reshape_48 = reshape %3 : tile<1xf32> -> tile<1x1xf32>
  %bcast_49 = broadcast %reshape_48 : tile<1x1xf32> -> tile<1x512xf32>
  %reshape_50 = reshape %8 : tile<1xf32> -> tile<1x1xf32>
  %bcast_51 = broadcast %reshape_50 : tile<1x1xf32> -> tile<1x512xf32>
  %pview_52 = make_partition_view %tview_20 : partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>>
  for %loopIdx in (%cst_0_i32_43 to %1#1, step %cst_1_i32_44) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview_45[%loopIdx] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<512xf16>, token
    %11 = ftof %tile  : tile<512xf16> -> tile<512xf32>
    %tile_53, %result_token_54 = load_view_tko weak %pview_46[%loopIdx] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<512xf16>, token
    %12 = ftof %tile_53  : tile<512xf16> -> tile<512xf32>
    %tile_55, %result_token_56 = load_view_tko weak %pview_47[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x512xf16>, token
    %13 = ftof %tile_55  : tile<1x512xf16> -> tile<1x512xf32>
    %14 = subf %13, %bcast_49  : tile<1x512xf32>
    %15 = mulf %14, %bcast_51  : tile<1x512xf32>
    %reshape_57 = reshape %11 : tile<512xf32> -> tile<1x512xf32>
    %reshape_58 = reshape %12 : tile<512xf32> -> tile<1x512xf32>
    %16 = fma %15, %reshape_57, %reshape_58  : tile<1x512xf32>
    %17 = ftof %16  : tile<1x512xf32> -> tile<1x512xf16>
    %18 = store_view_tko weak %17, %pview_52[%blockId_x, %loopIdx] token = %0 : tile<1x512xf16>, partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token
  }
  return
}
