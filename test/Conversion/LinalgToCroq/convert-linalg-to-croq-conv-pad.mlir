// RUN: croq-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --convert-linalg-to-croq --canonicalize | FileCheck %s --implicit-check-not=linalg. --implicit-check-not=memref.alloc --implicit-check-not=memref.copy
// RUN: croq-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --croq-fuse-elementwise --convert-linalg-to-croq --canonicalize | FileCheck %s --implicit-check-not=linalg. --implicit-check-not=memref.alloc --implicit-check-not=memref.copy

// A convolution on tensors with its padding as a tensor.pad, as frontends
// write it: one-shot-bufferize makes the pad a zero-filled buffer
// (linalg.map yielding the pad value; a generic after
// croq-fuse-elementwise) with the input copied into its interior. The pass
// folds it into the im2col map's corners (asymmetric here: 2 rows above,
// 1 below, 1 column left, none right) and reads the unpadded input: no
// padded buffer is made. The bias+relu generic that follows is the
// epilogue.

// CHECK-LABEL: func.func @conv_pad_bias_relu
// CHECK-SAME: (%[[X:[a-z0-9]+]]: memref<2x13x11x64xf16>, %[[W:[a-z0-9]+]]: memref<3x3x64x128xf16>, %[[BIAS:[a-z0-9]+]]: memref<128xf16>, %[[OUT:[a-z0-9]+]]: memref<2x14x10x128xf16>)
// CHECK: croq.im2col_map %[[X]] pixels {{[0-9]+}} channels 64 lower [-2, -1] upper [-1, -2] strides [1, 1] swizzle = 128 : memref<2x13x11x64xf16>
// CHECK: croq.parallel
// CHECK: croq.im2col %[[X]]
// CHECK: croq.mma row col
// CHECK: croq.mma.map
// CHECK: arith.maximumf
// CHECK: croq.mma.store
// CHECK: return

func.func @conv_pad_bias_relu(%x: tensor<2x13x11x64xf16>, %w: tensor<3x3x64x128xf16>, %bias: tensor<128xf16>) -> tensor<2x14x10x128xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 2, 1, 0] high[0, 1, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<2x13x11x64xf16> to tensor<2x16x12x64xf16>
  %e = tensor.empty() : tensor<2x14x10x128xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x14x10x128xf16>) -> tensor<2x14x10x128xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%p, %w : tensor<2x16x12x64xf16>, tensor<3x3x64x128xf16>) outs(%f : tensor<2x14x10x128xf16>) -> tensor<2x14x10x128xf16>
  %e2 = tensor.empty() : tensor<2x14x10x128xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(n, p, q, f) -> (n, p, q, f)>, affine_map<(n, p, q, f) -> (f)>, affine_map<(n, p, q, f) -> (n, p, q, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %bias : tensor<2x14x10x128xf16>, tensor<128xf16>) outs(%e2 : tensor<2x14x10x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o2: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %zero : f16
    linalg.yield %m : f16
  } -> tensor<2x14x10x128xf16>
  return %o : tensor<2x14x10x128xf16>
}
