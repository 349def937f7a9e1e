// RMS norm over the last dim of [S,H], f16 in/out, f32 internals: x * rsqrt(mean(x^2) + eps) * w.
func.func @rmsnorm(%xh: tensor<64x256xf16>, %w: tensor<256xf16>) -> tensor<64x256xf16> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %invn = "tosa.const"() <{values = dense<3.906250e-03> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-06> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %s2 = tosa.const_shape {values = dense<[1, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x = tosa.cast %xh : (tensor<64x256xf16>) -> tensor<64x256xf32>
  %x2 = tosa.mul %x, %x, %sh : (tensor<64x256xf32>, tensor<64x256xf32>, tensor<1xi8>) -> tensor<64x256xf32>
  %ss = tosa.reduce_sum %x2 {axis = 1 : i32} : (tensor<64x256xf32>) -> tensor<64x1xf32>
  %ms = tosa.mul %ss, %invn, %sh : (tensor<64x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<64x1xf32>
  %me = tosa.add %ms, %eps : (tensor<64x1xf32>, tensor<1x1xf32>) -> tensor<64x1xf32>
  %rs = tosa.rsqrt %me : (tensor<64x1xf32>) -> tensor<64x1xf32>
  %n = tosa.mul %x, %rs, %sh : (tensor<64x256xf32>, tensor<64x1xf32>, tensor<1xi8>) -> tensor<64x256xf32>
  %w2 = tosa.reshape %w, %s2 : (tensor<256xf16>, !tosa.shape<2>) -> tensor<1x256xf16>
  %wf = tosa.cast %w2 : (tensor<1x256xf16>) -> tensor<1x256xf32>
  %y = tosa.mul %n, %wf, %sh : (tensor<64x256xf32>, tensor<1x256xf32>, tensor<1xi8>) -> tensor<64x256xf32>
  %0 = tosa.cast %y : (tensor<64x256xf32>) -> tensor<64x256xf16>
  return %0 : tensor<64x256xf16>
}
