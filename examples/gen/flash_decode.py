#!/usr/bin/env python3
"""Writes examples/flash_decode.mlir, the decoding attention kernels.

The eight entry points differ in element type, head dimension and the
cache's layout (contiguous or paged) only, so they are written from one
template here; test/Examples/flash-decode-generated.test checks that the
example is this script's output. Run it after editing the template:

    python3 examples/gen/flash_decode.py > examples/flash_decode.mlir
"""

HEADER = """\
//===- flash_decode.mlir - attention of few queries on a long KV cache ----===//
//
// Decoding attention (FlashDecoding): out = softmax(scale * q k^T) v for a
// few queries a sequence (1 to 64 rows) against a long key/value cache,
// f16 or bf16, head dimension D = 128 or 64, the cache contiguous or in
// pages: one entry point each,
//
//   decode_{f16,bf16}           decode_paged_{f16,bf16}
//   decode_d64_{f16,bf16}       decode_paged_d64_{f16,bf16}
//
// Written by examples/gen/flash_decode.py: edit that. python/croq/decode.py
// (croq.flash_decode) calls them on torch's tensors.
//
// Operands (batch B, query heads Hq = group * Hkv, queries a sequence nq):
//
//   q, out     [B * Hkv, group * nq, D]: torch's [B, Hq, nq, D], contiguous,
//              seen with the query heads of one key/value head and their
//              queries as the rows of one matrix
//   k, v       contiguous: [B * Hkv, S, D] (SDPA's [B, Hkv, S, D]);
//              paged: [pages, page_size, Hkv * D] (flash_attn_with_kvcache's
//              and vLLM's [pages, page_size, Hkv, D]) with
//   table      [B, pages a sequence] i32: the cache page of each page of a
//              sequence (paged entry points only)
//   seqlens    [B] i32: the keys of each sequence (cache_seqlens); keys
//              past it are masked
//   o_part     [splits * B * Hkv * rows64, D] f32 and
//   lse        [splits * B * Hkv * rows64, 8] f32: the workspace of the
//              splits (rows64: group * nq rounded up to 64); its extent
//              bounds the number of splits
//   sm_scale   f32 (1 / sqrt(D) is SDPA's default)
//
// Before anything runs, the host code checks the operands' extents
// against each other (croqRtRequireEqualExtents, croqRtRequireMultiple):
// a call on a bad shape fails naming the operand, and nothing is launched.
//
// A query block of the forward kernel holds 128 rows of one head: with one
// query a sequence, 127 of them are padding and one block a head leaves
// most SMs idle. Here the query heads of one key/value head and their
// queries are the rows of one wgmma tile (64 rows; rows past group * nq
// are zero-filled by the Q load and ignored), so that K and V are read
// once per group, and the keys are split (FlashDecoding): a work item is
// one (sequence, key/value head, split of the keys, 64 rows), which
// streams its split's key tiles of 128 keys.
//
// The kernel is persistent: one block an SM (132, an H100 or H200) walks
// the work items. A producer warpgroup loads each item's Q rows into a
// ring of two slots and its K and V tiles into rings of three stages
// (five at D = 64), by TMA; the rings run on across items, so that the
// next item's first tiles load while this one ends (one item a block, the
// first measured run had each block wait for its Q and first tiles with
// nothing else on the SM: 0.84 of SDPA at 64 x 32/8 x 2048, bench/
// RESULTS.md). The producer's loops run on its first warp
// (croq-single-warp-producers: they only read lengths and block table
// entries, wait and issue loads). One consumer warpgroup computes S = Q K^T, the online
// softmax in registers (row maxima and sums across the lanes of quads,
// croq.mma.reduce) and O += P V with P in registers (croq.mma.convert).
// Each split writes its O, normalized, in f32 and its log-sum-exp (base
// 2), and a second kernel merges the splits of each row, in one pass over
// them, four at a time (their loads in flight together):
//
//   out = sum_s 2^(lse_s - L) O_s / sum_s 2^(lse_s - L),  L = max_s lse_s
//
// A split with no keys (past a short sequence's end) writes O = 0 and
// lse = -inf, which weighs nothing; a sequence with no keys at all gets
// zeros.
//
// The number of splits: the work items should fill whole waves of the 132
// blocks, since a decode step's time is the cache's bytes over the
// bandwidth of the SMs that stream it. For each count s of 1 to the key
// tiles (and the workspace's room), the splits that take ceil(tiles / s)
// tiles each fill waves to
//
//   efficiency(s) = items / (ceil(items / 132) * 132)
//
// and the entry point takes the smallest s within 85% of the best one:
// fewer splits mean fewer partial outputs to merge and longer streams an
// item. (8 sequences x 8 K/V heads x 8192 keys: 64 items a split, 2
// splits, 128 items; 64 x 8 x 2048: 512 items, 1 split; FlashAttention-2's
// num_splits_heuristic takes the same 85%.) bench/RESULTS.md has the
// measured bandwidth.
//
// Paged caches: a key tile of 128 keys lies in one page (the page size
// must be a multiple of 128, checked); the producer reads the tile's page
// from the block table (one load a tile, from L2) and loads the tile from
// it by TMA, a [1, 128, D] box at the key/value head's columns.
//
// Keys past a sequence's length in its last tile get a score of -inf and
// so a weight of 0; their V rows still enter P V, so they must hold finite
// values (TMA zero-fills past the cache's end; within the cache, a row
// past cache_seqlens holds what the cache held: a NaN there would make
// 0 x NaN). torch.zeros caches and caches filled by earlier steps are.
//
//===----------------------------------------------------------------------===//
"""

# The runtime's checks the host code calls (CroqRuntime.h).
DECLARATIONS = """
func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32
"""

LOG2E = "1.44269504"
# CroqRuntime.h: CROQ_RT_EXTENTS_DECODE and its operands.
CHECK_EXTENTS = 8
OPERANDS = {"q": 0, "k": 1, "v": 2, "out": 3, "seqlens": 4, "table": 5,
            "o_part": 6, "lse": 7}
# croqRtMultipleCheck.
MULTIPLE_HEAD_GROUPS = 0
MULTIPLE_PAGE_SIZE = 1
MULTIPLE_SEQUENCES = 2
MULTIPLE_HEAD_DIM = 3
# The SMs of an H100 or H200.
SMS = 132
# Stages of the K and V rings by head dimension: as many as fit beside the
# two Q slots in the 227 KiB of shared memory a block may take (D = 128:
# 3 x 64 KiB + 32 KiB; D = 64: 5 x 32 KiB + 16 KiB; one block an SM, which
# the kernels' registers allow anyway: 134 to 168 a thread, ptxas -v).
STAGES = {128: 3, 64: 5}
# Splits of a row merged a step of the merging kernel (their loads in
# flight together).
MERGE_UNROLL = 4
# Splits within this fraction (in percent) of the best wave efficiency.
EFFICIENCY_PERCENT = 85
# Threads of a block of the merging kernel.
COMBINE_THREADS = 256

KERNELS = [
    ("Contiguous cache, f16, D = 128.", "decode_f16", "f16", 128, False),
    ("The same in bf16.", "decode_bf16", "bf16", 128, False),
    ("The same with head dimension 64, f16.", "decode_d64_f16", "f16", 64,
     False),
    ("The same in bf16.", "decode_d64_bf16", "bf16", 64, False),
    ("Paged cache, f16, D = 128.", "decode_paged_f16", "f16", 128, True),
    ("The same in bf16.", "decode_paged_bf16", "bf16", 128, True),
    ("The same with head dimension 64, f16.", "decode_paged_d64_f16", "f16",
     64, True),
    ("The same in bf16.", "decode_paged_d64_bf16", "bf16", 64, True),
]


class Kernel:
    """One entry point being written and its croq types."""

    def __init__(self, name, T, D, paged):
        self.name = name
        self.T = T
        self.D = D
        self.paged = paged
        self.MR = f"memref<?x?x?x{T}>"
        self.Q3 = f"!croq.tile<1x64x{D}x{T}, shared, swizzle = 128>"
        self.Q2 = f"!croq.tile<64x{D}x{T}, shared, swizzle = 128>"
        self.QV = f"!croq.view<1x64x{D}x{T}>"
        self.K3 = f"!croq.tile<1x128x{D}x{T}, shared, swizzle = 128>"
        self.K2 = f"!croq.tile<128x{D}x{T}, shared, swizzle = 128>"
        self.stages = STAGES[D]
        self.QS = f"!croq.tiles<2 x 1x64x{D}x{T}, shared, swizzle = 128>"
        self.KS = f"!croq.tiles<{self.stages} x 1x128x{D}x{T}, shared, swizzle = 128>"
        self.KV = f"!croq.view<1x128x{D}x{T}>"
        self.QF = f"!croq.frag<64x{D}x{T}>"
        self.KF = f"!croq.frag<128x{D}x{T}>"
        self.PF = f"!croq.frag<64x128x{T}, registers>"
        self.SA = "!croq.acc<64x128xf32>"
        self.OA = f"!croq.acc<64x{D}xf32>"
        self.LA = "!croq.acc<64x8xf32>"
        self.VEC = "!croq.vec<64xf32, rows>"
        self.E = f"!croq.events<{self.stages}>"
        self.E2 = "!croq.events<2>"
        self.OV = f"!croq.view<64x{D}xf32>"
        self.LV = "!croq.view<64x8xf32>"
        self.lines = []

    def w(self, line):
        self.lines.append(line)


def check(k, what, got, want, operand):
    """croqRtRequireEqualExtents(got, want) on `operand`."""
    w = k.w
    w(f"  %{what}_got = arith.index_cast {got} : index to i64")
    w(f"  %{what}_want = arith.index_cast {want} : index to i64")
    w(f"  %{what}_operand = arith.constant {OPERANDS[operand]} : i32")
    w(f"  %{what}_ok = func.call @croqRtRequireEqualExtents(%{what}_got, "
      f"%{what}_want, %check_decode, %{what}_operand) : "
      f"(i64, i64, i32, i32) -> i32")


def multiple(k, what, value, divisor, kind):
    """croqRtRequireMultiple(value, divisor) for check `kind`."""
    w = k.w
    w(f"  %{what}_value = arith.index_cast {value} : index to i64")
    w(f"  %{what}_divisor = arith.index_cast {divisor} : index to i64")
    w(f"  %{what}_kind = arith.constant {kind} : i32")
    w(f"  %{what}_ok = func.call @croqRtRequireMultiple(%{what}_value, "
      f"%{what}_divisor, %{what}_kind) : (i64, i64, i32) -> i32")


def host(k):
    """The operands' extents, their checks, and the split count: %items
    (B * Hkv), %kv_heads, %rows, %row_tiles, %capacity (keys a sequence
    can hold), %splits and %per_split (key tiles a split)."""
    w = k.w
    D = k.D
    w(f"  %items = memref.dim %q, %c0 : {k.MR}")
    w(f"  %rows = memref.dim %q, %c1 : {k.MR}")
    w("  %batch = memref.dim %seqlens, %c0 : memref<?xi32>")
    w("  // The operands' extents, checked before anything runs: a failed")
    w("  // check fails the call and refuses its launches.")
    w(f"  %check_decode = arith.constant {CHECK_EXTENTS} : i32")
    w(f"  %q_dim = memref.dim %q, %c2 : {k.MR}")
    check(k, "qd", "%q_dim", f"%c{D}", "q")
    for dim, what in ((0, "items"), (1, "rows")):
        w(f"  %out_{what} = memref.dim %out, %c{dim} : {k.MR}")
        check(k, f"o{dim}", f"%out_{what}", f"%{what}", "out")
    w(f"  %out_dim = memref.dim %out, %c2 : {k.MR}")
    check(k, "od", "%out_dim", f"%c{D}", "out")
    multiple(k, "seqs", "%items", "%batch", MULTIPLE_SEQUENCES)
    w("  %batch_divisor = arith.maxui %batch, %c1 : index")
    w("  %kv_heads = arith.divui %items, %batch_divisor : index")
    if k.paged:
        w(f"  %pages = memref.dim %k, %c0 : {k.MR}")
        w(f"  %page = memref.dim %k, %c1 : {k.MR}")
        w(f"  %k_cols = memref.dim %k, %c2 : {k.MR}")
        multiple(k, "psize", "%page", "%c128", MULTIPLE_PAGE_SIZE)
        multiple(k, "cols", "%k_cols", f"%c{D}", MULTIPLE_HEAD_DIM)
        w(f"  %cache_heads = arith.divui %k_cols, %c{D} : index")
        w("  %batch_kv = arith.muli %batch, %cache_heads : index")
        check(k, "qi", "%items", "%batch_kv", "q")
        for dim, want in ((0, "%pages"), (1, "%page"), (2, "%k_cols")):
            w(f"  %v_dim{dim} = memref.dim %v, %c{dim} : {k.MR}")
            check(k, f"v{dim}", f"%v_dim{dim}", want, "v")
        w("  %table_rows = memref.dim %table, %c0 : memref<?x?xi32>")
        check(k, "tb", "%table_rows", "%batch", "table")
        w("  %table_pages = memref.dim %table, %c1 : memref<?x?xi32>")
        w("  %capacity = arith.muli %table_pages, %page : index")
        w("  %page_tiles = arith.divui %page, %c128 : index")
        w("  %page_divisor = arith.maxui %page_tiles, %c1 : index")
    else:
        w(f"  %k_items = memref.dim %k, %c0 : {k.MR}")
        check(k, "ki", "%k_items", "%items", "k")
        w(f"  %capacity = memref.dim %k, %c1 : {k.MR}")
        w(f"  %k_dim = memref.dim %k, %c2 : {k.MR}")
        check(k, "kd", "%k_dim", f"%c{D}", "k")
        for dim, want in ((0, "%items"), (1, "%capacity"), (2, f"%c{D}")):
            w(f"  %v_dim{dim} = memref.dim %v, %c{dim} : {k.MR}")
            check(k, f"v{dim}", f"%v_dim{dim}", want, "v")
    w("  // The split workspace: rows64 rows of each (item, split), D and 8")
    w("  // columns; its extent bounds the splits.")
    w("  %row_tiles = arith.ceildivui %rows, %c64 : index")
    w("  %rows64 = arith.muli %row_tiles, %c64 : index")
    w("  %item_rows = arith.muli %items, %rows64 : index")
    w("  %ws_rows = memref.dim %o_part, %c0 : memref<?x?xf32>")
    w("  %ws_short = arith.cmpi ult, %ws_rows, %item_rows : index")
    w("  %ws_want = arith.select %ws_short, %item_rows, %ws_rows : index")
    check(k, "wsr", "%ws_rows", "%ws_want", "o_part")
    w("  %ws_cols = memref.dim %o_part, %c1 : memref<?x?xf32>")
    check(k, "wc", "%ws_cols", f"%c{D}", "o_part")
    w("  %lse_rows = memref.dim %lse, %c0 : memref<?x?xf32>")
    check(k, "lr", "%lse_rows", "%ws_rows", "lse")
    w("  %lse_cols = memref.dim %lse, %c1 : memref<?x?xf32>")
    check(k, "lc", "%lse_cols", "%c8", "lse")
    w("  %item_divisor = arith.maxui %item_rows, %c1 : index")
    w("  %ws_room = arith.divui %ws_rows, %item_divisor : index")
    splits(k)


def splits(k):
    """%splits and %per_split: the split count of the header's rule."""
    w = k.w
    wave = SMS
    w("  // At least one key tile a split, so that every block has a")
    w("  // sequence's worth of work to bound; no more splits than tiles or")
    w("  // than the workspace holds.")
    w("  %cap_tiles = arith.ceildivui %capacity, %c128 : index")
    w("  %tiles = arith.maxui %cap_tiles, %c1 : index")
    w("  %room1 = arith.maxui %ws_room, %c1 : index")
    w("  %max_splits = arith.minui %tiles, %room1 : index")
    w("  %units = arith.muli %items, %row_tiles : index")
    w(f"  // Work items that run at once: one a block, one block an SM.")
    w(f"  %wave = arith.constant {wave} : index")
    w("  %c1000 = arith.constant 1000 : index")
    w(f"  %percent = arith.constant {EFFICIENCY_PERCENT} : index")
    w("  %c100 = arith.constant 100 : index")
    w("  %search_end = arith.addi %max_splits, %c1 : index")
    w("  // Per mille of the waves' block slots that the blocks of s splits")
    w("  // fill (the splits of ceil(tiles / s) tiles each).")
    w("  %best = scf.for %s = %c1 to %search_end step %c1 iter_args(%b = %c0) -> (index) {")
    efficiency(k, "    ", "%s", "e")
    w("    %better = arith.maxui %b, %e_permille : index")
    w("    scf.yield %better : index")
    w("  }")
    w("  %best_pct = arith.muli %best, %percent : index")
    w("  // The smallest count within 85% of the best.")
    w("  %chosen = scf.for %s = %c1 to %search_end step %c1 iter_args(%pick = %c0) -> (index) {")
    efficiency(k, "    ", "%s", "f")
    w("    %f_pct = arith.muli %f_permille, %c100 : index")
    w("    %good = arith.cmpi uge, %f_pct, %best_pct : index")
    w("    %unset = arith.cmpi eq, %pick, %c0 : index")
    w("    %take = arith.andi %good, %unset : i1")
    w("    %next = arith.select %take, %f_splits, %pick : index")
    w("    scf.yield %next : index")
    w("  }")
    w("  %splits = arith.maxui %chosen, %c1 : index")
    w("  %per_split = arith.ceildivui %tiles, %splits : index")


def efficiency(k, I, s, p):
    """%{p}_splits (the splits of ceil(tiles / s) tiles) and %{p}_permille,
    their blocks' share of the waves' slots in per mille."""
    w = k.w
    w(f"{I}%{p}_per = arith.ceildivui %tiles, {s} : index")
    w(f"{I}%{p}_splits = arith.ceildivui %tiles, %{p}_per : index")
    w(f"{I}%{p}_blocks = arith.muli %units, %{p}_splits : index")
    w(f"{I}%{p}_waves = arith.ceildivui %{p}_blocks, %wave : index")
    w(f"{I}%{p}_slots = arith.muli %{p}_waves, %wave : index")
    w(f"{I}%{p}_slots1 = arith.maxui %{p}_slots, %c1 : index")
    w(f"{I}%{p}_scaled = arith.muli %{p}_blocks, %c1000 : index")
    w(f"{I}%{p}_permille = arith.divui %{p}_scaled, %{p}_slots1 : index")


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


def combine_kernel(k):
    """The merge of the splits of each row."""
    w = k.w
    D = k.D
    per_pass = COMBINE_THREADS // D
    U = MERGE_UNROLL
    w("  // The merge: a block per (item, 64 rows), a thread a column of")
    w(f"  // {per_pass} rows at a time; out = sum_s 2^(lse_s - L) O_s /")
    w("  // sum_s 2^(lse_s - L), L = max_s lse_s, in one pass over the")
    w(f"  // splits, {U} at a time (their loads in flight together), the sums")
    w("  // rescaled when L grows.")
    w("  croq.parallel (%item, %rt) in [%items, %row_tiles] : block {")
    w(f"    croq.parallel (%t) in [{COMBINE_THREADS}] : thread {{")
    I = "      "
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%ninf = arith.constant 0xFF800000 : f32")
    w(f"{I}%col = arith.remui %t, %c{D} : index")
    w(f"{I}%lane_row = arith.divui %t, %c{D} : index")
    w(f"{I}%row0 = arith.muli %rt, %c64 : index")
    w(f"{I}%left = arith.subi %rows, %row0 : index")
    w(f"{I}%here = arith.minui %left, %c64 : index")
    w(f"{I}%item_tile = arith.muli %item, %row_tiles : index")
    w(f"{I}%first_tile = arith.muli %item_tile, %splits : index")
    w(f"{I}%last_split = arith.subi %splits, %c1 : index")
    w(f"{I}scf.for %r = %lane_row to %here step %c{per_pass} {{")
    J = I + "  "
    w(f"{J}%row = arith.addi %row0, %r : index")
    w(f"{J}%sums:3 = scf.for %sb = %c0 to %splits step %c{U}")
    w(f"{J}    iter_args(%mx = %ninf, %acc = %zero, %wsum = %zero) -> (f32, f32, f32) {{")
    K = J + "  "
    for u in range(U):
        w(f"{K}%c_u{u} = arith.constant {u} : index")
        w(f"{K}%s_raw{u} = arith.addi %sb, %c_u{u} : index")
        w(f"{K}%in{u} = arith.cmpi ult, %s_raw{u}, %splits : index")
        w(f"{K}// Past the last split: the last one again, weighing nothing.")
        w(f"{K}%s{u} = arith.minui %s_raw{u}, %last_split : index")
        workspace_row(k, K, f"%s{u}", str(u))
        w(f"{K}%x_raw{u} = croq.read %lse[%wrow{u}, %c0] : memref<?x?xf32>")
        w(f"{K}%x{u} = arith.select %in{u}, %x_raw{u}, %ninf : f32")
        w(f"{K}%o{u} = croq.read %o_part[%wrow{u}, %col] : memref<?x?xf32>")
    prev = "%mx"
    for u in range(U):
        w(f"{K}%mx{u} = arith.maximumf {prev}, %x{u} : f32")
        prev = f"%mx{u}"
    w(f"{K}// No keys so far: L = 0, so that every weight is 2^-inf = 0.")
    w(f"{K}%none = arith.cmpf oeq, {prev}, %ninf : f32")
    w(f"{K}%safe = arith.select %none, %zero, {prev} : f32")
    w(f"{K}%dk = arith.subf %mx, %safe : f32")
    w(f"{K}%keep = math.exp2 %dk fastmath<afn> : f32")
    w(f"{K}%acc_k = arith.mulf %acc, %keep : f32")
    w(f"{K}%wsum_k = arith.mulf %wsum, %keep : f32")
    acc, wsum = "%acc_k", "%wsum_k"
    for u in range(U):
        w(f"{K}%d{u} = arith.subf %x{u}, %safe : f32")
        w(f"{K}%wt{u} = math.exp2 %d{u} fastmath<afn> : f32")
        w(f"{K}%acc{u} = math.fma %wt{u}, %o{u}, {acc} : f32")
        w(f"{K}%wsum{u} = arith.addf {wsum}, %wt{u} : f32")
        acc, wsum = f"%acc{u}", f"%wsum{u}"
    w(f"{K}scf.yield {prev}, {acc}, {wsum} : f32, f32, f32")
    w(f"{J}}}")
    w(f"{J}%any = arith.cmpf ogt, %sums#2, %zero : f32")
    w(f"{J}%quot = arith.divf %sums#1, %sums#2 : f32")
    w(f"{J}%val = arith.select %any, %quot, %zero : f32")
    w(f"{J}%y = arith.truncf %val : f32 to {k.T}")
    w(f"{J}croq.write %y, %out[%item, %row, %col] : {k.MR}")
    w(f"{I}}}")
    w("    }")
    w("  }")


def workspace_row(k, I, split, p):
    """%wrow{p}: the workspace row of row %r of row tile %rt of `split`."""
    w = k.w
    w(f"{I}%split_tile{p} = arith.muli {split}, %row_tiles : index")
    w(f"{I}%tile0{p} = arith.addi %first_tile, %split_tile{p} : index")
    w(f"{I}%tile{p} = arith.addi %tile0{p}, %rt : index")
    w(f"{I}%wbase{p} = arith.muli %tile{p}, %c64 : index")
    w(f"{I}%wrow{p} = arith.addi %wbase{p}, %r : index")


def kernel(name, T, D, paged):
    """The text of one entry point."""
    k = Kernel(name, T, D, paged)
    w = k.w
    table = " %table: memref<?x?xi32>," if paged else ""
    w(f"func.func @{name}(%q: {k.MR}, %k: {k.MR}, %v: {k.MR},{table}")
    w(f"    %seqlens: memref<?xi32>, %out: {k.MR}, %o_part: memref<?x?xf32>,")
    w("    %lse: memref<?x?xf32>, %sm_scale: f32) {")
    for c in sorted({0, 1, 2, STAGES[D], MERGE_UNROLL, 8, 64, 128, SMS,
                     COMBINE_THREADS // D}):
        w(f"  %c{c} = arith.constant {c} : index")
    w("  %c0_i32 = arith.constant 0 : i32")
    host(k)
    split_kernel(k)
    combine_kernel(k)
    w("  return")
    w("}")
    return "\n".join(k.lines) + "\n"


def main():
    parts = [HEADER + DECLARATIONS]
    for comment, name, T, D, paged in KERNELS:
        parts.append(f"// {comment}\n" + kernel(name, T, D, paged))
    print("\n".join(parts), end="")


if __name__ == "__main__":
    main()
