// 2D transpose, f16.
func.func @transpose_2d(%x: tensor<64x128xf16>) -> tensor<128x64xf16> {
  %0 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<64x128xf16>) -> tensor<128x64xf16>
  return %0 : tensor<128x64xf16>
}
