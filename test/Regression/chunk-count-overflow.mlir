// RUN: croq-opt %s | croq-opt | FileCheck %s

// A chunk count so large that count * chunk size does not fit in 64 bits:
// the zfill check treats the chunks as possibly running past the tensor's
// edge (they do: 2 x (2^62 + 1) > 2^63 - 2), so zfill is accepted. Found by
// code review and reproduced with croq-fuzz (UBSan: signed overflow in
// sourceCanBeSmaller).

// CHECK-LABEL: func.func @huge_chunk_count
// CHECK: croq.chunkat %{{.*}}[%{{.*}}] of [4611686018427387905]
// CHECK: croq.copy dma zfill
func.func @huge_chunk_count(%m: memref<9223372036854775806xi8>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<2xi8, shared>
    %v = croq.chunkat %m[%i] of [4611686018427387905] : memref<9223372036854775806xi8> -> !croq.view<2xi8>
    croq.copy dma zfill %v -> %t : !croq.view<2xi8> -> !croq.tile<2xi8, shared>
  }
  return
}
