// linalg on tensors: ALiBi on [B*H, S, D] = [8, 256, 128], H = 8: Q K^T by a batch_matmul
// reading K through its indexing maps (K^T not materialized), the scale, then
// s - slope(h) * (i - j) with slope(h) = 2^-(h + 1), from the loop indices.
#id = affine_map<(b, i, j) -> (b, i, j)>
#row = affine_map<(b, i, j) -> (b, i)>
func.func @attention_alibi(%q: tensor<8x256x128xf16>, %k: tensor<8x256x128xf16>, %v: tensor<8x256x128xf16>) -> tensor<8x256x128xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.08838834764 : f32
  %one = arith.constant 1.0 : f32
  %es = tensor.empty() : tensor<8x256x256xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%es : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, d) -> (b, i, d)>, affine_map<(b, i, j, d) -> (b, j, d)>, affine_map<(b, i, j, d) -> (b, i, j)>]
      ins(%q, %k : tensor<8x256x128xf16>, tensor<8x256x128xf16>) outs(%sz : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %sb = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x256x256xf32>) outs(%es : tensor<8x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %h = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %h1 = arith.index_cast %h : index to i32
    %hf = arith.sitofp %h1 : i32 to f32
    %e = arith.addf %hf, %one : f32
    %ne = arith.negf %e : f32
    %slope = math.exp2 %ne : f32
    %i32 = arith.index_cast %i : index to i32
    %j32 = arith.index_cast %j : index to i32
    %dist = arith.subi %i32, %j32 : i32
    %df = arith.sitofp %dist : i32 to f32
    %bias = arith.mulf %slope, %df : f32
    %xs = arith.mulf %x, %scale : f32
    %y = arith.subf %xs, %bias : f32
    linalg.yield %y : f32
  } -> tensor<8x256x256xf32>
  %er = tensor.empty() : tensor<8x256xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<8x256xf32>) -> tensor<8x256xf32>
  %mx = linalg.reduce ins(%sb : tensor<8x256x256xf32>) outs(%mi : tensor<8x256xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %y = arith.maximumf %x, %acc : f32
      linalg.yield %y : f32
    }
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sb, %mx : tensor<8x256x256xf32>, tensor<8x256xf32>) outs(%es : tensor<8x256x256xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<8x256x256xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<8x256xf32>) -> tensor<8x256xf32>
  %sum = linalg.reduce ins(%ex : tensor<8x256x256xf32>) outs(%si : tensor<8x256xf32>) dimensions = [2]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %ep = tensor.empty() : tensor<8x256x256xf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : tensor<8x256x256xf32>, tensor<8x256xf32>) outs(%ep : tensor<8x256x256xf16>) {
  ^bb0(%x: f32, %t: f32, %o: f16):
    %r = arith.divf %one, %t : f32
    %y = arith.mulf %x, %r : f32
    %h = arith.truncf %y : f32 to f16
    linalg.yield %h : f16
  } -> tensor<8x256x256xf16>
  %eo = tensor.empty() : tensor<8x256x128xf16>
  %oz = linalg.fill ins(%zh : f16) outs(%eo : tensor<8x256x128xf16>) -> tensor<8x256x128xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x256x256xf16>, tensor<8x256x128xf16>) outs(%oz : tensor<8x256x128xf16>) -> tensor<8x256x128xf16>
  return %o : tensor<8x256x128xf16>
}
