//===- copy.mlir - tile copy of a large 2-d tensor ------------------------===//
//
// Copies an M x N f32 tensor of any shape, one 64x64 tile per block, by way
// of shared memory: global -> shared -> global. The grid has
// cdiv(M, 64) x cdiv(N, 64) blocks; tiles on the last row and column may run
// past the tensor's edge, and since every view has the same shape as the
// shared tile, the copies mask the out-of-range elements.
//
// It mirrors the copy idiom of the Croqtile data-movement chapter
// (seeds/croqtile-data-movement.txt, "Synchronous and Asynchronous Copies"):
//
//   __co__ void copy(global f32 [M, N] input, global f32 [M, N] output) {
//     parallel {bm, bn} by [cdiv(M, 64), cdiv(N, 64)] : block {
//       f = dma.copy input.subspan(64, 64).at(bm, bn) => shared;
//       dma.copy f.data => output.subspan(64, 64).at(bm, bn);
//     }
//   }
//
// in two variants (the TMA one is in copy_tma.mlir):
//   @copy_dma        dma.copy in, dma.copy out (threads copy cooperatively)
//   @copy_dma_async  dma.copy.async in + wait f (cp.async), dma.copy out
//
// Croqtile's `f.data` is the destination tile itself: in croq it is the
// `!croq.tile` value that the copy writes.
//
//===----------------------------------------------------------------------===//

func.func @copy_dma(%input: memref<?x?xf32>, %output: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %input, %c0 : memref<?x?xf32>
  %n = memref.dim %input, %c1 : memref<?x?xf32>
  %grid_m = arith.ceildivui %m, %c64 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%grid_m, %grid_n] : block {
    %src = croq.subspan %input [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tile = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %src -> %tile : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %output [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %tile -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_dma_async(%input: memref<?x?xf32>, %output: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %input, %c0 : memref<?x?xf32>
  %n = memref.dim %input, %c1 : memref<?x?xf32>
  %grid_m = arith.ceildivui %m, %c64 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%grid_m, %grid_n] : block {
    %src = croq.subspan %input [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tile = croq.alloc : !croq.tile<64x64xf32, shared>
    // f = dma.copy.async input.subspan(64, 64).at(bm, bn) => shared; wait f;
    %f = croq.copy dma async %src -> %tile : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
    %dst = croq.subspan %output [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %tile -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}
