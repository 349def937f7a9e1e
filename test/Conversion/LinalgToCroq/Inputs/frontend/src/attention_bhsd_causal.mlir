// linalg on tensors, as torch-mlir lowers SDPA's math on [B, H, S, D] = [2, 4, 256, 64]:
// Q K^T as a generic contraction reading K through its indexing map (no transpose), / sqrt(D),
// a causal mask as a select on the loop indices (key > query: -inf), the softmax with
// keep-dim-free reductions and a division, the product with V in f32 then a cast to f16.
// corpus-skip: specialized (MLIR 22's linalg-specialize-generic-ops makes the two-batch-loop
// contraction a batch_matmul of 4-d operands, which does not verify)
#q = affine_map<(b, h, i, j, d) -> (b, h, i, d)>
#k = affine_map<(b, h, i, j, d) -> (b, h, j, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#v = affine_map<(b, h, i, d, j) -> (b, h, j, d)>
#p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#row = affine_map<(b, h, i, j) -> (b, h, i)>
func.func @attention_bhsd_causal(%q: tensor<2x4x256x64xf16>, %k: tensor<2x4x256x64xf16>, %v: tensor<2x4x256x64xf16>) -> tensor<2x4x256x64xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sqrt = arith.constant 8.0 : f32
  %es = tensor.empty() : tensor<2x4x256x256xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%es : tensor<2x4x256x256xf32>) -> tensor<2x4x256x256xf32>
  %s = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x256x64xf16>, tensor<2x4x256x64xf16>) outs(%sz : tensor<2x4x256x256xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x256x256xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x256x256xf32>) outs(%es : tensor<2x4x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %x, %sqrt : f32
    linalg.yield %y : f32
  } -> tensor<2x4x256x256xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sc : tensor<2x4x256x256xf32>) outs(%es : tensor<2x4x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %future = arith.cmpi ugt, %j, %i : index
    %y = arith.select %future, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x256x256xf32>
  %er = tensor.empty() : tensor<2x4x256xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%sm : tensor<2x4x256x256xf32>) outs(%mi : tensor<2x4x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.maximumf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x256xf32>
  %sub = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sm, %mx : tensor<2x4x256x256xf32>, tensor<2x4x256xf32>) outs(%es : tensor<2x4x256x256xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %y = arith.subf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x4x256x256xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sub : tensor<2x4x256x256xf32>) outs(%es : tensor<2x4x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x256x256xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<2x4x256xf32>) -> tensor<2x4x256xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%ex : tensor<2x4x256x256xf32>) outs(%si : tensor<2x4x256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<2x4x256xf32>
  %ep = tensor.empty() : tensor<2x4x256x256xf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<2x4x256x256xf32>, tensor<2x4x256xf32>) outs(%ep : tensor<2x4x256x256xf16>) {
  ^bb0(%x: f32, %t: f32, %o: f16):
    %y = arith.divf %x, %t : f32
    %h = arith.truncf %y : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x4x256x256xf16>
  %eo = tensor.empty() : tensor<2x4x256x64xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x256x64xf32>) -> tensor<2x4x256x64xf32>
  %o = linalg.generic {indexing_maps = [#p, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x256x256xf16>, tensor<2x4x256x64xf16>) outs(%oz : tensor<2x4x256x64xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x256x64xf32>
  %eh = tensor.empty() : tensor<2x4x256x64xf16>
  %oh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o : tensor<2x4x256x64xf32>) outs(%eh : tensor<2x4x256x64xf16>) {
  ^bb0(%x: f32, %h: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<2x4x256x64xf16>
  return %oh : tensor<2x4x256x64xf16>
}
