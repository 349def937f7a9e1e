// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize -split-input-file | FileCheck %s --implicit-check-not=croq.

// Shared tiles are placed in the block's dynamic shared memory at offsets
// aligned for their swizzle (1024 bytes for 128B); the launch asks for the
// total. Local tiles go on the stack.
// CHECK-LABEL: func.func @alloc_shared_and_local
// CHECK-DAG: %[[TOTAL:.*]] = arith.constant 17408 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[TOTAL]] {
// CHECK: %[[SMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[SMEM]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<100xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %{{.*}}[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref.alloca() : memref<4xf32>
func.func @alloc_shared_and_local(%o1: memref<100xi8>, %o2: memref<64x64xf16>,
                                  %o3: memref<32x4xf32>) {
  croq.parallel (%b) in [1] : block {
    %bytes = croq.alloc : !croq.tile<100xi8, shared>
    %ring = croq.alloc : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.copy dma %bytes -> %o1 : !croq.tile<100xi8, shared> -> memref<100xi8>
    %c1 = arith.constant 1 : index
    %s = croq.stage %ring[%c1] : !croq.tiles<2 x 64x64xf16, shared, swizzle = 128>
    croq.copy dma %s -> %o2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> memref<64x64xf16>
    croq.parallel (%t) in [32] : thread {
      %l = croq.alloc : !croq.tile<4xf32, local>
      %v = croq.chunkat %o3[%t, _] : memref<32x4xf32> -> !croq.view<1x4xf32>
      %row = croq.span_as %l : !croq.tile<4xf32, local> -> !croq.tile<1x4xf32, local>
      croq.copy dma %row -> %v : !croq.tile<1x4xf32, local> -> !croq.view<1x4xf32>
    }
  }
  return
}

// -----

// A stage is a rank-reducing subview; span_as reinterprets the storage.
// CHECK-LABEL: func.func @stage_and_span_as
// CHECK: %[[RING:.*]] = memref.view %{{.*}}[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x8x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[STAGE:.*]] = memref.subview %[[RING]][%{{.*}}, 0, 0] [1, 8, 16] [1, 1, 1] : memref<4x8x16xf32, #gpu.address_space<workgroup>> to memref<8x16xf32, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: %[[BASE:.*]], %[[OFFSET:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[STAGE]]
// CHECK: memref.reinterpret_cast %[[STAGE]] to offset: [%[[OFFSET]]], sizes: [128], strides: [1]
// CHECK-SAME: to memref<128xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
func.func @stage_and_span_as(%out: memref<128xf32>, %i: index) {
  croq.parallel (%b) in [1] : block {
    %ring = croq.alloc : !croq.tiles<4 x 8x16xf32, shared>
    %s = croq.stage %ring[%i] : !croq.tiles<4 x 8x16xf32, shared>
    %flat = croq.span_as %s : !croq.tile<8x16xf32, shared> -> !croq.tile<128xf32, shared>
    croq.copy dma %flat -> %out : !croq.tile<128xf32, shared> -> memref<128xf32>
  }
  return
}
