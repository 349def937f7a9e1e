// RUN: croq-opt %s --croq-normalize-views -split-input-file | FileCheck %s

// Constant offsets whose sum or product does not fit in 64 bits are not
// folded when views are normalized; the (wrapping) index arithmetic stays
// in the IR. Found by code review, and by croq-fuzz on the code before the
// fix (UBSan: signed overflow in addOfr, mulOfr and composeWindows).

// CHECK-LABEL: func.func @subspan_offset_overflow
// CHECK: %[[BIG:.*]] = arith.constant 9223372036854775807 : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[OFFSET:.*]] = arith.muli %[[BIG]], %[[C16]] : index
// CHECK: croq.view %{{.*}} [16] from [%[[OFFSET]]] : memref<?xf32> -> !croq.view<16xf32>
func.func @subspan_offset_overflow(%m: memref<?xf32>) {
  %c = arith.constant 9223372036854775807 : index
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    %v = croq.subspan %m [16] at [%c] : memref<?xf32> -> !croq.view<16xf32>
    croq.copy dma %v -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}

// -----

// CHECK-LABEL: func.func @view_of_view_offset_overflow
// CHECK: %[[OFFSET:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: croq.view %{{.*}} [16] from [%[[OFFSET]]] within [40] : memref<64xf32> -> !croq.view<16xf32>
func.func @view_of_view_offset_overflow(%m: memref<64xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    %v = croq.view %m [32] from [8] : memref<64xf32> -> !croq.view<32xf32>
    %w = croq.view %v [16] from [9223372036854775800] : !croq.view<32xf32> -> !croq.view<16xf32>
    croq.copy dma zfill %w -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}
