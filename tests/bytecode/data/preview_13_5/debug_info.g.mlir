entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0 = make_token : token loc(#loc4)
  %1:2 = preview$call @my_func<[1]>(%arg0, %arg1, %0) : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>, !cuda_tile.token) -> (!cuda_tile.tile<f32>, !cuda_tile.token) loc(#loc4)
  return loc(#loc5)
} loc(#loc3)
#di_file = #cuda_tile.di_file<"kern.py" in "/tmp">
#loc = loc("kern.py":3:1)
#loc1 = loc("kern.py":4:5)
#loc2 = loc("kern.py":6:5)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 3, name = "kern", linkageName = "kern", compileUnit = #di_compile_unit, scopeLine = 3>
#loc3 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc4 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc5 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
