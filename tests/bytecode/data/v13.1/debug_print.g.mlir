global  @print_mutex <i32: 1> : tile<1xi32> loc(#loc)
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
    %11 = addf %reduce_lhs, %reduce_rhs  : tile<f32> loc(#loc23)
    yield %11 : tile<f32> loc(#loc23)
  } loc(#loc23)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc24)
  %3 = cmpi equal %blockId_x, %cst_0_i32, signed : tile<i32> -> tile<i1> loc(#loc25)
  %4 = if %3 -> (token) {
    %11 = join_tokens %0, %1 : token loc(#loc27)
    %12 = get_global @print_mutex : tile<ptr<i32>> loc(#loc27)
    %cst_0_i32_11 = constant <i32: 0> : tile<i32> loc(#loc27)
    %cst_1_i32_12 = constant <i32: 1> : tile<i32> loc(#loc27)
    loop {
      %result_15, %result_token_16 = atomic_cas_tko acq_rel device %12, %cst_1_i32_12, %cst_0_i32_11 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token loc(#loc27)
      %15 = cmpi equal %result_15, %cst_1_i32_12, unsigned : tile<i32> -> tile<i1> loc(#loc27)
      if %15 {
        break loc(#loc27)
      } else {
      } loc(#loc27)
    } loc(#loc27)
    %13 = print_tko "block %d partial sum %f\0A", %blockId_x, %reduce : tile<i32>, tile<f32> -> token loc(#loc27)
    %14 = make_token : token loc(#loc27)
    %result_13, %result_token_14 = atomic_rmw_tko acq_rel device %12, xchg, %cst_1_i32_12 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token loc(#loc27)
    yield %14 : token loc(#loc26)
  } else {
    yield %0 : token loc(#loc26)
  } loc(#loc26)
  %reduce_5 = reduce %tile dim=0 identities=[0xFF800000 : f32] : tile<256xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %11 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc28)
    yield %11 : tile<f32> loc(#loc28)
  } loc(#loc28)
  %5 = join_tokens %4, %1 : token loc(#loc29)
  %6 = get_global @print_mutex : tile<ptr<i32>> loc(#loc29)
  %cst_0_i32_6 = constant <i32: 0> : tile<i32> loc(#loc29)
  %cst_1_i32_7 = constant <i32: 1> : tile<i32> loc(#loc29)
  loop {
    %result_11, %result_token_12 = atomic_cas_tko acq_rel device %6, %cst_1_i32_7, %cst_0_i32_6 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token loc(#loc29)
    %11 = cmpi equal %result_11, %cst_1_i32_7, unsigned : tile<i32> -> tile<i1> loc(#loc29)
    if %11 {
      break loc(#loc29)
    } else {
    } loc(#loc29)
  } loc(#loc29)
  %7 = print_tko "pid=%d max=%f\0A", %blockId_x, %reduce_5 : tile<i32>, tile<f32> -> token loc(#loc29)
  %8 = make_token : token loc(#loc29)
  %result, %result_token_8 = atomic_rmw_tko acq_rel device %6, xchg, %cst_1_i32_7 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token loc(#loc29)
  %reshape_9 = reshape %reduce : tile<f32> -> tile<1xf32> loc(#loc30)
  %pview_10 = make_partition_view %tview_4 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc30)
  %9 = join_tokens %0, %8 : token loc(#loc30)
  %10 = store_view_tko weak %reshape_9, %pview_10[%blockId_x] token = %9 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc30)
  return loc(#loc)
} loc(#loc16)
#di_file = #cuda_tile.di_file<"debug_print.py" in "tests/data/cutile/kernels">
#loc = loc(unknown)
#loc1 = loc("tests/data/cutile/kernels/debug_print.py":8:0)
#loc2 = loc("tests/data/cutile/kernels/debug_print.py":8:16)
#loc3 = loc("tests/data/cutile/kernels/debug_print.py":8:19)
#loc4 = loc("tests/data/cutile/kernels/debug_print.py":9:10)
#loc5 = loc("tests/data/cutile/kernels/debug_print.py":10:11)
#loc6 = loc("tests/data/cutile/kernels/debug_print.py":11:15)
#loc7 = loc("tests/data/cutile/kernels/debug_print.py":11:4)
#loc8 = loc("tests/data/cutile/kernels/debug_print.py":12:12)
#loc9 = loc("tests/data/cutile/kernels/debug_print.py":13:14)
#loc10 = loc("tests/data/cutile/kernels/debug_print.py":13:7)
#loc11 = loc("tests/data/cutile/kernels/debug_print.py":13:4)
#loc12 = loc("tests/data/cutile/kernels/debug_print.py":14:8)
#loc13 = loc("tests/data/cutile/kernels/debug_print.py":15:30)
#loc14 = loc("tests/data/cutile/kernels/debug_print.py":15:4)
#loc15 = loc("tests/data/cutile/kernels/debug_print.py":16:4)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "debug_print", linkageName = "debug_print_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_I256", compileUnit = #di_compile_unit, scopeLine = 7>
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
#loc29 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
