//===- bench_gemm.mlir - GEMM kernels for bench/bench_gemm.py -------------===//
//
// output[M, N] = lhs[M, K] * rhs[N, K]^T with f32 accumulation: the
// warp-specialized kernel of examples/matmul_tma_pipelined.mlir (one
// producer warpgroup issuing tma loads into a 4-stage ring of 128x64 tiles,
// one consumer warpgroup running wgmma m64n128k16 on a 128x128 output
// tile). bench_gemm.py times it against torch.matmul (cuBLAS).
//   @gemm_f16    f16 in and out
//   @gemm_bf16   bf16 in and out
// and the faster form: a producer and two consumer warpgroups (64 rows of a
// 128x256 tile each, m64n256k16), wgmma kept one group ahead (commit
// pending = 1, the previous stage freed after it), setmaxnreg 40 / 232,
// accumulators stored straight to global memory:
//   @gemm_f16_128x256, @gemm_bf16_128x256
// and the plain loop of examples/matmul_plain.mlir (synchronous tma loads,
// then wgmma on a 128x128 tile) left to croq-pipeline-loops, which makes it
// the warp-specialized ring with as many stages as fit:
//   @gemm_plain_f16, @gemm_plain_pt_f16
// and the fastest forms (below): the 128x256 kernel with its epilogue
// through shared memory (@gemm_f16_128x256_s), that kernel made
// persistent (@gemm_f16_128x256_p, @gemm_bf16_128x256_p, and on f8
// operands @gemm_e4m3_128x128_p, 128x128 with its partial sums promoted
// into f32 every K step), and the persistent kernel with its
// epilogue stored by TMA from 128B-swizzled tiles (stmatrix) and left in
// flight while the next tile's wgmma runs (@gemm_f16_128x256_pt,
// @gemm_bf16_128x256_pt, @gemm_e4m3_128x256_pt).
//
//===----------------------------------------------------------------------===//

func.func @gemm_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
        croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
      }
    }
  }
  return
}

func.func @gemm_bf16(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xbf16, shared>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %ak = croq.chunkat %as[_, %iv_warp] of [1, 4] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x16xbf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<128x16xbf16, shared, swizzle = 128> -> !croq.frag<128x16xbf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<128x16xbf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<128x16xbf16, shared, swizzle = 128> -> !croq.frag<128x16xbf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xbf16>, !croq.frag<128x16xbf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xbf16, shared>
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xbf16> -> !croq.view<128x128xbf16>
        croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xbf16, shared> -> !croq.view<128x128xbf16>
      }
    }
  }
  return
}

func.func @gemm_f16_128x256(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 256x64xf16, shared, swizzle = 128>
    %block_m2 = arith.muli %block_m, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %row_block = arith.addi %block_m2, %half : index
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
        %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %cnk step %c1
              iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
            %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
            scf.yield %next : !croq.acc<64x256xf32>
          }
          %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
          // The mma of the previous iteration has completed: free its stage.
          %has_prev = arith.cmpi ugt, %iv_k, %c0 : index
          scf.if %has_prev {
            %prev_k = arith.subi %iv_k, %c1 : index
            %prev = arith.remui %prev_k, %c4 : index
            croq.event.trigger %empty[%prev] : !croq.events<4>
          }
          scf.yield %done : !croq.acc<64x256xf32>
        }
        %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
        %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
        croq.mma.store %mc -> %out_tile : !croq.acc<64x256xf32> -> !croq.view<64x256xf16>
      }
    }
  }
  return
}

func.func @gemm_bf16_128x256(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_s = croq.alloc : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<4 x 256x64xbf16, shared, swizzle = 128>
    %block_m2 = arith.muli %block_m, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xbf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %row_block = arith.addi %block_m2, %half : index
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
        %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<4 x 128x64xbf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<4 x 256x64xbf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %cnk step %c1
              iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
            %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
            scf.yield %next : !croq.acc<64x256xf32>
          }
          %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
          // The mma of the previous iteration has completed: free its stage.
          %has_prev = arith.cmpi ugt, %iv_k, %c0 : index
          scf.if %has_prev {
            %prev_k = arith.subi %iv_k, %c1 : index
            %prev = arith.remui %prev_k, %c4 : index
            croq.event.trigger %empty[%prev] : !croq.events<4>
          }
          scf.yield %done : !croq.acc<64x256xf32>
        }
        %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
        %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
        croq.mma.store %mc -> %out_tile : !croq.acc<64x256xf32> -> !croq.view<64x256xbf16>
      }
    }
  }
  return
}

// The plain loop, pipelined by croq-pipeline-loops.
func.func @gemm_plain_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c128 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %lhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}

// The same plain form with a 128x256 tile, its result stored by TMA from a
// 128B-swizzled tile and left in flight, and the block marked persistent:
// nothing but the K loop of copy, copy, mma is written. The compiler makes
// it what @gemm_f16_128x256_pt is by hand: croq-persistent-blocks walks the
// tiles with one block per SM, croq-pipeline-loops builds the ring and the
// producer warpgroup across tiles, croq-split-accumulators gives each of
// two consumer warpgroups 64 rows, croq-wait-async-stores lets the store
// overlap the next tile.
func.func @gemm_plain_pt_f16(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %c128 : index
  %grid_n = arith.ceildivui %n, %c256 : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block attributes {croq.persistent = true} {
    %lhs_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tile<256x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x256xf16, shared, swizzle = 128>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x256xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x256xf32>) {
      %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %a -> %lhs_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
      croq.copy tma zfill swizzle = 128 %b -> %rhs_s : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x256xf32>) {
        %ak = croq.chunkat %lhs_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %ak : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %bk = croq.chunkat %rhs_s[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<128x256xf32>
        scf.yield %next : !croq.acc<128x256xf32>
      }
      %done = croq.mma.commit %sum : !croq.acc<128x256xf32>
      scf.yield %done : !croq.acc<128x256xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x256xf32> -> !croq.tile<128x256xf16, shared, swizzle = 128>
    %out_tile = croq.subspan %output [128, 256] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x256xf16>
    %stored = croq.copy tma async swizzle = 128 %output_s -> %out_tile : !croq.tile<128x256xf16, shared, swizzle = 128> -> !croq.view<128x256xf16>
  }
  return
}

// @gemm_f16_128x256 with 3 stages and the epilogue through shared memory:
// each consumer stores its 64x256 half into its own shared tile (pairs of
// columns per store) and copies it out with 16-byte vector stores.
func.func @gemm_f16_128x256_s(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %grid_m = arith.ceildivui %m, %cbm : index
  %grid_n = arith.ceildivui %n, %cbn : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%block_m, %block_n) in [%grid_m, %grid_n] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared>
    %block_m2 = arith.muli %block_m, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<3>
          %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
          %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
          %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %row_block = arith.addi %block_m2, %half : index
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
        %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<3>
          %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
          %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %cnk step %c1
              iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
            %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
            %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
            scf.yield %next : !croq.acc<64x256xf32>
          }
          %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
          // The mma of the previous iteration has completed: free its stage.
          %has_prev = arith.cmpi ugt, %iv_k, %c0 : index
          scf.if %has_prev {
            %prev_k = arith.subi %iv_k, %c1 : index
            %prev = arith.remui %prev_k, %c4 : index
            croq.event.trigger %empty[%prev] : !croq.events<3>
          }
          scf.yield %done : !croq.acc<64x256xf32>
        }
        %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared>
        croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared>
        %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
        croq.copy dma %os -> %out_tile : !croq.tile<64x256xf16, shared> -> !croq.view<64x256xf16>
      }
    }
  }
  return
}

// @gemm_f16_128x256_s as a persistent kernel: one block per SM (132 on H100
// and H200) walks the 128x256 output tiles bid, bid + 132, ... in groups of
// 8 tile rows (the rhs tiles of a group stay in L2). The producer runs one
// ring over all the block's tiles, so it loads the next tile's first stages
// while the consumers run the epilogue of the current one.
func.func @gemm_f16_128x256_p(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x256xf16, shared> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}

// The persistent kernel for bf16.
func.func @gemm_bf16_128x256_p(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x256xbf16, shared> -> !croq.view<64x256xbf16>
        }
      }
    }
  }
  return
}

// The persistent kernel on f8E4M3FN operands, f16 output (bench_gemm.py
// compares it with torch._scaled_mm): 128x128 tiles in a ring of 5 stages,
// each K step's partial sum added into the f32 accumulator once complete,
// as cuBLAS promotes (two 64x256 f32 accumulators per consumer would not
// fit in registers).
func.func @gemm_e4m3_128x128_p(%lhs: memref<?x?xf8E4M3FN>, %rhs: memref<?x?xf8E4M3FN>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 128 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 128 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf8E4M3FN>
  %k = memref.dim %lhs, %c1 : memref<?x?xf8E4M3FN>
  %n = memref.dim %rhs, %c0 : memref<?x?xf8E4M3FN>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<5>
    %empty = croq.event.alloc ready : !croq.events<5>
    %lhs_s = croq.alloc : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x128xf16, shared>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %empty[%stage] : !croq.events<5>
            %a = croq.subspan %lhs [128, 128] at [%block_m, %iv_k] : memref<?x?xf8E4M3FN> -> !croq.view<128x128xf8E4M3FN>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x128xf8E4M3FN> -> !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128>
            %b = croq.subspan %rhs [128, 128] at [%block_n, %iv_k] : memref<?x?xf8E4M3FN> -> !croq.view<128x128xf8E4M3FN>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<128x128xf8E4M3FN> -> !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<5>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x128xf16, shared>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x128xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %full[%stage] : !croq.events<5>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<5 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %ak = croq.subspan %as [64, 128] at [%half, %c0] : !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128> -> !croq.view<64x128xf8E4M3FN, shared, swizzle = 128>
            %ma = croq.mma.load %ak : !croq.view<64x128xf8E4M3FN, shared, swizzle = 128> -> !croq.frag<64x128xf8E4M3FN>
            %mb = croq.mma.load %bs : !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128> -> !croq.frag<128x128xf8E4M3FN>
            // The K step's partial sum, from zeros (wgmma's scale-d = 0),
            // added into the f32 accumulator once complete: wgmma's f8
            // accumulator keeps fewer mantissa bits than f32.
            %fresh = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %part = croq.mma row row %fresh, %ma, %mb : !croq.frag<64x128xf8E4M3FN>, !croq.frag<128x128xf8E4M3FN> -> !croq.acc<64x128xf32>
            %done = croq.mma.commit %part : !croq.acc<64x128xf32>
            croq.event.trigger %empty[%stage] : !croq.events<5>
            %sum = croq.mma.map %acc, %done (%r, %c, %x, %y) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32> {
              %s = arith.addf %x, %y : f32
              croq.yield %s : f32
            }
            scf.yield %sum : !croq.acc<64x128xf32>
          }
          croq.mma.store %mc -> %os : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared>
          %out_tile = croq.subspan %output [64, 128] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x128xf16>
          croq.copy dma %os -> %out_tile : !croq.tile<64x128xf16, shared> -> !croq.view<64x128xf16>
        }
      }
    }
  }
  return
}

// @gemm_f16_128x256_p with the epilogue stored by TMA and left in flight:
// each consumer's first thread issues the bulk store of its 64x256 shared
// tile and the warpgroup goes on to the next tile's wgmma; the compiler
// makes it wait for the store to have read the tile before the next
// mma.store into it.
func.func @gemm_f16_128x256_pt(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}

// @gemm_f16_128x256_pt with a fused epilogue on the accumulator in
// registers (croq.mma.map): out = relu(lhs x rhs^T + bias[col]).
func.func @gemm_f16_128x256_pt_bias_relu(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
                  %bias: memref<?xf32>, %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<256x64xf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          %col_base = arith.muli %block_n, %cbn : index
          %ep = croq.mma.map %mc (%i, %j, %x) : !croq.acc<64x256xf32> {
            %col = arith.addi %col_base, %j : index
            %inside = arith.cmpi ult, %col, %n : index
            %at = arith.select %inside, %col, %c0 : index
            %bv = croq.read %bias[%at] : memref<?xf32>
            %sum = arith.addf %x, %bv : f32
            %relu = arith.maximumf %sum, %zero : f32
            croq.yield %relu : f32
          }
          croq.mma.store %ep -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}

// The same for bf16.
func.func @gemm_bf16_128x256_pt(%lhs: memref<?x?xbf16>, %rhs: memref<?x?xbf16>,
                  %output: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xbf16>
  %k = memref.dim %lhs, %c1 : memref<?x?xbf16>
  %n = memref.dim %rhs, %c0 : memref<?x?xbf16>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 64] at [%block_n, %iv_k] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 16] at [%half, %iv_warp] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<64x256xbf16>
        }
      }
    }
  }
  return
}

// The persistent 128x256 kernel on f8E4M3FN operands with the TMA-store
// epilogue of @gemm_f16_128x256_pt; wgmma accumulates the whole K loop
// (not promoted: less accurate than @gemm_e4m3_128x128_p, bench/RESULTS.md).
func.func @gemm_e4m3_128x256_pt(%lhs: memref<?x?xf8E4M3FN>, %rhs: memref<?x?xf8E4M3FN>,
                  %output: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 128 : index
  %cnk = arith.constant 4 : index
  %cbm = arith.constant 128 : index
  %cbn = arith.constant 256 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %lhs, %c0 : memref<?x?xf8E4M3FN>
  %k = memref.dim %lhs, %c1 : memref<?x?xf8E4M3FN>
  %n = memref.dim %rhs, %c0 : memref<?x?xf8E4M3FN>
  %tiles_m = arith.ceildivui %m, %cbm : index
  %tiles_n = arith.ceildivui %n, %cbn : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  %in_group = arith.muli %tiles_n, %c8 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %lhs_s = croq.alloc : !croq.tiles<3 x 128x128xf8E4M3FN, shared, swizzle = 128>
    %rhs_s = croq.alloc : !croq.tiles<3 x 256x128xf8E4M3FN, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          scf.for %iv_k = %c0 to %k_tiles step %c1 {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %empty[%stage] : !croq.events<3>
            %a = croq.subspan %lhs [128, 128] at [%block_m, %iv_k] : memref<?x?xf8E4M3FN> -> !croq.view<128x128xf8E4M3FN>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %fa = croq.copy tma async zfill swizzle = 128 %a -> %as : !croq.view<128x128xf8E4M3FN> -> !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128>
            %b = croq.subspan %rhs [256, 128] at [%block_n, %iv_k] : memref<?x?xf8E4M3FN> -> !croq.view<256x128xf8E4M3FN>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x128xf8E4M3FN, shared, swizzle = 128>
            %fb = croq.copy tma async zfill swizzle = 128 %b -> %bs : !croq.view<256x128xf8E4M3FN> -> !croq.tile<256x128xf8E4M3FN, shared, swizzle = 128>
            croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
          }
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        scf.for %t = %bid to %tiles step %grid {
          %group = arith.divui %t, %in_group : index
          %first_m = arith.muli %group, %c8 : index
          %left_m = arith.subi %tiles_m, %first_m : index
          %group_m = arith.minui %left_m, %c8 : index
          %in = arith.remui %t, %in_group : index
          %pm_off = arith.remui %in, %group_m : index
          %block_m = arith.addi %first_m, %pm_off : index
          %block_n = arith.divui %in, %group_m : index
          %local = arith.subi %t, %bid : index
          %nth = arith.divui %local, %grid : index
          %base = arith.muli %nth, %k_tiles : index
          %block_m2 = arith.muli %block_m, %c2 : index
          %row_block = arith.addi %block_m2, %half : index
          %zero = arith.constant 0.0 : f32
          %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
          %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
              iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
            %g = arith.addi %base, %iv_k : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %full[%stage] : !croq.events<3>
            %as = croq.stage %lhs_s[%stage] : !croq.tiles<3 x 128x128xf8E4M3FN, shared, swizzle = 128>
            %bs = croq.stage %rhs_s[%stage] : !croq.tiles<3 x 256x128xf8E4M3FN, shared, swizzle = 128>
            %sum = scf.for %iv_warp = %c0 to %cnk step %c1
                iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
              %ak = croq.subspan %as [64, 32] at [%half, %iv_warp] : !croq.tile<128x128xf8E4M3FN, shared, swizzle = 128> -> !croq.view<64x32xf8E4M3FN, shared, swizzle = 128>
              %ma = croq.mma.load %ak : !croq.view<64x32xf8E4M3FN, shared, swizzle = 128> -> !croq.frag<64x32xf8E4M3FN>
              %bk = croq.chunkat %bs[_, %iv_warp] of [1, 4] : !croq.tile<256x128xf8E4M3FN, shared, swizzle = 128> -> !croq.view<256x32xf8E4M3FN, shared, swizzle = 128>
              %mb = croq.mma.load %bk : !croq.view<256x32xf8E4M3FN, shared, swizzle = 128> -> !croq.frag<256x32xf8E4M3FN>
              %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x32xf8E4M3FN>, !croq.frag<256x32xf8E4M3FN> -> !croq.acc<64x256xf32>
              scf.yield %next : !croq.acc<64x256xf32>
            }
            %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
            // The mma of the previous iteration, of this tile or of the
            // block's previous one, has completed: free its stage.
            %has_prev = arith.cmpi ugt, %g, %c0 : index
            scf.if %has_prev {
              %prev_g = arith.subi %g, %c1 : index
              %prev = arith.remui %prev_g, %c3 : index
              croq.event.trigger %empty[%prev] : !croq.events<3>
            }
            scf.yield %done : !croq.acc<64x256xf32>
          }
          %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
          croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
          %out_tile = croq.subspan %output [64, 256] at [%row_block, %block_n] : memref<?x?xf16> -> !croq.view<64x256xf16>
          %stored = croq.copy tma async swizzle = 128 %os -> %out_tile : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
        }
      }
    }
  }
  return
}
