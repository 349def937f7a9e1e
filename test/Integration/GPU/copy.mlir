// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/copy_f32_kernel.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_f16_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_i8_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_f32_async_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_f16_async_kernel.ptx -o %t.4.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_i8_async_kernel.ptx -o %t.5.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_f32_strided_kernel.ptx -o %t.6.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_f32_async_strided_kernel.ptx -o %t.7.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_1d_f32_kernel.ptx -o %t.8.cubin
// RUN: %ptxas -arch=sm_90a %t.d/copy_3d_f32_kernel.ptx -o %t.9.cubin

//===- copy.mlir - GPU test: global -> shared -> global dma copies --------===//
//
// Copies of tensors of any shape by tiles, through shared memory, for
// 4-, 2- and 1-byte elements: synchronous (16-byte vectors where a run-time
// alignment check allows, scalars otherwise), asynchronous (cp.async with
// hardware zero-fill, then croq.wait), and on strided memrefs (a slice of a
// larger tensor, any row stride and offset). Tiles at the edge are masked.
// run_gpu_tests.py runs them on shapes that are not multiples of the tile,
// on 1-element tails, and on misaligned views (storage offsets and row
// strides that are not multiples of 16 bytes), where the scalar fallback
// must run.
//
//===----------------------------------------------------------------------===//

// CHECK-LABEL: .entry copy_f32_kernel(
// CHECK: ld.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: ld.shared.v4.b32
// CHECK: st.global.v4.b32
// CHECK-LABEL: .entry copy_f16_async_kernel(
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;

func.func @copy_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
  }
  return
}

func.func @copy_i8(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xi8>
  %n = memref.dim %in, %c1 : memref<?x?xi8>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xi8> -> !croq.view<64x64xi8>
    %t = croq.alloc : !croq.tile<64x64xi8, shared>
    croq.copy dma %src -> %t : !croq.view<64x64xi8> -> !croq.tile<64x64xi8, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xi8> -> !croq.view<64x64xi8>
    croq.copy dma %t -> %dst : !croq.tile<64x64xi8, shared> -> !croq.view<64x64xi8>
  }
  return
}

func.func @copy_f32_async(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %f = croq.copy dma async %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_f16_async(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared>
    %f = croq.copy dma async %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared>
    croq.wait %f
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf16, shared> -> !croq.view<64x64xf16>
  }
  return
}

func.func @copy_i8_async(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xi8>
  %n = memref.dim %in, %c1 : memref<?x?xi8>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xi8> -> !croq.view<64x64xi8>
    %t = croq.alloc : !croq.tile<64x64xi8, shared>
    %f = croq.copy dma async %src -> %t : !croq.view<64x64xi8> -> !croq.tile<64x64xi8, shared>
    croq.wait %f
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xi8> -> !croq.view<64x64xi8>
    croq.copy dma %t -> %dst : !croq.tile<64x64xi8, shared> -> !croq.view<64x64xi8>
  }
  return
}

func.func @copy_f32_strided(%in: memref<?x?xf32, strided<[?, 1], offset: ?>>, %out: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32, strided<[?, 1], offset: ?>>
  %n = memref.dim %in, %c1 : memref<?x?xf32, strided<[?, 1], offset: ?>>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_f32_async_strided(%in: memref<?x?xf32, strided<[?, 1], offset: ?>>, %out: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %th = arith.constant 64 : index
  %tw = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32, strided<[?, 1], offset: ?>>
  %n = memref.dim %in, %c1 : memref<?x?xf32, strided<[?, 1], offset: ?>>
  %gm = arith.ceildivui %m, %th : index
  %gn = arith.ceildivui %n, %tw : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    %f = croq.copy dma async %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    croq.wait %f
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @copy_1d_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %g = arith.ceildivui %n, %c1024 : index
  croq.parallel (%b) in [%g] : block {
    %src = croq.subspan %in [1024] at [%b] : memref<?xf32> -> !croq.view<1024xf32>
    %t = croq.alloc : !croq.tile<1024xf32, shared>
    croq.copy dma %src -> %t : !croq.view<1024xf32> -> !croq.tile<1024xf32, shared>
    %dst = croq.subspan %out [1024] at [%b] : memref<?xf32> -> !croq.view<1024xf32>
    croq.copy dma %t -> %dst : !croq.tile<1024xf32, shared> -> !croq.view<1024xf32>
  }
  return
}

func.func @copy_3d_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %d0 = memref.dim %in, %c0 : memref<?x?x?xf32>
  %d1 = memref.dim %in, %c1 : memref<?x?x?xf32>
  %d2 = memref.dim %in, %c2 : memref<?x?x?xf32>
  %g0 = arith.ceildivui %d0, %c4 : index
  %g1 = arith.ceildivui %d1, %c8 : index
  %g2 = arith.ceildivui %d2, %c32 : index
  croq.parallel (%i, %j, %k) in [%g0, %g1, %g2] : block {
    %src = croq.subspan %in [4, 8, 32] at [%i, %j, %k] : memref<?x?x?xf32> -> !croq.view<4x8x32xf32>
    %t = croq.alloc : !croq.tile<4x8x32xf32, shared>
    croq.copy dma %src -> %t : !croq.view<4x8x32xf32> -> !croq.tile<4x8x32xf32, shared>
    %dst = croq.subspan %out [4, 8, 32] at [%i, %j, %k] : memref<?x?x?xf32> -> !croq.view<4x8x32xf32>
    croq.copy dma %t -> %dst : !croq.tile<4x8x32xf32, shared> -> !croq.view<4x8x32xf32>
  }
  return
}
