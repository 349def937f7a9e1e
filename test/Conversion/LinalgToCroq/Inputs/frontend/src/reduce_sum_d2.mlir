// reduce_sum over the last dim of a 3D tensor, f32, reshaped to drop the kept dim ([B,S]).
func.func @reduce_sum_d2(%x: tensor<8x32x128xf32>) -> tensor<8x32xf32> {
  %s = tosa.const_shape {values = dense<[8, 32]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<8x32x128xf32>) -> tensor<8x32x1xf32>
  %1 = tosa.reshape %0, %s : (tensor<8x32x1xf32>, !tosa.shape<2>) -> tensor<8x32xf32>
  return %1 : tensor<8x32xf32>
}
