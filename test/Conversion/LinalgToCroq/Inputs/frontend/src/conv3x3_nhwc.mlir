// 3x3 NHWC convolution, pad 1, stride 1, f16 with f32 accumulation, bias.
func.func @conv3x3_nhwc(%x: tensor<1x16x16x32xf16>, %w: tensor<64x3x3x32xf16>, %b: tensor<64xf16>) -> tensor<1x16x16x64xf16> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x16x32xf16>, tensor<64x3x3x32xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x16x16x64xf16>
  return %0 : tensor<1x16x16x64xf16>
}
