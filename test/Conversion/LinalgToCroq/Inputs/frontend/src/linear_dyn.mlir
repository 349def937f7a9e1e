// linalg on tensors, as torch-mlir lowers nn.Linear + ReLU on a batch x
// sequence x features input of dynamic batch and sequence: the input
// collapsed to rows, a product with W^T (W stored out x in), a bias and a
// ReLU, the rows expanded back (an expand_shape into two dynamic extents).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @linear_dyn(%x: tensor<?x?x256xf16>, %w: tensor<512x256xf16>, %b: tensor<512xf16>) -> tensor<?x?x512xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %d0 = tensor.dim %x, %c0 : tensor<?x?x256xf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x256xf16>
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x?x256xf16> into tensor<?x256xf16>
  %m = arith.muli %d0, %d1 : index
  %e = tensor.empty(%m) : tensor<?x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
        ins(%rows, %w : tensor<?x256xf16>, tensor<512x256xf16>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
  %eh = tensor.empty(%m) : tensor<?x512xf16>
  %g = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<?x512xf32>, tensor<512xf16>) outs(%eh : tensor<?x512xf16>) {
  ^bb0(%a: f32, %bias: f16, %o: f16):
    %bf = arith.extf %bias : f16 to f32
    %u = arith.addf %a, %bf : f32
    %r = arith.maximumf %u, %zero : f32
    %h = arith.truncf %r : f32 to f16
    linalg.yield %h : f16
  } -> tensor<?x512xf16>
  %y = tensor.expand_shape %g [[0, 1], [2]] output_shape [%d0, %d1, 512] : tensor<?x512xf16> into tensor<?x?x512xf16>
  return %y : tensor<?x?x512xf16>
}
