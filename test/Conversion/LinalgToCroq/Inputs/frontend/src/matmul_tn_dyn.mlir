// tosa.matmul whose A arrives transposed (K x M) with a dynamic M (one
// row or many at run time): tosa.transpose then tosa.matmul, f16.
func.func @matmul_tn_dyn(%at: tensor<1x4096x?xf16>, %b: tensor<1x4096x1024xf16>) -> tensor<1x?x1024xf16> {
  %a = tosa.transpose %at {perms = array<i32: 0, 2, 1>} : (tensor<1x4096x?xf16>) -> tensor<1x?x4096xf16>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x?x4096xf16>, tensor<1x4096x1024xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x?x1024xf16>
  return %0 : tensor<1x?x1024xf16>
}
