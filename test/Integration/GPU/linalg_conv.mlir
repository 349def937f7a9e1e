// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/conv_issue_f16_kernel.ptx -o %t.0.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_pad1_odd_f16_kernel.ptx -o %t.1.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_hwcf_f32_kernel.ptx -o %t.2.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_stride2_f16_kernel.ptx -o %t.3.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_dilation2_f16_kernel.ptx -o %t.4.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_5x3_asym_f16_kernel.ptx -o %t.5.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_1x1_f16_kernel.ptx -o %t.6.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_bias_relu_f16_kernel.ptx -o %t.7.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_bf16_f32_kernel.ptx -o %t.8.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_c32_f32_kernel.ptx -o %t.9.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_c96_hwcf_f16_kernel.ptx -o %t.10.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_nchw_f16_kernel.ptx -o %t.11.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_nchw_f16_kernel_0.ptx -o %t.12.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_nchw_f16_kernel_1.ptx -o %t.13.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: %ptxas -arch=sm_90a %t.d/conv_nchw_f16_kernel_2.ptx -o %t.14.cubin 2>&1 | FileCheck --allow-empty --check-prefix=PTXAS %s
// RUN: FileCheck %s --check-prefix=ISSUE < %t.d/conv_issue_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=PLAIN < %t.d/conv_1x1_f16_kernel.ptx

// Each function is one kernel: the padded copies are folded into the
// im2col maps, the zero fills and the bias+relu consumer into the GEMM.
// ptxas does not serialize the wgmma pipeline (C7514/C7517 warnings).
// PTXAS-NOT: C75{{1[0-8]|2[0-9]}}
// PTXAS-NOT: warning
// PTXAS-NOT: error

// The layer of issue 42, pipelined: producer and consumer warpgroups, the
// im2col load of A and the tiled load of B in the producer, wgmma.
// ISSUE: .maxntid 384, 1, 1
// ISSUE-DAG: setmaxnreg.dec.sync.aligned.u32
// ISSUE-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// ISSUE-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes
// ISSUE-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes

// A 1x1 convolution is a plain GEMM: no im2col load.
// PLAIN-NOT: im2col
// PLAIN: wgmma.mma_async
// PLAIN-NOT: im2col

//===- linalg_conv.mlir - GPU test: convolutions from linalg --------------===//
//
// linalg convolutions on memrefs as a frontend hands them over (padding as
// a zero-filled padded copy, a zero fill of the output, the elementwise
// consumer after), written by gen_linalg_conv.py tests; conv_tests.py runs
// them against torch's conv2d.
//
//===----------------------------------------------------------------------===//


func.func @conv_issue_f16(%x: memref<8x58x58x64xf16>, %w: memref<128x3x3x64xf16>, %out: memref<8x56x56x128xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  linalg.fill ins(%zo : f16) outs(%out : memref<8x56x56x128xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%x, %w : memref<8x58x58x64xf16>, memref<128x3x3x64xf16>) outs(%out : memref<8x56x56x128xf16>)
  return
}

func.func @conv_pad1_odd_f16(%x: memref<2x13x11x64xf16>, %w: memref<96x3x3x64xf16>, %out: memref<2x13x11x96xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<2x15x13x64xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<2x15x13x64xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 13, 11, 64] [1, 1, 1, 1] : memref<2x15x13x64xf16> to memref<2x13x11x64xf16, strided<[12480, 832, 64, 1], offset: 896>>
  memref.copy %x, %interior : memref<2x13x11x64xf16> to memref<2x13x11x64xf16, strided<[12480, 832, 64, 1], offset: 896>>
  linalg.fill ins(%zo : f16) outs(%out : memref<2x13x11x96xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<2x15x13x64xf16>, memref<96x3x3x64xf16>) outs(%out : memref<2x13x11x96xf16>)
  memref.dealloc %padded : memref<2x15x13x64xf16>
  return
}

func.func @conv_hwcf_f32(%x: memref<3x9x17x128xf16>, %w: memref<3x3x128x200xf16>, %out: memref<3x9x17x200xf32>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<3x11x19x128xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<3x11x19x128xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [3, 9, 17, 128] [1, 1, 1, 1] : memref<3x11x19x128xf16> to memref<3x9x17x128xf16, strided<[26752, 2432, 128, 1], offset: 2560>>
  memref.copy %x, %interior : memref<3x9x17x128xf16> to memref<3x9x17x128xf16, strided<[26752, 2432, 128, 1], offset: 2560>>
  linalg.fill ins(%zo : f32) outs(%out : memref<3x9x17x200xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<3x11x19x128xf16>, memref<3x3x128x200xf16>) outs(%out : memref<3x9x17x200xf32>)
  memref.dealloc %padded : memref<3x11x19x128xf16>
  return
}

func.func @conv_stride2_f16(%x: memref<2x15x13x64xf16>, %w: memref<64x3x3x64xf16>, %out: memref<2x8x7x64xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<2x17x15x64xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<2x17x15x64xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 15, 13, 64] [1, 1, 1, 1] : memref<2x17x15x64xf16> to memref<2x15x13x64xf16, strided<[16320, 960, 64, 1], offset: 1024>>
  memref.copy %x, %interior : memref<2x15x13x64xf16> to memref<2x15x13x64xf16, strided<[16320, 960, 64, 1], offset: 1024>>
  linalg.fill ins(%zo : f16) outs(%out : memref<2x8x7x64xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
    ins(%padded, %w : memref<2x17x15x64xf16>, memref<64x3x3x64xf16>) outs(%out : memref<2x8x7x64xf16>)
  memref.dealloc %padded : memref<2x17x15x64xf16>
  return
}

func.func @conv_dilation2_f16(%x: memref<2x12x10x64xf16>, %w: memref<128x3x3x64xf16>, %out: memref<2x12x10x128xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<2x16x14x64xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<2x16x14x64xf16>)
  %interior = memref.subview %padded[0, 2, 2, 0] [2, 12, 10, 64] [1, 1, 1, 1] : memref<2x16x14x64xf16> to memref<2x12x10x64xf16, strided<[14336, 896, 64, 1], offset: 1920>>
  memref.copy %x, %interior : memref<2x12x10x64xf16> to memref<2x12x10x64xf16, strided<[14336, 896, 64, 1], offset: 1920>>
  linalg.fill ins(%zo : f16) outs(%out : memref<2x12x10x128xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[2, 2]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<2x16x14x64xf16>, memref<128x3x3x64xf16>) outs(%out : memref<2x12x10x128xf16>)
  memref.dealloc %padded : memref<2x16x14x64xf16>
  return
}

func.func @conv_5x3_asym_f16(%x: memref<1x11x9x64xf16>, %w: memref<5x3x64x64xf16>, %out: memref<1x10x4x64xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<1x14x10x64xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<1x14x10x64xf16>)
  %interior = memref.subview %padded[0, 2, 1, 0] [1, 11, 9, 64] [1, 1, 1, 1] : memref<1x14x10x64xf16> to memref<1x11x9x64xf16, strided<[8960, 640, 64, 1], offset: 1344>>
  memref.copy %x, %interior : memref<1x11x9x64xf16> to memref<1x11x9x64xf16, strided<[8960, 640, 64, 1], offset: 1344>>
  linalg.fill ins(%zo : f16) outs(%out : memref<1x10x4x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
    ins(%padded, %w : memref<1x14x10x64xf16>, memref<5x3x64x64xf16>) outs(%out : memref<1x10x4x64xf16>)
  memref.dealloc %padded : memref<1x14x10x64xf16>
  return
}

func.func @conv_1x1_f16(%x: memref<2x7x9x40xf16>, %w: memref<72x1x1x40xf16>, %out: memref<2x7x9x72xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  linalg.fill ins(%zo : f16) outs(%out : memref<2x7x9x72xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%x, %w : memref<2x7x9x40xf16>, memref<72x1x1x40xf16>) outs(%out : memref<2x7x9x72xf16>)
  return
}

func.func @conv_bias_relu_f16(%x: memref<2x13x11x64xf16>, %w: memref<96x3x3x64xf16>, %bias: memref<96xf16>, %out: memref<2x13x11x96xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<2x15x13x64xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<2x15x13x64xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 13, 11, 64] [1, 1, 1, 1] : memref<2x15x13x64xf16> to memref<2x13x11x64xf16, strided<[12480, 832, 64, 1], offset: 896>>
  memref.copy %x, %interior : memref<2x13x11x64xf16> to memref<2x13x11x64xf16, strided<[12480, 832, 64, 1], offset: 896>>
  %product = memref.alloc() : memref<2x13x11x96xf16>
  linalg.fill ins(%zo : f16) outs(%product : memref<2x13x11x96xf16>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<2x15x13x64xf16>, memref<96x3x3x64xf16>) outs(%product : memref<2x13x11x96xf16>)
  linalg.generic {indexing_maps = [affine_map<(n, p, q, f) -> (n, p, q, f)>, affine_map<(n, p, q, f) -> (f)>, affine_map<(n, p, q, f) -> (n, p, q, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%product, %bias : memref<2x13x11x96xf16>, memref<96xf16>) outs(%out : memref<2x13x11x96xf16>) {
  ^bb0(%v: f16, %b: f16, %o: f16):
    %sum = arith.addf %v, %b : f16
    %relu = arith.maximumf %sum, %zo : f16
    linalg.yield %relu : f16
  }
  memref.dealloc %product : memref<2x13x11x96xf16>
  memref.dealloc %padded : memref<2x15x13x64xf16>
  return
}

func.func @conv_bf16_f32(%x: memref<1x10x10x64xbf16>, %w: memref<64x3x3x64xbf16>, %out: memref<1x10x10x64xf32>) {
  %zx = arith.constant 0.0 : bf16
  %zo = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x12x12x64xbf16>
  linalg.fill ins(%zx : bf16) outs(%padded : memref<1x12x12x64xbf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 10, 10, 64] [1, 1, 1, 1] : memref<1x12x12x64xbf16> to memref<1x10x10x64xbf16, strided<[9216, 768, 64, 1], offset: 832>>
  memref.copy %x, %interior : memref<1x10x10x64xbf16> to memref<1x10x10x64xbf16, strided<[9216, 768, 64, 1], offset: 832>>
  linalg.fill ins(%zo : f32) outs(%out : memref<1x10x10x64xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<1x12x12x64xbf16>, memref<64x3x3x64xbf16>) outs(%out : memref<1x10x10x64xf32>)
  memref.dealloc %padded : memref<1x12x12x64xbf16>
  return
}

func.func @conv_c32_f32(%x: memref<1x16x16x32xf16>, %w: memref<64x3x3x32xf16>, %out: memref<1x16x16x64xf32>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x18x18x32xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<1x18x18x32xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [1, 16, 16, 32] [1, 1, 1, 1] : memref<1x18x18x32xf16> to memref<1x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>
  memref.copy %x, %interior : memref<1x16x16x32xf16> to memref<1x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>
  linalg.fill ins(%zo : f32) outs(%out : memref<1x16x16x64xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<1x18x18x32xf16>, memref<64x3x3x32xf16>) outs(%out : memref<1x16x16x64xf32>)
  memref.dealloc %padded : memref<1x18x18x32xf16>
  return
}

func.func @conv_c96_hwcf_f16(%x: memref<2x9x7x96xf16>, %w: memref<3x3x96x136xf16>, %out: memref<2x9x7x136xf16>) {
  %zx = arith.constant 0.0 : f16
  %zo = arith.constant 0.0 : f16
  %padded = memref.alloc() : memref<2x11x9x96xf16>
  linalg.fill ins(%zx : f16) outs(%padded : memref<2x11x9x96xf16>)
  %interior = memref.subview %padded[0, 1, 1, 0] [2, 9, 7, 96] [1, 1, 1, 1] : memref<2x11x9x96xf16> to memref<2x9x7x96xf16, strided<[9504, 864, 96, 1], offset: 960>>
  memref.copy %x, %interior : memref<2x9x7x96xf16> to memref<2x9x7x96xf16, strided<[9504, 864, 96, 1], offset: 960>>
  linalg.fill ins(%zo : f16) outs(%out : memref<2x9x7x136xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%padded, %w : memref<2x11x9x96xf16>, memref<3x3x96x136xf16>) outs(%out : memref<2x9x7x136xf16>)
  memref.dealloc %padded : memref<2x11x9x96xf16>
  return
}

func.func @conv_nchw_f16(%x: memref<2x64x11x9xf16>, %w: memref<72x64x3x3xf16>, %out: memref<2x72x9x7xf16>) {
  %zo = arith.constant 0.0 : f16
  linalg.fill ins(%zo : f16) outs(%out : memref<2x72x9x7xf16>)
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%x, %w : memref<2x64x11x9xf16>, memref<72x64x3x3xf16>) outs(%out : memref<2x72x9x7xf16>)
  return
}
