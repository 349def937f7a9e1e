// RUN: croq-opt %s --convert-linalg-to-croq --canonicalize -split-input-file | FileCheck %s
// RUN: croq-opt %s --convert-linalg-to-croq="stream-k=1" --canonicalize -split-input-file | FileCheck %s --check-prefix=NEVER
// RUN: croq-opt %s --convert-linalg-to-croq="stream-k=2 tile-m=128 tile-n=192" --canonicalize -split-input-file | FileCheck %s --check-prefix=FORCED

// 640 x 8192 x 8192 in 128x256 tiles: 5 x 32 = 160 tiles on 132 SMs. The
// stream-K form computes one whole wave of them, 26 whole columns of
// tiles (130 tiles, 128 K steps each), in the persistent kernel, and
// spreads the 6 columns left (30 tiles, 3840 K steps) over 128 blocks of
// 30 steps; a tile's 128 steps meet at most 128 / 30 + 2 = 6 ranges, so
// the workspace has 6 slots of 5 x 128 rows of 6 x 256 columns.
// CHECK-LABEL: func.func @partial_wave
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [5, 26] : block attributes {croq.consumers = 2 : i64, croq.persistent = true}
// CHECK: croq.mma.fill {{.*}} : !croq.acc<128x256xf32>
// CHECK: %[[WS:.*]] = gpu.alloc () : memref<3840x1536xf32>
// Block p takes K steps [30 p, min(30 p + 30, 3840)) of the tiles left,
// numbered down their columns: tiles [30 p / 128, (end - 1) / 128 + 1).
// CHECK: croq.parallel (%[[P:.*]]) in [128] : block attributes {croq.consumers = 2 : i64, croq.persistent = false}
// CHECK: croq.alloc : !croq.tile<128x64xf32, shared, swizzle = 128>
// CHECK: %[[START:.*]] = arith.muli %[[P]], %c30
// CHECK: %[[END0:.*]] = arith.addi %[[START]], %c30
// CHECK: %[[END:.*]] = arith.minui %[[END0]], %c3840
// CHECK: %[[FIRST:.*]] = arith.divui %[[START]], %c128
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %{{.*}} step %c1 {
// CHECK: %[[TSTART:.*]] = arith.muli %[[T]], %c128
// CHECK: %[[FROM:.*]] = arith.maxui %[[START]], %[[TSTART]]
// CHECK: %[[ROW:.*]] = arith.remui %[[T]], %c5
// CHECK: %[[COL:.*]] = arith.divui %[[T]], %c5
// The tile's column past the whole ones.
// CHECK: %[[BN:.*]] = arith.addi %[[COL]], %c26
// CHECK: scf.for
// CHECK: croq.subspan %arg1 [64, 256] at [%{{.*}}, %[[BN]]]
// The partial goes to slot p - (the block holding the tile's first step).
// CHECK: %[[OWNER:.*]] = arith.divui %[[TSTART]], %c30
// CHECK: %[[SLOT:.*]] = arith.subi %[[P]], %[[OWNER]]
// CHECK: %[[SLOTROWS:.*]] = arith.muli %[[SLOT]], %c5
// CHECK: %[[SLOTROW:.*]] = arith.addi %[[SLOTROWS]], %[[ROW]]
// An f32 partial of 128x256 is stored in four 64-column parts.
// CHECK: croq.mma.slice %{{.*}}[0] : !croq.acc<128x256xf32> -> !croq.acc<128x64xf32>
// CHECK: croq.subspan %[[WS]] [128, 64] at [%[[SLOTROW]], %{{.*}}] : memref<3840x1536xf32> -> !croq.view<128x64xf32>
// CHECK: croq.copy tma async
// CHECK-COUNT-3: croq.mma.slice
// The reduction of the 6 x 256 columns left (48 groups of 32 columns, 40
// of 16 rows), each block summing the slots of its tile: from the block
// of its first step to that of its last. (At 576 rows, the same tiles,
// the model takes one wave of 192x192 tiles instead.)
// CHECK: croq.parallel (%[[I:.*]], %[[J:.*]]) in [40, 48] : block {
// CHECK: %[[TM:.*]] = arith.divui %[[I]], %c8
// CHECK: %[[TN:.*]] = arith.divui %[[J]], %c8
// CHECK: %[[TCOL:.*]] = arith.muli %[[TN]], %c5
// CHECK: %[[TT:.*]] = arith.addi %[[TCOL]], %[[TM]]
// CHECK: %[[F:.*]] = arith.muli %[[TT]], %c128
// CHECK: %[[L:.*]] = arith.addi %[[F]], %c127
// CHECK: %[[LO:.*]] = arith.divui %[[L]], %c30
// CHECK: %[[FO:.*]] = arith.divui %[[F]], %c30
// CHECK: %[[D:.*]] = arith.subi %[[LO]], %[[FO]]
// CHECK: %[[N:.*]] = arith.addi %[[D]], %c1
// Output column group 26 x 256 / 32 = 208 on.
// CHECK: %[[OJ:.*]] = arith.addi %[[J]], %c208
// CHECK: croq.subspan %arg2 [16, 32] at [%[[I]], %[[OJ]]]
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c4
// CHECK: croq.subspan %[[WS]] [16, 32] at [%{{.*}}, %[[J]]]
// CHECK: gpu.dealloc %[[WS]]
// Without the stream-K form: one kernel, no workspace.
// NEVER-LABEL: func.func @partial_wave
// NEVER-NOT: gpu.alloc
// NEVER: croq.parallel
// NEVER-NOT: croq.parallel
// NEVER: return
func.func @partial_wave(%a: memref<640x8192xf16>, %b: memref<8192x8192xf16>, %c: memref<640x8192xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<640x8192xf16>)
  linalg.matmul ins(%a, %b : memref<640x8192xf16>, memref<8192x8192xf16>) outs(%c : memref<640x8192xf16>)
  return
}

// -----

// Dynamic extents: the host code computes the plan, and launches the
// kernel of the whole waves only where there is one.
// FORCED-LABEL: func.func @dynamic
// FORCED: %[[TILES:.*]] = arith.muli
// FORCED: %[[WAVES:.*]] = arith.divui %[[TILES]], %c132 : index
// FORCED: %[[WAVETILES:.*]] = arith.muli %[[WAVES]], %c132 : index
// FORCED: %[[WHOLE:.*]] = arith.divui %[[WAVETILES]], %{{.*}} : index
// FORCED: %[[ANY:.*]] = arith.cmpi ugt, %[[WHOLE]], %c0 : index
// FORCED: scf.if %[[ANY]] {
// FORCED: croq.parallel (%{{.*}}, %{{.*}}) in [%{{.*}}, %[[WHOLE]]] : block attributes {croq.consumers = 2 : i64, croq.persistent = true}
// FORCED: croq.subspan %arg1 [64, 192] at
// FORCED: }
// FORCED: %[[WS:.*]] = gpu.alloc (%{{.*}}, %{{.*}}) : memref<?x?xf32>
// FORCED: croq.parallel (%{{.*}}) in [%{{.*}}] : block attributes {croq.consumers = 2 : i64, croq.persistent = false}
// FORCED: croq.tile<128x96xf32, shared, swizzle = 128>
// FORCED: croq.parallel (%{{.*}}, %{{.*}}) in [%{{.*}}, %{{.*}}] : block {
// FORCED: gpu.dealloc %[[WS]]
func.func @dynamic(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<?x?xf16>)
  linalg.matmul ins(%a, %b : memref<?x?xf16>, memref<?x?xf16>) outs(%c : memref<?x?xf16>)
  return
}

// -----

// 8-bit float products take no stream-K form, forced or not (its ranges
// with promoted partial sums were not measured): no workspace.
// FORCED-LABEL: func.func @f8_no_stream_k
// FORCED-NOT: gpu.alloc
// FORCED: return
func.func @f8_no_stream_k(%a: memref<576x8192xf8E4M3FN>, %b: memref<8192x8192xf8E4M3FN>, %c: memref<576x8192xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<576x8192xf8E4M3FN>, memref<8192x8192xf8E4M3FN>) outs(%c : memref<576x8192xf16>)
  return
}
