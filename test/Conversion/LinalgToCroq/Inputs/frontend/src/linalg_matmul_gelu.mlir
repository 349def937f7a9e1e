// linalg on tensors (TOSA only has the batched matmul): 2D linalg.matmul f16 -> f32 accumulator
// initialised by a broadcast-bias generic, then tanh-GELU and a truncation to f16.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @linalg_matmul_gelu(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>) -> tensor<128x256xf16> {
  %e = tensor.empty() : tensor<128x256xf32>
  %acc = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<256xf32>) outs(%e : tensor<128x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>) outs(%acc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %eh = tensor.empty() : tensor<128x256xf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x256xf32>) outs(%eh : tensor<128x256xf16>) {
  ^bb0(%u: f32, %out: f16):
    %c05 = arith.constant 0.5 : f32
    %c1 = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %u2 = arith.mulf %u, %u : f32
    %u3 = arith.mulf %u2, %u : f32
    %t0 = arith.mulf %u3, %k1 : f32
    %t1 = arith.addf %u, %t0 : f32
    %t2 = arith.mulf %t1, %k0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %c1 : f32
    %t5 = arith.mulf %u, %c05 : f32
    %r = arith.mulf %t5, %t4 : f32
    %rh = arith.truncf %r : f32 to f16
    linalg.yield %rh : f16
  } -> tensor<128x256xf16>
  return %g : tensor<128x256xf16>
}
