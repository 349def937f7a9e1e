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

