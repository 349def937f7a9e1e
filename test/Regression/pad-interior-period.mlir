// RUN: croq-opt %s --croq-assign-layouts --croq-normalize-views --croq-wait-async-stores --croq-distribute-copies --croq-plan-tma-boxes --croq-emit-tensor-maps --croq-lower-tma-futures --croq-plan-shared-memory --croq-plan-events --croq-plan-registers --croq-carry-event-phases --convert-croq-to-gpu --convert-croq-regions-to-gpu | FileCheck %s --implicit-check-not=croq.

// Interior padding of a one-element dimension adds nothing, so any interior
// size is valid, including the int64_t maximum; its period interior + 1 is
// 2^63, emitted as the unsigned index constant it is (the bit pattern of
// INT64_MIN) instead of a signed overflow. Found by code review and
// reproduced with croq-fuzz (UBSan: signed overflow in mapToSource).

// CHECK-LABEL: func.func @max_interior
// CHECK: %[[PERIOD:.*]] = arith.constant -9223372036854775808 : index
// CHECK: arith.remui %{{.*}}, %[[PERIOD]] : index
// CHECK: arith.divui %{{.*}}, %[[PERIOD]] : index
func.func @max_interior(%m: memref<1xf32>, %x: f32) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<1xf32, shared>
    croq.pad low [0] high [0] interior [9223372036854775807] %m -> %t value %x : memref<1xf32> -> !croq.tile<1xf32, shared>
  }
  return
}
