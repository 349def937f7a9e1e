// RUN: croq-opt %s --convert-linalg-to-croq="cluster-m=2" --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="cluster-n=2" --canonicalize -split-input-file | FileCheck %s --check-prefix=ALONG-N
// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s --check-prefix=MODEL
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=64 tile-n=64 split-k=1 cluster-m=2 cluster-n=4" --canonicalize -split-input-file | FileCheck %s --check-prefix=BOTH

// Clusters of 2 x 1 blocks: the two blocks of a cluster compute tiles of
// one column, so they need the same K steps of B, which each loads half of
// and multicasts to both; A stays each block's own. The 8 x 16 grid of
// 128x192 tiles (the model's choice at 1000x3000x7000) is whole clusters.
// CHECK-LABEL: func.func @one_wave
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [8, 16] : block cluster [2, 1] attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK:   scf.for
// CHECK:     croq.copy tma zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<128x64xf16>
// CHECK:     croq.copy tma multicast zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x192xf16>
// Along N the blocks share A instead.
// ALONG-N-LABEL: func.func @one_wave
// ALONG-N: croq.parallel (%{{.*}}, %{{.*}}) in [8, 16] : block cluster [1, 2]
// ALONG-N:   croq.copy tma multicast zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<128x64xf16>
// ALONG-N:   croq.copy tma zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x192xf16>
// In clusters of 2 x 4 blocks both operands are multicast: A's K step to
// the 4 blocks of a row of the cluster (along 1), which compute tiles of
// the same rows, and B's to the 2 blocks of a column (along 0). The grid's
// 47 columns of 64 are rounded up to whole clusters (48).
// BOTH-LABEL: func.func @one_wave
// BOTH: croq.parallel (%{{.*}}, %{{.*}}) in [16, 48] : block cluster [2, 4]
// BOTH:   croq.copy tma multicast along 1 zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x64xf16>
// BOTH:   croq.copy tma multicast along 0 zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x64xf16>
func.func @one_wave(%a: memref<1000x7000xf16>, %b: memref<7000x3000xf16>, %c: memref<1000x3000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1000x3000xf16>)
  linalg.matmul ins(%a, %b : memref<1000x7000xf16>, memref<7000x3000xf16>) outs(%c : memref<1000x3000xf16>)
  return
}

// -----

// An odd number of tile rows (ceil(129 / 64) = 3 of the 64x128 tile) is
// rounded up to whole clusters (4): the block past the edge loads zeros,
// stores nothing, and shares its half of B.
// CHECK-LABEL: func.func @odd_grid
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [4, 3] : block cluster [2, 1]
// ALONG-N-LABEL: func.func @odd_grid
// ALONG-N: croq.parallel (%{{.*}}, %{{.*}}) in [3, 4] : block cluster [1, 2]
func.func @odd_grid(%a: memref<129x72xf16>, %b: memref<72x264xf16>, %c: memref<129x264xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<129x264xf16>)
  linalg.matmul ins(%a, %b : memref<129x72xf16>, memref<72x264xf16>) outs(%c : memref<129x264xf16>)
  return
}

// -----

// A dynamic grid is whole clusters by construction (ceil(tiles / 2) * 2),
// which croq-persistent-blocks relies on.
// CHECK-LABEL: func.func @dynamic
// CHECK: scf.index_switch
// CHECK: case 1 {
// CHECK-NEXT: %[[TM:.*]] = arith.ceildivui %{{.*}}, %c128 : index
// CHECK-NEXT: %[[Q:.*]] = arith.ceildivui %[[TM]], %c2 : index
// CHECK-NEXT: %[[GM:.*]] = arith.muli %[[Q]], %c2 : index
// CHECK-NEXT: %[[GN:.*]] = arith.ceildivui %{{.*}}, %c192 : index
// CHECK-NEXT: croq.parallel (%{{.*}}, %{{.*}}) in [%[[GM]], %[[GN]]] : block cluster [2, 1]
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// The cost model's choice. B's rows here are 3000 x 2 = 6000 bytes, no
// multiple of 128: a 128x192 block alone takes 783 x 1.15 cycles a step,
// in a cluster of two 783 x 1.05, both one wave (128 blocks) of 112 steps:
// the cluster (94064 cycles against 102800).
// MODEL-LABEL: func.func @misaligned_rows
// MODEL: croq.parallel (%{{.*}}, %{{.*}}) in [8, 16] : block cluster [2, 1] attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// MODEL: croq.copy tma multicast zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x192xf16>
func.func @misaligned_rows(%a: memref<1000x7168xf16>, %b: memref<7168x3000xf16>, %c: memref<1000x3000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1000x3000xf16>)
  linalg.matmul ins(%a, %b : memref<1000x7168xf16>, memref<7168x3000xf16>) outs(%c : memref<1000x3000xf16>)
  return
}

// -----

// Rows of 5120 x 2 bytes: a block alone pays nothing for B, and the
// cluster's 5 percent is not worth it. The 128x192 tile fills its waves
// better here (648 tiles, 4.9 waves, against 480 tiles of 128x256, 3.6):
// it measured 0.98 of cuBLAS against 0.91 for 128x256 (bench/RESULTS.md).
// MODEL-LABEL: func.func @aligned_rows
// MODEL: croq.parallel (%{{.*}}, %{{.*}}) in [24, 27] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// MODEL-NOT: multicast
func.func @aligned_rows(%a: memref<3072x2048xf16>, %b: memref<2048x5120xf16>, %c: memref<3072x5120xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<3072x5120xf16>)
  linalg.matmul ins(%a, %b : memref<3072x2048xf16>, memref<2048x5120xf16>) outs(%c : memref<3072x5120xf16>)
  return
}

// -----

// 48 rows: one row of tiles. A cluster of 2 x 1 would hold a block whose
// tile has no row of the product, loading and multiplying padding (128x192
// in clusters: 2 x 58 blocks, 0.64 of cuBLAS on an H200, where 64x128 alone,
// 86 blocks, ran 1.02), so the model never takes such a grid: 64x128 alone.
// MODEL-LABEL: func.func @one_row_of_tiles
// MODEL: croq.parallel (%{{.*}}, %{{.*}}) in [1, 86] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// MODEL-NOT: cluster [
func.func @one_row_of_tiles(%a: memref<48x4096xf16>, %b: memref<4096x11008xf16>, %c: memref<48x11008xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<48x11008xf16>)
  linalg.matmul ins(%a, %b : memref<48x4096xf16>, memref<4096x11008xf16>) outs(%c : memref<48x11008xf16>)
  return
}

// -----

// 176 rows, two rows of 128x192 tiles: in clusters of 2 x 1, 98 blocks,
// each issuing its A tile and half of B's (multicast), or 128x144 alone,
// 130 blocks each issuing all of both. A block's share of the memory rate
// counts what it issues (7/10 of a lone block's bytes), so the clusters'
// 98 blocks count as reading at the whole rate, as the 130 do: 128x192 in
// clusters (1.07 of cuBLAS at 176x9288x4096 on an H200, where 128x176
// tiles of C^T in clusters ran 1.02).
// MODEL-LABEL: func.func @persistent_clusters
// MODEL: croq.parallel (%{{.*}}, %{{.*}}) in [2, 49] : block cluster [2, 1] attributes {croq.consumers = 2 : i64, croq.persistent = true} {
func.func @persistent_clusters(%a: memref<176x5464xf16>, %b: memref<5464x9288xf16>, %c: memref<176x9288xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<176x9288xf16>)
  linalg.matmul ins(%a, %b : memref<176x5464xf16>, memref<5464x9288xf16>) outs(%c : memref<176x9288xf16>)
  return
}

// -----

// 160 rows: 128x160 tiles of C^T in clusters of 2 x 1 (73 tiles of C^T's
// 9288 rows, 37 clusters, 74 blocks) against 128x192 in clusters (98
// blocks). The C^T grid leaves 58 multiprocessors idle, and a block of a
// multicast cluster there moves more than its share of the memory rate
// (kMulticastSharePercent): 128x160 of C^T (1.30 of cuBLAS on an H200,
// where 128x192 in clusters ran 1.03).
// MODEL-LABEL: func.func @swapped_clusters_part_wave
// MODEL: croq.parallel (%{{.*}}, %{{.*}}) in [74, 1] : block cluster [2, 1] attributes {croq.consumers = 2 : i64, croq.persistent = false} {
// MODEL: !croq.acc<128x160xf32>
func.func @swapped_clusters_part_wave(%a: memref<160x5464xf16>, %b: memref<5464x9288xf16>, %c: memref<160x9288xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<160x9288xf16>)
  linalg.matmul ins(%a, %b : memref<160x5464xf16>, memref<5464x9288xf16>) outs(%c : memref<160x9288xf16>)
  return
}
