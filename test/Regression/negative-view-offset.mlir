// RUN: croq-opt %s --croq-normalize-views -split-input-file | FileCheck %s
// RUN: croq-opt %s --croq-to-nvvm="format=none" -split-input-file | FileCheck %s --check-prefix=LOWERED

// A tile coordinate that is a negative constant: the window's offset folds
// to a negative constant, which a croq.view may not hold as a static offset.
// croq-normalize-views (and the view-chain canonicalization) built such a
// view, and the IR no longer verified. The offset now stays an operand; the
// lowering masks what lies before the tensor. A window that starts before
// the view it selects from is not inside it either, so it keeps the inner
// view's bound (`within`). Found by croq-fuzz: its edge-integer mutator
// turned the coordinate of a seed into -1.

// CHECK-LABEL: func.func @negative_subspan_coordinate
// CHECK: %[[OFFSET:.*]] = arith.constant -16 : index
// CHECK: croq.view %{{.*}} [16] from [%[[OFFSET]]] : memref<?xf32> -> !croq.view<16xf32>
// LOWERED: llvm.func @negative_subspan_coordinate
func.func @negative_subspan_coordinate(%m: memref<?xf32>) {
  %c = arith.constant -1 : index
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    %v = croq.subspan %m [16] at [%c] : memref<?xf32> -> !croq.view<16xf32>
    croq.copy dma %v -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}

// -----

// CHECK-LABEL: func.func @negative_view_of_view
// CHECK: %[[OFFSET:.*]] = arith.constant -4 : index
// CHECK: croq.view %{{.*}} [16] from [%[[OFFSET]]] within [40] : memref<64xf32> -> !croq.view<16xf32>
// LOWERED: llvm.func @negative_view_of_view
func.func @negative_view_of_view(%m: memref<64xf32>) {
  %c = arith.constant -12 : index
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    %v = croq.view %m [32] from [8] : memref<64xf32> -> !croq.view<32xf32>
    %w = croq.view %v [16] from [%c] : !croq.view<32xf32> -> !croq.view<16xf32>
    croq.copy dma zfill %w -> %t : !croq.view<16xf32> -> !croq.tile<16xf32, shared>
  }
  return
}
