// linalg on tensors: a fill, an explicit linalg.copy, an insert_slice into a filled buffer
// corpus-variants: copyout
// (subview + memref.copy after bufferization) and an argument returned as is (memref.copy into
// the out-param). f16.
func.func @fill_copy(%x: tensor<64x128xf16>) -> (tensor<64x128xf16>, tensor<64x128xf16>, tensor<128x128xf16>, tensor<64x128xf16>) {
  %zero = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<64x128xf16>
  %fill = linalg.fill ins(%zero : f16) outs(%e0 : tensor<64x128xf16>) -> tensor<64x128xf16>
  %e1 = tensor.empty() : tensor<64x128xf16>
  %copy = linalg.copy ins(%x : tensor<64x128xf16>) outs(%e1 : tensor<64x128xf16>) -> tensor<64x128xf16>
  %e2 = tensor.empty() : tensor<128x128xf16>
  %pad = linalg.fill ins(%zero : f16) outs(%e2 : tensor<128x128xf16>) -> tensor<128x128xf16>
  %ins = tensor.insert_slice %x into %pad[32, 0] [64, 128] [1, 1] : tensor<64x128xf16> into tensor<128x128xf16>
  return %fill, %copy, %ins, %x : tensor<64x128xf16>, tensor<64x128xf16>, tensor<128x128xf16>, tensor<64x128xf16>
}
