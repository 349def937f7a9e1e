// RUN: croq-opt %s --croq-normalize-views | FileCheck %s

// A dynamic view size given as the constant INT64_MIN, chunked: the
// window's bound folds to INT64_MIN, which is ShapedType::kDynamic, the
// value a static list uses for "dynamic". croq-normalize-views wrote it as
// a static bound with no operand behind it, and the IR no longer verified
// ("expected 1 dynamic bound values"). Such a constant now stays an
// operand, for sizes and bounds alike. Found by croq-fuzz in CI.

// CHECK-LABEL: func.func @dynamic_dim_with_sentinel_size
// CHECK: arith.constant -9223372036854775808 : index
// CHECK: croq.view %{{.*}} [%{{.*}}, 16] from [%{{.*}}, 0] within [%{{.*}}, 64] : memref<64x64xf32> -> !croq.view<?x16xf32>
func.func @dynamic_dim_with_sentinel_size(%m: memref<64x64xf32>, %i: index, %t: !croq.tile<8x16xf32, shared>) {
  %c = arith.constant -9223372036854775808 : index
  %v = croq.view %m [%c, 16] from [0, 0] : memref<64x64xf32> -> !croq.view<?x16xf32>
  %w = croq.chunkat %v[%i, _] of [2, 1] : !croq.view<?x16xf32> -> !croq.view<?x16xf32>
  croq.copy dma zfill %w -> %t : !croq.view<?x16xf32> -> !croq.tile<8x16xf32, shared>
  return
}
