// Broadcast bias: [M,N] + [1,N], f16.
func.func @bias_add_2d(%x: tensor<64x128xf16>, %b: tensor<1x128xf16>) -> tensor<64x128xf16> {
  %0 = tosa.add %x, %b : (tensor<64x128xf16>, tensor<1x128xf16>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}
