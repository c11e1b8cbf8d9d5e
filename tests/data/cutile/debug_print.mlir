entry @debug_print_Kt1_A1f32_1t1_p16_A1f32_1t1_p16_I256(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_3 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_4 = make_tensor_view %assume_0, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %1 = join_tokens %0, %result_token : token
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape = reshape %cst_0_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<256xf32>
  %2 = cmpf greater_than_or_equal ordered %tile, %bcast : tile<256xf32> -> tile<256xi1>
  assert %2, "inputs must be non-negative" : tile<256xi1>
  %reduce = reduce %tile dim=0 identities=[0.000000e+00 : f32] : tile<256xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %9 : tile<f32>
  }
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %3 = cmpi equal %blockId_x, %cst_0_i32, signed : tile<i32> -> tile<i1>
  %4 = if %3 -> (token) {
    %9 = join_tokens %0, %1 : token
    %10 = print_tko "block %d partial sum %f\0A", %blockId_x, %reduce token=%9 : tile<i32>, tile<f32> -> token
    yield %10 : token
  } else {
    yield %0 : token
  }
  %reduce_5 = reduce %tile dim=0 identities=[0xFF800000 : f32] : tile<256xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
    yield %9 : tile<f32>
  }
  %5 = join_tokens %4, %1 : token
  %6 = print_tko "pid=%d max=%f\0A", %blockId_x, %reduce_5 token=%5 : tile<i32>, tile<f32> -> token
  %reshape_6 = reshape %reduce : tile<f32> -> tile<1xf32>
  %pview_7 = make_partition_view %tview_4 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %7 = join_tokens %0, %6 : token
  %8 = store_view_tko weak %reshape_6, %pview_7[%blockId_x] token = %7 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
