// Row softmax over the last dim, f32, dynamic row count.
func.func @softmax_dyn(%x: tensor<?x256xf32>) -> tensor<?x256xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<?x256xf32>) -> tensor<?x1xf32>
  %d = tosa.sub %x, %m : (tensor<?x256xf32>, tensor<?x1xf32>) -> tensor<?x256xf32>
  %e = tosa.exp %d : (tensor<?x256xf32>) -> tensor<?x256xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<?x256xf32>) -> tensor<?x1xf32>
  %r = tosa.reciprocal %s : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %0 = tosa.mul %e, %r, %sh : (tensor<?x256xf32>, tensor<?x1xf32>, tensor<1xi8>) -> tensor<?x256xf32>
  return %0 : tensor<?x256xf32>
}
