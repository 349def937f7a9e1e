"""The dK/dV kernels of examples/flash_attention_bwd.mlir, alone or
fused with dQ's f32 sums (see flash_attention_bwd.py's header)."""

from attention_fwd_consumer import last_turn, my_turn, pass_turn
from attention_bwd_common import (
    DELTA, DK, DO, DQ_ACC, DV, K, LSE, Q, TURNS, V, Writer, constants,
    host_checks, pingpong, read_staged_vec, suffix, turns_begin)


def query_tiles(D, causal, fused):
    """The query rows of the dK/dV kernel's tiles and the stages of their
    ring. 128 rows at D = 64, where tiles of 64 left the consumers'
    products small (m64n64k64 for S^T and dP^T) and their waits, loads and
    barriers twice as many per flop; 64 at D = 128 (a tile of 128 would not
    fit the accumulators of S^T, dP^T, dK and dV in registers) and in the
    fused kernel. Three stages not causal (four at D = 64: 1.00 -> 0.98 ms
    at 4x16x4096 bf16 and 1.91 -> 1.83 at 2x16x8192 against three, H200,
    2026-12-02), two causal (three measured slower at D = 64 and no faster
    at D = 128)."""
    if D == 64 and not fused:
        return 128, 2 if causal else 4
    return 64, 2 if causal else 3


def dkdv_kernel(T, D, causal, fused=False):
    k = Writer(T, D, causal)
    w = k.w
    PR, CR = k.roles("dkdvdq" if fused else "dkdv")
    k.query_tile(*query_tiles(D, causal, fused))
    k.pingpong = not fused and pingpong(D)
    QT = k.QT
    name = ("attention_bwd_dkdvdq" if fused else "attention_bwd_dkdv") + \
        suffix(T, D, causal)
    WS = "memref<?xf32>"
    w(f"func.func @{name}(%q: {k.MR}, %k: {k.MR}, %v: {k.MR},")
    w(f"    %do: {k.MR}, %lse: {k.ML}, %delta: {k.ML}, %dk: {k.MR},")
    if fused:
        w(f"    %dv: {k.MR}, %dq_acc: {WS}, %turns: memref<?xi32>,")
        w("    %sm_scale: f32) {")
    else:
        w(f"    %dv: {k.MR}, %sm_scale: f32) {{")
    constants(k, (k.rstages,) if k.rstages != 2 else ())
    prelude, workspaces = (), ()
    if fused:
        prelude = ("  %seq_tiles = arith.ceildivui %seq, %c64 : index",
                   "  %tile_count = arith.muli %heads, %seq_tiles : index",
                   "  %turn_count = arith.muli %tile_count, %c2 : index",
                   "  %acc_rows = arith.muli %tile_count, %c64 : index",
                   "  %acc_elems = arith.muli %acc_rows, %cD : index")
        workspaces = (("%dq_acc", DQ_ACC, ("%acc_elems",), WS),
                      ("%turns", TURNS, ("%turn_count",), "memref<?xi32>"))
    host_checks(k, [("%q", Q, "q"), ("%k", K, "kv"), ("%v", V, "kv"),
                    ("%do", DO, "q"),
                    ("%lse", LSE, "rows"), ("%delta", DELTA, "rows"),
                    ("%dk", DK, "kv"), ("%dv", DV, "kv")], workspaces,
                prelude)
    w("  %grid_k = arith.ceildivui %keys, %c128 : index")
    w(f"  %q_tiles = arith.ceildivui %seq, %c{QT} : index")
    w("  // One block for 128 keys of a key/value head; causal, the key tiles")
    w("  // with the most query tiles (the first) first.")
    w("  %items = arith.muli %kv_heads, %grid_k : index")
    w("  croq.parallel (%bid) in [%items] : block {")
    w(f"    %kvready = croq.event.alloc : {k.E1}")
    w(f"    %rfull = croq.event.alloc : {k.ER}")
    w(f"    %rempty = croq.event.alloc ready : {k.ER}")
    w(f"    %k_s = croq.alloc : {k.RS}")
    w(f"    %v_s = croq.alloc : {k.RS}")
    w(f"    %q_s = croq.alloc : {k.RSR}")
    w(f"    %do_s = croq.alloc : {k.RSR}")
    for t in ("lse", "dlt"):
        w(f"    %{t}_s = croq.alloc : {k.LSR}")
    if fused:
        w(f"    %ds_s = croq.alloc : {ds_types(T)[2]}")
    if fused:
        w(f"    %dq_s = croq.alloc : !croq.tiles<2 x 64x{D // 2}xf32, shared, swizzle = 128>")
    w("    %kb = arith.divui %bid, %kv_heads : index")
    w("    %bkv = arith.remui %bid, %kv_heads : index")
    if causal:
        w("    // Query rows from 128 kb on see the tile's keys.")
        if QT == 64:
            w("    %first_q = arith.muli %kb, %c2 : index")
        else:
            w("    %first_q = arith.addi %kb, %c0 : index")
        w("    %start = arith.minui %first_q, %q_tiles : index")
    else:
        w("    %start = arith.addi %c0, %c0 : index")
    w("    %per_head = arith.subi %q_tiles, %start : index")
    w("    %steps = arith.muli %per_head, %group : index")
    w("    %head0 = arith.muli %bkv, %group : index")
    w("    croq.parallel (%p) in [3] : warpgroup {")
    w("      %is_producer = arith.cmpi eq, %p, %c0 : index")
    w("      %is_consumer = arith.cmpi ne, %p, %c0 : index")
    dkdv_producer(k, PR)
    dkdv_consumer(k, CR, fused)
    w("    }")
    w("  }")
    w("  return")
    w("}")
    return k.text()


def dkdv_producer(k, PR):
    """The dK/dV kernel's producer: the block's K and V tiles once, then
    the Q, dO, log-sum-exp and delta tiles of every query tile in the
    ring."""
    w = k.w
    D, QT = k.D, k.QT
    I = "        "
    w(f"      croq.inthreads async %is_producer{PR} {{")
    w(f"{I}// The block's keys and values, 64 rows a consumer.")
    futures = []
    for t, src in (("k", "%k"), ("v", "%v")):
        for h in (0, 1):
            w(f"{I}%{t}r{h} = arith.addi %kb, %kb : index")
            w(f"{I}%{t}row{h} = arith.addi %{t}r{h}, %c{h} : index")
            w(f"{I}%{t}v{h} = croq.subspan {src} [1, 64, {D}] at [%bkv, %{t}row{h}, %c0] : {k.MR} -> {k.RV}")
            w(f"{I}%{t}t{h} = croq.stage %{t}_s[%c{h}] : {k.RS}")
            w(f"{I}%f{t}{h} = croq.copy tma async zfill swizzle = 128 %{t}v{h} -> %{t}t{h} : {k.RV} -> {k.R3}")
            futures.append(f"%f{t}{h}")
    w(f"{I}croq.event.trigger %kvready[%c0] after ({', '.join(futures)}) : {k.E1}")
    w(f"{I}scf.for %t = %c0 to %steps step %c1 {{")
    J = I + "  "
    w(f"{J}%g = arith.divui %t, %per_head : index")
    w(f"{J}%ti = arith.remui %t, %per_head : index")
    w(f"{J}%i = arith.addi %start, %ti : index")
    w(f"{J}%bh = arith.addi %head0, %g : index")
    w(f"{J}%stage = arith.remui %t, %c{k.rstages} : index")
    w(f"{J}croq.event.wait %rempty[%stage] : {k.ER}")
    futures = []
    for t, src in (("q", "%q"), ("do", "%do")):
        w(f"{J}%{t}v = croq.subspan {src} [1, {QT}, {D}] at [%bh, %i, %c0] : {k.MR} -> {k.QRV}")
        w(f"{J}%{t}t = croq.stage %{t}_s[%stage] : {k.RSR}")
        w(f"{J}%f{t} = croq.copy tma async zfill swizzle = 128 %{t}v -> %{t}t : {k.QRV} -> {k.QR3}")
        futures.append(f"%f{t}")
    for t, src in (("lse", "%lse"), ("dlt", "%delta")):
        w(f"{J}%{t}v = croq.subspan {src} [1, {QT}] at [%bh, %i] : {k.ML} -> {k.QLV}")
        w(f"{J}%{t}t = croq.stage %{t}_s[%stage] : {k.LSR}")
        w(f"{J}%f{t} = croq.copy tma async zfill %{t}v -> %{t}t : {k.QLV} -> {k.LT}")
        futures.append(f"%f{t}")
    w(f"{J}croq.event.trigger %rfull[%stage] after ({', '.join(futures)}) : {k.ER}")
    w(f"{I}}}")
    w("      }")


def dkdv_consumer(k, CR, fused):
    """A consumer of the dK/dV kernel over its 64 keys: for every query
    tile S^T, P^T, dV += P^T dO, dP^T, dS^T and dK += dS^T Q (and, fused,
    its part of dQ's sums); dK and dV stored through its K and V tiles."""
    w = k.w
    T, D, causal, QT = k.T, k.D, k.causal, k.QT
    SA = f"!croq.acc<64x{QT}xf32>"
    OA = f"!croq.acc<64x{D}xf32>"
    PF = f"!croq.frag<64x{QT}x{T}, registers>"
    VEC = f"!croq.vec<{QT}xf32, cols>"
    DS3, DS2, DSS = ds_types(T)
    I = "        "
    J = I + "  "
    w(f"      croq.inthreads async %is_consumer{CR} {{")
    w(f"{I}%half = arith.subi %p, %c1 : index")
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%ninf = arith.constant 0xFF800000 : f32")
    w(f"{I}croq.event.wait %kvready[%c0] : {k.E1}")
    for t in ("k", "v"):
        w(f"{I}%{t}t = croq.stage %{t}_s[%half] : {k.RS}")
        w(f"{I}%{t}2 = croq.span_as %{t}t : {k.R3} -> {k.R2}")
        w(f"{I}%{t}a = croq.mma.load %{t}2 : {k.R2} -> {k.RF}")
    w(f"{I}%kr = arith.addi %kb, %kb : index")
    w(f"{I}%key_block = arith.addi %kr, %half : index")
    w(f"{I}%key_base = arith.muli %key_block, %c64 : index")
    if k.pingpong:
        turns_begin(k, I)
    w(f"{I}%acc0 = croq.mma.fill %zero : {OA}")
    w(f"{I}%res:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%dva = %acc0, %dka = %acc0) -> ({OA}, {OA}) {{")
    w(f"{J}%g = arith.divui %t, %per_head : index")
    w(f"{J}%ti = arith.remui %t, %per_head : index")
    w(f"{J}%i = arith.addi %start, %ti : index")
    w(f"{J}%bh = arith.addi %head0, %g : index")
    w(f"{J}%stage = arith.remui %t, %c{k.rstages} : index")
    w(f"{J}croq.event.wait %rfull[%stage] : {k.ER}")
    for t in ("q", "do"):
        w(f"{J}%{t}t = croq.stage %{t}_s[%stage] : {k.RSR}")
        w(f"{J}%{t}2 = croq.span_as %{t}t : {k.QR3} -> {k.QR2}")
        w(f"{J}%{t}b = croq.mma.load %{t}2 : {k.QR2} -> {k.QRF}")
    w(f"{J}%sz = croq.mma.fill %zero : {SA}")
    if k.pingpong:
        my_turn(k, J)
    w(f"{J}%s1 = croq.mma row row %sz, %ka, %qb : {k.RF}, {k.QRF} -> {SA}")
    w(f"{J}%sc = croq.mma.commit %s1 pending = 1 : {SA}")
    w(f"{J}%dp1 = croq.mma row row %sz, %va, %dob : {k.RF}, {k.QRF} -> {SA}")
    w(f"{J}%dpc = croq.mma.commit %dp1 pending = 1 : {SA}")
    if k.pingpong:
        pass_turn(k, J)
    read_staged_vec(k, J, "lse2", "%lse_s", "%stage", "cols")
    w(f"{J}%st = croq.mma.wait %sc pending = 1 : {SA}")
    sm = transposed_mask(k, J, SA) if causal else "%st"
    w(f"{J}%pt = croq.mma.map {sm}, %lse2 (%row, %col, %x, %l) : {SA}, {VEC} {{")
    w(f"{J}  %nl = arith.negf %l : f32")
    w(f"{J}  %d = math.fma %x, %scale, %nl : f32")
    w(f"{J}  %e = math.exp2 %d fastmath<afn> : f32")
    w(f"{J}  croq.yield %e : f32")
    w(f"{J}}}")
    w(f"{J}%ptf = croq.mma.convert %pt : {SA} -> {PF}")
    w(f"{J}%dv1 = croq.mma row col %dva, %ptf, %dob : {PF}, {k.QRF} -> {OA}")
    w(f"{J}%dvc = croq.mma.commit %dv1 pending = 1 : {OA}")
    read_staged_vec(k, J, "dlt", "%dlt_s", "%stage", "cols")
    w(f"{J}%dpt = croq.mma.wait %dpc pending = 1 : {SA}")
    w(f"{J}%dst = croq.mma.map %pt, %dpt, %dlt (%row, %col, %x, %y, %dl) : {SA}, {SA}, {VEC} {{")
    w(f"{J}  %d = arith.subf %y, %dl : f32")
    w(f"{J}  %gr = arith.mulf %x, %d : f32")
    w(f"{J}  croq.yield %gr : f32")
    w(f"{J}}}")
    if not fused:
        w(f"{J}%dsf = croq.mma.convert %dst : {SA} -> {PF}")
        w(f"{J}%dk1 = croq.mma row col %dka, %dsf, %qb : {PF}, {k.QRF} -> {OA}")
        w(f"{J}%dkc = croq.mma.commit %dk1 : {OA}")
        w(f"{J}%dvw = croq.mma.wait %dvc : {OA}")
        w(f"{J}croq.event.trigger %rempty[%stage] : {k.ER}")
        w(f"{J}scf.yield %dvw, %dkc : {OA}, {OA}")
    else:
        dq_contribution(k, J, SA, OA, PF, DS3, DS2, DSS)
    w(f"{I}}}")
    dkdv_epilogue(k, I, fused, OA)
    w("      }")


def transposed_mask(k, J, SA):
    """The causal mask of S^T (keys as rows, queries as columns), applied
    to the query tiles that cross the diagonal; returns its name."""
    w = k.w
    QT = k.QT
    w(f"{J}// Only the query tiles that cross the diagonal are masked:")
    w(f"{J}// query q sees key r where q >= r.")
    w(f"{J}%q_base = arith.muli %i, %c{QT} : index")
    w(f"{J}%key_top = arith.addi %key_base, %c64 : index")
    w(f"{J}%under = arith.cmpi ult, %q_base, %key_top : index")
    w(f"{J}%needs_mask = arith.andi %under, %under : i1")
    w(f"{J}%sm = scf.if %needs_mask -> ({SA}) {{")
    w(f"{J}  %masked = croq.mma.map %st (%row, %col, %x) : {SA} {{")
    w(f"{J}    %key = arith.addi %key_base, %row : index")
    w(f"{J}    %query = arith.addi %q_base, %col : index")
    w(f"{J}    %seen = arith.cmpi ule, %key, %query : index")
    w(f"{J}    %r = arith.select %seen, %x, %ninf : f32")
    w(f"{J}    croq.yield %r : f32")
    w(f"{J}  }}")
    w(f"{J}  scf.yield %masked : {SA}")
    w(f"{J}}} else {{")
    w(f"{J}  scf.yield %st : {SA}")
    w(f"{J}}}")
    return "%sm"


def dkdv_epilogue(k, I, fused, OA):
    """After the consumer's loop: fused, the last tile's turn and the
    barrier before K's tiles are written; the turns' last hand-over; dK
    (times the softmax scale) and dV stored through the K and V tiles."""
    w = k.w
    D = k.D
    if fused:
        w(f"{I}// The last tile's turn.")
        w(f"{I}%any = arith.cmpi ugt, %steps, %c0 : index")
        w(f"{I}scf.if %any {{")
        w(f"{I}  %tl = arith.subi %steps, %c1 : index")
        counter_index(k, I + "  ", "%tl", "l")
        w(f"{I}  croq.wait_stores")
        w(f"{I}  croq.turn.pass %turns[%counter_l] : memref<?xi32>")
        w(f"{I}}}")
    if fused:
        w(f"{I}// The other consumer reads this one's K tile until its last")
        w(f"{I}// dQ product; dK is stored through it.")
        w(f"{I}croq.named_barrier.sync %c0, threads = 256")
    if k.pingpong:
        last_turn(k, I)
    w(f"{I}%dks = croq.mma.map %res#1 (%row, %col, %x) : {OA} {{")
    w(f"{I}  %y = arith.mulf %x, %sm_scale : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}// Through the consumer's K and V tiles, by TMA.")
    for t, acc, tile in (("dk", "%dks", "k"), ("dv", "%res#0", "v")):
        w(f"{I}%{t}v = croq.subspan %{t} [1, 64, {D}] at [%bkv, %key_block, %c0] : {k.MR} -> {k.RV}")
        w(f"{I}croq.mma.store {acc} -> %{tile}2 : {OA} -> {k.R2}")
        w(f"{I}%{t}_stored = croq.copy tma async swizzle = 128 %{tile}t -> %{t}v : {k.R3} -> {k.RV}")


def ds_types(T):
    """The fused kernel's scale dS^T tiles in shared memory: one, as a 2-D
    tile, and the ring of four (two consumers by iteration parity)."""
    return (f"!croq.tile<1x64x64x{T}, shared, swizzle = 128>",
            f"!croq.tile<64x64x{T}, shared, swizzle = 128>",
            f"!croq.tiles<4 x 1x64x64x{T}, shared, swizzle = 128>")


def dq_contribution(k, J, SA, OA, PF, DS3, DS2, DSS):
    """The fused dK/dV kernel's end of an iteration: dK += dS^T Q_i as
    before, and the block's part of dQ_i = (scale dS) K over its 128 keys:
    each consumer stores scale dS^T of its 64 keys in shared memory, and
    after both have, multiplies the two (read transposed as wgmma's A) by
    the matching halves of its own D / 2 columns of K, and adds the 64 x
    D / 2 product into the f32 workspace through a shared tile with one
    bulk add. Each column half of each query tile has a turn counter that
    key block kb waits to be kb: the adds of the key blocks come in the
    same order on every run. A consumer passes its turn one iteration
    later, after waiting for its add, so that the add runs under that
    iteration's products."""
    w = k.w
    T, D = k.T, k.D
    H = D // 2
    DF = f"!croq.frag<64x64x{T}>"
    KF = f"!croq.frag<64x{H}x{T}>"
    KV = f"!croq.view<64x{H}x{T}, shared, swizzle = 128>"
    QA = f"!croq.acc<64x{H}xf32>"
    w(f"{J}%dsq = croq.mma.map %dst (%row, %col, %x) : {SA} {{")
    w(f"{J}  %y = arith.mulf %x, %sm_scale : f32")
    w(f"{J}  croq.yield %y : f32")
    w(f"{J}}}")
    w(f"{J}// scale dS^T to shared memory, two buffers of the two consumers'")
    w(f"{J}// by iteration parity: the other consumer may still read the")
    w(f"{J}// previous iteration's.")
    w(f"{J}%parity = arith.remui %t, %c2 : index")
    w(f"{J}%ds_base = arith.muli %parity, %c2 : index")
    w(f"{J}%ds_own = arith.addi %ds_base, %half : index")
    w(f"{J}%dst_t = croq.stage %ds_s[%ds_own] : {DSS}")
    w(f"{J}%dst_2 = croq.span_as %dst_t : {DS3} -> {DS2}")
    w(f"{J}croq.mma.store %dsq -> %dst_2 : {SA} -> {DS2}")
    w(f"{J}%dsf = croq.mma.convert %dst : {SA} -> {PF}")
    w(f"{J}%dk1 = croq.mma row col %dka, %dsf, %qb : {PF}, {k.QRF} -> {OA}")
    w(f"{J}%dkc = croq.mma.commit %dk1 pending = 1 : {OA}")
    w(f"{J}croq.barrier warpgroup async")
    w(f"{J}croq.named_barrier.sync %c0, threads = 256")
    w(f"{J}%dq0 = croq.mma.fill %zero : {QA}")
    acc = "%dq0"
    for h in (0, 1):
        w(f"{J}%ds_{h} = arith.addi %ds_base, %c{h} : index")
        w(f"{J}%dsh_t{h} = croq.stage %ds_s[%ds_{h}] : {DSS}")
        w(f"{J}%dsh_2{h} = croq.span_as %dsh_t{h} : {DS3} -> {DS2}")
        w(f"{J}%dsa{h} = croq.mma.load %dsh_2{h} : {DS2} -> {DF}")
        w(f"{J}%kh_t{h} = croq.stage %k_s[%c{h}] : {k.RS}")
        w(f"{J}%kh_2{h} = croq.span_as %kh_t{h} : {k.R3} -> {k.R2}")
        w(f"{J}%kh_v{h} = croq.subspan %kh_2{h} [64, {H}] at [%c0, %half] : {k.R2} -> {KV}")
        w(f"{J}%kh_f{h} = croq.mma.load %kh_v{h} : {KV} -> {KF}")
        w(f"{J}%dq{h + 1} = croq.mma col col {acc}, %dsa{h}, %kh_f{h} : {DF}, {KF} -> {QA}")
        acc = f"%dq{h + 1}"
    w(f"{J}%dqc = croq.mma.commit {acc} : {QA}")
    w(f"{J}%dvw = croq.mma.wait %dvc : {OA}")
    w(f"{J}%dkw = croq.mma.wait %dkc : {OA}")
    w(f"{J}croq.event.trigger %rempty[%stage] : {k.ER}")
    w(f"{J}// The previous tile's turn, passed now that its adds had an")
    w(f"{J}// iteration to drain.")
    w(f"{J}%has_prev = arith.cmpi ugt, %t, %c0 : index")
    w(f"{J}scf.if %has_prev {{")
    w(f"{J}  %tp = arith.subi %t, %c1 : index")
    counter_index(k, J + "  ", "%tp", "p")
    w(f"{J}  croq.wait_stores")
    w(f"{J}  croq.turn.pass %turns[%counter_p] : memref<?xi32>")
    w(f"{J}}}")
    counter_index(k, J, "%t", "")
    ST = f"!croq.tile<64x{H}xf32, shared, swizzle = 128>"
    w(f"{J}// The part through shared memory (swizzled: no bank conflicts;")
    w(f"{J}// croq.attention undoes the swizzle), added by one bulk add")
    w(f"{J}// into the part's {64 * H} consecutive floats of the workspace.")
    w(f"{J}%dq_st = croq.stage %dq_s[%half] : !croq.tiles<2 x 64x{H}xf32, shared, swizzle = 128>")
    w(f"{J}croq.mma.store %dqc -> %dq_st : {QA} -> {ST}")
    w(f"{J}croq.turn.wait %turns[%counter_] until %kb : memref<?xi32>")
    w(f"{J}%dq_v = croq.subspan %dq_acc [{64 * H}] at [%counter_] : memref<?xf32> -> !croq.view<{64 * H}xf32>")
    w(f"{J}croq.bulk_add %dq_st -> %dq_v : {ST} -> !croq.view<{64 * H}xf32>")
    w(f"{J}scf.yield %dvw, %dkw : {OA}, {OA}")


def counter_index(k, J, t, n):
    """%tile_n, the workspace's query tile of step `t`, and %counter_n, the
    turn counter of the consumer's column half of it."""
    w = k.w
    w(f"{J}%g_{n} = arith.divui {t}, %per_head : index")
    w(f"{J}%ti_{n} = arith.remui {t}, %per_head : index")
    w(f"{J}%i_{n} = arith.addi %start, %ti_{n} : index")
    w(f"{J}%bh_{n} = arith.addi %head0, %g_{n} : index")
    w(f"{J}%tile_row_{n} = arith.muli %bh_{n}, %q_tiles : index")
    w(f"{J}%tile_{n} = arith.addi %tile_row_{n}, %i_{n} : index")
    w(f"{J}%counter2_{n} = arith.muli %tile_{n}, %c2 : index")
    w(f"{J}%counter_{n} = arith.addi %counter2_{n}, %half : index")
