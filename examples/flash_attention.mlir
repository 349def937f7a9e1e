//===- flash_attention.mlir - attention forward on SDPA's tensors --------===//
//
// out = softmax(scale * q k^T) v on tensors laid out as torch's
// scaled_dot_product_attention takes them ([batch, heads, seq, D],
// contiguous, passed as [batch * heads, seq, D] views), f16 or bf16, head
// dimension D = 128 or 64, causal (SDPA's is_causal=True: query i sees keys
// 0 to i) or not: one entry point each,
//
//   attention_{f16,bf16}           attention_causal_{f16,bf16}
//   attention_d64_{f16,bf16}       attention_causal_d64_{f16,bf16}
//
// taking q, k, v, out and the softmax scale (an f32; SDPA's default is
// 1 / sqrt(D)). Written by examples/gen/flash_attention.py: edit that.
//
// Grouped-query attention (SDPA's enable_gqa) takes K and V with fewer
// heads than Q: [batch * kv_heads, keys, D], each key/value head serving
// heads / kv_heads consecutive query heads, so query head bh reads K/V head
// bh / group (b * H + h over b * H_kv + h / group: the same head when group
// divides H). The query heads of a group are next to each other in the
// walk, so their K and V tiles are read from L2 after the first. Before
// launching, the host code checks that the query heads are a multiple of
// the key/value heads, that V has K's heads and keys and the output Q's
// heads and rows (croqRtRequireMultiple, croqRtRequireEqualExtents): the
// call fails naming the operand, and nothing runs.
//
// Each block computes 128 query rows of one head (a work item). A producer
// warpgroup loads K and V tiles of 128 keys by TMA into two rings of two
// stages (a K stage is freed as soon as S has been computed from it, a V
// stage once P V has). Two consumer warpgroups own 64 query rows each.
// Each loads its own Q rows by TMA, one item ahead: at the start of an
// item it loads the next item's rows into the other of its two Q slots, so
// that they are there when that item starts (loaded at the end of the
// previous item instead, they came late on short problems: waiting for Q
// and the first K tile took 13% of the consumers' time at 8x16x512, and
// loading Q an item ahead measured 10% faster there, 4% at 2x16x1024; see
// bench/RESULTS.md). For key tile j, a consumer runs FlashAttention-3's
// overlap of the two products with the softmax within a warpgroup:
//
//   issue S_j = Q K_j^T            (croq.mma.commit pending = 1)
//   issue O += P_(j-1) V_(j-1)     (croq.mma.commit pending = 1)
//   wait for S_j                   (croq.mma.wait pending = 1)
//   softmax of S_j in registers: row maxima across the lanes of quads
//     (croq.mma.reduce), P_j = exp2(S_j * scale' - m) (one fma and one
//     ex2.approx.ftz an element; scale' = scale * log2(e)), row sums
//   wait for P V                   (croq.mma.wait)
//   O *= exp2(m_old - m_new); P_j converted to the A operand of the next
//     P V in registers (croq.mma.convert, wgmma with A from registers)
//
// so the tensor cores run S_j and P_(j-1) V_(j-1) while the warpgroup
// computes its exponentials. The two consumers also take turns to issue
// their products (FlashAttention-3's ping-pong, on two named barriers:
// croq.named_barrier.sync before issuing, .arrive after), so that one's
// softmax runs while the other's products do: S_j and P_(j-1) V_(j-1)
// together (measured 4% to 10% faster than no turns at head dimension 64;
// at 128, 0.5% to 2% faster than turns for S_j alone since the masks cost
// less, where before they spilled more registers and measured slower for
// causal attention; the way the first turn is handed over also moved the
// causal kernels by 10% through ptxas's register allocation: re-measure
// after touching it). The
// first key tile computes S alone and the last P V runs after the loop.
// After the last key tile the output is O / l: one reciprocal a row and a
// multiplication an element (a division an element, div.rn.f32, took up
// to a fifth of the time of short problems: bench/RESULTS.md).
// Only the last key tile can hold keys past the sequence's end or past the
// diagonal: it alone is masked (an scf.if around the masking
// croq.mma.map; without causality only where the key count is not a
// multiple of 128). The mask computes in i32 and compares each element's
// column as a constant against a limit of its row and column parity, one
// compare and one select an element: in 64-bit index arithmetic the masks
// took twice the instructions, kept 32 column indices in registers and
// spilled, and the causal kernels measured 5% to 17% slower on sequences
// of 256 to 512 (bench/RESULTS.md). Query rows past the sequence's end are
// zero-filled by the loads and left out by the TMA store of the output.
//
// The kernels are persistent: one block per SM (132, an H100 or H200)
// walks the work items, the items of a head next to each other so that the
// blocks running at once share their heads' K and V in L2. The K and V
// rings run on across items, so the producer loads the next item's first
// tiles while the consumers finish this one. The output goes out through
// shared tiles of its own, stored by TMA and left in flight.
//
// Causal items have from 1 to S / 128 key tiles, which a static walk over
// them in order would spread unevenly over the blocks (measured: 0.75 of
// SDPA at 1x16x8192). The causal entry points launch one of two walks:
//
// - pairs of items, query blocks i and S / 128 - 1 - i of a head, whose
//   key tiles add up to the same count for every pair (the longer item
//   first), the pairs of a head next to each other; where S / 128 is odd,
//   the middle query block is a pair alone, of half the weight, and 131
//   blocks walk the pairs rather than 132 (with 132, at 8x16x384 every
//   other block took only middles: 0.72-0.81 of SDPA);
// - where the pairs would fill less than 90% of their waves of blocks
//   (2x12x1536: 144 pairs, two waves of 132) and the keys and values of
//   all heads take 64 MiB or less (measured up to 57 MB, above an H100's
//   or H200's 50 MB of L2: 2x50x1024, 2x52x1024, 1x72x1536 and 2x40x1280
//   took pairs at 0.83-0.94 of SDPA, 0.92-0.99 in snake order; at 32 MiB
//   4x16x1152 and 2x36x1024 took pairs at 0.85, 1.01-1.02 in snake
//   order), the items longest first, the
//   heads of one query block next to each other, dealt to the blocks in
//   snake order (block 0 to 131, then 131 to 0, ...): no block waits for
//   a second wave of long pairs, and the heads' keys and values mostly
//   stay in L2 between the items that read them. Where pairs fill their
//   waves, pairs keep the items of a head together, which measured
//   faster.
//
//===----------------------------------------------------------------------===//

func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32

// Non-causal, f16, D = 128.
func.func @attention_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %sm_scale: f32) {
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

// The same in bf16.
func.func @attention_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %sm_scale: f32) {
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

// The same with head dimension 64, f16 (keys still in tiles of 128).
func.func @attention_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %sm_scale: f32) {
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

// The same in bf16.
func.func @attention_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %sm_scale: f32) {
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

// Causal, f16, D = 128: the key tiles past the diagonal are neither loaded
// nor computed.
func.func @attention_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %sm_scale: f32) {
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

// The same in bf16.
func.func @attention_causal_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %sm_scale: f32) {
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

// The same with head dimension 64, f16.
func.func @attention_causal_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
    %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>, %sm_scale: f32) {
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

// The same in bf16.
func.func @attention_causal_d64_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
    %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>, %sm_scale: f32) {
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
