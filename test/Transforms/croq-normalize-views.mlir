// RUN: croq-opt %s -split-input-file -croq-normalize-views | FileCheck %s --implicit-check-not=croq.chunkat --implicit-check-not=croq.subspan
// RUN: croq-opt %S/Inputs/croq-normalize-views-unknown-size.mlir -split-input-file -croq-normalize-views -verify-diagnostics

// Every chunkat and subspan, and every chain of views, becomes one croq.view
// of a tensor or tile. Views that cannot be resolved are errors: see
// Inputs/croq-normalize-views-unknown-size.mlir.

// The counts come from the enclosing parallel region: 64 / 4 and 128 / 8.
// CHECK-LABEL: func.func @chunkat_counts_from_parallel(
// CHECK-SAME: %[[LHS:[^:]*]]: memref<64x128xi32>
// CHECK: croq.parallel (%[[TR:.*]], %[[TC:.*]]) in [4, 8] : block {
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[TR]], %[[C16]] : index
// CHECK: %[[C16B:.*]] = arith.constant 16 : index
// CHECK: %[[COL:.*]] = arith.muli %[[TC]], %[[C16B]] : index
// CHECK: %[[V:.*]] = croq.view %[[LHS]] [16, 16] from [%[[ROW]], %[[COL]]] : memref<64x128xi32> -> !croq.view<16x16xi32>
// CHECK: croq.copy dma %[[V]]
func.func @chunkat_counts_from_parallel(%lhs: memref<64x128xi32>, %t: !croq.tile<16x16xi32, shared>) {
  croq.parallel (%tr, %tc) in [4, 8] : block {
    %v = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    croq.copy dma %v -> %t : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
  }
  return
}

// -----

// The counts come from the enclosing foreach: 16 / 2 and 16 / 4.
// CHECK-LABEL: func.func @chunkat_counts_from_foreach(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<16x16xf32, local>
// CHECK: croq.foreach (%[[I:.*]], %[[J:.*]]) in [2, 4] {
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[C8]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[COL:.*]] = arith.muli %[[J]], %[[C4]] : index
// CHECK: %[[V:.*]] = croq.view %[[T]] [8, 4] from [%[[ROW]], %[[COL]]] : !croq.tile<16x16xf32, local> -> !croq.view<8x4xf32, local>
// CHECK: croq.write %{{.*}}, %[[V]][%[[I]], %[[J]]]
func.func @chunkat_counts_from_foreach(%t: !croq.tile<16x16xf32, local>, %x: f32) {
  croq.foreach (%i, %j) in [2, 4] {
    %v = croq.chunkat %t[%i, %j] : !croq.tile<16x16xf32, local> -> !croq.view<8x4xf32, local>
    croq.write %x, %v[%i, %j] : !croq.view<8x4xf32, local>
  }
  return
}

// -----

// Explicit counts; `_` keeps the rows whole at offset 0. The view of a shared
// tile keeps the tile's swizzle.
// CHECK-LABEL: func.func @chunkat_explicit_counts(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<64x64xf16, shared, swizzle = 128>, %[[K:[^:]*]]: index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[COL:.*]] = arith.muli %[[K]], %[[C16]] : index
// CHECK: %[[V:.*]] = croq.view %[[T]] [64, 16] from [0, %[[COL]]] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
// CHECK: croq.mma.load %[[V]]
func.func @chunkat_explicit_counts(%t: !croq.tile<64x64xf16, shared, swizzle = 128>, %k: index) {
  croq.parallel (%b) in [1] : block {
    %w = croq.chunkat %t[_, %k] of [1, 4] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
    %a = croq.mma.load %w : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
  }
  return
}

// -----

// Tile (%i, %j) of a 16x16 grid with step 32 starts at element (32i, 32j).
// CHECK-LABEL: func.func @subspan_with_step(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[C32]] : index
// CHECK: %[[C32B:.*]] = arith.constant 32 : index
// CHECK: %[[COL:.*]] = arith.muli %[[J]], %[[C32B]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [%[[ROW]], %[[COL]]] : memref<128x128xf32> -> !croq.view<16x16xf32>
// CHECK: croq.copy dma zfill %[[V]]
func.func @subspan_with_step(%m: memref<128x128xf32>, %i: index, %j: index, %t: !croq.tile<16x16xf32, shared>) {
  %w = croq.subspan %m [16, 16] step [32, 32] at [%i, %j] : memref<128x128xf32> -> !croq.view<16x16xf32>
  croq.copy dma zfill %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// Without a step, tiles are packed: the step is the tile size. A constant
// coordinate folds into a constant offset.
// CHECK-LABEL: func.func @subspan_packed(
// CHECK-SAME: %[[M:[^:]*]]: memref<?x?xf16>, %[[K:[^:]*]]: index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[COL:.*]] = arith.muli %[[K]], %[[C64]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [128, 64] from [256, %[[COL]]] : memref<?x?xf16> -> !croq.view<128x64xf16>
// CHECK: croq.copy tma %[[V]]
func.func @subspan_packed(%m: memref<?x?xf16>, %k: index) {
  croq.parallel (%b) in [1] : block {
    %c2 = arith.constant 2 : index
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %v = croq.subspan %m [128, 64] at [%c2, %k] : memref<?x?xf16> -> !croq.view<128x64xf16>
    croq.copy tma %v -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// subspan -> chunkat -> view: one window of the tensor. The chunk may only
// see its subspan (bounds i*32 + 32 and j*64 + 64); the last view stays
// inside the chunk and adds no bound.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index
// CHECK: croq.parallel (%[[A:.*]], %[[B:.*]]) in [2, 4] : block {
// CHECK: %[[IS:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[JS:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK: %[[AS:.*]] = arith.muli %[[A]], %{{.*}} : index
// CHECK: %[[BS:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK: %[[R0:.*]] = arith.addi %[[IS]], %[[AS]] : index
// CHECK: %[[E0:.*]] = arith.addi %[[IS]], %{{.*}} : index
// CHECK: %[[R1:.*]] = arith.addi %[[JS]], %[[BS]] : index
// CHECK: %[[E1:.*]] = arith.addi %[[JS]], %{{.*}} : index
// CHECK: %[[O0:.*]] = arith.addi %[[R0]], %{{.*}} : index
// CHECK: %[[O1:.*]] = arith.addi %[[R1]], %{{.*}} : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [8, 8] from [%[[O0]], %[[O1]]] within [%[[E0]], %[[E1]]] : memref<128x128xf32> -> !croq.view<8x8xf32>
// CHECK-NEXT: croq.copy dma zfill %[[V]]
func.func @chain(%m: memref<128x128xf32>, %i: index, %j: index, %t: !croq.tile<16x16xf32, shared>) {
  croq.parallel (%a, %b) in [2, 4] : block {
    %s = croq.subspan %m [32, 64] at [%i, %j] : memref<128x128xf32> -> !croq.view<32x64xf32>
    %c = croq.chunkat %s[%a, %b] : !croq.view<32x64xf32> -> !croq.view<16x16xf32>
    %d = croq.view %c [8, 8] from [1, 2] : !croq.view<16x16xf32> -> !croq.view<8x8xf32>
    croq.copy dma zfill %d -> %t : !croq.view<8x8xf32> -> !croq.tile<16x16xf32, shared>
  }
  return
}

// -----

// A view of a view of a shared tile: offsets add up; the inner view covers
// the whole tile, so no bounds are needed.
// CHECK-LABEL: func.func @view_chain_of_shared_tile(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<64x64xf16, shared>
// CHECK: %[[V:.*]] = croq.view %[[T]] [16, 16] from [40, 8] : !croq.tile<64x64xf16, shared> -> !croq.view<16x16xf16, shared>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @view_chain_of_shared_tile(%t: !croq.tile<64x64xf16, shared>, %l: !croq.tile<16x16xf16, local>) {
  %a = croq.view %t [32, 32] from [32, 0] : !croq.tile<64x64xf16, shared> -> !croq.view<32x32xf16, shared>
  %b = croq.view %a [16, 16] from [8, 8] : !croq.view<32x32xf16, shared> -> !croq.view<16x16xf16, shared>
  croq.copy dma %b -> %l : !croq.view<16x16xf16, shared> -> !croq.tile<16x16xf16, local>
  return
}

// -----

// A dynamic tensor split over a dynamic grid: chunk sizes are
// ceildiv(memref.dim, count) at run time.
// CHECK-LABEL: func.func @dynamic_shapes(
// CHECK-SAME: %[[M:[^:]*]]: memref<?x?xf16>, %[[N:[^:]*]]: index
// CHECK: croq.parallel (%[[I:.*]], %[[J:.*]]) in [%[[N]], 4] : block {
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D0:.*]] = memref.dim %[[M]], %[[C0]] : memref<?x?xf16>
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[D1:.*]] = memref.dim %[[M]], %[[C1]] : memref<?x?xf16>
// CHECK: %[[S0:.*]] = arith.ceildivui %[[D0]], %[[N]] : index
// CHECK: %[[O0:.*]] = arith.muli %[[I]], %[[S0]] : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[S1:.*]] = arith.ceildivui %[[D1]], %[[C4]] : index
// CHECK: %[[O1:.*]] = arith.muli %[[J]], %[[S1]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [%[[S0]], %[[S1]]] from [%[[O0]], %[[O1]]] : memref<?x?xf16> -> !croq.view<?x?xf16>
// CHECK: croq.copy dma zfill %[[V]]
func.func @dynamic_shapes(%m: memref<?x?xf16>, %n: index) {
  croq.parallel (%i, %j) in [%n, 4] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %v = croq.chunkat %m[%i, %j] : memref<?x?xf16> -> !croq.view<?x?xf16>
    croq.copy dma zfill %v -> %t : !croq.view<?x?xf16> -> !croq.tile<64x64xf16, shared>
  }
  return
}

// -----

// A dynamic-size subspan, then a chunk of it: the chunk size is
// ceildiv(%n, 2), bounded by the end of the subspan.
// CHECK-LABEL: func.func @chunk_of_dynamic_subspan(
// CHECK-SAME: %[[M:[^:]*]]: memref<1024xf32>, %[[N:[^:]*]]: index, %[[I:[^:]*]]: index, %[[K:[^:]*]]: index
// CHECK: %[[START:.*]] = arith.muli %[[I]], %[[N]] : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[SIZE:.*]] = arith.ceildivui %[[N]], %[[C2]] : index
// CHECK: %[[OFF:.*]] = arith.muli %[[K]], %[[SIZE]] : index
// CHECK: %[[O:.*]] = arith.addi %[[START]], %[[OFF]] : index
// CHECK: %[[END:.*]] = arith.addi %[[START]], %[[N]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [%[[SIZE]]] from [%[[O]]] within [%[[END]]] : memref<1024xf32> -> !croq.view<?xf32>
// CHECK-NEXT: croq.copy dma zfill %[[V]]
func.func @chunk_of_dynamic_subspan(%m: memref<1024xf32>, %n: index, %i: index, %k: index, %t: !croq.tile<64xf32, shared>) {
  %s = croq.subspan %m [%n] at [%i] : memref<1024xf32> -> !croq.view<?xf32>
  %c = croq.chunkat %s[%k] of [2] : !croq.view<?xf32> -> !croq.view<?xf32>
  croq.copy dma zfill %c -> %t : !croq.view<?xf32> -> !croq.tile<64xf32, shared>
  return
}

// -----

// A croq.view of a tensor is already normal; an unused one is dropped.
// CHECK-LABEL: func.func @view_is_kept(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>, %{{[^:]*}}: !croq.tile<16x16xf32, shared>, %[[C:[^:]*]]: index
// CHECK-NEXT: %[[V:.*]] = croq.view %[[M]] [16, 16] from [37, %[[C]]] : memref<128x128xf32> -> !croq.view<16x16xf32>
// CHECK-NEXT: croq.copy dma zfill %[[V]]
// CHECK-NEXT: return
func.func @view_is_kept(%m: memref<128x128xf32>, %t: !croq.tile<16x16xf32, shared>, %c: index) {
  %p = croq.view %m [16, 16] from [37, %c] : memref<128x128xf32> -> !croq.view<16x16xf32>
  croq.copy dma zfill %p -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  %unused = croq.view %m [16, 16] from [0, 0] : memref<128x128xf32> -> !croq.view<16x16xf32>
  return
}
