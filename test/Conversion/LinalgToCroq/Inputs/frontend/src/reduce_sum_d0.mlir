// reduce_sum over dim 0 of a 3D tensor, f32 (keep-dim result [1,S,H]).
func.func @reduce_sum_d0(%x: tensor<8x32x128xf32>) -> tensor<1x32x128xf32> {
  %0 = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<8x32x128xf32>) -> tensor<1x32x128xf32>
  return %0 : tensor<1x32x128xf32>
}
