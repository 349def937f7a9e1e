// tosa.matmul, batch 1, f16 x f16 -> f16.
// corpus-variants: copyout
func.func @matmul_b1(%a: tensor<1x128x64xf16>, %b: tensor<1x64x256xf16>) -> tensor<1x128x256xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x128x64xf16>, tensor<1x64x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x256xf16>
  return %0 : tensor<1x128x256xf16>
}
