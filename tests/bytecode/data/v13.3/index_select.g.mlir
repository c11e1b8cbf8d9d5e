entry @index_select_Kt1_A2f32_1l0_2t1_p16_A1i32_1t1_p16_A2f32_1l0_2t1_p16_I16_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<i32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc14)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc15)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<i32>> loc(#loc16)
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f32>> loc(#loc17)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc14)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc14)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc14)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc14)
  %assume_5 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc14)
  %assume_6 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc14)
  %tview = make_tensor_view %assume, shape = [%assume_4, %assume_5], strides = [%assume_6, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc14)
  %assume_7 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc14)
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]> loc(#loc14)
  %assume_9 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc14)
  %assume_10 = assume bounded<0, ?>, %arg10 : tile<i32> loc(#loc14)
  %assume_11 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc14)
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc14)
  %cst_16_i32 = constant <i32: 16> : tile<i32> loc(#loc14)
  %cst_64_i32 = constant <i32: 64> : tile<i32> loc(#loc14)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc18)
  %blockId_x_13, %blockId_y_14, %blockId_z_15 = get_tile_block_id : tile<i32> loc(#loc19)
  %pview = make_partition_view %tview_8 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>> loc(#loc20)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(16), padding_value = zero, tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<16xi32>, token loc(#loc20)
  %1 = muli %blockId_y_14, %cst_64_i32 : tile<i32> loc(#loc21)
  %gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0> loc(#loc22)
  %tile_16, %result_token_17 = load_view_tko weak %gsview[%tile, %1] token = %0 : gather_scatter_view<tile=(16x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> tile<16x64xf32>, token loc(#loc22)
  %2 = muli %blockId_x, %cst_16_i32 : tile<i32> loc(#loc23)
  %3 = iota : tile<16xi32> loc(#loc24)
  %reshape = reshape %2 : tile<i32> -> tile<1xi32> loc(#loc23)
  %bcast = broadcast %reshape : tile<1xi32> -> tile<16xi32> loc(#loc23)
  %4 = addi %bcast, %3 : tile<16xi32> loc(#loc23)
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32> loc(#loc25)
  %reshape_18 = reshape %cst_2_f32 : tile<f32> -> tile<1x1xf32> loc(#loc25)
  %bcast_19 = broadcast %reshape_18 : tile<1x1xf32> -> tile<16x64xf32> loc(#loc25)
  %5 = mulf %tile_16, %bcast_19  : tile<16x64xf32> loc(#loc25)
  %gsview_20 = make_gather_scatter_view %tview_12 : gather_scatter_view<tile=(16x64), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0> loc(#loc26)
  %6 = store_view_tko weak %5, %gsview_20[%4, %1] token = %0 : tile<16x64xf32>, gather_scatter_view<tile=(16x64), tensor_view<?x?xf32, strides=[?,1]>, sparse_dim=0>, tile<16xi32>, tile<i32> -> token loc(#loc26)
  return loc(#loc13)
} loc(#loc14)
#di_file = #cuda_tile.di_file<"index_select.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/index_select.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/index_select.py":8:17)
#loc2 = loc("tests/data/cutile/kernels/index_select.py":8:22)
#loc3 = loc("tests/data/cutile/kernels/index_select.py":8:31)
#loc4 = loc("tests/data/cutile/kernels/index_select.py":9:12)
#loc5 = loc("tests/data/cutile/kernels/index_select.py":10:16)
#loc6 = loc("tests/data/cutile/kernels/index_select.py":11:11)
#loc7 = loc("tests/data/cutile/kernels/index_select.py":12:20)
#loc8 = loc("tests/data/cutile/kernels/index_select.py":13:13)
#loc9 = loc("tests/data/cutile/kernels/index_select.py":14:15)
#loc10 = loc("tests/data/cutile/kernels/index_select.py":14:30)
#loc11 = loc("tests/data/cutile/kernels/index_select.py":15:54)
#loc12 = loc("tests/data/cutile/kernels/index_select.py":15:4)
#loc13 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "index_select", linkageName = "index_select_Kt1_A2f32_1l0_2t1_p16_A1i32_1t1_p16_A2f32_1l0_2t1_p16_I16_I64", compileUnit = #di_compile_unit, scopeLine = 7>
#loc14 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc15 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc16 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc17 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc18 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc19 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc20 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc21 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc22 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc23 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc24 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc25 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc26 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
