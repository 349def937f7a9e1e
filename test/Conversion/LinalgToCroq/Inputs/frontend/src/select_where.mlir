// where(a > b, a, c * 0.5), f16; the compare produces an i1 tensor.
func.func @select_where(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>, %c: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf16>}> : () -> tensor<1x1xf16>
  %p = tosa.greater %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xi1>
  %c2 = tosa.mul %c, %half, %sh : (tensor<64x128xf16>, tensor<1x1xf16>, tensor<1xi8>) -> tensor<64x128xf16>
  %0 = tosa.select %p, %a, %c2 : (tensor<64x128xi1>, tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}
