//===- matmul_plain.mlir - the GEMM of matmul_tma_pipelined, unpipelined --===//
//
// output[M, N] = lhs[M, K] * rhs[N, K]^T for f16 tensors of any shape, with
// f32 accumulation, written plainly: every block owns one 128x128 output
// tile and runs one K loop of copy, copy, mma. There are no events, no
// stage arrays and no producer/consumer split; each copy is synchronous, so
// the tensor cores wait for every tile.
//
// This is the kernel of matmul_tma_pipelined.mlir before pipelining, the
// form the Croqtile pipelined TMA matmul
// (seeds/croqtile-tma-swizzle-irregular-access.txt) starts from:
//
//   __co__ void matmul(global f16 [M, K] lhs, global f16 [N, K] rhs,
//                      global f16 [M, N] output) {
//     parallel {block_m, block_n} by [cdiv(M, WARP_M), cdiv(N, WARP_N)] : block {
//       shared f16 [WARP_M, TILE_K] lhs_load_s;
//       shared f16 [WARP_N, TILE_K] rhs_load_s;
//       shared f16 [WARP_M, WARP_N] output_s;
//       mc = mma.fill.f32 0.0f;
//       foreach {iv_k} in [cdiv(K, TILE_K)] {
//         tma.copy.swiz<3>.zfill lhs.subspan(WARP_M, TILE_K).at(block_m, iv_k)
//             => lhs_load_s;
//         tma.copy.swiz<3>.zfill rhs.subspan(WARP_N, TILE_K).at(block_n, iv_k)
//             => rhs_load_s;
//         foreach {iv_warp} in [cdiv(TILE_K, WARP_K)] {
//           ma = mma.load.swiz<3> lhs_load_s.chunkat(_, iv_warp);
//           mb = mma.load.swiz<3> rhs_load_s.chunkat(_, iv_warp);
//           mma.row.row mc, ma, mb;
//         }
//         mma.commit;
//       }
//       mma.store mc, output_s;
//       dma.copy output_s => output.subspan(WARP_M, WARP_N).at(block_m, block_n);
//     }
//   }
//
// with WARP_M = WARP_N = 128, TILE_K = 64, WARP_K = 16. A pipelining pass
// turns the K loop into the 4-stage ring of matmul_tma_pipelined.mlir:
// the two tiles become stage arrays, the copies become asynchronous and
// trigger a `full` event, the mma waits on it and frees the stage through an
// `empty` event, and the copies move to a producer warpgroup.
//
//===----------------------------------------------------------------------===//

func.func @matmul(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
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
    %lhs_load_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %rhs_load_s = croq.alloc : !croq.tile<128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    %zero = arith.constant 0.0 : f32
    %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
    %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
        iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
      %lhs_tile = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %lhs_tile -> %lhs_load_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %rhs_tile = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
      croq.copy tma zfill swizzle = 128 %rhs_tile -> %rhs_load_s : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
      %sum = scf.for %iv_warp = %c0 to %c4 step %c1
          iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
        %lhs_k = croq.chunkat %lhs_load_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %ma = croq.mma.load %lhs_k : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %rhs_k = croq.chunkat %rhs_load_s[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
        %mb = croq.mma.load %rhs_k : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
        %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
        scf.yield %next : !croq.acc<128x128xf32>
      }
      // The shared tiles are overwritten by the next iteration's copies only
      // after the mma that reads them has completed.
      %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
      scf.yield %done : !croq.acc<128x128xf32>
    }
    croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
    %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
    croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
  }
  return
}
