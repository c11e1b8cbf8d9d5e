entry @histogram_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_I1024(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<ptr<i32>>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<sm_90 = {}> {
  %0 = make_token : token loc(#loc27)
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>> loc(#loc28)
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>> loc(#loc29)
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>> loc(#loc30)
  %assume_2 = assume div_by<16>, %arg9 : tile<ptr<i32>> loc(#loc31)
  %assume_3 = assume div_by<16>, %arg12 : tile<ptr<i32>> loc(#loc32)
  %cst_1_i64 = constant <i64: 1> : tile<1024xi64> loc(#loc33)
  %cst_0_i32 = constant <i32: 0> : tile<1024xi32> loc(#loc33)
  %cst_0_i32_4 = constant <i32: 0> : tile<1024xi32> loc(#loc34)
  %cst_1_i32 = constant <i32: 1> : tile<1024xi32> loc(#loc35)
  %cst_0_i32_5 = constant <i32: 0> : tile<1024xi32> loc(#loc35)
  %cst_1_i64_6 = constant <i64: 1> : tile<1024xi64> loc(#loc36)
  %cst_1_i64_7 = constant <i64: 1> : tile<i64> loc(#loc37)
  %cst_1_i64_8 = constant <i64: 1> : tile<i64> loc(#loc38)
  %cst_1_i64_9 = constant <i64: 1> : tile<i64> loc(#loc39)
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc27)
  %assume_11 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc27)
  %assume_12 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc27)
  %assume_13 = assume bounded<0, ?>, %arg10 : tile<i32> loc(#loc27)
  %assume_14 = assume bounded<0, ?>, %arg13 : tile<i32> loc(#loc27)
  %cst_1024_i32 = constant <i32: 1024> : tile<i32> loc(#loc27)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc40)
  %1 = muli %blockId_x, %cst_1024_i32 : tile<i32> loc(#loc41)
  %2 = iota : tile<1024xi32> loc(#loc42)
  %reshape = reshape %1 : tile<i32> -> tile<1xi32> loc(#loc41)
  %bcast = broadcast %reshape : tile<1xi32> -> tile<1024xi32> loc(#loc41)
  %3 = addi %bcast, %2 : tile<1024xi32> loc(#loc41)
  %reshape_15 = reshape %assume_10 : tile<i32> -> tile<1xi32> loc(#loc43)
  %bcast_16 = broadcast %reshape_15 : tile<1xi32> -> tile<1024xi32> loc(#loc43)
  %4 = cmpi less_than %3, %bcast_16, signed : tile<1024xi32> -> tile<1024xi1> loc(#loc43)
  %5 = exti %3 signed : tile<1024xi32> -> tile<1024xi64> loc(#loc33)
  %6 = exti %assume_10 signed : tile<i32> -> tile<i64> loc(#loc33)
  %reshape_17 = reshape %6 : tile<i64> -> tile<1xi64> loc(#loc33)
  %bcast_18 = broadcast %reshape_17 : tile<1xi64> -> tile<1024xi64> loc(#loc33)
  %7 = cmpi less_than %5, %bcast_18, unsigned : tile<1024xi64> -> tile<1024xi1> loc(#loc33)
  %8 = muli %5, %cst_1_i64 : tile<1024xi64> loc(#loc33)
  %reshape_19 = reshape %assume : tile<ptr<i32>> -> tile<1xptr<i32>> loc(#loc33)
  %bcast_20 = broadcast %reshape_19 : tile<1xptr<i32>> -> tile<1024xptr<i32>> loc(#loc33)
  %9 = offset %bcast_20, %8 : tile<1024xptr<i32>>, tile<1024xi64> -> tile<1024xptr<i32>> loc(#loc33)
  %10 = andi %7, %4 : tile<1024xi1> loc(#loc33)
  %result, %result_token = load_ptr_tko weak %9, %10, %cst_0_i32 token=%0 : tile<1024xptr<i32>>, tile<1024xi1>, tile<1024xi32> -> tile<1024xi32>, token loc(#loc33)
  %11 = join_tokens %0, %result_token : token loc(#loc33)
  %12 = maxi %result, %cst_0_i32_4 signed : tile<1024xi32> loc(#loc34)
  %cst_1_i32_21 = constant <i32: 1> : tile<i32> loc(#loc44)
  %13 = subi %assume_11, %cst_1_i32_21 : tile<i32> loc(#loc45)
  %reshape_22 = reshape %13 : tile<i32> -> tile<1xi32> loc(#loc46)
  %bcast_23 = broadcast %reshape_22 : tile<1xi32> -> tile<1024xi32> loc(#loc46)
  %14 = mini %12, %bcast_23 signed : tile<1024xi32> loc(#loc46)
  %15 = select %4, %cst_1_i32, %cst_0_i32_5 : tile<1024xi1>, tile<1024xi32> loc(#loc35)
  %16 = exti %14 signed : tile<1024xi32> -> tile<1024xi64> loc(#loc36)
  %17 = exti %assume_11 signed : tile<i32> -> tile<i64> loc(#loc36)
  %reshape_24 = reshape %17 : tile<i64> -> tile<1xi64> loc(#loc36)
  %bcast_25 = broadcast %reshape_24 : tile<1xi64> -> tile<1024xi64> loc(#loc36)
  %18 = cmpi less_than %16, %bcast_25, unsigned : tile<1024xi64> -> tile<1024xi1> loc(#loc36)
  %19 = muli %16, %cst_1_i64_6 : tile<1024xi64> loc(#loc36)
  %reshape_26 = reshape %assume_0 : tile<ptr<i32>> -> tile<1xptr<i32>> loc(#loc36)
  %bcast_27 = broadcast %reshape_26 : tile<1xptr<i32>> -> tile<1024xptr<i32>> loc(#loc36)
  %20 = offset %bcast_27, %19 : tile<1024xptr<i32>>, tile<1024xi64> -> tile<1024xptr<i32>> loc(#loc36)
  %21 = join_tokens %0, %11 : token loc(#loc36)
  %result_28, %result_token_29 = atomic_rmw_tko acq_rel device %20, add, %15, %18 token=%21 : tile<1024xptr<i32>>, tile<1024xi32>, tile<1024xi1> -> tile<1024xi32>, token loc(#loc36)
  %reduce = reduce %result dim=0 identities=[-2147483648 : i32] : tile<1024xi32> -> tile<i32> 
  (%reduce_lhs: tile<i32>, %reduce_rhs: tile<i32>) {
    %33 = maxi %reduce_lhs, %reduce_rhs signed : tile<i32> loc(#loc47)
    yield %33 : tile<i32> loc(#loc47)
  } loc(#loc47)
  %cst_0_i64 = constant <i64: 0> : tile<i64> loc(#loc37)
  %22 = exti %assume_12 signed : tile<i32> -> tile<i64> loc(#loc37)
  %23 = cmpi less_than %cst_0_i64, %22, unsigned : tile<i64> -> tile<i1> loc(#loc37)
  %24 = muli %cst_0_i64, %cst_1_i64_7 : tile<i64> loc(#loc37)
  %25 = offset %assume_1, %24 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>> loc(#loc37)
  %26 = join_tokens %0, %11, %result_token_29 : token loc(#loc37)
  %result_30, %result_token_31 = atomic_rmw_tko acq_rel device %25, max, %reduce, %23 token=%26 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token loc(#loc37)
  %cst_-1_i32 = constant <i32: -1> : tile<i32> loc(#loc48)
  %cst_0_i64_32 = constant <i64: 0> : tile<i64> loc(#loc38)
  %27 = exti %assume_13 signed : tile<i32> -> tile<i64> loc(#loc38)
  %28 = cmpi less_than %cst_0_i64_32, %27, unsigned : tile<i64> -> tile<i1> loc(#loc38)
  %29 = muli %cst_0_i64_32, %cst_1_i64_8 : tile<i64> loc(#loc38)
  %30 = offset %assume_2, %29 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>> loc(#loc38)
  %31 = join_tokens %0, %11, %result_token_29, %result_token_31 : token loc(#loc38)
  %result_33, %result_token_34 = atomic_cas_tko acq_rel device %30, %cst_-1_i32, %blockId_x, %28 token=%31 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token loc(#loc38)
  %cst_-1_i32_35 = constant <i32: -1> : tile<i32> loc(#loc49)
  %32 = cmpi equal %result_33, %cst_-1_i32_35, signed : tile<i32> -> tile<i1> loc(#loc50)
  if %32 {
    %cst_1_i32_36 = constant <i32: 1> : tile<i32> loc(#loc52)
    %cst_0_i64_37 = constant <i64: 0> : tile<i64> loc(#loc39)
    %33 = exti %assume_14 signed : tile<i32> -> tile<i64> loc(#loc39)
    %34 = cmpi less_than %cst_0_i64_37, %33, unsigned : tile<i64> -> tile<i1> loc(#loc39)
    %35 = muli %cst_0_i64_37, %cst_1_i64_9 : tile<i64> loc(#loc39)
    %36 = offset %assume_3, %35 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>> loc(#loc39)
    %37 = join_tokens %0, %result_token_34 : token loc(#loc39)
    %result_38, %result_token_39 = atomic_rmw_tko relaxed device %36, add, %cst_1_i32_36, %34 token=%37 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token loc(#loc39)
  } else {
  } loc(#loc51)
  return loc(#loc26)
} loc(#loc27)
#di_file = #cuda_tile.di_file<"atomics.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/atomics.py":8:0)
#loc1 = loc("tests/data/cutile/kernels/atomics.py":8:14)
#loc2 = loc("tests/data/cutile/kernels/atomics.py":8:22)
#loc3 = loc("tests/data/cutile/kernels/atomics.py":8:28)
#loc4 = loc("tests/data/cutile/kernels/atomics.py":8:40)
#loc5 = loc("tests/data/cutile/kernels/atomics.py":8:48)
#loc6 = loc("tests/data/cutile/kernels/atomics.py":13:11)
#loc7 = loc("tests/data/cutile/kernels/atomics.py":15:24)
#loc8 = loc("tests/data/cutile/kernels/atomics.py":16:32)
#loc9 = loc("tests/data/cutile/kernels/atomics.py":16:4)
#loc10 = loc("tests/data/cutile/kernels/atomics.py":18:4)
#loc11 = loc("tests/data/cutile/kernels/atomics.py":21:10)
#loc12 = loc("tests/data/cutile/kernels/atomics.py":23:8)
#loc13 = loc("tests/data/cutile/kernels/atomics.py":9:10)
#loc14 = loc("tests/data/cutile/kernels/atomics.py":11:14)
#loc15 = loc("tests/data/cutile/kernels/atomics.py":11:27)
#loc16 = loc("tests/data/cutile/kernels/atomics.py":12:15)
#loc17 = loc("tests/data/cutile/kernels/atomics.py":15:54)
#loc18 = loc("tests/data/cutile/kernels/atomics.py":15:45)
#loc19 = loc("tests/data/cutile/kernels/atomics.py":15:13)
#loc20 = loc("tests/data/cutile/kernels/atomics.py":18:33)
#loc21 = loc("tests/data/cutile/kernels/atomics.py":21:35)
#loc22 = loc("tests/data/cutile/kernels/atomics.py":22:14)
#loc23 = loc("tests/data/cutile/kernels/atomics.py":22:7)
#loc24 = loc("tests/data/cutile/kernels/atomics.py":22:4)
#loc25 = loc("tests/data/cutile/kernels/atomics.py":23:37)
#loc26 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "histogram", linkageName = "histogram_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_I1024", compileUnit = #di_compile_unit, scopeLine = 7>
#loc27 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc28 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc19 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc20 in #di_subprogram>
#loc48 = #cuda_tile.di_loc<#loc21 in #di_subprogram>
#loc49 = #cuda_tile.di_loc<#loc22 in #di_subprogram>
#loc50 = #cuda_tile.di_loc<#loc23 in #di_subprogram>
#loc51 = #cuda_tile.di_loc<#loc24 in #di_subprogram>
#loc52 = #cuda_tile.di_loc<#loc25 in #di_subprogram>
