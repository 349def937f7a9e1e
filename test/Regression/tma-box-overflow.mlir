// RUN: croq-opt %s -verify-diagnostics

// A shared view wider than any tile as the box of a tma copy: its inner
// dimension in bytes does not fit in 64 bits, which the TMA box check
// reports instead of overflowing. Found by code review and reproduced with
// croq-fuzz (UBSan: signed overflow in verifyTmaBox).

func.func @tma_box_bytes_overflow(%m: memref<?xf32>) {
  croq.parallel (%i) in [1] : block {
    %t = croq.alloc : !croq.tile<16xf32, shared>
    %v = croq.view %t [4611686018427387904] from [0] : !croq.tile<16xf32, shared> -> !croq.view<4611686018427387904xf32, shared>
    // expected-error @+1 {{'croq.copy' op the inner tma box dimension (4611686018427387904 x 'f32') is too large: its size in bytes does not fit in 64 bits}}
    croq.copy tma %m -> %v : memref<?xf32> -> !croq.view<4611686018427387904xf32, shared>
  }
  return
}
