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
