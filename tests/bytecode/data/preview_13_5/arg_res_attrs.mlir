entry @kern(%arg0: tile<f32>, %arg1: tile<i32>) {
  %0:2 = preview$call @my_func(%arg0, %arg1) {arg_attrs = [{n = #cuda_tile<preview$expr_int<-3>>, s = #cuda_tile<preview$expr_const_str<"hi">>, t = #cuda_tile<preview$concrete_type<!cuda_tile.tile<4xi32>>>}, {}], res_attrs = [{}, {}]} : (!cuda_tile.tile<f32>, !cuda_tile.tile<i32>) -> (!cuda_tile.tile<f32>, !cuda_tile.token)
  return
}
