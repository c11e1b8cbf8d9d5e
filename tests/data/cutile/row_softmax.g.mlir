entry @row_softmax_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc18)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc19)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc20)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc18)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc18)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc18)
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc18)
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc18)
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc18)
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc18)
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc18)
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc18)
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc18)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc21)
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32> loc(#loc22)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc23)
  %pview = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc24)
  %cst_0_i32_9 = constant <i32: 0> : tile<i32> loc(#loc25)
  %pview_10 = make_partition_view %tview_8 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc26)
  for %loopIdx in (%blockId_x to %assume_2, step %gridSize_x) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview[%loopIdx, %cst_0_i32] token = %0 : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token loc(#loc24)
    %reduce = reduce %tile dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %5 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc28)
      yield %5 : tile<f32> loc(#loc28)
    } loc(#loc28)
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc28)
    %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x1024xf32> loc(#loc29)
    %1 = subf %tile, %bcast  : tile<1x1024xf32> loc(#loc29)
    %2 = exp %1  : tile<1x1024xf32> loc(#loc30)
    %reduce_11 = reduce %2 dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %5 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc31)
      yield %5 : tile<f32> loc(#loc31)
    } loc(#loc31)
    %reshape_12 = reshape %reduce_11 : tile<1xf32> -> tile<1x1xf32> loc(#loc31)
    %bcast_13 = broadcast %reshape_12 : tile<1x1xf32> -> tile<1x1024xf32> loc(#loc32)
    %3 = divf %2, %bcast_13  : tile<1x1024xf32> loc(#loc32)
    %4 = store_view_tko weak %3, %pview_10[%loopIdx, %cst_0_i32_9] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc26)
  } loc(#loc27)
  return loc(#loc15)
} loc(#loc18)
entry @row_softmax_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_I4096(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc33)
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>> loc(#loc34)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>> loc(#loc35)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc33)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc33)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc33)
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc33)
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc33)
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]> loc(#loc33)
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc33)
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc33)
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc33)
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]> loc(#loc33)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc36)
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32> loc(#loc37)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc38)
  %pview = make_partition_view %tview : partition_view<tile=(1x4096), padding_value = neg_inf, tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc39)
  %cst_0_i32_9 = constant <i32: 0> : tile<i32> loc(#loc40)
  %pview_10 = make_partition_view %tview_8 : partition_view<tile=(1x4096), tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc41)
  for %loopIdx in (%blockId_x to %assume_2, step %gridSize_x) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview[%loopIdx, %cst_0_i32] token = %0 : partition_view<tile=(1x4096), padding_value = neg_inf, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<1x4096xbf16>, token loc(#loc39)
    %1 = ftof %tile  : tile<1x4096xbf16> -> tile<1x4096xf32> loc(#loc43)
    %reduce = reduce %1 dim=1 identities=[0xFF800000 : f32] : tile<1x4096xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %7 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc44)
      yield %7 : tile<f32> loc(#loc44)
    } loc(#loc44)
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc44)
    %bcast = broadcast %reshape : tile<1x1xf32> -> tile<1x4096xf32> loc(#loc45)
    %2 = subf %1, %bcast  : tile<1x4096xf32> loc(#loc45)
    %3 = exp %2  : tile<1x4096xf32> loc(#loc46)
    %reduce_11 = reduce %3 dim=1 identities=[0.000000e+00 : f32] : tile<1x4096xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %7 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc47)
      yield %7 : tile<f32> loc(#loc47)
    } loc(#loc47)
    %reshape_12 = reshape %reduce_11 : tile<1xf32> -> tile<1x1xf32> loc(#loc47)
    %bcast_13 = broadcast %reshape_12 : tile<1x1xf32> -> tile<1x4096xf32> loc(#loc48)
    %4 = divf %3, %bcast_13  : tile<1x4096xf32> loc(#loc48)
    %5 = ftof %4  : tile<1x4096xf32> -> tile<1x4096xbf16> loc(#loc49)
    %6 = store_view_tko weak %5, %pview_10[%loopIdx, %cst_0_i32_9] token = %0 : tile<1x4096xbf16>, partition_view<tile=(1x4096), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token loc(#loc41)
  } loc(#loc42)
  return loc(#loc15)
} loc(#loc33)
#di_file = #cuda_tile.di_file<"row_softmax.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/row_softmax.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/row_softmax.py":8:16)
#loc2 = loc("tests/data/cutile/kernels/row_softmax.py":8:19)
#loc3 = loc("tests/data/cutile/kernels/row_softmax.py":10:21)
#loc4 = loc("tests/data/cutile/kernels/row_softmax.py":10:42)
#loc5 = loc("tests/data/cutile/kernels/row_softmax.py":11:37)
#loc6 = loc("tests/data/cutile/kernels/row_softmax.py":11:14)
#loc7 = loc("tests/data/cutile/kernels/row_softmax.py":16:32)
#loc8 = loc("tests/data/cutile/kernels/row_softmax.py":16:8)
#loc9 = loc("tests/data/cutile/kernels/row_softmax.py":10:4)
#loc10 = loc("tests/data/cutile/kernels/row_softmax.py":13:25)
#loc11 = loc("tests/data/cutile/kernels/row_softmax.py":13:18)
#loc12 = loc("tests/data/cutile/kernels/row_softmax.py":14:16)
#loc13 = loc("tests/data/cutile/kernels/row_softmax.py":15:16)
#loc14 = loc("tests/data/cutile/kernels/row_softmax.py":16:51)
#loc15 = loc(unknown)
#loc16 = loc("tests/data/cutile/kernels/row_softmax.py":12:15)
#loc17 = loc("tests/data/cutile/kernels/row_softmax.py":16:41)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "row_softmax", linkageName = "row_softmax_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I1024", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "row_softmax", linkageName = "row_softmax_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_I4096", compileUnit = #di_compile_unit, scopeLine = 7>
#loc18 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc19 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc20 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc21 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc22 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc23 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc24 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc25 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc26 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc27 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc28 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc34 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc35 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc36 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc37 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc38 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc39 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc40 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc41 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc42 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc43 = #cuda_tile.di_loc<#loc16 in #di_subprogram1>
#loc44 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc45 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc46 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc47 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc48 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc49 = #cuda_tile.di_loc<#loc17 in #di_subprogram1>
