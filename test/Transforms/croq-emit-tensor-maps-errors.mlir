// RUN: croq-opt %s --croq-plan-tma-boxes --croq-emit-tensor-maps -split-input-file -verify-diagnostics

// A tensor the kernel makes itself has no address on the host.
func.func @tensor_inside_kernel() {
  %c0 = arith.constant 0 : index
  croq.parallel (%i) in [1] : block {
    %m = memref.alloca() : memref<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    // expected-error @+1 {{'croq.copy' op the tensor of a tma copy must be defined outside the kernel, so its tensor map can be encoded on the host}}
    croq.copy tma %m -> %t : memref<64x64xf32> -> !croq.tile<64x64xf32, shared>
  }
  return
}
