//===- flash_attention_bwd.mlir - attention backward on SDPA's tensors ---===//
//
// The gradients of out = softmax(scale * q k^T) v (examples/
// flash_attention.mlir) on tensors laid out as SDPA takes them, passed as
// [batch * heads, rows, D] views (K, V, dK and dV with the key/value heads
// of grouped-query attention), f16 or bf16, D = 128 or 64, causal or not.
// Written by examples/gen/flash_attention_bwd.py: edit that. Entry points
// of a configuration ({f16,bf16}, _d64 for D = 64, _causal):
//
//   attention_lse_*    the forward of flash_attention.mlir that also writes
//                      each query row's log-sum-exp of scale * S (natural
//                      log, f32, [batch * heads, rows]) after the output;
//   attention_bwd_dq_* dQ, and delta = rowsum(dO * O) for the next kernel;
//   attention_bwd_dkdv_* dK and dV, from delta;
//
// and the fused backward: attention_bwd_delta_* (not causal only: it serves
// both) writes delta and zeroes dQ's f32 workspace and turn counters, then
// attention_bwd_dkdvdq_* computes dK, dV and adds dQ's parts into the
// workspace (croq.bulk_add), 5 products of a query tile and a key tile
// where the two kernels above do 7 (the dQ kernel recomputes S and dP).
// Both are deterministic: the two-kernel backward sums every gradient
// element in one warpgroup in a fixed order with no atomics; the fused
// kernel's key blocks add their parts of dQ in key order, each waiting for
// its turn on a counter per column half of each query tile
// (croq.turn.wait / croq.turn.pass). The fused backward is correct (the
// GPU tests) but slower: 0.55-0.65x the two-kernel one on the H200 (0.42-
// 0.47 of SDPA's backward against 0.73-0.81 at 4x16x4096). Its dK/dV/dQ
// kernel, timed with parts left out (4x16x4096 f16 D128, 2026-12-02):
// 5.08 ms whole, 4.28 without the turns (adds unordered), 3.25 without
// the bulk adds, 2.53 without staging the f32 part in shared memory,
// against 1.71 ms for the dK/dV kernel and 1.28 for the dQ kernel: the
// consumers wait for the f32 store, the add and the turn in turn.
// Measured before: per-element red.global.add.f32 (croq.mma.accumulate)
// instead of bulk adds, 0.76-0.84x the bulk adds.
//
// attention_bwd_dq: a block takes 128 query rows of a head, the two
// consumer warpgroups 64 rows each; a producer warpgroup loads K and V
// tiles of 128 keys by TMA into rings of two stages (three at D = 64,
// 0.94 -> 0.89 ms for the bf16 kernel at 4x16x4096). A consumer first
// computes delta = rowsum(dO * O) of its rows as the diagonal of dO O^T
// (one 64x64 product) and writes it, then for each key tile j:
//
//   S = Q K_j^T, dP = dO V_j^T            (two products, committed apart)
//   P = exp2(S * scale' - lse')           (scale' = scale log2 e, lse' =
//                                          lse log2 e; masked keys -inf)
//   dS = P * (dP - delta)                 (per row)
//   dQ += dS K_j                          (dS in registers as wgmma's A)
//
// and stores dQ * scale.
//
// attention_bwd_dkdv: a block takes 128 keys of a key/value head, the two
// consumers 64 keys each, with their K and V rows as wgmma A operands in
// shared memory; the producer loads tiles of 64 query rows (128 at D =
// 64) of Q and dO (of every query head of the group: their sums are the
// K/V head's gradients) into a ring, three stages not causal (four at
// D = 64; 160 KB of shared memory in all at D = 128), two causal (three
// measured no faster). At D = 64, tiles of 64 rows left the products
// small (S^T and dP^T m64n64k64) and the waits, loads and barriers
// between them twice as many per flop: 128 rows took the D = 64 bf16
// dK/dV kernel from 1.33 to 1.12 ms at 4x16x4096 (H200, 2026-12-02). The
// producer also copies each query tile's log-sum-exp and delta values
// into shared memory, in the ring stage of its Q and dO, and the
// consumers read them there: read from global memory (32 loads a thread a
// tile), they left the kernel waiting on them, 2.6x as long at D = 128
// (H200, 2026-12-02: 4.43 -> 1.71 ms at 4x16x4096 f16; tensor pipes 27%
// busy before). For each query tile i, with the products transposed so
// that the keys are the accumulator's rows:
//
//   S^T = K Q_i^T, dP^T = V dO_i^T
//   P^T = exp2(S^T * scale' - lse'_i)     (lse per column)
//   dV += P^T dO_i                        (P^T in registers as A)
//   dS^T = P^T * (dP^T - delta_i)         (delta per column)
//   dK += dS^T Q_i
//
// and stores dK * scale and dV. Causal: key tile kb is seen by query rows
// from 128 kb on, so its loop starts at query tile 2 kb (kb with tiles of
// 128 rows), and only the query tiles that cross the diagonal (two, or
// one of 128 rows) are masked (key > query: P = 0).
// Rows past a sequence's end are zero-filled by the loads (their P and dS
// terms vanish with dO and Q's zero rows) and left out of the stores.
//
// attention_bwd_dkdvdq: attention_bwd_dkdv's block and loop; after dS^T,
// each consumer stores scale * dS^T of its 64 keys in shared memory (two
// buffers by iteration parity), and once both have (a named barrier of
// the two), computes its D / 2 columns of dQ_i's part over the block's
// 128 keys (dS read transposed as wgmma's A, K's columns as B), stores the
// 64 x D / 2 f32 part in a swizzled shared tile, waits for its turn (key
// block kb adds at turn kb), and adds the tile to the part's consecutive
// floats of the workspace with one bulk add; it passes the turn one
// iteration later, once the add is done, so that the add runs under the
// next tile's products. The workspace is [batch * heads * tiles * 64 * D]
// f32 (tiles = ceil(rows / 64)), each tile's two column halves in the
// shared tile's swizzled order; croq.attention.workspace_to_dq makes dQ.
//
// Registers: the D = 128 dQ kernels, the causal D = 128 dK/dV kernels and
// the D = 64 dK/dV kernels write their roles' counts (registers = 24 for
// the producer, 240 for the consumers): with the 56 / 224
// croq-plan-registers gives the others, their consumers spilled in the
// loop (H200, 2026-12-02: 0.74 -> 0.85 of SDPA's backward at 4x16x4096,
// causal f16; the D = 64 dK/dV kernel 1.47 -> 1.12 ms).
//
// Turns: at D = 64 the two consumers of the dQ and dK/dV kernels take
// turns to issue a tile's first two products (S and dP, or S^T and dP^T)
// on named barriers 0 and 1, as the forward's consumers do, so that one's
// exponentials run under the other's products: 2-3% faster there (H200,
// 2026-12-02); at D = 128 the dK/dV kernel ran 1.7% slower so (its loop
// spilled) and the dQ kernel no faster.
//
// Before launching, the host code checks every operand's extents against
// Q's and K's (the call fails naming the operand, and nothing runs).
//
//===----------------------------------------------------------------------===//

func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32

// The training forward_f16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // Only a sequence of keys that is not a multiple of 128 has keys
  // past its end in its last tile.
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
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
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0) -> (index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          // The K/V head of query head %bh (grouped-query attention).
          %bkv = arith.divui %bh, %group : index
          scf.for %j = %c0 to %tiles step %c1 {
            %g = arith.addi %base, %j : index
            %stage = arith.remui %g, %c2 : index
            croq.event.wait %kempty[%stage] : !croq.events<2>
            %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
            croq.event.wait %vempty[%stage] : !croq.events<2>
            %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
          }
          %next = arith.addi %base, %tiles : index
          scf.yield %next : index
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
        // Q rows of the block's first item.
        %bh_f = arith.divui %bid, %grid_q : index
        %bq_f = arith.remui %bid, %grid_q : index
        %q_row2_f = arith.muli %bq_f, %c2 : index
        %q_row_f = arith.addi %q_row2_f, %half : index
        %qv_f = croq.subspan %q [1, 64, 128] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
        %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0) -> (index, index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          %last = arith.subi %tiles, %c1 : index
          %row_block = arith.addi %q_block, %half : index
          // Q rows of the block's next item, into the other slot.
          %item_n = arith.addi %item, %grid : index
          %has_next = arith.cmpi ult, %item_n, %singles : index
          %npar = arith.subi %c1, %par : index
          scf.if %has_next {
            %bh_n = arith.divui %item_n, %grid_q : index
            %bq_n = arith.remui %item_n, %grid_q : index
            %nslot2 = arith.muli %npar, %c2 : index
            %nslot = arith.addi %nslot2, %half : index
            %q_row2_n = arith.muli %bq_n, %c2 : index
            %q_row_n = arith.addi %q_row2_n, %half : index
            %qv_n = croq.subspan %q [1, 64, 128] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
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
          // Only the last key tile has keys past the end.
          %is_lastt0 = arith.cmpi eq, %c0, %last : index
          %needs_maskt0 = arith.andi %is_lastt0, %ragged : i1
          %t0 = scf.if %needs_maskt0 -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %c0, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
            croq.yield %n : f32
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
            // Only the last key tile has keys past the end.
            %is_lastt = arith.cmpi eq, %j, %last : index
            %needs_maskt = arith.andi %is_lastt, %ragged : i1
            %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %j, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
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
              croq.yield %n : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
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
            croq.yield %r : f32
          }
          %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %r : f32
            croq.yield %y : f32
          }
          // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
          %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %sum = arith.addf %a, %lg : f32
            %nat = arith.mulf %sum, %ln2 : f32
            croq.yield %nat : f32
          }
          %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
          croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
          // Stored by TMA, which leaves out rows past the sequence's end; the
          // next item's croq.mma.store into the tile waits until it is read.
          croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
          %next = arith.addi %base, %tiles : index
          scf.yield %next, %npar : index, index
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

// dQ and delta_f16.
func.func @attention_bwd_dq_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %o: memref<?x?x?xf16>, %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    %tiles = arith.addi %all_tiles, %c0 : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kempty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
          croq.event.wait %vempty[%stage] : !croq.events<2>
          %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        %dq0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x128xf32>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kfull[%stage] : !croq.events<2>
          croq.event.wait %vfull[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %needs_maskt = arith.andi %is_lastt, %ragged : i1
          %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<2>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x128xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<2>
          scf.yield %dqc : !croq.acc<64x128xf32>
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// dK and dV_f16.
func.func @attention_bwd_dkdv_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<3>
    %rempty = croq.event.alloc ready : !croq.events<3>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rempty[%stage] : !croq.events<3>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rfull[%stage] : !croq.events<3>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x128xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<3>
          scf.yield %dvw, %dkc : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// delta_f16.
func.func @attention_bwd_delta_f16(%o: memref<?x?x?xf16>, %do: memref<?x?x?xf16>, %delta: memref<?x?xf32>,
    %dq_acc: memref<?x?xf32>, %turns: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %o, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %o, %c1 : memref<?x?x?xf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %o, %c2 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %cD : index to i64
  %operand0 = arith.constant 3 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %heads : index to i64
  %operand1 = arith.constant 5 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %seq : index to i64
  %operand2 = arith.constant 5 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %cD : index to i64
  %operand3 = arith.constant 5 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 9 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 9 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %dq_acc, %c0 : memref<?x?xf32>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %acc_rows : index to i64
  %operand6 = arith.constant 10 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %dq_acc, %c1 : memref<?x?xf32>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %cD : index to i64
  %operand7 = arith.constant 10 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %turns, %c0 : memref<?xi32>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %turn_count : index to i64
  %operand8 = arith.constant 11 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    croq.parallel (%half) in [2] : warpgroup {
      %zero = arith.constant 0.0 : f32
      %q2x = arith.muli %bq, %c2 : index
      %row_block = arith.addi %q2x, %half : index
      %dov = croq.subspan %do [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
      %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
      %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
      %ov = croq.subspan %o [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
      %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
      %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
      croq.event.trigger %rready[%half] after (%fdo, %fo) : !croq.events<2>
      croq.event.wait %rready[%half] : !croq.events<2>
      %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
      %doa = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
      %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
      %oa = croq.mma.load %o2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
      // delta = rowsum(dO * O): the diagonal of dO O^T.
      %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
      %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
      %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
        %on = arith.cmpi eq, %row, %col : index
        %y = arith.select %on, %x, %zero : f32
        croq.yield %y : f32
      }
      %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
      croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
      // Zeros for the next kernel: the tile's dQ sum and the turn
      // counters of its two column halves.
      %in_seq = arith.cmpi ult, %row_block, %seq_tiles : index
      scf.if %in_seq {
        %tile_row = arith.muli %bh, %seq_tiles : index
        %tile = arith.addi %tile_row, %row_block : index
        %zacc = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %acc_v = croq.subspan %dq_acc [64, 128] at [%tile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
        croq.mma.store %zacc -> %acc_v : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
        %zero_i32 = arith.constant 0 : i32
        %turn0 = arith.muli %tile, %c2 : index
        %turn1 = arith.addi %turn0, %c1 : index
        croq.write %zero_i32, %turns[%turn0] : memref<?xi32>
        croq.write %zero_i32, %turns[%turn1] : memref<?xi32>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_f16.
func.func @attention_bwd_dkdvdq_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<3>
    %rempty = croq.event.alloc ready : !croq.events<3>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rempty[%stage] : !croq.events<3>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rfull[%stage] : !croq.events<3>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x128xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 64] at [%c0, %half] : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x64xf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 64] at [%c0, %half] : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x64xf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<3>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 4096 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [4096] at [%counter_] : memref<?xf32> -> !croq.view<4096xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// The training forward_bf16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // Only a sequence of keys that is not a multiple of 128 has keys
  // past its end in its last tile.
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
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
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0) -> (index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          // The K/V head of query head %bh (grouped-query attention).
          %bkv = arith.divui %bh, %group : index
          scf.for %j = %c0 to %tiles step %c1 {
            %g = arith.addi %base, %j : index
            %stage = arith.remui %g, %c2 : index
            croq.event.wait %kempty[%stage] : !croq.events<2>
            %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
            croq.event.wait %vempty[%stage] : !croq.events<2>
            %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
          }
          %next = arith.addi %base, %tiles : index
          scf.yield %next : index
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
        // Q rows of the block's first item.
        %bh_f = arith.divui %bid, %grid_q : index
        %bq_f = arith.remui %bid, %grid_q : index
        %q_row2_f = arith.muli %bq_f, %c2 : index
        %q_row_f = arith.addi %q_row2_f, %half : index
        %qv_f = croq.subspan %q [1, 64, 128] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
        %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0) -> (index, index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          %last = arith.subi %tiles, %c1 : index
          %row_block = arith.addi %q_block, %half : index
          // Q rows of the block's next item, into the other slot.
          %item_n = arith.addi %item, %grid : index
          %has_next = arith.cmpi ult, %item_n, %singles : index
          %npar = arith.subi %c1, %par : index
          scf.if %has_next {
            %bh_n = arith.divui %item_n, %grid_q : index
            %bq_n = arith.remui %item_n, %grid_q : index
            %nslot2 = arith.muli %npar, %c2 : index
            %nslot = arith.addi %nslot2, %half : index
            %q_row2_n = arith.muli %bq_n, %c2 : index
            %q_row_n = arith.addi %q_row2_n, %half : index
            %qv_n = croq.subspan %q [1, 64, 128] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
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
          // Only the last key tile has keys past the end.
          %is_lastt0 = arith.cmpi eq, %c0, %last : index
          %needs_maskt0 = arith.andi %is_lastt0, %ragged : i1
          %t0 = scf.if %needs_maskt0 -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %c0, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
            croq.yield %n : f32
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
            // Only the last key tile has keys past the end.
            %is_lastt = arith.cmpi eq, %j, %last : index
            %needs_maskt = arith.andi %is_lastt, %ragged : i1
            %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %j, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
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
              croq.yield %n : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
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
            croq.yield %r : f32
          }
          %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %r : f32
            croq.yield %y : f32
          }
          // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
          %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %sum = arith.addf %a, %lg : f32
            %nat = arith.mulf %sum, %ln2 : f32
            croq.yield %nat : f32
          }
          %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
          croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
          // Stored by TMA, which leaves out rows past the sequence's end; the
          // next item's croq.mma.store into the tile waits until it is read.
          croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
          %next = arith.addi %base, %tiles : index
          scf.yield %next, %npar : index, index
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

// dQ and delta_bf16.
func.func @attention_bwd_dq_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %o: memref<?x?x?xbf16>, %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    %tiles = arith.addi %all_tiles, %c0 : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kempty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
          croq.event.wait %vempty[%stage] : !croq.events<2>
          %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        %dq0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x128xf32>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kfull[%stage] : !croq.events<2>
          croq.event.wait %vfull[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %needs_maskt = arith.andi %is_lastt, %ragged : i1
          %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<2>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x128xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<2>
          scf.yield %dqc : !croq.acc<64x128xf32>
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// dK and dV_bf16.
func.func @attention_bwd_dkdv_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<3>
    %rempty = croq.event.alloc ready : !croq.events<3>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rempty[%stage] : !croq.events<3>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rfull[%stage] : !croq.events<3>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x128xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<3>
          scf.yield %dvw, %dkc : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// delta_bf16.
func.func @attention_bwd_delta_bf16(%o: memref<?x?x?xbf16>, %do: memref<?x?x?xbf16>, %delta: memref<?x?xf32>,
    %dq_acc: memref<?x?xf32>, %turns: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %o, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %o, %c1 : memref<?x?x?xbf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %o, %c2 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %cD : index to i64
  %operand0 = arith.constant 3 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %heads : index to i64
  %operand1 = arith.constant 5 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %seq : index to i64
  %operand2 = arith.constant 5 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %cD : index to i64
  %operand3 = arith.constant 5 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 9 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 9 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %dq_acc, %c0 : memref<?x?xf32>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %acc_rows : index to i64
  %operand6 = arith.constant 10 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %dq_acc, %c1 : memref<?x?xf32>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %cD : index to i64
  %operand7 = arith.constant 10 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %turns, %c0 : memref<?xi32>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %turn_count : index to i64
  %operand8 = arith.constant 11 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    croq.parallel (%half) in [2] : warpgroup {
      %zero = arith.constant 0.0 : f32
      %q2x = arith.muli %bq, %c2 : index
      %row_block = arith.addi %q2x, %half : index
      %dov = croq.subspan %do [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
      %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
      %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
      %ov = croq.subspan %o [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
      %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
      %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
      croq.event.trigger %rready[%half] after (%fdo, %fo) : !croq.events<2>
      croq.event.wait %rready[%half] : !croq.events<2>
      %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
      %doa = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
      %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
      %oa = croq.mma.load %o2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
      // delta = rowsum(dO * O): the diagonal of dO O^T.
      %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
      %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
      %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
        %on = arith.cmpi eq, %row, %col : index
        %y = arith.select %on, %x, %zero : f32
        croq.yield %y : f32
      }
      %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
      croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
      // Zeros for the next kernel: the tile's dQ sum and the turn
      // counters of its two column halves.
      %in_seq = arith.cmpi ult, %row_block, %seq_tiles : index
      scf.if %in_seq {
        %tile_row = arith.muli %bh, %seq_tiles : index
        %tile = arith.addi %tile_row, %row_block : index
        %zacc = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %acc_v = croq.subspan %dq_acc [64, 128] at [%tile, %c0] : memref<?x?xf32> -> !croq.view<64x128xf32>
        croq.mma.store %zacc -> %acc_v : !croq.acc<64x128xf32> -> !croq.view<64x128xf32>
        %zero_i32 = arith.constant 0 : i32
        %turn0 = arith.muli %tile, %c2 : index
        %turn1 = arith.addi %turn0, %c1 : index
        croq.write %zero_i32, %turns[%turn0] : memref<?xi32>
        croq.write %zero_i32, %turns[%turn1] : memref<?xi32>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_bf16.
func.func @attention_bwd_dkdvdq_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<3>
    %rempty = croq.event.alloc ready : !croq.events<3>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rempty[%stage] : !croq.events<3>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rfull[%stage] : !croq.events<3>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x128xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x128xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 64] at [%c0, %half] : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.view<64x64xbf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 64] at [%c0, %half] : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.view<64x64xbf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<3>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 4096 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [4096] at [%counter_] : memref<?xf32> -> !croq.view<4096xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// The training forward_d64_f16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // Only a sequence of keys that is not a multiple of 128 has keys
  // past its end in its last tile.
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
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
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0) -> (index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          // The K/V head of query head %bh (grouped-query attention).
          %bkv = arith.divui %bh, %group : index
          scf.for %j = %c0 to %tiles step %c1 {
            %g = arith.addi %base, %j : index
            %stage = arith.remui %g, %c2 : index
            croq.event.wait %kempty[%stage] : !croq.events<2>
            %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
            croq.event.wait %vempty[%stage] : !croq.events<2>
            %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
          }
          %next = arith.addi %base, %tiles : index
          scf.yield %next : index
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
        // Q rows of the block's first item.
        %bh_f = arith.divui %bid, %grid_q : index
        %bq_f = arith.remui %bid, %grid_q : index
        %q_row2_f = arith.muli %bq_f, %c2 : index
        %q_row_f = arith.addi %q_row2_f, %half : index
        %qv_f = croq.subspan %q [1, 64, 64] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
        %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0) -> (index, index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          %last = arith.subi %tiles, %c1 : index
          %row_block = arith.addi %q_block, %half : index
          // Q rows of the block's next item, into the other slot.
          %item_n = arith.addi %item, %grid : index
          %has_next = arith.cmpi ult, %item_n, %singles : index
          %npar = arith.subi %c1, %par : index
          scf.if %has_next {
            %bh_n = arith.divui %item_n, %grid_q : index
            %bq_n = arith.remui %item_n, %grid_q : index
            %nslot2 = arith.muli %npar, %c2 : index
            %nslot = arith.addi %nslot2, %half : index
            %q_row2_n = arith.muli %bq_n, %c2 : index
            %q_row_n = arith.addi %q_row2_n, %half : index
            %qv_n = croq.subspan %q [1, 64, 64] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
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
          // Only the last key tile has keys past the end.
          %is_lastt0 = arith.cmpi eq, %c0, %last : index
          %needs_maskt0 = arith.andi %is_lastt0, %ragged : i1
          %t0 = scf.if %needs_maskt0 -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %c0, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
            croq.yield %n : f32
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
            // Only the last key tile has keys past the end.
            %is_lastt = arith.cmpi eq, %j, %last : index
            %needs_maskt = arith.andi %is_lastt, %ragged : i1
            %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %j, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
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
              croq.yield %n : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
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
            croq.yield %r : f32
          }
          %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %r : f32
            croq.yield %y : f32
          }
          // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
          %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %sum = arith.addf %a, %lg : f32
            %nat = arith.mulf %sum, %ln2 : f32
            croq.yield %nat : f32
          }
          %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
          croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
          // Stored by TMA, which leaves out rows past the sequence's end; the
          // next item's croq.mma.store into the tile waits until it is read.
          croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
          %next = arith.addi %base, %tiles : index
          scf.yield %next, %npar : index, index
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

// dQ and delta_d64_f16.
func.func @attention_bwd_dq_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %o: memref<?x?x?xf16>, %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    %tiles = arith.addi %all_tiles, %c0 : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kempty[%stage] : !croq.events<3>
          %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
          croq.event.wait %vempty[%stage] : !croq.events<3>
          %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x64xf32>) {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kfull[%stage] : !croq.events<3>
          croq.event.wait %vfull[%stage] : !croq.events<3>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %needs_maskt = arith.andi %is_lastt, %ragged : i1
          %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<3>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x64xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<3>
          scf.yield %dqc : !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// dK and dV_d64_f16.
func.func @attention_bwd_dkdv_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c128 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<4>
    %rempty = croq.event.alloc ready : !croq.events<4>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<4 x 1x128x64xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<4 x 1x128x64xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<4 x 1x128xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<4 x 1x128xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c4 : index
          croq.event.wait %rempty[%stage] : !croq.events<4>
          %qv = croq.subspan %q [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<4 x 1x128x64xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<4 x 1x128x64xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          %dltv = croq.subspan %delta [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c4 : index
          croq.event.wait %rfull[%stage] : !croq.events<4>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<4 x 1x128x64xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<4 x 1x128x64xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x128xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<4>
          scf.yield %dvw, %dkc : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// delta_d64_f16.
func.func @attention_bwd_delta_d64_f16(%o: memref<?x?x?xf16>, %do: memref<?x?x?xf16>, %delta: memref<?x?xf32>,
    %dq_acc: memref<?x?xf32>, %turns: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %o, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %o, %c1 : memref<?x?x?xf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %o, %c2 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %cD : index to i64
  %operand0 = arith.constant 3 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %heads : index to i64
  %operand1 = arith.constant 5 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %seq : index to i64
  %operand2 = arith.constant 5 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %cD : index to i64
  %operand3 = arith.constant 5 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 9 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 9 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %dq_acc, %c0 : memref<?x?xf32>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %acc_rows : index to i64
  %operand6 = arith.constant 10 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %dq_acc, %c1 : memref<?x?xf32>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %cD : index to i64
  %operand7 = arith.constant 10 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %turns, %c0 : memref<?xi32>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %turn_count : index to i64
  %operand8 = arith.constant 11 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    croq.parallel (%half) in [2] : warpgroup {
      %zero = arith.constant 0.0 : f32
      %q2x = arith.muli %bq, %c2 : index
      %row_block = arith.addi %q2x, %half : index
      %dov = croq.subspan %do [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
      %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
      %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
      %ov = croq.subspan %o [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
      %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
      %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
      croq.event.trigger %rready[%half] after (%fdo, %fo) : !croq.events<2>
      croq.event.wait %rready[%half] : !croq.events<2>
      %do2 = croq.span_as %dot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %doa = croq.mma.load %do2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
      %oa = croq.mma.load %o2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
      // delta = rowsum(dO * O): the diagonal of dO O^T.
      %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
      %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
      %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
        %on = arith.cmpi eq, %row, %col : index
        %y = arith.select %on, %x, %zero : f32
        croq.yield %y : f32
      }
      %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
      croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
      // Zeros for the next kernel: the tile's dQ sum and the turn
      // counters of its two column halves.
      %in_seq = arith.cmpi ult, %row_block, %seq_tiles : index
      scf.if %in_seq {
        %tile_row = arith.muli %bh, %seq_tiles : index
        %tile = arith.addi %tile_row, %row_block : index
        %zacc = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %acc_v = croq.subspan %dq_acc [64, 64] at [%tile, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
        croq.mma.store %zacc -> %acc_v : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
        %zero_i32 = arith.constant 0 : i32
        %turn0 = arith.muli %tile, %c2 : index
        %turn1 = arith.addi %turn0, %c1 : index
        croq.write %zero_i32, %turns[%turn0] : memref<?xi32>
        croq.write %zero_i32, %turns[%turn1] : memref<?xi32>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_d64_f16.
func.func @attention_bwd_dkdvdq_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<3>
    %rempty = croq.event.alloc ready : !croq.events<3>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<3 x 1x64x64xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<3 x 1x64x64xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rempty[%stage] : !croq.events<3>
          %qv = croq.subspan %q [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x64xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x64xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rfull[%stage] : !croq.events<3>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x64xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x64xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x64xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x32xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 32] at [%c0, %half] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x32xf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x32xf16, shared, swizzle = 128> -> !croq.frag<64x32xf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xf16>, !croq.frag<64x32xf16> -> !croq.acc<64x32xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 32] at [%c0, %half] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x32xf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x32xf16, shared, swizzle = 128> -> !croq.frag<64x32xf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xf16>, !croq.frag<64x32xf16> -> !croq.acc<64x32xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x32xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<3>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 2048 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x32xf32> -> !croq.tile<64x32xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [2048] at [%counter_] : memref<?xf32> -> !croq.view<2048xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x32xf32, shared, swizzle = 128> -> !croq.view<2048xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// The training forward_d64_bf16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // Only a sequence of keys that is not a multiple of 128 has keys
  // past its end in its last tile.
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
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
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0) -> (index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          // The K/V head of query head %bh (grouped-query attention).
          %bkv = arith.divui %bh, %group : index
          scf.for %j = %c0 to %tiles step %c1 {
            %g = arith.addi %base, %j : index
            %stage = arith.remui %g, %c2 : index
            croq.event.wait %kempty[%stage] : !croq.events<2>
            %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
            %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
            %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
            croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
            croq.event.wait %vempty[%stage] : !croq.events<2>
            %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
            %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
            %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
            croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
          }
          %next = arith.addi %base, %tiles : index
          scf.yield %next : index
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
        // Q rows of the block's first item.
        %bh_f = arith.divui %bid, %grid_q : index
        %bq_f = arith.remui %bid, %grid_q : index
        %q_row2_f = arith.muli %bq_f, %c2 : index
        %q_row_f = arith.addi %q_row2_f, %half : index
        %qv_f = croq.subspan %q [1, 64, 64] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
        %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
        // Consumer c waits for its turn at named barrier c and hands
        // the turn to the other; consumer 0 goes first.
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        scf.for %item = %bid to %singles step %grid iter_args(%base = %c0, %par = %c0) -> (index, index) {
          %bh = arith.divui %item, %grid_q : index
          %bq = arith.remui %item, %grid_q : index
          %tiles = arith.addi %all_tiles, %c0 : index
          %q_block = arith.muli %bq, %c2 : index
          %last = arith.subi %tiles, %c1 : index
          %row_block = arith.addi %q_block, %half : index
          // Q rows of the block's next item, into the other slot.
          %item_n = arith.addi %item, %grid : index
          %has_next = arith.cmpi ult, %item_n, %singles : index
          %npar = arith.subi %c1, %par : index
          scf.if %has_next {
            %bh_n = arith.divui %item_n, %grid_q : index
            %bq_n = arith.remui %item_n, %grid_q : index
            %nslot2 = arith.muli %npar, %c2 : index
            %nslot = arith.addi %nslot2, %half : index
            %q_row2_n = arith.muli %bq_n, %c2 : index
            %q_row_n = arith.addi %q_row2_n, %half : index
            %qv_n = croq.subspan %q [1, 64, 64] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
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
          // Only the last key tile has keys past the end.
          %is_lastt0 = arith.cmpi eq, %c0, %last : index
          %needs_maskt0 = arith.andi %is_lastt0, %ragged : i1
          %t0 = scf.if %needs_maskt0 -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %c0, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
            croq.yield %n : f32
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
            // Only the last key tile has keys past the end.
            %is_lastt = arith.cmpi eq, %j, %last : index
            %needs_maskt = arith.andi %is_lastt, %ragged : i1
            %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %j, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
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
              croq.yield %n : f32
            }
            // P = exp2(S * scale - m): one fma and one ex2 an element.
            %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %d = math.fma %x, %scale, %nm : f32
              %e = math.exp2 %d fastmath<afn> : f32
              croq.yield %e : f32
            }
            %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
            %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %d = arith.subf %a, %b : f32
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
            croq.yield %r : f32
          }
          %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %r : f32
            croq.yield %y : f32
          }
          // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
          %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %lg = math.log2 %b : f32
            %sum = arith.addf %a, %lg : f32
            %nat = arith.mulf %sum, %ln2 : f32
            croq.yield %nat : f32
          }
          %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
          croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
          // Stored by TMA, which leaves out rows past the sequence's end; the
          // next item's croq.mma.store into the tile waits until it is read.
          croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
          %next = arith.addi %base, %tiles : index
          scf.yield %next, %npar : index, index
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

// dQ and delta_d64_bf16.
func.func @attention_bwd_dq_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %o: memref<?x?x?xbf16>, %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    %tiles = arith.addi %all_tiles, %c0 : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kempty[%stage] : !croq.events<3>
          %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
          croq.event.wait %vempty[%stage] : !croq.events<3>
          %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x64xf32>) {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kfull[%stage] : !croq.events<3>
          croq.event.wait %vfull[%stage] : !croq.events<3>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %needs_maskt = arith.andi %is_lastt, %ragged : i1
          %t = scf.if %needs_maskt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<3>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x64xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<3>
          scf.yield %dqc : !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
      }
    }
  }
  return
}

// dK and dV_d64_bf16.
func.func @attention_bwd_dkdv_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c128 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<4>
    %rempty = croq.event.alloc ready : !croq.events<4>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<4 x 1x128x64xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<4 x 1x128x64xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<4 x 1x128xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<4 x 1x128xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c4 : index
          croq.event.wait %rempty[%stage] : !croq.events<4>
          %qv = croq.subspan %q [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<4 x 1x128x64xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<4 x 1x128x64xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          %dltv = croq.subspan %delta [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<4>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c4 : index
          croq.event.wait %rfull[%stage] : !croq.events<4>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<4 x 1x128x64xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<4 x 1x128x64xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<4 x 1x128xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x128xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<4>
          scf.yield %dvw, %dkc : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
      }
    }
  }
  return
}

// delta_d64_bf16.
func.func @attention_bwd_delta_d64_bf16(%o: memref<?x?x?xbf16>, %do: memref<?x?x?xbf16>, %delta: memref<?x?xf32>,
    %dq_acc: memref<?x?xf32>, %turns: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %o, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %o, %c1 : memref<?x?x?xbf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %o, %c2 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %cD : index to i64
  %operand0 = arith.constant 3 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %heads : index to i64
  %operand1 = arith.constant 5 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %seq : index to i64
  %operand2 = arith.constant 5 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %cD : index to i64
  %operand3 = arith.constant 5 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 9 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 9 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %dq_acc, %c0 : memref<?x?xf32>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %acc_rows : index to i64
  %operand6 = arith.constant 10 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %dq_acc, %c1 : memref<?x?xf32>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %cD : index to i64
  %operand7 = arith.constant 10 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %turns, %c0 : memref<?xi32>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %turn_count : index to i64
  %operand8 = arith.constant 11 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %bh = arith.divui %bid, %grid_q : index
    %bq = arith.remui %bid, %grid_q : index
    croq.parallel (%half) in [2] : warpgroup {
      %zero = arith.constant 0.0 : f32
      %q2x = arith.muli %bq, %c2 : index
      %row_block = arith.addi %q2x, %half : index
      %dov = croq.subspan %do [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
      %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
      %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
      %ov = croq.subspan %o [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
      %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
      %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
      croq.event.trigger %rready[%half] after (%fdo, %fo) : !croq.events<2>
      croq.event.wait %rready[%half] : !croq.events<2>
      %do2 = croq.span_as %dot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
      %doa = croq.mma.load %do2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
      %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
      %oa = croq.mma.load %o2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
      // delta = rowsum(dO * O): the diagonal of dO O^T.
      %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
      %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
      %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
      %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
        %on = arith.cmpi eq, %row, %col : index
        %y = arith.select %on, %x, %zero : f32
        croq.yield %y : f32
      }
      %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
      %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
      croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
      // Zeros for the next kernel: the tile's dQ sum and the turn
      // counters of its two column halves.
      %in_seq = arith.cmpi ult, %row_block, %seq_tiles : index
      scf.if %in_seq {
        %tile_row = arith.muli %bh, %seq_tiles : index
        %tile = arith.addi %tile_row, %row_block : index
        %zacc = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %acc_v = croq.subspan %dq_acc [64, 64] at [%tile, %c0] : memref<?x?xf32> -> !croq.view<64x64xf32>
        croq.mma.store %zacc -> %acc_v : !croq.acc<64x64xf32> -> !croq.view<64x64xf32>
        %zero_i32 = arith.constant 0 : i32
        %turn0 = arith.muli %tile, %c2 : index
        %turn1 = arith.addi %turn0, %c1 : index
        croq.write %zero_i32, %turns[%turn0] : memref<?xi32>
        croq.write %zero_i32, %turns[%turn1] : memref<?xi32>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_d64_bf16.
func.func @attention_bwd_dkdvdq_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<3>
    %rempty = croq.event.alloc ready : !croq.events<3>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<3 x 1x64x64xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<3 x 1x64x64xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<3 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    %start = arith.addi %c0, %c0 : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rempty[%stage] : !croq.events<3>
          %qv = croq.subspan %q [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x64xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x64xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c3 : index
          croq.event.wait %rfull[%stage] : !croq.events<3>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<3 x 1x64x64xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<3 x 1x64x64xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          %pt = croq.mma.map %st, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xbf16, registers>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<3 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x64xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x32xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 32] at [%c0, %half] : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.view<64x32xbf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x32xbf16, shared, swizzle = 128> -> !croq.frag<64x32xbf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xbf16>, !croq.frag<64x32xbf16> -> !croq.acc<64x32xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 32] at [%c0, %half] : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.view<64x32xbf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x32xbf16, shared, swizzle = 128> -> !croq.frag<64x32xbf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xbf16>, !croq.frag<64x32xbf16> -> !croq.acc<64x32xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x32xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<3>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 2048 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x32xf32> -> !croq.tile<64x32xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [2048] at [%counter_] : memref<?xf32> -> !croq.view<2048xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x32xf32, shared, swizzle = 128> -> !croq.view<2048xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
      }
    }
  }
  return
}

// The training forward_causal_f16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
  %last_q = arith.subi %grid_q, %c1 : index
  // Pairs: query blocks i and grid_q - 1 - i of a head (the middle
  // block of an odd grid_q alone).
  %half_q = arith.ceildivui %grid_q, %c2 : index
  %pairs = arith.muli %heads, %half_q : index
  // The middle block of an odd grid_q is a pair of half the weight,
  // every half_q-th pair. Walked by a number of blocks that half_q
  // divides (132 for 2, 3, 4, 6, ...), every block would take
  // the same place in its heads' pairs at every step: some only
  // middles, the others none. 131 blocks, a prime, mix them.
  %q_parity = arith.andi %grid_q, %c1 : index
  %odd_q = arith.cmpi ne, %q_parity, %c0 : index
  %c131 = arith.constant 131 : index
  %pair_blocks = arith.select %odd_q, %c131, %c132 : index
  // Where the pairs fill less than 90% of their waves of blocks
  // (10 pairs < 9 slots) and the keys and values of all heads take
  // 64 MiB or less, single items in snake order instead.
  %waves = arith.ceildivui %pairs, %pair_blocks : index
  %slots = arith.muli %waves, %pair_blocks : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %pairs10 = arith.muli %pairs, %c10 : index
  %slots9 = arith.muli %slots, %c9 : index
  %uneven = arith.cmpi ult, %pairs10, %slots9 : index
  %kv_row = arith.constant 512 : index
  %kv_head = arith.muli %keys, %kv_row : index
  %kv_bytes = arith.muli %kv_heads, %kv_head : index
  %kv_l2 = arith.constant 67108864 : index
  %fits = arith.cmpi ule, %kv_bytes, %kv_l2 : index
  %snake = arith.andi %uneven, %fits : i1
  scf.if %snake {
    %grid = arith.minui %singles, %c132 : index
    // Full rounds of one item per block, then the first %rest blocks
    // of the last round's order.
    %rounds = arith.divui %singles, %grid : index
    %rest = arith.remui %singles, %grid : index
    %last_round = arith.andi %rounds, %c1 : index
    %last_odd = arith.cmpi ne, %last_round, %c0 : index
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
      // The block's place in odd rounds, and its item count.
      %grid_end = arith.subi %grid, %c1 : index
      %mirror_bid = arith.subi %grid_end, %bid : index
      %last_pos = arith.select %last_odd, %mirror_bid, %bid : index
      %in_last = arith.cmpi ult, %last_pos, %rest : index
      %extra = arith.select %in_last, %c1, %c0 : index
      %my_items = arith.addi %rounds, %extra : index
      croq.parallel (%p) in [3] : warpgroup {
        %is_producer = arith.cmpi eq, %p, %c0 : index
        %is_consumer = arith.cmpi ne, %p, %c0 : index
        %is_c0 = arith.cmpi eq, %p, %c1 : index
        croq.inthreads async %is_producer {
          // %base: the ring position of the item's first key tile.
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0) -> (index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
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
          // Q rows of the block's first item.
          // Item rank of the longest-first order: query block
          // grid_q - 1 - rank / heads of head rank % heads.
          %parity_f = arith.andi %c0, %c1 : index
          %odd_f = arith.cmpi ne, %parity_f, %c0 : index
          %pos_f = arith.select %odd_f, %mirror_bid, %bid : index
          %round_start_f = arith.muli %c0, %grid : index
          %rank_f = arith.addi %round_start_f, %pos_f : index
          %level_f = arith.divui %rank_f, %heads : index
          %bh_f = arith.remui %rank_f, %heads : index
          %bq_f = arith.subi %last_q, %level_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 128] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0, %par = %c0) -> (index, index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            %q_end = arith.addi %q_base, %c1 : index
            // Q rows of the block's next item, into the other slot.
            %round_n = arith.addi %round, %c1 : index
            %has_next = arith.cmpi ult, %round_n, %my_items : index
            %npar = arith.subi %c1, %par : index
            scf.if %has_next {
              // Item rank of the longest-first order: query block
              // grid_q - 1 - rank / heads of head rank % heads.
              %parity_n = arith.andi %round_n, %c1 : index
              %odd_n = arith.cmpi ne, %parity_n, %c0 : index
              %pos_n = arith.select %odd_n, %mirror_bid, %bid : index
              %round_start_n = arith.muli %round_n, %grid : index
              %rank_n = arith.addi %round_start_n, %pos_n : index
              %level_n = arith.divui %rank_n, %heads : index
              %bh_n = arith.remui %rank_n, %heads : index
              %bq_n = arith.subi %last_q, %level_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %qv_n = croq.subspan %q [1, 64, 128] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
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
            // Only the last key tile has keys past the end or past the diagonal.
            %is_lastt0 = arith.cmpi eq, %c0, %last : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Causal: query q_base + row sees keys up to its own index.
              %diag = arith.subi %q_end, %key_base : index
              %diag_limit = arith.index_cast %diag : index to i32
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
              croq.yield %n : f32
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt = arith.cmpi eq, %j, %last : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %d = arith.subf %a, %b : f32
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
              croq.yield %r : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
            %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %lg = math.log2 %b : f32
              %sum = arith.addf %a, %lg : f32
              %nat = arith.mulf %sum, %ln2 : f32
              croq.yield %nat : f32
            }
            %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
            croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
            // Stored by TMA, which leaves out rows past the sequence's end; the
            // next item's croq.mma.store into the tile waits until it is read.
            croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
            %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
            %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  } else {
    %grid = arith.minui %pairs, %pair_blocks : index
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
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0) -> (index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base) -> (index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              // The K/V head of query head %bh (grouped-query attention).
              %bkv = arith.divui %bh, %group : index
              scf.for %j = %c0 to %tiles step %c1 {
                %g = arith.addi %base, %j : index
                %stage = arith.remui %g, %c2 : index
                croq.event.wait %kempty[%stage] : !croq.events<2>
                %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
                %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
                %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
                croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
                croq.event.wait %vempty[%stage] : !croq.events<2>
                %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
                %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
                %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
                croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
              }
              %next = arith.addi %base, %tiles : index
              scf.yield %next : index
            }
            scf.yield %after : index
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
          // Q rows of the block's first item.
          %bh_f = arith.divui %bid, %half_q : index
          %pi_f = arith.remui %bid, %half_q : index
          %mirror_f = arith.subi %last_q, %pi_f : index
          %q_row2_f = arith.muli %mirror_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 128] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0, %pair_par = %c0) -> (index, index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after:2 = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base, %par = %pair_par) -> (index, index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              %last = arith.subi %tiles, %c1 : index
              %row_block = arith.addi %q_block, %half : index
              %q_base = arith.muli %row_block, %c64 : index
              %q_end = arith.addi %q_base, %c1 : index
              // Q rows of the block's next item, into the other slot.
              %in_first = arith.cmpi eq, %which, %c0 : index
              %to_twin = arith.andi %in_first, %twins : i1
              %pair_n = arith.addi %pair, %grid : index
              %more_pairs = arith.cmpi ult, %pair_n, %pairs : index
              %has_next = arith.ori %to_twin, %more_pairs : i1
              %npar = arith.subi %c1, %par : index
              scf.if %has_next {
                // The pair's second item, or the next pair's first.
                %bh_p = arith.divui %pair_n, %half_q : index
                %pi_p = arith.remui %pair_n, %half_q : index
                %mirror_p = arith.subi %last_q, %pi_p : index
                %bh_n = arith.select %to_twin, %bh, %bh_p : index
                %bq_n = arith.select %to_twin, %pi, %mirror_p : index
                %nslot2 = arith.muli %npar, %c2 : index
                %nslot = arith.addi %nslot2, %half : index
                %q_row2_n = arith.muli %bq_n, %c2 : index
                %q_row_n = arith.addi %q_row2_n, %half : index
                %qv_n = croq.subspan %q [1, 64, 128] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt0 = arith.cmpi eq, %c0, %last : index
              %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %c0, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
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
                // Only the last key tile has keys past the end or past the diagonal.
                %is_lastt = arith.cmpi eq, %j, %last : index
                %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                  // Key key_base + col is inside where col < limit, in i32 (the
                  // row's limit computed once a row).
                  %key_base = arith.muli %j, %c128 : index
                  %in_tile = arith.subi %keys, %key_base : index
                  %end_limit = arith.index_cast %in_tile : index to i32
                  // Causal: query q_base + row sees keys up to its own index.
                  %diag = arith.subi %q_end, %key_base : index
                  %diag_limit = arith.index_cast %diag : index to i32
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
                  croq.yield %n : f32
                }
                // P = exp2(S * scale - m): one fma and one ex2 an element.
                %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                  %d = math.fma %x, %scale, %nm : f32
                  %e = math.exp2 %d fastmath<afn> : f32
                  croq.yield %e : f32
                }
                %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
                %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                  %d = arith.subf %a, %b : f32
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
                croq.yield %r : f32
              }
              %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %r : f32
                croq.yield %y : f32
              }
              // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
              %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %lg = math.log2 %b : f32
                %sum = arith.addf %a, %lg : f32
                %nat = arith.mulf %sum, %ln2 : f32
                croq.yield %nat : f32
              }
              %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
              croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
              // Stored by TMA, which leaves out rows past the sequence's end; the
              // next item's croq.mma.store into the tile waits until it is read.
              croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
              %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
              %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
              %next = arith.addi %base, %tiles : index
              scf.yield %next, %npar : index, index
            }
            scf.yield %after#0, %after#1 : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  }
  return
}

// dQ and delta_causal_f16.
func.func @attention_bwd_dq_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %o: memref<?x?x?xf16>, %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    // Longest items first: query block grid_q - 1 - bid / heads.
    %level = arith.divui %bid, %heads : index
    %bh = arith.remui %bid, %heads : index
    %last_q = arith.subi %grid_q, %c1 : index
    %bq = arith.subi %last_q, %level : index
    %diagonal = arith.addi %bq, %c1 : index
    %tiles = arith.minui %all_tiles, %diagonal : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kempty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
          croq.event.wait %vempty[%stage] : !croq.events<2>
          %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        %q_base = arith.muli %row_block, %c64 : index
        %q_end = arith.addi %q_base, %c1 : index
        %dq0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x128xf32>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kfull[%stage] : !croq.events<2>
          croq.event.wait %vfull[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end or past the diagonal.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
            %end_limit = arith.index_cast %in_tile : index to i32
            // Causal: query q_base + row sees keys up to its own index.
            %diag = arith.subi %q_end, %key_base : index
            %diag_limit = arith.index_cast %diag : index to i32
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<2>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x128xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<2>
          scf.yield %dqc : !croq.acc<64x128xf32>
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// dK and dV_causal_f16.
func.func @attention_bwd_dkdv_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.muli %kb, %c2 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c64 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x64xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x64xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x64xf32>
          } else {
            scf.yield %st : !croq.acc<64x64xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x128xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          scf.yield %dvw, %dkc : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_causal_f16.
func.func @attention_bwd_dkdvdq_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.muli %kb, %c2 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xf16>, !croq.frag<64x128xf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c64 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x64xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x64xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x64xf32>
          } else {
            scf.yield %st : !croq.acc<64x64xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xf16, registers>, !croq.frag<64x128xf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x128xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 64] at [%c0, %half] : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x64xf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 64] at [%c0, %half] : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.view<64x64xf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 4096 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [4096] at [%counter_] : memref<?xf32> -> !croq.view<4096xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// The training forward_causal_bf16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_causal_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
  %last_q = arith.subi %grid_q, %c1 : index
  // Pairs: query blocks i and grid_q - 1 - i of a head (the middle
  // block of an odd grid_q alone).
  %half_q = arith.ceildivui %grid_q, %c2 : index
  %pairs = arith.muli %heads, %half_q : index
  // The middle block of an odd grid_q is a pair of half the weight,
  // every half_q-th pair. Walked by a number of blocks that half_q
  // divides (132 for 2, 3, 4, 6, ...), every block would take
  // the same place in its heads' pairs at every step: some only
  // middles, the others none. 131 blocks, a prime, mix them.
  %q_parity = arith.andi %grid_q, %c1 : index
  %odd_q = arith.cmpi ne, %q_parity, %c0 : index
  %c131 = arith.constant 131 : index
  %pair_blocks = arith.select %odd_q, %c131, %c132 : index
  // Where the pairs fill less than 90% of their waves of blocks
  // (10 pairs < 9 slots) and the keys and values of all heads take
  // 64 MiB or less, single items in snake order instead.
  %waves = arith.ceildivui %pairs, %pair_blocks : index
  %slots = arith.muli %waves, %pair_blocks : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %pairs10 = arith.muli %pairs, %c10 : index
  %slots9 = arith.muli %slots, %c9 : index
  %uneven = arith.cmpi ult, %pairs10, %slots9 : index
  %kv_row = arith.constant 512 : index
  %kv_head = arith.muli %keys, %kv_row : index
  %kv_bytes = arith.muli %kv_heads, %kv_head : index
  %kv_l2 = arith.constant 67108864 : index
  %fits = arith.cmpi ule, %kv_bytes, %kv_l2 : index
  %snake = arith.andi %uneven, %fits : i1
  scf.if %snake {
    %grid = arith.minui %singles, %c132 : index
    // Full rounds of one item per block, then the first %rest blocks
    // of the last round's order.
    %rounds = arith.divui %singles, %grid : index
    %rest = arith.remui %singles, %grid : index
    %last_round = arith.andi %rounds, %c1 : index
    %last_odd = arith.cmpi ne, %last_round, %c0 : index
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
      // The block's place in odd rounds, and its item count.
      %grid_end = arith.subi %grid, %c1 : index
      %mirror_bid = arith.subi %grid_end, %bid : index
      %last_pos = arith.select %last_odd, %mirror_bid, %bid : index
      %in_last = arith.cmpi ult, %last_pos, %rest : index
      %extra = arith.select %in_last, %c1, %c0 : index
      %my_items = arith.addi %rounds, %extra : index
      croq.parallel (%p) in [3] : warpgroup {
        %is_producer = arith.cmpi eq, %p, %c0 : index
        %is_consumer = arith.cmpi ne, %p, %c0 : index
        %is_c0 = arith.cmpi eq, %p, %c1 : index
        croq.inthreads async %is_producer {
          // %base: the ring position of the item's first key tile.
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0) -> (index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
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
          // Q rows of the block's first item.
          // Item rank of the longest-first order: query block
          // grid_q - 1 - rank / heads of head rank % heads.
          %parity_f = arith.andi %c0, %c1 : index
          %odd_f = arith.cmpi ne, %parity_f, %c0 : index
          %pos_f = arith.select %odd_f, %mirror_bid, %bid : index
          %round_start_f = arith.muli %c0, %grid : index
          %rank_f = arith.addi %round_start_f, %pos_f : index
          %level_f = arith.divui %rank_f, %heads : index
          %bh_f = arith.remui %rank_f, %heads : index
          %bq_f = arith.subi %last_q, %level_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 128] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0, %par = %c0) -> (index, index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            %q_end = arith.addi %q_base, %c1 : index
            // Q rows of the block's next item, into the other slot.
            %round_n = arith.addi %round, %c1 : index
            %has_next = arith.cmpi ult, %round_n, %my_items : index
            %npar = arith.subi %c1, %par : index
            scf.if %has_next {
              // Item rank of the longest-first order: query block
              // grid_q - 1 - rank / heads of head rank % heads.
              %parity_n = arith.andi %round_n, %c1 : index
              %odd_n = arith.cmpi ne, %parity_n, %c0 : index
              %pos_n = arith.select %odd_n, %mirror_bid, %bid : index
              %round_start_n = arith.muli %round_n, %grid : index
              %rank_n = arith.addi %round_start_n, %pos_n : index
              %level_n = arith.divui %rank_n, %heads : index
              %bh_n = arith.remui %rank_n, %heads : index
              %bq_n = arith.subi %last_q, %level_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %qv_n = croq.subspan %q [1, 64, 128] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
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
            // Only the last key tile has keys past the end or past the diagonal.
            %is_lastt0 = arith.cmpi eq, %c0, %last : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Causal: query q_base + row sees keys up to its own index.
              %diag = arith.subi %q_end, %key_base : index
              %diag_limit = arith.index_cast %diag : index to i32
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
              croq.yield %n : f32
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt = arith.cmpi eq, %j, %last : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %d = arith.subf %a, %b : f32
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
              croq.yield %r : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
            %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %lg = math.log2 %b : f32
              %sum = arith.addf %a, %lg : f32
              %nat = arith.mulf %sum, %ln2 : f32
              croq.yield %nat : f32
            }
            %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
            croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
            // Stored by TMA, which leaves out rows past the sequence's end; the
            // next item's croq.mma.store into the tile waits until it is read.
            croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
            %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
            %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  } else {
    %grid = arith.minui %pairs, %pair_blocks : index
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
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0) -> (index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base) -> (index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              // The K/V head of query head %bh (grouped-query attention).
              %bkv = arith.divui %bh, %group : index
              scf.for %j = %c0 to %tiles step %c1 {
                %g = arith.addi %base, %j : index
                %stage = arith.remui %g, %c2 : index
                croq.event.wait %kempty[%stage] : !croq.events<2>
                %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
                %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
                %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
                croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
                croq.event.wait %vempty[%stage] : !croq.events<2>
                %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
                %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
                %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
                croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
              }
              %next = arith.addi %base, %tiles : index
              scf.yield %next : index
            }
            scf.yield %after : index
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
          // Q rows of the block's first item.
          %bh_f = arith.divui %bid, %half_q : index
          %pi_f = arith.remui %bid, %half_q : index
          %mirror_f = arith.subi %last_q, %pi_f : index
          %q_row2_f = arith.muli %mirror_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 128] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x128xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0, %pair_par = %c0) -> (index, index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after:2 = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base, %par = %pair_par) -> (index, index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              %last = arith.subi %tiles, %c1 : index
              %row_block = arith.addi %q_block, %half : index
              %q_base = arith.muli %row_block, %c64 : index
              %q_end = arith.addi %q_base, %c1 : index
              // Q rows of the block's next item, into the other slot.
              %in_first = arith.cmpi eq, %which, %c0 : index
              %to_twin = arith.andi %in_first, %twins : i1
              %pair_n = arith.addi %pair, %grid : index
              %more_pairs = arith.cmpi ult, %pair_n, %pairs : index
              %has_next = arith.ori %to_twin, %more_pairs : i1
              %npar = arith.subi %c1, %par : index
              scf.if %has_next {
                // The pair's second item, or the next pair's first.
                %bh_p = arith.divui %pair_n, %half_q : index
                %pi_p = arith.remui %pair_n, %half_q : index
                %mirror_p = arith.subi %last_q, %pi_p : index
                %bh_n = arith.select %to_twin, %bh, %bh_p : index
                %bq_n = arith.select %to_twin, %pi, %mirror_p : index
                %nslot2 = arith.muli %npar, %c2 : index
                %nslot = arith.addi %nslot2, %half : index
                %q_row2_n = arith.muli %bq_n, %c2 : index
                %q_row_n = arith.addi %q_row2_n, %half : index
                %qv_n = croq.subspan %q [1, 64, 128] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt0 = arith.cmpi eq, %c0, %last : index
              %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %c0, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
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
                // Only the last key tile has keys past the end or past the diagonal.
                %is_lastt = arith.cmpi eq, %j, %last : index
                %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                  // Key key_base + col is inside where col < limit, in i32 (the
                  // row's limit computed once a row).
                  %key_base = arith.muli %j, %c128 : index
                  %in_tile = arith.subi %keys, %key_base : index
                  %end_limit = arith.index_cast %in_tile : index to i32
                  // Causal: query q_base + row sees keys up to its own index.
                  %diag = arith.subi %q_end, %key_base : index
                  %diag_limit = arith.index_cast %diag : index to i32
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
                  croq.yield %n : f32
                }
                // P = exp2(S * scale - m): one fma and one ex2 an element.
                %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                  %d = math.fma %x, %scale, %nm : f32
                  %e = math.exp2 %d fastmath<afn> : f32
                  croq.yield %e : f32
                }
                %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
                %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                  %d = arith.subf %a, %b : f32
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
                croq.yield %r : f32
              }
              %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %r : f32
                croq.yield %y : f32
              }
              // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
              %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %lg = math.log2 %b : f32
                %sum = arith.addf %a, %lg : f32
                %nat = arith.mulf %sum, %ln2 : f32
                croq.yield %nat : f32
              }
              %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
              croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
              // Stored by TMA, which leaves out rows past the sequence's end; the
              // next item's croq.mma.store into the tile waits until it is read.
              croq.mma.store %o -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
              %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
              %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
              %next = arith.addi %base, %tiles : index
              scf.yield %next, %npar : index, index
            }
            scf.yield %after#0, %after#1 : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  }
  return
}

// dQ and delta_causal_bf16.
func.func @attention_bwd_dq_causal_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %o: memref<?x?x?xbf16>, %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<2>
    %kempty = croq.event.alloc ready : !croq.events<2>
    %vfull = croq.event.alloc : !croq.events<2>
    %vempty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    // Longest items first: query block grid_q - 1 - bid / heads.
    %level = arith.divui %bid, %heads : index
    %bh = arith.remui %bid, %heads : index
    %last_q = arith.subi %grid_q, %c1 : index
    %bq = arith.subi %last_q, %level : index
    %diagonal = arith.addi %bq, %c1 : index
    %tiles = arith.minui %all_tiles, %diagonal : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kempty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
          croq.event.wait %vempty[%stage] : !croq.events<2>
          %vv = croq.subspan %v [1, 128, 128] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        %q_base = arith.muli %row_block, %c64 : index
        %q_end = arith.addi %q_base, %c1 : index
        %dq0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x128xf32>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %kfull[%stage] : !croq.events<2>
          croq.event.wait %vfull[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end or past the diagonal.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
            %end_limit = arith.index_cast %in_tile : index to i32
            // Causal: query q_base + row sees keys up to its own index.
            %diag = arith.subi %q_end, %key_base : index
            %diag_limit = arith.index_cast %diag : index to i32
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<2>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x128xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<2>
          scf.yield %dqc : !croq.acc<64x128xf32>
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// dK and dV_causal_bf16.
func.func @attention_bwd_dkdv_causal_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.muli %kb, %c2 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c64 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x64xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x64xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x64xf32>
          } else {
            scf.yield %st : !croq.acc<64x64xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x128xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          scf.yield %dvw, %dkc : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_causal_bf16.
func.func @attention_bwd_dkdvdq_causal_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.muli %kb, %c2 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 128] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 128] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 128] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 128] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x128xf32>, !croq.acc<64x128xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x128xbf16>, !croq.frag<64x128xbf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c64 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x64xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x64xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x64xf32>
          } else {
            scf.yield %st : !croq.acc<64x64xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x128xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x128xbf16> -> !croq.acc<64x128xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x128xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 64] at [%c0, %half] : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.view<64x64xbf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 64] at [%c0, %half] : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.view<64x64xbf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x128xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x128xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 4096 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x64xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x64xf32> -> !croq.tile<64x64xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [4096] at [%counter_] : memref<?xf32> -> !croq.view<4096xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x64xf32, shared, swizzle = 128> -> !croq.view<4096xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x128xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
        %dvv = croq.subspan %dv [1, 64, 128] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// The training forward_causal_d64_f16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_causal_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
  %last_q = arith.subi %grid_q, %c1 : index
  // Pairs: query blocks i and grid_q - 1 - i of a head (the middle
  // block of an odd grid_q alone).
  %half_q = arith.ceildivui %grid_q, %c2 : index
  %pairs = arith.muli %heads, %half_q : index
  // The middle block of an odd grid_q is a pair of half the weight,
  // every half_q-th pair. Walked by a number of blocks that half_q
  // divides (132 for 2, 3, 4, 6, ...), every block would take
  // the same place in its heads' pairs at every step: some only
  // middles, the others none. 131 blocks, a prime, mix them.
  %q_parity = arith.andi %grid_q, %c1 : index
  %odd_q = arith.cmpi ne, %q_parity, %c0 : index
  %c131 = arith.constant 131 : index
  %pair_blocks = arith.select %odd_q, %c131, %c132 : index
  // Where the pairs fill less than 90% of their waves of blocks
  // (10 pairs < 9 slots) and the keys and values of all heads take
  // 64 MiB or less, single items in snake order instead.
  %waves = arith.ceildivui %pairs, %pair_blocks : index
  %slots = arith.muli %waves, %pair_blocks : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %pairs10 = arith.muli %pairs, %c10 : index
  %slots9 = arith.muli %slots, %c9 : index
  %uneven = arith.cmpi ult, %pairs10, %slots9 : index
  %kv_row = arith.constant 256 : index
  %kv_head = arith.muli %keys, %kv_row : index
  %kv_bytes = arith.muli %kv_heads, %kv_head : index
  %kv_l2 = arith.constant 67108864 : index
  %fits = arith.cmpi ule, %kv_bytes, %kv_l2 : index
  %snake = arith.andi %uneven, %fits : i1
  scf.if %snake {
    %grid = arith.minui %singles, %c132 : index
    // Full rounds of one item per block, then the first %rest blocks
    // of the last round's order.
    %rounds = arith.divui %singles, %grid : index
    %rest = arith.remui %singles, %grid : index
    %last_round = arith.andi %rounds, %c1 : index
    %last_odd = arith.cmpi ne, %last_round, %c0 : index
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
      // The block's place in odd rounds, and its item count.
      %grid_end = arith.subi %grid, %c1 : index
      %mirror_bid = arith.subi %grid_end, %bid : index
      %last_pos = arith.select %last_odd, %mirror_bid, %bid : index
      %in_last = arith.cmpi ult, %last_pos, %rest : index
      %extra = arith.select %in_last, %c1, %c0 : index
      %my_items = arith.addi %rounds, %extra : index
      croq.parallel (%p) in [3] : warpgroup {
        %is_producer = arith.cmpi eq, %p, %c0 : index
        %is_consumer = arith.cmpi ne, %p, %c0 : index
        %is_c0 = arith.cmpi eq, %p, %c1 : index
        croq.inthreads async %is_producer {
          // %base: the ring position of the item's first key tile.
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0) -> (index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
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
          // Q rows of the block's first item.
          // Item rank of the longest-first order: query block
          // grid_q - 1 - rank / heads of head rank % heads.
          %parity_f = arith.andi %c0, %c1 : index
          %odd_f = arith.cmpi ne, %parity_f, %c0 : index
          %pos_f = arith.select %odd_f, %mirror_bid, %bid : index
          %round_start_f = arith.muli %c0, %grid : index
          %rank_f = arith.addi %round_start_f, %pos_f : index
          %level_f = arith.divui %rank_f, %heads : index
          %bh_f = arith.remui %rank_f, %heads : index
          %bq_f = arith.subi %last_q, %level_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 64] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0, %par = %c0) -> (index, index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            %q_end = arith.addi %q_base, %c1 : index
            // Q rows of the block's next item, into the other slot.
            %round_n = arith.addi %round, %c1 : index
            %has_next = arith.cmpi ult, %round_n, %my_items : index
            %npar = arith.subi %c1, %par : index
            scf.if %has_next {
              // Item rank of the longest-first order: query block
              // grid_q - 1 - rank / heads of head rank % heads.
              %parity_n = arith.andi %round_n, %c1 : index
              %odd_n = arith.cmpi ne, %parity_n, %c0 : index
              %pos_n = arith.select %odd_n, %mirror_bid, %bid : index
              %round_start_n = arith.muli %round_n, %grid : index
              %rank_n = arith.addi %round_start_n, %pos_n : index
              %level_n = arith.divui %rank_n, %heads : index
              %bh_n = arith.remui %rank_n, %heads : index
              %bq_n = arith.subi %last_q, %level_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %qv_n = croq.subspan %q [1, 64, 64] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
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
            // Only the last key tile has keys past the end or past the diagonal.
            %is_lastt0 = arith.cmpi eq, %c0, %last : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Causal: query q_base + row sees keys up to its own index.
              %diag = arith.subi %q_end, %key_base : index
              %diag_limit = arith.index_cast %diag : index to i32
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
              croq.yield %n : f32
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt = arith.cmpi eq, %j, %last : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %d = arith.subf %a, %b : f32
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
              croq.yield %r : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
            %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %lg = math.log2 %b : f32
              %sum = arith.addf %a, %lg : f32
              %nat = arith.mulf %sum, %ln2 : f32
              croq.yield %nat : f32
            }
            %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
            croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
            // Stored by TMA, which leaves out rows past the sequence's end; the
            // next item's croq.mma.store into the tile waits until it is read.
            croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
            %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
            %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  } else {
    %grid = arith.minui %pairs, %pair_blocks : index
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
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0) -> (index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base) -> (index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              // The K/V head of query head %bh (grouped-query attention).
              %bkv = arith.divui %bh, %group : index
              scf.for %j = %c0 to %tiles step %c1 {
                %g = arith.addi %base, %j : index
                %stage = arith.remui %g, %c2 : index
                croq.event.wait %kempty[%stage] : !croq.events<2>
                %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
                %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
                %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
                croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
                croq.event.wait %vempty[%stage] : !croq.events<2>
                %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
                %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
                %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
                croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
              }
              %next = arith.addi %base, %tiles : index
              scf.yield %next : index
            }
            scf.yield %after : index
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
          // Q rows of the block's first item.
          %bh_f = arith.divui %bid, %half_q : index
          %pi_f = arith.remui %bid, %half_q : index
          %mirror_f = arith.subi %last_q, %pi_f : index
          %q_row2_f = arith.muli %mirror_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 64] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0, %pair_par = %c0) -> (index, index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after:2 = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base, %par = %pair_par) -> (index, index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              %last = arith.subi %tiles, %c1 : index
              %row_block = arith.addi %q_block, %half : index
              %q_base = arith.muli %row_block, %c64 : index
              %q_end = arith.addi %q_base, %c1 : index
              // Q rows of the block's next item, into the other slot.
              %in_first = arith.cmpi eq, %which, %c0 : index
              %to_twin = arith.andi %in_first, %twins : i1
              %pair_n = arith.addi %pair, %grid : index
              %more_pairs = arith.cmpi ult, %pair_n, %pairs : index
              %has_next = arith.ori %to_twin, %more_pairs : i1
              %npar = arith.subi %c1, %par : index
              scf.if %has_next {
                // The pair's second item, or the next pair's first.
                %bh_p = arith.divui %pair_n, %half_q : index
                %pi_p = arith.remui %pair_n, %half_q : index
                %mirror_p = arith.subi %last_q, %pi_p : index
                %bh_n = arith.select %to_twin, %bh, %bh_p : index
                %bq_n = arith.select %to_twin, %pi, %mirror_p : index
                %nslot2 = arith.muli %npar, %c2 : index
                %nslot = arith.addi %nslot2, %half : index
                %q_row2_n = arith.muli %bq_n, %c2 : index
                %q_row_n = arith.addi %q_row2_n, %half : index
                %qv_n = croq.subspan %q [1, 64, 64] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt0 = arith.cmpi eq, %c0, %last : index
              %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %c0, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
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
                // Only the last key tile has keys past the end or past the diagonal.
                %is_lastt = arith.cmpi eq, %j, %last : index
                %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                  // Key key_base + col is inside where col < limit, in i32 (the
                  // row's limit computed once a row).
                  %key_base = arith.muli %j, %c128 : index
                  %in_tile = arith.subi %keys, %key_base : index
                  %end_limit = arith.index_cast %in_tile : index to i32
                  // Causal: query q_base + row sees keys up to its own index.
                  %diag = arith.subi %q_end, %key_base : index
                  %diag_limit = arith.index_cast %diag : index to i32
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
                  croq.yield %n : f32
                }
                // P = exp2(S * scale - m): one fma and one ex2 an element.
                %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                  %d = math.fma %x, %scale, %nm : f32
                  %e = math.exp2 %d fastmath<afn> : f32
                  croq.yield %e : f32
                }
                %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
                %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                  %d = arith.subf %a, %b : f32
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
                croq.yield %r : f32
              }
              %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %r : f32
                croq.yield %y : f32
              }
              // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
              %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %lg = math.log2 %b : f32
                %sum = arith.addf %a, %lg : f32
                %nat = arith.mulf %sum, %ln2 : f32
                croq.yield %nat : f32
              }
              %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
              croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
              // Stored by TMA, which leaves out rows past the sequence's end; the
              // next item's croq.mma.store into the tile waits until it is read.
              croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
              %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
              %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
              %next = arith.addi %base, %tiles : index
              scf.yield %next, %npar : index, index
            }
            scf.yield %after#0, %after#1 : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  }
  return
}

// dQ and delta_causal_d64_f16.
func.func @attention_bwd_dq_causal_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %o: memref<?x?x?xf16>, %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
    // Longest items first: query block grid_q - 1 - bid / heads.
    %level = arith.divui %bid, %heads : index
    %bh = arith.remui %bid, %heads : index
    %last_q = arith.subi %grid_q, %c1 : index
    %bq = arith.subi %last_q, %level : index
    %diagonal = arith.addi %bq, %c1 : index
    %tiles = arith.minui %all_tiles, %diagonal : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kempty[%stage] : !croq.events<3>
          %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
          croq.event.wait %vempty[%stage] : !croq.events<3>
          %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        %q_base = arith.muli %row_block, %c64 : index
        %q_end = arith.addi %q_base, %c1 : index
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x64xf32>) {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kfull[%stage] : !croq.events<3>
          croq.event.wait %vfull[%stage] : !croq.events<3>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end or past the diagonal.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
            %end_limit = arith.index_cast %in_tile : index to i32
            // Causal: query q_base + row sees keys up to its own index.
            %diag = arith.subi %q_end, %key_base : index
            %diag_limit = arith.index_cast %diag : index to i32
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<3>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x64xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<3>
          scf.yield %dqc : !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// dK and dV_causal_d64_f16.
func.func @attention_bwd_dkdv_causal_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c128 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x128xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x128xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.addi %kb, %c0 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          %dltv = croq.subspan %delta [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c128 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x128xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x128xf32>
          } else {
            scf.yield %st : !croq.acc<64x128xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x128xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          scf.yield %dvw, %dkc : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_causal_d64_f16.
func.func @attention_bwd_dkdvdq_causal_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>, %v: memref<?x?x?xf16>,
    %do: memref<?x?x?xf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xf16>,
    %dv: memref<?x?x?xf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.muli %kb, %c2 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xf16>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c64 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x64xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x64xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x64xf32>
          } else {
            scf.yield %st : !croq.acc<64x64xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xf16, registers>, !croq.frag<64x64xf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x64xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x32xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 32] at [%c0, %half] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x32xf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x32xf16, shared, swizzle = 128> -> !croq.frag<64x32xf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xf16>, !croq.frag<64x32xf16> -> !croq.acc<64x32xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 32] at [%c0, %half] : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.view<64x32xf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x32xf16, shared, swizzle = 128> -> !croq.frag<64x32xf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xf16>, !croq.frag<64x32xf16> -> !croq.acc<64x32xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x32xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 2048 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x32xf32> -> !croq.tile<64x32xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [2048] at [%counter_] : memref<?xf32> -> !croq.view<2048xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x32xf32, shared, swizzle = 128> -> !croq.view<2048xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// The training forward_causal_d64_bf16: flash_attention.mlir's, and the log-sum-exp.
func.func @attention_lse_causal_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %lse: memref<?x?xf32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c132 = arith.constant 132 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call and refuses its launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %kv_heads : index to i64
  %operand0 = arith.constant 2 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %keys : index to i64
  %operand1 = arith.constant 2 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %out, %c0 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %heads : index to i64
  %operand2 = arith.constant 3 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %out, %c1 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %seq : index to i64
  %operand3 = arith.constant 3 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %heads : index to i64
  %operand4 = arith.constant 4 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %seq : index to i64
  %operand5 = arith.constant 4 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  // Each K/V head serves %group query heads (1 without grouping); no
  // division by zero where K has no heads (the check failed then).
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %grid_q = arith.ceildivui %seq, %c128 : index
  // At least one key tile, so that no consumer ever waits for a tile the
  // producer does not load.
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  // exp(x * sm_scale) = exp2(x * scale).
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %ln2 = arith.constant 0.693147181 : f32
  // Work items: 128 query rows of one head; one block per SM walks them.
  %singles = arith.muli %heads, %grid_q : index
  %last_q = arith.subi %grid_q, %c1 : index
  // Pairs: query blocks i and grid_q - 1 - i of a head (the middle
  // block of an odd grid_q alone).
  %half_q = arith.ceildivui %grid_q, %c2 : index
  %pairs = arith.muli %heads, %half_q : index
  // The middle block of an odd grid_q is a pair of half the weight,
  // every half_q-th pair. Walked by a number of blocks that half_q
  // divides (132 for 2, 3, 4, 6, ...), every block would take
  // the same place in its heads' pairs at every step: some only
  // middles, the others none. 131 blocks, a prime, mix them.
  %q_parity = arith.andi %grid_q, %c1 : index
  %odd_q = arith.cmpi ne, %q_parity, %c0 : index
  %c131 = arith.constant 131 : index
  %pair_blocks = arith.select %odd_q, %c131, %c132 : index
  // Where the pairs fill less than 90% of their waves of blocks
  // (10 pairs < 9 slots) and the keys and values of all heads take
  // 64 MiB or less, single items in snake order instead.
  %waves = arith.ceildivui %pairs, %pair_blocks : index
  %slots = arith.muli %waves, %pair_blocks : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %pairs10 = arith.muli %pairs, %c10 : index
  %slots9 = arith.muli %slots, %c9 : index
  %uneven = arith.cmpi ult, %pairs10, %slots9 : index
  %kv_row = arith.constant 256 : index
  %kv_head = arith.muli %keys, %kv_row : index
  %kv_bytes = arith.muli %kv_heads, %kv_head : index
  %kv_l2 = arith.constant 67108864 : index
  %fits = arith.cmpi ule, %kv_bytes, %kv_l2 : index
  %snake = arith.andi %uneven, %fits : i1
  scf.if %snake {
    %grid = arith.minui %singles, %c132 : index
    // Full rounds of one item per block, then the first %rest blocks
    // of the last round's order.
    %rounds = arith.divui %singles, %grid : index
    %rest = arith.remui %singles, %grid : index
    %last_round = arith.andi %rounds, %c1 : index
    %last_odd = arith.cmpi ne, %last_round, %c0 : index
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
      // The block's place in odd rounds, and its item count.
      %grid_end = arith.subi %grid, %c1 : index
      %mirror_bid = arith.subi %grid_end, %bid : index
      %last_pos = arith.select %last_odd, %mirror_bid, %bid : index
      %in_last = arith.cmpi ult, %last_pos, %rest : index
      %extra = arith.select %in_last, %c1, %c0 : index
      %my_items = arith.addi %rounds, %extra : index
      croq.parallel (%p) in [3] : warpgroup {
        %is_producer = arith.cmpi eq, %p, %c0 : index
        %is_consumer = arith.cmpi ne, %p, %c0 : index
        %is_c0 = arith.cmpi eq, %p, %c1 : index
        croq.inthreads async %is_producer {
          // %base: the ring position of the item's first key tile.
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0) -> (index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            // The K/V head of query head %bh (grouped-query attention).
            %bkv = arith.divui %bh, %group : index
            scf.for %j = %c0 to %tiles step %c1 {
              %g = arith.addi %base, %j : index
              %stage = arith.remui %g, %c2 : index
              croq.event.wait %kempty[%stage] : !croq.events<2>
              %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
              %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
              croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
              croq.event.wait %vempty[%stage] : !croq.events<2>
              %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
              %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
              %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
              croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
            }
            %next = arith.addi %base, %tiles : index
            scf.yield %next : index
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
          // Q rows of the block's first item.
          // Item rank of the longest-first order: query block
          // grid_q - 1 - rank / heads of head rank % heads.
          %parity_f = arith.andi %c0, %c1 : index
          %odd_f = arith.cmpi ne, %parity_f, %c0 : index
          %pos_f = arith.select %odd_f, %mirror_bid, %bid : index
          %round_start_f = arith.muli %c0, %grid : index
          %rank_f = arith.addi %round_start_f, %pos_f : index
          %level_f = arith.divui %rank_f, %heads : index
          %bh_f = arith.remui %rank_f, %heads : index
          %bq_f = arith.subi %last_q, %level_f : index
          %q_row2_f = arith.muli %bq_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 64] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0, %par = %c0) -> (index, index) {
            // Item rank of the longest-first order: query block
            // grid_q - 1 - rank / heads of head rank % heads.
            %parity = arith.andi %round, %c1 : index
            %odd = arith.cmpi ne, %parity, %c0 : index
            %pos = arith.select %odd, %mirror_bid, %bid : index
            %round_start = arith.muli %round, %grid : index
            %rank = arith.addi %round_start, %pos : index
            %level = arith.divui %rank, %heads : index
            %bh = arith.remui %rank, %heads : index
            %bq = arith.subi %last_q, %level : index
            // Query rows 128 bq .. 128 bq + 127 see keys up to their own
            // index: the key tiles up to the diagonal.
            %diagonal = arith.addi %bq, %c1 : index
            %tiles = arith.minui %all_tiles, %diagonal : index
            %q_block = arith.muli %bq, %c2 : index
            %last = arith.subi %tiles, %c1 : index
            %row_block = arith.addi %q_block, %half : index
            %q_base = arith.muli %row_block, %c64 : index
            %q_end = arith.addi %q_base, %c1 : index
            // Q rows of the block's next item, into the other slot.
            %round_n = arith.addi %round, %c1 : index
            %has_next = arith.cmpi ult, %round_n, %my_items : index
            %npar = arith.subi %c1, %par : index
            scf.if %has_next {
              // Item rank of the longest-first order: query block
              // grid_q - 1 - rank / heads of head rank % heads.
              %parity_n = arith.andi %round_n, %c1 : index
              %odd_n = arith.cmpi ne, %parity_n, %c0 : index
              %pos_n = arith.select %odd_n, %mirror_bid, %bid : index
              %round_start_n = arith.muli %round_n, %grid : index
              %rank_n = arith.addi %round_start_n, %pos_n : index
              %level_n = arith.divui %rank_n, %heads : index
              %bh_n = arith.remui %rank_n, %heads : index
              %bq_n = arith.subi %last_q, %level_n : index
              %nslot2 = arith.muli %npar, %c2 : index
              %nslot = arith.addi %nslot2, %half : index
              %q_row2_n = arith.muli %bq_n, %c2 : index
              %q_row_n = arith.addi %q_row2_n, %half : index
              %qv_n = croq.subspan %q [1, 64, 64] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
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
            // Only the last key tile has keys past the end or past the diagonal.
            %is_lastt0 = arith.cmpi eq, %c0, %last : index
            %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
              // Key key_base + col is inside where col < limit, in i32 (the
              // row's limit computed once a row).
              %key_base = arith.muli %c0, %c128 : index
              %in_tile = arith.subi %keys, %key_base : index
              %end_limit = arith.index_cast %in_tile : index to i32
              // Causal: query q_base + row sees keys up to its own index.
              %diag = arith.subi %q_end, %key_base : index
              %diag_limit = arith.index_cast %diag : index to i32
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
              croq.yield %n : f32
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt = arith.cmpi eq, %j, %last : index
              %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %j, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
              }
              // P = exp2(S * scale - m): one fma and one ex2 an element.
              %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                %d = math.fma %x, %scale, %nm : f32
                %e = math.exp2 %d fastmath<afn> : f32
                croq.yield %e : f32
              }
              %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
              %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %d = arith.subf %a, %b : f32
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
              croq.yield %r : f32
            }
            %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
              %y = arith.mulf %x, %r : f32
              croq.yield %y : f32
            }
            // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
            %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
              %lg = math.log2 %b : f32
              %sum = arith.addf %a, %lg : f32
              %nat = arith.mulf %sum, %ln2 : f32
              croq.yield %nat : f32
            }
            %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
            croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
            // Stored by TMA, which leaves out rows past the sequence's end; the
            // next item's croq.mma.store into the tile waits until it is read.
            croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
            %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
            %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
            %next = arith.addi %base, %tiles : index
            scf.yield %next, %npar : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  } else {
    %grid = arith.minui %pairs, %pair_blocks : index
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
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0) -> (index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base) -> (index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              // The K/V head of query head %bh (grouped-query attention).
              %bkv = arith.divui %bh, %group : index
              scf.for %j = %c0 to %tiles step %c1 {
                %g = arith.addi %base, %j : index
                %stage = arith.remui %g, %c2 : index
                croq.event.wait %kempty[%stage] : !croq.events<2>
                %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
                %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
                %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
                croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<2>
                croq.event.wait %vempty[%stage] : !croq.events<2>
                %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
                %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
                %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
                croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<2>
              }
              %next = arith.addi %base, %tiles : index
              scf.yield %next : index
            }
            scf.yield %after : index
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
          // Q rows of the block's first item.
          %bh_f = arith.divui %bid, %half_q : index
          %pi_f = arith.remui %bid, %half_q : index
          %mirror_f = arith.subi %last_q, %pi_f : index
          %q_row2_f = arith.muli %mirror_f, %c2 : index
          %q_row_f = arith.addi %q_row2_f, %half : index
          %qv_f = croq.subspan %q [1, 64, 64] at [%bh_f, %q_row_f, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qs_f = croq.stage %q_s[%half] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %fq_f = croq.copy tma async zfill swizzle = 128 %qv_f -> %qs_f : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          croq.event.trigger %qready[%half] after (%fq_f) : !croq.events<4>
          // Consumer c waits for its turn at named barrier c and hands
          // the turn to the other; consumer 0 goes first.
          %turn_mine = arith.select %is_c0, %c0, %c1 : index
          %turn_other = arith.select %is_c0, %c1, %c0 : index
          scf.if %is_c0 {
          } else {
            croq.named_barrier.arrive %c0, threads = 256
          }
          %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0, %pair_par = %c0) -> (index, index) {
            %bh = arith.divui %pair, %half_q : index
            %pi = arith.remui %pair, %half_q : index
            %mirror = arith.subi %last_q, %pi : index
            %twins = arith.cmpi ne, %pi, %mirror : index
            %in_pair = arith.select %twins, %c2, %c1 : index
            // The longer item of the pair first.
            %after:2 = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base, %par = %pair_par) -> (index, index) {
              %first = arith.cmpi eq, %which, %c0 : index
              %bq = arith.select %first, %mirror, %pi : index
              // Query rows 128 bq .. 128 bq + 127 see keys up to their own
              // index: the key tiles up to the diagonal.
              %diagonal = arith.addi %bq, %c1 : index
              %tiles = arith.minui %all_tiles, %diagonal : index
              %q_block = arith.muli %bq, %c2 : index
              %last = arith.subi %tiles, %c1 : index
              %row_block = arith.addi %q_block, %half : index
              %q_base = arith.muli %row_block, %c64 : index
              %q_end = arith.addi %q_base, %c1 : index
              // Q rows of the block's next item, into the other slot.
              %in_first = arith.cmpi eq, %which, %c0 : index
              %to_twin = arith.andi %in_first, %twins : i1
              %pair_n = arith.addi %pair, %grid : index
              %more_pairs = arith.cmpi ult, %pair_n, %pairs : index
              %has_next = arith.ori %to_twin, %more_pairs : i1
              %npar = arith.subi %c1, %par : index
              scf.if %has_next {
                // The pair's second item, or the next pair's first.
                %bh_p = arith.divui %pair_n, %half_q : index
                %pi_p = arith.remui %pair_n, %half_q : index
                %mirror_p = arith.subi %last_q, %pi_p : index
                %bh_n = arith.select %to_twin, %bh, %bh_p : index
                %bq_n = arith.select %to_twin, %pi, %mirror_p : index
                %nslot2 = arith.muli %npar, %c2 : index
                %nslot = arith.addi %nslot2, %half : index
                %q_row2_n = arith.muli %bq_n, %c2 : index
                %q_row_n = arith.addi %q_row2_n, %half : index
                %qv_n = croq.subspan %q [1, 64, 64] at [%bh_n, %q_row_n, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
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
              // Only the last key tile has keys past the end or past the diagonal.
              %is_lastt0 = arith.cmpi eq, %c0, %last : index
              %t0 = scf.if %is_lastt0 -> (!croq.acc<64x128xf32>) {
                // Key key_base + col is inside where col < limit, in i32 (the
                // row's limit computed once a row).
                %key_base = arith.muli %c0, %c128 : index
                %in_tile = arith.subi %keys, %key_base : index
                %end_limit = arith.index_cast %in_tile : index to i32
                // Causal: query q_base + row sees keys up to its own index.
                %diag = arith.subi %q_end, %key_base : index
                %diag_limit = arith.index_cast %diag : index to i32
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
                croq.yield %n : f32
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
                // Only the last key tile has keys past the end or past the diagonal.
                %is_lastt = arith.cmpi eq, %j, %last : index
                %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
                  // Key key_base + col is inside where col < limit, in i32 (the
                  // row's limit computed once a row).
                  %key_base = arith.muli %j, %c128 : index
                  %in_tile = arith.subi %keys, %key_base : index
                  %end_limit = arith.index_cast %in_tile : index to i32
                  // Causal: query q_base + row sees keys up to its own index.
                  %diag = arith.subi %q_end, %key_base : index
                  %diag_limit = arith.index_cast %diag : index to i32
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
                  croq.yield %n : f32
                }
                // P = exp2(S * scale - m): one fma and one ex2 an element.
                %pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
                  %d = math.fma %x, %scale, %nm : f32
                  %e = math.exp2 %d fastmath<afn> : f32
                  croq.yield %e : f32
                }
                %ls = croq.mma.reduce sum %pm : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
                %alpha = croq.vec.map %m, %mn (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                  %d = arith.subf %a, %b : f32
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
                croq.yield %r : f32
              }
              %o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
                %y = arith.mulf %x, %r : f32
                croq.yield %y : f32
              }
              // The row's log-sum-exp for the backward: (m + log2 l) ln 2.
              %lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
                %lg = math.log2 %b : f32
                %sum = arith.addf %a, %lg : f32
                %nat = arith.mulf %sum, %ln2 : f32
                croq.yield %nat : f32
              }
              %lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
              croq.vec.store %lse_rows -> %lse_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
              // Stored by TMA, which leaves out rows past the sequence's end; the
              // next item's croq.mma.store into the tile waits until it is read.
              croq.mma.store %o -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
              %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
              %stored = croq.copy tma async swizzle = 128 %ot -> %ov : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
              %next = arith.addi %base, %tiles : index
              scf.yield %next, %npar : index, index
            }
            scf.yield %after#0, %after#1 : index, index
          }
          // Consumer 1's last hand-over, so that no arrival outlives the
          // block.
          scf.if %is_c0 {
            croq.named_barrier.sync %c0, threads = 256
          }
        }
      }
    }
  }
  return
}

// dQ and delta_causal_d64_bf16.
func.func @attention_bwd_dq_causal_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %o: memref<?x?x?xbf16>, %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>,
    %dq: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %o, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 3 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %o, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 3 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %o, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 3 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 5 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 5 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %cD : index to i64
  %operand14 = arith.constant 5 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %heads : index to i64
  %operand15 = arith.constant 4 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %seq : index to i64
  %operand16 = arith.constant 4 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %heads : index to i64
  %operand17 = arith.constant 9 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %seq : index to i64
  %operand18 = arith.constant 9 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dq, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %heads : index to i64
  %operand19 = arith.constant 6 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dq, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %seq : index to i64
  %operand20 = arith.constant 6 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dq, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 6 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_q = arith.ceildivui %seq, %c128 : index
  %key_tiles = arith.ceildivui %keys, %c128 : index
  %all_tiles = arith.maxui %key_tiles, %c1 : index
  %key_tail = arith.remui %keys, %c128 : index
  %ragged = arith.cmpi ne, %key_tail, %c0 : index
  // One block for 128 query rows of a head.
  %items = arith.muli %heads, %grid_q : index
  croq.parallel (%bid) in [%items] : block {
    %rready = croq.event.alloc : !croq.events<2>
    %kfull = croq.event.alloc : !croq.events<3>
    %kempty = croq.event.alloc ready : !croq.events<3>
    %vfull = croq.event.alloc : !croq.events<3>
    %vempty = croq.event.alloc ready : !croq.events<3>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %o_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
    // Longest items first: query block grid_q - 1 - bid / heads.
    %level = arith.divui %bid, %heads : index
    %bh = arith.remui %bid, %heads : index
    %last_q = arith.subi %grid_q, %c1 : index
    %bq = arith.subi %last_q, %level : index
    %diagonal = arith.addi %bq, %c1 : index
    %tiles = arith.minui %all_tiles, %diagonal : index
    %last = arith.subi %tiles, %c1 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %bkv = arith.divui %bh, %group : index
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kempty[%stage] : !croq.events<3>
          %kv = croq.subspan %k [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          croq.event.trigger %kfull[%stage] after (%fk) : !croq.events<3>
          croq.event.wait %vempty[%stage] : !croq.events<3>
          %vv = croq.subspan %v [1, 128, 64] at [%bkv, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          croq.event.trigger %vfull[%stage] after (%fv) : !croq.events<3>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %c7_i32 = arith.constant 7 : i32
        %cm8_i32 = arith.constant -8 : i32
        %q2x = arith.muli %bq, %c2 : index
        %row_block = arith.addi %q2x, %half : index
        %qv = croq.subspan %q [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %dov = croq.subspan %do [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %dot = croq.stage %do_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %ov = croq.subspan %o [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %ot = croq.stage %o_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fo = croq.copy tma async zfill swizzle = 128 %ov -> %ot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %rready[%half] after (%fq, %fdo, %fo) : !croq.events<2>
        croq.event.wait %rready[%half] : !croq.events<2>
        %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %do2 = croq.span_as %dot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %doa = croq.mma.load %do2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %o2 = croq.span_as %ot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %oa = croq.mma.load %o2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        // delta = rowsum(dO * O): the diagonal of dO O^T.
        %dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dd1 = croq.mma row row %dd0, %doa, %oa : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
        %dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>
        %ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {
          %on = arith.cmpi eq, %row, %col : index
          %y = arith.select %on, %x, %zero : f32
          croq.yield %y : f32
        }
        %dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> !croq.vec<64xf32, rows>
        %dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        croq.vec.store %dlt -> %dlt_v : !croq.vec<64xf32, rows> -> !croq.view<1x64xf32>
        %lse2_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>
        %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, rows> {
          %x = croq.read %lse2_v[%c0, %ix] : !croq.view<1x64xf32>
          %y = arith.mulf %x, %log2e : f32
          croq.yield %y : f32
        }
        %nlse = croq.vec.map %lse2 (%i, %a) : !croq.vec<64xf32, rows> {
          %n = arith.negf %a : f32
          croq.yield %n : f32
        }
        %q_base = arith.muli %row_block, %c64 : index
        %q_end = arith.addi %q_base, %c1 : index
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %dq0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> (!croq.acc<64x64xf32>) {
          %stage = arith.remui %j, %c3 : index
          croq.event.wait %kfull[%stage] : !croq.events<3>
          croq.event.wait %vfull[%stage] : !croq.events<3>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<3 x 1x128x64xbf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %qa, %kb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %doa, %vb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %s = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the last key tile has keys past the end or past the diagonal.
          %is_lastt = arith.cmpi eq, %j, %last : index
          %t = scf.if %is_lastt -> (!croq.acc<64x128xf32>) {
            // Key key_base + col is inside where col < limit, in i32 (the
            // row's limit computed once a row).
            %key_base = arith.muli %j, %c128 : index
            %in_tile = arith.subi %keys, %key_base : index
            %end_limit = arith.index_cast %in_tile : index to i32
            // Causal: query q_base + row sees keys up to its own index.
            %diag = arith.subi %q_end, %key_base : index
            %diag_limit = arith.index_cast %diag : index to i32
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
          %pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %dp = croq.mma.wait %dpc : !croq.acc<64x128xf32>
          croq.event.trigger %vempty[%stage] : !croq.events<3>
          %ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %y, %dl : f32
            %g = arith.mulf %x, %d : f32
            croq.yield %g : f32
          }
          %dsf = croq.mma.convert %ds : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dq1 = croq.mma row col %acc, %dsf, %kb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
          %dqc = croq.mma.commit %dq1 : !croq.acc<64x64xf32>
          croq.event.trigger %kempty[%stage] : !croq.events<3>
          scf.yield %dqc : !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dqs = croq.mma.map %dqr (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        %dqv = croq.subspan %dq [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        // Through the consumer's O tile (read only for delta), by TMA.
        croq.mma.store %dqs -> %o2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
      }
    }
  }
  return
}

// dK and dV_causal_d64_bf16.
func.func @attention_bwd_dkdv_causal_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c128 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x128xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x128xf32, shared>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.addi %kb, %c0 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer registers = 24 {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 128, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x128x64xbf16> -> !croq.tile<1x128x64xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          %dltv = croq.subspan %delta [1, 128] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x128xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x128xf32> -> !croq.tile<1x128xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer registers = 240 {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        // Consumer c waits for its turn at named barrier c to issue a
        // tile's first products and hands the turn to the other, so
        // that one's exponentials run under the other's products;
        // consumer 0 goes first.
        %is_c0 = arith.cmpi eq, %half, %c0 : index
        %turn_mine = arith.select %is_c0, %c0, %c1 : index
        %turn_other = arith.select %is_c0, %c1, %c0 : index
        scf.if %is_c0 {
        } else {
          croq.named_barrier.arrive %c0, threads = 256
        }
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x128x64xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x128x64xbf16, shared, swizzle = 128> -> !croq.tile<128x64xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<128x64xbf16, shared, swizzle = 128> -> !croq.frag<128x64xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x128xf32>
          croq.named_barrier.sync %turn_mine, threads = 256
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x128xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xbf16>, !croq.frag<128x64xbf16> -> !croq.acc<64x128xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x128xf32>
          croq.named_barrier.arrive %turn_other, threads = 256
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x128xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c128 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x128xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x128xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x128xf32>
          } else {
            scf.yield %st : !croq.acc<64x128xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x128xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<128xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<128xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x128xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x128xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x128xf32>, !croq.acc<64x128xf32>, !croq.vec<128xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsf = croq.mma.convert %dst : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x64xbf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 : !croq.acc<64x64xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          scf.yield %dvw, %dkc : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        scf.if %is_c0 {
          croq.named_barrier.sync %c0, threads = 256
        }
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
      }
    }
  }
  return
}

// dK, dV and dQ's f32 sums_causal_d64_bf16.
func.func @attention_bwd_dkdvdq_causal_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>, %v: memref<?x?x?xbf16>,
    %do: memref<?x?x?xbf16>, %lse: memref<?x?xf32>, %delta: memref<?x?xf32>, %dk: memref<?x?x?xbf16>,
    %dv: memref<?x?x?xbf16>, %dq_acc: memref<?xf32>, %turns: memref<?xi32>,
    %sm_scale: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cD = arith.constant 64 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %seq_tiles = arith.ceildivui %seq, %c64 : index
  %tile_count = arith.muli %heads, %seq_tiles : index
  %turn_count = arith.muli %tile_count, %c2 : index
  %acc_rows = arith.muli %tile_count, %c64 : index
  %acc_elems = arith.muli %acc_rows, %cD : index
  %kv_heads = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  // The operands' extents, checked before anything runs: a failed
  // check fails the call, naming the operand, and refuses its
  // launches.
  %check_attention = arith.constant 7 : i32
  %x0 = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %x0_i64 = arith.index_cast %x0 : index to i64
  %want0_i64 = arith.index_cast %heads : index to i64
  %operand0 = arith.constant 0 : i32
  %ok0 = func.call @croqRtRequireEqualExtents(%x0_i64, %want0_i64, %check_attention, %operand0) : (i64, i64, i32, i32) -> i32
  %x1 = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %x1_i64 = arith.index_cast %x1 : index to i64
  %want1_i64 = arith.index_cast %seq : index to i64
  %operand1 = arith.constant 0 : i32
  %ok1 = func.call @croqRtRequireEqualExtents(%x1_i64, %want1_i64, %check_attention, %operand1) : (i64, i64, i32, i32) -> i32
  %x2 = memref.dim %q, %c2 : memref<?x?x?xbf16>
  %x2_i64 = arith.index_cast %x2 : index to i64
  %want2_i64 = arith.index_cast %cD : index to i64
  %operand2 = arith.constant 0 : i32
  %ok2 = func.call @croqRtRequireEqualExtents(%x2_i64, %want2_i64, %check_attention, %operand2) : (i64, i64, i32, i32) -> i32
  %x3 = memref.dim %k, %c0 : memref<?x?x?xbf16>
  %x3_i64 = arith.index_cast %x3 : index to i64
  %want3_i64 = arith.index_cast %kv_heads : index to i64
  %operand3 = arith.constant 1 : i32
  %ok3 = func.call @croqRtRequireEqualExtents(%x3_i64, %want3_i64, %check_attention, %operand3) : (i64, i64, i32, i32) -> i32
  %x4 = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %x4_i64 = arith.index_cast %x4 : index to i64
  %want4_i64 = arith.index_cast %keys : index to i64
  %operand4 = arith.constant 1 : i32
  %ok4 = func.call @croqRtRequireEqualExtents(%x4_i64, %want4_i64, %check_attention, %operand4) : (i64, i64, i32, i32) -> i32
  %x5 = memref.dim %k, %c2 : memref<?x?x?xbf16>
  %x5_i64 = arith.index_cast %x5 : index to i64
  %want5_i64 = arith.index_cast %cD : index to i64
  %operand5 = arith.constant 1 : i32
  %ok5 = func.call @croqRtRequireEqualExtents(%x5_i64, %want5_i64, %check_attention, %operand5) : (i64, i64, i32, i32) -> i32
  %x6 = memref.dim %v, %c0 : memref<?x?x?xbf16>
  %x6_i64 = arith.index_cast %x6 : index to i64
  %want6_i64 = arith.index_cast %kv_heads : index to i64
  %operand6 = arith.constant 2 : i32
  %ok6 = func.call @croqRtRequireEqualExtents(%x6_i64, %want6_i64, %check_attention, %operand6) : (i64, i64, i32, i32) -> i32
  %x7 = memref.dim %v, %c1 : memref<?x?x?xbf16>
  %x7_i64 = arith.index_cast %x7 : index to i64
  %want7_i64 = arith.index_cast %keys : index to i64
  %operand7 = arith.constant 2 : i32
  %ok7 = func.call @croqRtRequireEqualExtents(%x7_i64, %want7_i64, %check_attention, %operand7) : (i64, i64, i32, i32) -> i32
  %x8 = memref.dim %v, %c2 : memref<?x?x?xbf16>
  %x8_i64 = arith.index_cast %x8 : index to i64
  %want8_i64 = arith.index_cast %cD : index to i64
  %operand8 = arith.constant 2 : i32
  %ok8 = func.call @croqRtRequireEqualExtents(%x8_i64, %want8_i64, %check_attention, %operand8) : (i64, i64, i32, i32) -> i32
  %x9 = memref.dim %do, %c0 : memref<?x?x?xbf16>
  %x9_i64 = arith.index_cast %x9 : index to i64
  %want9_i64 = arith.index_cast %heads : index to i64
  %operand9 = arith.constant 5 : i32
  %ok9 = func.call @croqRtRequireEqualExtents(%x9_i64, %want9_i64, %check_attention, %operand9) : (i64, i64, i32, i32) -> i32
  %x10 = memref.dim %do, %c1 : memref<?x?x?xbf16>
  %x10_i64 = arith.index_cast %x10 : index to i64
  %want10_i64 = arith.index_cast %seq : index to i64
  %operand10 = arith.constant 5 : i32
  %ok10 = func.call @croqRtRequireEqualExtents(%x10_i64, %want10_i64, %check_attention, %operand10) : (i64, i64, i32, i32) -> i32
  %x11 = memref.dim %do, %c2 : memref<?x?x?xbf16>
  %x11_i64 = arith.index_cast %x11 : index to i64
  %want11_i64 = arith.index_cast %cD : index to i64
  %operand11 = arith.constant 5 : i32
  %ok11 = func.call @croqRtRequireEqualExtents(%x11_i64, %want11_i64, %check_attention, %operand11) : (i64, i64, i32, i32) -> i32
  %x12 = memref.dim %lse, %c0 : memref<?x?xf32>
  %x12_i64 = arith.index_cast %x12 : index to i64
  %want12_i64 = arith.index_cast %heads : index to i64
  %operand12 = arith.constant 4 : i32
  %ok12 = func.call @croqRtRequireEqualExtents(%x12_i64, %want12_i64, %check_attention, %operand12) : (i64, i64, i32, i32) -> i32
  %x13 = memref.dim %lse, %c1 : memref<?x?xf32>
  %x13_i64 = arith.index_cast %x13 : index to i64
  %want13_i64 = arith.index_cast %seq : index to i64
  %operand13 = arith.constant 4 : i32
  %ok13 = func.call @croqRtRequireEqualExtents(%x13_i64, %want13_i64, %check_attention, %operand13) : (i64, i64, i32, i32) -> i32
  %x14 = memref.dim %delta, %c0 : memref<?x?xf32>
  %x14_i64 = arith.index_cast %x14 : index to i64
  %want14_i64 = arith.index_cast %heads : index to i64
  %operand14 = arith.constant 9 : i32
  %ok14 = func.call @croqRtRequireEqualExtents(%x14_i64, %want14_i64, %check_attention, %operand14) : (i64, i64, i32, i32) -> i32
  %x15 = memref.dim %delta, %c1 : memref<?x?xf32>
  %x15_i64 = arith.index_cast %x15 : index to i64
  %want15_i64 = arith.index_cast %seq : index to i64
  %operand15 = arith.constant 9 : i32
  %ok15 = func.call @croqRtRequireEqualExtents(%x15_i64, %want15_i64, %check_attention, %operand15) : (i64, i64, i32, i32) -> i32
  %x16 = memref.dim %dk, %c0 : memref<?x?x?xbf16>
  %x16_i64 = arith.index_cast %x16 : index to i64
  %want16_i64 = arith.index_cast %kv_heads : index to i64
  %operand16 = arith.constant 7 : i32
  %ok16 = func.call @croqRtRequireEqualExtents(%x16_i64, %want16_i64, %check_attention, %operand16) : (i64, i64, i32, i32) -> i32
  %x17 = memref.dim %dk, %c1 : memref<?x?x?xbf16>
  %x17_i64 = arith.index_cast %x17 : index to i64
  %want17_i64 = arith.index_cast %keys : index to i64
  %operand17 = arith.constant 7 : i32
  %ok17 = func.call @croqRtRequireEqualExtents(%x17_i64, %want17_i64, %check_attention, %operand17) : (i64, i64, i32, i32) -> i32
  %x18 = memref.dim %dk, %c2 : memref<?x?x?xbf16>
  %x18_i64 = arith.index_cast %x18 : index to i64
  %want18_i64 = arith.index_cast %cD : index to i64
  %operand18 = arith.constant 7 : i32
  %ok18 = func.call @croqRtRequireEqualExtents(%x18_i64, %want18_i64, %check_attention, %operand18) : (i64, i64, i32, i32) -> i32
  %x19 = memref.dim %dv, %c0 : memref<?x?x?xbf16>
  %x19_i64 = arith.index_cast %x19 : index to i64
  %want19_i64 = arith.index_cast %kv_heads : index to i64
  %operand19 = arith.constant 8 : i32
  %ok19 = func.call @croqRtRequireEqualExtents(%x19_i64, %want19_i64, %check_attention, %operand19) : (i64, i64, i32, i32) -> i32
  %x20 = memref.dim %dv, %c1 : memref<?x?x?xbf16>
  %x20_i64 = arith.index_cast %x20 : index to i64
  %want20_i64 = arith.index_cast %keys : index to i64
  %operand20 = arith.constant 8 : i32
  %ok20 = func.call @croqRtRequireEqualExtents(%x20_i64, %want20_i64, %check_attention, %operand20) : (i64, i64, i32, i32) -> i32
  %x21 = memref.dim %dv, %c2 : memref<?x?x?xbf16>
  %x21_i64 = arith.index_cast %x21 : index to i64
  %want21_i64 = arith.index_cast %cD : index to i64
  %operand21 = arith.constant 8 : i32
  %ok21 = func.call @croqRtRequireEqualExtents(%x21_i64, %want21_i64, %check_attention, %operand21) : (i64, i64, i32, i32) -> i32
  %x22 = memref.dim %dq_acc, %c0 : memref<?xf32>
  %x22_i64 = arith.index_cast %x22 : index to i64
  %want22_i64 = arith.index_cast %acc_elems : index to i64
  %operand22 = arith.constant 10 : i32
  %ok22 = func.call @croqRtRequireEqualExtents(%x22_i64, %want22_i64, %check_attention, %operand22) : (i64, i64, i32, i32) -> i32
  %x23 = memref.dim %turns, %c0 : memref<?xi32>
  %x23_i64 = arith.index_cast %x23 : index to i64
  %want23_i64 = arith.index_cast %turn_count : index to i64
  %operand23 = arith.constant 11 : i32
  %ok23 = func.call @croqRtRequireEqualExtents(%x23_i64, %want23_i64, %check_attention, %operand23) : (i64, i64, i32, i32) -> i32
  %heads_i64 = arith.index_cast %heads : index to i64
  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64
  %check_groups = arith.constant 0 : i32
  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, %kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32
  %kv_divisor = arith.maxui %kv_heads, %c1 : index
  %group = arith.divui %heads, %kv_divisor : index
  %log2e = arith.constant 1.44269504 : f32
  %scale = arith.mulf %sm_scale, %log2e : f32
  %grid_k = arith.ceildivui %keys, %c128 : index
  %q_tiles = arith.ceildivui %seq, %c64 : index
  // One block for 128 keys of a key/value head; causal, the key tiles
  // with the most query tiles (the first) first.
  %items = arith.muli %kv_heads, %grid_k : index
  croq.parallel (%bid) in [%items] : block {
    %kvready = croq.event.alloc : !croq.events<1>
    %rfull = croq.event.alloc : !croq.events<2>
    %rempty = croq.event.alloc ready : !croq.events<2>
    %k_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %do_s = croq.alloc : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
    %lse_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %dlt_s = croq.alloc : !croq.tiles<2 x 1x64xf32, shared>
    %ds_s = croq.alloc : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
    %dq_s = croq.alloc : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
    %kb = arith.divui %bid, %kv_heads : index
    %bkv = arith.remui %bid, %kv_heads : index
    // Query rows from 128 kb on see the tile's keys.
    %first_q = arith.muli %kb, %c2 : index
    %start = arith.minui %first_q, %q_tiles : index
    %per_head = arith.subi %q_tiles, %start : index
    %steps = arith.muli %per_head, %group : index
    %head0 = arith.muli %bkv, %group : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        // The block's keys and values, 64 rows a consumer.
        %kr0 = arith.addi %kb, %kb : index
        %krow0 = arith.addi %kr0, %c0 : index
        %kv0 = croq.subspan %k [1, 64, 64] at [%bkv, %krow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk0 = croq.copy tma async zfill swizzle = 128 %kv0 -> %kt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %kr1 = arith.addi %kb, %kb : index
        %krow1 = arith.addi %kr1, %c1 : index
        %kv1 = croq.subspan %k [1, 64, 64] at [%bkv, %krow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %kt1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fk1 = croq.copy tma async zfill swizzle = 128 %kv1 -> %kt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr0 = arith.addi %kb, %kb : index
        %vrow0 = arith.addi %vr0, %c0 : index
        %vv0 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow0, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt0 = croq.stage %v_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv0 = croq.copy tma async zfill swizzle = 128 %vv0 -> %vt0 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        %vr1 = arith.addi %kb, %kb : index
        %vrow1 = arith.addi %vr1, %c1 : index
        %vv1 = croq.subspan %v [1, 64, 64] at [%bkv, %vrow1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        %vt1 = croq.stage %v_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %fv1 = croq.copy tma async zfill swizzle = 128 %vv1 -> %vt1 : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
        croq.event.trigger %kvready[%c0] after (%fk0, %fk1, %fv0, %fv1) : !croq.events<1>
        scf.for %t = %c0 to %steps step %c1 {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rempty[%stage] : !croq.events<2>
          %qv = croq.subspan %q [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %fq = croq.copy tma async zfill swizzle = 128 %qv -> %qt : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          %dov = croq.subspan %do [1, 64, 64] at [%bh, %i, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %fdo = croq.copy tma async zfill swizzle = 128 %dov -> %dot : !croq.view<1x64x64xbf16> -> !croq.tile<1x64x64xbf16, shared, swizzle = 128>
          %lsev = croq.subspan %lse [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %lset = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %flse = croq.copy tma async zfill %lsev -> %lset : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          %dltv = croq.subspan %delta [1, 64] at [%bh, %i] : memref<?x?xf32> -> !croq.view<1x64xf32>
          %dltt = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %fdlt = croq.copy tma async zfill %dltv -> %dltt : !croq.view<1x64xf32> -> !croq.tile<1x64xf32, shared>
          croq.event.trigger %rfull[%stage] after (%fq, %fdo, %flse, %fdlt) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        croq.event.wait %kvready[%c0] : !croq.events<1>
        %kt = croq.stage %k_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %k2 = croq.span_as %kt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %ka = croq.mma.load %k2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %vt = croq.stage %v_s[%half] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
        %v2 = croq.span_as %vt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %va = croq.mma.load %v2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
        %kr = arith.addi %kb, %kb : index
        %key_block = arith.addi %kr, %half : index
        %key_base = arith.muli %key_block, %c64 : index
        %acc0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> (!croq.acc<64x64xf32>, !croq.acc<64x64xf32>) {
          %g = arith.divui %t, %per_head : index
          %ti = arith.remui %t, %per_head : index
          %i = arith.addi %start, %ti : index
          %bh = arith.addi %head0, %g : index
          %stage = arith.remui %t, %c2 : index
          croq.event.wait %rfull[%stage] : !croq.events<2>
          %qt = croq.stage %q_s[%stage] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %q2 = croq.span_as %qt : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %qb = croq.mma.load %q2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %dot = croq.stage %do_s[%stage] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %do2 = croq.span_as %dot : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dob = croq.mma.load %do2 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %sz = croq.mma.fill %zero : !croq.acc<64x64xf32>
          %s1 = croq.mma row row %sz, %ka, %qb : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %sc = croq.mma.commit %s1 pending = 1 : !croq.acc<64x64xf32>
          %dp1 = croq.mma row row %sz, %va, %dob : !croq.frag<64x64xbf16>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dpc = croq.mma.commit %dp1 pending = 1 : !croq.acc<64x64xf32>
          %lse2_t = croq.stage %lse_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %lse2_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %lse2 = croq.vec.map %lse2_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %lse2_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            %y = arith.mulf %x, %log2e : f32
            croq.yield %y : f32
          }
          %st = croq.mma.wait %sc pending = 1 : !croq.acc<64x64xf32>
          // Only the query tiles that cross the diagonal are masked:
          // query q sees key r where q >= r.
          %q_base = arith.muli %i, %c64 : index
          %key_top = arith.addi %key_base, %c64 : index
          %under = arith.cmpi ult, %q_base, %key_top : index
          %needs_mask = arith.andi %under, %under : i1
          %sm = scf.if %needs_mask -> (!croq.acc<64x64xf32>) {
            %masked = croq.mma.map %st (%row, %col, %x) : !croq.acc<64x64xf32> {
              %key = arith.addi %key_base, %row : index
              %query = arith.addi %q_base, %col : index
              %seen = arith.cmpi ule, %key, %query : index
              %r = arith.select %seen, %x, %ninf : f32
              croq.yield %r : f32
            }
            scf.yield %masked : !croq.acc<64x64xf32>
          } else {
            scf.yield %st : !croq.acc<64x64xf32>
          }
          %pt = croq.mma.map %sm, %lse2 (%row, %col, %x, %l) : !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %nl = arith.negf %l : f32
            %d = math.fma %x, %scale, %nl : f32
            %e = math.exp2 %d fastmath<afn> : f32
            croq.yield %e : f32
          }
          %ptf = croq.mma.convert %pt : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dv1 = croq.mma row col %dva, %ptf, %dob : !croq.frag<64x64xbf16, registers>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dvc = croq.mma.commit %dv1 pending = 1 : !croq.acc<64x64xf32>
          %dlt_t = croq.stage %dlt_s[%stage] : !croq.tiles<2 x 1x64xf32, shared>
          %dlt_0 = croq.vec.fill %zero : !croq.vec<64xf32, cols>
          %dlt = croq.vec.map %dlt_0 (%ix, %a) : !croq.vec<64xf32, cols> {
            %x = croq.read %dlt_t[%c0, %ix] : !croq.tile<1x64xf32, shared>
            croq.yield %x : f32
          }
          %dpt = croq.mma.wait %dpc pending = 1 : !croq.acc<64x64xf32>
          %dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>, !croq.vec<64xf32, cols> {
            %d = arith.subf %y, %dl : f32
            %gr = arith.mulf %x, %d : f32
            croq.yield %gr : f32
          }
          %dsq = croq.mma.map %dst (%row, %col, %x) : !croq.acc<64x64xf32> {
            %y = arith.mulf %x, %sm_scale : f32
            croq.yield %y : f32
          }
          // scale dS^T to shared memory, two buffers of the two consumers'
          // by iteration parity: the other consumer may still read the
          // previous iteration's.
          %parity = arith.remui %t, %c2 : index
          %ds_base = arith.muli %parity, %c2 : index
          %ds_own = arith.addi %ds_base, %half : index
          %dst_t = croq.stage %ds_s[%ds_own] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dst_2 = croq.span_as %dst_t : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          croq.mma.store %dsq -> %dst_2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsf = croq.mma.convert %dst : !croq.acc<64x64xf32> -> !croq.frag<64x64xbf16, registers>
          %dk1 = croq.mma row col %dka, %dsf, %qb : !croq.frag<64x64xbf16, registers>, !croq.frag<64x64xbf16> -> !croq.acc<64x64xf32>
          %dkc = croq.mma.commit %dk1 pending = 1 : !croq.acc<64x64xf32>
          croq.barrier warpgroup async
          croq.named_barrier.sync %c0, threads = 256
          %dq0 = croq.mma.fill %zero : !croq.acc<64x32xf32>
          %ds_0 = arith.addi %ds_base, %c0 : index
          %dsh_t0 = croq.stage %ds_s[%ds_0] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_20 = croq.span_as %dsh_t0 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa0 = croq.mma.load %dsh_20 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t0 = croq.stage %k_s[%c0] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %kh_20 = croq.span_as %kh_t0 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %kh_v0 = croq.subspan %kh_20 [64, 32] at [%c0, %half] : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.view<64x32xbf16, shared, swizzle = 128>
          %kh_f0 = croq.mma.load %kh_v0 : !croq.view<64x32xbf16, shared, swizzle = 128> -> !croq.frag<64x32xbf16>
          %dq1 = croq.mma col col %dq0, %dsa0, %kh_f0 : !croq.frag<64x64xbf16>, !croq.frag<64x32xbf16> -> !croq.acc<64x32xf32>
          %ds_1 = arith.addi %ds_base, %c1 : index
          %dsh_t1 = croq.stage %ds_s[%ds_1] : !croq.tiles<4 x 1x64x64xbf16, shared, swizzle = 128>
          %dsh_21 = croq.span_as %dsh_t1 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %dsa1 = croq.mma.load %dsh_21 : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.frag<64x64xbf16>
          %kh_t1 = croq.stage %k_s[%c1] : !croq.tiles<2 x 1x64x64xbf16, shared, swizzle = 128>
          %kh_21 = croq.span_as %kh_t1 : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
          %kh_v1 = croq.subspan %kh_21 [64, 32] at [%c0, %half] : !croq.tile<64x64xbf16, shared, swizzle = 128> -> !croq.view<64x32xbf16, shared, swizzle = 128>
          %kh_f1 = croq.mma.load %kh_v1 : !croq.view<64x32xbf16, shared, swizzle = 128> -> !croq.frag<64x32xbf16>
          %dq2 = croq.mma col col %dq1, %dsa1, %kh_f1 : !croq.frag<64x64xbf16>, !croq.frag<64x32xbf16> -> !croq.acc<64x32xf32>
          %dqc = croq.mma.commit %dq2 : !croq.acc<64x32xf32>
          %dvw = croq.mma.wait %dvc : !croq.acc<64x64xf32>
          %dkw = croq.mma.wait %dkc : !croq.acc<64x64xf32>
          croq.event.trigger %rempty[%stage] : !croq.events<2>
          // The previous tile's turn, passed now that its adds had an
          // iteration to drain.
          %has_prev = arith.cmpi ugt, %t, %c0 : index
          scf.if %has_prev {
            %tp = arith.subi %t, %c1 : index
            %g_p = arith.divui %tp, %per_head : index
            %ti_p = arith.remui %tp, %per_head : index
            %i_p = arith.addi %start, %ti_p : index
            %bh_p = arith.addi %head0, %g_p : index
            %tile_row_p = arith.muli %bh_p, %q_tiles : index
            %tile_p = arith.addi %tile_row_p, %i_p : index
            %counter2_p = arith.muli %tile_p, %c2 : index
            %counter_p = arith.addi %counter2_p, %half : index
            croq.wait_stores
            croq.turn.pass %turns[%counter_p] : memref<?xi32>
          }
          %g_ = arith.divui %t, %per_head : index
          %ti_ = arith.remui %t, %per_head : index
          %i_ = arith.addi %start, %ti_ : index
          %bh_ = arith.addi %head0, %g_ : index
          %tile_row_ = arith.muli %bh_, %q_tiles : index
          %tile_ = arith.addi %tile_row_, %i_ : index
          %counter2_ = arith.muli %tile_, %c2 : index
          %counter_ = arith.addi %counter2_, %half : index
          // The part through shared memory (swizzled: no bank conflicts;
          // croq.attention undoes the swizzle), added by one bulk add
          // into the part's 2048 consecutive floats of the workspace.
          %dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x32xf32, shared, swizzle = 128>
          croq.mma.store %dqc -> %dq_st : !croq.acc<64x32xf32> -> !croq.tile<64x32xf32, shared, swizzle = 128>
          croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>
          %dq_v = croq.subspan %dq_acc [2048] at [%counter_] : memref<?xf32> -> !croq.view<2048xf32>
          croq.bulk_add %dq_st -> %dq_v : !croq.tile<64x32xf32, shared, swizzle = 128> -> !croq.view<2048xf32>
          scf.yield %dvw, %dkw : !croq.acc<64x64xf32>, !croq.acc<64x64xf32>
        }
        // The last tile's turn.
        %any = arith.cmpi ugt, %steps, %c0 : index
        scf.if %any {
          %tl = arith.subi %steps, %c1 : index
          %g_l = arith.divui %tl, %per_head : index
          %ti_l = arith.remui %tl, %per_head : index
          %i_l = arith.addi %start, %ti_l : index
          %bh_l = arith.addi %head0, %g_l : index
          %tile_row_l = arith.muli %bh_l, %q_tiles : index
          %tile_l = arith.addi %tile_row_l, %i_l : index
          %counter2_l = arith.muli %tile_l, %c2 : index
          %counter_l = arith.addi %counter2_l, %half : index
          croq.wait_stores
          croq.turn.pass %turns[%counter_l] : memref<?xi32>
        }
        // The other consumer reads this one's K tile until its last
        // dQ product; dK is stored through it.
        croq.named_barrier.sync %c0, threads = 256
        %dks = croq.mma.map %res#1 (%row, %col, %x) : !croq.acc<64x64xf32> {
          %y = arith.mulf %x, %sm_scale : f32
          croq.yield %y : f32
        }
        // Through the consumer's K and V tiles, by TMA.
        %dkv = croq.subspan %dk [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %dks -> %k2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dk_stored = croq.copy tma async swizzle = 128 %kt -> %dkv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
        %dvv = croq.subspan %dv [1, 64, 64] at [%bkv, %key_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x64xbf16>
        croq.mma.store %res#0 -> %v2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xbf16, shared, swizzle = 128>
        %dv_stored = croq.copy tma async swizzle = 128 %vt -> %dvv : !croq.tile<1x64x64xbf16, shared, swizzle = 128> -> !croq.view<1x64x64xbf16>
      }
    }
  }
  return
}
