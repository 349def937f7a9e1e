// linalg on tensors, as torch-mlir lowers a[:, ::2] @ b: a product of a
// slice with a column stride of 2 (a memref.subview of stride 2 once
// bufferized, which the tensor cores' loads cannot read directly).
func.func @strided_matmul(%a: tensor<128x512xf16>, %b: tensor<256x192xf16>) -> tensor<128x192xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %a[0, 0] [128, 256] [1, 2] : tensor<128x512xf16> to tensor<128x256xf16>
  %e = tensor.empty() : tensor<128x192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x192xf32>) -> tensor<128x192xf32>
  %mm = linalg.matmul ins(%s, %b : tensor<128x256xf16>, tensor<256x192xf16>) outs(%f : tensor<128x192xf32>) -> tensor<128x192xf32>
  return %mm : tensor<128x192xf32>
}
