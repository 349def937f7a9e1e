// 2D transpose with both dims dynamic, f16.
func.func @transpose_dyn(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %0 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<?x?xf16>) -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}
