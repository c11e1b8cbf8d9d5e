entry @layernorm_Kt1_A2f16_1l0_2t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_A2f16_1l0_2t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I512(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f16>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f16>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f16>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<ptr<f32>>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<ptr<f32>>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc40)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc41)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f16>> loc(#loc42)
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<f16>> loc(#loc43)
  %assume_2 = assume div_by<16>, %arg11 : tile<ptr<f16>> loc(#loc44)
  %assume_3 = assume div_by<16>, %arg16 : tile<ptr<f32>> loc(#loc45)
  %assume_4 = assume div_by<16>, %arg19 : tile<ptr<f32>> loc(#loc46)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc40)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc40)
  %cst_1_i32_6 = constant <i32: 1> : tile<i32> loc(#loc40)
  %cst_1_i32_7 = constant <i32: 1> : tile<i32> loc(#loc40)
  %cst_1_i32_8 = constant <i32: 1> : tile<i32> loc(#loc40)
  %cst_1_i32_9 = constant <i32: 1> : tile<i32> loc(#loc40)
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc40)
  %assume_11 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc40)
  %assume_12 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc40)
  %tview = make_tensor_view %assume, shape = [%assume_10, %assume_11], strides = [%assume_12, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc40)
  %assume_13 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc40)
  %tview_14 = make_tensor_view %assume_0, shape = [%assume_13], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc40)
  %assume_15 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc40)
  %tview_16 = make_tensor_view %assume_1, shape = [%assume_15], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc40)
  %assume_17 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc40)
  %assume_18 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc40)
  %assume_19 = assume bounded<0, ?>, %arg14 : tile<i32> loc(#loc40)
  %tview_20 = make_tensor_view %assume_2, shape = [%assume_17, %assume_18], strides = [%assume_19, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc40)
  %assume_21 = assume bounded<0, ?>, %arg17 : tile<i32> loc(#loc40)
  %tview_22 = make_tensor_view %assume_3, shape = [%assume_21], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc40)
  %assume_23 = assume bounded<0, ?>, %arg20 : tile<i32> loc(#loc40)
  %tview_24 = make_tensor_view %assume_4, shape = [%assume_23], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc40)
  %cst_512_i32 = constant <i32: 512> : tile<i32> loc(#loc40)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc47)
  %pview = make_partition_view %tview : partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc48)
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>> -> tile<i32> loc(#loc48)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x512xf32> loc(#loc49)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc50)
  %cst_1_i32_25 = constant <i32: 1> : tile<i32> loc(#loc50)
  %pview_26 = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc87)
  %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_25) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x512xf32>) {
    %tile, %result_token = load_view_tko weak %pview_26[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x512xf16>, token loc(#loc87)
    %11 = ftof %tile  : tile<1x512xf16> -> tile<1x512xf32> loc(#loc88)
    %12 = addf %iterArg0, %11  : tile<1x512xf32> loc(#loc55)
    continue %12 : tile<1x512xf32> loc(#loc53)
  } loc(#loc53)
  %reduce = reduce %for dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %11 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc56)
    yield %11 : tile<f32> loc(#loc56)
  } loc(#loc56)
  %2 = itof %assume_11 signed  : tile<i32> -> tile<f32> loc(#loc56)
  %reshape = reshape %2 : tile<f32> -> tile<1xf32> loc(#loc56)
  %3 = divf %reduce, %reshape  : tile<1xf32> loc(#loc56)
  %cst_0_f32_27 = constant <f32: 0.000000e+00> : tile<1x512xf32> loc(#loc57)
  %cst_0_i32_28 = constant <i32: 0> : tile<i32> loc(#loc58)
  %cst_1_i32_29 = constant <i32: 1> : tile<i32> loc(#loc58)
  %4 = iota : tile<512xi32> loc(#loc59)
  %reshape_30 = reshape %assume_11 : tile<i32> -> tile<1xi32> loc(#loc60)
  %bcast = broadcast %reshape_30 : tile<1xi32> -> tile<512xi32> loc(#loc60)
  %pview_31 = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc89)
  %reshape_32 = reshape %3 : tile<1xf32> -> tile<1x1xf32> loc(#loc62)
  %bcast_33 = broadcast %reshape_32 : tile<1x1xf32> -> tile<1x512xf32> loc(#loc62)
  %cst_0_f32_34 = constant <f32: 0.000000e+00> : tile<f32> loc(#loc63)
  %reshape_35 = reshape %cst_0_f32_34 : tile<f32> -> tile<1x1xf32> loc(#loc64)
  %bcast_36 = broadcast %reshape_35 : tile<1x1xf32> -> tile<1x512xf32> loc(#loc64)
  %for_37 = for %loopIdx in (%cst_0_i32_28 to %1#1, step %cst_1_i32_29) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_27) -> (tile<1x512xf32>) {
    %11 = muli %loopIdx, %cst_512_i32 : tile<i32> loc(#loc66)
    %reshape_53 = reshape %11 : tile<i32> -> tile<1xi32> loc(#loc66)
    %bcast_54 = broadcast %reshape_53 : tile<1xi32> -> tile<512xi32> loc(#loc66)
    %12 = addi %bcast_54, %4 : tile<512xi32> loc(#loc66)
    %13 = cmpi less_than %12, %bcast, signed : tile<512xi32> -> tile<512xi1> loc(#loc60)
    %tile, %result_token = load_view_tko weak %pview_31[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x512xf16>, token loc(#loc89)
    %14 = ftof %tile  : tile<1x512xf16> -> tile<1x512xf32> loc(#loc90)
    %15 = subf %14, %bcast_33  : tile<1x512xf32> loc(#loc62)
    %reshape_55 = reshape %13 : tile<512xi1> -> tile<1x512xi1> loc(#loc64)
    %16 = select %reshape_55, %15, %bcast_36 : tile<1x512xi1>, tile<1x512xf32> loc(#loc64)
    %17 = fma %16, %16, %iterArg0  : tile<1x512xf32> loc(#loc68)
    continue %17 : tile<1x512xf32> loc(#loc65)
  } loc(#loc65)
  %reduce_38 = reduce %for_37 dim=1 identities=[0.000000e+00 : f32] : tile<1x512xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %11 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc69)
    yield %11 : tile<f32> loc(#loc69)
  } loc(#loc69)
  %5 = itof %assume_11 signed  : tile<i32> -> tile<f32> loc(#loc69)
  %reshape_39 = reshape %5 : tile<f32> -> tile<1xf32> loc(#loc69)
  %6 = divf %reduce_38, %reshape_39  : tile<1xf32> loc(#loc69)
  %reshape_40 = reshape %arg22 : tile<f32> -> tile<1xf32> loc(#loc69)
  %7 = addf %6, %reshape_40  : tile<1xf32> loc(#loc69)
  %8 = rsqrt %7 : tile<1xf32> loc(#loc70)
  %pview_41 = make_partition_view %tview_22 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc71)
  %9 = store_view_tko weak %3, %pview_41[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc71)
  %pview_42 = make_partition_view %tview_24 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc72)
  %10 = store_view_tko weak %8, %pview_42[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc72)
  %cst_0_i32_43 = constant <i32: 0> : tile<i32> loc(#loc73)
  %cst_1_i32_44 = constant <i32: 1> : tile<i32> loc(#loc73)
  %pview_45 = make_partition_view %tview_14 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>> loc(#loc91)
  %pview_46 = make_partition_view %tview_16 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>> loc(#loc92)
  %pview_47 = make_partition_view %tview : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc93)
  %reshape_48 = reshape %3 : tile<1xf32> -> tile<1x1xf32> loc(#loc79)
  %bcast_49 = broadcast %reshape_48 : tile<1x1xf32> -> tile<1x512xf32> loc(#loc79)
  %reshape_50 = reshape %8 : tile<1xf32> -> tile<1x1xf32> loc(#loc80)
  %bcast_51 = broadcast %reshape_50 : tile<1x1xf32> -> tile<1x512xf32> loc(#loc80)
  %pview_52 = make_partition_view %tview_20 : partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>> loc(#loc81)
  for %loopIdx in (%cst_0_i32_43 to %1#1, step %cst_1_i32_44) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview_45[%loopIdx] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<512xf16>, token loc(#loc91)
    %11 = ftof %tile  : tile<512xf16> -> tile<512xf32> loc(#loc94)
    %tile_53, %result_token_54 = load_view_tko weak %pview_46[%loopIdx] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<512xf16>, token loc(#loc92)
    %12 = ftof %tile_53  : tile<512xf16> -> tile<512xf32> loc(#loc95)
    %tile_55, %result_token_56 = load_view_tko weak %pview_47[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x512), padding_value = zero, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x512xf16>, token loc(#loc93)
    %13 = ftof %tile_55  : tile<1x512xf16> -> tile<1x512xf32> loc(#loc96)
    %14 = subf %13, %bcast_49  : tile<1x512xf32> loc(#loc79)
    %15 = mulf %14, %bcast_51  : tile<1x512xf32> loc(#loc80)
    %reshape_57 = reshape %11 : tile<512xf32> -> tile<1x512xf32> loc(#loc80)
    %reshape_58 = reshape %12 : tile<512xf32> -> tile<1x512xf32> loc(#loc80)
    %16 = fma %15, %reshape_57, %reshape_58  : tile<1x512xf32> loc(#loc80)
    %17 = ftof %16  : tile<1x512xf32> -> tile<1x512xf16> loc(#loc86)
    %18 = store_view_tko weak %17, %pview_52[%blockId_x, %loopIdx] token = %0 : tile<1x512xf16>, partition_view<tile=(1x512), tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> token loc(#loc81)
  } loc(#loc82)
  return loc(#loc39)
} loc(#loc40)
#di_file = #cuda_tile.di_file<"layernorm.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/layernorm.py":13:0)
#loc1 = loc("tests/data/cutile/kernels/layernorm.py":13:14)
#loc2 = loc("tests/data/cutile/kernels/layernorm.py":13:17)
#loc3 = loc("tests/data/cutile/kernels/layernorm.py":13:25)
#loc4 = loc("tests/data/cutile/kernels/layernorm.py":13:31)
#loc5 = loc("tests/data/cutile/kernels/layernorm.py":13:34)
#loc6 = loc("tests/data/cutile/kernels/layernorm.py":13:44)
#loc7 = loc("tests/data/cutile/kernels/layernorm.py":14:10)
#loc8 = loc("tests/data/cutile/kernels/layernorm.py":16:15)
#loc9 = loc("tests/data/cutile/kernels/layernorm.py":18:10)
#loc10 = loc("tests/data/cutile/kernels/layernorm.py":19:13)
#loc11 = loc("tests/data/cutile/kernels/layernorm.py":9:21)
#loc12 = loc("tests/data/cutile/kernels/layernorm.py":20:15)
#loc13 = loc("tests/data/cutile/kernels/layernorm.py":19:4)
#loc14 = loc("tests/data/cutile/kernels/layernorm.py":9:11)
#loc15 = loc("tests/data/cutile/kernels/layernorm.py":20:8)
#loc16 = loc("tests/data/cutile/kernels/layernorm.py":21:11)
#loc17 = loc("tests/data/cutile/kernels/layernorm.py":23:10)
#loc18 = loc("tests/data/cutile/kernels/layernorm.py":24:13)
#loc19 = loc("tests/data/cutile/kernels/layernorm.py":25:29)
#loc20 = loc("tests/data/cutile/kernels/layernorm.py":26:28)
#loc21 = loc("tests/data/cutile/kernels/layernorm.py":26:43)
#loc22 = loc("tests/data/cutile/kernels/layernorm.py":26:88)
#loc23 = loc("tests/data/cutile/kernels/layernorm.py":26:19)
#loc24 = loc("tests/data/cutile/kernels/layernorm.py":24:4)
#loc25 = loc("tests/data/cutile/kernels/layernorm.py":25:15)
#loc26 = loc("tests/data/cutile/kernels/layernorm.py":27:8)
#loc27 = loc("tests/data/cutile/kernels/layernorm.py":28:20)
#loc28 = loc("tests/data/cutile/kernels/layernorm.py":28:11)
#loc29 = loc("tests/data/cutile/kernels/layernorm.py":30:4)
#loc30 = loc("tests/data/cutile/kernels/layernorm.py":31:4)
#loc31 = loc("tests/data/cutile/kernels/layernorm.py":33:13)
#loc32 = loc("tests/data/cutile/kernels/layernorm.py":34:12)
#loc33 = loc("tests/data/cutile/kernels/layernorm.py":35:12)
#loc34 = loc("tests/data/cutile/kernels/layernorm.py":36:15)
#loc35 = loc("tests/data/cutile/kernels/layernorm.py":36:14)
#loc36 = loc("tests/data/cutile/kernels/layernorm.py":37:8)
#loc37 = loc("tests/data/cutile/kernels/layernorm.py":33:4)
#loc38 = loc("tests/data/cutile/kernels/layernorm.py":37:41)
#loc39 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 12, name = "layernorm", linkageName = "layernorm_Kt1_A2f16_1l0_2t1_p16_A1f16_1t1_p16_A1f16_1t1_p16_A2f16_1l0_2t1_p16_A1f32_1t1_p16_A1f32_1t1_p16_Sf32_I512", compileUnit = #di_compile_unit, scopeLine = 12>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "_load_f32", linkageName = "_load_f32@layernorm:7:1_s0", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram2 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "_load_f32", linkageName = "_load_f32@layernorm:7:1_s1", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram3 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "_load_f32", linkageName = "_load_f32@layernorm:7:1_s2", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram4 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "_load_f32", linkageName = "_load_f32@layernorm:7:1_s3", compileUnit = #di_compile_unit, scopeLine = 7>
#di_subprogram5 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "_load_f32", linkageName = "_load_f32@layernorm:7:1_s4", compileUnit = #di_compile_unit, scopeLine = 7>
#loc40 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc48 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc49 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc50 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc51 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc52 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc53 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc54 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
#loc55 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc56 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc57 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc58 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc59 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc60 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc61 = #cuda_tile.di_loc<#loc11 in #di_subprogram2>
#loc62 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc63 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc64 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc65 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
#loc66 = #cuda_tile.di_loc<#loc25 in #di_subprogram>
#loc67 = #cuda_tile.di_loc<#loc14 in #di_subprogram2>
#loc68 = #cuda_tile.di_loc<#loc26 in #di_subprogram>
#loc69 = #cuda_tile.di_loc<#loc27 in #di_subprogram>
#loc70 = #cuda_tile.di_loc<#loc28 in #di_subprogram>
#loc71 = #cuda_tile.di_loc<#loc29 in #di_subprogram>
#loc72 = #cuda_tile.di_loc<#loc30 in #di_subprogram>
#loc73 = #cuda_tile.di_loc<#loc31 in #di_subprogram>
#loc74 = #cuda_tile.di_loc<#loc11 in #di_subprogram3>
#loc75 = #cuda_tile.di_loc<#loc32 in #di_subprogram>
#loc76 = #cuda_tile.di_loc<#loc11 in #di_subprogram4>
#loc77 = #cuda_tile.di_loc<#loc33 in #di_subprogram>
#loc78 = #cuda_tile.di_loc<#loc11 in #di_subprogram5>
#loc79 = #cuda_tile.di_loc<#loc34 in #di_subprogram>
#loc80 = #cuda_tile.di_loc<#loc35 in #di_subprogram>
#loc81 = #cuda_tile.di_loc<#loc36 in #di_subprogram>
#loc82 = #cuda_tile.di_loc<#loc37 in #di_subprogram>
#loc83 = #cuda_tile.di_loc<#loc14 in #di_subprogram3>
#loc84 = #cuda_tile.di_loc<#loc14 in #di_subprogram4>
#loc85 = #cuda_tile.di_loc<#loc14 in #di_subprogram5>
#loc86 = #cuda_tile.di_loc<#loc38 in #di_subprogram>
#loc87 = loc(callsite(#loc51 at #loc52))
#loc88 = loc(callsite(#loc54 at #loc52))
#loc89 = loc(callsite(#loc61 at #loc62))
#loc90 = loc(callsite(#loc67 at #loc62))
#loc91 = loc(callsite(#loc74 at #loc75))
#loc92 = loc(callsite(#loc76 at #loc77))
#loc93 = loc(callsite(#loc78 at #loc79))
#loc94 = loc(callsite(#loc83 at #loc75))
#loc95 = loc(callsite(#loc84 at #loc77))
#loc96 = loc(callsite(#loc85 at #loc79))
