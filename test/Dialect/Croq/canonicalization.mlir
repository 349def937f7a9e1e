// RUN: croq-opt %s -canonicalize -split-input-file | FileCheck %s

// View ops are Pure: every view below feeds a croq.copy so that it stays.

//===----------------------------------------------------------------------===//
// Chains of views fold into one croq.view
//===----------------------------------------------------------------------===//

// Chunk (%a, %b) of a 2x4 grid over the 32x64 subspan at (%i, %j): offsets
// i*32 + a*16 and j*64 + b*16; the chunk may only see the subspan.
// CHECK-LABEL: func.func @chunkat_of_subspan(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[T:[^:]*]]: !croq.tile<16x16xf32, shared>
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: croq.parallel (%[[A:.*]], %[[B:.*]]) in [2, 4] : block {
// CHECK-NOT: croq.subspan
// CHECK-NOT: croq.chunkat
// CHECK: %[[IS:.*]] = arith.muli %[[I]], %[[C32]] : index
// CHECK: %[[JS:.*]] = arith.muli %[[J]], %[[C64]] : index
// CHECK: %[[AS:.*]] = arith.muli %[[A]], %[[C16]] : index
// CHECK: %[[BS:.*]] = arith.muli %[[B]], %[[C16]] : index
// CHECK: %[[O0:.*]] = arith.addi %[[IS]], %[[AS]] : index
// CHECK: %[[E0:.*]] = arith.addi %[[IS]], %[[C32]] : index
// CHECK: %[[O1:.*]] = arith.addi %[[JS]], %[[BS]] : index
// CHECK: %[[E1:.*]] = arith.addi %[[JS]], %[[C64]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [%[[O0]], %[[O1]]] within [%[[E0]], %[[E1]]] : memref<128x128xf32> -> !croq.view<16x16xf32>
// CHECK: croq.copy dma %[[V]] -> %[[T]]
func.func @chunkat_of_subspan(%m: memref<128x128xf32>, %i: index, %j: index, %t: !croq.tile<16x16xf32, shared>) {
  croq.parallel (%a, %b) in [2, 4] : block {
    %s = croq.subspan %m [32, 64] at [%i, %j] : memref<128x128xf32> -> !croq.view<32x64xf32>
    %c = croq.chunkat %s[%a, %b] : !croq.view<32x64xf32> -> !croq.view<16x16xf32>
    croq.copy dma %c -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  }
  return
}

// -----

// A window that stays inside the outer one needs no bounds.
// CHECK-LABEL: func.func @view_of_view_inside(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>
// CHECK-NOT: arith.
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [12, 18] : memref<128x128xf32> -> !croq.view<16x16xf32>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @view_of_view_inside(%m: memref<128x128xf32>, %t: !croq.tile<16x16xf32, shared>) {
  %v = croq.view %m [64, 64] from [8, 16] : memref<128x128xf32> -> !croq.view<64x64xf32>
  %w = croq.view %v [16, 16] from [4, 2] : !croq.view<64x64xf32> -> !croq.view<16x16xf32>
  croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// Rows 56..71 of the outer window run past its edge at 64: the folded view
// is bounded at 8 + 64 = 72. Columns stay inside and are bounded by the
// tensor.
// CHECK-LABEL: func.func @view_of_view_past_edge(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [64, 18] within [72, 128] : memref<128x128xf32> -> !croq.view<16x16xf32>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @view_of_view_past_edge(%m: memref<128x128xf32>, %t: !croq.tile<16x16xf32, shared>) {
  %v = croq.view %m [64, 64] from [8, 16] : memref<128x128xf32> -> !croq.view<64x64xf32>
  %w = croq.view %v [16, 16] from [56, 2] : !croq.view<64x64xf32> -> !croq.view<16x16xf32>
  croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// The same on a tensor of dynamic shape: the column bound is read with
// memref.dim.
// CHECK-LABEL: func.func @view_of_view_past_edge_dynamic_tensor(
// CHECK-SAME: %[[M:[^:]*]]: memref<?x?xf32>
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = memref.dim %[[M]], %[[C1]] : memref<?x?xf32>
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [64, 18] within [72, %[[N]]] : memref<?x?xf32> -> !croq.view<16x16xf32>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @view_of_view_past_edge_dynamic_tensor(%m: memref<?x?xf32>, %t: !croq.tile<16x16xf32, shared>) {
  %v = croq.view %m [64, 64] from [8, 16] : memref<?x?xf32> -> !croq.view<64x64xf32>
  %w = croq.view %v [16, 16] from [56, 2] : !croq.view<64x64xf32> -> !croq.view<16x16xf32>
  croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// Both windows carry bounds. Rows: min(%e, 8 + 20) and, since %r may put
// the inner window past the outer one's edge, 8 + 64. Columns:
// min(100, 16 + %e); 2 + 16 <= 64 adds nothing.
// CHECK-LABEL: func.func @view_of_view_within(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>, %[[T:[^:]*]]: !croq.tile<16x16xf32, shared>, %[[E:[^:]*]]: index, %[[R:[^:]*]]: index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C28:.*]] = arith.constant 28 : index
// CHECK-DAG: %[[C72:.*]] = arith.constant 72 : index
// CHECK-DAG: %[[C100:.*]] = arith.constant 100 : index
// CHECK: %[[O0:.*]] = arith.addi %[[R]], %[[C8]] : index
// CHECK: %[[B0:.*]] = arith.minsi %[[E]], %[[C28]] : index
// CHECK: %[[B0E:.*]] = arith.minsi %[[B0]], %[[C72]] : index
// CHECK: %[[E16:.*]] = arith.addi %[[E]], %[[C16]] : index
// CHECK: %[[B1:.*]] = arith.minsi %[[E16]], %[[C100]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [%[[O0]], 18] within [%[[B0E]], %[[B1]]] : memref<128x128xf32> -> !croq.view<16x16xf32>
// CHECK-NEXT: croq.copy dma %[[V]] -> %[[T]]
func.func @view_of_view_within(%m: memref<128x128xf32>, %t: !croq.tile<16x16xf32, shared>, %e: index, %r: index) {
  %v = croq.view %m [64, 64] from [8, 16] within [%e, 100] : memref<128x128xf32> -> !croq.view<64x64xf32>
  %w = croq.view %v [16, 16] from [%r, 2] within [20, %e] : !croq.view<64x64xf32> -> !croq.view<16x16xf32>
  croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// A three-view chain folds all the way to the tensor.
// CHECK-LABEL: func.func @view_chain_of_three(
// CHECK-SAME: %[[M:[^:]*]]: memref<128x128xf32>
// CHECK-NOT: croq.subspan
// CHECK: %[[V:.*]] = croq.view %[[M]] [8, 8] from [35, 1] : memref<128x128xf32> -> !croq.view<8x8xf32>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @view_chain_of_three(%m: memref<128x128xf32>, %t: !croq.tile<8x8xf32, local>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %a = croq.subspan %m [32, 32] at [%c1, %c0] : memref<128x128xf32> -> !croq.view<32x32xf32>
  %b = croq.view %a [16, 16] from [2, 0] : !croq.view<32x32xf32> -> !croq.view<16x16xf32>
  %c = croq.view %b [8, 8] from [1, 1] : !croq.view<16x16xf32> -> !croq.view<8x8xf32>
  croq.copy dma %c -> %t : !croq.view<8x8xf32> -> !croq.tile<8x8xf32, local>
  return
}

// -----

// A chunk of a view of a shared tile becomes a view of the tile, with the
// tile's swizzle. The tile's own rows bound the first dimension.
// CHECK-LABEL: func.func @chunkat_of_shared_tile_view(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<128x64xf16, shared, swizzle = 128>, %[[I:[^:]*]]: index, %[[K:[^:]*]]: index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[R:.*]] = arith.muli %[[I]], %[[C64]] : index
// CHECK: %[[KS:.*]] = arith.muli %[[K]], %[[C64]] : index
// CHECK: %[[KC:.*]] = arith.muli %[[K]], %[[C16]] : index
// CHECK: %[[COL:.*]] = arith.addi %[[KS]], %[[KC]] : index
// CHECK: %[[END:.*]] = arith.addi %[[KS]], %[[C64]] : index
// CHECK: %[[V:.*]] = croq.view %[[T]] [64, 16] from [%[[R]], %[[COL]]] within [128, %[[END]]] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @chunkat_of_shared_tile_view(%t: !croq.tile<128x64xf16, shared, swizzle = 128>, %i: index, %k: index, %g: memref<64x16xf16>) {
  %s = croq.subspan %t [64, 64] at [%i, %k] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16, shared, swizzle = 128>
  %c = croq.chunkat %s[_, %k] of [1, 4] : !croq.view<64x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
  croq.copy dma %c -> %g : !croq.view<64x16xf16, shared, swizzle = 128> -> memref<64x16xf16>
  return
}

// -----

// A chunk count taken from a dynamic parallel extent: the chunk size is
// ceildiv(dim, %n) at run time.
// CHECK-LABEL: func.func @view_of_dynamic_chunk(
// CHECK-SAME: %[[M:[^:]*]]: memref<?x128xf32>, %[[N:[^:]*]]: index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: croq.parallel (%[[I:.*]], %[[J:.*]]) in [%[[N]], 8] : block {
// CHECK: %[[DIM:.*]] = memref.dim %[[M]], %[[C0]] : memref<?x128xf32>
// CHECK: %[[SIZE:.*]] = arith.ceildivui %[[DIM]], %[[N]] : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[SIZE]] : index
// CHECK: %[[COL:.*]] = arith.muli %[[J]], %[[C16]] : index
// CHECK: %[[END:.*]] = arith.addi %[[ROW]], %[[SIZE]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [16, 16] from [%[[ROW]], %[[COL]]] within [%[[END]], 128] : memref<?x128xf32> -> !croq.view<16x16xf32>
// CHECK-NEXT: croq.copy dma %[[V]]
func.func @view_of_dynamic_chunk(%m: memref<?x128xf32>, %n: index, %t: !croq.tile<16x16xf32, shared>) {
  croq.parallel (%i, %j) in [%n, 8] : block {
    %a = croq.chunkat %m[%i, %j] : memref<?x128xf32> -> !croq.view<?x16xf32>
    %c = croq.view %a [16, 16] from [0, 0] : !croq.view<?x16xf32> -> !croq.view<16x16xf32>
    croq.copy dma %c -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  }
  return
}

// -----

// The folded chunk size is the constant 8, but the result dimension is
// dynamic, so the size stays an operand.
// CHECK-LABEL: func.func @dynamic_dim_with_constant_size(
// CHECK-SAME: %[[M:[^:]*]]: memref<64x64xf32>, %[[I:[^:]*]]: index
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[C8]] : index
// CHECK: %[[V:.*]] = croq.view %[[M]] [%[[C8]], 16] from [%[[ROW]], 0] within [16, 64] : memref<64x64xf32> -> !croq.view<?x16xf32>
// CHECK-NEXT: croq.copy dma zfill %[[V]]
func.func @dynamic_dim_with_constant_size(%m: memref<64x64xf32>, %i: index, %t: !croq.tile<8x16xf32, shared>) {
  %c16 = arith.constant 16 : index
  %v = croq.view %m [%c16, 16] from [0, 0] : memref<64x64xf32> -> !croq.view<?x16xf32>
  %w = croq.chunkat %v[%i, _] of [2, 1] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
  croq.copy dma zfill %w -> %t : !croq.view<?x16xf32> -> !croq.tile<8x16xf32, shared>
  return
}

//===----------------------------------------------------------------------===//
// Identities
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @identity_view(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<16x16xf32>, %[[T:[^:]*]]: !croq.tile<16x16xf32, shared>
// The whole view at offset 0 is the view itself.
// CHECK-NOT: croq.view
// CHECK: croq.copy dma %[[V]] -> %[[T]]
func.func @identity_view(%v: !croq.view<16x16xf32>, %t: !croq.tile<16x16xf32, shared>) {
  %w = croq.view %v [16, 16] from [0, 0] : !croq.view<16x16xf32> -> !croq.view<16x16xf32>
  croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// A window at offset 0 that is bounded is not the view itself.
// CHECK-LABEL: func.func @bounded_view_is_not_identity(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<16x16xf32>
// CHECK: %[[W:.*]] = croq.view %[[V]] [16, 16] from [0, 0] within [8, 16]
// CHECK: croq.copy dma zfill %[[W]]
func.func @bounded_view_is_not_identity(%v: !croq.view<16x16xf32>, %t: !croq.tile<16x16xf32, shared>) {
  %w = croq.view %v [16, 16] from [0, 0] within [8, 16] : !croq.view<16x16xf32> -> !croq.view<16x16xf32>
  croq.copy dma zfill %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// CHECK-LABEL: func.func @whole_chunk(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<16x16xf32>, %[[T:[^:]*]]: !croq.tile<16x16xf32, shared>
// CHECK-NOT: croq.chunkat
// CHECK: croq.copy dma %[[V]] -> %[[T]]
func.func @whole_chunk(%v: !croq.view<16x16xf32>, %t: !croq.tile<16x16xf32, shared>) {
  %w = croq.chunkat %v[_, _] : !croq.view<16x16xf32> -> !croq.view<16x16xf32>
  croq.copy dma %w -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// The whole chunk of a view op is that view op, not a new window.
// CHECK-LABEL: func.func @whole_chunk_of_chunk(
// CHECK: %[[A:.*]] = croq.chunkat %{{.*}}[%{{.*}}, _] of [4, 1] : memref<?x16xf32> -> !croq.view<?x16xf32>
// CHECK-NOT: croq.view
// CHECK: croq.copy dma zfill %[[A]]
func.func @whole_chunk_of_chunk(%m: memref<?x16xf32>, %i: index, %t: !croq.tile<16x16xf32, shared>) {
  %a = croq.chunkat %m[%i, _] of [4, 1] : memref<?x16xf32> -> !croq.view<?x16xf32>
  %b = croq.chunkat %a[_, _] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
  croq.copy dma zfill %b -> %t : !croq.view<?x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// CHECK-LABEL: func.func @span_as_of_span_as(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<8192xf16, shared>
// CHECK-NEXT: %[[S:.*]] = croq.span_as %[[T]] : !croq.tile<8192xf16, shared> -> !croq.tile<64x128xf16, shared>
// CHECK-NEXT: croq.copy dma %[[S]]
func.func @span_as_of_span_as(%t: !croq.tile<8192xf16, shared>, %g: memref<64x128xf16>) {
  %a = croq.span_as %t : !croq.tile<8192xf16, shared> -> !croq.tile<128x64xf16, shared>
  %b = croq.span_as %a : !croq.tile<128x64xf16, shared> -> !croq.tile<64x128xf16, shared>
  croq.copy dma %b -> %g : !croq.tile<64x128xf16, shared> -> memref<64x128xf16>
  return
}

// -----

// CHECK-LABEL: func.func @identity_span_as(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-NOT: croq.span_as
// CHECK: croq.copy dma %[[T]]
func.func @identity_span_as(%t: !croq.tile<64x64xf16, shared, swizzle = 128>, %g: memref<64x64xf16>) {
  %a = croq.span_as %t : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  croq.copy dma %a -> %g : !croq.tile<64x64xf16, shared, swizzle = 128> -> memref<64x64xf16>
  return
}

// -----

// A chain that comes back to the source's shape folds away entirely.
// CHECK-LABEL: func.func @span_as_round_trip(
// CHECK-SAME: %[[T:[^:]*]]: !croq.tile<64x64xf16, shared>
// CHECK-NOT: croq.span_as
// CHECK: croq.copy dma %[[T]]
func.func @span_as_round_trip(%t: !croq.tile<64x64xf16, shared>, %g: memref<64x64xf16>) {
  %a = croq.span_as %t : !croq.tile<64x64xf16, shared> -> !croq.tile<4096xf16, shared>
  %b = croq.span_as %a : !croq.tile<4096xf16, shared> -> !croq.tile<64x64xf16, shared>
  croq.copy dma %b -> %g : !croq.tile<64x64xf16, shared> -> memref<64x64xf16>
  return
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @identity_transpose(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<16x32xf32>, %[[T:[^:]*]]: !croq.tile<16x32xf32, local>
// CHECK-NOT: croq.transpose
// CHECK: croq.copy dma %[[V]] -> %[[T]] : !croq.view<16x32xf32> -> !croq.tile<16x32xf32, local>
func.func @identity_transpose(%v: !croq.view<16x32xf32>, %t: !croq.tile<16x32xf32, local>) {
  croq.transpose [0, 1] %v -> %t : !croq.view<16x32xf32> -> !croq.tile<16x32xf32, local>
  return
}

// -----

// CHECK-LABEL: func.func @identity_transpose_async(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<2x4x8xf16>, %[[T:[^:]*]]: !croq.tile<2x4x8xf16, shared>
// CHECK: %[[F:.*]] = croq.copy dma async %[[V]] -> %[[T]] : !croq.view<2x4x8xf16> -> !croq.tile<2x4x8xf16, shared>
// CHECK-NEXT: croq.wait %[[F]]
func.func @identity_transpose_async(%v: !croq.view<2x4x8xf16>, %t: !croq.tile<2x4x8xf16, shared>) {
  %f = croq.transpose async [0, 1, 2] %v -> %t : !croq.view<2x4x8xf16> -> !croq.tile<2x4x8xf16, shared>
  croq.wait %f
  return
}

// -----

// CHECK-LABEL: func.func @transpose_is_kept(
// CHECK: croq.transpose [1, 0] %{{.*}} -> %{{.*}} : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, local>
// [1, 0] moves elements, even on a square tile: no plain copy.
// CHECK-NOT: croq.copy
func.func @transpose_is_kept(%v: !croq.view<16x16xf32>, %t: !croq.tile<16x16xf32, local>) {
  croq.transpose [1, 0] %v -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, local>
  return
}

// -----

// CHECK-LABEL: func.func @zero_pad(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<8x8xf32>, %[[T:[^:]*]]: !croq.tile<8x8xf32, shared>
// CHECK-NOT: croq.pad
// CHECK: croq.copy dma %[[V]] -> %[[T]] : !croq.view<8x8xf32> -> !croq.tile<8x8xf32, shared>
func.func @zero_pad(%v: !croq.view<8x8xf32>, %t: !croq.tile<8x8xf32, shared>, %z: f32) {
  croq.pad low [0, 0] high [0, 0] interior [0, 0] %v -> %t value %z : !croq.view<8x8xf32> -> !croq.tile<8x8xf32, shared>
  return
}

// -----

// CHECK-LABEL: func.func @zero_pad_async(
// CHECK-SAME: %[[V:[^:]*]]: !croq.view<8xi32>, %[[T:[^:]*]]: !croq.tile<8xi32, shared>
// CHECK: %[[F:.*]] = croq.copy dma async %[[V]] -> %[[T]] : !croq.view<8xi32> -> !croq.tile<8xi32, shared>
// CHECK-NEXT: croq.wait %[[F]]
func.func @zero_pad_async(%v: !croq.view<8xi32>, %t: !croq.tile<8xi32, shared>, %z: i32) {
  %f = croq.pad async low [0] high [0] interior [0] %v -> %t value %z : !croq.view<8xi32> -> !croq.tile<8xi32, shared>
  croq.wait %f
  return
}

// -----

// CHECK-LABEL: func.func @pad_is_kept(
// CHECK: croq.pad low [0] high [0] interior [1] %{{.*}} -> %{{.*}} value %{{.*}} : !croq.view<8xf32> -> !croq.tile<15xf32, shared>
// Interior padding alone still pads: no plain copy.
// CHECK-NOT: croq.copy
func.func @pad_is_kept(%v: !croq.view<8xf32>, %t: !croq.tile<15xf32, shared>, %z: f32) {
  croq.pad low [0] high [0] interior [1] %v -> %t value %z : !croq.view<8xf32> -> !croq.tile<15xf32, shared>
  return
}

//===----------------------------------------------------------------------===//
// Views that stay
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @single_chunkat_is_kept(
// CHECK: croq.parallel
// CHECK-NEXT: %[[V:.*]] = croq.chunkat %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x128xi32> -> !croq.view<16x16xi32>
// A lone chunkat of a tensor is already normal: canonicalization does not
// turn it into a croq.view (croq-normalize-views does).
// CHECK-NOT: croq.view %
// CHECK: croq.copy dma %[[V]]
func.func @single_chunkat_is_kept(%lhs: memref<64x128xi32>, %t: !croq.tile<16x16xi32, shared>) {
  croq.parallel (%tr, %tc) in [4, 8] : block {
    %v = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    croq.copy dma %v -> %t : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
  }
  return
}

// -----

// CHECK-LABEL: func.func @single_subspan_is_kept(
// CHECK: %[[V:.*]] = croq.subspan %{{.*}} [16, 16] step [24, 24] at [%{{.*}}, %{{.*}}] : memref<64x64xf32> -> !croq.view<16x16xf32>
// A lone subspan of a tensor is kept as written.
// CHECK-NOT: croq.view %
// CHECK: croq.copy dma zfill %[[V]]
func.func @single_subspan_is_kept(%m: memref<64x64xf32>, %i: index, %t: !croq.tile<16x16xf32, shared>) {
  %v = croq.subspan %m [16, 16] step [24, 24] at [%i, %i] : memref<64x64xf32> -> !croq.view<16x16xf32>
  croq.copy dma zfill %v -> %t : !croq.view<16x16xf32> -> !croq.tile<16x16xf32, shared>
  return
}

// -----

// CHECK-LABEL: func.func @view_of_unsized_chunk_is_kept(
// CHECK: %[[A:.*]] = croq.chunkat %{{.*}}[%{{.*}}, _] of [2, 1] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
// The chunk of a dynamic view passed in as an argument has no size that can
// be computed, so the window of the outer view cannot be composed.
// CHECK-NEXT: %[[B:.*]] = croq.view %[[A]] [4, 4] from [0, 0] : !croq.view<?x16xf32> -> !croq.view<4x4xf32>
// CHECK-NEXT: croq.copy dma %[[B]]
func.func @view_of_unsized_chunk_is_kept(%v: !croq.view<?x16xf32>, %i: index, %t: !croq.tile<4x4xf32, shared>) {
  %a = croq.chunkat %v[%i, _] of [2, 1] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
  %b = croq.view %a [4, 4] from [0, 0] : !croq.view<?x16xf32> -> !croq.view<4x4xf32>
  croq.copy dma %b -> %t : !croq.view<4x4xf32> -> !croq.tile<4x4xf32, shared>
  return
}
