entry @transpose_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A3f32_3l0_4t1_p16_A3f32_3l0_4t1_p16_I64_I32(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<f32>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<ptr<f32>>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<i32>, %arg23: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc15)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc16)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc17)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<f32>> loc(#loc18)
  %assume_2 = assume div_by<16>, %arg17 : tile<ptr<f32>> loc(#loc19)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc15)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc15)
  %cst_1_i32_4 = constant <i32: 1> : tile<i32> loc(#loc15)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc15)
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc15)
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc15)
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc15)
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc15)
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc15)
  %assume_10 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc15)
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc15)
  %tview_12 = make_tensor_view %assume_0, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]> loc(#loc15)
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc15)
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc15)
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc15)
  %assume_16 = assume bounded<0, ?>, %arg14 : tile<i32> loc(#loc15)
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32> loc(#loc15)
  %tview_18 = make_tensor_view %assume_1, shape = [%assume_13, %assume_14, %assume_15], strides = [%assume_16, %assume_17, 1] : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]> loc(#loc15)
  %assume_19 = assume bounded<0, ?>, %arg18 : tile<i32> loc(#loc15)
  %assume_20 = assume bounded<0, ?>, %arg19 : tile<i32> loc(#loc15)
  %assume_21 = assume bounded<0, ?>, %arg20 : tile<i32> loc(#loc15)
  %assume_22 = assume bounded<0, ?>, %arg21 : tile<i32> loc(#loc15)
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32> loc(#loc15)
  %tview_24 = make_tensor_view %assume_2, shape = [%assume_19, %assume_20, %assume_21], strides = [%assume_22, %assume_23, 1] : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]> loc(#loc15)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc20)
  %blockId_x_25, %blockId_y_26, %blockId_z_27 = get_tile_block_id : tile<i32> loc(#loc21)
  %pview = make_partition_view %tview : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> loc(#loc22)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x32xf32>, token loc(#loc22)
  %1 = permute %tile [1, 0] : tile<64x32xf32> -> tile<32x64xf32> loc(#loc23)
  %pview_28 = make_partition_view %tview_12 : partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>> loc(#loc24)
  %2 = store_view_tko weak %1, %pview_28[%blockId_y_26, %blockId_x] token = %0 : tile<32x64xf32>, partition_view<tile=(32x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token loc(#loc24)
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32> loc(#loc25)
  %pview_32 = make_partition_view %tview_18 : partition_view<tile=(1x64x32), tensor_view<?x?x?xf32, strides=[?,?,1]>> loc(#loc26)
  %tile_33, %result_token_34 = load_view_tko weak %pview_32[%blockId_z_31, %blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(1x64x32), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> tile<1x64x32xf32>, token loc(#loc26)
  %3 = permute %tile_33 [0, 2, 1] : tile<1x64x32xf32> -> tile<1x32x64xf32> loc(#loc27)
  %pview_35 = make_partition_view %tview_24 : partition_view<tile=(1x32x64), tensor_view<?x?x?xf32, strides=[?,?,1]>> loc(#loc28)
  %4 = store_view_tko weak %3, %pview_35[%blockId_z_31, %blockId_y_26, %blockId_x] token = %0 : tile<1x32x64xf32>, partition_view<tile=(1x32x64), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> token loc(#loc28)
  return loc(#loc14)
} loc(#loc15)
entry @transpose_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_I128_I64(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<bf16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<ptr<bf16>>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<ptr<bf16>>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<i32>, %arg23: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc29)
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>> loc(#loc30)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<bf16>> loc(#loc31)
  %assume_1 = assume div_by<16>, %arg10 : tile<ptr<bf16>> loc(#loc32)
  %assume_2 = assume div_by<16>, %arg17 : tile<ptr<bf16>> loc(#loc33)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc29)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc29)
  %cst_1_i32_4 = constant <i32: 1> : tile<i32> loc(#loc29)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc29)
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc29)
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc29)
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc29)
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]> loc(#loc29)
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc29)
  %assume_10 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc29)
  %assume_11 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc29)
  %tview_12 = make_tensor_view %assume_0, shape = [%assume_9, %assume_10], strides = [%assume_11, 1] : tile<i32> -> tensor_view<?x?xbf16, strides=[?,1]> loc(#loc29)
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i32> loc(#loc29)
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc29)
  %assume_15 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc29)
  %assume_16 = assume bounded<0, ?>, %arg14 : tile<i32> loc(#loc29)
  %assume_17 = assume bounded<0, ?>, %arg15 : tile<i32> loc(#loc29)
  %tview_18 = make_tensor_view %assume_1, shape = [%assume_13, %assume_14, %assume_15], strides = [%assume_16, %assume_17, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]> loc(#loc29)
  %assume_19 = assume bounded<0, ?>, %arg18 : tile<i32> loc(#loc29)
  %assume_20 = assume bounded<0, ?>, %arg19 : tile<i32> loc(#loc29)
  %assume_21 = assume bounded<0, ?>, %arg20 : tile<i32> loc(#loc29)
  %assume_22 = assume bounded<0, ?>, %arg21 : tile<i32> loc(#loc29)
  %assume_23 = assume bounded<0, ?>, %arg22 : tile<i32> loc(#loc29)
  %tview_24 = make_tensor_view %assume_2, shape = [%assume_19, %assume_20, %assume_21], strides = [%assume_22, %assume_23, 1] : tile<i32> -> tensor_view<?x?x?xbf16, strides=[?,?,1]> loc(#loc29)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc34)
  %blockId_x_25, %blockId_y_26, %blockId_z_27 = get_tile_block_id : tile<i32> loc(#loc35)
  %pview = make_partition_view %tview : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc36)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(128x64), padding_value = zero, tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> tile<128x64xbf16>, token loc(#loc36)
  %1 = permute %tile [1, 0] : tile<128x64xbf16> -> tile<64x128xbf16> loc(#loc37)
  %pview_28 = make_partition_view %tview_12 : partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>> loc(#loc38)
  %2 = store_view_tko weak %1, %pview_28[%blockId_y_26, %blockId_x] token = %0 : tile<64x128xbf16>, partition_view<tile=(64x128), tensor_view<?x?xbf16, strides=[?,1]>>, tile<i32> -> token loc(#loc38)
  %blockId_x_29, %blockId_y_30, %blockId_z_31 = get_tile_block_id : tile<i32> loc(#loc39)
  %pview_32 = make_partition_view %tview_18 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>> loc(#loc40)
  %tile_33, %result_token_34 = load_view_tko weak %pview_32[%blockId_z_31, %blockId_x, %blockId_y_26] token = %0 : partition_view<tile=(1x128x64), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> tile<1x128x64xbf16>, token loc(#loc40)
  %3 = permute %tile_33 [0, 2, 1] : tile<1x128x64xbf16> -> tile<1x64x128xbf16> loc(#loc41)
  %pview_35 = make_partition_view %tview_24 : partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>> loc(#loc42)
  %4 = store_view_tko weak %3, %pview_35[%blockId_z_31, %blockId_y_26, %blockId_x] token = %0 : tile<1x64x128xbf16>, partition_view<tile=(1x64x128), tensor_view<?x?x?xbf16, strides=[?,?,1]>>, tile<i32> -> token loc(#loc42)
  return loc(#loc14)
} loc(#loc29)
#di_file = #cuda_tile.di_file<"transpose.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/transpose.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/transpose.py":8:14)
#loc2 = loc("tests/data/cutile/kernels/transpose.py":8:17)
#loc3 = loc("tests/data/cutile/kernels/transpose.py":8:20)
#loc4 = loc("tests/data/cutile/kernels/transpose.py":8:24)
#loc5 = loc("tests/data/cutile/kernels/transpose.py":9:8)
#loc6 = loc("tests/data/cutile/kernels/transpose.py":10:8)
#loc7 = loc("tests/data/cutile/kernels/transpose.py":11:11)
#loc8 = loc("tests/data/cutile/kernels/transpose.py":12:35)
#loc9 = loc("tests/data/cutile/kernels/transpose.py":12:4)
#loc10 = loc("tests/data/cutile/kernels/transpose.py":14:12)
#loc11 = loc("tests/data/cutile/kernels/transpose.py":15:11)
#loc12 = loc("tests/data/cutile/kernels/transpose.py":16:43)
#loc13 = loc("tests/data/cutile/kernels/transpose.py":16:4)
#loc14 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "transpose", linkageName = "transpose_Kt1_A2f32_1l0_2t1_p16_A2f32_1l0_2t1_p16_A3f32_3l0_4t1_p16_A3f32_3l0_4t1_p16_I64_I32", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "transpose", linkageName = "transpose_Kt1_A2bf16_1l0_2t1_p16_A2bf16_1l0_2t1_p16_A3bf16_3l0_4t1_p16_A3bf16_3l0_4t1_p16_I128_I64", compileUnit = #di_compile_unit, scopeLine = 7>
#loc15 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc16 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc17 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc18 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc19 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc20 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc21 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc22 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc23 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc24 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc25 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc26 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc27 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc28 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc30 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc31 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc32 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc33 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc34 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc35 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc36 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc37 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc38 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc39 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc40 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc41 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc42 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
