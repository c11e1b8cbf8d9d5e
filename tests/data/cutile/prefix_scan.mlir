entry @prefix_scan_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
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
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x1xf32>
  %cst_f32 = constant <f32: -3.000000e+38> : tile<1x1xf32>
  %pview = make_partition_view %tview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_15 = constant <i32: 1> : tile<i32>
  %pview_16 = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %pview_17 = make_partition_view %tview_10 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  %cst_0_i32_18 = constant <i32: 0> : tile<i32>
  %cst_1023_i32 = constant <i32: 1023> : tile<i32>
  %pview_19 = make_partition_view %tview_14 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  %for:2 = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_15) : tile<i32> iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32) -> (tile<1x1xf32>, tile<1x1xf32>) {
    %tile, %result_token = load_view_tko weak %pview_16[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %2 = scan %tile dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1x1024xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %9 = addf %arg15, %arg16  : tile<f32>
      yield %9 : tile<f32>
    }
    %bcast = broadcast %iterArg0 : tile<1x1xf32> -> tile<1x1024xf32>
    %3 = addf %2, %bcast  : tile<1x1024xf32>
    %4 = store_view_tko weak %3, %pview_17[%blockId_x, %loopIdx] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %5 = extract %3[%cst_0_i32_18, %cst_1023_i32] : tile<1x1024xf32> -> tile<1x1xf32>
    %6 = scan %tile dim=1 reverse=false identities=[-3.000000e+38 : f32] : tile<1x1024xf32> -> tile<1x1024xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %9 = maxf %arg15, %arg16 : tile<f32>
      yield %9 : tile<f32>
    }
    %bcast_20 = broadcast %iterArg1 : tile<1x1xf32> -> tile<1x1024xf32>
    %7 = maxf %6, %bcast_20 : tile<1x1024xf32>
    %8 = store_view_tko weak %7, %pview_19[%blockId_x, %loopIdx] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %reduce = reduce %7 dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %9 : tile<f32>
    }
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
    continue %5, %reshape : tile<1x1xf32>, tile<1x1xf32>
  }
  return
}
entry @prefix_scan_Kt1_A2i32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I256(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_2 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]>
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32>
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x1xf32>
  %cst_f32 = constant <f32: -3.000000e+38> : tile<1x1xf32>
  %pview = make_partition_view %tview : partition_view<tile=(1x256), tensor_view<?x?xi32, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x256), tensor_view<?x?xi32, strides=[?,1]>> -> tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_15 = constant <i32: 1> : tile<i32>
  %pview_16 = make_partition_view %tview : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xi32, strides=[?,1]>>
  %pview_17 = make_partition_view %tview_10 : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>
  %cst_0_i32_18 = constant <i32: 0> : tile<i32>
  %cst_255_i32 = constant <i32: 255> : tile<i32>
  %pview_19 = make_partition_view %tview_14 : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>
  %for:2 = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_15) : tile<i32> iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32) -> (tile<1x1xf32>, tile<1x1xf32>) {
    %tile, %result_token = load_view_tko weak %pview_16[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<1x256xi32>, token
    %2 = itof %tile signed  : tile<1x256xi32> -> tile<1x256xf32>
    %3 = scan %2 dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<1x256xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %10 = addf %arg15, %arg16  : tile<f32>
      yield %10 : tile<f32>
    }
    %bcast = broadcast %iterArg0 : tile<1x1xf32> -> tile<1x256xf32>
    %4 = addf %3, %bcast  : tile<1x256xf32>
    %5 = store_view_tko weak %4, %pview_17[%blockId_x, %loopIdx] token = %0 : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %6 = extract %4[%cst_0_i32_18, %cst_255_i32] : tile<1x256xf32> -> tile<1x1xf32>
    %7 = scan %2 dim=1 reverse=false identities=[-3.000000e+38 : f32] : tile<1x256xf32> -> tile<1x256xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %10 = maxf %arg15, %arg16 : tile<f32>
      yield %10 : tile<f32>
    }
    %bcast_20 = broadcast %iterArg1 : tile<1x1xf32> -> tile<1x256xf32>
    %8 = maxf %7, %bcast_20 : tile<1x256xf32>
    %9 = store_view_tko weak %8, %pview_19[%blockId_x, %loopIdx] token = %0 : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %reduce = reduce %8 dim=1 identities=[0xFF800000 : f32] : tile<1x256xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %10 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %10 : tile<f32>
    }
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
    continue %6, %reshape : tile<1x1xf32>, tile<1x1xf32>
  }
  return
}
