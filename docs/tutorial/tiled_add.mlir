//===- tiled_add.mlir - the tutorial's kernel -----------------------------===//
//
// Adds two 64x128 i32 matrices tile by tile, as @tiled_add_2d in
// examples/tiled_add.mlir: a 4x8 grid of blocks; each block copies its 16x16
// tile of both inputs into shared memory with the software (dma) engine,
// adds the staged tiles element by element and writes the sums to the same
// tile of the output. docs/tutorial/README.md follows it through every pass
// of croq-to-nvvm; generate.py writes the IR after each pass to stages/.
//
//===----------------------------------------------------------------------===//

func.func @tiled_add_2d(%lhs: memref<64x128xi32>, %rhs: memref<64x128xi32>,
                        %output: memref<64x128xi32>) {
  croq.parallel (%tr, %tc) in [4, 8] : block {
    %lhs_tile = croq.chunkat %lhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %lhs_load = croq.alloc : !croq.tile<16x16xi32, shared>
    croq.copy dma %lhs_tile -> %lhs_load : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
    %rhs_tile = croq.chunkat %rhs[%tr, %tc] : memref<64x128xi32> -> !croq.view<16x16xi32>
    %rhs_load = croq.alloc : !croq.tile<16x16xi32, shared>
    croq.copy dma %rhs_tile -> %rhs_load : !croq.view<16x16xi32> -> !croq.tile<16x16xi32, shared>
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
