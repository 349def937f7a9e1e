// linalg on tensors: the named linalg.softmax op. No upstream pass in this pipeline decomposes
// it, so it reaches croq as linalg.softmax on memrefs.
func.func @linalg_softmax(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<64x256xf32>) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}
