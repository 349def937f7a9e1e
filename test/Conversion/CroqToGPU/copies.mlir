// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize --cse -split-input-file | FileCheck %s --implicit-check-not=croq.

// A global -> shared copy whose rows hold whole 16-byte vectors (128 threads,
// vector<4xf32> items, 8 rounds). Barriers fence the shared tile on both
// sides.
// CHECK-LABEL: func.func @copy_vectorized
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: gpu.barrier
// An interior tile that is 16-byte aligned takes the fast path: each thread
// loads its 8 vectors, then stores them, with no per-element checks.
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<1000x1000xf32> -> index
// CHECK: scf.if %{{.*}} {
// CHECK-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<1000x1000xf32>, vector<4xf32>
// CHECK-COUNT-8: vector.store %{{.*}} {alignment = 16 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: } else {
// Otherwise the alignment check picks the vector loop with checks (edge
// vectors lane by lane) or the scalar loop.
// CHECK: scf.if %[[ALIGNED:.*]] {
// CHECK: scf.for %[[R:.*]] = %c0 to %c8 step %c1 {
// CHECK: %[[OFF:.*]] = arith.muli %[[R]], %c128 : index
// CHECK: %[[E:.*]] = arith.addi %[[TID]], %[[OFF]] : index
// CHECK: scf.if %[[FULL:.*]] {
// CHECK: %[[V:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<1000x1000xf32>, vector<4xf32>
// CHECK: vector.store %[[V]], %{{.*}} {alignment = 16 : i64} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: } else {
// CHECK: memref.load %{{.*}} : memref<1000x1000xf32>
// CHECK: } else {
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 {
// CHECK: arith.cmpi ult, %{{.*}}, %c1000 : index
// CHECK: memref.load
// CHECK: memref.store
// CHECK: gpu.barrier
func.func @copy_vectorized(%a: memref<1000x1000xf32>) {
  croq.parallel (%i, %j) in [16, 16] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.subspan %a [64, 64] at [%i, %j] : memref<1000x1000xf32> -> !croq.view<64x64xf32>
    croq.copy dma %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
  }
  return
}

// -----

// Rows of 7 f16 cannot hold whole vectors: scalar moves only, no alignment
// check.
// CHECK-LABEL: func.func @copy_scalar_only
// CHECK-NOT: vector.load
// CHECK-NOT: extract_aligned_pointer
// 448 elements over 128 threads: the last round is guarded.
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 {
// CHECK: %[[LAST:.*]] = arith.cmpi ult, %{{.*}}, %c448 : index
// CHECK: scf.if %[[LAST]] {
// CHECK: memref.load %{{.*}} : memref<?x?xf16>
// CHECK: memref.store %{{.*}} : memref<64x7xf16, #gpu.address_space<workgroup>>
func.func @copy_scalar_only(%a: memref<?x?xf16>) {
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x7xf16, shared>
    %v = croq.subspan %a [64, 7] at [%i, %i] : memref<?x?xf16> -> !croq.view<64x7xf16>
    croq.copy dma %v -> %t : !croq.view<64x7xf16> -> !croq.tile<64x7xf16, shared>
  }
  return
}

// -----

// zfill writes zero where the source view has no element.
// CHECK-LABEL: func.func @copy_zfill
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[X:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: %[[L:.*]] = memref.load
// CHECK: scf.yield %[[L]] : f32
// CHECK: } else {
// CHECK: scf.yield %[[ZERO]] : f32
// CHECK: memref.store %[[X]]
func.func @copy_zfill(%a: memref<?x?xf32>, %rows: index) {
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %v = croq.view %a [%rows, 64] from [%i, 0] : memref<?x?xf32> -> !croq.view<?x64xf32>
    croq.copy dma zfill %v -> %t : !croq.view<?x64xf32> -> !croq.tile<64x64xf32, shared>
  }
  return
}

// -----

// An async copy from global to shared memory becomes cp.async with the
// number of source elements that exist (the rest is zero-filled by the
// hardware), committed as a group; croq.wait waits for it and synchronizes.
// CHECK-LABEL: func.func @copy_async
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 4, %{{.*}} {bypassL1} : memref<?x?xf32> to memref<64x64xf32
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 1, %{{.*}} : memref<?x?xf32> to memref<64x64xf32
// CHECK: %[[TOKEN:.*]] = nvgpu.device_async_create_group
// CHECK: nvgpu.device_async_wait %[[TOKEN]] {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
func.func @copy_async(%a: memref<?x?xf32>) {
  croq.parallel (%i) in [4] : block {
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [64, 64] at [%i, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %f = croq.copy dma async %v -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
  }
  return
}

// -----

// A transpose reads the source at the permuted coordinates.
// CHECK-LABEL: func.func @transpose
// CHECK: scf.for %[[R:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[OFF:.*]] = arith.muli %[[R]], %c128 : index
// CHECK: %[[E:.*]] = arith.addi %{{.*}}, %[[OFF]] : index
// CHECK: %[[C1:.*]] = arith.remui %[[E]], %c16 : index
// CHECK: %[[C0:.*]] = arith.divui %[[E]], %c16 : index
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<16x32xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[C0]], %[[C1]]] : memref<32x16xf32, #gpu.address_space<workgroup>>
func.func @transpose(%a: memref<16x32xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<32x16xf32, shared>
    croq.transpose [1, 0] %a -> %t : memref<16x32xf32> -> !croq.tile<32x16xf32, shared>
  }
  return
}

// -----

// A pad moves each source element to low + index * (interior + 1) and
// writes the fill value elsewhere.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: %[[FILL:[a-z0-9]+]]: f32
// CHECK: arith.cmpi uge, %{{.*}}, %c2 : index
// CHECK: arith.remui %{{.*}}, %c2 : index
// CHECK: scf.if %{{.*}} -> (f32) {
// CHECK: memref.load %{{.*}} : memref<4xf32>
// CHECK: } else {
// CHECK: scf.yield %[[FILL]] : f32
func.func @pad(%a: memref<4xf32>, %fill: f32) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<10xf32, shared>
    croq.pad low [2] high [1] interior [1] %a -> %t value %fill : memref<4xf32> -> !croq.tile<10xf32, shared>
  }
  return
}

// -----

// A swizzled shared tile is addressed the way TMA writes it: the byte offset
// of an element has its 16-byte chunk index xor-ed with its 128-byte row
// index (mod 8 for the 128-byte swizzle), through a 1-d view of the tile.
// CHECK-LABEL: func.func @copy_into_swizzled_tile
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [{{.*}}], sizes: [4096], strides: [1]
// CHECK-SAME: to memref<4096xf16, strided<[1]>, #gpu.address_space<workgroup>>
// CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c2 : index
// CHECK: %[[ROW:.*]] = arith.shrui %[[BYTES]], %c7 : index
// CHECK: %[[PHASE:.*]] = arith.andi %[[ROW]], %c7 : index
// CHECK: %[[MASK:.*]] = arith.shli %[[PHASE]], %c4 : index
// CHECK: %[[SWZ:.*]] = arith.xori %[[BYTES]], %[[MASK]] : index
// CHECK: %[[IDX:.*]] = arith.divui %[[SWZ]], %c2 : index
// CHECK: vector.store %{{.*}}, %[[FLAT]][%[[IDX]]] {alignment = 16 : i64} : memref<4096xf16, strided<[1]>, #gpu.address_space<workgroup>>, vector<8xf16>
func.func @copy_into_swizzled_tile(%a: memref<64x64xf16>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy dma %a -> %t : memref<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}
