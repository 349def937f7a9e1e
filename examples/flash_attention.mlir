// Attention forward, out = softmax(q k^T * scale) v, on tensors laid out as
// torch's scaled_dot_product_attention takes them ([batch, heads, seq, 128]
// contiguous, passed as [batch * heads, seq, 128] views) with f16 elements.
//
// One block per 128 query rows of one head: a producer warpgroup loads the
// two 64-row Q tiles once, then the K and V tiles of 128 keys into a ring
// of two stages by TMA; two consumer warpgroups each own 64 query rows and, for
// each key tile, compute S = Q K^T (wgmma), the online softmax in registers
// (row maxima and sums across the lanes of quads), O = O * alpha + P V with
// P converted to an A operand in registers, and free the stage. Keys past
// the sequence's end are masked; query rows past it are left out by the TMA
// store.
//
// The consumers take turns to issue S = QK^T (two one-slot events), so that
// one's softmax tends to run while the other's wgmma does (FlashAttention-3's
// ping-pong, for the first GEMM only: measured 0.64 of SDPA at 4x16x4096
// against 0.60 without; the causal kernel below measured slower with it,
// 0.60 against 0.62, and does without).
//
// What is not here yet (FlashAttention-3 has it): the P x V wgmma in the
// turns as well (a second trigger of the same event would double its
// arrival count: it needs events per GEMM), the wgmma of the next tile
// issued before this tile's softmax (tried: issuing S of the
// next tile before the softmax, completed by a second commit, keeps two S
// accumulators live and spills; it measured 0.45x SDPA against 0.62x),
// causal variants of the head-dimension-64 and bf16 kernels.
func.func @attention_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
                         %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %grid_q = arith.ceildivui %seq, %c128 : index
  %tiles = arith.ceildivui %keys, %c128 : index
  croq.parallel (%bq, %bh) in [%grid_q, %heads] : block {
    %qready = croq.event.alloc : !croq.events<1>
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    // Whose turn it is to issue S = QK^T: the consumers take turns, so
    // that one's softmax runs while the other's wgmma does.
    %turn0 = croq.event.alloc ready : !croq.events<1>
    %turn1 = croq.event.alloc : !croq.events<1>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %q_block = arith.muli %bq, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer0 = arith.cmpi eq, %p, %c1 : index
      %is_consumer1 = arith.cmpi eq, %p, %c2 : index
      croq.inthreads async %is_producer {
        %qv0 = croq.subspan %q [1, 64, 128] at [%bh, %q_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qs0 = croq.stage %q_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fq0 = croq.copy tma async zfill swizzle = 128 %qv0 -> %qs0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %q_block1 = arith.addi %q_block, %c1 : index
        %qv1 = croq.subspan %q [1, 64, 128] at [%bh, %q_block1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qs1 = croq.stage %q_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fq1 = croq.copy tma async zfill swizzle = 128 %qv1 -> %qs1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %qready[%c0] after (%fq0, %fq1) : !croq.events<1>
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %empty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bh, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          %vv = croq.subspan %v [1, 128, 128] at [%bh, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fk, %fv) : !croq.events<2>
        }
      }
      // The two consumers run the same code on their own 64 query rows;
      // each is its own region because each triggers the other's turn.
      croq.inthreads async %is_consumer0 {
        %half = arith.constant 0 : index
        %row_block = arith.addi %q_block, %half : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(128): exp(x / sqrt(128)) = exp2(x * scale).
        %scale = arith.constant 0.12751743 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          croq.event.wait %turn0[%c0] : !croq.events<1>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          croq.event.trigger %turn1[%c0] : !croq.events<1>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %inside = arith.cmpi ult, %key, %keys : index
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
      croq.inthreads async %is_consumer1 {
        %half = arith.constant 1 : index
        %row_block = arith.addi %q_block, %half : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(128): exp(x / sqrt(128)) = exp2(x * scale).
        %scale = arith.constant 0.12751743 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          croq.event.wait %turn1[%c0] : !croq.events<1>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          croq.event.trigger %turn0[%c0] : !croq.events<1>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %inside = arith.cmpi ult, %key, %keys : index
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}

// The same with head dimension 64 (keys still in tiles of 128).
func.func @attention_d64_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
                         %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %grid_q = arith.ceildivui %seq, %c128 : index
  %tiles = arith.ceildivui %keys, %c128 : index
  croq.parallel (%bq, %bh) in [%grid_q, %heads] : block {
    %qready = croq.event.alloc : !croq.events<1>
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    // Whose turn it is to issue S = QK^T: the consumers take turns, so
    // that one's softmax runs while the other's wgmma does.
    %turn0 = croq.event.alloc ready : !croq.events<1>
    %turn1 = croq.event.alloc : !croq.events<1>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
    %q_block = arith.muli %bq, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer0 = arith.cmpi eq, %p, %c1 : index
      %is_consumer1 = arith.cmpi eq, %p, %c2 : index
      croq.inthreads async %is_producer {
        %qv0 = croq.subspan %q [1, 64, 64] at [%bh, %q_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %qs0 = croq.stage %q_s[%c0] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fq0 = croq.copy tma async zfill swizzle = 128 %qv0 -> %qs0 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        %q_block1 = arith.addi %q_block, %c1 : index
        %qv1 = croq.subspan %q [1, 64, 64] at [%bh, %q_block1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %qs1 = croq.stage %q_s[%c1] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %fq1 = croq.copy tma async zfill swizzle = 128 %qv1 -> %qs1 : !croq.view<1x64x64xf16> -> !croq.tile<1x64x64xf16, shared, swizzle = 128>
        croq.event.trigger %qready[%c0] after (%fq0, %fq1) : !croq.events<1>
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %empty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 64] at [%bh, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          %vv = croq.subspan %v [1, 128, 64] at [%bh, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x64xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x64xf16> -> !croq.tile<1x128x64xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fk, %fv) : !croq.events<2>
        }
      }
      // The two consumers run the same code on their own 64 query rows;
      // each is its own region because each triggers the other's turn.
      croq.inthreads async %is_consumer0 {
        %half = arith.constant 0 : index
        %row_block = arith.addi %q_block, %half : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(64): exp(x / 8) = exp2(x * scale).
        %scale = arith.constant 0.18033688 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          croq.event.wait %turn0[%c0] : !croq.events<1>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          croq.event.trigger %turn1[%c0] : !croq.events<1>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %inside = arith.cmpi ult, %key, %keys : index
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x64xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
      croq.inthreads async %is_consumer1 {
        %half = arith.constant 1 : index
        %row_block = arith.addi %q_block, %half : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(64): exp(x / 8) = exp2(x * scale).
        %scale = arith.constant 0.18033688 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x64xf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x64xf16, shared, swizzle = 128> -> !croq.frag<64x64xf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x64xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          croq.event.wait %turn1[%c0] : !croq.events<1>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x64xf16>, !croq.frag<128x64xf16> -> !croq.acc<64x128xf32>
          croq.event.trigger %turn0[%c0] : !croq.events<1>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %inside = arith.cmpi ult, %key, %keys : index
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x64xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x64xf16, shared, swizzle = 128> -> !croq.tile<128x64xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x64xf16, shared, swizzle = 128> -> !croq.frag<128x64xf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x64xf16> -> !croq.acc<64x64xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x64xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x64xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x64xf32> -> !croq.tile<64x64xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 64] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x64xf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x64xf16, shared, swizzle = 128> -> !croq.view<1x64x64xf16>
      }
    }
  }
  return
}

// The same in bf16.
func.func @attention_bf16(%q: memref<?x?x?xbf16>, %k: memref<?x?x?xbf16>,
                         %v: memref<?x?x?xbf16>, %out: memref<?x?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xbf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xbf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xbf16>
  %grid_q = arith.ceildivui %seq, %c128 : index
  %tiles = arith.ceildivui %keys, %c128 : index
  croq.parallel (%bq, %bh) in [%grid_q, %heads] : block {
    %qready = croq.event.alloc : !croq.events<1>
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    // Whose turn it is to issue S = QK^T: the consumers take turns, so
    // that one's softmax runs while the other's wgmma does.
    %turn0 = croq.event.alloc ready : !croq.events<1>
    %turn1 = croq.event.alloc : !croq.events<1>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
    %q_block = arith.muli %bq, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer0 = arith.cmpi eq, %p, %c1 : index
      %is_consumer1 = arith.cmpi eq, %p, %c2 : index
      croq.inthreads async %is_producer {
        %qv0 = croq.subspan %q [1, 64, 128] at [%bh, %q_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %qs0 = croq.stage %q_s[%c0] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fq0 = croq.copy tma async zfill swizzle = 128 %qv0 -> %qs0 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        %q_block1 = arith.addi %q_block, %c1 : index
        %qv1 = croq.subspan %q [1, 64, 128] at [%bh, %q_block1, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %qs1 = croq.stage %q_s[%c1] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %fq1 = croq.copy tma async zfill swizzle = 128 %qv1 -> %qs1 : !croq.view<1x64x128xbf16> -> !croq.tile<1x64x128xbf16, shared, swizzle = 128>
        croq.event.trigger %qready[%c0] after (%fq0, %fq1) : !croq.events<1>
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %empty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bh, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
          %vv = croq.subspan %v [1, 128, 128] at [%bh, %j, %c0] : memref<?x?x?xbf16> -> !croq.view<1x128x128xbf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xbf16> -> !croq.tile<1x128x128xbf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fk, %fv) : !croq.events<2>
        }
      }
      // The two consumers run the same code on their own 64 query rows;
      // each is its own region because each triggers the other's turn.
      croq.inthreads async %is_consumer0 {
        %half = arith.constant 0 : index
        %row_block = arith.addi %q_block, %half : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(128): exp(x / sqrt(128)) = exp2(x * scale).
        %scale = arith.constant 0.12751743 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          croq.event.wait %turn0[%c0] : !croq.events<1>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          croq.event.trigger %turn1[%c0] : !croq.events<1>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %inside = arith.cmpi ult, %key, %keys : index
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
      croq.inthreads async %is_consumer1 {
        %half = arith.constant 1 : index
        %row_block = arith.addi %q_block, %half : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(128): exp(x / sqrt(128)) = exp2(x * scale).
        %scale = arith.constant 0.12751743 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xbf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xbf16, shared, swizzle = 128> -> !croq.frag<64x128xbf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          croq.event.wait %turn1[%c0] : !croq.events<1>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x128xbf16>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          croq.event.trigger %turn0[%c0] : !croq.events<1>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %inside = arith.cmpi ult, %key, %keys : index
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xbf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xbf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xbf16, shared, swizzle = 128> -> !croq.tile<128x128xbf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xbf16, shared, swizzle = 128> -> !croq.frag<128x128xbf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xbf16, registers>, !croq.frag<128x128xbf16> -> !croq.acc<64x128xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xbf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xbf16> -> !croq.view<1x64x128xbf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x128xbf16, shared, swizzle = 128> -> !croq.view<1x64x128xbf16>
      }
    }
  }
  return
}

// The same with causal masking (is_causal=True of SDPA: query i sees keys
// 0 to i); the key tiles past the diagonal are neither loaded nor computed.
func.func @attention_causal_f16(%q: memref<?x?x?xf16>, %k: memref<?x?x?xf16>,
                         %v: memref<?x?x?xf16>, %out: memref<?x?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %heads = memref.dim %q, %c0 : memref<?x?x?xf16>
  %seq = memref.dim %q, %c1 : memref<?x?x?xf16>
  %keys = memref.dim %k, %c1 : memref<?x?x?xf16>
  %grid_q = arith.ceildivui %seq, %c128 : index
  %all_tiles = arith.ceildivui %keys, %c128 : index
  croq.parallel (%bq_launch, %bh) in [%grid_q, %heads] : block {
    // The blocks with the most key tiles start first (measured: 0.63 of
    // SDPA at 4x16x4096 against 0.57 in launch order).
    %last = arith.subi %grid_q, %c1 : index
    %bq = arith.subi %last, %bq_launch : index
    // Query rows 128 bq .. 128 bq + 127 see keys up to their own index: the
    // key tiles up to the diagonal.
    %diagonal = arith.addi %bq, %c1 : index
    %tiles = arith.minui %all_tiles, %diagonal : index
    %qready = croq.event.alloc : !croq.events<1>
    %full = croq.event.alloc : !croq.events<2>
    %empty = croq.event.alloc ready : !croq.events<2>
    %q_s = croq.alloc : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
    %k_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %v_s = croq.alloc : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
    %q_block = arith.muli %bq, %c2 : index
    croq.parallel (%p) in [3] : warpgroup {
      %is_producer = arith.cmpi eq, %p, %c0 : index
      %is_consumer = arith.cmpi ne, %p, %c0 : index
      croq.inthreads async %is_producer {
        %qv0 = croq.subspan %q [1, 64, 128] at [%bh, %q_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qs0 = croq.stage %q_s[%c0] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fq0 = croq.copy tma async zfill swizzle = 128 %qv0 -> %qs0 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        %q_block1 = arith.addi %q_block, %c1 : index
        %qv1 = croq.subspan %q [1, 64, 128] at [%bh, %q_block1, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %qs1 = croq.stage %q_s[%c1] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %fq1 = croq.copy tma async zfill swizzle = 128 %qv1 -> %qs1 : !croq.view<1x64x128xf16> -> !croq.tile<1x64x128xf16, shared, swizzle = 128>
        croq.event.trigger %qready[%c0] after (%fq0, %fq1) : !croq.events<1>
        scf.for %j = %c0 to %tiles step %c1 {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %empty[%stage] : !croq.events<2>
          %kv = croq.subspan %k [1, 128, 128] at [%bh, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %ks = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          %vv = croq.subspan %v [1, 128, 128] at [%bh, %j, %c0] : memref<?x?x?xf16> -> !croq.view<1x128x128xf16>
          %vs = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : !croq.view<1x128x128xf16> -> !croq.tile<1x128x128xf16, shared, swizzle = 128>
          croq.event.trigger %full[%stage] after (%fk, %fv) : !croq.events<2>
        }
      }
      croq.inthreads async %is_consumer {
        %half = arith.subi %p, %c1 : index
        %row_block = arith.addi %q_block, %half : index
        %q_base = arith.muli %row_block, %c64 : index
        %zero = arith.constant 0.0 : f32
        %ninf = arith.constant 0xFF800000 : f32
        // log2(e) / sqrt(128): exp(x / sqrt(128)) = exp2(x * scale).
        %scale = arith.constant 0.12751743 : f32
        croq.event.wait %qready[%c0] : !croq.events<1>
        %qt = croq.stage %q_s[%half] : !croq.tiles<2 x 1x64x128xf16, shared, swizzle = 128>
        %q2 = croq.span_as %qt : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %qa = croq.mma.load %q2 : !croq.tile<64x128xf16, shared, swizzle = 128> -> !croq.frag<64x128xf16>
        %o0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
        %m0 = croq.vec.fill %ninf : !croq.vec<64xf32, rows>
        %l0 = croq.vec.fill %zero : !croq.vec<64xf32, rows>
        %res:3 = scf.for %j = %c0 to %tiles step %c1
            iter_args(%o = %o0, %m = %m0, %l = %l0)
            -> (!croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>) {
          %stage = arith.remui %j, %c2 : index
          croq.event.wait %full[%stage] : !croq.events<2>
          %kt = croq.stage %k_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %k2 = croq.span_as %kt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %kb = croq.mma.load %k2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %s0 = croq.mma.fill %zero : !croq.acc<64x128xf32>
          %s1 = croq.mma row row %s0, %qa, %kb : !croq.frag<64x128xf16>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %s = croq.mma.commit %s1 : !croq.acc<64x128xf32>
          %base = arith.muli %j, %c128 : index
          %t = croq.mma.map %s (%row, %col, %x) : !croq.acc<64x128xf32> {
            %key = arith.addi %base, %col : index
            %query = arith.addi %q_base, %row : index
            %exists = arith.cmpi ult, %key, %keys : index
            %visible = arith.cmpi ule, %key, %query : index
            %inside = arith.andi %exists, %visible : i1
            %y = arith.mulf %x, %scale : f32
            %r = arith.select %inside, %y, %ninf : f32
            croq.yield %r : f32
          }
          %mt = croq.mma.reduce max %t : !croq.acc<64x128xf32> -> !croq.vec<64xf32, rows>
          %mn = croq.vec.map %m, %mt (%i, %a, %b) : !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows> {
            %x = arith.maximumf %a, %b : f32
            croq.yield %x : f32
          }
          %pm = croq.mma.map %t, %mn (%row, %col, %x, %mx) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %d = arith.subf %x, %mx : f32
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
            %x = arith.mulf %a, %b : f32
            %y = arith.addf %x, %c : f32
            croq.yield %y : f32
          }
          %os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
            %y = arith.mulf %x, %a : f32
            croq.yield %y : f32
          }
          %pa = croq.mma.convert %pm : !croq.acc<64x128xf32> -> !croq.frag<64x128xf16, registers>
          %vt = croq.stage %v_s[%stage] : !croq.tiles<2 x 1x128x128xf16, shared, swizzle = 128>
          %v2 = croq.span_as %vt : !croq.tile<1x128x128xf16, shared, swizzle = 128> -> !croq.tile<128x128xf16, shared, swizzle = 128>
          %vb = croq.mma.load %v2 : !croq.tile<128x128xf16, shared, swizzle = 128> -> !croq.frag<128x128xf16>
          %o1 = croq.mma row col %os, %pa, %vb : !croq.frag<64x128xf16, registers>, !croq.frag<128x128xf16> -> !croq.acc<64x128xf32>
          %on = croq.mma.commit %o1 : !croq.acc<64x128xf32>
          croq.event.trigger %empty[%stage] : !croq.events<2>
          scf.yield %on, %mn, %ln : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows>, !croq.vec<64xf32, rows>
        }
        %o = croq.mma.map %res#0, %res#2 (%row, %col, %x, %sum) : !croq.acc<64x128xf32>, !croq.vec<64xf32, rows> {
          %y = arith.divf %x, %sum : f32
          croq.yield %y : f32
        }
        // The consumer's Q tile is free: it takes the output for the TMA
        // store, which leaves out rows past the sequence's end.
        croq.mma.store %o -> %q2 : !croq.acc<64x128xf32> -> !croq.tile<64x128xf16, shared, swizzle = 128>
        %ov = croq.subspan %out [1, 64, 128] at [%bh, %row_block, %c0] : memref<?x?x?xf16> -> !croq.view<1x64x128xf16>
        %stored = croq.copy tma async swizzle = 128 %qt -> %ov : !croq.tile<1x64x128xf16, shared, swizzle = 128> -> !croq.view<1x64x128xf16>
      }
    }
  }
  return
}
