//===- flash_decode.mlir - attention of few queries on a long KV cache ----===//
//
// Decoding attention (FlashDecoding): out = softmax(scale * q k^T) v for a
// few queries a sequence (1 to 64 rows) against a long key/value cache,
// f16 or bf16, head dimension D = 128 or 64, the cache contiguous or in
// pages: one entry point each,
//
//   decode_{f16,bf16}           decode_paged_{f16,bf16}
//   decode_d64_{f16,bf16}       decode_paged_d64_{f16,bf16}
//
// Written by examples/gen/flash_decode.py: edit that. python/croq/decode.py
// (croq.flash_decode) calls them on torch's tensors.
//
// Operands (batch B, query heads Hq = group * Hkv, queries a sequence nq):
//
//   q, out     [B * Hkv, group * nq, D]: torch's [B, Hq, nq, D], contiguous,
//              seen with the query heads of one key/value head and their
//              queries as the rows of one matrix
//   k, v       contiguous: [B * Hkv, S, D] (SDPA's [B, Hkv, S, D]);
//              paged: [pages, page_size, Hkv * D] (flash_attn_with_kvcache's
//              and vLLM's [pages, page_size, Hkv, D]) with
//   table      [B, pages a sequence] i32: the cache page of each page of a
//              sequence (paged entry points only)
//   seqlens    [B] i32: the keys of each sequence (cache_seqlens); keys
//              past it are masked
//   o_part     [splits * B * Hkv * rows64, D] f32 and
//   lse        [splits * B * Hkv * rows64, 8] f32: the workspace of the
//              splits (rows64: group * nq rounded up to 64); its extent
//              bounds the number of splits
//   sm_scale   f32 (1 / sqrt(D) is SDPA's default)
//
// Before anything runs, the host code checks the operands' extents
// against each other (croqRtRequireEqualExtents, croqRtRequireMultiple):
// a call on a bad shape fails naming the operand, and nothing is launched.
//
// A query block of the forward kernel holds 128 rows of one head: with one
// query a sequence, 127 of them are padding and one block a head leaves
// most SMs idle. Here the query heads of one key/value head and their
// queries are the rows of one wgmma tile (64 rows; rows past group * nq
// are zero-filled by the Q load and ignored), so that K and V are read
// once per group, and the keys are split (FlashDecoding): a work item is
// one (sequence, key/value head, split of the keys, 64 rows), which
// streams its split's key tiles of 128 keys.
//
// The kernel is persistent: one block an SM (132, an H100 or H200) walks
// the work items. A producer warpgroup loads each item's Q rows into a
// ring of two slots and its K and V tiles into rings of three stages
// (five at D = 64), by TMA; the rings run on across items, so that the
// next item's first tiles load while this one ends (one item a block, the
// first measured run had each block wait for its Q and first tiles with
// nothing else on the SM: 0.84 of SDPA at 64 x 32/8 x 2048, bench/
// RESULTS.md). The producer's loops run on its first warp
// (croq-single-warp-producers: they only read lengths and block table
// entries, wait and issue loads). One consumer warpgroup computes S = Q K^T, the online
// softmax in registers (row maxima and sums across the lanes of quads,
// croq.mma.reduce) and O += P V with P in registers (croq.mma.convert).
// Each split writes its O, normalized, in f32 and its log-sum-exp (base
// 2), and a second kernel merges the splits of each row, in one pass over
// them, four at a time (their loads in flight together):
//
//   out = sum_s 2^(lse_s - L) O_s / sum_s 2^(lse_s - L),  L = max_s lse_s
//
// A split with no keys (past a short sequence's end) writes O = 0 and
// lse = -inf, which weighs nothing; a sequence with no keys at all gets
// zeros.
//
// The number of splits: the work items should fill whole waves of the 132
// blocks, since a decode step's time is the cache's bytes over the
// bandwidth of the SMs that stream it. For each count s of 1 to the key
// tiles (and the workspace's room), the splits that take ceil(tiles / s)
// tiles each fill waves to
//
//   efficiency(s) = items / (ceil(items / 132) * 132)
//
// and the entry point takes the smallest s within 85% of the best one:
// fewer splits mean fewer partial outputs to merge and longer streams an
// item. (8 sequences x 8 K/V heads x 8192 keys: 64 items a split, 2
// splits, 128 items; 64 x 8 x 2048: 512 items, 1 split; FlashAttention-2's
// num_splits_heuristic takes the same 85%.) bench/RESULTS.md has the
// measured bandwidth.
//
// Paged caches: a key tile of 128 keys lies in one page (the page size
// must be a multiple of 128, checked); the producer reads the tile's page
// from the block table (one load a tile, from L2) and loads the tile from
// it by TMA, a [1, 128, D] box at the key/value head's columns.
//
// Keys past a sequence's length in its last tile get a score of -inf and
// so a weight of 0; their V rows still enter P V, so they must hold finite
// values (TMA zero-fills past the cache's end; within the cache, a row
// past cache_seqlens holds what the cache held: a NaN there would make
// 0 x NaN). torch.zeros caches and caches filled by earlier steps are.
//
//===----------------------------------------------------------------------===//

func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32

// Contiguous cache, f16, D = 128.
func.func @decode_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c128 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c128 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %k_items = memref.dim %k, %c0 : memref<?x?x?xf16>
  %ki_got = arith.index_cast %k_items : index to i64
  %ki_want = arith.index_cast %items : index to i64
  %ki_operand = arith.constant 1 : i32
  %ki_ok = func.call @croqRtRequireEqualExtents(%ki_got, %ki_want, %check_decode, %ki_operand) : (i64, i64, i32, i32) -> i32
  %capacity = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_dim = memref.dim %k, %c2 : memref<?x?x?xf16>
  %kd_got = arith.index_cast %k_dim : index to i64
  %kd_want = arith.index_cast %c128 : index to i64
  %kd_operand = arith.constant 1 : i32
  %kd_ok = func.call @croqRtRequireEqualExtents(%kd_got, %kd_want, %check_decode, %kd_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %items : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %capacity : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %c128 : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c128 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%item, %rt, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %kempty[%stage] : !croq.events<3>
            %kv = croq.subspan %k [1, 128, 128] at [%item, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
            croq.event.wait %vempty[%stage] : !croq.events<3>
            %vv = croq.subspan %v [1, 128, 128] at [%item, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %kfull[%stage] : !croq.events<3>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<3>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<3>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<3>
            scf.yield %oc, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 128] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 2 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c128 : index
      %lane_row = arith.divui %t, %c128 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c2 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to f16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xf16>
      }
    }
  }
  return
}

// The same in bf16.
func.func @decode_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xbf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c128 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c128 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %k_items = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %ki_got = arith.index_cast %k_items : index to i64
  %ki_want = arith.index_cast %items : index to i64
  %ki_operand = arith.constant 1 : i32
  %ki_ok = func.call @croqRtRequireEqualExtents(%ki_got, %ki_want, %check_decode, %ki_operand) : (i64, i64, i32, i32) -> i32
  %capacity = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_dim = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %kd_got = arith.index_cast %k_dim : index to i64
  %kd_want = arith.index_cast %c128 : index to i64
  %kd_operand = arith.constant 1 : i32
  %kd_ok = func.call @croqRtRequireEqualExtents(%kd_got, %kd_want, %check_decode, %kd_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %items : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %capacity : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %c128 : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c128 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%item, %rt, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %kempty[%stage] : !croq.events<3>
            %kv = croq.subspan %k [1, 128, 128] at [%item, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
            croq.event.wait %vempty[%stage] : !croq.events<3>
            %vv = croq.subspan %v [1, 128, 128] at [%item, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %kfull[%stage] : !croq.events<3>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<3>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<3>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<3>
            scf.yield %oc, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 128] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 2 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c128 : index
      %lane_row = arith.divui %t, %c128 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c2 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to bf16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xbf16>
      }
    }
  }
  return
}

// The same with head dimension 64, f16.
func.func @decode_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c64 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c64 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %k_items = memref.dim %k, %c0 : memref<?x?x?xf16>
  %ki_got = arith.index_cast %k_items : index to i64
  %ki_want = arith.index_cast %items : index to i64
  %ki_operand = arith.constant 1 : i32
  %ki_ok = func.call @croqRtRequireEqualExtents(%ki_got, %ki_want, %check_decode, %ki_operand) : (i64, i64, i32, i32) -> i32
  %capacity = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_dim = memref.dim %k, %c2 : memref<?x?x?xf16>
  %kd_got = arith.index_cast %k_dim : index to i64
  %kd_want = arith.index_cast %c64 : index to i64
  %kd_operand = arith.constant 1 : i32
  %kd_ok = func.call @croqRtRequireEqualExtents(%kd_got, %kd_want, %check_decode, %kd_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %items : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %capacity : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %c64 : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c64 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<5>
    %kempty = croq.event.alloc ready : !croq.events<5>
    %vfull = croq.event.alloc : !croq.events<5>
    %vempty = croq.event.alloc ready : !croq.events<5>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 64] at [%item, %rt, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %kempty[%stage] : !croq.events<5>
            %kv = croq.subspan %k [1, 128, 64] at [%item, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<5>
            croq.event.wait %vempty[%stage] : !croq.events<5>
            %vv = croq.subspan %v [1, 128, 64] at [%item, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<5>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %kfull[%stage] : !croq.events<5>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<5>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<5>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<5>
            scf.yield %oc, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 64] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 4 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c64 : index
      %lane_row = arith.divui %t, %c64 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c4 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to f16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xf16>
      }
    }
  }
  return
}

// The same in bf16.
func.func @decode_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xbf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c64 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c64 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %k_items = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %ki_got = arith.index_cast %k_items : index to i64
  %ki_want = arith.index_cast %items : index to i64
  %ki_operand = arith.constant 1 : i32
  %ki_ok = func.call @croqRtRequireEqualExtents(%ki_got, %ki_want, %check_decode, %ki_operand) : (i64, i64, i32, i32) -> i32
  %capacity = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_dim = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %kd_got = arith.index_cast %k_dim : index to i64
  %kd_want = arith.index_cast %c64 : index to i64
  %kd_operand = arith.constant 1 : i32
  %kd_ok = func.call @croqRtRequireEqualExtents(%kd_got, %kd_want, %check_decode, %kd_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %items : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %capacity : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %c64 : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c64 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<5>
    %kempty = croq.event.alloc ready : !croq.events<5>
    %vfull = croq.event.alloc : !croq.events<5>
    %vempty = croq.event.alloc ready : !croq.events<5>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 64] at [%item, %rt, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %kempty[%stage] : !croq.events<5>
            %kv = croq.subspan %k [1, 128, 64] at [%item, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<5>
            croq.event.wait %vempty[%stage] : !croq.events<5>
            %vv = croq.subspan %v [1, 128, 64] at [%item, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<5>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %kfull[%stage] : !croq.events<5>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<5>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<5>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<5>
            scf.yield %oc, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 64] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 4 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c64 : index
      %lane_row = arith.divui %t, %c64 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c4 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to bf16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xbf16>
      }
    }
  }
  return
}

// Paged cache, f16, D = 128.
func.func @decode_paged_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>, %table: memref<?x?xi32>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c128 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c128 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %pages = memref.dim %k, %c0 : memref<?x?x?xf16>
  %page = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xf16>
  %psize_value = arith.index_cast %page : index to i64
  %psize_divisor = arith.index_cast %c128 : index to i64
  %psize_kind = arith.constant 1 : i32
  %psize_ok = func.call @croqRtRequireMultiple(%psize_value, %psize_divisor, %psize_kind) : (i64, i64, i32) -> i32
  %cols_value = arith.index_cast %k_cols : index to i64
  %cols_divisor = arith.index_cast %c128 : index to i64
  %cols_kind = arith.constant 3 : i32
  %cols_ok = func.call @croqRtRequireMultiple(%cols_value, %cols_divisor, %cols_kind) : (i64, i64, i32) -> i32
  %cache_heads = arith.divui %k_cols, %c128 : index
  %batch_kv = arith.muli %batch, %cache_heads : index
  %qi_got = arith.index_cast %items : index to i64
  %qi_want = arith.index_cast %batch_kv : index to i64
  %qi_operand = arith.constant 0 : i32
  %qi_ok = func.call @croqRtRequireEqualExtents(%qi_got, %qi_want, %check_decode, %qi_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %pages : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %page : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  %table_rows = memref.dim %table, %c0 : memref<?x?xi32>
  %tb_got = arith.index_cast %table_rows : index to i64
  %tb_want = arith.index_cast %batch : index to i64
  %tb_operand = arith.constant 5 : i32
  %tb_ok = func.call @croqRtRequireEqualExtents(%tb_got, %tb_want, %check_decode, %tb_operand) : (i64, i64, i32, i32) -> i32
  %table_pages = memref.dim %table, %c1 : memref<?x?xi32>
  %capacity = arith.muli %table_pages, %page : index
  %page_tiles = arith.divui %page, %c128 : index
  %page_divisor = arith.maxui %page_tiles, %c1 : index
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c128 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%item, %rt, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            // Tile j of the sequence: page table[seq, j / tiles a page],
            // tile j % (tiles a page) in it.
            %page_index = arith.divui %j, %page_divisor : index
            %in_page = arith.remui %j, %page_divisor : index
            %page32 = croq.read %table[%seq, %page_index] : memref<?x?xi32> -> i32
            %page_id = arith.index_castui %page32 : i32 to index
            croq.event.wait %kempty[%stage] : !croq.events<3>
            %kv = croq.subspan %k [1, 128, 128] at [%page_id, %in_page, %kvh] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
            croq.event.wait %vempty[%stage] : !croq.events<3>
            %vv = croq.subspan %v [1, 128, 128] at [%page_id, %in_page, %kvh] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %kfull[%stage] : !croq.events<3>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<3>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<3>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<3>
            scf.yield %oc, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 128] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 2 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c128 : index
      %lane_row = arith.divui %t, %c128 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c2 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to f16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xf16>
      }
    }
  }
  return
}

// The same in bf16.
func.func @decode_paged_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>, %table: memref<?x?xi32>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xbf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c128 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c128 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %pages = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %page = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %psize_value = arith.index_cast %page : index to i64
  %psize_divisor = arith.index_cast %c128 : index to i64
  %psize_kind = arith.constant 1 : i32
  %psize_ok = func.call @croqRtRequireMultiple(%psize_value, %psize_divisor, %psize_kind) : (i64, i64, i32) -> i32
  %cols_value = arith.index_cast %k_cols : index to i64
  %cols_divisor = arith.index_cast %c128 : index to i64
  %cols_kind = arith.constant 3 : i32
  %cols_ok = func.call @croqRtRequireMultiple(%cols_value, %cols_divisor, %cols_kind) : (i64, i64, i32) -> i32
  %cache_heads = arith.divui %k_cols, %c128 : index
  %batch_kv = arith.muli %batch, %cache_heads : index
  %qi_got = arith.index_cast %items : index to i64
  %qi_want = arith.index_cast %batch_kv : index to i64
  %qi_operand = arith.constant 0 : i32
  %qi_ok = func.call @croqRtRequireEqualExtents(%qi_got, %qi_want, %check_decode, %qi_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %pages : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %page : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  %table_rows = memref.dim %table, %c0 : memref<?x?xi32>
  %tb_got = arith.index_cast %table_rows : index to i64
  %tb_want = arith.index_cast %batch : index to i64
  %tb_operand = arith.constant 5 : i32
  %tb_ok = func.call @croqRtRequireEqualExtents(%tb_got, %tb_want, %check_decode, %tb_operand) : (i64, i64, i32, i32) -> i32
  %table_pages = memref.dim %table, %c1 : memref<?x?xi32>
  %capacity = arith.muli %table_pages, %page : index
  %page_tiles = arith.divui %page, %c128 : index
  %page_divisor = arith.maxui %page_tiles, %c1 : index
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c128 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%item, %rt, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            // Tile j of the sequence: page table[seq, j / tiles a page],
            // tile j % (tiles a page) in it.
            %page_index = arith.divui %j, %page_divisor : index
            %in_page = arith.remui %j, %page_divisor : index
            %page32 = croq.read %table[%seq, %page_index] : memref<?x?xi32> -> i32
            %page_id = arith.index_castui %page32 : i32 to index
            croq.event.wait %kempty[%stage] : !croq.events<3>
            %kv = croq.subspan %k [1, 128, 128] at [%page_id, %in_page, %kvh] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
            croq.event.wait %vempty[%stage] : !croq.events<3>
            %vv = croq.subspan %v [1, 128, 128] at [%page_id, %in_page, %kvh] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c3 : index
            croq.event.wait %kfull[%stage] : !croq.events<3>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<3>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<3>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x128xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<3>
            scf.yield %oc, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 128] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 2 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c128 : index
      %lane_row = arith.divui %t, %c128 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c2 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to bf16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xbf16>
      }
    }
  }
  return
}

// The same with head dimension 64, f16.
func.func @decode_paged_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>, %table: memref<?x?xi32>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c64 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c64 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %pages = memref.dim %k, %c0 : memref<?x?x?xf16>
  %page = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xf16>
  %psize_value = arith.index_cast %page : index to i64
  %psize_divisor = arith.index_cast %c128 : index to i64
  %psize_kind = arith.constant 1 : i32
  %psize_ok = func.call @croqRtRequireMultiple(%psize_value, %psize_divisor, %psize_kind) : (i64, i64, i32) -> i32
  %cols_value = arith.index_cast %k_cols : index to i64
  %cols_divisor = arith.index_cast %c64 : index to i64
  %cols_kind = arith.constant 3 : i32
  %cols_ok = func.call @croqRtRequireMultiple(%cols_value, %cols_divisor, %cols_kind) : (i64, i64, i32) -> i32
  %cache_heads = arith.divui %k_cols, %c64 : index
  %batch_kv = arith.muli %batch, %cache_heads : index
  %qi_got = arith.index_cast %items : index to i64
  %qi_want = arith.index_cast %batch_kv : index to i64
  %qi_operand = arith.constant 0 : i32
  %qi_ok = func.call @croqRtRequireEqualExtents(%qi_got, %qi_want, %check_decode, %qi_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %pages : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %page : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  %table_rows = memref.dim %table, %c0 : memref<?x?xi32>
  %tb_got = arith.index_cast %table_rows : index to i64
  %tb_want = arith.index_cast %batch : index to i64
  %tb_operand = arith.constant 5 : i32
  %tb_ok = func.call @croqRtRequireEqualExtents(%tb_got, %tb_want, %check_decode, %tb_operand) : (i64, i64, i32, i32) -> i32
  %table_pages = memref.dim %table, %c1 : memref<?x?xi32>
  %capacity = arith.muli %table_pages, %page : index
  %page_tiles = arith.divui %page, %c128 : index
  %page_divisor = arith.maxui %page_tiles, %c1 : index
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c64 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<5>
    %kempty = croq.event.alloc ready : !croq.events<5>
    %vfull = croq.event.alloc : !croq.events<5>
    %vempty = croq.event.alloc ready : !croq.events<5>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 64] at [%item, %rt, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            // Tile j of the sequence: page table[seq, j / tiles a page],
            // tile j % (tiles a page) in it.
            %page_index = arith.divui %j, %page_divisor : index
            %in_page = arith.remui %j, %page_divisor : index
            %page32 = croq.read %table[%seq, %page_index] : memref<?x?xi32> -> i32
            %page_id = arith.index_castui %page32 : i32 to index
            croq.event.wait %kempty[%stage] : !croq.events<5>
            %kv = croq.subspan %k [1, 128, 64] at [%page_id, %in_page, %kvh] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<5>
            croq.event.wait %vempty[%stage] : !croq.events<5>
            %vv = croq.subspan %v [1, 128, 64] at [%page_id, %in_page, %kvh] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<5>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %kfull[%stage] : !croq.events<5>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<5>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<5>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<5>
            scf.yield %oc, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 64] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 4 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c64 : index
      %lane_row = arith.divui %t, %c64 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c4 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to f16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xf16>
      }
    }
  }
  return
}

// The same in bf16.
func.func @decode_paged_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>, %table: memref<?x?xi32>,
    %seqlens: memref<?xi32>, %out: memref<?x?x?xbf16>, %o_part: memref<?x?xf32>,
    %lse: memref<?x?xf32>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %c0_i32 = arith.constant 0 : i32
  %items = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %rows = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %batch = memref.dim %seqlens, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_decode = arith.constant 8 : i32
  %q_dim = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %qd_got = arith.index_cast %q_dim : index to i64
  %qd_want = arith.index_cast %c64 : index to i64
  %qd_operand = arith.constant 0 : i32
  %qd_ok = func.call @croqRtRequireEqualExtents(%qd_got, %qd_want, %check_decode, %qd_operand) : (i64, i64, i32, i32) -> i32
  %out_items = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %o0_got = arith.index_cast %out_items : index to i64
  %o0_want = arith.index_cast %items : index to i64
  %o0_operand = arith.constant 3 : i32
  %o0_ok = func.call @croqRtRequireEqualExtents(%o0_got, %o0_want, %check_decode, %o0_operand) : (i64, i64, i32, i32) -> i32
  %out_rows = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_got = arith.index_cast %out_rows : index to i64
  %o1_want = arith.index_cast %rows : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_got, %o1_want, %check_decode, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %od_got = arith.index_cast %out_dim : index to i64
  %od_want = arith.index_cast %c64 : index to i64
  %od_operand = arith.constant 3 : i32
  %od_ok = func.call @croqRtRequireEqualExtents(%od_got, %od_want, %check_decode, %od_operand) : (i64, i64, i32, i32) -> i32
  %seqs_value = arith.index_cast %items : index to i64
  %seqs_divisor = arith.index_cast %batch : index to i64
  %seqs_kind = arith.constant 2 : i32
  %seqs_ok = func.call @croqRtRequireMultiple(%seqs_value, %seqs_divisor, %seqs_kind) : (i64, i64, i32) -> i32
  %batch_divisor = arith.maxui %batch, %c1 : index
  %kv_heads = arith.divui %items, %batch_divisor : index
  %pages = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %page = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %psize_value = arith.index_cast %page : index to i64
  %psize_divisor = arith.index_cast %c128 : index to i64
  %psize_kind = arith.constant 1 : i32
  %psize_ok = func.call @croqRtRequireMultiple(%psize_value, %psize_divisor, %psize_kind) : (i64, i64, i32) -> i32
  %cols_value = arith.index_cast %k_cols : index to i64
  %cols_divisor = arith.index_cast %c64 : index to i64
  %cols_kind = arith.constant 3 : i32
  %cols_ok = func.call @croqRtRequireMultiple(%cols_value, %cols_divisor, %cols_kind) : (i64, i64, i32) -> i32
  %cache_heads = arith.divui %k_cols, %c64 : index
  %batch_kv = arith.muli %batch, %cache_heads : index
  %qi_got = arith.index_cast %items : index to i64
  %qi_want = arith.index_cast %batch_kv : index to i64
  %qi_operand = arith.constant 0 : i32
  %qi_ok = func.call @croqRtRequireEqualExtents(%qi_got, %qi_want, %check_decode, %qi_operand) : (i64, i64, i32, i32) -> i32
  %v_dim0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v0_got = arith.index_cast %v_dim0 : index to i64
  %v0_want = arith.index_cast %pages : index to i64
  %v0_operand = arith.constant 2 : i32
  %v0_ok = func.call @croqRtRequireEqualExtents(%v0_got, %v0_want, %check_decode, %v0_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_got = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %page : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_got, %v1_want, %check_decode, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_got = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_got, %v2_want, %check_decode, %v2_operand) : (i64, i64, i32, i32) -> i32
  %table_rows = memref.dim %table, %c0 : memref<?x?xi32>
  %tb_got = arith.index_cast %table_rows : index to i64
  %tb_want = arith.index_cast %batch : index to i64
  %tb_operand = arith.constant 5 : i32
  %tb_ok = func.call @croqRtRequireEqualExtents(%tb_got, %tb_want, %check_decode, %tb_operand) : (i64, i64, i32, i32) -> i32
  %table_pages = memref.dim %table, %c1 : memref<?x?xi32>
  %capacity = arith.muli %table_pages, %page : index
  %page_tiles = arith.divui %page, %c128 : index
  %page_divisor = arith.maxui %page_tiles, %c1 : index
  // The split workspace: rows64 rows of each (item, split), D and 8
  // columns; its extent bounds the splits.
  %row_tiles = arith.ceildivui %rows, %c64 : index
  %rows64 = arith.muli %row_tiles, %c64 : index
  %item_rows = arith.muli %items, %rows64 : index
  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>
  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index
  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index
  %wsr_got = arith.index_cast %ws_rows : index to i64
  %wsr_want = arith.index_cast %ws_want : index to i64
  %wsr_operand = arith.constant 6 : i32
  %wsr_ok = func.call @croqRtRequireEqualExtents(%wsr_got, %wsr_want, %check_decode, %wsr_operand) : (i64, i64, i32, i32) -> i32
  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>
  %wc_got = arith.index_cast %ws_cols : index to i64
  %wc_want = arith.index_cast %c64 : index to i64
  %wc_operand = arith.constant 6 : i32
  %wc_ok = func.call @croqRtRequireEqualExtents(%wc_got, %wc_want, %check_decode, %wc_operand) : (i64, i64, i32, i32) -> i32
  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>
  %lr_got = arith.index_cast %lse_rows : index to i64
  %lr_want = arith.index_cast %ws_rows : index to i64
  %lr_operand = arith.constant 7 : i32
  %lr_ok = func.call @croqRtRequireEqualExtents(%lr_got, %lr_want, %check_decode, %lr_operand) : (i64, i64, i32, i32) -> i32
  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>
  %lc_got = arith.index_cast %lse_cols : index to i64
  %lc_want = arith.index_cast %c8 : index to i64
  %lc_operand = arith.constant 7 : i32
  %lc_ok = func.call @croqRtRequireEqualExtents(%lc_got, %lc_want, %check_decode, %lc_operand) : (i64, i64, i32, i32) -> i32
  %item_divisor = arith.maxui %item_rows, %c1 : index
  %ws_room = arith.divui %ws_rows, %item_divisor : index
  // At least one key tile a split, so that every block has a
  // sequence's worth of work to bound; no more splits than tiles or
  // than the workspace holds.
  %cap_tiles = arith.ceildivui %capacity, %c128 : index
  %tiles = arith.maxui %cap_tiles, %c1 : index
  %room1 = arith.maxui %ws_room, %c1 : index
  %max_splits = arith.minui %tiles, %room1 : index
  %units = arith.muli %items, %row_tiles : index
  // Work items that run at once: one a block, one block an SM.
  %wave = arith.constant 132 : index
  %c1000 = arith.constant 1000 : index
  %percent = arith.constant 85 : index
  %c100 = arith.constant 100 : index
  %search_end = arith.addi %max_splits, %c1 : index
  // Per mille of the waves' block slots that the blocks of s splits
  // fill (the splits of ceil(tiles / s) tiles each).
  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {
    %e_per = arith.ceildivui %tiles, %s : index
    %e_splits = arith.ceildivui %tiles, %e_per : index
    %e_blocks = arith.muli %units, %e_splits : index
    %e_waves = arith.ceildivui %e_blocks, %wave : index
    %e_slots = arith.muli %e_waves, %wave : index
    %e_slots1 = arith.maxui %e_slots, %c1 : index
    %e_scaled = arith.muli %e_blocks, %c1000 : index
    %e_permille = arith.divui %e_scaled, %e_slots1 : index
    %better = arith.maxui %b, %e_permille : index
    scf.yield %better : index
  }
  %best_pct = arith.muli %best, %percent : index
  // The smallest count within 85% of the best.
  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {
    %f_per = arith.ceildivui %tiles, %s : index
    %f_splits = arith.ceildivui %tiles, %f_per : index
    %f_blocks = arith.muli %units, %f_splits : index
    %f_waves = arith.ceildivui %f_blocks, %wave : index
    %f_slots = arith.muli %f_waves, %wave : index
    %f_slots1 = arith.maxui %f_slots, %c1 : index
    %f_scaled = arith.muli %f_blocks, %c1000 : index
    %f_permille = arith.divui %f_scaled, %f_slots1 : index
    %f_pct = arith.muli %f_permille, %c100 : index
    %good = arith.cmpi uge, %f_pct, %best_pct : index
    %unset = arith.cmpi eq, %pick, %c0 : index
    %take = arith.andi %good, %unset : i1
    %next = arith.select %take, %f_splits, %pick : index
    scf.yield %next : index
  }
  %splits = arith.maxui %chosen, %c1 : index
  %per_split = arith.ceildivui %tiles, %splits : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %work = arith.muli %units, %splits : index
  %grid = arith.minui %work, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    %kfull = croq.event.alloc : !croq.events<5>
    %kempty = croq.event.alloc ready : !croq.events<5>
    %vfull = croq.event.alloc : !croq.events<5>
    %vempty = croq.event.alloc ready : !croq.events<5>
    %qfull = croq.event.alloc : !croq.events<2>
    %qempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [2] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          // The rows: the query heads of the K/V head and their queries,
          // zero-filled past the last.
          croq.event.wait %qempty[%slot] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 64] at [%item, %rt, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qs = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          croq.event.trigger %qfull[%slot] after (%fq) : !croq.events<2>
          scf.for %i = %c0 to %count step %c1 {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            // Tile j of the sequence: page table[seq, j / tiles a page],
            // tile j % (tiles a page) in it.
            %page_index = arith.divui %j, %page_divisor : index
            %in_page = arith.remui %j, %page_divisor : index
            %page32 = croq.read %table[%seq, %page_index] : memref<?x?xi32> -> i32
            %page_id = arith.index_castui %page32 : i32 to index
            croq.event.wait %kempty[%stage] : !croq.events<5>
            %kv = croq.subspan %k [1, 128, 64] at [%page_id, %in_page, %kvh] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<5>
            croq.event.wait %vempty[%stage] : !croq.events<5>
            %vv = croq.subspan %v [1, 128, 64] at [%page_id, %in_page, %kvh] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<5>
          }
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
      croq.inthreads async %is_consumer {
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {
          // Work items in the order (item, split, row tile): the row tiles
          // of a split read the same K and V tiles from L2.
          %rt = arith.remui %w, %row_tiles : index
          %item_split = arith.divui %w, %row_tiles : index
          %split = arith.remui %item_split, %splits : index
          %item = arith.divui %item_split, %splits : index
          %kv_divisor = arith.maxui %kv_heads, %c1 : index
          %seq = arith.divui %item, %kv_divisor : index
          %kvh = arith.remui %item, %kv_divisor : index
          // The sequence's keys, within 0 and the cache's capacity.
          %len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32
          %len_pos = arith.maxsi %len32, %c0_i32 : i32
          %len_raw = arith.index_castui %len_pos : i32 to index
          %len = arith.minui %len_raw, %capacity : index
          %seq_tiles = arith.ceildivui %len, %c128 : index
          %t0 = arith.muli %split, %per_split : index
          %t_end = arith.addi %t0, %per_split : index
          %t_cut = arith.minui %t_end, %seq_tiles : index
          %t1 = arith.maxui %t_cut, %t0 : index
          %count = arith.subi %t1, %t0 : index
          %slot = arith.remui %n, %c2 : index
          croq.event.wait %qfull[%slot] : !croq.events<2>
          %qt = croq.stage %q_s[%slot] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %qa = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %last_tile = arith.subi %seq_tiles, %c1 : index
          %key_tail = arith.remui %len, %c128 : index
          %ragged = arith.cmpi ne, %key_tail, %c0 : index
          %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
          %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
          %res:3 = scf.for %i = %c0 to %count step %c1
              iter_args(%o = %o0, %m = %m0, %l = %l0) -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
            %j = arith.addi %t0, %i : index
            %g = arith.addi %base, %i : index
            %stage = arith.remui %g, %c5 : index
            croq.event.wait %kfull[%stage] : !croq.events<5>
            %kt = croq.stage %k_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %k2 = croq.span_as %kt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %kb = croq.mma.load %k2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
            %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
            %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage] : !croq.events<5>
            // Only the sequence's last tile has keys past its end.
            %is_last = arith.cmpi eq, %j, %last_tile : index
            %needs_mask = arith.andi %is_last, %ragged : i1
            %t = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
              %limit = arith.index_cast %key_tail : index to i32
              %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7).
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s : !croq.acc<64x128xf32>
            }
            %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %mn = croq.vec.map %m, %mt (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %b, %scale : f32
              %x = arith.maximumf %a, %y : f32
              croq.yield %x : f32
            }
            %mn_neg = croq.vec.map %mn (%r, %a) : !croq.vec<64xf32, rows> {
              %x = arith.negf %a : f32
              croq.yield %x : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            // The first tile's alpha is exp2(-inf) = 0 (every tile has a key).
            %alpha = croq.vec.map %m, %mn (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %y = math.fma %a, %b, %c : f32
              croq.yield %y : f32
            }
            %pf = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %a : f32
              croq.yield %y : f32
            }
            croq.event.wait %vfull[%stage] : !croq.events<5>
            %vt = croq.stage %v_s[%stage] : !croq.tiles<5 x 1x128x64xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            %o1 = croq.mma row col %os, %pf, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%stage] : !croq.events<5>
            scf.yield %oc, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
          }
          %inv = croq.vec.map %res#2 (%r, %a) : !croq.vec<64xf32, rows> {
            %any = arith.cmpf ogt, %a, %zero : f32
            %rcp = arith.divf %one, %a : f32
            %x = arith.select %any, %rcp, %zero : f32
            croq.yield %x : f32
          }
          %on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          croq.event.trigger %qempty[%slot] : !croq.events<2>
          %lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %y = arith.addf %a, %lg : f32
            croq.yield %y : f32
          }
          // The log-sum-exp broadcast over 8 columns (an accumulator's
          // narrowest form).
          %lz = croq.mma.fill %zero : !croq.acc<64x8xf32>
          %lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : !croq.acc<64x8xf32>, !croq.vec<64xf32, rows> {
            croq.yield %a : f32
          }
          %wtile_s = arith.muli %split, %row_tiles : index
          %wtile_is = arith.muli %item, %row_tiles : index
          %wtile_i = arith.muli %wtile_is, %splits : index
          %wtile_b = arith.addi %wtile_i, %wtile_s : index
          %wtile = arith.addi %wtile_b, %rt : index
          %wv = croq.subspan %o_part [64, 64] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
          croq.mma.store %on -> %wv : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
          %lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> !croq.view<64x8xf32>
          croq.mma.store %lb -> %lv : !croq.acc<64x8xf32> -> !croq.view<64x8xf32>
          %base_n = arith.addi %base, %count : index
          %n_n = arith.addi %n, %c1 : index
          scf.yield %base_n, %n_n : index, index
        }
      }
    }
  }
  // The merge: a block per (item, 64 rows), a thread a column of
  // 4 rows at a time; out = sum_s 2^(lse_s - L) O_s /
  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the
  // splits, 4 at a time (their loads in flight together), the sums
  // rescaled when L grows.
  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {
    croq.parallel (%t) in [256] : thread {
      %zero = arith.constant 0.0 : f32
      %ninf = arith.constant 0xFF800000 : f32
      %col = arith.remui %t, %c64 : index
      %lane_row = arith.divui %t, %c64 : index
      %row0 = arith.muli %rt, %c64 : index
      %left = arith.subi %rows, %row0 : index
      %here = arith.minui %left, %c64 : index
      %item_tile = arith.muli %item, %row_tiles : index
      %first_tile = arith.muli %item_tile, %splits : index
      %last_split = arith.subi %splits, %c1 : index
      scf.for %r = %lane_row to %here step %c4 {
        %row = arith.addi %row0, %r : index
        %sums:3 = scf.for %sb = %c0 to %splits step %c4
            iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {
          %c_u0 = arith.constant 0 : index
          %s_raw0 = arith.addi %sb, %c_u0 : index
          %in0 = arith.cmpi ult, %s_raw0, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s0 = arith.minui %s_raw0, %last_split : index
          %split_tile0 = arith.muli %s0, %row_tiles : index
          %tile00 = arith.addi %first_tile, %split_tile0 : index
          %tile0 = arith.addi %tile00, %rt : index
          %wbase0 = arith.muli %tile0, %c64 : index
          %wrow0 = arith.addi %wbase0, %r : index
          %x_raw0 = croq.read %lse[%wrow0, %c0] : memref<?x?xf32>
          %x0 = arith.select %in0, %x_raw0, %ninf : f32
          %o0 = croq.read %o_part[%wrow0, %col] : memref<?x?xf32>
          %c_u1 = arith.constant 1 : index
          %s_raw1 = arith.addi %sb, %c_u1 : index
          %in1 = arith.cmpi ult, %s_raw1, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s1 = arith.minui %s_raw1, %last_split : index
          %split_tile1 = arith.muli %s1, %row_tiles : index
          %tile01 = arith.addi %first_tile, %split_tile1 : index
          %tile1 = arith.addi %tile01, %rt : index
          %wbase1 = arith.muli %tile1, %c64 : index
          %wrow1 = arith.addi %wbase1, %r : index
          %x_raw1 = croq.read %lse[%wrow1, %c0] : memref<?x?xf32>
          %x1 = arith.select %in1, %x_raw1, %ninf : f32
          %o1 = croq.read %o_part[%wrow1, %col] : memref<?x?xf32>
          %c_u2 = arith.constant 2 : index
          %s_raw2 = arith.addi %sb, %c_u2 : index
          %in2 = arith.cmpi ult, %s_raw2, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s2 = arith.minui %s_raw2, %last_split : index
          %split_tile2 = arith.muli %s2, %row_tiles : index
          %tile02 = arith.addi %first_tile, %split_tile2 : index
          %tile2 = arith.addi %tile02, %rt : index
          %wbase2 = arith.muli %tile2, %c64 : index
          %wrow2 = arith.addi %wbase2, %r : index
          %x_raw2 = croq.read %lse[%wrow2, %c0] : memref<?x?xf32>
          %x2 = arith.select %in2, %x_raw2, %ninf : f32
          %o2 = croq.read %o_part[%wrow2, %col] : memref<?x?xf32>
          %c_u3 = arith.constant 3 : index
          %s_raw3 = arith.addi %sb, %c_u3 : index
          %in3 = arith.cmpi ult, %s_raw3, %splits : index
          // Past the last split: the last one again, weighing nothing.
          %s3 = arith.minui %s_raw3, %last_split : index
          %split_tile3 = arith.muli %s3, %row_tiles : index
          %tile03 = arith.addi %first_tile, %split_tile3 : index
          %tile3 = arith.addi %tile03, %rt : index
          %wbase3 = arith.muli %tile3, %c64 : index
          %wrow3 = arith.addi %wbase3, %r : index
          %x_raw3 = croq.read %lse[%wrow3, %c0] : memref<?x?xf32>
          %x3 = arith.select %in3, %x_raw3, %ninf : f32
          %o3 = croq.read %o_part[%wrow3, %col] : memref<?x?xf32>
          %mx0 = arith.maximumf %mx, %x0 : f32
          %mx1 = arith.maximumf %mx0, %x1 : f32
          %mx2 = arith.maximumf %mx1, %x2 : f32
          %mx3 = arith.maximumf %mx2, %x3 : f32
          // No keys so far: L = 0, so that every weight is 2^-inf = 0.
          %none = arith.cmpf oeq, %mx3, %ninf : f32
          %safe = arith.select %none, %zero, %mx3 : f32
          %dk = arith.subf %mx, %safe : f32
          %keep = math.exp2 %dk fastmath<afn> : f32
          %acc_k = arith.mulf %acc, %keep : f32
          %wsum_k = arith.mulf %wsum, %keep : f32
          %d0 = arith.subf %x0, %safe : f32
          %wt0 = math.exp2 %d0 fastmath<afn> : f32
          %acc0 = math.fma %wt0, %o0, %acc_k : f32
          %wsum0 = arith.addf %wsum_k, %wt0 : f32
          %d1 = arith.subf %x1, %safe : f32
          %wt1 = math.exp2 %d1 fastmath<afn> : f32
          %acc1 = math.fma %wt1, %o1, %acc0 : f32
          %wsum1 = arith.addf %wsum0, %wt1 : f32
          %d2 = arith.subf %x2, %safe : f32
          %wt2 = math.exp2 %d2 fastmath<afn> : f32
          %acc2 = math.fma %wt2, %o2, %acc1 : f32
          %wsum2 = arith.addf %wsum1, %wt2 : f32
          %d3 = arith.subf %x3, %safe : f32
          %wt3 = math.exp2 %d3 fastmath<afn> : f32
          %acc3 = math.fma %wt3, %o3, %acc2 : f32
          %wsum3 = arith.addf %wsum2, %wt3 : f32
          scf.yield %mx3, %acc3, %wsum3 : f32, f32, f32
        }
        %any = arith.cmpf ogt, %sums#2, %zero : f32
        %quot = arith.divf %sums#1, %sums#2 : f32
        %val = arith.select %any, %quot, %zero : f32
        %y = arith.truncf %val : f32 to bf16
        croq.write %y, %out[%item, %row, %col] : memref<?x?x?xbf16>
      }
    }
  }
  return
}
