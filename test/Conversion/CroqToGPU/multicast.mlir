// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize --cse | FileCheck %s --implicit-check-not=croq.

// A two-stage ring in clusters of two blocks whose load is multicast and
// whose stages are freed in both blocks.
//
// The events are initialized for the whole cluster (the empty slots count
// the 4 consumer warps of both blocks: 8): a fence that makes the
// initialization visible to the cluster and a cluster barrier, before any
// block multicasts into another or arrives on its events.
// CHECK-LABEL: func.func @ring(
// CHECK:         gpu.launch clusters
// CHECK:           nvgpu.mbarrier.init
// CHECK:           nvvm.fence.mbarrier.init
// CHECK-NEXT:      nvvm.cluster.arrive {aligned}
// CHECK-NEXT:      nvvm.cluster.wait {aligned}
// CHECK:           nvgpu.mbarrier.init %{{.*}}[%c0], %c8,
// CHECK:           nvvm.fence.mbarrier.init
// CHECK-NEXT:      nvvm.cluster.arrive {aligned}
// CHECK-NEXT:      nvvm.cluster.wait {aligned}
// The 128x64 tile moves as two boxes of 64 rows: block 0 issues the first,
// block 1 the second, each written into both blocks (mask 0b11) and
// completing on both blocks' full slot, which expects the whole tile
// (16384 bytes) in each.
// CHECK:           %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:           %[[IS0:.*]] = arith.cmpi eq, %[[RANK]], %{{.*}} : i32
// CHECK:           %[[P0:.*]] = arith.andi %{{.*}}, %[[IS0]] : i1
// CHECK:           nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} multicast_mask = %[[MASK:.*]], predicate = %[[P0]]
// CHECK:           %[[IS1:.*]] = arith.cmpi eq, %[[RANK]], %{{.*}} : i32
// CHECK:           %[[P1:.*]] = arith.andi %{{.*}}, %[[IS1]] : i1
// CHECK:           nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} multicast_mask = %[[MASK]], predicate = %[[P1]]
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c16384, predicate
// The release: lane 0 of each warp arrives (release at CTA scope) on the
// slot's mbarrier in block 0 and in block 1 (mapa of the slot's address).
// CHECK:           nvvm.bar.warp.sync
// CHECK:           scf.if
// CHECK:             %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK:             %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK:             %[[R0:.*]] = nvvm.mapa %[[PTR]], %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[R0]] : !llvm.ptr<7>
// CHECK:             %[[R1:.*]] = nvvm.mapa %[[PTR]], %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[R1]] : !llvm.ptr<7>
// No block leaves while the other may still write its tile or arrive on
// its events.
// CHECK:           nvvm.cluster.arrive {aligned}
// CHECK-NEXT:      nvvm.cluster.wait {aligned}
// CHECK-NEXT:      gpu.terminator
func.func @ring(%a: memref<256x512xf16>, %out: memref<256x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [2] : block cluster [2] {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 128x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [128, 64] at [%c0, %k] : memref<256x512xf16> -> !croq.view<128x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 128x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async multicast swizzle = 128 %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
      croq.inthreads async %consumer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          croq.event.trigger %empty[%s] cluster : !croq.events<2>
        }
      }
    }
  }
  return
}

// In a cluster of 2 x 4 blocks, A's tile is multicast along dimension 1
// (the 4 blocks of a row) and B's along dimension 0 (the 2 of a column).
// The cluster's ranks run over its last dimension first: rank = 4 * row +
// column. A's 128x64 tile is four boxes of 32 rows, box r issued by the
// block of column r and written into the row's blocks: mask 0b1111 at the
// row's first rank (rank - column). B's 64x64 tile is two boxes, box r
// issued by the block of row r (rank / 4 % 2) and written into the
// column's blocks: mask 0b10001 at rank - 4 * row. Each block's full slot
// expects both whole tiles (16384 + 8192 bytes); the release counts the 4
// consumer warps of all 8 blocks.
// CHECK-LABEL: func.func @ring2d(
// CHECK:           nvgpu.mbarrier.init %{{.*}}[%c0], %c32,
// CHECK:           %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:      %[[COL:.*]] = arith.remui %[[RANK]], %c4_i32 : i32
// CHECK-NEXT:      %[[ROWFIRST:.*]] = arith.subi %[[RANK]], %[[COL]] : i32
// CHECK-NEXT:      %[[AWIDE:.*]] = arith.shli %c15_i32, %[[ROWFIRST]] : i32
// CHECK-NEXT:      %[[AMASK:.*]] = arith.trunci %[[AWIDE]] : i32 to i16
// CHECK:           arith.cmpi eq, %[[COL]], %c0_i32 : i32
// CHECK:           nvgpu.tma.async.load %{{.*}} to %{{.*}} multicast_mask = %[[AMASK]], {{.*}} -> memref<32x64xf16
// CHECK:           arith.cmpi eq, %[[COL]], %c1_i32 : i32
// CHECK:           nvgpu.tma.async.load %{{.*}} multicast_mask = %[[AMASK]]
// CHECK:           arith.cmpi eq, %[[COL]], %c2_i32 : i32
// CHECK:           nvgpu.tma.async.load %{{.*}} multicast_mask = %[[AMASK]]
// CHECK:           arith.cmpi eq, %[[COL]], %c3_i32 : i32
// CHECK:           nvgpu.tma.async.load %{{.*}} multicast_mask = %[[AMASK]]
// CHECK:           %[[Q:.*]] = arith.divui %[[RANK]], %c4_i32 : i32
// CHECK-NEXT:      %[[ROW:.*]] = arith.remui %[[Q]], %c2_i32 : i32
// CHECK-NEXT:      %[[ROWRANKS:.*]] = arith.muli %[[ROW]], %c4_i32 : i32
// CHECK-NEXT:      %[[COLFIRST:.*]] = arith.subi %[[RANK]], %[[ROWRANKS]] : i32
// CHECK-NEXT:      %[[BWIDE:.*]] = arith.shli %c17_i32, %[[COLFIRST]] : i32
// CHECK-NEXT:      %[[BMASK:.*]] = arith.trunci %[[BWIDE]] : i32 to i16
// CHECK:           arith.cmpi eq, %[[ROW]], %c0_i32 : i32
// CHECK:           nvgpu.tma.async.load %{{.*}} multicast_mask = %[[BMASK]]
// CHECK:           arith.cmpi eq, %[[ROW]], %c1_i32 : i32
// CHECK:           nvgpu.tma.async.load %{{.*}} multicast_mask = %[[BMASK]]
// CHECK-NOT:       nvgpu.tma.async.load
// CHECK:           nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c24576, predicate
func.func @ring2d(%a: memref<256x512xf16>, %b: memref<512x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%i, %j) in [2, 4] : block cluster [2, 4] {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ra = croq.alloc : !croq.tiles<2 x 128x64xf16, shared, swizzle = 128>
    %rb = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %va = croq.subspan %a [128, 64] at [%i, %k] : memref<256x512xf16> -> !croq.view<128x64xf16>
          %ta = croq.stage %ra[%s] : !croq.tiles<2 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async multicast along 1 swizzle = 128 %va -> %ta : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %vb = croq.subspan %b [64, 64] at [%k, %j] : memref<512x256xf16> -> !croq.view<64x64xf16>
          %tb = croq.stage %rb[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async multicast along 0 swizzle = 128 %vb -> %tb : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%fa, %fb) : !croq.events<2>
        }
      }
      croq.inthreads async %consumer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          croq.event.trigger %empty[%s] cluster : !croq.events<2>
        }
      }
    }
  }
  return
}
