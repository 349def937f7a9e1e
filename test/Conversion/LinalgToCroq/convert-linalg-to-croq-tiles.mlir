// RUN: croq-opt %s --convert-linalg-to-croq=cluster-m=1 --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=64 tile-n=128 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --check-prefix=FORCED

// The block tile is the one of least cost, in SM cycles: the waves of
// blocks the grid takes on the chip's 132 multiprocessors, times a block's
// K steps at the tile's cycles per step (1024 for 128x256, 783 for
// 128x192, 568 for 128x128, 320 for 64x128: 4096 mma operations per cycle
// at an efficiency of 100, 98, 90 and 80 percent; the widths between are
// below) plus 2000. The shapes
// here have enough tiles
// that no K split pays (convert-linalg-to-croq-splitk.mlir). Clusters are
// left out (cluster-m=1): convert-linalg-to-croq-cluster.mlir tests their
// choice.

// 4096 x 4096 x 4096 (64 K steps): 512 blocks of 128x256 (4 waves,
// 270144) against 1024 of 128x128 (8 waves, 306816) and 2048 of 64x128 (16
// waves, 359680): 128x256, two consumer warpgroups of 64 rows each.
// Its whole result tile (64 KB) would leave room for 3 stages of operands
// (48 KB each); stored in two parts of 128 columns through a tile of
// 32 KB, it leaves room for 4: part p is the output's tile of 128x128 at
// column tile 2 * %n + p.
// CHECK-LABEL: func.func @large
// CHECK: croq.parallel (%{{.*}}, %[[N:.*]]) in [32, 16] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<64x256xf16, shared, swizzle = 128>
// CHECK: %[[PART:.*]] = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x256xf32>
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: %[[LEFT:.*]] = croq.mma.slice %[[ACC]][0] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
// CHECK: %[[N0:.*]] = arith.muli %[[N]], %c2
// CHECK: %[[V0:.*]] = croq.subspan %{{.*}} [128, 128] at [%{{.*}}, %[[N0]]]
// CHECK: croq.mma.store %[[LEFT]] -> %[[PART]]
// CHECK: croq.copy tma async swizzle = 128 %[[PART]] -> %[[V0]]
// CHECK: %[[RIGHT:.*]] = croq.mma.slice %[[ACC]][128] : !croq.acc<128x256xf32> -> !croq.acc<128x128xf32>
// CHECK: %[[N1:.*]] = arith.addi %{{.*}}, %c1
// CHECK: %[[V1:.*]] = croq.subspan %{{.*}} [128, 128] at [%{{.*}}, %[[N1]]]
// CHECK: croq.mma.store %[[RIGHT]] -> %[[PART]]
// CHECK: croq.copy tma async swizzle = 128 %[[PART]] -> %[[V1]]
// CHECK-NOT: scf.index_switch
// A forced tile is the only candidate.
// FORCED-LABEL: func.func @large
// FORCED: croq.parallel (%{{.*}}, %{{.*}}) in [64, 32] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// FORCED: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
func.func @large(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<4096x4096xf16>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf16>)
  return
}

// -----

// An f32 result tile of 128x256 (128 KB) would leave room for two stages
// of operands: it is stored in four column parts through a 128x64 shared
// tile (32 KB), next to four stages, and 128x256 is the cheapest (512
// blocks, 4 waves).
// CHECK-LABEL: func.func @large_f32
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [32, 16] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.alloc : !croq.tile<128x64xf32, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x256xf32>
// CHECK: croq.mma.slice %{{.*}}[0] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// CHECK: croq.mma.slice %{{.*}}[64] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// CHECK: croq.mma.slice %{{.*}}[128] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// CHECK: croq.mma.slice %{{.*}}[192] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
func.func @large_f32(%a: memref<4096x4096xf16>, %b: memref<4096x4096xf16>, %c: memref<4096x4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4096x4096xf32>)
  linalg.matmul ins(%a, %b : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c : memref<4096x4096xf32>)
  return
}

// -----

// 1536 x 1536 x 1536 (24 K steps): 72 blocks of 128x256 (1 wave, 26576)
// leave 60 multiprocessors idle; 96 of 128x192 (1 wave, 20792) fill more
// of the chip; 144 of 128x128 take 2 waves (31264). B is stored K x N:
// its tile is N-major, and the widths between are padded to whole
// 128-byte spans, at their measured efficiencies (bench/RESULTS.md):
// 120 blocks of 128x160 (82 percent, 780 cycles a step: 20732) cost less
// than the 132 of 128x144 that fill the wave (71 percent, 811 cycles a
// step: 21470). B's tile is three slabs of 64 columns, loaded whole from
// column 160 %n (the window of 192 columns at a step of 160), of which the
// mma reads the first 160.
// CHECK-LABEL: func.func @one_wave
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [12, 10] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: %[[B:.*]] = croq.alloc : !croq.tile<64x192xf16, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<128x160xf16, shared, swizzle = 64>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x160xf32>
// CHECK: %[[WIN:.*]] = croq.subspan %{{.*}} [64, 192] step [64, 160] at [%{{.*}}, %{{.*}}] : memref<1536x1536xf16> -> !croq.view<64x192xf16>
// CHECK: croq.copy tma zfill swizzle = 128 %[[WIN]] -> %[[B]]
// CHECK: %[[USED:.*]] = croq.subspan %[[B]] [64, 160] at [%c0, %c0] : !croq.tile<64x192xf16, shared, swizzle = 128> -> !croq.view<64x160xf16, shared, swizzle = 128>
// CHECK: croq.mma.load %[[USED]] : !croq.view<64x160xf16, shared, swizzle = 128> -> !croq.frag<64x160xf16>
func.func @one_wave(%a: memref<1536x1536xf16>, %b: memref<1536x1536xf16>, %c: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1536x1536xf16>)
  linalg.matmul ins(%a, %b : memref<1536x1536xf16>, memref<1536x1536xf16>) outs(%c : memref<1536x1536xf16>)
  return
}

// -----

// The same product with B stored N x K: B's tile is K-major, and the
// widths between 128 and 256 are candidates at their measured efficiency
// (128x144: 86 percent, 669 cycles a step). 132 blocks of 128x144 fill the
// wave (18056) where 96 of 128x192 leave 36 multiprocessors idle (20792);
// 120 of 128x160 (19640), 108 of 128x176 (20768) and 84 of 128x224
// (25616) cost more. Its 144 columns of f16 are 288 bytes: the result tile
// takes the 32B swizzle, B's K-major tile the 128B one.
// CHECK-LABEL: func.func @one_wave_b_transposed
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [12, 11] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<144x64xf16, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<128x144xf16, shared, swizzle = 32>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x144xf32>
func.func @one_wave_b_transposed(%a: memref<1536x1536xf16>, %b: memref<1536x1536xf16>, %c: memref<1536x1536xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1536x1536xf16>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<1536x1536xf16>, memref<1536x1536xf16>) outs(%c : memref<1536x1536xf16>)
  return
}

// -----

// 512 x 4096 x 4096: 64 blocks of 128x256 (1 wave, 67536), 88 of 128x192
// (1 wave, 52112), 128 of 128x128 (1 wave, 38352), 256 of 64x128 (2
// waves, 44960): 128x128, which a plain 16-bit product with B stored K x N
// runs on one consumer warpgroup, its blocks not persistent.
// CHECK-LABEL: func.func @short
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [4, 32] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x128xf32>
func.func @short(%a: memref<512x4096xbf16>, %b: memref<4096x4096xbf16>, %c: memref<512x4096xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<512x4096xbf16>)
  linalg.matmul ins(%a, %b : memref<512x4096xbf16>, memref<4096x4096xbf16>) outs(%c : memref<512x4096xbf16>)
  return
}

// -----

// 1024 x 1024: every tile fits in one wave, so the smallest: 64x128, one
// consumer warpgroup.
// CHECK-LABEL: func.func @small
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [16, 8] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
func.func @small(%a: memref<1024x1024xf16>, %b: memref<1024x1024xf16>, %c: memref<1024x1024xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<1024x1024xf16>)
  linalg.matmul ins(%a, %b : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%c : memref<1024x1024xf16>)
  return
}

// -----

// Dynamic shapes: the host code computes the cost of every kernel, takes
// the least (the first of equal ones) and launches it. The whole tiles come
// first: 128x256, 128x192 (783 cycles a step: 98 percent), 128x224,
// 128x176, 128x160, 128x144, then 128x128;
// then 128x128 with the K loop split, whose cost adds a launch (4000
// cycles) and the f32 workspace written and read (bytes over 1830 per
// cycle), tried for 2 to 32 splits with at least 4 K steps each and at
// most 256 MiB of workspace; then 64x128, whole and split.
// CHECK-LABEL: func.func @dynamic
// N may be 1: the one-row form of a matrix-vector product first
// (convert-linalg-to-croq-one-row.mlir), the product as stored in the
// else-branch.
// CHECK: scf.if
// CHECK: } else {
// CHECK-DAG: %[[M:.*]] = memref.dim %arg0, %c0 : memref<?x?xf16>
// CHECK-DAG: %[[K:.*]] = memref.dim %arg0, %c1 : memref<?x?xf16>
// CHECK-DAG: %[[N:.*]] = memref.dim %arg1, %c1 : memref<?x?xf16>
// A step takes 15 percent longer where B's rows (N x 2 bytes) are not
// 128-byte multiples.
// CHECK: %[[KS:.*]] = arith.ceildivui %[[K]], %c64 : index
// CHECK: %[[BROW:.*]] = arith.muli %[[N]], %c2 : index
// CHECK: %[[REM:.*]] = arith.remui %[[BROW]], %c128 : index
// CHECK: %[[MIS:.*]] = arith.cmpi ne, %[[REM]], %c0 : index
// The result's bytes, which every plan writes, once for all of them.
// CHECK: %[[MN:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK: %[[WRITTEN:.*]] = arith.muli %[[MN]], %c2 : index
// CHECK: %[[P0:.*]] = arith.select %[[MIS]], %c115, %c100 : index
// CHECK: %[[X0:.*]] = arith.muli %[[P0]], %c1024 : index
// CHECK: %[[SC0:.*]] = arith.divui %[[X0]], %c100 : index
// CHECK: %[[BM0:.*]] = arith.ceildivui %[[M]], %c128 : index
// CHECK: %[[BN0:.*]] = arith.ceildivui %[[N]], %c256 : index
// CHECK: %[[B0:.*]] = arith.muli %[[BM0]], %[[BN0]] : index
// CHECK: %[[W0:.*]] = arith.ceildivui %[[B0]], %c132 : index
// CHECK: %[[S0:.*]] = arith.muli %[[KS]], %[[SC0]] : index
// CHECK: %[[T0:.*]] = arith.addi %[[S0]], %c2000 : index
// CHECK: %[[WC0:.*]] = arith.muli %[[W0]], %[[T0]] : index
// The traffic with memory: A (M x K steps x 128 bytes) and B read once,
// the result written (M x N x 2 bytes), and, on one wave (at most 132
// blocks), a tenth of an operand larger than half the L2 (25 MiB: each of
// its two partitions keeps its own copy) read again by each further
// column (A) or row (B) of tiles; 128x256 is persistent, so on several
// waves it reads nothing again. At 1830 bytes a cycle.
// CHECK: %[[AM:.*]] = arith.muli %[[M]], %[[KS]] : index
// CHECK: %[[AB:.*]] = arith.muli %[[AM]], %c128 : index
// CHECK: %[[BKS:.*]] = arith.muli %[[N]], %[[KS]] : index
// CHECK: %[[BB:.*]] = arith.muli %[[BKS]], %c128 : index
// CHECK: %[[ONE:.*]] = arith.cmpi ult, %[[B0]], %c133 : index
// CHECK: %[[AR:.*]] = arith.subi %{{.*}}, %c1 : index
// CHECK: %[[AX:.*]] = arith.muli %[[AB]], %[[AR]] : index
// CHECK: %[[ABIG:.*]] = arith.cmpi ugt, %[[AB]], %c26214400 : index
// CHECK: %[[AE:.*]] = arith.select %[[ABIG]], %[[AX]], %c0 : index
// CHECK: %[[BE:.*]] = arith.select %{{.*}}, %{{.*}}, %c0 : index
// CHECK: %[[RE:.*]] = arith.addi %[[AE]], %[[BE]] : index
// CHECK: %[[TENTH:.*]] = arith.divui %[[RE]], %c10 : index
// CHECK: %[[RESEL:.*]] = arith.select %[[ONE]], %[[TENTH]], %c0 : index
// CHECK: %[[READ:.*]] = arith.addi %[[AB]], %[[BB]] : index
// CHECK: %[[MOVED:.*]] = arith.addi %[[READ]], %[[WRITTEN]] : index
// CHECK: %[[ALL:.*]] = arith.addi %[[MOVED]], %[[RESEL]] : index
// CHECK: %[[RATE:.*]] = arith.divui %[[ALL]], %c1830 : index
// Each block moves its bytes at one multiprocessor's share of that rate:
// the grid's waves, full, over its blocks, times the cycles.
// CHECK: %[[WM0:.*]] = arith.ceildivui %[[B0]], %c132 : index
// CHECK: %[[SLOTS0:.*]] = arith.muli %[[WM0]], %c132 : index
// CHECK: %[[SHARE0:.*]] = arith.muli %[[RATE]], %[[SLOTS0]] : index
// CHECK: %[[MEM0:.*]] = arith.divui %[[SHARE0]], %[[B0]] : index
// The kernel takes the longer of its compute and its traffic, and 30% of
// the shorter.
// CHECK: %[[SHORT:.*]] = arith.minui %[[WC0]], %[[MEM0]] : index
// CHECK: %[[LONG:.*]] = arith.maxui %[[WC0]], %[[MEM0]] : index
// CHECK: %[[PART:.*]] = arith.muli %[[SHORT]], %c30 : index
// CHECK: %[[UNHID:.*]] = arith.divui %[[PART]], %c100 : index
// CHECK: %[[K0:.*]] = arith.addi %[[LONG]], %[[UNHID]] : index
// A plain tile a whole 64-column span wider than the product (N rounded
// up to 64, plus 64, at most its width) is never taken: the narrow tiles
// take products of at most 64 columns.
// CHECK: %[[NS0:.*]] = arith.ceildivui %[[N]], %c64 : index
// CHECK: %[[NR0:.*]] = arith.muli %[[NS0]], %c64 : index
// CHECK: %[[NP0:.*]] = arith.addi %[[NR0]], %c64 : index
// CHECK: %[[WIDE0:.*]] = arith.cmpi ult, %[[NP0]], %c257 : index
// CHECK: %[[C0:.*]] = arith.select %[[WIDE0]], %c1152921504606846976, %[[K0]] : index
// CHECK: %[[X1:.*]] = arith.muli %{{.*}}, %c783 : index
// CHECK: %[[SC1:.*]] = arith.divui %[[X1]], %c100 : index
// CHECK: %[[BN1:.*]] = arith.ceildivui %[[N]], %c192 : index
// CHECK: %[[S1:.*]] = arith.muli %[[KS]], %[[SC1]] : index
// CHECK: %[[T1:.*]] = arith.addi %[[S1]], %c2000 : index
// CHECK: %[[WC1:.*]] = arith.muli %{{.*}}, %[[T1]] : index
// CHECK: %[[L1:.*]] = arith.maxui %[[WC1]], %{{.*}} : index
// CHECK: %[[K1:.*]] = arith.addi %[[L1]], %{{.*}} : index
// CHECK: %[[WIDE1:.*]] = arith.cmpi ult, %{{.*}}, %c193 : index
// CHECK: %[[C1:.*]] = arith.select %[[WIDE1]], %{{.*}}, %[[K1]] : index
// CHECK: %[[LT1:.*]] = arith.cmpi ult, %[[C1]], %[[C0]] : index
// CHECK: %[[I1:.*]] = arith.select %[[LT1]], %c1, %c0 : index
// CHECK: %[[BEST1:.*]] = arith.select %[[LT1]], %[[C1]], %[[C0]] : index
// Between them, 128x224, 128x176, 128x160 and 128x144, whose N-major B
// tiles are padded to whole 128-byte spans (995, 838, 780 and 811 cycles
// a step: 90, 84, 82 and 71 percent).
// CHECK: arith.muli %{{.*}}, %c995 : index
// CHECK: arith.ceildivui %[[N]], %c224 : index
// CHECK: %[[I2:.*]] = arith.select %{{.*}}, %c2, %[[I1]] : index
// CHECK: arith.muli %{{.*}}, %c838 : index
// CHECK: arith.ceildivui %[[N]], %c176 : index
// CHECK: %[[I3:.*]] = arith.select %{{.*}}, %c3, %[[I2]] : index
// CHECK: arith.muli %{{.*}}, %c780 : index
// CHECK: arith.ceildivui %[[N]], %c160 : index
// CHECK: %[[I4:.*]] = arith.select %{{.*}}, %c4, %[[I3]] : index
// CHECK: arith.muli %{{.*}}, %c811 : index
// CHECK: arith.ceildivui %[[N]], %c144 : index
// CHECK: %[[I5:.*]] = arith.select %{{.*}}, %c5, %[[I4]] : index
// CHECK: %[[X6:.*]] = arith.muli %{{.*}}, %c568 : index
// CHECK: %[[SC6:.*]] = arith.divui %[[X6]], %c100 : index
// CHECK: %[[S6:.*]] = arith.muli %[[KS]], %[[SC6]] : index
// CHECK: %[[T6:.*]] = arith.addi %[[S6]], %c2000 : index
// CHECK: %[[WC6:.*]] = arith.muli %{{.*}}, %[[T6]] : index
// CHECK: %[[L6:.*]] = arith.maxui %[[WC6]], %{{.*}} : index
// CHECK: %[[K6:.*]] = arith.addi %[[L6]], %{{.*}} : index
// CHECK: %[[C6:.*]] = arith.select %{{.*}}, %c1152921504606846976, %[[K6]] : index
// (Between them, whether a variant requested of the host code is variant 6
// and possible: convert-linalg-to-croq-variants.mlir.)
// CHECK: %[[LT6:.*]] = arith.cmpi ult, %[[C6]], %{{[0-9]+}} : index
// CHECK: %[[I6:.*]] = arith.select %[[LT6]], %c6, %[[I5]] : index
// Two splits of 128x128: K steps per split, the splits that have steps;
// a split grid of more than one wave (132 blocks) is never chosen.
// CHECK: %[[PER:.*]] = arith.ceildivui %[[KS]], %c2 : index
// CHECK: %[[SPLITS:.*]] = arith.ceildivui %[[KS]], %[[PER]] : index
// CHECK: %[[SBLOCKS:.*]] = arith.muli %{{.*}}, %[[SPLITS]] : index
// CHECK: %[[SWAVES:.*]] = arith.cmpi ugt, %[[SBLOCKS]], %c132 : index
// CHECK: arith.select %[[SWAVES]], %c1152921504606846976, %{{.*}} : index
// CHECK: arith.cmpi ult, %[[PER]], %c4 : index
// CHECK: arith.cmpi ugt, %{{.*}}, %c268435456 : index
// CHECK: arith.ceildivui %[[KS]], %c32 : index
// 64x128 is not persistent: on several waves a B larger than half the L2 is
// read once per wave, at most once per row of tiles.
// CHECK: arith.muli %{{.*}}, %c320 : index
// CHECK: arith.ceildivui %{{.*}}, %c132 : index
// CHECK: %[[ROWS8:.*]] = arith.ceildivui %[[M]], %c64 : index
// CHECK-NEXT: %[[COLS8:.*]] = arith.ceildivui %[[N]], %c128 : index
// CHECK-NEXT: %[[ONE8:.*]] = arith.cmpi ult, %{{.*}}, %c133 : index
// CHECK: %[[SAME8:.*]] = arith.divui %{{.*}}, %c10 : index
// CHECK-NEXT: %[[WAVES8:.*]] = arith.ceildivui %{{.*}}, %c132 : index
// CHECK-NEXT: arith.minui %[[COLS8]], %[[WAVES8]] : index
// CHECK: %[[BREADERS:.*]] = arith.minui %[[ROWS8]], %[[WAVES8]] : index
// CHECK: arith.subi %[[BREADERS]], %c1 : index
// CHECK: %[[PER8:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.select %[[ONE8]], %[[SAME8]], %[[PER8]] : index
// CHECK: %[[I9:.*]] = arith.select %{{.*}}, %c9, %{{.*}} : index
// Last, 192x192 (three consumer warpgroups of 64 rows): 1212 cycles a
// step (95 percent with B's tile N-major).
// CHECK: arith.muli %{{.*}}, %c1212 : index
// CHECK: arith.ceildivui %[[M]], %c192 : index
// CHECK-NEXT: arith.ceildivui %[[N]], %c192 : index
// CHECK: %[[I10:.*]] = arith.select %{{.*}}, %c10, %[[I9]] : index
// Then 128x64 (one consumer warpgroup, 301 cycles a step: 85 percent),
// whole and split, which the model gives only products of 65 to 128 rows.
// CHECK: arith.muli %{{.*}}, %c301 : index
// CHECK: arith.ceildivui %[[M]], %c128 : index
// CHECK-NEXT: arith.ceildivui %[[N]], %c64 : index
// CHECK: %[[FEW:.*]] = arith.cmpi ult, %[[M]], %c65 : index
// CHECK-NEXT: arith.select %[[FEW]], %c1152921504606846976, %{{.*}} : index
// CHECK-NEXT: %[[MANY:.*]] = arith.cmpi ugt, %[[M]], %c128 : index
// CHECK-NEXT: arith.select %[[MANY]], %c1152921504606846976, %{{.*}} : index
// CHECK: %[[I11:.*]] = arith.select %{{.*}}, %c11, %[[I10]] : index
// CHECK: %[[I12:.*]] = arith.select %{{.*}}, %c12, %[[I11]] : index
// Last, the tiles of C^T (A and B's roles swapped,
// convert-linalg-to-croq-swapped.mlir): 64 rows over N times 16 (40
// cycles a step at 80 percent, 15 percent longer where A's rows, K x 2
// bytes, are not 128-byte multiples), 64, 128, 160, 176 and 208 over M; their
// memory time, as every grid's, scaled by its waves full over its blocks,
// plus 4000 cycles for each wave after the first (the blocks do not walk
// tiles), and given only products of at most two rows of them.
// CHECK: %[[AREM:.*]] = arith.remui %{{.*}}, %c128 : index
// CHECK-NEXT: %[[AMIS:.*]] = arith.cmpi ne, %[[AREM]], %c0 : index
// CHECK-NEXT: %[[PS:.*]] = arith.select %[[AMIS]], %c115, %c100 : index
// CHECK-NEXT: arith.muli %[[PS]], %c40 : index
// CHECK: %[[GN:.*]] = arith.ceildivui %[[N]], %c64 : index
// CHECK-NEXT: %[[GM:.*]] = arith.ceildivui %[[M]], %c16 : index
// CHECK-NEXT: %[[SB:.*]] = arith.muli %[[GN]], %[[GM]] : index
// CHECK: %[[MEMS:.*]] = arith.divui %{{.*}}, %c1830 : index
// CHECK-NEXT: %[[SW:.*]] = arith.ceildivui %[[SB]], %c132 : index
// CHECK-NEXT: %[[SSLOTS:.*]] = arith.muli %[[SW]], %c132 : index
// CHECK-NEXT: %[[SSHARE:.*]] = arith.muli %[[MEMS]], %[[SSLOTS]] : index
// CHECK-NEXT: %[[SMEM:.*]] = arith.divui %[[SSHARE]], %[[SB]] : index
// CHECK-NEXT: %[[LATER:.*]] = arith.subi %[[SW]], %c1 : index
// CHECK-NEXT: %[[RAMP:.*]] = arith.muli %[[LATER]], %c4000 : index
// CHECK-NEXT: arith.addi %[[SMEM]], %[[RAMP]] : index
// CHECK: %[[TWO:.*]] = arith.cmpi ugt, %[[M]], %c32 : index
// CHECK-NEXT: arith.select %[[TWO]], %c1152921504606846976, %{{.*}} : index
// CHECK: arith.select %{{.*}}, %c13, %[[I12]] : index
// CHECK: arith.ceildivui %[[M]], %c64 : index
// CHECK: arith.select %{{.*}}, %c14, %{{.*}} : index
// CHECK: arith.ceildivui %[[M]], %c128 : index
// CHECK: arith.select %{{.*}}, %c15, %{{.*}} : index
// CHECK: arith.ceildivui %[[M]], %c160 : index
// CHECK: arith.select %{{.*}}, %c16, %{{.*}} : index
// CHECK: arith.ceildivui %[[M]], %c176 : index
// CHECK: arith.select %{{.*}}, %c17, %{{.*}} : index
// CHECK: arith.ceildivui %[[M]], %c208 : index
// CHECK: arith.select %{{.*}}, %c18, %{{.*}} : index
// Then the tiles of C^T of two and three consumer warpgroups: 128 rows over
// N times 160 over M (703 cycles a step at 91 percent; given products of
// at most 320 rows), 176 and 208, and 192 x 160 (1315 cycles at 73
// percent). Their K loops split in clusters are left out: cluster-m=1
// asks for no clusters.
// CHECK: arith.muli %{{.*}}, %c703 : index
// CHECK: arith.ceildivui %[[N]], %c128 : index
// CHECK-NEXT: arith.ceildivui %[[M]], %c160 : index
// CHECK: arith.cmpi ugt, %[[M]], %c320 : index
// CHECK: arith.select %{{.*}}, %c19, %{{.*}} : index
// CHECK: arith.ceildivui %[[M]], %c176 : index
// CHECK: arith.select %{{.*}}, %c20, %{{.*}} : index
// CHECK: arith.ceildivui %[[M]], %c208 : index
// CHECK: arith.select %{{.*}}, %c21, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %c1315 : index
// CHECK: arith.ceildivui %[[N]], %c192 : index
// CHECK-NEXT: arith.ceildivui %[[M]], %c160 : index
// CHECK: arith.select %{{.*}}, %c22, %{{.*}} : index
// Then the widths of 70 to 180 rows: 64 x 80, 96 and 112 (200, 240 and
// 280 cycles a step at 80 percent; given products of at most two widths
// of rows), and 128 x 80, 96 and 112 (400, 480 and 560).
// CHECK: arith.muli %{{.*}}, %c200 : index
// CHECK: arith.ceildivui %[[N]], %c64 : index
// CHECK-NEXT: arith.ceildivui %[[M]], %c80 : index
// CHECK: arith.cmpi ugt, %[[M]], %c160 : index
// CHECK: arith.select %{{.*}}, %c23, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %c240 : index
// CHECK: arith.select %{{.*}}, %c24, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %c280 : index
// CHECK: arith.select %{{.*}}, %c25, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %c400 : index
// CHECK: arith.ceildivui %[[N]], %c128 : index
// CHECK-NEXT: arith.ceildivui %[[M]], %c80 : index
// CHECK: arith.select %{{.*}}, %c26, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %c480 : index
// CHECK: arith.select %{{.*}}, %c27, %{{.*}} : index
// CHECK: arith.muli %{{.*}}, %c560 : index
// CHECK: arith.select %{{.*}}, %c28, %{{.*}} : index
// Then the narrow tiles, 64 rows by 16, 32 and 64 columns (40 cycles a
// step at 80 percent, 80 and 160), each given products of at most one of
// its widths; their K loops split in clusters and their clusters are left
// out here too.
// CHECK: arith.muli %{{.*}}, %c40 : index
// CHECK: arith.ceildivui %[[M]], %c64 : index
// CHECK-NEXT: arith.ceildivui %[[N]], %c16 : index
// CHECK: arith.cmpi ugt, %[[N]], %c16 : index
// CHECK: arith.select %{{.*}}, %c29, %{{.*}} : index
// CHECK: arith.ceildivui %[[N]], %c32 : index
// CHECK: arith.cmpi ugt, %[[N]], %c32 : index
// CHECK: arith.select %{{.*}}, %c30, %{{.*}} : index
// CHECK: arith.ceildivui %[[N]], %c64 : index
// CHECK: arith.cmpi ugt, %[[N]], %c64 : index
// CHECK: arith.select %{{.*}}, %c31, %{{.*}} : index
// 64x16 and 64x32 run two blocks to a multiprocessor with the 8 stages
// they get anyway; 64x64 does with 6 stages (croq.stages) instead of 8, a
// variant of its own: its steps of two blocks together at 115 percent of
// one's (160 x 200 / 115 cycles a block), in waves of 264 blocks but for a
// last one of at most 132, and never on a grid of at most 132 blocks.
// CHECK: arith.muli %{{.*}}, %c200 : index
// CHECK-NEXT: arith.divui %{{.*}}, %c115 : index
// CHECK: arith.divui %{{.*}}, %c264 : index
// CHECK: arith.cmpi ugt, %{{.*}}, %c132 : index
// CHECK: %[[MODEL:.*]] = arith.select %{{.*}}, %c32, %{{.*}} : index
// The model's choice, or a variant requested of the host code.
// CHECK: %[[CHOICE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[MODEL]] : index
// CHECK: scf.index_switch %[[CHOICE]]
// CHECK: case 1 {
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.alloc : !croq.tile<64x192xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x192xf32>
// CHECK: case 2 {
// CHECK: croq.alloc : !croq.tile<64x256xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x224xf32>
// CHECK: croq.subspan %{{.*}} [64, 256] step [64, 224] at
// CHECK: croq.subspan %{{.*}} [64, 224] at [%c0, %c0] : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x224xf16, shared, swizzle = 128>
// CHECK: case 3 {
// CHECK: croq.alloc : !croq.tile<64x192xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x176xf32>
// CHECK: case 4 {
// CHECK: croq.alloc : !croq.tile<64x192xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x160xf32>
// CHECK: case 5 {
// CHECK: croq.alloc : !croq.tile<64x192xf16, shared, swizzle = 128>
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x144xf32>
// CHECK: case 6 {
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x128xf32>
// CHECK: case 7 {
// CHECK: %[[WS:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x128xf32>
// CHECK: croq.parallel {{.*}} : block {
// CHECK: croq.foreach
// CHECK: gpu.dealloc %[[WS]] : memref<?x?xf32>
// CHECK: case 8 {
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
// CHECK: case 9 {
// CHECK: gpu.alloc
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x128xf32>
// CHECK: gpu.dealloc
// CHECK: case 10 {
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 3 : i64, croq.persistent = true} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<192x192xf32>
// CHECK: case 11 {
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x64xf32>
// CHECK: case 12 {
// CHECK: gpu.alloc
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x64xf32>
// CHECK: gpu.dealloc
// CHECK: case 29 {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x16xf32>
// CHECK: } {croq.stages = 8 : i64}
// CHECK: case 31 {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
// CHECK-NOT: croq.stages
// CHECK: case 32 {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<64x64xf32>
// CHECK: } {croq.stages = 6 : i64}
// CHECK: default {
// CHECK: croq.parallel {{.*}} block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x256xf32>
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// 2048 x 512 x 8192 (128 K steps): 128 blocks of 64x128 compute one wave
// (42960 cycles) and move A (32 MiB), B (8 MiB), the result (2 MiB) and a
// tenth of A again for each of the three further columns of tiles (A is
// larger than half the L2) in 29566: 42960 + 30% of 29566 = 51829. The
// 128x128 tile split in two computes one wave of 64 steps (38352, reads
// 28420: 46878) and adds the reduction and its workspace (56607).
// CHECK-LABEL: func.func @long_k_in_l2
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [32, 4] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK-NOT: gpu.alloc
func.func @long_k_in_l2(%a: memref<2048x8192xf16>, %b: memref<8192x512xf16>, %c: memref<2048x512xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<2048x512xf16>)
  linalg.matmul ins(%a, %b : memref<2048x8192xf16>, memref<8192x512xf16>) outs(%c : memref<2048x512xf16>)
  return
}

// -----

// 128 x 8192 x 8192: the same 128 blocks of 64x128, but B (128 MiB) is
// larger than half the L2, and the second row of tiles reads a tenth of it
// again: the traffic (82969 cycles) is longer than the compute (42960):
// 82969 + 30% of 42960 = 95857. The 128x128 tile has one row of tiles and
// reads B once: whole, 64 blocks compute 128 steps (74704) about as long
// as they read (75634): 98045; split in two, 128 blocks compute 64 steps
// (38352) while they read (74489), with the reduction: 95723. The 128x64
// tile has one row of tiles too, and 128 blocks whole: 128 steps of 301
// cycles (40528) while they read (75634): 87792, it wins.
// CHECK-LABEL: func.func @long_k_past_l2
// CHECK-NOT: gpu.alloc
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [1, 128] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<128x64xf32>
func.func @long_k_past_l2(%a: memref<128x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<128x8192xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<128x8192xf16>)
  linalg.matmul ins(%a, %b : memref<128x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<128x8192xf16>)
  return
}

// -----

// 576 x 8192 x 8192: 192x192 tiles (three consumer warpgroups of 64 rows)
// make one wave of 3 x 43 = 129 blocks, where 128-row tiles need five rows
// of tiles, 5 x 32 = 160 blocks of 128x256 (two waves) or a fifth of a
// tile's rows padded. Its whole result tile (72 KB) or a half (36 KB)
// would leave room for three stages of operands (48 KB each), a third
// (24 KB) for four: it is stored in three parts of 64 columns. With B
// stored N x K (K-major B tiles, 92 percent) 320 x 12288 x 4096 takes it
// too, two rows of 192 (128 blocks) where 192x160 tiles of C^T fill the
// rows exactly but compute more slowly (73 percent); 384 x 8192 x 8192
// keeps 128-row tiles: two rows of 192 make 86 blocks. A product
// accumulated into its output keeps them too at 576 rows (the accumulator
// and the output's tile leave three consumers of 152 registers spilling).
// CHECK-LABEL: func.func @one_wave_of_192
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [3, 43] : block attributes {croq.consumers = 3 : i64, croq.persistent = true} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<192x192xf32>
// CHECK: %[[P0:.*]] = croq.mma.slice %{{.*}}[0] : !croq.acc<192x192xf32> -> !croq.acc<192x64xf32>
// CHECK: croq.mma.store %[[P0]] -> %[[THIRD:.*]] : !croq.acc<192x64xf32> -> !croq.tile<192x64xf16, shared, swizzle = 128>
// CHECK: %[[P1:.*]] = croq.mma.slice %{{.*}}[64] : !croq.acc<192x192xf32> -> !croq.acc<192x64xf32>
// CHECK: croq.mma.store %[[P1]] -> %[[THIRD]]
// CHECK: %[[P2:.*]] = croq.mma.slice %{{.*}}[128] : !croq.acc<192x192xf32> -> !croq.acc<192x64xf32>
// CHECK: croq.mma.store %[[P2]] -> %[[THIRD]]
// CHECK-LABEL: func.func @k_major_one_wave_of_192
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [2, 64] : block attributes {croq.consumers = 3 : i64, croq.persistent = true} {
// CHECK: croq.mma.fill %{{.*}} : !croq.acc<192x192xf32>
// CHECK-LABEL: func.func @k_major_keeps_128
// CHECK-NOT: croq.consumers = 3
// CHECK: croq.parallel {{.*}} {croq.consumers = 2 : i64
// CHECK-NOT: croq.consumers = 3
// CHECK-LABEL: func.func @accumulated_keeps_128
// CHECK-NOT: croq.consumers = 3
// CHECK: croq.parallel {{.*}} {croq.consumers = 2 : i64
// CHECK-NOT: croq.consumers = 3
// CHECK: return
func.func @one_wave_of_192(%a: memref<576x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<576x8192xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<576x8192xf16>)
  linalg.matmul ins(%a, %b : memref<576x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<576x8192xf16>)
  return
}
func.func @k_major_one_wave_of_192(%a: memref<320x4096xbf16>, %b: memref<12288x4096xbf16>, %c: memref<320x12288xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<320x12288xbf16>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<320x4096xbf16>, memref<12288x4096xbf16>) outs(%c : memref<320x12288xbf16>)
  return
}
func.func @k_major_keeps_128(%a: memref<384x8192xbf16>, %b: memref<8192x8192xbf16>, %c: memref<384x8192xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%c : memref<384x8192xbf16>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<384x8192xbf16>, memref<8192x8192xbf16>) outs(%c : memref<384x8192xbf16>)
  return
}
func.func @accumulated_keeps_128(%a: memref<576x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<576x8192xf16>) {
  linalg.matmul ins(%a, %b : memref<576x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<576x8192xf16>)
  return
}
