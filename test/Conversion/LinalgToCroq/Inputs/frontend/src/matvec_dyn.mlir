// A product whose N is dynamic (one column or many at run time):
// tosa.matmul of A [1, 4096, 4096] and B [1, 4096, ?], f16.
func.func @matvec_dyn(%a: tensor<1x4096x4096xf16>, %b: tensor<1x4096x?xf16>) -> tensor<1x4096x?xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x4096x4096xf16>, tensor<1x4096x?xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4096x?xf16>
  return %0 : tensor<1x4096x?xf16>
}
