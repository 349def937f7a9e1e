// linalg on tensors: scores of a 2-D linalg.matmul (f16 -> f32) with the
// entries above the diagonal zeroed by a select on linalg.index (a causal
// mask that attention fusion did not take), then rounded to f16.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_causal_mask(%a: tensor<320x64xf16>, %b: tensor<64x320xf16>) -> tensor<320x320xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<320x320xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<320x320xf32>) -> tensor<320x320xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<320x64xf16>, tensor<64x320xf16>) outs(%acc : tensor<320x320xf32>) -> tensor<320x320xf32>
  %eh = tensor.empty() : tensor<320x320xf16>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<320x320xf32>) outs(%eh : tensor<320x320xf16>) {
  ^bb0(%x: f32, %out: f16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %above = arith.cmpi ugt, %j, %i : index
    %v = arith.select %above, %zero, %x : f32
    %h = arith.truncf %v : f32 to f16
    linalg.yield %h : f16
  } -> tensor<320x320xf16>
  return %m : tensor<320x320xf16>
}
