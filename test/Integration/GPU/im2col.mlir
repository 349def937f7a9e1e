// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/im2col_s2d2_kernel.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.d/im2col_asym_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/conv3x3_p1s1_f16_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/conv3x3_p1s2_f16_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/im2col_nwc_kernel.ptx -o %t.4.cubin
// RUN: %ptxas -arch=sm_90a %t.d/im2col_ndhwc_kernel.ptx -o %t.5.cubin
// RUN: %ptxas -arch=sm_90a %t.d/conv3x3_p1s1_pipelined_f16_kernel.ptx -o %t.6.cubin
// RUN: FileCheck %s < %t.d/im2col_s2d2_kernel.ptx
// RUN: FileCheck %s --check-prefix=RANK5 < %t.d/im2col_ndhwc_kernel.ptx
// RUN: FileCheck %s --check-prefix=PIPE < %t.d/conv3x3_p1s1_pipelined_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=CONV < %t.d/conv3x3_p1s1_f16_kernel.ptx

// The load is one bulk tensor copy in im2col mode: four coordinates (C, W,
// H, N) and two 16-bit offsets, completing on the block's mbarrier, which
// then expects its bytes; the tile goes out by a tiled tma store.
// CHECK: mbarrier.init.shared.b64
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [{{.*}}], {%rs{{[0-9]+}}, %rs{{[0-9]+}}};
// CHECK: mbarrier.arrive.expect_tx.shared.b64
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta

// Rank 5: five coordinates and three offsets.
// RANK5: cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [{{.*}}], {%rs{{[0-9]+}}, %rs{{[0-9]+}}, %rs{{[0-9]+}}};

// The pipelined implicit GEMM: producer and consumer warpgroups with their
// register budgets, the im2col load in the producer.
// PIPE: .maxntid 384, 1, 1
// PIPE-DAG: setmaxnreg.dec.sync.aligned.u32
// PIPE-DAG: setmaxnreg.inc.sync.aligned.u32
// PIPE-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.im2col

// The implicit GEMM: per K step, one im2col load of A and one tiled load of
// B, then wgmma.
// CONV-DAG: cp.async.bulk.tensor.4d.shared::cluster.global.im2col
// CONV-DAG: cp.async.bulk.tensor.2d.shared::cluster.global
// CONV-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

//===- im2col.mlir - GPU test: TMA loads in im2col mode -------------------===//
//
// Each block loads one 64-pixel x 64-channel column of the im2col matrix of
// an N x H x W x C f16 tensor (one filter tap of a 3x3 convolution, one
// block of 64 output positions, one block of 64 channels) into a swizzled
// shared tile by one im2col TMA load, and stores it (tiled TMA) as rows
// tap * Mpad + position of the output, Mpad = the positions rounded up to
// 64. run_gpu_tests.py compares them with torch's unfold of the NCHW view;
// positions past the last image must read zero.
//
// @conv3x3_p1s*_f16: 3x3 convolutions (padding 1, stride 1 or 2) as
// unpipelined implicit GEMMs on wgmma: output position x filter tiles of
// 128 x 128, K over the taps and blocks of 64 channels (C a multiple of
// 64); A is the im2col column of the tap, B the filters as an
// F x (3 * 3 * C) matrix; f32 accumulation, f16 out.
//
//===----------------------------------------------------------------------===//

// Padding 2, stride 2, dilation 2 along H and W.
func.func @im2col_s2d2(%x: memref<?x?x?x?xf16>, %out: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 64 channels 64 lower [-2, -2] upper [-2, -2] strides [2, 2] swizzle = 128 : memref<?x?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x?xf16>
  %h = memref.dim %x, %c1 : memref<?x?x?x?xf16>
  %w = memref.dim %x, %c2 : memref<?x?x?x?xf16>
  %ch = memref.dim %x, %c3 : memref<?x?x?x?xf16>
  // Output extents: (H + 4 - 2 * 2 - 1) / 2 + 1 rows and
  // (W + 4 - 2 * 2 - 1) / 2 + 1 columns.
  %hspan = arith.constant -1 : index
  %wspan = arith.constant -1 : index
  %sh = arith.constant 2 : index
  %sw = arith.constant 2 : index
  %ph = arith.addi %h, %hspan : index
  %ph1 = arith.divui %ph, %sh : index
  %p = arith.addi %ph1, %c1 : index
  %qw = arith.addi %w, %wspan : index
  %qw1 = arith.divui %qw, %sw : index
  %q = arith.addi %qw1, %c1 : index
  %l = arith.muli %p, %q : index
  %pixels = arith.muli %n, %l : index
  %tiles = arith.ceildivui %pixels, %c64 : index
  %cblocks = arith.ceildivui %ch, %c64 : index
  croq.parallel (%mt, %rs, %cb) in [%tiles, %c9, %cblocks] : block {
    // The column's first output position (image, row, column) and its
    // input pixel: the position times the strides, less the padding.
    %m0 = arith.muli %mt, %c64 : index
    %img = arith.divui %m0, %l : index
    %rem = arith.remui %m0, %l : index
    %orow = arith.divui %rem, %q : index
    %ocol = arith.remui %rem, %q : index
    %padh = arith.constant 2 : index
    %padw = arith.constant 2 : index
    %hs = arith.muli %orow, %sh : index
    %hy = arith.subi %hs, %padh : index
    %ws = arith.muli %ocol, %sw : index
    %wx = arith.subi %ws, %padw : index
    %cc = arith.muli %cb, %c64 : index
    // The filter tap (r, s) of this block, times the dilations.
    %r = arith.divui %rs, %c3 : index
    %s = arith.remui %rs, %c3 : index
    %dh = arith.constant 2 : index
    %dw = arith.constant 2 : index
    %offh = arith.muli %r, %dh : index
    %offw = arith.muli %s, %dw : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %f = croq.im2col async %x[%img, %hy, %wx, %cc] offsets [%offh, %offw] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.wait %f
    %rowblock0 = arith.muli %rs, %tiles : index
    %rowblock = arith.addi %rowblock0, %mt : index
    %dst = croq.subspan %out [64, 64] at [%rowblock, %cb] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// Padding (1, 2), stride (2, 1), dilation (1, 2): H and W differ, so the
// corners, strides and offsets must each reach their own dimension.
func.func @im2col_asym(%x: memref<?x?x?x?xf16>, %out: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 64 channels 64 lower [-1, -2] upper [-1, -2] strides [2, 1] swizzle = 128 : memref<?x?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x?xf16>
  %h = memref.dim %x, %c1 : memref<?x?x?x?xf16>
  %w = memref.dim %x, %c2 : memref<?x?x?x?xf16>
  %ch = memref.dim %x, %c3 : memref<?x?x?x?xf16>
  // Output extents: (H + 2 - 1 * 2 - 1) / 2 + 1 rows and
  // (W + 4 - 2 * 2 - 1) / 1 + 1 columns.
  %hspan = arith.constant -1 : index
  %wspan = arith.constant -1 : index
  %sh = arith.constant 2 : index
  %sw = arith.constant 1 : index
  %ph = arith.addi %h, %hspan : index
  %ph1 = arith.divui %ph, %sh : index
  %p = arith.addi %ph1, %c1 : index
  %qw = arith.addi %w, %wspan : index
  %qw1 = arith.divui %qw, %sw : index
  %q = arith.addi %qw1, %c1 : index
  %l = arith.muli %p, %q : index
  %pixels = arith.muli %n, %l : index
  %tiles = arith.ceildivui %pixels, %c64 : index
  %cblocks = arith.ceildivui %ch, %c64 : index
  croq.parallel (%mt, %rs, %cb) in [%tiles, %c9, %cblocks] : block {
    // The column's first output position (image, row, column) and its
    // input pixel: the position times the strides, less the padding.
    %m0 = arith.muli %mt, %c64 : index
    %img = arith.divui %m0, %l : index
    %rem = arith.remui %m0, %l : index
    %orow = arith.divui %rem, %q : index
    %ocol = arith.remui %rem, %q : index
    %padh = arith.constant 1 : index
    %padw = arith.constant 2 : index
    %hs = arith.muli %orow, %sh : index
    %hy = arith.subi %hs, %padh : index
    %ws = arith.muli %ocol, %sw : index
    %wx = arith.subi %ws, %padw : index
    %cc = arith.muli %cb, %c64 : index
    // The filter tap (r, s) of this block, times the dilations.
    %r = arith.divui %rs, %c3 : index
    %s = arith.remui %rs, %c3 : index
    %dh = arith.constant 1 : index
    %dw = arith.constant 2 : index
    %offh = arith.muli %r, %dh : index
    %offw = arith.muli %s, %dw : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %f = croq.im2col async %x[%img, %hy, %wx, %cc] offsets [%offh, %offw] -> %t map %m : memref<?x?x?x?xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.wait %f
    %rowblock0 = arith.muli %rs, %tiles : index
    %rowblock = arith.addi %rowblock0, %mt : index
    %dst = croq.subspan %out [64, 64] at [%rowblock, %cb] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// 3x3, padding 1, stride 1 (a ResNet layer).
func.func @conv3x3_p1s1_f16(%x: memref<?x?x?x?xf16>, %w: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x?xf16>
  %h = memref.dim %x, %c1 : memref<?x?x?x?xf16>
  %wd = memref.dim %x, %c2 : memref<?x?x?x?xf16>
  %ch = memref.dim %x, %c3 : memref<?x?x?x?xf16>
  %f = memref.dim %w, %c0 : memref<?x?xf16>
  // Output extents (H + 2 - 3) / 1 + 1 and (W + 2 - 3) / 1 + 1.
  %span = arith.constant -1 : index
  %s = arith.constant 1 : index
  %ph = arith.addi %h, %span : index
  %ph1 = arith.divui %ph, %s : index
  %p = arith.addi %ph1, %c1 : index
  %qw = arith.addi %wd, %span : index
  %qw1 = arith.divui %qw, %s : index
  %q = arith.addi %qw1, %c1 : index
  %l = arith.muli %p, %q : index
  %pixels = arith.muli %n, %l : index
  %grid_m = arith.ceildivui %pixels, %c128 : index
  %grid_n = arith.ceildivui %f, %c128 : index
  // K runs over the taps (r, s), then blocks of 64 channels (C % 64 == 0).
  %cblocks = arith.divui %ch, %c64 : index
  %c9 = arith.constant 9 : index
  %k_tiles = arith.muli %cblocks, %c9 : index
  %padv = arith.constant 1 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    // The block's first output position and its input pixel.
    %m0 = arith.muli %block_m, %c128 : index
    %img = arith.divui %m0, %l : index
    %rem = arith.remui %m0, %l : index
    %orow = arith.divui %rem, %q : index
    %ocol = arith.remui %rem, %q : index
    %hs = arith.muli %orow, %s : index
    %hy = arith.subi %hs, %padv : index
    %ws = arith.muli %ocol, %s : index
    %wx = arith.subi %ws, %padv : index
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %tap = arith.divui %iv_k, %cblocks : index
      %cb = arith.remui %iv_k, %cblocks : index
      %r = arith.divui %tap, %c3 : index
      %t = arith.remui %tap, %c3 : index
      %cc = arith.muli %cb, %c64 : index
      croq.im2col %x[%img, %hy, %wx, %cc] offsets [%r, %t] -> %lhs_s map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %w [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    } {croq.stages = 1 : i64}
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// 3x3, padding 1, stride 2 (a downsampling layer).
func.func @conv3x3_p1s2_f16(%x: memref<?x?x?x?xf16>, %w: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [2, 2] swizzle = 128 : memref<?x?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x?xf16>
  %h = memref.dim %x, %c1 : memref<?x?x?x?xf16>
  %wd = memref.dim %x, %c2 : memref<?x?x?x?xf16>
  %ch = memref.dim %x, %c3 : memref<?x?x?x?xf16>
  %f = memref.dim %w, %c0 : memref<?x?xf16>
  // Output extents (H + 2 - 3) / 2 + 1 and (W + 2 - 3) / 2 + 1.
  %span = arith.constant -1 : index
  %s = arith.constant 2 : index
  %ph = arith.addi %h, %span : index
  %ph1 = arith.divui %ph, %s : index
  %p = arith.addi %ph1, %c1 : index
  %qw = arith.addi %wd, %span : index
  %qw1 = arith.divui %qw, %s : index
  %q = arith.addi %qw1, %c1 : index
  %l = arith.muli %p, %q : index
  %pixels = arith.muli %n, %l : index
  %grid_m = arith.ceildivui %pixels, %c128 : index
  %grid_n = arith.ceildivui %f, %c128 : index
  // K runs over the taps (r, s), then blocks of 64 channels (C % 64 == 0).
  %cblocks = arith.divui %ch, %c64 : index
  %c9 = arith.constant 9 : index
  %k_tiles = arith.muli %cblocks, %c9 : index
  %padv = arith.constant 1 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    // The block's first output position and its input pixel.
    %m0 = arith.muli %block_m, %c128 : index
    %img = arith.divui %m0, %l : index
    %rem = arith.remui %m0, %l : index
    %orow = arith.divui %rem, %q : index
    %ocol = arith.remui %rem, %q : index
    %hs = arith.muli %orow, %s : index
    %hy = arith.subi %hs, %padv : index
    %ws = arith.muli %ocol, %s : index
    %wx = arith.subi %ws, %padv : index
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %tap = arith.divui %iv_k, %cblocks : index
      %cb = arith.remui %iv_k, %cblocks : index
      %r = arith.divui %tap, %c3 : index
      %t = arith.remui %tap, %c3 : index
      %cc = arith.muli %cb, %c64 : index
      croq.im2col %x[%img, %hy, %wx, %cc] offsets [%r, %t] -> %lhs_s map %m : memref<?x?x?x?xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %w [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    } {croq.stages = 1 : i64}
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// Rank 3 (N, W, C): padding 2, stride 2, dilation 2; 3 taps.
func.func @im2col_nwc(%x: memref<?x?x?xf16>, %out: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 64 channels 64 lower [-2] upper [-2] strides [2] swizzle = 128 : memref<?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %ctaps = arith.constant 3 : index
  %cd0 = arith.constant 0 : index
  %dim0 = memref.dim %x, %cd0 : memref<?x?x?xf16>
  %cd1 = arith.constant 1 : index
  %dim1 = memref.dim %x, %cd1 : memref<?x?x?xf16>
  %cd2 = arith.constant 2 : index
  %dim2 = memref.dim %x, %cd2 : memref<?x?x?xf16>
  %l0 = arith.constant 1 : index
  %span0 = arith.constant -1 : index
  %st0 = arith.constant 2 : index
  %e0a = arith.addi %dim1, %span0 : index
  %e0b = arith.divui %e0a, %st0 : index
  %o0 = arith.addi %e0b, %c1 : index
  %l1 = arith.muli %l0, %o0 : index
  %pixels = arith.muli %dim0, %l1 : index
  %tiles = arith.ceildivui %pixels, %c64 : index
  %cblocks = arith.ceildivui %dim2, %c64 : index
  croq.parallel (%mt, %tap, %cb) in [%tiles, %ctaps, %cblocks] : block {
    %m0 = arith.muli %mt, %c64 : index
    %img = arith.divui %m0, %l1 : index
    %r1 = arith.remui %m0, %l1 : index
    %oc0 = arith.addi %r1, %c0 : index
    %pad0 = arith.constant 2 : index
    %sc0 = arith.muli %oc0, %st0 : index
    %px0 = arith.subi %sc0, %pad0 : index
    %tdiv0 = arith.constant 1 : index
    %t0 = arith.divui %tap, %tdiv0 : index
    %trem0 = arith.remui %tap, %tdiv0 : index
    %dil0 = arith.constant 2 : index
    %off0 = arith.muli %t0, %dil0 : index
    %cc = arith.muli %cb, %c64 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %f = croq.im2col async %x[%img, %px0, %cc] offsets [%off0] -> %t map %m : memref<?x?x?xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.wait %f
    %rowblock0 = arith.muli %tap, %tiles : index
    %rowblock = arith.addi %rowblock0, %mt : index
    %dst = croq.subspan %out [64, 64] at [%rowblock, %cb] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// Rank 5 (N, D, H, W, C): padding (1, 0, 1), stride (1, 2, 1), dilation
// (1, 1, 2); 27 taps. D, H and W differ in each, so each list must reach its
// own dimension.
func.func @im2col_ndhwc(%x: memref<?x?x?x?x?xf16>, %out: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 64 channels 64 lower [-1, 0, -1] upper [-1, -2, -3] strides [1, 2, 1] swizzle = 128 : memref<?x?x?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %ctaps = arith.constant 27 : index
  %cd0 = arith.constant 0 : index
  %dim0 = memref.dim %x, %cd0 : memref<?x?x?x?x?xf16>
  %cd1 = arith.constant 1 : index
  %dim1 = memref.dim %x, %cd1 : memref<?x?x?x?x?xf16>
  %cd2 = arith.constant 2 : index
  %dim2 = memref.dim %x, %cd2 : memref<?x?x?x?x?xf16>
  %cd3 = arith.constant 3 : index
  %dim3 = memref.dim %x, %cd3 : memref<?x?x?x?x?xf16>
  %cd4 = arith.constant 4 : index
  %dim4 = memref.dim %x, %cd4 : memref<?x?x?x?x?xf16>
  %l0 = arith.constant 1 : index
  %span0 = arith.constant -1 : index
  %st0 = arith.constant 1 : index
  %e0a = arith.addi %dim1, %span0 : index
  %e0b = arith.divui %e0a, %st0 : index
  %o0 = arith.addi %e0b, %c1 : index
  %l1 = arith.muli %l0, %o0 : index
  %span1 = arith.constant -3 : index
  %st1 = arith.constant 2 : index
  %e1a = arith.addi %dim2, %span1 : index
  %e1b = arith.divui %e1a, %st1 : index
  %o1 = arith.addi %e1b, %c1 : index
  %l2 = arith.muli %l1, %o1 : index
  %span2 = arith.constant -3 : index
  %st2 = arith.constant 1 : index
  %e2a = arith.addi %dim3, %span2 : index
  %e2b = arith.divui %e2a, %st2 : index
  %o2 = arith.addi %e2b, %c1 : index
  %l3 = arith.muli %l2, %o2 : index
  %pixels = arith.muli %dim0, %l3 : index
  %tiles = arith.ceildivui %pixels, %c64 : index
  %cblocks = arith.ceildivui %dim4, %c64 : index
  croq.parallel (%mt, %tap, %cb) in [%tiles, %ctaps, %cblocks] : block {
    %m0 = arith.muli %mt, %c64 : index
    %img = arith.divui %m0, %l3 : index
    %r3 = arith.remui %m0, %l3 : index
    %in0_2 = arith.muli %o1, %o2 : index
    %oc0 = arith.divui %r3, %in0_2 : index
    %rem0 = arith.remui %r3, %in0_2 : index
    %pad0 = arith.constant 1 : index
    %sc0 = arith.muli %oc0, %st0 : index
    %px0 = arith.subi %sc0, %pad0 : index
    %oc1 = arith.divui %rem0, %o2 : index
    %rem1 = arith.remui %rem0, %o2 : index
    %pad1 = arith.constant 0 : index
    %sc1 = arith.muli %oc1, %st1 : index
    %px1 = arith.subi %sc1, %pad1 : index
    %oc2 = arith.addi %rem1, %c0 : index
    %pad2 = arith.constant 1 : index
    %sc2 = arith.muli %oc2, %st2 : index
    %px2 = arith.subi %sc2, %pad2 : index
    %tdiv0 = arith.constant 9 : index
    %t0 = arith.divui %tap, %tdiv0 : index
    %trem0 = arith.remui %tap, %tdiv0 : index
    %dil0 = arith.constant 1 : index
    %off0 = arith.muli %t0, %dil0 : index
    %tdiv1 = arith.constant 3 : index
    %t1 = arith.divui %trem0, %tdiv1 : index
    %trem1 = arith.remui %trem0, %tdiv1 : index
    %dil1 = arith.constant 1 : index
    %off1 = arith.muli %t1, %dil1 : index
    %tdiv2 = arith.constant 1 : index
    %t2 = arith.divui %trem1, %tdiv2 : index
    %trem2 = arith.remui %trem1, %tdiv2 : index
    %dil2 = arith.constant 2 : index
    %off2 = arith.muli %t2, %dil2 : index
    %cc = arith.muli %cb, %c64 : index
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %f = croq.im2col async %x[%img, %px0, %px1, %px2, %cc] offsets [%off0, %off1, %off2] -> %t map %m : memref<?x?x?x?x?xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.wait %f
    %rowblock0 = arith.muli %tap, %tiles : index
    %rowblock = arith.addi %rowblock0, %mt : index
    %dst = croq.subspan %out [64, 64] at [%rowblock, %cb] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

// 3x3, padding 1, stride 1 with 64 channels, left to croq-pipeline-loops: a
// producer warpgroup issues the im2col and filter loads into rings of
// stages. K is the 9 taps (one 64-channel block each), so that the loads'
// coordinates are computed from the iteration by divisions by constants,
// which the pipeliner clones into the producer.
func.func @conv3x3_p1s1_pipelined_f16(%x: memref<?x?x?x64xf16>, %w: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %m = croq.im2col_map %x pixels 128 channels 64 lower [-1, -1] upper [-1, -1] strides [1, 1] swizzle = 128 : memref<?x?x?x64xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %n = memref.dim %x, %c0 : memref<?x?x?x64xf16>
  %h = memref.dim %x, %c1 : memref<?x?x?x64xf16>
  %wd = memref.dim %x, %c2 : memref<?x?x?x64xf16>
  %f = memref.dim %w, %c0 : memref<?x?xf16>
  // Output extents (H + 2 - 3) / 1 + 1 and (W + 2 - 3) / 1 + 1.
  %span = arith.constant -1 : index
  %s = arith.constant 1 : index
  %ph = arith.addi %h, %span : index
  %ph1 = arith.divui %ph, %s : index
  %p = arith.addi %ph1, %c1 : index
  %qw = arith.addi %wd, %span : index
  %qw1 = arith.divui %qw, %s : index
  %q = arith.addi %qw1, %c1 : index
  %l = arith.muli %p, %q : index
  %pixels = arith.muli %n, %l : index
  %grid_m = arith.ceildivui %pixels, %c128 : index
  %grid_n = arith.ceildivui %f, %c128 : index
  %k_tiles = arith.constant 9 : index
  %padv = arith.constant 1 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    // The block's first output position and its input pixel.
    %m0 = arith.muli %block_m, %c128 : index
    %img = arith.divui %m0, %l : index
    %rem = arith.remui %m0, %l : index
    %orow = arith.divui %rem, %q : index
    %ocol = arith.remui %rem, %q : index
    %hs = arith.muli %orow, %s : index
    %hy = arith.subi %hs, %padv : index
    %ws = arith.muli %ocol, %s : index
    %wx = arith.subi %ws, %padv : index
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %r = arith.divui %iv_k, %c3 : index
      %t = arith.remui %iv_k, %c3 : index
      croq.im2col %x[%img, %hy, %wx, %c0] offsets [%r, %t] -> %lhs_s map %m : memref<?x?x?x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %w [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

