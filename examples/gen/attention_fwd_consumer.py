"""The forward attention kernel's consumer warpgroups: per key tile S =
Q K^T, its hook and mask, the online softmax and O += P V, the turns the
two consumers take to issue their products, and the output and
log-sum-exp stores."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_varlen as varlen  # noqa: E402
from attention_fwd_walk import (  # noqa: E402
    close_item, first_q, next_q, open_item, yield_item)


def my_turn(k, I):
    k.w(f"{I}croq.named_barrier.sync %turn_mine, threads = 256")


def pass_turn(k, I):
    k.w(f"{I}croq.named_barrier.arrive %turn_other, threads = 256")


def first_turn(k, I):
    """The two consumers' barriers of their turns (%turn_mine, %turn_other:
    consumer c waits at named barrier c), and consumer 0's first turn:
    consumer 1 arrives at barrier 0 (%is_c0: whether this is consumer 0)."""
    w = k.w
    w(f"{I}%turn_mine = arith.select %is_c0, %c0, %c1 : index")
    w(f"{I}%turn_other = arith.select %is_c0, %c1, %c0 : index")
    w(f"{I}scf.if %is_c0 {{")
    w(f"{I}}} else {{")
    w(f"{I}  croq.named_barrier.arrive %c0, threads = 256")
    w(f"{I}}}")


def last_turn(k, I):
    """Consumer 1's last hand-over, taken by consumer 0 once both have run
    as many turns, so that no arrival outlives the block."""
    w = k.w
    w(f"{I}scf.if %is_c0 {{")
    w(f"{I}  croq.named_barrier.sync %c0, threads = 256")
    w(f"{I}}}")


def mask(k, indent, s, j, t):
    """%t: the scores `s` of key tile `j`, with those of keys past the end
    (and, causal, past the diagonal) -inf where `j` is the last tile."""
    w = k.w
    if not k.varlen:
        w(f"{indent}// Only the last key tile has keys past the end{' or past the diagonal' if k.causal else ''}.")
    if k.varlen:
        w(f"{indent}// Key tiles from %mask_from on: past the first row's diagonal")
        w(f"{indent}// or holding the sequence's last key.")
        w(f"{indent}%is_last{t} = arith.cmpi uge, {j}, %mask_from : index")
        w(f"{indent}%{t} = scf.if %is_last{t} -> ({k.SA}) {{")
        varlen.mask_limits(k, indent + "  ", j)
    elif k.causal:
        w(f"{indent}%is_last{t} = arith.cmpi eq, {j}, %last : index")
        w(f"{indent}%{t} = scf.if %is_last{t} -> ({k.SA}) {{")
    else:
        w(f"{indent}%is_last{t} = arith.cmpi eq, {j}, %last : index")
        w(f"{indent}%needs_mask{t} = arith.andi %is_last{t}, %ragged : i1")
        w(f"{indent}%{t} = scf.if %needs_mask{t} -> ({k.SA}) {{")
    if not k.varlen:
        mask_bounds(k, indent, j)
    mask_body(k, indent, s, t)


def mask_bounds(k, indent, j):
    """The fixed-length kernels' %end_limit and, causal, %diag_limit."""
    w = k.w
    w(f"{indent}  // Key key_base + col is inside where col < limit, in i32 (the")
    w(f"{indent}  // row's limit computed once a row).")
    w(f"{indent}  %key_base = arith.muli {j}, %c128 : index")
    w(f"{indent}  %in_tile = arith.subi %keys, %key_base : index")
    w(f"{indent}  %end_limit = arith.index_cast %in_tile : index to i32")
    if k.causal:
        w(f"{indent}  // Causal: query q_base + row sees keys up to its own index.")
        w(f"{indent}  %diag = arith.subi %q_end, %key_base : index")
        w(f"{indent}  %diag_limit = arith.index_cast %diag : index to i32")


def mask_body(k, indent, s, t):
    """The masking croq.mma.map of the scores `s` into %t."""
    w = k.w
    w(f"{indent}  %masked = croq.mma.map {s} (%row, %col, %x) : {k.SA} {{")
    limit = "%end_limit"
    if k.causal:
        w(f"{indent}    %row32 = arith.index_castui %row : index to i32")
        w(f"{indent}    %visible = arith.addi %diag_limit, %row32 : i32")
        w(f"{indent}    %limit = arith.minsi %visible, %end_limit : i32")
        limit = "%limit"
    w(f"{indent}    // col < limit as col & -8 < limit - (col & 7): the left side is a")
    w(f"{indent}    // constant of the element, the right one of its row and column")
    w(f"{indent}    // parity, so that each element costs one compare and one select.")
    w(f"{indent}    %col32 = arith.index_castui %col : index to i32")
    w(f"{indent}    %col_lo = arith.andi %col32, %c7_i32 : i32")
    w(f"{indent}    %col_hi = arith.andi %col32, %cm8_i32 : i32")
    w(f"{indent}    %room = arith.subi {limit}, %col_lo : i32")
    w(f"{indent}    %inside = arith.cmpi slt, %col_hi, %room : i32")
    w(f"{indent}    %r = arith.select %inside, %x, %ninf : f32")
    w(f"{indent}    croq.yield %r : f32")
    w(f"{indent}  }}")
    w(f"{indent}  scf.yield %masked : {k.SA}")
    w(f"{indent}}} else {{")
    w(f"{indent}  scf.yield {s} : {k.SA}")
    w(f"{indent}}}")


def score_hook(k, indent, s, j):
    """The scores `s` of key tile `j` through the score op of a fused linalg
    chain, when writing a template of croq-fuse-linalg-attention (which
    fills the map's body: the ops before its yield give the element's
    query row, key and head); returns the name of the scores to mask. The
    op runs before the mask so that keys past the end stay -inf whatever
    it computes."""
    if not k.score_hook:
        return s
    w = k.w
    w(f"{indent}// The score op: croq-fuse-linalg-attention fills this body.")
    w(f"{indent}{s}_q0 = arith.muli %row_block, %c64 : index")
    w(f"{indent}{s}_k0 = arith.muli {j}, %c128 : index")
    w(f"{indent}{s}_mod = croq.mma.map {s} (%row, %col, %x) : {k.SA} {{")
    w(f"{indent}  %hq = arith.addi {s}_q0, %row : index")
    w(f"{indent}  %hk = arith.addi {s}_k0, %col : index")
    w(f"{indent}  %hb = arith.addi %bh, %c0 : index")
    w(f"{indent}  croq.yield %x : f32")
    w(f"{indent}}}")
    return f"{s}_mod"


def exps(k, indent, t, mx, pm):
    """%pm = exp2(%t * scale - %mx), elementwise."""
    w = k.w
    w(f"{indent}%{mx}_neg = croq.vec.map %{mx} (%i, %a) : {k.VEC} {{")
    w(f"{indent}  %n = arith.negf %a : f32")
    if k.varlen:
        w(f"{indent}  // A row that sees no key yet: P = exp2(-inf - 0) = 0, not NaN.")
        w(f"{indent}  %none = arith.cmpf oeq, %a, %ninf : f32")
        w(f"{indent}  %n0 = arith.select %none, %zero, %n : f32")
        w(f"{indent}  croq.yield %n0 : f32")
    else:
        w(f"{indent}  croq.yield %n : f32")
    w(f"{indent}}}")
    w(f"{indent}// P = exp2(S * scale - m): one fma and one ex2 an element.")
    w(f"{indent}%{pm} = croq.mma.map %{t}, %{mx}_neg (%row, %col, %x, %nm) : {k.SA}, {k.VEC} {{")
    w(f"{indent}  %d = math.fma %x, %scale, %nm : f32")
    w(f"{indent}  %e = math.exp2 %d fastmath<afn> : f32")
    w(f"{indent}  croq.yield %e : f32")
    w(f"{indent}}}")


def consumer(k):
    """The two consumer warpgroups, 64 query rows each: for each item the
    first key tile, the loop over the others and the last P V with the
    store."""
    w = k.w
    w("      // The two consumers run the same code on their own 64 query rows.")
    w("      croq.inthreads async %is_consumer {")
    I = "        "
    w(f"{I}%half = arith.subi %p, %c1 : index")
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%ninf = arith.constant 0xFF800000 : f32")
    w(f"{I}%one = arith.constant 1.0 : f32")
    w(f"{I}%c7_i32 = arith.constant 7 : i32")
    w(f"{I}%cm8_i32 = arith.constant -8 : i32")
    w(f"{I}%ot = croq.stage %o_s[%half] : {k.OS}")
    k.role = "consumer"
    first_q(k, I)
    w(f"{I}// Consumer c waits for its turn at named barrier c and hands")
    w(f"{I}// the turn to the other; consumer 0 goes first.")
    first_turn(k, I)
    w(f"{I}%o2 = croq.span_as %ot : {k.Q3} -> {k.Q2}")
    OUTER = I
    I = open_item(k, I)
    first_tile(k, I)
    key_loop(k, I)
    last_tile(k, I)
    close_item(k, OUTER)
    w(f"{OUTER}// Consumer 1's last hand-over, so that no arrival outlives the")
    w(f"{OUTER}// block.")
    last_turn(k, OUTER)
    w("      }")
    w("    }")
    w("  }")


def first_tile(k, I):
    """The consumer's rows of the item, and its first key tile: S = Q K^T
    alone and its softmax."""
    w = k.w
    w(f"{I}%last = arith.subi %tiles, %c1 : index")
    w(f"{I}%row_block = arith.addi %q_block, %half : index")
    if k.causal:
        w(f"{I}%q_base = arith.muli %row_block, %c64 : index")
        if not k.varlen:
            w(f"{I}%q_end = arith.addi %q_base, %c1 : index")
    next_q(k, I)
    w(f"{I}%slot2 = arith.muli %par, %c2 : index")
    w(f"{I}%slot = arith.addi %slot2, %half : index")
    w(f"{I}croq.event.wait %qready[%slot] : {k.E4}")
    w(f"{I}%qt = croq.stage %q_s[%slot] : {k.QS}")
    w(f"{I}%q2 = croq.span_as %qt : {k.Q3} -> {k.Q2}")
    w(f"{I}%qa = croq.mma.load %q2 : {k.Q2} -> {k.QF}")
    w(f"{I}// The first key tile: S = Q K^T alone, P V comes with the next S.")
    w(f"{I}%stage0 = arith.remui %base, %c2 : index")
    w(f"{I}croq.event.wait %kfull[%stage0] : {k.E2}")
    w(f"{I}%k0t = croq.stage %k_s[%stage0] : {k.KS}")
    w(f"{I}%k02 = croq.span_as %k0t : {k.K3} -> {k.K2}")
    w(f"{I}%kb0 = croq.mma.load %k02 : {k.K2} -> {k.KF}")
    w(f"{I}%sz0 = croq.mma.fill %zero : {k.SA}")
    my_turn(k, I)
    w(f"{I}%s01 = croq.mma row row %sz0, %qa, %kb0 : {k.QF}, {k.KF} -> {k.SA}")
    pass_turn(k, I)
    w(f"{I}%s0 = croq.mma.commit %s01 : {k.SA}")
    w(f"{I}croq.event.trigger %kempty[%stage0] : {k.E2}")
    mask(k, I, score_hook(k, I, "%s0", "%c0"), "%c0", "t0")
    w(f"{I}// Row maxima m, kept multiplied by the scale.")
    w(f"{I}%mt0 = croq.mma.reduce max %t0 : {k.SA} -> {k.VEC}")
    w(f"{I}%m1 = croq.vec.map %mt0 (%i, %a) : {k.VEC} {{")
    w(f"{I}  %x = arith.mulf %a, %scale : f32")
    w(f"{I}  croq.yield %x : f32")
    w(f"{I}}}")
    exps(k, I, "t0", "m1", "pm0")
    w(f"{I}%l1 = croq.mma.reduce sum %pm0 : {k.SA} -> {k.VEC}")
    w(f"{I}%p0 = croq.mma.convert %pm0 : {k.SA} -> {k.PF}")
    w(f"{I}%o0 = croq.mma.fill %zero : {k.OA}")


def key_loop(k, I):
    """Key tiles 1 to last: S_j and P_(j-1) V_(j-1) on the tensor cores
    while the softmax of S_j runs."""
    w = k.w
    w(f"{I}// Key tile j: S_j = Q K_j^T and O += P_(j-1) V_(j-1) run on the")
    w(f"{I}// tensor cores while the softmax of S_j runs here.")
    w(f"{I}%res:4 = scf.for %j = %c1 to %tiles step %c1")
    w(f"{I}    iter_args(%o = %o0, %m = %m1, %l = %l1, %pp = %p0)")
    w(f"{I}    -> ({k.OA}, {k.VEC}, {k.VEC}, {k.PF}) {{")
    J = I + "  "
    w(f"{J}%g = arith.addi %base, %j : index")
    w(f"{J}%stage = arith.remui %g, %c2 : index")
    w(f"{J}%prev = arith.subi %c1, %stage : index")
    w(f"{J}croq.event.wait %kfull[%stage] : {k.E2}")
    w(f"{J}croq.event.wait %vfull[%prev] : {k.E2}")
    w(f"{J}%kt = croq.stage %k_s[%stage] : {k.KS}")
    w(f"{J}%k2 = croq.span_as %kt : {k.K3} -> {k.K2}")
    w(f"{J}%kb = croq.mma.load %k2 : {k.K2} -> {k.KF}")
    w(f"{J}%vt = croq.stage %v_s[%prev] : {k.KS}")
    w(f"{J}%v2 = croq.span_as %vt : {k.K3} -> {k.K2}")
    w(f"{J}%vb = croq.mma.load %v2 : {k.K2} -> {k.KF}")
    w(f"{J}%sz = croq.mma.fill %zero : {k.SA}")
    # The consumers take turns to issue both products (see the header).
    my_turn(k, J)
    w(f"{J}%s1 = croq.mma row row %sz, %qa, %kb : {k.QF}, {k.KF} -> {k.SA}")
    w(f"{J}%sc = croq.mma.commit %s1 pending = 1 : {k.SA}")
    w(f"{J}%o1 = croq.mma row col %o, %pp, %vb : {k.PF}, {k.KF} -> {k.OA}")
    pass_turn(k, J)
    w(f"{J}%oc = croq.mma.commit %o1 pending = 1 : {k.OA}")
    w(f"{J}%s = croq.mma.wait %sc pending = 1 : {k.SA}")
    w(f"{J}croq.event.trigger %kempty[%stage] : {k.E2}")
    mask(k, J, score_hook(k, J, "%s", "%j"), "%j", "t")
    w(f"{J}%mt = croq.mma.reduce max %t : {k.SA} -> {k.VEC}")
    w(f"{J}%mn = croq.vec.map %m, %mt (%i, %a, %b) : {k.VEC}, {k.VEC} {{")
    w(f"{J}  %y = arith.mulf %b, %scale : f32")
    w(f"{J}  %x = arith.maximumf %a, %y : f32")
    w(f"{J}  croq.yield %x : f32")
    w(f"{J}}}")
    exps(k, J, "t", "mn", "pm")
    w(f"{J}%ls = croq.mma.reduce sum %pm : {k.SA} -> {k.VEC}")
    w(f"{J}%alpha = croq.vec.map %m, %mn (%i, %a, %b) : {k.VEC}, {k.VEC} {{")
    if k.varlen:
        w(f"{J}  // Rows that see no key yet: exp2(-inf - 0) = 0 (O and l are 0).")
        w(f"{J}  %none = arith.cmpf oeq, %b, %ninf : f32")
        w(f"{J}  %b0 = arith.select %none, %zero, %b : f32")
        w(f"{J}  %d = arith.subf %a, %b0 : f32")
    else:
        w(f"{J}  %d = arith.subf %a, %b : f32")
    w(f"{J}  %e = math.exp2 %d fastmath<afn> : f32")
    w(f"{J}  croq.yield %e : f32")
    w(f"{J}}}")
    w(f"{J}%ln = croq.vec.map %l, %alpha, %ls (%i, %a, %b, %c) : {k.VEC}, {k.VEC}, {k.VEC} {{")
    w(f"{J}  %y = math.fma %a, %b, %c : f32")
    w(f"{J}  croq.yield %y : f32")
    w(f"{J}}}")
    w(f"{J}// O holds P_(j-1) V_(j-1) now: rescale it to the new maxima. P_j")
    w(f"{J}// is converted only now, as P_(j-1) is read until P V completes.")
    w(f"{J}%od = croq.mma.wait %oc : {k.OA}")
    w(f"{J}croq.event.trigger %vempty[%prev] : {k.E2}")
    w(f"{J}%pn = croq.mma.convert %pm : {k.SA} -> {k.PF}")
    w(f"{J}%os = croq.mma.map %od, %alpha (%row, %col, %x, %a) : {k.OA}, {k.VEC} {{")
    w(f"{J}  %y = arith.mulf %x, %a : f32")
    w(f"{J}  croq.yield %y : f32")
    w(f"{J}}}")
    w(f"{J}scf.yield %os, %mn, %ln, %pn : {k.OA}, {k.VEC}, {k.VEC}, {k.PF}")
    w(f"{I}}}")


def last_tile(k, I):
    """The last key tile's P V, the normalization and the store."""
    w = k.w
    w(f"{I}// The last key tile's P V.")
    w(f"{I}%g_last = arith.addi %base, %last : index")
    w(f"{I}%last_stage = arith.remui %g_last, %c2 : index")
    w(f"{I}croq.event.wait %vfull[%last_stage] : {k.E2}")
    w(f"{I}%vt = croq.stage %v_s[%last_stage] : {k.KS}")
    w(f"{I}%v2 = croq.span_as %vt : {k.K3} -> {k.K2}")
    w(f"{I}%vb = croq.mma.load %v2 : {k.K2} -> {k.KF}")
    my_turn(k, I)
    w(f"{I}%o1 = croq.mma row col %res#0, %res#3, %vb : {k.PF}, {k.KF} -> {k.OA}")
    pass_turn(k, I)
    w(f"{I}%oc = croq.mma.commit %o1 : {k.OA}")
    w(f"{I}croq.event.trigger %vempty[%last_stage] : {k.E2}")
    w(f"{I}// O / l: one division a row, then a multiplication an element.")
    w(f"{I}%inv = croq.vec.map %res#2 (%i, %a) : {k.VEC} {{")
    w(f"{I}  %r = arith.divf %one, %a : f32")
    if k.varlen:
        w(f"{I}  // A row that sees no key: zeros.")
        w(f"{I}  %none = arith.cmpf oeq, %a, %zero : f32")
        w(f"{I}  %r0 = arith.select %none, %zero, %r : f32")
        w(f"{I}  croq.yield %r0 : f32")
    else:
        w(f"{I}  croq.yield %r : f32")
    w(f"{I}}}")
    w(f"{I}%o = croq.mma.map %oc, %inv (%row, %col, %x, %r) : {k.OA}, {k.VEC} {{")
    w(f"{I}  %y = arith.mulf %x, %r : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    if k.lse:
        lse_store(k, I)
    if k.varlen:
        varlen.store(k, I)
        w(f"{I}%next = arith.addi %base, %tiles : index")
        yield_item(k, I)
        return
    w(f"{I}// Stored by TMA, which leaves out rows past the sequence's end; the")
    w(f"{I}// next item's croq.mma.store into the tile waits until it is read.")
    w(f"{I}croq.mma.store %o -> %o2 : {k.OA} -> {k.Q2}")
    w(f"{I}%ov = croq.subspan %out [1, 64, {k.D}] at [%bh, %row_block, %c0] : {k.MR} -> {k.QV}")
    w(f"{I}%stored = croq.copy tma async swizzle = 128 %ot -> %ov : {k.Q3} -> {k.QV}")
    w(f"{I}%next = arith.addi %base, %tiles : index")
    yield_item(k, I)


def lse_store(k, I):
    """Each row's log-sum-exp of scale * S (natural log, as SDPA's): with
    m = max * scale' and l the row sum of exp2(S scale' - m), it is
    (m + log2(l)) ln 2. Rows past the sequence's end are dropped."""
    w = k.w
    w(f"{I}// The row's log-sum-exp for the backward: (m + log2 l) ln 2.")
    w(f"{I}%lse_rows = croq.vec.map %res#1, %res#2 (%i, %a, %b) : {k.VEC}, {k.VEC} {{")
    w(f"{I}  %lg = math.log2 %b : f32")
    w(f"{I}  %sum = arith.addf %a, %lg : f32")
    w(f"{I}  %nat = arith.mulf %sum, %ln2 : f32")
    w(f"{I}  croq.yield %nat : f32")
    w(f"{I}}}")
    w(f"{I}%lse_v = croq.subspan %lse [1, 64] at [%bh, %row_block] : memref<?x?xf32> -> !croq.view<1x64xf32>")
    w(f"{I}croq.vec.store %lse_rows -> %lse_v : {k.VEC} -> !croq.view<1x64xf32>")
