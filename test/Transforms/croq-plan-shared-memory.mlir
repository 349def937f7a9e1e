// RUN: croq-opt %s --croq-plan-shared-memory -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-plan-shared-memory -split-input-file | croq-opt -split-input-file | FileCheck %s

// Shared buffers are placed in program order, each at its layout's
// alignment: a plain tile at 128 bytes, a 128B-swizzled one at 1024, a
// 64B-swizzled stage array at 512. The block records the total.
// CHECK-LABEL: func.func @offsets_and_alignment
// CHECK: croq.parallel (%{{.*}}) in [16] : block attributes {shared_memory = 22528 : i64} {
// CHECK-NEXT: croq.alloc offset = 0 : !croq.tile<10x10xf32, shared>
// CHECK-NEXT: croq.alloc offset = 1024 : !croq.tile<64x64xf16, shared, swizzle = 128>
// CHECK-NEXT: croq.alloc offset = 9216 : !croq.tiles<2 x 64x32xf16, shared, swizzle = 64>
// CHECK-NEXT: croq.alloc offset = 17408 : !croq.tile<1000xi8, shared>
// CHECK-NEXT: croq.alloc offset = 18432 : !croq.tile<64x32xf16, shared, swizzle = 64>
// Local tiles are not in shared memory.
// CHECK-NEXT: croq.parallel
// CHECK-NEXT: croq.alloc : !croq.tile<4xf32, local>
func.func @offsets_and_alignment() {
  croq.parallel (%b) in [16] : block {
    %a = croq.alloc : !croq.tile<10x10xf32, shared>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %ring = croq.alloc : !croq.tiles<2 x 64x32xf16, shared, swizzle = 64>
    %bytes = croq.alloc : !croq.tile<1000xi8, shared>
    %u = croq.alloc : !croq.tile<64x32xf16, shared, swizzle = 64>
    croq.parallel (%t2) in [128] : thread {
      %l = croq.alloc : !croq.tile<4xf32, local>
    }
  }
  return
}

// -----

// Each block has its own shared memory; a block without shared buffers
// needs none.
// CHECK-LABEL: func.func @two_kernels
// CHECK: block attributes {shared_memory = 512 : i64}
// CHECK-NEXT: croq.alloc offset = 0 : !croq.tile<128xf32, shared>
// CHECK: block attributes {shared_memory = 0 : i64}
func.func @two_kernels() {
  croq.parallel (%b) in [1] : block {
    %a = croq.alloc : !croq.tile<128xf32, shared>
  }
  croq.parallel (%b) in [1] : block {
  }
  return
}
