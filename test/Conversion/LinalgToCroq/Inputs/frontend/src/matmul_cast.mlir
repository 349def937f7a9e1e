// Matmul f16 x f16 -> f32, returned both as f32 and cast to f16 (a second output).
// corpus-variants: copyout
func.func @matmul_cast(%a: tensor<1x128x64xf16>, %b: tensor<1x64x256xf16>) -> (tensor<1x128x256xf32>, tensor<1x128x256xf16>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x128x64xf16>, tensor<1x64x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x256xf32>
  %1 = tosa.cast %0 : (tensor<1x128x256xf32>) -> tensor<1x128x256xf16>
  return %0, %1 : tensor<1x128x256xf32>, tensor<1x128x256xf16>
}
