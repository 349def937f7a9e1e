"""What the entry points of examples/flash_attention_bwd.mlir share.

examples/gen/flash_attention_bwd.py writes the attention backward with
attention_bwd_dq.py (the dQ and delta kernels) and attention_bwd_dkdv.py
(the dK/dV kernels, fused with dQ's sums or not); this module holds the
kernel being written (Writer: its types and lines), the host checks of
the operands' extents, the reads of log-sum-exp and delta vectors, and
the consumers' turns. Each function takes the Writer and writes into it.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attention_fwd_common import LOG2E, extent_check  # noqa: E402
from attention_fwd_consumer import first_turn  # noqa: E402

# Operand numbers of the attention extent check (CroqRuntime.h,
# CROQ_RT_EXTENTS_ATTENTION).
Q, K, V, OUT, LSE, DO, DQ, DK, DV, DELTA, DQ_ACC, TURNS = range(12)


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
            extent_check(k, n, name, dim, want, operand, mr)
            n += 1
    for name, operand, dims, mr in workspaces:
        for dim, want in enumerate(dims):
            extent_check(k, n, name, dim, want, operand, mr)
            n += 1
    w("  %heads_i64 = arith.index_cast %heads : index to i64")
    w("  %kv_heads_i64 = arith.index_cast %kv_heads : index to i64")
    w("  %check_groups = arith.constant 0 : i32")
    w("  %ok_groups = func.call @croqRtRequireMultiple(%heads_i64, "
      "%kv_heads_i64, %check_groups) : (i64, i64, i32) -> i32")
    w("  %kv_divisor = arith.maxui %kv_heads, %c1 : index")
    w("  %group = arith.divui %heads, %kv_divisor : index")
    w(f"  %log2e = arith.constant {LOG2E} : f32")
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
    first_turn(k, I)


def pingpong(D):
    """Whether the consumers of the dQ and dK/dV kernels take turns
    (turns_begin): at D = 64 (H200, 2026-12-02, 4x16x4096 bf16: dK/dV 1.04
    -> 1.01 ms, dQ 0.88 -> 0.86; causal f16 dQ 0.476 -> 0.468), not at
    D = 128 (dK/dV 1.84 -> 1.87 ms, its loop spilling 12 registers; dQ and
    causal no faster)."""
    return D == 64
