// RUN: croq-opt %s --convert-croq-regions-to-gpu -split-input-file -verify-diagnostics | FileCheck %s --implicit-check-not=croq.

// The regions alone, as convert-croq-to-gpu leaves them: a block of three
// warpgroups (384 threads) with the dynamic shared memory
// croq-plan-shared-memory recorded; two roles whose register counts
// croq-plan-registers recorded: 56 is below the 168 every thread starts
// with (65536 / 384, in steps of 8), a decrease; 232 above it, an increase.
// CHECK-LABEL: func.func @roles(%{{.*}}) attributes {llvm.emit_c_interface}
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c384, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size %c512_i32
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128
// CHECK: %[[P:.*]] = arith.cmpi eq, %[[WG]], %{{.*}}
// CHECK: %[[Q:.*]] = arith.cmpi ne, %[[WG]], %{{.*}}
// CHECK: scf.if %[[P]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 56
// CHECK-NEXT: memref.store
// CHECK: scf.if %[[Q]] {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NEXT: memref.store
// CHECK: gpu.terminator
func.func @roles(%out: memref<?xf32>, %x: f32, %y: f32) {
  croq.parallel (%i) in [64] : block attributes {shared_memory = 512 : i64} {
    croq.parallel (%w) in [3] : warpgroup {
      %c0 = arith.constant 0 : index
      %p = arith.cmpi eq, %w, %c0 : index
      %q = arith.cmpi ne, %w, %c0 : index
      croq.inthreads async %p registers = 56 {
        memref.store %x, %out[%i] : memref<?xf32>
      }
      croq.inthreads async %q registers = 232 {
        memref.store %y, %out[%i] : memref<?xf32>
      }
    }
  }
  return
}

// -----

// A thread region smaller than its block (64 threads, from the larger
// region) is guarded; a synchronous inthreads is followed by a barrier of
// its group.
// CHECK-LABEL: func.func @guards
// CHECK: gpu.launch
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[TID]], %c32
// CHECK: scf.if %[[IN]] {
// CHECK: scf.if %{{.*}} {
// CHECK: memref.store
// CHECK: gpu.barrier
func.func @guards(%out: memref<?xindex>, %flag: i1) {
  croq.parallel (%i) in [1] : block {
    croq.parallel (%t) in [32] : thread {
      memref.store %t, %out[%t] : memref<?xindex>
    }
    croq.parallel (%u) in [64] : thread {
      memref.store %u, %out[%u] : memref<?xindex>
    }
    croq.inthreads %flag {
      memref.store %i, %out[%i] : memref<?xindex>
    }
  }
  return
}

// -----

func.func @data_op_left(%a: memref<128xf32>) {
  croq.parallel (%i) in [1] : block {
    // expected-error @+1 {{'croq.alloc' op is lowered by convert-croq-to-gpu, inside its region: run convert-croq-to-gpu first}}
    %t = croq.alloc offset = 0 : !croq.tile<128xf32, shared>
    croq.copy dma %a -> %t : memref<128xf32> -> !croq.tile<128xf32, shared>
  }
  return
}
