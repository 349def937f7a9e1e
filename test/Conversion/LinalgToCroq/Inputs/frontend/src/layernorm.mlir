// Layer norm over the last dim of [B,S,H], f16 in/out, f32 internals:
// (x - mean) * rsqrt(var + eps) * gamma + beta.
func.func @layernorm(%xh: tensor<2x64x256xf16>, %gamma: tensor<1x1x256xf16>, %beta: tensor<1x1x256xf16>) -> tensor<2x64x256xf16> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %invn = "tosa.const"() <{values = dense<3.906250e-03> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-05> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %x = tosa.cast %xh : (tensor<2x64x256xf16>) -> tensor<2x64x256xf32>
  %s = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x64x256xf32>) -> tensor<2x64x1xf32>
  %mean = tosa.mul %s, %invn, %sh : (tensor<2x64x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x64x1xf32>
  %c = tosa.sub %x, %mean : (tensor<2x64x256xf32>, tensor<2x64x1xf32>) -> tensor<2x64x256xf32>
  %c2 = tosa.mul %c, %c, %sh : (tensor<2x64x256xf32>, tensor<2x64x256xf32>, tensor<1xi8>) -> tensor<2x64x256xf32>
  %vs = tosa.reduce_sum %c2 {axis = 2 : i32} : (tensor<2x64x256xf32>) -> tensor<2x64x1xf32>
  %var = tosa.mul %vs, %invn, %sh : (tensor<2x64x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x64x1xf32>
  %ve = tosa.add %var, %eps : (tensor<2x64x1xf32>, tensor<1x1x1xf32>) -> tensor<2x64x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<2x64x1xf32>) -> tensor<2x64x1xf32>
  %n = tosa.mul %c, %rs, %sh : (tensor<2x64x256xf32>, tensor<2x64x1xf32>, tensor<1xi8>) -> tensor<2x64x256xf32>
  %g = tosa.cast %gamma : (tensor<1x1x256xf16>) -> tensor<1x1x256xf32>
  %b = tosa.cast %beta : (tensor<1x1x256xf16>) -> tensor<1x1x256xf32>
  %ng = tosa.mul %n, %g, %sh : (tensor<2x64x256xf32>, tensor<1x1x256xf32>, tensor<1xi8>) -> tensor<2x64x256xf32>
  %y = tosa.add %ng, %b : (tensor<2x64x256xf32>, tensor<1x1x256xf32>) -> tensor<2x64x256xf32>
  %0 = tosa.cast %y : (tensor<2x64x256xf32>) -> tensor<2x64x256xf16>
  return %0 : tensor<2x64x256xf16>
}
