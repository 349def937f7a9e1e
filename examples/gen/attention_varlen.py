"""The variable-length parts of examples/flash_attention_varlen.mlir.

examples/gen/flash_attention.py --varlen writes the forward kernels for
sequences of different lengths packed together (flash_attn_varlen_func's
operands); this module writes what differs from the fixed-length kernels:
the host checks, the walk over the work items of the packed sequences (a
cursor over cu_seqlens), the views of a sequence's rows, the masks of keys
past a sequence's end and past its bottom-right diagonal, and the output
store that stops at the sequence's last row. Each function takes the
kernel being written (attention_fwd_common.Kernel) and writes into it.
"""

HEADER = """\
//===- flash_attention_varlen.mlir - attention on packed sequences --------===//
//
// out = softmax(scale * q k^T) v for a batch of sequences of different
// lengths packed one after the other, as flash_attn_varlen_func takes
// them: q [total_q, heads, D], k and v [total_k, kv_heads, D] (contiguous,
// passed as [1, total, heads * D] views), cu_seqlens_q and cu_seqlens_k
// (i32 [batch + 1], on the device: sequence b's query rows are
// cu_seqlens_q[b] .. cu_seqlens_q[b + 1] - 1, its keys likewise), out like
// q, f16 or bf16, D = 128 or 64, causal or not, grouped-query attention
// (heads a multiple of kv_heads, query head h reading key/value head
// h / (heads / kv_heads)). One entry point each:
//
//   attention_varlen_{f16,bf16}         attention_varlen_causal_{f16,bf16}
//   attention_varlen_d64_{f16,bf16}     attention_varlen_causal_d64_{f16,bf16}
//
// taking q, k, v, cu_seqlens_q, cu_seqlens_k, out and the softmax scale.
// Written by examples/gen/flash_attention.py --varlen: edit that (and
// examples/gen/attention_varlen.py).
//
// Causal attention is aligned at the bottom right, as flash-attn's (2.1
// and later): query i of a sequence of Lq queries and Lk keys sees keys 0
// to i + Lk - Lq (0 to i when Lq = Lk). A query that sees no key (i <
// Lq - Lk) and every query of a sequence without keys gets zeros.
//
// The kernel is flash_attention.mlir's (a producer warpgroup loading K and
// V tiles of 128 keys into two-stage rings by TMA, two consumer warpgroups
// of 64 query rows each, FlashAttention-3's overlap of the products with
// the softmax and their ping-pong, Q loaded an item ahead) over a work
// space that spans the sequences: sequence b owns heads * ceil(Lq_b / 128)
// consecutive work items, so an empty sequence owns none: the query blocks
// of a head next to each other, or where causal the query blocks longest
// first, the heads of one block next to each other (measured on an H200,
// chat16:32x8:128:causal of bench_varlen.py: head by head, each head's
// blocks longest first, took 591 us, 17% less than without causality).
// The host bounds the items by heads * (ceil(total_q / 128) + batch) and
// launches min(that, 132) blocks; each block walks items bid, bid + grid, ... and finds an item's
// sequence by moving a cursor forward over cu_seqlens_q (scf.while: each
// offset is read once per block and role, no search from the start);
// items past the last sequence's end are skipped. Offsets are clamped to
// the tensors (a sequence ends at or after it starts and at or before the
// total), so wrong ones give wrong rows, never stray writes.
//
// Loads: a sequence's query and key tiles start at its first row + 128 i,
// an element offset TMA takes as it is (croq.view), and its head's columns
// at h * D of the packed rows. A tile may run into the next sequence's
// rows: its query rows feed output rows that are not stored, its keys are
// masked (scores -inf, weight 0; the values there must be finite, as 0 x
// NaN is NaN: rows of k and v past cu_seqlens_k[batch] too). TMA
// zero-fills past the tensors' ends. Masks: key tiles past the first
// query row's diagonal or holding the sequence's last key are masked (a
// bottom-right diagonal needs not fall on a tile's edge, so two tiles may
// need it), the rest run unmasked.
//
// Stores: a TMA store clips only at the tensor's end and would overwrite
// the next sequence's rows, so each consumer writes its 64 rows into a
// swizzled shared tile and copies them out by its threads through a view
// bounded by the sequence's last row (croq.copy dma ... within, as
// grouped_matmul.mlir does): rows past cu_seqlens_q[batch] and other
// heads' columns are never written.
//
// Before launching, the host code checks the operands' extents
// (croqRtRequireEqualExtents, croqRtRequireMultiple): the views' first
// extent 1, q's and k's columns multiples of D, v like k, out like q,
// heads a multiple of kv_heads, cu_seqlens_k as long as cu_seqlens_q,
// which holds at least one offset. A failed check fails the call naming
// the operand, and nothing runs.
//
//===----------------------------------------------------------------------===//
"""

# The kernels in the order of the example: (comment, name, type, D, causal).
KERNELS = [
    ("Non-causal, f16, D = 128.", "attention_varlen_f16", "f16", 128, False),
    ("The same in bf16.", "attention_varlen_bf16", "bf16", 128, False),
    ("The same with head dimension 64, f16.", "attention_varlen_d64_f16",
     "f16", 64, False),
    ("The same in bf16.", "attention_varlen_d64_bf16", "bf16", 64, False),
    ("Causal (bottom-right), f16, D = 128.", "attention_varlen_causal_f16",
     "f16", 128, True),
    ("The same in bf16.", "attention_varlen_causal_bf16", "bf16", 128, True),
    ("The same with head dimension 64, f16.",
     "attention_varlen_causal_d64_f16", "f16", 64, True),
    ("The same in bf16.", "attention_varlen_causal_d64_bf16", "bf16", 64,
     True),
]

# CroqRuntime.h: CROQ_RT_EXTENTS_VARLEN and its operands.
CHECK_EXTENTS = 9
OPERANDS = {"q": 0, "k": 1, "v": 2, "out": 3, "cu_q": 4, "cu_k": 5}
# croqRtMultipleCheck.
MULTIPLE_HEAD_GROUPS = 0
MULTIPLE_VARLEN_HEAD_DIM = 4


def signature(k):
    k.w(f"func.func @{k.name}(%q: {k.MR}, %k: {k.MR}, %v: {k.MR},")
    k.w(f"    %cu_q: memref<?xi32>, %cu_k: memref<?xi32>, %out: {k.MR},")
    k.w("    %sm_scale: f32) {")


def _check(k, what, value, want, operand):
    w = k.w
    w(f"  %{what}_i64 = arith.index_cast {value} : index to i64")
    w(f"  %{what}_want = arith.index_cast {want} : index to i64")
    w(f"  %{what}_operand = arith.constant {OPERANDS[operand]} : i32")
    w(f"  %{what}_ok = func.call @croqRtRequireEqualExtents(%{what}_i64, "
      f"%{what}_want, %check_varlen, %{what}_operand) : "
      f"(i64, i64, i32, i32) -> i32")


def _multiple(k, what, value, divisor, kind):
    w = k.w
    w(f"  %{what}_value = arith.index_cast {value} : index to i64")
    w(f"  %{what}_divisor = arith.index_cast {divisor} : index to i64")
    w(f"  %{what}_kind = arith.constant {kind} : i32")
    w(f"  %{what}_ok = func.call @croqRtRequireMultiple(%{what}_value, "
      f"%{what}_divisor, %{what}_kind) : (i64, i64, i32) -> i32")


def host(k, blocks):
    """The extents, their checks and the work items' bound: %rows_q,
    %rows_k, %q_cols, %heads, %group, %batch, %singles."""
    w = k.w
    D = k.D
    w(f"  %rows_q = memref.dim %q, %c1 : {k.MR}")
    w(f"  %q_cols = memref.dim %q, %c2 : {k.MR}")
    w(f"  %rows_k = memref.dim %k, %c1 : {k.MR}")
    w(f"  %k_cols = memref.dim %k, %c2 : {k.MR}")
    w("  %offsets = memref.dim %cu_q, %c0 : memref<?xi32>")
    w("  // The operands' extents, checked before anything runs: a failed")
    w("  // check fails the call and refuses its launches.")
    w(f"  %check_varlen = arith.constant {CHECK_EXTENTS} : i32")
    for t in ("q", "k", "v", "out"):
        w(f"  %{t}_one = memref.dim %{t}, %c0 : {k.MR}")
        _check(k, f"{t}_lead", f"%{t}_one", "%c1", t)
    for dim, want in ((1, "%rows_k"), (2, "%k_cols")):
        w(f"  %v_dim{dim} = memref.dim %v, %c{dim} : {k.MR}")
        _check(k, f"v{dim}", f"%v_dim{dim}", want, "v")
    for dim, want in ((1, "%rows_q"), (2, "%q_cols")):
        w(f"  %out_dim{dim} = memref.dim %out, %c{dim} : {k.MR}")
        _check(k, f"o{dim}", f"%out_dim{dim}", want, "out")
    w("  %k_offsets = memref.dim %cu_k, %c0 : memref<?xi32>")
    _check(k, "cuk", "%k_offsets", "%offsets", "cu_k")
    w("  // At least one offset: batch + 1 of them.")
    w("  %some_offsets = arith.minui %offsets, %c1 : index")
    _check(k, "cuq", "%some_offsets", "%c1", "cu_q")
    _multiple(k, "qcols", "%q_cols", f"%c{D}", MULTIPLE_VARLEN_HEAD_DIM)
    _multiple(k, "kcols", "%k_cols", f"%c{D}", MULTIPLE_VARLEN_HEAD_DIM)
    w(f"  %heads = arith.divui %q_cols, %c{D} : index")
    w(f"  %kv_heads = arith.divui %k_cols, %c{D} : index")
    _multiple(k, "groups", "%heads", "%kv_heads", MULTIPLE_HEAD_GROUPS)
    w("  // Each K/V head serves %group query heads (1 without grouping); no")
    w("  // division by zero where K has no heads (the check failed then).")
    w("  %kv_divisor = arith.maxui %kv_heads, %c1 : index")
    w("  %group = arith.divui %heads, %kv_divisor : index")
    w("  %offsets1 = arith.maxui %offsets, %c1 : index")
    w("  %batch = arith.subi %offsets1, %c1 : index")
    w("  %c0_i32 = arith.constant 0 : i32")
    w("  // exp(x * sm_scale) = exp2(x * scale).")
    w("  %log2e = arith.constant 1.44269504 : f32")
    w("  %scale = arith.mulf %sm_scale, %log2e : f32")
    w("  // Work items: 128 query rows of one head of one sequence. A")
    w("  // sequence of L rows has ceil(L / 128) <= L / 128 + 1 query blocks,")
    w("  // so heads * (ceil(total_q / 128) + batch) bound the items; at")
    w("  // least one block is launched.")
    w("  %row_blocks = arith.ceildivui %rows_q, %c128 : index")
    w("  %blocks_bound = arith.addi %row_blocks, %batch : index")
    w("  %items_bound = arith.muli %heads, %blocks_bound : index")
    w("  %singles = arith.maxui %items_bound, %c1 : index")


def _rows(k, I, cu, index, total, p):
    """%{p}_start and %{p}_len: sequence `index`'s rows by the offsets
    `cu`, clamped to [0, total]."""
    w = k.w
    w(f"{I}%{p}_i1 = arith.addi {index}, %c1 : index")
    w(f"{I}%{p}_o0 = memref.load {cu}[{index}] : memref<?xi32>")
    w(f"{I}%{p}_o1 = memref.load {cu}[%{p}_i1] : memref<?xi32>")
    w(f"{I}%{p}_p0 = arith.maxsi %{p}_o0, %c0_i32 : i32")
    w(f"{I}%{p}_p1 = arith.maxsi %{p}_o1, %{p}_p0 : i32")
    w(f"{I}%{p}_x0 = arith.index_castui %{p}_p0 : i32 to index")
    w(f"{I}%{p}_x1 = arith.index_castui %{p}_p1 : i32 to index")
    w(f"{I}%{p}_start = arith.minui %{p}_x0, {total} : index")
    w(f"{I}%{p}_end = arith.minui %{p}_x1, {total} : index")
    w(f"{I}%{p}_len = arith.subi %{p}_end, %{p}_start : index")


def locate(k, I, item, cursor, s):
    """Moves the cursor (the next sequence, the first item of the current
    one, the end of its items) forward until item `item` is before the
    current sequence's end or no sequence is left: %loc{s}:3, and %valid{s}
    whether `item` is a work item (the sequence is %loc{s}#0 - 1)."""
    w = k.w
    n0, st0, en0 = cursor
    w(f"{I}%loc{s}:3 = scf.while (%wn{s} = {n0}, %wst{s} = {st0}, %wen{s} = {en0})")
    w(f"{I}    : (index, index, index) -> (index, index, index) {{")
    J = I + "  "
    w(f"{J}%past{s} = arith.cmpi uge, {item}, %wen{s} : index")
    w(f"{J}%more{s} = arith.cmpi ult, %wn{s}, %batch : index")
    w(f"{J}%go{s} = arith.andi %past{s}, %more{s} : i1")
    w(f"{J}scf.condition(%go{s}) %wn{s}, %wst{s}, %wen{s} : index, index, index")
    w(f"{I}}} do {{")
    w(f"{I}^bb0(%dn{s}: index, %dst{s}: index, %den{s}: index):")
    _rows(k, J, "%cu_q", f"%dn{s}", "%rows_q", f"adv{s}")
    w(f"{J}%adv{s}_blocks = arith.ceildivui %adv{s}_len, %c128 : index")
    w(f"{J}%adv{s}_items = arith.muli %adv{s}_blocks, %heads : index")
    w(f"{J}%nen{s} = arith.addi %den{s}, %adv{s}_items : index")
    w(f"{J}%nn{s} = arith.addi %dn{s}, %c1 : index")
    w(f"{J}scf.yield %nn{s}, %den{s}, %nen{s} : index, index, index")
    w(f"{I}}}")
    w(f"{I}%valid{s} = arith.cmpi ult, {item}, %loc{s}#2 : index")


def coords(k, I, item, s, keys=True):
    """The sequence of work item `item` (located by locate(..., s)), its
    rows (%sq{s}_start, %sq{s}_len; with `keys` %sk{s}_start, %sk{s}_len),
    and the item's head %bh{s} and query block %bq{s}."""
    w = k.w
    w(f"{I}%seq{s} = arith.subi %loc{s}#0, %c1 : index")
    _rows(k, I, "%cu_q", f"%seq{s}", "%rows_q", f"sq{s}")
    if keys:
        _rows(k, I, "%cu_k", f"%seq{s}", "%rows_k", f"sk{s}")
    w(f"{I}%nq{s} = arith.ceildivui %sq{s}_len, %c128 : index")
    w(f"{I}%local{s} = arith.subi {item}, %loc{s}#1 : index")
    if k.causal:
        w(f"{I}// The sequence's query blocks longest first, the heads of one")
        w(f"{I}// block next to each other: a block's last items are short.")
        w(f"{I}%tq{s} = arith.divui %local{s}, %heads : index")
        w(f"{I}%bh{s} = arith.remui %local{s}, %heads : index")
        w(f"{I}%lq{s} = arith.subi %nq{s}, %c1 : index")
        w(f"{I}%bq{s} = arith.subi %lq{s}, %tq{s} : index")
    else:
        w(f"{I}// The query blocks of a head next to each other.")
        w(f"{I}%bh{s} = arith.divui %local{s}, %nq{s} : index")
        w(f"{I}%bq{s} = arith.remui %local{s}, %nq{s} : index")


def tiles(k, I):
    """%tiles, the item's key tiles (at least one, so that no consumer
    waits for a tile the producer does not load), and %mask_from, the
    first of them that is masked."""
    w = k.w
    w(f"{I}%key_tiles = arith.ceildivui %sk_len, %c128 : index")
    w(f"{I}// From this key tile on, the sequence's last key is in the tile")
    w(f"{I}// or behind.")
    w(f"{I}%end_from = arith.divui %sk_len, %c128 : index")
    if not k.causal:
        w(f"{I}%tiles = arith.maxui %key_tiles, %c1 : index")
        w(f"{I}%mask_from = arith.addi %end_from, %c0 : index")
        return
    w(f"{I}// Query row r sees keys below r + 1 + Lk - Lq (bottom right): the")
    w(f"{I}// block's last row, min(128 bq + 128, Lq) - 1, bounds its key")
    w(f"{I}// tiles; its first row, 128 bq, sees whole tiles before the")
    w(f"{I}// masked ones. Below zero (Lq > Lk) a row sees no key.")
    w(f"{I}%bq1 = arith.addi %bq, %c1 : index")
    w(f"{I}%q_hi0 = arith.muli %bq1, %c128 : index")
    w(f"{I}%q_hi = arith.minui %q_hi0, %sq_len : index")
    w(f"{I}%vis_a = arith.addi %q_hi, %sk_len : index")
    w(f"{I}%vis_b = arith.maxui %vis_a, %sq_len : index")
    w(f"{I}%vis_last = arith.subi %vis_b, %sq_len : index")
    w(f"{I}%vis_tiles = arith.ceildivui %vis_last, %c128 : index")
    w(f"{I}%tiles = arith.maxui %vis_tiles, %c1 : index")
    w(f"{I}%q_lo = arith.muli %bq, %c128 : index")
    w(f"{I}%first_a = arith.addi %q_lo, %sk_len : index")
    w(f"{I}%first_a1 = arith.addi %first_a, %c1 : index")
    w(f"{I}%first_b = arith.maxui %first_a1, %sq_len : index")
    w(f"{I}%vis_first = arith.subi %first_b, %sq_len : index")
    w(f"{I}%diag_from = arith.divui %vis_first, %c128 : index")
    w(f"{I}%mask_from = arith.minui %diag_from, %end_from : index")


def open_item(k, I):
    """Opens the loop over the block's work items and the test that the
    item is one; returns the body's indentation."""
    w = k.w
    consumer = k.role == "consumer"
    par = ", %par = %c0" if consumer else ""
    types = "index, index" if consumer else "index"
    w(f"{I}// The cursor over the sequences (locate) runs on across items.")
    w(f"{I}scf.for %item = %bid to %singles step %grid iter_args(%base = %c0{par}, %cur_n = %c0, %cur_st = %c0, %cur_en = %c0) -> ({types}, index, index, index) {{")
    J = I + "  "
    locate(k, J, "%item", ("%cur_n", "%cur_st", "%cur_en"), "")
    results = "%after:2" if consumer else "%after"
    w(f"{J}{results} = scf.if %valid -> ({types}) {{")
    K = J + "  "
    coords(k, K, "%item", "")
    tiles(k, K)
    w(f"{K}%q_block = arith.muli %bq, %c2 : index")
    return K


def close_item(k, I):
    """Closes what open_item opened at indentation I."""
    w = k.w
    J = I + "  "
    if k.role == "consumer":
        w(f"{J}}} else {{")
        w(f"{J}  scf.yield %base, %par : index, index")
        w(f"{J}}}")
        w(f"{J}scf.yield %after#0, %after#1, %loc#0, %loc#1, %loc#2 : index, index, index, index, index")
    else:
        w(f"{J}}} else {{")
        w(f"{J}  scf.yield %base : index")
        w(f"{J}}}")
        w(f"{J}scf.yield %after, %loc#0, %loc#1, %loc#2 : index, index, index, index")
    w(f"{I}}}")


def first_q(k, I, load_q):
    """The consumer's Q rows of the block's first item, if it has one."""
    w = k.w
    w(f"{I}// Q rows of the block's first item, if any.")
    locate(k, I, "%bid", ("%c0", "%c0", "%c0"), "_f")
    w(f"{I}scf.if %valid_f {{")
    coords(k, I + "  ", "%bid", "_f", keys=False)
    load_q(k, I + "  ", "%bh_f", "%bq_f", "%half", "_f")
    w(f"{I}}}")


def next_q(k, I, load_q):
    """The consumer's Q rows of the block's next item, if any, into its
    other Q slot; %npar is that slot's parity."""
    w = k.w
    w(f"{I}// Q rows of the block's next item, if any, into the other slot.")
    w(f"{I}%npar = arith.subi %c1, %par : index")
    w(f"{I}%item_n = arith.addi %item, %grid : index")
    locate(k, I, "%item_n", ("%loc#0", "%loc#1", "%loc#2"), "_n")
    w(f"{I}scf.if %valid_n {{")
    J = I + "  "
    coords(k, J, "%item_n", "_n", keys=False)
    w(f"{J}%nslot2 = arith.muli %npar, %c2 : index")
    w(f"{J}%nslot = arith.addi %nslot2, %half : index")
    load_q(k, J, "%bh_n", "%bq_n", "%nslot", "_n")
    w(f"{I}}}")


def q_view(k, I, bh, s):
    """%qv{s}: the consumer's 64 query rows %q_row{s} (in 64-row blocks)
    of sequence %sq{s} at head `bh`."""
    w = k.w
    w(f"{I}%q_off{s} = arith.muli %q_row{s}, %c64 : index")
    w(f"{I}%q_at{s} = arith.addi %sq{s}_start, %q_off{s} : index")
    w(f"{I}%q_col{s} = arith.muli {bh}, %c{k.D} : index")
    w(f"{I}%qv{s} = croq.view %q [1, 64, {k.D}] from [0, %q_at{s}, %q_col{s}] : {k.MR} -> {k.QV}")


def kv_views(k, I):
    """%kv and %vv: key tile %j of the item's sequence at K/V head %bkv."""
    w = k.w
    w(f"{I}%k_off = arith.muli %j, %c128 : index")
    w(f"{I}%k_at = arith.addi %sk_start, %k_off : index")
    w(f"{I}%kv_col = arith.muli %bkv, %c{k.D} : index")
    w(f"{I}%kv = croq.view %k [1, 128, {k.D}] from [0, %k_at, %kv_col] : {k.MR} -> {k.KV}")
    w(f"{I}%vv = croq.view %v [1, 128, {k.D}] from [0, %k_at, %kv_col] : {k.MR} -> {k.KV}")


def store(k, I):
    """The consumer's 64 output rows %o, through its shared tile, copied
    out by its threads up to the sequence's last row."""
    w = k.w
    w(f"{I}// Copied out by the warpgroup's threads through a view bounded by")
    w(f"{I}// the sequence's last row: a TMA store would write the next")
    w(f"{I}// sequence's rows.")
    w(f"{I}croq.mma.store %o -> %o2 : {k.OA} -> {k.Q2}")
    w(f"{I}%o_off = arith.muli %row_block, %c64 : index")
    w(f"{I}%o_at = arith.addi %sq_start, %o_off : index")
    w(f"{I}%o_col = arith.muli %bh, %c{k.D} : index")
    w(f"{I}%ov = croq.view %out [1, 64, {k.D}] from [0, %o_at, %o_col] within [1, %sq_end, %q_cols] : {k.MR} -> {k.QV}")
    w(f"{I}croq.copy dma %ot -> %ov : {k.Q3} -> {k.QV}")


def mask_limits(k, I, j):
    """In the mask's region: %end_limit (i32: keys of tile `j` before the
    sequence's end) and, causal, %diag_limit (the first row's limit less
    its row: row r of the consumer's rows sees columns below
    diag_limit + r)."""
    w = k.w
    w(f"{I}%key_base = arith.muli {j}, %c128 : index")
    w(f"{I}%in_tile = arith.subi %sk_len, %key_base : index")
    w(f"{I}%end_limit = arith.index_cast %in_tile : index to i32")
    if k.causal:
        w(f"{I}// Row q_base + r sees keys below q_base + r + 1 + Lk - Lq, in")
        w(f"{I}// i32 as it may be negative.")
        w(f"{I}%diag_a = arith.addi %q_base, %c1 : index")
        w(f"{I}%diag_b = arith.addi %diag_a, %sk_len : index")
        w(f"{I}%diag_c = arith.addi %sq_len, %key_base : index")
        w(f"{I}%diag_b32 = arith.index_cast %diag_b : index to i32")
        w(f"{I}%diag_c32 = arith.index_cast %diag_c : index to i32")
        w(f"{I}%diag_limit = arith.subi %diag_b32, %diag_c32 : i32")
