//===- grouped_matmul.mlir - grouped GEMMs for mixture-of-experts layers -===//
//
// One GEMM per group (expert) g on a variable number of rows, in one
// persistent launch: out[rows of g] = a[rows of g] * b_g^T, with f32
// accumulation. Written by python/croq/_grouped_ir.py: edit that.
// Entry points:
//
//   grouped_mm_{f16,bf16}(a, b, offsets, out)         contiguous form
//     a [M, K] with the rows of group g at offsets[g] .. offsets[g + 1],
//     b [G * N, K] (the experts' [G, N, K] weights, K-major, seen as 2-D),
//     offsets [G + 1] (i32, on the device), out [M, N].
//   grouped_mm_masked_{f16,bf16}(a, b, counts, out)   masked form
//     a [G * maxM, K] (the [G, maxM, K] tensor seen as 2-D), b as above,
//     counts [G] (i32, on the device), out [G * maxM, N]: only the first
//     counts[g] rows of group g are computed and written; the rest of out
//     is left untouched. Every size of the launch is fixed by the shapes,
//     so a call can be captured in a CUDA graph and replayed with other
//     counts.
//   grouped_mm_kn_{f16,bf16}, grouped_mm_masked_kn_{f16,bf16}: the same
//     with b [G, K, N] (N-major weights, 3-D).
//
// Offsets and counts are read on the device and clamped to the tensor (a
// group's rows end at or after they start and at or before M; a count at
// most maxM), so wrong ones give wrong rows, never stray writes.
//
// The kernel is matmul_persistent.mlir's (128x256 output tiles, a producer
// warpgroup loading a 3-stage TMA ring, two consumer warpgroups running
// wgmma m64n256k16 with one group in flight) over a tile space that spans
// the groups: group g owns ceil(rows_g / 128) * ceil(N / 256) consecutive
// tile indices, so a group of no rows owns none. Each block walks the
// tiles t = bid, bid + grid, ... as matmul_persistent does; since its t
// only grows, it finds t's group by moving a cursor (group, first tile,
// end tile) forward, reading the offsets of each group once per block
// (scf.while, no search from the start). The tile count is bounded on the
// host by (ceil(M / 128) + G) * ceil(N / 256) (a group's row tiles are at
// most its rows / 128 rounded up); tiles past the last group's end are
// skipped by both roles. Inside a group the tiles go in bands of 8 row
// tiles, column tile by column tile, so that a wave's blocks share the
// b tile of one column tile (and the a rows of a band) in L2.
//
// Loads: a's tile starts at the group's first row + 128 i, an element
// offset TMA takes as it is (croq.view), and may run into the next group's
// rows: those rows only feed accumulator rows that are not stored. b's
// tile starts at row g * N + 256 j of the 2-D view and may run into the
// next expert's rows when N is not a multiple of 256: those feed columns
// past N, not stored either. TMA zero-fills past the tensors' edges.
//
// Stores: a TMA store clips only at the tensor's edge, so a tile whose rows
// run past its group's end would overwrite the next group's rows. Each
// consumer therefore writes its 64x256 half into a swizzled shared tile
// (stmatrix) and copies it out by the warpgroup's threads through a view
// bounded by the group's end row (croq.copy dma ... within [end, N]): 16-byte
// moves, tested once for the whole block and element by element only in a
// group's last block. Measured on an H200 (bench/RESULTS.md): stores from
// registers through the same view were 1.26-1.36x slower on the down
// projections; a TMA store (wrong at the boundaries, timed only) 2-8%
// faster; a TMA store for whole blocks behind an scf.if made ptxas
// serialize the wgmma (C7520), and a TMA store aimed past the tensor for
// boundary blocks plus a dma copy bounded to nothing for whole ones
// (branch-free) was 0-7% slower than the dma copy alone.
//
// Weights: b [G, N, K] (K-major) is read as one [G * N, K] matrix (its
// tile may run into the next expert's rows when N is not a multiple of
// 256: those feed columns past N, not stored); the *_kn_* entry points take
// b [G, K, N] (N-major) as the 3-D tensor it is, so TMA zero-fills past
// each expert's K, and wgmma reads the tile transposed.
//
// Not covered: f8 block-scaled grouped GEMMs. The wrapper is
// croq.grouped_mm (python/croq/grouped.py); docs/grouped-gemm.md.
//
//===----------------------------------------------------------------------===//

func.func @grouped_mm_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                          %offsets: memref<?xi32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %out, %c1 : memref<?x?xf16>
  %offsets_len = memref.dim %offsets, %c0 : memref<?xi32>
  %num_groups = arith.subi %offsets_len, %c1 : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_m_all = arith.ceildivui %m, %c128 : index
  %tiles_m = arith.addi %tiles_m_all, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %b_row = arith.muli %g, %n : index
            %b_first = arith.addi %b_row, %col : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xf16> -> !croq.view<128x64xf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %bv = croq.view %b [256, 64] from [%b_first, %kk] : memref<?x?xf16> -> !croq.view<256x64xf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
                %bk = croq.chunkat %bs[_, %iv_w] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
                %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xf16> -> !croq.view<64x256xf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                           %offsets: memref<?xi32>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %n = memref.dim %out, %c1 : memref<?x?xbf16>
  %offsets_len = memref.dim %offsets, %c0 : memref<?xi32>
  %num_groups = arith.subi %offsets_len, %c1 : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_m_all = arith.ceildivui %m, %c128 : index
  %tiles_m = arith.addi %tiles_m_all, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %b_row = arith.muli %g, %n : index
            %b_first = arith.addi %b_row, %col : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %bv = croq.view %b [256, 64] from [%b_first, %kk] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
                %bk = croq.chunkat %bs[_, %iv_w] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
                %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<64x256xbf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_masked_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                                 %counts: memref<?xi32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %out, %c1 : memref<?x?xf16>
  %num_groups = memref.dim %counts, %c0 : memref<?xi32>
  %max_m = arith.divui %m, %num_groups : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_per_g = arith.ceildivui %max_m, %c128 : index
  %tiles_m = arith.muli %tiles_per_g, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %b_row = arith.muli %g, %n : index
            %b_first = arith.addi %b_row, %col : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xf16> -> !croq.view<128x64xf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %bv = croq.view %b [256, 64] from [%b_first, %kk] : memref<?x?xf16> -> !croq.view<256x64xf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<256x64xf16> -> !croq.tile<256x64xf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
                %bk = croq.chunkat %bs[_, %iv_w] of [1, 4] : !croq.tile<256x64xf16, shared, swizzle = 128> -> !croq.view<256x16xf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<256x16xf16, shared, swizzle = 128> -> !croq.frag<256x16xf16>
                %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<256x16xf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xf16> -> !croq.view<64x256xf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_masked_bf16(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                                  %counts: memref<?xi32>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %n = memref.dim %out, %c1 : memref<?x?xbf16>
  %num_groups = memref.dim %counts, %c0 : memref<?xi32>
  %max_m = arith.divui %m, %num_groups : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_per_g = arith.ceildivui %max_m, %c128 : index
  %tiles_m = arith.muli %tiles_per_g, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %b_row = arith.muli %g, %n : index
            %b_first = arith.addi %b_row, %col : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %bv = croq.view %b [256, 64] from [%b_first, %kk] : memref<?x?xbf16> -> !croq.view<256x64xbf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<256x64xbf16> -> !croq.tile<256x64xbf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 256x64xbf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
                %bk = croq.chunkat %bs[_, %iv_w] of [1, 4] : !croq.tile<256x64xbf16, shared, swizzle = 128> -> !croq.view<256x16xbf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<256x16xbf16, shared, swizzle = 128> -> !croq.frag<256x16xbf16>
                %next = croq.mma row row %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<256x16xbf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<64x256xbf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_kn_f16(%a: memref<?x?xf16>, %b: memref<?x?x?xf16>,
                             %offsets: memref<?xi32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %out, %c1 : memref<?x?xf16>
  %offsets_len = memref.dim %offsets, %c0 : memref<?xi32>
  %num_groups = arith.subi %offsets_len, %c1 : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_m_all = arith.ceildivui %m, %c128 : index
  %tiles_m = arith.addi %tiles_m_all, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 1x64x256xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xf16> -> !croq.view<128x64xf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %bv = croq.view %b [1, 64, 256] from [%g, %kk, %col] : memref<?x?x?xf16> -> !croq.view<1x64x256xf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<1x64x256xf16> -> !croq.tile<1x64x256xf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xf16, shared, swizzle = 128>
              %bm = croq.span_as %bs : !croq.tile<1x64x256xf16, shared, swizzle = 128> -> !croq.tile<64x256xf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
                %bk = croq.chunkat %bm[%iv_w, _] of [4, 1] : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<16x256xf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<16x256xf16, shared, swizzle = 128> -> !croq.frag<16x256xf16>
                %next = croq.mma row col %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<16x256xf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xf16> -> !croq.view<64x256xf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_kn_bf16(%a: memref<?x?xbf16>, %b: memref<?x?x?xbf16>,
                              %offsets: memref<?xi32>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %n = memref.dim %out, %c1 : memref<?x?xbf16>
  %offsets_len = memref.dim %offsets, %c0 : memref<?xi32>
  %num_groups = arith.subi %offsets_len, %c1 : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_m_all = arith.ceildivui %m, %c128 : index
  %tiles_m = arith.addi %tiles_m_all, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 1x64x256xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %bv = croq.view %b [1, 64, 256] from [%g, %kk, %col] : memref<?x?x?xbf16> -> !croq.view<1x64x256xbf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xbf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<1x64x256xbf16> -> !croq.tile<1x64x256xbf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_g1 = arith.addi %g0, %c1 : index
        %first_o0 = memref.load %offsets[%g0] : memref<?xi32>
        %first_o1 = memref.load %offsets[%first_g1] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_p0 = arith.maxsi %first_o0, %first_z : i32
        %first_p1 = arith.maxsi %first_o1, %first_p0 : i32
        %first_i0 = arith.index_castui %first_p0 : i32 to index
        %first_i1 = arith.index_castui %first_p1 : i32 to index
        %first_start = arith.minui %first_i0, %m : index
        %first_end = arith.minui %first_i1, %m : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_g1 = arith.addi %gn, %c1 : index
            %nx_o0 = memref.load %offsets[%gn] : memref<?xi32>
            %nx_o1 = memref.load %offsets[%nx_g1] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_p0 = arith.maxsi %nx_o0, %nx_z : i32
            %nx_p1 = arith.maxsi %nx_o1, %nx_p0 : i32
            %nx_i0 = arith.index_castui %nx_p0 : i32 to index
            %nx_i1 = arith.index_castui %nx_p1 : i32 to index
            %nx_start = arith.minui %nx_i0, %m : index
            %nx_end = arith.minui %nx_i1, %m : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_g1 = arith.addi %g, %c1 : index
          %grp_o0 = memref.load %offsets[%g] : memref<?xi32>
          %grp_o1 = memref.load %offsets[%grp_g1] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_p0 = arith.maxsi %grp_o0, %grp_z : i32
          %grp_p1 = arith.maxsi %grp_o1, %grp_p0 : i32
          %grp_i0 = arith.index_castui %grp_p0 : i32 to index
          %grp_i1 = arith.index_castui %grp_p1 : i32 to index
          %grp_start = arith.minui %grp_i0, %m : index
          %grp_end = arith.minui %grp_i1, %m : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xbf16, shared, swizzle = 128>
              %bm = croq.span_as %bs : !croq.tile<1x64x256xbf16, shared, swizzle = 128> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
                %bk = croq.chunkat %bm[%iv_w, _] of [4, 1] : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<16x256xbf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<16x256xbf16, shared, swizzle = 128> -> !croq.frag<16x256xbf16>
                %next = croq.mma row col %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<16x256xbf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<64x256xbf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_masked_kn_f16(%a: memref<?x?xf16>, %b: memref<?x?x?xf16>,
                                    %counts: memref<?xi32>, %out: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %out, %c1 : memref<?x?xf16>
  %num_groups = memref.dim %counts, %c0 : memref<?xi32>
  %max_m = arith.divui %m, %num_groups : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_per_g = arith.ceildivui %max_m, %c128 : index
  %tiles_m = arith.muli %tiles_per_g, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 1x64x256xf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xf16> -> !croq.view<128x64xf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xf16> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %bv = croq.view %b [1, 64, 256] from [%g, %kk, %col] : memref<?x?x?xf16> -> !croq.view<1x64x256xf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<1x64x256xf16> -> !croq.tile<1x64x256xf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xf16, shared, swizzle = 128>
              %bm = croq.span_as %bs : !croq.tile<1x64x256xf16, shared, swizzle = 128> -> !croq.tile<64x256xf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.view<64x16xf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xf16, shared, swizzle = 128> -> !croq.frag<64x16xf16>
                %bk = croq.chunkat %bm[%iv_w, _] of [4, 1] : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<16x256xf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<16x256xf16, shared, swizzle = 128> -> !croq.frag<16x256xf16>
                %next = croq.mma row col %part, %ma, %mb : !croq.frag<64x16xf16>, !croq.frag<16x256xf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xf16> -> !croq.view<64x256xf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xf16, shared, swizzle = 128> -> !croq.view<64x256xf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}

func.func @grouped_mm_masked_kn_bf16(%a: memref<?x?xbf16>, %b: memref<?x?x?xbf16>,
                                     %counts: memref<?xi32>, %out: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %cnk = arith.constant 4 : index
  %csm = arith.constant 132 : index
  %m = memref.dim %a, %c0 : memref<?x?xbf16>
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %n = memref.dim %out, %c1 : memref<?x?xbf16>
  %num_groups = memref.dim %counts, %c0 : memref<?xi32>
  %max_m = arith.divui %m, %num_groups : index
  %tiles_n = arith.ceildivui %n, %c256 : index
  %in_band = arith.muli %tiles_n, %c8 : index
  %tiles_per_g = arith.ceildivui %max_m, %c128 : index
  %tiles_m = arith.muli %tiles_per_g, %num_groups : index
  %tiles = arith.muli %tiles_m, %tiles_n : index
  %grid = arith.minui %tiles, %csm : index
  %k_tiles = arith.ceildivui %k, %c64 : index
  croq.parallel (%bid) in [%grid] : block {
    %full = croq.event.alloc : !croq.events<3>
    %empty = croq.event.alloc ready : !croq.events<3>
    %a_s = croq.alloc : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
    %b_s = croq.alloc : !croq.tiles<3 x 1x64x256xbf16, shared, swizzle = 128>
    %out_s = croq.alloc : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            scf.for %iv_k = %c0 to %k_tiles step %c1 {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %empty[%stage] : !croq.events<3>
              %kk = arith.muli %iv_k, %c64 : index
              %av = croq.view %a [128, 64] from [%row, %kk] : memref<?x?xbf16> -> !croq.view<128x64xbf16>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %fa = croq.copy tma async zfill swizzle = 128 %av -> %as : !croq.view<128x64xbf16> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %bv = croq.view %b [1, 64, 256] from [%g, %kk, %col] : memref<?x?x?xbf16> -> !croq.view<1x64x256xbf16>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xbf16, shared, swizzle = 128>
              %fb = croq.copy tma async zfill swizzle = 128 %bv -> %bs : !croq.view<1x64x256xbf16> -> !croq.tile<1x64x256xbf16, shared, swizzle = 128>
              croq.event.trigger %full[%stage] after (%fa, %fb) : !croq.events<3>
            }
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %os = croq.stage %out_s[%half] : !croq.tiles<2 x 64x256xbf16, shared, swizzle = 128>
        %g0 = arith.constant 0 : index
        %first_cnt = memref.load %counts[%g0] : memref<?xi32>
        %first_z = arith.constant 0 : i32
        %first_pc = arith.maxsi %first_cnt, %first_z : i32
        %first_ic = arith.index_castui %first_pc : i32 to index
        %first_rows = arith.minui %first_ic, %max_m : index
        %first_start = arith.muli %g0, %max_m : index
        %first_end = arith.addi %first_start, %first_rows : index
        %first_rows_all = arith.subi %first_end, %first_start : index
        %first_mt = arith.ceildivui %first_rows_all, %c128 : index
        %first_tiles = arith.muli %first_mt, %tiles_n : index
        %te0 = arith.addi %c0, %first_tiles : index
        %last:3 = scf.for %t = %bid to %tiles step %grid
            iter_args(%g_in = %g0, %ts_in = %c0, %te_in = %te0)
            -> (index, index, index) {
          %cur:3 = scf.while (%wg = %g_in, %wts = %ts_in, %wte = %te_in)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %t, %wte : index
            %wg1 = arith.addi %wg, %c1 : index
            %more = arith.cmpi ult, %wg1, %num_groups : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wg, %wts, %wte : index, index, index
          } do {
          ^bb0(%dg: index, %dts: index, %dte: index):
            %gn = arith.addi %dg, %c1 : index
            %nx_cnt = memref.load %counts[%gn] : memref<?xi32>
            %nx_z = arith.constant 0 : i32
            %nx_pc = arith.maxsi %nx_cnt, %nx_z : i32
            %nx_ic = arith.index_castui %nx_pc : i32 to index
            %nx_rows = arith.minui %nx_ic, %max_m : index
            %nx_start = arith.muli %gn, %max_m : index
            %nx_end = arith.addi %nx_start, %nx_rows : index
            %nx_rows_all = arith.subi %nx_end, %nx_start : index
            %nx_mt = arith.ceildivui %nx_rows_all, %c128 : index
            %nx_tiles = arith.muli %nx_mt, %tiles_n : index
            %nte = arith.addi %dte, %nx_tiles : index
            scf.yield %gn, %dte, %nte : index, index, index
          }
          %g = arith.addi %cur#0, %c0 : index
          %ts = arith.addi %cur#1, %c0 : index
          %te = arith.addi %cur#2, %c0 : index
          %valid = arith.cmpi ult, %t, %te : index
          %grp_cnt = memref.load %counts[%g] : memref<?xi32>
          %grp_z = arith.constant 0 : i32
          %grp_pc = arith.maxsi %grp_cnt, %grp_z : i32
          %grp_ic = arith.index_castui %grp_pc : i32 to index
          %grp_rows = arith.minui %grp_ic, %max_m : index
          %grp_start = arith.muli %g, %max_m : index
          %grp_end = arith.addi %grp_start, %grp_rows : index
          %end = arith.addi %grp_end, %c0 : index
          %grp_len = arith.subi %grp_end, %grp_start : index
          %tiles_mg = arith.ceildivui %grp_len, %c128 : index
          %in_grp = arith.subi %t, %ts : index
          %band = arith.divui %in_grp, %in_band : index
          %first_m = arith.muli %band, %c8 : index
          %left_m = arith.subi %tiles_mg, %first_m : index
          %band_m = arith.minui %left_m, %c8 : index
          %band_m1 = arith.maxui %band_m, %c1 : index
          %in = arith.remui %in_grp, %in_band : index
          %pm = arith.remui %in, %band_m1 : index
          %block_m = arith.addi %first_m, %pm : index
          %block_n = arith.divui %in, %band_m1 : index
          %row_off = arith.muli %block_m, %c128 : index
          %row = arith.addi %grp_start, %row_off : index
          %col = arith.muli %block_n, %c256 : index
          scf.if %valid {
            %local = arith.subi %t, %bid : index
            %nth = arith.divui %local, %grid : index
            %base = arith.muli %nth, %k_tiles : index
            %zero = arith.constant 0.0 : f32
            %mc0 = croq.mma.fill %zero : !croq.acc<64x256xf32>
            %mc_pending = scf.for %iv_k = %c0 to %k_tiles step %c1
                iter_args(%acc = %mc0) -> (!croq.acc<64x256xf32>) {
              %s = arith.addi %base, %iv_k : index
              %stage = arith.remui %s, %c3 : index
              croq.event.wait %full[%stage] : !croq.events<3>
              %as = croq.stage %a_s[%stage] : !croq.tiles<3 x 128x64xbf16, shared, swizzle = 128>
              %bs = croq.stage %b_s[%stage] : !croq.tiles<3 x 1x64x256xbf16, shared, swizzle = 128>
              %bm = croq.span_as %bs : !croq.tile<1x64x256xbf16, shared, swizzle = 128> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
              %sum = scf.for %iv_w = %c0 to %cnk step %c1
                  iter_args(%part = %acc) -> (!croq.acc<64x256xf32>) {
                %ak = croq.subspan %as [64, 16] at [%half, %iv_w] : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.view<64x16xbf16, shared, swizzle = 128>
                %ma = croq.mma.load %ak : !croq.view<64x16xbf16, shared, swizzle = 128> -> !croq.frag<64x16xbf16>
                %bk = croq.chunkat %bm[%iv_w, _] of [4, 1] : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<16x256xbf16, shared, swizzle = 128>
                %mb = croq.mma.load %bk : !croq.view<16x256xbf16, shared, swizzle = 128> -> !croq.frag<16x256xbf16>
                %next = croq.mma row col %part, %ma, %mb : !croq.frag<64x16xbf16>, !croq.frag<16x256xbf16> -> !croq.acc<64x256xf32>
                scf.yield %next : !croq.acc<64x256xf32>
              }
              %done = croq.mma.commit %sum pending = 1 : !croq.acc<64x256xf32>
              // The previous iteration's mma, of this tile or of the
              // block's previous one, has completed: free its stage.
              %has_prev = arith.cmpi ugt, %s, %c0 : index
              scf.if %has_prev {
                %prev_s = arith.subi %s, %c1 : index
                %prev = arith.remui %prev_s, %c3 : index
                croq.event.trigger %empty[%prev] : !croq.events<3>
              }
              scf.yield %done : !croq.acc<64x256xf32>
            }
            %mc = croq.mma.commit %mc_pending : !croq.acc<64x256xf32>
            croq.mma.store %mc -> %os : !croq.acc<64x256xf32> -> !croq.tile<64x256xbf16, shared, swizzle = 128>
            %half_rows = arith.muli %half, %c64 : index
            %out_row = arith.addi %row, %half_rows : index
            // Rows past the group's end belong to the next group (or lie
            // past a masked group's count), which a TMA store (clipped at
            // the tensor's edge only) would overwrite: the warpgroup's
            // threads store the rows before `end` (a view bounded by it)
            // from the shared tile, 16 bytes a move. A TMA store for the
            // row blocks wholly inside the group, chosen by an scf.if, made
            // ptxas serialize the wgmma (C7520: a warpgroup.arrive in a
            // divergent path), so every block is stored this way.
            %ov = croq.view %out [64, 256] from [%out_row, %col] within [%end, %n] : memref<?x?xbf16> -> !croq.view<64x256xbf16>
            croq.copy dma %os -> %ov : !croq.tile<64x256xbf16, shared, swizzle = 128> -> !croq.view<64x256xbf16>
          }
          scf.yield %g, %ts, %te : index, index, index
        }
      }
    }
  }
  return
}
