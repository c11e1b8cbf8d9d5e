entry @gelu_dropout_Kt1_A1bf16_1t1_p16_A1bf16_1t1_p16_Si32_Sf32_I1024(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<bf16>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %assume_0 = assume div_by<16>, %arg3 : tile<ptr<bf16>>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_1 = constant <i32: 1> : tile<i32>
  %cst_16_i32 = constant <i32: 16> : tile<1024xi32>
  %cst_2146121005_i32 = constant <i32: 2146121005> : tile<1024xi32>
  %cst_15_i32 = constant <i32: 15> : tile<1024xi32>
  %cst_-2073254261_i32 = constant <i32: -2073254261> : tile<1024xi32>
  %cst_16_i32_2 = constant <i32: 16> : tile<1024xi32>
  %cst_8_i32 = constant <i32: 8> : tile<1024xi32>
  %assume_3 = assume bounded<0, ?>, %arg1 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_3], strides = [1] : tile<i32> -> tensor_view<?xbf16, strides=[1]>
  %assume_4 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview_5 = make_tensor_view %assume_0, shape = [%assume_4], strides = [1] : tile<i32> -> tensor_view<?xbf16, strides=[1]>
  %cst_1024_i32 = constant <i32: 1024> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1024), padding_value = zero, tensor_view<?xbf16, strides=[1]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xbf16, strides=[1]>>, tile<i32> -> tile<1024xbf16>, token
  %1 = ftof %tile  : tile<1024xbf16> -> tile<1024xf32>
  %cst_f32 = constant <f32: 0.797884583> : tile<f32>
  %cst_f32_6 = constant <f32: 4.471500e-02> : tile<f32>
  %reshape = reshape %cst_f32_6 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<1024xf32>
  %2 = mulf %bcast, %1  : tile<1024xf32>
  %3 = mulf %2, %1  : tile<1024xf32>
  %4 = fma %3, %1, %1  : tile<1024xf32>
  %reshape_7 = reshape %cst_f32 : tile<f32> -> tile<1xf32>
  %bcast_8 = broadcast %reshape_7 : tile<1xf32> -> tile<1024xf32>
  %5 = mulf %bcast_8, %4  : tile<1024xf32>
  %cst_f32_9 = constant <f32: 5.000000e-01> : tile<f32>
  %reshape_10 = reshape %cst_f32_9 : tile<f32> -> tile<1xf32>
  %bcast_11 = broadcast %reshape_10 : tile<1xf32> -> tile<1024xf32>
  %6 = mulf %bcast_11, %1  : tile<1024xf32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %7 = tanh %5  : tile<1024xf32>
  %reshape_12 = reshape %cst_1_f32 : tile<f32> -> tile<1xf32>
  %bcast_13 = broadcast %reshape_12 : tile<1xf32> -> tile<1024xf32>
  %8 = addf %bcast_13, %7  : tile<1024xf32>
  %9 = mulf %6, %8  : tile<1024xf32>
  %10 = muli %blockId_x, %cst_1024_i32 : tile<i32>
  %11 = iota : tile<1024xi32>
  %reshape_14 = reshape %10 : tile<i32> -> tile<1xi32>
  %bcast_15 = broadcast %reshape_14 : tile<1xi32> -> tile<1024xi32>
  %12 = addi %bcast_15, %11 : tile<1024xi32>
  %reshape_16 = reshape %arg6 : tile<i32> -> tile<1xi32>
  %bcast_17 = broadcast %reshape_16 : tile<1xi32> -> tile<1024xi32>
  %13 = xori %12, %bcast_17 : tile<1024xi32>
  %14 = shri %13, %cst_16_i32 unsigned : tile<1024xi32>
  %15 = xori %13, %14 : tile<1024xi32>
  %16 = muli %15, %cst_2146121005_i32 : tile<1024xi32>
  %17 = shri %16, %cst_15_i32 unsigned : tile<1024xi32>
  %18 = xori %16, %17 : tile<1024xi32>
  %19 = muli %18, %cst_-2073254261_i32 : tile<1024xi32>
  %20 = shri %19, %cst_16_i32_2 unsigned : tile<1024xi32>
  %21 = xori %19, %20 : tile<1024xi32>
  %22 = shri %21, %cst_8_i32 unsigned : tile<1024xi32>
  %23 = itof %22 unsigned  : tile<1024xi32> -> tile<1024xf32>
  %cst_f32_18 = constant <f32: 5.96046448E-8> : tile<f32>
  %reshape_19 = reshape %cst_f32_18 : tile<f32> -> tile<1xf32>
  %bcast_20 = broadcast %reshape_19 : tile<1xf32> -> tile<1024xf32>
  %24 = mulf %23, %bcast_20  : tile<1024xf32>
  %reshape_21 = reshape %arg7 : tile<f32> -> tile<1xf32>
  %bcast_22 = broadcast %reshape_21 : tile<1xf32> -> tile<1024xf32>
  %25 = divf %9, %bcast_22 rounding<approx> : tile<1024xf32>
  %reshape_23 = reshape %arg7 : tile<f32> -> tile<1xf32>
  %bcast_24 = broadcast %reshape_23 : tile<1xf32> -> tile<1024xf32>
  %26 = cmpf less_than ordered %24, %bcast_24 : tile<1024xf32> -> tile<1024xi1>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_25 = reshape %cst_0_f32 : tile<f32> -> tile<1xf32>
  %bcast_26 = broadcast %reshape_25 : tile<1xf32> -> tile<1024xf32>
  %27 = select %26, %25, %bcast_26 : tile<1024xi1>, tile<1024xf32>
  %28 = ftof %27  : tile<1024xf32> -> tile<1024xbf16>
  %pview_27 = make_partition_view %tview_5 : partition_view<tile=(1024), tensor_view<?xbf16, strides=[1]>>
  %29 = store_view_tko weak %28, %pview_27[%blockId_x] token = %0 : tile<1024xbf16>, partition_view<tile=(1024), tensor_view<?xbf16, strides=[1]>>, tile<i32> -> token
  return
}
