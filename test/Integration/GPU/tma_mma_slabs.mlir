// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/matmul_slabs_chunked_f16_kernel.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.d/matmul_slabs_whole_f16_kernel.ptx -o %t.1.cubin
// RUN: FileCheck %s < %t.d/matmul_slabs_whole_f16_kernel.ptx
// RUN: FileCheck %s --check-prefix=MMA < %t.d/matmul_slabs_whole_f16_kernel.ptx

// Each K tile of 128 f16 (256-byte rows, 128B swizzle) arrives as two boxes
// per operand, one per 64-column slab, and wgmma reads the slabs: four
// bulk copies, then the arrive that expects their bytes (in the producer's
// loop for tensors TMA takes, which croq-unswitch-tma-fallbacks puts
// first).
// CHECK-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-NOT: cp.async.bulk.tensor
// CHECK: mbarrier.arrive.expect_tx.shared.b64
// The block's two consumer warpgroups (croq-split-accumulators) each run
// the eight K steps on their 64 rows.
// MMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// MMA-NOT: wgmma.mma_async

//===- tma_mma_slabs.mlir - GPU test: wgmma on slabbed tiles --------------===//
//
// Plain (unpipelined) GEMMs, C = A B^T, whose K tiles are 128 f16 wide: wider
// than the 128-byte swizzle span, so TMA writes them as two slabs and the
// wgmma descriptors step from the first slab to the second. Run by
// run_gpu_tests.py (tma_slab_mma_tests).
//   @matmul_slabs_chunked_f16: eight mma.load / mma of K = 16 views (views
//     in the second slab start there);
//   @matmul_slabs_whole_f16: one mma of the whole K = 128 tile.
//
//===----------------------------------------------------------------------===//

func.func @matmul_slabs_chunked_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c128 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 128] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x128xf16>
      croq.copy tma zfill %a -> %lhs_s : !croq.view<128x128xf16> -> !croq.tile<128x128xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 128] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x128xf16>
      croq.copy tma zfill %b -> %rhs_s : !croq.view<128x128xf16> -> !croq.tile<128x128xf16, shared, swizzle = 128>
      %sum = scf.for %iv_kk = %c0 to %c8 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_kk] of [1, 8] : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_kk] of [1, 8] : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
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

func.func @matmul_slabs_whole_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c128 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x128xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 128] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x128xf16>
      croq.copy tma zfill %a -> %lhs_s : !croq.view<128x128xf16> -> !croq.tile<128x128xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 128] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x128xf16>
      croq.copy tma zfill %b -> %rhs_s : !croq.view<128x128xf16> -> !croq.tile<128x128xf16, shared, swizzle = 128>
      %ma = croq.mma.load %lhs_s : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
      %mb = croq.mma.load %rhs_s : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
      %sum = croq.mma row row %acc, %ma, %mb : !croq.frag<128x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<128x128xf32>
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}
