// RUN: croq-opt %s --croq-persistent-blocks -split-input-file -verify-diagnostics | FileCheck %s
// RUN: croq-opt %s --croq-persistent-blocks="persistent=true group-rows=4" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=ALL

// A block asking to be persistent: min(tiles, 132) blocks, each walking
// the tiles t = bid, bid + grid, ...; the tile's coordinates come from t in
// groups of 8 tile rows (t / (8 gn) is the group, down its rows first);
// the shared buffer is allocated once, outside the tile loop.
// CHECK-LABEL: func.func @dynamic_grid
// CHECK-SAME:    (%[[A:.*]]: memref<?x?xf16>, %[[GM:.*]]: index, %[[GN:.*]]: index)
// CHECK:         %[[TILES:.*]] = arith.muli %[[GM]], %[[GN]] : index
// CHECK:         %[[SMS:.*]] = arith.constant 132 : index
// CHECK:         %[[GRID:.*]] = arith.minui %[[TILES]], %[[SMS]] : index
// CHECK:         croq.parallel (%[[BID:.*]]) in [%[[GRID]]] : block {
// CHECK-NEXT:      %[[S:.*]] = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK-NEXT:      scf.for %[[T:.*]] = %[[BID]] to %[[TILES]] step %[[GRID]] {
// CHECK-NEXT:        %[[G:.*]] = arith.constant 8 : index
// CHECK-NEXT:        %[[IN:.*]] = arith.muli %[[GN]], %[[G]] : index
// CHECK-NEXT:        %[[GROUP:.*]] = arith.divui %[[T]], %[[IN]] : index
// CHECK-NEXT:        %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[G]] : index
// CHECK-NEXT:        %[[LEFT:.*]] = arith.subi %[[GM]], %[[FIRST]] : index
// CHECK-NEXT:        %[[SIZE:.*]] = arith.minui %[[LEFT]], %[[G]] : index
// CHECK-NEXT:        %[[W:.*]] = arith.remui %[[T]], %[[IN]] : index
// CHECK-NEXT:        %[[R:.*]] = arith.remui %[[W]], %[[SIZE]] : index
// CHECK-NEXT:        %[[BM:.*]] = arith.addi %[[FIRST]], %[[R]] : index
// CHECK-NEXT:        %[[BN:.*]] = arith.divui %[[W]], %[[SIZE]] : index
// CHECK-NEXT:        %[[V:.*]] = croq.subspan %[[A]] [128, 64] at [%[[BM]], %[[BN]]]
// CHECK-NEXT:        croq.copy tma %[[V]] -> %[[S]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// ALL-LABEL: func.func @dynamic_grid
// ALL:         arith.constant 4 : index
func.func @dynamic_grid(%a: memref<?x?xf16>, %gm: index, %gn: index) {
  croq.parallel (%bm, %bn) in [%gm, %gn] : block attributes {croq.persistent = true} {
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [128, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<128x64xf16>
    croq.copy tma %v -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A static grid of 64 tiles: 64 blocks, a static extent; the block's other
// attributes stay.
// CHECK-LABEL: func.func @static_grid
// CHECK: croq.parallel (%{{.*}}) in [64] : block attributes {croq.consumers = 2 : i64} {
// CHECK: scf.for
func.func @static_grid(%a: memref<1024x512xf16>) {
  croq.parallel (%bm, %bn) in [8, 8] : block attributes {croq.consumers = 2 : i64, croq.persistent = true} {
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [128, 64] at [%bm, %bn] : memref<1024x512xf16> -> !croq.view<128x64xf16>
    croq.copy tma %v -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// Without the attribute (or with it false) a block stays as it is, unless
// the option makes every 2-D grid persistent.
// CHECK-LABEL: func.func @not_asked
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [8, 8] : block {
// CHECK: croq.parallel (%{{.*}}, %{{.*}}) in [8, 8] : block {
// ALL-LABEL: func.func @not_asked
// ALL: croq.parallel (%{{.*}}) in [64] : block {
// ALL: croq.parallel (%{{.*}}, %{{.*}}) in [8, 8] : block {
func.func @not_asked(%a: memref<1024x512xf16>) {
  croq.parallel (%bm, %bn) in [8, 8] : block {
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  croq.parallel (%bm, %bn) in [8, 8] : block attributes {croq.persistent = false} {
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}


// -----

// Blocks in clusters of 2 x 1 walk tiles of 2 x 1 tiles: a 1-D cluster of
// 2 blocks, min(32 x 8 / 2, 132 / 2) = 66 clusters; block b is rank b % 2
// of cluster b / 2, which walks t = b / 2, b / 2 + 66, ... over the 8 x 8
// cluster tiles (groups of 8 / 2 = 4 cluster rows), and takes row 2 r +
// rank, column c of each.
// CHECK-LABEL: func.func @clusters
// CHECK:         croq.parallel (%[[BID:.*]]) in [132] : block cluster [2] {
// CHECK:           %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[CL:.*]] = arith.divui %[[BID]], %[[TWO]] : index
// CHECK-NEXT:      %[[RANK:.*]] = arith.remui %[[BID]], %[[TWO]] : index
// CHECK:           scf.for %[[T:.*]] = %[[CL]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        %[[G:.*]] = arith.constant 4 : index
// CHECK:             %[[R:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[C:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[R2:.*]] = arith.muli %[[R]], %[[C2]] : index
// CHECK-NEXT:        %[[BM:.*]] = arith.addi %[[R2]], %[[RANK]] : index
// CHECK:             croq.subspan %{{.*}} [128, 64] at [%[[BM]], %[[C]]]
// CHECK-NEXT:        croq.copy tma multicast
func.func @clusters(%a: memref<4096x512xf16>) {
  croq.parallel (%bm, %bn) in [32, 8] : block cluster [2, 1] attributes {croq.persistent = true} {
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [128, 64] at [%bm, %bn] : memref<4096x512xf16> -> !croq.view<128x64xf16>
    croq.copy tma multicast %v -> %s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// A grid extent known at run time that is whole clusters by construction
// (a product with the cluster's size): the cluster tiles are its quotient.
// CHECK-LABEL: func.func @dynamic_clusters
// CHECK-SAME:    (%{{.*}}: memref<?x?xf16>, %[[Q:.*]]: index)
// CHECK:         %[[GM:.*]] = arith.muli %[[Q]], %{{.*}} : index
// CHECK:         %[[ROWS:.*]] = arith.divui %[[GM]], %{{.*}} : index
// CHECK:         croq.parallel (%{{.*}}) in [%{{.*}}] : block cluster [2] {
func.func @dynamic_clusters(%a: memref<?x?xf16>, %q: index) {
  %c2 = arith.constant 2 : index
  %gm = arith.muli %q, %c2 : index
  croq.parallel (%bm, %bn) in [%gm, 8] : block cluster [2, 1] attributes {croq.persistent = true} {
    %s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}
