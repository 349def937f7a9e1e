// Host code that no conversion lowered, for croq-check-lowering alone
// (croq-check-lowering.mlir): each op outside the LLVM dialect is reported
// once, at the outermost op that was not lowered (a function's body is the
// function's).

// expected-error @+1 {{'func.func' op was not lowered to the LLVM dialect by croq-to-nvvm; no conversion in the pipeline handles it}}
func.func private @sink(tensor<4xf32>)

// expected-error @+1 {{'func.func' op was not lowered to the LLVM dialect by croq-to-nvvm; no conversion in the pipeline handles it}}
func.func @host_tensor() {
  %t = tensor.empty() : tensor<4xf32>
  call @sink(%t) : (tensor<4xf32>) -> ()
  return
}
