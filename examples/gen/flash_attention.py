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

The kernel's parts: attention_fwd_common.py (the kernel being written),
attention_fwd_walk.py (the walk over work items and the producer) and
attention_fwd_consumer.py (the consumers).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attention_varlen as varlen  # noqa: E402
from attention_fwd_common import (  # noqa: E402
    BLOCKS, LOG2E, SNAKE_BYTES, Kernel, extent_check)
from attention_fwd_consumer import consumer  # noqa: E402
from attention_fwd_walk import producer  # noqa: E402

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
        extent_check(k, n, t, dim, want, operand, mr)
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
