//===- matmul_tma_pipelined.mlir - warp-specialized TMA GEMM --------------===//
//
// output[M, N] = lhs[M, K] * rhs[N, K]^T for f16 tensors of any shape, with
// f32 accumulation: a 4-stage TMA pipeline with a producer and a consumer
// warpgroup in every block.
//
// It mirrors the pipelined TMA matmul of the Croqtile chapter "Advanced Data
// Movement: TMA, Swizzle, and Irregular Access"
// (seeds/croqtile-tma-swizzle-irregular-access.txt), with
// WARP_M = WARP_N = 128, TILE_K = 64, WARP_K = 16 and STAGES = 4:
//
//   __co__ void matmul(global f16 [M, K] lhs, global f16 [N, K] rhs,
//                      global f16 [M, N] output) {
//     parallel {block_m, block_n} by [cdiv(M, WARP_M), cdiv(N, WARP_N)] : block {
//       shared event full[STAGES], empty[STAGES];
//       shared f16 [WARP_M, TILE_K] lhs_load_s[STAGES];
//       shared f16 [WARP_N, TILE_K] rhs_load_s[STAGES];
//       shared f16 [WARP_M, WARP_N] output_s;
//       parallel p1 by 2 : group-4 {
//         inthreads.async (p1 == 0) {
//           foreach {iv_k} in [cdiv(K, TILE_K)] {
//             stage = iv_k % STAGES;
//             wait empty[stage];
//             tma.copy.swiz<3> lhs.subspan(WARP_M, TILE_K).at(block_m, iv_k)
//                 => lhs_load_s[stage];
//             tma.copy.swiz<3> rhs.subspan(WARP_N, TILE_K).at(block_n, iv_k)
//                 => rhs_load_s[stage];
//             trigger full[stage];
//           }
//         }
//         inthreads.async (p1 == 1) {
//           mc = mma.fill.f16 0.0f;
//           foreach {s} in [STAGES] { trigger empty[s]; }
//           foreach {iv_k} in [cdiv(K, TILE_K)] {
//             stage = iv_k % STAGES;
//             wait full[stage];
//             foreach {iv_warp} in [cdiv(TILE_K, WARP_K)] {
//               ma = mma.load.swiz<3> lhs_load_s[stage].chunkat(_, iv_warp);
//               mb = mma.load.swiz<3> rhs_load_s[stage].chunkat(_, iv_warp);
//               mma.row.row mc, ma, mb;
//             }
//             mma.commit;
//             trigger empty[stage];
//           }
//           mma.store mc, output_s;
//           dma.copy output_s => output.subspan(WARP_M, WARP_N).at(block_m, block_n);
//         }
//       }
//     }
//   }
//
// How the croq form differs:
// - Swizzle is in bytes: Croqtile's `swiz<3>` is croq's `swizzle = 128`, and
//   it is part of the stage arrays' type, so the mma loads read it from there
//   (an explicit `swizzle = 128` on them must agree, and the verifier checks
//   that). A 64 x f16 inner box is exactly the 128 bytes of the swizzle span.
// - `%empty` is allocated `ready`, which replaces the consumer's
//   `foreach {s} in [STAGES] { trigger empty[s]; }`.
// - Events and futures are typed values: the producer triggers `full` after
//   the two TMA futures, which lowers to the mbarrier's expected byte count.
// - The accumulator is a value: both K loops are `scf.for` loops that carry
//   it in iter_args (croq.foreach has no results), and the K-chunk loop
//   gives the chunk count of `chunkat` explicitly (`of [1, 4]`).
// - `zfill` zeroes the part of a stage past the edge of lhs or rhs, so a
//   partial last K tile (or M/N tile) adds zeros to the accumulator.
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
    %full = croq.event.alloc : !croq.events<4>
    %empty = croq.event.alloc ready : !croq.events<4>
    %lhs_load_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %rhs_load_s = croq.alloc : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
    %output_s = croq.alloc : !croq.tile<128x128xf16, shared>
    croq.parallel (%p1) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p1, %c0 : index
      %is_consumer = arith.cmpi eq, %p1, %c1 : index

      // Producer warpgroup: fill stage k % 4 once the consumer has freed it.
      croq.inthreads async %is_producer {
        scf.for %iv_k = %c0 to %k_tiles step %c1 {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %empty[%stage] : !croq.events<4>
          %lhs_tile = croq.subspan %lhs [128, 64] at [%block_m, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %lhs_stage = croq.stage %lhs_load_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %lhs_done = croq.copy tma async zfill swizzle = 128 %lhs_tile -> %lhs_stage : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %rhs_tile = croq.subspan %rhs [128, 64] at [%block_n, %iv_k] : memref<?x?xf16> -> !croq.view<128x64xf16>
          %rhs_stage = croq.stage %rhs_load_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %rhs_done = croq.copy tma async zfill swizzle = 128 %rhs_tile -> %rhs_stage : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%lhs_done, %rhs_done) : !croq.events<4>
        }
      }

      // Consumer warpgroup: multiply stage k % 4 once it is full, then free it.
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %mc0 = croq.mma.fill %zero : !croq.acc<128x128xf32>
        %mc = scf.for %iv_k = %c0 to %k_tiles step %c1
            iter_args(%acc = %mc0) -> (!croq.acc<128x128xf32>) {
          %stage = arith.remui %iv_k, %c4 : index
          croq.event.wait %full[%stage] : !croq.events<4>
          %lhs_stage = croq.stage %lhs_load_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %rhs_stage = croq.stage %rhs_load_s[%stage] : !croq.tiles<4 x 128x64xf16, shared, swizzle = 128>
          %sum = scf.for %iv_warp = %c0 to %c4 step %c1
              iter_args(%part = %acc) -> (!croq.acc<128x128xf32>) {
            %lhs_k = croq.chunkat %lhs_stage[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %ma = croq.mma.load swizzle = 128 %lhs_k : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %rhs_k = croq.chunkat %rhs_stage[_, %iv_warp] of [1, 4] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<128x16xf16, shared, swizzle = 128>
            %mb = croq.mma.load swizzle = 128 %rhs_k : !croq.view<128x16xf16, shared, swizzle = 128> -> !croq.frag<128x16xf16>
            %next = croq.mma row row %part, %ma, %mb : !croq.frag<128x16xf16>, !croq.frag<128x16xf16> -> !croq.acc<128x128xf32>
            scf.yield %next : !croq.acc<128x128xf32>
          }
          %done = croq.mma.commit %sum : !croq.acc<128x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<4>
          scf.yield %done : !croq.acc<128x128xf32>
        }
        // mma.store mc, output_s; (f32 accumulator, f16 output)
        croq.mma.store %mc -> %output_s : !croq.acc<128x128xf32> -> !croq.tile<128x128xf16, shared>
        // dma.copy output_s => output.subspan(WARP_M, WARP_N).at(block_m, block_n);
        %out_tile = croq.subspan %output [128, 128] at [%block_m, %block_n] : memref<?x?xf16> -> !croq.view<128x128xf16>
        croq.copy dma %output_s -> %out_tile : !croq.tile<128x128xf16, shared> -> !croq.view<128x128xf16>
      }
    }
  }
  return
}
