// RUN: croq-opt %s --convert-croq-to-gpu --canonicalize --cse -split-input-file | FileCheck %s --implicit-check-not=croq.

// A tma load: the tensor map is encoded on the host before the kernel; in
// the kernel one mbarrier is initialized by thread 0, thread 0 expects the
// box's 16384 bytes and issues the bulk copy (coordinates innermost first),
// and every thread waits for the barrier's current phase and flips its copy
// of the phase.
// CHECK-LABEL: func.func @tma_load
// CHECK: %[[U:.*]] = memref.cast %{{.*}} : memref<?x?xf32> to memref<*xf32>
// CHECK: %[[MAP:.*]] = nvgpu.tma.create.descriptor %[[U]] box[%c64, %c64] : memref<*xf32> -> <tensor = memref<64x64xf32, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
// CHECK: gpu.launch
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: nvgpu.mbarrier.init %[[BAR]][%c0], %c1, predicate = %[[FIRST]]
// CHECK: %[[PHASE:.*]] = memref.alloca() : memref<1xi1>
// CHECK: gpu.barrier
// CHECK: %[[BOX:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c64 : index
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%c0], %c16384, predicate = %[[FIRST]]
// CHECK: nvgpu.tma.async.load %[[MAP]][%[[COL]], %[[ROW]]], %[[BAR]][%c0] to %[[BOX]], predicate = %[[FIRST]]
// CHECK: %[[P:.*]] = memref.load %[[PHASE]][%c0] : memref<1xi1>
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]][%c0], %[[P]], %{{.*}}
// CHECK: %[[FLIP:.*]] = arith.xori %[[P]], %true : i1
// CHECK: memref.store %[[FLIP]], %[[PHASE]][%c0] : memref<1xi1>
func.func @tma_load(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %gm: index, %gn: index) {
  croq.parallel (%i, %j) in [%gm, %gn] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %w = croq.subspan %out [64, 64] at [%i, %j] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %w : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

// -----

// A tma store of a 128B-swizzled tile: a proxy fence and a barrier make the
// threads' writes visible to the copy engine, thread 0 issues the store and
// drains its bulk group before the tile may be reused.
// CHECK-LABEL: func.func @tma_store
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: gpu.launch
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
func.func @tma_store(%a: memref<?x?xf16>, %out: memref<?x?xf16>, %gm: index, %gn: index) {
  croq.parallel (%i, %j) in [%gm, %gn] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %w = croq.subspan %out [64, 64] at [%i, %j] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %w : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// -----

// An async tma load waits at croq.wait, on its own barrier and phase.
// CHECK-LABEL: func.func @tma_load_async
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: nvgpu.mbarrier.try_wait.parity
// CHECK: arith.addf
// CHECK: nvgpu.mbarrier.try_wait.parity
func.func @tma_load_async(%a: memref<?x?xf32>, %out: memref<?x?xf32>, %gm: index, %x: f32) {
  croq.parallel (%i) in [%gm] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [64, 64] at [%i, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %f = croq.copy tma async %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %y = arith.addf %x, %x : f32
    croq.write %y, %out[%i, %c0] : memref<?x?xf32>
    croq.wait %f
  }
  return
}
