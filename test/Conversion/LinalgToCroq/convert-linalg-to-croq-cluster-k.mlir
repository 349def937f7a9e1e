// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="cluster-k=1" --canonicalize -split-input-file | FileCheck %s --check-prefix=NEVER
// RUN: croq-opt %s --convert-linalg-to-croq="cluster-k=4" --canonicalize -split-input-file | FileCheck %s --check-prefix=FOUR
// RUN: not croq-opt %s --convert-linalg-to-croq="cluster-k=2 split-k=2" -split-input-file 2>&1 | FileCheck %s --check-prefix=WITHSPLIT
// RUN: not croq-opt %s --convert-linalg-to-croq="cluster-k=2 tile-m=128 tile-n=256" -split-input-file 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not croq-opt %s --convert-linalg-to-croq="cluster-k=9" -split-input-file 2>&1 | FileCheck %s --check-prefix=LARGE

// 128 x 4096 x 4096 (64 K steps): whole 64x128 tiles are 2 x 32 = 64
// blocks, half a wave of 132 SMs, each streaming all 64 steps; whole
// 128x64 tiles (one consumer warpgroup on 128 rows) are 64 blocks too.
// Split in clusters of two, 128 blocks of 128x64 take 32 steps each, and
// the first block of each cluster sums the two partial accumulators: grid
// [1 x 2, 64], cluster [2, 1]; block row r is part r mod 2 of tile row
// r / 2, K steps [32 s, 32 s + 32); a 128x64 f32 scratch slot; only the
// first block stores the tile. (64x128 split so costs the same blocks and
// steps at 320 cycles a step against 301.)
// CHECK-LABEL: func.func @skinny
// CHECK-NOT: gpu.alloc
// CHECK: croq.parallel (%[[ROW:.*]], %[[BN:.*]]) in [2, 64] : block cluster [2, 1] attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: %[[PART:.*]] = arith.remui %[[ROW]], %c2 : index
// CHECK: %[[BM:.*]] = arith.divui %[[ROW]], %c2 : index
// CHECK: %[[F0:.*]] = arith.muli %[[PART]], %c64 : index
// CHECK: %[[FIRST:.*]] = arith.divui %[[F0]], %c2 : index
// CHECK: %[[COUNT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// CHECK: %[[SLOTS:.*]] = croq.alloc : !croq.tile<128x64xf32, shared>
// CHECK: %[[ACC:.*]] = scf.for %[[I:.*]] = %c0 to %[[COUNT]] step %c1
// CHECK: %[[K:.*]] = arith.addi %[[FIRST]], %[[I]] : index
// CHECK: croq.subspan %arg0 [128, 64] at [%[[BM]], %[[K]]]
// CHECK: croq.subspan %arg1 [64, 64] at [%[[K]], %[[BN]]]
// CHECK: %[[SUM:.*]] = croq.mma.cluster_sum %[[ACC]] scratch %[[SLOTS]] : !croq.acc<128x64xf32>, !croq.tile<128x64xf32, shared>
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %[[PART]], %c0 : index
// CHECK: scf.if %[[LEADER]] {
// CHECK: croq.subspan %arg2 [128, 64] at [%[[BM]], %[[BN]]]
// CHECK: croq.mma.store %[[SUM]]
// CHECK: croq.copy tma async
// CHECK: }
// CHECK-NOT: croq.parallel
// Never: the K loop split in two through a workspace instead (128 blocks
// of 128x64; 64 whole ones would read at half the chip's rate).
// NEVER-LABEL: func.func @skinny
// NEVER-NOT: cluster_sum
// NEVER: gpu.alloc () : memref<256x4096xf32>
// NEVER: croq.parallel (%{{.*}}, %{{.*}}) in [2, 64] : block attributes
// NEVER-NOT: cluster_sum
// Clusters of 4 forced: 64x128 (a 128x128 tile's three slots would leave
// no room for operands), three slots.
// FOUR-LABEL: func.func @skinny
// FOUR: croq.parallel (%{{.*}}, %{{.*}}) in [8, 32] : block cluster [4, 1]
// FOUR: croq.alloc : !croq.tile<192x128xf32, shared>
// FOUR: croq.mma.cluster_sum %{{.*}} scratch %{{.*}} : !croq.acc<64x128xf32>, !croq.tile<192x128xf32, shared>
// WITHSPLIT: error: convert-linalg-to-croq: cluster-k=2 splits the K loop in clusters of its own; it takes no split-k, stream-k=2, cluster-m or cluster-n
// TILE: error: 'linalg.matmul' op convert-linalg-to-croq splits the K loop in clusters of 2 blocks for 128x128, 64x128 and 128x64 tiles whose scratch tile leaves shared memory for two stages of operands, got a tile of 128x256
// LARGE: error: convert-linalg-to-croq takes cluster-k of 0 (chosen), 1 (never) or the blocks of a cluster that split the K loop, at most 8, got 9
func.func @skinny(%a: memref<128x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<128x4096xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<128x4096xf16>)
  linalg.matmul ins(%a, %b : memref<128x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<128x4096xf16>)
  return
}

// -----

// A large square fills many waves with whole tiles: no split.
// CHECK-LABEL: func.func @square
// CHECK-NOT: cluster_sum
// CHECK: croq.mma.fill {{.*}} : !croq.acc<128x256xf32>
// CHECK-NOT: cluster_sum
// CHECK: return
func.func @square(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<4096x4096xf16>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>)
  return
}

// -----

// A fused consumer (relu(A B + bias)) and an accumulating product run in
// the first block only, after the sum: 1 x 8192 x 8192 in 64x128 tiles
// (64 of them, 128 K steps) in clusters of two.
// CHECK-LABEL: func.func @bias_relu
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [2, 64] : block cluster [2, 1]
// CHECK: %[[SUM:.*]] = croq.mma.cluster_sum
// CHECK: scf.if
// CHECK: croq.mma.map %[[SUM]]
// CHECK: arith.maximumf
// CHECK: croq.mma.store
// FOUR-LABEL: func.func @bias_relu
// FOUR: croq.parallel (%{{.*}}, %{{.*}}) in [4, 64] : block cluster [4, 1]
// FOUR: croq.mma.cluster_sum
// FOUR: scf.if
// FOUR: arith.maximumf
func.func @bias_relu(%a: memref<1x8192xf16>, %b: memref<8192x8192xf16>, %bias: memref<8192xf32>, %out: memref<1x8192xf16>) {
  %tmp = memref.alloc() : memref<1x8192xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<1x8192xf32>)
  linalg.matmul ins(%a, %b : memref<1x8192xf16>, memref<8192x8192xf16>) outs(%tmp : memref<1x8192xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<1x8192xf32>, memref<8192xf32>) outs(%out : memref<1x8192xf16>) {
  ^bb0(%x: f32, %bv: f32, %o: f16):
    %s = arith.addf %x, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %tmp : memref<1x8192xf32>
  return
}

// -----

// 256 x 4096 x 8192: 4 x 32 = 128 tiles of 64x128 fill about a wave; in
// clusters of two they would be two waves, and the 128x128 tile in
// clusters of two is no candidate of the model (measured slower than the
// whole tiles there): no split.
// CHECK-LABEL: func.func @near_wave
// CHECK-NOT: cluster_sum
// CHECK: return
func.func @near_wave(%a: memref<256x8192xf16>, %b: memref<8192x4096xf16>, %c: memref<256x4096xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<256x4096xf16>)
  linalg.matmul ins(%a, %b : memref<256x8192xf16>, memref<8192x4096xf16>) outs(%c : memref<256x4096xf16>)
  return
}

// -----

// 512 x 512 x 512: 8 x 4 = 32 tiles of 64x128, a quarter of a wave, but
// only 8 K steps: split in two, each block would run 4 (measured on the
// H200: 0.65 of cuBLAS against 0.94 for the whole tiles). The model needs
// 16 steps a block: no split.
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: cluster_sum
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [8, 4] : block attributes
// CHECK-NOT: cluster_sum
// CHECK: return
func.func @short_k(%a: memref<512x512xf16>, %b: memref<512x512xf16>, %c: memref<512x512xf16>) {
  linalg.matmul ins(%a, %b : memref<512x512xf16>, memref<512x512xf16>) outs(%c : memref<512x512xf16>)
  return
}

// -----

// 90 x 2000 x 8000, B stored N x K: 32 tiles of 128x64 and 125 K steps.
// Split in clusters of two they are 64 blocks, which read at half the
// chip's rate; split in four through a workspace, 128 blocks (0.99 of
// cuBLAS on an H200, where the clusters ran 0.70): the workspace.
// CHECK-LABEL: func.func @few_tiles_nt
// CHECK-NOT: cluster_sum
// CHECK: gpu.alloc () : memref<512x2048xf32>
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [4, 32] : block attributes
// CHECK-NOT: cluster_sum
// CHECK: return
func.func @few_tiles_nt(%a: memref<90x8000xbf16>, %b: memref<2000x8000xbf16>, %c: memref<90x2000xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<90x2000xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<90x8000xbf16>, memref<2000x8000xbf16>) outs(%c : memref<90x2000xbf16>)
  return
}
