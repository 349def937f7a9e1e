// RUN: croq-opt %s --croq-to-nvvm="format=none" -split-input-file -verify-diagnostics
// RUN: croq-opt %S/Inputs/unlowered.mlir --croq-check-lowering -verify-diagnostics

// The pass alone (Inputs/unlowered.mlir): every op that is not of the LLVM
// dialect (a tensor, and the function signature and call that carry it) is
// reported where it is, instead of being left in the output without a
// word. In the pipeline, convert-linalg-to-croq declines such host code
// before lowering; the check is the last line of defence.


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
