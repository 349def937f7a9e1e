//===- flash_attention_varlen.mlir - attention on packed sequences --------===//
//
// out = softmax(scale * q k^T) v for a batch of sequences of different
// lengths packed one after the other, as flash_attn_varlen_func takes
// them: q [total_q, heads, D], k and v [total_k, kv_heads, D] (contiguous,
// passed as [1, total, heads * D] views), cu_seqlens_q and cu_seqlens_k
// (i32 [batch + 1], on the device: sequence b's query rows are
// cu_seqlens_q[b] .. cu_seqlens_q[b + 1] - 1, its keys likewise), out like
// q, f16 or bf16, D = 128 or 64, causal or not, grouped-query attention
// (heads a multiple of kv_heads, query head h reading key/value head
// h / (heads / kv_heads)). One entry point each:
//
//   attention_varlen_{f16,bf16}         attention_varlen_causal_{f16,bf16}
//   attention_varlen_d64_{f16,bf16}     attention_varlen_causal_d64_{f16,bf16}
//
// taking q, k, v, cu_seqlens_q, cu_seqlens_k, out and the softmax scale.
// Written by examples/gen/flash_attention.py --varlen: edit that (and
// examples/gen/attention_varlen.py).
//
// Causal attention is aligned at the bottom right, as flash-attn's (2.1
// and later): query i of a sequence of Lq queries and Lk keys sees keys 0
// to i + Lk - Lq (0 to i when Lq = Lk). A query that sees no key (i <
// Lq - Lk) and every query of a sequence without keys gets zeros.
//
// The kernel is flash_attention.mlir's (a producer warpgroup loading K and
// V tiles of 128 keys into two-stage rings by TMA, two consumer warpgroups
// of 64 query rows each, FlashAttention-3's overlap of the products with
// the softmax and their ping-pong, Q loaded an item ahead) over a work
// space that spans the sequences: sequence b owns heads * ceil(Lq_b / 128)
// consecutive work items, so an empty sequence owns none: the query blocks
// of a head next to each other, or where causal the query blocks longest
// first, the heads of one block next to each other (measured on an H200,
// chat16:32x8:128:causal of bench_varlen.py: head by head, each head's
// blocks longest first, took 591 us, 17% less than without causality).
// The host bounds the items by heads * (ceil(total_q / 128) + batch) and
// launches min(that, 132) blocks; each block walks items bid, bid + grid, ... and finds an item's
// sequence by moving a cursor forward over cu_seqlens_q (scf.while: each
// offset is read once per block and role, no search from the start);
// items past the last sequence's end are skipped. Offsets are clamped to
// the tensors (a sequence ends at or after it starts and at or before the
// total), so wrong ones give wrong rows, never stray writes.
//
// Loads: a sequence's query and key tiles start at its first row + 128 i,
// an element offset TMA takes as it is (croq.view), and its head's columns
// at h * D of the packed rows. A tile may run into the next sequence's
// rows: its query rows feed output rows that are not stored, its keys are
// masked (scores -inf, weight 0; the values there must be finite, as 0 x
// NaN is NaN: rows of k and v past cu_seqlens_k[batch] too). TMA
// zero-fills past the tensors' ends. Masks: key tiles past the first
// query row's diagonal or holding the sequence's last key are masked (a
// bottom-right diagonal needs not fall on a tile's edge, so two tiles may
// need it), the rest run unmasked.
//
// Stores: a TMA store clips only at the tensor's end and would overwrite
// the next sequence's rows, so each consumer writes its 64 rows into a
// swizzled shared tile and copies them out by its threads through a view
// bounded by the sequence's last row (croq.copy dma ... within, as
// grouped_matmul.mlir does): rows past cu_seqlens_q[batch] and other
// heads' columns are never written.
//
// Before launching, the host code checks the operands' extents
// (croqRtRequireEqualExtents, croqRtRequireMultiple): the views' first
// extent 1, q's and k's columns multiples of D, v like k, out like q,
// heads a multiple of kv_heads, cu_seqlens_k as long as cu_seqlens_q,
// which holds at least one offset. A failed check fails the call naming
// the operand, and nothing runs.
//
//===----------------------------------------------------------------------===//

func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32

// Non-causal, f16, D = 128.
func.func @attention_varlen_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c128 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c128 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c128 : index
  %kv_heads = arith.divui %k_cols, %c128 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c128 : index
              %kv = croq.view %k [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
              %vv = croq.view %v [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The query blocks of a head next to each other.
          %bh_f = arith.divui %local_f, %nq_f : index
          %bq_f = arith.remui %local_f, %nq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c128 : index
          %qv_f = croq.view %q [1, 64, 128] from [0, %q_at_f, %q_col_f] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The query blocks of a head next to each other.
              %bh_n = arith.divui %local_n, %nq_n : index
              %bq_n = arith.remui %local_n, %nq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c128 : index
              %qv_n = croq.view %q [1, 64, 128] from [0, %q_at_n, %q_col_n] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %end_limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
                  %col32 = arith.index_castui %col : index to i32
                  %col_lo = arith.andi %col32, %c7_i32 : i32
                  %col_hi = arith.andi %col32, %cm8_i32 : i32
                  %room = arith.subi %end_limit, %col_lo : i32
                  %inside = arith.cmpi slt, %col_hi, %room : i32
                  %r = arith.select %inside, %x, %ninf : f32
                  croq.yield %r : f32
                }
                scf.yield %masked : !croq.acc<64x128xf32>
              } else {
                scf.yield %s : !croq.acc<64x128xf32>
              }
              %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x128xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c128 : index
            %ov = croq.view %out [1, 64, 128] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// The same in bf16.
func.func @attention_varlen_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xbf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c128 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c128 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c128 : index
  %kv_heads = arith.divui %k_cols, %c128 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c128 : index
              %kv = croq.view %k [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
              %vv = croq.view %v [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The query blocks of a head next to each other.
          %bh_f = arith.divui %local_f, %nq_f : index
          %bq_f = arith.remui %local_f, %nq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c128 : index
          %qv_f = croq.view %q [1, 64, 128] from [0, %q_at_f, %q_col_f] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The query blocks of a head next to each other.
              %bh_n = arith.divui %local_n, %nq_n : index
              %bq_n = arith.remui %local_n, %nq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c128 : index
              %qv_n = croq.view %q [1, 64, 128] from [0, %q_at_n, %q_col_n] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %end_limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
                  %col32 = arith.index_castui %col : index to i32
                  %col_lo = arith.andi %col32, %c7_i32 : i32
                  %col_hi = arith.andi %col32, %cm8_i32 : i32
                  %room = arith.subi %end_limit, %col_lo : i32
                  %inside = arith.cmpi slt, %col_hi, %room : i32
                  %r = arith.select %inside, %x, %ninf : f32
                  croq.yield %r : f32
                }
                scf.yield %masked : !croq.acc<64x128xf32>
              } else {
                scf.yield %s : !croq.acc<64x128xf32>
              }
              %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x128xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c128 : index
            %ov = croq.view %out [1, 64, 128] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// The same with head dimension 64, f16.
func.func @attention_varlen_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c64 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c64 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c64 : index
  %kv_heads = arith.divui %k_cols, %c64 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c64 : index
              %kv = croq.view %k [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
              %vv = croq.view %v [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The query blocks of a head next to each other.
          %bh_f = arith.divui %local_f, %nq_f : index
          %bq_f = arith.remui %local_f, %nq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c64 : index
          %qv_f = croq.view %q [1, 64, 64] from [0, %q_at_f, %q_col_f] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The query blocks of a head next to each other.
              %bh_n = arith.divui %local_n, %nq_n : index
              %bq_n = arith.remui %local_n, %nq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c64 : index
              %qv_n = croq.view %q [1, 64, 64] from [0, %q_at_n, %q_col_n] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %end_limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x64xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
                  %col32 = arith.index_castui %col : index to i32
                  %col_lo = arith.andi %col32, %c7_i32 : i32
                  %col_hi = arith.andi %col32, %cm8_i32 : i32
                  %room = arith.subi %end_limit, %col_lo : i32
                  %inside = arith.cmpi slt, %col_hi, %room : i32
                  %r = arith.select %inside, %x, %ninf : f32
                  croq.yield %r : f32
                }
                scf.yield %masked : !croq.acc<64x128xf32>
              } else {
                scf.yield %s : !croq.acc<64x128xf32>
              }
              %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x64xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c64 : index
            %ov = croq.view %out [1, 64, 64] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// The same in bf16.
func.func @attention_varlen_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xbf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c64 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c64 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c64 : index
  %kv_heads = arith.divui %k_cols, %c64 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c64 : index
              %kv = croq.view %k [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
              %vv = croq.view %v [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The query blocks of a head next to each other.
          %bh_f = arith.divui %local_f, %nq_f : index
          %bq_f = arith.remui %local_f, %nq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c64 : index
          %qv_f = croq.view %q [1, 64, 64] from [0, %q_at_f, %q_col_f] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The query blocks of a head next to each other.
            %bh = arith.divui %local, %nq : index
            %bq = arith.remui %local, %nq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            %tiles = arith.maxui %key_tiles, %c1 : index
            %mask_from = arith.addi %end_from, %c0 : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The query blocks of a head next to each other.
              %bh_n = arith.divui %local_n, %nq_n : index
              %bq_n = arith.remui %local_n, %nq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c64 : index
              %qv_n = croq.view %q [1, 64, 64] from [0, %q_at_n, %q_col_n] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
                %col32 = arith.index_castui %col : index to i32
                %col_lo = arith.andi %col32, %c7_i32 : i32
                %col_hi = arith.andi %col32, %cm8_i32 : i32
                %room = arith.subi %end_limit, %col_lo : i32
                %inside = arith.cmpi slt, %col_hi, %room : i32
                %r = arith.select %inside, %x, %ninf : f32
                croq.yield %r : f32
              }
              scf.yield %masked : !croq.acc<64x128xf32>
            } else {
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x64xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
                  %col32 = arith.index_castui %col : index to i32
                  %col_lo = arith.andi %col32, %c7_i32 : i32
                  %col_hi = arith.andi %col32, %cm8_i32 : i32
                  %room = arith.subi %end_limit, %col_lo : i32
                  %inside = arith.cmpi slt, %col_hi, %room : i32
                  %r = arith.select %inside, %x, %ninf : f32
                  croq.yield %r : f32
                }
                scf.yield %masked : !croq.acc<64x128xf32>
              } else {
                scf.yield %s : !croq.acc<64x128xf32>
              }
              %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x64xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c64 : index
            %ov = croq.view %out [1, 64, 64] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// Causal (bottom-right), f16, D = 128.
func.func @attention_varlen_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c128 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c128 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c128 : index
  %kv_heads = arith.divui %k_cols, %c128 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c128 : index
              %kv = croq.view %k [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
              %vv = croq.view %v [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The sequence's query blocks longest first, the heads of one
          // block next to each other: a block's last items are short.
          %tq_f = arith.divui %local_f, %heads : index
          %bh_f = arith.remui %local_f, %heads : index
          %lq_f = arith.subi %nq_f, %c1 : index
          %bq_f = arith.subi %lq_f, %tq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c128 : index
          %qv_f = croq.view %q [1, 64, 128] from [0, %q_at_f, %q_col_f] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The sequence's query blocks longest first, the heads of one
              // block next to each other: a block's last items are short.
              %tq_n = arith.divui %local_n, %heads : index
              %bh_n = arith.remui %local_n, %heads : index
              %lq_n = arith.subi %nq_n, %c1 : index
              %bq_n = arith.subi %lq_n, %tq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c128 : index
              %qv_n = croq.view %q [1, 64, 128] from [0, %q_at_n, %q_col_n] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
              // i32 as it may be negative.
              %diag_a = arith.addi %q_base, %c1 : index
              %diag_b = arith.addi %diag_a, %sk_len : index
              %diag_c = arith.addi %sq_len, %key_base : index
              %diag_b32 = arith.index_cast %diag_b : index to i32
              %diag_c32 = arith.index_cast %diag_c : index to i32
              %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                %row32 = arith.index_castui %row : index to i32
                %visible = arith.addi %diag_limit, %row32 : i32
                %limit = arith.minsi %visible, %end_limit : i32
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
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
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
                // i32 as it may be negative.
                %diag_a = arith.addi %q_base, %c1 : index
                %diag_b = arith.addi %diag_a, %sk_len : index
                %diag_c = arith.addi %sq_len, %key_base : index
                %diag_b32 = arith.index_cast %diag_b : index to i32
                %diag_c32 = arith.index_cast %diag_c : index to i32
                %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  %row32 = arith.index_castui %row : index to i32
                  %visible = arith.addi %diag_limit, %row32 : i32
                  %limit = arith.minsi %visible, %end_limit : i32
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
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
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x128xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c128 : index
            %ov = croq.view %out [1, 64, 128] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// The same in bf16.
func.func @attention_varlen_causal_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xbf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c128 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c128 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c128 : index
  %kv_heads = arith.divui %k_cols, %c128 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c128 : index
              %kv = croq.view %k [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
              %vv = croq.view %v [1, 128, 128] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The sequence's query blocks longest first, the heads of one
          // block next to each other: a block's last items are short.
          %tq_f = arith.divui %local_f, %heads : index
          %bh_f = arith.remui %local_f, %heads : index
          %lq_f = arith.subi %nq_f, %c1 : index
          %bq_f = arith.subi %lq_f, %tq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c128 : index
          %qv_f = croq.view %q [1, 64, 128] from [0, %q_at_f, %q_col_f] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The sequence's query blocks longest first, the heads of one
              // block next to each other: a block's last items are short.
              %tq_n = arith.divui %local_n, %heads : index
              %bh_n = arith.remui %local_n, %heads : index
              %lq_n = arith.subi %nq_n, %c1 : index
              %bq_n = arith.subi %lq_n, %tq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c128 : index
              %qv_n = croq.view %q [1, 64, 128] from [0, %q_at_n, %q_col_n] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
              // i32 as it may be negative.
              %diag_a = arith.addi %q_base, %c1 : index
              %diag_b = arith.addi %diag_a, %sk_len : index
              %diag_c = arith.addi %sq_len, %key_base : index
              %diag_b32 = arith.index_cast %diag_b : index to i32
              %diag_c32 = arith.index_cast %diag_c : index to i32
              %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                %row32 = arith.index_castui %row : index to i32
                %visible = arith.addi %diag_limit, %row32 : i32
                %limit = arith.minsi %visible, %end_limit : i32
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
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
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x128xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
                // i32 as it may be negative.
                %diag_a = arith.addi %q_base, %c1 : index
                %diag_b = arith.addi %diag_a, %sk_len : index
                %diag_c = arith.addi %sq_len, %key_base : index
                %diag_b32 = arith.index_cast %diag_b : index to i32
                %diag_c32 = arith.index_cast %diag_c : index to i32
                %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  %row32 = arith.index_castui %row : index to i32
                  %visible = arith.addi %diag_limit, %row32 : i32
                  %limit = arith.minsi %visible, %end_limit : i32
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
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
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x128xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x128xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c128 : index
            %ov = croq.view %out [1, 64, 128] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// The same with head dimension 64, f16.
func.func @attention_varlen_causal_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c64 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c64 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c64 : index
  %kv_heads = arith.divui %k_cols, %c64 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c64 : index
              %kv = croq.view %k [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
              %vv = croq.view %v [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The sequence's query blocks longest first, the heads of one
          // block next to each other: a block's last items are short.
          %tq_f = arith.divui %local_f, %heads : index
          %bh_f = arith.remui %local_f, %heads : index
          %lq_f = arith.subi %nq_f, %c1 : index
          %bq_f = arith.subi %lq_f, %tq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c64 : index
          %qv_f = croq.view %q [1, 64, 64] from [0, %q_at_f, %q_col_f] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The sequence's query blocks longest first, the heads of one
              // block next to each other: a block's last items are short.
              %tq_n = arith.divui %local_n, %heads : index
              %bh_n = arith.remui %local_n, %heads : index
              %lq_n = arith.subi %nq_n, %c1 : index
              %bq_n = arith.subi %lq_n, %tq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c64 : index
              %qv_n = croq.view %q [1, 64, 64] from [0, %q_at_n, %q_col_n] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
              // i32 as it may be negative.
              %diag_a = arith.addi %q_base, %c1 : index
              %diag_b = arith.addi %diag_a, %sk_len : index
              %diag_c = arith.addi %sq_len, %key_base : index
              %diag_b32 = arith.index_cast %diag_b : index to i32
              %diag_c32 = arith.index_cast %diag_c : index to i32
              %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                %row32 = arith.index_castui %row : index to i32
                %visible = arith.addi %diag_limit, %row32 : i32
                %limit = arith.minsi %visible, %end_limit : i32
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
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
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x64xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
                // i32 as it may be negative.
                %diag_a = arith.addi %q_base, %c1 : index
                %diag_b = arith.addi %diag_a, %sk_len : index
                %diag_c = arith.addi %sq_len, %key_base : index
                %diag_b32 = arith.index_cast %diag_b : index to i32
                %diag_c32 = arith.index_cast %diag_c : index to i32
                %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  %row32 = arith.index_castui %row : index to i32
                  %visible = arith.addi %diag_limit, %row32 : i32
                  %limit = arith.minsi %visible, %end_limit : i32
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
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
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x64xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c64 : index
            %ov = croq.view %out [1, 64, 64] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}

// The same in bf16.
func.func @attention_varlen_causal_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: memref<?x?x?xbf16>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %rows_q = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %q_cols = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %rows_k = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %k_cols = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_varlen = arith.constant 9 : i32
  %q_one = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %q_lead_i64 = arith.index_cast %q_one : index to i64
  %q_lead_want = arith.index_cast %c1 : index to i64
  %q_lead_operand = arith.constant 0 : i32
  %q_lead_ok = func.call @croqRtRequireEqualExtents(%q_lead_i64, %q_lead_want, %check_varlen, %q_lead_operand) : (i64, i64, i32, i32) -> i32
  %k_one = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %k_lead_i64 = arith.index_cast %k_one : index to i64
  %k_lead_want = arith.index_cast %c1 : index to i64
  %k_lead_operand = arith.constant 1 : i32
  %k_lead_ok = func.call @croqRtRequireEqualExtents(%k_lead_i64, %k_lead_want, %check_varlen, %k_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_one = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %v_lead_i64 = arith.index_cast %v_one : index to i64
  %v_lead_want = arith.index_cast %c1 : index to i64
  %v_lead_operand = arith.constant 2 : i32
  %v_lead_ok = func.call @croqRtRequireEqualExtents(%v_lead_i64, %v_lead_want, %check_varlen, %v_lead_operand) : (i64, i64, i32, i32) -> i32
  %out_one = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %out_lead_i64 = arith.index_cast %out_one : index to i64
  %out_lead_want = arith.index_cast %c1 : index to i64
  %out_lead_operand = arith.constant 3 : i32
  %out_lead_ok = func.call @croqRtRequireEqualExtents(%out_lead_i64, %out_lead_want, %check_varlen, %out_lead_operand) : (i64, i64, i32, i32) -> i32
  %v_dim1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %v1_i64 = arith.index_cast %v_dim1 : index to i64
  %v1_want = arith.index_cast %rows_k : index to i64
  %v1_operand = arith.constant 2 : i32
  %v1_ok = func.call @croqRtRequireEqualExtents(%v1_i64, %v1_want, %check_varlen, %v1_operand) : (i64, i64, i32, i32) -> i32
  %v_dim2 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %v2_i64 = arith.index_cast %v_dim2 : index to i64
  %v2_want = arith.index_cast %k_cols : index to i64
  %v2_operand = arith.constant 2 : i32
  %v2_ok = func.call @croqRtRequireEqualExtents(%v2_i64, %v2_want, %check_varlen, %v2_operand) : (i64, i64, i32, i32) -> i32
  %out_dim1 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %o1_i64 = arith.index_cast %out_dim1 : index to i64
  %o1_want = arith.index_cast %rows_q : index to i64
  %o1_operand = arith.constant 3 : i32
  %o1_ok = func.call @croqRtRequireEqualExtents(%o1_i64, %o1_want, %check_varlen, %o1_operand) : (i64, i64, i32, i32) -> i32
  %out_dim2 = memref.dim %out, %c2 : memref<?x?x?xbf16>
  %o2_i64 = arith.index_cast %out_dim2 : index to i64
  %o2_want = arith.index_cast %q_cols : index to i64
  %o2_operand = arith.constant 3 : i32
  %o2_ok = func.call @croqRtRequireEqualExtents(%o2_i64, %o2_want, %check_varlen, %o2_operand) : (i64, i64, i32, i32) -> i32
  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>
  %cuk_i64 = arith.index_cast %k_offsets : index to i64
  %cuk_want = arith.index_cast %offsets : index to i64
  %cuk_operand = arith.constant 5 : i32
  %cuk_ok = func.call @croqRtRequireEqualExtents(%cuk_i64, %cuk_want, %check_varlen, %cuk_operand) : (i64, i64, i32, i32) -> i32
  // At least one offset: batch + 1 of them.
  %some_offsets = arith.minui %offsets, %c1 : index
  %cuq_i64 = arith.index_cast %some_offsets : index to i64
  %cuq_want = arith.index_cast %c1 : index to i64
  %cuq_operand = arith.constant 4 : i32
  %cuq_ok = func.call @croqRtRequireEqualExtents(%cuq_i64, %cuq_want, %check_varlen, %cuq_operand) : (i64, i64, i32, i32) -> i32
  %qcols_value = arith.index_cast %q_cols : index to i64
  %qcols_divisor = arith.index_cast %c64 : index to i64
  %qcols_kind = arith.constant 4 : i32
  %qcols_ok = func.call @croqRtRequireMultiple(%qcols_value, %qcols_divisor, %qcols_kind) : (i64, i64, i32) -> i32
  %kcols_value = arith.index_cast %k_cols : index to i64
  %kcols_divisor = arith.index_cast %c64 : index to i64
  %kcols_kind = arith.constant 4 : i32
  %kcols_ok = func.call @croqRtRequireMultiple(%kcols_value, %kcols_divisor, %kcols_kind) : (i64, i64, i32) -> i32
  %heads = arith.divui %q_cols, %c64 : index
  %kv_heads = arith.divui %k_cols, %c64 : index
  %groups_value = arith.index_cast %heads : index to i64
  %groups_divisor = arith.index_cast %kv_heads : index to i64
  %groups_kind = arith.constant 0 : i32
  %groups_ok = func.call @croqRtRequireMultiple(%groups_value, %groups_divisor, %groups_kind) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %offsets1 = arith.maxui %offsets, %c1 : index
  %batch = arith.subi %offsets1, %c1 : index
  %c0_i32 = arith.constant 0 : i32
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  // Work items: 128 query rows of one head of one sequence. A
  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,
  // so heads * (ceil(total_q / 128) + batch) bound the items; at
  // least one block is launched.
  %row_blocks = arith.ceildivui %rows_q, %c128 : index
  %blocks_bound = arith.addi %row_blocks, %batch : index
  %items_bound = arith.muli %heads, %blocks_bound : index
  %singles = arith.maxui %items_bound, %c1 : index
  %grid = arith.minui %singles, %c132 : index
  croq.parallel (%bid) in [%grid] : block {
    // Q slot 2 i + c: consumer c's rows of the items of parity i.
    %qready = croq.event.alloc : !croq.events<4>
    // K and V rings of two stages each, running on across work items: a
    // K stage is free once S = Q K^T has run, a V stage once P V has.
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      %is_c0 = arith.cmpi eq, %p, %c1 : index
      croq.inthreads async %is_producer {
        // %base: the ring position of the item's first key tile.
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after = scf.if %valid -> (index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %k_off = arith.muli %j, %c128 : index
              %k_at = arith.addi %sk_start, %k_off : index
              %kv_col = arith.muli %bkv, %c64 : index
              %kv = croq.view %k [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
              %vv = croq.view %v [1, 128, 64] from [0, %k_at, %kv_col] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
          } else {
            scf.yield %base : index
          }
          scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index
        }
      }
      // The two consumers run the same code on their own 64 query rows.
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %one = arith.constant 1.0 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        // Q rows of the block's first item, if any.
        %loc_f:3 = scf.while (%wn_f = %c0, %wst_f = %c0, %wen_f = %c0)
            : (index, index, index) -> (index, index, index) {
          %past_f = arith.cmpi uge, %bid, %wen_f : index
          %more_f = arith.cmpi ult, %wn_f, %batch : index
          %go_f = arith.andi %past_f, %more_f : i1
          scf.condition(%go_f) %wn_f, %wst_f, %wen_f : index, index, index
        } do {
        ^bb0(%dn_f: index, %dst_f: index, %den_f: index):
          %adv_f_i1 = arith.addi %dn_f, %c1 : index
          %adv_f_o0 = memref.load %cu_q[%dn_f] : memref<?xi32>
          %adv_f_o1 = memref.load %cu_q[%adv_f_i1] : memref<?xi32>
          %adv_f_p0 = arith.maxsi %adv_f_o0, %c0_i32 : i32
          %adv_f_p1 = arith.maxsi %adv_f_o1, %adv_f_p0 : i32
          %adv_f_x0 = arith.index_castui %adv_f_p0 : i32 to index
          %adv_f_x1 = arith.index_castui %adv_f_p1 : i32 to index
          %adv_f_start = arith.minui %adv_f_x0, %rows_q : index
          %adv_f_end = arith.minui %adv_f_x1, %rows_q : index
          %adv_f_len = arith.subi %adv_f_end, %adv_f_start : index
          %adv_f_blocks = arith.ceildivui %adv_f_len, %c128 : index
          %adv_f_items = arith.muli %adv_f_blocks, %heads : index
          %nen_f = arith.addi %den_f, %adv_f_items : index
          %nn_f = arith.addi %dn_f, %c1 : index
          scf.yield %nn_f, %den_f, %nen_f : index, index, index
        }
        %valid_f = arith.cmpi ult, %bid, %loc_f#2 : index
        scf.if %valid_f {
          %seq_f = arith.subi %loc_f#0, %c1 : index
          %sq_f_i1 = arith.addi %seq_f, %c1 : index
          %sq_f_o0 = memref.load %cu_q[%seq_f] : memref<?xi32>
          %sq_f_o1 = memref.load %cu_q[%sq_f_i1] : memref<?xi32>
          %sq_f_p0 = arith.maxsi %sq_f_o0, %c0_i32 : i32
          %sq_f_p1 = arith.maxsi %sq_f_o1, %sq_f_p0 : i32
          %sq_f_x0 = arith.index_castui %sq_f_p0 : i32 to index
          %sq_f_x1 = arith.index_castui %sq_f_p1 : i32 to index
          %sq_f_start = arith.minui %sq_f_x0, %rows_q : index
          %sq_f_end = arith.minui %sq_f_x1, %rows_q : index
          %sq_f_len = arith.subi %sq_f_end, %sq_f_start : index
          %nq_f = arith.ceildivui %sq_f_len, %c128 : index
          %local_f = arith.subi %bid, %loc_f#1 : index
          // The sequence's query blocks longest first, the heads of one
          // block next to each other: a block's last items are short.
          %tq_f = arith.divui %local_f, %heads : index
          %bh_f = arith.remui %local_f, %heads : index
          %lq_f = arith.subi %nq_f, %c1 : index
          %bq_f = arith.subi %lq_f, %tq_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %q_off_f = arith.muli %q_row_f, %c64 : index
          %q_at_f = arith.addi %sq_f_start, %q_off_f : index
          %q_col_f = arith.muli %bh_f, %c64 : index
          %qv_f = croq.view %q [1, 64, 64] from [0, %q_at_f, %q_col_f] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        }
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        // The cursor over the sequences (locate) runs on across items.
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> (index, index, index, index, index) {
          %loc:3 = scf.while (%wn = %cur_n, %wst = %cur_st, %wen = %cur_en)
              : (index, index, index) -> (index, index, index) {
            %past = arith.cmpi uge, %item, %wen : index
            %more = arith.cmpi ult, %wn, %batch : index
            %go = arith.andi %past, %more : i1
            scf.condition(%go) %wn, %wst, %wen : index, index, index
          } do {
          ^bb0(%dn: index, %dst: index, %den: index):
            %adv_i1 = arith.addi %dn, %c1 : index
            %adv_o0 = memref.load %cu_q[%dn] : memref<?xi32>
            %adv_o1 = memref.load %cu_q[%adv_i1] : memref<?xi32>
            %adv_p0 = arith.maxsi %adv_o0, %c0_i32 : i32
            %adv_p1 = arith.maxsi %adv_o1, %adv_p0 : i32
            %adv_x0 = arith.index_castui %adv_p0 : i32 to index
            %adv_x1 = arith.index_castui %adv_p1 : i32 to index
            %adv_start = arith.minui %adv_x0, %rows_q : index
            %adv_end = arith.minui %adv_x1, %rows_q : index
            %adv_len = arith.subi %adv_end, %adv_start : index
            %adv_blocks = arith.ceildivui %adv_len, %c128 : index
            %adv_items = arith.muli %adv_blocks, %heads : index
            %nen = arith.addi %den, %adv_items : index
            %nn = arith.addi %dn, %c1 : index
            scf.yield %nn, %den, %nen : index, index, index
          }
          %valid = arith.cmpi ult, %item, %loc#2 : index
          %after:2 = scf.if %valid -> (index, index) {
            %seq = arith.subi %loc#0, %c1 : index
            %sq_i1 = arith.addi %seq, %c1 : index
            %sq_o0 = memref.load %cu_q[%seq] : memref<?xi32>
            %sq_o1 = memref.load %cu_q[%sq_i1] : memref<?xi32>
            %sq_p0 = arith.maxsi %sq_o0, %c0_i32 : i32
            %sq_p1 = arith.maxsi %sq_o1, %sq_p0 : i32
            %sq_x0 = arith.index_castui %sq_p0 : i32 to index
            %sq_x1 = arith.index_castui %sq_p1 : i32 to index
            %sq_start = arith.minui %sq_x0, %rows_q : index
            %sq_end = arith.minui %sq_x1, %rows_q : index
            %sq_len = arith.subi %sq_end, %sq_start : index
            %sk_i1 = arith.addi %seq, %c1 : index
            %sk_o0 = memref.load %cu_k[%seq] : memref<?xi32>
            %sk_o1 = memref.load %cu_k[%sk_i1] : memref<?xi32>
            %sk_p0 = arith.maxsi %sk_o0, %c0_i32 : i32
            %sk_p1 = arith.maxsi %sk_o1, %sk_p0 : i32
            %sk_x0 = arith.index_castui %sk_p0 : i32 to index
            %sk_x1 = arith.index_castui %sk_p1 : i32 to index
            %sk_start = arith.minui %sk_x0, %rows_k : index
            %sk_end = arith.minui %sk_x1, %rows_k : index
            %sk_len = arith.subi %sk_end, %sk_start : index
            %nq = arith.ceildivui %sq_len, %c128 : index
            %local = arith.subi %item, %loc#1 : index
            // The sequence's query blocks longest first, the heads of one
            // block next to each other: a block's last items are short.
            %tq = arith.divui %local, %heads : index
            %bh = arith.remui %local, %heads : index
            %lq = arith.subi %nq, %c1 : index
            %bq = arith.subi %lq, %tq : index
            %key_tiles = arith.ceildivui %sk_len, %c128 : index
            // From this key tile on, the sequence's last key is in the tile
            // or behind.
            %end_from = arith.divui %sk_len, %c128 : index
            // Query row r sees keys below r + 1 + Lk - Lq (bottom right): the
            // block's last row, min(128 bq + 128, Lq) - 1, bounds its key
            // tiles; its first row, 128 bq, sees whole tiles before the
            // masked ones. Below zero (Lq > Lk) a row sees no key.
            %bq1 = arith.addi %bq, %c1 : index
            %q_hi0 = arith.muli %bq1, %c128 : index
            %q_hi = arith.minui %q_hi0, %sq_len : index
            %vis_a = arith.addi %q_hi, %sk_len : index
            %vis_b = arith.maxui %vis_a, %sq_len : index
            %vis_last = arith.subi %vis_b, %sq_len : index
            %vis_tiles = arith.ceildivui %vis_last, %c128 : index
            %tiles = arith.maxui %vis_tiles, %c1 : index
            %q_lo = arith.muli %bq, %c128 : index
            %first_a = arith.addi %q_lo, %sk_len : index
            %first_a1 = arith.addi %first_a, %c1 : index
            %first_b = arith.maxui %first_a1, %sq_len : index
            %vis_first = arith.subi %first_b, %sq_len : index
            %diag_from = arith.divui %vis_first, %c128 : index
            %mask_from = arith.minui %diag_from, %end_from : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            // Q rows of the block's next item, if any, into the other slot.
            %npar = arith.subi %c1, %par : index
            %item_n = arith.addi %item, %grid : index
            %loc_n:3 = scf.while (%wn_n = %loc#0, %wst_n = %loc#1, %wen_n = %loc#2)
                : (index, index, index) -> (index, index, index) {
              %past_n = arith.cmpi uge, %item_n, %wen_n : index
              %more_n = arith.cmpi ult, %wn_n, %batch : index
              %go_n = arith.andi %past_n, %more_n : i1
              scf.condition(%go_n) %wn_n, %wst_n, %wen_n : index, index, index
            } do {
            ^bb0(%dn_n: index, %dst_n: index, %den_n: index):
              %adv_n_i1 = arith.addi %dn_n, %c1 : index
              %adv_n_o0 = memref.load %cu_q[%dn_n] : memref<?xi32>
              %adv_n_o1 = memref.load %cu_q[%adv_n_i1] : memref<?xi32>
              %adv_n_p0 = arith.maxsi %adv_n_o0, %c0_i32 : i32
              %adv_n_p1 = arith.maxsi %adv_n_o1, %adv_n_p0 : i32
              %adv_n_x0 = arith.index_castui %adv_n_p0 : i32 to index
              %adv_n_x1 = arith.index_castui %adv_n_p1 : i32 to index
              %adv_n_start = arith.minui %adv_n_x0, %rows_q : index
              %adv_n_end = arith.minui %adv_n_x1, %rows_q : index
              %adv_n_len = arith.subi %adv_n_end, %adv_n_start : index
              %adv_n_blocks = arith.ceildivui %adv_n_len, %c128 : index
              %adv_n_items = arith.muli %adv_n_blocks, %heads : index
              %nen_n = arith.addi %den_n, %adv_n_items : index
              %nn_n = arith.addi %dn_n, %c1 : index
              scf.yield %nn_n, %den_n, %nen_n : index, index, index
            }
            %valid_n = arith.cmpi ult, %item_n, %loc_n#2 : index
            scf.if %valid_n {
              %seq_n = arith.subi %loc_n#0, %c1 : index
              %sq_n_i1 = arith.addi %seq_n, %c1 : index
              %sq_n_o0 = memref.load %cu_q[%seq_n] : memref<?xi32>
              %sq_n_o1 = memref.load %cu_q[%sq_n_i1] : memref<?xi32>
              %sq_n_p0 = arith.maxsi %sq_n_o0, %c0_i32 : i32
              %sq_n_p1 = arith.maxsi %sq_n_o1, %sq_n_p0 : i32
              %sq_n_x0 = arith.index_castui %sq_n_p0 : i32 to index
              %sq_n_x1 = arith.index_castui %sq_n_p1 : i32 to index
              %sq_n_start = arith.minui %sq_n_x0, %rows_q : index
              %sq_n_end = arith.minui %sq_n_x1, %rows_q : index
              %sq_n_len = arith.subi %sq_n_end, %sq_n_start : index
              %nq_n = arith.ceildivui %sq_n_len, %c128 : index
              %local_n = arith.subi %item_n, %loc_n#1 : index
              // The sequence's query blocks longest first, the heads of one
              // block next to each other: a block's last items are short.
              %tq_n = arith.divui %local_n, %heads : index
              %bh_n = arith.remui %local_n, %heads : index
              %lq_n = arith.subi %nq_n, %c1 : index
              %bq_n = arith.subi %lq_n, %tq_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %q_off_n = arith.muli %q_row_n, %c64 : index
              %q_at_n = arith.addi %sq_n_start, %q_off_n : index
              %q_col_n = arith.muli %bh_n, %c64 : index
              %qv_n = croq.view %q [1, 64, 64] from [0, %q_at_n, %q_col_n] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
              %qs_n = croq.stage %q_s[%nslot] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
              %fq_n = croq.copy tma async zfill swizzle = 128 %qv_n -> %qs_n : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
              croq.event.trigger %qready[%nslot] after (%fq_n) : !croq.events<4>
            }
            %slot2 = arith.muli %par, %c2 : index
            %slot = arith.addi %slot2, %half : index
            croq.event.wait %qready[%slot] : !croq.events<4>
            %qt = croq.stage %q_s[%slot] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
            %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
            %qa = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
            // The first key tile: S = Q K^T alone, P V comes with the next S.
            %stage0 = arith.remui %base, %c2 : index
            croq.event.wait %kfull[%stage0] : !croq.events<2>
            %k0t = croq.stage %k_s[%stage0] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
            %k02 = croq.span_as %k0t : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %kb0 = croq.mma.load %k02 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            %sz0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
            croq.named_barrier.sync %turn_mine, threads = 256
            %s01 = croq.mma row row %sz0, %qa, %kb0 : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %s0 = croq.mma.commit %s01 : !croq.acc<64x128xf32>
            croq.event.trigger %kempty[%stage0] : !croq.events<2>
            // Key tiles from %mask_from on: past the first row's diagonal
            // or holding the sequence's last key.
            %is_lastt0 = arith.cmpi uge, %c0, %mask_from : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %sk_len, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
              // i32 as it may be negative.
              %diag_a = arith.addi %q_base, %c1 : index
              %diag_b = arith.addi %diag_a, %sk_len : index
              %diag_c = arith.addi %sq_len, %key_base : index
              %diag_b32 = arith.index_cast %diag_b : index to i32
              %diag_c32 = arith.index_cast %diag_c : index to i32
              %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
              %masked = croq.mma.map %s0 (%row, %col, %x) : !croq.acc<64x128xf32> {
                %row32 = arith.index_castui %row : index to i32
                %visible = arith.addi %diag_limit, %row32 : i32
                %limit = arith.minsi %visible, %end_limit : i32
                // col < limit as col & -8 < limit - (col & 7): the left side is a
                // constant of the element, the right one of its row and column
                // parity, so that each element costs one compare and one select.
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
              scf.yield %s0 : !croq.acc<64x128xf32>
            }
            // Row maxima m, kept multiplied by the scale.
            %mt0 = croq.mma.reduce max %t0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %m1 = croq.vec.map %mt0 (%i, %a) : !croq.vec<64xf32, rows> {
              %x = arith.mulf %a, %scale : f32
              croq.yield %x : f32
            }
            %m1_neg = croq.vec.map %m1 (%i, %a) : !croq.vec<64xf32, rows> {
              %n = arith.negf %a : f32
              // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
              %none = arith.cmpf oeq, %a, %ninf : f32
              %n0 = arith.select %none, %zero, %n : f32
              croq.yield %n0 : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm0 = croq.mma.map %t0, %m1_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %l1 = croq.mma.reduce sum %pm0 : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %p0 = croq.mma.convert %pm0 : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
            %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
            // Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the
            // tensor cores while the softmax of S_j runs here.
            %res:4 = scf.for %j = %c1 to %tiles step %c1
                iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)
                -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>) {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              %prev = arith.subi %c1, %stage : index
              croq.event.wait %kfull[%stage] : !croq.events<2>
              croq.event.wait %vfull[%prev] : !croq.events<2>
              %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %k2 = croq.span_as %kt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %kb = croq.mma.load %k2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
              %vt = croq.stage %v_s[%prev] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
              %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
              %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
              croq.named_barrier.sync %turn_mine, threads = 256
              %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
              %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
              %o1 = croq.mma row col %o, %pp, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
              croq.named_barrier.arrive %turn_other, threads = 256
              %oc = croq.mma.commit %o1 pending = 1 : !croq.acc<64x64xf32>
              %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
              croq.event.trigger %kempty[%stage] : !croq.events<2>
              // Key tiles from %mask_from on: past the first row's diagonal
              // or holding the sequence's last key.
              %is_lastt = arith.cmpi uge, %j, %mask_from : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %sk_len, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in
                // i32 as it may be negative.
                %diag_a = arith.addi %q_base, %c1 : index
                %diag_b = arith.addi %diag_a, %sk_len : index
                %diag_c = arith.addi %sq_len, %key_base : index
                %diag_b32 = arith.index_cast %diag_b : index to i32
                %diag_c32 = arith.index_cast %diag_c : index to i32
                %diag_limit = arith.subi %diag_b32, %diag_c32 : i32
                %masked = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
                  %row32 = arith.index_castui %row : index to i32
                  %visible = arith.addi %diag_limit, %row32 : i32
                  %limit = arith.minsi %visible, %end_limit : i32
                  // col < limit as col & -8 < limit - (col & 7): the left side is a
                  // constant of the element, the right one of its row and column
                  // parity, so that each element costs one compare and one select.
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
              %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %b, %scale : f32
                %x = arith.maximumf %a, %y : f32
                croq.yield %x : f32
              }
              %mn_neg = croq.vec.map %mn (%i, %a) : !croq.vec<64xf32, rows> {
                %n = arith.negf %a : f32
                // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.
                %none = arith.cmpf oeq, %a, %ninf : f32
                %n0 = arith.select %none, %zero, %n : f32
                croq.yield %n0 : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).
                %none = arith.cmpf oeq, %b, %ninf : f32
                %b0 = arith.select %none, %zero, %b : f32
                %d = arith.subf %a, %b0 : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %y = math.fma %a, %b, %c : f32
                croq.yield %y : f32
              }
              // O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j
              // is converted only now, as P_(j-1) is read until P V completes.
              %od = croq.mma.wait %oc : !croq.acc<64x64xf32>
              croq.event.trigger %vempty[%prev] : !croq.events<2>
              %pn = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
              %os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %a : f32
                croq.yield %y : f32
              }
              scf.yield %os, %mn, %ln, %pn : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>, !croq.frag<64x128xbf16, registers>
            }
            // The last key tile's P V.
            %g_last = arith.addi %base, %last : index
            %last_stage = arith.remui %g_last, %c2 : index
            croq.event.wait %vfull[%last_stage] : !croq.events<2>
            %vt = croq.stage %v_s[%last_stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
            %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
            %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
            croq.named_barrier.sync %turn_mine, threads = 256
            %o1 = croq.mma row col %res#0, %res#3, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
            croq.named_barrier.arrive %turn_other, threads = 256
            %oc = croq.mma.commit %o1 : !croq.acc<64x64xf32>
            croq.event.trigger %vempty[%last_stage] : !croq.events<2>
            // O / l: one division a row, then a multiplication an element.
            %inv = croq.vec.map %res#2 (%i, %a) : !croq.vec<64xf32, rows> {
              %r = arith.divf %one, %a : f32
              // A row that sees no key: zeros.
              %none = arith.cmpf oeq, %a, %zero : f32
              %r0 = arith.select %none, %zero, %r : f32
              croq.yield %r0 : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // Copied out by the warpgroup's threads through a view bounded by
            // the sequence's last row: a TMA store would write the next
            // sequence's rows.
            croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
            %o_off = arith.muli %row_block, %c64 : index
            %o_at = arith.addi %sq_start, %o_off : index
            %o_col = arith.muli %bh, %c64 : index
            %ov = croq.view %out [1, 64, 64] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
            croq.copy dma %ot -> %ov : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          } else {
            scf.yield %base, %par : index, index
          }
          scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index
        }
        // Consumer 1's last hand-over, so that no arrival outlives the
        // block.
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
      }
    }
  }
  return
}
