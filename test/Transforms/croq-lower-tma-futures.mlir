// RUN: croq-opt %s --croq-lower-tma-futures -split-input-file | FileCheck %s --implicit-check-not=croq.wait

// A synchronous tma load gets a one-slot event array at its kernel's start,
// a block barrier (earlier readers of the tile are done), is issued async,
// triggers the slot and waits on it.
// CHECK-LABEL: func.func @sync_load
// CHECK:      croq.parallel
// CHECK-NEXT:   %[[E:.*]] = croq.event.alloc : !croq.events<1>
// CHECK-NEXT:   %[[T:.*]] = croq.alloc
// CHECK:        gpu.barrier
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[F:.*]] = croq.copy tma async zfill swizzle = 128 %{{.*}} -> %[[T]] map %{{.*}} if %{{.*}}
// CHECK-NEXT:   croq.event.trigger %[[E]][%[[C0]]] after (%[[F]]) : !croq.events<1>
// CHECK-NEXT:   croq.event.wait %[[E]][%[[C0]]] : !croq.events<1>
// CHECK-NEXT:   croq.read
func.func @sync_load(%a: memref<?x?xf16>, %m: !croq.tensor_map, %ok: i32, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.view %a [64, 64] from [%i, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma zfill swizzle = 128 %v -> %t map %m if %ok : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %x = croq.read %t[%c0, %c0] : !croq.tile<64x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// An async load is triggered where it is issued; its croq.wait, later and in
// a loop here, becomes the wait on the slot. Two loads get two arrays.
// CHECK-LABEL: func.func @async_loads
// CHECK:      %[[E2:.*]] = croq.event.alloc : !croq.events<1>
// CHECK-NEXT: %[[E1:.*]] = croq.event.alloc : !croq.events<1>
// CHECK:      %[[F1:.*]] = croq.copy tma async
// CHECK-NEXT: croq.event.trigger %[[E1]][%{{.*}}] after (%[[F1]])
// CHECK:      %[[F2:.*]] = croq.copy tma async
// CHECK-NEXT: croq.event.trigger %[[E2]][%{{.*}}] after (%[[F2]])
// CHECK:      scf.for
// CHECK:        croq.event.wait %[[E1]]
// CHECK:        croq.event.wait %[[E2]]
func.func @async_loads(%a: memref<?x?xf16>, %m: !croq.tensor_map, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %u = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = croq.view %a [64, 64] from [%i, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    scf.for %k = %c0 to %n step %c1 {
      %f = croq.copy tma async %v -> %t map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %g = croq.copy tma async %v -> %u map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      scf.for %j = %c0 to %c1 step %c1 {
        croq.wait %f
        croq.wait %g
      }
    }
  }
  return
}

// -----

// Loads that trigger an event, and stores, are left as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:  gpu.barrier
// CHECK:      %[[F:.*]] = croq.copy tma async
// CHECK-NEXT: croq.event.trigger %{{.*}}[%{{.*}}] after (%[[F]]) : !croq.events<2>
// CHECK:      croq.copy tma %{{.*}} -> %{{.*}} map
// CHECK-NOT:  croq.event
func.func @left_alone(%a: memref<?x?xf16>, %m: !croq.tensor_map, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %e = croq.event.alloc : !croq.events<2>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.view %a [64, 64] from [%i, %c0] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %f = croq.copy tma async %v -> %t map %m : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.event.trigger %e[%c0] after (%f) : !croq.events<2>
    croq.copy tma %t -> %v map %m : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// -----

// A multicast load writes the tile of every block of the cluster: a
// cluster barrier, not the block's, keeps every block's earlier readers
// ahead of it.
// CHECK-LABEL: func.func @multicast
// CHECK:         %[[E:.*]] = croq.event.alloc : !croq.events<1>
// CHECK:         croq.cluster.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         %[[F:.*]] = croq.copy tma async multicast
// CHECK-NEXT:    croq.event.trigger %[[E]][%{{.*}}] after (%[[F]]) : !croq.events<1>
// CHECK-NEXT:    croq.event.wait %[[E]]
func.func @multicast(%a: memref<256x64xf16>) {
  croq.parallel (%i) in [2] : block cluster [2] {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    %v = croq.subspan %a [128, 64] at [%c0, %c0] : memref<256x64xf16> -> !croq.view<128x64xf16>
    croq.copy tma multicast %v -> %t : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
  }
  return
}

// -----

// An im2col load is lowered as a tma load: a synchronous one gets its own
// one-slot event array, a barrier, an async issue, the trigger and the
// wait; an async one's croq.wait becomes the wait on its slot.
// CHECK-LABEL: func.func @im2col_loads
// CHECK:      croq.parallel
// CHECK-NEXT:   %[[E2:.*]] = croq.event.alloc : !croq.events<1>
// CHECK-NEXT:   %[[E1:.*]] = croq.event.alloc : !croq.events<1>
// CHECK:        gpu.barrier
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[F:.*]] = croq.im2col async %{{.*}} offsets [%{{.*}}, %{{.*}}] -> %[[T:.*]] map %{{.*}} :
// CHECK-NEXT:   croq.event.trigger %[[E1]][%[[C0]]] after (%[[F]]) : !croq.events<1>
// CHECK-NEXT:   croq.event.wait %[[E1]][%[[C0]]] : !croq.events<1>
// CHECK-NEXT:   croq.read %[[T]]
// CHECK:        gpu.barrier
// CHECK-NEXT:   %[[C0B:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[G:.*]] = croq.im2col async
// CHECK-NEXT:   croq.event.trigger %[[E2]][%[[C0B]]] after (%[[G]]) : !croq.events<1>
// CHECK-NEXT:   arith.addi
// CHECK-NEXT:   %[[C0C:.*]] = arith.constant 0 : index
// CHECK-NEXT:   croq.event.wait %[[E2]][%[[C0C]]] : !croq.events<1>
func.func @im2col_loads(%x: memref<?x?x?x?xf16>, %m: !croq.tensor_map<im2col>, %n: index) {
  croq.parallel (%i) in [%n] : block {
    %t = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %c0 = arith.constant 0 : index
    croq.im2col %x[%i, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    %y = croq.read %t[%c0, %c0] : !croq.tile<128x64xf16, shared, swizzle = 128>
    %f = croq.im2col async %x[%i, %c0, %c0, %c0] offsets [%c0, %c0] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
    %k = arith.addi %i, %i : index
    croq.wait %f
  }
  return
}
