#!/usr/bin/env python3
"""Writes examples/flash_attention_bwd.mlir, the attention backward.

For each element type (f16, bf16), head dimension (128, 64) and causality,
three entry points: the forward that also saves each query row's
log-sum-exp (flash_attention.py's kernel with `lse`), the dQ kernel and the
dK/dV kernel. test/Examples/flash-attention-bwd-generated.test checks that
the example is this script's output. Run it after editing:

    python3 examples/gen/flash_attention_bwd.py > examples/flash_attention_bwd.mlir
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flash_attention as fwd  # noqa: E402

HEADER = """\
//===- flash_attention_bwd.mlir - attention backward on SDPA's tensors ---===//
//
// The gradients of out = softmax(scale * q k^T) v (examples/
// flash_attention.mlir) on tensors laid out as SDPA takes them, passed as
// [batch * heads, rows, D] views (K, V, dK and dV with the key/value heads
// of grouped-query attention), f16 or bf16, D = 128 or 64, causal or not.
// Written by examples/gen/flash_attention_bwd.py: edit that. Entry points
// of a configuration ({f16,bf16}, _d64 for D = 64, _causal):
//
//   attention_lse_*    the forward of flash_attention.mlir that also writes
//                      each query row's log-sum-exp of scale * S (natural
//                      log, f32, [batch * heads, rows]) after the output;
//   attention_bwd_dq_* dQ, and delta = rowsum(dO * O) for the next kernel;
//   attention_bwd_dkdv_* dK and dV, from delta;
//
// and the fused backward: attention_bwd_delta_* (not causal only: it serves
// both) writes delta and zeroes dQ's f32 workspace and turn counters, then
// attention_bwd_dkdvdq_* computes dK, dV and adds dQ's parts into the
// workspace (croq.bulk_add), 5 products of a query tile and a key tile
// where the two kernels above do 7 (the dQ kernel recomputes S and dP).
// Both are deterministic: the two-kernel backward sums every gradient
// element in one warpgroup in a fixed order with no atomics; the fused
// kernel's key blocks add their parts of dQ in key order, each waiting for
// its turn on a counter per column half of each query tile
// (croq.turn.wait / croq.turn.pass). The fused backward is correct (the
// GPU tests) but slower: 0.55-0.65x the two-kernel one on the H200 (0.42-
// 0.47 of SDPA's backward against 0.73-0.81 at 4x16x4096). Its dK/dV/dQ
// kernel, timed with parts left out (4x16x4096 f16 D128, 2026-12-02):
// 5.08 ms whole, 4.28 without the turns (adds unordered), 3.25 without
// the bulk adds, 2.53 without staging the f32 part in shared memory,
// against 1.71 ms for the dK/dV kernel and 1.28 for the dQ kernel: the
// consumers wait for the f32 store, the add and the turn in turn.
// Measured before: per-element red.global.add.f32 (croq.mma.accumulate)
// instead of bulk adds, 0.76-0.84x the bulk adds.
//
// attention_bwd_dq: a block takes 128 query rows of a head, the two
// consumer warpgroups 64 rows each; a producer warpgroup loads K and V
// tiles of 128 keys by TMA into rings of two stages (three at D = 64,
// 0.94 -> 0.89 ms for the bf16 kernel at 4x16x4096). A consumer first
// computes delta = rowsum(dO * O) of its rows as the diagonal of dO O^T
// (one 64x64 product) and writes it, then for each key tile j:
//
//   S = Q K_j^T, dP = dO V_j^T            (two products, committed apart)
//   P = exp2(S * scale' - lse')           (scale' = scale log2 e, lse' =
//                                          lse log2 e; masked keys -inf)
//   dS = P * (dP - delta)                 (per row)
//   dQ += dS K_j                          (dS in registers as wgmma's A)
//
// and stores dQ * scale.
//
// attention_bwd_dkdv: a block takes 128 keys of a key/value head, the two
// consumers 64 keys each, with their K and V rows as wgmma A operands in
// shared memory; the producer loads tiles of 64 query rows (128 at D =
// 64) of Q and dO (of every query head of the group: their sums are the
// K/V head's gradients) into a ring, three stages not causal (four at
// D = 64; 160 KB of shared memory in all at D = 128), two causal (three
// measured no faster). At D = 64, tiles of 64 rows left the products
// small (S^T and dP^T m64n64k64) and the waits, loads and barriers
// between them twice as many per flop: 128 rows took the D = 64 bf16
// dK/dV kernel from 1.33 to 1.12 ms at 4x16x4096 (H200, 2026-12-02). The
// producer also copies each query tile's log-sum-exp and delta values
// into shared memory, in the ring stage of its Q and dO, and the
// consumers read them there: read from global memory (32 loads a thread a
// tile), they left the kernel waiting on them, 2.6x as long at D = 128
// (H200, 2026-12-02: 4.43 -> 1.71 ms at 4x16x4096 f16; tensor pipes 27%
// busy before). For each query tile i, with the products transposed so
// that the keys are the accumulator's rows:
//
//   S^T = K Q_i^T, dP^T = V dO_i^T
//   P^T = exp2(S^T * scale' - lse'_i)     (lse per column)
//   dV += P^T dO_i                        (P^T in registers as A)
//   dS^T = P^T * (dP^T - delta_i)         (delta per column)
//   dK += dS^T Q_i
//
// and stores dK * scale and dV. Causal: key tile kb is seen by query rows
// from 128 kb on, so its loop starts at query tile 2 kb (kb with tiles of
// 128 rows), and only the query tiles that cross the diagonal (two, or
// one of 128 rows) are masked (key > query: P = 0).
// Rows past a sequence's end are zero-filled by the loads (their P and dS
// terms vanish with dO and Q's zero rows) and left out of the stores.
//
// attention_bwd_dkdvdq: attention_bwd_dkdv's block and loop; after dS^T,
// each consumer stores scale * dS^T of its 64 keys in shared memory (two
// buffers by iteration parity), and once both have (a named barrier of
// the two), computes its D / 2 columns of dQ_i's part over the block's
// 128 keys (dS read transposed as wgmma's A, K's columns as B), stores the
// 64 x D / 2 f32 part in a swizzled shared tile, waits for its turn (key
// block kb adds at turn kb), and adds the tile to the part's consecutive
// floats of the workspace with one bulk add; it passes the turn one
// iteration later, once the add is done, so that the add runs under the
// next tile's products. The workspace is [batch * heads * tiles * 64 * D]
// f32 (tiles = ceil(rows / 64)), each tile's two column halves in the
// shared tile's swizzled order; croq.attention.workspace_to_dq makes dQ.
//
// Registers: the D = 128 dQ kernels, the causal D = 128 dK/dV kernels and
// the D = 64 dK/dV kernels write their roles' counts (registers = 24 for
// the producer, 240 for the consumers): with the 56 / 224
// croq-plan-registers gives the others, their consumers spilled in the
// loop (H200, 2026-12-02: 0.74 -> 0.85 of SDPA's backward at 4x16x4096,
// causal f16; the D = 64 dK/dV kernel 1.47 -> 1.12 ms).
//
// Turns: at D = 64 the two consumers of the dQ and dK/dV kernels take
// turns to issue a tile's first two products (S and dP, or S^T and dP^T)
// on named barriers 0 and 1, as the forward's consumers do, so that one's
// exponentials run under the other's products: 2-3% faster there (H200,
// 2026-12-02); at D = 128 the dK/dV kernel ran 1.7% slower so (its loop
// spilled) and the dQ kernel no faster.
//
// Before launching, the host code checks every operand's extents against
// Q's and K's (the call fails naming the operand, and nothing runs).
//
//===----------------------------------------------------------------------===//
"""

DECLARATIONS = """
func.func private @croqRtRequireEqualExtents(i64, i64, i32, i32) -> i32
func.func private @croqRtRequireMultiple(i64, i64, i32) -> i32
"""

# Operand numbers of the attention extent check (CroqRuntime.h,
# CROQ_RT_EXTENTS_ATTENTION).
Q, K, V, OUT, LSE, DO, DQ, DK, DV, DELTA, DQ_ACC, TURNS = range(12)

CONFIGS = [("f16", 128, False), ("bf16", 128, False), ("f16", 64, False),
           ("bf16", 64, False), ("f16", 128, True), ("bf16", 128, True),
           ("f16", 64, True), ("bf16", 64, True)]


def suffix(T, D, causal):
    return ("_causal" if causal else "") + ("_d64" if D == 64 else "") + \
        f"_{T}"


class Writer:
    """One entry point being written: element type T, head dimension D,
    causality, the croq types it uses and its lines."""

    def __init__(self, T, D, causal):
        self.T, self.D, self.causal = T, D, causal
        self.MR = f"memref<?x?x?x{T}>"
        self.ML = "memref<?x?xf32>"
        self.R3 = f"!croq.tile<1x64x{D}x{T}, shared, swizzle = 128>"
        self.R2 = f"!croq.tile<64x{D}x{T}, shared, swizzle = 128>"
        self.RS = f"!croq.tiles<2 x 1x64x{D}x{T}, shared, swizzle = 128>"
        self.K3 = f"!croq.tile<1x128x{D}x{T}, shared, swizzle = 128>"
        self.K2 = f"!croq.tile<128x{D}x{T}, shared, swizzle = 128>"
        self.KS = f"!croq.tiles<2 x 1x128x{D}x{T}, shared, swizzle = 128>"
        self.RV = f"!croq.view<1x64x{D}x{T}>"
        self.KV = f"!croq.view<1x128x{D}x{T}>"
        self.RF = f"!croq.frag<64x{D}x{T}>"
        self.KF = f"!croq.frag<128x{D}x{T}>"
        self.LV = "!croq.view<1x64xf32>"
        self.E1 = "!croq.events<1>"
        self.E2 = "!croq.events<2>"
        # The dK/dV kernel's Q/dO ring (see dkdv_kernel).
        self.query_tile(64, 2 if causal else 3)
        self.pingpong = False
        self.lines = []

    def query_tile(self, rows, stages):
        """The dK/dV kernel's query tiles of `rows` rows in a ring of
        `stages`: the types of its Q/dO ring and of each query tile's
        log-sum-exp and delta in shared memory, in their ring beside the
        Q/dO ring."""
        T, D, n = self.T, self.D, stages
        self.QT = rows
        self.rstages = stages
        self.ER = f"!croq.events<{stages}>"
        self.QR3 = f"!croq.tile<1x{rows}x{D}x{T}, shared, swizzle = 128>"
        self.QR2 = f"!croq.tile<{rows}x{D}x{T}, shared, swizzle = 128>"
        self.QRV = f"!croq.view<1x{rows}x{D}x{T}>"
        self.QRF = f"!croq.frag<{rows}x{D}x{T}>"
        self.RSR = (f"!croq.tiles<{n} x 1x{rows}x{D}x{T}, shared, "
                    "swizzle = 128>")
        self.QLV = f"!croq.view<1x{rows}xf32>"
        self.LT = f"!croq.tile<1x{rows}xf32, shared>"
        self.LSR = f"!croq.tiles<{n} x 1x{rows}xf32, shared>"

    def roles(self, kernel):
        """The ` registers = N` of the producer's and the consumers'
        croq.inthreads of `kernel` (dq, dkdv or dkdvdq). The consumers of the
        D = 128 dQ kernels, the causal D = 128 dK/dV kernels and the D = 64
        dK/dV kernels (query tiles of 128 rows) spill with the 224 registers
        croq-plan-registers gives them (56 for the producer), so the
        producer keeps 24 and they take 240, all the 384 x 168 the block
        holds (H200, 2026-12-02, 4x16x4096 f16: causal dK/dV 1.11 -> 1.00
        ms and dQ 0.81 -> 0.72, dQ not causal 1.32 -> 1.25; D = 64 bf16
        dK/dV 1.47 at 224 against 1.12 at 240). The not-causal D = 128
        dK/dV kernel ran 1.05x as long so (1.75 -> 1.84 ms: its producer's
        loop spills at 24), the D = 64 dQ kernels spill nothing at 224, and
        the fused kernel keeps the planned counts."""
        planned = kernel == "dkdvdq" or (
            self.D == 128 and kernel == "dkdv" and not self.causal) or (
            self.D == 64 and kernel == "dq")
        if planned:
            return "", ""
        return " registers = 24", " registers = 240"

    def w(self, line):
        self.lines.append(line)

    def text(self):
        return "\n".join(self.lines) + "\n"


def constants(k, extra=()):
    w = k.w
    for c in (0, 1, 2) + tuple(extra) + (64, 128):
        w(f"  %c{c} = arith.constant {c} : index")
    w(f"  %cD = arith.constant {k.D} : index")


def check(k, n, tensor, dim, want, operand, mr):
    """The runtime check that dimension `dim` of `tensor` is `want`."""
    w = k.w
    w(f"  %x{n} = memref.dim {tensor}, %c{dim} : {mr}")
    w(f"  %x{n}_i64 = arith.index_cast %x{n} : index to i64")
    w(f"  %want{n}_i64 = arith.index_cast {want} : index to i64")
    w(f"  %operand{n} = arith.constant {operand} : i32")
    w(f"  %ok{n} = func.call @croqRtRequireEqualExtents(%x{n}_i64, "
      f"%want{n}_i64, %check_attention, %operand{n}) : "
      f"(i64, i64, i32, i32) -> i32")


def host_checks(k, operands, workspaces=(), prelude=()):
    """Checks the extents of `operands` (name, operand number, kind: "q"
    for [heads, seq, D], "kv" for [kv_heads, keys, D], "rows" for [heads,
    seq] f32) and of `workspaces` (name, operand number, the wanted extents
    as SSA names that `prelude`'s lines define) and defines %group."""
    w = k.w
    w(f"  %heads = memref.dim %q, %c0 : {k.MR}")
    w(f"  %seq = memref.dim %q, %c1 : {k.MR}")
    for line in prelude:
        w(line)
    w(f"  %kv_heads = memref.dim %k, %c0 : {k.MR}")
    w(f"  %keys = memref.dim %k, %c1 : {k.MR}")
    w("  // The operands' extents, checked before anything runs: a failed")
    w("  // check fails the call, naming the operand, and refuses its")
    w("  // launches.")
    w("  %check_attention = arith.constant 7 : i32")
    n = 0
    for name, operand, kind in operands:
        if kind == "rows":
            wants = [(0, "%heads"), (1, "%seq")]
            mr = k.ML
        else:
            wants = [(0, "%heads" if kind == "q" else "%kv_heads"),
                     (1, "%seq" if kind == "q" else "%keys"), (2, "%cD")]
            mr = k.MR
        for dim, want in wants:
            check(k, n, name, dim, want, operand, mr)
            n += 1
    for name, operand, dims, mr in workspaces:
        for dim, want in enumerate(dims):
            check(k, n, name, dim, want, operand, mr)
            n += 1
    w("  %heads_i64 = arith.index_cast %heads : index to i64")
    w("  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64")
    w("  %check_groups = arith.constant 0 : i32")
    w("  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, "
      "%kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32")
    w("  %kv_divisor = arith.maxui %kv_heads, %c1 : index")
    w("  %group = arith.divui %heads, %kv_divisor : index")
    w(f"  %log2e = arith.constant {fwd.LOG2E} : f32")
    w("  %scale = arith.mulf %sm_scale, %log2e : f32")


def read_vec(k, I, name, tensor, bh, tile, axis):
    """%name: a vector of 64 f32 (rows or cols) read from `tensor` [bh,
    64 tile ..], times log2 e when name is the log-sum-exp; zero past the
    end."""
    k.w(f"{I}%{name}_v = croq.subspan {tensor} [1, 64] at [{bh}, {tile}] : {k.ML} -> {k.LV}")
    vec_of(k, I, name, f"%{name}_v", k.LV, axis)


def read_staged_vec(k, I, name, ring, stage, axis):
    """%name: the k.QT f32 of the query tile's log-sum-exp (times log2 e)
    or delta that the producer staged in ring[stage]."""
    k.w(f"{I}%{name}_t = croq.stage {ring}[{stage}] : {k.LSR}")
    vec_of(k, I, name, f"%{name}_t", k.LT, axis, k.QT)


def vec_of(k, I, name, source, source_type, axis, n=64):
    """%name: the n f32 of `source` (a [1, n] view or shared tile), times
    log2 e when name is the log-sum-exp."""
    w = k.w
    vec = f"!croq.vec<{n}xf32, {axis}>"
    w(f"{I}%{name}_0 = croq.vec.fill %zero : {vec}")
    w(f"{I}%{name} = croq.vec.map %{name}_0 (%ix, %a) : {vec} {{")
    w(f"{I}  %x = croq.read {source}[%c0, %ix] : {source_type}")
    if name.startswith("lse"):
        w(f"{I}  %y = arith.mulf %x, %log2e : f32")
        w(f"{I}  croq.yield %y : f32")
    else:
        w(f"{I}  croq.yield %x : f32")
    w(f"{I}}}")


def turns_begin(k, I):
    """The consumers' turns to issue their first two products of a tile
    (FlashAttention-3's ping-pong, as in flash_attention.py): consumer c
    waits at named barrier c and hands the turn to the other; consumer 0
    goes first."""
    w = k.w
    w(f"{I}// Consumer c waits for its turn at named barrier c to issue a")
    w(f"{I}// tile's first products and hands the turn to the other, so")
    w(f"{I}// that one's exponentials run under the other's products;")
    w(f"{I}// consumer 0 goes first.")
    w(f"{I}%is_c0 = arith.cmpi eq, %half, %c0 : index")
    w(f"{I}%turn_mine = arith.select %is_c0, %c0, %c1 : index")
    w(f"{I}%turn_other = arith.select %is_c0, %c1, %c0 : index")
    w(f"{I}scf.if %is_c0 {{")
    w(f"{I}}} else {{")
    w(f"{I}  croq.named_barrier.arrive %c0, threads = 256")
    w(f"{I}}}")


def turns_end(k, I):
    """Consumer 1's last hand-over, taken by consumer 0 after the loop (both
    run as many tiles), so that no arrival outlives the block."""
    w = k.w
    w(f"{I}scf.if %is_c0 {{")
    w(f"{I}  croq.named_barrier.sync %c0, threads = 256")
    w(f"{I}}}")


# ---------------------------------------------------------------- dQ


def dq_kernel(T, D, causal):
    k = Writer(T, D, causal)
    w = k.w
    PR, CR = k.roles("dq")
    k.pingpong = pingpong(D)
    SA = "!croq.acc<64x128xf32>"
    OA = f"!croq.acc<64x{D}xf32>"
    PF = f"!croq.frag<64x128x{T}, registers>"
    VEC = "!croq.vec<64xf32, rows>"
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
    # Consumers.
    w(f"      croq.inthreads async %is_consumer{CR} {{")
    I = "        "
    w(f"{I}%half = arith.subi %p, %c1 : index")
    w(f"{I}%zero = arith.constant 0.0 : f32")
    w(f"{I}%ninf = arith.constant 0xFF800000 : f32")
    w(f"{I}%c7_i32 = arith.constant 7 : i32")
    w(f"{I}%cm8_i32 = arith.constant -8 : i32")
    w(f"{I}%q2x = arith.muli %bq, %c2 : index")
    w(f"{I}%row_block = arith.addi %q2x, %half : index")
    futures = []
    for t, src in (("q", "%q"), ("do", "%do"), ("o", "%o")):
        w(f"{I}%{t}v = croq.subspan {src} [1, 64, {D}] at [%bh, %row_block, %c0] : {k.MR} -> {k.RV}")
        w(f"{I}%{t}t = croq.stage %{t}_s[%half] : {k.RS}")
        w(f"{I}%f{t} = croq.copy tma async zfill swizzle = 128 %{t}v -> %{t}t : {k.RV} -> {k.R3}")
        futures.append(f"%f{t}")
    w(f"{I}croq.event.trigger %rready[%half] after ({', '.join(futures)}) : {k.E2}")
    w(f"{I}croq.event.wait %rready[%half] : {k.E2}")
    for t in ("q", "do", "o"):
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
        w(f"{J}croq.named_barrier.sync %turn_mine, threads = 256")
    w(f"{J}%s1 = croq.mma row row %sz, %qa, %kb : {k.RF}, {k.KF} -> {SA}")
    w(f"{J}%sc = croq.mma.commit %s1 pending = 1 : {SA}")
    w(f"{J}%dp1 = croq.mma row row %sz, %doa, %vb : {k.RF}, {k.KF} -> {SA}")
    w(f"{J}%dpc = croq.mma.commit %dp1 pending = 1 : {SA}")
    if k.pingpong:
        w(f"{J}croq.named_barrier.arrive %turn_other, threads = 256")
    w(f"{J}%s = croq.mma.wait %sc pending = 1 : {SA}")
    # The forward's mask: -inf past the keys' end or the diagonal.
    fk = fwd.Kernel("", T, D, causal)
    fk.indent = ""
    fwd.mask(fk, J, "%s", "%j", "t")
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
        turns_end(k, I)
    w(f"{I}%dqs = croq.mma.map %dqr (%row, %col, %x) : {OA} {{")
    w(f"{I}  %y = arith.mulf %x, %sm_scale : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}%dqv = croq.subspan %dq [1, 64, {D}] at [%bh, %row_block, %c0] : {k.MR} -> {k.RV}")
    w(f"{I}// Through the consumer's O tile (read only for delta), by TMA.")
    w(f"{I}croq.mma.store %dqs -> %o2 : {OA} -> {k.R2}")
    w(f"{I}%dq_stored = croq.copy tma async swizzle = 128 %ot -> %dqv : {k.R3} -> {k.RV}")
    w("      }")
    w("    }")
    w("  }")
    w("  return")
    w("}")
    return k.text()


# ---------------------------------------------------------------- dK, dV


def pingpong(D):
    """Whether the consumers of the dQ and dK/dV kernels take turns
    (turns_begin): at D = 64 (H200, 2026-12-02, 4x16x4096 bf16: dK/dV 1.04
    -> 1.01 ms, dQ 0.88 -> 0.86; causal f16 dQ 0.476 -> 0.468), not at
    D = 128 (dK/dV 1.84 -> 1.87 ms, its loop spilling 12 registers; dQ and
    causal no faster)."""
    return D == 64


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
    SA = f"!croq.acc<64x{QT}xf32>"
    OA = f"!croq.acc<64x{D}xf32>"
    PF = f"!croq.frag<64x{QT}x{T}, registers>"
    VEC = f"!croq.vec<{QT}xf32, cols>"
    DS3 = f"!croq.tile<1x64x64x{T}, shared, swizzle = 128>"
    DS2 = f"!croq.tile<64x64x{T}, shared, swizzle = 128>"
    DSS = f"!croq.tiles<4 x 1x64x64x{T}, shared, swizzle = 128>"
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
        w(f"    %ds_s = croq.alloc : {DSS}")
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
    w(f"      croq.inthreads async %is_producer{PR} {{")
    I = "        "
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
        w(f"{J}croq.named_barrier.sync %turn_mine, threads = 256")
    w(f"{J}%s1 = croq.mma row row %sz, %ka, %qb : {k.RF}, {k.QRF} -> {SA}")
    w(f"{J}%sc = croq.mma.commit %s1 pending = 1 : {SA}")
    w(f"{J}%dp1 = croq.mma row row %sz, %va, %dob : {k.RF}, {k.QRF} -> {SA}")
    w(f"{J}%dpc = croq.mma.commit %dp1 pending = 1 : {SA}")
    if k.pingpong:
        w(f"{J}croq.named_barrier.arrive %turn_other, threads = 256")
    read_staged_vec(k, J, "lse2", "%lse_s", "%stage", "cols")
    w(f"{J}%st = croq.mma.wait %sc pending = 1 : {SA}")
    if causal:
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
        sm = "%sm"
    else:
        sm = "%st"
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
        turns_end(k, I)
    w(f"{I}%dks = croq.mma.map %res#1 (%row, %col, %x) : {OA} {{")
    w(f"{I}  %y = arith.mulf %x, %sm_scale : f32")
    w(f"{I}  croq.yield %y : f32")
    w(f"{I}}}")
    w(f"{I}// Through the consumer's K and V tiles, by TMA.")
    for t, acc, tile in (("dk", "%dks", "k"), ("dv", "%res#0", "v")):
        w(f"{I}%{t}v = croq.subspan %{t} [1, 64, {D}] at [%bkv, %key_block, %c0] : {k.MR} -> {k.RV}")
        w(f"{I}croq.mma.store {acc} -> %{tile}2 : {OA} -> {k.R2}")
        w(f"{I}%{t}_stored = croq.copy tma async swizzle = 128 %{tile}t -> %{t}v : {k.R3} -> {k.RV}")
    w("      }")
    w("    }")
    w("  }")
    w("  return")
    w("}")
    return k.text()


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


def delta_kernel(T, D):
    """delta = rowsum(dO * O) of each query row, as the dQ kernel computes
    it: the diagonal of dO O^T, 64 rows a warpgroup."""
    k = Writer(T, D, False)
    w = k.w
    VEC = "!croq.vec<64xf32, rows>"
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
            check(k, n, name_, dim, want, operand, mr)
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
    futures = []
    for t, src in (("do", "%do"), ("o", "%o")):
        w(f"{I}%{t}v = croq.subspan {src} [1, 64, {D}] at [%bh, %row_block, %c0] : {k.MR} -> {k.RV}")
        w(f"{I}%{t}t = croq.stage %{t}_s[%half] : {k.RS}")
        w(f"{I}%f{t} = croq.copy tma async zfill swizzle = 128 %{t}v -> %{t}t : {k.RV} -> {k.R3}")
        futures.append(f"%f{t}")
    w(f"{I}croq.event.trigger %rready[%half] after ({', '.join(futures)}) : {k.E2}")
    w(f"{I}croq.event.wait %rready[%half] : {k.E2}")
    for t in ("do", "o"):
        w(f"{I}%{t}2 = croq.span_as %{t}t : {k.R3} -> {k.R2}")
        w(f"{I}%{t}a = croq.mma.load %{t}2 : {k.R2} -> {k.RF}")
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


def main():
    parts = [HEADER + DECLARATIONS]
    for T, D, causal in CONFIGS:
        s = suffix(T, D, causal)
        parts.append(f"// The training forward{s}: flash_attention.mlir's, "
                     "and the log-sum-exp.\n"
                     + fwd.kernel("attention_lse" + s, T, D, causal,
                                  lse=True))
        parts.append(f"// dQ and delta{s}.\n" + dq_kernel(T, D, causal))
        parts.append(f"// dK and dV{s}.\n" + dkdv_kernel(T, D, causal))
        if not causal:
            parts.append(f"// delta{s}.\n" + delta_kernel(T, D))
        parts.append(f"// dK, dV and dQ's f32 sums{s}.\n"
                     + dkdv_kernel(T, D, causal, fused=True))
    print("\n".join(parts), end="")


if __name__ == "__main__":
    main()
