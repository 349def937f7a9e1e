// RUN: croq-opt %s --croq-to-nvvm="format=none" -split-input-file -verify-diagnostics

// Every op that no conversion of croq-to-nvvm handles (a tensor, and the
// function signature and call that carry it) is reported where it is,
// instead of being left in the output without a word.

// expected-error @+1 {{'func.func' op was not lowered to the LLVM dialect by croq-to-nvvm; no conversion in the pipeline handles it}}
func.func private @sink(tensor<4xf32>)

func.func @host_tensor(%out: memref<128xf32>, %x: f32) {
  // expected-error @+1 {{'tensor.empty' op was not lowered to the LLVM dialect by croq-to-nvvm; no conversion in the pipeline handles it}}
  %t = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{'func.call' op was not lowered to the LLVM dialect by croq-to-nvvm; no conversion in the pipeline handles it}}
  call @sink(%t) : (tensor<4xf32>) -> ()
  croq.parallel (%i) in [1] : block {
    croq.foreach (%k) in [128] {
      croq.write %x, %out[%k] : memref<128xf32>
    }
  }
  return
}

// -----

// What the pipeline produces passes the check: LLVM dialect host code,
// gpu.launch_func and a gpu.module of LLVM and NVVM ops (no diagnostic).
func.func @lowered(%out: memref<128xf32>, %x: f32) {
  croq.parallel (%i) in [1] : block {
    croq.foreach (%k) in [128] {
      croq.write %x, %out[%k] : memref<128xf32>
    }
  }
  return
}
