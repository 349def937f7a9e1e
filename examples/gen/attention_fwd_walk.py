"""The forward attention kernel's walk over its work items (single items,
causal pairs or the snake order) and its producer warpgroup, which loads
the K and V tiles of each item into their ring; the consumers open and
close the same walk (attention_fwd_consumer.py)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_varlen as varlen  # noqa: E402


def snake_coords(k, I, rnd, s):
    """%bh{s} and %bq{s}: the head and query block of the item of round
    `rnd` of the snake walk."""
    w = k.w
    w(f"{I}// Item rank of the longest-first order: query block")
    w(f"{I}// grid_q - 1 - rank / heads of head rank % heads.")
    w(f"{I}%parity{s} = arith.andi {rnd}, %c1 : index")
    w(f"{I}%odd{s} = arith.cmpi ne, %parity{s}, %c0 : index")
    w(f"{I}%pos{s} = arith.select %odd{s}, %mirror_bid, %bid : index")
    w(f"{I}%round_start{s} = arith.muli {rnd}, %grid : index")
    w(f"{I}%rank{s} = arith.addi %round_start{s}, %pos{s} : index")
    w(f"{I}%level{s} = arith.divui %rank{s}, %heads : index")
    w(f"{I}%bh{s} = arith.remui %rank{s}, %heads : index")
    w(f"{I}%bq{s} = arith.subi %last_q, %level{s} : index")


def pair_coords(k, I, pair, s):
    """%bh{s}, %pi{s} and %mirror{s}: the head of pair `pair` of the pairs
    walk and its two query blocks, pi and grid_q - 1 - pi (the same block
    for the middle one of an odd grid_q)."""
    w = k.w
    w(f"{I}%bh{s} = arith.divui {pair}, %half_q : index")
    w(f"{I}%pi{s} = arith.remui {pair}, %half_q : index")
    w(f"{I}%mirror{s} = arith.subi %last_q, %pi{s} : index")


def item_coords(k, I, item, s):
    """%bh{s} and %bq{s}: the head and query block of item `item` of the
    walk in order."""
    k.w(f"{I}%bh{s} = arith.divui {item}, %grid_q : index")
    k.w(f"{I}%bq{s} = arith.remui {item}, %grid_q : index")


def open_item(k, I):
    """Opens the loop over the block's work items at indentation I; returns
    the body's indentation. The body yields the ring position after the
    item (see yield_item)."""
    w = k.w
    if k.varlen:
        return varlen.open_item(k, I)
    # The consumers' loops also carry the parity of the item's Q slots.
    consumer = k.role == "consumer"
    carried = ", %par = %c0" if consumer else ""
    types = "index, index" if consumer else "index"
    if k.schedule == "pairs":
        outer = ", %pair_par = %c0" if consumer else ""
        w(f"{I}scf.for %pair = %bid to %pairs step %grid iter_args(%pair_base = %c0{outer}) -> ({types}) {{")
        J = I + "  "
        pair_coords(k, J, "%pair", "")
        w(f"{J}%twins = arith.cmpi ne, %pi, %mirror : index")
        w(f"{J}%in_pair = arith.select %twins, %c2, %c1 : index")
        w(f"{J}// The longer item of the pair first.")
        inner = ", %par = %pair_par" if consumer else ""
        results = "%after:2" if consumer else "%after"
        w(f"{J}{results} = scf.for %which = %c0 to %in_pair step %c1 iter_args(%base = %pair_base{inner}) -> ({types}) {{")
        K = J + "  "
        w(f"{K}%first = arith.cmpi eq, %which, %c0 : index")
        w(f"{K}%bq = arith.select %first, %mirror, %pi : index")
    elif k.schedule == "snake":
        w(f"{I}scf.for %round = %c0 to %my_items step %c1 iter_args(%base = %c0{carried}) -> ({types}) {{")
        K = I + "  "
        snake_coords(k, K, "%round", "")
    else:
        w(f"{I}scf.for %item = %bid to %singles step %grid iter_args(%base = %c0{carried}) -> ({types}) {{")
        K = I + "  "
        item_coords(k, K, "%item", "")
        w(f"{K}%tiles = arith.addi %all_tiles, %c0 : index")
    if k.causal:
        w(f"{K}// Query rows 128 bq .. 128 bq + 127 see keys up to their own")
        w(f"{K}// index: the key tiles up to the diagonal.")
        w(f"{K}%diagonal = arith.addi %bq, %c1 : index")
        w(f"{K}%tiles = arith.minui %all_tiles, %diagonal : index")
    w(f"{K}%q_block = arith.muli %bq, %c2 : index")
    return K


def yield_item(k, I):
    """Ends an item's body: the ring position after it (%next) and, for the
    consumers, the parity of the next item's Q slots (%npar)."""
    if k.role == "consumer":
        k.w(f"{I}scf.yield %next, %npar : index, index")
    else:
        k.w(f"{I}scf.yield %next : index")


def close_item(k, I):
    """Closes what open_item opened at indentation I."""
    w = k.w
    if k.varlen:
        varlen.close_item(k, I)
        return
    if k.schedule == "pairs":
        w(f"{I}  }}")
        if k.role == "consumer":
            w(f"{I}  scf.yield %after#0, %after#1 : index, index")
        else:
            w(f"{I}  scf.yield %after : index")
    w(f"{I}}}")


def load_q(k, I, bh, bq, slot, s):
    """The consumer's 64 rows of query block `bq` of head `bh` into Q slot
    `slot`, by TMA, completing on %qready[slot]."""
    w = k.w
    w(f"{I}%q_row2{s} = arith.muli {bq}, %c2 : index")
    w(f"{I}%q_row{s} = arith.addi %q_row2{s}, %half : index")
    if k.varlen:
        varlen.q_view(k, I, bh, s)
    else:
        w(f"{I}%qv{s} = croq.subspan %q [1, 64, {k.D}] at [{bh}, %q_row{s}, %c0] : {k.MR} -> {k.QV}")
    w(f"{I}%qs{s} = croq.stage %q_s[{slot}] : {k.QS}")
    w(f"{I}%fq{s} = croq.copy tma async zfill swizzle = 128 %qv{s} -> %qs{s} : {k.QV} -> {k.Q3}")
    w(f"{I}croq.event.trigger %qready[{slot}] after (%fq{s}) : {k.E4}")


def first_q(k, I):
    """The consumer's Q rows of the block's first item, into slot %half
    (every block has at least one item)."""
    w = k.w
    if k.varlen:
        varlen.first_q(k, I, load_q)
        return
    w(f"{I}// Q rows of the block's first item.")
    if k.schedule == "pairs":
        # The longer item of the block's first pair.
        pair_coords(k, I, "%bid", "_f")
        first_bq = "%mirror_f"
    elif k.schedule == "snake":
        snake_coords(k, I, "%c0", "_f")
        first_bq = "%bq_f"
    else:
        item_coords(k, I, "%bid", "_f")
        first_bq = "%bq_f"
    load_q(k, I, "%bh_f", first_bq, "%half", "_f")


def next_q(k, I):
    """The consumer's Q rows of the block's next item, if any, into its
    other Q slot; %npar is that slot's parity."""
    w = k.w
    if k.varlen:
        varlen.next_q(k, I, load_q)
        return
    w(f"{I}// Q rows of the block's next item, into the other slot.")
    if k.schedule == "pairs":
        w(f"{I}%in_first = arith.cmpi eq, %which, %c0 : index")
        w(f"{I}%to_twin = arith.andi %in_first, %twins : i1")
        w(f"{I}%pair_n = arith.addi %pair, %grid : index")
        w(f"{I}%more_pairs = arith.cmpi ult, %pair_n, %pairs : index")
        w(f"{I}%has_next = arith.ori %to_twin, %more_pairs : i1")
    elif k.schedule == "snake":
        w(f"{I}%round_n = arith.addi %round, %c1 : index")
        w(f"{I}%has_next = arith.cmpi ult, %round_n, %my_items : index")
    else:
        w(f"{I}%item_n = arith.addi %item, %grid : index")
        w(f"{I}%has_next = arith.cmpi ult, %item_n, %singles : index")
    w(f"{I}%npar = arith.subi %c1, %par : index")
    w(f"{I}scf.if %has_next {{")
    J = I + "  "
    if k.schedule == "pairs":
        w(f"{J}// The pair's second item, or the next pair's first.")
        pair_coords(k, J, "%pair_n", "_p")
        w(f"{J}%bh_n = arith.select %to_twin, %bh, %bh_p : index")
        w(f"{J}%bq_n = arith.select %to_twin, %pi, %mirror_p : index")
    elif k.schedule == "snake":
        snake_coords(k, J, "%round_n", "_n")
    else:
        item_coords(k, J, "%item_n", "_n")
    w(f"{J}%nslot2 = arith.muli %npar, %c2 : index")
    w(f"{J}%nslot = arith.addi %nslot2, %half : index")
    load_q(k, J, "%bh_n", "%bq_n", "%nslot", "_n")
    w(f"{I}}}")


def producer(k):
    """The producer warpgroup: each item's K and V tiles into the two
    rings, by TMA."""
    w = k.w
    k.role = "producer"
    w("      croq.inthreads async %is_producer {")
    I = "        "
    w(f"{I}// %base: the ring position of the item's first key tile.")
    J = open_item(k, I)
    w(f"{J}// The K/V head of query head %bh (grouped-query attention).")
    w(f"{J}%bkv = arith.divui %bh, %group : index")
    w(f"{J}scf.for %j = %c0 to %tiles step %c1 {{")
    K = J + "  "
    w(f"{K}%g = arith.addi %base, %j : index")
    w(f"{K}%stage = arith.remui %g, %c2 : index")
    w(f"{K}croq.event.wait %kempty[%stage] : {k.E2}")
    if k.varlen:
        varlen.kv_views(k, K)
    else:
        w(f"{K}%kv = croq.subspan %k [1, 128, {k.D}] at [%bkv, %j, %c0] : {k.MR} -> {k.KV}")
    w(f"{K}%ks = croq.stage %k_s[%stage] : {k.KS}")
    w(f"{K}%fk = croq.copy tma async zfill swizzle = 128 %kv -> %ks : {k.KV} -> {k.K3}")
    w(f"{K}croq.event.trigger %kfull[%stage] after (%fk) : {k.E2}")
    w(f"{K}croq.event.wait %vempty[%stage] : {k.E2}")
    if not k.varlen:
        w(f"{K}%vv = croq.subspan %v [1, 128, {k.D}] at [%bkv, %j, %c0] : {k.MR} -> {k.KV}")
    w(f"{K}%vs = croq.stage %v_s[%stage] : {k.KS}")
    w(f"{K}%fv = croq.copy tma async zfill swizzle = 128 %vv -> %vs : {k.KV} -> {k.K3}")
    w(f"{K}croq.event.trigger %vfull[%stage] after (%fv) : {k.E2}")
    w(f"{J}}}")
    w(f"{J}%next = arith.addi %base, %tiles : index")
    yield_item(k, J)
    close_item(k, I)
    w("      }")
