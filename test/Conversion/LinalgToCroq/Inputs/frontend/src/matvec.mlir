// A matrix-vector product as tosa.matmul takes it: A [1, M, K] times a
// column [1, K, 1] (N = 1), f16.
func.func @matvec(%a: tensor<1x4096x4096xf16>, %x: tensor<1x4096x1xf16>) -> tensor<1x4096x1xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %x, %z, %z : (tensor<1x4096x4096xf16>, tensor<1x4096x1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4096x1xf16>
  return %0 : tensor<1x4096x1xf16>
}
