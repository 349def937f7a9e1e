// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_f32_kernel.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_f16_swizzle128_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_load_f16_swizzle128_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_load_f16_swizzle64_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_load_f16_swizzle32_kernel.ptx -o %t.4.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_load_f32_noswizzle_kernel.ptx -o %t.5.cubin
// RUN: %ptxas -arch=sm_90a %t.d/dma_in_tma_out_f16_swizzle128_kernel.ptx -o %t.6.cubin
// RUN: %ptxas -arch=sm_90a %t.d/dma_in_tma_out_f16_swizzle64_kernel.ptx -o %t.7.cubin
// RUN: %ptxas -arch=sm_90a %t.d/dma_in_tma_out_f16_swizzle32_kernel.ptx -o %t.8.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_tall_f32_kernel.ptx -o %t.tall.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_1d_f32_kernel.ptx -o %t.1d.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_3d_f32_kernel.ptx -o %t.3d.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_bf16_swizzle128_kernel.ptx -o %t.bf16.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_i32_kernel.ptx -o %t.i32.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_copy_static_f16_kernel.ptx -o %t.static.cubin
// RUN: FileCheck %s < %t.d/tma_copy_f16_swizzle128_kernel.ptx
// RUN: FileCheck %s --check-prefix=TALL < %t.d/tma_copy_tall_f32_kernel.ptx

// The load is one bulk tensor copy completing on the mbarrier of its event
// slot, which then expects its bytes; the store is fenced, issued and
// drained through a bulk group.
// CHECK: mbarrier.init.shared.b64
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: mbarrier.arrive.expect_tx.shared.b64
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta.{{.*}}bulk_group
// CHECK: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group.read {{.*}}0;

// The tall tile moves as two boxes each way.
// TALL-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global
// TALL-COUNT-2: cp.async.bulk.tensor.2d.global.shared::cta

//===- tma.mlir - GPU test: tma copies and swizzled layouts ---------------===//
//
// tma copies of M x N tensors of any shape in 64-row tiles, edge boxes
// zero-filled on load and clipped on store:
//   @tma_copy_*              tma in, tma out (with 128B swizzle for f16);
//   @tma_load_*_swizzle*     tma in (async + wait), then scalar reads of the
//                            swizzled tile in transposed order: checks that
//                            croq addresses a swizzled tile the way TMA lays
//                            it out (out = in^T);
//   @dma_in_tma_out_*        dma in (swizzled 16-byte stores), tma out:
//                            checks that dma writes the layout TMA reads
//                            (out = in).
//
//===----------------------------------------------------------------------===//

func.func @tma_copy_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c64_ = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy tma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @tma_copy_f16_swizzle128(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c64_ = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

func.func @tma_load_f16_swizzle128(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c64_ = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    %f = croq.copy tma async %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.wait %f
    %dst = croq.subspan %out [64, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.foreach (%i, %j) in [64, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x64xf16, shared, swizzle = 128>
      croq.write %x, %dst[%i, %j] : !croq.view<64x64xf16>
    }
  }
  return
}

func.func @tma_load_f16_swizzle64(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32_ = arith.constant 32 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c32_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 32] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x32xf16>
    %t = croq.alloc : !croq.tile<64x32xf16, shared, swizzle = 64>
    %f = croq.copy tma async %src -> %t : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = 64>
    croq.wait %f
    %dst = croq.subspan %out [32, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<32x64xf16>
    croq.foreach (%i, %j) in [32, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x32xf16, shared, swizzle = 64>
      croq.write %x, %dst[%i, %j] : !croq.view<32x64xf16>
    }
  }
  return
}

func.func @tma_load_f16_swizzle32(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c16_ = arith.constant 16 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c16_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 16] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x16xf16>
    %t = croq.alloc : !croq.tile<64x16xf16, shared, swizzle = 32>
    %f = croq.copy tma async %src -> %t : !croq.view<64x16xf16> -> !croq.tile<64x16xf16, shared, swizzle = 32>
    croq.wait %f
    %dst = croq.subspan %out [16, 64] at [%bn, %bm] : memref<?x?xf16> -> !croq.view<16x64xf16>
    croq.foreach (%i, %j) in [16, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x16xf16, shared, swizzle = 32>
      croq.write %x, %dst[%i, %j] : !croq.view<16x64xf16>
    }
  }
  return
}

func.func @tma_load_f32_noswizzle(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32_ = arith.constant 32 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c32_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<64x32xf32>
    %t = croq.alloc : !croq.tile<64x32xf32, shared>
    %f = croq.copy tma async %src -> %t : !croq.view<64x32xf32> -> !croq.tile<64x32xf32, shared>
    croq.wait %f
    %dst = croq.subspan %out [32, 64] at [%bn, %bm] : memref<?x?xf32> -> !croq.view<32x64xf32>
    croq.foreach (%i, %j) in [32, 64] {
      %x = croq.read %t[%j, %i] : !croq.tile<64x32xf32, shared>
      croq.write %x, %dst[%i, %j] : !croq.view<32x64xf32>
    }
  }
  return
}

func.func @dma_in_tma_out_f16_swizzle128(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c64_ = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

func.func @dma_in_tma_out_f16_swizzle64(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32_ = arith.constant 32 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c32_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 32] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x32xf16>
    %t = croq.alloc : !croq.tile<64x32xf16, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 32] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x32xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x32xf16, shared, swizzle = 64> -> !croq.view<64x32xf16>
  }
  return
}

func.func @dma_in_tma_out_f16_swizzle32(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c16_ = arith.constant 16 : index
  %m = memref.dim %in, %c0 : memref<?x?xf16>
  %n = memref.dim %in, %c1 : memref<?x?xf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c16_ : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 16] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x16xf16>
    %t = croq.alloc : !croq.tile<64x16xf16, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x16xf16> -> !croq.tile<64x16xf16, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 16] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x16xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x16xf16, shared, swizzle = 32> -> !croq.view<64x16xf16>
  }
  return
}

// A tile taller than a TMA box (512 rows of 32 f32): loaded and stored as
// two 256-row boxes.
func.func @tma_copy_tall_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %in, %c0 : memref<?x?xf32>
  %n = memref.dim %in, %c1 : memref<?x?xf32>
  %gm = arith.ceildivui %m, %c512 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [512, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<512x32xf32>
    %t = croq.alloc : !croq.tile<512x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<512x32xf32> -> !croq.tile<512x32xf32, shared>
    %dst = croq.subspan %out [512, 32] at [%bm, %bn] : memref<?x?xf32> -> !croq.view<512x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<512x32xf32, shared> -> !croq.view<512x32xf32>
  }
  return
}

// Other ranks and element types: 1-d f32 boxes of 256, 3-d f32 boxes of
// 4x16x32, bf16 with the 128B swizzle, i32.
func.func @tma_copy_1d_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %g = arith.ceildivui %n, %c256 : index
  croq.parallel (%b) in [%g] : block {
    %src = croq.subspan %in [256] at [%b] : memref<?xf32> -> !croq.view<256xf32>
    %t = croq.alloc : !croq.tile<256xf32, shared>
    croq.copy tma %src -> %t : !croq.view<256xf32> -> !croq.tile<256xf32, shared>
    %dst = croq.subspan %out [256] at [%b] : memref<?xf32> -> !croq.view<256xf32>
    croq.copy tma %t -> %dst : !croq.tile<256xf32, shared> -> !croq.view<256xf32>
  }
  return
}

func.func @tma_copy_3d_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %d0 = memref.dim %in, %c0 : memref<?x?x?xf32>
  %d1 = memref.dim %in, %c1 : memref<?x?x?xf32>
  %d2 = memref.dim %in, %c2 : memref<?x?x?xf32>
  %g0 = arith.ceildivui %d0, %c4 : index
  %g1 = arith.ceildivui %d1, %c16 : index
  %g2 = arith.ceildivui %d2, %c32 : index
  croq.parallel (%a, %b, %c) in [%g0, %g1, %g2] : block {
    %src = croq.subspan %in [4, 16, 32] at [%a, %b, %c] : memref<?x?x?xf32> -> !croq.view<4x16x32xf32>
    %t = croq.alloc : !croq.tile<4x16x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<4x16x32xf32> -> !croq.tile<4x16x32xf32, shared>
    %dst = croq.subspan %out [4, 16, 32] at [%a, %b, %c] : memref<?x?x?xf32> -> !croq.view<4x16x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<4x16x32xf32, shared> -> !croq.view<4x16x32xf32>
  }
  return
}

func.func @tma_copy_bf16_swizzle128(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %in, %c0 : memref<?x?xbf16>
  %n = memref.dim %in, %c1 : memref<?x?xbf16>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c64 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    %t = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.view<64x64xbf16>
  }
  return
}

func.func @tma_copy_i32(%in: memref<?x?xi32>, %out: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %in, %c0 : memref<?x?xi32>
  %n = memref.dim %in, %c1 : memref<?x?xi32>
  %gm = arith.ceildivui %m, %c64 : index
  %gn = arith.ceildivui %n, %c32 : index
  croq.parallel (%bm, %bn) in [%gm, %gn] : block {
    %src = croq.subspan %in [64, 32] at [%bm, %bn] : memref<?x?xi32> -> !croq.view<64x32xi32>
    %t = croq.alloc : !croq.tile<64x32xi32, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x32xi32> -> !croq.tile<64x32xi32, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 32] at [%bm, %bn] : memref<?x?xi32> -> !croq.view<64x32xi32>
    croq.copy tma %t -> %dst : !croq.tile<64x32xi32, shared, swizzle = 128> -> !croq.view<64x32xi32>
  }
  return
}

// A static input the kernel only reads: croq-emit-tensor-maps proves its
// map usable (staged where its rows break a rule), so its load has no
// software copy and the host requires the map; the dynamic output keeps
// the software copy of its store.
func.func @tma_copy_static_f16(%in: memref<128x1001xf16>, %out: memref<?x?xf16>) {
  croq.parallel (%bm, %bn) in [2, 16] : block {
    %src = croq.subspan %in [64, 64] at [%bm, %bn] : memref<128x1001xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%bm, %bn] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}
