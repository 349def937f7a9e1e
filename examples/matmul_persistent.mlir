//===- matmul_persistent.mlir - persistent GEMM with a TMA-store epilogue -===//
//
// output[M, N] = lhs[M, K] * rhs[N, K]^T for f16 tensors of any shape, with
// f32 accumulation: the fastest GEMM croq has, at or above cuBLAS on an
// H100 (bench/RESULTS.md, `gemm_f16_128x256_pt`). Against
// matmul_tma_pipelined.mlir it adds:
//
// - 128x256 output tiles and two consumer warpgroups, each running wgmma
//   m64n256k16 on its 64-row half, next to one producer warpgroup issuing
//   the TMA loads into a 3-stage ring of 128x64 and 256x64 tiles;
// - one wgmma group kept in flight (`mma.commit pending = 1`), the stage of
//   the previous iteration freed once it has completed;
// - a persistent tile loop: one block per SM (132) walks the output tiles
//   t = bid, bid + 132, ... in groups of 8 tile rows, so that the rhs tiles
//   of a group stay in L2; the producer runs one ring over all of the
//   block's tiles, loading the next tile while the consumers finish this
//   one;
// - an epilogue stored by TMA and left in flight: each consumer writes its
//   64x256 half into a 128B-swizzled shared tile (stmatrix), its first
//   thread issues the bulk tensor store, and the warpgroup goes on to the
//   next tile's wgmma without waiting; before its next mma.store into that
//   tile, the compiler makes it wait until the store has read it.
//
// In Croqtile terms the consumer's epilogue is
//
//   mma.store mc, output_s[half];
//   tma.copy.async.swiz<3> output_s[half]
//       => output.subspan(64, 256).at(2 * block_m + half, block_n);
//   // no wait: the next mma.store into output_s[half] waits for it
//
// Edge tiles: the loads zero-fill past the tensors' edges and the TMA store
// clips at the output's edge. Inputs whose rows TMA cannot describe (K not
// a multiple of 8) are staged into aligned copies by the runtime; an output
// TMA cannot describe is stored by the kernel's threads instead.
//
//===----------------------------------------------------------------------===//

func.func @matmul(%lhs: memref<?x?xf16>, %rhs: memref<?x?xf16>,
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
