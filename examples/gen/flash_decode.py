#!/usr/bin/env python3
"""Writes examples/flash_decode.mlir, the decoding attention kernels.

The eight entry points differ in element type, head dimension and the
cache's layout (contiguous or paged) only, so they are written from one
template here; test/Examples/flash-decode-generated.test checks that the
example is this script's output. Run it after editing the template:

    python3 examples/gen/flash_decode.py > examples/flash_decode.mlir

The parts: decode_common.py (constants, the kernel being written, the host
code), decode_split.py (the split kernel); the combine kernel is here.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decode_common import (  # noqa: E402
    COMBINE_THREADS, MERGE_UNROLL, SMS, STAGES, Kernel, host)
from decode_split import split_kernel  # noqa: E402

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
