"""What the decoding attention kernels' generators share: the grid's and
the host checks' constants, the kernel being written (Kernel), the host
code (the operands' checks and the choice of splits). examples/gen/
flash_decode.py writes the kernels with decode_split.py (the split
kernel) and its own combine kernel."""

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
