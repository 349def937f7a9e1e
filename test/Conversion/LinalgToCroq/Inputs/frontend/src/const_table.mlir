// A small constant table (non-splat tosa.const) added to each row: becomes memref.get_global.
func.func @const_table(%x: tensor<64x8xf16>) -> tensor<64x8xf16> {
  %t = "tosa.const"() <{values = dense<[[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]]> : tensor<1x8xf16>}> : () -> tensor<1x8xf16>
  %0 = tosa.add %x, %t : (tensor<64x8xf16>, tensor<1x8xf16>) -> tensor<64x8xf16>
  return %0 : tensor<64x8xf16>
}
