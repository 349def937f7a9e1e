// tosa.matmul, batch 1, dynamic M and N, f16 x f16 -> f32.
func.func @matmul_dyn(%a: tensor<1x?x64xf16>, %b: tensor<1x64x?xf16>) -> tensor<1x?x?xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x?x64xf16>, tensor<1x64x?xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x?x?xf32>
  return %0 : tensor<1x?x?xf32>
}
