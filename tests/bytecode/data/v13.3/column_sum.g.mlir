entry @column_sum_Kt1_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I128_I4(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc18)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc19)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc20)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc18)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc18)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc18)
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc18)
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc18)
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc18)
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc18)
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc18)
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc18)
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc18)
  %cst_4_i32 = constant <i32: 4> : tile<i32> loc(#loc18)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc21)
  %pview = make_partition_view %tview : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc22)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(64x128), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc22)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x128xf32> loc(#loc23)
  %blockId_x_9, %blockId_y_10, %blockId_z_11 = get_tile_block_id : tile<i32> loc(#loc24)
  %2 = muli %blockId_x_9, %cst_4_i32 : tile<i32> loc(#loc24)
  %3 = addi %2, %cst_4_i32 : tile<i32> loc(#loc25)
  %4 = mini %3, %1#0 signed : tile<i32> loc(#loc26)
  %cst_1_i32_12 = constant <i32: 1> : tile<i32> loc(#loc27)
  %pview_13 = make_partition_view %tview : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc28)
  %for = for %loopIdx in (%2 to %4, step %cst_1_i32_12) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x128xf32>) {
    %tile, %result_token = load_view_tko weak %pview_13[%loopIdx, %blockId_y] token = %0 : partition_view<tile=(64x128), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<64x128xf16>, token loc(#loc28)
    %6 = ftof %tile  : tile<64x128xf16> -> tile<64x128xf32> loc(#loc30)
    %7 = addf %iterArg0, %6  : tile<64x128xf32> loc(#loc31)
    continue %7 : tile<64x128xf32> loc(#loc29)
  } loc(#loc29)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc32)
  %reduce = reduce %for dim=0 identities=[0.000000e+00 : f32] : tile<64x128xf32> -> tile<128xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %6 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc33)
    yield %6 : tile<f32> loc(#loc33)
  } loc(#loc33)
  %reshape = reshape %reduce : tile<128xf32> -> tile<1x128xf32> loc(#loc33)
  %pview_14 = make_partition_view %tview_8 : partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc34)
  %5 = atomic_red_view_tko relaxed device %pview_14[%cst_0_i32, %blockId_y], addf, %reshape token = %0 : tile<1x128xf32>, partition_view<tile=(1x128), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc34)
  return loc(#loc17)
} loc(#loc18)
entry @column_sum_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I32_I256_I16(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc35)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc36)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc37)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc35)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc35)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc35)
  %assume_3 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc35)
  %assume_4 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc35)
  %tview = make_tensor_view %assume, shape = [%assume_2, %assume_3], strides = [%assume_4, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc35)
  %assume_5 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc35)
  %assume_6 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc35)
  %assume_7 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc35)
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_5, %assume_6], strides = [%assume_7, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc35)
  %cst_16_i32 = constant <i32: 16> : tile<i32> loc(#loc35)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc38)
  %pview = make_partition_view %tview : partition_view<tile=(32x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc39)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(32x256), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc39)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<32x256xf32> loc(#loc40)
  %blockId_x_9, %blockId_y_10, %blockId_z_11 = get_tile_block_id : tile<i32> loc(#loc41)
  %2 = muli %blockId_x_9, %cst_16_i32 : tile<i32> loc(#loc41)
  %3 = addi %2, %cst_16_i32 : tile<i32> loc(#loc42)
  %4 = mini %3, %1#0 signed : tile<i32> loc(#loc43)
  %cst_1_i32_12 = constant <i32: 1> : tile<i32> loc(#loc44)
  %pview_13 = make_partition_view %tview : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc45)
  %for = for %loopIdx in (%2 to %4, step %cst_1_i32_12) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<32x256xf32>) {
    %tile, %result_token = load_view_tko weak %pview_13[%loopIdx, %blockId_y] token = %0 : partition_view<tile=(32x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<32x256xf32>, token loc(#loc45)
    %6 = addf %iterArg0, %tile  : tile<32x256xf32> loc(#loc47)
    continue %6 : tile<32x256xf32> loc(#loc46)
  } loc(#loc46)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc48)
  %reduce = reduce %for dim=0 identities=[0.000000e+00 : f32] : tile<32x256xf32> -> tile<256xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %6 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc49)
    yield %6 : tile<f32> loc(#loc49)
  } loc(#loc49)
  %reshape = reshape %reduce : tile<256xf32> -> tile<1x256xf32> loc(#loc49)
  %pview_14 = make_partition_view %tview_8 : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc50)
  %5 = atomic_red_view_tko relaxed device %pview_14[%cst_0_i32, %blockId_y], addf, %reshape token = %0 : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc50)
  return loc(#loc17)
} loc(#loc35)
#di_file = #cuda_tile.di_file<"column_sum.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/column_sum.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/column_sum.py":8:15)
#loc2 = loc("tests/data/cutile/kernels/column_sum.py":8:18)
#loc3 = loc("tests/data/cutile/kernels/column_sum.py":9:10)
#loc4 = loc("tests/data/cutile/kernels/column_sum.py":12:14)
#loc5 = loc("tests/data/cutile/kernels/column_sum.py":14:10)
#loc6 = loc("tests/data/cutile/kernels/column_sum.py":15:12)
#loc7 = loc("tests/data/cutile/kernels/column_sum.py":16:33)
#loc8 = loc("tests/data/cutile/kernels/column_sum.py":16:29)
#loc9 = loc("tests/data/cutile/kernels/column_sum.py":16:16)
#loc10 = loc("tests/data/cutile/kernels/column_sum.py":17:25)
#loc11 = loc("tests/data/cutile/kernels/column_sum.py":16:4)
#loc12 = loc("tests/data/cutile/kernels/column_sum.py":17:15)
#loc13 = loc("tests/data/cutile/kernels/column_sum.py":17:8)
#loc14 = loc("tests/data/cutile/kernels/column_sum.py":18:26)
#loc15 = loc("tests/data/cutile/kernels/column_sum.py":18:35)
#loc16 = loc("tests/data/cutile/kernels/column_sum.py":18:4)
#loc17 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "column_sum", linkageName = "column_sum_Kt1_A2f16_1l0_2t1_p16_A2f32_1l0_2t1_p16_I64_I128_I4", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "column_sum", linkageName = "column_sum_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I32_I256_I16", compileUnit = #di_compile_unit, scopeLine = 7>
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
#loc33 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc36 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc37 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc38 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc39 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc40 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc41 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc42 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc43 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc44 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc45 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc46 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc47 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc48 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc49 = #cuda_tile.di_loc<#loc15 in #di_subprogram1>
#loc50 = #cuda_tile.di_loc<#loc16 in #di_subprogram1>
