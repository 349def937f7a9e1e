// tosa.matmul of one row whose A arrives transposed (K x M, M = 1, as a
// vector-matrix product takes x^T): tosa.transpose then tosa.matmul, f16.
func.func @matmul_tn_row(%at: tensor<1x4096x1xf16>, %b: tensor<1x4096x1024xf16>) -> tensor<1x1x1024xf16> {
  %a = tosa.transpose %at {perms = array<i32: 0, 2, 1>} : (tensor<1x4096x1xf16>) -> tensor<1x1x4096xf16>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x1x4096xf16>, tensor<1x4096x1024xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1024xf16>
  return %0 : tensor<1x1x1024xf16>
}
