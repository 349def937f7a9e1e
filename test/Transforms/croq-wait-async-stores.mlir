// RUN: croq-opt %s --croq-wait-async-stores -split-input-file | FileCheck %s

// The epilogue of a persistent kernel: each tile is stored by an async tma
// store left in flight while the loop goes on. Before the next iteration
// writes the tile (mma.store), the group waits for the store to have read
// it; at the end of the kernel every thread waits for its stores to have
// read their tiles (their writes complete with the kernel).
// CHECK-LABEL: func.func @persistent_epilogue
// CHECK: scf.for
// CHECK-NEXT: croq.wait_stores read
// CHECK-NEXT: croq.mma.store
// CHECK-NEXT: croq.subspan
// CHECK-NEXT: croq.copy tma async
// CHECK-NEXT: }
// CHECK-NEXT: croq.wait_stores read
// CHECK-NEXT: }
func.func @persistent_epilogue(%out: memref<?x?xf16>, %acc: !croq.acc<64x64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    scf.for %i = %c0 to %n step %c1 {
      croq.mma.store %acc -> %t : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared>
      %o = croq.subspan %out [64, 64] at [%i, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %f = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    }
  }
  return
}

// -----

// Writes through a view of the stored tile wait too, in the storing
// warpgroup. The pass does not follow the program's order: every write of a
// tile that any async store reads waits. A tile only stored synchronously
// needs no wait.
// CHECK-LABEL: func.func @views_and_other_tiles
// CHECK: croq.parallel (%{{.*}}) in [1] : warpgroup
// CHECK-NEXT: croq.subspan
// CHECK-NEXT: croq.copy dma
// CHECK-NEXT: croq.chunkat
// CHECK-NEXT: croq.wait_stores read
// CHECK-NEXT: croq.write
// CHECK-NEXT: croq.subspan
// CHECK-NEXT: croq.copy tma async
// CHECK-NEXT: croq.copy tma %{{.*}} -> %{{.*}} :
// CHECK-NEXT: }
// CHECK-NEXT: croq.wait_stores read
// CHECK-NEXT: }
func.func @views_and_other_tiles(%a: memref<?x?xf16>, %out: memref<?x?xf16>, %x: f16) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %u = croq.alloc : !croq.tile<64x64xf16, shared>
    croq.parallel (%w) in [1] : warpgroup {
      %v = croq.subspan %a [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy dma %v -> %u : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
      %half = croq.chunkat %t[%c0, _] of [2, 1] : !croq.tile<64x64xf16, shared> -> !croq.view<32x64xf16, shared>
      croq.write %x, %half[%c0, %c0] : !croq.view<32x64xf16, shared>
      %o = croq.subspan %out [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
      %f = croq.copy tma async %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
      croq.copy tma %u -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    }
  }
  return
}

// -----

// A kernel whose tma stores are synchronous is left alone.
// CHECK-LABEL: func.func @no_async_stores
// CHECK-NOT: croq.wait_stores
// CHECK: return
func.func @no_async_stores(%out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %o = croq.subspan %out [64, 64] at [%c0, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %o : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
    croq.copy dma %o -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
  }
  return
}
