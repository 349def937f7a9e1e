// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --implicit-check-not=linalg.
// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | croq-opt -split-input-file > /dev/null

// linalg.batch_matmul: one grid of the tiles of every matrix, one matrix
// after another (batch x ceil(M/128) rows of tiles), each block at matrix
// row / ceil(M/128) and tile row row % ceil(M/128). Its operand tiles are
// 1 x rows x cols windows of the batched tensors, copied by TMA into
// 1 x rows x cols shared tiles that the mma reads as rows x cols
// (croq.span_as); the result leaves the same way.
// CHECK-LABEL: func.func @zeroed
// CHECK-SAME: (%[[A:.*]]: memref<?x?x?xf16>, %[[B:.*]]: memref<?x?x?xf16>, %[[C:.*]]: memref<?x?x?xf16>)
// CHECK-DAG: %[[NB:.*]] = memref.dim %[[A]], %c0 : memref<?x?x?xf16>
// CHECK-DAG: %[[M:.*]] = memref.dim %[[A]], %c1 : memref<?x?x?xf16>
// CHECK-DAG: %[[N:.*]] = memref.dim %[[B]], %c2 : memref<?x?x?xf16>
// CHECK-DAG: %[[GM:.*]] = arith.ceildivui %[[M]], %c128 : index
// CHECK-DAG: %[[GN:.*]] = arith.ceildivui %[[N]], %c128 : index
// CHECK: %[[ROWS:.*]] = arith.muli %[[NB]], %[[GM]] : index
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [%[[ROWS]], %[[GN]]] : block
// CHECK: %[[BATCH:.*]] = arith.divui %[[BM]], %[[GM]] : index
// CHECK: %[[TM:.*]] = arith.remui %[[BM]], %[[GM]] : index
// CHECK: %[[AS:.*]] = croq.alloc : !croq.tile<1x128x64xf16, shared, swizzle = 128>
// CHECK: %[[BS:.*]] = croq.alloc : !croq.tile<1x64x128xf16, shared, swizzle = 128>
// CHECK: %[[CS:.*]] = croq.alloc : !croq.tile<1x128x128xf16, shared, swizzle = 128>
// CHECK: scf.for %[[K:.*]] = %c0 to
// CHECK: %[[AV:.*]] = croq.subspan %[[A]] [1, 128, 64] at [%[[BATCH]], %[[TM]], %[[K]]] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
// CHECK: croq.copy tma zfill swizzle = 128 %[[AV]] -> %[[AS]]
// CHECK: %[[A2:.*]] = croq.span_as %[[AS]] : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: croq.mma.load %[[A2]]
// CHECK: %[[BV:.*]] = croq.subspan %[[B]] [1, 64, 128] at [%[[BATCH]], %[[K]], %[[BN]]]
// CHECK: croq.copy tma zfill swizzle = 128 %[[BV]] -> %[[BS]]
// CHECK: croq.span_as %[[BS]]
// CHECK: croq.mma row col
// CHECK: %[[CV:.*]] = croq.subspan %[[C]] [1, 128, 128] at [%[[BATCH]], %[[TM]], %[[BN]]] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
// CHECK: %[[C2:.*]] = croq.span_as %[[CS]] : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
// CHECK: croq.mma.store %{{.*}} -> %[[C2]]
// CHECK: croq.copy tma async swizzle = 128 %[[CS]] -> %[[CV]]
func.func @zeroed(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%c : memref<?x?x?xf16>)
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>)
  return
}

// -----

// Transposed operands through indexing_maps (A stored K x M, B N x K per
// matrix), and no fill: the output's element of the block's matrix is
// added in registers.
// CHECK-LABEL: func.func @transposed_accumulate
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [%{{.*}}, 3] : block
// CHECK: %[[BATCH:.*]] = arith.divui %[[BM]], %c2 : index
// CHECK: %[[TM:.*]] = arith.remui %[[BM]], %c2 : index
// CHECK: croq.subspan %{{.*}} [1, 64, 128] at [%[[BATCH]], %{{.*}}, %[[TM]]] : memref<?x256x200xbf16> -> !croq.view<1x64x128xbf16>
// CHECK: croq.subspan %{{.*}} [1, 128, 64] at [%[[BATCH]], %[[BN]], %{{.*}}] : memref<?x300x256xbf16> -> !croq.view<1x128x64xbf16>
// CHECK: croq.mma col row
// CHECK: %[[CV:.*]] = croq.subspan %{{.*}} [1, 128, 128] at [%[[BATCH]], %[[TM]], %[[BN]]]
// CHECK: croq.mma.map
// CHECK: croq.read %[[CV]][%c0, %{{.*}}, %{{.*}}] : !croq.view<1x128x128xf32>
func.func @transposed_accumulate(%a: memref<?x256x200xbf16>, %b: memref<?x300x256xbf16>, %c: memref<?x200x300xf32>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%a, %b : memref<?x256x200xbf16>, memref<?x300x256xbf16>) outs(%c : memref<?x200x300xf32>)
  return
}

// -----

// The elementwise consumer over (b, m, n): a bias per column (the same for
// every matrix) read into registers, a residual tile read from the block's
// matrix; the temporary is gone.
// CHECK-LABEL: func.func @fused
// CHECK-NOT: memref.alloc
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in
// CHECK: %[[BATCH:.*]] = arith.divui %[[BM]]
// CHECK: %[[TM:.*]] = arith.remui %[[BM]]
// CHECK: %[[RV:.*]] = croq.subspan %[[RES:.*]] [1, 128, 128] at [%[[BATCH]], %[[TM]], %[[BN]]] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
// CHECK: croq.vec.map
// CHECK: croq.mma.map
// CHECK: croq.read %[[RV]][%c0, %{{.*}}, %{{.*}}] : !croq.view<1x128x128xf16>
// CHECK: croq.copy tma async
func.func @fused(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %bias: memref<?xf32>, %res: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nb = memref.dim %a, %c0 : memref<?x?x?xf16>
  %m = memref.dim %a, %c1 : memref<?x?x?xf16>
  %n = memref.dim %b, %c2 : memref<?x?x?xf16>
  %tmp = memref.alloc(%nb, %m, %n) : memref<?x?x?xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%tmp : memref<?x?x?xf32>)
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%tmp : memref<?x?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (n)>, affine_map<(b, m, n) -> (b, m, n)>, affine_map<(b, m, n) -> (b, m, n)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%tmp, %bias, %res : memref<?x?x?xf32>, memref<?xf32>, memref<?x?x?xf16>) outs(%out : memref<?x?x?xf16>) {
  ^bb0(%x: f32, %bv: f32, %r: f16, %o: f16):
    %y = arith.addf %x, %bv : f32
    %rf = arith.extf %r : f16 to f32
    %s = arith.addf %y, %rf : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %tmp : memref<?x?x?xf32>
  return
}
