// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/pad_f32_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/pad_interior_f32_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/pad_async_f32_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/pad_rows_i32_kernel.ptx -o %t.4.cubin

//===- pad.mlir - GPU test: dma pads with a fill value --------------------===//
//
// croq.pad into a shared tile, then a copy of the whole tile to the output,
// so both the placed source and the border are visible. The fill values are
// not zero, so a border that was never written (or zero-filled) is caught.
//   @pad_f32           low [2, 3] high [1, 2], fill -7.5, 8x8 -> 11x13
//   @pad_interior_f32  low [1, 0] high [2, 1] interior [1, 2], fill 3.25,
//                      8x8 -> 18x23
//   @pad_async_f32     @pad_f32 as an async pad followed by croq.wait
//   @pad_rows_i32      one 8x8 tile per block of an M x 8 tensor (M a
//                      multiple of 8), low [1, 2] high [2, 3], fill 77,
//                      into the 11x13 rows [11 b, 11 b + 11) of the output
//
//===----------------------------------------------------------------------===//

func.func @pad_f32(%input: memref<8x8xf32>, %output: memref<11x13xf32>) {
  croq.parallel (%b) in [1] : block {
    %fill = arith.constant -7.5 : f32
    %s = croq.alloc : !croq.tile<11x13xf32, shared>
    croq.pad low [2, 3] high [1, 2] interior [0, 0] %input -> %s value %fill : memref<8x8xf32> -> !croq.tile<11x13xf32, shared>
    croq.copy dma %s -> %output : !croq.tile<11x13xf32, shared> -> memref<11x13xf32>
  }
  return
}

func.func @pad_interior_f32(%input: memref<8x8xf32>, %output: memref<18x23xf32>) {
  croq.parallel (%b) in [1] : block {
    %fill = arith.constant 3.25 : f32
    %s = croq.alloc : !croq.tile<18x23xf32, shared>
    croq.pad low [1, 0] high [2, 1] interior [1, 2] %input -> %s value %fill : memref<8x8xf32> -> !croq.tile<18x23xf32, shared>
    croq.copy dma %s -> %output : !croq.tile<18x23xf32, shared> -> memref<18x23xf32>
  }
  return
}

func.func @pad_async_f32(%input: memref<8x8xf32>, %output: memref<11x13xf32>) {
  croq.parallel (%b) in [1] : block {
    %fill = arith.constant -7.5 : f32
    %s = croq.alloc : !croq.tile<11x13xf32, shared>
    %f = croq.pad async low [2, 3] high [1, 2] interior [0, 0] %input -> %s value %fill : memref<8x8xf32> -> !croq.tile<11x13xf32, shared>
    croq.wait %f
    croq.copy dma %s -> %output : !croq.tile<11x13xf32, shared> -> memref<11x13xf32>
  }
  return
}

func.func @pad_rows_i32(%input: memref<?x8xi32>, %output: memref<?x13xi32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %m = memref.dim %input, %c0 : memref<?x8xi32>
  %g = arith.ceildivui %m, %c8 : index
  croq.parallel (%b) in [%g] : block {
    %fill = arith.constant 77 : i32
    %c0_0 = arith.constant 0 : index
    %src = croq.subspan %input [8, 8] at [%b, %c0_0] : memref<?x8xi32> -> !croq.view<8x8xi32>
    %s = croq.alloc : !croq.tile<11x13xi32, shared>
    croq.pad low [1, 2] high [2, 3] interior [0, 0] %src -> %s value %fill : !croq.view<8x8xi32> -> !croq.tile<11x13xi32, shared>
    %dst = croq.subspan %output [11, 13] at [%b, %c0_0] : memref<?x13xi32> -> !croq.view<11x13xi32>
    croq.copy dma %s -> %dst : !croq.tile<11x13xi32, shared> -> !croq.view<11x13xi32>
  }
  return
}
