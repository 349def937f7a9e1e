"""The dQ and delta kernels of examples/flash_attention_bwd.mlir (see
flash_attention_bwd.py's header for what each computes)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_fwd_common import Kernel, extent_check  # noqa: E402
from attention_fwd_consumer import (  # noqa: E402
    last_turn, mask, my_turn, pass_turn)
from attention_bwd_common import (  # noqa: E402
    DELTA, DO, DQ, DQ_ACC, K, LSE, OUT, Q, TURNS, V, Writer, constants,
    host_checks, pingpong, read_vec, suffix, turns_begin)


def dq_kernel(T, D, causal):
    k = Writer(T, D, causal)
    w = k.w
    PR, CR = k.roles("dq")
    k.pingpong = pingpong(D)
    name = "attention_bwd_dq" + suffix(T, D, causal)
    w(f"func.func @{name}(%q: {k.MR}, %k: {k.MR}, %v: {k.MR},")
    w(f"    %o: {k.MR}, %do: {k.MR}, %lse: {k.ML}, %delta: {k.ML},")
    w(f"    %dq: {k.MR}, %sm_scale: f32) {{")
    # K and V rings: two stages of 128 keys at D = 128 (three would not fit
    # beside Q, dO and O), three at D = 64 (the D = 64 bf16 kernel 0.94 ->
    # 0.89 ms at 4x16x4096 against two, H200, 2026-12-02).
    KST = 3 if D == 64 else 2
    EK = f"!croq.events<{KST}>"
    KSS = f"!croq.tiles<{KST} x 1x128x{D}x{T}, shared, swizzle = 128>"
    constants(k, (3,) if KST == 3 else ())
    host_checks(k, [("%q", Q, "q"), ("%k", K, "kv"), ("%v", V, "kv"),
                    ("%o", OUT, "q"),
                    ("%do", DO, "q"), ("%lse", LSE, "rows"),
                    ("%delta", DELTA, "rows"), ("%dq", DQ, "q")])
    w("  %grid_q = arith.ceildivui %seq, %c128 : index")
    w("  %key_tiles = arith.ceildivui %keys, %c128 : index")
    w("  %all_tiles = arith.maxui %key_tiles, %c1 : index")
    w("  %key_tail = arith.remui %keys, %c128 : index")
    w("  %ragged = arith.cmpi ne, %key_tail, %c0 : index")
    w("  // One block for 128 query rows of a head.")
    w("  %items = arith.muli %heads, %grid_q : index")
    w("  croq.parallel (%bid) in [%items] : block {")
    w(f"    %rready = croq.event.alloc : {k.E2}")
    w(f"    %kfull = croq.event.alloc : {EK}")
    w(f"    %kempty = croq.event.alloc ready : {EK}")
    w(f"    %vfull = croq.event.alloc : {EK}")
    w(f"    %vempty = croq.event.alloc ready : {EK}")
    w(f"    %q_s = croq.alloc : {k.RS}")
    w(f"    %do_s = croq.alloc : {k.RS}")
    w(f"    %o_s = croq.alloc : {k.RS}")
    w(f"    %k_s = croq.alloc : {KSS}")
    w(f"    %v_s = croq.alloc : {KSS}")
    if causal:
        w("    // Longest items first: query block grid_q - 1 - bid / heads.")
        w("    %level = arith.divui %bid, %heads : index")
        w("    %bh = arith.remui %bid, %heads : index")
        w("    %last_q = arith.subi %grid_q, %c1 : index")
        w("    %bq = arith.subi %last_q, %level : index")
        w("    %diagonal = arith.addi %bq, %c1 : index")
        w("    %tiles = arith.minui %all_tiles, %diagonal : index")
    else:
        w("    %bh = arith.divui %bid, %grid_q : index")
        w("    %bq = arith.remui %bid, %grid_q : index")
        w("    %tiles = arith.addi %all_tiles, %c0 : index")
    w("    %last = arith.subi %tiles, %c1 : index")
    w("    croq.parallel (%p) in [3] : warpgroup {")
    w("      %is_producer = arith.cmpi eq, %p, %c0 : index")
    w("      %is_consumer = arith.cmpi ne, %p, %c0 : index")
    # Producer: K and V tiles.
    w(f"      croq.inthreads async %is_producer{PR} {{")
    w("        %bkv = arith.divui %bh, %group : index")
    w("        scf.for %j = %c0 to %tiles step %c1 {")
    w(f"          %stage = arith.remui %j, %c{KST} : index")
    for ring, src, full, empty in (("k", "%k", "%kfull", "%kempty"),
                                   ("v", "%v", "%vfull", "%vempty")):
        w(f"          croq.event.wait {empty}[%stage] : {EK}")
        w(f"          %{ring}v = croq.subspan {src} [1, 128, {D}] at [%bkv, %j, %c0] : {k.MR} -> {k.KV}")
        w(f"          %{ring}s = croq.stage %{ring}_s[%stage] : {KSS}")
        w(f"          %f{ring} = croq.copy tma async zfill swizzle = 128 %{ring}v -> %{ring}s : {k.KV} -> {k.K3}")
        w(f"          croq.event.trigger {full}[%stage] after (%f{ring}) : {EK}")
    w("        }")
    w("      }")
    dq_consumer(k, CR, KST, EK, KSS)
    w("    }")
    w("  }")
    w("  return")
    w("}")
    return k.text()



def dq_consumer(k, CR, KST, EK, KSS):
    """A consumer of the dQ kernel: its 64 query rows' Q, dO and O, delta
    and the log-sum-exp, then over the key tiles of the K/V ring (KST
    stages, events EK, tiles KSS) S, P, dP and dS, and dQ += dS K; dQ
    stored through its O tile."""
    w = k.w
    T, D, causal = k.T, k.D, k.causal
    SA = "!croq.acc<64x128xf32>"
    OA = f"!croq.acc<64x{D}xf32>"
    PF = f"!croq.frag<64x128x{T}, registers>"
    VEC = "!croq.vec<64xf32, rows>"
    w(f"      croq.inthreads async %is_consumer{CR} {{")
    I = "        "
    w(f"{I}%half = arith.subi %p, %c1 : index")
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%ninf = arith.constant 0xFF800000 : f32")
    w(f"{I}%c7_i32 = arith.constant 7 : i32")
    w(f"{I}%cm8_i32 = arith.constant -8 : i32")
    w(f"{I}%q2x = arith.muli %bq, %c2 : index")
    w(f"{I}%row_block = arith.addi %q2x, %half : index")
    delta_rows(k, I, ("q", "do", "o"))
    read_vec(k, I, "lse2", "%lse", "%bh", "%row_block", "rows")
    w(f"{I}%nlse = croq.vec.map %lse2 (%i, %a) : {VEC} {{")
    w(f"{I}  %n = arith.negf %a : f32")
    w(f"{I}  croq.yield %n : f32")
    w(f"{I}}}")
    if causal:
        w(f"{I}%q_base = arith.muli %row_block, %c64 : index")
        w(f"{I}%q_end = arith.addi %q_base, %c1 : index")
    if k.pingpong:
        turns_begin(k, I)
    w(f"{I}%dq0 = croq.mma.fill %zero : {OA}")
    w(f"{I}%dqr = scf.for %j = %c0 to %tiles step %c1 iter_args(%acc = %dq0) -> ({OA}) {{")
    J = I + "  "
    w(f"{J}%stage = arith.remui %j, %c{KST} : index")
    w(f"{J}croq.event.wait %kfull[%stage] : {EK}")
    w(f"{J}croq.event.wait %vfull[%stage] : {EK}")
    w(f"{J}%kt = croq.stage %k_s[%stage] : {KSS}")
    w(f"{J}%k2 = croq.span_as %kt : {k.K3} -> {k.K2}")
    w(f"{J}%kb = croq.mma.load %k2 : {k.K2} -> {k.KF}")
    w(f"{J}%vt = croq.stage %v_s[%stage] : {KSS}")
    w(f"{J}%v2 = croq.span_as %vt : {k.K3} -> {k.K2}")
    w(f"{J}%vb = croq.mma.load %v2 : {k.K2} -> {k.KF}")
    w(f"{J}%sz = croq.mma.fill %zero : {SA}")
    if k.pingpong:
        my_turn(k, J)
    w(f"{J}%s1 = croq.mma row row %sz, %qa, %kb : {k.RF}, {k.KF} -> {SA}")
    w(f"{J}%sc = croq.mma.commit %s1 pending = 1 : {SA}")
    w(f"{J}%dp1 = croq.mma row row %sz, %doa, %vb : {k.RF}, {k.KF} -> {SA}")
    w(f"{J}%dpc = croq.mma.commit %dp1 pending = 1 : {SA}")
    if k.pingpong:
        pass_turn(k, J)
    w(f"{J}%s = croq.mma.wait %sc pending = 1 : {SA}")
    # The forward's mask: -inf past the keys' end or the diagonal.
    fk = Kernel("", T, D, causal)
    fk.indent = ""
    mask(fk, J, "%s", "%j", "t")
    k.lines += fk.lines
    w(f"{J}%pm = croq.mma.map %t, %nlse (%row, %col, %x, %nl) : {SA}, {VEC} {{")
    w(f"{J}  %d = math.fma %x, %scale, %nl : f32")
    w(f"{J}  %e = math.exp2 %d fastmath<afn> : f32")
    w(f"{J}  croq.yield %e : f32")
    w(f"{J}}}")
    w(f"{J}%dp = croq.mma.wait %dpc : {SA}")
    w(f"{J}croq.event.trigger %vempty[%stage] : {EK}")
    w(f"{J}%ds = croq.mma.map %pm, %dp, %dlt (%row, %col, %x, %y, %dl) : {SA}, {SA}, {VEC} {{")
    w(f"{J}  %d = arith.subf %y, %dl : f32")
    w(f"{J}  %g = arith.mulf %x, %d : f32")
    w(f"{J}  croq.yield %g : f32")
    w(f"{J}}}")
    w(f"{J}%dsf = croq.mma.convert %ds : {SA} -> {PF}")
    w(f"{J}%dq1 = croq.mma row col %acc, %dsf, %kb : {PF}, {k.KF} -> {OA}")
    w(f"{J}%dqc = croq.mma.commit %dq1 : {OA}")
    w(f"{J}croq.event.trigger %kempty[%stage] : {EK}")
    w(f"{J}scf.yield %dqc : {OA}")
    w(f"{I}}}")
    if k.pingpong:
        last_turn(k, I)
    w(f"{I}%dqs = croq.mma.map %dqr (%row, %col, %x) : {OA} {{")
    w(f"{I}  %y = arith.mulf %x, %sm_scale : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}%dqv = croq.subspan %dq [1, 64, {D}] at [%bh, %row_block, %c0] : {k.MR} -> {k.RV}")
    w(f"{I}// Through the consumer's O tile (read only for delta), by TMA.")
    w(f"{I}croq.mma.store %dqs -> %o2 : {OA} -> {k.R2}")
    w(f"{I}%dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : {k.R3} -> {k.RV}")
    w("      }")



def delta_rows(k, I, tiles):
    """The consumer's 64 rows of `tiles` (q, do, o: the operands of those
    names) brought by TMA into their staged tiles (%q_s, ...), as wgmma
    operands, and delta = rowsum(dO * O) of the rows, stored."""
    w = k.w
    VEC = "!croq.vec<64xf32, rows>"
    futures = []
    for t in tiles:
        w(f"{I}%{t}v = croq.subspan %{t} [1, 64, {k.D}] at [%bh, %row_block, %c0] : {k.MR} -> {k.RV}")
        w(f"{I}%{t}t = croq.stage %{t}_s[%half] : {k.RS}")
        w(f"{I}%f{t} = croq.copy tma async zfill swizzle = 128 %{t}v -> %{t}t : {k.RV} -> {k.R3}")
        futures.append(f"%f{t}")
    w(f"{I}croq.event.trigger %rready[%half] after ({', '.join(futures)}) : {k.E2}")
    w(f"{I}croq.event.wait %rready[%half] : {k.E2}")
    for t in tiles:
        w(f"{I}%{t}2 = croq.span_as %{t}t : {k.R3} -> {k.R2}")
        w(f"{I}%{t}a = croq.mma.load %{t}2 : {k.R2} -> {k.RF}")
    w(f"{I}// delta = rowsum(dO * O): the diagonal of dO O^T.")
    w(f"{I}%dd0 = croq.mma.fill %zero : !croq.acc<64x64xf32>")
    w(f"{I}%dd1 = croq.mma row row %dd0, %doa, %oa : {k.RF}, {k.RF} -> !croq.acc<64x64xf32>")
    w(f"{I}%dd = croq.mma.commit %dd1 : !croq.acc<64x64xf32>")
    w(f"{I}%ddiag = croq.mma.map %dd (%row, %col, %x) : !croq.acc<64x64xf32> {{")
    w(f"{I}  %on = arith.cmpi eq, %row, %col : index")
    w(f"{I}  %y = arith.select %on, %x, %zero : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}%dlt = croq.mma.reduce sum %ddiag : !croq.acc<64x64xf32> -> {VEC}")
    w(f"{I}%dlt_v = croq.subspan %delta [1, 64] at [%bh, %row_block] : {k.ML} -> {k.LV}")
    w(f"{I}croq.vec.store %dlt -> %dlt_v : {VEC} -> {k.LV}")


def delta_kernel(T, D):
    """delta = rowsum(dO * O) of each query row, as the dQ kernel computes
    it: the diagonal of dO O^T, 64 rows a warpgroup."""
    k = Writer(T, D, False)
    w = k.w
    name = "attention_bwd_delta" + suffix(T, D, False)
    w(f"func.func @{name}(%o: {k.MR}, %do: {k.MR}, %delta: {k.ML},")
    w(f"    %dq_acc: {k.ML}, %turns: memref<?xi32>) {{")
    constants(k)
    w(f"  %heads = memref.dim %o, %c0 : {k.MR}")
    w(f"  %seq = memref.dim %o, %c1 : {k.MR}")
    w("  %seq_tiles = arith.ceildivui %seq, %c64 : index")
    w("  %tile_count = arith.muli %heads, %seq_tiles : index")
    w("  %turn_count = arith.muli %tile_count, %c2 : index")
    w("  %acc_rows = arith.muli %tile_count, %c64 : index")
    w("  %check_attention = arith.constant 7 : i32")
    n = 0
    for name_, operand, wants, mr in (
            ("%o", OUT, [(2, "%cD")], k.MR),
            ("%do", DO, [(0, "%heads"), (1, "%seq"), (2, "%cD")], k.MR),
            ("%delta", DELTA, [(0, "%heads"), (1, "%seq")], k.ML),
            ("%dq_acc", DQ_ACC, [(0, "%acc_rows"), (1, "%cD")], k.ML),
            ("%turns", TURNS, [(0, "%turn_count")], "memref<?xi32>")):
        for dim, want in wants:
            extent_check(k, n, name_, dim, want, operand, mr)
            n += 1
    w("  %grid_q = arith.ceildivui %seq, %c128 : index")
    w("  %items = arith.muli %heads, %grid_q : index")
    w("  croq.parallel (%bid) in [%items] : block {")
    w(f"    %rready = croq.event.alloc : {k.E2}")
    w(f"    %do_s = croq.alloc : {k.RS}")
    w(f"    %o_s = croq.alloc : {k.RS}")
    w("    %bh = arith.divui %bid, %grid_q : index")
    w("    %bq = arith.remui %bid, %grid_q : index")
    w("    croq.parallel (%half) in [2] : warpgroup {")
    I = "      "
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%q2x = arith.muli %bq, %c2 : index")
    w(f"{I}%row_block = arith.addi %q2x, %half : index")
    delta_rows(k, I, ("do", "o"))
    w(f"{I}// Zeros for the next kernel: the tile's dQ sum and the turn")
    w(f"{I}// counters of its two column halves.")
    w(f"{I}%in_seq = arith.cmpi ult, %row_block, %seq_tiles : index")
    w(f"{I}scf.if %in_seq {{")
    w(f"{I}  %tile_row = arith.muli %bh, %seq_tiles : index")
    w(f"{I}  %tile = arith.addi %tile_row, %row_block : index")
    w(f"{I}  %zacc = croq.mma.fill %zero : !croq.acc<64x{D}xf32>")
    w(f"{I}  %acc_v = croq.subspan %dq_acc [64, {D}] at [%tile, %c0] : {k.ML} -> !croq.view<64x{D}xf32>")
    w(f"{I}  croq.mma.store %zacc -> %acc_v : !croq.acc<64x{D}xf32> -> !croq.view<64x{D}xf32>")
    w(f"{I}  %zero_i32 = arith.constant 0 : i32")
    w(f"{I}  %turn0 = arith.muli %tile, %c2 : index")
    w(f"{I}  %turn1 = arith.addi %turn0, %c1 : index")
    w(f"{I}  croq.write %zero_i32, %turns[%turn0] : memref<?xi32>")
    w(f"{I}  croq.write %zero_i32, %turns[%turn1] : memref<?xi32>")
    w(f"{I}}}")
    w("    }")
    w("  }")
    w("  return")
    w("}")
    return k.text()
