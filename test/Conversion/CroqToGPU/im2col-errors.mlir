// RUN: croq-opt %s --convert-croq-to-gpu -split-input-file -verify-diagnostics

// An im2col load completes on an event slot, which croq-lower-tma-futures
// gives it: without one it is named before anything is rewritten.
func.func @im2col_no_event(%x: memref<?x?x?xf16>, %m: !croq.tensor_map<im2col>) {
  croq.parallel (%i) in [1] : block {
    %c0 = arith.constant 0 : index
    %t = croq.alloc {offset = 0 : i64} : !croq.tile<64x64xf16, shared>
    // expected-error @+1 {{'croq.im2col' op completes on no event: run croq-lower-tma-futures first}}
    %f = croq.im2col async %x[%c0, %c0, %c0] offsets [%c0] -> %t map %m : memref<?x?x?xf16> -> !croq.tile<64x64xf16, shared>
  }
  return
}
