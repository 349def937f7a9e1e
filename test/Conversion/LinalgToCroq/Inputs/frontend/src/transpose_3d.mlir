// 3D permutations, f16: [S,H,D] -> [H,S,D] (head split) and [S,H,D] -> [H,D,S] (K^T per head).
func.func @transpose_3d(%x: tensor<32x4x64xf16>) -> (tensor<4x32x64xf16>, tensor<4x64x32xf16>) {
  %0 = tosa.transpose %x {perms = array<i32: 1, 0, 2>} : (tensor<32x4x64xf16>) -> tensor<4x32x64xf16>
  %1 = tosa.transpose %x {perms = array<i32: 1, 2, 0>} : (tensor<32x4x64xf16>) -> tensor<4x64x32xf16>
  return %0, %1 : tensor<4x32x64xf16>, tensor<4x64x32xf16>
}
