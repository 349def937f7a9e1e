// REQUIRES: ptxas
// RUN: croq-translate --croq-to-ptx %s -o %t.ptx
// RUN: rm -rf %t.d && split-file %t.ptx %t.d
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f32_swnone_kernel.ptx -o %t.0.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f32_swnone_kernel.ptx -o %t.1.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f32_sw32_kernel.ptx -o %t.2.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f32_sw32_kernel.ptx -o %t.3.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f32_sw64_kernel.ptx -o %t.4.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f32_sw64_kernel.ptx -o %t.5.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f32_sw128_kernel.ptx -o %t.6.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f32_sw128_kernel.ptx -o %t.7.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_swnone_kernel.ptx -o %t.8.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_swnone_kernel.ptx -o %t.9.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_sw32_kernel.ptx -o %t.10.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_sw32_kernel.ptx -o %t.11.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_sw64_kernel.ptx -o %t.12.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_sw64_kernel.ptx -o %t.13.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_sw128_kernel.ptx -o %t.14.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_sw128_kernel.ptx -o %t.15.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_bf16_swnone_kernel.ptx -o %t.16.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_bf16_swnone_kernel.ptx -o %t.17.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_bf16_sw32_kernel.ptx -o %t.18.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_bf16_sw32_kernel.ptx -o %t.19.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_bf16_sw64_kernel.ptx -o %t.20.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_bf16_sw64_kernel.ptx -o %t.21.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_bf16_sw128_kernel.ptx -o %t.22.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_bf16_sw128_kernel.ptx -o %t.23.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_i8_swnone_kernel.ptx -o %t.24.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_i8_swnone_kernel.ptx -o %t.25.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_i8_sw32_kernel.ptx -o %t.26.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_i8_sw32_kernel.ptx -o %t.27.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_i8_sw64_kernel.ptx -o %t.28.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_i8_sw64_kernel.ptx -o %t.29.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_i8_sw128_kernel.ptx -o %t.30.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_i8_sw128_kernel.ptx -o %t.31.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E4M3FN_swnone_kernel.ptx -o %t.32.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E4M3FN_swnone_kernel.ptx -o %t.33.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E4M3FN_sw32_kernel.ptx -o %t.34.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E4M3FN_sw32_kernel.ptx -o %t.35.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E4M3FN_sw64_kernel.ptx -o %t.36.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E4M3FN_sw64_kernel.ptx -o %t.37.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E4M3FN_sw128_kernel.ptx -o %t.38.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E4M3FN_sw128_kernel.ptx -o %t.39.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E5M2_swnone_kernel.ptx -o %t.40.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E5M2_swnone_kernel.ptx -o %t.41.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E5M2_sw32_kernel.ptx -o %t.42.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E5M2_sw32_kernel.ptx -o %t.43.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E5M2_sw64_kernel.ptx -o %t.44.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E5M2_sw64_kernel.ptx -o %t.45.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f8E5M2_sw128_kernel.ptx -o %t.46.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f8E5M2_sw128_kernel.ptx -o %t.47.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_sw128_rows4_kernel.ptx -o %t.48.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_sw128_rows4_kernel.ptx -o %t.49.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_sw64_rows2_kernel.ptx -o %t.50.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_sw64_rows2_kernel.ptx -o %t.51.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_dma_tma_f16_sw32_rows4_kernel.ptx -o %t.52.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_layout_tma_dma_f16_sw32_rows4_kernel.ptx -o %t.53.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank1_f32_kernel.ptx -o %t.54.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank1_f16_kernel.ptx -o %t.55.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank2_f32_kernel.ptx -o %t.56.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank2_f16_kernel.ptx -o %t.57.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank3_f32_kernel.ptx -o %t.58.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank3_f16_kernel.ptx -o %t.59.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank4_f32_kernel.ptx -o %t.60.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank4_f16_kernel.ptx -o %t.61.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank5_f32_kernel.ptx -o %t.62.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_rank5_f16_kernel.ptx -o %t.63.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_split_middle_f32_kernel.ptx -o %t.64.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_fallback_f16_slice_kernel.ptx -o %t.65.cubin
// RUN: %ptxas -arch=sm_90a %t.d/tma_fallback_f32_colstride_kernel.ptx -o %t.66.cubin

//===- tma_generated.mlir - GPU test: tma copy families -------------===//
//
// Written by gen_tma_tests.py; run by run_gpu_tests.py (tma_generated_tests).
//   @tma_layout_<load>_<store>_<type>_<swizzle>: dma in and tma out,
//     and tma in and dma out, of tiles of two swizzle spans: out = in
//     only if both engines put every byte of the tile in the same
//     place of shared memory (also for slabs that start inside a
//     swizzle repeat: @..._rows<n>);
//   @tma_rank<r>_<type>: tma in and out, ranks 1 to 5;
//   @tma_split_middle_f32: a box dimension above 256 split;
//   @tma_fallback_*: strided slices and a column-major view, some of
//     which TMA cannot take (the kernel then copies them itself).
//
//===----------------------------------------------------------------------===//

func.func @tma_layout_dma_tma_f32_swnone(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy dma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @tma_layout_tma_dma_f32_swnone(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared>
    croq.copy tma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf32, shared> -> !croq.view<64x64xf32>
  }
  return
}

func.func @tma_layout_dma_tma_f32_sw32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 16 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 16] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x16xf32>
    %t = croq.alloc : !croq.tile<64x16xf32, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x16xf32> -> !croq.tile<64x16xf32, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 16] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x16xf32>
    croq.copy tma %t -> %dst : !croq.tile<64x16xf32, shared, swizzle = 32> -> !croq.view<64x16xf32>
  }
  return
}

func.func @tma_layout_tma_dma_f32_sw32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 16 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 16] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x16xf32>
    %t = croq.alloc : !croq.tile<64x16xf32, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<64x16xf32> -> !croq.tile<64x16xf32, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 16] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x16xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x16xf32, shared, swizzle = 32> -> !croq.view<64x16xf32>
  }
  return
}

func.func @tma_layout_dma_tma_f32_sw64(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x32xf32>
    %t = croq.alloc : !croq.tile<64x32xf32, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x32xf32> -> !croq.tile<64x32xf32, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<64x32xf32, shared, swizzle = 64> -> !croq.view<64x32xf32>
  }
  return
}

func.func @tma_layout_tma_dma_f32_sw64(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x32xf32>
    %t = croq.alloc : !croq.tile<64x32xf32, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<64x32xf32> -> !croq.tile<64x32xf32, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x32xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x32xf32, shared, swizzle = 64> -> !croq.view<64x32xf32>
  }
  return
}

func.func @tma_layout_dma_tma_f32_sw128(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<64x64xf32>
  }
  return
}

func.func @tma_layout_tma_dma_f32_sw128(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    %t = croq.alloc : !croq.tile<64x64xf32, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<64x64xf32>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<64x64xf32>
  }
  return
}

func.func @tma_layout_dma_tma_f16_swnone(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    %t = croq.alloc : !croq.tile<64x128xf16, shared>
    croq.copy dma %src -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x128xf16, shared> -> !croq.view<64x128xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_swnone(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    %t = croq.alloc : !croq.tile<64x128xf16, shared>
    croq.copy tma %src -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x128xf16, shared> -> !croq.view<64x128xf16>
  }
  return
}

func.func @tma_layout_dma_tma_f16_sw32(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x32xf16>
    %t = croq.alloc : !croq.tile<64x32xf16, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x32xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x32xf16, shared, swizzle = 32> -> !croq.view<64x32xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_sw32(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x32xf16>
    %t = croq.alloc : !croq.tile<64x32xf16, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<64x32xf16> -> !croq.tile<64x32xf16, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x32xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x32xf16, shared, swizzle = 32> -> !croq.view<64x32xf16>
  }
  return
}

func.func @tma_layout_dma_tma_f16_sw64(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 64> -> !croq.view<64x64xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_sw64(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x64xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 64> -> !croq.view<64x64xf16>
  }
  return
}

func.func @tma_layout_dma_tma_f16_sw128(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    %t = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x128xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_sw128(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    %t = croq.alloc : !croq.tile<64x128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x128xf16> -> !croq.tile<64x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<64x128xf16>
    croq.copy dma %t -> %dst : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x128xf16>
  }
  return
}

func.func @tma_layout_dma_tma_bf16_swnone(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    %t = croq.alloc : !croq.tile<64x128xbf16, shared>
    croq.copy dma %src -> %t : !croq.view<64x128xbf16> -> !croq.tile<64x128xbf16, shared>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    croq.copy tma %t -> %dst : !croq.tile<64x128xbf16, shared> -> !croq.view<64x128xbf16>
  }
  return
}

func.func @tma_layout_tma_dma_bf16_swnone(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    %t = croq.alloc : !croq.tile<64x128xbf16, shared>
    croq.copy tma %src -> %t : !croq.view<64x128xbf16> -> !croq.tile<64x128xbf16, shared>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    croq.copy dma %t -> %dst : !croq.tile<64x128xbf16, shared> -> !croq.view<64x128xbf16>
  }
  return
}

func.func @tma_layout_dma_tma_bf16_sw32(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 32] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x32xbf16>
    %t = croq.alloc : !croq.tile<64x32xbf16, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x32xbf16> -> !croq.tile<64x32xbf16, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 32] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x32xbf16>
    croq.copy tma %t -> %dst : !croq.tile<64x32xbf16, shared, swizzle = 32> -> !croq.view<64x32xbf16>
  }
  return
}

func.func @tma_layout_tma_dma_bf16_sw32(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 32] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x32xbf16>
    %t = croq.alloc : !croq.tile<64x32xbf16, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<64x32xbf16> -> !croq.tile<64x32xbf16, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 32] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x32xbf16>
    croq.copy dma %t -> %dst : !croq.tile<64x32xbf16, shared, swizzle = 32> -> !croq.view<64x32xbf16>
  }
  return
}

func.func @tma_layout_dma_tma_bf16_sw64(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    %t = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xbf16, shared, swizzle = 64> -> !croq.view<64x64xbf16>
  }
  return
}

func.func @tma_layout_tma_dma_bf16_sw64(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    %t = croq.alloc : !croq.tile<64x64xbf16, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<64x64xbf16> -> !croq.tile<64x64xbf16, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x64xbf16>
    croq.copy dma %t -> %dst : !croq.tile<64x64xbf16, shared, swizzle = 64> -> !croq.view<64x64xbf16>
  }
  return
}

func.func @tma_layout_dma_tma_bf16_sw128(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    %t = croq.alloc : !croq.tile<64x128xbf16, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x128xbf16> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    croq.copy tma %t -> %dst : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.view<64x128xbf16>
  }
  return
}

func.func @tma_layout_tma_dma_bf16_sw128(%in: memref<?x?xbf16>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xbf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xbf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    %t = croq.alloc : !croq.tile<64x128xbf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x128xbf16> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xbf16> -> !croq.view<64x128xbf16>
    croq.copy dma %t -> %dst : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.view<64x128xbf16>
  }
  return
}

func.func @tma_layout_dma_tma_i8_swnone(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    %t = croq.alloc : !croq.tile<64x256xi8, shared>
    croq.copy dma %src -> %t : !croq.view<64x256xi8> -> !croq.tile<64x256xi8, shared>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    croq.copy tma %t -> %dst : !croq.tile<64x256xi8, shared> -> !croq.view<64x256xi8>
  }
  return
}

func.func @tma_layout_tma_dma_i8_swnone(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    %t = croq.alloc : !croq.tile<64x256xi8, shared>
    croq.copy tma %src -> %t : !croq.view<64x256xi8> -> !croq.tile<64x256xi8, shared>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    croq.copy dma %t -> %dst : !croq.tile<64x256xi8, shared> -> !croq.view<64x256xi8>
  }
  return
}

func.func @tma_layout_dma_tma_i8_sw32(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x64xi8>
    %t = croq.alloc : !croq.tile<64x64xi8, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x64xi8> -> !croq.tile<64x64xi8, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x64xi8>
    croq.copy tma %t -> %dst : !croq.tile<64x64xi8, shared, swizzle = 32> -> !croq.view<64x64xi8>
  }
  return
}

func.func @tma_layout_tma_dma_i8_sw32(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x64xi8>
    %t = croq.alloc : !croq.tile<64x64xi8, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<64x64xi8> -> !croq.tile<64x64xi8, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x64xi8>
    croq.copy dma %t -> %dst : !croq.tile<64x64xi8, shared, swizzle = 32> -> !croq.view<64x64xi8>
  }
  return
}

func.func @tma_layout_dma_tma_i8_sw64(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x128xi8>
    %t = croq.alloc : !croq.tile<64x128xi8, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x128xi8> -> !croq.tile<64x128xi8, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x128xi8>
    croq.copy tma %t -> %dst : !croq.tile<64x128xi8, shared, swizzle = 64> -> !croq.view<64x128xi8>
  }
  return
}

func.func @tma_layout_tma_dma_i8_sw64(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x128xi8>
    %t = croq.alloc : !croq.tile<64x128xi8, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<64x128xi8> -> !croq.tile<64x128xi8, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x128xi8>
    croq.copy dma %t -> %dst : !croq.tile<64x128xi8, shared, swizzle = 64> -> !croq.view<64x128xi8>
  }
  return
}

func.func @tma_layout_dma_tma_i8_sw128(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    %t = croq.alloc : !croq.tile<64x256xi8, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x256xi8> -> !croq.tile<64x256xi8, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    croq.copy tma %t -> %dst : !croq.tile<64x256xi8, shared, swizzle = 128> -> !croq.view<64x256xi8>
  }
  return
}

func.func @tma_layout_tma_dma_i8_sw128(%in: memref<?x?xi8>, %out: memref<?x?xi8>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xi8>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xi8>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    %t = croq.alloc : !croq.tile<64x256xi8, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x256xi8> -> !croq.tile<64x256xi8, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xi8> -> !croq.view<64x256xi8>
    croq.copy dma %t -> %dst : !croq.tile<64x256xi8, shared, swizzle = 128> -> !croq.view<64x256xi8>
  }
  return
}

func.func @tma_layout_dma_tma_f8E4M3FN_swnone(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x256xf8E4M3FN, shared>
    croq.copy dma %src -> %t : !croq.view<64x256xf8E4M3FN> -> !croq.tile<64x256xf8E4M3FN, shared>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    croq.copy tma %t -> %dst : !croq.tile<64x256xf8E4M3FN, shared> -> !croq.view<64x256xf8E4M3FN>
  }
  return
}

func.func @tma_layout_tma_dma_f8E4M3FN_swnone(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x256xf8E4M3FN, shared>
    croq.copy tma %src -> %t : !croq.view<64x256xf8E4M3FN> -> !croq.tile<64x256xf8E4M3FN, shared>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    croq.copy dma %t -> %dst : !croq.tile<64x256xf8E4M3FN, shared> -> !croq.view<64x256xf8E4M3FN>
  }
  return
}

func.func @tma_layout_dma_tma_f8E4M3FN_sw32(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x64xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x64xf8E4M3FN, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x64xf8E4M3FN> -> !croq.tile<64x64xf8E4M3FN, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x64xf8E4M3FN>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf8E4M3FN, shared, swizzle = 32> -> !croq.view<64x64xf8E4M3FN>
  }
  return
}

func.func @tma_layout_tma_dma_f8E4M3FN_sw32(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x64xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x64xf8E4M3FN, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<64x64xf8E4M3FN> -> !croq.tile<64x64xf8E4M3FN, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x64xf8E4M3FN>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf8E4M3FN, shared, swizzle = 32> -> !croq.view<64x64xf8E4M3FN>
  }
  return
}

func.func @tma_layout_dma_tma_f8E4M3FN_sw64(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x128xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x128xf8E4M3FN, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x128xf8E4M3FN> -> !croq.tile<64x128xf8E4M3FN, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x128xf8E4M3FN>
    croq.copy tma %t -> %dst : !croq.tile<64x128xf8E4M3FN, shared, swizzle = 64> -> !croq.view<64x128xf8E4M3FN>
  }
  return
}

func.func @tma_layout_tma_dma_f8E4M3FN_sw64(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x128xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x128xf8E4M3FN, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<64x128xf8E4M3FN> -> !croq.tile<64x128xf8E4M3FN, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x128xf8E4M3FN>
    croq.copy dma %t -> %dst : !croq.tile<64x128xf8E4M3FN, shared, swizzle = 64> -> !croq.view<64x128xf8E4M3FN>
  }
  return
}

func.func @tma_layout_dma_tma_f8E4M3FN_sw128(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x256xf8E4M3FN, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x256xf8E4M3FN> -> !croq.tile<64x256xf8E4M3FN, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    croq.copy tma %t -> %dst : !croq.tile<64x256xf8E4M3FN, shared, swizzle = 128> -> !croq.view<64x256xf8E4M3FN>
  }
  return
}

func.func @tma_layout_tma_dma_f8E4M3FN_sw128(%in: memref<?x?xf8E4M3FN>, %out: memref<?x?xf8E4M3FN>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E4M3FN>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E4M3FN>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    %t = croq.alloc : !croq.tile<64x256xf8E4M3FN, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x256xf8E4M3FN> -> !croq.tile<64x256xf8E4M3FN, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E4M3FN> -> !croq.view<64x256xf8E4M3FN>
    croq.copy dma %t -> %dst : !croq.tile<64x256xf8E4M3FN, shared, swizzle = 128> -> !croq.view<64x256xf8E4M3FN>
  }
  return
}

func.func @tma_layout_dma_tma_f8E5M2_swnone(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    %t = croq.alloc : !croq.tile<64x256xf8E5M2, shared>
    croq.copy dma %src -> %t : !croq.view<64x256xf8E5M2> -> !croq.tile<64x256xf8E5M2, shared>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    croq.copy tma %t -> %dst : !croq.tile<64x256xf8E5M2, shared> -> !croq.view<64x256xf8E5M2>
  }
  return
}

func.func @tma_layout_tma_dma_f8E5M2_swnone(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    %t = croq.alloc : !croq.tile<64x256xf8E5M2, shared>
    croq.copy tma %src -> %t : !croq.view<64x256xf8E5M2> -> !croq.tile<64x256xf8E5M2, shared>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    croq.copy dma %t -> %dst : !croq.tile<64x256xf8E5M2, shared> -> !croq.view<64x256xf8E5M2>
  }
  return
}

func.func @tma_layout_dma_tma_f8E5M2_sw32(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x64xf8E5M2>
    %t = croq.alloc : !croq.tile<64x64xf8E5M2, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<64x64xf8E5M2> -> !croq.tile<64x64xf8E5M2, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x64xf8E5M2>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf8E5M2, shared, swizzle = 32> -> !croq.view<64x64xf8E5M2>
  }
  return
}

func.func @tma_layout_tma_dma_f8E5M2_sw32(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x64xf8E5M2>
    %t = croq.alloc : !croq.tile<64x64xf8E5M2, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<64x64xf8E5M2> -> !croq.tile<64x64xf8E5M2, shared, swizzle = 32>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x64xf8E5M2>
    croq.copy dma %t -> %dst : !croq.tile<64x64xf8E5M2, shared, swizzle = 32> -> !croq.view<64x64xf8E5M2>
  }
  return
}

func.func @tma_layout_dma_tma_f8E5M2_sw64(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x128xf8E5M2>
    %t = croq.alloc : !croq.tile<64x128xf8E5M2, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<64x128xf8E5M2> -> !croq.tile<64x128xf8E5M2, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x128xf8E5M2>
    croq.copy tma %t -> %dst : !croq.tile<64x128xf8E5M2, shared, swizzle = 64> -> !croq.view<64x128xf8E5M2>
  }
  return
}

func.func @tma_layout_tma_dma_f8E5M2_sw64(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 128] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x128xf8E5M2>
    %t = croq.alloc : !croq.tile<64x128xf8E5M2, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<64x128xf8E5M2> -> !croq.tile<64x128xf8E5M2, shared, swizzle = 64>
    %dst = croq.subspan %out [64, 128] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x128xf8E5M2>
    croq.copy dma %t -> %dst : !croq.tile<64x128xf8E5M2, shared, swizzle = 64> -> !croq.view<64x128xf8E5M2>
  }
  return
}

func.func @tma_layout_dma_tma_f8E5M2_sw128(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    %t = croq.alloc : !croq.tile<64x256xf8E5M2, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<64x256xf8E5M2> -> !croq.tile<64x256xf8E5M2, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    croq.copy tma %t -> %dst : !croq.tile<64x256xf8E5M2, shared, swizzle = 128> -> !croq.view<64x256xf8E5M2>
  }
  return
}

func.func @tma_layout_tma_dma_f8E5M2_sw128(%in: memref<?x?xf8E5M2>, %out: memref<?x?xf8E5M2>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf8E5M2>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 256 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf8E5M2>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    %t = croq.alloc : !croq.tile<64x256xf8E5M2, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x256xf8E5M2> -> !croq.tile<64x256xf8E5M2, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 256] at [%b0, %b1] : memref<?x?xf8E5M2> -> !croq.view<64x256xf8E5M2>
    croq.copy dma %t -> %dst : !croq.tile<64x256xf8E5M2, shared, swizzle = 128> -> !croq.view<64x256xf8E5M2>
  }
  return
}

func.func @tma_layout_dma_tma_f16_sw128_rows4(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 4 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [4, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x128xf16>
    %t = croq.alloc : !croq.tile<4x128xf16, shared, swizzle = 128>
    croq.copy dma %src -> %t : !croq.view<4x128xf16> -> !croq.tile<4x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [4, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<4x128xf16, shared, swizzle = 128> -> !croq.view<4x128xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_sw128_rows4(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 4 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [4, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x128xf16>
    %t = croq.alloc : !croq.tile<4x128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<4x128xf16> -> !croq.tile<4x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [4, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x128xf16>
    croq.copy dma %t -> %dst : !croq.tile<4x128xf16, shared, swizzle = 128> -> !croq.view<4x128xf16>
  }
  return
}

func.func @tma_layout_dma_tma_f16_sw64_rows2(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [2, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<2x64xf16>
    %t = croq.alloc : !croq.tile<2x64xf16, shared, swizzle = 64>
    croq.copy dma %src -> %t : !croq.view<2x64xf16> -> !croq.tile<2x64xf16, shared, swizzle = 64>
    %dst = croq.subspan %out [2, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<2x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<2x64xf16, shared, swizzle = 64> -> !croq.view<2x64xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_sw64_rows2(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [2, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<2x64xf16>
    %t = croq.alloc : !croq.tile<2x64xf16, shared, swizzle = 64>
    croq.copy tma %src -> %t : !croq.view<2x64xf16> -> !croq.tile<2x64xf16, shared, swizzle = 64>
    %dst = croq.subspan %out [2, 64] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<2x64xf16>
    croq.copy dma %t -> %dst : !croq.tile<2x64xf16, shared, swizzle = 64> -> !croq.view<2x64xf16>
  }
  return
}

func.func @tma_layout_dma_tma_f16_sw32_rows4(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 4 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [4, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x32xf16>
    %t = croq.alloc : !croq.tile<4x32xf16, shared, swizzle = 32>
    croq.copy dma %src -> %t : !croq.view<4x32xf16> -> !croq.tile<4x32xf16, shared, swizzle = 32>
    %dst = croq.subspan %out [4, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x32xf16>
    croq.copy tma %t -> %dst : !croq.tile<4x32xf16, shared, swizzle = 32> -> !croq.view<4x32xf16>
  }
  return
}

func.func @tma_layout_tma_dma_f16_sw32_rows4(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 4 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [4, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x32xf16>
    %t = croq.alloc : !croq.tile<4x32xf16, shared, swizzle = 32>
    croq.copy tma %src -> %t : !croq.view<4x32xf16> -> !croq.tile<4x32xf16, shared, swizzle = 32>
    %dst = croq.subspan %out [4, 32] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<4x32xf16>
    croq.copy dma %t -> %dst : !croq.tile<4x32xf16, shared, swizzle = 32> -> !croq.view<4x32xf16>
  }
  return
}

func.func @tma_rank1_f32(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 32 : index
  %n0 = memref.dim %in, %c0 : memref<?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  croq.parallel (%b0) in [%g0] : block {
    %src = croq.subspan %in [32] at [%b0] : memref<?xf32> -> !croq.view<32xf32>
    %t = croq.alloc : !croq.tile<32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<32xf32> -> !croq.tile<32xf32, shared>
    %dst = croq.subspan %out [32] at [%b0] : memref<?xf32> -> !croq.view<32xf32>
    croq.copy tma %t -> %dst : !croq.tile<32xf32, shared> -> !croq.view<32xf32>
  }
  return
}

func.func @tma_rank1_f16(%in: memref<?xf16>, %out: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 128 : index
  %n0 = memref.dim %in, %c0 : memref<?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  croq.parallel (%b0) in [%g0] : block {
    %src = croq.subspan %in [128] at [%b0] : memref<?xf16> -> !croq.view<128xf16>
    %t = croq.alloc : !croq.tile<128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<128xf16> -> !croq.tile<128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [128] at [%b0] : memref<?xf16> -> !croq.view<128xf16>
    croq.copy tma %t -> %dst : !croq.tile<128xf16, shared, swizzle = 128> -> !croq.view<128xf16>
  }
  return
}

func.func @tma_rank2_f32(%in: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 8 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [8, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<8x32xf32>
    %t = croq.alloc : !croq.tile<8x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<8x32xf32> -> !croq.tile<8x32xf32, shared>
    %dst = croq.subspan %out [8, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<8x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<8x32xf32, shared> -> !croq.view<8x32xf32>
  }
  return
}

func.func @tma_rank2_f16(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 8 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 128 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [8, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<8x128xf16>
    %t = croq.alloc : !croq.tile<8x128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<8x128xf16> -> !croq.tile<8x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [8, 128] at [%b0, %b1] : memref<?x?xf16> -> !croq.view<8x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<8x128xf16, shared, swizzle = 128> -> !croq.view<8x128xf16>
  }
  return
}

func.func @tma_rank3_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 4 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 8 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 32 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?xf32>
  %g2 = arith.ceildivui %n2, %t2 : index
  croq.parallel (%b0, %b1, %b2) in [%g0, %g1, %g2] : block {
    %src = croq.subspan %in [4, 8, 32] at [%b0, %b1, %b2] : memref<?x?x?xf32> -> !croq.view<4x8x32xf32>
    %t = croq.alloc : !croq.tile<4x8x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<4x8x32xf32> -> !croq.tile<4x8x32xf32, shared>
    %dst = croq.subspan %out [4, 8, 32] at [%b0, %b1, %b2] : memref<?x?x?xf32> -> !croq.view<4x8x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<4x8x32xf32, shared> -> !croq.view<4x8x32xf32>
  }
  return
}

func.func @tma_rank3_f16(%in: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 4 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 8 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 128 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?xf16>
  %g2 = arith.ceildivui %n2, %t2 : index
  croq.parallel (%b0, %b1, %b2) in [%g0, %g1, %g2] : block {
    %src = croq.subspan %in [4, 8, 128] at [%b0, %b1, %b2] : memref<?x?x?xf16> -> !croq.view<4x8x128xf16>
    %t = croq.alloc : !croq.tile<4x8x128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<4x8x128xf16> -> !croq.tile<4x8x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [4, 8, 128] at [%b0, %b1, %b2] : memref<?x?x?xf16> -> !croq.view<4x8x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<4x8x128xf16, shared, swizzle = 128> -> !croq.view<4x8x128xf16>
  }
  return
}

func.func @tma_rank4_f32(%in: memref<?x?x?x?xf32>, %out: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 4 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 8 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?x?xf32>
  %g2 = arith.ceildivui %n2, %t2 : index
  %c3 = arith.constant 3 : index
  %t3 = arith.constant 32 : index
  %n3 = memref.dim %in, %c3 : memref<?x?x?x?xf32>
  %g3 = arith.ceildivui %n3, %t3 : index
  %gx0 = arith.constant 1 : index
  %gx1 = arith.muli %gx0, %g0 : index
  %gx2 = arith.muli %gx1, %g1 : index
  croq.parallel (%b0, %b1, %b2) in [%gx2, %g2, %g3] : block {
    %r0 = arith.addi %b0, %c0 : index
    %i1 = arith.remui %r0, %g1 : index
    %r1 = arith.divui %r0, %g1 : index
    %i0 = arith.remui %r1, %g0 : index
    %r2 = arith.divui %r1, %g0 : index
    %src = croq.subspan %in [2, 4, 8, 32] at [%i0, %i1, %b1, %b2] : memref<?x?x?x?xf32> -> !croq.view<2x4x8x32xf32>
    %t = croq.alloc : !croq.tile<2x4x8x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<2x4x8x32xf32> -> !croq.tile<2x4x8x32xf32, shared>
    %dst = croq.subspan %out [2, 4, 8, 32] at [%i0, %i1, %b1, %b2] : memref<?x?x?x?xf32> -> !croq.view<2x4x8x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<2x4x8x32xf32, shared> -> !croq.view<2x4x8x32xf32>
  }
  return
}

func.func @tma_rank4_f16(%in: memref<?x?x?x?xf16>, %out: memref<?x?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 4 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 8 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?x?xf16>
  %g2 = arith.ceildivui %n2, %t2 : index
  %c3 = arith.constant 3 : index
  %t3 = arith.constant 128 : index
  %n3 = memref.dim %in, %c3 : memref<?x?x?x?xf16>
  %g3 = arith.ceildivui %n3, %t3 : index
  %gx0 = arith.constant 1 : index
  %gx1 = arith.muli %gx0, %g0 : index
  %gx2 = arith.muli %gx1, %g1 : index
  croq.parallel (%b0, %b1, %b2) in [%gx2, %g2, %g3] : block {
    %r0 = arith.addi %b0, %c0 : index
    %i1 = arith.remui %r0, %g1 : index
    %r1 = arith.divui %r0, %g1 : index
    %i0 = arith.remui %r1, %g0 : index
    %r2 = arith.divui %r1, %g0 : index
    %src = croq.subspan %in [2, 4, 8, 128] at [%i0, %i1, %b1, %b2] : memref<?x?x?x?xf16> -> !croq.view<2x4x8x128xf16>
    %t = croq.alloc : !croq.tile<2x4x8x128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<2x4x8x128xf16> -> !croq.tile<2x4x8x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [2, 4, 8, 128] at [%i0, %i1, %b1, %b2] : memref<?x?x?x?xf16> -> !croq.view<2x4x8x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<2x4x8x128xf16, shared, swizzle = 128> -> !croq.view<2x4x8x128xf16>
  }
  return
}

func.func @tma_rank5_f32(%in: memref<?x?x?x?x?xf32>, %out: memref<?x?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?x?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 2 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?x?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 4 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?x?x?xf32>
  %g2 = arith.ceildivui %n2, %t2 : index
  %c3 = arith.constant 3 : index
  %t3 = arith.constant 8 : index
  %n3 = memref.dim %in, %c3 : memref<?x?x?x?x?xf32>
  %g3 = arith.ceildivui %n3, %t3 : index
  %c4 = arith.constant 4 : index
  %t4 = arith.constant 32 : index
  %n4 = memref.dim %in, %c4 : memref<?x?x?x?x?xf32>
  %g4 = arith.ceildivui %n4, %t4 : index
  %gx0 = arith.constant 1 : index
  %gx1 = arith.muli %gx0, %g0 : index
  %gx2 = arith.muli %gx1, %g1 : index
  %gx3 = arith.muli %gx2, %g2 : index
  croq.parallel (%b0, %b1, %b2) in [%gx3, %g3, %g4] : block {
    %r0 = arith.addi %b0, %c0 : index
    %i2 = arith.remui %r0, %g2 : index
    %r1 = arith.divui %r0, %g2 : index
    %i1 = arith.remui %r1, %g1 : index
    %r2 = arith.divui %r1, %g1 : index
    %i0 = arith.remui %r2, %g0 : index
    %r3 = arith.divui %r2, %g0 : index
    %src = croq.subspan %in [2, 2, 4, 8, 32] at [%i0, %i1, %i2, %b1, %b2] : memref<?x?x?x?x?xf32> -> !croq.view<2x2x4x8x32xf32>
    %t = croq.alloc : !croq.tile<2x2x4x8x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<2x2x4x8x32xf32> -> !croq.tile<2x2x4x8x32xf32, shared>
    %dst = croq.subspan %out [2, 2, 4, 8, 32] at [%i0, %i1, %i2, %b1, %b2] : memref<?x?x?x?x?xf32> -> !croq.view<2x2x4x8x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<2x2x4x8x32xf32, shared> -> !croq.view<2x2x4x8x32xf32>
  }
  return
}

func.func @tma_rank5_f16(%in: memref<?x?x?x?x?xf16>, %out: memref<?x?x?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?x?x?xf16>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 2 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?x?x?xf16>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 4 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?x?x?xf16>
  %g2 = arith.ceildivui %n2, %t2 : index
  %c3 = arith.constant 3 : index
  %t3 = arith.constant 8 : index
  %n3 = memref.dim %in, %c3 : memref<?x?x?x?x?xf16>
  %g3 = arith.ceildivui %n3, %t3 : index
  %c4 = arith.constant 4 : index
  %t4 = arith.constant 128 : index
  %n4 = memref.dim %in, %c4 : memref<?x?x?x?x?xf16>
  %g4 = arith.ceildivui %n4, %t4 : index
  %gx0 = arith.constant 1 : index
  %gx1 = arith.muli %gx0, %g0 : index
  %gx2 = arith.muli %gx1, %g1 : index
  %gx3 = arith.muli %gx2, %g2 : index
  croq.parallel (%b0, %b1, %b2) in [%gx3, %g3, %g4] : block {
    %r0 = arith.addi %b0, %c0 : index
    %i2 = arith.remui %r0, %g2 : index
    %r1 = arith.divui %r0, %g2 : index
    %i1 = arith.remui %r1, %g1 : index
    %r2 = arith.divui %r1, %g1 : index
    %i0 = arith.remui %r2, %g0 : index
    %r3 = arith.divui %r2, %g0 : index
    %src = croq.subspan %in [2, 2, 4, 8, 128] at [%i0, %i1, %i2, %b1, %b2] : memref<?x?x?x?x?xf16> -> !croq.view<2x2x4x8x128xf16>
    %t = croq.alloc : !croq.tile<2x2x4x8x128xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<2x2x4x8x128xf16> -> !croq.tile<2x2x4x8x128xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [2, 2, 4, 8, 128] at [%i0, %i1, %i2, %b1, %b2] : memref<?x?x?x?x?xf16> -> !croq.view<2x2x4x8x128xf16>
    croq.copy tma %t -> %dst : !croq.tile<2x2x4x8x128xf16, shared, swizzle = 128> -> !croq.view<2x2x4x8x128xf16>
  }
  return
}

func.func @tma_split_middle_f32(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 2 : index
  %n0 = memref.dim %in, %c0 : memref<?x?x?xf32>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 512 : index
  %n1 = memref.dim %in, %c1 : memref<?x?x?xf32>
  %g1 = arith.ceildivui %n1, %t1 : index
  %c2 = arith.constant 2 : index
  %t2 = arith.constant 16 : index
  %n2 = memref.dim %in, %c2 : memref<?x?x?xf32>
  %g2 = arith.ceildivui %n2, %t2 : index
  croq.parallel (%b0, %b1, %b2) in [%g0, %g1, %g2] : block {
    %src = croq.subspan %in [2, 512, 16] at [%b0, %b1, %b2] : memref<?x?x?xf32> -> !croq.view<2x512x16xf32>
    %t = croq.alloc : !croq.tile<2x512x16xf32, shared>
    croq.copy tma %src -> %t : !croq.view<2x512x16xf32> -> !croq.tile<2x512x16xf32, shared>
    %dst = croq.subspan %out [2, 512, 16] at [%b0, %b1, %b2] : memref<?x?x?xf32> -> !croq.view<2x512x16xf32>
    croq.copy tma %t -> %dst : !croq.tile<2x512x16xf32, shared> -> !croq.view<2x512x16xf32>
  }
  return
}

func.func @tma_fallback_f16_slice(%in: memref<?x?xf16, strided<[?, 1], offset: ?>>, %out: memref<?x?xf16, strided<[?, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 64 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf16, strided<[?, 1], offset: ?>>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 64 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf16, strided<[?, 1], offset: ?>>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [64, 64] at [%b0, %b1] : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf16>
    %t = croq.alloc : !croq.tile<64x64xf16, shared, swizzle = 128>
    croq.copy tma %src -> %t : !croq.view<64x64xf16> -> !croq.tile<64x64xf16, shared, swizzle = 128>
    %dst = croq.subspan %out [64, 64] at [%b0, %b1] : memref<?x?xf16, strided<[?, 1], offset: ?>> -> !croq.view<64x64xf16>
    croq.copy tma %t -> %dst : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x64xf16>
  }
  return
}

func.func @tma_fallback_f32_colstride(%in: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = arith.constant 32 : index
  %n0 = memref.dim %in, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %g0 = arith.ceildivui %n0, %t0 : index
  %c1 = arith.constant 1 : index
  %t1 = arith.constant 32 : index
  %n1 = memref.dim %in, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %g1 = arith.ceildivui %n1, %t1 : index
  croq.parallel (%b0, %b1) in [%g0, %g1] : block {
    %src = croq.subspan %in [32, 32] at [%b0, %b1] : memref<?x?xf32, strided<[?, ?], offset: ?>> -> !croq.view<32x32xf32>
    %t = croq.alloc : !croq.tile<32x32xf32, shared>
    croq.copy tma %src -> %t : !croq.view<32x32xf32> -> !croq.tile<32x32xf32, shared>
    %dst = croq.subspan %out [32, 32] at [%b0, %b1] : memref<?x?xf32> -> !croq.view<32x32xf32>
    croq.copy tma %t -> %dst : !croq.tile<32x32xf32, shared> -> !croq.view<32x32xf32>
  }
  return
}
