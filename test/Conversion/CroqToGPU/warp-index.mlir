// RUN: croq-opt %s --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// croq.warp_index: the thread index (in the warpgroup: its remainder by
// 128) divided by 32, shuffled from lane 0 so that the compiler sees one
// value per warp.
// CHECK-LABEL: func.func @warp_index(
// CHECK:         gpu.launch
// CHECK:           arith.divui
// CHECK:           %[[TID:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[INWG:.*]] = arith.remui %[[TID]], %[[C128]] : index
// CHECK-NEXT:      %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT:      %[[W:.*]] = arith.divui %[[INWG]], %[[C32]] : index
// CHECK-NEXT:      %[[W32:.*]] = arith.index_castui %[[W]] : index to i32
// CHECK-NEXT:      %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT:      %[[LANE0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[CLAMP:.*]] = arith.constant 31 : i32
// CHECK-NEXT:      %[[U:.*]] = nvvm.shfl.sync idx %[[ALL]], %[[W32]], %[[LANE0]], %[[CLAMP]] : i32 -> i32
// CHECK-NEXT:      %[[WI:.*]] = arith.index_castui %[[U]] : i32 to index
// CHECK:           %[[BTID:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[C32B:.*]] = arith.constant 32 : index
// CHECK-NEXT:      %[[BW:.*]] = arith.divui %[[BTID]], %[[C32B]] : index
// CHECK:           nvvm.shfl.sync idx
// CHECK:           arith.addi %[[WI]], %{{.*}} : index
// CHECK-NEXT:      memref.store
func.func @warp_index(%out: memref<2xindex>) {
  croq.parallel (%b) in [1] : block {
    croq.parallel (%p) in [2] : warpgroup {
      %w = croq.warp_index warpgroup
      %bw = croq.warp_index block
      %s = arith.addi %w, %bw : index
      memref.store %s, %out[%p] : memref<2xindex>
    }
  }
  return
}
