// RUN: croq-opt --split-input-file --croq-fuse-linalg-attention %s | FileCheck %s
// RUN: croq-opt --split-input-file --croq-fuse-linalg-attention=remarks %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Attention chains in the form upstream MLIR 22 bufferizes them (written in
// linalg on tensors, [B*H, S, D] = [2, 128, 64], K read through the
// product's indexing maps; bufferized by one-shot-bufferize and
// buffer-results-to-out-params{hoist-static-allocs}). The frontend corpus
// (croq-fuse-linalg-attention-corpus.test) has the TOSA forms.

// -----

// The causal mask as a select on the loop indices (key > query: -inf)
// after the scale: the causal kernel (tile pairs over 131 or 132 blocks),
// the scale as its softmax scale; no temporary or linalg op is left.
// REMARK: remark: fused as attention (causal) with 0 op(s) on the scores
// CHECK-LABEL: func.func @causal_mask(
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.
// CHECK: %[[Q:.*]] = memref.cast %arg0 : memref<2x128x64xf16> to memref<?x?x?xf16>
// CHECK: %[[SCALE:.*]] = arith.constant 1.250000e-01 : f32
// CHECK: arith.constant 131 : index
// CHECK: croq.parallel
// CHECK: croq.subspan %[[Q]] [1, 64, 64]
// CHECK-NOT: linalg.
// CHECK: return
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @causal_mask(%arg0: memref<2x128x64xf16>, %arg1: memref<2x128x64xf16>, %arg2: memref<2x128x64xf16>, %arg3: memref<2x128x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x64xf16>, memref<2x128x64xf16>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 1 : index
      %1 = linalg.index 2 : index
      %2 = arith.cmpi ugt, %1, %0 : index
      %3 = arith.select %2, %cst_1, %in : f32
      linalg.yield %3 : f32
    }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %0 = arith.subf %in, %in_5 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_4 : memref<2x128x128xf16>) {
    ^bb0(%in: f32, %in_5: f32, %out: f16):
      %0 = arith.divf %in, %in_5 : f32
      %1 = arith.truncf %0 : f32 to f16
      linalg.yield %1 : f16
    }
    linalg.fill ins(%cst_0 : f16) outs(%arg3 : memref<2x128x64xf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x128x128xf16>, memref<2x128x64xf16>) outs(%arg3 : memref<2x128x64xf16>)
    return
  }
}

// -----

// Near miss: the mask hides the diagonal too (key >= query), which the
// causal kernel does not; the scale and the mask run in the kernel on the
// scores in registers, with the key and query indices of the element.
// REMARK: remark: fused as attention with 2 op(s) on the scores
// CHECK-LABEL: func.func @near_miss_strict_mask(
// CHECK-NOT: arith.constant 131 : index
// CHECK: croq.mma.map %{{.*}} (%[[ROW:.*]], %[[COL:.*]], %[[X:.*]]) : !croq.acc<64x128xf32> {
// CHECK-NEXT: %[[Q:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK-NEXT: %[[K:.*]] = arith.addi %{{.*}}, %[[COL]] : index
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[X]], %{{.*}} : f32
// CHECK-NEXT: %[[C:.*]] = arith.cmpi uge, %[[K]], %[[Q]] : index
// CHECK-NEXT: %[[M:.*]] = arith.select %[[C]], %{{.*}}, %[[S]] : f32
// CHECK-NEXT: croq.yield %[[M]] : f32
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @near_miss_strict_mask(%arg0: memref<2x128x64xf16>, %arg1: memref<2x128x64xf16>, %arg2: memref<2x128x64xf16>, %arg3: memref<2x128x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x64xf16>, memref<2x128x64xf16>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = linalg.index 1 : index
      %1 = linalg.index 2 : index
      %2 = arith.cmpi uge, %1, %0 : index
      %3 = arith.select %2, %cst_1, %in : f32
      linalg.yield %3 : f32
    }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %0 = arith.subf %in, %in_5 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_4 : memref<2x128x128xf16>) {
    ^bb0(%in: f32, %in_5: f32, %out: f16):
      %0 = arith.divf %in, %in_5 : f32
      %1 = arith.truncf %0 : f32 to f16
      linalg.yield %1 : f16
    }
    linalg.fill ins(%cst_0 : f16) outs(%arg3 : memref<2x128x64xf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x128x128xf16>, memref<2x128x64xf16>) outs(%arg3 : memref<2x128x64xf16>)
    return
  }
}

// -----

// Negative: the softmax runs over the queries (a column softmax): the
// chain stays as it is, for convert-linalg-to-croq.
// REMARK: remark: not fused as attention: a reduction that is not over the keys of each row
// CHECK-LABEL: func.func @softmax_over_queries(
// CHECK-NOT: croq.parallel
// CHECK: linalg.batch_matmul
// CHECK: linalg.batch_matmul
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d2)>
module {
  func.func @softmax_over_queries(%arg0: memref<2x128x64xf16>, %arg1: memref<2x128x64xf16>, %arg2: memref<2x128x64xf16>, %arg3: memref<2x128x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x64xf16>, memref<2x128x64xf16>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %0 = arith.subf %in, %in_5 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [1] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_4 : memref<2x128x128xf16>) {
    ^bb0(%in: f32, %in_5: f32, %out: f16):
      %0 = arith.divf %in, %in_5 : f32
      %1 = arith.truncf %0 : f32 to f16
      linalg.yield %1 : f16
    }
    linalg.fill ins(%cst_0 : f16) outs(%arg3 : memref<2x128x64xf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x128x128xf16>, memref<2x128x64xf16>) outs(%arg3 : memref<2x128x64xf16>)
    return
  }
}

// -----

// Negative: exp2 where the softmax has exp.
// REMARK: remark: not fused as attention: an op on the chain's buffers that is not a step of the softmax
// CHECK-LABEL: func.func @exp2_softmax(
// CHECK-NOT: croq.parallel
// CHECK: math.exp2
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @exp2_softmax(%arg0: memref<2x128x64xf16>, %arg1: memref<2x128x64xf16>, %arg2: memref<2x128x64xf16>, %arg3: memref<2x128x64xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x64xf16>, memref<2x128x64xf16>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %0 = arith.subf %in, %in_5 : f32
      %1 = math.exp2 %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_4 : memref<2x128x128xf16>) {
    ^bb0(%in: f32, %in_5: f32, %out: f16):
      %0 = arith.divf %in, %in_5 : f32
      %1 = arith.truncf %0 : f32 to f16
      linalg.yield %1 : f16
    }
    linalg.fill ins(%cst_0 : f16) outs(%arg3 : memref<2x128x64xf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x128x128xf16>, memref<2x128x64xf16>) outs(%arg3 : memref<2x128x64xf16>)
    return
  }
}

// -----

// Negative: no kernel for a head dimension of 96.
// REMARK: remark: not fused as attention: a head dimension other than 64 or 128
// CHECK-LABEL: func.func @head_dim_96(
// CHECK-NOT: croq.parallel
// CHECK: linalg.batch_matmul
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @head_dim_96(%arg0: memref<2x128x96xf16>, %arg1: memref<2x128x96xf16>, %arg2: memref<2x128x96xf16>, %arg3: memref<2x128x96xf16>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x96xf16>, memref<2x128x96xf16>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %0 = arith.subf %in, %in_5 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_4 : memref<2x128x128xf16>) {
    ^bb0(%in: f32, %in_5: f32, %out: f16):
      %0 = arith.divf %in, %in_5 : f32
      %1 = arith.truncf %0 : f32 to f16
      linalg.yield %1 : f16
    }
    linalg.fill ins(%cst_0 : f16) outs(%arg3 : memref<2x128x96xf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x128x128xf16>, memref<2x128x96xf16>) outs(%arg3 : memref<2x128x96xf16>)
    return
  }
}

// -----

// Negative: f32 operands.
// REMARK: remark: not fused as attention: the operands are not f16 or bf16
// CHECK-LABEL: func.func @f32_operands(
// CHECK-NOT: croq.parallel
// CHECK: linalg.batch_matmul
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @f32_operands(%arg0: memref<2x128x64xf32>, %arg1: memref<2x128x64xf32>, %arg2: memref<2x128x64xf32>, %arg3: memref<2x128x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x64xf32>, memref<2x128x64xf32>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_1 : f32
      linalg.yield %0 : f32
    }
    %alloc_2 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_0 : f32) outs(%alloc_2 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_2 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_2 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %0 = arith.subf %in, %in_4 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_2 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_2 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_2 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_3 : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %0 = arith.divf %in, %in_4 : f32
      linalg.yield %0 : f32
    }
    linalg.fill ins(%cst : f32) outs(%arg3 : memref<2x128x64xf32>)
    linalg.batch_matmul ins(%alloc_3, %arg2 : memref<2x128x128xf32>, memref<2x128x64xf32>) outs(%arg3 : memref<2x128x64xf32>)
    return
  }
}

// -----

// Negative: the scaled scores are also a result of the function.
// REMARK: remark: not fused as attention: the chain computes into a buffer that is not a temporary of its block
// CHECK-LABEL: func.func @scores_exported(
// CHECK-NOT: croq.parallel
// CHECK: linalg.batch_matmul
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @scores_exported(%arg0: memref<2x128x64xf16>, %arg1: memref<2x128x64xf16>, %arg2: memref<2x128x64xf16>, %arg3: memref<2x128x64xf16>, %arg4: memref<2x128x128xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f16
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.250000e-01 : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf32>
    linalg.fill ins(%cst : f32) outs(%alloc : memref<2x128x128xf32>)
    linalg.batch_matmul indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : memref<2x128x64xf16>, memref<2x128x64xf16>) outs(%alloc : memref<2x128x128xf32>)
    linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc : memref<2x128x128xf32>) outs(%arg4 : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %0 = arith.mulf %in, %cst_2 : f32
      linalg.yield %0 : f32
    }
    %alloc_3 = memref.alloc() {alignment = 64 : i64} : memref<2x128xf32>
    linalg.fill ins(%cst_1 : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%arg4 : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.maximumf %in, %init : f32
        linalg.yield %0 : f32
      }
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg4, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc : memref<2x128x128xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %0 = arith.subf %in, %in_5 : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%cst : f32) outs(%alloc_3 : memref<2x128xf32>)
    linalg.reduce ins(%alloc : memref<2x128x128xf32>) outs(%alloc_3 : memref<2x128xf32>) dimensions = [2] 
      (%in: f32, %init: f32) {
        %0 = arith.addf %in, %init : f32
        linalg.yield %0 : f32
      }
    %alloc_4 = memref.alloc() {alignment = 64 : i64} : memref<2x128x128xf16>
    linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%alloc, %alloc_3 : memref<2x128x128xf32>, memref<2x128xf32>) outs(%alloc_4 : memref<2x128x128xf16>) {
    ^bb0(%in: f32, %in_5: f32, %out: f16):
      %0 = arith.divf %in, %in_5 : f32
      %1 = arith.truncf %0 : f32 to f16
      linalg.yield %1 : f16
    }
    linalg.fill ins(%cst_0 : f16) outs(%arg3 : memref<2x128x64xf16>)
    linalg.batch_matmul ins(%alloc_4, %arg2 : memref<2x128x128xf16>, memref<2x128x64xf16>) outs(%arg3 : memref<2x128x64xf16>)
    return
  }
}
