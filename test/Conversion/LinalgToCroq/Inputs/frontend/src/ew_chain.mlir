// Elementwise chain: mul, add, tanh, sigmoid, cast f16 -> f32 -> f16.
func.func @ew_chain(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>, %c: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %sh : (tensor<64x128xf16>, tensor<64x128xf16>, tensor<1xi8>) -> tensor<64x128xf16>
  %1 = tosa.add %0, %c : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  %2 = tosa.cast %1 : (tensor<64x128xf16>) -> tensor<64x128xf32>
  %3 = tosa.tanh %2 : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %4 = tosa.sigmoid %3 : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %5 = tosa.cast %4 : (tensor<64x128xf32>) -> tensor<64x128xf16>
  return %5 : tensor<64x128xf16>
}
