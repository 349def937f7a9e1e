// copy_tma.mlir - a plain tile copy kernel on the TMA engine.
//
// The same kernel as @copy_dma in copy.mlir, with both moves done by Hopper's
// tensor memory accelerator (Croqtile's `tma.copy`).

func.func @copy_tma(%input: memref<?x?xf32>, %output: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %input, %c0 : memref<?x?xf32>
  %n = memref.dim %input, %c1 : memref<?x?xf32>
  %grid_m = arith.ceildivui %m, %c64 : index
  %grid_n = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%grid_m, %grid_n] : block {
    // The tile shape (64x64) is a constant, as TMA requires; the tile
    // coordinates are run-time values.
    %src = croq.subspan %input [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %tile = croq.alloc : !croq.tile<64x64xf32, shared>
    // f = tma.copy.async input.subspan(64, 64).at(bm, bn) => shared; wait f;
    %f = croq.copy tma async %src -> %tile : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
    // tma.copy f.data => output.subspan(64, 64).at(bm, bn);
    %dst = croq.subspan %output [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %tile -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}
