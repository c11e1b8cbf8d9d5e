entry @searchsorted_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_Sf32_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<f32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc31)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc32)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>> loc(#loc33)
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>> loc(#loc34)
  %assume_2 = assume div_by<16>, %arg9 : tile<ptr<i32>> loc(#loc35)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc31)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc31)
  %cst_1_i32_4 = constant <i32: 1> : tile<i32> loc(#loc31)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc31)
  %false = constant <i1: false> : tile<i1> loc(#loc36)
  %true = constant <i1: true> : tile<i1> loc(#loc36)
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc31)
  %tview = make_tensor_view %assume, shape = [%assume_6], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc31)
  %assume_7 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc31)
  %tview_8 = make_tensor_view %assume_0, shape = [%assume_7], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc31)
  %assume_9 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc31)
  %tview_10 = make_tensor_view %assume_1, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]> loc(#loc31)
  %assume_11 = assume bounded<0, ?>, %arg10 : tile<i32> loc(#loc31)
  %tview_12 = make_tensor_view %assume_2, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]> loc(#loc31)
  %cst_64_i32 = constant <i32: 64> : tile<i32> loc(#loc31)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc37)
  %pview = make_partition_view %tview_8 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc38)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token loc(#loc38)
  %reshape = reshape %tile : tile<1xf32> -> tile<f32> loc(#loc38)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc39)
  %cst_2_i32 = constant <i32: 2> : tile<i32> loc(#loc40)
  %1:2 = loop iter_values(%arg13 = %assume_6, %arg14 = %cst_0_i32) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
    %4 = cmpi less_than %arg14, %arg13, signed : tile<i32> -> tile<i1> loc(#loc42)
    if %4 {
    } else {
      break %arg13, %arg14 : tile<i32>, tile<i32> loc(#loc41)
    } loc(#loc41)
    %5 = addi %arg14, %arg13 : tile<i32> loc(#loc43)
    %6 = divi %5, %cst_2_i32 signed rounding<negative_inf> : tile<i32> loc(#loc44)
    %pview_19 = make_partition_view %tview : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc45)
    %tile_20, %result_token_21 = load_view_tko weak %pview_19[%6] token = %0 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token loc(#loc45)
    %reshape_22 = reshape %tile_20 : tile<1xf32> -> tile<f32> loc(#loc45)
    %7 = cmpf less_than ordered %reshape_22, %reshape : tile<f32> -> tile<i1> loc(#loc45)
    %8:2 = if %7 -> (tile<i32>, tile<i32>) {
      %cst_1_i32_23 = constant <i32: 1> : tile<i32> loc(#loc47)
      %9 = addi %6, %cst_1_i32_23 : tile<i32> loc(#loc48)
      yield %arg13, %9 : tile<i32>, tile<i32> loc(#loc46)
    } else {
      yield %6, %arg14 : tile<i32>, tile<i32> loc(#loc46)
    } loc(#loc46)
    continue %8#0, %8#1 : tile<i32>, tile<i32> loc(#loc41)
  } loc(#loc41)
  %reshape_13 = reshape %1#1 : tile<i32> -> tile<1xi32> loc(#loc49)
  %pview_14 = make_partition_view %tview_10 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>> loc(#loc49)
  %2 = store_view_tko weak %reshape_13, %pview_14[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token loc(#loc49)
  %cst_-1_i32 = constant <i32: -1> : tile<i32> loc(#loc50)
  %cst_0_i32_15 = constant <i32: 0> : tile<i32> loc(#loc51)
  %cst_1_i32_16 = constant <i32: 1> : tile<i32> loc(#loc51)
  %for:2 = for %loopIdx in (%cst_0_i32_15 to %cst_64_i32, step %cst_1_i32_16) : tile<i32> iter_values(%iterArg0 = %cst_-1_i32, %iterArg1 = %false) -> (tile<i32>, tile<i1>) {
    if %iterArg1 {
      continue %iterArg0, %iterArg1 : tile<i32>, tile<i1> loc(#loc36)
    } else {
    } loc(#loc36)
    %4 = addi %1#1, %loopIdx : tile<i32> loc(#loc52)
    %5 = cmpi greater_than_or_equal %4, %assume_6, signed : tile<i32> -> tile<i1> loc(#loc53)
    if %5 {
      continue %iterArg0, %true : tile<i32>, tile<i1> loc(#loc55)
    } else {
    } loc(#loc54)
    %pview_19 = make_partition_view %tview : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc56)
    %tile_20, %result_token_21 = load_view_tko weak %pview_19[%4] token = %0 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1xf32>, token loc(#loc56)
    %reshape_22 = reshape %tile_20 : tile<1xf32> -> tile<f32> loc(#loc56)
    %6 = subf %reshape_22, %reshape  : tile<f32> loc(#loc56)
    %7 = cmpf less_than_or_equal ordered %6, %arg12 : tile<f32> -> tile<i1> loc(#loc56)
    if %7 {
      continue %iterArg0, %iterArg1 : tile<i32>, tile<i1> loc(#loc58)
    } else {
    } loc(#loc57)
    continue %4, %true : tile<i32>, tile<i1> loc(#loc59)
  } loc(#loc36)
  %reshape_17 = reshape %for#0 : tile<i32> -> tile<1xi32> loc(#loc60)
  %pview_18 = make_partition_view %tview_12 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>> loc(#loc60)
  %3 = store_view_tko weak %reshape_17, %pview_18[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token loc(#loc60)
  return loc(#loc30)
} loc(#loc31)
#di_file = #cuda_tile.di_file<"control_flow.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/control_flow.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/control_flow.py":8:17)
#loc2 = loc("tests/data/cutile/kernels/control_flow.py":8:30)
#loc3 = loc("tests/data/cutile/kernels/control_flow.py":8:39)
#loc4 = loc("tests/data/cutile/kernels/control_flow.py":8:50)
#loc5 = loc("tests/data/cutile/kernels/control_flow.py":24:4)
#loc6 = loc("tests/data/cutile/kernels/control_flow.py":9:8)
#loc7 = loc("tests/data/cutile/kernels/control_flow.py":10:10)
#loc8 = loc("tests/data/cutile/kernels/control_flow.py":12:9)
#loc9 = loc("tests/data/cutile/kernels/control_flow.py":15:27)
#loc10 = loc("tests/data/cutile/kernels/control_flow.py":14:4)
#loc11 = loc("tests/data/cutile/kernels/control_flow.py":14:10)
#loc12 = loc("tests/data/cutile/kernels/control_flow.py":15:15)
#loc13 = loc("tests/data/cutile/kernels/control_flow.py":15:14)
#loc14 = loc("tests/data/cutile/kernels/control_flow.py":16:11)
#loc15 = loc("tests/data/cutile/kernels/control_flow.py":16:8)
#loc16 = loc("tests/data/cutile/kernels/control_flow.py":17:23)
#loc17 = loc("tests/data/cutile/kernels/control_flow.py":17:17)
#loc18 = loc("tests/data/cutile/kernels/control_flow.py":20:4)
#loc19 = loc("tests/data/cutile/kernels/control_flow.py":23:12)
#loc20 = loc("tests/data/cutile/kernels/control_flow.py":24:16)
#loc21 = loc("tests/data/cutile/kernels/control_flow.py":25:14)
#loc22 = loc("tests/data/cutile/kernels/control_flow.py":26:11)
#loc23 = loc("tests/data/cutile/kernels/control_flow.py":26:8)
#loc24 = loc("tests/data/cutile/kernels/control_flow.py":27:12)
#loc25 = loc("tests/data/cutile/kernels/control_flow.py":28:11)
#loc26 = loc("tests/data/cutile/kernels/control_flow.py":28:8)
#loc27 = loc("tests/data/cutile/kernels/control_flow.py":29:12)
#loc28 = loc("tests/data/cutile/kernels/control_flow.py":31:8)
#loc29 = loc("tests/data/cutile/kernels/control_flow.py":32:4)
#loc30 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "searchsorted", linkageName = "searchsorted_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_Sf32_I64", compileUnit = #di_compile_unit, scopeLine = 7>
#loc31 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc48 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc49 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc50 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc51 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc52 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc53 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc54 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc55 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
#loc56 = #cuda_tile.di_loc<#loc25 in #di_subprogram>
#loc57 = #cuda_tile.di_loc<#loc26 in #di_subprogram>
#loc58 = #cuda_tile.di_loc<#loc27 in #di_subprogram>
#loc59 = #cuda_tile.di_loc<#loc28 in #di_subprogram>
#loc60 = #cuda_tile.di_loc<#loc29 in #di_subprogram>
