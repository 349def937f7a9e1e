#!/usr/bin/env python3
"""Writes examples/flash_attention_bwd.mlir, the attention backward.

For each element type (f16, bf16), head dimension (128, 64) and causality,
three entry points: the forward that also saves each query row's
log-sum-exp (flash_attention.py's kernel with `lse`), the dQ kernel and the
dK/dV kernel, written by attention_bwd_dq.py and attention_bwd_dkdv.py
(what they share: attention_bwd_common.py). test/Examples/
flash-attention-bwd-generated.test checks that the example is this
script's output. Run it after editing any of them:

    python3 examples/gen/flash_attention_bwd.py > examples/flash_attention_bwd.mlir
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flash_attention as fwd  # noqa: E402
from attention_bwd_common import suffix  # noqa: E402
from attention_bwd_dkdv import dkdv_kernel  # noqa: E402
from attention_bwd_dq import delta_kernel, dq_kernel  # noqa: E402

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

CONFIGS = [("f16", 128, False), ("bf16", 128, False), ("f16", 64, False),
           ("bf16", 64, False), ("f16", 128, True), ("bf16", 128, True),
           ("f16", 64, True), ("bf16", 64, True)]


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
