// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/matmul_swapped_shared_f16_kernel.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.d/matmul_swapped_wide_bf16_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/matmul_swapped_global_f16_kernel.ptx -o %t.2.cubin
// RUN: FileCheck %s --check-prefix=SHARED < %t.d/matmul_swapped_shared_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=GLOBAL < %t.d/matmul_swapped_global_f16_kernel.ptx

// Into the shared tile: stmatrix.trans, one x4 per two 8-column groups of
// the 64x16 accumulator, then one bulk copy of the tile to C.
// SHARED: wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16
// SHARED-COUNT-1: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// SHARED-NOT: stmatrix
// SHARED-NOT: st.global
// SHARED: cp.async.bulk.tensor.2d.global.shared::cta
// Into C directly: one 2-byte store per register (8), none paired.
// GLOBAL-NOT: stmatrix
// GLOBAL-COUNT-8: st.global.b16
// GLOBAL-NOT: st.global

//===- mma_store_transpose.mlir - GPU test: transposed accumulator stores -===//
//
// GEMMs C = A B^T (A stored M x K, B stored N x K) computed with the
// operands' roles swapped: each block's wgmma takes 64 rows of B as its A
// operand and a tile of A's rows as its B operand (N = the tile's rows of
// C), so that a product with few rows puts them in wgmma's N dimension;
// `croq.mma.store transpose` then writes the 64 x rows accumulator (C^T's
// tile) as C's rows x 64 tile. Run by run_gpu_tests.py
// (mma_store_transpose_tests).
//   @matmul_swapped_shared_f16: 16 rows of C a block, the accumulator
//     stored transposed into a swizzled shared tile (stmatrix.trans), then
//     copied to C by TMA;
//   @matmul_swapped_wide_bf16: the same with 128 rows of C a block (eight
//     stmatrix.trans per warp), bf16;
//   @matmul_swapped_global_f16: 16 rows, stored transposed straight into
//     C's view, masked at C's edges (any M and N).
//
//===----------------------------------------------------------------------===//

func.func @matmul_swapped_shared_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                                     %c: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c16 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %b_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %a_s = croq.alloc : !croq.tile<16x64xf16, shared, swizzle = 128>
    %c_s = croq.alloc : !croq.tile<16x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %init = croq.mma.fill %zero : !croq.acc<64x16xf32>
    %acc = scf.for %kt = %c0 to %k_tiles step %c1
        iter_args(%part = %init) -> (!croq.acc<64x16xf32>) {
      %bv = croq.subspan %b [64, 64] at [%block_n, %kt] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma zfill %bv -> %b_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %av = croq.subspan %a [16, 64] at [%block_m, %kt] : memref<?x?xf16> -> !croq.view<16x64xf16>
      croq.copy tma zfill %av -> %a_s : !croq.view<16x64xf16> -> !croq.tile<16x64xf16, shared, swizzle = 128>
      %fb = croq.mma.load %b_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %fa = croq.mma.load %a_s : !croq.tile<16x64xf16, shared, swizzle = 128> -> !croq.frag<16x64xf16>
      %sum = croq.mma row row %part, %fb, %fa : !croq.frag<64x64xf16>, !croq.frag<16x64xf16> -> !croq.acc<64x16xf32>
      %done = croq.mma.commit %sum : !croq.acc<64x16xf32>
      scf.yield %done : !croq.acc<64x16xf32>
    }
    croq.mma.store transpose %acc -> %c_s : !croq.acc<64x16xf32> -> !croq.tile<16x64xf16, shared, swizzle = 128>
    %cv = croq.subspan %c [16, 64] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<16x64xf16>
    croq.copy tma %c_s -> %cv : !croq.tile<16x64xf16, shared, swizzle = 128> -> !croq.view<16x64xf16>
  }
  return
}

func.func @matmul_swapped_wide_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                                    %c: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %n = memref.dim %b, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %b_s = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    %a_s = croq.alloc : !croq.tile<128x64xbf16, shared, swizzle = 128>
    %c_s = croq.alloc : !croq.tile<128x64xbf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %init = croq.mma.fill %zero : !croq.acc<64x128xf32>
    %acc = scf.for %kt = %c0 to %k_tiles step %c1
        iter_args(%part = %init) -> (!croq.acc<64x128xf32>) {
      %bv = croq.subspan %b [64, 64] at [%block_n, %kt] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
      croq.copy tma zfill %bv -> %b_s : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
      %av = croq.subspan %a [128, 64] at [%block_m, %kt] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
      croq.copy tma zfill %av -> %a_s : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
      %fb = croq.mma.load %b_s : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
      %fa = croq.mma.load %a_s : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
      %sum = croq.mma row row %part, %fb, %fa : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
      %done = croq.mma.commit %sum : !croq.acc<64x128xf32>
      scf.yield %done : !croq.acc<64x128xf32>
    }
    croq.mma.store transpose %acc -> %c_s : !croq.acc<64x128xf32> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
    %cv = croq.subspan %c [128, 64] at [%block_m, %block_n] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
    croq.copy tma %c_s -> %cv : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x64xbf16>
  }
  return
}

func.func @matmul_swapped_global_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                                     %c: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c16 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %b_s = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %a_s = croq.alloc : !croq.tile<16x64xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %init = croq.mma.fill %zero : !croq.acc<64x16xf32>
    %acc = scf.for %kt = %c0 to %k_tiles step %c1
        iter_args(%part = %init) -> (!croq.acc<64x16xf32>) {
      %bv = croq.subspan %b [64, 64] at [%block_n, %kt] : memref<?x?xf16> -> !croq.view<64x64xf16>
      croq.copy tma zfill %bv -> %b_s : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %av = croq.subspan %a [16, 64] at [%block_m, %kt] : memref<?x?xf16> -> !croq.view<16x64xf16>
      croq.copy tma zfill %av -> %a_s : !croq.view<16x64xf16> -> !croq.tile<16x64xf16, shared, swizzle = 128>
      %fb = croq.mma.load %b_s : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %fa = croq.mma.load %a_s : !croq.tile<16x64xf16, shared, swizzle = 128> -> !croq.frag<16x64xf16>
      %sum = croq.mma row row %part, %fb, %fa : !croq.frag<64x64xf16>, !croq.frag<16x64xf16> -> !croq.acc<64x16xf32>
      %done = croq.mma.commit %sum : !croq.acc<64x16xf32>
      scf.yield %done : !croq.acc<64x16xf32>
    }
    %cv = croq.subspan %c [16, 64] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<16x64xf16>
    croq.mma.store transpose %acc -> %cv : !croq.acc<64x16xf32> -> !croq.view<16x64xf16>
  }
  return
}
