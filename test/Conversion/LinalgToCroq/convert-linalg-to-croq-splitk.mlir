// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="split-k=1" --canonicalize -split-input-file | FileCheck %s --check-prefix=WHOLE
// RUN: croq-opt %s --convert-linalg-to-croq="split-k=3" --canonicalize -split-input-file | FileCheck %s --check-prefix=FORCED

// Few tiles and a long K: the K loop of each tile is split among blocks.
// 256 x 256 x 16384 (256 K steps): 8 blocks of 64x128 take one wave of
// 256 steps (83920 cycles; reading A and B, 16 MiB, takes 9239: 86691).
// Split 16 ways, 128 blocks take one wave of 16 steps (7120), shorter than
// reading A and B (9167): 9167 + 30% of 7120 = 11303, plus the
// reduction's launch (4000) and 4 MiB of partials and the result at 1830
// bytes per cycle (2363): 17666. In 12 splits of 22 steps (9040) with 3
// MiB of partials: 17669. 64x128 in 16 splits.
// CHECK-LABEL: func.func @skinny
// The workspace holds the 16 partial products of each tile, one tile-row
// band per split; the host code allocates it.
// CHECK: %[[WS:.*]] = gpu.alloc () : memref<4096x256xf32>
// Block (row, bn) computes split row / 4 of tile (row mod 4, bn): K steps
// [16 s, 16 s + min(16, 256 - 16 s)).
// CHECK: croq.parallel (%[[ROW:.*]], %[[BN:.*]]) in [64, 2] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: %[[S:.*]] = arith.divui %[[ROW]], %c4 : index
// CHECK: %[[BM:.*]] = arith.remui %[[ROW]], %c4 : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[S]], %c16 : index
// CHECK: %[[LEFT:.*]] = arith.subi %c256, %[[FIRST]] : index
// CHECK: %[[COUNT:.*]] = arith.minui %[[LEFT]], %c16 : index
// CHECK: %[[PT:.*]] = croq.alloc : !croq.tile<64x128xf32, shared, swizzle = 128>
// CHECK: %[[ACC:.*]] = scf.for %[[I:.*]] = %c0 to %[[COUNT]] step %c1
// CHECK: %[[K:.*]] = arith.addi %[[FIRST]], %[[I]] : index
// CHECK: croq.subspan %arg0 [64, 64] at [%[[BM]], %[[K]]]
// CHECK: croq.subspan %arg1 [64, 128] at [%[[K]], %[[BN]]]
// CHECK: %[[PV:.*]] = croq.subspan %[[WS]] [64, 128] at [%[[ROW]], %[[BN]]] : memref<4096x256xf32> -> !croq.view<64x128xf32>
// CHECK: croq.mma.store %[[ACC]] -> %[[PT]]
// CHECK: croq.copy tma async swizzle = 128 %[[PT]] -> %[[PV]]
// The reduction: 16x32 elements per block, four columns per thread. The
// partials of split s are at rows 256 s + 16 bi + i, read 16 bytes at a
// time and summed four splits per step in split order (a second loop takes
// the splits left over, none here); each element is then rounded to f16
// and written on its own.
// CHECK: croq.parallel (%[[BI:.*]], %[[BJ:.*]]) in [16, 8] : block {
// CHECK: %[[OUT:.*]] = croq.subspan %arg2 [16, 32] at [%[[BI]], %[[BJ]]] : memref<256x256xf16> -> !croq.view<16x32xf16>
// CHECK: croq.foreach (%[[EI:.*]], %[[EJ:.*]]) in [16, 8] {
// CHECK: %[[J:.*]] = arith.muli %[[EJ]], %c4 : index
// CHECK: %[[SUM:.*]] = scf.for %[[SS:.*]] = %c0 to %c16 step %c4 iter_args(%[[PART:.*]] = %{{.*}}) -> (vector<4xf32>) {
// CHECK: %[[R0:.*]] = arith.muli %[[SS]], %c16 : index
// CHECK: %[[T0:.*]] = arith.addi %[[R0]], %[[BI]] : index
// CHECK: %[[W0:.*]] = croq.subspan %[[WS]] [16, 32] at [%[[T0]], %[[BJ]]]
// CHECK: %[[X0:.*]] = croq.read %[[W0]][%[[EI]], %[[J]]] in_bounds : !croq.view<16x32xf32> -> vector<4xf32>
// CHECK-COUNT-3: croq.read {{.*}} in_bounds : !croq.view<16x32xf32> -> vector<4xf32>
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: %[[NEXT:.*]] = arith.addf %[[PART]], %{{.*}} : vector<4xf32>
// CHECK: scf.yield %[[NEXT]] : vector<4xf32>
// CHECK: %[[E0:.*]] = vector.extract %[[SUM]][0] : f32 from vector<4xf32>
// CHECK: %[[H0:.*]] = arith.truncf %[[E0]] : f32 to f16
// CHECK: croq.write %[[H0]], %[[OUT]][%[[EI]], %[[J]]] : !croq.view<16x32xf16>
// CHECK-COUNT-3: croq.write
// CHECK: gpu.dealloc %[[WS]] : memref<4096x256xf32>
// WHOLE-LABEL: func.func @skinny
// WHOLE-NOT: gpu.alloc
// WHOLE: croq.parallel (%{{.*}}, %{{.*}}) in [4, 2] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// WHOLE-NOT: gpu.alloc
// Forced: 3 splits of 86, 86 and 84 K steps.
// FORCED-LABEL: func.func @skinny
// FORCED: gpu.alloc () : memref<768x256xf32>
// FORCED: croq.parallel (%{{.*}}, %{{.*}}) in [12, 2] : block
// FORCED: arith.muli %{{.*}}, %c86 : index
// Three splits make no group of four: the reduction reads them one by one.
// FORCED: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf32>)
func.func @skinny(%a: memref<256x16384xf16>, %b: memref<16384x256xf16>, %c: memref<256x256xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<256x256xf16>)
  linalg.matmul ins(%a, %b : memref<256x16384xf16>, memref<16384x256xf16>) outs(%c : memref<256x256xf16>)
  return
}

// -----

// Without the fill, linalg.matmul accumulates: the reduction adds the
// output's element to the partials' sum. 128 x 512 x 8192 takes 16 splits
// of 8 K steps: reading A and B (10 MiB) takes longer than either 12 or 16
// splits compute, and 16 splits' 128 blocks read at 128 multiprocessors'
// share of the rate where 12 splits' 96 read at 96's. (On an H200 12
// splits of the zero-filled product ran 3-4% faster all the same: 9.2
// against 9.6 us.) Its 128 rows take 128x64 tiles (one row of them, 301
// cycles a step against 320 for two rows of 64x128).
// CHECK-LABEL: func.func @accumulating
// CHECK: gpu.alloc () : memref<2048x512xf32>
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [16, 8] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.mma row row
// CHECK: croq.parallel (%[[BI:.*]], %[[BJ:.*]]) in [8, 16] : block {
// CHECK: %[[OUT:.*]] = croq.subspan %arg2 [16, 32] at [%[[BI]], %[[BJ]]] : memref<128x512xf32> -> !croq.view<16x32xf32>
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c16 step %c4
// CHECK: %[[X:.*]] = vector.extract %[[SUM]][0] : f32 from vector<4xf32>
// CHECK: %[[C:.*]] = croq.read %[[OUT]][%{{.*}}, %{{.*}}] : !croq.view<16x32xf32>
// CHECK: %[[Y:.*]] = arith.addf %[[X]], %[[C]] : f32
// CHECK: croq.write %[[Y]], %[[OUT]]
func.func @accumulating(%a: memref<128x8192xbf16>, %b: memref<512x8192xbf16>, %c: memref<128x512xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<128x8192xbf16>, memref<512x8192xbf16>) outs(%c : memref<128x512xf32>)
  return
}

// -----

// A fused consumer runs in the reduction, on each element's sum: the bias
// read at the element's column, relu, the cast to f16. The temporary is
// gone.
// CHECK-LABEL: func.func @fused
// CHECK-NOT: memref.alloc
// CHECK: gpu.alloc () : memref<2304x384xf32>
// CHECK: croq.parallel (%[[BI:.*]], %[[BJ:.*]]) in [12, 11] : block {
// CHECK: %[[OUT:.*]] = croq.subspan %arg3 [16, 32] at [%[[BI]], %[[BJ]]] : memref<192x328xf16> -> !croq.view<16x32xf16>
// CHECK: %[[BIAS:.*]] = croq.subspan %arg2 [32] at [%[[BJ]]] : memref<328xf32> -> !croq.view<32xf32>
// CHECK: croq.foreach (%{{.*}}, %[[EJ:.*]]) in [16, 8] {
// CHECK: %[[J:.*]] = arith.muli %[[EJ]], %c4 : index
// CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (vector<4xf32>)
// CHECK: %[[S0:.*]] = vector.extract %[[SUM]][0] : f32 from vector<4xf32>
// CHECK: %[[BV:.*]] = croq.read %[[BIAS]][%[[J]]] : !croq.view<32xf32>
// CHECK: %[[X:.*]] = arith.addf %[[S0]], %[[BV]] : f32
// CHECK: %[[R:.*]] = arith.maximumf %[[X]], %{{.*}} : f32
// CHECK: %[[H:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK: croq.write %{{.*}}, %[[OUT]]
// CHECK-NOT: memref.dealloc
func.func @fused(%a: memref<192x6000xf16>, %b: memref<6000x328xf16>, %bias: memref<328xf32>, %out: memref<192x328xf16>) {
  %tmp = memref.alloc() : memref<192x328xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<192x328xf32>)
  linalg.matmul ins(%a, %b : memref<192x6000xf16>, memref<6000x328xf16>) outs(%tmp : memref<192x328xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%tmp, %bias : memref<192x328xf32>, memref<328xf32>) outs(%out : memref<192x328xf16>) {
  ^bb0(%x: f32, %bv: f32, %o: f16):
    %s = arith.addf %x, %bv : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<192x328xf32>
  return
}

// -----

// Few columns and many rows: 128x64 tiles (one consumer warpgroup) with
// their K loop split in eight (16 row tiles, 128 blocks of 16 K steps,
// partials of 8 x 2048 x 64 f32), where 64x128 ones computed twice the
// padding columns per row in four splits (0.75 of cuBLAS against 1.00,
// H200). Whole or split in clusters, the tile keeps its row bounds
// (with split-k=1: 64x128 tiles in clusters of two along M).
// CHECK-LABEL: func.func @few_columns
// CHECK: gpu.alloc () : memref<16384x64xf32>
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [128, 1] : block attributes {croq.consumers = 1 : i64, croq.persistent = false} {
// CHECK: croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
// WHOLE-LABEL: func.func @few_columns
// WHOLE: croq.parallel (%{{.*}}, %{{.*}}) in [32, 1] : block cluster [2, 1]
// WHOLE-NOT: croq.tile<128x64xf16
// WHOLE: croq.tile<64x128xf16
func.func @few_columns(%a: memref<2048x8192xf16>, %b: memref<8192x24xf16>, %c: memref<2048x24xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<2048x24xf16>)
  linalg.matmul ins(%a, %b : memref<2048x8192xf16>, memref<8192x24xf16>) outs(%c : memref<2048x24xf16>)
  return
}
