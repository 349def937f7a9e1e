// tosa.matmul, batch 1, i8 x i8 -> i32, zero points 0.
func.func @matmul_i8(%a: tensor<1x128x64xi8>, %b: tensor<1x64x256xi8>) -> tensor<1x128x256xi32> {
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x128x64xi8>, tensor<1x64x256xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x128x256xi32>
  return %0 : tensor<1x128x256xi32>
}
