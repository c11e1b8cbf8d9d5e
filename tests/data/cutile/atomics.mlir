entry @histogram_Kt1_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_I1024(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<ptr<i32>>, %arg13: tile<i32>, %arg14: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %assume_1 = assume div_by<16>, %arg6 : tile<ptr<i32>>
  %assume_2 = assume div_by<16>, %arg9 : tile<ptr<i32>>
  %assume_3 = assume div_by<16>, %arg12 : tile<ptr<i32>>
  %cst_1_i64 = constant <i64: 1> : tile<1024xi64>
  %cst_0_i32 = constant <i32: 0> : tile<1024xi32>
  %cst_0_i32_4 = constant <i32: 0> : tile<1024xi32>
  %cst_1_i32 = constant <i32: 1> : tile<1024xi32>
  %cst_0_i32_5 = constant <i32: 0> : tile<1024xi32>
  %cst_1_i64_6 = constant <i64: 1> : tile<1024xi64>
  %cst_1_i64_7 = constant <i64: 1> : tile<i64>
  %cst_1_i64_8 = constant <i64: 1> : tile<i64>
  %cst_1_i64_9 = constant <i64: 1> : tile<i64>
  %assume_10 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_11 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_12 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_13 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_14 = assume bounded<0, ?>, %arg13 : tile<i32>
  %cst_1024_i32 = constant <i32: 1024> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %1 = muli %blockId_x, %cst_1024_i32 : tile<i32>
  %2 = iota : tile<1024xi32>
  %reshape = reshape %1 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<1024xi32>
  %3 = addi %bcast, %2 : tile<1024xi32>
  %reshape_15 = reshape %assume_10 : tile<i32> -> tile<1xi32>
  %bcast_16 = broadcast %reshape_15 : tile<1xi32> -> tile<1024xi32>
  %4 = cmpi less_than %3, %bcast_16, signed : tile<1024xi32> -> tile<1024xi1>
  %5 = exti %3 signed : tile<1024xi32> -> tile<1024xi64>
  %6 = exti %assume_10 signed : tile<i32> -> tile<i64>
  %reshape_17 = reshape %6 : tile<i64> -> tile<1xi64>
  %bcast_18 = broadcast %reshape_17 : tile<1xi64> -> tile<1024xi64>
  %7 = cmpi less_than %5, %bcast_18, unsigned : tile<1024xi64> -> tile<1024xi1>
  %8 = muli %5, %cst_1_i64 : tile<1024xi64>
  %reshape_19 = reshape %assume : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_20 = broadcast %reshape_19 : tile<1xptr<i32>> -> tile<1024xptr<i32>>
  %9 = offset %bcast_20, %8 : tile<1024xptr<i32>>, tile<1024xi64> -> tile<1024xptr<i32>>
  %10 = andi %7, %4 : tile<1024xi1>
  %result, %result_token = load_ptr_tko weak %9, %10, %cst_0_i32 token=%0 : tile<1024xptr<i32>>, tile<1024xi1>, tile<1024xi32> -> tile<1024xi32>, token
  %11 = join_tokens %0, %result_token : token
  %12 = maxi %result, %cst_0_i32_4 signed : tile<1024xi32>
  %cst_1_i32_21 = constant <i32: 1> : tile<i32>
  %13 = subi %assume_11, %cst_1_i32_21 : tile<i32>
  %reshape_22 = reshape %13 : tile<i32> -> tile<1xi32>
  %bcast_23 = broadcast %reshape_22 : tile<1xi32> -> tile<1024xi32>
  %14 = mini %12, %bcast_23 signed : tile<1024xi32>
  %15 = select %4, %cst_1_i32, %cst_0_i32_5 : tile<1024xi1>, tile<1024xi32>
  %16 = exti %14 signed : tile<1024xi32> -> tile<1024xi64>
  %17 = exti %assume_11 signed : tile<i32> -> tile<i64>
  %reshape_24 = reshape %17 : tile<i64> -> tile<1xi64>
  %bcast_25 = broadcast %reshape_24 : tile<1xi64> -> tile<1024xi64>
  %18 = cmpi less_than %16, %bcast_25, unsigned : tile<1024xi64> -> tile<1024xi1>
  %19 = muli %16, %cst_1_i64_6 : tile<1024xi64>
  %reshape_26 = reshape %assume_0 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_27 = broadcast %reshape_26 : tile<1xptr<i32>> -> tile<1024xptr<i32>>
  %20 = offset %bcast_27, %19 : tile<1024xptr<i32>>, tile<1024xi64> -> tile<1024xptr<i32>>
  %21 = join_tokens %0, %11 : token
  %result_28, %result_token_29 = atomic_rmw_tko acq_rel device %20, add, %15, %18 token=%21 : tile<1024xptr<i32>>, tile<1024xi32>, tile<1024xi1> -> tile<1024xi32>, token
  %reduce = reduce %result dim=0 identities=[-2147483648 : i32] : tile<1024xi32> -> tile<i32> 
  (%reduce_lhs: tile<i32>, %reduce_rhs: tile<i32>) {
    %33 = maxi %reduce_lhs, %reduce_rhs signed : tile<i32>
    yield %33 : tile<i32>
  }
  %cst_0_i64 = constant <i64: 0> : tile<i64>
  %22 = exti %assume_12 signed : tile<i32> -> tile<i64>
  %23 = cmpi less_than %cst_0_i64, %22, unsigned : tile<i64> -> tile<i1>
  %24 = muli %cst_0_i64, %cst_1_i64_7 : tile<i64>
  %25 = offset %assume_1, %24 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %26 = join_tokens %0, %11, %result_token_29 : token
  %result_30, %result_token_31 = atomic_rmw_tko acq_rel device %25, max, %reduce, %23 token=%26 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  %cst_-1_i32 = constant <i32: -1> : tile<i32>
  %cst_0_i64_32 = constant <i64: 0> : tile<i64>
  %27 = exti %assume_13 signed : tile<i32> -> tile<i64>
  %28 = cmpi less_than %cst_0_i64_32, %27, unsigned : tile<i64> -> tile<i1>
  %29 = muli %cst_0_i64_32, %cst_1_i64_8 : tile<i64>
  %30 = offset %assume_2, %29 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %31 = join_tokens %0, %11, %result_token_29, %result_token_31 : token
  %result_33, %result_token_34 = atomic_cas_tko acq_rel device %30, %cst_-1_i32, %blockId_x, %28 token=%31 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  %cst_-1_i32_35 = constant <i32: -1> : tile<i32>
  %32 = cmpi equal %result_33, %cst_-1_i32_35, signed : tile<i32> -> tile<i1>
  if %32 {
    %cst_1_i32_36 = constant <i32: 1> : tile<i32>
    %cst_0_i64_37 = constant <i64: 0> : tile<i64>
    %33 = exti %assume_14 signed : tile<i32> -> tile<i64>
    %34 = cmpi less_than %cst_0_i64_37, %33, unsigned : tile<i64> -> tile<i1>
    %35 = muli %cst_0_i64_37, %cst_1_i64_9 : tile<i64>
    %36 = offset %assume_3, %35 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
    %37 = join_tokens %0, %result_token_34 : token
    %result_38, %result_token_39 = atomic_rmw_tko relaxed device %36, add, %cst_1_i32_36, %34 token=%37 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  } else {
  }
  return
}
