#!/usr/bin/env python3
"""Writes examples/flash_attention.mlir, the attention kernels.

The eight entry points differ in element type, head dimension and
causality only, so they are written from one template here rather than by
hand; test/Examples/flash-attention-generated.test checks that the example
is this script's output. Run it after editing the template:

    python3 examples/gen/flash_attention.py > examples/flash_attention.mlir

With --varlen it writes examples/flash_attention_varlen.mlir, the same
kernels on sequences of different lengths packed together (the parts that
differ are in attention_varlen.py; test/Examples/
flash-attention-varlen-generated.test checks that example).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_varlen as varlen  # noqa: E402

HEADER = """\
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
"""

# The runtime's checks the host code calls (CroqRuntime.h).
DECLARATIONS = """
func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32
"""

# log2(e): exp(x) = exp2(x * log2(e)).
LOG2E = "1.44269504"

# The kernels in the order of the example: (comment, name, type, D, causal).
KERNELS = [
    ("Non-causal, f16, D = 128.", "attention_f16", "f16", 128, False),
    ("The same in bf16.", "attention_bf16", "bf16", 128, False),
    ("The same with head dimension 64, f16 (keys still in tiles of 128).",
     "attention_d64_f16", "f16", 64, False),
    ("The same in bf16.", "attention_d64_bf16", "bf16", 64, False),
    ("Causal, f16, D = 128: the key tiles past the diagonal are neither "
     "loaded\n// nor computed.", "attention_causal_f16", "f16", 128, True),
    ("The same in bf16.", "attention_causal_bf16", "bf16", 128, True),
    ("The same with head dimension 64, f16.", "attention_causal_d64_f16",
     "f16", 64, True),
    ("The same in bf16.", "attention_causal_d64_bf16", "bf16", 64, True),
]

# Blocks of the persistent grid: the SMs of an H100 or H200.
BLOCKS = 132
# The most bytes of keys and values for which the causal kernels may walk
# single items in snake order (see the header).
SNAKE_BYTES = 64 << 20


class Kernel:
    """One entry point being written: its name, element type T, head
    dimension D and causality, the croq types it uses, the walk over the
    work items of the block program being written (`schedule`: "items" in
    order, "pairs" or "snake" for causal attention), and its lines."""

    def __init__(self, name, T, D, causal, lse=False, score_hook=False,
                 is_varlen=False):
        self.name = name
        # Whether the entry point takes packed sequences of different
        # lengths (attention_varlen.py).
        self.varlen = is_varlen
        # Whether the entry point also writes each query row's log-sum-exp
        # (examples/gen/flash_attention_bwd.py's training forward).
        self.lse = lse
        # Whether the scores pass through a hook (see score_hook) before
        # the mask: the templates of croq-fuse-linalg-attention.
        self.score_hook = score_hook
        self.D = D
        self.causal = causal
        self.Q3 = f"!croq.tile<1x64x{D}x{T}, shared, swizzle = 128>"
        self.Q2 = f"!croq.tile<64x{D}x{T}, shared, swizzle = 128>"
        # Q: two slots a consumer (this item's rows and the next one's).
        self.QS = f"!croq.tiles<4 x 1x64x{D}x{T}, shared, swizzle = 128>"
        self.OS = f"!croq.tiles<2 x 1x64x{D}x{T}, shared, swizzle = 128>"
        self.K3 = f"!croq.tile<1x128x{D}x{T}, shared, swizzle = 128>"
        self.K2 = f"!croq.tile<128x{D}x{T}, shared, swizzle = 128>"
        self.KS = f"!croq.tiles<2 x 1x128x{D}x{T}, shared, swizzle = 128>"
        self.MR = f"memref<?x?x?x{T}>"
        self.QV = f"!croq.view<1x64x{D}x{T}>"
        self.KV = f"!croq.view<1x128x{D}x{T}>"
        self.QF = f"!croq.frag<64x{D}x{T}>"
        self.KF = f"!croq.frag<128x{D}x{T}>"
        self.PF = f"!croq.frag<64x128x{T}, registers>"
        self.SA = "!croq.acc<64x128xf32>"
        self.OA = f"!croq.acc<64x{D}xf32>"
        self.VEC = "!croq.vec<64xf32, rows>"
        self.E2 = "!croq.events<2>"
        self.E4 = "!croq.events<4>"
        # Which role's loops are being written: the consumers' carry the
        # parity of their Q slots.
        self.role = None
        self.schedule = None
        self.indent = ""
        self.lines = []

    def w(self, line):
        self.lines.append(self.indent + line)


def block(k, schedule):
    """Writes the kernel's croq.parallel for the walk `schedule`, indented
    by two spaces."""
    k.schedule = schedule
    w = k.w
    if k.schedule == "pairs":
        w("  %grid = arith.minui %pairs, %pair_blocks : index")
    else:
        w(f"  %grid = arith.minui %singles, %c{BLOCKS} : index")
    if k.schedule == "snake":
        w("  // Full rounds of one item per block, then the first %rest blocks")
        w("  // of the last round's order.")
        w("  %rounds = arith.divui %singles, %grid : index")
        w("  %rest = arith.remui %singles, %grid : index")
        w("  %last_round = arith.andi %rounds, %c1 : index")
        w("  %last_odd = arith.cmpi ne, %last_round, %c0 : index")
    w("  croq.parallel (%bid) in [%grid] : block {")
    w("    // Q slot 2 i + c: consumer c's rows of the items of parity i.")
    w(f"    %qready = croq.event.alloc : {k.E4}")
    w("    // K and V rings of two stages each, running on across work items: a")
    w("    // K stage is free once S = Q K^T has run, a V stage once P V has.")
    w(f"    %kfull = croq.event.alloc : {k.E2}")
    w(f"    %kempty = croq.event.alloc ready : {k.E2}")
    w(f"    %vfull = croq.event.alloc : {k.E2}")
    w(f"    %vempty = croq.event.alloc ready : {k.E2}")
    w(f"    %q_s = croq.alloc : {k.QS}")
    w(f"    %k_s = croq.alloc : {k.KS}")
    w(f"    %v_s = croq.alloc : {k.KS}")
    w(f"    %o_s = croq.alloc : {k.OS}")
    if k.schedule == "snake":
        w("    // The block's place in odd rounds, and its item count.")
        w("    %grid_end = arith.subi %grid, %c1 : index")
        w("    %mirror_bid = arith.subi %grid_end, %bid : index")
        w("    %last_pos = arith.select %last_odd, %mirror_bid, %bid : index")
        w("    %in_last = arith.cmpi ult, %last_pos, %rest : index")
        w("    %extra = arith.select %in_last, %c1, %c0 : index")
        w("    %my_items = arith.addi %rounds, %extra : index")
    w("    croq.parallel (%p) in [3] : warpgroup {")
    w("      %is_producer = arith.cmpi eq, %p, %c0 : index")
    w("      %is_consumer = arith.cmpi ne, %p, %c0 : index")
    w("      %is_c0 = arith.cmpi eq, %p, %c1 : index")
    producer(k)
    consumer(k)


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


def my_turn(k, I):
    k.w(f"{I}croq.named_barrier.sync %turn_mine, threads = 256")


def pass_turn(k, I):
    k.w(f"{I}croq.named_barrier.arrive %turn_other, threads = 256")


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
    w(f"{I}%turn_mine = arith.select %is_c0, %c0, %c1 : index")
    w(f"{I}%turn_other = arith.select %is_c0, %c1, %c0 : index")
    w(f"{I}scf.if %is_c0 {{")
    w(f"{I}}} else {{")
    w(f"{I}  croq.named_barrier.arrive %c0, threads = 256")
    w(f"{I}}}")
    w(f"{I}%o2 = croq.span_as %ot : {k.Q3} -> {k.Q2}")
    OUTER = I
    I = open_item(k, I)
    first_tile(k, I)
    key_loop(k, I)
    last_tile(k, I)
    close_item(k, OUTER)
    w(f"{OUTER}// Consumer 1's last hand-over, so that no arrival outlives the")
    w(f"{OUTER}// block.")
    w(f"{OUTER}scf.if %is_c0 {{")
    w(f"{OUTER}  croq.named_barrier.sync %c0, threads = 256")
    w(f"{OUTER}}}")
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


def host_checks(k):
    """%kv_heads and %group, after the host checks of the operands'
    extents."""
    w = k.w
    w(f"  %kv_heads = memref.dim %k, %c0 : {k.MR}")
    w("  // The operands' extents, checked before anything runs: a failed")
    w("  // check fails the call and refuses its launches.")
    w("  %check_attention = arith.constant 7 : i32")
    checks = [("%v", 0, "%kv_heads", 2), ("%v", 1, "%keys", 2),
              ("%out", 0, "%heads", 3), ("%out", 1, "%seq", 3)]
    if k.lse:
        checks += [("%lse", 0, "%heads", 4), ("%lse", 1, "%seq", 4)]
    for n, (t, dim, want, operand) in enumerate(checks):
        mr = "memref<?x?xf32>" if t == "%lse" else k.MR
        w(f"  %x{n} = memref.dim {t}, %c{dim} : {mr}")
        w(f"  %x{n}_i64 = arith.index_cast %x{n} : index to i64")
        w(f"  %want{n}_i64 = arith.index_cast {want} : index to i64")
        w(f"  %operand{n} = arith.constant {operand} : i32")
        w(f"  %ok{n} = func.call @croqRtRequireEqualExtents(%x{n}_i64, "
          f"%want{n}_i64, %check_attention, %operand{n}) : "
          f"(i64, i64, i32, i32) -> i32")
    w("  %heads_i64 = arith.index_cast %heads : index to i64")
    w("  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64")
    w("  %check_groups = arith.constant 0 : i32")
    w("  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, "
      "%kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32")
    w("  // Each K/V head serves %group query heads (1 without grouping); no")
    w("  // division by zero where K has no heads (the check failed then).")
    w("  %kv_divisor = arith.maxui %kv_heads, %c1 : index")
    w("  %group = arith.divui %heads, %kv_divisor : index")


def varlen_kernel(name, T, D, causal):
    """The text of one entry point on packed sequences
    (attention_varlen.py)."""
    k = Kernel(name, T, D, causal, is_varlen=True)
    w = k.w
    varlen.signature(k)
    for c in (0, 1, 2, 64, 128, BLOCKS):
        w(f"  %c{c} = arith.constant {c} : index")
    varlen.host(k, BLOCKS)
    block(k, "items")
    w("  return")
    w("}")
    return "\n".join(k.lines) + "\n"


def kernel(name, T, D, causal, lse=False, score_hook=False):
    """The text of one entry point; with `lse`, it takes a memref<?x?xf32>
    after the output and writes each query row's log-sum-exp there."""
    k = Kernel(name, T, D, causal, lse, score_hook)
    w = k.w
    w(f"func.func @{name}(%q: {k.MR}, %k: {k.MR},")
    if lse:
        w(f"    %v: {k.MR}, %out: {k.MR}, %lse: memref<?x?xf32>,")
        w("    %sm_scale: f32) {")
    else:
        w(f"    %v: {k.MR}, %out: {k.MR}, %sm_scale: f32) {{")
    w("  %c0 = arith.constant 0 : index")
    w("  %c1 = arith.constant 1 : index")
    w("  %c2 = arith.constant 2 : index")
    w("  %c64 = arith.constant 64 : index")
    w("  %c128 = arith.constant 128 : index")
    w(f"  %c{BLOCKS} = arith.constant {BLOCKS} : index")
    w(f"  %heads = memref.dim %q, %c0 : {k.MR}")
    w(f"  %seq = memref.dim %q, %c1 : {k.MR}")
    w(f"  %keys = memref.dim %k, %c1 : {k.MR}")
    host_checks(k)
    w("  %grid_q = arith.ceildivui %seq, %c128 : index")
    w("  // At least one key tile, so that no consumer ever waits for a tile the")
    w("  // producer does not load.")
    w("  %key_tiles = arith.ceildivui %keys, %c128 : index")
    w("  %all_tiles = arith.maxui %key_tiles, %c1 : index")
    if not causal:
        w("  // Only a sequence of keys that is not a multiple of 128 has keys")
        w("  // past its end in its last tile.")
        w("  %key_tail = arith.remui %keys, %c128 : index")
        w("  %ragged = arith.cmpi ne, %key_tail, %c0 : index")
    w("  // exp(x * sm_scale) = exp2(x * scale).")
    w(f"  %log2e = arith.constant {LOG2E} : f32")
    w("  %scale = arith.mulf %sm_scale, %log2e : f32")
    if lse:
        w("  %ln2 = arith.constant 0.693147181 : f32")
    w("  // Work items: 128 query rows of one head; one block per SM walks them.")
    w("  %singles = arith.muli %heads, %grid_q : index")
    if k.causal:
        w("  %last_q = arith.subi %grid_q, %c1 : index")
        w("  // Pairs: query blocks i and grid_q - 1 - i of a head (the middle")
        w("  // block of an odd grid_q alone).")
        w("  %half_q = arith.ceildivui %grid_q, %c2 : index")
        w("  %pairs = arith.muli %heads, %half_q : index")
        w("  // The middle block of an odd grid_q is a pair of half the weight,")
        w("  // every half_q-th pair. Walked by a number of blocks that half_q")
        w(f"  // divides ({BLOCKS} for 2, 3, 4, 6, ...), every block would take")
        w("  // the same place in its heads' pairs at every step: some only")
        w(f"  // middles, the others none. {BLOCKS - 1} blocks, a prime, mix them.")
        w("  %q_parity = arith.andi %grid_q, %c1 : index")
        w("  %odd_q = arith.cmpi ne, %q_parity, %c0 : index")
        w(f"  %c{BLOCKS - 1} = arith.constant {BLOCKS - 1} : index")
        w(f"  %pair_blocks = arith.select %odd_q, %c{BLOCKS - 1}, %c{BLOCKS} : index")
        w("  // Where the pairs fill less than 90% of their waves of blocks")
        w("  // (10 pairs < 9 slots) and the keys and values of all heads take")
        w("  // 64 MiB or less, single items in snake order instead.")
        w("  %waves = arith.ceildivui %pairs, %pair_blocks : index")
        w("  %slots = arith.muli %waves, %pair_blocks : index")
        w("  %c9 = arith.constant 9 : index")
        w("  %c10 = arith.constant 10 : index")
        w("  %pairs10 = arith.muli %pairs, %c10 : index")
        w("  %slots9 = arith.muli %slots, %c9 : index")
        w("  %uneven = arith.cmpi ult, %pairs10, %slots9 : index")
        w(f"  %kv_row = arith.constant {k.D * 4} : index")
        w("  %kv_head = arith.muli %keys, %kv_row : index")
        w("  %kv_bytes = arith.muli %kv_heads, %kv_head : index")
        w(f"  %kv_l2 = arith.constant {SNAKE_BYTES} : index")
        w("  %fits = arith.cmpi ule, %kv_bytes, %kv_l2 : index")
        w("  %snake = arith.andi %uneven, %fits : i1")
        w("  scf.if %snake {")
        k.indent = "  "
        block(k, "snake")
        k.indent = ""
        w("  } else {")
        k.indent = "  "
        block(k, "pairs")
        k.indent = ""
        w("  }")
    else:
        block(k, "items")
    w("  return")
    w("}")
    return "\n".join(k.lines) + "\n"


def templates():
    """The C++ text of lib/Conversion/LinalgToCroq/AttentionTemplates.inc:
    the kernels with a score hook, one per head dimension and causality,
    the element type left as @T@ (croq-fuse-linalg-attention fills it)."""
    out = ["// GENERATED by examples/gen/flash_attention.py --templates; do not edit.",
           "// croq-fuse-linalg-attention parses these (AttentionKernel.cpp).",
           ""]
    for D in (128, 64):
        for causal in (False, True):
            name = f"attention_template_d{D}{'_causal' if causal else ''}"
            text = DECLARATIONS.lstrip() + kernel(name, "@T@", D, causal,
                                                    score_hook=True)
            out.append(f"static const char k{'Causal' if causal else ''}D{D}Template[] = R\"croq(")
            out.append(text + ")croq\";")
            out.append("")
    print("\n".join(out), end="")


def main():
    if sys.argv[1:] == ["--templates"]:
        templates()
        return
    if sys.argv[1:] == ["--varlen"]:
        parts = [varlen.HEADER + DECLARATIONS]
        for comment, name, T, D, causal in varlen.KERNELS:
            parts.append(f"// {comment}\n" + varlen_kernel(name, T, D, causal))
        print("\n".join(parts), end="")
        return
    parts = [HEADER + DECLARATIONS]
    for comment, name, T, D, causal in KERNELS:
        parts.append(f"// {comment}\n" + kernel(name, T, D, causal))
    print("\n".join(parts), end="")


if __name__ == "__main__":
    main()
