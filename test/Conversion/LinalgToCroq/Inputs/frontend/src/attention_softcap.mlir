// Attention with a soft cap on the scores (Gemma 2): c * tanh(s * scale / c), c = 50, bf16,
// D = 128, [B*H, S, D] = [4, 256, 128]; Q is scaled before the product (Q * 1/sqrt(D)).
func.func @attention_softcap(%q: tensor<4x256x128xbf16>, %k: tensor<4x256x128xbf16>, %v: tensor<4x256x128xbf16>) -> tensor<4x256x128xbf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %qscale = "tosa.const"() <{values = dense<0.08838834764> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %invcap = "tosa.const"() <{values = dense<0.02> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %cap = "tosa.const"() <{values = dense<50.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %qs = tosa.mul %q, %qscale, %sh : (tensor<4x256x128xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<4x256x128xbf16>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x256x128xbf16>) -> tensor<4x128x256xbf16>
  %s = tosa.matmul %qs, %kt, %z, %z : (tensor<4x256x128xbf16>, tensor<4x128x256xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<4x256x256xf32>
  %a = tosa.mul %s, %invcap, %sh : (tensor<4x256x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x256x256xf32>
  %t = tosa.tanh %a : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %sc = tosa.mul %t, %cap, %sh : (tensor<4x256x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x256x256xf32>
  %m = tosa.reduce_max %sc {axis = 2 : i32} : (tensor<4x256x256xf32>) -> tensor<4x256x1xf32>
  %d = tosa.sub %sc, %m : (tensor<4x256x256xf32>, tensor<4x256x1xf32>) -> tensor<4x256x256xf32>
  %e = tosa.exp %d : (tensor<4x256x256xf32>) -> tensor<4x256x256xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x256x256xf32>) -> tensor<4x256x1xf32>
  %r = tosa.reciprocal %sum : (tensor<4x256x1xf32>) -> tensor<4x256x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<4x256x256xf32>, tensor<4x256x1xf32>, tensor<1xi8>) -> tensor<4x256x256xf32>
  %ph = tosa.cast %p : (tensor<4x256x256xf32>) -> tensor<4x256x256xbf16>
  %o = tosa.matmul %ph, %v, %z, %z : (tensor<4x256x256xbf16>, tensor<4x256x128xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<4x256x128xbf16>
  return %o : tensor<4x256x128xbf16>
}
