// RUN: croq-opt %s --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// Named barrier ids follow the hardware barriers croq uses itself (0 for
// the block, 1 + w for warpgroup w of at most 8): id 0 is barrier 9.
// CHECK-LABEL: func.func @turns(
// CHECK-SAME:      %[[MINE:[a-z0-9_]+]]: index, %[[OTHER:[a-z0-9_]+]]: index)
// CHECK:         gpu.launch
// CHECK:           %[[C9:.*]] = arith.constant 9 : index
// CHECK-NEXT:      %[[ID:.*]] = arith.addi %[[MINE]], %[[C9]] : index
// CHECK-NEXT:      %[[ID32:.*]] = arith.index_cast %[[ID]] : index to i32
// CHECK-NEXT:      %[[N:.*]] = arith.constant 256 : i32
// CHECK-NEXT:      nvvm.barrier id = %[[ID32]] number_of_threads = %[[N]]
// CHECK:           %[[OID:.*]] = arith.addi %[[OTHER]], %{{.*}} : index
// CHECK-NEXT:      %[[OID32:.*]] = arith.index_cast %[[OID]] : index to i32
// CHECK-NEXT:      %[[N2:.*]] = arith.constant 256 : i32
// CHECK-NEXT:      nvvm.barrier.arrive id = %[[OID32]] number_of_threads = %[[N2]]
func.func @turns(%mine: index, %other: index) {
  croq.parallel (%b) in [4] : block {
    croq.parallel (%p) in [3] : warpgroup {
      croq.named_barrier.sync %mine, threads = 256
      croq.named_barrier.arrive %other, threads = 256
    }
  }
  return
}
