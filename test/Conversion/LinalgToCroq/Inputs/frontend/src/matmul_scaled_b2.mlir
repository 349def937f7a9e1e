// tosa.matmul of two matrices, then scaled by a scalar passed in (a 1x1x1
// tensor) and shifted by TOSA scalar constants: (A B) * s * 0.5 + 0.25.
func.func @matmul_scaled_b2(%a: tensor<2x192x64xf16>, %b: tensor<2x64x160xf16>, %s: tensor<1x1x1xf32>) -> tensor<2x192x160xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<2x192x64xf16>, tensor<2x64x160xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x192x160xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.mul %0, %s, %sh : (tensor<2x192x160xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x192x160xf32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %2 = tosa.mul %1, %half, %sh : (tensor<2x192x160xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x192x160xf32>
  %quarter = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %3 = tosa.add %2, %quarter : (tensor<2x192x160xf32>, tensor<1x1x1xf32>) -> tensor<2x192x160xf32>
  return %3 : tensor<2x192x160xf32>
}
