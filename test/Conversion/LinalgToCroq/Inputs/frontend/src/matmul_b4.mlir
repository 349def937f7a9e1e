// tosa.matmul, batch 4, f16 x f16 -> f32.
func.func @matmul_b4(%a: tensor<4x128x64xf16>, %b: tensor<4x64x128xf16>) -> tensor<4x128x128xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<4x128x64xf16>, tensor<4x64x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x128x128xf32>
  return %0 : tensor<4x128x128xf32>
}
