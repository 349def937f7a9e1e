// Row softmax over the last dim, f16 in/out with f32 internals.
// corpus-variants: copyout
func.func @softmax_f16(%xh: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %x = tosa.cast %xh : (tensor<64x256xf16>) -> tensor<64x256xf32>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<64x256xf32>) -> tensor<64x1xf32>
  %d = tosa.sub %x, %m : (tensor<64x256xf32>, tensor<64x1xf32>) -> tensor<64x256xf32>
  %e = tosa.exp %d : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<64x256xf32>) -> tensor<64x1xf32>
  %r = tosa.reciprocal %s : (tensor<64x1xf32>) -> tensor<64x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<64x256xf32>, tensor<64x1xf32>, tensor<1xi8>) -> tensor<64x256xf32>
  %0 = tosa.cast %p : (tensor<64x256xf32>) -> tensor<64x256xf16>
  return %0 : tensor<64x256xf16>
}
