// RUN: croq-opt %s --convert-linalg-to-croq -split-input-file -verify-diagnostics

// Every convolution convert-linalg-to-croq does not compute is declined by
// name, with the rule, before anything is lowered.

func.func @channels_not_8(%x: memref<1x10x10x12xf16>, %w: memref<16x3x3x12xf16>, %out: memref<1x8x8x16xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions whose input channels are a multiple of 8 (16-byte pixels for the im2col map), got C = 12}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<1x10x10x12xf16>, memref<16x3x3x12xf16>) outs(%out : memref<1x8x8x16xf32>)
  return
}

// -----

func.func @one_by_one_channels_not_8(%x: memref<1x10x10x12xf16>, %w: memref<16x1x1x12xf16>, %out: memref<1x10x10x16xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes 1x1 convolutions whose input channels are a multiple of 8 (16-byte rows for TMA), got C = 12}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<1x10x10x12xf16>, memref<16x1x1x12xf16>) outs(%out : memref<1x10x10x16xf16>)
  return
}

// -----

func.func @filters_not_8(%x: memref<1x10x10x64xf16>, %w: memref<3x3x64x20xf16>, %out: memref<1x8x8x20xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' op convert-linalg-to-croq takes convolutions whose filter count is a multiple of 8 (16-byte output rows for TMA), got F = 20}}
  linalg.conv_2d_nhwc_hwcf ins(%x, %w : memref<1x10x10x64xf16>, memref<3x3x64x20xf16>) outs(%out : memref<1x8x8x20xf16>)
  return
}

// -----

func.func @stride_9(%x: memref<1x28x28x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<1x3x3x64xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolution strides of 1 to 8 (the im2col map's), got [9, 9]}}
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<9> : tensor<2xi64>}
    ins(%x, %w : memref<1x28x28x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<1x3x3x64xf16>)
  return
}

// -----

// A dilated filter reaching 140 pixels: the map's upper corner would be
// -140, past the 8-bit corners of a rank-4 map.
func.func @corner_out_of_range(%x: memref<1x150x20x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<1x10x18x64xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions whose im2col corners lie in [-128, 127] (padding and filter extents of NHWC maps), got lower [0, 0] upper [-140, -2]}}
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[70, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x150x20x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<1x10x18x64xf16>)
  return
}

// -----

// Padding of 130 rows (a padded copy folded into the map): the lower
// corner -130 is out of range.
func.func @padding_out_of_range(%x: memref<1x8x8x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<1x266x6x64xf16>) {
  %z = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<1x268x8x64xf16>
  linalg.fill ins(%z : f16) outs(%padded : memref<1x268x8x64xf16>)
  %interior = memref.subview %padded[0, 130, 0, 0] [1, 8, 8, 64] [1, 1, 1, 1] : memref<1x268x8x64xf16> to memref<1x8x8x64xf16, strided<[137216, 512, 64, 1], offset: 66560>>
  memref.copy %x, %interior : memref<1x8x8x64xf16> to memref<1x8x8x64xf16, strided<[137216, 512, 64, 1], offset: 66560>>
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions whose im2col corners lie in [-128, 127] (padding and filter extents of NHWC maps), got lower [-130, 0] upper [128, -2]}}
  linalg.conv_2d_nhwc_fhwc ins(%padded, %w : memref<1x268x8x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<1x266x6x64xf16>)
  return
}

// -----

func.func @f32_operands(%x: memref<1x10x10x64xf32>, %w: memref<64x3x3x64xf32>, %out: memref<1x8x8x64xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions of f16 or bf16 inputs and filters of one type, got 'f32' and 'f32'}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<1x10x10x64xf32>, memref<64x3x3x64xf32>) outs(%out : memref<1x8x8x64xf32>)
  return
}

// -----

func.func @mixed_operands(%x: memref<1x10x10x64xf16>, %w: memref<64x3x3x64xbf16>, %out: memref<1x8x8x64xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions of f16 or bf16 inputs and filters of one type, got 'f16' and 'bf16'}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<1x10x10x64xf16>, memref<64x3x3x64xbf16>) outs(%out : memref<1x8x8x64xf32>)
  return
}

// -----

func.func @f64_output(%x: memref<1x10x10x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<1x8x8x64xf64>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq writes convolutions' outputs as f32 or the inputs' type (f32 accumulation), got 'f64'}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<1x10x10x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<1x8x8x64xf64>)
  return
}

// -----

func.func @dynamic(%x: memref<?x10x10x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<?x8x8x64xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions of static shapes, got 'memref<?x10x10x64xf16>'}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<?x10x10x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<?x8x8x64xf16>)
  return
}

// -----

func.func @strided_input(%x: memref<1x10x10x64xf16, strided<[12800, 1280, 128, 1]>>, %w: memref<64x3x3x64xf16>, %out: memref<1x8x8x64xf16>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions of contiguous (identity-layout) buffers, got 'memref<1x10x10x64xf16, strided<[12800, 1280, 128, 1]>>'}}
  linalg.conv_2d_nhwc_fhwc ins(%x, %w : memref<1x10x10x64xf16, strided<[12800, 1280, 128, 1]>>, memref<64x3x3x64xf16>) outs(%out : memref<1x8x8x64xf16>)
  return
}

// -----

func.func @nchw_dynamic(%x: memref<?x64x10x10xf16>, %w: memref<64x64x3x3xf16>, %out: memref<?x64x8x8xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' op is an NCHW convolution croq does not compile: it takes those on static, contiguous buffers (through NHWC copies)}}
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<?x64x10x10xf16>, memref<64x64x3x3xf16>) outs(%out : memref<?x64x8x8xf32>)
  return
}

// -----

// Taken through NHWC copies, where the NHWC rules apply: C = 12.
func.func @nchw_channels(%x: memref<1x12x10x10xf16>, %w: memref<64x12x3x3xf16>, %out: memref<1x64x8x8xf32>) {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op convert-linalg-to-croq takes convolutions whose input channels are a multiple of 8 (16-byte pixels for the im2col map), got C = 12}}
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x12x10x10xf16>, memref<64x12x3x3xf16>) outs(%out : memref<1x64x8x8xf32>)
  return
}

// -----

func.func @depthwise(%x: memref<1x10x10x64xf16>, %w: memref<3x3x64xf16>, %out: memref<1x8x8x64xf16>) {
  // expected-error @+1 {{'linalg.depthwise_conv_2d_nhwc_hwc' op is a depthwise convolution, which croq does not compile (no reduction over channels for wgmma; a CUDA-core kernel is not built)}}
  linalg.depthwise_conv_2d_nhwc_hwc ins(%x, %w : memref<1x10x10x64xf16>, memref<3x3x64xf16>) outs(%out : memref<1x8x8x64xf16>)
  return
}

// -----

func.func @conv_1d(%x: memref<1x10x64xf16>, %w: memref<3x64x64xf16>, %out: memref<1x8x64xf16>) {
  // expected-error @+1 {{'linalg.conv_1d_nwc_wcf' op is a convolution croq does not compile: it computes linalg.conv_2d_nhwc_fhwc and conv_2d_nhwc_hwcf (f16 or bf16) as implicit GEMMs}}
  linalg.conv_1d_nwc_wcf ins(%x, %w : memref<1x10x64xf16>, memref<3x64x64xf16>) outs(%out : memref<1x8x64xf16>)
  return
}
