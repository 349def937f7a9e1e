"""The decoding attention's split kernel: a producer warpgroup loading
the K and V tiles of a split of the keys (contiguous or paged), the
consumers' online softmax over them, and each split's partial output and
log-sum-exp stored for the combine kernel."""

from decode_common import LOG2E, SMS


def split_kernel(k):
    """The kernel of the splits: one block an SM walks the work items
    (item, split, 64 rows)."""
    w = k.w
    w("  // exp(x * sm_scale) = exp2(x * scale).")
    w(f"  %log2e = arith.constant {LOG2E} : f32")
    w("  %scale = arith.mulf %sm_scale, %log2e : f32")
    w("  %work = arith.muli %units, %splits : index")
    w(f"  %grid = arith.minui %work, %c{SMS} : index")
    w("  croq.parallel (%bid) in [%grid] : block {")
    w(f"    %kfull = croq.event.alloc : {k.E}")
    w(f"    %kempty = croq.event.alloc ready : {k.E}")
    w(f"    %vfull = croq.event.alloc : {k.E}")
    w(f"    %vempty = croq.event.alloc ready : {k.E}")
    w(f"    %qfull = croq.event.alloc : {k.E2}")
    w(f"    %qempty = croq.event.alloc ready : {k.E2}")
    w(f"    %q_s = croq.alloc : {k.QS}")
    w(f"    %k_s = croq.alloc : {k.KS}")
    w(f"    %v_s = croq.alloc : {k.KS}")
    w("    croq.parallel (%p) in [2] : warpgroup {")
    w("      %is_producer = arith.cmpi eq, %p, %c0 : index")
    w("      %is_consumer = arith.cmpi ne, %p, %c0 : index")
    producer(k)
    consumer(k)
    w("    }")
    w("  }")


def open_work(k, I):
    """Opens the loop over the block's work items at indentation I, with the
    ring position of the item's first key tile (%base) and the item's
    number in the block's walk (%n, whose parity is its Q slot); writes the
    item's coordinates and key tiles %t0 to %t0 + %count. Returns the
    body's indentation."""
    w = k.w
    w(f"{I}scf.for %w = %bid to %work step %grid iter_args(%base = %c0, %n = %c0) -> (index, index) {{")
    J = I + "  "
    w(f"{J}// Work items in the order (item, split, row tile): the row tiles")
    w(f"{J}// of a split read the same K and V tiles from L2.")
    w(f"{J}%rt = arith.remui %w, %row_tiles : index")
    w(f"{J}%item_split = arith.divui %w, %row_tiles : index")
    w(f"{J}%split = arith.remui %item_split, %splits : index")
    w(f"{J}%item = arith.divui %item_split, %splits : index")
    w(f"{J}%kv_divisor = arith.maxui %kv_heads, %c1 : index")
    w(f"{J}%seq = arith.divui %item, %kv_divisor : index")
    w(f"{J}%kvh = arith.remui %item, %kv_divisor : index")
    w(f"{J}// The sequence's keys, within 0 and the cache's capacity.")
    w(f"{J}%len32 = croq.read %seqlens[%seq] : memref<?xi32> -> i32")
    w(f"{J}%len_pos = arith.maxsi %len32, %c0_i32 : i32")
    w(f"{J}%len_raw = arith.index_castui %len_pos : i32 to index")
    w(f"{J}%len = arith.minui %len_raw, %capacity : index")
    w(f"{J}%seq_tiles = arith.ceildivui %len, %c128 : index")
    w(f"{J}%t0 = arith.muli %split, %per_split : index")
    w(f"{J}%t_end = arith.addi %t0, %per_split : index")
    w(f"{J}%t_cut = arith.minui %t_end, %seq_tiles : index")
    w(f"{J}%t1 = arith.maxui %t_cut, %t0 : index")
    w(f"{J}%count = arith.subi %t1, %t0 : index")
    w(f"{J}%slot = arith.remui %n, %c2 : index")
    return J


def close_work(k, I):
    """Ends the body opened by open_work at indentation I."""
    w = k.w
    J = I + "  "
    w(f"{J}%base_n = arith.addi %base, %count : index")
    w(f"{J}%n_n = arith.addi %n, %c1 : index")
    w(f"{J}scf.yield %base_n, %n_n : index, index")
    w(f"{I}}}")


def producer(k):
    """The producer warpgroup: each work item's Q rows into the Q ring and
    its split's K and V tiles into theirs, by TMA; the rings run on across
    items, so that the next item's loads overlap this one's end."""
    w = k.w
    D = k.D
    w("      croq.inthreads async %is_producer {")
    I = "        "
    J = open_work(k, I)
    w(f"{J}// The rows: the query heads of the K/V head and their queries,")
    w(f"{J}// zero-filled past the last.")
    w(f"{J}croq.event.wait %qempty[%slot] : {k.E2}")
    w(f"{J}%qv = croq.subspan %q [1, 64, {D}] at [%item, %rt, %c0] : {k.MR} -> {k.QV}")
    w(f"{J}%qs = croq.stage %q_s[%slot] : {k.QS}")
    w(f"{J}%fq = croq.copy tma async zfill swizzle = 128 %qv -> %qs : {k.QV} -> {k.Q3}")
    w(f"{J}croq.event.trigger %qfull[%slot] after (%fq) : {k.E2}")
    w(f"{J}scf.for %i = %c0 to %count step %c1 {{")
    K = J + "  "
    w(f"{K}%j = arith.addi %t0, %i : index")
    w(f"{K}%g = arith.addi %base, %i : index")
    w(f"{K}%stage = arith.remui %g, %c{k.stages} : index")
    if k.paged:
        w(f"{K}// Tile j of the sequence: page table[seq, j / tiles a page],")
        w(f"{K}// tile j % (tiles a page) in it.")
        w(f"{K}%page_index = arith.divui %j, %page_divisor : index")
        w(f"{K}%in_page = arith.remui %j, %page_divisor : index")
        w(f"{K}%page32 = croq.read %table[%seq, %page_index] : memref<?x?xi32> -> i32")
        w(f"{K}%page_id = arith.index_castui %page32 : i32 to index")
        at = "%page_id, %in_page, %kvh"
    else:
        at = "%item, %j, %c0"
    w(f"{K}croq.event.wait %kempty[%stage] : {k.E}")
    w(f"{K}%kv = croq.subspan %k [1, 128, {D}] at [{at}] : {k.MR} -> {k.KV}")
    w(f"{K}%ks = croq.stage %k_s[%stage] : {k.KS}")
    w(f"{K}%fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : {k.KV} -> {k.K3}")
    w(f"{K}croq.event.trigger %kfull[%stage] after (%fk) : {k.E}")
    w(f"{K}croq.event.wait %vempty[%stage] : {k.E}")
    w(f"{K}%vv = croq.subspan %v [1, 128, {D}] at [{at}] : {k.MR} -> {k.KV}")
    w(f"{K}%vs = croq.stage %v_s[%stage] : {k.KS}")
    w(f"{K}%fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : {k.KV} -> {k.K3}")
    w(f"{K}croq.event.trigger %vfull[%stage] after (%fv) : {k.E}")
    w(f"{J}}}")
    close_work(k, I)
    w("      }")


def consumer(k):
    """The consumer warpgroup: for each work item its 64 rows against the
    split's tiles, then the output, or the split's O and log-sum-exp."""
    w = k.w
    w("      croq.inthreads async %is_consumer {")
    I = "        "
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%ninf = arith.constant 0xFF800000 : f32")
    w(f"{I}%one = arith.constant 1.0 : f32")
    w(f"{I}%c7_i32 = arith.constant 7 : i32")
    w(f"{I}%cm8_i32 = arith.constant -8 : i32")
    J = open_work(k, I)
    w(f"{J}croq.event.wait %qfull[%slot] : {k.E2}")
    w(f"{J}%qt = croq.stage %q_s[%slot] : {k.QS}")
    w(f"{J}%q2 = croq.span_as %qt : {k.Q3} -> {k.Q2}")
    w(f"{J}%qa = croq.mma.load %q2 : {k.Q2} -> {k.QF}")
    w(f"{J}%last_tile = arith.subi %seq_tiles, %c1 : index")
    w(f"{J}%key_tail = arith.remui %len, %c128 : index")
    w(f"{J}%ragged = arith.cmpi ne, %key_tail, %c0 : index")
    w(f"{J}%o0 = croq.mma.fill %zero : {k.OA}")
    w(f"{J}%m0 = croq.vec.fill %ninf : {k.VEC}")
    w(f"{J}%l0 = croq.vec.fill %zero : {k.VEC}")
    w(f"{J}%res:3 = scf.for %i = %c0 to %count step %c1")
    w(f"{J}    iter_args(%o = %o0, %m = %m0, %l = %l0) -> ({k.OA}, {k.VEC}, {k.VEC}) {{")
    key_tile(k, J + "  ")
    w(f"{J}}}")
    store_split(k, J)
    close_work(k, I)
    w("      }")


def key_tile(k, J):
    """One key tile of the consumer's loop: S, the online softmax, P V."""
    w = k.w
    w(f"{J}%j = arith.addi %t0, %i : index")
    w(f"{J}%g = arith.addi %base, %i : index")
    w(f"{J}%stage = arith.remui %g, %c{k.stages} : index")
    w(f"{J}croq.event.wait %kfull[%stage] : {k.E}")
    w(f"{J}%kt = croq.stage %k_s[%stage] : {k.KS}")
    w(f"{J}%k2 = croq.span_as %kt : {k.K3} -> {k.K2}")
    w(f"{J}%kb = croq.mma.load %k2 : {k.K2} -> {k.KF}")
    w(f"{J}%sz = croq.mma.fill %zero : {k.SA}")
    w(f"{J}%s1 = croq.mma row row %sz, %qa, %kb : {k.QF}, {k.KF} -> {k.SA}")
    w(f"{J}%s = croq.mma.commit %s1 : {k.SA}")
    w(f"{J}croq.event.trigger %kempty[%stage] : {k.E}")
    mask(k, J)
    w(f"{J}%mt = croq.mma.reduce max %t : {k.SA} -> {k.VEC}")
    w(f"{J}%mn = croq.vec.map %m, %mt (%r, %a, %b) : {k.VEC}, {k.VEC} {{")
    w(f"{J}  %y = arith.mulf %b, %scale : f32")
    w(f"{J}  %x = arith.maximumf %a, %y : f32")
    w(f"{J}  croq.yield %x : f32")
    w(f"{J}}}")
    w(f"{J}%mn_neg = croq.vec.map %mn (%r, %a) : {k.VEC} {{")
    w(f"{J}  %x = arith.negf %a : f32")
    w(f"{J}  croq.yield %x : f32")
    w(f"{J}}}")
    w(f"{J}// P = exp2(S * scale - m): one fma and one ex2 an element.")
    w(f"{J}%pm = croq.mma.map %t, %mn_neg (%row, %col, %x, %nm) : {k.SA}, {k.VEC} {{")
    w(f"{J}  %d = math.fma %x, %scale, %nm : f32")
    w(f"{J}  %e = math.exp2 %d fastmath<afn> : f32")
    w(f"{J}  croq.yield %e : f32")
    w(f"{J}}}")
    w(f"{J}%ls = croq.mma.reduce sum %pm : {k.SA} -> {k.VEC}")
    w(f"{J}// The first tile's alpha is exp2(-inf) = 0 (every tile has a key).")
    w(f"{J}%alpha = croq.vec.map %m, %mn (%r, %a, %b) : {k.VEC}, {k.VEC} {{")
    w(f"{J}  %d = arith.subf %a, %b : f32")
    w(f"{J}  %e = math.exp2 %d fastmath<afn> : f32")
    w(f"{J}  croq.yield %e : f32")
    w(f"{J}}}")
    w(f"{J}%ln = croq.vec.map %l, %alpha, %ls (%r, %a, %b, %c) : {k.VEC}, {k.VEC}, {k.VEC} {{")
    w(f"{J}  %y = math.fma %a, %b, %c : f32")
    w(f"{J}  croq.yield %y : f32")
    w(f"{J}}}")
    w(f"{J}%pf = croq.mma.convert %pm : {k.SA} -> {k.PF}")
    w(f"{J}%os = croq.mma.map %o, %alpha (%row, %col, %x, %a) : {k.OA}, {k.VEC} {{")
    w(f"{J}  %y = arith.mulf %x, %a : f32")
    w(f"{J}  croq.yield %y : f32")
    w(f"{J}}}")
    w(f"{J}croq.event.wait %vfull[%stage] : {k.E}")
    w(f"{J}%vt = croq.stage %v_s[%stage] : {k.KS}")
    w(f"{J}%v2 = croq.span_as %vt : {k.K3} -> {k.K2}")
    w(f"{J}%vb = croq.mma.load %v2 : {k.K2} -> {k.KF}")
    w(f"{J}%o1 = croq.mma row col %os, %pf, %vb : {k.PF}, {k.KF} -> {k.OA}")
    w(f"{J}%oc = croq.mma.commit %o1 : {k.OA}")
    w(f"{J}croq.event.trigger %vempty[%stage] : {k.E}")
    w(f"{J}scf.yield %oc, %mn, %ln : {k.OA}, {k.VEC}, {k.VEC}")


def mask(k, J):
    """%t: the scores %s with keys past the sequence's end -inf, in the
    sequence's last tile only (in i32, one compare and one select an
    element, as examples/gen/flash_attention.py masks)."""
    w = k.w
    w(f"{J}// Only the sequence's last tile has keys past its end.")
    w(f"{J}%is_last = arith.cmpi eq, %j, %last_tile : index")
    w(f"{J}%needs_mask = arith.andi %is_last, %ragged : i1")
    w(f"{J}%t = scf.if %needs_mask -> ({k.SA}) {{")
    w(f"{J}  %limit = arith.index_cast %key_tail : index to i32")
    w(f"{J}  %masked = croq.mma.map %s (%row, %col, %x) : {k.SA} {{")
    w(f"{J}    // col < limit as col & -8 < limit - (col & 7).")
    w(f"{J}    %col32 = arith.index_castui %col : index to i32")
    w(f"{J}    %col_lo = arith.andi %col32, %c7_i32 : i32")
    w(f"{J}    %col_hi = arith.andi %col32, %cm8_i32 : i32")
    w(f"{J}    %room = arith.subi %limit, %col_lo : i32")
    w(f"{J}    %inside = arith.cmpi slt, %col_hi, %room : i32")
    w(f"{J}    %r = arith.select %inside, %x, %ninf : f32")
    w(f"{J}    croq.yield %r : f32")
    w(f"{J}  }}")
    w(f"{J}  scf.yield %masked : {k.SA}")
    w(f"{J}}} else {{")
    w(f"{J}  scf.yield %s : {k.SA}")
    w(f"{J}}}")


def store_split(k, I):
    """The split's O / l (0 without keys) and its log-sum-exp m + log2(l)
    (-inf without keys) into the workspace; then the item's Q slot is free
    for the producer (its products are done)."""
    w = k.w
    w(f"{I}%inv = croq.vec.map %res#2 (%r, %a) : {k.VEC} {{")
    w(f"{I}  %any = arith.cmpf ogt, %a, %zero : f32")
    w(f"{I}  %rcp = arith.divf %one, %a : f32")
    w(f"{I}  %x = arith.select %any, %rcp, %zero : f32")
    w(f"{I}  croq.yield %x : f32")
    w(f"{I}}}")
    w(f"{I}%on = croq.mma.map %res#0, %inv (%row, %col, %x, %a) : {k.OA}, {k.VEC} {{")
    w(f"{I}  %y = arith.mulf %x, %a : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}croq.event.trigger %qempty[%slot] : {k.E2}")
    w(f"{I}%lse2 = croq.vec.map %res#1, %res#2 (%r, %a, %b) : {k.VEC}, {k.VEC} {{")
    w(f"{I}  %lg = math.log2 %b : f32")
    w(f"{I}  %y = arith.addf %a, %lg : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}// The log-sum-exp broadcast over 8 columns (an accumulator's")
    w(f"{I}// narrowest form).")
    w(f"{I}%lz = croq.mma.fill %zero : {k.LA}")
    w(f"{I}%lb = croq.mma.map %lz, %lse2 (%row, %col, %x, %a) : {k.LA}, {k.VEC} {{")
    w(f"{I}  croq.yield %a : f32")
    w(f"{I}}}")
    w(f"{I}%wtile_s = arith.muli %split, %row_tiles : index")
    w(f"{I}%wtile_is = arith.muli %item, %row_tiles : index")
    w(f"{I}%wtile_i = arith.muli %wtile_is, %splits : index")
    w(f"{I}%wtile_b = arith.addi %wtile_i, %wtile_s : index")
    w(f"{I}%wtile = arith.addi %wtile_b, %rt : index")
    w(f"{I}%wv = croq.subspan %o_part [64, {k.D}] at [%wtile, %c0] : memref<?x?xf32> -> {k.OV}")
    w(f"{I}croq.mma.store %on -> %wv : {k.OA} -> {k.OV}")
    w(f"{I}%lv = croq.subspan %lse [64, 8] at [%wtile, %c0] : memref<?x?xf32> -> {k.LV}")
    w(f"{I}croq.mma.store %lb -> %lv : {k.LA} -> {k.LV}")
