// ReLU (clamp to [0, max]) and a clamp to [-1, 1], two outputs, f16.
func.func @relu_clamp(%x: tensor<64x128xf16>) -> (tensor<64x128xf16>, tensor<64x128xf16>) {
  %0 = tosa.clamp %x {min_val = 0.0 : f16, max_val = 65504.0 : f16} : (tensor<64x128xf16>) -> tensor<64x128xf16>
  %1 = tosa.clamp %x {min_val = -1.0 : f16, max_val = 1.0 : f16} : (tensor<64x128xf16>) -> tensor<64x128xf16>
  return %0, %1 : tensor<64x128xf16>, tensor<64x128xf16>
}
