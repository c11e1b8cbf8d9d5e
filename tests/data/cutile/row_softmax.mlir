entry @row_softmax_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>
  %cst_0_i32_9 = constant <i32: 0> : tile<i32>
  %pview_10 = make_partition_view %tview_8 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  for %loopIdx in (%blockId_x to %assume_2, step %gridSize_x) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview[%loopIdx, %cst_0_i32] token = %0 : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %reduce = reduce %tile dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %5 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %5 : tile<f32>
    }
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
    %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x1024xf32>
    %1 = subf %tile, %bcast  : tile<1x1024xf32>
    %2 = exp %1  : tile<1x1024xf32>
    %reduce_11 = reduce %2 dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %5 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %5 : tile<f32>
    }
    %reshape_12 = reshape %reduce_11 : tile<1xf32> -> tile<1x1xf32>
    %bcast_13 = broadcast %reshape_12 : tile<1x1xf32> -> tile<1x1024xf32>
    %3 = divf %2, %bcast_13  : tile<1x1024xf32>
    %4 = store_view_tko weak %3, %pview_10[%loopIdx, %cst_0_i32_9] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  }
  return
}
entry @row_softmax_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_I4096(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x4096), padding_value = neg_inf, tensor_view<?x?xbf16, strides=[?,1]>>
  %cst_0_i32_9 = constant <i32: 0> : tile<i32>
  %pview_10 = make_partition_view %tview_8 : partition_view<tile=(1x4096), tensor_view<?x?xbf16, strides=[?,1]>>
  for %loopIdx in (%blockId_x to %assume_2, step %gridSize_x) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview[%loopIdx, %cst_0_i32] token = %0 : partition_view<tile=(1x4096), padding_value = neg_inf, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<1x4096xbf16>, token
    %1 = ftof %tile  : tile<1x4096xbf16> -> tile<1x4096xf32>
    %reduce = reduce %1 dim=1 identities=[0xFF800000 : f32] : tile<1x4096xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %7 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
      yield %7 : tile<f32>
    }
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32>
    %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x4096xf32>
    %2 = subf %1, %bcast  : tile<1x4096xf32>
    %3 = exp %2  : tile<1x4096xf32>
    %reduce_11 = reduce %3 dim=1 identities=[0.000000e+00 : f32] : tile<1x4096xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %7 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
      yield %7 : tile<f32>
    }
    %reshape_12 = reshape %reduce_11 : tile<1xf32> -> tile<1x1xf32>
    %bcast_13 = broadcast %reshape_12 : tile<1x1xf32> -> tile<1x4096xf32>
    %4 = divf %3, %bcast_13  : tile<1x4096xf32>
    %5 = ftof %4  : tile<1x4096xf32> -> tile<1x4096xbf16>
    %6 = store_view_tko weak %5, %pview_10[%loopIdx, %cst_0_i32_9] token = %0 : tile<1x4096xbf16>, partition_view<tile=(1x4096), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token
  }
  return
}
