// RUN: croq-opt %s --convert-linalg-to-croq="tile-m=128 tile-n=128 split-k=1 cluster-m=1" --canonicalize -split-input-file | FileCheck %s --implicit-check-not=linalg.
// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file | croq-opt -split-input-file > /dev/null

// linalg convolutions on memrefs as implicit GEMMs (ConvolutionMatch.cpp,
// ConvolutionKernel.cpp), with the tile fixed to 128x128: M = N P Q output
// positions, N = F filters, K = R S C (taps outer, blocks of 64 channels
// inner). The choice of tile is the GEMM's (convert-linalg-to-croq-tiles).

// -----

// The layer as an implicit GEMM: B the filters as F x (R S C), the output
// as (N P Q) x F, A by one im2col load per K step (9 taps x 1 channel
// block) from the column of the block's first output position; no padding:
// the map's box is the input less the filter's reach.
// CHECK-LABEL: func.func @fhwc
// CHECK-DAG: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<96x3x3x64xf16> into memref<96x576xf16>
// CHECK-DAG: %[[OUT:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : memref<2x8x10x96xf16> into memref<160x96xf16>
// CHECK: %[[MAP:.*]] = croq.im2col_map %arg0 pixels 128 channels 64 lower [0, 0] upper [-2, -2] strides [1, 1] swizzle = 128
// CHECK: croq.parallel (%[[BM:.*]], %[[BN:.*]]) in [2, 1] : block
// CHECK: %[[POS:.*]] = arith.muli %[[BM]], %c128
// CHECK: %[[IMG:.*]] = arith.divui %[[POS]], %c80
// CHECK: %[[REM:.*]] = arith.remui %[[POS]], %c80
// CHECK: %[[ROW:.*]] = arith.divui %[[REM]], %c10
// CHECK: %[[COL:.*]] = arith.remui %[[REM]], %c10
// CHECK: scf.for %[[K:.*]] = %c0 to %c9 step %c1
// CHECK: %[[R:.*]] = arith.divui %[[K]], %c3
// CHECK: %[[S:.*]] = arith.remui %[[K]], %c3
// CHECK: croq.im2col %arg0[%[[IMG]], %[[ROW]], %[[COL]], %c0] offsets [%[[R]], %[[S]]] -> %{{.*}} map %[[MAP]] : memref<2x10x12x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
// CHECK: croq.subspan %[[B]] [128, 64] at [%[[BN]], %[[K]]]
// CHECK: croq.mma row row
// CHECK: croq.subspan %[[OUT]] [128, 128] at [%[[BM]], %[[BN]]]
// CHECK: croq.mma.store

func.func @fhwc(%x: memref<2x10x12x64xf16>, %w: memref<96x3x3x64xf16>, %out: memref<2x8x10x96xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%out : memref<2x8x10x96xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x10x12x64xf16>, memref<96x3x3x64xf16>) outs(%out : memref<2x8x10x96xf16>)
  return
}

// -----

// hwcf filters are (R S C) x F, B's K x N layout (mma row col); two
// channel blocks per tap: K step k is tap k / 2, channels (k % 2) * 64.
// CHECK-LABEL: func.func @hwcf_f32
// CHECK-DAG: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : memref<3x3x128x64xf16> into memref<1152x64xf16>
// CHECK-DAG: memref.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : memref<1x7x7x64xf32> into memref<49x64xf32>
// CHECK: scf.for %[[K:.*]] = %c0 to %c18 step %c1
// CHECK: %[[TAP:.*]] = arith.divui %[[K]], %c2
// CHECK: %[[BLK:.*]] = arith.remui %[[K]], %c2
// CHECK: %[[CH:.*]] = arith.muli %[[BLK]], %c64
// CHECK: %[[R:.*]] = arith.divui %[[TAP]], %c3
// CHECK: %[[S:.*]] = arith.remui %[[TAP]], %c3
// CHECK: croq.im2col %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[CH]]] offsets [%[[R]], %[[S]]]
// CHECK: croq.subspan %[[B]] [64, 128] at [%[[K]], %{{.*}}]
// CHECK: croq.mma row col
// CHECK: croq.mma.store %{{.*}} : !croq.acc<128x128xf32> -> !croq.tile<128x128xf32

func.func @hwcf_f32(%x: memref<1x9x9x128xf16>, %w: memref<3x3x128x64xf16>, %out: memref<1x7x7x64xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<1x7x7x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x9x9x128xf16>, memref<3x3x128x64xf16>) outs(%out : memref<1x7x7x64xf32>)
  return
}

// -----

// Stride 2: the map steps by 2, the column's first pixel is the position
// times 2.
// CHECK-LABEL: func.func @stride2
// CHECK: croq.im2col_map %arg0 pixels 128 channels 64 lower [0, 0] upper [-2, -2] strides [2, 2]
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[Y:.*]] = arith.muli %[[ROW]], %c2
// CHECK: %[[X:.*]] = arith.muli %[[COL]], %c2
// CHECK: croq.im2col %arg0[%{{.*}}, %[[Y]], %[[X]], %c0]

func.func @stride2(%x: memref<2x17x17x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<2x8x8x64xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%out : memref<2x8x8x64xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x17x17x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<2x8x8x64xf16>)
  return
}

// -----

// Dilation 2 (bf16): the taps' offsets are twice the tap, the box's upper
// corner is the dilated filter's reach (-2 x 2).
// CHECK-LABEL: func.func @dilation2
// CHECK: croq.im2col_map %arg0 pixels 128 channels 64 lower [0, 0] upper [-4, -4] strides [1, 1]
// CHECK: %[[R:.*]] = arith.divui %{{.*}}, %c3
// CHECK: %[[S:.*]] = arith.remui %{{.*}}, %c3
// CHECK: %[[OR:.*]] = arith.muli %[[R]], %c2
// CHECK: %[[OS:.*]] = arith.muli %[[S]], %c2
// CHECK: croq.im2col %arg0[{{.*}}] offsets [%[[OR]], %[[OS]]] {{.*}} -> !croq.tile<128x64xbf16
// CHECK: croq.mma row row {{.*}} -> !croq.acc<128x128xf32>

func.func @dilation2(%x: memref<1x12x12x64xbf16>, %w: memref<64x3x3x64xbf16>, %out: memref<1x8x8x64xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%out : memref<1x8x8x64xbf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x12x12x64xbf16>, memref<64x3x3x64xbf16>) outs(%out : memref<1x8x8x64xbf16>)
  return
}

// -----

// Padding as a frontend writes it (a zero-filled padded buffer, the input
// copied into its interior): folded into the map's corners, the unpadded
// input read, the padded buffer, its fill and the copy gone; the column
// starts one pixel up and left of the position.
// CHECK-LABEL: func.func @padded_copy
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: croq.im2col_map %arg0 pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1]
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c8
// CHECK: %[[COL:.*]] = arith.remui %{{.*}}, %c8
// CHECK: %[[Y:.*]] = arith.subi %[[ROW]], %c1
// CHECK: %[[X:.*]] = arith.subi %[[COL]], %c1
// CHECK: croq.im2col %arg0[%{{.*}}, %[[Y]], %[[X]], %c0]
// CHECK-NOT: memref.dealloc
// CHECK: return

func.func @padded_copy(%x: memref<2x8x8x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<2x8x8x64xf16>) {
  %z = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<2x10x10x64xf16>
  linalg.fill ins(%z : f16) outs(%padded : memref<2x10x10x64xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 8, 8, 64] [1, 1, 1, 1] : memref<2x10x10x64xf16> to memref<2x8x8x64xf16, strided<[6400, 640, 64, 1], offset: 704>>
  memref.copy %x, %interior : memref<2x8x8x64xf16> to memref<2x8x8x64xf16, strided<[6400, 640, 64, 1], offset: 704>>
  linalg.fill ins(%z : f16) outs(%out : memref<2x8x8x64xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%padded, %w : memref<2x10x10x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<2x8x8x64xf16>)
  memref.dealloc %padded : memref<2x10x10x64xf16>
  return
}

// -----

// 1x1, stride 1: a plain GEMM of the input seen as (N H W) x C, no im2col.
// CHECK-LABEL: func.func @one_by_one
// CHECK-NOT: im2col
// CHECK-DAG: memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<72x1x1x40xf16> into memref<72x40xf16>
// CHECK-DAG: %[[A:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : memref<2x7x9x40xf16> into memref<126x40xf16>
// CHECK: croq.subspan %[[A]] [128, 64] at
// CHECK: croq.mma row row
// CHECK-NOT: im2col
// CHECK: return

func.func @one_by_one(%x: memref<2x7x9x40xf16>, %w: memref<72x1x1x40xf16>, %out: memref<2x7x9x72xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%out : memref<2x7x9x72xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x7x9x40xf16>, memref<72x1x1x40xf16>) outs(%out : memref<2x7x9x72xf16>)
  return
}

// -----

// The bias+relu generic over (n, p, q, f) computed in the epilogue over
// (N P Q) x F: the bias a column vector, the temporary gone. The bias is
// read after the K loop (before it, held in registers through the loop,
// ptxas serialized the wgmma pipeline of the implicit GEMM: 26% slower than
// the plain convolution on the H200).
// CHECK-LABEL: func.func @bias_relu
// CHECK-NOT: memref.alloc
// CHECK: %[[OUT:.*]] = memref.collapse_shape %arg3 {{\[}}[0, 1, 2], [3]] : memref<1x8x8x64xf16> into memref<64x64xf16>
// CHECK: croq.parallel
// CHECK-NOT: croq.subspan %arg2
// CHECK: croq.im2col
// CHECK: croq.mma
// CHECK: croq.subspan %arg2 [128] at
// CHECK: %[[TILE:.*]] = croq.subspan %[[OUT]] [128, 128]
// CHECK: croq.mma.map
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: croq.mma.store
// CHECK: croq.copy tma async {{.*}} -> %[[TILE]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: return

func.func @bias_relu(%x: memref<1x10x10x64xf16>, %w: memref<64x3x3x64xf16>, %bias: memref<64xf16>, %out: memref<1x8x8x64xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<1x8x8x64xf16>
  linalg.fill ins(%z : f16) outs(%t : memref<1x8x8x64xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x64xf16>, memref<64x3x3x64xf16>) outs(%t : memref<1x8x8x64xf16>)
  linalg.generic {indexing_maps = [affine_map<(n, p, q, f) -> (n, p, q, f)>, affine_map<(n, p, q, f) -> (f)>, affine_map<(n, p, q, f) -> (n, p, q, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%t, %bias : memref<1x8x8x64xf16>, memref<64xf16>) outs(%out : memref<1x8x8x64xf16>) {
  ^bb0(%v: f16, %b: f16, %o: f16):
    %s = arith.addf %v, %b : f16
    %r = arith.maximumf %s, %z : f16
    linalg.yield %r : f16
  }
  memref.dealloc %t : memref<1x8x8x64xf16>
  return
}

// -----

// 96 channels: two K steps per tap, the second reading channels 64 to 127
// (past C: zeros); B's K step starts at the element column tap * 96 +
// block * 64, not at a whole tile.
// CHECK-LABEL: func.func @channels_96
// CHECK: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<64x3x3x96xf16> into memref<64x864xf16>
// CHECK: scf.for %[[K:.*]] = %c0 to %c18 step %c1
// CHECK: %[[TAP:.*]] = arith.divui %[[K]], %c2
// CHECK: %[[BLK:.*]] = arith.remui %[[K]], %c2
// CHECK: %[[CH:.*]] = arith.muli %[[BLK]], %c64
// CHECK: croq.im2col %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %[[CH]]]
// CHECK: %[[TAP2:.*]] = arith.divui %[[K]], %c2
// CHECK: %[[BLK2:.*]] = arith.remui %[[K]], %c2
// CHECK: %[[CH2:.*]] = arith.muli %[[BLK2]], %c64
// CHECK: %[[TAPCOL:.*]] = arith.muli %[[TAP2]], %c96
// CHECK: %[[COL:.*]] = arith.addi %[[TAPCOL]], %[[CH2]]
// CHECK: croq.subspan %[[B]] [128, 64] step [128, 1] at [%{{.*}}, %[[COL]]]

func.func @channels_96(%x: memref<1x10x10x96xf16>, %w: memref<64x3x3x96xf16>, %out: memref<1x8x8x64xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%out : memref<1x8x8x64xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x10x96xf16>, memref<64x3x3x96xf16>) outs(%out : memref<1x8x8x64xf16>)
  return
}

// -----

// NCHW: the input and filters transposed into NHWC and FHWC temporaries,
// the implicit GEMM into a zero-filled NHWC temporary (the NCHW zero fill
// moved to it), the output transposed back: three elementwise kernels
// around the GEMM.
// CHECK-LABEL: func.func @nchw
// CHECK: %[[X:.*]] = memref.alloc() : memref<1x10x10x64xf16>
// CHECK: croq.parallel
// CHECK: %[[W:.*]] = memref.alloc() : memref<64x3x3x64xf16>
// CHECK: croq.parallel
// CHECK: %[[Y:.*]] = memref.alloc() : memref<1x8x8x64xf32>
// CHECK: croq.im2col_map %[[X]] pixels 128 channels 64 lower [0, 0] upper [-2, -2]
// CHECK: croq.parallel
// CHECK: croq.im2col %[[X]]
// CHECK: croq.parallel
// CHECK-DAG: memref.dealloc %[[X]]
// CHECK-DAG: memref.dealloc %[[W]]
// CHECK-DAG: memref.dealloc %[[Y]]

func.func @nchw(%x: memref<1x64x10x10xf16>, %w: memref<64x64x3x3xf16>, %out: memref<1x64x8x8xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<1x64x8x8xf32>)
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x64x10x10xf16>, memref<64x64x3x3xf16>) outs(%out : memref<1x64x8x8xf32>)
  return
}
