entry @row_argmax_Kt1_A2f16_1l0_2t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_I2048(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<i32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<i32>>, %arg12: tile<i32>, %arg13: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<i32>>
  %assume_2 = assume div_by<16>, %arg11 : tile<ptr<i32>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %cst_1_i32_5 = constant <i32: 1> : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]>
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32>
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_11 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %assume_13 = assume bounded<0, ?>, %arg12 : tile<i32>
  %tview_14 = make_tensor_view %assume_2, shape = [%assume_13], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x2048), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x2048), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x2048xf16>, token
  %1 = ftof %tile  : tile<1x2048xf16> -> tile<1x2048xf32>
  %reduce = reduce %1 dim=1 identities=[0xFF800000 : f32] : tile<1x2048xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32>
    yield %9 : tile<f32>
  }
  %pview_15 = make_partition_view %tview_10 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %2 = store_view_tko weak %reduce, %pview_15[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  %3 = iota : tile<2048xi32>
  %reshape = reshape %3 : tile<2048xi32> -> tile<1x2048xi32>
  %reduce_16:2 = reduce %1, %reshape dim=1 identities=[0xFF800000 : f32, 0 : i32] : tile<1x2048xf32>, tile<1x2048xi32> -> tile<1xf32>, tile<1xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %9 = cmpf greater_than ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %10 = cmpf equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %11 = cmpf not_equal unordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %12 = cmpf not_equal unordered %reduce_rhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %13 = cmpf equal ordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %14 = andi %13, %12 : tile<i1>
    %15 = ori %9, %14 : tile<i1>
    %16 = andi %11, %12 : tile<i1>
    %17 = ori %10, %16 : tile<i1>
    %18 = cmpi less_than %reduce_lhs1, %reduce_rhs1, signed : tile<i32> -> tile<i1>
    %19 = andi %17, %18 : tile<i1>
    %20 = ori %15, %19 : tile<i1>
    %21 = select %20, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32>
    %22 = select %20, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32>
    yield %21, %22 : tile<f32>, tile<i32>
  }
  %pview_17 = make_partition_view %tview_12 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
  %4 = store_view_tko weak %reduce_16#1, %pview_17[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  %5 = iota : tile<2048xi32>
  %reshape_18 = reshape %5 : tile<2048xi32> -> tile<1x2048xi32>
  %cst_f32 = constant <f32: 0xFF800000> : tile<f32>
  %reshape_19 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape_19 : tile<1x1xf32> -> tile<1x2048xf32>
  %6 = cmpf equal ordered %1, %bcast : tile<1x2048xf32> -> tile<1x2048xi1>
  %cst_f32_20 = constant <f32: 0x7F800000> : tile<f32>
  %reshape_21 = reshape %cst_f32_20 : tile<f32> -> tile<1x1xf32>
  %bcast_22 = broadcast %reshape_21 : tile<1x1xf32> -> tile<1x2048xf32>
  %7 = select %6, %bcast_22, %1 : tile<1x2048xi1>, tile<1x2048xf32>
  %reduce_23:2 = reduce %7, %reshape_18 dim=1 identities=[0x7F800000 : f32, 2147483647 : i32] : tile<1x2048xf32>, tile<1x2048xi32> -> tile<1xf32>, tile<1xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %9 = cmpf less_than ordered %reduce_rhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %10 = cmpf equal ordered %reduce_rhs0, %reduce_lhs0 : tile<f32> -> tile<i1>
    %11 = cmpi less_than %reduce_rhs1, %reduce_lhs1, signed : tile<i32> -> tile<i1>
    %12 = andi %10, %11 : tile<i1>
    %13 = ori %9, %12 : tile<i1>
    %14 = select %13, %reduce_rhs0, %reduce_lhs0 : tile<i1>, tile<f32>
    %15 = select %13, %reduce_rhs1, %reduce_lhs1 : tile<i1>, tile<i32>
    yield %14, %15 : tile<f32>, tile<i32>
  }
  %pview_24 = make_partition_view %tview_14 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
  %8 = store_view_tko weak %reduce_23#1, %pview_24[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
  return
}
