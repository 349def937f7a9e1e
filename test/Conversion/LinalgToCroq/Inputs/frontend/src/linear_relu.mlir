// tosa.matmul of one matrix, a bias and a ReLU (tosa.clamp): the plainest
// layer, whose elementwise ops bufferization leaves updating the result in
// place one after the other (base variant).
func.func @linear_relu(%a: tensor<1x200x256xf16>, %b: tensor<1x256x320xf16>, %bias: tensor<1x1x320xf32>) -> tensor<1x200x320xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %z, %z : (tensor<1x200x256xf16>, tensor<1x256x320xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x200x320xf32>
  %1 = tosa.add %0, %bias : (tensor<1x200x320xf32>, tensor<1x1x320xf32>) -> tensor<1x200x320xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x200x320xf32>) -> tensor<1x200x320xf32>
  return %2 : tensor<1x200x320xf32>
}
