// Broadcast bias with a dynamic row count: [?,N] + [1,N], f16.
func.func @bias_add_dyn(%x: tensor<?x128xf16>, %b: tensor<1x128xf16>) -> tensor<?x128xf16> {
  %0 = tosa.add %x, %b : (tensor<?x128xf16>, tensor<1x128xf16>) -> tensor<?x128xf16>
  return %0 : tensor<?x128xf16>
}
