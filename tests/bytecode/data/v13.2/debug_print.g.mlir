entry @debug_print_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_I256(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc16)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>> loc(#loc17)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>> loc(#loc18)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc16)
  %cst_1_i32_1 = constant <i32: 1> : tile<i32> loc(#loc16)
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc16)
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc16)
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc16)
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc16)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc19)
  %pview = make_partition_view %tview : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>> loc(#loc20)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token loc(#loc20)
  %1 = join_tokens %0, %result_token : token loc(#loc20)
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32> loc(#loc21)
  %reshape = reshape %cst_0_f32 : tile<f32> -> tile<1xf32> loc(#loc21)
  %bcast = broadcast %reshape : tile<1xf32> -> tile<256xf32> loc(#loc21)
  %2 = cmpf greater_than_or_equal ordered %tile, %bcast : tile<256xf32> -> tile<256xi1> loc(#loc21)
  assert %2, "inputs must be non-negative" : tile<256xi1> loc(#loc22)
  %reduce = reduce %tile dim=0 identities=[0.000000e+00 : f32] : tile<256xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc23)
    yield %9 : tile<f32> loc(#loc23)
  } loc(#loc23)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc24)
  %3 = cmpi equal %blockId_x, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc25)
  %4 = if %3 -> (token) {
    %9 = join_tokens %0, %1 : token loc(#loc27)
    %10 = print_tko "block %d partial sum %f\0A", %blockId_x, %reduce token=%9 : tile<i32>, tile<f32> -> token loc(#loc27)
    yield %10 : token loc(#loc26)
  } else {
    yield %0 : token loc(#loc26)
  } loc(#loc26)
  %reduce_5 = reduce %tile dim=0 identities=[0xFF800000 : f32] : tile<256xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc28)
    yield %9 : tile<f32> loc(#loc28)
  } loc(#loc28)
  %5 = join_tokens %4, %1 : token loc(#loc29)
  %6 = print_tko "pid=%d max=%f\0A", %blockId_x, %reduce_5 token=%5 : tile<i32>, tile<f32> -> token loc(#loc29)
  %reshape_6 = reshape %reduce : tile<f32> -> tile<1xf32> loc(#loc30)
  %pview_7 = make_partition_view %tview_4 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc30)
  %7 = join_tokens %0, %6 : token loc(#loc30)
  %8 = store_view_tko weak %reshape_6, %pview_7[%blockId_x] token = %7 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc30)
  return loc(#loc15)
} loc(#loc16)
#di_file = #cuda_tile.di_file<"debug_print.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/debug_print.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/debug_print.py":8:16)
#loc2 = loc("tests/data/cutile/kernels/debug_print.py":8:19)
#loc3 = loc("tests/data/cutile/kernels/debug_print.py":9:10)
#loc4 = loc("tests/data/cutile/kernels/debug_print.py":10:11)
#loc5 = loc("tests/data/cutile/kernels/debug_print.py":11:15)
#loc6 = loc("tests/data/cutile/kernels/debug_print.py":11:4)
#loc7 = loc("tests/data/cutile/kernels/debug_print.py":12:12)
#loc8 = loc("tests/data/cutile/kernels/debug_print.py":13:14)
#loc9 = loc("tests/data/cutile/kernels/debug_print.py":13:7)
#loc10 = loc("tests/data/cutile/kernels/debug_print.py":13:4)
#loc11 = loc("tests/data/cutile/kernels/debug_print.py":14:8)
#loc12 = loc("tests/data/cutile/kernels/debug_print.py":15:30)
#loc13 = loc("tests/data/cutile/kernels/debug_print.py":15:4)
#loc14 = loc("tests/data/cutile/kernels/debug_print.py":16:4)
#loc15 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "debug_print", linkageName = "debug_print_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_I256", compileUnit = #di_compile_unit, scopeLine = 7>
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
