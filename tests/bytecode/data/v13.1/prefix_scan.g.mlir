entry @prefix_scan_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc22)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc23)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc24)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>> loc(#loc25)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc22)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc22)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc22)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc22)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc22)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc22)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc22)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc22)
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc22)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc22)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc22)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc22)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc22)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc22)
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc22)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc26)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x1xf32> loc(#loc27)
  %cst_f32 = constant <f32: -3.000000e+38> : tile<1x1xf32> loc(#loc28)
  %pview = make_partition_view %tview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc29)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32> loc(#loc29)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc30)
  %cst_1_i32_15 = constant <i32: 1> : tile<i32> loc(#loc30)
  %cst_0_i32_16 = constant <i32: 0> : tile<i32> loc(#loc31)
  %cst_1023_i32 = constant <i32: 1023> : tile<i32> loc(#loc32)
  %for:2 = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_15) : tile<i32> iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32) -> (tile<1x1xf32>, tile<1x1xf32>) {
    %pview_17 = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc34)
    %tile, %result_token = load_view_tko weak %pview_17[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token loc(#loc34)
    %2 = scan %tile dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1x1024xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %9 = addf %arg15, %arg16  : tile<f32> loc(#loc35)
      yield %9 : tile<f32> loc(#loc35)
    } loc(#loc35)
    %bcast = broadcast %iterArg0 : tile<1x1xf32> -> tile<1x1024xf32> loc(#loc35)
    %3 = addf %2, %bcast  : tile<1x1024xf32> loc(#loc35)
    %pview_18 = make_partition_view %tview_10 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc36)
    %4 = store_view_tko weak %3, %pview_18[%blockId_x, %loopIdx] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc36)
    %5 = extract %3[%cst_0_i32_16, %cst_1023_i32] : tile<1x1024xf32> -> tile<1x1xf32> loc(#loc37)
    %6 = scan %tile dim=1 reverse=false identities=[-3.000000e+38 : f32] : tile<1x1024xf32> -> tile<1x1024xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %9 = maxf %arg15, %arg16 : tile<f32> loc(#loc38)
      yield %9 : tile<f32> loc(#loc38)
    } loc(#loc38)
    %bcast_19 = broadcast %iterArg1 : tile<1x1xf32> -> tile<1x1024xf32> loc(#loc39)
    %7 = maxf %6, %bcast_19 : tile<1x1024xf32> loc(#loc39)
    %pview_20 = make_partition_view %tview_14 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc40)
    %8 = store_view_tko weak %7, %pview_20[%blockId_x, %loopIdx] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc40)
    %reduce = reduce %7 dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc41)
      yield %9 : tile<f32> loc(#loc41)
    } loc(#loc41)
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc41)
    continue %5, %reshape : tile<1x1xf32>, tile<1x1xf32> loc(#loc33)
  } loc(#loc33)
  return loc(#loc20)
} loc(#loc22)
entry @prefix_scan_Kt1_A2i32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I256(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc42)
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>> loc(#loc43)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc44)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>> loc(#loc45)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc42)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc42)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc42)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc42)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc42)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc42)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xi32, strides=[?,1]> loc(#loc42)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc42)
  %assume_8 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc42)
  %assume_9 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc42)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_7, %assume_8], strides = [%assume_9, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc42)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc42)
  %assume_12 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc42)
  %assume_13 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc42)
  %tview_14 = make_tensor_view %assume_1, shape = [%assume_11, %assume_12], strides = [%assume_13, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc42)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc46)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x1xf32> loc(#loc47)
  %cst_f32 = constant <f32: -3.000000e+38> : tile<1x1xf32> loc(#loc48)
  %pview = make_partition_view %tview : partition_view<tile=(1x256), tensor_view<?x?xi32, strides=[?,1]>> loc(#loc49)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x256), tensor_view<?x?xi32, strides=[?,1]>> -> tile<i32> loc(#loc49)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc50)
  %cst_1_i32_15 = constant <i32: 1> : tile<i32> loc(#loc50)
  %cst_0_i32_16 = constant <i32: 0> : tile<i32> loc(#loc51)
  %cst_255_i32 = constant <i32: 255> : tile<i32> loc(#loc52)
  %for:2 = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_15) : tile<i32> iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %cst_f32) -> (tile<1x1xf32>, tile<1x1xf32>) {
    %pview_17 = make_partition_view %tview : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xi32, strides=[?,1]>> loc(#loc54)
    %tile, %result_token = load_view_tko weak %pview_17[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xi32, strides=[?,1]>>, tile<i32> -> tile<1x256xi32>, token loc(#loc54)
    %2 = itof %tile signed  : tile<1x256xi32> -> tile<1x256xf32> loc(#loc55)
    %3 = scan %2 dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<1x256xf32> -> tile<1x256xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %10 = addf %arg15, %arg16  : tile<f32> loc(#loc56)
      yield %10 : tile<f32> loc(#loc56)
    } loc(#loc56)
    %bcast = broadcast %iterArg0 : tile<1x1xf32> -> tile<1x256xf32> loc(#loc56)
    %4 = addf %3, %bcast  : tile<1x256xf32> loc(#loc56)
    %pview_18 = make_partition_view %tview_10 : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc57)
    %5 = store_view_tko weak %4, %pview_18[%blockId_x, %loopIdx] token = %0 : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc57)
    %6 = extract %4[%cst_0_i32_16, %cst_255_i32] : tile<1x256xf32> -> tile<1x1xf32> loc(#loc58)
    %7 = scan %2 dim=1 reverse=false identities=[-3.000000e+38 : f32] : tile<1x256xf32> -> tile<1x256xf32> 
    (%arg15: tile<f32>, %arg16: tile<f32>) {
      %10 = maxf %arg15, %arg16 : tile<f32> loc(#loc59)
      yield %10 : tile<f32> loc(#loc59)
    } loc(#loc59)
    %bcast_19 = broadcast %iterArg1 : tile<1x1xf32> -> tile<1x256xf32> loc(#loc60)
    %8 = maxf %7, %bcast_19 : tile<1x256xf32> loc(#loc60)
    %pview_20 = make_partition_view %tview_14 : partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc61)
    %9 = store_view_tko weak %8, %pview_20[%blockId_x, %loopIdx] token = %0 : tile<1x256xf32>, partition_view<tile=(1x256), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc61)
    %reduce = reduce %8 dim=1 identities=[0xFF800000 : f32] : tile<1x256xf32> -> tile<1xf32> 
    (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
      %10 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc62)
      yield %10 : tile<f32> loc(#loc62)
    } loc(#loc62)
    %reshape = reshape %reduce : tile<1xf32> -> tile<1x1xf32> loc(#loc62)
    continue %6, %reshape : tile<1x1xf32>, tile<1x1xf32> loc(#loc53)
  } loc(#loc53)
  return loc(#loc20)
} loc(#loc42)
#di_file = #cuda_tile.di_file<"prefix_scan.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/prefix_scan.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/prefix_scan.py":8:16)
#loc2 = loc("tests/data/cutile/kernels/prefix_scan.py":8:19)
#loc3 = loc("tests/data/cutile/kernels/prefix_scan.py":8:25)
#loc4 = loc("tests/data/cutile/kernels/prefix_scan.py":9:10)
#loc5 = loc("tests/data/cutile/kernels/prefix_scan.py":10:12)
#loc6 = loc("tests/data/cutile/kernels/prefix_scan.py":11:11)
#loc7 = loc("tests/data/cutile/kernels/prefix_scan.py":12:19)
#loc8 = loc("tests/data/cutile/kernels/prefix_scan.py":12:13)
#loc9 = loc("tests/data/cutile/kernels/prefix_scan.py":17:43)
#loc10 = loc("tests/data/cutile/kernels/prefix_scan.py":17:46)
#loc11 = loc("tests/data/cutile/kernels/prefix_scan.py":12:4)
#loc12 = loc("tests/data/cutile/kernels/prefix_scan.py":13:14)
#loc13 = loc("tests/data/cutile/kernels/prefix_scan.py":15:18)
#loc14 = loc("tests/data/cutile/kernels/prefix_scan.py":16:8)
#loc15 = loc("tests/data/cutile/kernels/prefix_scan.py":17:16)
#loc16 = loc("tests/data/cutile/kernels/prefix_scan.py":19:27)
#loc17 = loc("tests/data/cutile/kernels/prefix_scan.py":19:16)
#loc18 = loc("tests/data/cutile/kernels/prefix_scan.py":20:8)
#loc19 = loc("tests/data/cutile/kernels/prefix_scan.py":21:15)
#loc20 = loc(unknown)
#loc21 = loc("tests/data/cutile/kernels/prefix_scan.py":14:15)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "prefix_scan", linkageName = "prefix_scan_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I1024", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "prefix_scan", linkageName = "prefix_scan_Kt1_A2i32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_I256", compileUnit = #di_compile_unit, scopeLine = 7>
#loc22 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc23 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc24 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc25 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc26 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc27 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc28 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc43 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc44 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc45 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc46 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc47 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc48 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc49 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc50 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc51 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc52 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc53 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc54 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc55 = #cuda_tile.di_loc<#loc21 in #di_subprogram1>
#loc56 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc57 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc58 = #cuda_tile.di_loc<#loc15 in #di_subprogram1>
#loc59 = #cuda_tile.di_loc<#loc16 in #di_subprogram1>
#loc60 = #cuda_tile.di_loc<#loc17 in #di_subprogram1>
#loc61 = #cuda_tile.di_loc<#loc18 in #di_subprogram1>
#loc62 = #cuda_tile.di_loc<#loc19 in #di_subprogram1>
