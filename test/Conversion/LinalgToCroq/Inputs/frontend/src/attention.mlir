// Single-head attention, f16 in/out: softmax(Q K^T * 1/sqrt(D)) V, scores and softmax in f32.
// corpus-variants: copyout
func.func @attention(%q: tensor<1x128x64xf16>, %k: tensor<1x128x64xf16>, %v: tensor<1x128x64xf16>) -> tensor<1x128x64xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<1x128x64xf16>) -> tensor<1x64x128xf16>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<1x128x64xf16>, tensor<1x64x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x128xf32>
  %ss = tosa.mul %s, %scale, %sh : (tensor<1x128x128xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x128x128xf32>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<1x128x128xf32>) -> tensor<1x128x1xf32>
  %d = tosa.sub %ss, %m : (tensor<1x128x128xf32>, tensor<1x128x1xf32>) -> tensor<1x128x128xf32>
  %e = tosa.exp %d : (tensor<1x128x128xf32>) -> tensor<1x128x128xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x128x128xf32>) -> tensor<1x128x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<1x128x128xf32>, tensor<1x128x1xf32>, tensor<1xi8>) -> tensor<1x128x128xf32>
  %ph = tosa.cast %p : (tensor<1x128x128xf32>) -> tensor<1x128x128xf16>
  %o = tosa.matmul %ph, %v, %z, %z : (tensor<1x128x128xf16>, tensor<1x128x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x64xf16>
  return %o : tensor<1x128x64xf16>
}
