// RUN: croq-opt %s --croq-set-target --convert-linalg-to-croq="tile-m=128 tile-n=128 cluster-k=2" --croq-pipeline-loops --croq-split-accumulators | FileCheck %s

// A 128x128 tile with its K loop split in clusters of two: each of the two
// consumer warpgroups sums its 64 rows through its own 64 rows of the
// 128x128 f32 scratch tile (a slot of its accumulator's shape, contiguous).
// B is stored N x K, so the tile keeps two consumers (a plain product with
// B stored K x N runs it on one).
// CHECK-LABEL: func.func @split_sum
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [6, 32] : block cluster [2, 1]
// CHECK: %[[SLOTS:.*]] = croq.alloc : !croq.tile<128x128xf32, shared>
// CHECK: croq.parallel (%[[ROLE:.*]]) in [3] : warpgroup {
// CHECK: %[[CONSUMER:.*]] = arith.subi %[[ROLE]], %c1
// CHECK: %[[MINE:.*]] = croq.subspan %[[SLOTS]] [64, 128] at [%[[CONSUMER]], %{{.*}}] : !croq.tile<128x128xf32, shared> -> !croq.view<64x128xf32, shared>
// CHECK: croq.mma.cluster_sum %{{.*}} scratch %[[MINE]] : !croq.acc<64x128xf32>, !croq.view<64x128xf32, shared>
func.func @split_sum(%a: memref<333x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<333x4096xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<333x4096xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<333x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<333x4096xf16>)
  return
}
