// Elementwise add, f16, static 2D.
// corpus-variants: copyout
func.func @ew_add(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %0 = tosa.add %a, %b : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
  return %0 : tensor<64x128xf16>
}
