// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu --canonicalize -split-input-file | FileCheck %s --implicit-check-not=croq.

// A block-level region becomes gpu.launch: the last dimension on x, 128
// threads by default, no dynamic shared memory when nothing is allocated.
// CHECK-LABEL: func.func @block_region
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %[[C8]], %{{.*}} = %[[C4]], %{{.*}} = %{{.*}}) threads(%{{.*}}) in (%{{.*}} = %[[C128]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) {
// CHECK-NOT: dynamic_shared_memory_size
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[BY]], %[[BX]]]
// CHECK: gpu.terminator
func.func @block_region(%out: memref<4x8xindex>) {
  croq.parallel (%i, %j) in [4, 8] : block {
    croq.write %i, %out[%i, %j] : memref<4x8xindex>
  }
  return
}

// -----

// Dynamic extents come from the host; two warpgroups make a 256-thread
// block, and each warpgroup's index is tid / 128.
// CHECK-LABEL: func.func @warpgroups
// CHECK-SAME: (%{{.*}}: memref<?xindex>, %[[N:.*]]: index)
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %[[N]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%{{.*}}) in (%{{.*}} = %[[C256]]
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128
// A one-thread region in each warpgroup: lane 0 of the warpgroup.
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c128
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[LANE]], %c1
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store %[[WG]]
func.func @warpgroups(%out: memref<?xindex>, %n: index) {
  croq.parallel (%b) in [%n] : block {
    croq.parallel (%w) in [2] : warpgroup {
      croq.parallel (%t) in [1] : thread {
        croq.write %w, %out[%b] : memref<?xindex>
      }
    }
  }
  return
}

// -----

// A thread region smaller than its block is guarded. A block-level inthreads
// becomes an scf.if followed by a barrier unless it is async; in a thread
// region each thread is its own group and needs no barrier.
// CHECK-LABEL: func.func @threads_and_inthreads
// CHECK: threads(%{{.*}}) in (%{{.*}} = %c96
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store
// CHECK: }
// CHECK-NOT: gpu.barrier
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c64
// CHECK: %[[BOTH:.*]] = arith.andi %[[IN]], %{{.*}}
// CHECK: scf.if %[[BOTH]] {
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @threads_and_inthreads(%out: memref<96xindex>, %flag: i1) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%t) in [96] : thread {
      croq.write %t, %out[%t] : memref<96xindex>
    }
    croq.inthreads %flag {
      croq.write %b, %out[%b] : memref<96xindex>
    }
    croq.inthreads async %flag {
      croq.write %b, %out[%b] : memref<96xindex>
    }
    croq.parallel (%t) in [64] : thread {
      croq.inthreads %flag {
        croq.write %t, %out[%t] : memref<96xindex>
      }
    }
  }
  return
}
