entry @bmm_bias_relu_Kt1_A3f16_3l0_4t1_p16w_A3f16_3l0_4t1_p16w_A1f16_1t1_p16_A3f16_3l0_4t1_p16w_I64_I64_I32(%arg0: tile<ptr<f16>>, %arg1: tile<i64>, %arg2: tile<i64>, %arg3: tile<i64>, %arg4: tile<i64>, %arg5: tile<i64>, %arg6: tile<i64>, %arg7: tile<ptr<f16>>, %arg8: tile<i64>, %arg9: tile<i64>, %arg10: tile<i64>, %arg11: tile<i64>, %arg12: tile<i64>, %arg13: tile<i64>, %arg14: tile<ptr<f16>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<ptr<f16>>, %arg18: tile<i64>, %arg19: tile<i64>, %arg20: tile<i64>, %arg21: tile<i64>, %arg22: tile<i64>, %arg23: tile<i64>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc26)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc27)
  %assume_0 = assume div_by<16>, %arg7 : tile<ptr<f16>> loc(#loc28)
  %assume_1 = assume div_by<16>, %arg14 : tile<ptr<f16>> loc(#loc29)
  %assume_2 = assume div_by<16>, %arg17 : tile<ptr<f16>> loc(#loc30)
  %cst_1_i64 = constant <i64: 1> : tile<i64> loc(#loc26)
  %cst_1_i64_3 = constant <i64: 1> : tile<i64> loc(#loc26)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc26)
  %cst_1_i64_4 = constant <i64: 1> : tile<i64> loc(#loc26)
  %assume_5 = assume bounded<0, ?>, %arg1 : tile<i64> loc(#loc26)
  %assume_6 = assume bounded<0, ?>, %arg2 : tile<i64> loc(#loc26)
  %assume_7 = assume bounded<0, ?>, %arg3 : tile<i64> loc(#loc26)
  %assume_8 = assume bounded<0, ?>, %arg4 : tile<i64> loc(#loc26)
  %assume_9 = assume bounded<0, ?>, %arg5 : tile<i64> loc(#loc26)
  %tview = make_tensor_view %assume, shape = [%assume_5, %assume_6, %assume_7], strides = [%assume_8, %assume_9, 1] : tile<i64> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc26)
  %assume_10 = assume bounded<0, ?>, %arg8 : tile<i64> loc(#loc26)
  %assume_11 = assume bounded<0, ?>, %arg9 : tile<i64> loc(#loc26)
  %assume_12 = assume bounded<0, ?>, %arg10 : tile<i64> loc(#loc26)
  %assume_13 = assume bounded<0, ?>, %arg11 : tile<i64> loc(#loc26)
  %assume_14 = assume bounded<0, ?>, %arg12 : tile<i64> loc(#loc26)
  %tview_15 = make_tensor_view %assume_0, shape = [%assume_10, %assume_11, %assume_12], strides = [%assume_13, %assume_14, 1] : tile<i64> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc26)
  %assume_16 = assume bounded<0, ?>, %arg15 : tile<i32> loc(#loc26)
  %tview_17 = make_tensor_view %assume_1, shape = [%assume_16], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc26)
  %assume_18 = assume bounded<0, ?>, %arg18 : tile<i64> loc(#loc26)
  %assume_19 = assume bounded<0, ?>, %arg19 : tile<i64> loc(#loc26)
  %assume_20 = assume bounded<0, ?>, %arg20 : tile<i64> loc(#loc26)
  %assume_21 = assume bounded<0, ?>, %arg21 : tile<i64> loc(#loc26)
  %assume_22 = assume bounded<0, ?>, %arg22 : tile<i64> loc(#loc26)
  %tview_23 = make_tensor_view %assume_2, shape = [%assume_18, %assume_19, %assume_20], strides = [%assume_21, %assume_22, 1] : tile<i64> -> tensor_view<?x?x?xf16, strides=[?,?,1]> loc(#loc26)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc31)
  %blockId_x_24, %blockId_y_25, %blockId_z_26 = get_tile_block_id : tile<i32> loc(#loc32)
  %blockId_x_27, %blockId_y_28, %blockId_z_29 = get_tile_block_id : tile<i32> loc(#loc33)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x64x64xf32> loc(#loc34)
  %pview = make_partition_view %tview : partition_view<tile=(1x64x32), tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc35)
  %1:3 = get_index_space_shape %pview : partition_view<tile=(1x64x32), tensor_view<?x?x?xf16, strides=[?,?,1]>> -> tile<i32> loc(#loc35)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc36)
  %cst_1_i32_30 = constant <i32: 1> : tile<i32> loc(#loc36)
  %2 = exti %blockId_x signed : tile<i32> -> tile<i64> loc(#loc37)
  %3 = exti %blockId_y_25 signed : tile<i32> -> tile<i64> loc(#loc37)
  %pview_31 = make_partition_view %tview : partition_view<tile=(1x64x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc37)
  %4 = exti %blockId_x signed : tile<i32> -> tile<i64> loc(#loc38)
  %5 = exti %blockId_z_29 signed : tile<i32> -> tile<i64> loc(#loc38)
  %pview_32 = make_partition_view %tview_15 : partition_view<tile=(1x32x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc38)
  %cst_0_f16 = constant <f16: 0.000000e+00> : tile<1x64x64xf16> loc(#loc39)
  %for = for %loopIdx in (%cst_0_i32 to %1#2, step %cst_1_i32_30) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x64x64xf32>) {
    %14 = exti %loopIdx signed : tile<i32> -> tile<i64> loc(#loc37)
    %tile_38, %result_token_39 = load_view_tko weak %pview_31[%2, %3, %14] token = %0 : partition_view<tile=(1x64x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i64> -> tile<1x64x32xf16>, token loc(#loc37)
    %15 = exti %loopIdx signed : tile<i32> -> tile<i64> loc(#loc38)
    %tile_40, %result_token_41 = load_view_tko weak %pview_32[%4, %15, %5] token = %0 : partition_view<tile=(1x32x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i64> -> tile<1x32x64xf16>, token loc(#loc38)
    %16 = mmaf %tile_38, %tile_40, %cst_0_f16 : tile<1x64x32xf16>, tile<1x32x64xf16>, tile<1x64x64xf16> loc(#loc39)
    %17 = ftof %16  : tile<1x64x64xf16> -> tile<1x64x64xf32> loc(#loc41)
    %18 = addf %iterArg0, %17  : tile<1x64x64xf32> loc(#loc42)
    continue %18 : tile<1x64x64xf32> loc(#loc40)
  } loc(#loc40)
  %pview_33 = make_partition_view %tview_17 : partition_view<tile=(64), tensor_view<?xf16, strides=[1]>> loc(#loc43)
  %tile, %result_token = load_view_tko weak %pview_33[%blockId_z_29] token = %0 : partition_view<tile=(64), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<64xf16>, token loc(#loc43)
  %6 = ftof %tile  : tile<64xf16> -> tile<64xf32> loc(#loc44)
  %reshape = reshape %6 : tile<64xf32> -> tile<1x1x64xf32> loc(#loc45)
  %bcast = broadcast %reshape : tile<1x1x64xf32> -> tile<1x64x64xf32> loc(#loc46)
  %7 = addf %for, %bcast  : tile<1x64x64xf32> loc(#loc46)
  %cst_0_f32_34 = constant <f32: 0.000000e+00> : tile<f32> loc(#loc47)
  %reshape_35 = reshape %cst_0_f32_34 : tile<f32> -> tile<1x1x1xf32> loc(#loc48)
  %bcast_36 = broadcast %reshape_35 : tile<1x1x1xf32> -> tile<1x64x64xf32> loc(#loc48)
  %8 = maxf %7, %bcast_36 : tile<1x64x64xf32> loc(#loc48)
  %9 = ftof %8  : tile<1x64x64xf32> -> tile<1x64x64xf16> loc(#loc49)
  %10 = exti %blockId_x signed : tile<i32> -> tile<i64> loc(#loc50)
  %11 = exti %blockId_y_25 signed : tile<i32> -> tile<i64> loc(#loc50)
  %12 = exti %blockId_z_29 signed : tile<i32> -> tile<i64> loc(#loc50)
  %pview_37 = make_partition_view %tview_23 : partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>> loc(#loc50)
  %13 = store_view_tko weak %9, %pview_37[%10, %11, %12] token = %0 : tile<1x64x64xf16>, partition_view<tile=(1x64x64), tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i64> -> token loc(#loc50)
  return loc(#loc25)
} loc(#loc26)
#di_file = #cuda_tile.di_file<"bmm.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/bmm.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/bmm.py":8:18)
#loc2 = loc("tests/data/cutile/kernels/bmm.py":8:21)
#loc3 = loc("tests/data/cutile/kernels/bmm.py":8:24)
#loc4 = loc("tests/data/cutile/kernels/bmm.py":8:30)
#loc5 = loc("tests/data/cutile/kernels/bmm.py":9:26)
#loc6 = loc("tests/data/cutile/kernels/bmm.py":9:37)
#loc7 = loc("tests/data/cutile/kernels/bmm.py":9:48)
#loc8 = loc("tests/data/cutile/kernels/bmm.py":10:10)
#loc9 = loc("tests/data/cutile/kernels/bmm.py":11:19)
#loc10 = loc("tests/data/cutile/kernels/bmm.py":11:13)
#loc11 = loc("tests/data/cutile/kernels/bmm.py":12:17)
#loc12 = loc("tests/data/cutile/kernels/bmm.py":13:17)
#loc13 = loc("tests/data/cutile/kernels/bmm.py":14:25)
#loc14 = loc("tests/data/cutile/kernels/bmm.py":11:4)
#loc15 = loc("tests/data/cutile/kernels/bmm.py":14:15)
#loc16 = loc("tests/data/cutile/kernels/bmm.py":14:8)
#loc17 = loc("tests/data/cutile/kernels/bmm.py":15:26)
#loc18 = loc("tests/data/cutile/kernels/bmm.py":15:16)
#loc19 = loc("tests/data/cutile/kernels/bmm.py":16:27)
#loc20 = loc("tests/data/cutile/kernels/bmm.py":16:21)
#loc21 = loc("tests/data/cutile/kernels/bmm.py":16:53)
#loc22 = loc("tests/data/cutile/kernels/bmm.py":16:10)
#loc23 = loc("tests/data/cutile/kernels/bmm.py":17:50)
#loc24 = loc("tests/data/cutile/kernels/bmm.py":17:4)
#loc25 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "bmm_bias_relu", linkageName = "bmm_bias_relu_Kt1_A3f16_3l0_4t1_p16w_A3f16_3l0_4t1_p16w_A1f16_1t1_p16_A3f16_3l0_4t1_p16w_I64_I64_I32", compileUnit = #di_compile_unit, scopeLine = 7>
#loc26 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc27 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc28 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc48 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc49 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc50 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
