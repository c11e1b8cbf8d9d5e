entry @vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc10)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc11)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>> loc(#loc12)
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f32>> loc(#loc13)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc10)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc10)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc10)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc10)
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc10)
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc10)
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc10)
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc10)
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc10)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc14)
  %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc15)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token loc(#loc15)
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc16)
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token loc(#loc16)
  %reshape = reshape %arg9 : tile<f32> -> tile<1xf32> loc(#loc17)
  %bcast = broadcast %reshape : tile<1xf32> -> tile<1024xf32> loc(#loc17)
  %1 = fma %bcast, %tile, %tile_10  : tile<1024xf32> loc(#loc17)
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>> loc(#loc18)
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc18)
  return loc(#loc9)
} loc(#loc10)
entry @vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_Sf16_I2048(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f16>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f16>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc19)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc20)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f16>> loc(#loc21)
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<f16>> loc(#loc22)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc19)
  %cst_1_i32_2 = constant <i32: 1> : tile<i32> loc(#loc19)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc19)
  %assume_4 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc19)
  %tview = make_tensor_view %assume, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc19)
  %assume_5 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc19)
  %tview_6 = make_tensor_view %assume_0, shape = [%assume_5], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc19)
  %assume_7 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc19)
  %tview_8 = make_tensor_view %assume_1, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc19)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc23)
  %pview = make_partition_view %tview : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>> loc(#loc24)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<2048xf16>, token loc(#loc24)
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>> loc(#loc25)
  %tile_10, %result_token_11 = load_view_tko weak %pview_9[%blockId_x] token = %0 : partition_view<tile=(2048), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<2048xf16>, token loc(#loc25)
  %reshape = reshape %arg9 : tile<f16> -> tile<1xf16> loc(#loc26)
  %bcast = broadcast %reshape : tile<1xf16> -> tile<2048xf16> loc(#loc26)
  %1 = fma %bcast, %tile, %tile_10  : tile<2048xf16> loc(#loc26)
  %pview_12 = make_partition_view %tview_8 : partition_view<tile=(2048), tensor_view<?xf16, strides=[1]>> loc(#loc27)
  %2 = store_view_tko weak %1, %pview_12[%blockId_x] token = %0 : tile<2048xf16>, partition_view<tile=(2048), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token loc(#loc27)
  return loc(#loc9)
} loc(#loc19)
#di_file = #cuda_tile.di_file<"vector_add.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/vector_add.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/vector_add.py":8:15)
#loc2 = loc("tests/data/cutile/kernels/vector_add.py":8:18)
#loc3 = loc("tests/data/cutile/kernels/vector_add.py":8:21)
#loc4 = loc("tests/data/cutile/kernels/vector_add.py":9:10)
#loc5 = loc("tests/data/cutile/kernels/vector_add.py":10:8)
#loc6 = loc("tests/data/cutile/kernels/vector_add.py":11:8)
#loc7 = loc("tests/data/cutile/kernels/vector_add.py":12:35)
#loc8 = loc("tests/data/cutile/kernels/vector_add.py":12:4)
#loc9 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "vector_add", linkageName = "vector_add_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I1024", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "vector_add", linkageName = "vector_add_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_Sf16_I2048", compileUnit = #di_compile_unit, scopeLine = 7>
#loc10 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc11 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc12 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc13 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc14 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc15 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc16 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc17 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc18 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc19 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc20 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc21 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc22 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc23 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc24 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc25 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc26 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc27 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
