// reduce_max over dim 0 of a 3D tensor, f16.
func.func @reduce_max_d0(%x: tensor<8x32x128xf16>) -> tensor<1x32x128xf16> {
  %0 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<8x32x128xf16>) -> tensor<1x32x128xf16>
  return %0 : tensor<1x32x128xf16>
}
