// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128" --canonicalize -split-input-file | FileCheck %s --check-prefix=FORCED

// Tiles of C^T = B^T A^T: for a product of few rows the model may swap A's
// and B's roles, so that wgmma's N dimension (widths in steps of 8) takes
// the rows and its M dimension (64 rows) 64 of N; each block stores its
// 64 x width accumulator transposed, as C's width x 64 tile at (its
// column of tiles, its row of tiles). A forced tile (FORCED) computes C
// itself.

// 333 x 4096 x 4096, B stored K x N: two rows of 64x176 tiles of C^T
// (352 rows, 128 blocks: one wave without idle multiprocessors) against
// three of 128x128 (384 rows, 96 blocks). B's K step is the swapped
// wgmma's A operand, stored K x M' (col); A's, its B operand, stored
// N' x K (row).
// CHECK-LABEL: func.func @few_rows
// CHECK:       croq.parallel (%[[I:.*]], %[[J:.*]]) in [64, 2] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK-DAG:   %[[BT:.*]] = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-DAG:   %[[AT:.*]] = croq.alloc : !croq.tile<176x64xf16, shared, swizzle = 128>
// CHECK-DAG:   %[[CT:.*]] = croq.alloc : !croq.tile<176x64xf16, shared, swizzle = 128>
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x176xf32>
// CHECK:       croq.subspan %arg1 [64, 64] at [%{{.*}}, %[[I]]]
// CHECK:       croq.subspan %arg0 [176, 64] at [%[[J]], %{{.*}}]
// CHECK:       croq.mma col row
// CHECK-SAME:    -> !croq.acc<64x176xf32>
// CHECK:       %[[CV:.*]] = croq.subspan %arg2 [176, 64] at [%[[J]], %[[I]]] : memref<333x4096xf16> -> !croq.view<176x64xf16>
// CHECK:       croq.mma.store transpose %{{.*}} -> %[[CT]] : !croq.acc<64x176xf32> -> !croq.tile<176x64xf16, shared, swizzle = 128>
// CHECK:       croq.copy tma async swizzle = 128 %[[CT]] -> %[[CV]]
// FORCED-LABEL: func.func @few_rows
// FORCED-NOT:   mma.store transpose
// FORCED:       croq.mma.fill %{{.*}} : !croq.acc<128x128xf32>
// FORCED-NOT:   mma.store transpose
func.func @few_rows(%a: memref<333x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<333x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<333x4096xf16>)
  linalg.matmul ins(%a, %b : memref<333x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<333x4096xf16>)
  return
}

// -----

// One row of 64x16 tiles for 16 rows, B stored N x K (bf16): both of the
// swapped wgmma's operands K-major (row row); 8192 / 64 = 128 blocks.
// CHECK-LABEL: func.func @sixteen_rows_b_transposed
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [128, 1] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.mma row row
// CHECK-SAME:    -> !croq.acc<64x16xf32>
// CHECK:       croq.mma.store transpose %{{.*}} : !croq.acc<64x16xf32> -> !croq.tile<16x64xbf16, shared, swizzle = 128>
func.func @sixteen_rows_b_transposed(%a: memref<16x8192xbf16>, %b: memref<8192x8192xbf16>, %c: memref<16x8192xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<16x8192xbf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<16x8192xbf16>, memref<8192x8192xbf16>) outs(%c : memref<16x8192xbf16>)
  return
}

// -----

// A stored K x M: A's tile is the swapped wgmma's B operand stored K x N'
// (col), N-major, padded to whole 128-byte spans (176 -> 192 columns);
// only the tiles of C^T of at least 128 columns whose padding is at most
// an eighth of them.
// CHECK-LABEL: func.func @a_transposed
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [64, 2] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK-DAG:   croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-DAG:   croq.alloc : !croq.tile<64x192xf16, shared, swizzle = 128>
// CHECK:       croq.mma col col
// CHECK-SAME:    -> !croq.acc<64x176xf32>
// CHECK:       croq.mma.store transpose %{{.*}} : !croq.acc<64x176xf32> -> !croq.tile<176x64xf16, shared, swizzle = 128>
func.func @a_transposed(%a: memref<4096x333xf16>, %b: memref<4096x4096xf16>, %c: memref<333x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<333x4096xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<4096x333xf16>, memref<4096x4096xf16>) outs(%c : memref<333x4096xf16>)
  return
}

// -----

// Not swapped: A stored K x M at 16 rows (a 64x16 tile of C^T would load
// A's K steps as 64-column tiles, three quarters padding), an f32 result
// (not stored by stmatrix), a fused consumer, an accumulated output, and
// a product of many rows.
// CHECK-LABEL: func.func @a_transposed_few_rows
// CHECK-NOT:   mma.store transpose
// CHECK-LABEL: func.func @f32_result
// CHECK-NOT:   mma.store transpose
// CHECK-LABEL: func.func @relu
// CHECK-NOT:   mma.store transpose
// CHECK-LABEL: func.func @accumulated
// CHECK-NOT:   mma.store transpose
// CHECK-LABEL: func.func @many_rows
// CHECK-NOT:   mma.store transpose
func.func @a_transposed_few_rows(%a: memref<8192x16xf16>, %b: memref<8192x8192xf16>, %c: memref<16x8192xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<16x8192xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<8192x16xf16>, memref<8192x8192xf16>) outs(%c : memref<16x8192xf16>)
  return
}
func.func @f32_result(%a: memref<333x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<333x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<333x4096xf32>)
  linalg.matmul ins(%a, %b : memref<333x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<333x4096xf32>)
  return
}
func.func @relu(%a: memref<333x4096xf16>, %b: memref<4096x4096xf16>, %out: memref<333x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<333x4096xf16>
  linalg.fill ins(%zero : f16) outs(%c : memref<333x4096xf16>)
  linalg.matmul ins(%a, %b : memref<333x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<333x4096xf16>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%c : memref<333x4096xf16>) outs(%out : memref<333x4096xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %zero : f16
    linalg.yield %r : f16
  }
  memref.dealloc %c : memref<333x4096xf16>
  return
}
func.func @accumulated(%a: memref<333x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<333x4096xf16>) {
  linalg.matmul ins(%a, %b : memref<333x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<333x4096xf16>)
  return
}
func.func @many_rows(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4096x4096xf16>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>)
  return
}

// -----

// 1 x 4096 x 11008: 64 tiles of C^T of 64x16 would leave half the chip
// idle; each tile's K loop is split between the two blocks of a cluster
// (128 blocks, 86 K steps each), the partial accumulators summed in the
// first block (croq.mma.cluster_sum, a 64x16 f32 scratch slot), which
// stores the sum transposed as C's 16x64 tile.
// CHECK-LABEL: func.func @one_row
// CHECK:       croq.parallel (%[[R:.*]], %[[J:.*]]) in [128, 1] : block cluster [2, 1] attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       %[[PART:.*]] = arith.remui %[[R]], %c2 : index
// CHECK:       %[[I:.*]] = arith.divui %[[R]], %c2 : index
// CHECK:       %[[FIRST:.*]] = arith.muli %[[PART]], %c172 : index
// CHECK:       croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-NEXT:  croq.alloc : !croq.tile<16x64xf16, shared, swizzle = 128>
// CHECK-NEXT:  %[[CT:.*]] = croq.alloc : !croq.tile<16x64xf16, shared, swizzle = 128>
// CHECK-NEXT:  %[[SLOT:.*]] = croq.alloc : !croq.tile<64x16xf32, shared>
// CHECK:       croq.subspan %arg1 [64, 64] at [%{{.*}}, %[[I]]]
// CHECK:       croq.subspan %arg0 [16, 64] at [%[[J]], %{{.*}}]
// CHECK:       croq.mma col row
// CHECK-SAME:    -> !croq.acc<64x16xf32>
// CHECK:       %[[SUM:.*]] = croq.mma.cluster_sum %{{.*}} scratch %[[SLOT]] : !croq.acc<64x16xf32>, !croq.tile<64x16xf32, shared>
// CHECK:       %[[LEADER:.*]] = arith.cmpi eq, %[[PART]], %c0 : index
// CHECK:       scf.if %[[LEADER]] {
// CHECK:       %[[CV:.*]] = croq.subspan %arg2 [16, 64] at [%[[J]], %[[I]]] : memref<1x4096xf16> -> !croq.view<16x64xf16>
// CHECK:       croq.mma.store transpose %[[SUM]] -> %[[CT]] : !croq.acc<64x16xf32> -> !croq.tile<16x64xf16, shared, swizzle = 128>
// CHECK:       croq.copy tma async swizzle = 128 %[[CT]] -> %[[CV]]
// FORCED-LABEL: func.func @one_row
// FORCED-NOT:   mma.store transpose
func.func @one_row(%a: memref<1x11008xf16>, %b: memref<11008x4096xf16>, %c: memref<1x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1x4096xf16>)
  linalg.matmul ins(%a, %b : memref<1x11008xf16>, memref<11008x4096xf16>) outs(%c : memref<1x4096xf16>)
  return
}

// -----

// 300 x 8192 x 8192: 128x160 tiles of C^T, two consumer warpgroups
// (croq-split-accumulators gives each 64 rows of C^T: 64 columns of C's
// 160x128 tile), 64 x 2 blocks, where 128x192 tiles of C take three rows
// of tiles (384 rows for 300) and 64x160 tiles of C^T two waves.
// CHECK-LABEL: func.func @tall
// CHECK:       croq.parallel (%[[I:.*]], %[[J:.*]]) in [64, 2] : block attributes {croq.consumers = 2 : i64, croq.persistent = false} {
// CHECK:       croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
// CHECK-NEXT:  croq.alloc : !croq.tile<160x64xf16, shared, swizzle = 128>
// CHECK-NEXT:  %[[CT:.*]] = croq.alloc : !croq.tile<160x128xf16, shared, swizzle = 128>
// CHECK:       croq.subspan %arg1 [64, 128] at [%{{.*}}, %[[I]]]
// CHECK:       croq.subspan %arg0 [160, 64] at [%[[J]], %{{.*}}]
// CHECK:       croq.mma col row
// CHECK-SAME:    -> !croq.acc<128x160xf32>
// CHECK:       %[[CV:.*]] = croq.subspan %arg2 [160, 128] at [%[[J]], %[[I]]] : memref<300x8192xf16> -> !croq.view<160x128xf16>
// CHECK:       croq.mma.store transpose %{{.*}} -> %[[CT]] : !croq.acc<128x160xf32> -> !croq.tile<160x128xf16, shared, swizzle = 128>
// CHECK:       croq.copy tma async swizzle = 128 %[[CT]] -> %[[CV]]
// FORCED-LABEL: func.func @tall
// FORCED-NOT:   mma.store transpose
func.func @tall(%a: memref<300x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<300x8192xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<300x8192xf16>)
  linalg.matmul ins(%a, %b : memref<300x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<300x8192xf16>)
  return
}

// -----

// 144 x 12288 x 4096: 128x160 tiles of C^T in clusters of two along C^T's
// rows (96 blocks), A's K steps (160 of its rows, 144 in the product)
// loaded in halves by the cluster's blocks and multicast to both.
// CHECK-LABEL: func.func @tall_clustered
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [96, 1] : block cluster [2, 1] attributes {croq.consumers = 2 : i64, croq.persistent = false} {
// CHECK:       croq.copy tma swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
// CHECK:       croq.copy tma multicast zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<160x64xf16> -> !croq.tile<160x64xf16, shared, swizzle = 128>
// CHECK:       croq.mma.store transpose %{{.*}} : !croq.acc<128x160xf32> -> !croq.tile<160x128xf16, shared, swizzle = 128>
func.func @tall_clustered(%a: memref<144x4096xf16>, %b: memref<4096x12288xf16>, %c: memref<144x12288xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<144x12288xf16>)
  linalg.matmul ins(%a, %b : memref<144x4096xf16>, memref<4096x12288xf16>) outs(%c : memref<144x12288xf16>)
  return
}

// -----

// 160 x 4096 x 4096: 64x80 tiles of C^T, two columns of them (128
// blocks), where 64x128 ones computed a third of their columns as padding
// (1.08 of cuBLAS against 0.66 on the H200).
// CHECK-LABEL: func.func @eighty
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [64, 2] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.mma.store transpose %{{.*}} : !croq.acc<64x80xf32> -> !croq.tile<80x64xf16, shared, swizzle = 128>
func.func @eighty(%a: memref<160x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<160x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<160x4096xf16>)
  linalg.matmul ins(%a, %b : memref<160x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<160x4096xf16>)
  return
}

// -----

// 160 x 4104 x 2048: 65 rows of 64x80 tiles of C^T, alone; in clusters
// the grid would be 66 rows, the last block of each column past N, which
// the memory term does not count as sharing the rate (0.92 of cuBLAS
// alone against 0.75 in clusters on the H200).
// CHECK-LABEL: func.func @eighty_odd_rows
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [65, 2] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.mma.store transpose %{{.*}} : !croq.acc<64x80xf32> -> !croq.tile<80x64xf16, shared, swizzle = 128>
func.func @eighty_odd_rows(%a: memref<160x2048xf16>, %b: memref<2048x4104xf16>, %c: memref<160x4104xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<160x4104xf16>)
  linalg.matmul ins(%a, %b : memref<160x2048xf16>, memref<2048x4104xf16>) outs(%c : memref<160x4104xf16>)
  return
}

// -----

// 77 x 5000 x 3000: 64x80 tiles of C^T in clusters of two along C^T's rows
// (79 blocks rounded up to 80), A's 80-row K steps multicast.
// CHECK-LABEL: func.func @eighty_clustered
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [80, 1] : block cluster [2, 1] attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK:       croq.copy tma multicast zfill swizzle = 128 %{{.*}} -> %{{.*}} : !croq.view<80x64xf16> -> !croq.tile<80x64xf16, shared, swizzle = 128>
// CHECK:       croq.mma.store transpose %{{.*}} : !croq.acc<64x80xf32> -> !croq.tile<80x64xf16, shared, swizzle = 128>
func.func @eighty_clustered(%a: memref<77x3000xf16>, %b: memref<3000x5000xf16>, %c: memref<77x5000xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<77x5000xf16>)
  linalg.matmul ins(%a, %b : memref<77x3000xf16>, memref<3000x5000xf16>) outs(%c : memref<77x5000xf16>)
  return
}

// -----

// 64 x 14336 x 4096: M fills less than 7/8 of a 128x160 tile of C^T's
// columns, which then runs in no cluster; 64x128 tiles of C.
// CHECK-LABEL: func.func @short_not_clustered
// CHECK-NOT:   block cluster
// CHECK:       croq.parallel (%{{.*}}, %{{.*}}) in [1, 112] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK-NOT:   mma.store transpose
// CHECK:       croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
func.func @short_not_clustered(%a: memref<64x4096xf16>, %b: memref<4096x14336xf16>, %c: memref<64x14336xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<64x14336xf16>)
  linalg.matmul ins(%a, %b : memref<64x4096xf16>, memref<4096x14336xf16>) outs(%c : memref<64x14336xf16>)
  return
}

// -----

// Dynamic extents: the tiles of C^T are the last variants of the host
// code's choice (64x16, 64x64, 64x128, 64x160, 64x176, 64x208, 128x160,
// 128x176, 128x208, 192x160, 64x80, 64x96, 64x112, 128x80, 128x96 and
// 128x112 whole, then 64x16 and 64x64 with their K loops split in clusters
// of two, then 128x160, 128x176, 64x80, 64x96 and 64x112 whole in clusters
// of two along C^T's rows), after those of C, whose numbers
// they leave as they were; with A stored K x M, 64x128, 64x176 and
// 128x176 (160 and 208 columns would load 192 and 256, a fifth and a
// quarter of them padding), whole, and 128x176 in clusters.
// CHECK-LABEL: func.func @dynamic
// CHECK:       scf.index_switch
// CHECK-COUNT-6: croq.mma.store transpose {{.*}} -> !croq.tile<{{(16|64|128|160|176|208)}}x64xf16
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x160xf32> -> !croq.tile<160x128xf16
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x176xf32> -> !croq.tile<176x128xf16
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x208xf32> -> !croq.tile<208x128xf16
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<192x160xf32> -> !croq.tile<160x192xf16
// CHECK-COUNT-3: croq.mma.store transpose {{.*}} : !croq.acc<64x{{(80|96|112)}}xf32> -> !croq.tile<{{(80|96|112)}}x64xf16
// CHECK-COUNT-3: croq.mma.store transpose {{.*}} : !croq.acc<128x{{(80|96|112)}}xf32> -> !croq.tile<{{(80|96|112)}}x128xf16
// CHECK-COUNT-2: croq.mma.cluster_sum {{.*}} : !croq.acc<64x{{(16|64)}}xf32>
// CHECK-NEXT:  arith.cmpi
// CHECK-NEXT:  scf.if
// CHECK-NEXT:  croq.subspan
// CHECK-NEXT:  croq.mma.store transpose {{.*}} : !croq.acc<64x64xf32>
// CHECK:       croq.parallel {{.*}} : block cluster [2, 1]
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x160xf32> -> !croq.tile<160x128xf16
// CHECK:       croq.parallel {{.*}} : block cluster [2, 1]
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x176xf32> -> !croq.tile<176x128xf16
// CHECK:       croq.parallel {{.*}} : block cluster [2, 1]
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<64x80xf32> -> !croq.tile<80x64xf16
// CHECK:       croq.parallel {{.*}} : block cluster [2, 1]
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<64x96xf32> -> !croq.tile<96x64xf16
// CHECK:       croq.parallel {{.*}} : block cluster [2, 1]
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<64x112xf32> -> !croq.tile<112x64xf16
// CHECK-NOT:   croq.mma.store transpose
// FORCED-LABEL: func.func @dynamic
// FORCED-NOT:   mma.store transpose
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// CHECK-LABEL: func.func @dynamic_a_transposed
// CHECK:       scf.index_switch
// CHECK-COUNT-2: croq.mma.store transpose {{.*}} -> !croq.tile<{{(128|176)}}x64xf16
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x176xf32> -> !croq.tile<176x128xf16
// CHECK:       croq.parallel {{.*}} : block cluster [2, 1]
// CHECK:       croq.mma.store transpose {{.*}} : !croq.acc<128x176xf32> -> !croq.tile<176x128xf16
// CHECK-NOT:   croq.mma.store transpose
func.func @dynamic_a_transposed(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}
