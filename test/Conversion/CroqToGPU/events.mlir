// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq. --implicit-check-not=nvgpu.device_async --implicit-check-not=memref.alloca

// Event arrays become mbarrier groups. The `full` ring is triggered after one
// tma load per slot: one arrival, with the load's 8192 bytes expected. The
// `empty` ring is triggered by the two consumer warpgroups (p = 1, 2): eight
// warps, eight arrivals. Each thread keeps a phase bit per slot, an i64
// carried through the loops (croq-carry-event-phases); `ready` starts them
// at one, so the producer's first wait on each slot passes. No stack slot
// holds them.

// CHECK-LABEL: func.func @ring
// CHECK:      %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK:      nvgpu.mbarrier.init %[[FULL]][%{{.*}}], %[[ONE]], predicate = %{{.*}}
// CHECK:      gpu.barrier
// CHECK:      %[[FULL_PHASES:.*]] = arith.constant 0 : i64
// CHECK:      %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// CHECK:      %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK:      nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %[[EIGHT]], predicate = %{{.*}}
// CHECK:      gpu.barrier
// CHECK:      %[[EMPTY_PHASES:.*]] = arith.constant -1 : i64

// Producer: wait for the slot's phase, flip the bit, load into the stage on
// the `full` slot (first thread of the warpgroup) if the runtime let TMA
// move the tensor, else copy it with the warpgroup's threads and fence it
// for the async proxy; arrive expecting the bytes of the TMA path only.
// CHECK:      scf.if
// CHECK:        %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[BITS:.*]] = %[[EMPTY_PHASES]]) -> (i64) {
// CHECK:          %[[SLOT:.*]] = arith.remui
// CHECK:          %[[BIT:.*]] = arith.shli %c1_i64, %{{.*}} : i64
// CHECK:          %[[AND:.*]] = arith.andi %[[BITS]], %[[BIT]]
// CHECK:          %[[PARITY:.*]] = arith.cmpi ne, %[[AND]]
// CHECK:          nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[SLOT]]], %[[PARITY]]
// CHECK:          %[[FLIPPED:.*]] = arith.xori %[[BITS]], %[[BIT]]
// CHECK-NOT:      gpu.barrier
// CHECK:          %[[USABLE:.*]] = arith.cmpi ne, %[[OK:.*]], %{{.*}} : i32
// CHECK-NOT:      gpu.barrier
// CHECK:          scf.if %[[USABLE]] {
// CHECK-NEXT:       nvgpu.tma.async.load %{{.*}}, %[[FULL]][%[[SLOT]]] to %{{.*}}, predicate = %{{.*}}
// CHECK-NEXT:     } else {
// CHECK:            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:            nvvm.barrier id
// CHECK-NEXT:     }
// The trigger expects the bytes if the runtime gave the map (`if %ok`).
// CHECK:          %[[BYTES:.*]] = arith.constant 8192 : index
// CHECK:          %[[TOOK:.*]] = arith.cmpi ne, %[[OK]], %{{.*}} : i32
// CHECK:          %[[EXPECTED:.*]] = arith.select %[[TOOK]], %[[BYTES]], %{{.*}} : index
// CHECK:          nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[SLOT]]], %[[EXPECTED]], predicate = %{{.*}}
// CHECK:          scf.yield %[[FLIPPED]] : i64

// Consumer: wait on `full`, then lane 0 of each warp arrives on `empty`.
// CHECK:      scf.if
// CHECK:        scf.for %{{.*}} iter_args(%[[FBITS:.*]] = %[[FULL_PHASES]]) -> (i64) {
// CHECK:          arith.andi %[[FBITS]]
// CHECK:          nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK:          nvvm.bar.warp.sync
// CHECK:          %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK:          %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]]
// CHECK:          scf.if %[[LANE0]] {
// CHECK-NEXT:       nvgpu.mbarrier.arrive %[[EMPTY]]
func.func @ring(%a: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  croq.parallel (%b) in [1] : block {
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %producer = arith.cmpi eq, %p, %c0 : index
      %consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %producer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %empty[%s] : !croq.events<2>
          %v = croq.subspan %a [64, 64] at [%c0, %k] : memref<?x?xf16> -> !croq.view<64x64xf16>
          %t = croq.stage %ring[%s] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
          %f = croq.copy tma async zfill swizzle = 128 %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%s] after (%f) : !croq.events<2>
        }
      }
      croq.inthreads async %consumer {
        scf.for %k = %c0 to %c8 step %c1 {
          %s = arith.remui %k, %c2 : index
          croq.event.wait %full[%s] : !croq.events<2>
          croq.event.trigger %empty[%s] : !croq.events<2>
        }
      }
    }
  }
  return
}
