// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/zfill_rows_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/zfill_cols_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/zfill_rows_async_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/zfill_cols_async_kernel.ptx -o %t.4.cubin

//===- zfill.mlir - GPU test: copies that zero-fill the destination -------===//
//
// A source view smaller than the shared tile it is copied into: `zfill`
// writes zeros where the view has no element (past the view, or past the
// tensor's edge). Each block b copies a view of rows [64 b, 64 b + 40) (or
// columns [0, 10)) of the input into a 64x16 tile and writes the whole tile
// to rows [64 b, 64 b + 64) of the output, so the zero-filled part is
// visible. The output has cdiv(M, 64) * 64 rows. Synchronous (vector and
// scalar) and asynchronous (cp.async with a source size) variants.
//
//===----------------------------------------------------------------------===//

// CHECK-LABEL: .entry zfill_rows_async_kernel(
// CHECK: cp.async.{{c[ag]}}.shared.global [{{.*}}], [{{.*}}], {{4|8|16}}, {{.*}};

func.func @zfill_rows(%in: memref<?x16xf32>, %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x16xf32>
  %g = arith.ceildivui %m, %c64 : index
  croq.parallel (%b) in [%g] : block {
    %row = arith.muli %b, %c64 : index
    %src = croq.view %in [40, 16] from [%row, 0] : memref<?x16xf32> -> !croq.view<40x16xf32>
    %t = croq.alloc : !croq.tile<64x16xf32, shared>
    croq.copy dma zfill %src -> %t : !croq.view<40x16xf32> -> !croq.tile<64x16xf32, shared>
    %dst = croq.view %out [64, 16] from [%row, 0] : memref<?x16xf32> -> !croq.view<64x16xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x16xf32, shared> -> !croq.view<64x16xf32>
  }
  return
}

func.func @zfill_cols(%in: memref<?x16xf32>, %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x16xf32>
  %g = arith.ceildivui %m, %c64 : index
  croq.parallel (%b) in [%g] : block {
    %row = arith.muli %b, %c64 : index
    %src = croq.view %in [64, 10] from [%row, 0] : memref<?x16xf32> -> !croq.view<64x10xf32>
    %t = croq.alloc : !croq.tile<64x16xf32, shared>
    croq.copy dma zfill %src -> %t : !croq.view<64x10xf32> -> !croq.tile<64x16xf32, shared>
    %dst = croq.view %out [64, 16] from [%row, 0] : memref<?x16xf32> -> !croq.view<64x16xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x16xf32, shared> -> !croq.view<64x16xf32>
  }
  return
}

func.func @zfill_rows_async(%in: memref<?x16xf32>, %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x16xf32>
  %g = arith.ceildivui %m, %c64 : index
  croq.parallel (%b) in [%g] : block {
    %row = arith.muli %b, %c64 : index
    %src = croq.view %in [40, 16] from [%row, 0] : memref<?x16xf32> -> !croq.view<40x16xf32>
    %t = croq.alloc : !croq.tile<64x16xf32, shared>
    %f = croq.copy dma async zfill %src -> %t : !croq.view<40x16xf32> -> !croq.tile<64x16xf32, shared>
    croq.wait %f
    %dst = croq.view %out [64, 16] from [%row, 0] : memref<?x16xf32> -> !croq.view<64x16xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x16xf32, shared> -> !croq.view<64x16xf32>
  }
  return
}

func.func @zfill_cols_async(%in: memref<?x16xf32>, %out: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x16xf32>
  %g = arith.ceildivui %m, %c64 : index
  croq.parallel (%b) in [%g] : block {
    %row = arith.muli %b, %c64 : index
    %src = croq.view %in [64, 10] from [%row, 0] : memref<?x16xf32> -> !croq.view<64x10xf32>
    %t = croq.alloc : !croq.tile<64x16xf32, shared>
    %f = croq.copy dma async zfill %src -> %t : !croq.view<64x10xf32> -> !croq.tile<64x16xf32, shared>
    croq.wait %f
    %dst = croq.view %out [64, 16] from [%row, 0] : memref<?x16xf32> -> !croq.view<64x16xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x16xf32, shared> -> !croq.view<64x16xf32>
  }
  return
}
