// Broadcast bias: [B,S,H] + [1,1,H], f16; the bias arrives rank-1 and is reshaped.
func.func @bias_add_3d(%x: tensor<2x32x128xf16>, %b: tensor<128xf16>) -> tensor<2x32x128xf16> {
  %s = tosa.const_shape {values = dense<[1, 1, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %b3 = tosa.reshape %b, %s : (tensor<128xf16>, !tosa.shape<3>) -> tensor<1x1x128xf16>
  %0 = tosa.add %x, %b3 : (tensor<2x32x128xf16>, tensor<1x1x128xf16>) -> tensor<2x32x128xf16>
  return %0 : tensor<2x32x128xf16>
}
