// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/local_copy_f32_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/local_transpose_f32_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/local_foreach_f32_kernel.ptx -o %t.3.cubin

//===- local.mlir - GPU test: copies through per-thread local tiles -------===//
//
// Inside a thread-level croq.parallel each thread owns a 4x8 tile of an
// M x N tensor (a block of 16x8 threads covers 64x64 elements): it copies
// the tile global -> local (a private croq.alloc : local) and back, masked
// at the tensor's edge.
//   @local_copy_f32       out = in
//   @local_transpose_f32  out = in^T: croq.transpose [1, 0] into an 8x4 local
//                         tile, written to the transposed position
//   @local_foreach_f32    out = 2 * in + 1, computed element by element on
//                         the local tile with croq.foreach/read/write
//
//===----------------------------------------------------------------------===//

// CHECK-LABEL: .entry local_copy_f32_kernel(
// CHECK: .maxntid 128, 1, 1

func.func @local_copy_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    croq.parallel (%ti, %tj) in [16, 8] : thread {
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %bm16 = arith.muli %bm, %c16 : index
      %bn8 = arith.muli %bn, %c8 : index
      %r = arith.addi %bm16, %ti : index
      %c = arith.addi %bn8, %tj : index
      %src = croq.subspan %in [4, 8] at [%r, %c] : memref<?x?xf32> -> !croq.view<4x8xf32>
      %t = croq.alloc : !croq.tile<4x8xf32, local>
      croq.copy dma %src -> %t : !croq.view<4x8xf32> -> !croq.tile<4x8xf32, local>
      %dst = croq.subspan %out [4, 8] at [%r, %c] : memref<?x?xf32> -> !croq.view<4x8xf32>
      croq.copy dma %t -> %dst : !croq.tile<4x8xf32, local> -> !croq.view<4x8xf32>
    }
  }
  return
}

func.func @local_transpose_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    croq.parallel (%ti, %tj) in [16, 8] : thread {
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %bm16 = arith.muli %bm, %c16 : index
      %bn8 = arith.muli %bn, %c8 : index
      %r = arith.addi %bm16, %ti : index
      %c = arith.addi %bn8, %tj : index
      %src = croq.subspan %in [4, 8] at [%r, %c] : memref<?x?xf32> -> !croq.view<4x8xf32>
      %t = croq.alloc : !croq.tile<8x4xf32, local>
      croq.transpose [1, 0] %src -> %t : !croq.view<4x8xf32> -> !croq.tile<8x4xf32, local>
      %dst = croq.subspan %out [8, 4] at [%c, %r] : memref<?x?xf32> -> !croq.view<8x4xf32>
      croq.copy dma %t -> %dst : !croq.tile<8x4xf32, local> -> !croq.view<8x4xf32>
    }
  }
  return
}

func.func @local_foreach_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    croq.parallel (%ti, %tj) in [16, 8] : thread {
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %bm16 = arith.muli %bm, %c16 : index
      %bn8 = arith.muli %bn, %c8 : index
      %r = arith.addi %bm16, %ti : index
      %c = arith.addi %bn8, %tj : index
      %src = croq.subspan %in [4, 8] at [%r, %c] : memref<?x?xf32> -> !croq.view<4x8xf32>
      %t = croq.alloc : !croq.tile<4x8xf32, local>
      croq.copy dma %src -> %t : !croq.view<4x8xf32> -> !croq.tile<4x8xf32, local>
      %dst = croq.subspan %out [4, 8] at [%r, %c] : memref<?x?xf32> -> !croq.view<4x8xf32>
      croq.foreach (%i, %j) in [4, 8] {
        %x = croq.read %t[%i, %j] : !croq.tile<4x8xf32, local>
        %y = arith.mulf %x, %two : f32
        %z = arith.addf %y, %one : f32
        croq.write %z, %dst[%i, %j] : !croq.view<4x8xf32>
      }
    }
  }
  return
}
