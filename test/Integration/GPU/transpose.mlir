// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/transpose_f32_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/transpose_f16_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/transpose_3d_f32_kernel.ptx -o %t.3.cubin

//===- transpose.mlir - GPU test: dma transposes --------------------------===//
//
// out = in^T for an M x N tensor of any shape: each block transposes the
// 32x32 tile at (bm, bn) of the input into a shared tile (croq.transpose
// [1, 0]) and copies it to the tile at (bn, bm) of the N x M output. Edge
// tiles are masked on both sides. @transpose_3d_f32 permutes [1, 0, 2] on
// a whole static tensor, as in docs/overview.md.
//
//===----------------------------------------------------------------------===//

func.func @transpose_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c32 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %t = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.transpose [1, 0] %src -> %t : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %dst = croq.subspan %out [32, 32] at [%bn, %bm] : memref<?x?xf32> -> !croq.view<32x32xf32>
    croq.copy dma %t -> %dst : !croq.tile<32x32xf32, shared> -> !croq.view<32x32xf32>
  }
  return
}

func.func @transpose_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c16 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [16, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<16x64xf16>
    %t = croq.alloc : !croq.tile<64x16xf16, shared>
    croq.transpose [1, 0] %src -> %t : !croq.view<16x64xf16> -> !croq.tile<64x16xf16, shared>
    %dst = croq.subspan %out [64, 16] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<64x16xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x16xf16, shared> -> !croq.view<64x16xf16>
  }
  return
}

func.func @transpose_3d_f32(%a: memref<32x16x8xf32>, %o: memref<16x32x8xf32>) {
  croq.parallel (%b) in [1] : block {
    %t = croq.alloc : !croq.tile<16x32x8xf32, shared>
    croq.transpose [1, 0, 2] %a -> %t : memref<32x16x8xf32> -> !croq.tile<16x32x8xf32, shared>
    croq.copy dma %t -> %o : !croq.tile<16x32x8xf32, shared> -> memref<16x32x8xf32>
  }
  return
}
