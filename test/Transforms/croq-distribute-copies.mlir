// RUN: croq-opt %s --croq-normalize-views --croq-distribute-copies --canonicalize -split-input-file | FileCheck %s --implicit-check-not="croq.copy dma" --implicit-check-not=croq.transpose --implicit-check-not=croq.pad
// RUN: croq-opt %s --croq-normalize-views --croq-distribute-copies -split-input-file | croq-opt -split-input-file > /dev/null

// A block's copy of a static tile: a barrier, then the fast path (whole
// tile inside the tensor, both sides 16-byte aligned) where each of the 128
// threads reads its 8 vectors before it writes them; otherwise the vector
// loop with per-vector edge tests, or the element loop; a barrier after.
// CHECK-LABEL: func.func @copy_vectorized
// CHECK: %[[T:.*]] = croq.alloc : !croq.tile<64x64xf32, shared>
// CHECK: %[[V:.*]] = croq.view
// CHECK: %[[TID:.*]] = croq.thread_index block
// CHECK-NEXT: croq.barrier block
// CHECK: %[[A:.*]] = croq.is_aligned %[[V]], 16 : !croq.view<64x64xf32>
// CHECK: %[[B:.*]] = croq.is_aligned %[[T]], 16 : !croq.tile<64x64xf32, shared>
// CHECK: scf.if
// CHECK-COUNT-8: croq.read %[[V]][%{{.*}}, %{{.*}}] in_bounds : !croq.view<64x64xf32> -> vector<4xf32>
// CHECK-COUNT-8: croq.write %{{.*}}, %[[T]][%{{.*}}, %{{.*}}] in_bounds : !croq.tile<64x64xf32, shared> -> vector<4xf32>
// CHECK: } else {
// CHECK: scf.if
// CHECK: scf.for %[[R:.*]] = %c0 to %c8 step %c1 {
// CHECK: %[[OFF:.*]] = arith.muli %[[R]], %c128 : index
// CHECK: arith.addi %[[TID]], %[[OFF]] : index
// CHECK: scf.if %{{.*}} {
// CHECK: croq.read %[[V]]{{.*}} in_bounds : !croq.view<64x64xf32> -> vector<4xf32>
// CHECK: croq.write {{.*}} in_bounds : !croq.tile<64x64xf32, shared> -> vector<4xf32>
// CHECK: } else {
// Vectors that cross the tensor's edge move lane by lane, each lane tested.
// CHECK-COUNT-4: croq.read %[[V]]{{.*}} in_bounds : !croq.view<64x64xf32>{{$}}
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 {
// CHECK: arith.cmpi ult, %{{.*}}, %c1000 : index
// CHECK: croq.read %[[V]]{{.*}} in_bounds : !croq.view<64x64xf32>{{$}}
// CHECK: croq.barrier block
// CHECK-NEXT: }
func.func @copy_vectorized(%a: memref<1000x1000xf32>) {
  croq.parallel (%i, %j) in [16, 16] : block {
    croq.parallel (%t) in [128] : thread {
    }
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<1000x1000xf32> -> !croq.view<64x64xf32>
    croq.copy dma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
  }
  return
}

// -----

// At warpgroup level the 128 threads of each warpgroup share its copy, and
// the barriers are the warpgroup's.
// CHECK-LABEL: func.func @warpgroup_copy
// CHECK: croq.parallel (%{{.*}}) in [2] : warpgroup {
// CHECK: croq.thread_index warpgroup
// CHECK-NEXT: croq.barrier warpgroup
// CHECK-COUNT-4: croq.read {{.*}} -> vector<8xf16>
// CHECK: croq.barrier warpgroup
// CHECK-NEXT: }
func.func @warpgroup_copy(%a: memref<256x64xf16>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%t) in [256] : thread {
    }
    %s = croq.alloc : !croq.tiles<2 x 64x64xf16, shared>
    croq.parallel (%w) in [2] : warpgroup {
      %c0 = arith.constant 0 : index
      %v = croq.subspan %a [64, 64] at [%w, %c0] : memref<256x64xf16> -> !croq.view<64x64xf16>
      %t = croq.stage %s[%w] : !croq.tiles<2 x 64x64xf16, shared>
      croq.copy dma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    }
  }
  return
}

// -----

// A copy into a local tile runs on each thread alone: no thread index, no
// barrier; rows of 3 f32 hold no whole vector, so elements only.
// CHECK-LABEL: func.func @copy_to_local
// CHECK-NOT: croq.thread_index
// CHECK-NOT: croq.barrier
// CHECK-NOT: croq.is_aligned
// CHECK: croq.read %{{.*}} in_bounds : !croq.view<2x3xf32>{{$}}
// CHECK: croq.write %{{.*}} in_bounds : !croq.tile<2x3xf32, local>{{$}}
func.func @copy_to_local(%a: memref<?x?xf32>) {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%t) in [32] : thread {
      %l = croq.alloc : !croq.tile<2x3xf32, local>
      %v = croq.subspan %a [2, 3] at [%i, %t] : memref<?x?xf32> -> !croq.view<2x3xf32>
      croq.copy dma %v -> %l : !croq.view<2x3xf32> -> !croq.tile<2x3xf32, local>
    }
  }
  return
}

// -----

// An async copy into shared memory: a barrier before, cp.async chunks of 16
// bytes (the valid prefix of each chunk counted against the tensor's edge),
// elements where the alignment test fails, and the future is the commit of
// the thread's chunks. No barrier after: croq.wait synchronizes.
// CHECK-LABEL: func.func @copy_async
// CHECK: croq.barrier block
// CHECK: scf.if
// CHECK: %[[N:.*]] = arith.select %{{.*}}, %{{.*}}, %c0 : index
// CHECK: croq.copy_chunk %{{.*}}[%{{.*}}, %{{.*}}] -> %{{.*}}[%{{.*}}, %{{.*}}] width 8 valid %[[N]] : !croq.view<32x64xf16>, !croq.tile<32x64xf16, shared>
// CHECK: } else {
// CHECK: croq.read
// CHECK: croq.write
// CHECK: %[[F:.*]] = croq.commit_copies : !croq.future
// CHECK-NEXT: croq.wait %[[F]]
// CHECK-NOT: croq.barrier
func.func @copy_async(%a: memref<?x?xf16>) {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%t) in [128] : thread {
    }
    %t = croq.alloc : !croq.tile<32x64xf16, shared>
    %v = croq.subspan %a [32, 64] at [%i, %i] : memref<?x?xf16> -> !croq.view<32x64xf16>
    %f = croq.copy dma async %v -> %t : !croq.view<32x64xf16> -> !croq.tile<32x64xf16, shared>
    croq.wait %f
  }
  return
}

// -----

// zfill writes zero where the source has no element.
// CHECK-LABEL: func.func @copy_zfill
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: %[[X:.*]] = croq.read {{.*}} in_bounds : !croq.view<8x5xf32>
// CHECK: scf.yield %[[X]] : f32
// CHECK: } else {
// CHECK: scf.yield %[[ZERO]] : f32
// CHECK: croq.write {{.*}} in_bounds : !croq.tile<8x5xf32, shared>
func.func @copy_zfill(%a: memref<?x?xf32>) {
  croq.parallel (%i) in [4] : block {
    croq.parallel (%t) in [64] : thread {
    }
    %t = croq.alloc : !croq.tile<8x5xf32, shared>
    %v = croq.subspan %a [8, 5] at [%i, %i] : memref<?x?xf32> -> !croq.view<8x5xf32>
    croq.copy dma zfill %v -> %t : !croq.view<8x5xf32> -> !croq.tile<8x5xf32, shared>
  }
  return
}

// -----

// A transpose reads the source at the permuted coordinates; a pad writes
// its value where the (shifted, strided) source has no element.
// The transpose's 32 elements take one round of the 32 threads.
// CHECK-LABEL: func.func @transpose_and_pad
// CHECK: %[[J:.*]] = arith.remui %{{.*}}, %c4 : index
// CHECK: %[[I:.*]] = arith.divui %{{.*}}, %c4 : index
// CHECK: croq.read %{{.*}}[%[[J]], %[[I]]] in_bounds : !croq.tile<4x8xf32, shared>
// CHECK: croq.write %{{.*}}, %{{.*}}[%[[I]], %[[J]]] in_bounds : !croq.tile<8x4xf32, shared>
// CHECK: croq.barrier block
// CHECK: croq.barrier block
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: arith.cmpi uge, %{{.*}}, %c1 : index
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: croq.read %{{.*}} in_bounds : !croq.tile<4x8xf32, shared>
// CHECK: } else {
// CHECK: scf.yield %{{.*}} : f32
// CHECK: croq.write %{{.*}} in_bounds : !croq.tile<6x10xf32, shared>
func.func @transpose_and_pad(%x: f32) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [32] : thread {
    }
    %a = croq.alloc : !croq.tile<4x8xf32, shared>
    %b = croq.alloc : !croq.tile<8x4xf32, shared>
    %c = croq.alloc : !croq.tile<6x10xf32, shared>
    croq.transpose [1, 0] %a -> %b : !croq.tile<4x8xf32, shared> -> !croq.tile<8x4xf32, shared>
    croq.pad low [1, 1] high [1, 1] interior [0, 0] %a -> %c value %x : !croq.tile<4x8xf32, shared> -> !croq.tile<6x10xf32, shared>
  }
  return
}

// -----

// tma copies are not this pass's: they stay.
// CHECK-LABEL: func.func @tma_untouched
// CHECK: croq.copy tma
// CHECK-NOT: croq.thread_index
func.func @tma_untouched(%a: memref<128x64xf16>) {
  croq.parallel (%i) in [2] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %v = croq.subspan %a [64, 64] at [%i, %i] : memref<128x64xf16> -> !croq.view<64x64xf16>
    croq.copy tma %v -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}
