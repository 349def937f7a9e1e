//===- tiled_add.mlir - element-wise addition through shared memory -------===//
//
// Adds two matrices tile by tile: each block copies one tile of each input
// into shared memory with the software (dma) engine, adds the staged tiles
// element by element, and writes the sums to the same tile of the output.
//
// @tiled_add_2d mirrors `tiled_add_2d` of the Croqtile data-movement chapter
// (seeds/croqtile-data-movement.txt):
//
//   __co__ s32 [64, 128] tiled_add_2d(s32 [64, 128] lhs, s32 [64, 128] rhs) {
//     s32 [lhs.span] output;
//     parallel {tr, tc} by [4, 8] {
//       lhs_load = dma.copy lhs.chunkat(tr, tc) => shared;
//       rhs_load = dma.copy rhs.chunkat(tr, tc) => shared;
//       foreach {i, j} in lhs_load.span
//         output.at(tr # i, tc # j) =
//             lhs_load.data.at(i, j) + rhs_load.data.at(i, j);
//     }
//     return output;
//   }
//
// Global tensors are memrefs passed in by the caller, so the output is an
// argument rather than a return value. `output.at(tr # i, tc # j)` (compose
// a tile coordinate with an in-tile one) is a write through the chunkat view
// of the output at tile-local (i, j).
//
// @tiled_add_f32 is the same kernel for f32 tensors of any shape: 32x32
// tiles chosen with `subspan ... at`, a grid of cdiv(M, 32) x cdiv(N, 32)
// blocks. The last row and column of tiles may run past the tensor's edge;
// since each view and its shared tile have the same shape, the copies mask
// the out-of-range elements (no `zfill` needed) and writes through the output
// view past the edge are dropped.
//
//===----------------------------------------------------------------------===//

func.func @tiled_add_2d(%lhs: memref<64x128xi32>, %rhs: memref<64x128xi32>,
                        %output: memref<64x128xi32>) {
  croq.parallel (%tr, %tc) in [4, 8] : block {
    // lhs_load = dma.copy lhs.chunkat(tr, tc) => shared;
    %lhs_tile = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %lhs_load = croq.alloc : !croq.tile<16x16xi32, shared>
    croq.copy dma %lhs_tile -> %lhs_load : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
    // rhs_load = dma.copy rhs.chunkat(tr, tc) => shared;
    %rhs_tile = croq.chunkat %rhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %rhs_load = croq.alloc : !croq.tile<16x16xi32, shared>
    croq.copy dma %rhs_tile -> %rhs_load : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
    // output.at(tr # i, tc # j) = lhs_load.data.at(i, j) + rhs_load.data.at(i, j);
    %out_tile = croq.chunkat %output[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    croq.foreach (%i, %j) in [16, 16] {
      %a = croq.read %lhs_load[%i, %j] : !croq.tile<16x16xi32, shared>
      %b = croq.read %rhs_load[%i, %j] : !croq.tile<16x16xi32, shared>
      %sum = arith.addi %a, %b : i32
      croq.write %sum, %out_tile[%i, %j] : !croq.view<16x16xi32>
    }
  }
  return
}

func.func @tiled_add_f32(%lhs: memref<?x?xf32>, %rhs: memref<?x?xf32>,
                         %output: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %output, %c0 : memref<?x?xf32>
  %n = memref.dim %output, %c1 : memref<?x?xf32>
  %grid_m = arith.ceildivui %m, %c32 : index
  %grid_n = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%grid_m, %grid_n] : block {
    // lhs_load = dma.copy lhs.subspan(32, 32).at(bm, bn) => shared;
    %lhs_tile = croq.subspan %lhs [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %lhs_load = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %lhs_tile -> %lhs_load : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %rhs_tile = croq.subspan %rhs [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    %rhs_load = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy dma %rhs_tile -> %rhs_load : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %out_tile = croq.subspan %output [32, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<32x32xf32>
    croq.foreach (%i, %j) in [32, 32] {
      %a = croq.read %lhs_load[%i, %j] : !croq.tile<32x32xf32, shared>
      %b = croq.read %rhs_load[%i, %j] : !croq.tile<32x32xf32, shared>
      %sum = arith.addf %a, %b : f32
      croq.write %sum, %out_tile[%i, %j] : !croq.view<32x32xf32>
    }
  }
  return
}
