entry @row_argmax_Kt1_A2f16_1l0_2t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_I2048(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<i32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<i32>>, %arg12: tile<i32>, %arg13: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc28)
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>> loc(#loc29)
  %assume_0 = assume div_by<16>, %arg5 : tile<ptr<f32>> loc(#loc30)
  %assume_1 = assume div_by<16>, %arg8 : tile<ptr<i32>> loc(#loc31)
  %assume_2 = assume div_by<16>, %arg11 : tile<ptr<i32>> loc(#loc32)
  %cst_1_i32 = constant <i32: 1> : tile<i32> loc(#loc28)
  %cst_1_i32_3 = constant <i32: 1> : tile<i32> loc(#loc28)
  %cst_1_i32_4 = constant <i32: 1> : tile<i32> loc(#loc28)
  %cst_1_i32_5 = constant <i32: 1> : tile<i32> loc(#loc28)
  %assume_6 = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc28)
  %assume_7 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc28)
  %assume_8 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc28)
  %tview = make_tensor_view %assume, shape = [%assume_6, %assume_7], strides = [%assume_8, 1] : tile<i32> -> tensor_view<?x?xf16, strides=[?,1]> loc(#loc28)
  %assume_9 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc28)
  %tview_10 = make_tensor_view %assume_0, shape = [%assume_9], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]> loc(#loc28)
  %assume_11 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc28)
  %tview_12 = make_tensor_view %assume_1, shape = [%assume_11], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]> loc(#loc28)
  %assume_13 = assume bounded<0, ?>, %arg12 : tile<i32> loc(#loc28)
  %tview_14 = make_tensor_view %assume_2, shape = [%assume_13], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]> loc(#loc28)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc33)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc34)
  %pview = make_partition_view %tview : partition_view<tile=(1x2048), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>> loc(#loc35)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(1x2048), padding_value = neg_inf, tensor_view<?x?xf16, strides=[?,1]>>, tile<i32> -> tile<1x2048xf16>, token loc(#loc35)
  %1 = ftof %tile  : tile<1x2048xf16> -> tile<1x2048xf32> loc(#loc36)
  %reduce = reduce %1 dim=1 identities=[0xFF800000 : f32] : tile<1x2048xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %9 = maxf %reduce_lhs, %reduce_rhs : tile<f32> loc(#loc37)
    yield %9 : tile<f32> loc(#loc37)
  } loc(#loc37)
  %pview_15 = make_partition_view %tview_10 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>> loc(#loc38)
  %2 = store_view_tko weak %reduce, %pview_15[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token loc(#loc38)
  %3 = iota : tile<2048xi32> loc(#loc39)
  %reshape = reshape %3 : tile<2048xi32> -> tile<1x2048xi32> loc(#loc39)
  %reduce_16:2 = reduce %1, %reshape dim=1 identities=[0xFF800000 : f32, 0 : i32] : tile<1x2048xf32>, tile<1x2048xi32> -> tile<1xf32>, tile<1xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %9 = cmpf greater_than ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1> loc(#loc39)
    %10 = cmpf equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1> loc(#loc39)
    %11 = cmpf not_equal unordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1> loc(#loc39)
    %12 = cmpf not_equal unordered %reduce_rhs0, %reduce_rhs0 : tile<f32> -> tile<i1> loc(#loc39)
    %13 = cmpf equal ordered %reduce_lhs0, %reduce_lhs0 : tile<f32> -> tile<i1> loc(#loc39)
    %14 = andi %13, %12 : tile<i1> loc(#loc39)
    %15 = ori %9, %14 : tile<i1> loc(#loc39)
    %16 = andi %11, %12 : tile<i1> loc(#loc39)
    %17 = ori %10, %16 : tile<i1> loc(#loc39)
    %18 = cmpi less_than %reduce_lhs1, %reduce_rhs1, signed : tile<i32> -> tile<i1> loc(#loc39)
    %19 = andi %17, %18 : tile<i1> loc(#loc39)
    %20 = ori %15, %19 : tile<i1> loc(#loc39)
    %21 = select %20, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32> loc(#loc39)
    %22 = select %20, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32> loc(#loc39)
    yield %21, %22 : tile<f32>, tile<i32> loc(#loc39)
  } loc(#loc39)
  %pview_17 = make_partition_view %tview_12 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>> loc(#loc40)
  %4 = store_view_tko weak %reduce_16#1, %pview_17[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token loc(#loc40)
  %5 = iota : tile<2048xi32> loc(#loc41)
  %reshape_18 = reshape %5 : tile<2048xi32> -> tile<1x2048xi32> loc(#loc41)
  %cst_f32 = constant <f32: 0xFF800000> : tile<f32> loc(#loc42)
  %reshape_19 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32> loc(#loc43)
  %bcast = broadcast %reshape_19 : tile<1x1xf32> -> tile<1x2048xf32> loc(#loc43)
  %6 = cmpf equal ordered %1, %bcast : tile<1x2048xf32> -> tile<1x2048xi1> loc(#loc43)
  %cst_f32_20 = constant <f32: 0x7F800000> : tile<f32> loc(#loc44)
  %reshape_21 = reshape %cst_f32_20 : tile<f32> -> tile<1x1xf32> loc(#loc45)
  %bcast_22 = broadcast %reshape_21 : tile<1x1xf32> -> tile<1x2048xf32> loc(#loc45)
  %7 = select %6, %bcast_22, %1 : tile<1x2048xi1>, tile<1x2048xf32> loc(#loc45)
  %reduce_23:2 = reduce %7, %reshape_18 dim=1 identities=[0x7F800000 : f32, 2147483647 : i32] : tile<1x2048xf32>, tile<1x2048xi32> -> tile<1xf32>, tile<1xi32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %9 = cmpf less_than ordered %reduce_rhs0, %reduce_lhs0 : tile<f32> -> tile<i1> loc(#loc55)
    %10 = cmpf equal ordered %reduce_rhs0, %reduce_lhs0 : tile<f32> -> tile<i1> loc(#loc56)
    %11 = cmpi less_than %reduce_rhs1, %reduce_lhs1, signed : tile<i32> -> tile<i1> loc(#loc57)
    %12 = andi %10, %11 : tile<i1> loc(#loc58)
    %13 = ori %9, %12 : tile<i1> loc(#loc59)
    %14 = select %13, %reduce_rhs0, %reduce_lhs0 : tile<i1>, tile<f32> loc(#loc60)
    %15 = select %13, %reduce_rhs1, %reduce_lhs1 : tile<i1>, tile<i32> loc(#loc61)
    yield %14, %15 : tile<f32>, tile<i32> loc(#loc46)
  } loc(#loc46)
  %pview_24 = make_partition_view %tview_14 : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>> loc(#loc54)
  %8 = store_view_tko weak %reduce_23#1, %pview_24[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token loc(#loc54)
  return loc(#loc27)
} loc(#loc28)
#di_file = #cuda_tile.di_file<"argmax.py" in "tests/data/cutile/kernels">
#loc = loc("tests/data/cutile/kernels/argmax.py":13:0)
#loc1 = loc("tests/data/cutile/kernels/argmax.py":13:15)
#loc2 = loc("tests/data/cutile/kernels/argmax.py":13:18)
#loc3 = loc("tests/data/cutile/kernels/argmax.py":13:27)
#loc4 = loc("tests/data/cutile/kernels/argmax.py":13:36)
#loc5 = loc("tests/data/cutile/kernels/argmax.py":14:10)
#loc6 = loc("tests/data/cutile/kernels/argmax.py":15:33)
#loc7 = loc("tests/data/cutile/kernels/argmax.py":15:10)
#loc8 = loc("tests/data/cutile/kernels/argmax.py":16:11)
#loc9 = loc("tests/data/cutile/kernels/argmax.py":17:41)
#loc10 = loc("tests/data/cutile/kernels/argmax.py":17:4)
#loc11 = loc("tests/data/cutile/kernels/argmax.py":18:41)
#loc12 = loc("tests/data/cutile/kernels/argmax.py":18:4)
#loc13 = loc("tests/data/cutile/kernels/argmax.py":20:11)
#loc14 = loc("tests/data/cutile/kernels/argmax.py":21:30)
#loc15 = loc("tests/data/cutile/kernels/argmax.py":21:22)
#loc16 = loc("tests/data/cutile/kernels/argmax.py":21:45)
#loc17 = loc("tests/data/cutile/kernels/argmax.py":21:13)
#loc18 = loc("tests/data/cutile/kernels/argmax.py":22:13)
#loc19 = loc("tests/data/cutile/kernels/argmax.py":8:14)
#loc20 = loc("tests/data/cutile/kernels/argmax.py":8:33)
#loc21 = loc("tests/data/cutile/kernels/argmax.py":8:52)
#loc22 = loc("tests/data/cutile/kernels/argmax.py":8:32)
#loc23 = loc("tests/data/cutile/kernels/argmax.py":8:13)
#loc24 = loc("tests/data/cutile/kernels/argmax.py":9:11)
#loc25 = loc("tests/data/cutile/kernels/argmax.py":9:43)
#loc26 = loc("tests/data/cutile/kernels/argmax.py":23:4)
#loc27 = loc(unknown)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 12, name = "row_argmax", linkageName = "row_argmax_Kt1_A2f16_1l0_2t1_p16_A1f32_1t1_p16_A1i32_1t1_p16_A1i32_1t1_p16_I2048", compileUnit = #di_compile_unit, scopeLine = 12>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 7, name = "_min_with_index", linkageName = "_min_with_index@argmax:7:1_s0", compileUnit = #di_compile_unit, scopeLine = 7>
#loc28 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc29 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc30 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc31 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc32 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc33 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc34 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc35 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc36 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc37 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc38 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc39 = #cuda_tile.di_loc<#loc11 in #di_subprogram>
#loc40 = #cuda_tile.di_loc<#loc12 in #di_subprogram>
#loc41 = #cuda_tile.di_loc<#loc13 in #di_subprogram>
#loc42 = #cuda_tile.di_loc<#loc14 in #di_subprogram>
#loc43 = #cuda_tile.di_loc<#loc15 in #di_subprogram>
#loc44 = #cuda_tile.di_loc<#loc16 in #di_subprogram>
#loc45 = #cuda_tile.di_loc<#loc17 in #di_subprogram>
#loc46 = #cuda_tile.di_loc<#loc18 in #di_subprogram>
#loc47 = #cuda_tile.di_loc<#loc19 in #di_subprogram1>
#loc48 = #cuda_tile.di_loc<#loc20 in #di_subprogram1>
#loc49 = #cuda_tile.di_loc<#loc21 in #di_subprogram1>
#loc50 = #cuda_tile.di_loc<#loc22 in #di_subprogram1>
#loc51 = #cuda_tile.di_loc<#loc23 in #di_subprogram1>
#loc52 = #cuda_tile.di_loc<#loc24 in #di_subprogram1>
#loc53 = #cuda_tile.di_loc<#loc25 in #di_subprogram1>
#loc54 = #cuda_tile.di_loc<#loc26 in #di_subprogram>
#loc55 = loc(callsite(#loc47 at #loc46))
#loc56 = loc(callsite(#loc48 at #loc46))
#loc57 = loc(callsite(#loc49 at #loc46))
#loc58 = loc(callsite(#loc50 at #loc46))
#loc59 = loc(callsite(#loc51 at #loc46))
#loc60 = loc(callsite(#loc52 at #loc46))
#loc61 = loc(callsite(#loc53 at #loc46))
