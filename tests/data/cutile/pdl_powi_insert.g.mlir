entry @pdl_powi_insert_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_Si32_I256_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc16)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc17)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>> loc(#loc18)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc16)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc16)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc16)
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc16)
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc16)
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc16)
  %1 = gdc_wait_tko token = %0 -> token loc(#loc19)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc20)
  %pview = make_partition_view %tview : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>> loc(#loc21)
  %2 = join_tokens %0, %1 : token loc(#loc21)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %2 inbounds = [true] : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token loc(#loc21)
  %3 = join_tokens %0, %result_token : token loc(#loc21)
  %reshape = reshape %arg6 : tile<i32> -> tile<1xi32> loc(#loc22)
  %bcast = broadcast %reshape : tile<1xi32> -> tile<256xi32> loc(#loc22)
  %4 = fpowi %tile, %bcast : tile<256xf32>, tile<256xi32> loc(#loc22)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc23)
  %5 = extract %4[%cst_0_i32] : tile<256xf32> -> tile<64xf32> loc(#loc24)
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32> loc(#loc25)
  %reshape_5 = reshape %cst_2_f32 : tile<f32> -> tile<1xf32> loc(#loc26)
  %bcast_6 = broadcast %reshape_5 : tile<1xf32> -> tile<256xf32> loc(#loc26)
  %6 = mulf %tile, %bcast_6  : tile<256xf32> loc(#loc26)
  %cst_1_i32_7 = constant <i32: 1> : tile<i32> loc(#loc27)
  %7 = insert %5, %6[%cst_1_i32_7] : tile<64xf32>, tile<256xf32> loc(#loc28)
  %8 = join_tokens %1, %3 : token loc(#loc29)
  %9 = gdc_launch_dependents_tko token = %8 -> token loc(#loc29)
  %pview_8 = make_partition_view %tview_4 : partition_view<tile=(256), tensor_view<?xf32, strides=[1]>> loc(#loc30)
  %10 = join_tokens %0, %9, %1 : token loc(#loc30)
  %11 = store_view_tko weak %7, %pview_8[%blockId_x] token = %10 inbounds = [true] : tile<256xf32>, partition_view<tile=(256), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc30)
  return loc(#loc15)
} loc(#loc16)
entry @pdl_powi_insert_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_Si16_I128_I32(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i16>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc31)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc32)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f16>> loc(#loc33)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc31)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc31)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc31)
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc31)
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc31)
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf16, strides=[1]> loc(#loc31)
  %1 = gdc_wait_tko token = %0 -> token loc(#loc34)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc35)
  %pview = make_partition_view %tview : partition_view<tile=(128), tensor_view<?xf16, strides=[1]>> loc(#loc36)
  %2 = join_tokens %0, %1 : token loc(#loc36)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %2 inbounds = [true] : partition_view<tile=(128), tensor_view<?xf16, strides=[1]>>, tile<i32> -> tile<128xf16>, token loc(#loc36)
  %3 = join_tokens %0, %result_token : token loc(#loc36)
  %reshape = reshape %arg6 : tile<i16> -> tile<1xi16> loc(#loc37)
  %bcast = broadcast %reshape : tile<1xi16> -> tile<128xi16> loc(#loc37)
  %4 = fpowi %tile, %bcast : tile<128xf16>, tile<128xi16> loc(#loc37)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc38)
  %5 = extract %4[%cst_0_i32] : tile<128xf16> -> tile<32xf16> loc(#loc39)
  %cst_2_f16 = constant <f16: 2.000000e+00> : tile<f16> loc(#loc40)
  %reshape_5 = reshape %cst_2_f16 : tile<f16> -> tile<1xf16> loc(#loc40)
  %bcast_6 = broadcast %reshape_5 : tile<1xf16> -> tile<128xf16> loc(#loc40)
  %6 = mulf %tile, %bcast_6  : tile<128xf16> loc(#loc40)
  %cst_1_i32_7 = constant <i32: 1> : tile<i32> loc(#loc41)
  %7 = insert %5, %6[%cst_1_i32_7] : tile<32xf16>, tile<128xf16> loc(#loc42)
  %8 = join_tokens %1, %3 : token loc(#loc43)
  %9 = gdc_launch_dependents_tko token = %8 -> token loc(#loc43)
  %pview_8 = make_partition_view %tview_4 : partition_view<tile=(128), tensor_view<?xf16, strides=[1]>> loc(#loc44)
  %10 = join_tokens %0, %9, %1 : token loc(#loc44)
  %11 = store_view_tko weak %7, %pview_8[%blockId_x] token = %10 inbounds = [true] : tile<128xf16>, partition_view<tile=(128), tensor_view<?xf16, strides=[1]>>, tile<i32> -> token loc(#loc44)
  return loc(#loc15)
} loc(#loc31)
#di_file = #cuda_tile.di_file<"pdl_powi_insert.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/pdl_powi_insert.py":10:0)
#loc1 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":10:20)
#loc2 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":10:23)
#loc3 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":11:4)
#loc4 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":12:10)
#loc5 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":13:10)
#loc6 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":14:14)
#loc7 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":15:38)
#loc8 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":15:11)
#loc9 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":16:26)
#loc10 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":16:20)
#loc11 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":16:38)
#loc12 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":16:10)
#loc13 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":17:4)
#loc14 = loc("tests/data/cutile/kernels/pdl_powi_insert.py":18:4)
#loc15 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 9, name = "pdl_powi_insert", linkageName = "pdl_powi_insert_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_Si32_I256_I64", compileUnit = #di_compile_unit, scopeLine = 9>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 9, name = "pdl_powi_insert", linkageName = "pdl_powi_insert_Kt1_A1f16_1t1_p16_A1f16_1t1_p16_Si16_I128_I32", compileUnit = #di_compile_unit, scopeLine = 9>
#loc16 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc17 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc18 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc19 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc20 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc21 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc22 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc23 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc24 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc25 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc26 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc27 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc28 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc32 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc33 = #cuda_tile.di_loc<#loc2 in #di_subprogram1>
#loc34 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc35 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc36 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc37 = #cuda_tile.di_loc<#loc6 in #di_subprogram1>
#loc38 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc39 = #cuda_tile.di_loc<#loc8 in #di_subprogram1>
#loc40 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc41 = #cuda_tile.di_loc<#loc11 in #di_subprogram1>
#loc42 = #cuda_tile.di_loc<#loc12 in #di_subprogram1>
#loc43 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc44 = #cuda_tile.di_loc<#loc14 in #di_subprogram1>
