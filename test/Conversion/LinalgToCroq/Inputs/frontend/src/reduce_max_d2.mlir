// reduce_max over the last dim of a 3D tensor, f16 (keep-dim result [B,S,1]).
func.func @reduce_max_d2(%x: tensor<8x32x128xf16>) -> tensor<8x32x1xf16> {
  %0 = tosa.reduce_max %x {axis = 2 : i32} : (tensor<8x32x128xf16>) -> tensor<8x32x1xf16>
  return %0 : tensor<8x32x1xf16>
}
