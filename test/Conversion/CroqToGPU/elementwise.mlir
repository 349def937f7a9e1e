// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize --cse -split-input-file | FileCheck %s --implicit-check-not=croq.

// A block-level foreach is distributed over the block's threads: in each of
// 2 rounds, each thread takes one of the next 128 points of the linearized
// space. Reads of a view past the
// tensor's edge give zero, writes there are dropped.
// CHECK-LABEL: func.func @foreach_add
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %[[R:.*]] = %c0 to %c2 step %c1 {
// CHECK: %[[OFF:.*]] = arith.muli %[[R]], %c128 : index
// CHECK: %[[E:.*]] = arith.addi %[[TID]], %[[OFF]] : index
// CHECK: %[[J:.*]] = arith.remui %[[E]], %c16 : index
// CHECK: %[[I:.*]] = arith.divui %[[E]], %c16 : index
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[I]] : index
// CHECK: %[[INROW:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK: %[[COL:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK: %[[INCOL:.*]] = arith.cmpi ult, %[[COL]], %{{.*}} : index
// CHECK: %[[IN:.*]] = arith.andi %[[INROW]], %[[INCOL]] : i1
// CHECK: %[[A:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK: memref.load %{{.*}}[%[[ROW]], %[[COL]]] : memref<?x?xf32>
// CHECK: } else {
// CHECK: scf.yield %cst : f32
// CHECK: %[[SUM:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store %[[SUM]], %{{.*}}[%[[ROW]], %[[COL]]] : memref<?x?xf32>
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @foreach_add(%a: memref<?x?xf32>, %c: memref<?x?xf32>, %m: index, %n: index) {
  croq.parallel (%i, %j) in [%m, %n] : block {
    %va = croq.subspan %a [16, 16] at [%i, %j] : memref<?x?xf32> -> !croq.view<16x16xf32>
    %vc = croq.subspan %c [16, 16] at [%i, %j] : memref<?x?xf32> -> !croq.view<16x16xf32>
    croq.foreach (%x, %y) in [16, 16] {
      %v = croq.read %va[%x, %y] : !croq.view<16x16xf32>
      %s = arith.addf %v, %v : f32
      croq.write %s, %vc[%x, %y] : !croq.view<16x16xf32>
    }
  }
  return
}

// -----

// A foreach that writes a shared tile is followed by a barrier; reads of a
// tile need no mask.
// CHECK-LABEL: func.func @foreach_writes_shared
// 64 points for 128 threads: one guarded round.
// CHECK: %[[MINE:.*]] = arith.cmpi ult, %{{.*}}, %c64 : index
// CHECK: scf.if %[[MINE]] {
// CHECK: memref.store %{{.*}} : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: }
// CHECK-NEXT: gpu.barrier
func.func @foreach_writes_shared(%out: memref<64xf32>, %x: f32) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<64xf32, shared>
    croq.foreach (%i) in [64] {
      croq.write %x, %t[%i] : !croq.tile<64xf32, shared>
    }
    croq.copy dma %t -> %out : !croq.tile<64xf32, shared> -> memref<64xf32>
  }
  return
}

// -----

// In a thread region, a foreach is a plain loop run by each thread.
// CHECK-LABEL: func.func @foreach_per_thread
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1 {
func.func @foreach_per_thread(%out: memref<32x4xf32>, %x: f32) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%t) in [32] : thread {
      croq.foreach (%i) in [4] {
        croq.write %x, %out[%t, %i] : memref<32x4xf32>
      }
    }
  }
  return
}
