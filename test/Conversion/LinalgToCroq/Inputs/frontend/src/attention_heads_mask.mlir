// Multi-head attention [B*H, S, D] = [8, 256, 64] with an additive mask tensor [1, S, S]
// (0 or -inf, an argument) on the scaled scores: tosa.add broadcast over heads.
func.func @attention_heads_mask(%q: tensor<8x256x64xf16>, %k: tensor<8x256x64xf16>, %v: tensor<8x256x64xf16>, %mask: tensor<1x256x256xf32>) -> tensor<8x256x64xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<8x256x64xf16>) -> tensor<8x64x256xf16>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<8x256x64xf16>, tensor<8x64x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x256x256xf32>
  %ss = tosa.mul %s, %scale, %sh : (tensor<8x256x256xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<8x256x256xf32>
  %sm = tosa.add %ss, %mask : (tensor<8x256x256xf32>, tensor<1x256x256xf32>) -> tensor<8x256x256xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<8x256x256xf32>) -> tensor<8x256x1xf32>
  %d = tosa.sub %sm, %m : (tensor<8x256x256xf32>, tensor<8x256x1xf32>) -> tensor<8x256x256xf32>
  %e = tosa.exp %d : (tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %sum = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<8x256x256xf32>) -> tensor<8x256x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x256x1xf32>) -> tensor<8x256x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<8x256x256xf32>, tensor<8x256x1xf32>, tensor<1xi8>) -> tensor<8x256x256xf32>
  %ph = tosa.cast %p : (tensor<8x256x256xf32>) -> tensor<8x256x256xf16>
  %o = tosa.matmul %ph, %v, %z, %z : (tensor<8x256x256xf16>, tensor<8x256x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<8x256x64xf16>
  return %o : tensor<8x256x64xf16>
}
