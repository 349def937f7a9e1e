// tosa.matmul, batch 1, bf16 x bf16 -> f32.
func.func @matmul_bf16(%a: tensor<1x128x64xbf16>, %b: tensor<1x64x256xbf16>) -> tensor<1x128x256xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x128x64xbf16>, tensor<1x64x256xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x128x256xf32>
  return %0 : tensor<1x128x256xf32>
}
