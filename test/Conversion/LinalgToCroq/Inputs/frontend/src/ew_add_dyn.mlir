// Elementwise add, f16, dynamic leading dim (TOSA emits runtime-broadcast scf.if for ? dims).
// corpus-variants: copyout
func.func @ew_add_dyn(%a: tensor<?x128xf16>, %b: tensor<?x128xf16>) -> tensor<?x128xf16> {
  %0 = tosa.add %a, %b : (tensor<?x128xf16>, tensor<?x128xf16>) -> tensor<?x128xf16>
  return %0 : tensor<?x128xf16>
}
